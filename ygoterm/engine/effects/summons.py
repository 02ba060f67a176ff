"""Summons made by effects: Special Summons (R-SUMMON-6), Fusion (R-SUMMON-10) and Ritual
(R-SUMMON-11) Summons, each a frame (engine/core/machine.py). A card's own summoning procedure
(R-SUMMON-7) is the player's action, in engine/rules/flow.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ...schema import effects as fx
from ...schema.cards import Monster
from ...schema.materials import MaterialGroup
from ..state.card import CardInst
from ..state.duel_state import DuelState
from ..core.decision import Kind, Option
from ..core.events import Note, Summon
from ..board.filters import matches
from ..board.labels import card_options
from ..core.machine import DONE, Frame, Next
from ..core.types import Loc, Pos, Reason, SummonKind
from ..board import actions
from ..board.timing import summon_excluded, summon_forbidden
from ..board.hand_costs import pay_hand_play
from ..board.continuous import has_flag, monster_sets_forbidden, only_one_blockers, tributes_forbidden, summon_condition_holds, type_rivals, use_forbidden

# ---------------------------------------------------------------------- Fusion


def group_ok(card: CardInst, group: MaterialGroup) -> bool:
    """Whether `card` can be a material of `group`."""
    return _fits_group(card.data, group)


def _fits_group(data: Any, group: MaterialGroup) -> bool:
    """Whether definition `data` can be a material of `group`: a question about two
    definitions, so each pair is answered once."""
    key = (id(data), id(group))
    found = _GROUP_OK.get(key)
    if found is None or found[0] is not data or found[1] is not group:
        found = _GROUP_OK[key] = (data, group, _group_matches(data, group))
    return found[2]


_GROUP_OK: dict[tuple[int, int], tuple[Any, MaterialGroup, bool]] = {}


def _group_matches(data: Any, group: MaterialGroup) -> bool:
    if not isinstance(data, Monster):
        return False
    if group.name is not None and group.name.casefold() not in (data.name.casefold(), data.deck_name.casefold()):
        return False
    if group.level is not None and data.level != group.level:
        return False
    if group.attribute is not None and data.attribute != group.attribute:
        return False
    if group.type is not None and data.type != group.type:
        return False
    if group.tuner is not None and data.tuner != group.tuner:
        return False
    if group.frame is not None and group.frame not in data.frames:
        return False
    return True


def material_groups(monster: Monster) -> tuple[MaterialGroup, ...]:
    """The material groups of a Fusion/Synchro/Xyz/Link monster; only monsters whose material
    line was read into groups are offered a Summon (a text line alone plays by manual actions)."""
    assert monster.materials is not None and monster.materials.groups is not None, f"{monster.name}: no material groups"
    return monster.materials.groups


def _slots(groups: tuple[MaterialGroup, ...]) -> list[MaterialGroup]:
    """Each group's minimum as single slots (Fusion materials here are fixed counts)."""
    return [g for g in groups for _ in range(g.min)]


def _fill(slots: list[MaterialGroup], pool: list[Any], substitute: bool = True) -> bool:
    """Can every slot take a different definition of `pool`? (small backtracking search) While
    `substitute`, one fusion substitute (King of the Swamp) may take a slot that names a monster."""
    if not slots:
        return True
    first, rest = slots[0], slots[1:]
    for i, data in enumerate(pool):
        if _fits_group(data, first) and _fill(rest, pool[:i] + pool[i + 1:], substitute):
            return True
        if substitute and _substitutes(data, first) and _fill(rest, pool[:i] + pool[i + 1:], False):
            return True
    return False


def _substitutes(data: Any, group: MaterialGroup) -> bool:
    """Whether `data` is a fusion substitute that can take the place of `group`'s material: a
    material the Fusion names ("substitute this card for any 1 Fusion Material Monster")."""
    return group.name is not None and isinstance(data, Monster) and bool(data.fusion_substitute)


