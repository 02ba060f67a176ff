"""One effect text → one effect of the card vocabulary: its kind (from the card and the text's
shape), `when`/`condition` (the text before ":"), `cost` and `target` (before ";"), `do` (the
resolution), `optional` ("You can") and `once_per_turn`.

The kind follows the card (R-TERM, docs/cards.md): a Spell/Trap's effect is its activation; a
monster's "FLIP:" is `flip`, an event before ":" makes a `trigger` (a `quick` one with "(Quick
Effect)"), and the rest that it can activate is an `ignition`. A Continuous, Field or Equip card's
standing sentences are `continuous` effects (statics.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .events import opens_with_event, read_condition
from .nouns import read_noun
from .phrases import TARGET, Part, split_effect
from .verbs import Ctx, Op, read_clause, read_ops

STANDING = ("continuous", "field", "equip")  # Spell/Trap subtypes whose card stays: their sentences may be continuous


@dataclass
class CardInfo:
    """What the drafter knows of the card besides its text."""

    kind: str  # monster, spell, trap
    subtype: str | None = None
    frames: frozenset[str] = frozenset()


@dataclass
class Drafted:
    effects: list[dict[str, Any]] = field(default_factory=list)
    untranslated: list[str] = field(default_factory=list)
    equip_where: dict[str, Any] | None = None  # an Equip Spell's "Equip only to …"


@dataclass
class Shape:
    """An effect text taken apart: flags from its opening, and condition, cost, resolution."""

    text: str
    flip: bool = False
    quick: bool = False
    once: bool | str = False
    optional: bool = False
    condition: str = ""
    cost: str = ""
    resolution: str = ""


def shape(part: Part) -> Shape:
    """Take an effect text apart (R-TERM-4): "FLIP:", "(Quick Effect)", "Once per turn", the
    condition before ":", the cost and target before ";", "You can"."""
    text = part.text.strip()
    s = Shape(text=text, flip=text.startswith("FLIP:"))
    body = re.sub(r"\s*\(Quick Effect\)", "", text)
    s.quick = body != text
    if re.match(r"^once per turn[,:]\s*", body, re.I):
        s.once, body = True, re.sub(r"^once per turn:\s*", "", body, flags=re.I)
    if re.search(r"\bonce per turn\b", part.header, re.I):
        s.once = "card"
    s.condition, s.cost, s.resolution = split_effect(body)
    if s.condition == "" and ":" not in body and opens_with_event(body) and "," in body:
        s.condition, rest = body.split(",", 1)  # 2005: "When this card is …, you can …"
        s.cost, s.resolution = split_effect(rest)[1:]
    if re.match(r"^once per turn,?\s*", s.condition, re.I):
        s.once, s.condition = True, re.sub(r"^once per turn,?\s*", "", s.condition, flags=re.I)
    for name in ("cost", "resolution"):
        value = getattr(s, name)
        if re.match(r"^you can\b", value, re.I):
            s.optional = True
            setattr(s, name, re.sub(r"^you can\s+", "", value, flags=re.I))
            break
    if by := re.match(r"^activate this card by (targeting|paying) (.+)$", s.cost, re.I):
        s.cost = ("target " if by.group(1).lower() == "targeting" else "pay ") + by.group(2)
    elif not s.cost and (by := re.match(r"^activate this card by (targeting|paying) (.+?)(?:;|\.|$)", s.resolution, re.I)):
        s.cost = ("target " if by.group(1).lower() == "targeting" else "pay ") + by.group(2)
        s.resolution = s.resolution[by.end():].strip()
    return s


def _target(text: str) -> dict[str, Any] | None:
    """`target:` from "Target 1 face-up monster your opponent controls" (None if unreadable)."""
    m = re.match(r"^(?:target|targeting)\s+(.+)$", text.strip(), re.I)
    if m is None:
        return None
    phrase = m.group(1)
    if re.fullmatch(r"(?:the|that) attacking monster", phrase, re.I):
        return {"where": {"zone": "monster", "side": "opponent", "attacking": True}}
    if re.fullmatch(r"that monster(?:\(s\))?|those monsters?", phrase, re.I):
        return {"where": {"zone": "monster", "event": True}}
    noun = read_noun(phrase)
    if noun.unknown or noun.count in ("all", "any"):
        return None
    spec: dict[str, Any] = {"where": noun.where}
    if noun.count != "1":
        spec["count"] = noun.count
    return spec


def _cost_and_target(cost: str, ctx: Ctx, out: Drafted) -> tuple[list[Op], dict[str, Any] | None]:
    """The cost operations and the target of the text before ";" ("Discard 1 card, then target 1 monster")."""
    ops: list[Op] = []
    target = None
    for piece in re.split(r",\s*then\s+|\s+to (?=target\b)|,\s*(?=target\b)", cost, flags=re.I):
        piece = piece.strip()
        if not piece:
            continue
        if TARGET.match(piece) or re.match(r"^target(?:ing)?\b", piece, re.I):
            target = _target(piece)
            if target is None:
                out.untranslated.append(piece)
            continue
        ctx.cost = True
        op = read_clause(piece, ctx)
        ctx.cost = False
        if op is None:
            out.untranslated.append(piece)
        else:
            ops.append(op)
    ctx.chose = False  # what a cost chose is not what the resolution's "it" means
    return ops, target


def _kind(s: Shape, card: CardInfo, has_event: bool) -> str:
    if card.kind != "monster":
        return "trigger" if has_event and card.subtype in STANDING else "activate"
    if s.flip:
        return "flip"
    if s.quick:
        return "quick"
    return "trigger" if has_event else "ignition"


def draft_effect(part: Part, card: CardInfo, out: Drafted) -> None:
    """Draft one effect text into `out` (its effect, or its phrases as untranslated)."""
    s = shape(part)
    reading = read_condition(s.condition, card.kind) if s.condition else None
    if reading is not None and reading.untranslated:
        out.untranslated.append(part.text)
        return
    has_event = reading is not None and reading.when is not None
    kind = _kind(s, card, has_event)
    about_self = reading is None or reading.when is None or "this card" in s.condition.lower()
    ctx = Ctx(about_self=about_self, event_card=has_event)
    before = len(out.untranslated)
    cost, target = _cost_and_target(s.cost, ctx, out)
    ctx.has_target = target is not None
    do, missing = read_ops(s.resolution, ctx)
    out.untranslated += missing + ctx.unknown
    if not do and not cost and target is None:
        del out.untranslated[before:]
        out.untranslated.append(part.text)
        return
    effect = _assemble(kind, s, reading, cost, target, do)
    out.effects.append(effect)


def _assemble(kind: str, s: Shape, reading: Any, cost: list[Op], target: dict[str, Any] | None, do: list[Op]) -> dict[str, Any]:
    """The effect's keys in the order card files write them."""
    effect: dict[str, Any] = {"kind": kind}
    if s.once:
        effect["once_per_turn"] = s.once
    if reading is not None and reading.when is not None:
        effect["when"] = reading.when
        if kind == "trigger" and s.optional and s.condition.lower().startswith("when"):
            effect["timing"] = "when"
    if s.optional and kind in ("trigger", "flip"):
        effect["optional"] = True
    if reading is not None and reading.condition:
        effect["condition"] = reading.condition
    if cost:
        effect["cost"] = cost
    if target is not None:
        if any(_revives(op) for op in do) and target["where"].get("zone") in ("gy", "banished"):
            target["where"]["revivable"] = True
        effect["target"] = target
    if do:
        effect["do"] = do
    if kind in ("ignition", "quick", "trigger") and {"discard": "self"} in cost:
        effect["from"] = "hand"  # "You can discard this card; …" is used from the hand (Kuriboh)
    return effect


def _revives(op: Op) -> bool:
    summon = op.get("special_summon")
    return summon == "target" or (isinstance(summon, dict) and summon.get("what") == "target")
