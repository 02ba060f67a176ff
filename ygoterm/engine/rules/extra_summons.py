"""Synchro, Xyz and Link Summons (R-SUMMON-12/13/16) and the zones a monster from the Extra
Deck may enter (R-SUMMON-17/18, V-07/18 rulesets).

These are inherent Special Summons: no chain link, then the Summon's negation window. The
materials are the summoner's face-up monsters; which sets fit is decided by trying every set
(a player controls at most 7 monsters, so at most 127 sets).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any, Iterable

from ...schema.materials import MaterialGroup
from ..state.card import CardInst
from ..state.duel_state import DuelState
from ..core.decision import Kind, Option, Refusal, zone_of
from ..core.events import Note
from ..board.labels import card_options
from ..core.machine import Frame, Next
from ..effects.summons import group_ok, material_groups
from ..board.timing import open_main, summon_locked
from ..core.types import EMZ_LEFT, ExtraKind, Loc, Pos
from ..board import actions
from .windows import summon_with_negation_window

EMZS = (EMZ_LEFT, EMZ_LEFT + 1)
KINDS: tuple[ExtraKind, ...] = ("synchro", "xyz", "link")
_RULE = {"synchro": "R-SUMMON-12", "xyz": "R-SUMMON-13", "link": "R-SUMMON-16"}
# Link Arrows as (dx, dy) on a grid where Main Monster Zones are y=0, x=0..4 and the EMZs y=1, x=1 and 3
_ARROWS = {"top-left": (-1, 1), "top": (0, 1), "top-right": (1, 1), "left": (-1, 0), "right": (1, 0),
           "bottom-left": (-1, -1), "bottom": (0, -1), "bottom-right": (1, -1)}


def extra_kind(card: CardInst) -> ExtraKind | None:
    """'synchro', 'xyz' or 'link' for a monster Summoned by its own procedure from the Extra Deck."""
    if not card.is_monster:
        return None
    frames = card.monster.frames
    return next((k for k in KINDS if k in frames), None)


# ---------------------------------------------------------------------- zones


def linked_zones(d: DuelState, p: int, leaving: Iterable[CardInst] = ()) -> set[int]:
    """Main Monster Zones of `p` that `p`'s Link monsters point to (R-SUMMON-17)."""
    gone = set(leaving)
    out: set[int] = set()
    for seq, card in enumerate(d.players[p].mzone):
        if card is None or card in gone or not card.is_link:
            continue
        x, y = (seq, 0) if seq < 5 else (1 if seq == EMZ_LEFT else 3, 1)
        for arrow in card.monster.arrows:
            dx, dy = _ARROWS[arrow]
            if y + dy == 0 and 0 <= x + dx <= 4:
                out.add(x + dx)
    return out


def summon_zones(d: DuelState, p: int, card: CardInst, leaving: Iterable[CardInst] = ()) -> list[int]:
    """The zones `card` may enter when Summoned from the Extra Deck while `leaving` (its
    materials) leave the field (R-SUMMON-17/18; `ruleset` mr4: every Extra Deck monster goes to
    an EMZ or a linked zone; mr3: there are no EMZs)."""
    side = d.players[p]
    leaving = [c for c in leaving if c.loc == Loc.MZONE and c.controller == p]
    freed = {c.seq for c in leaving}
    main = sorted({*side.open_mzones(), *(i for i in freed if i < 5)})
    ruleset = d.rules.ruleset
    if ruleset == "mr3":
        return main
    if card.is_link or ruleset == "mr4" or (card.monster.is_pendulum and card.face_up):
        linked = linked_zones(d, p, leaving)
        main = [i for i in main if i in linked]
    in_emz = any(side.mzone[i] is not None and i not in freed for i in EMZS)  # R-SUMMON-18: only one
    emzs = [] if in_emz else [i for i in EMZS if i in freed or d.emz_free(i)]
    return main + emzs


def zone_label(seq: int) -> str:
    return f"M{seq + 1}" if seq < 5 else f"EMZ{seq - EMZ_LEFT + 1}"


# ---------------------------------------------------------------------- materials