def _material_pool(d: DuelState, p: int, params: fx.FusionSummon, source: CardInst) -> list[CardInst]:
    side = d.players[p]
    pool: list[CardInst] = []
    if "hand" in params.materials_from:
        pool += [c for c in side.hand if c.is_monster and c is not source]
    if "field" in params.materials_from:
        pool += [c for c in side.mzone if c is not None]
    return pool


def fusion_choices(d: DuelState, p: int, params: fx.FusionSummon, source: CardInst) -> list[CardInst]:
    """Fusion monsters in `p`'s Extra Deck whose materials are available (R-SUMMON-10): which
    depends only on where the cards are, so it is worked out once per layout (Polymerization's
    activation check asks at every Main Phase decision)."""
    return d.per_layout(p, ("fusions", id(params), source.uid), _fusions, d, p, params, source)  # type: ignore[no-any-return]


def _fusions(d: DuelState, p: int, params: fx.FusionSummon, source: CardInst) -> list[CardInst]:
    side = d.players[p]
    if side.free_mzone() is None and not any(c is not None for c in side.mzone):
        return []  # no zone, and no monster on the field to use as material and free one
    pool = _material_pool(d, p, params, source)
    if params.with_self:  # (the Hex-Sealed Fusions: this card is one of them)
        if source not in pool:
            return []
        return [card for card in side.extra if isinstance(card.data, Monster) and "fusion" in card.data.frames
                and card.data.materials and card.data.materials.groups and matches(d, card, params.where, p, source)
                and _self_slot(card.data, source, pool) is not None]
    fits = _fits(tuple(sorted((c.data for c in pool), key=id)))
    # (a Fusion Monster that cannot be Special Summoned but by its own procedure is no choice: XYZ-Dragon Cannon)
    return [card for card in side.extra if isinstance(card.data, Monster) and "fusion" in card.data.frames
            and not card.data.no_special_summon and card.data.materials and card.data.materials.groups and matches(d, card, params.where, p, source)
            and _materials_fit(card.data, fits)]


def _self_slot(fusion: Monster, source: CardInst, pool: list[CardInst]) -> int | None:
    """The material slot of `fusion` that `source` can take while the rest of `pool` fills the others, if any (its
    own material first, as a substitute after)."""
    slots = _slots(material_groups(fusion))
    others = [c.data for c in pool if c is not source]
    for substitute in (False, True):
        for i, slot in enumerate(slots):
            rest = slots[:i] + slots[i + 1:]
            if substitute and _substitutes(source.data, slot) and _fill(rest, others, False):
                return i
            if not substitute and _fits_group(source.data, slot) and _fill(rest, others, True):
                return i
    return None


def _fits(pool: tuple[Any, ...]) -> "_Fits":
    """What definitions `pool` (sorted by id) can be the materials of: a question about
    definitions only, so each is answered once per pool (a hand changes far less often than
    the layout, and most layouts repeat a pool seen before)."""
    key = tuple(map(id, pool))
    found = _FITS.get(key)
    if found is None:
        if len(_FITS) > 20_000:
            _FITS.clear()  # (a bound for very long runs; answers are cheap to find again)
        found = _FITS[key] = _Fits(pool)  # (it holds the definitions: their ids stay theirs while it lives)
    return found


class _Fits:
    """One material pool and, per Fusion monster definition asked about, whether it fits."""

    __slots__ = ("pool", "answers")

    def __init__(self, pool: tuple[Any, ...]) -> None:
        self.pool = pool
        self.answers: dict[int, tuple[Monster, bool]] = {}


def _materials_fit(fusion: Monster, fits: _Fits) -> bool:
    """Whether the pool of `fits` can be `fusion`'s materials."""
    found = fits.answers.get(id(fusion))
    if found is None or found[0] is not fusion:
        found = fits.answers[id(fusion)] = (fusion, _fill(_slots(material_groups(fusion)), list(fits.pool)))
    return found[1]


_FITS: dict[tuple[int, ...], _Fits] = {}


