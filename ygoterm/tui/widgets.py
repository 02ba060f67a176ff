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

    def show(self, player: int, view: CardView | None, count: int | None = None, highlight: bool = False) -> None:
        if (player, view, count, highlight) != (self.player, self.view, self.count, self.highlight):
            self.player, self.view, self.count, self.highlight = player, view, count, highlight
            self.refresh()

    # The backgrounds (focus, "has actions", empty) are painted here rather than with CSS
    # classes and :focus: a style change makes Textual lay the whole screen out again, which
    # cost a tenth of a second per keypress.
    BACKGROUNDS = {"focus": "on #3d4f6b", "actionable": "on #2b3a2c", "empty": "on #171b21", "card": "on #1c222b"}

    def render(self) -> Text:
        width, lines = max(1, self.size.width), max(1, self.size.height)
        if self.count is not None:
            text = Text(no_wrap=True, overflow="ellipsis")
            text.append(self.label[:width], style="bold")
            if lines > 1:
                text.append("\n" + str(self.count)[:width])
            else:
                text.append(f" {self.count}")
        else:
            text = slot_text(self.pool, self.view, width, lines, self.label)
        key = "focus" if self.selected else "actionable" if self.highlight else "empty" if self.view is None and self.count is None else "card"
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
    out = Text(no_wrap=True, overflow="ellipsis")
    for i in range(lines):
        row = rows[i] if i < len(rows) else Text()
        row.truncate(width)
        row.pad_right(width - row.cell_len)
        row.stylize(background)
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
    """Turn, phase and step, whose decision it is, the seed in solo mode."""

    def show(self, view: DuelView, names: tuple[str, str], deciding: str, extra: str = "") -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f" Turn {view.turn} ", style="bold reverse")
        text.append(f" {names[view.turn_player]}'s turn · ", style="bold")
        text.append(view.phase.title, style="bold cyan")
        if view.step:
            text.append(f" › {view.step.title}", style="cyan")
        text.append(f" · {deciding}", style="bold yellow")
        if extra:
            text.append(f" · {extra}", style="dim")
        self.update(text)


class SideLine(TextPanel):
    """A player's name, LP (with the last change) and pile counts."""

    def show(self, side: SideView, lp_change: int, active: bool, note: str = "") -> None:
        """`note`: a mark after the counts (the bottom line's "✎ manual actions on")."""
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f" {side.name} ", style="bold reverse" if active else "bold")
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
