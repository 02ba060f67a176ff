"""Determinizing a duel: one possible world as a player sees it (for an honest AI's search).

`determinize(duel, viewer, seed)` copies the duel and gives every card whose identity `viewer`
does not know another identity, drawn from the identities `viewer` cannot place: the cards of
the same owner that are also unknown to `viewer`. That is what a player who has seen the
opponent's registered deck list knows — the list minus every card seen since. Known are cards
the viewer sees now (`CardInst.seen_by`) and cards it saw before they were hidden again
(`Duel.known`: returned to the hand, flipped face-down, a revealed search); a shuffled Deck is
unknown again. Unknown are both Decks (their order), the opponent's hand, face-down cards and
face-down banished cards, and the opponent's face-down Extra Deck.

The new identities respect what the viewer saw of each place: a face-down monster is a
monster, a face-down card in the Field Zone is a Field Spell, one in another Spell & Trap Zone
a Spell or Trap; Extra Deck monsters stay among Extra Deck cards. Uids, places, positions and
counters stay, so the viewer's `view()` of the copy equals its view of the original. The copy's
RNG is reseeded too: coin tosses and shuffles still to come are as unknown as the cards.

A determinized duel is a hypothetical world: it has no replay record (it cannot be saved).
"""

from __future__ import annotations

import random
from typing import Callable, Sequence, TypeVar

from ...schema.cards import Card, Monster, Spell
from .card import CardInst
from .copying import copy_duel
from .duel_state import DuelState
from ..core.types import FIELD_ZONE, Loc

_D = TypeVar("_D", bound=DuelState)


def unknown_cards(d: DuelState, viewer: int) -> list[CardInst]:
    """The cards whose identity `viewer` does not know, side by side and place by place."""
    known = d.known[viewer]
    out: list[CardInst] = []
    for side in d.players:
        places: list[Sequence[CardInst | None]] = [side.deck, side.mzone, side.szone, side.banished]  # (a GY is public)
        if side.index != viewer:
            places += [side.hand, side.extra]  # (your own you see)
        for place in places:
            out += [c for c in place if c is not None and not c.seen_by(viewer) and c.uid not in known]
    if "deck_procedure" in d.index.flags:  # a Deck card Summoned by its own procedure (Metalzoa) is named by the options
        out = [c for c in out if not (c.loc == Loc.DECK and Loc.DECK in c.used_from)]  # that offer it: it keeps its place
    return out


def determinize(d: _D, viewer: int, seed: int) -> _D:
    """A copy of `d` in which everything `viewer` cannot see is resampled (see the module doc)."""
    rng = random.Random(f"world:{seed}")  # deals the hidden cards, then plays the world's chance
    world = copy_duel(d, rng=rng)
    groups: dict[tuple[int, bool], list[CardInst]] = {}  # by owner, and Extra Deck cards apart
    for card in unknown_cards(world, viewer):
        groups.setdefault((card.owner, card.is_extra_deck), []).append(card)
    for key in sorted(groups):
        _deal(groups[key], rng)
    world.record = None
    world.index.attack_options, world.index.tagged_options = {}, {}  # (labels name cards)
    world.relist()
    return world


def _deal(slots: list[CardInst], rng: random.Random) -> None:
    """Give `slots` a random permutation of their identities that fits each place."""
    if len(slots) < 2:
        return
    # in a fixed order first: which card holds which identity now is what the viewer does not
    # know, so the world must not depend on it (two duels that look the same give the same worlds)
    identities = sorted((c.data for c in slots), key=lambda data: (data.id, data.name))
    rng.shuffle(identities)
    chosen: dict[int, Card] = {}
    constrained = [c for c in slots if c.loc in (Loc.MZONE, Loc.SZONE)]  # face-down on the field
    constrained.sort(key=_strictness)
    for card in constrained:
        fits = _fits(card)
        # the original identities fit, so one always remains: each kind of place takes a kind of card no other place
        # needs, and the slots that take the fewest identities choose first (a Tribute Set's monster, say, can be
        # dealt away by an unusual Set: then any monster)
        pick = next((i for i, data in enumerate(identities) if fits(data)), None)
        if pick is None:
            pick = next(i for i, data in enumerate(identities) if _monster(data))
        chosen[card.uid] = identities.pop(pick)
    rest = iter(identities)
    for card in slots:
        data = chosen.get(card.uid) or next(rest)
        if data is not card.data:
            card.define(data)


def _fits(card: CardInst) -> Callable[[Card], bool]:
    """What a face-down card on the field must be, as the viewer saw its place: a monster Normal
    Set with no Tribute is one of Level 4 or lower, one Set with 1 Tribute Level 5 or 6 … (R-SUMMON-2);
    one Set by an effect may be any monster."""
    if card.loc == Loc.MZONE:
        if card.set_with is not None:
            tributes = card.set_with
            return lambda data: _monster(data) and _normal_set_with(data, tributes)  # type: ignore[arg-type]
        return _monster
    return _field_spell if card.seq == FIELD_ZONE else _spell_or_trap


def _monster(data: Card) -> bool:
    return isinstance(data, Monster)


def _normal_set_with(data: Monster, tributes: int) -> bool:
    """Whether `data` can be Normal Set with `tributes` Tributes by its printed terms (R-SUMMON-2,
    R-SUMMON-9; Victory Dragon's or Gilford's own counts). (A count lowered by an effect, such as
    Geartown's, is not modelled: such a world deals a monster of the printed count.)"""
    if data.needs_proper_summon:
        return False
    level = data.level or 0
    need = 0 if level <= 4 else 1 if level <= 6 else 2
    most = need
    rule = data.tributes
    if rule is not None and rule.count is not None:
        need = rule.count.min if rule.count.min is not None else need
        most = rule.count.max if rule.count.max is not None else need
    return need <= tributes <= most or (tributes == 0 and rule is not None and bool(rule.or_none))


def _strictness(card: CardInst) -> int:
    if card.loc == Loc.SZONE and card.seq == FIELD_ZONE:
        return 0
    return 1 if card.loc == Loc.MZONE and card.set_with is not None else 2


def _field_spell(data: Card) -> bool:
    return isinstance(data, Spell) and data.subtype == "field"


def _spell_or_trap(data: Card) -> bool:
    return not isinstance(data, Monster) and not _field_spell(data)

