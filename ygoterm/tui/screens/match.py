"""The match screens: a duel of a match (the duel screen with the match bar), the break between
duels, and the side-deck screen. Every rule is the engine's: these screens show `Match` and its
decisions (Kind.SIDE's options and refusals, Kind.FIRST) and hand the answers to `MatchRun`.

Flow: MatchDuelScreen (duel 1) → its end-of-duel dialog → MatchBreakScreen: each person with a
Side Deck sides behind the curtain in hot-seat (SideDeckScreen), the loser chooses to go first or
second → MatchDuelScreen (duel 2) … → the match's result. Screens replace each other
(`switch_screen`), so leaving always lands on the menu.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option as ListOption

from ...engine import DuelResult, IllegalChoice, Kind, Match, Option, SideDone, TimeCalled, siding
from ...schema.cards import Card
from ..presenters.match_session import MatchRun
from ..widgets.panels import TextPanel
from ..widgets.questions import ChoicePrompt
from .base import PlainNotifications
from .dialogs import ConfirmScreen, CurtainScreen, DuelOverScreen, MessageScreen, QuestionScreen
from .duel import DuelScreen


# ---------------------------------------------------------------------- the match bar


def match_line(match: Match) -> Text:
    """' Match · duel 2 · Alice 1–0 Bob · 38:12 left' — the score, the duel and the match clock."""
    names = match.names
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(" Match ", style="bold reverse")
    extra = bool(match.extra) and match.extra[-1]
    text.append(f" {'extra duel' if extra else f'duel {match.number}'} · ", style="bold")
    text.append(f"{names[0]} {match.score.wins(0)}–{match.score.wins(1)} {names[1]}", style="bold #e8c170")
    if match.score.draws:
        text.append(f" ({match.score.draws} draw{'s' if match.score.draws != 1 else ''})", style="#e8c170")
    if match.outcome is not None:
        winner = "a draw" if match.outcome.winner is None else f"{names[match.outcome.winner]} wins"
        text.append(f" · match over: {winner}", style="bold green")
    status = match.clock_status()
    clock = status.text()
    if clock:
        style = "bold red" if status.stage == "sudden death" else "bold yellow" if status.called else "bold cyan"
        text.append(" · " if status.called else " · time ", style="dim")
        text.append(clock, style=style)
    return text


class MatchBar(TextPanel):
    """One line over the duel: the match's duel number, score and clock."""

    def show(self, match: Match) -> None:
        self.update(match_line(match))


class ClockNotices(PlainNotifications):
    """Tournament notices as they come (R-TIME-1: turns and breaks have guidelines, never a
    penalty): time called, a long turn, a long break — each said once."""

    def _init_notices(self, run: MatchRun) -> None:
        self._seen_log = len(run.match.log)
        self._warned: set[Any] = set()

    def _notices(self, run: MatchRun) -> None:
        match = run.match
        for event in match.log[self._seen_log:]:
            if isinstance(event, TimeCalled):
                self.notify(f"{event.text(match.names)}. The engine runs the time procedure (R-TIME-2…7).",
                            severity="warning", timeout=12)
        self._seen_log = len(match.log)
        status = match.clock_status()
        limits = match.rules.time
        if status.turn_warning:
            key: tuple[object, ...] = ("turn", match.number, match.duel.turn)
            if key not in self._warned:
                self._warned.add(key)
                self.notify(f"This turn has taken over {limits.turn_minutes:g} minutes — a reminder of the guideline "
                            "(R-TIME-1), not a penalty.", timeout=10)
        if status.break_warning:
            key = ("break", match.number)
            if key not in self._warned:
                self._warned.add(key)
                self.notify(f"The break has lasted over {limits.break_minutes:g} minutes (R-TIME-1: a reminder, "
                            "not a penalty).", timeout=10)


# ---------------------------------------------------------------------- a duel of the match


