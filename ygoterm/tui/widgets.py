"""The duel screen's widgets: zones, piles, hands, the status bar, chain and log panels.

Attributes go down (the screen sets each widget's view), messages come up (a zone posts
`CardSlot.Chosen` when clicked or activated)."""

from __future__ import annotations

from rich.text import Text
from textual.containers import Horizontal
from textual.message import Message
from textual.widget import Widget
from textual.widgets import RichLog, Static

from ..engine.views import CardView, DuelView, SideView
from ..schema.cardpool import CardPool
from .render import slot_text

HAND_SLOTS = 10


class CardSlot(Widget, can_focus=True):
    """One place on the board: a Monster/Spell zone, a hand card, or a pile (Deck, GY …)."""

    class Chosen(Message):
        """The player activated this slot (Enter or a click)."""

        def __init__(self, slot: "CardSlot") -> None:
            self.slot = slot
            super().__init__()

    def __init__(self, pool: CardPool, zone: str, seq: int, label: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.pool = pool
        self.zone = zone  # "M", "S", "H" (hand), "deck", "gy", "banished", "extra"
        self.seq = seq
        self.label = label
        self.player = 0
        self.view: CardView | None = None
        self.count: int | None = None  # for piles
        self.highlight = False  # the card has legal actions now

    def show(self, player: int, view: CardView | None, count: int | None = None, highlight: bool = False) -> None:
        self.player, self.view, self.count, self.highlight = player, view, count, highlight
        self.set_class(highlight, "actionable")
        self.set_class(view is None and count is None, "empty")
        self.refresh()

    def render(self) -> Text:
        width, lines = max(1, self.size.width), max(1, self.size.height)
        if self.count is not None:
            text = Text(no_wrap=True, overflow="ellipsis")
            text.append(self.label[:width], style="bold")
            if lines > 1:
                text.append("\n" + str(self.count)[:width])
            else:
                text.append(f" {self.count}")
            return text
        return slot_text(self.pool, self.view, width, lines, self.label)

    def on_click(self) -> None:
        self.focus()
        self.post_message(self.Chosen(self))

    @property
    def uid(self) -> int | None:
        return self.view.uid if self.view is not None else None


class FieldRow(Horizontal):
    """A row of seven places: a pile or the Field Zone at each end, five zones between."""


class StatusBar(Static):
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


class SideLine(Static):
    """A player's name, LP (with the last change) and pile counts."""

    def show(self, side: SideView, lp_change: int, active: bool) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f" {side.name} ", style="bold reverse" if active else "bold")
        text.append(f" LP {side.lp}", style="bold green" if side.lp > 2000 else "bold red")
        if lp_change:
            text.append(f" ({lp_change:+d})", style="bold red" if lp_change < 0 else "bold green")
        text.append(f"  Hand {len(side.hand)}  Deck {side.deck}  GY {len(side.gy)}  Ban {len(side.banished)}  Extra {len(side.extra)}",
                    style="dim")
        self.update(text)


class ChainPanel(Static):
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


class LogPanel(RichLog):
    """The duel log from the viewer's side: player names, hidden cards stay hidden."""


class DetailPanel(Static):
    """The focused card in full."""