class _MonsterSummon(Frame):
    """A Fusion or Ritual Summon: first, which monster to Summon."""

    def choose_monster(self, d: DuelState, p: int, choices: list[CardInst], source: CardInst, kind: Literal["fusion", "ritual"]) -> Next:
        """Ask which Fusion/Ritual Monster to Summon (the frame ends, with a log line, if none can be)."""
        if not choices:
            d.emit(Note(f"{source.name}: no {kind.title()} Monster can be {kind.title()} Summoned now"))
            return DONE
        return self.ask("chosen", d.ask(p, Kind.CARDS, card_options(d, choices, p), f"{kind.title()} Summon which monster?",
                                        verb=kind))

    def summon(self, d: DuelState, p: int, monster: CardInst, how: SummonKind) -> Next:
        zone = d.players[p].free_mzone()
        if zone is None:
            return DONE
        return self.then(d, "finish", special_summon(d, monster, p, "choose", how=how, zone=zone))


def fusion_summon(d: DuelState, p: int, params: fx.FusionSummon, source: CardInst, ctx: Any = None) -> "FusionSummon":
    return FusionSummon(p, params, source, ctx=ctx)


@dataclass
class FusionSummon(_MonsterSummon):
    p: int
    params: fx.FusionSummon
    source: CardInst
    fusion: CardInst | None = None
    slots: list[MaterialGroup] = field(default_factory=list)
    pool: list[CardInst] = field(default_factory=list)
    materials: list[CardInst] = field(default_factory=list)
    ctx: Any = None  # the effect's context (`tribute`: the Fusion monster becomes its `chosen`)

    def start(self, d: DuelState, _: Any) -> Next:
        return self.choose_monster(d, self.p, fusion_choices(d, self.p, self.params, self.source), self.source, "fusion")

    def chosen(self, d: DuelState, answer: tuple[Option, ...]) -> Next:
        fusion = self.fusion = d.card_of(answer[0])
        self.slots = _slots(material_groups(fusion.monster))
        self.pool = _material_pool(d, self.p, self.params, self.source)
        if self.params.with_self:  # this card takes its slot first (moved to the front), the player chooses the others
            i = _self_slot(fusion.monster, self.source, self.pool)
            assert i is not None
            self.slots.insert(0, self.slots.pop(i))
            self.materials.append(self.source)
        return self.material(d, None)

    def material(self, d: DuelState, _: Any) -> Next:
        p, fusion, slots, pool, materials = self.p, self.fusion, self.slots, self.pool, self.materials
        assert fusion is not None
        i = len(materials)
        if i < len(slots):
            slot, rest = slots[i], slots[i + 1:]
            free = not any(_substitutes(m.data, s) and not group_ok(m, s) for m, s in zip(materials, slots))  # no substitute used yet
            candidates = [c for c in pool if c not in materials and (
                group_ok(c, slot) and _fill(rest, [x.data for x in pool if x not in materials and x is not c], free)
                or free and _substitutes(c.data, slot) and _fill(rest, [x.data for x in pool if x not in materials and x is not c], False))]
            return self.ask("took", d.ask(p, Kind.CARDS, card_options(d, candidates, p),
                                          f"Fusion Material {i + 1} of {len(slots)} for {fusion.name}", verb="material",
                                          subject=fusion.uid))
        if self.params.tribute:  # Tributed (a cost), and the Fusion monster is what the effect chose
            for m in materials:
                actions.move(d, m, Loc.GY, reason=Reason.TRIBUTED_BY_EFFECT)
            if self.ctx is not None:
                self.ctx.chosen = [fusion]
            return DONE
        banished = self.params.materials_to == "banished"  # ("by banishing Fusion Materials": Fusion Gate)
        for m in materials:  # R-SUMMON-10: the materials go to the GY (or are banished), then the Fusion monster comes out
            actions.move(d, m, Loc.BANISHED if banished else Loc.GY, reason="Fusion Material")
            if m.loc == Loc.GY:
                m.fusion_material_at = m.moves  # (the filter fusion_material: Supply)
        fusion.fused_from = tuple((m.uid, m.moves) for m in materials)  # (the filter fusion_material_of: De-Fusion)
        return self.summon(d, p, fusion, "fusion")

    def took(self, d: DuelState, chosen: tuple[Option, ...]) -> Next:
        self.materials.append(d.card_of(chosen[0]))
        return self.material(d, None)


