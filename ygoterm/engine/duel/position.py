"""Build a duel from a scenario's position: every zone, flag and counter as the file says.

The duel then starts at the given phase of the given turn, with the turn player to act.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...schema.cards import Monster
from ...schema.problems import DataError, Problem
from ...schema.rules import Rules
from ...schema.scenario import PileCard, Scenario, SideSetup, ZoneCard
from ..state.card import CardInst
from ..state.duel_state import DEFAULT_NAMES
from .protocol import Duel
from ..state.record import ReplayRecord, pool_digest, position_card_names
from ..core.types import EMZ_LEFT, FIELD_ZONE, PHASE_WORDS, Loc, Pos

if TYPE_CHECKING:
    from ...schema.cardpool import CardPool

SIDES = {"A": 0, "B": 1}
_PILE_NAMES = {Loc.DECK: "deck", Loc.HAND: "hand", Loc.GY: "gy", Loc.BANISHED: "banished", Loc.EXTRA: "extra"}
_POSITIONS = {"attack": Pos.ATTACK, "defense": Pos.DEFENSE, "set": Pos.FACEDOWN_DEFENSE, "facedown-attack": Pos.FACEDOWN_ATTACK}


def build_position(pool: "CardPool", data: dict[str, Any], seed: int, rules: Rules | None = None,
                   names: tuple[str, str] | None = None) -> Duel:
    """A duel set up exactly as the scenario data describes, waiting for the turn player."""
    from ..rules import flow

    scenario = Scenario.model_validate(data)
    rules = rules or scenario.rules
    names = names or (scenario.names.get("A", DEFAULT_NAMES[0]), scenario.names.get("B", DEFAULT_NAMES[1]))
    duel = Duel(rules, seed, names)
    duel.card_names, duel.card_kind = pool.names(), pool.kind_of
    refs = position_card_names(data)
    missing = sorted({ref for ref in refs if pool.get(ref) is None})
    if missing:
        raise DataError([Problem("scenario", 0, 0, "", f"unknown card '{m}'", pool.suggest(m), "R-DECK-8") for m in missing])
    used = [pool.get(ref) for ref in refs]
    duel.deal_uids(len(refs))
    duel.turn = scenario.turn
    duel.turn_player = SIDES[scenario.turn_player]
    duel.first_player = duel.turn_player if scenario.turn % 2 == 1 else 1 - duel.turn_player
    duel.phase = PHASE_WORDS[scenario.phase]
    for index, side in enumerate((scenario.A, scenario.B)):
        _set_up_side(duel, pool, index, side)
    duel.record = ReplayRecord(seed, rules, names, [], pool_digest(used), position=data, pool=pool)  # type: ignore[arg-type]
    for side_word, mode in scenario.prompt.items():
        duel.set_prompt_mode(SIDES[side_word], mode)
    duel.start_flow(flow.Play(duel.phase))
    return duel


def _set_up_side(d: Duel, pool: "CardPool", p: int, side: SideSetup) -> None:
    player = d.players[p]
    if side.lp is not None:
        player.lp = side.lp
    if side.normal_summoned:
        player.normal_summon_turn = d.turn
    # Piles: the Deck is written top first but stored bottom first.
    for pile, loc in (("hand", Loc.HAND), ("extra", Loc.EXTRA), ("gy", Loc.GY), ("banished", Loc.BANISHED)):
        for entry in getattr(side, pile):
            for card in _make(d, pool, p, entry, loc):
                card.face_up = (loc in (Loc.GY, Loc.BANISHED) and not entry.face_down) or (loc == Loc.EXTRA and entry.face_up)
                card.properly_summoned = entry.properly_summoned and loc in (Loc.GY, Loc.BANISHED)
    for entry in side.deck:
        _make(d, pool, p, entry, Loc.DECK)
    player.deck.reverse()  # written top first, kept bottom first
    for entry in side.monsters:
        _place_monster(d, pool, p, entry)
    for entry in side.spells:
        _place_spell(d, pool, p, entry, None)
    if side.field is not None:
        _place_spell(d, pool, p, side.field, FIELD_ZONE)
    for seq, entry in zip(player.pendulum_zones, side.pendulum):  # left, then right
        data = pool.get(entry.card)
        if not (isinstance(data, Monster) and data.is_pendulum):
            raise DataError([Problem("scenario", 0, 0, f"{'AB'[p]}.pendulum", f"{entry.card} is not a Pendulum monster (R-ZONE-4)")])
        _place_spell(d, pool, p, entry.model_copy(update={"face_down": False}), seq)


def _make(d: Duel, pool: "CardPool", p: int, entry: PileCard | ZoneCard, loc: Loc) -> list[CardInst]:
    """Create the entry's card(s), owned by its owner, in `loc` (piles: appended on top)."""
    owner = SIDES[entry.owner] if entry.owner else p
    made = d.deal(owner, [pool.get(entry.card)] * getattr(entry, "count", 1), Loc.GONE)  # type: ignore[list-item]
    for card in made:
        card.loc = loc
        if loc == Loc.HAND:  # a hand may hold a card of the opponent's (Amazoness Chain Master): its holder controls it
            card.controller = p
            d.players[p].hand.append(card)
        elif loc != Loc.GONE and loc != Loc.MATERIAL:
            d.players[owner].pile(_PILE_NAMES[loc]).append(card)
    return made


def _place_monster(d: Duel, pool: "CardPool", p: int, entry: ZoneCard) -> None:
    card = _make(d, pool, p, entry, Loc.GONE)[0]
    side = d.players[p]
    seq = entry.zone - 1 if entry.zone else side.free_mzone()
    if seq is None or side.mzone[seq] is not None or (seq >= EMZ_LEFT and not d.emz_free(seq)):
        raise DataError([Problem("scenario", 0, 0, f"{'AB'[p]}.monsters", f"no free Monster Zone for {entry.card}")])
    card.loc, card.seq, card.controller = Loc.MZONE, seq, p
    side.mzone[seq] = card
    card.pos = _POSITIONS[entry.position]
    card.face_up = card.pos.face_up
    this_turn = entry.summoned == "this_turn"
    card.arrived_turn = d.turn if this_turn else d.turn - 1
    if card.face_up and entry.how != "set":
        card.summon_kind = entry.how
        card.summon_turn = card.arrived_turn
    card.properly_summoned = entry.properly_summoned
    if entry.attacked:
        card.attacks, card.attacked_turn = 1, d.turn
    if entry.position_changed:
        card.pos_changed_turn = d.turn
    card.counters = dict(entry.counters)
    for name in entry.materials:
        material = _make(d, pool, card.owner, ZoneCard(card=name), Loc.MATERIAL)[0]
        material.face_up = True
        card.materials.append(material)


def _place_spell(d: Duel, pool: "CardPool", p: int, entry: ZoneCard, seq: int | None) -> None:
    card = _make(d, pool, p, entry, Loc.GONE)[0]
    side = d.players[p]
    if seq is None:
        seq = entry.zone - 1 if entry.zone else side.free_szone()
    if seq is None or side.szone[seq] is not None:
        raise DataError([Problem("scenario", 0, 0, f"{'AB'[p]}.spells", f"no free Spell & Trap Zone for {entry.card}")])
    card.loc, card.seq, card.controller = Loc.SZONE, seq, p
    side.szone[seq] = card
    card.face_up = entry.face_down is False
    card.active = card.face_up  # a face-up Continuous/Field/Equip card already applies
    card.arrived_turn = d.turn if entry.set == "this_turn" else d.turn - 1
    card.set_turn = card.arrived_turn if not card.face_up else 0
    card.counters = dict(entry.counters)
