"""The one filter language (schema.effects.Filter) applied to cards in a duel.

`side` is seen from the player the effect belongs to: controller for cards on the field,
owner elsewhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Iterator, TypeVar

from pydantic import BaseModel

from ..schema.effects import Filter
from .card import CardInst
from .types import FIELD_ZONE, Loc

if TYPE_CHECKING:
    from .duel import Duel

_M = TypeVar("_M", bound=BaseModel)

_ZONE_LOCS = {"monster": (Loc.MZONE,), "spell": (Loc.SZONE,), "field": (Loc.SZONE,), "pendulum": (Loc.SZONE,), "onfield": (Loc.MZONE, Loc.SZONE),
              "hand": (Loc.HAND,), "deck": (Loc.DECK,), "gy": (Loc.GY,), "banished": (Loc.BANISHED,), "extra": (Loc.EXTRA,)}
_PILES = {Loc.HAND: "hand", Loc.DECK: "deck", Loc.GY: "gy", Loc.BANISHED: "banished", Loc.EXTRA: "extra"}


def zone_word(card: CardInst) -> str:
    if card.loc == Loc.MZONE:
        return "monster"
    if card.loc == Loc.SZONE:
        return "field" if card.seq == FIELD_ZONE else "pendulum" if card.in_pendulum_zone else "spell"
    return _PILES.get(card.loc, "")


def matches(d: "Duel", card: CardInst, f: Filter, player: int, source: CardInst | None = None,
            event_cards: Iterable[CardInst] = ()) -> bool:
    """Does `card` match `f`, seen by `player` (the effect's controller), for effect `source`?"""
    if f.zone is not None:
        word = zone_word(card)
        # "spell" is every Spell & Trap Zone: the Field Zone and the Pendulum Zones too
        if word not in f.zone and not ("onfield" in f.zone and card.loc.on_field) \
                and not ("spell" in f.zone and word in ("field", "pendulum")):
            return False
    if f.side != "any":
        who = card.controller if card.loc.on_field else card.owner
        if (who == player) != (f.side == "you"):
            return False
    data = card.data
    if f.kind is not None and card.kind not in f.kind:  # a Pendulum or Equip monster card in a Spell & Trap Zone is a Spell
        return False
    if f.self_ and card is not source:
        return False
    if f.not_self and card is source:
        return False
    if f.event and card not in event_cards:
        return False
    if f.face_up is not None and card.loc.on_field and card.face_up != f.face_up:
        return False
    if f.name is not None and data.name not in f.name and data.deck_name not in f.name:
        return False
    if f.subtype is not None and ("equip" if card.is_monster and card.loc == Loc.SZONE and card.equip_target is not None
                                  else getattr(data, "subtype", None)) not in f.subtype:  # a monster Equip Card is an Equip Spell
        return False
    if f.name_has is not None and f.name_has not in data.name and f.name_has not in data.deck_name:
        return False
    if f.declared and not _is_declared(d, card):
        return False
    if f.battling and (d.attack is None or {d.attack.attacker, d.attack.target} != {card, source}):
        return False
    if f.attacking and (d.attack is None or d.attack.attacker is not card):
        return False
    if f.battle_destroyed is not None and card.battle_destroyed != f.battle_destroyed:
        return False
    if f.flip is not None and (card.is_monster and "flip" in card.monster.abilities) != f.flip:
        return False
    if f.normal_summonable is not None and (card.is_monster and not card.special_summon_only
                                            and not card.is_token) != f.normal_summonable:
        return False
    if f.set_or is not None and card.face_up and not matches(d, card, f.set_or, player, source, event_cards):
        return False
    if f.ability is not None and not (card.abilities & set(f.ability)):
        return False
    if card.is_monster and card.loc != Loc.SZONE:  # (in a Spell & Trap Zone it is not a monster)
        monster = card.monster
        if f.frame is not None and not (frames_now(card) & set(f.frame)):
            return False
        if f.attribute is not None and monster.attribute not in f.attribute:
            return False
        if f.type is not None and monster.type not in f.type:
            return False
        if f.not_type is not None and monster.type in f.not_type:
            return False
        if f.level is not None and (monster.level is None or card.level not in f.level):
            return False
        if f.atk is not None and card.atk not in f.atk:
            return False
        if f.def_ is not None and (monster.def_ is None or card.defense not in f.def_):
            return False
        if f.tuner is not None and monster.tuner != f.tuner:
            return False
        if f.token is not None and card.is_token != f.token:
            return False
        if f.position is not None:  # R-ZONE-1: a face-down Defense monster is in Defense Position
            if card.loc != Loc.MZONE or (f.position == "attack") != card.pos.is_attack:
                return False
        if f.revivable and (monster.no_special_summon or card.loc in (Loc.GY, Loc.BANISHED) and monster.needs_proper_summon
                            and not card.properly_summoned):
            return False
        if f.summoned_this_turn is not None and (card.loc == Loc.MZONE and card.summon_turn == d.turn and card.summon_kind != "") \
                != f.summoned_this_turn:  # any Summon, a Flip Summon too; not a Set
            return False
    elif any(x is not None for x in (f.frame, f.attribute, f.type, f.level, f.atk, f.def_, f.tuner, f.position)) or f.revivable:
        return False
    return True


def frames_now(card: CardInst) -> frozenset[str]:
    """The card's frames as they count now: a Gemini that is still a Normal Monster (R-CARD-6)."""
    return _NORMAL if card.treated_as_normal else card.monster.frames


_NORMAL = frozenset(("normal",))


def _is_declared(d: "Duel", card: CardInst) -> bool:
    """Whether the card has the Type/Attribute/name the resolving effect declared (op `declare`)."""
    if d.declared is None:
        return False
    what, word = d.declared
    if what == "kind":
        return card.data.kind == word.casefold()
    if what == "card":
        return word in (card.data.name, card.data.deck_name)
    if not card.is_monster:
        return False
    return (card.monster.type if what == "type" else card.monster.attribute) == word


def cards_in(d: "Duel", f: Filter, player: int) -> Iterator[CardInst]:
    """Every card in the zones `f` names (all zones if none), on the sides it allows."""
    locs = _locs(f.zone)
    for p in (player,) if f.side == "you" else (1 - player,) if f.side == "opponent" else (player, 1 - player):
        side = d.players[p]
        for loc in locs:
            for card in side.mzone if loc == Loc.MZONE else side.szone if loc == Loc.SZONE else side.pile(_PILES[loc]):
                if card is not None:
                    yield card


def select(d: "Duel", f: Filter, player: int, source: CardInst | None = None, event_cards: Iterable[CardInst] = ()) -> list[CardInst]:
    events = event_cards if type(event_cards) in (list, tuple) else list(event_cards)
    return [c for c in cards_in(d, f, player) if matches(d, c, f, player, source, events)]


_ALL_ZONES = ("onfield", "hand", "deck", "gy", "banished", "extra")
_ZONE_SETS: dict[tuple[str, ...] | None, tuple[Loc, ...]] = {}


def _locs(zones: tuple[str, ...] | None) -> tuple[Loc, ...]:
    """The places a filter's `zone` names, each once, in order (worked out once per zone list)."""
    found = _ZONE_SETS.get(zones)
    if found is None:
        found = _ZONE_SETS[zones] = tuple(dict.fromkeys(loc for zone in (zones or _ALL_ZONES) for loc in _ZONE_LOCS[zone]))
    return found


def variant(model: _M, **changes: Any) -> _M:
    """`model.model_copy(update=changes)`, made once per model and changes: conditions and
    checks narrow a card's filters ("on your field") every time they are asked, and a pydantic
    copy costs more than the check itself. Definitions never change, so the copy stays right
    (a model given as a change is told apart by identity: pass only kept ones, such as variants)."""
    key = (id(model), *((k, id(v) if isinstance(v, BaseModel) else v) for k, v in changes.items()))
    found = _VARIANTS.get(key)
    if found is None or found[0] is not model:
        found = _VARIANTS[key] = (model, model.model_copy(update=changes))
    return found[1]  # type: ignore[return-value]


_VARIANTS: dict[tuple[Any, ...], tuple[Any, Any]] = {}