def _assign(groups: tuple[MaterialGroup, ...], cards: list[CardInst]) -> bool:
    """Can `cards` be split over the material groups, each getting min..max of its kind?"""
    def go(i: int, left: list[CardInst]) -> bool:
        if i == len(groups):
            return not left
        group = groups[i]
        fits = [c for c in left if group_ok(c, group)]
        most = len(fits) if group.max is None else min(group.max, len(fits))
        for n in range(most, group.min - 1, -1):
            for picked in combinations(fits, n):
                if go(i + 1, [c for c in left if c not in picked]):
                    return True
        return False
    return go(0, cards)


def materials_fit(card: CardInst, kind: ExtraKind, cards: list[CardInst]) -> bool:
    """R-SUMMON-12/13/16 for one set of materials (groups parsed from the card's material line)."""
    materials = card.monster.materials
    if materials is None or not materials.groups or not cards:
        return False
    if any(not c.face_up or c.loc != Loc.MZONE for c in cards):
        return False
    if kind == "synchro":  # exactly the Synchro monster's Level, 1 Tuner
        if any(c.level <= 0 for c in cards) or sum(c.level for c in cards) != card.level:
            return False
    elif kind == "xyz":  # same Level, no Tokens
        if any(c.is_token or c.level <= 0 for c in cards):
            return False
    elif not _link_rating_fits(card.monster.link or 0, cards):
        return False
    return _assign(materials.groups, cards)


def _link_rating_fits(rating: int, cards: list[CardInst]) -> bool:
    """A Link monster used as material counts as 1 or as its Link Rating (R-SUMMON-16)."""
    totals = {0}
    for c in cards:
        steps = {1, c.monster.link or 1} if c.is_link else {1}
        totals = {t + s for t in totals for s in steps}
    return rating in totals


def fitting_sets(d: DuelState, p: int, card: CardInst, kind: ExtraKind) -> list[tuple[CardInst, ...]]:
    """Every set of `p`'s face-up monsters that fits `card`'s material line (zones aside)."""
    mine = [c for c in d.players[p].mzone if c is not None and c.face_up]
    return [s for n in range(1, len(mine) + 1) for s in combinations(mine, n) if materials_fit(card, kind, list(s))]


def material_sets(d: DuelState, p: int, card: CardInst, kind: ExtraKind) -> list[tuple[CardInst, ...]]:
    """The fitting sets that also leave `card` a zone to enter (R-SUMMON-17/18)."""
    return [s for s in fitting_sets(d, p, card, kind) if summon_zones(d, p, card, s)]


def extra_refusal(d: DuelState, p: int, card: CardInst) -> Refusal | None:
    """Why `p` cannot Synchro/Xyz/Link Summon `card` now (None if they can)."""
    kind = extra_kind(card)
    action = f"{(kind or 'special').title()} Summon"
    if kind is None or card.loc != Loc.EXTRA or card.owner != p:
        return Refusal(action, "R-SUMMON-17", "only a Synchro, Xyz or Link monster in your Extra Deck")
    refusal = open_main(d, p, action) or summon_locked(d, p, action)
    if refusal is not None:
        return refusal
    materials = card.monster.materials
    if materials is None or not materials.groups:
        return Refusal(action, "R-CARD-13", f"its materials ({materials.text if materials else 'none'}) are played by hand")
    fitting = fitting_sets(d, p, card, kind)
    if not fitting:
        return Refusal(action, _RULE[kind], f"you control no face-up monsters that fit its materials ({materials.text})")
    if not any(summon_zones(d, p, card, s) for s in fitting):
        return Refusal(action, "R-SUMMON-18", "no zone it could enter: an Extra Deck monster needs an Extra Monster Zone"
                                              " (you may use only one) or a zone your Link monster points to")
    return None


def extra_options(d: DuelState, p: int) -> list[Option]:
    """'synchro summon Stardust Dragon' … for the Extra Deck monsters `p` can Summon now."""
    out = []
    for card in d.players[p].extra:
        kind = extra_kind(card)
        if kind is not None and card.monster.materials is not None and card.monster.materials.groups \
                and material_sets(d, p, card, kind):
            out.append(Option(f"extra:{card.uid}", f"{kind} summon {card.name}", card.uid, verb=kind))
    return out


