"""The duel screen's widgets: zones, piles, hands, the status bar, chain and log panels.

Attributes go down (the screen sets each widget's view), messages come up (a zone posts
`CardSlot.Chosen` when clicked or activated)."""

from __future__ import annotations

from rich.text import Text
from textual.containers import Horizontal
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.widget import Widget
from textual.widgets import OptionList, RichLog

from ..engine.views import CardView, DuelView, SideView
from ..schema.cardpool import CardPool
from .render import slot_text

HAND_SLOTS = 10
HAND_MIN = 6  # hand places always on screen (see DuelScreen._fill_side)


class CardSlot(Widget, can_focus=False):
    """One place on the board: a Monster/Spell zone, a hand card, or a pile (Deck, GY …).

    Slots are not focusable: the duel screen keeps its own cursor (`selected`). Moving
    Textual's focus repaints the whole screen; moving the cursor repaints two slots."""

    class Chosen(Message):
        """The player activated this slot (Enter or a click)."""

        def __init__(self, slot: "CardSlot") -> None:
            self.slot = slot
            super().__init__()

    def __init__(self, pool: CardPool, zone: str, seq: int, label: str, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.pool = pool
        self.zone = zone  # "M", "S", "H" (hand), "deck", "gy", "banished", "extra"
        self.seq = seq
        self.label = label
        self.player = 0
        self.view: CardView | None = None
        self.count: int | None = None  # for piles
        self.highlight = False  # the card has legal actions now
        self.selected = False  # the board cursor is here
        self.in_use = True  # a hand place beyond the hand's cards is blank and skipped by the cursor
        self.foe = False  # the opponent's place (painted in the opponent's colours)
        self.mark = ""  # "attacker", "target" (the battle), "option", "picked" (a prompt asks for cards)
        self.owner_name = ""  # in the empty zone's label, on the opponent's side

    def show(self, player: int, view: CardView | None, count: int | None = None, highlight: bool = False,
             foe: bool = False, mark: str = "", owner_name: str = "") -> None:
        state = (player, view, count, highlight, foe, mark, owner_name)
        if state != (self.player, self.view, self.count, self.highlight, self.foe, self.mark, self.owner_name):
            self.player, self.view, self.count, self.highlight, self.foe, self.mark, self.owner_name = state
            self.refresh()

    # The backgrounds (focus, "has actions", empty, the two sides, the marks) are painted here
    # rather than with CSS classes and :focus: a style change makes Textual lay the whole screen
    # out again, which cost a tenth of a second per keypress.
    BACKGROUNDS = {"focus": "on #3d5a80", "actionable": "on #2b3a2c", "empty": "on #161b22", "card": "on #1b2330",
                   "foe-empty": "on #1f1517", "foe-card": "on #2c1c21",
                   "attacker": "on #6a1f1f", "target": "on #5c4310", "option": "on #3f3a12", "picked": "on #6b6414"}
    MARKS = {"attacker": ("⚔ attacks", "bold #ffb3b3"), "target": ("◎ target", "bold #ffd27f"),
             "option": ("○ pick", "#e8e08a"), "picked": ("● picked", "bold #fff59a")}

    def render(self) -> Text:
        width, lines = max(1, self.size.width), max(1, self.size.height)
        if self.mark == "unused":  # a hand place beyond the hand's cards
            return _fill(Text(), width, lines, "on #14171c")
        if self.count is not None:
            text = Text(no_wrap=True, overflow="ellipsis")
            text.append(self.label[:width], style="bold")
            if lines > 1:
                text.append("\n" + str(self.count)[:width])
            else:
                text.append(f" {self.count}")
        else:
            label = self.label  # the opponent's zones say whose they are, when that fits
            if self.owner_name and label and len(self.owner_name) + len(label) < width:
                label = f"{self.owner_name} {label}"
            text = slot_text(self.pool, self.view, width, lines, label)
        empty = self.view is None and self.count is None
        side = ("foe-" if self.foe else "") + ("empty" if empty else "card")
        key = "focus" if self.selected else self.mark or ("actionable" if self.highlight else side)
        if self.mark:
            words, style = self.MARKS[self.mark]
            rows = text.split("\n", allow_blank=True)[:lines]
            mark = Text(words[:width], style=style)
            if lines >= 4:  # the last line says it
                rows = rows[:lines - 1] + [Text()] * (lines - 1 - len(rows)) + [mark]
            else:  # one symbol at the end of the first line
                first = rows[0]
                first.truncate(max(0, width - 2))
                first.pad_right(max(0, width - 2) - first.cell_len)
                first.append(" " + words[0], style=style)
            text = Text("\n").join(rows)
        return _fill(text, width, lines, self.BACKGROUNDS[key])

    def select(self, on: bool) -> None:
        if self.selected != on:
            self.selected = on
            self.refresh()

    def on_click(self) -> None:
        self.post_message(self.Chosen(self))

    @property
    def uid(self) -> int | None:
        return self.view.uid if self.view is not None else None


def _fill(text: Text, width: int, lines: int, background: str) -> Text:
    """`text` padded to a full `width` × `lines` block painted with `background`."""
    rows = text.split("\n", allow_blank=True)[:lines]
    out = Text(no_wrap=True, overflow="ellipsis", style=background)  # under the spans: a frame's colour stays
    for i in range(lines):
        row = rows[i] if i < len(rows) else Text()
        row.truncate(width)
        row.pad_right(width - row.cell_len)
        out.append_text(row)
        if i < lines - 1:
            out.append("\n")
    return out


class FieldRow(Horizontal):
    """A row of seven places: a pile or the Field Zone at each end, five zones between."""


class TextPanel(Widget):
    """Shows a rich Text; changing it repaints without a new layout (Static.update re-lays out,
    which costs a frame on every keypress)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.text: Text | str = ""

    def update(self, text: Text | str) -> None:
        if text != self.text:
            self.text = text
            self.refresh()

    def render(self) -> Text | str:
        return self.text


class StatusBar(TextPanel):
    """Turn, phase and step, whose decision it is, the seed in solo mode. When the line is too
    narrow the other parts shorten first: whose decision it is stays, and so does an alert (a
    failing autosave must be seen at once)."""

    def show(self, view: DuelView, names: tuple[str, str], deciding: str, extra: str = "", alert: str = "") -> None:
        phase = view.phase.title
        step = view.step.title if view.step else ""
        self.parts = (view.turn, names[view.turn_player], phase, step, deciding, extra, alert)
        self.update(Text(repr(self.parts)))  # (what changed; drawn to the width in `render`)

    def render(self) -> Text:
        parts = getattr(self, "parts", None)
        if parts is None:
            return Text("")
        turn, who, phase, step, deciding, extra, alert = parts
        width = max(1, self.size.width)
        short_phase = {"Main Phase 1": "Main 1", "Main Phase 2": "Main 2", "Battle Phase": "Battle", "Draw Phase": "Draw",
                       "Standby Phase": "Standby", "End Phase": "End"}.get(phase, phase)
        # from the fullest line to the barest: the decision (and an alert) are the last to shorten
        for variant in ((f" Turn {turn} ", f" {who}'s turn · ", phase, step, extra),
                        (f" Turn {turn} ", f" {who}'s turn · ", phase, step, ""),
                        (f" T{turn} ", f" {who} · ", short_phase, step, ""),
                        (f" T{turn} ", " ", short_phase, "", "")):
            text = self._line(*variant, deciding, alert)
            if text.cell_len <= width:
                return text
        return self._line("", "", "", "", "", deciding.lstrip(), alert)

    @staticmethod
    def _line(turn: str, who: str, phase: str, step: str, extra: str, deciding: str, alert: str = "") -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        if alert:
            text.append(f" {alert} ", style="bold white on red")
        if turn:
            text.append(turn, style="bold reverse")
        if who:
            text.append(who, style="bold")
        if phase:
            text.append(phase, style="bold cyan")
        if step:
            text.append(f" › {step}", style="cyan")
        if deciding:
            text.append(f" · {deciding}" if phase else deciding, style="bold yellow")
        if extra:
            text.append(f" · {extra}", style="dim")
        return text


class SideLine(TextPanel):
    """A player's name, LP (with the last change) and pile counts; the opponent's line in the
    opponent's colour (the two halves of the board are told apart at a glance)."""

    def show(self, side: SideView, lp_change: int, active: bool, note: str = "", foe: bool = False) -> None:
        """`note`: a mark after the counts (the bottom line's "✎ manual actions on")."""
        text = Text(no_wrap=True, overflow="ellipsis")
        colour = "#e07a7a" if foe else "#7aa7e0"
        text.append(f" {side.name} ", style=f"bold reverse {colour}" if active else f"bold {colour}")
        text.append(f" LP {side.lp}", style="bold green" if side.lp > 2000 else "bold red")
        if lp_change:
            text.append(f" ({lp_change:+d})", style="bold red" if lp_change < 0 else "bold green")
        text.append(f"  Hand {len(side.hand)}  Deck {side.deck}  GY {len(side.gy)}  Ban {len(side.banished)}  Extra {len(side.extra)}",
                    style="dim")
        if note:
            text.append(f"  {note}", style="bold #d7af5f")
        self.update(text)


class ChainPanel(TextPanel):
    """The chain being built or resolved: link number, card, controller, speed, targets."""

    def show(self, links: list[tuple[int, str, str, int, str]]) -> None:
        if not links:
            self.update(Text("Chain: empty", style="dim"))
            return
        text = Text("Chain\n", style="bold")
        for number, card, who, speed, targets in links:
            text.append(f"CL{number} ", style="bold magenta")
            text.append(f"{card} ", style="bold")
            text.append(f"({who}, speed {speed})", style="dim")
            if targets:
                text.append(f" → {targets}", style="italic")
            text.append("\n")
        self.update(text)


class LogPanel(RichLog, can_focus=False):
    """The duel log from the viewer's side: player names, hidden cards stay hidden."""


class DetailPanel(TextPanel):
    """The focused card in full."""


class KeyBar(Widget):
    """The key hints under the duel: the keys that work now, as the screen says (its bindings
    that `check_action` allows). A fixed line rather than Textual's Footer, which rebuilds its
    widgets on every change; when the terminal is narrow the least needed keys go first."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.items: list[tuple[str, str, int]] = []  # (key, what it does, rank: lower stays longer)

    def show(self, items: list[tuple[str, str, int]]) -> None:
        if items != self.items:
            self.items = list(items)
            self.refresh()

    def render(self) -> Text:
        width = max(1, self.size.width)
        items = list(self.items)
        while len(items) > 1 and self._width(items, 0) > width:
            items.remove(max(items, key=lambda item: item[2]))  # the least needed key goes
        space = " " if self._width(items, 1) <= width else ""  # roomy " key  what " if it fits, else "key what "
        text = Text(no_wrap=True, overflow="ellipsis")
        for key, what, _ in items:
            text.append(f"{space}{key}{space}", style="bold reverse")
            text.append(f" {what} ")
        return text

    @staticmethod
    def _width(items: list[tuple[str, str, int]], pad: int) -> int:
        return sum(len(key) + len(what) + 2 + 2 * pad for key, what, _ in items)

class BrowsesList:
    """For screens built around one OptionList and a panel that describes the highlighted
    entry (deck pickers, piles): focus the list, and redraw the panel as the highlight moves."""

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()  # type: ignore[attr-defined]
        self._show(0)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show(event.option_index)

    def _show(self, index: int) -> None:
        raise NotImplementedError


class PlainNotifications:
    """For our screens: a notification is plain text. Ours carry rule ids such as [R-DECK-1],
    file paths and card names, which Textual's content markup would swallow or misread."""

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)  # type: ignore[misc]
