"""The deck lab screen: a deck's `lab:` combos with their exact opening-hand odds as bars (going
first and going second), the what-if deltas, and test hands that meet (or miss) a combo, played
in solo. Every figure comes from `analysis/odds.py`; this screen only draws them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Footer, Static
from textual.worker import get_current_worker

from ...analysis.arena import play
from ..presenters.gauntlet import standing_text
from ...analysis.odds import FIRST_HAND, SECOND_HAND, Odds, Report, WhatIf, cuts, deck_counts, hand_meets, odds, plan, what_if
from ...schema.decks import Deck, deck_folder, read_deck_file, resolve, unscripted_cards
from ...schema.lab import Lab, resolve_lab
from ...schema.problems import DataError, display_path
from .base import PlainNotifications
from .dialogs import MessageScreen

DEAL_TRIES = 2000  # seeds tried for a test hand (~16 ms each, in a worker): a combo met by 0.4% of hands is found 99.9% of the time
_EIGHTHS = " ▏▎▍▌▋▊▉"

HELP = """Exact odds of each combo of the deck's 'lab:'
section in the opening hand (5 cards first, 6 second).
↑ ↓  a line: its requirements and fractions below
w    what-if: a copy more / fewer of each card
t    deal a hand that meets the line, play it solo
m    deal a hand that misses it
f    test hands go first / second
g    gauntlet: this deck against every deck of its
     format's field (decks/goat/ …), the AI on both sides
Esc  back · q menu
ygoterm odds DECK: the same on the command line;
the lab section: docs/data.md, "The deck lab"."""

GAUNTLET_AGENT, GAUNTLET_DUELS, GAUNTLET_SEED = "ai:easy", 20, 0  # (quick: ~0.05 s a duel; the command line measures longer)


def bar(fraction: float, width: int, style: str) -> Text:
    """A horizontal bar `width` cells long, filled to `fraction` in eighths of a cell."""
    eighths = round(max(0.0, min(1.0, fraction)) * width * 8)
    full, part = divmod(eighths, 8)
    text = Text("█" * full, style=style)
    if part:
        text.append(_EIGHTHS[part], style=style)
    text.append("·" * (width - full - (1 if part else 0)), style="#3a4150")
    return text


def _pp(value: float | None) -> Text:
    if value is None:
        return Text("no", style="dim")
    style = "green" if value >= 0.005 else "red" if value <= -0.005 else "dim"
    return Text(f"{value:+.2f}", style=style)


def _meets(mask: int) -> Callable[[int], bool]:
    """A line's test of a hand (the bits of the combos it meets, the brick's last): any of `mask`."""
    return lambda bits: bool(bits & mask)


def _misses(mask: int) -> Callable[[int], bool]:
    """A line's test of a hand: none of `mask`."""
    return lambda bits: not bits & mask


def gauntlet_field(path: Path, deck: Deck, deck_dirs: list[Path]) -> tuple[str, list[Path]] | None:
    """The field a deck meets in the lab's gauntlet: its format's (`rules: goat` → decks/goat/), else the folder it
    lives in when that is a field, else the first field there is; None without any."""
    names = sorted({p.name for d in deck_dirs for p in d.iterdir() if p.is_dir() and p.name != "banlists"})
    preferred = [deck.rules.format] if deck.rules is not None else []
    for name in [*preferred, path.parent.name, *names]:
        files = deck_folder(name, deck_dirs) if name in names else []
        if files:
            return name, files
    return None


@dataclass
class _Line:
    """One row of the odds table: a combo, group, any combo or the brick, both sides."""

    first: Odds
    second: Odds
    meets: Callable[[int], bool]  # from `hand_meets`'s bits: does a hand meet this line
    text: str  # its requirements, in the lab's words


