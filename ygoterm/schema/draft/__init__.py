"""Draft a card's `effects:` from its text (`ygoterm cards draft`): a starting point for whoever
scripts the card, never a script the pool loads by itself.

The drafter reads the structure of the card-text grammar, not a list of known cards: the text is
split into effect texts (phrases.py), each taken apart into condition, cost, target and
resolution (effects.py), the condition read as an event (events.py), the resolution's clauses as
operations (verbs.py) whose objects are filters (nouns.py), and standing sentences as continuous
effects or card keys (statics.py). Whatever it cannot read is returned verbatim in
`untranslated`, so a draft says what it left out instead of guessing. Every draft validates
against the card schema: an effect that does not is dropped and its text reported.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from pydantic import ValidationError
from ruamel.yaml import YAML

from ..cards import CARD_KINDS
from ..effects import Effect
from .effects import STANDING, CardInfo, Drafted, draft_effect
from .nouns import read_noun
from .phrases import Part, effect_texts, modern
from .statics import RULES, read_continuous, read_keys

__all__ = ["Draft", "draft", "render"]


@dataclass
class Draft:
    """A drafted script: `effects` (plain YAML-ready data of the card vocabulary), card-level
    `keys` the text says (`no_special_summon` …) and every phrase not translated, verbatim."""

    effects: list[dict[str, Any]] = field(default_factory=list)
    untranslated: list[str] = field(default_factory=list)
    keys: dict[str, Any] = field(default_factory=dict)


def draft(text: str, kind: str, subtype: str | None = None, frames: Iterable[str] = ()) -> Draft:
    """Draft the effects of a card of this kind ("monster", "spell", "trap"), Spell/Trap
    subtype and monster frames ("effect", "pendulum" …) from its text (today's or 2005 wording)."""
    card = CardInfo(kind, subtype, frozenset(frames))
    out = Drafted()
    sources: list[str] = []
    keys: dict[str, Any] = {}
    once_name = False
    for whole, pendulum in _parts(modern(text), card):
        before = len(out.effects)
        part, said = _card_sentences(whole, keys)
        once_name = once_name or "once_name" in said
        if part is None:
            continue
        if _binds(part.text, out.effects):
            pass
        elif not _standing(part, card, out):
            draft_effect(part, card, out)
        for effect in out.effects[before:]:
            if pendulum:
                effect["pendulum"] = True
            sources.append(part.text)
    effects = _with_activation(out, sources, card)
    if once_name:
        for effect in effects:
            if effect["kind"] in ("activate", "ignition"):
                effect["once_per_turn"] = "name"
    result = Draft(effects=effects, untranslated=out.untranslated, keys=keys)
    return _validated(result, sources, card)


_ONCE_NAME = re.compile(r'^you can only activate 1 "[^"]+" per turn\.?$', re.I)


def _card_sentences(part: Part, keys: dict[str, Any]) -> tuple[Part | None, set[str]]:
    """Take the leading sentences that are about the card, not an effect — card keys ("Cannot be
    Special Summoned"), rule texts, "You can only activate 1 "X" per turn" — off an effect text."""
    said: set[str] = set()
    sentences = re.split(r"(?<=[.)])\s+", part.text.strip())
    while sentences:
        first = sentences[0]
        if _ONCE_NAME.match(first):
            said.add("once_name")
        elif RULES.match(first):
            pass
        elif (found := read_keys(first)) is not None:
            keys.update(found)
        else:
            break
        sentences.pop(0)
    return (Part(" ".join(sentences), part.header) if sentences else None), said


_BINDS = re.compile(r"^when this card (leaves the field|is destroyed), destroy (?:that|the equipped) monster\."
                    r"(?: when that monster is destroyed, destroy this card\.)?$", re.I)


def _binds(text: str, effects: list[dict[str, Any]]) -> bool:
    """"When this card leaves the field, destroy that monster. When that monster is destroyed,
    destroy this card." binds the monster the activation Special Summoned (Call of the Haunted,
    Premature Burial: `bind`)."""
    m = _BINDS.match(text.strip())
    if not effects or effects[0]["kind"] != "activate":
        return False
    if m is None:  # its second sentence, read with the first
        return re.fullmatch(r"when that monster is destroyed, destroy this card\.", text.strip(), re.I) is not None and \
            any(isinstance(op.get("special_summon"), dict) and op["special_summon"].get("bind") for op in effects[0].get("do", []))
    for op in effects[0].get("do", []):
        if "special_summon" in op:
            summon = op["special_summon"]
            params = summon if isinstance(summon, dict) and "what" in summon else {"what": summon}
            params["bind"] = True if m.group(1).lower().startswith("leaves") else "destroyed"
            op["special_summon"] = params
            return True
    return False


def _parts(text: str, card: CardInfo) -> list[tuple[Part, bool]]:
    """The effect texts, each with whether it is a Pendulum Effect."""
    if card.kind != "monster" or "pendulum" not in card.frames or "Pendulum Effect:" not in text:
        return [(p, False) for p in effect_texts(text)]
    pendulum, _, monster = text.partition("Monster Effect:")
    return [(p, True) for p in effect_texts(pendulum)] + [(p, False) for p in effect_texts(monster)]


_EQUIP_ONLY = re.compile(r"^equip only to (.+?)\.?$", re.I)


def _standing(part: Part, card: CardInfo, out: Drafted) -> bool:
    """Standing sentences, all of them: "Equip only to …" (the Equip Spell's target) and
    continuous effects ("The equipped monster gains 1000 ATK", "All WIND monsters gain 300 ATK")."""
    if card.kind == "spell" and card.subtype not in STANDING or card.kind == "trap" and card.subtype != "continuous":
        return False
    if ":" in part.text or re.match(r"^(?:you can|once per turn)\b", part.text, re.I):
        return False
    equip_where, specs = None, []
    for sentence in re.split(r"(?<=\.)\s+", part.text.strip()):
        m = _EQUIP_ONLY.match(sentence)
        if m and card.kind == "spell" and card.subtype == "equip":
            noun = read_noun(m.group(1))
            if noun.unknown:
                return False
            equip_where = {"zone": "monster", "face_up": True, **{k: v for k, v in noun.where.items() if k not in ("zone", "kind")}}
            continue
        found = read_continuous(sentence)
        if found is None:
            return False
        specs += found
    if equip_where is not None:
        out.equip_where = equip_where
    out.effects += [{"kind": "continuous", "continuous": spec} for spec in specs]
    return True


def _with_activation(out: Drafted, sources: list[str], card: CardInfo) -> list[dict[str, Any]]:
    """A Continuous, Field or Equip card is activated before its effects apply: an Equip Spell
    targets the monster to equip ("Equip only to …" says which); the others have an empty
    activation unless the text gives one."""
    effects = out.effects
    if card.kind == "monster" or card.subtype not in STANDING or any(e["kind"] == "activate" for e in effects):
        return effects
    if card.subtype == "equip":
        where = out.equip_where or {"zone": "monster", "face_up": True}
        first: dict[str, Any] = {"kind": "activate", "target": {"where": where}, "do": [{"equip": "target"}]}
    else:
        first = {"kind": "activate"}
    sources.insert(0, "")
    return [first, *effects]


def _validated(result: Draft, sources: list[str], card: CardInfo) -> Draft:
    """Drop every effect the schema refuses (its text goes to `untranslated`), then check the
    whole card; keys the card model refuses are dropped the same way."""
    kept = []
    for effect, source in zip(result.effects, sources):
        try:
            Effect.model_validate(effect)
            kept.append(effect)
        except ValidationError:
            if source and source not in result.untranslated:
                result.untranslated.append(source)
    result.effects = kept
    try:
        check_card(result, card)
    except ValidationError:
        result.keys = {}
        check_card(result, card)
    return result


def check_card(result: Draft, card: CardInfo) -> None:
    """Build the card model with the drafted effects (raises ValidationError if it is refused)."""
    data: dict[str, Any] = {"id": 1, "name": "Draft", "kind": card.kind, "effects": result.effects, **result.keys}
    if card.kind == "monster":
        pendulum = "pendulum" in card.frames or any(e.get("pendulum") for e in result.effects)
        data.update(frame="pendulum+effect" if pendulum else "effect", attribute="DARK", type="Spellcaster", level=4, atk=0,
                    **{"def": 0}, **({"scale": 1} if pendulum else {}))
        if any(e["kind"] == "flip" for e in result.effects):
            data["abilities"] = sorted({*data.get("abilities", ()), "flip"})
    elif card.subtype:
        data["subtype"] = card.subtype
    CARD_KINDS[card.kind].model_validate(data)


def render(result: Draft) -> str:
    """The draft as YAML in the style of cards/*.yaml, with a `# TODO untranslated: …` line for
    every phrase it could not translate."""
    yaml = YAML(typ="rt")
    yaml.indent(mapping=2, sequence=2, offset=0)
    yaml.width = 120
    buf = io.StringIO()
    data: dict[str, Any] = {**result.keys, "effects": result.effects}
    yaml.dump(data, buf)
    text = buf.getvalue()
    todo = "".join(f"# TODO untranslated: {phrase}\n" for phrase in result.untranslated)
    return text + todo
