"""The continuous layer: what face-up cards do just by being there, recomputed from the board.

Nothing here is stored: current ATK/DEF and restrictions are worked out from the field each
time they are asked, so a card that leaves the field stops applying at once (R-CARD-10) and
no bookkeeping can go stale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterator

from ...schema.effects import Condition, ContinuousSpec, Effect, Filter
from ..state.card import FLAGS, CardInst
from ..state.duel_state import DuelState
from ..state.links import AttackState
from ..state.player import Player
from .filters import matches, reading_highest, select, variant
from ..core.events import Move, Note, PhaseChange, TurnStart
from ..core.types import FIELD_ZONE, Loc, Phase, Reason, Step

@dataclass(slots=True)
class Modifier:
    """A lasting change from a resolved effect ("gains 700 ATK until the end of this turn")."""

    atk: int
    defense: int
    set_atk: int | None
    until: str  # "end_of_turn", "while_face_up", "permanent"
    turn: int
    source: int  # uid of the card whose effect made it
    flags: frozenset[str] = frozenset()  # restrictions that last as long: "cannot_attack" …
    expires: int = 0  # until "opponent_turns": the turn at whose end it ends
    scale: int = 0  # a Pendulum Scale change …
    scale_limit: int | None = None  # … no lower (a decrease) or higher (an increase) than this
    set_def: int | None = None  # its DEF becomes this (Twin-Headed Behemoth: "its ATK/DEF become 1000")
    attribute: str | None = None  # its Attribute becomes this (Homunculus the Alchemic Being)
    level: int = 0  # its Level changes by this (Cost Down: -2, kept as it is Summoned from the hand) …
    set_level: int | None = None  # … or becomes this (Level Conversion Lab: the die); never below 1
    original_atk: int | None = None  # its original ATK becomes this (Amazoness Spellcaster: switched with another's)
    multiplied: bool = False  # its `atk` is what a multiplication added or took (Goddess of Whim): Reverse Trap keeps it
    type: str | None = None  # its Type becomes this while the change lasts (D. Tribe: "treated as Dragon-Type")


def sources(d: DuelState, key: str | None = None) -> Iterator[tuple[CardInst, Effect]]:
    """Face-up cards on the field with continuous effects that currently apply (only those whose `ContinuousSpec` sets
    `key`, when given) — from the list `still_sources` keeps while nothing changes, when asked outside any other
    reading (every guard below empty: then the answer is the same)."""
    kept = _still
    if kept and kept[-1][0] is d and not (_reading or _checking_shield or _reading_atk or _reading_level
                                          or _reading_word or reading_highest):
        found = kept[-1][1]
        return iter(found if key is None else [(c, e) for c, e in found if _sets(e, key)])
    return _sources(d, key)


def _sets(effect: Effect, key: str) -> bool:
    spec = effect.continuous
    return spec is not None and bool(getattr(spec, key))


class still_sources:
    """`with still_sources(d):` — nothing changes inside (building a view: a read-only walk over the board), so
    `sources` is worked out once, not once for every ATK, DEF and restriction read. Conditions of continuous effects
    are the costly part (Blade Knight's "while you have 1 or fewer cards in your hand" read for each card of a view);
    the answers are the same, and the state must not change inside."""

    __slots__ = ("d",)

    def __init__(self, d: DuelState) -> None:
        self.d = d

    def __enter__(self) -> None:
        _still.append((self.d, list(_sources(self.d))))

    def __exit__(self, *_: object) -> None:
        _still.pop()


_still: list[tuple[DuelState, list[tuple[CardInst, Effect]]]] = []


def _sources(d: DuelState, key: str | None = None) -> Iterator[tuple[CardInst, Effect]]:
    """`sources`, worked out. With `key`, a card none of whose effects sets it is passed over before anything costly
    is read of it (its negation, its conditions: Blade Knight's are read for no Jinzo question)."""
    for card in _continuous_on_field(d):
        if key is not None and not any(_sets(effect, key) for effect in card.continuous):
            continue
        if not card.face_up or card in d.summoning:
            continue  # (a monster whose Summon is being declared applies nothing yet, R-SUMMON-19)
        if card.loc == Loc.SZONE and not card.active:
            continue  # a Continuous Spell/Trap (or Pendulum card) applies once its activation has resolved
        if effects_negated(d, card):
            continue
        for effect in card.continuous:
            if (key is None or _sets(effect, key)) and applies_from_here(card, effect) \
                    and (effect.condition is None or _condition_holds_once(d, card, effect)):
                yield card, effect
    for card, effect, turn in d.floating:  # "until the end of this turn" (or a later one), wherever the card went
        if (key is None or _sets(effect, key)) and turn >= d.turn \
                and (effect.condition is None or condition_holds(d, card, effect.condition)):  # ("until the End Phase")
            yield card, effect


def _condition_holds_once(d: DuelState, card: CardInst, effect: Effect) -> bool:
    """A continuous effect's condition, read without reading itself again: a condition on ATK (Drillago: "the only cards
    your opponent controls are face-up monsters with 1600 or more ATK") reads continuous effects, this one among them —
    inside that reading, this effect does not apply."""
    key = (card.uid, id(effect))
    if key in _reading:
        return False
    _reading.add(key)
    try:
        return condition_holds(d, card, effect.condition)  # type: ignore[arg-type]
    finally:
        _reading.discard(key)


_reading: set[tuple[int, int]] = set()  # (card uid, effect) whose condition is being read


def _continuous_on_field(d: DuelState) -> list[CardInst]:
    """The cards on the field that have continuous effects, in zone order (each player's
    Monster Zones, then Spell & Trap Zones): kept until a card enters or leaves either field
    (`Player.layout`), as every ATK/DEF read and restriction asks for them."""
    key = (d.players[0].layout, d.players[1].layout)
    found = d.index.field_sources
    if found is None or found[0] != key:
        found = d.index.field_sources = (key, [card for side in d.players for zone in (side.mzone, side.szone) for card in zone
                                         if card is not None and card.continuous])
    return found[1]


def applies_from_here(card: CardInst, effect: Effect) -> bool:
    """Whether a monster card's effect works where the card is: its Pendulum Effects only in a
    Pendulum Zone and its monster effects only outside one (R-ZONE-4); a monster card that is
    an Equip Card keeps only what its text says it does while equipped (R-CARD-8)."""
    if not card.is_monster:
        return True
    if card.loc != Loc.SZONE:
        return not effect.pendulum
    if card.in_pendulum_zone:
        return effect.pendulum
    if card.union_equipped_by_other:  # (a Union equipped by Union Rider's effect: none of its effects as an Equip Card)
        return False
    spec = effect.continuous
    return (spec is not None and spec.applies_to == "equipped") or "equip" in effect.from_


def applies(d: DuelState, source: CardInst, spec: ContinuousSpec, card: CardInst) -> bool:
    target = spec.applies_to
    if target == "self":
        return card is source
    if source.is_spell and d.index.flags & SHIELDS and card.is_monster and unaffected_by_spell(d, card, source.controller):
        return False  # (an Equip or Field Spell does not apply to Horus the Black Flame Dragon LV6)
    if "unaffected_by_opponent_monsters" in d.index.flags and source.is_monster and card.is_monster \
            and unaffected_by_opponent_monster(d, card, source.controller):
        return False  # (Lone Wolf: the opponent's continuous monster effects skip it)
    if target == "equipped":
        return source.equip_target is card
    if target == "bound":
        return source.bound is card
    return matches(d, card, target, source.controller, source)


SHIELDS = frozenset(("unaffected_by_spells", "unaffected_by_opponent_spells"))
_checking_shield: list[CardInst] = []  # (a monster's own effects are read without asking this again)


def unaffected_by_spell(d: DuelState, card: CardInst, player: int) -> bool:
    """Whether a face-up monster is unaffected by the effects of a Spell Card `player` controls
    — by its own continuous effect ("unaffected by any Spell Cards": Horus the Black Flame
    Dragon LV6; "… your opponent's Spell Cards": Silent Swordsman LV5) or by one of an Equip Card
    equipped to it (`applies_to: equipped`: Metallizing Parasite - Lunatite). Only while it is face-up
    in a Monster Zone; a Spell may still target it, and then does nothing to it."""
    if card.loc != Loc.MZONE or not card.face_up or card in _checking_shield:
        return False
    if card.equips and _equip_shields(d, card, player):
        return True
    if _filter_shields(d, card, player):
        return True
    if not card.continuous or not any(e.continuous is not None and (e.continuous.unaffected_by_spells or e.continuous.unaffected_by_opponent_spells)
                                      for e in card.continuous):
        return False
    _checking_shield.append(card)
    try:
        if effects_negated(d, card):
            return False
        for effect in card.continuous:
            spec = effect.continuous
            if spec is None or spec.applies_to != "self" or not (effect.condition is None or condition_holds(d, card, effect.condition)):
                continue
            if spec.unaffected_by_spells or (spec.unaffected_by_opponent_spells and player != card.controller):
                return True
        return False
    finally:
        _checking_shield.pop()


def _filter_shields(d: DuelState, card: CardInst, player: int) -> bool:
    """Whether another face-up card's continuous effect with a filter `applies_to` makes `card` unaffected by `player`'s
    Spell Cards ("Face-up Normal Monsters on the field are unaffected by your opponent's Spell Cards": Dust Barrier) — the
    opponent being that card's controller's."""
    if not d.index.flags & SHIELDS or reading_highest:
        return False
    _checking_shield.append(card)
    try:
        for key in SHIELDS:
            if source_with(d, key, lambda source, spec: not isinstance(spec.applies_to, str)
                           and (key == "unaffected_by_spells" or player != source.controller)
                           and matches(d, card, spec.applies_to, source.controller, source)) is not None:
                return True
        return False
    finally:
        _checking_shield.pop()


def _equip_shields(d: DuelState, card: CardInst, player: int) -> bool:
    """Whether an Equip Card equipped to `card` makes it unaffected by `player`'s Spell Cards ("While equipped …, that
    monster will be unaffected by the effects of Spell Cards controlled by your opponent": Metallizing Parasite - Lunatite)."""
    for equip in card.equips:
        if equip.loc != Loc.SZONE or not equip.face_up:
            continue
        for effect in equip.continuous:
            spec = effect.continuous
            if spec is None or spec.applies_to != "equipped" or not (spec.unaffected_by_spells or spec.unaffected_by_opponent_spells):
                continue
            if effects_negated(d, equip) or not (effect.condition is None or condition_holds(d, equip, effect.condition)):
                continue
            if spec.unaffected_by_spells or player != equip.controller:
                return True
    return False


def stat(d: DuelState, card: CardInst, which: str) -> int:
    """Current ATK ("atk") or DEF ("def"): the printed value (or one an effect sets in its place),
    lasting changes, continuous effects; never below 0 (R-TERM-19) — switched while a resolved effect switches its
    current ATK and DEF (Weapon Change)."""
    if card.modifiers and card.loc == Loc.MZONE and sum("swap_current" in m.flags for m in card.modifiers) % 2:
        return _stat(d, card, "def" if which == "atk" else "atk")
    return _stat(d, card, which)


def _stat(d: DuelState, card: CardInst, which: str) -> int:
    base = card.base_atk if which == "atk" else card.base_def
    if card.loc != Loc.MZONE or not card.face_up:
        return base
    if which == "atk" and card.modifiers:
        base = original_atk(card)  # (Amazoness Spellcaster switched it)
    if card.modifiers and any("swap_original" in m.flags for m in card.modifiers):  # Shield & Sword
        base = card.base_def if which == "atk" else card.base_atk
    if card.equips and d.index.continuous_count and has_flag(d, card, "stats_of_equip"):
        copied = next((e for e in card.equips if e.is_monster), None)  # Relinquished
        if copied is not None:
            base = copied.base_atk if which == "atk" else copied.base_def
    if card.selected and d.index.continuous_count and has_flag(d, card, "stats_of_selected"):
        followed = _selected_monster(d, card)  # Gradius' Option: the ATK/DEF of the selected "Gradius"
        if followed is not None:
            base = stat(d, followed, which)
    if card.modifiers:  # "Increase the original ATK" (Thousand Energy): its base changes, before "twice its original ATK"
        base += sum((m.atk if which == "atk" else m.defense) for m in card.modifiers if "original" in m.flags)
    added = 0
    factor = 1.0
    if d.index.continuous_count:
        for source, effect in sources(d):
            spec = effect.continuous
            assert spec is not None
            if which == "atk" and spec.multiply_atk is not None and applies(d, source, spec, card):
                factor *= spec.multiply_atk  # after every other change (Mirror Wall)
            amount = spec.atk if which == "atk" else spec.def_
            if which == "atk" and spec.gains_battling_original_atk:
                amount += _battling_original_atk(d, card)  # (Mirage Knight, during damage calculation)
            if which == "atk" and spec.gains_attack_target_atk:
                amount += _attack_target_atk(d, card, spec.gains_attack_target_atk)  # (Metalmorph, during damage calculation)
            sets = (spec.set_atk is not None or spec.atk_factor is not None or bool(spec.atk_of_tributes)) if which == "atk" \
                else spec.set_def is not None
            if not (amount or sets) or not applies(d, source, spec, card):
                continue
            if sets:  # "has 2700 ATK" (Triangle Ecstasy Spark), "twice its original ATK" (Megamorph), "DEF becomes 1000" (Arsenal Bug)
                if which == "def":
                    base = spec.set_def  # type: ignore[assignment]
                else:
                    base = spec.set_atk if spec.set_atk is not None \
                        else int(_tributes_atk(d, card) * (spec.atk_factor or 1)) if spec.atk_of_tributes \
                        else int(base * spec.atk_factor)  # type: ignore[operator]
            if spec.atk_per is not None or spec.per_where is not None:
                amount *= _per_count(d, source, spec)
            added += amount
    value = base
    sign = 1
    if "reverses_stat_changes" in d.index.flags and has_flag(d, card, "reverses_stat_changes"):
        sign, added = -1, -added  # additions subtract, subtractions add (Reverse Trap); multiplications stay
    for mod in card.modifiers:
        if "original" in mod.flags:
            continue  # (in the base already)
        if which == "atk" and mod.set_atk is not None:
            value = mod.set_atk
        elif which == "def" and mod.set_def is not None:
            value = mod.set_def
        value += (mod.atk if mod.multiplied else sign * mod.atk) if which == "atk" else sign * mod.defense
    if factor != 1.0:
        return max(0, math.ceil((value + added) * factor))
    return max(0, value + added)


def original_atk(card: CardInst) -> int:
    """Its original ATK (R-TERM-19): the printed one, or what a resolved effect made it (Amazoness Spellcaster)."""
    return card.original_atk


def _attack_target_atk(d: DuelState, card: CardInst, factor: float) -> int:
    """`factor` × the current ATK of the monster `card` is attacking (rounded down), else 0 (Metalmorph: half)."""
    attack = d.attack
    if attack is None or attack.attacker is not card or attack.target is None or attack.target in _reading_atk:
        return 0
    _reading_atk.append(card)  # (two such monsters would read each other's ATK without end)
    try:
        return int(attack.target.atk * factor)
    finally:
        _reading_atk.pop()


_reading_atk: list[CardInst] = []


def level_now(d: DuelState, card: CardInst) -> int:
    """Its current Level: the printed one, set or changed by resolved effects (Level Conversion Lab, Cost Down), then changed
    by continuous effects that apply to it — in a Monster Zone or in the hand (Demotion, A Legendary Ocean); never below 1.
    0 for a card without a Level (a Spell, an Xyz or Link monster)."""
    value = card.base_level
    if not value:
        return 0
    for m in card.modifiers:
        if m.set_level is not None:
            value = m.set_level
        value += m.level
    if "level_change" in d.index.flags and card.loc in (Loc.MZONE, Loc.HAND) and card.uid not in _reading_level:
        _reading_level.add(card.uid)  # (a continuous effect whose filter reads a Level does not read this one again)
        try:
            for source, effect in sources(d):
                spec = effect.continuous
                if spec is not None and spec.level_change and applies(d, source, spec, card):
                    value += spec.level_change
        finally:
            _reading_level.discard(card.uid)
    return max(1, value)


_reading_level: set[int] = set()


def changed_word(d: DuelState, card: CardInst, key: str) -> str | None:
    """The Type (`key` "set_type") or Attribute ("set_attribute") a continuous effect gives a monster now — the last such
    effect that applies to it (Dragonic Attack's Dragon; DNA Surgery's declared Type) — or None."""
    if key not in d.index.flags or card.loc != Loc.MZONE or (card.uid, key) in _reading_word:
        return None
    found = None
    _reading_word.add((card.uid, key))
    try:
        for source, effect in sources(d):
            spec = effect.continuous
            word = getattr(spec, key) if spec is not None else None
            if word is None or not applies(d, source, spec, card):  # type: ignore[arg-type]
                continue
            if word == "declared":  # what this card declared as it was activated, while it has not moved since
                declared = source.declaration
                if declared is None or declared[2] != source.moves or declared[0] != key[4:]:
                    continue
                word = declared[1]
            found = word
    finally:
        _reading_word.discard((card.uid, key))
    return found


_reading_word: set[tuple[int, str]] = set()


def _selected_monster(d: DuelState, card: CardInst) -> CardInst | None:
    """The monster selected for this card's Summon, if it is still face-up in the Monster Zone it was in (not removed from the field since)."""
    for uid, at in card.selected:
        other = d.cards[uid]
        if _still_there(other, at) and other.face_up and other is not card:
            return other
    return None


def _still_there(card: CardInst, arrived_at: int) -> bool:
    """Whether a monster is still in the Monster Zone it was in (`arrived_at`): not removed from the field since — a
    change of control or of position does not count."""
    return card.loc == Loc.MZONE and card.arrived_at == arrived_at


def _tributes_atk(d: DuelState, card: CardInst) -> int:
    """The combined original ATK (R-TERM-19) of the monsters Tributed for this card's Tribute Summon; 0 when it was not
    Tribute Summoned (a Tribute Set then flipped, a Special Summon): Maju Garzett; × `atk_factor` with it (Great Maju Garzett)."""
    return sum(d.cards[uid].base_atk for uid, _ in card.tributed) if card.summon_kind == "tribute" else 0


def _battling_original_atk(d: DuelState, card: CardInst) -> int:
    """The original ATK (R-TERM-19) of the opponent's monster `card` is battling, else 0."""
    attack = d.attack
    if attack is None or attack.target is None or card not in (attack.attacker, attack.target):
        return 0
    other = attack.target if card is attack.attacker else attack.attacker
    return original_atk(other) if other.controller != card.controller else 0


def _per_count(d: DuelState, source: CardInst, spec: ContinuousSpec) -> int:
    if spec.atk_per == "counter":
        return sum(source.counters.values())
    if spec.atk_per == "equipped_monsters":
        return sum(1 for e in source.equips if e.is_monster)
    if spec.atk_per == "equips":
        return len(source.equips)
    if spec.atk_per == "lp_difference":  # (The Agent of Force - Mars)
        return abs(d.players[source.controller].lp - d.players[1 - source.controller].lp)
    if spec.atk_per == "cost_paid":  # Megarock Dragon: the Rock monsters its Summon banished
        return source.cost_paid
    if spec.per_where is not None:
        return len(select(d, spec.per_where, source.controller, source))
    zone = "gy" if spec.atk_per == "gy_monsters" else "banished"
    side = d.players[source.controller]
    return sum(1 for c in side.pile(zone) if c.is_monster)


def source_with(d: DuelState, key: str, accept: Callable[[CardInst, ContinuousSpec], bool]) -> CardInst | None:
    """The first face-up card whose continuous effect has `key` set and that `accept`s; `key` is
    one of the duel's index flags (`CardIndex.flags`), so a duel without such a card answers at once."""
    if key not in d.index.flags:
        return None
    for source, effect in sources(d, key):
        if accept(source, effect.continuous):  # type: ignore[arg-type]  # (sources with `key` have a spec)
            return source
    return None


def spells_set_first(d: DuelState) -> CardInst | None:
    """The face-up card that makes both players Set Spell Cards before activating them, from their next turn (Anti-Spell Fragrance)."""
    return source_with(d, "spells_set_first", lambda source, _: source.loc.on_field)


def gains_reversed(d: DuelState, p: int) -> CardInst | None:
    """The face-up card of `p`'s opponent that turns the LP `p` would gain from an effect into damage (Bad Reaction to Simochi)."""
    return source_with(d, "opponent_gains_become_damage", lambda source, _: source.controller != p and source.loc.on_field)


def pays_too(d: DuelState, p: int, card: CardInst) -> CardInst | None:
    """The face-up card of `p` that makes `p`'s opponent pay as many LP as `p` just paid for `card`'s effect (Battle-Scarred)."""
    return source_with(d, "opponent_pays_too", lambda source, spec: source.controller == p and source.loc.on_field
                       and spec.opponent_pays_too is not None and matches(d, card, spec.opponent_pays_too, p, source))


def gy_banish_locked(d: DuelState, p: int) -> CardInst | None:
    """The face-up card of `p`'s opponent that stops `p` banishing cards from either GY (Kycoo the Ghost Destroyer)."""
    return (source_with(d, "locks_gy_banishing", lambda source, _: source.controller != p and source.loc.on_field)
            or (source_with(d, "guards_gy", lambda source, _: source.loc.on_field)  # (Necrovalley: either player …
                if not gy_unguarded(d, p) else None))  # … but Gravekeeper's Chief's controller)


def gy_unguarded(d: DuelState, p: int) -> bool:
    """Whether `p`'s GY is unaffected by Necrovalley (`unguards_gy`: `p` controls a face-up Gravekeeper's Chief)."""
    return "unguards_gy" in d.index.flags and source_with(
        d, "unguards_gy", lambda source, _: source.controller == p and source.loc == Loc.MZONE and source.face_up) is not None


def draw_locked(d: DuelState, p: int) -> CardInst | None:
    """The face-up card of `p`'s opponent that stops `p` drawing outside the Draw Phase (Protector of the Sanctuary)."""
    if d.phase == Phase.DRAW:
        return None
    return source_with(d, "locks_opponent_draws", lambda source, _: source.controller != p and source.loc.on_field)


def hand_limit_of(d: DuelState, p: int) -> int | None:
    """Player `p`'s hand size limit: their own (an effect's: Hieroglyph Lithograph) or the rules', or lower if an
    opponent's face-up card sets it (Enervating Mist)."""
    limit = d.players[p].hand_limit or d.rules.hand_limit
    if "opponent_hand_limit" in d.index.flags:
        for source, effect in sources(d):
            spec = effect.continuous
            if spec is not None and spec.opponent_hand_limit is not None and source.controller != p and source.loc.on_field:
                limit = spec.opponent_hand_limit if limit is None else min(limit, spec.opponent_hand_limit)
    return limit


def monster_sets_forbidden(d: DuelState) -> CardInst | None:
    """The face-up card by which no monster can be Set or turned face-down (Light of Intervention), if any."""
    return source_with(d, "no_monster_sets", lambda source, _: source.loc.on_field)


def tributes_forbidden(d: DuelState) -> CardInst | None:
    """The face-up card by which neither player can Tribute cards (Mask of Restrict), if any."""
    return source_with(d, "locks_tributes", lambda source, _: source.loc.on_field)


def battle_phase_forbidden(d: DuelState) -> CardInst | None:
    """The face-up card by which neither player can conduct their Battle Phase (D.D. Borderline, while its condition
    holds), if any — answered at once in a duel without such a card (`no_battle_phase` not in `d.index.flags`)."""
    return source_with(d, "no_battle_phase", lambda source, _: source.loc.on_field)


def unaffected_by_opponent_monster(d: DuelState, card: CardInst, player: int) -> bool:
    """Whether a face-up monster is unaffected by the monster effects of `player`, its controller's opponent, by a face-up
    card's `unaffected_by_opponent_monsters` that applies to it (Lone Wolf)."""
    if card.loc != Loc.MZONE or not card.face_up or card.controller == player:
        return False
    return source_with(d, "unaffected_by_opponent_monsters", lambda source, spec: applies(d, source, spec, card)) is not None


def discard_cost_locked(d: DuelState) -> CardInst | None:
    """The face-up card that stops both players activating an effect by discarding (Goblin of Greed), if any."""
    return source_with(d, "locks_discard_costs", lambda source, _: source.loc.on_field)


def effect_damage_protected(d: DuelState, p: int, by: int) -> bool:
    """Whether a resolved `protect: {effect_damage: …}` makes the damage `p` would take from player `by`'s card effect 0
    this turn (Hallowed Life Barrier: from the opponent's)."""
    side = d.players[p]
    return side.no_effect_damage_turn == d.turn and (side.no_effect_damage_any or by != p)


def field_attack_costs(d: DuelState, p: int) -> list[tuple[CardInst, int]]:
    """The attack costs of the face-up Spell/Trap Cards on the field that `p` pays to declare an attack, each (card,
    effect index), once the card's activation has resolved and while its effects are not negated: every player's attacks
    ("Each player must pay 500 Life Points to declare an attack": Toll), or with `at_player: opponent` its controller's
    opponent's ("Unless your opponent sends 1 card from the top of his/her Deck to the Graveyard, he/she cannot declare an
    attack": Gravekeeper's Servant)."""
    found = []
    for side in d.players:
        for card in side.szone:
            if card is not None and card.attack_costs and card.face_up and card.active and not card.is_monster \
                    and not effects_negated(d, card):
                found += [(card, i) for i in card.attack_costs
                          if card.effects[i].at_player == "any" or (card.effects[i].at_player == "you") == (card.controller == p)]
    return found


def spell_lp_costs_waived(d: DuelState, p: int) -> CardInst | None:
    """The face-up card by which `p` does not pay LP to activate Spell Cards (Spell Economics), if any."""
    return source_with(d, "no_spell_lp_costs", lambda source, _: source.controller == p and source.loc.on_field)


def no_hand_limit(d: DuelState) -> CardInst | None:
    """The face-up card that lifts the hand limit of both players (Infinite Cards), if any."""
    return source_with(d, "no_hand_limit", lambda source, _: source.loc.on_field)


def effect_damage_prevented(d: DuelState, p: int) -> CardInst | None:
    """The face-up card that makes the damage `p` would take from a card effect 0 (Des Wombat), if any."""
    return source_with(d, "no_effect_damage", lambda source, _: source.controller == p and source.loc.on_field)


def has_flag(d: DuelState, card: CardInst, flag: str) -> bool:
    """Whether a restriction or ability applies to `card`: a flag of a continuous effect that
    applies to it ("cannot_attack", "piercing", "wins_match" …, ContinuousSpec) or of a lasting
    change on it (continuous.Modifier.flags)."""
    assert flag in FLAGS, f"unknown flag {flag!r}"
    if card.modifiers and any(flag in m.flags for m in card.modifiers):
        return True  # a resolved effect's lasting restriction (Instant Fusion: "it cannot attack")
    if flag not in d.index.flags:
        return False
    for source, effect in sources(d):
        spec = effect.continuous
        if spec is not None and getattr(spec, flag) and applies(d, source, spec, card):
            return True
    return False


def piercing_victim(d: DuelState, attacker: CardInst) -> int | None:
    """Who takes the piercing battle damage of `attacker`, None when nothing grants it piercing:
    the opponent of the player whose card grants it, the attacking player themself when that is
    the opponent's card ("inflict piercing battle damage to your opponent": Big Bang Shot equipped
    to the opponent's monster hurts that monster's controller — the OCG ruling, and the reference
    engine). Its own card or a lasting change first: the defending player."""
    foe = 1 - attacker.controller
    if attacker.modifiers and any("piercing" in m.flags for m in attacker.modifiers):
        return foe
    if "piercing" not in d.index.flags:
        return None
    granted_by = [source.controller for source, effect in sources(d)
                  if effect.continuous is not None and effect.continuous.piercing and applies(d, source, effect.continuous, attacker)]
    if not granted_by:
        return None
    return foe if attacker.controller in granted_by else 1 - granted_by[0]


def untargetable(d: DuelState, card: CardInst, player: int, single: bool = False) -> bool:
    """Whether `player`'s effects cannot target `card` by a card's `untargetable_by` (King Dragun, Lord of D.); `single`:
    the effect targets 1 monster and no other card (`opponent_one`: Metalsilver Armor)."""
    if "untargetable_by" not in d.index.flags:
        return False  # (asked for every target candidate: not even the closure below is made)
    return source_with(d, "untargetable_by", lambda source, spec: (
        spec.untargetable_by == "any" or player != source.controller and (spec.untargetable_by != "opponent_one" or single))
        and applies(d, source, spec, card)) is not None


def battle_indestructible_with(d: DuelState, card: CardInst, other: CardInst | None) -> bool:
    """Whether `card` cannot be destroyed by battle with `other` ("with a monster that has 1900 or less ATK": Different
    Dimension Dragon)."""
    return other is not None and source_with(
        d, "cannot_be_destroyed_by_battle_with", lambda source, spec: applies(d, source, spec, card)
        and matches(d, other, spec.cannot_be_destroyed_by_battle_with, card.controller, source)) is not None  # type: ignore[arg-type]


def indestructible_untargeted(d: DuelState, card: CardInst, kind: str, targeted: bool) -> bool:
    """Whether `card` is not destroyed by an effect of a card of this kind ("spell", "trap", "monster") that does not target
    it ("cannot be destroyed by Spell/Trap effects that do not target it": Different Dimension Dragon)."""
    if targeted:  # "not destroyed … by the effect of a card that targets the monster" (Heart of Clear Water)
        return "indestructible_if_targeted" in d.index.flags and source_with(
            d, "indestructible_if_targeted", lambda source, spec: kind in spec.indestructible_if_targeted  # type: ignore[operator]
            and applies(d, source, spec, card)) is not None
    return "indestructible_unless_targeted" in d.index.flags and source_with(
        d, "indestructible_unless_targeted", lambda source, spec: kind in spec.indestructible_unless_targeted  # type: ignore[operator]
        and applies(d, source, spec, card)) is not None


def equip_takes_battle_destruction(d: DuelState, card: CardInst) -> CardInst | None:
    """Relinquished: the monster equipped to it that is destroyed by battle in its place."""
    if not card.equips or not has_flag(d, card, "equip_takes_battle_destruction"):
        return None
    return next((e for e in card.equips if e.is_monster), None)


def attacks_allowed(d: DuelState, card: CardInst) -> int:
    extra = sum(1 for m in card.modifiers if "extra_attack" in m.flags)
    if d.index.continuous_count:
        for source, effect in sources(d):
            spec = effect.continuous
            if spec is not None and spec.extra_attacks and applies(d, source, spec, card):
                per = _per_count(d, source, spec) if spec.atk_per is not None or spec.per_where is not None else 1
                extra += spec.extra_attacks * per  # "1 additional attack for each Equip Card equipped to it" (Ben Kei)
    return 1 + extra


def effects_negated(d: DuelState, card: CardInst) -> bool:
    """Royal Decree, Jinzo, Imperial Order: the card's effects on the field are negated. A
    Gemini monster that is still a Normal Monster has no effects to use (R-CARD-6)."""
    if card.abilities and card.treated_as_normal:
        return True
    if card.negated_at == card.moves:
        return True  # destroyed by battle with Ancient Gear Beast: negated where it went (the GY)
    if card.battle_destroyed and ("negates_battle_destroyed" in d.index.flags or d.battle_flags_turn == d.turn) and battle_negated(d, card):
        return True
    if not d.index.negators and not d.floating:
        return False
    for source, effect, turn in d.floating:
        spec = effect.continuous
        if turn >= d.turn and spec is not None and spec.negate_effects is not None and card.loc.on_field \
                and matches(d, card, spec.negate_effects, source.controller, source):
            return True
    for source in d.index.negators:
        if source is card or not source.face_up or not source.loc.on_field or (source.loc == Loc.SZONE and not source.active) \
                or source in d.summoning:
            continue
        for effect in source.continuous:
            spec = effect.continuous
            if spec is not None and spec.negate_effects is not None and card.loc.on_field and applies_from_here(source, effect) \
                    and (effect.condition is None or condition_holds(d, source, effect.condition)) \
                    and matches(d, card, spec.negate_effects, source.controller, source) \
                    and not (card.controller == source.controller and spares_controller(d, source)):
                return True
    return False


Player.negated = staticmethod(effects_negated)  # (a zone lock whose card is negated waits: state/player.py)


def battle_negated(d: DuelState, card: CardInst) -> bool:
    """Whether `card`, marked destroyed by the current battle, has its effects negated by the
    monster it battles (Ancient Gear Beast: "Negate the effects of an opponent's monster destroyed
    by battle with this card (including in the GY)" — its FLIP or "after damage calculation"
    effect too). The other monster's effect applies if it is face-up on the field and not negated;
    destroyed by the same battle, it still applies (its own negation is not asked then: no loop)."""
    attack = d.attack
    if attack is None or attack.target is None or card not in (attack.attacker, attack.target):
        return False
    other = attack.target if card is attack.attacker else attack.attacker
    if other.loc != Loc.MZONE or not other.face_up or other.controller == card.controller:
        return False
    if other.modifiers and any("negates_battle_destroyed" in m.flags for m in other.modifiers):
        return card.is_monster and "effect" in card.monster.frames  # (a resolved effect's: Diffusion Wave-Motion)
    if not any(e.continuous is not None and e.continuous.negates_battle_destroyed
               and (e.condition is None or condition_holds(d, other, e.condition))
               and (e.continuous.negates_battle_destroyed is True
                    or matches(d, card, e.continuous.negates_battle_destroyed, other.controller, other))
               for e in other.continuous):
        return False
    return other.battle_destroyed or not effects_negated(d, other)


def use_forbidden(d: DuelState, card: CardInst) -> CardInst | None:
    """The face-up card whose `forbids_use` names `card` (Prohibition's declared name), if any: it cannot be Summoned,
    Set or activated, nor its effects."""
    if "forbids_use" not in d.index.flags:
        return None
    return source_with(d, "forbids_use", lambda source, spec: matches(d, card, spec.forbids_use, source.controller, source))  # type: ignore[arg-type]


def activation_forbidden(d: DuelState, player: int, card: CardInst) -> CardInst | None:
    """The card whose continuous effect forbids activating `card` (Jinzo for Traps), if any."""
    if "forbids_use" in d.index.flags and (forbidder := use_forbidden(d, card)) is not None:
        return forbidder  # (Prohibition)
    if "cannot_activate" not in d.index.flags:
        return None  # (asked at every activation check: not even the closure below is made)
    return source_with(d, "cannot_activate", lambda source, spec: matches(d, card, spec.cannot_activate, source.controller, source)  # type: ignore[arg-type]  # (set: source_with checked it)
                       and not (player == source.controller and spares_controller(d, source)))


_sparing: list[bool] = [False]  # a spares_controller question is being answered (its own answer reads negations again)


def spares_controller(d: DuelState, source: CardInst) -> bool:
    """Whether `source`'s `cannot_activate`/`negate_effects` leave its controller's cards alone (Amplifier on Jinzo).
    While that is asked, asking it again answers no: whether the sparing card (Amplifier) is itself negated — by a card
    that negates Spells (Imperial Order) — must not ask whether that card spares it in turn."""
    if "spares_controller" not in d.index.flags or _sparing[0]:
        return False
    _sparing[0] = True
    try:
        return has_flag(d, source, "spares_controller")
    finally:
        _sparing[0] = False


def tribute_value(d: DuelState, tribute: CardInst, summoned: CardInst) -> int:
    """R-SUMMON-2: how many Tributes `tribute` counts as for Summoning `summoned`."""
    for effect in tribute.continuous:
        spec = effect.continuous
        if spec is not None and spec.tribute_value and (spec.tribute_for is None or
                                                        matches(d, summoned, spec.tribute_for, tribute.controller, tribute)):
            return spec.tribute_value
    return 1


def forced_position(d: DuelState, card: CardInst, into: str = "defense") -> CardInst | None:
    """The card that keeps `card` in Defense Position (Level Limit - Area B) or, `into="attack"`, in Attack Position
    (Insect Princess), if any."""
    for source, effect in sources(d):
        spec = effect.continuous
        if spec is not None and spec.force_position == into and applies(d, source, spec, card):
            return source
    return None


def fewer_tributes(d: DuelState, card: CardInst) -> int:
    """Geartown: how many fewer Tributes `card` needs for its Normal Summon."""
    return sum(effect.continuous.fewer_tributes for source, effect in sources(d)
               if effect.continuous is not None and effect.continuous.fewer_tributes and applies(d, source, effect.continuous, card))


def summon_condition_holds(d: DuelState, card: CardInst, p: int) -> bool:
    """Whether the card's `summon_if` ("Cannot be Summoned unless you control …": the Guardians) lets player `p` Summon
    it now — Normal, Flip or Special Summon; read for `p`, who may not be its owner (Monster Reborn)."""
    condition = card.monster.summon_if
    if condition is None:
        return True
    was = card.controller
    card.controller = p
    try:
        return condition_holds(d, card, condition)
    finally:
        card.controller = was


def type_rivals(d: DuelState, card: CardInst, p: int) -> list[CardInst]:
    """The face-up monsters of another Type than `card`'s that player `p` controls, while a `one_type_per_player` card
    applies (Rivalry of Warlords: "each player can only have 1 Type of monster on the field"): they keep `p` from
    Summoning `card` face-up, unless a Tribute Summon Tributes them all (R-CARD-13)."""
    if "one_type_per_player" not in d.index.flags or not card.is_monster \
            or source_with(d, "one_type_per_player", lambda source, spec: True) is None:
        return []
    return [c for c in d.players[p].mzone if c is not None and c is not card and c.face_up and c.monster.type != card.monster.type]


def only_one_blockers(d: DuelState, card: CardInst, p: int, *, face_up: bool = True) -> list[CardInst]:
    """The monsters that keep player `p` from controlling `card` (face-up, or Set when `face_up` is false) by its
    `only_one` ("You can only control 1 face-up "Gravekeeper's Chief"", "You can only control 1 "Amazoness Tiger""):
    the other copies `p` controls — face-up ones for `face_up` (a Set is allowed then), any for `any` (R-CARD-13)."""
    mode = getattr(card.data, "only_one", None)
    if mode is None or (mode == "face_up" and not face_up):
        return []
    return [c for c in d.players[p].mzone if c is not None and c is not card and c.name == card.name
            and (mode == "any" or c.face_up)]


def _sent_from_field_this_turn(d: DuelState, flt: Filter, p: int, source: CardInst) -> bool:
    """A monster matching `flt` went from `p`'s Monster Zone to the GY this turn (the turn's moves, read back in the log)."""
    for event in reversed(d.log):
        if isinstance(event, TurnStart):
            return False
        if isinstance(event, Move) and event.src == Loc.MZONE and event.dst == Loc.GY and event.controller == p \
                and matches(d, d.cards[event.card], flt, p, source):
            return True
    return False


_MOVE_REASONS = {"discarded": (Reason.DISCARD,), "tributed": (Reason.TRIBUTE, Reason.TRIBUTED_BY_EFFECT)}


def moved_this_turn(d: DuelState, p: int, moves: list[str], flt: Filter, source: CardInst) -> int:
    """How many times this turn a card of player `p`'s (in their hand or on their field then) matching `flt` (where it
    is now) was moved those ways: "discarded" from the hand, "tributed" (Super Rejuvenation) — read back in the turn's log."""
    reasons = {r for m in moves for r in _MOVE_REASONS[m]}
    count = 0
    for event in reversed(d.log):
        if isinstance(event, TurnStart):
            break
        if isinstance(event, Move) and event.reason in reasons and event.controller == p and event.dst == Loc.GY \
                and matches(d, d.cards[event.card], flt, p, source):
            count += 1
    return count


def _phase_start(d: DuelState) -> bool:
    """Nothing has happened since the current phase began: the last event of the log besides notes is its PhaseChange
    (Cold Wave: "only … at the start of Main Phase 1")."""
    for event in reversed(d.log):
        if isinstance(event, PhaseChange):
            return event.phase == d.phase
        if not isinstance(event, Note):
            return False
    return False


def condition_holds(d: DuelState, card: CardInst, c: Condition) -> bool:
    """Whether an effect's extra conditions hold now, for the card's controller."""
    p = card.controller
    if c.your_turn is not None and (d.turn_player == p) != c.your_turn:
        return False
    if c.phase is not None and not _phase_ok(d, c.phase):
        return False
    for flt, want_any in _control_filters(c):
        found = select(d, flt, p, card, limit=0 if want_any and c.count is not None else 1)
        if not found and c.count is None and "field_treated_as" in d.index.flags and _field_treated_as(d, flt, p):
            found = [card]  # (the field is treated as that Field Spell: Maiden of the Aqua)
        if want_any and (len(found) not in c.count if c.count is not None else not found):
            return False
        if not want_any and found:
            return False
    if c.in_your_gy is not None:
        found = select(d, variant(c.in_your_gy, zone=("gy",), side="you"), p, card)
        if len(found) not in c.count if c.count is not None else not found:
            return False
    if c.sent_from_field_this_turn is not None and not _sent_from_field_this_turn(d, c.sent_from_field_this_turn, p, card):
        return False
    if c.any is not None and not any(condition_holds(d, card, sub) for sub in c.any):
        return False
    if c.all is not None and not all(condition_holds(d, card, sub) for sub in c.all):
        return False
    if c.activated_as is not None and not (card.activated_as is not None and card.activated_as[1] == card.moves
                                           and card.effects[card.activated_as[0]].label == c.activated_as):
        return False
    if c.phase_start is not None and _phase_start(d) != c.phase_start:
        return False
    lp = d.players[p].lp
    if c.lp_vs_opponent is not None and not (lp < d.players[1 - p].lp if c.lp_vs_opponent == "lower" else lp > d.players[1 - p].lp):
        return False
    if c.lp_behind is not None and d.players[1 - p].lp - lp < c.lp_behind:
        return False
    if c.opponent_monsters_more is not None and d.monster_count(1 - p) - d.monster_count(p) < c.opponent_monsters_more:
        return False
    if c.lp_at_most is not None and lp > c.lp_at_most:
        return False
    if c.lp_at_least is not None and lp < c.lp_at_least:
        return False
    if c.opponent_lp_at_least is not None and d.players[1 - p].lp < c.opponent_lp_at_least:
        return False
    if c.opponent_lp_at_most is not None and d.players[1 - p].lp > c.opponent_lp_at_most:
        return False
    if c.hand_empty_last_turn is not None and (d.players[p].empty_hand_turn == d.turn - 1) != c.hand_empty_last_turn:
        return False
    if c.hand_at_least is not None and len(d.players[p].hand) < c.hand_at_least:
        return False
    if c.battle_damage_at_least is not None and (d.attack is None or d.attack.dealt.get(p, 0) < c.battle_damage_at_least):
        return False
    attack = d.attack
    if c.opponent_attacking is not None and (attack is not None and attack.attacker.controller != p) != c.opponent_attacking:
        return False
    if c.being_attacked is not None and (attack is not None and attack.target is card) != c.being_attacked:
        return False
    if c.battle_wins is not None and card.battle_wins not in c.battle_wins:
        return False
    if c.destroyed_by_battle_this_turn is not None and any(turn == d.turn for _, _, turn in card.defeated) != c.destroyed_by_battle_this_turn:
        return False
    if c.direct_attack is not None and (attack is not None and attack.target is None and (
            attack.attacker is card  # a Spell/Trap's: a monster of its controller's (Sebek's Blessing)
            or (not card.is_monster and card.equip_target is None and attack.attacker.controller == p))) != c.direct_attack:
        return False
    # an Equip Card's "if the equipped monster attacks": the monster it equips (Ballista of Rampart Smashing)
    me = card.equip_target if card.equip_target is not None and card.loc == Loc.SZONE else card
    if c.attacking is not None and (attack is not None and attack.attacker is me) != c.attacking:
        return False
    if c.attacking_set_monster is not None and (attack is not None and attack.attacker is me and attack.target_was_set) \
            != c.attacking_set_monster:
        return False
    if c.selected_gone is not None and any(not _still_there(d.cards[uid], at) for uid, at in card.selected) != c.selected_gone:
        return False  # (Gradius' Option: its selected "Gradius" removed from the field)
    if c.tributes_used is not None and card.tributes_used not in c.tributes_used:
        return False
    if c.equipped_monsters is not None and sum(1 for e in card.equips if e.is_monster) not in c.equipped_monsters:
        return False
    if c.in_battle is not None and (attack is not None and card in (attack.attacker, attack.target)) != c.in_battle:
        return False
    if c.damage_calculation is not None and (attack is not None and d.step == Step.DAMAGE_CALC) != c.damage_calculation:
        return False
    if c.attacked_this_turn is not None and (card.attacked_turn == d.turn) != c.attacked_this_turn:
        return False
    if c.hand_at_most is not None and len(d.players[p].hand) > c.hand_at_most:
        return False
    if c.opponent_hand_at_least is not None and len(d.players[1 - p].hand) < c.opponent_hand_at_least:
        return False
    if c.you_summoned_this_turn is not None and (d.players[p].summoned_turn == d.turn) != c.you_summoned_this_turn:
        return False
    if c.you_set_monster_this_turn is not None and (d.players[p].monster_set_turn == d.turn) != c.you_set_monster_this_turn:
        return False
    if c.xyz_materials is not None and len(card.materials) not in c.xyz_materials:
        return False
    if c.spirits_kept is not None and (source_with(d, "keeps_spirits", lambda source, _: source.loc.on_field) is not None) != c.spirits_kept:
        return False
    if c.normal_summoned_or_flipped_this_turn is not None:
        summoned = card.summon_turn == d.turn and card.summon_kind in ("normal", "tribute", "flip", "gemini")
        if (summoned or card.flipped_turn == d.turn) != c.normal_summoned_or_flipped_this_turn:
            return False
    if c.summoned_or_flipped_this_turn is not None:
        summoned = card.summon_turn == d.turn and card.summon_kind != ""
        if (summoned or card.flipped_turn == d.turn) != c.summoned_or_flipped_this_turn:
            return False
    if c.summoned_by is not None and card.summoned_by != c.summoned_by:
        return False
    return True


def _field_treated_as(d: DuelState, flt: Filter, p: int) -> bool:
    """Whether a condition's "X is on the field" finds X in a field treated as X (Maiden of the Aqua: "the field is
    treated as \"Umi\"… If there is an active Field Spell Card on the field, this effect is not applied"): the filter
    names X, looks at the field (or the Field Zone), and the side it looks at is the controller's of such a card."""
    if not flt.name or flt.face_up is False or (flt.zone is not None and not {"onfield", "field"} & set(flt.zone)):
        return False
    for source, effect in sources(d):
        spec = effect.continuous
        if spec is None or spec.field_treated_as is None or spec.field_treated_as not in flt.name or source.loc != Loc.MZONE:
            continue
        if flt.side in ("you", "opponent") and (source.controller == p) != (flt.side == "you"):
            continue
        return not any(c is not None and c.face_up and c.active for side in d.players for c in (side.szone[FIELD_ZONE],))
    return False


def _control_filters(c: Condition) -> list[tuple[Filter, bool]]:
    """The condition's "you control" / "your opponent controls (no) …" parts as filters of the
    field on that side, and whether it wants some such card (True) or none: made once per condition."""
    found = _CONTROL.get(id(c))
    if found is None or found[0] is not c:
        parts = [(variant(flt, side=side) if flt.zone else variant(flt, zone=("onfield",), side=side), want_any)
                 for flt, want_any, side in ((c.you_control, True, "you"), (c.you_control_none, False, "you"),
                                             (c.opponent_controls, True, "opponent"), (c.opponent_controls_none, False, "opponent"))
                 if flt is not None]
        found = _CONTROL[id(c)] = (c, parts)
    return found[1]


_CONTROL: dict[int, tuple[Condition, list[tuple[Filter, bool]]]] = {}


def _phase_ok(d: DuelState, phases: tuple[str, ...]) -> bool:
    names = {Phase.DRAW: "draw", Phase.STANDBY: "standby", Phase.MAIN1: "main1", Phase.BATTLE: "battle",
             Phase.MAIN2: "main2", Phase.END: "end"}
    current = names[d.phase]
    if current in phases:
        return True
    if "main" in phases and current in ("main1", "main2"):
        return True
    if "damage_calculation" in phases and d.step == Step.DAMAGE_CALC:
        return True
    return "damage" in phases and d.step in (Step.DAMAGE_START, Step.BEFORE_DAMAGE, Step.DAMAGE_CALC, Step.AFTER_DAMAGE, Step.DAMAGE_END)


@dataclass(slots=True)
class BattleResult:
    """What damage calculation would do as things stand now (R-BATTLE-7…9, R-BATTLE-12)."""

    atk: int  # the attacker's ATK
    other: int | None  # the target's ATK or DEF (None: a direct attack)
    destroyed: tuple[CardInst, ...]  # the monsters it destroys by battle (before "cannot be destroyed by battle")
    damage: dict[int, int]  # the battle damage each player takes, after "no battle damage" effects
    # the damage of this battle "treated as effect damage" (Gravekeeper's Vassal): no battle damage effect changes it
    effect_damage: dict[int, int] = field(default_factory=dict)


def battle_result(d: DuelState, p: int, state: AttackState) -> BattleResult:
    """The damage calculation of `p`'s attack `state`, worked out without changing anything:
    the Damage Step applies it (rules/battle.py), and an effect that would spare a player the
    battle damage asks it whether there is any to spare (Kuriboh, effects/checks.py)."""
    attacker, target = state.attacker, state.target
    foe = 1 - p
    x = attacker.atk
    damage: dict[int, int] = {}
    destroyed: tuple[CardInst, ...] = ()
    other: int | None = None
    if target is None:
        if x > 0:  # R-BATTLE-9: 0 ATK inflicts no damage
            damage[foe] = x
    elif target.pos.is_attack:
        y = other = target.atk
        if x > y:
            destroyed = (target,)
            damage[foe] = x - y
        elif x == y:
            if x > 0:  # R-BATTLE-7: 0 vs 0 destroys nothing
                destroyed = (attacker, target)
        else:
            destroyed = (attacker,)
            damage[p] = y - x
    else:
        df = other = target.defense
        if x > df:
            destroyed = (target,)  # R-BATTLE-8: no damage …
            victim = piercing_victim(d, attacker)  # … unless an effect grants piercing (R-BATTLE-12)
            if victim is not None:
                damage[victim] = x - df
        elif x < df:
            damage[p] = df - x
    as_effect: dict[int, int] = {}
    if damage and "battle_damage_as_effect" in d.index.flags:
        for card in (attacker, target):  # Gravekeeper's Vassal: the battle damage it inflicts is effect damage instead
            if card is not None and damage.get(1 - card.controller) and has_flag(d, card, "battle_damage_as_effect"):
                as_effect[1 - card.controller] = damage.pop(1 - card.controller)
    damage = {who: amount for who, amount in damage.items()
              if who not in state.no_damage and d.players[who].no_battle_damage_turn != d.turn}
    if damage and (d.index.continuous_count or (target is not None and target.modifiers)):  # (a lasting change: Cross Counter)
        for card in (attacker, target):  # Dark Flare Knight: its controller takes no battle damage from its battles
            if card is not None and card.controller in damage and has_flag(d, card, "no_battle_damage"):
                del damage[card.controller]
        if "no_battle_damage_involving" in d.index.flags:  # Emissary of the Oasis: none from a battle with such a monster in it
            for source, effect in sources(d):
                involving = effect.continuous.no_battle_damage_involving if effect.continuous is not None else None
                if involving is not None and source.controller in damage and \
                        any(c is not None and matches(d, c, involving, source.controller, source) for c in (attacker, target)):
                    del damage[source.controller]
        if target is None and damage.get(1 - attacker.controller) and "direct_damage_becomes" in d.index.flags:
            for source, effect in sources(d):  # Dark Scorpion Combination: its direct attack inflicts 400
                spec = effect.continuous
                if spec is not None and spec.direct_damage_becomes is not None and applies(d, source, spec, attacker):
                    damage[1 - attacker.controller] = spec.direct_damage_becomes
                    break
        if "battle_damage_becomes" in d.index.flags:  # Rod of the Mind's Eye: the battle damage it inflicts becomes 1000
            for card in (attacker, target):
                if card is not None and damage.get(1 - card.controller):
                    for source, effect in sources(d):
                        spec = effect.continuous
                        if spec is not None and spec.battle_damage_becomes is not None and applies(d, source, spec, card):
                            damage[1 - card.controller] = spec.battle_damage_becomes
        for card in (attacker, target):  # Susa Soldier: the battle damage it inflicts is halved
            if card is not None and damage.get(1 - card.controller) and has_flag(d, card, "halves_battle_damage"):
                damage[1 - card.controller] //= 2
        if target is not None and damage.get(1 - target.controller) and has_flag(d, target, "doubles_damage_to_attacker"):
            damage[1 - target.controller] *= 2  # Stone Statue of the Aztecs: the attacking player's damage is doubled
        for card in (attacker, target):  # Piranha Army: the battle damage it inflicts is doubled
            if card is not None and damage.get(1 - card.controller) and has_flag(d, card, "doubles_battle_damage"):
                damage[1 - card.controller] *= 2
        for card in (attacker, target):  # Amazoness Swords Woman: the damage its controller would take goes to the opponent instead
            if card is not None and damage.get(card.controller) and has_flag(d, card, "reflects_battle_damage"):
                other_player = 1 - card.controller
                damage[other_player] = damage.get(other_player, 0) + damage.pop(card.controller)
        for card in (attacker, target):  # Relinquished: the damage its controller takes is also the opponent's
            if card is not None and damage.get(card.controller) and has_flag(d, card, "shares_battle_damage"):
                other_player = 1 - card.controller
                damage[other_player] = damage.get(other_player, 0) + damage[card.controller]
    return BattleResult(x, other, destroyed, damage, as_effect)
