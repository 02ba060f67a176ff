"""Reading the sentences that are not effects to activate: continuous effects ("All WIND
monsters on the field gain 300 ATK", "The equipped monster gains 1000 ATK"), card-level keys
("Cannot be Special Summoned" → `no_special_summon`) and rule texts the engine applies by itself
("Must be Fusion Summoned", a Spirit's return to the hand, docs/cards.md "Ability monsters").
"""

from __future__ import annotations

import re
from typing import Any, Callable

from .nouns import read_noun

_STATS = r"(gains?|loses?) (\d+) (ATK and DEF|ATK/DEF|ATK|DEF)(?: and (loses?) (\d+) DEF)?"


def _stats(m: re.Match[str], first: int) -> dict[str, Any]:
    sign, n, stats = m.group(first), int(m.group(first + 1)), m.group(first + 2)
    amount = n if sign.startswith("gain") else -n
    out: dict[str, Any] = {}
    if "ATK" in stats:
        out["atk"] = amount
    if "DEF" in stats:
        out["def"] = amount
    if m.group(first + 3):
        out["def"] = -int(m.group(first + 4))
    return out


def _all_gain(m: re.Match[str]) -> dict[str, Any] | None:
    noun = read_noun(m.group(1))
    if noun.unknown:
        return None
    where = dict(noun.where)
    where.setdefault("face_up", True)
    return {"applies_to": where, **_stats(m, 2)}


def _equipped_gain(m: re.Match[str]) -> dict[str, Any]:
    return {"applies_to": "equipped", **_stats(m, 1)}


def _self_gain_per(m: re.Match[str]) -> dict[str, Any] | None:
    noun = read_noun(m.group(6))
    if noun.unknown:
        return None
    return {"applies_to": "self", **_stats(m, 1), "per_where": noun.where}


def _cannot_attack(m: re.Match[str]) -> dict[str, Any] | None:
    noun = read_noun(m.group(1))
    if noun.unknown:
        return None
    return {"applies_to": noun.where, "cannot_attack": True}


def _negate_all(m: re.Match[str]) -> dict[str, Any]:
    kind = m.group(2).lower()
    negated: dict[str, Any] = {"kind": kind}
    if m.group(1):
        negated["not_self"] = True
    return {"applies_to": {"zone": "onfield"}, "negate_effects": negated}


# (a sentence) → a `continuous:` spec; the first that matches wins
def _equipped_per(m: re.Match[str]) -> dict[str, Any] | None:
    noun = read_noun(m.group(6))
    if noun.unknown:
        return None
    return {"applies_to": "equipped", **_stats(m, 1), "per_where": noun.where}


CONTINUOUS: list[tuple[str, Callable[[re.Match[str]], dict[str, Any] | None]]] = [
    (r"(?:the equipped monster|it|a monster equipped with this card) " + _STATS + r" for each (.+)", _equipped_per),
    (r"(?:the equipped monster|it|a monster equipped with this card|the monster equipped with this card) " + _STATS, _equipped_gain),
    (r"(?:this card )?" + _STATS + r" for each (.+)", _self_gain_per),
    (r"all (.+?) " + _STATS, _all_gain),
    (r"(?:this card )?can attack (?:your opponent|the opponent) directly", lambda m: {"direct_attack": True}),
    (r"(?:if this card|if the equipped monster) attacks a (?:face-down )?defense position monster, inflict piercing battle damage(?: to your opponent)?",
     lambda m: {"applies_to": "equipped" if "equipped" in m.group(0).lower() else "self", "piercing": True}),
    (r"this card can (?:attack twice|make a second attack) during each battle phase", lambda m: {"extra_attacks": 1}),
    (r"(.+?) cannot (?:declare an )?attack", _cannot_attack),
    (r"negate all (other )?(trap|spell) (?:card )?effects on the field", _negate_all),
    (r"(?:trap|spell) cards cannot be activated", lambda m: {"applies_to": {"zone": "onfield"},
                                                            "cannot_activate": {"kind": m.group(0).split()[0].lower()}}),
]
_CONTINUOUS_RX = [(re.compile(rx + r"\.?$", re.I), read) for rx, read in CONTINUOUS]


def read_continuous(sentence: str) -> list[dict[str, Any]] | None:
    """The continuous effects a sentence states (one per ";"-joined statement), or None if a
    statement is not read."""
    specs = []
    for statement in re.split(r";\s*", sentence.strip().rstrip(".")):
        spec = next((s for rx, read in _CONTINUOUS_RX if (m := rx.match(statement.strip())) and (s := read(m)) is not None), None)
        if spec is None:
            return None
        specs.append(spec)
    return specs


# card-level keys a sentence says (docs/cards.md "Card-level keys that replace effects")
KEYS: list[tuple[str, Callable[[re.Match[str]], dict[str, Any]]]] = [
    (r"cannot be special summoned", lambda m: {"no_special_summon": True}),
    (r"cannot be normal summoned/set", lambda m: {"special_summon_only": True}),
    (r"\(this card's name is always treated as \"([^\"]+)\"\.?\)", lambda m: {"treated_as": m.group(1)}),
    (r"during the end phase of the turn this card is normal summoned or flipped face-up: return it to the hand",
     lambda m: {"abilities": ["spirit"]}),
]
_KEY_RX = [(re.compile(rx + r"\.?$", re.I), read) for rx, read in KEYS]

# rule texts the engine applies by itself: nothing to write
RULES = re.compile(r"^(?:must be (?:fusion|ritual|synchro|xyz) summoned|a fusion summon of this card can only be done with the above "
                   r"fusion materials|this card is a normal monster while face-up on the field or in the gy|"
                   r"you can ritual summon this card with \"[^\"]+\"|after activation this card stays on the field)\.?$", re.I)


def read_keys(sentence: str) -> dict[str, Any] | None:
    """The card-level keys a sentence says, or None."""
    for rx, read in _KEY_RX:
        m = rx.match(sentence.strip())
        if m:
            return read(m)
    return None