class LabScreen(PlainNotifications, Screen):
    """The deck lab of one deck file."""

    BINDINGS = [
        Binding("question_mark", "help", "help"),
        Binding("w", "what_if", "what-if"),
        Binding("t", "deal(True)", "deal: meets"),
        Binding("m", "deal(False)", "deal: misses"),
        Binding("f", "toggle_first", "1st/2nd"),
        Binding("g", "gauntlet", "gauntlet"),
        Binding("escape", "back", "back"),
        Binding("q", "menu", "menu"),
    ]

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self.deck: Deck | None = None
        self.lab: Lab | None = None
        self.problem = ""  # why the lab cannot be shown (no lab section, a broken file)
        self.reports: tuple[Report, Report] | None = None
        self.lines: list[_Line] = []
        self.first = True  # test hands go first
        self.showing_what_if = False
        self.changes: list[WhatIf] | None = None  # the what-if, once counted (in a worker)
        self.cut_list: list[tuple[WhatIf, float]] = []
        self.dealing = False
        self.showing_gauntlet = False
        self.gauntlet_text: Text | None = None  # the gauntlet's table and chart, once played (in a worker)

    # ------------------------------------------------------------------ loading

    def _load(self) -> None:
        pool = self.app.pool  # type: ignore[attr-defined]
        where = display_path(self.path)
        try:
            deck_file = read_deck_file(self.path)
            deck, problems = resolve(deck_file, pool)
            if problems:
                raise DataError(problems, unreadable=False)
            lab = resolve_lab(deck_file, deck, pool)
        except DataError as e:
            self.problem = "This deck's lab cannot be counted:\n\n" + "\n".join(map(str, e.problems[:8]))
            return
        self.deck = deck
        if not lab.combos:
            self.problem = (f"{deck.name} has no combos to count.\n\n"
                            f"Add a 'lab:' section to {where}: roles (tags on cards) and combos (what an opening "
                            "hand needs, e.g. '1 Lord of D.' and '1 blue-eyes|dragon'). docs/data.md, \"The deck lab\", "
                            "describes it; decks/kaiba-dragons.yaml and decks/joey-warriors.yaml have examples.")
            return
        self.lab = lab
        counts = deck_counts(deck.main)
        self.counts = counts
        first, second = odds(counts, lab, FIRST_HAND), odds(counts, lab, SECOND_HAND)
        self.reports = (first, second)
        n = len(lab.combos)
        index = {c.name: i for i, c in enumerate(lab.combos)}
        texts = {c.name: str(c) for c in lab.combos}
        for a, b in zip(first.all(), second.all()):
            every = (1 << n) - 1
            if a.kind == "combo":
                test, text = _meets(1 << index[a.name]), texts[a.name]
            elif a.kind == "group":
                mask = sum(1 << index[m] for m in lab.groups.get(a.name, ()) if m in index)
                test, text = _meets(mask), "any of: " + ", ".join(lab.groups.get(a.name, ()))
            elif a.kind == "any":
                test, text = _meets(every), "a hand that meets some combo"
            elif lab.brick is not None:
                test, text = _meets(1 << n), str(lab.brick)
            else:
                test, text = _misses(every), "a hand that meets no combo (the lab has no 'brick:')"
            self.lines.append(_Line(a, b, test, text))
        self.hand_plan = plan([*lab.combos, *([lab.brick] if lab.brick else [])])

    # ------------------------------------------------------------------ drawing

    def compose(self) -> ComposeResult:
        yield Static("", id="lab-title")
        yield DataTable(id="lab-odds", cursor_type="row", zebra_stripes=False, cursor_foreground_priority="renderable")  # (the bars keep their colours)
        yield DataTable(id="lab-whatif", cursor_type="row", zebra_stripes=False)
        with VerticalScroll(id="lab-gauntlet"):
            yield Static("", id="lab-gauntlet-text")
        yield Static("", id="lab-detail")
        yield Footer()

    def on_mount(self) -> None:
        self._load()
        self.query_one("#lab-whatif").display = False
        self.query_one("#lab-gauntlet").display = False
        if self.lab is None:
            self.query_one("#lab-odds").display = False
            self.query_one("#lab-title", Static).update(Text(f"Deck lab · {self.deck.name if self.deck else self.path.name}", style="bold"))
            self.query_one("#lab-detail", Static).update(Text(self.problem))
            self.refresh_bindings()
            return
        self._title()
        self._fill_odds()
        self.query_one("#lab-odds").focus()

    def on_resize(self) -> None:
        if self.lab is not None:
            self._fill_odds()
            if self.changes is not None:
                self._fill_what_if()

    def _title(self) -> None:
        assert self.deck is not None and self.reports is not None
        text = Text(f"Deck lab · {self.deck.name}", style="bold #e8c170")
        if self.showing_what_if:
            text.append("  what if: a copy more / fewer (any combo, points)", style="dim")
        else:
            text.append(f"  {self.reports[0].deck_size} cards · exact odds", style="dim")
            text.append(f" · test hands go {'first' if self.first else 'second'}", style="#e8c170")
        self.query_one("#lab-title", Static).update(text)

    def _widths(self) -> tuple[int, int]:
        width = max(self.size.width, 60)
        name = min(max((len(line.first.name) for line in self.lines), default=10), 30 if width >= 100 else 24)
        bar_width = max(6, (width - name - 4 - 6) // 2 - 10)
        return name, bar_width

    def _fill_odds(self) -> None:
        table = self.query_one("#lab-odds", DataTable)
        row = table.cursor_row
        table.clear(columns=True)
        name_w, bar_w = self._widths()
        table.add_column("combo", width=name_w, key="name")
        table.add_column(f"going first ({FIRST_HAND} cards)", width=bar_w + 9, key="first")
        table.add_column(f"going second ({SECOND_HAND} cards)", width=bar_w + 9, key="second")
        colour = {"combo": "#5fafff", "group": "#af87ff", "any": "#87d787", "brick": "#ff875f"}
        for i, line in enumerate(self.lines):
            kind = line.first.kind
            label = Text(line.first.name, style={"group": "italic", "any": "bold", "brick": "bold"}.get(kind, ""),
                         overflow="ellipsis", no_wrap=True)
            cells: list[Any] = [label]
            for o in (line.first, line.second):
                if o.impossible:
                    cells.append(Text("impossible", style="red"))
                else:
                    cell = bar(float(o.fraction), bar_w, colour[kind])
                    cell.append(f" {o.percent:6.2f}%")
                    cells.append(cell)
            table.add_row(*cells, key=str(i))
        if self.lines:
            table.move_cursor(row=min(max(row, 0), len(self.lines) - 1))
        self._detail_odds(table.cursor_row)

    def _detail_odds(self, index: int) -> None:
        if not 0 <= index < len(self.lines):
            return
        line = self.lines[index]
        text = Text(line.first.name, style="bold")
        text.append(f"  ({line.first.kind})\n", style="dim")
        text.append(line.text + "\n")
        for label, o in (("going first", line.first), ("going second", line.second)):
            if o.impossible:
                text.append(f"{label}: impossible — {o.reason or 'no hand meets it'}\n", style="red")
            else:
                text.append(f"{label}: {o.hands:,} of {o.total:,} hands = {o.percent:.2f}%\n")
        text.append("t deals a hand that meets it, m one that misses it · w what-if", style="dim")
        self.query_one("#lab-detail", Static).update(text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "lab-odds":
            self._detail_odds(event.cursor_row)
        elif event.data_table.id == "lab-whatif":
            self._detail_what_if(event.cursor_row)

    # ------------------------------------------------------------------ what-if

    def action_what_if(self) -> None:
        if self.lab is None:
            return
        self.showing_what_if = not self.showing_what_if
        self._title()
        self.query_one("#lab-odds").display = not self.showing_what_if
        self.query_one("#lab-whatif").display = self.showing_what_if
        self.refresh_bindings()
        if not self.showing_what_if:
            self.query_one("#lab-odds").focus()
            self._detail_odds(self.query_one("#lab-odds", DataTable).cursor_row)
            return
        self.query_one("#lab-whatif").focus()
        if self.changes is None:
            self.query_one("#lab-detail", Static).update(Text("Counting the what-if (every card, a copy more and one fewer)…",
                                                              style="italic"))
            self._count_what_if(self.app)
        else:
            self._detail_what_if(self.query_one("#lab-whatif", DataTable).cursor_row)

    @work(thread=True, exclusive=True, group="lab-what-if")
    def _count_what_if(self, app: Any) -> None:
        from ...schema.legality import copy_limit

        assert self.deck is not None and self.lab is not None
        base, changes = what_if(self.counts, self.lab, (FIRST_HAND, SECOND_HAND),
                                limit=copy_limit(self.deck, app.deck_dirs, app.pool, named_in=self.path))
        best = cuts(base, changes)
        if not get_current_worker().is_cancelled:
            app.call_from_thread(self._what_if_ready, changes, best)

    def _what_if_ready(self, changes: list[WhatIf], best: list[tuple[WhatIf, float]]) -> None:
        self.changes = [w for w in changes if not w.idle]
        self.idle = [w for w in changes if w.idle]
        self.cut_list = best
        self._fill_what_if()

    def _any_index(self) -> int:
        assert self.reports is not None
        return next(i for i, o in enumerate(self.reports[0].all()) if o.kind == "any")

    def _delta(self, change: Any, side: int, i: int) -> float | None:
        """The change of line `i` (percentage points) on one side, as `ygoterm odds --what-if` shows it."""
        assert self.reports is not None
        return change.reports[side].all()[i].percent - self.reports[side].all()[i].percent if change.possible else None

    def _fill_what_if(self) -> None:
        if self.changes is None:
            return
        table = self.query_one("#lab-whatif", DataTable)
        row = table.cursor_row
        table.clear(columns=True)
        name_w, _ = self._widths()
        table.add_column("card", width=max(name_w, 20), key="card")
        table.add_column("copies", key="copies")
        table.add_column("+1 copy: 1st / 2nd", key="plus")
        table.add_column("−1 copy: 1st / 2nd", key="minus")
        a = self._any_index()
        for w in self.changes:
            cells: list[Any] = [Text(w.card, overflow="ellipsis", no_wrap=True), Text(f"×{w.copies}", justify="right")]
            for change in (w.plus, w.minus):
                cell = _pp(self._delta(change, 0, a))
                if change.possible:
                    cell.append(" / ")
                    cell.append_text(_pp(self._delta(change, 1, a)))
                cells.append(cell)
            table.add_row(*cells, key=w.card)
        if self.changes:
            table.move_cursor(row=min(max(row, 0), len(self.changes) - 1))
        if self.showing_what_if:
            self._detail_what_if(table.cursor_row)

    def _detail_what_if(self, index: int) -> None:
        if self.changes is None or not 0 <= index < len(self.changes):
            return
        assert self.reports is not None
        w = self.changes[index]
        text = Text(f"{w.card} ×{w.copies}", style="bold")
        text.append(f"  +1: {w.plus.note} · −1: {w.minus.note}\n", style="dim")
        per = []
        for i, o in enumerate(self.reports[0].all()):
            if o.kind != "combo":
                continue
            plus, minus = self._delta(w.plus, 0, i), self._delta(w.minus, 0, i)
            if max(abs(plus or 0), abs(minus or 0)) >= 0.005:
                per.append(f"{o.name} {'no' if plus is None else f'{plus:+.2f}'} / {'no' if minus is None else f'{minus:+.2f}'}")
        text.append("each combo going first, +1 / −1: ", style="dim")
        text.append((" · ".join(per) if per else "no change") + "\n")
        if self.cut_list:
            text.append("cheapest cuts: ", style="bold")
            text.append(" · ".join(f"{c.card} {d:+.2f}" for c, d in self.cut_list[:4]))
        self.query_one("#lab-detail", Static).update(text)

    # ------------------------------------------------------------------ gauntlet

    def action_gauntlet(self) -> None:
        """Show (or hide) this deck against its format's field: played once, in a worker, with the app's pool."""
        if self.deck is None:
            return
        if self.showing_what_if:
            self.action_what_if()
        self.showing_gauntlet = not self.showing_gauntlet
        self.query_one("#lab-odds").display = not self.showing_gauntlet and self.lab is not None
        self.query_one("#lab-gauntlet").display = self.showing_gauntlet
        self.query_one("#lab-detail").display = not self.showing_gauntlet
        self.refresh_bindings()
        if not self.showing_gauntlet:
            return
        if self.gauntlet_text is not None:
            self._show_gauntlet(self.gauntlet_text)
            return
        field = gauntlet_field(self.path, self.deck, self.app.deck_dirs)  # type: ignore[attr-defined]
        if field is None:
            self._show_gauntlet(Text("No field of decks to play against: a format's decks live in a subfolder of a deck "
                                     "folder (the shipped decks/goat/, or goat/ in your own decks folder).", style="yellow"))
            return
        self._show_gauntlet(Text(f"Playing {self.deck.name} against the {field[0]} field ({len(field[1])} decks, "
                                 f"{GAUNTLET_DUELS} duels each, {GAUNTLET_AGENT} on both sides)…", style="italic"))
        self._play_gauntlet(self.app, field[0], field[1], max(60, self.size.width - 4))  # (less its padding and scroll bar)

    def _show_gauntlet(self, text: Text) -> None:
        self.query_one("#lab-gauntlet-text", Static).update(text)

    @work(thread=True, exclusive=True, group="lab-gauntlet")
    def _play_gauntlet(self, app: Any, name: str, files: list[Path], width: int) -> None:
        from ...analysis import gauntlet
        from ...analysis.arena import schedule, summarize
        from ...schema.decks import load_deck

        worker = get_current_worker()
        pool = app.pool
        field = gauntlet.field_names(files)
        decks = {key: load_deck(path, pool)[0] for key, path in field.items()}
        unplayable = sorted(key for key, deck in decks.items() if unscripted_cards(deck, sections=("main", "extra")))
        assert self.deck is not None
        mine = gauntlet.tested_name(self.path, field)
        decks[mine] = self.deck
        if unscripted_cards(self.deck, sections=("main", "extra")):
            unplayable.append(mine)
        if unplayable:
            app.call_from_thread(self._show_gauntlet, Text(f"The AI cannot play cards without scripts (in {', '.join(unplayable)}).",
                                                           style="yellow"))
            return
        matchups = gauntlet.matchups(mine, [key for key in field if key in decks], GAUNTLET_AGENT)
        tasks = schedule(matchups, GAUNTLET_DUELS, GAUNTLET_SEED)
        results = []
        for done, task in enumerate(tasks, 1):
            if worker.is_cancelled:
                return
            results.append(play(task, matchups[task.matchup], pool, decks))
            if done % 10 == 0:
                app.call_from_thread(self._show_gauntlet, Text(f"Playing against the {name} field: {done}/{len(tasks)} duels…",
                                                               style="italic"))
        standing = gauntlet.Standing(mine, summarize(matchups, results))
        title = (f"{mine} against the {name} field — {GAUNTLET_AGENT} on both sides, {GAUNTLET_DUELS} duels per matchup "
                 f"(seed {GAUNTLET_SEED}; ygoterm arena --gauntlet {name} measures longer)")
        app.call_from_thread(self._gauntlet_ready, standing_text(standing, title, width))

    def _gauntlet_ready(self, text: Text) -> None:
        self.gauntlet_text = text
        if self.showing_gauntlet:
            self._show_gauntlet(text)

    # ------------------------------------------------------------------ test hands

    def action_toggle_first(self) -> None:
        if self.lab is not None:
            self.first = not self.first
            self._title()
            self.notify(f"Test hands go {'first' if self.first else 'second'}.")

    def action_deal(self, meets: bool) -> None:
        if self.lab is None or self.showing_what_if or not self.lines:
            return
        if self.dealing:
            self.notify("Still looking for a hand…")
            return
        line = self.lines[max(self.query_one("#lab-odds", DataTable).cursor_row, 0)]
        o = line.first if self.first else line.second
        if (o.hands == 0) if meets else (o.hands == o.total):
            self.notify(f"No {'hand meets' if meets else 'hand misses'} '{o.name}' going {'first' if self.first else 'second'}.",
                        severity="warning")
            return
        self.dealing = True
        self.notify(f"Dealing a hand that {'meets' if meets else 'misses'} '{o.name}'…")
        self._deal(self.app, line, meets, self.first)

    @work(thread=True, exclusive=True, group="lab-deal")
    def _deal(self, app: Any, line: _Line, meets: bool, first: bool) -> None:
        from ..presenters.settings import new_seed

        worker = get_current_worker()
        start = new_seed()
        assert self.deck is not None
        for seed in range(start, start + DEAL_TRIES):
            if worker.is_cancelled:
                return
            session = app.solo_session((self.deck, self.deck), "goldfish", seed, first=first, autosave=False)
            hand = [c.name for c in session.duel.players[0].hand]
            if line.meets(hand_meets(self.hand_plan, hand)) == meets:
                app.call_from_thread(self._dealt, seed, first, line, meets)
                return
        app.call_from_thread(self._not_dealt, line, meets)

    def _dealt(self, seed: int, first: bool, line: _Line, meets: bool) -> None:
        self.dealing = False
        if not self.is_current:
            if self.is_attached and self in self.app.screen_stack:  # (the help is open over the lab)
                self.notify(f"A hand that {'meets' if meets else 'misses'} '{line.first.name}' was found (seed {seed}); "
                            "press the key again to play one.")
            return  # (the lab was left: no duel)
        assert self.deck is not None
        app: Any = self.app
        screen = app.solo_screen((self.deck, self.deck), "goldfish", seed, first=first)
        screen.session.autosave_kind = "lab"  # (its own autosave: a test hand never replaces an unfinished duel or match)
        app.push_screen(screen)
        screen.notify(f"Test hand (seed {seed}, going {'first' if first else 'second'}) that "
                      f"{'meets' if meets else 'misses'} '{line.first.name}'. q comes back to the lab.")

    def _not_dealt(self, line: _Line, meets: bool) -> None:
        self.dealing = False
        self.notify(f"No hand that {'meets' if meets else 'misses'} '{line.first.name}' in {DEAL_TRIES} deals; try again.",
                    severity="warning")

    # ------------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("what_if", "toggle_first", "deal"):
            if self.lab is None or self.showing_gauntlet:
                return False
            if action == "deal" and self.showing_what_if:
                return False
        if action == "gauntlet" and self.deck is None:
            return False
        return True

    def action_help(self) -> None:
        self.app.push_screen(MessageScreen("Deck lab", HELP))

    def action_back(self) -> None:
        if self.showing_gauntlet:
            self.action_gauntlet()
            return
        if self.showing_what_if:
            self.action_what_if()
            return
        self.app.pop_screen()

    def action_menu(self) -> None:
        from .menu import MenuScreen

        app = self.app
        while len(app.screen_stack) > 1 and not isinstance(app.screen, MenuScreen):
            app.pop_screen()
