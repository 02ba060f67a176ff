"""The duel screen's widgets: zones, piles, hands, the status bar, chain and log panels.

Attributes go down (the screen sets each place's view), messages come up (a row posts
`FieldRow.Chosen` when a place is clicked)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING

from rich.style import Style as RichStyle
from rich.text import Text
from textual import events
from textual.geometry import Region
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget
from textual.widgets import OptionList, RichLog

from ..engine import CardView, DuelView, SideView

if TYPE_CHECKING:  # (the menu uses these widgets before the card schema is loaded: tui/pool_loader.py)
    from ..schema.cardpool import CardPool

HAND_SLOTS = 10
HAND_MIN = 6  # hand places always on screen (see DuelScreen._fill_side)
EMZ_WIDTH = 24  # each Extra Monster Zone's columns


class CardSlot:
    """One place on the board: a Monster/Spell zone, a hand card, or a pile (Deck, GY …).

    A place is not a widget: its `FieldRow` draws it, so the board is seven widgets instead of
    seventy (Textual's layout and compositing cost grows with every widget, and every frame of a
    prompt re-draws the dimmed board under it). The duel screen keeps its own cursor
    (`selected`); moving it redraws the two places, nothing else."""

    def __init__(self, pool: CardPool, zone: str, seq: int, label: str, *, id: str, pendulum: bool = False) -> None:
        self.pool = pool
        self.id = id
        self.row: FieldRow | None = None  # the widget that draws this place (set by the row)
        self.zone = zone  # "M", "S", "H" (hand), "deck", "gy", "banished", "extra"
        self.seq = seq
        self.label = label
        self.pendulum = pendulum  # a separate Pendulum Zone (shown only when the rules have them)
        self.display = True  # on screen (hand places beyond HAND_MIN, Pendulum Zones: not always)
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

    def select(self, on: bool) -> None:
        if self.selected != on:
            self.selected = on
            self.refresh()

    def set_display(self, shown: bool) -> None:
        """Show or hide the place: the row shares its width among the places shown."""
        if self.display != shown:
            self.display = shown
            if self.row is not None:
                self.row.relayout()

    def refresh(self) -> None:
        if self.row is not None:
            self.row.redraw(self)

    @property
    def uid(self) -> int | None:
        return self.view.uid if self.view is not None else None

    def drawn_as(self) -> tuple[object, ...]:
        """Everything `text` draws from (with the size): places that look the same share their
        strips (`FieldRow._slot_strips`)."""
        return (self.label, self.view, self.count, self.highlight, self.selected, self.foe, self.mark, self.owner_name)

    # The backgrounds (focus, "has actions", empty, the two sides, the marks) are painted into
    # the text rather than set with CSS classes: a style change makes Textual lay the whole
    # screen out again.
    BACKGROUNDS = {"focus": "on #3d5a80", "actionable": "on #2b3a2c", "empty": "on #161b22", "card": "on #1b2330",
                   "foe-empty": "on #1f1517", "foe-card": "on #2c1c21",
                   "attacker": "on #6a1f1f", "target": "on #5c4310", "option": "on #3f3a12", "picked": "on #6b6414"}
    MARKS = {"attacker": ("⚔ attacks", "bold #ffb3b3"), "target": ("◎ target", "bold #ffd27f"),
             "option": ("○ pick", "#e8e08a"), "picked": ("● picked", "bold #fff59a")}

    def text(self, width: int, lines: int) -> Text:
        """The place drawn as a `width` × `lines` block."""
        width, lines = max(1, width), max(1, lines)
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
            from .render import slot_text  # (drawn only once the pool, and so the card schema, is loaded)

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


# Places drawn, by what they show and their size: the hot-seat board flips between a player's
# view and the public one at every response window, and a row of face-down hand cards is the
# same few places; drawing a place again costs more than looking it up.
_drawn: dict[tuple[object, ...], tuple[CardPool, list[Strip]]] = {}
_DRAWN_KEPT = 4096


class FieldRow(Widget, can_focus=False):
    """A row of places drawn by one widget, each place from its own cached strips: a change to
    one place redraws that place's columns only.

    The places share the width as `width: 1fr; margin-left: 1` widgets would (Textual's
    arithmetic, in fractions, so the columns fall where they always have); `fixed` gives every
    place that width instead, the group centred (the Extra Monster Zones)."""

    COMPONENT_CLASSES = {"field-row--place"}  # the places' text colour (the gaps keep the screen's)

    class Chosen(Message):
        """The player clicked a place."""

        def __init__(self, slot: CardSlot) -> None:
            self.slot = slot
            super().__init__()

    def __init__(self, slots: list[CardSlot], *, id: str, classes: str | None = None, fixed: int | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.slots = slots
        self.fixed = fixed
        for slot in slots:
            slot.row = self
        self._columns: list[tuple[CardSlot, int, int]] = []  # (place, x, width) of the places shown
        self._columns_for: tuple[int, int] | None = None  # the size they were worked out for
        self._strips: dict[str, list[Strip]] = {}  # a place's rendered lines, by place id

    def columns(self) -> list[tuple[CardSlot, int, int]]:
        """(place, x, width) for every place shown, at the current width."""
        size = (self.size.width, self.size.height)
        if self._columns_for != size:
            self._columns_for = size
            self._strips.clear()
            self._columns = self._arrange(size[0])
        return self._columns

    def _arrange(self, width: int) -> list[tuple[CardSlot, int, int]]:
        shown = [slot for slot in self.slots if slot.display]
        if not shown:
            return []
        if self.fixed is not None:
            span = len(shown) * (self.fixed + 1)  # each with its margin; the group centred
            left = max(0, (width - span) // 2) + 1
            return [(slot, left + i * (self.fixed + 1), self.fixed) for i, slot in enumerate(shown)]
        unit = Fraction(max(0, width - len(shown)), len(shown))
        x = Fraction(1)
        out = []
        for slot in shown:
            start = x.__floor__()
            out.append((slot, start, (x + unit).__floor__() - start))
            x += unit + 1
        return out

    def relayout(self) -> None:
        """The places shown changed: share the width again and redraw the row."""
        self._columns_for = None
        self.refresh()

    def redraw(self, slot: CardSlot) -> None:
        """Draw `slot` again (its columns only)."""
        self._strips.pop(slot.id, None)
        for placed, x, width in self._columns:
            if placed is slot and self._columns_for == (self.size.width, self.size.height):
                self.refresh(Region(x, 0, width, self.size.height))
                return
        self.refresh()

    def _slot_strips(self, slot: CardSlot, width: int) -> list[Strip]:
        strips = self._strips.get(slot.id)
        if strips is None:
            height = self.size.height
            style = replace(self.visual_style, foreground=self.get_component_styles("field-row--place").color)
            key = (id(slot.pool), slot.drawn_as(), width, height, style)
            found = _drawn.get(key)
            if found is not None and found[0] is slot.pool:  # (the card texts come from that pool)
                strips = found[1]
            else:
                strips = Visual.to_strips(self, visualize(self, slot.text(width, height)), width, height, style)
                if len(_drawn) >= _DRAWN_KEPT:
                    _drawn.clear()
                _drawn[key] = (slot.pool, strips)
            self._strips[slot.id] = strips
        return strips

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        gap = RichStyle.from_color(bgcolor=self.background_colors[1].rich_color)  # (as a container's blank)
        pieces: list[Strip] = []
        at = 0
        for slot, x, w in self.columns():
            if x > at:
                pieces.append(Strip.blank(x - at, gap))
            strips = self._slot_strips(slot, w)
            pieces.append(strips[y] if y < len(strips) else Strip.blank(w, gap))
            at = x + w
        if at < width:
            pieces.append(Strip.blank(width - at, gap))
        return Strip.join(pieces).crop(0, width)

    def screen_region_of(self, slot: CardSlot) -> list[int] | None:
        """Where `slot` is on the screen, as [x, y, width, height] (None: not shown)."""
        region = self.content_region
        for placed, x, width in self.columns():
            if placed is slot:
                return [region.x + x, region.y, width, region.height]
        return None

    def on_click(self, event: events.Click) -> None:
        for slot, x, width in self.columns():
            if x <= event.x < x + width:
                self.post_message(self.Chosen(slot))
                return


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


class Choices(OptionList):
    """An OptionList whose PageUp/PageDown before it is laid out (its options just replaced, the
    question just shown, keys typed ahead) does nothing: Textual 8 raised KeyError there."""

    def _move_page(self, direction: int) -> None:
        self._update_lines()
        try:
            super()._move_page(direction)
        except (KeyError, IndexError):
            return