# ---------------------------------------------------------------------- Ritual


def _ritual_pool(d: DuelState, p: int, params: fx.RitualSummon, ritual: CardInst) -> list[CardInst]:
    side = d.players[p]
    pool: list[CardInst] = []
    if "locks_tributes" in d.index.flags and tributes_forbidden(d) is not None:
        return pool  # Mask of Restrict: no Ritual Summon, its Tributes are forbidden
    if "hand" in params.tribute_from:
        pool += [c for c in side.hand if c.is_monster and c is not ritual and c.level > 0]
    if "field" in params.tribute_from:
        pool += [c for c in side.mzone if c is not None and c.level > 0 and not has_flag(d, c, "cannot_be_tributed")]  # (Mind Control)
        pool += [c for c in d.players[1 - p].mzone if c is not None and c.level > 0
                 and has_flag(d, c, "tributable_by_opponent")]  # (Soul Exchange)
    return pool


def _reachable(levels: list[int], need: int, exact: bool) -> bool:
    sums = {0}
    for lv in levels:
        sums |= {s + lv for s in sums}
    return any(s == need or (not exact and s >= need) for s in sums if s)


def ritual_choices(d: DuelState, p: int, params: fx.RitualSummon, source: CardInst) -> list[CardInst]:
    out = []
    for card in d.players[p].hand:
        data = card.data
        if not isinstance(data, Monster) or "ritual" not in data.frames or not matches(d, card, params.where, p, source):
            continue
        # (the Levels needed are the Ritual Monster's printed Level: Cost Down in the hand does not change them — its TCG
        # ruling, Yugipedia "Card Rulings:Cost Down"; the Tributes count with their current Levels)
        if _reachable([c.level for c in _ritual_pool(d, p, params, card)], card.base_level, params.exact):
            out.append(card)
    return out


def ritual_summon(d: DuelState, p: int, params: fx.RitualSummon, source: CardInst) -> "RitualSummon":
    return RitualSummon(p, params, source)


@dataclass
class RitualSummon(_MonsterSummon):
    p: int
    params: fx.RitualSummon
    source: CardInst
    ritual: CardInst | None = None
    pool: list[CardInst] = field(default_factory=list)
    tributes: list[CardInst] = field(default_factory=list)
    total: int = 0  # the Levels Tributed so far

    def start(self, d: DuelState, _: Any) -> Next:
        return self.choose_monster(d, self.p, ritual_choices(d, self.p, self.params, self.source), self.source, "ritual")

    def chosen(self, d: DuelState, answer: tuple[Option, ...]) -> Next:
        ritual = self.ritual = d.card_of(answer[0])
        self.pool = _ritual_pool(d, self.p, self.params, ritual)
        return self.tribute(d, None)

    def tribute(self, d: DuelState, _: Any) -> Next:
        p, params, ritual, pool, tributes, total = self.p, self.params, self.ritual, self.pool, self.tributes, self.total
        assert ritual is not None
        need = ritual.base_level
        if total < need or (params.exact and total != need):
            left = [c for c in pool if c not in tributes]
            candidates = [c for c in left if _reachable([c.level] + [x.level for x in left if x is not c], need - total, params.exact)
                          and (not params.exact or total + c.level <= need)]
            if candidates:
                return self.ask("tributed", d.ask(p, Kind.CARDS, card_options(d, candidates, p),
                                                  f"Tribute for {ritual.name}: Levels so far {total} of {need}", verb="tribute",
                                                  subject=ritual.uid))
        for t in tributes:  # R-SUMMON-11
            actions.move(d, t, Loc.GY, reason=Reason.TRIBUTE, tributer=p)
        return self.summon(d, p, ritual, "ritual")

    def tributed(self, d: DuelState, chosen: tuple[Option, ...]) -> Next:
        card = d.card_of(chosen[0])
        self.tributes.append(card)
        self.total += card.level
        return self.tribute(d, None)


