"""Small enumerations shared by the whole engine: locations, phases, battle steps."""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Literal


class Loc(IntEnum):
    """Where a card is (R-ZONE-1…10). MZONE includes the Extra Monster Zones (seq 5 and 6)."""

    DECK = 1
    HAND = 2
    MZONE = 3
    SZONE = 4  # seq 0-4 Spell & Trap Zones (0 and 4 double as Pendulum Zones), 5 = Field Zone
    GY = 5
    BANISHED = 6
    EXTRA = 7
    MATERIAL = 8  # attached to an Xyz monster (R-ZONE-10)
    GONE = 9  # a Token that left the field ceases to exist (R-CARD-11)

    # What each member is, set on the members below: read everywhere, and a property costs a call.
    on_field: bool  # a Monster or Spell & Trap Zone
    title: str


_LOC_TITLES = {
    Loc.DECK: "Deck", Loc.HAND: "hand", Loc.MZONE: "Monster Zone", Loc.SZONE: "Spell & Trap Zone",
    Loc.GY: "GY", Loc.BANISHED: "banishment", Loc.EXTRA: "Extra Deck", Loc.MATERIAL: "Xyz Materials",
    Loc.GONE: "nowhere",
}
for _loc in Loc:
    _loc.on_field = _loc in (Loc.MZONE, Loc.SZONE)
    _loc.title = _LOC_TITLES[_loc]

FIELD_ZONE = 5  # SZONE seq of the Field Zone
EMZ_LEFT, EMZ_RIGHT = 5, 6  # MZONE seq of the Extra Monster Zones (shared, R-ZONE-5)
MAIN_ZONES = range(5)


class Phase(IntEnum):
    """R-PHASE-1."""

    DRAW = 1
    STANDBY = 2
    MAIN1 = 3
    BATTLE = 4
    MAIN2 = 5
    END = 6

    title: str  # (set on each member below, as for Loc)


_PHASE_TITLES = {
    Phase.DRAW: "Draw Phase", Phase.STANDBY: "Standby Phase", Phase.MAIN1: "Main Phase 1",
    Phase.BATTLE: "Battle Phase", Phase.MAIN2: "Main Phase 2", Phase.END: "End Phase",
}
for _phase in Phase:
    _phase.title = _PHASE_TITLES[_phase]
PHASE_WORDS = {"draw": Phase.DRAW, "standby": Phase.STANDBY, "main1": Phase.MAIN1, "battle": Phase.BATTLE,
               "main2": Phase.MAIN2, "end": Phase.END}


class Step(IntEnum):
    """Battle Phase steps and Damage Step sub-steps (R-PHASE-5, R-BATTLE-4). NONE outside battle."""

    NONE = 0
    START = 1
    BATTLE = 2
    DAMAGE_START = 3
    BEFORE_DAMAGE = 4
    DAMAGE_CALC = 5
    AFTER_DAMAGE = 6
    DAMAGE_END = 7
    END = 8

    title: str  # (set on each member below, as for Loc)
    in_damage_step: bool


_STEP_TITLES = {
    Step.NONE: "", Step.START: "Start Step", Step.BATTLE: "Battle Step", Step.DAMAGE_START: "Damage Step (start)",
    Step.BEFORE_DAMAGE: "Damage Step (before damage calculation)", Step.DAMAGE_CALC: "Damage Step (damage calculation)",
    Step.AFTER_DAMAGE: "Damage Step (after damage calculation)", Step.DAMAGE_END: "Damage Step (end)", Step.END: "End Step",
}
for _step in Step:
    _step.title = _STEP_TITLES[_step]
    _step.in_damage_step = Step.DAMAGE_START <= _step <= Step.DAMAGE_END


class Pos(IntEnum):
    """Battle positions (R-ZONE-1)."""

    ATTACK = 1  # face-up Attack
    DEFENSE = 2  # face-up Defense
    FACEDOWN_DEFENSE = 3
    FACEDOWN_ATTACK = 4  # only by effects (Darkness Approaches)

    face_up: bool  # (set on each member below, as for Loc)
    is_attack: bool
    title: str


_POS_TITLES = {Pos.ATTACK: "face-up Attack", Pos.DEFENSE: "face-up Defense",
               Pos.FACEDOWN_DEFENSE: "face-down Defense", Pos.FACEDOWN_ATTACK: "face-down Attack"}
for _pos in Pos:
    _pos.face_up = _pos in (Pos.ATTACK, Pos.DEFENSE)
    _pos.is_attack = _pos in (Pos.ATTACK, Pos.FACEDOWN_ATTACK)
    _pos.title = _POS_TITLES[_pos]


class Reason(StrEnum):
    """Why a card moved, where the rules or the log read it (a Move's `reason` may also be a
    plain text that explains a move the rules do not read: "its turns are over" …)."""

    TRIBUTE = "tribute"  # Tributed for a Tribute Summon (R-SUMMON-2)
    TRIBUTED_BY_EFFECT = "Tributed by an effect"  # sent from the field as a cost (R-TERM-3)
    DISCARD = "discard"  # from the hand to the GY (R-TERM-13)
    HAND_LIMIT = "hand limit"  # a discard at the End Phase (R-PHASE-7)
    BATTLE = "battle"  # destroyed by battle
    EFFECT = "effect"  # by a card's effect
    COST = "cost"  # as a cost (R-CHAIN-5)
    MANUAL = "manual"  # a manual action (DESIGN.md §4)

# How a monster was Summoned (a Summon event, the card's `summon_kind`; "" when Set or never Summoned)
SummonKind = Literal["", "normal", "tribute", "flip", "gemini", "special", "fusion", "ritual", "synchro", "xyz", "link",
                     "pendulum"]
ExtraKind = Literal["synchro", "xyz", "link"]  # Summoned from the Extra Deck by its own procedure (R-SUMMON-12/13/16)
DestroyedBy = Literal["battle", "effect", "rule"]  # "rule": the game rules (R-CARD-8), not "destroyed by a card effect"
LpChangeKind = Literal["battle", "effect", "cost", "gain", "loss", "manual"]  # how LP changed (the log says it)