class MatchDuelOver(DuelOverScreen):
    """The end of a duel of a match: the board, the next duel (r), or the menu."""

    def __init__(self, title: str, outcome: str, again: list[Option], note: str) -> None:
        super().__init__(outcome, again, note)
        self.title_line = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.title_line, style="bold"), classes="dialog-title")
            yield Static(Text(self.outcome, style="bold"))
            if self.note:
                yield Static(Text(self.note))
            yield OptionList(*[ListOption(o.label, id=f"o{i}") for i, o in enumerate(self.options)], id="choices")
            keys = "Enter choose" + (" · r next duel" if self.again else "") + " · q menu · Esc the board"
            yield Static(keys, classes="dialog-help")


class MatchDuelScreen(ClockNotices, DuelScreen):
    """A duel of a match: the duel screen with the match bar on top. No undo, restart or rematch;
    r once the duel is over goes on to the break (side-decking, the loser's choice)."""

    CSS_PATH = "match.tcss"

    BINDINGS = [Binding("r", "rematch", "next duel")]  # (replaces the duel screen's r: restart / rematch)

    def __init__(self, run: MatchRun, *, title: str = "") -> None:
        self.run = run
        super().__init__(run.duel_session(), title=title or ("hot-seat match" if run.hot_seat else "match"))
        self._init_notices(run)

    def compose(self) -> ComposeResult:
        yield MatchBar(id="match-bar")
        yield from super().compose()

    def on_mount(self) -> None:
        super().on_mount()
        self.match_bar = self.query_one(MatchBar)
        self.match_bar.show(self.run.match)
        if self.run.match.tournament:
            self.set_interval(1.0, self.tick)

    def tick(self) -> None:
        """The match clock (tournament mode): time can run out while someone thinks."""
        if self.thinking:  # (the AI reads the duel in a worker: the answer it gives reads the clock anyway)
            return
        called = self.run.match.tick()
        self._notices(self.run)
        self.match_bar.show(self.run.match)
        if called:
            self.run.save_auto()
            self.advance()

    def refresh_board(self) -> None:
        super().refresh_board()
        if hasattr(self, "match_bar"):
            self.match_bar.show(self.run.match)
            self._notices(self.run)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("undo", "restart", "test_hand", "toggle_first", "save"):
            return action == "save" and super().check_action(action, parameters)
        if action == "rematch" and self.run.match.outcome is not None:
            return False  # the match is over: no next duel (the key bar must not offer one)
        return super().check_action(action, parameters)

    def action_duel_over(self) -> None:
        """The duel's result and the match's: the next duel (after side-decking and the loser's
        choice, R-MATCH-3/4), the board, or the menu."""
        s = self.session
        match = self.run.match
        if self.asking or s.duel.outcome is None:
            return
        names = match.names
        score = f"{names[0]} {match.score.wins(0)}–{match.score.wins(1)} {names[1]}" + (
            f" ({match.score.draws} draw{'s' if match.score.draws != 1 else ''})" if match.score.draws else "")
        again: list[Option] = []
        if match.outcome is not None:
            title = "The match is over"
            note = f"{match.outcome.text(names)}\nScore: {score}"
        else:
            title = f"Duel {match.number} is over"
            extra = match.next_is_extra
            next_duel = "the extra duel (R-TIME-6)" if extra else f"duel {match.number + 1}"
            steps = []
            if match.siding:
                steps.append("side-decking (" + ", ".join(names[p] for p in match.siding) + ")")
            if match.chooser is not None:
                steps.append(f"{names[match.chooser]} chooses to go first or second (R-MATCH-3)")
            note = f"Score: {score}\nNext: {', then '.join(steps)}, then {next_duel}."
            again = [Option("next", f"On to {next_duel}")]

        def chosen(key: Any) -> None:
            if key == "next":
                self.app.switch_screen(MatchBreakScreen(self.run))
            elif key == "menu":
                self.app.pop_screen()

        self.ask(MatchDuelOver(title, s.duel.outcome.text(names), again, note), chosen)

    def action_quit_duel(self) -> None:
        """q: the menu. During a duel it asks first (the match stays autosaved)."""
        if self.asking:
            return
        if self.session.duel.outcome is not None:
            self.app.pop_screen()
            return
        self.run.save_auto()
        body = (f"The autosave is failing ({self.run.autosave_error}): answer n, then s saves the match under a name."
                if self.run.autosave_error else
                "The match is autosaved: \"Resume\" on the menu plays on from here (until another duel starts).")
        self.ask(ConfirmScreen("Leave the match?", body, yes="leave", no="play on"), self._leave_or_stay)


