"""How cards and events look in the terminal (rich Text), shared by the widgets and prompts."""

from __future__ import annotations

from rich.text import Text

from ...engine import CardView, Loc, Pos
from ...schema.cardpool import CardPool
from ...schema.cards import Monster, Spell, Trap
from ...schema.query import stat_line
from ...schema.vocab import RARITIES

KIND_STYLE = {"monster": "bold #e8c170", "effect": "bold #e39b4a", "spell": "bold #46b38f", "trap": "bold #c0589b",
              "fusion": "bold #a77bd6", "ritual": "bold #5b8fd6", "synchro": "bold #e6e6e6", "xyz": "bold #8c8c8c",
              "link": "bold #4a78c2", "pendulum": "bold #e39b4a", "extra": "bold #cfcfcf", "token": "bold #a0a0a0"}

# Card frames as players know them: the name line is painted in the frame's colour
# (text colour, background). A Pendulum frame is split: its top colour, then Spell green.
FRAMES = {"normal": ("#1b1508", "#d9b45f"), "effect": ("#1b1005", "#d9823a"), "fusion": ("#f2ecff", "#7a52b3"),
          "ritual": ("#f0f5ff", "#3f6fb8"), "synchro": ("#111111", "#e4e4e4"), "xyz": ("#eeeeee", "#2a2a2e"),
          "link": ("#eef3ff", "#1f3f7a"), "token": ("#111111", "#a9a9a9"), "spell": ("#04140d", "#35a07c"),
          "trap": ("#1a0512", "#c4559c")}
PENDULUM_LOW = "#2f9a72"  # the Spell-green half of a Pendulum frame


def frame_of(pool: CardPool, name: str | None) -> tuple[str, bool]:
    """The card's frame (normal, effect, fusion … spell, trap) and whether it is a Pendulum card."""
    card = pool.get(name) if name else None
    if card is None:
        return "", False
    if isinstance(card, Monster):
        pendulum = "pendulum" in card.frames
        for frame in ("token", "fusion", "ritual", "synchro", "xyz", "link"):
            if frame in card.frames:
                return frame, pendulum
        return ("effect" if "effect" in card.frames else "normal"), pendulum
    return ("spell" if isinstance(card, Spell) else "trap"), False


def card_style(pool: CardPool, view: CardView) -> str:
    """The card name's colour (lists, the detail panel): its frame's colour."""
    frame, _ = frame_of(pool, view.name)
    if not frame:
        return "dim"
    return KIND_STYLE["monster" if frame == "normal" else frame]


MANUAL_MARK = "✎"  # a card without scripts (`play: manual`): its text is played with manual actions
MANUAL_STYLE = "bold #d7af5f"
MANUAL_NOTE = "✎ no script: play its text with manual actions (Enter on the card; ctrl+p lists them all)"


def is_manual(pool: CardPool, name: str | None) -> bool:
    card = pool.get(name) if name else None
    return card is not None and card.play == "manual"


def fit(text: str, width: int) -> str:
    """Shorten to `width` cells, keeping the start of the name readable."""
    if width <= 0:
        return ""
    return text if len(text) <= width else text[: max(1, width - 1)] + "…"


def wrap(text: str, width: int, lines: int) -> list[str]:
    """`text` over at most `lines` lines of `width` cells, broken at spaces; the last line
    shortened with … if it still does not fit."""
    if width <= 0 or lines <= 0:
        return []
    words = text.split(" ")
    out: list[str] = []
    current = ""
    for i, word in enumerate(words):
        candidate = f"{current} {word}" if current else word
        if len(candidate) <= width:
            current = candidate
            continue
        if current:
            out.append(current)
        current = word
        if len(out) == lines - 1:
            current = " ".join(words[i:])
            break
    out.append(current)
    while len(out) > lines:
        out[lines - 1] += " " + out.pop()
    out[-1] = fit(out[-1], width)
    return [fit(line, width) for line in out]


def _signed(now: int | None, base: int | None) -> tuple[str, str]:
    """A stat as shown on the board: raised ▲ green, lowered ▼ red (against the printed value)."""
    if now is None:
        return "?", "dim"
    if base is None or now == base:
        return str(now), ""
    return (f"{now}▲", "bold #6ee06e") if now > base else (f"{now}▼", "bold #ff6b6b")