# ---------------------------------------------------------------------- Special Summons by effects


def special_summon(d: DuelState, card: CardInst, controller: int, position: str, how: SummonKind = "special", zone: int | None = None,
                   proper: bool = False, by: str = "", revive_paid: bool = False) -> "Frame | None":
    """R-SUMMON-6: face-up Attack or Defense at the summoner's choice unless specified. Done at
    once (None), or a frame that asks the position first (or the Tribute its `revive_tribute` wants)."""
    side = d.players[controller]
    if side.summon_lock_turn == d.turn:
        d.emit(Note(f"{card.name} cannot be Special Summoned: {d.names[controller]} cannot Summon monsters this turn (R-CARD-13)"))
        return None
    if card.monster.no_special_summon and not proper:  # (its own required Summon: Knight's Title for Dark Magician Knight)
        d.emit(Note(f"{card.name} cannot be Special Summoned (its own text, R-CARD-13)"))
        return None
    if card.monster.no_special_summon_from and {Loc.HAND: "hand", Loc.DECK: "deck", Loc.GY: "gy", Loc.BANISHED: "banished"}.get(card.loc) \
            in card.monster.no_special_summon_from:
        d.emit(Note(f"{card.name} cannot be Special Summoned from there (its own text, R-CARD-13)"))
        return None
    if (blocker := summon_forbidden(d, "special") or use_forbidden(d, card)) is not None:
        d.emit(Note(f"{card.name} cannot be Special Summoned: {blocker.name} forbids it (R-CARD-13)"))
        return None
    if (blocker := summon_excluded(d, controller, card)) is not None:  # (Jam Breeding Machine: only Slime Tokens)
        d.emit(Note(f"{card.name} cannot be Special Summoned: {blocker.name} forbids it (R-CARD-13)"))
        return None
    if not summon_condition_holds(d, card, controller):  # "Cannot be Summoned unless you control …" (the Guardians)
        d.emit(Note(f"{card.name} cannot be Special Summoned: its own summoning condition does not hold (R-CARD-13)"))
        return None
    if position != "facedown" and type_rivals(d, card, controller):
        d.emit(Note(f"{card.name} cannot be Special Summoned: each player can only have 1 Type of monster on the field (R-CARD-13)"))
        return None
    if only_one_blockers(d, card, controller, face_up=position != "facedown"):
        d.emit(Note(f"{card.name} cannot be Special Summoned: {d.names[controller]} can only control 1 (R-CARD-13)"))
        return None
    if card.monster.revive_tribute is not None and card.loc == Loc.GY and by != card.data.name and not revive_paid:
        # "If this card is Special Summoned from the Graveyard by another card's effect, you must Tribute 1 Dragon-Type
        # monster on your side of the field" (Tyrant Dragon as printed in 2005): no such monster, no Summon
        tributes = revive_tributes(d, card, controller)
        if not tributes:
            d.emit(Note(f"{card.name} cannot be Special Summoned: {d.names[controller]} has no monster to Tribute for it (R-CARD-13)"))
            return None
        return ReviveTribute(card, controller, position, how, zone, proper, by, tributes)
    if zone is None:
        zone = side.free_mzone()
    if zone is None:
        d.emit(Note(f"{card.name} cannot be Special Summoned: no free Monster Zone (R-ZONE-1)"))
        return None
    if card.loc == Loc.HAND and not pay_hand_play(d, card.controller, card):
        return None  # (Chain Energy: the player from whose hand it comes pays LP for it, or it stays there — a Ritual Summon too)
    pos = _POSITIONS.get(position)
    if card.is_link:  # R-SUMMON-16: always face-up Attack Position, so never asked
        if pos not in (None, Pos.ATTACK):
            d.emit(Note(f"{card.name} cannot be Special Summoned in {pos.title} Position: a Link monster is always in Attack Position (R-SUMMON-16)"))
            return None
        pos = Pos.ATTACK
    if pos is None:
        return SpecialSummonPosition(card, controller, zone, position, how, proper, by)
    _place_summoned(d, card, controller, zone, pos, how, proper, by)
    return None


