"""Reading an effect's activation condition — the text before ":" — as the event it answers
(`when:`) and the conditions it needs (`condition:`), docs/cards.md "Events" and "Conditions".

"When this card is Normal Summoned" → {event: normal_summoned}; "When an opponent's monster
declares an attack" → {event: attack_declared, subject: opponent}; "If you control "Dark
Magician"" → {you_control: {name: Dark Magician, zone: monster}}.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from .nouns import read_noun

_SUMMONS = {"normal": "normal_summoned", "flip": "flip_summoned", "special": "special_summoned", "tribute": "summoned", "": "summoned"}


@dataclass
class Reading:
    """What a condition says: `when` (None: no event), `condition`, and the parts not read."""

    when: dict[str, Any] | None = None
    condition: dict[str, Any] = field(default_factory=dict)
    untranslated: list[str] = field(default_factory=list)


def _summoned(m: re.Match[str], kind: str) -> dict[str, Any]:
    events = [_SUMMONS[w.lower()] for w in (m.group(1), m.group(2)) if w] or ["summoned"]
    when: dict[str, Any] = {"event": events[0] if len(events) == 1 else events}
    if (m.group(1) or "").lower() == "tribute":
        when["how"] = "tribute"
    return when


def _sent(m: re.Match[str], kind: str) -> dict[str, Any]:
    place = (m.group(1) or "").lower()
    when: dict[str, Any] = {"event": "sent_to_gy"}
    if place == "field":
        when["from"] = "monster" if kind == "monster" else "spell"
    elif place == "hand":
        when["from"] = "hand"
    return when


def _destroyed(m: re.Match[str], kind: str) -> dict[str, Any]:
    how, gy = (m.group(1) or "").lower(), m.group(2)
    event = "destroyed_by_battle" if "battle" in how else "destroyed_by_effect" if "effect" in how else "destroyed"
    return {"event": event, **({"where": {"zone": "gy"}} if gy else {})}


def _summoned_by(m: re.Match[str], kind: str) -> dict[str, Any]:
    """"When your opponent Normal or Flip Summons 1 monster with 1000 or more ATK"."""
    events = [_SUMMONS[w.lower().strip()] for w in re.split(r" or ", m.group(1) or "") if w.strip()] or ["summoned"]
    when: dict[str, Any] = {"event": events[0] if len(events) == 1 else events, "subject": "opponent"}
    where = {k: v for k, v in read_noun(m.group(2)).where.items() if k not in ("zone", "side", "kind")}
    return {**when, **({"where": where} if where else {})}


def _is_summoned(m: re.Match[str], kind: str) -> dict[str, Any]:
    """"When a monster with 2000 or less ATK is Summoned", "When a monster(s) is Summoned"."""
    event = _SUMMONS[(m.group(2) or "").lower().strip()]
    where = {k: v for k, v in read_noun(m.group(1)).where.items() if k not in ("zone", "side", "kind")}
    return {"event": event, "subject": "any", **({"where": where} if where else {})}


def _activated(m: re.Match[str], kind: str) -> dict[str, Any]:
    what = m.group(2).lower()
    activated: Any = ["spell", "trap"] if what in ("spell/trap", "spell or trap") else what
    when: dict[str, Any] = {"event": "activated", "activated": activated}
    if m.group(1):
        when["subject"] = "opponent"
    return when


def _phase(m: re.Match[str], kind: str) -> dict[str, Any]:
    whose = (m.group(1) or "").lower()
    player = "opponent" if "opponent" in whose else "you" if "your" in whose else None
    return {"event": f"{m.group(2).lower()}_phase", **({"player": player} if player else {})}


_I = r"^(?:when|if|each time) "
# (condition text, lower-cased) → a `when:`; the first that matches wins
EVENTS: list[tuple[str, Callable[[re.Match[str], str], dict[str, Any]]]] = [
    (_I + r"this card is (normal|flip|special|tribute)?(?: or (normal|flip|special))? ?summoned(?: this way)?", _summoned),
    (_I + r"this card is flipped face-up", lambda m, k: {"event": "flipped"}),
    (_I + r"this card is destroyed( by battle| by a card effect)?(?: and (sent to the gy))?", _destroyed),
    (_I + r"this card is sent (?:from the (field|hand) )?to the gy", _sent),
    (_I + r"this card inflicts battle damage to your opponent", lambda m, k: {"event": "battle_damage", "player": "opponent"}),
    (_I + r"(?:an opponent's|your opponent's) monster declares an attack", lambda m, k: {"event": "attack_declared", "subject": "opponent"}),
    (_I + r"a monster declares an attack", lambda m, k: {"event": "attack_declared"}),
    (_I + r"(?:(your opponent) activates |an? )?(spell/trap|spell or trap|spell|trap) card(?:\(s\))?(?: is activated)?", _activated),
    (_I + r"a monster effect is activated", lambda m, k: {"event": "activated", "activated": "monster"}),
    (_I + r"a monster(?:\(s\))? would be summoned", lambda m, k: {"event": "summon_declared"}),
    (_I + r"your opponent (normal or flip |normal |flip |special |)summons (.+)", _summoned_by),
    (_I + r"(an? .+?) (?:is|are) (normal |flip |special |)summoned", _is_summoned),
    (r"^during (your|each of your|your opponent's|each of your opponent's|the|each player's) (standby|end) phases?", _phase),
    (r"^during damage calculation", lambda m, k: {"event": "damage_calculation"}),
    (_I + r"an equip (?:spell )?card is equipped to this card", lambda m, k: {"event": "equipped"}),
    (r"^at the end of the battle phase", lambda m, k: {"event": "battle_phase_end"}),
    (_I + r"you draw (?:a card|cards|a card\(s\))", lambda m, k: {"event": "drawn", "player": "you"}),
]
_EVENT_RX = [(re.compile(rx + r"$", re.I), read) for rx, read in EVENTS]


def _control(m: re.Match[str], key: str) -> dict[str, Any]:
    noun = read_noun(m.group(1))
    where = {k: v for k, v in noun.where.items() if k != "side"}
    if "zone" not in where or where["zone"] == "onfield":
        where["zone"] = "monster" if "name" in where or where.get("kind") == "monster" else "onfield"
    return {key: where}


CONDITIONS: list[tuple[str, Callable[[re.Match[str]], dict[str, Any]]]] = [
    (r"^if you control (.+)", lambda m: _control(m, "you_control")),
    (r"^if your opponent controls (.+)", lambda m: _control(m, "opponent_controls")),
    (r"^during your opponent's turn", lambda m: {"your_turn": False}),
    (r"^during your turn", lambda m: {"your_turn": True}),
    (r"^(?:during your main phase)", lambda m: {"phase": "main"}),
    (r"^if an opponent's monster attacks", lambda m: {"opponent_attacking": True}),
]
_CONDITION_RX = [(re.compile(rx + r"$", re.I), read) for rx, read in CONDITIONS]


def read_condition(text: str, kind: str) -> Reading:
    """The event and conditions of a condition text ("When …, if …"); a part no pattern reads
    is kept, verbatim, in `untranslated`."""
    reading = Reading()
    for piece in re.split(r",\s*(?=(?:if|when|during|even)\b)", text.strip(), flags=re.I):
        piece = re.sub(r"^(?:once per turn,\s*)", "", piece.strip(), flags=re.I)
        if re.fullmatch(r"even during the damage step", piece, re.I):
            continue
        if not _read_piece(piece, kind, reading):
            reading.untranslated.append(piece)
    return reading


def _read_piece(piece: str, kind: str, reading: Reading) -> bool:
    for rx, read in _EVENT_RX:
        m = rx.match(piece)
        if m and reading.when is None:
            reading.when = read(m, kind)
            return True
    for crx, cread in _CONDITION_RX:
        m = crx.match(piece)
        if m:
            reading.condition.update(cread(m))
            return True
    return False


def opens_with_event(text: str) -> bool:
    """Whether a 2005-style sentence without ":" opens with a condition ("When this card is
    sent to the GY as a result of battle, you can …")."""
    return re.match(r"^(?:when|if|each time|during)\b", text, re.I) is not None
