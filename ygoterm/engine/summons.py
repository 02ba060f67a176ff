"""Summons made by procedures and effects: inherent Special Summons (R-SUMMON-7), Fusion
(R-SUMMON-10) and Ritual (R-SUMMON-11) Summons."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generator

from ..schema import effects as fx
from ..schema.cards import Monster
from ..schema.materials import MaterialGroup
from .card import CardInst
from .decision import Decision, Kind, Option
from .events import Note
from .filters import matches
from .types import Loc, Pos

if TYPE_CHECKING:
    from .duel import Duel

Flow = Generator[Decision, Any, Any]


# ---------------------------------------------------------------------- Fusion


def _group_ok(card: CardInst, group: MaterialGroup) -> bool:
    data = card.data
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


def _slots(groups: tuple[MaterialGroup, ...]) -> list[MaterialGroup]:
    """Each group's minimum as single slots (Fusion materials here are fixed counts)."""
    return [g for g in groups for _ in range(g.min)]


def _fill(slots: list[MaterialGroup], pool: list[CardInst]) -> bool:
    """Can every slot take a different card of `pool`? (small backtracking search)"""
    if not slots:
        return True
    first, rest = slots[0], slots[1:]
    for i, card in enumerate(pool):
        if _group_ok(card, first) and _fill(rest, pool[:i] + pool[i + 1:]):
            return True
    return False


def _material_pool(d: "Duel", p: int, params: fx.FusionSummon, source: CardInst) -> list[CardInst]:
    side = d.players[p]
    pool: list[CardInst] = []
    if "hand" in params.materials_from:
        pool += [c for c in side.hand if c.is_monster and c is not source]
    if "field" in params.materials_from:
        pool += [c for c in side.mzone if c is not None]
    return pool


def fusion_choices(d: "Duel", p: int, params: fx.FusionSummon, source: CardInst) -> list[CardInst]:
    """Fusion monsters in `p`'s Extra Deck whose materials are available (R-SUMMON-10)."""
    pool = _material_pool(d, p, params, source)
    out = []
    for card in d.players[p].extra:
        data = card.data
        if not isinstance(data, Monster) or "fusion" not in data.frames or not data.materials or not data.materials.groups:
            continue
        if not matches(d, card, params.where, p, source):
            continue
        if _fill(_slots(data.materials.groups), pool):
            out.append(card)
    if d.players[p].free_mzone() is None and not any(c is not None for c in d.players[p].mzone):
        return []
    return out


def _choose_monster(d: "Duel", p: int, choices: list[CardInst], source: CardInst, kind: str) -> Flow:
    """Ask which Fusion/Ritual Monster to Summon (None, with a log line, if none can be)."""
    from .chain import _card_options

    if not choices:
        d.emit(Note(f"{source.name}: no {kind.title()} Monster can be {kind.title()} Summoned now"))
        return None
    answer = yield d.ask(p, Kind.CARDS, _card_options(d, choices, p), f"{kind.title()} Summon which monster?", verb=kind)
    return d.cards[answer[0].card]


def fusion_summon(d: "Duel", p: int, params: fx.FusionSummon, source: CardInst) -> Flow:
    from .chain import _card_options
    from .ops import special_summon

    fusion = yield from _choose_monster(d, p, fusion_choices(d, p, params, source), source, "fusion")
    if fusion is None:
        return
    slots = _slots(fusion.monster.materials.groups)  # type: ignore[union-attr]
    pool = _material_pool(d, p, params, source)
    materials: list[CardInst] = []
    for i, slot in enumerate(slots):
        rest = slots[i + 1:]
        candidates = [c for c in pool if c not in materials and _group_ok(c, slot)
                      and _fill(rest, [x for x in pool if x not in materials and x is not c])]
        chosen = yield d.ask(p, Kind.CARDS, _card_options(d, candidates, p), f"Fusion Material {i + 1} of {len(slots)} for {fusion.name}",
                             verb="material")
        materials.append(d.cards[chosen[0].card])
    for m in materials:  # R-SUMMON-10: the materials go to the GY, then the Fusion monster comes out
        d.move(m, Loc.GY, reason="Fusion Material")
    zone = d.players[p].free_mzone()
    if zone is None:
        return
    yield from special_summon(d, fusion, p, "choose", how="fusion", zone=zone)


# ---------------------------------------------------------------------- Ritual


def _ritual_pool(d: "Duel", p: int, params: fx.RitualSummon, ritual: CardInst) -> list[CardInst]:
    side = d.players[p]
    pool: list[CardInst] = []
    if "hand" in params.tribute_from:
        pool += [c for c in side.hand if c.is_monster and c is not ritual and c.level > 0]
    if "field" in params.tribute_from:
        pool += [c for c in side.mzone if c is not None and c.level > 0]
    return pool


def _reachable(levels: list[int], need: int, exact: bool) -> bool:
    sums = {0}
    for lv in levels:
        sums |= {s + lv for s in sums}
    return any(s == need or (not exact and s >= need) for s in sums if s)


def ritual_choices(d: "Duel", p: int, params: fx.RitualSummon, source: CardInst) -> list[CardInst]:
    out = []
    for card in d.players[p].hand:
        data = card.data
        if not isinstance(data, Monster) or "ritual" not in data.frames or not matches(d, card, params.where, p, source):
            continue
        if _reachable([c.level for c in _ritual_pool(d, p, params, card)], card.level, params.exact):
            out.append(card)
    return out


def ritual_summon(d: "Duel", p: int, params: fx.RitualSummon, source: CardInst) -> Flow:
    from .chain import _card_options
    from .ops import special_summon

    ritual = yield from _choose_monster(d, p, ritual_choices(d, p, params, source), source, "ritual")
    if ritual is None:
        return
    need = ritual.level
    pool = _ritual_pool(d, p, params, ritual)
    tributes: list[CardInst] = []
    total = 0
    while total < need or (params.exact and total != need):
        left = [c for c in pool if c not in tributes]
        candidates = [c for c in left if _reachable([c.level] + [x.level for x in left if x is not c], need - total, params.exact)
                      and (not params.exact or total + c.level <= need)]
        if not candidates:
            break
        chosen = yield d.ask(p, Kind.CARDS, _card_options(d, candidates, p),
                             f"Tribute for {ritual.name}: Levels so far {total} of {need}", verb="tribute")
        card = d.cards[chosen[0].card]
        tributes.append(card)
        total += card.level
    for t in tributes:  # R-SUMMON-11
        d.move(t, Loc.GY, reason="tribute")
    zone = d.players[p].free_mzone()
    if zone is None:
        return
    yield from special_summon(d, ritual, p, "choose", how="ritual", zone=zone)


# ---------------------------------------------------------------------- inherent Special Summons


def procedure_summon(d: "Duel", p: int, card: CardInst, index: int) -> Flow:
    """R-SUMMON-7: no chain link; pay the cost, place the monster, then the negation window."""
    from .ops import pay_unchained_cost

    if card.effects[index].cost:
        yield from pay_unchained_cost(d, p, card, index)
    zone = d.players[p].free_mzone()
    if zone is None:
        return
    answer = yield d.ask(p, Kind.POSITION, (Option("attack", "attack"), Option("defense", "defense")),
                         f"Special Summon {card.name} in which position?", verb="position")
    pos = Pos.ATTACK if answer.key == "attack" else Pos.DEFENSE
    from .flow import summon_with_negation_window

    yield from summon_with_negation_window(d, p, card, zone, pos, "special", properly=True)