# ---------------------------------------------------------------------- between duels


class MatchBreakScreen(ClockNotices, PlainNotifications, Screen):
    """Between duels (and after the match): the score so far and what comes next. Drives the
    match decisions between duels: each person's side-decking (behind the curtain in hot-seat),
    then the loser's go-first/second choice; agents answer theirs by themselves."""

    CSS_PATH = "match.tcss"

    BINDINGS = [Binding("enter", "go_on", "go on"), Binding("q", "leave", "menu")]

    def __init__(self, run: MatchRun) -> None:
        super().__init__()
        self.run = run
        self.asking = False
        self._init_notices(run)

    def compose(self) -> ComposeResult:
        yield MatchBar(id="match-bar")
        with Vertical(id="break"):
            yield Static("", id="break-body")
        yield Footer()

    def on_mount(self) -> None:
        self.match_bar = self.query_one(MatchBar)
        if self.run.match.tournament:
            self.set_interval(1.0, self.tick)
        self.call_after_refresh(self.advance)

    def tick(self) -> None:
        if self.run.match.tick():
            self.run.save_auto()
        self._notices(self.run)
        self.draw()

    def on_screen_resume(self) -> None:
        self.draw()

    def draw(self) -> None:
        """Public information only: results, who has finished siding (never what they sided)."""
        match = self.run.match
        names = match.names
        self.match_bar.show(match)
        text = Text()
        for event in match.log:
            if isinstance(event, DuelResult):
                text.append(event.text(names) + "\n")
            elif isinstance(event, SideDone):
                text.append(f"  {names[event.player]} has finished side-decking for duel {event.before}\n", style="dim")
            elif isinstance(event, TimeCalled):
                text.append(event.text(names) + "\n", style="bold yellow")
        text.append("\n")
        status = match.clock_status()
        if match.tournament and match.stage == "between":
            text.append(f"Break: {int(status.break_seconds) // 60}:{int(status.break_seconds) % 60:02d}", style="bold")
            text.append(f" (R-TIME-1: about {match.rules.time.break_minutes:g} minutes; the match clock runs)\n",
                        style="bold yellow" if status.break_warning else "dim")
        if match.outcome is not None:
            text.append(match.outcome.text(names) + "\n", style="bold green")
            text.append("Enter or q: back to the menu", style="dim")
        elif (d := match.pending) is not None and match.stage == "between":
            if d.kind == Kind.SIDE:
                who = names[d.player]
                text.append(f"Now: {who} side-decks for duel {match.number + 1} (R-MATCH-4). ", style="bold")
                text.append("Enter: " + (f"the curtain, then {who}'s Side Deck" if self.run.side_curtain(d.player) else "side-deck"), style="dim")
            else:
                text.append(f"Now: {d.prompt}\n", style="bold")
                text.append("Enter: choose", style="dim")
        self.query_one("#break-body", Static).update(text)

    def advance(self) -> None:
        """The next thing between duels: agents answer, a person is asked, or the duel starts."""
        if self.asking:
            return
        run = self.run
        run.run_agents_between()
        match = run.match
        if match.stage == "duel":
            self.app.switch_screen(MatchDuelScreen(run))
            return
        self.draw()
        d = match.pending
        if d is None:
            return
        if d.kind == Kind.SIDE:
            if run.side_curtain(d.player):
                self._ask(CurtainScreen(match.names[d.player], f"to side-deck for duel {match.number + 1}: your Side Deck is private"),
                          lambda _: self._ask(SideDeckScreen(run, d.player), self._after))
            else:
                self._ask(SideDeckScreen(run, d.player), self._after)
        else:  # Kind.FIRST: going first or second is public (no curtain)
            self._ask(QuestionScreen(ChoicePrompt(d.prompt, d.options)), self._chosen)

    def _ask(self, screen: Any, callback: Any) -> None:
        self.asking = True

        def done(result: Any) -> None:
            self.asking = False
            callback(result)

        self.app.push_screen(screen, done)

    def _after(self, result: Any) -> None:
        self.draw()
        if result == "done":
            self.advance()

    def _chosen(self, option: Any) -> None:
        if option is None:  # Esc: the question stays; Enter asks it again
            self.draw()
            return
        try:
            self.run.answer_between(option)
        except IllegalChoice as e:
            self.notify(f"{e.message} ({e.rule})", severity="error")
        self.advance()

    def action_go_on(self) -> None:
        if self.run.match.outcome is not None:
            self.app.pop_screen()
        else:
            self.advance()

    def action_leave(self) -> None:
        if self.asking:
            return
        if self.run.match.outcome is not None:
            self.app.pop_screen()
            return
        self.run.save_auto()
        body = "The match is autosaved: \"Resume\" on the menu plays on from this break."
        self._ask(ConfirmScreen("Leave the match?", body, yes="leave", no="stay"), lambda yes: yes and self.app.pop_screen())


