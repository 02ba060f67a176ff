"""The board: its places — zones, piles and hands (`CardSlot`), drawn a row at a time
(`FieldRow`) — and the widget that holds them and the cursor (`Board`).

Attributes go down (the screen sets each place's view), messages come up (a row posts
`FieldRow.Chosen` when a place is clicked)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Iterable

from rich.style import Style as RichStyle
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget

from ...engine import EMZ_LEFT, FIELD_ZONE, SEPARATE_PENDULUM_ZONES, CardView, SideView
from .panels import SideLine, StatusBar

if TYPE_CHECKING:  # (the menu uses these widgets before the card schema is loaded: tui/pool_loader.py)
    from ...schema.cardpool import CardPool


HAND_SLOTS = 10
HAND_MIN = 6  # hand places always on screen (see Board._fill_hand)
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

    def text(self, width: int, lines: int, room: int | None = None) -> Text:
        """The place drawn as a `width` × `lines` block; `room`: the narrowest place of its row
        (the opponent's zones say whose they are only when that fits in every one of them)."""
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
            if self.owner_name and label and len(self.owner_name) + len(label) < min(width, room or width):
                label = f"{self.owner_name} {label}"
            from ..presenters.render import slot_text

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
            room = min((w for placed, _, w in self.columns() if placed.count is None), default=width)  # (the zones, not the piles)
            key = (id(slot.pool), slot.drawn_as(), width, height, style, room)
            found = _drawn.get(key)
            if found is not None and found[0] is slot.pool:  # (the card texts come from that pool)
                strips = found[1]
            else:
                strips = Visual.to_strips(self, visualize(self, slot.text(width, height, room)), width, height, style)
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


ROWS = ("top-hand", "top-st", "top-m", "emz", "bottom-m", "bottom-st", "bottom-hand")


class Board(Vertical):
    """Both fields, hands and piles as seven rows of places (`ROWS`), between the status bar
    and each side's line; and the board's own cursor. The viewer's side is at the bottom.

    The screen fills it from a `DuelView` (`fill`) and moves the cursor (`select`, `move`);
    a click on a place comes up as `FieldRow.Chosen`."""

    def __init__(self, pool: CardPool, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.pool = pool
        self.cursor: CardSlot | None = None
        self.slots: dict[str, list[CardSlot]] = {}
        self.rows: list[list[CardSlot]] = []

    def compose(self) -> ComposeResult:
        # the places and lines every refresh touches, kept as they are made (DOM queries cost more than drawing)
        self.status = StatusBar(id="status")
        self.lines = {"top": SideLine(id="top-line"), "bottom": SideLine(id="bottom-line")}
        field_rows = {row: self._field_row(row) for row in ROWS}
        self.slots = {row: field_row.slots for row, field_row in field_rows.items()}
        self.rows = [self.slots[row] for row in ROWS]
        self.emz = field_rows["emz"]
        yield self.status
        yield self.lines["top"]
        yield from field_rows.values()
        yield self.lines["bottom"]

    def _field_row(self, row: str) -> FieldRow:
        """One row of places: a hand, the Extra Monster Zones, or a field row (`_places`)."""
        pool = self.pool
        if row.endswith("hand"):
            return FieldRow([CardSlot(pool, "H", i, "", id=f"{row}-{i}") for i in range(HAND_SLOTS)], id=row, classes="hand")
        if row == "emz":
            return FieldRow([CardSlot(pool, "M", EMZ_LEFT + i, "Extra Monster Zone", id=f"emz-{i}") for i in range(2)],
                            id=row, fixed=EMZ_WIDTH)
        return FieldRow(list(self._places(row)), id=row)

    def _places(self, row: str) -> Iterable[CardSlot]:
        """Seven places. Yours: Field|M1..M5|GY and Extra|S1..S5|Deck; the opponent's mirrored."""
        pool = self.pool
        top = row.startswith("top")
        if row.endswith("-m"):
            ends = (("gy", "GY"), ("field", "Field")) if top else (("field", "Field"), ("gy", "GY"))
            zone, labels = "M", [f"M{i + 1}" for i in range(5)]
        else:
            ends = (("deck", "Deck"), ("extra", "Extra")) if top else (("extra", "Extra"), ("deck", "Deck"))
            zone, labels = "S", [f"S{i + 1}" for i in range(5)]
        seqs = list(range(5))[::-1] if top else list(range(5))
        # separate Pendulum Zones (V-06) sit at the ends of the Spell & Trap row, shown only when the rules have them
        left, right = SEPARATE_PENDULUM_ZONES[::-1] if top else SEPARATE_PENDULUM_ZONES
        yield CardSlot(pool, ends[0][0], FIELD_ZONE, ends[0][1], id=f"{row}-a")
        if zone == "S":
            yield CardSlot(pool, "S", left, "Pendulum", id=f"{row}-pl", pendulum=True)
        for col, seq in enumerate(seqs):
            yield CardSlot(pool, zone, seq, labels[seq], id=f"{row}-{col}")
        if zone == "S":
            yield CardSlot(pool, "S", right, "Pendulum", id=f"{row}-pr", pendulum=True)
        yield CardSlot(pool, ends[1][0], FIELD_ZONE, ends[1][1], id=f"{row}-b")

    def set_rules(self, *, separate_pendulum: bool, extra_monster_zones: bool) -> None:
        """Show the places the duel's rules have: separate Pendulum Zones (V-06), the Extra Monster Zones."""
        for slot in (slot for row in self.rows for slot in row if slot.pendulum):
            slot.set_display(separate_pendulum)
        if self.emz.display != extra_monster_zones:
            self.emz.display = extra_monster_zones

    # ------------------------------------------------------------------ filling

    def fill(self, me: SideView, foe: SideView, bottom: int, actionable: set[int], marks: dict[int, str]) -> None:
        """Every place from the view: `me` at the bottom (player `bottom`), `foe` at the top;
        the cards that may be acted on highlighted, `marks` marked."""
        self._fill_side("bottom", me, actionable, marks)
        self._fill_side("top", foe, actionable, marks)
        for slot, seq in zip(self.slots["emz"], (EMZ_LEFT, EMZ_LEFT + 1)):
            occupant = me.monsters[seq] or foe.monsters[seq]
            owner = bottom if me.monsters[seq] else 1 - bottom
            slot.show(owner, occupant, highlight=bool(occupant and occupant.uid in actionable),
                      foe=bool(occupant) and owner != bottom, mark=marks.get(occupant.uid, "") if occupant else "")

    def _fill_side(self, where: str, side: SideView, actionable: set[int], marks: dict[int, str]) -> None:
        top = where == "top"
        owner = side.name if top else ""
        for row, zones in ((f"{where}-m", side.monsters), (f"{where}-st", side.spells)):
            for slot in self.slots[row]:
                if slot.zone in ("M", "S"):
                    view = zones[slot.seq]
                elif slot.zone == "field":
                    view = side.spells[FIELD_ZONE]
                else:
                    pile = {"gy": side.gy, "extra": side.extra}.get(slot.zone)
                    count = side.deck if slot.zone == "deck" else len(pile or ())
                    top_card = pile[-1] if pile else None
                    slot.show(side.player, top_card, count=count, highlight=bool(top_card and top_card.uid in actionable), foe=top)
                    continue
                slot.show(side.player, view, highlight=bool(view and view.uid in actionable), foe=top,
                          mark=marks.get(view.uid, "") if view else "", owner_name=owner)
        self._fill_hand(where, side, actionable, marks)

    def _fill_hand(self, where: str, side: SideView, actionable: set[int], marks: dict[int, str]) -> None:
        top = where == "top"
        hand = side.hand
        for i, slot in enumerate(self.slots[f"{where}-hand"]):
            # At least HAND_MIN places stay on screen (the unused ones blank): showing or hiding a
            # place redraws the whole row, a blank place only itself.
            slot.in_use = i < len(hand) or (i == 0 and not hand)
            slot.set_display(i < max(len(hand), HAND_MIN))
            if i < len(hand):
                view = hand[i]
                slot.label = f"+{len(hand) - HAND_SLOTS + 1}" if i == HAND_SLOTS - 1 and len(hand) > HAND_SLOTS else ""
                slot.show(side.player, view, highlight=view.uid in actionable, foe=top, mark=marks.get(view.uid, ""))
            else:
                slot.label = "" if i else "(empty)"  # (short: a hand place is 7–12 columns wide; the info line above says whose)
                slot.show(side.player, None, foe=top, mark="" if slot.in_use else "unused")

    # ------------------------------------------------------------------ the cursor

    def select(self, slot: CardSlot) -> None:
        """Move the cursor to `slot`."""
        if self.cursor is not slot:
            if self.cursor is not None:
                self.cursor.select(False)
            self.cursor = slot
            slot.select(True)

    def move(self, drow: int, dcol: int) -> CardSlot | None:
        """The place the cursor moves to by a row or a column (among places in use), keeping
        its relative position across rows of other lengths; None with no place in use."""
        rows = [[s for s in row if s.display and s.in_use] for row in self.rows]
        rows = [r for r in rows if r]
        if not rows:
            return None
        position = next(((r, c) for r, row in enumerate(rows) for c, s in enumerate(row) if s is self.cursor), None)
        if position is None:
            return rows[-1][0]
        r, c = position
        if dcol:
            c = max(0, min(len(rows[r]) - 1, c + dcol))
        else:
            ratio = c / max(1, len(rows[r]) - 1)
            r = max(0, min(len(rows) - 1, r + drow))
            c = round(ratio * (len(rows[r]) - 1))
        return rows[r][c]

    def home(self, always: bool = False) -> CardSlot | None:
        """Your hand's first card, where the cursor starts — unless it is somewhere useful
        already (`always`: start there anyway); None when it stays."""
        cursor = self.cursor
        if not always and cursor is not None and cursor.display and cursor.in_use and not (cursor.id or "").startswith("top-hand"):
            return None
        return next((slot for slot in self.slots["bottom-hand"] if slot.display and slot.in_use), None)