_POSITIONS = {"attack": Pos.ATTACK, "defense": Pos.DEFENSE, "facedown": Pos.FACEDOWN_DEFENSE}


def revive_tributes(d: DuelState, card: CardInst, controller: int) -> list[CardInst]:
    """The monsters `controller` could Tribute to Special Summon `card` from the GY (its card key `revive_tribute`)."""
    wanted = card.monster.revive_tribute
    if "locks_tributes" in d.index.flags and tributes_forbidden(d) is not None:
        return []  # Mask of Restrict
    return [m for m in d.players[controller].monsters() if m is not card and wanted is not None
            and matches(d, m, wanted, controller, card)]


@dataclass
class ReviveTribute(Frame):
    """The summoner Tributes the monster a card's `revive_tribute` asks for, then Special Summons it (Tyrant Dragon)."""

    card: CardInst
    controller: int
    position: str
    how: SummonKind
    zone: int | None
    proper: bool
    by: str
    tributes: list[CardInst]

    def start(self, d: DuelState, _: Any) -> Next:
        return self.ask("tributed", d.ask(self.controller, Kind.CARDS, card_options(d, self.tributes, self.controller),
                                          f"Tribute 1 monster to Special Summon {self.card.name}", verb="tribute", subject=self.card.uid))

    def tributed(self, d: DuelState, chosen: tuple[Option, ...]) -> Next:
        actions.move(d, d.card_of(chosen[0]), Loc.GY, reason=Reason.TRIBUTE, tributer=self.controller)
        summoning = special_summon(d, self.card, self.controller, self.position, self.how, self.zone, self.proper, self.by,
                                   revive_paid=True)
        if summoning is None:
            return DONE
        return self.then(d, "placed", summoning)

    def placed(self, d: DuelState, _: Any) -> Next:
        return DONE


@dataclass
class SpecialSummonPosition(Frame):
    """The summoner chooses the position of a monster Special Summoned at their choice."""

    card: CardInst
    controller: int
    zone: int
    position: str  # "choose" or "attack_or_facedown"
    how: SummonKind
    proper: bool
    by: str = ""  # the name of the card whose effect Summons it

    def start(self, d: DuelState, _: Any) -> Next:
        options = [Option("attack", "attack"), Option("defense", "defense")]
        if self.position == "attack_or_facedown":
            options = [Option("attack", "attack"), Option("facedown", "set")]
        return self.ask("chosen", d.ask(self.controller, Kind.POSITION, options,
                                        f"Special Summon {self.card.name} in which position?", verb="position", subject=self.card.uid))

    def chosen(self, d: DuelState, answer: Option) -> Next:
        _place_summoned(d, self.card, self.controller, self.zone, _POSITIONS[answer.key], self.how, self.proper, self.by)
        return DONE


def _place_summoned(d: DuelState, card: CardInst, controller: int, zone: int, pos: Pos, how: SummonKind, proper: bool,
                    by: str = "") -> None:
    side = d.players[controller]
    src = card.loc
    if not pos.face_up and d.index.continuous_count and monster_sets_forbidden(d) is not None:
        pos = Pos.DEFENSE  # Light of Intervention: no monster is placed face-down
    actions.move(d, card, Loc.MZONE, seq=zone, face_up=pos.face_up, pos=pos, controller=controller, quiet=True)
    card.summoned_by = by  # "if this card was Special Summoned by the effect of …" (Ultimate Insect LV3)
    card.summon_kind = how if pos.face_up else ""
    card.summon_turn = d.turn
    if how != "special" or proper:
        card.properly_summoned = True  # R-SUMMON-9: Summoned by its own required method
    side.summoned_turn = d.turn
    d.emit(Summon(controller, card.uid, card.name if pos.face_up else None, how, pos, zone))
    if pos.face_up:
        d.signal("special_summoned", card, controller, how=how, src=src)
