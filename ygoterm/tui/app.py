"""The Textual app: a thin shell that opens the menu and starts duels (screens do the rest).

The menu is drawn before the card pool and the engine are loaded (docs/design.md, "Cold
start"): what only a duel, the deck screens or the editor need is imported where they start,
and `pool` waits for a `PoolLoader` that loads the pool on a thread meanwhile."""

from __future__ import annotations

import sys
import traceback

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Iterable

import rich.control as rich_control
import textual.content as textual_content
from textual import events
from textual.app import App
from textual.binding import Binding
from textual.message import Message

from ..bugs import write_report
from ..engine import Option
from .. import paths
from ..paths import AUTOSAVE, autosaves
from ..schema.printable import escape_controls_in
from ..schema.problems import DataError, Problem, display_path
from .idle_gc import IdleCollector
from .pool_loader import PoolLoader
from .presenters.settings import Settings, new_seed, puzzle_files, saved_duels
from .screens.dialogs import ConfirmScreen, MessageScreen, QuestionScreen, SafeCommandPalette, TooSmallScreen
from .screens.menu import MenuScreen, SettingsScreen
from .widgets.questions import ChoicePrompt

if TYPE_CHECKING:
    from ..schema.cardpool import CardPool
    from ..schema.decks import Deck
    from ..schema.rules import Rules
    from .presenters.session import Session
    from .screens.duel import DuelScreen


MIN_SIZE = (80, 24)  # the screens are laid out for this; below it the app says so (TooSmallScreen)

# a name or card text from a file that holds ESC … is drawn as '\x1b', never sent to the terminal
# raw (schema/printable.py): in the tables where rich and Textual strip control characters
# (private to them: tests/test_bad_inputs.py fails if an upgrade moves one)
for _library in (rich_control, textual_content):
    escape_controls_in(getattr(_library, "_CONTROL_STRIP_TRANSLATE", {}))