# ---------------------------------------------------------------------- side-decking


def _grouped(cards: list[Card]) -> list[tuple[Card, int]]:
    """Cards with their counts, in the deck's order."""
    counts = Counter(c.id for c in cards)
    seen: dict[int, Card] = {}
    for c in cards:
        seen.setdefault(c.id, c)
    return [(c, counts[i]) for i, c in seen.items()]


SIDE_HELP = ("↑↓ choose · ←→ or Tab the other list · Enter swap the two highlighted cards · "
             "r reset · d done · Esc back")


class SideDeckScreen(ClockNotices, PlainNotifications, Screen):
    """One player's side-decking (R-MATCH-4): the Main and Extra Decks beside the Side Deck.
    Highlight a card on each side and press Enter to swap them; the options of the engine's
    Kind.SIDE decision say which swaps are allowed (marked ✓ as you move), and a swap it refuses
    is shown with its rule. d confirms (done), r goes back to the registered lists. Dismisses
    with "done", or None (Esc: the question stays open)."""

    CSS_PATH = "match.tcss"

    BINDINGS = [Binding("left,h", "focus_list('out')", "Main/Extra"), Binding("right,l", "focus_list('in')", "Side"),
                Binding("tab", "other_list", show=False), Binding("d", "done", "done"), Binding("r", "reset", "reset"),
                Binding("escape", "back", "back")]

    def __init__(self, run: MatchRun, player: int) -> None:
        super().__init__()
        self.run = run
        self.player = player
        self.refused = ""  # the engine's refusal of the last swap tried, with its rule
        self.rows: dict[str, list[tuple[str, Card | None]]] = {"out": [], "in": []}
        self.focused_list = "out"
        self.answered = False
        self._init_notices(run)

    # -------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        match = self.run.match
        yield MatchBar(id="match-bar")
        with Vertical(id="side-deck"):
            yield Static(Text(f"{match.names[self.player]}: side-decking for duel {match.number + 1} — private, "
                              "only you should look (R-MATCH-4)", style="bold #e8c170"), id="side-title")
            with Horizontal(id="side-lists"):
                with Vertical(classes="side-column"):
                    yield Static("", id="out-title", classes="side-heading")
                    yield OptionList(id="out-list")
                with Vertical(classes="side-column"):
                    yield Static("", id="in-title", classes="side-heading")
                    yield OptionList(id="in-list")
            yield Static("", id="side-pair")
            yield Static("", id="side-status")
            yield Static(SIDE_HELP, classes="dialog-help")
        yield Footer()

    def on_mount(self) -> None:
        self.match_bar = self.query_one(MatchBar)
        self.lists = {"out": self.query_one("#out-list", OptionList), "in": self.query_one("#in-list", OptionList)}
        if self.run.match.tournament:
            self.set_interval(1.0, self.tick)
        self.rebuild()
        self.lists["out"].focus()

    def tick(self) -> None:
        if self.run.match.tick():
            self.run.save_auto()
        self._notices(self.run)
        self.match_bar.show(self.run.match)
        if not self._still_asked():
            self.notify("Side-decking is over: match time ran out between duels (R-TIME-6/7).", severity="warning")
            self._leave("done")

    # -------------------------------------------------------------- what is shown

    @property
    def decision(self):
        return self.run.match.pending

    def _still_asked(self) -> bool:
        d = self.decision
        return d is not None and d.kind == Kind.SIDE and d.player == self.player and self.run.match.stage == "between"

    def _offered(self) -> set[tuple[int, int]]:
        d = self.decision
        pairs = set()
        if d is not None and d.kind == Kind.SIDE:
            for o in d.options:
                if o.key.startswith("swap:"):
                    _, out, into = o.key.split(":")
                    if "," not in out:
                        pairs.add((int(out), int(into)))
        return pairs

    def rebuild(self) -> None:
        """The lists from the deck as it is now (after a swap), keeping the highlights."""
        deck = self.run.match.deck(self.player)
        rows_out: list[tuple[str, Card | None]] = [(f"Main Deck ({len(deck.main)})", None)]
        rows_out += [(f"{n}× {c.name}", c) for c, n in _grouped(list(deck.main))]
        rows_out.append((f"Extra Deck ({len(deck.extra)})", None))
        rows_out += [(f"{n}× {c.name}", c) for c, n in _grouped(list(deck.extra))]
        rows_in: list[tuple[str, Card | None]] = [(f"{n}× {c.name}", c) for c, n in _grouped(list(deck.side))]
        for key, rows in (("out", rows_out), ("in", rows_in)):
            widget = self.lists[key]
            old = widget.highlighted
            self.rows[key] = rows
            widget.clear_options()
            widget.add_options([ListOption(label, disabled=card is None) for label, card in rows])
            if rows:
                first = next((i for i, (_, c) in enumerate(rows) if c is not None), 0)
                widget.highlighted = old if old is not None and old < len(rows) and rows[old][1] is not None else first
        self.query_one("#out-title", Static).update(Text("Main and Extra Deck (out)", style="bold"))
        self.query_one("#in-title", Static).update(Text(f"Side Deck ({len(deck.side)}) (in)", style="bold"))
        self.show_pair()

    def _picked(self, key: str) -> Card | None:
        widget = self.lists[key]
        index = widget.highlighted
        rows = self.rows[key]
        return rows[index][1] if index is not None and 0 <= index < len(rows) else None

    def show_pair(self) -> None:
        """The highlighted pair: allowed (an option of the decision) or why not (the engine's
        refusal, with its rule); partners of the focused card are marked ✓ in the other list."""
        match = self.run.match
        deck = match.deck(self.player)
        out, into = self._picked("out"), self._picked("in")
        offered = self._offered()
        # marks in the list that is not focused: the cards the focused one may be swapped with
        other = "in" if self.focused_list == "out" else "out"
        anchor = out if self.focused_list == "out" else into
        widget = self.lists[other]
        for i, (label, card) in enumerate(self.rows[other]):
            if card is None:
                continue
            pair = (anchor.id, card.id) if other == "in" and anchor else (card.id, anchor.id) if anchor else None
            ok = pair in offered
            widget.replace_option_prompt_at_index(i, Text(("✓ " if ok else "  ") + label, style="" if ok else "dim"))
        for i, (label, card) in enumerate(self.rows[self.focused_list]):
            if card is not None:
                self.lists[self.focused_list].replace_option_prompt_at_index(i, Text("  " + label))
        pair_text = Text()
        if self.refused:
            pair_text.append(f"Refused: {self.refused}", style="bold red")
        elif out is None or into is None:
            pair_text.append("Highlight a card in each list." if deck.side else "No Side Deck.", style="dim")
        else:
            pair_text.append(f"swap {out.name} ⇄ {into.name}: ", style="bold")
            if (out.id, into.id) in offered:
                pair_text.append("allowed — Enter swaps", style="bold green")
            else:
                refusal = siding.refusal(deck, [out], [into], match.rules.deck)
                why = f"{refusal.message} ({refusal.rule})" if refusal else "the same card"
                pair_text.append(f"not allowed: {why}", style="yellow")
        self.query_one("#side-pair", Static).update(pair_text)
        status = Text()
        status.append(f"Main {len(deck.main)} · Extra {len(deck.extra)} · Side {len(deck.side)}", style="bold")
        before = match.sided_from[self.player] if self.player < len(match.sided_from) else deck
        gone, came = siding.net_change(before, deck)
        status.append(" · changes for this duel: " + (f"out {', '.join(gone)}; in {', '.join(came)}" if gone else "none"),
                      style="dim")
        back, _ = siding.net_change(match.registered[self.player], deck)
        if back:
            status.append(" · r resets to the registered deck", style="dim")
        self.query_one("#side-status", Static).update(status)
        self.match_bar.show(match)

    # -------------------------------------------------------------- keys

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if hasattr(self, "lists"):
            self.refused = ""  # (a new pair: the last refusal was about another one)
            self.show_pair()

    def on_descendant_focus(self, event: Any) -> None:
        widget = event.widget
        for key, lst in getattr(self, "lists", {}).items():
            if lst is widget and self.focused_list != key:
                self.focused_list = key
                self.show_pair()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_swap()

    def action_focus_list(self, key: str) -> None:
        self.lists[key].focus()

    def action_other_list(self) -> None:
        self.action_focus_list("in" if self.focused_list == "out" else "out")

    def _answer(self, answer: str) -> bool:
        if not self._still_asked():
            self._leave("done")
            return False
        try:
            self.run.answer_between(answer)
        except IllegalChoice as e:
            self.refused = f"{e.message} ({e.rule})"
            self.notify(self.refused, severity="error", timeout=8)
            self.show_pair()
            return False
        self.refused = ""
        return True

    def action_swap(self) -> None:
        out, into = self._picked("out"), self._picked("in")
        if out is None or into is None:
            self.notify("Highlight a Main/Extra Deck card (left) and a Side Deck card (right), then Enter.")
            return
        # any pair is sent: the engine answers (an option, or a refusal with its rule)
        if self._answer(siding.key([out], [into])):
            self.notify(f"Swapped: {out.name} out, {into.name} in.", timeout=3)
            self.rebuild()

    def action_reset(self) -> None:
        d = self.decision
        if d is None or d.option("reset") is None:
            self.notify("The deck is as registered already.")
            return
        if self._answer("reset"):
            self.notify("Back to the registered deck.", timeout=3)
            self.rebuild()

    def action_done(self) -> None:
        if self._answer("done"):
            self._leave("done")

    def action_back(self) -> None:
        self._leave(None)

    def _leave(self, result: Any) -> None:
        if not self.answered and self.is_current:
            self.answered = True
            self.dismiss(result)


__all__ = ["MatchBreakScreen", "MatchDuelScreen", "SideDeckScreen", "match_line", "MessageScreen"]