def slot_text(pool: CardPool, view: CardView | None, width: int, lines: int, label: str) -> Text:
    """The inside of one zone: the name over as many lines as it needs (painted in its frame's
    colour), stats (raised/lowered marked), position, counters — as much as fits."""
    text = Text(no_wrap=True, overflow="ellipsis")
    if view is None:
        text.append(fit(label, width), style="dim")
        return text
    if view.hidden:
        what = "set" if view.loc == Loc.SZONE else ("face-down" if view.loc == Loc.MZONE else "card")
        text.append(fit(f"▒ {what}", width), style="#8a8a8a")
        if lines > 1 and view.pos == Pos.FACEDOWN_DEFENSE:
            text.append("\n" + fit("DEF pos.", width), style="dim")
        return text
    mark = MANUAL_MARK if is_manual(pool, view.name) else ""  # no script: played with manual actions
    frame, pendulum = frame_of(pool, view.name)
    below = 2 if lines >= 4 else 1 if lines >= 2 else 0  # the lines kept for stats and position/counters
    name_lines = wrap(view.name or "", width - len(mark), max(1, min(3, lines - below)))
    fg, bg = FRAMES.get(frame, ("#c8ced6", "#3a3f47"))
    for i, line in enumerate(name_lines):
        if i == 0 and mark:
            text.append(mark, style=MANUAL_STYLE)
        row = Text(line.ljust(width - (len(mark) if i == 0 else 0)), style=f"bold {fg} on {bg}")
        if pendulum:
            row.stylize(f"on {PENDULUM_LOW}", width // 2)
        text.append_text(row)
        if i < len(name_lines) - 1:
            text.append("\n")
    used = len(name_lines)
    if lines > used:
        text.append("\n")
        used += 1
        if view.loc == Loc.MZONE and view.atk is not None:
            atk, atk_style = _signed(view.atk, view.base_atk)
            defense, def_style = _signed(view.defense, view.base_def)
            if view.pos in (Pos.DEFENSE, Pos.FACEDOWN_DEFENSE):
                atk_style, def_style = atk_style or "dim", def_style or "bold"
            else:
                atk_style, def_style = atk_style or "bold", def_style or "dim"
            text.append(atk, style=atk_style)
            text.append("/")
            text.append(defense, style=def_style)
        else:
            card = pool.get(view.name) if view.name else None
            if isinstance(card, Monster) and view.loc != Loc.SZONE:
                stars = f"L{view.level or card.level}" if card.level is not None else f"R{card.rank}" if card.rank is not None else f"LINK{card.link}"
                text.append(fit(f"{stars} {card.atk}/{card.def_ if card.def_ is not None else '-'}", width), style="dim")
            elif view.scale is not None:  # a Pendulum card in a Pendulum Zone
                text.append(fit(f"Scale {view.scale}", width), style="bold #4fbf8f")
            else:
                sub = getattr(card, "subtype", "") if card else ""
                face = "set " if view.loc == Loc.SZONE and not view.face_up else ""
                text.append(fit(face + sub + (f" {card.kind}" if card else ""), width), style="dim")
    if lines > used:
        text.append("\n")
        extra = []
        if view.loc == Loc.MZONE and view.pos is not None:
            extra.append({Pos.ATTACK: "ATK", Pos.DEFENSE: "DEF", Pos.FACEDOWN_DEFENSE: "set", Pos.FACEDOWN_ATTACK: "set ATK"}[view.pos])
        for name, count in view.counters:
            extra.append(f"●{count} {name.split()[0]}")
        if view.materials:
            extra.append(f"{view.materials} mat")
        text.append(fit(" ".join(extra), width), style="italic #9aa5b1")
    elif view.counters and width >= 8:  # no line left: the counters replace the stats' end
        text.append(f" ●{sum(c for _, c in view.counters)}", style="bold #ffd75f")
    return text


def card_detail(pool: CardPool, view: CardView | None, fallback: str = "") -> Text:
    """The full card for the detail panel (only what the viewer may see)."""
    text = Text()
    if view is None:
        text.append(fallback or "Empty zone", style="dim")
        return text
    if view.hidden:
        text.append("Face-down card", style="bold")
        text.append("\nYou may not see this card (R-TERM-6).", style="dim")
        return text
    card = pool.get(view.name) if view.name else None
    if card is None:
        text.append(view.name or "?", style="bold")
        return text
    if card.play == "manual":
        text.append(MANUAL_MARK + " ", style=MANUAL_STYLE)
    text.append(card.name + "\n", style=card_style(pool, view))
    text.append(stat_line(card) + "\n", style="bold")
    if view.loc == Loc.MZONE and view.atk is not None:
        text.append(f"Now {view.atk} ATK / {view.defense} DEF", style="bold cyan")
        if (view.atk, view.defense) != (view.base_atk, view.base_def):
            text.append(f" (printed {view.base_atk}/{view.base_def})", style="dim")
        text.append("\n")
    changed = [f"Level {view.level}" if view.level is not None else "", f"{view.type}-Type" if view.type else "",
               view.attribute or ""]
    if any(changed):  # (Demotion, Cost Down, Dragonic Attack, DNA Surgery …)
        text.append("Now " + ", ".join(c for c in changed if c), style="bold cyan")
        text.append(" (changed by an effect)\n", style="dim")
    if card.treated_as:
        text.append(f"Always treated as \"{card.treated_as}\".\n", style="italic")
    text.append("\n" + (card.text or "(no text)") + "\n")
    foot = []
    if card.rarity:
        foot.append(RARITIES[card.rarity])
    foot.append("scripted" if card.scripted else "manual" if card.has_effect else "no effect")
    text.append("\n" + " · ".join(foot), style="dim")
    if card.play == "manual":
        text.append("\n" + MANUAL_NOTE, style=MANUAL_STYLE)
    return text


def is_trap(pool: CardPool, name: str | None) -> bool:
    return isinstance(pool.get(name), Trap) if name else False