class YgoApp(App):
    CSS_PATH = "styles.tcss"
    TITLE = "ygoterm"
    COMMANDS: ClassVar[set] = set()  # only the screens' own commands (manual actions), no Textual system commands
    # the palette key is not a priority binding (Textual's default is): the duel screen's own
    # ctrl+p ("manual", shown only when manual actions are allowed) comes first
    BINDINGS = [Binding("ctrl+p", "command_palette", "palette", show=False)]

    crash_report: Path | None = None  # where an unexpected exception left its traceback and replay

    def _handle_exception(self, error: Exception) -> None:
        """An unexpected exception anywhere in the TUI: keep its traceback and the duel's replay in
        the bugs folder before Textual shuts down (the CLI then exits with EXIT_INTERNAL)."""
        if self.load_error is not None and error is self.load_error:
            self.exit(return_code=2)  # a broken card file: the CLI lists its problems (cli/menu.py)
            return
        from .presenters.match_session import MatchRun
        from .screens.duel import DuelScreen

        run = next((s.run for s in reversed(self.screen_stack) if hasattr(s, "run") and isinstance(s.run, MatchRun)), None)
        duel = next((s.session.duel for s in reversed(self.screen_stack) if isinstance(s, DuelScreen)), None)
        replay_json = duel.record.to_json() if duel is not None and duel.record is not None else None
        if run is not None:  # a match: its save holds every duel (ygoterm open plays it on)
            replay_json = run.match.record.to_json()
        self.crash_report = write_report(replay_json, "".join(traceback.format_exception(error)))
        super()._handle_exception(error)

    def get_system_commands(self, screen: Any) -> Iterable[Any]:
        return ()  # (Screenshot to ~/Downloads, Quit, Theme … are not ours to offer)

    def action_command_palette(self) -> None:
        if self.use_command_palette and not SafeCommandPalette.is_open(self):
            self.push_screen(SafeCommandPalette(id="--command-palette"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The palette opens only over a screen that offers commands (the duel screen)."""
        if action == "command_palette":
            return bool(getattr(self.screen, "COMMANDS", None))
        return True

    # ------------------------------------------------------------------ terminal too small

    def on_resize(self, event: events.Resize) -> None:
        self._check_size((event.size.width, event.size.height))

    def _check_size(self, size: tuple[int, int]) -> None:
        """Below MIN_SIZE a message covers everything (panels would vanish without a word); it
        goes away when the terminal is large enough again."""
        small = size[0] < MIN_SIZE[0] or size[1] < MIN_SIZE[1]
        top = self.screen_stack[-1] if self.screen_stack else None
        if isinstance(top, TooSmallScreen):
            if small:
                top.show_size(size)
            else:
                self.pop_screen()
        elif small and top is not None:
            super().push_screen(TooSmallScreen(size, MIN_SIZE))

    def push_screen(self, screen: Any, callback: Any = None) -> Any:  # type: ignore[override]  # (we never wait_for_dismiss)
        """A screen pushed while the terminal is too small (an AI's move that asks a question)
        goes under the message, which stays on top."""
        top = self.screen_stack[-1] if self.screen_stack else None
        if not isinstance(top, TooSmallScreen) or isinstance(screen, TooSmallScreen):
            return super().push_screen(screen, callback)
        self.pop_screen()
        pushed = super().push_screen(screen, callback)
        super().push_screen(TooSmallScreen(top.now, MIN_SIZE))
        return pushed

    def __init__(self, pool: CardPool | PoolLoader, deck_dirs: list[Path], *, start: Any = None) -> None:
        super().__init__()
        self._pool = pool
        self.load_error: DataError | None = None  # the card files could not be loaded (the CLI reports it, exit 2)
        self.deck_dirs = deck_dirs
        self.settings = Settings.load()
        self.start = start  # a callable returning the first screen after the menu (CLI shortcuts)
        self.idle_gc = IdleCollector()
        self.asked_at = 0.0  # when the question on screen was asked (`asking_now`)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key):
            if event.time < self.asked_at:
                return  # pressed before the question on screen was asked: it never answers it (typed ahead, or while the screen was busy)
            self.idle_gc.key()
        await super().on_event(event)

    def asking_now(self) -> None:
        """A question (a prompt, a curtain, a message) is on screen from now: keys pressed
        before — while the AI played, or typed ahead of it — do not answer it."""
        self.asked_at = time.monotonic()

    def on_unmount(self) -> None:
        self.idle_gc.uninstall()

    @property
    def pool(self) -> CardPool:
        """The card pool; while it is still loading (the menu came first), wait for it."""
        if isinstance(self._pool, PoolLoader):
            try:
                self._pool = self._pool.get()
            except DataError as e:
                self.load_error = e
                raise
        return self._pool

    def wait_for_pool(self) -> CardPool:
        """What a menu entry does first: the pool, and the loader's imports done (no module is
        then imported on two threads at once, tui/pool_loader.py)."""
        return self.pool

    class PoolFailed(Message):
        """The card pool could not be loaded (posted from the loading thread: post_message is thread-safe)."""

    def _pool_failed(self) -> None:
        """(On the loading thread.) A broken card file ends the app at once: the CLI lists its problems."""
        self.post_message(self.PoolFailed())

    def on_ygo_app_pool_failed(self, _: PoolFailed) -> None:
        loader = self._pool
        if isinstance(loader, PoolLoader) and isinstance(loader.error, DataError):
            self.load_error = loader.error
            self.exit(return_code=2)

    def on_mount(self) -> None:
        self.idle_gc.install(self)
        self.push_screen(MenuScreen())
        if isinstance(self._pool, PoolLoader):
            loader = self._pool
            self.call_after_refresh(lambda: loader.start(self._pool_failed))  # once the menu is drawn
        if self.settings.problem:
            self.notify(f"{self.settings.problem}. Using the default settings; changing a setting rewrites the file.",
                        severity="error", timeout=30, markup=False)  # (the app itself: PlainNotifications is for screens)
        if self.start is not None:
            self.push_screen(self.start(self))
        self._check_size((self.size.width, self.size.height))

    # ------------------------------------------------------------------ starting duels

    def hot_seat_screen(self, decks: tuple[Deck, Deck], seed: int, rules: Rules | None = None) -> DuelScreen:
        """`rules`: the CLI's (its flags win over the settings, which are never changed by them)."""
        from ..engine import Duel
        from ..schema.legality import rules_of_decks
        from .presenters.decks import manual_rules
        from .presenters.session import Seat, Session
        from .screens.duel import DuelScreen

        s = self.settings
        seats = (Seat(s.names[0], "human", s.prompts[0]), Seat(s.names[1], "human", s.prompts[1]))
        rules = rules_of_decks(decks, rules or s.rules())  # (a deck built for rules: goat plays under them)
        duel = Duel.new(self.pool, decks, seed, manual_rules(rules, decks), (s.names[0], s.names[1]))
        session = Session.start(duel, self.pool, seats, hot_seat=True, table_asks=s.table_asks)
        return DuelScreen(session, title="hot-seat")

    def solo_session(self, decks: tuple[Deck, Deck], opponent: str, seed: int, rules: Rules | None = None, *,
                     first: bool | None = True, autosave: bool = True) -> Session:
        """A solo duel up to your first question: you go first (`first`), second (False), or the
        coin-toss winner chooses (None, R-SETUP-3: you are asked if you won it). The deck lab
        deals its test hands through this too, so a seed it found gives the same hand here."""
        from ..engine import Duel
        from ..schema.legality import rules_of_decks
        from .presenters.decks import solo_seats
        from .presenters.session import Session

        seats = solo_seats(opponent, self.settings.names, self.settings.solo_prompt)
        rules = rules_of_decks(decks, rules or self.settings.rules())  # (a deck built for rules: goat plays under them)
        duel = Duel.new(self.pool, decks, seed, rules, (seats[0].name, seats[1].name), solo=True)
        session = Session(duel, self.pool, seats, hot_seat=False, viewer=0, prefer_first=first, think_apart=True,
                          autosave=autosave)
        session.run_agents()
        return session

    def solo_screen(self, decks: tuple[Deck, Deck], opponent: str, seed: int, rules: Rules | None = None, *,
                    first: bool | None = True) -> DuelScreen:
        """A solo duel's screen: you go first, second, or (None) the coin-toss winner chooses."""
        from .screens.duel import DuelScreen

        session = self.solo_session(decks, opponent, seed, rules, first=first)
        screen = DuelScreen(session, title=f"solo vs {session.seats[1].name}", solo=True)
        screen.prefer_first = first is not False  # (t on the duel screen deals new hands on the same side)
        return screen

    def first_as_set(self) -> bool | None:
        """Going first when you play alone, as the Settings say: None (the coin-toss winner
        chooses, R-SETUP-3) or True (you always go first)."""
        return True if self.settings.go_first == "always" else None

    def puzzle_screen(self, path: Path) -> DuelScreen:
        """A scenario's position to play by hand (its extra `cards:` included). Raises DataError,
        with file:line, for a broken file or an unknown card."""
        from ..scenarios import PoolCache, ai_sides, prepare, puzzle_of
        from .presenters.session import Seat, Session
        from .screens.duel import DuelScreen

        pools = PoolCache(base=self.pool)
        scenario, duel, pool = prepare(path, pools)
        duel.solo = True
        if duel.record is not None:
            duel.record.solo = True
        names = duel.names
        # The sides the AI plays ("survive this turn" against it); you play the others, asked at
        # every window where you could respond (a puzzle is about timing), as `scenario check` is.
        kinds = ai_sides(scenario)
        seats = tuple(Seat(names[p], kinds.get(p, "human"), "able") for p in (0, 1))
        session = Session.start(duel, pool, (seats[0], seats[1]), hot_seat=False, think_apart=True)
        return DuelScreen(session, title=f"puzzle: {scenario.name}", solo=True, briefing=scenario.description or "",
                          puzzle=puzzle_of(scenario))

    # ------------------------------------------------------------------ menu items

    def menu_hotseat(self) -> None:
        self.wait_for_pool()
        from .presenters.decks import survey_decks
        from .screens.decks import DeckPicker

        entries = survey_decks(self.pool, self.deck_dirs)

        def second(first: Deck | None) -> None:
            if first is None:
                return
            self.push_screen(DeckPicker(f"{self.settings.names[1]}: choose a deck", entries),
                             lambda deck: deck and self.push_screen(self.hot_seat_screen((first, deck), new_seed())))

        self.push_screen(DeckPicker(f"{self.settings.names[0]}: choose a deck", entries), second)

    def menu_solo(self) -> None:
        self.wait_for_pool()
        from ..agents.ai import ABOUT
        from .presenters.decks import ai_refusal, survey_decks
        from .screens.decks import DeckPicker

        entries = survey_decks(self.pool, self.deck_dirs)

        def opponent(mine: Deck | None) -> None:
            if mine is None:
                return
            options = [Option("goldfish", "Goldfish: the opponent does nothing"),
                       Option("ai:normal", "The AI (normal), playing a copy of your deck"),
                       Option("ai:easy", f"The AI (easy: {ABOUT['easy']})"), Option("ai:hard", f"The AI (hard: {ABOUT['hard']})"),
                       Option("random", "Random play (any legal move)"), Option("deck", "Another deck, played by you too")]

            def chosen(option: Option | None) -> None:
                if option is None:
                    return
                if option.key == "deck":
                    self.push_screen(DeckPicker("Opponent's deck", entries),
                                     lambda other: other and self.push_screen(self.solo_screen((mine, other), "deck", new_seed(),
                                                                                                first=self.first_as_set())))
                elif option.key.startswith("ai:") and (why := ai_refusal(mine)):
                    self.push_screen(MessageScreen("The AI cannot play this deck",
                                                   f"{why}.\n\nPlay it against the goldfish or a deck you play too, or give the AI "
                                                   "another deck (Duel vs computer)."))
                else:
                    self.push_screen(self.solo_screen((mine, mine), option.key, new_seed(), first=self.first_as_set()))

            self.push_screen(QuestionScreen(ChoicePrompt("Who plays against you?", options)), chosen)

        self.push_screen(DeckPicker("Your deck", entries), opponent)

    def menu_vscomputer(self) -> None:
        self.wait_for_pool()
        from . import match_menu

        match_menu.menu_vs_computer(self, lambda decks, level: self.solo_screen(decks, level, new_seed(), first=self.first_as_set()))

    def menu_match(self) -> None:
        self.wait_for_pool()
        from . import match_menu

        match_menu.menu_match(self)

    def menu_puzzles(self) -> None:
        self.wait_for_pool()
        files = puzzle_files()
        if not files:
            self.push_screen(MessageScreen("Puzzles", "No puzzles found (ygoterm/puzzles or puzzles/ in your user data dir)."))
            return
        from ..schema.scenario import read_scenario

        options = []
        for path in files:
            try:
                scenario, _, _ = read_scenario(path)
                tags = [scenario.goal or "", "vs AI" if scenario.ai else ""]  # (win / survive this turn; the AI plays the opponent)
                shown = ", ".join(t for t in tags if t)
                options.append(Option(str(path), scenario.name + (f" ({shown})" if shown else "")))
            except DataError as e:
                options.append(Option(str(path), f"{path.name} (unreadable: {e.problems[0].message})"))

        def chosen(option: Option | None) -> None:
            if option is not None:
                try:
                    self.push_screen(self.puzzle_screen(Path(option.key)))
                except DataError as e:
                    self.push_screen(MessageScreen("This puzzle cannot be loaded", "\n".join(map(str, e.problems))))

        self.push_screen(QuestionScreen(ChoicePrompt("Puzzles", options)), chosen)

    def menu_decks(self) -> None:
        self.wait_for_pool()
        from .presenters.decks import survey_decks
        from .screens.decks import DeckBrowser

        self.push_screen(DeckBrowser(survey_decks(self.pool, self.deck_dirs)))

    def menu_lab(self) -> None:
        self.wait_for_pool()
        from .presenters.decks import survey_decks
        from .screens.decks import DeckPicker
        from .screens.lab import LabScreen

        entries = survey_decks(self.pool, self.deck_dirs)
        self.push_screen(DeckPicker("Deck lab: choose a deck", entries),
                         lambda deck: deck and self.push_screen(LabScreen(next(e.path for e in entries if e.deck is deck))))

    def menu_settings(self) -> None:
        self.push_screen(SettingsScreen(self.settings))

    def saved_screen(self, path: Path) -> DuelScreen:
        """A saved duel (a replay record) played on from where it stopped, with the same seats:
        solo stays solo (its agents keep playing), hot-seat gets this machine's prompt settings.
        A match save resumes the match. Raises DataError for a damaged or mismatched save, or
        an autosave another running ygoterm is playing on; a resumed autosave goes on in its file."""
        kind = paths.autosave_kind(path)
        if kind is not None and not paths.hold(path):
            raise DataError([Problem(display_path(path), 0, 0, "", "this game is being played in another ygoterm "
                                     "(another terminal or browser tab)", "play on there, or quit it and resume here")])
        screen = self._saved_screen(path)
        keeper = getattr(screen, "run", None) or getattr(screen, "session", None)  # (a match's run keeps its autosave)
        if kind is not None and keeper is not None:
            keeper.autosave_file = path
            if kind != "match":
                keeper.autosave_kind = kind
        return screen

    def _saved_screen(self, path: Path) -> DuelScreen:
        self.wait_for_pool()
        from ..engine import load_duel
        from . import match_menu
        from .presenters.match_session import MatchRun, is_match_save
        from .presenters.session import Seat, Session
        from .screens.duel import DuelScreen

        if is_match_save(path):
            s = self.settings
            run = MatchRun.load(path, self.pool, (s.prompts[0], s.prompts[1]), alone=s.solo_prompt)
            run.table_asks = s.table_asks
            return match_menu.match_screen(run)
        duel = load_duel(path, self.pool)
        title = f"resumed {path.stem}"
        if duel.solo:
            kinds = (duel.record.meta.get("seats") if duel.record else None) or ["human", "human"]
            alone = self.settings.solo_prompt
            seats = (Seat(duel.names[0], kinds[0], alone if kinds[0] == "human" else "auto"),
                     Seat(duel.names[1], kinds[1], alone if kinds[1] == "human" else "auto"))
            # (an AI seat thinks in the screen's worker, as in a new solo duel)
            return DuelScreen(Session.start(duel, self.pool, seats, hot_seat=False, think_apart=True), title=title, solo=True)
        s = self.settings
        seats = (Seat(duel.names[0], "human", s.prompts[0]), Seat(duel.names[1], "human", s.prompts[1]))
        return DuelScreen(Session.start(duel, self.pool, seats, hot_seat=True, table_asks=s.table_asks), title=title)

    def _open_saved(self, path: Path) -> None:
        try:
            screen = self.saved_screen(path)
        except DataError as e:
            self.push_screen(MessageScreen("This saved duel cannot be opened", "\n".join(map(str, e.problems))))
            return
        self.push_screen(screen)
        if path.name == AUTOSAVE:  # an older version's one autosave: from now on, its kind's own
            keeper = getattr(screen, "session", None) or getattr(screen, "run", None)
            if keeper is not None:
                keeper.save_auto()
                if not keeper.autosave_error:
                    path.unlink(missing_ok=True)

    def menu_resume(self) -> None:
        """Resume an unfinished game: its autosave, or the one chosen when there are several (one
        per kind of game: hot-seat, solo, match, a lab test hand)."""
        found = autosaves()
        if len(found) == 1:
            self._open_saved(found[0][1])
            return
        options = [Option(str(path), f"{what[:1].upper()}{what[1:]}  ({time.strftime('%Y-%m-%d %H:%M', time.localtime(path.stat().st_mtime))})")
                   for what, path in found]

        def chosen(option: Option | None) -> None:
            if option is not None:
                self._open_saved(Path(option.key))

        self.push_screen(QuestionScreen(ChoicePrompt("Resume which game?", options)), chosen)

    def menu_saves(self) -> None:
        files = saved_duels()
        options = [Option(str(path), f"{path.stem}  ({time.strftime('%Y-%m-%d %H:%M', time.localtime(path.stat().st_mtime))})")
                   for path in files]

        def chosen(option: Option | None) -> None:
            if option is not None:
                self._open_saved(Path(option.key))

        self.push_screen(QuestionScreen(ChoicePrompt("Saved duels", options)), chosen)

    def menu_quit(self) -> None:
        self.exit()

    async def action_quit(self) -> None:
        """Quit, but never with a deck editor's unsaved changes: save, discard or stay."""
        editors = sys.modules.get(f"{__package__}.screens.deck_editor")  # (not imported yet: no editor was ever opened)
        editor = next((s for s in self.screen_stack if editors and isinstance(s, editors.DeckEditor) and s.dirty), None)
        if editor is None:
            self.exit()
            return

        def answered(choice: str | None) -> None:
            if (choice == "save" and editor.action_save()) or choice == "discard":
                self.exit()

        assert editors is not None  # (an editor is open)
        self.push_screen(editors.UnsavedDialog(editor.draft.name, leaving="quitting"), answered)

    def action_confirm_quit(self) -> None:
        """Esc on the main menu: quit, but only after a yes (Esc is also "back" everywhere else)."""
        saved = "Your unfinished games stay autosaved: \"Resume\" plays on from them." if autosaves() else ""
        self.push_screen(ConfirmScreen("Quit ygoterm?", saved, yes="quit", no="stay"), self._quit_if)

    def _quit_if(self, yes: bool | None) -> None:
        if yes:
            self.exit()
