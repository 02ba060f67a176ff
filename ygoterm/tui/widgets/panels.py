"""The duel screen's panels: the status bar, each side's line, the card text, the chain, the log
and the key bar. Each draws what it is given."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich.text import Text
from textual.widget import Widget
from textual.widgets import RichLog

from ...engine import ChainLinkAdded, ChainResolves, DuelView, Event, Negated, PhaseChange, SideView, Step


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
        return Text("") if parts is None else self.line(parts, max(1, self.size.width))

    @classmethod
    def line(cls, parts: tuple[int, str, str, str, str, str, str], width: int) -> Text:
        """The fullest line of `parts` (turn, turn player, phase, step, deciding, extra, alert) that fits `width` cells."""
        turn, who, phase, step, deciding, extra, alert = parts
        short_phase = {"Main Phase 1": "Main 1", "Main Phase 2": "Main 2", "Battle Phase": "Battle", "Draw Phase": "Draw",
                       "Standby Phase": "Standby", "End Phase": "End"}.get(phase, phase)
        # from the fullest line to the barest: the decision (and an alert) are the last to shorten
        variants: tuple[tuple[str, str, str, str, str], ...] = (
            (f" Turn {turn} ", f" {who}'s turn · ", phase, step, extra),
            (f" Turn {turn} ", f" {who}'s turn · ", phase, step, ""),
            (f" T{turn} ", f" {who} · ", short_phase, step, ""),
            (f" T{turn} ", " ", short_phase, "", ""),
            (f" T{turn} ", " ", "", "", ""))  # (the turn stays as long as it fits beside the decision)
        for variant in variants:
            text = cls._line(*variant, deciding, alert)
            if text.cell_len <= width:
                return text
        return cls._line("", "", "", "", "", deciding.lstrip(), alert)

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
    """The chain being built: link number, card, controller, speed, targets. With no chain,
    the chain that just resolved, link by link (R-CHAIN-1: last in, first out), as the events
    it is told of (`remember`) have it."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.last_chain: list[list[object]] = []  # [number, name, who, speed, state] of the last chain's links

    def forget(self) -> None:
        """A new duel, or one taken back: no last chain."""
        self.last_chain = []

    def remember(self, events: Sequence[Event], names: tuple[str, str]) -> None:
        """Follow the chain's links through the events of an answer."""
        for event in events:
            if isinstance(event, ChainLinkAdded):
                if event.number == 1:
                    self.last_chain = []
                self.last_chain.append([event.number, event.name, names[event.player], event.speed, "waiting"])
            elif isinstance(event, ChainResolves):
                for link in self.last_chain:
                    if link[0] == event.number and link[4] == "waiting":
                        link[4] = "resolved"
            elif isinstance(event, Negated) and event.what == "activation":
                for link in self.last_chain:
                    if link[1] == event.name and link[4] == "waiting":
                        link[4] = "negated"

    def show(self, view: DuelView, names: tuple[str, str]) -> None:
        if view.chain:
            text = Text("Chain\n", style="bold")
            for link in view.chain:
                text.append(f"CL{link.number} ", style="bold magenta")
                text.append(f"{link.name} ", style="bold")
                text.append(f"({names[link.player]}, speed {link.speed})", style="dim")
                if link.targets:
                    text.append(f" → {', '.join(link.targets)}", style="italic")
                text.append("\n")
        elif self.last_chain:
            text = Text("Last chain\n", style="bold")
            for number, name, who, speed, state in self.last_chain:
                mark = {"resolved": "✓", "negated": "✗"}.get(str(state), "·")
                text.append(f"{mark} CL{number} {name} ", style="bold" if state != "negated" else "strike dim")
                text.append(f"({who}, speed {speed}) {state}\n", style="dim")
        else:
            text = Text("Chain: empty", style="dim")
        self.update(text)


def log_lines(events: Sequence[Event], viewer: int, names: tuple[str, str]) -> Iterator[Text]:
    """The log's lines as `viewer` may read them (hidden cards stay hidden, R-TERM-6): phases dim,
    chain links bold; the Damage Step's inner steps left out (damage calculation says it all)."""
    for event in events:
        seen = event.for_player(viewer)
        if isinstance(seen, PhaseChange) and seen.step in (Step.DAMAGE_START, Step.BEFORE_DAMAGE, Step.AFTER_DAMAGE):
            continue
        style = "dim" if isinstance(seen, PhaseChange) else "bold yellow" if isinstance(seen, ChainLinkAdded) else ""
        yield Text(seen.text(names), style=style)


class LogPanel(RichLog, can_focus=False):
    """The duel log from the viewer's side: player names, hidden cards stay hidden."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.written = 0  # events of the duel's log written here
        self.last_written: object = None  # the last of them (is the log still the one written?)
        self.viewer: int | None = None  # whose view they were written for (None: write it all again)

    def rewrite(self) -> None:
        """Write the whole log again at the next `follow` (a new width, a new duel)."""
        self.viewer = None

    def follow(self, events: Sequence[Event], viewer: int, names: tuple[str, str]) -> None:
        """Write the events not written yet; the whole log again only for another viewer, a new
        width, or a log that is no longer the one written (undo, an action taken back after
        something was logged). Writing it all costs a frame once the log is long."""
        written = self.written <= len(events) and (self.written == 0 or events[self.written - 1] is self.last_written)
        if self.viewer != viewer or not written:
            self.clear()
            self.written = 0
            self.viewer = viewer
        for line in log_lines(events[self.written:], viewer, names):
            self.write(line)
        self.written = len(events)
        self.last_written = events[-1] if events else None


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
