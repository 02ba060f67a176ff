"""A card in a duel: its definition plus where it is and what happened to it this turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..schema.cards import Card, Monster, Spell, Trap
from .types import Loc, Pos

if TYPE_CHECKING:
    pass


class CardInst:
    """One physical card (or Token) of a duel.

    `uid` is a handle that stays with the card for the whole duel; uids are dealt in a seeded
    random order so that a hidden card's uid says nothing about which card it is.
    """

    __slots__ = (
        "uid", "data", "owner", "controller", "loc", "seq", "pos", "face_up",
        "arrived_turn", "pos_changed_turn", "attacks", "attacked_turn", "summon_kind", "summon_turn",
        "properly_summoned", "counters", "materials", "name", "is_monster", "is_spell", "is_trap",
        "level", "base_atk", "base_def", "battle_destroyed", "set_turn", "tribute_value",
    )

    def __init__(self, uid: int, data: Card, owner: int) -> None:
        self.uid = uid
        self.data = data
        self.owner = owner
        self.controller = owner
        self.loc = Loc.DECK
        self.seq = 0
        self.pos = Pos.FACEDOWN_DEFENSE
        self.face_up = False
        self.arrived_turn = 0  # turn it entered its current location
        self.pos_changed_turn = 0  # last turn its battle position changed by the player (R-SUMMON-4/5)
        self.attacks = 0  # attacks declared this turn (R-BATTLE-1)
        self.attacked_turn = 0  # last turn it declared an attack (R-BATTLE-11)
        self.summon_kind = ""  # "normal", "tribute", "flip", "special", "" (Set or not summoned)
        self.summon_turn = 0
        self.properly_summoned = False  # R-SUMMON-9 / R-TERM-22
        self.counters: dict[str, int] = {}
        self.materials: list[CardInst] = []  # Xyz materials attached (R-ZONE-10)
        self.battle_destroyed = False  # marked at damage calculation (R-BATTLE-4)
        self.set_turn = 0  # turn a Spell/Trap was Set (R-CARD-7/9)
        self.name = data.name
        self.is_monster = isinstance(data, Monster)
        self.is_spell = isinstance(data, Spell)
        self.is_trap = isinstance(data, Trap)
        if isinstance(data, Monster):
            self.level = data.level or 0
            self.base_atk = 0 if data.atk == "?" else data.atk  # R-TERM-19: '?' counts as 0
            self.base_def = 0 if data.def_ in ("?", None) else data.def_
        else:
            self.level = 0
            self.base_atk = 0
            self.base_def = 0
        self.tribute_value = 1  # Kaiser Sea Horse-style doubles set this from its card text

    # Current ATK/DEF. The continuous-effect layer of the chains issue modifies these;
    # values never go below 0 (R-TERM-19).
    @property
    def atk(self) -> int:
        return self.base_atk

    @property
    def defense(self) -> int:
        return self.base_def

    @property
    def monster(self) -> Monster:
        assert isinstance(self.data, Monster)
        return self.data

    def reset_for_move(self) -> None:
        """Forget per-location history when the card changes location (a new object, R-TERM-23)."""
        self.attacks = 0
        self.attacked_turn = 0
        self.pos_changed_turn = 0
        self.summon_kind = ""
        self.summon_turn = 0
        self.battle_destroyed = False
        self.set_turn = 0
        self.counters = {}  # R-CARD-12

    def __repr__(self) -> str:
        return f"<{self.name}#{self.uid} p{self.owner} {self.loc.name}:{self.seq}>"
