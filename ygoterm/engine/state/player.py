"""One player's side of the field and their private piles (R-ZONE-1…10)."""

from __future__ import annotations

from typing import Any, Callable, ClassVar

from .card import CardInst
from ..core.types import FIELD_ZONE

N_MZONES = 7  # 5 Main Monster Zones + the two shared Extra Monster Zones (seq 5, 6)
N_SZONES = 8  # 5 Spell & Trap Zones, the Field Zone (seq 5), separate Pendulum Zones (6, 7: only under V-06)
END_PENDULUM_ZONES = (0, 4)  # R-ZONE-4: the end Spell & Trap Zones are the Pendulum Zones …
SEPARATE_PENDULUM_ZONES = (6, 7)  # … or two zones of their own (V-06: zones.separate_pendulum, ruleset mr3)
# a `zone_locks` entry whose zone is FIELD_TOTAL - N: its player may have no more than N cards on their field in all
# (Spatial Collapse's `lock_zones: {field_total: N}`); zone -1 is Kaiser Colosseum's cap, 0-4 a Main Monster Zone
FIELD_TOTAL = -100
_MIDDLE_FIRST = (1, 2, 3, 0, 4)  # a player with Pendulum cards keeps the end zones free for them


class Player:
    """Zones are lists of CardInst. The Deck's top is the *end* of its list; the GY's too."""

    __slots__ = ("index", "lp", "deck", "hand", "mzone", "szone", "gy", "banished", "extra",
                 "normal_summon_turn", "battle_turn", "skip", "no_battle_damage_turn", "battle_immune_turn",
                 "no_effect_damage_turn", "no_effect_damage_any",
                 "traps_from_hand_turn", "used_names", "skips_left", "draw_replaced_turn",
                 "summoned_turn", "monster_set_turn", "summon_lock_turn", "set_lock_turn",
                 "pendulum_zones", "has_pendulums", "pendulum_turn", "layout", "memo", "empty_hand_turn", "first_attacker",
                 "hand_limit", "battle_lock_turn", "lp_paid", "normal_summon_batches", "second_battle_turn", "reroll", "held_szones", "zone_locks", "placing")
    # whether a card's effects are negated now (Imperial Order on a Ground Collapse): the board layer, which knows
    # continuous effects, installs its `effects_negated` here (board/continuous.py) — the state layer imports nothing above it
    negated: ClassVar[Callable[[Any, CardInst], bool]] = staticmethod(lambda d, card: False)

    def __init__(self, index: int, lp: int) -> None:
        self.index = index
        self.lp = lp
        self.deck: list[CardInst] = []
        self.hand: list[CardInst] = []
        self.mzone: list[CardInst | None] = [None] * N_MZONES
        self.szone: list[CardInst | None] = [None] * N_SZONES
        self.gy: list[CardInst] = []
        self.banished: list[CardInst] = []
        self.extra: list[CardInst] = []
        self.normal_summon_turn = 0  # turn of the last Normal Summon/Set (R-SUMMON-1)
        self.battle_turn = 0
        self.battle_lock_turn = 0  # the turn an effect forbade this player's Battle Phase (Soul Exchange)
        self.summoned_turn = 0  # the last turn this player Summoned a monster (any kind)
        self.monster_set_turn = 0  # … or Set one
        self.summon_lock_turn = 0  # the turn an effect stopped this player Summoning (Scapegoat)
        self.set_lock_turn = 0  # … or Setting monsters (Dark Magic Curtain)
        self.skips_left: dict[str, int] = {}  # phase → how many more of this player's turns skip it
        self.skip: dict[str, int] = {}  # phase → turn an effect said to skip it in this player's next turn (R-PHASE-8)
        self.no_battle_damage_turn = 0  # Waboku: takes no battle damage this turn
        self.battle_immune_turn = 0  # … and their monsters are not destroyed by battle
        self.no_effect_damage_turn = 0  # Hallowed Life Barrier: takes no effect damage this turn (from the opponent's cards) …
        self.no_effect_damage_any = False  # … or from any card's
        self.used_names: dict[str, int] = {}  # card name → turn "only 1 per turn" was used (once_per_turn: name)
        self.traps_from_hand_turn = 0  # Makyura the Destructor: Traps may be activated from the hand
        self.draw_replaced_turn = 0  # the turn an effect replaced this player's normal draw (Freed the Matchless General)
        self.pendulum_zones = END_PENDULUM_ZONES  # left, right (Duel sets them from the rules)
        self.has_pendulums = False  # owns a Pendulum card: Spells/Traps go to the middle zones first
        self.pendulum_turn = 0  # the turn of this player's last Pendulum Summon (R-SUMMON-14: once per turn)
        self.empty_hand_turn = 0  # the last turn at whose end this player had no cards in hand (The Agent of Wisdom - Mercury)
        self.first_attacker = (0, 0)  # (turn, uid) of the first monster of theirs that declared an attack in that turn (The Dark Door)
        self.second_battle_turn = 0  # the turn this player may conduct a second Battle Phase in, from Main Phase 2 (Weather Report)
        self.hand_limit: int | None = None  # a hand limit an effect set for the rest of the duel (Hieroglyph Lithograph)
        self.held_szones: dict[int, int] = {}  # Spell & Trap Zone → uid of the Trap Monster that keeps it taken (2005 rules)
        self.reroll = (0, False)  # (turn, still unused): a re-roll of a die gained for that turn (Dice Re-Roll)
        self.lp_paid: dict[int, int] = {}  # turn → the LP this player paid during it (Life Absorbing Machine)
        self.normal_summon_batches: list[int] = []  # the duel's batch (moment) of each of their Normal Summons/Sets (Narrow Pass)
        # Main Monster Zones an effect made unusable (R-ZONE-1: Ground Collapse, Ojama King, Dimensionhole): (zone, the
        # card that keeps it so, that card's moves then) — it holds while that card has not moved and is face-up
        self.zone_locks: list[tuple[int, CardInst, int]] = []
        self.placing = 0  # a card from the hand whose activation is being checked: it will take a place on the field too
        self.layout = 0  # changes whenever a card enters or leaves this player's piles or field (`Duel.per_layout`)
        self.memo: dict[object, object] = {None: 0}  # what `Duel.per_layout` keeps for them, and (key None) for which layout

    def monsters(self) -> list[CardInst]:
        """Monsters this player controls, in zone order (EMZs last)."""
        return [c for c in self.mzone if c is not None]

    def tribute_power(self) -> int:
        """How many Tributes this player's monsters make (R-SUMMON-2), before card effects such
        as Kaiser Sea Horse's (engine/continuous.tribute_value)."""
        return sum(1 for card in self.mzone if card is not None and not card.no_tribute)

    def spells_traps(self) -> list[CardInst]:
        return [c for c in self.szone if c is not None]

    def free_mzone(self, ignore: CardInst | None = None) -> int | None:
        """The leftmost free Main Monster Zone: empty and not made unusable by an effect (R-ZONE-1) — unless
        by `ignore`'s (the monster banished by Dimensionhole, returning to its zone)."""
        if not self.zone_locks:
            for i in range(5):
                if self.mzone[i] is None:
                    return i
            return None
        free = self.open_mzones(ignore)
        return free[0] if free else None

    def open_mzones(self, ignore: CardInst | None = None) -> list[int]:
        """Every free Main Monster Zone (`free_mzone`): no more than a cap lets this player place (Kaiser Colosseum)."""
        free = [i for i in range(5) if self.mzone[i] is None]
        if not self.zone_locks:
            return free
        locked, room = self._locks(ignore)
        return [i for i in free if i not in locked][:room]

    def room(self, leaving: int = 0) -> int:
        """How many more monsters this player may place once `leaving` of their monsters have left the field (a
        Tribute Summon's Tributes) — a cap's count only (Kaiser Colosseum); 5 without one."""
        if not self.zone_locks:
            return 5
        return self._locks(None, leaving)[1]

    def locked_mzones(self, ignore: CardInst | None = None) -> frozenset[int]:
        """The Main Monster Zones an effect makes unusable now."""
        return self._locks(ignore)[0] if self.zone_locks else frozenset()

    def _locks(self, ignore: CardInst | None, leaving: int = 0) -> tuple[frozenset[int], int]:
        """(the zones made unusable, how many more monsters this player may place — 5: no cap). A lock whose card
        has moved or turned face-down is forgotten for good; one whose card's effects are negated (Imperial Order)
        waits. A cap (zone -1: Kaiser Colosseum) lets this player control no more monsters than the card's controller,
        while that player controls any."""
        live = [lock for lock in self.zone_locks if lock[1].moves == lock[2] and lock[1].face_up]
        if len(live) != len(self.zone_locks):
            self.zone_locks = live
        locked: set[int] = set()
        room = 5
        for seq, holder, _ in live:
            if holder is ignore:
                continue
            if holder.loc.on_field:
                d = holder.duel
                if Player.negated(d, holder):
                    continue
                if seq <= FIELD_TOTAL:  # Spatial Collapse: N cards on this player's field in all
                    room = min(room, max(0, FIELD_TOTAL - seq - self.field_count() - self.placing + leaving))
                    continue
                if seq < 0:
                    allowed = sum(1 for c in d.players[holder.controller].mzone if c is not None)
                    if allowed and holder.controller != self.index:
                        room = min(room, max(0, allowed - sum(1 for c in self.mzone if c is not None) + leaving))
                    continue
            locked.add(seq)
        return frozenset(locked), room

    def field_count(self) -> int:
        """How many cards this player has on their field: monsters, Spell & Trap Zones, Field and Pendulum Zones."""
        return sum(1 for c in self.mzone if c is not None) + sum(1 for c in self.szone if c is not None)

    def field_full(self) -> bool:
        """Whether a cap on the cards of this player's field (Spatial Collapse) lets them place no more card."""
        for seq, holder, moves in self.zone_locks:
            if seq <= FIELD_TOTAL and holder.moves == moves and holder.face_up and holder.loc.on_field \
                    and not Player.negated(holder.duel, holder) and self.field_count() + self.placing >= FIELD_TOTAL - seq:
                return True
        return False

    def free_szone(self) -> int | None:
        """The zone a Spell or Trap goes to: the leftmost free one, or for a player with
        Pendulum cards the middle ones first so that the Pendulum Zones stay free — none while a cap on the cards of
        their field is reached (Spatial Collapse)."""
        if self.zone_locks and self.field_full():
            return None
        for i in (_MIDDLE_FIRST if self.has_pendulums and self.pendulum_zones == END_PENDULUM_ZONES else range(5)):
            if self.szone[i] is None and i not in self.held_szones:
                return i
        return None

    def free_pendulum_zones(self) -> list[int]:
        if self.zone_locks and self.field_full():
            return []
        return [i for i in self.pendulum_zones if self.szone[i] is None and i not in self.held_szones]

    def scales(self) -> tuple[CardInst, CardInst] | None:
        """The two Pendulum cards in this player's Pendulum Zones, left first, or None."""
        left, right = (self.szone[i] for i in self.pendulum_zones)
        if left is None or right is None or not (left.in_pendulum_zone and right.in_pendulum_zone):
            return None
        return left, right

    @property
    def field_spell(self) -> CardInst | None:
        return self.szone[FIELD_ZONE]

    def pile(self, name: str) -> list[CardInst]:
        cards: list[CardInst] = getattr(self, name)
        return cards
