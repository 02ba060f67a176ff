"""How cards and events look in the terminal (rich Text), shared by the widgets and prompts."""

from __future__ import annotations

from rich.text import Text

from ..engine.types import Loc, Pos
from ..engine.views import CardView
from ..schema.cardpool import CardPool
from ..schema.cards import Monster, Spell, Trap
from ..schema.query import stat_line
from ..schema.vocab import RARITIES

KIND_STYLE = {"monster": "bold #e8c170", "effect": "bold #e39b4a", "spell": "bold #46b38f", "trap": "bold #c0589b",
              "fusion": "bold #a77bd6", "ritual": "bold #5b8fd6", "extra": "bold #cfcfcf", "token": "bold #a0a0a0"}


def card_style(pool: CardPool, view: CardView) -> str:
    card = pool.get(view.name) if view.name else None
    if card is None:
        return "dim"
    if isinstance(card, Monster):
        for frame in ("token", "fusion", "ritual", "synchro", "xyz", "link"):
            if frame in card.frames:
                return KIND_STYLE.get(frame, KIND_STYLE["extra"])
        return KIND_STYLE["effect"] if "effect" in card.frames else KIND_STYLE["monster"]
    return KIND_STYLE["spell"] if isinstance(card, Spell) else KIND_STYLE["trap"]


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


def slot_text(pool: CardPool, view: CardView | None, width: int, lines: int, label: str) -> Text:
    """The inside of one zone: name, stats, position — as much as fits."""
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
    if is_manual(pool, view.name):
        text.append(MANUAL_MARK, style=MANUAL_STYLE)  # no script: played with manual actions
        width -= len(MANUAL_MARK)
    text.append(fit(view.name or "", width), style=card_style(pool, view))
    if lines > 1:
        text.append("\n")
        if view.loc == Loc.MZONE and view.atk is not None:
            atk_style = "bold green" if view.atk > (view.base_atk or 0) else "bold red" if view.atk < (view.base_atk or 0) else ""
            def_style = "bold green" if (view.defense or 0) > (view.base_def or 0) else "bold red" if (view.defense or 0) < (view.base_def or 0) else ""
            if view.pos in (Pos.DEFENSE, Pos.FACEDOWN_DEFENSE):
                text.append(str(view.atk), style="dim")
                text.append("/")
                text.append(str(view.defense), style=def_style or "bold")
            else:
                text.append(str(view.atk), style=atk_style or "bold")
                text.append("/")
                text.append(str(view.defense), style="dim")
        else:
            card = pool.get(view.name) if view.name else None
            if isinstance(card, Monster) and view.loc != Loc.SZONE:
                stars = f"L{card.level}" if card.level is not None else f"R{card.rank}" if card.rank is not None else f"LINK{card.link}"
                text.append(fit(f"{stars} {card.atk}/{card.def_ if card.def_ is not None else '-'}", width), style="dim")
            elif view.scale is not None:  # a Pendulum card in a Pendulum Zone
                text.append(fit(f"Scale {view.scale}", width), style="bold #4fbf8f")
            else:
                sub = getattr(card, "subtype", "") if card else ""
                face = "set " if view.loc == Loc.SZONE and not view.face_up else ""
                text.append(fit(face + sub + (f" {card.kind}" if card else ""), width), style="dim")
    if lines > 2:
        text.append("\n")
        extra = []
        if view.loc == Loc.MZONE and view.pos is not None:
            extra.append({Pos.ATTACK: "ATK", Pos.DEFENSE: "DEF", Pos.FACEDOWN_DEFENSE: "set", Pos.FACEDOWN_ATTACK: "set ATK"}[view.pos])
        for name, count in view.counters:
            extra.append(f"{count}×{name.split()[0]}")
        if view.materials:
            extra.append(f"{view.materials} mat")
        text.append(fit(" ".join(extra), width), style="italic #9aa5b1")
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