def extra_summon(d: DuelState, p: int, card: CardInst) -> "ExtraSummon":
    """Choose materials and a zone, send or attach the materials, then the Summon's negation window."""
    kind = extra_kind(card)
    assert kind is not None
    return ExtraSummon(p, card.uid, kind)


@dataclass
class ExtraSummon(Frame):
    p: int
    uid: int
    kind: ExtraKind
    chosen: tuple[CardInst, ...] = ()  # the materials
    zone: int = 0

    def start(self, d: DuelState, _: Any) -> Next:
        p, card, kind = self.p, d.cards[self.uid], self.kind
        fitting = fitting_sets(d, p, card, kind)
        candidates = [c for c in d.players[p].mzone if c is not None and any(c in s for s in fitting)]
        groups = material_groups(card.monster)
        lo = sum(g.min for g in groups)  # as the material line reads; selection_refusal refuses what does not fit
        hi = len(candidates) if any(g.max is None for g in groups) else sum(g.max or 0 for g in groups)
        sets = tuple(frozenset(f"card:{c.uid}" for c in s) for s in fitting if summon_zones(d, p, card, s))
        return self.ask("materials", d.ask(p, Kind.CARDS, card_options(d, candidates, p),
                                           f"Materials for {card.name} ({_material_text(card)})",
                                           lo=min(lo, len(candidates)), hi=min(hi, len(candidates)), verb="material", sets=sets,
                                           subject=card.uid))

    def selection_refusal(self, d: DuelState, options: tuple[Option, ...]) -> Refusal | None:
        """Why a set of materials outside the decision's `sets` is refused."""
        card, kind = d.cards[self.uid], self.kind
        action = f"{kind.title()} Summon"
        chosen = [d.card_of(o) for o in options]
        if not materials_fit(card, kind, chosen):
            return Refusal(action, _RULE[kind], f"those do not fit its materials ({_material_text(card)})")
        if not summon_zones(d, self.p, card, chosen):
            return Refusal(action, "R-SUMMON-18", "with those materials it would have no zone to enter")
        return None

    def materials(self, d: DuelState, answer: tuple[Option, ...]) -> Next:
        card = d.cards[self.uid]
        chosen = self.chosen = tuple(d.card_of(o) for o in answer)
        zones = summon_zones(d, self.p, card, chosen)
        self.zone = zones[0]
        if len(zones) > 1:
            return self.ask("zoned", d.ask(self.p, Kind.ZONE, [Option(f"zone:{z}", zone_label(z), zone=z) for z in zones],
                                           f"Which zone for {card.name}?", verb="zone", subject=card.uid))
        return self.position(d)

    def zoned(self, d: DuelState, answer: Option) -> Next:
        self.zone = zone_of(answer)
        return self.position(d)

    def position(self, d: DuelState) -> Next:
        if self.kind != "link":  # R-SUMMON-16: Link monsters are always in Attack Position
            prompt = f"{self.kind.title()} Summon {d.cards[self.uid].name} in which position?"
            return self.ask("positioned", d.ask(self.p, Kind.POSITION, (Option("attack", "attack"), Option("defense", "defense")),
                                                prompt, verb="position", subject=self.uid))
        return self.summon(d, Pos.ATTACK)

    def positioned(self, d: DuelState, answer: Option) -> Next:
        return self.summon(d, Pos.ATTACK if answer.key == "attack" else Pos.DEFENSE)

    def summon(self, d: DuelState, pos: Pos) -> Next:
        card, kind, chosen = d.cards[self.uid], self.kind, self.chosen
        d.batch += 1  # the materials leave and the monster arrives together
        if kind == "xyz":  # R-SUMMON-13: the materials stay with it, not in the GY
            for m in chosen:
                actions.move(d, m, Loc.MATERIAL, reason="Xyz Material", quiet=True)
            card.materials = list(chosen)
            d.emit(Note(f"{' and '.join(m.name for m in chosen)} become the Xyz Materials of {card.name}"))
        else:
            for m in chosen:
                actions.move(d, m, Loc.GY, reason=f"{kind.title()} Material")
        return self.then(d, "finish", summon_with_negation_window(d, self.p, card, self.zone, pos, kind, properly=True))


def _material_text(card: CardInst) -> str:
    materials = card.monster.materials
    return materials.text if materials is not None else ""
