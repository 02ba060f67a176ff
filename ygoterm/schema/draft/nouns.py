"""Reading what a phrase names: "1 face-up Level 4 or lower Warrior monster your opponent
controls" → a filter of the card vocabulary ({zone: monster, side: opponent, face_up: true,
level: "<=4", type: Warrior}) and a count.

Every word the reader takes is struck out; what remains (other than small words) is `unknown`,
so the drafter can say which phrase it did not fully understand instead of guessing quietly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ..vocab import ATTRIBUTES, MONSTER_TYPES

# small words that carry nothing once the others are read
_STOP = {"the", "a", "an", "of", "on", "in", "from", "field", "or", "and", "either", "player's", "players'", "your", "their",
         "card", "cards", "monster", "monsters", "that", "to", "with", "both", "each", "any", "is", "are", "as", "other",
         "its", "it", "all", "every", "currently", "there", "s", "(s)", "number", "zone", "zones"}
_TYPES = sorted(MONSTER_TYPES, key=len, reverse=True)  # "Beast-Warrior" before "Beast"
_TYPE_RX = re.compile(r"(?<![\w-])(" + "|".join(re.escape(t) for t in _TYPES) + r")(?:-Type)?(?![\w-])")
_ATTR_RX = re.compile(r"\b(" + "|".join(ATTRIBUTES) + r")\b")
_NAME_RX = re.compile(r'"([^"]+)"')


@dataclass
class Noun:
    """What a phrase names: a filter, how many ("1", "1-2", "all"), an optional `pick` (Fissure's
    "with the lowest ATK") and the words it could not read."""

    where: dict[str, Any] = field(default_factory=dict)
    count: str = "1"
    pick: str | None = None
    unknown: list[str] = field(default_factory=list)


class _Reader:
    """Strikes out what it reads from a phrase, so the rest shows what was not understood."""

    def __init__(self, phrase: str) -> None:
        self.rest = f" {phrase} "
        self.last = ""  # the words of the last kind read ("Fusion Monster")

    def take(self, rx: str, flags: int = 0) -> re.Match[str] | None:
        m = re.search(rx, self.rest, flags)
        if m:
            self.rest = self.rest[:m.start()] + " " + self.rest[m.end():]
        return m

    def take_all(self, rx: re.Pattern[str]) -> list[str]:
        found = [m.group(1) for m in rx.finditer(self.rest)]
        self.rest = rx.sub(" ", self.rest)
        return found

    def leftover(self) -> list[str]:
        words = re.findall(r"[\w'()/-]+", self.rest)
        return [w for w in words if w.lower() not in _STOP and not w.isdigit()]


def _count(r: _Reader) -> str:
    m = r.take(r"^\s*(?:up to (\d+)|(\d+)|(all|every|each|any number of))\b", re.I)
    if m is None:
        return "1"
    if m.group(1):
        return f"1-{m.group(1)}"
    if m.group(2):
        return m.group(2)
    return "any" if m.group(3).lower() == "any number of" else "all"


def _stats(r: _Reader, where: dict[str, Any]) -> None:
    if m := r.take(r"\bLevel (\d+) or (lower|higher|less|more)\b"):
        where["level"] = ("<=" if m.group(2) in ("lower", "less") else ">=") + m.group(1)
    elif m := r.take(r"\bLevel (\d+)\b"):
        where["level"] = int(m.group(1))
    for _ in range(2):
        if m := r.take(r"\b(?:with |whose )?(\d+) or (less|more|lower|higher) (ATK|DEF)\b"):
            where["atk" if m.group(3) == "ATK" else "def"] = ("<=" if m.group(2) in ("less", "lower") else ">=") + m.group(1)
    if r.take(r"\bwhose ATK is less than or equal to their LP\b"):
        where["atk_within_lp"] = True


def _kinds(r: _Reader, where: dict[str, Any]) -> str | None:
    """The card kind, frame, subtype words; returns "monster", "spell", "trap", "spelltrap" or None."""
    words: list[tuple[str, Callable[[], None], str | None]] = [
        (r"\b(?:Fusion|Synchro|Xyz|Link|Ritual) Monsters?\b", lambda: where.update(frame=r.last.split()[0].lower()), "monster"),
        (r"\bNormal Monsters?\b", lambda: where.update(frame="normal"), "monster"),
        (r"\bEffect Monsters?\b", lambda: where.update(frame="effect"), "monster"),
        (r"\bFlip monsters?\b", lambda: where.update(flip=True), "monster"),
        (r"\bToon monsters?\b", lambda: where.update(ability="toon"), "monster"),
        (r"\bRitual Spells?(?: Cards?)?\b", lambda: where.update(subtype="ritual"), "spell"),
        (r"\bEquip (?:Spell )?Cards?\b", lambda: where.update(subtype="equip"), "spell"),
        (r"\bField Spells?(?: Cards?)?\b", lambda: where.update(subtype="field"), "spell"),
        (r"\bSpells?/Traps?(?: Cards?)?|\bSpells? (?:Cards? )?and Traps?(?: Cards?)?", lambda: None, "spelltrap"),
        (r"\bSpells?(?: Cards?)?\b", lambda: None, "spell"),
        (r"\bTraps?(?: Cards?)?\b", lambda: None, "trap"),
        (r"\bMonster Cards?\b|\bmonsters?\b|\bmonster\(s\)", lambda: None, "monster"),
    ]
    for rx, apply, kind in words:
        m = re.search(rx, r.rest)
        if m:
            r.last = m.group(0)
            r.take(rx)
            apply()
            return kind
    return None


_PLACES: list[tuple[str, dict[str, Any]]] = [
    (r"\b(?:from|in) your hand, Deck, (?:and|or) GY\b", {"zone": ["hand", "deck", "gy"], "side": "you"}),
    (r"\b(?:from|in) your hand or Deck\b", {"zone": ["hand", "deck"], "side": "you"}),
    (r"\b(?:from|in) your hand or GY\b", {"zone": ["hand", "gy"], "side": "you"}),
    (r"\b(?:from|in) your Deck or GY\b", {"zone": ["deck", "gy"], "side": "you"}),
    (r"\b(?:from|in) (?:your|their) (?:own )?hand\b", {"zone": "hand", "side": "you"}),
    (r"\b(?:from|in) your opponent's hand\b", {"zone": "hand", "side": "opponent"}),
    (r"\b(?:from|in) your Deck\b", {"zone": "deck", "side": "you"}),
    (r"\b(?:from|in) your opponent's Deck\b", {"zone": "deck", "side": "opponent"}),
    (r"\b(?:from|in) your Extra Deck\b", {"zone": "extra", "side": "you"}),
    (r"\b(?:from|in) your GY\b", {"zone": "gy", "side": "you"}),
    (r"\b(?:from|in) your opponent's GY\b", {"zone": "gy", "side": "opponent"}),
    (r"\b(?:from|in) (?:either player's|a|the|any) GYs?\b", {"zone": "gy"}),
    (r"\b(?:from|in) (?:your|the) banishment\b|\bthat (?:is|are) banished\b", {"zone": "banished"}),
    (r"\bin (?:a|your|the) Pendulum Zones?\b", {"zone": "pendulum"}),
    (r"\bin your opponent's Pendulum Zones?\b", {"zone": "pendulum", "side": "opponent"}),
    (r"\b(?:your opponent|they) controls?\b|\byour opponent's\b|\bon your opponent's field\b", {"field": True, "side": "opponent"}),
    (r"\byou control\b|\bon your field\b|\byour\b", {"field": True, "side": "you"}),
    (r"\bon the field\b", {"field": True}),
]


def _place(r: _Reader, where: dict[str, Any]) -> bool:
    """Where the cards are; True if the phrase says it is on the field."""
    for rx, says in _PLACES:
        if r.take(rx):
            where.update({k: v for k, v in says.items() if k != "field"})
            return bool(says.get("field"))
    return False


def _field_zone(kind: str | None, where: dict[str, Any]) -> None:
    """On the field, a monster is in a Monster Zone and a Spell/Trap in a Spell & Trap Zone."""
    if kind == "monster":
        where["zone"] = "monster"
    elif kind in ("spell", "trap", "spelltrap"):
        where["zone"] = "spell"
        if kind != "spelltrap":
            where["kind"] = kind
    else:
        where["zone"] = "onfield"


def _positions(r: _Reader, where: dict[str, Any]) -> None:
    if r.take(r"\bface-down Defense Position\b|\bface-down\b|\bSet\b"):
        where["face_up"] = False
    if r.take(r"\bface-up\b"):
        where["face_up"] = True
    if r.take(r"\b(?:in )?Attack Position\b|\battacking\b(?= monster)"):
        where["position"] = "attack"
    elif r.take(r"\b(?:in )?Defense Position\b"):
        where["position"] = "defense"


def _features(r: _Reader, where: dict[str, Any]) -> str | None:
    """Names, stats, Attributes, Types, kinds: every property a phrase may give its cards."""
    names = r.take_all(_NAME_RX)
    if names:
        where["name"] = names if len(names) > 1 else names[0]
    if r.take(r"\bother\b|\bexcept this card\b"):
        where["not_self"] = True
    if r.take(r"\bof (?:that|the declared) (?:Type|Attribute)\b"):
        where["declared"] = True
    if r.take(r"\bthat can be Normal Summoned/Set\b"):
        where["normal_summonable"] = True
    _stats(r, where)
    _positions(r, where)
    attributes = r.take_all(_ATTR_RX)
    if attributes:
        where["attribute"] = attributes if len(attributes) > 1 else attributes[0]
    types = r.take_all(_TYPE_RX)
    if types:
        where["type"] = types if len(types) > 1 else types[0]
    kind = _kinds(r, where)
    if kind is None and (types or attributes or "level" in where or "atk" in where):
        kind = "monster"
    return kind


def read_noun(phrase: str, default: dict[str, Any] | None = None) -> Noun:
    """The cards a phrase names. `default` says where they are when the phrase does not (an
    operation's own default: "Add 1 monster" from the Deck, "destroy 1 monster" on the field)."""
    r = _Reader(phrase.strip().rstrip(".,"))
    count = _count(r)
    pick = None
    if m := r.take(r"\bwith the (lowest|highest) (ATK|DEF)\b(?: \(your choice if tied\))?"):
        pick = f"{'lowest' if m.group(1) == 'lowest' else 'highest'}_{m.group(2).lower()}"
    where: dict[str, Any] = {}
    on_field = _place(r, where)
    kind = _features(r, where)
    if not on_field and "zone" not in where:
        on_field = (default or {}).get("zone") in (None, "field")
        if not on_field:
            where.update({k: v for k, v in (default or {}).items() if k not in where})
    if on_field:
        _field_zone(kind, where)
    elif kind in ("monster", "spell", "trap"):
        where["kind"] = kind
    elif kind == "spelltrap":
        where["kind"] = ["spell", "trap"]
    return Noun(where=_ordered(where), count=count, pick=pick, unknown=r.leftover())


_ORDER = ("zone", "side", "kind", "frame", "subtype", "face_up", "position", "attribute", "type", "name", "level", "atk", "def", "declared")


def _ordered(where: dict[str, Any]) -> dict[str, Any]:
    """The filter's keys in the order card files write them (zone, side, kind … first)."""
    return {k: where[k] for k in sorted(where, key=lambda k: _ORDER.index(k) if k in _ORDER else len(_ORDER))}
