"""Pendulum Summons (R-SUMMON-14/15/17/20) and where Pendulum monsters may go.

With a Pendulum card in each of their Pendulum Zones, once per turn in their Main Phase, a
player may Special Summon at the same time any number of monsters whose Levels lie strictly
between the two Scales: from the hand, and face-up Pendulum monsters from the Extra Deck. It is
an inherent Special Summon: no chain link, then the Summon's negation window (R-SUMMON-19), and
all the monsters make one Summon event (R-SUMMON-20).

Zones: monsters from the hand take free Main Monster Zones; monsters from the Extra Deck take an
Extra Monster Zone (one, R-SUMMON-18) or a zone a Link monster of the summoner points to
(R-SUMMON-17; under `ruleset: mr3` any Main Monster Zone). The engine places them itself —
Extra Deck monsters first, into the EMZ and then the linked zones, the others from the left —
so the player chooses only which monsters and their positions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from ..state.card import CardInst
from ..state.duel_state import DuelState
from ..core.decision import Kind, Option, Refusal
from ..board.labels import unique_labels
from ..core.machine import Frame, Next
from ..board.timing import open_main, summon_locked
from ..core.types import EMZ_LEFT, Loc, Pos
from .windows import summon_together

ACTION = "Pendulum Summon"
PENDULUM_SUMMON = Option("pendulum", "pendulum summon", verb="pendulum")
_MOST_CANDIDATES = 12  # the legal sets of up to 12 candidates are listed (4,095 at most)


def scale_range(d: DuelState, p: int) -> tuple[int, int] | None:
    """The Levels a Pendulum Summon of `p` may bring (exclusive bounds), or None without two scales."""
    scales = d.players[p].scales()
    if scales is None:
        return None
    a, b = (card.scale for card in scales)
    return min(a, b), max(a, b)


def _summonable(card: CardInst, lo: int, hi: int) -> bool:
    if not card.is_monster or card.monster.no_special_summon or "spirit" in card.abilities:
        return False
    if card.loc == Loc.HAND and card.monster.needs_proper_summon:
        return False  # a monster with its own Summon condition, or a Ritual monster (R-SUMMON-9)
    return card.monster.level is not None and lo < card.level < hi


def candidates(d: DuelState, p: int) -> tuple[list[CardInst], list[CardInst]]:
    """The monsters in `p`'s hand and face-up Pendulum monsters in `p`'s Extra Deck that fit the scales."""
    bounds = scale_range(d, p)
    if bounds is None:
        return [], []
    side = d.players[p]
    hand = [c for c in side.hand if _summonable(c, *bounds)]
    extra = [c for c in side.extra if c.face_up and c.is_pendulum and _summonable(c, *bounds)
             and (not c.monster.is_extra_deck or c.properly_summoned)]
    return hand, extra


def _room(d: DuelState, p: int) -> tuple[list[int], list[int], list[int]]:
    """Free Main Monster Zones, the free ones of them a Link monster points to, and the EMZ a
    Pendulum monster from the Extra Deck may take (at most one)."""
    from .extra_summons import linked_zones

    side = d.players[p]
    free = side.open_mzones()
    if d.rules.ruleset == "mr3":
        return free, free, []
    linked = [i for i in free if i in linked_zones(d, p)]
    emz = [] if d.uses_emz(p) else [i for i in (EMZ_LEFT, EMZ_LEFT + 1) if d.emz_free(i)][:1]
    return free, linked, emz


def placement(d: DuelState, p: int, cards: list[CardInst]) -> list[int] | None:
    """A zone for each card (in `cards` order), or None if they cannot all be Summoned together."""
    free, linked, emz = _room(d, p)
    zones: dict[int, int] = {}
    open_linked = list(linked)
    open_emz = list(emz)
    for card in cards:
        if card.loc != Loc.EXTRA:
            continue
        if open_emz:
            zones[card.uid] = open_emz.pop(0)
        elif open_linked:
            zones[card.uid] = open_linked.pop(0)
        else:
            return None
    taken = set(zones.values())
    rest = [i for i in free if i not in taken]
    for card in cards:
        if card.loc == Loc.EXTRA:
            continue
        if not rest:
            return None
        zones[card.uid] = rest.pop(0)
    return [zones[c.uid] for c in cards]


def refusal(d: DuelState, p: int) -> Refusal | None:
    """Why `p` cannot Pendulum Summon now (None if they can)."""
    found = open_main(d, p, ACTION) or summon_locked(d, p, ACTION)
    if found is not None:
        return found
    side = d.players[p]
    if side.pendulum_turn == d.turn:
        return Refusal(ACTION, "R-SUMMON-14", "you already Pendulum Summoned this turn")
    bounds = scale_range(d, p)
    if bounds is None:
        return Refusal(ACTION, "R-SUMMON-14", "you need a Pendulum card in each of your Pendulum Zones")
    hand, extra = candidates(d, p)
    if not hand and not extra:
        lo, hi = bounds
        return Refusal(ACTION, "R-SUMMON-14", f"no monster in your hand or face-up in your Extra Deck has a Level "
                                              f"between your Scales {lo} and {hi}")
    if not any(placement(d, p, [c]) for c in hand + extra):
        return Refusal(ACTION, "R-SUMMON-17", "no zone is free for them (from the Extra Deck: an Extra Monster Zone "
                                              "or a zone your Link monster points to)")
    return None


def option(d: DuelState, p: int) -> Option | None:
    return PENDULUM_SUMMON if refusal(d, p) is None else None


def summon(d: DuelState, p: int) -> "PendulumSummon":
    """Choose the monsters (only sets that fit the zones are accepted), their positions, then
    one Summon with its negation window."""
    return PendulumSummon(p)


@dataclass
class PendulumSummon(Frame):
    p: int
    chosen: list[CardInst] = field(default_factory=list)
    zones: list[int] = field(default_factory=list)  # … the zone of each (in order)
    placed: list[tuple[CardInst, int, Pos]] = field(default_factory=list)  # … those whose position is chosen

    def start(self, d: DuelState, _: Any) -> Next:
        p = self.p
        hand, extra = candidates(d, p)
        pool = (hand + extra)[:_MOST_CANDIDATES]
        fits = [s for n in range(1, len(pool) + 1) for s in combinations(pool, n) if placement(d, p, list(s)) is not None]
        most = max(len(s) for s in fits)
        bounds = scale_range(d, p)
        assert bounds is not None
        options = unique_labels(d, [Option(f"card:{c.uid}", c.name + (" (Extra Deck)" if c.loc == Loc.EXTRA else ""), c.uid)
                                    for c in pool])
        prompt = f"Pendulum Summon: monsters with Levels {bounds[0] + 1} to {bounds[1] - 1} (up to {most})"
        return self.ask("chosen_monsters", d.ask(p, Kind.CARDS, options, prompt, lo=1, hi=most, verb="pendulum",
                                                 sets=tuple(frozenset(f"card:{c.uid}" for c in s) for s in fits), rule="R-SUMMON-14"))

    def selection_refusal(self, d: DuelState, chosen: tuple[Option, ...]) -> Refusal | None:  # asked only for a set that does not fit
        return Refusal(ACTION, "R-SUMMON-17", "there are not enough zones for all of them (from the Extra Deck: an Extra "
                                              "Monster Zone or a zone your Link monster points to)")

    def chosen_monsters(self, d: DuelState, answer: tuple[Option, ...]) -> Next:
        self.chosen = [d.card_of(o) for o in answer]
        zones = placement(d, self.p, self.chosen)
        assert zones is not None
        self.zones = zones
        return self.position(d, None)

    def position(self, d: DuelState, _: Any) -> Next:
        if len(self.placed) < len(self.chosen):
            card = self.chosen[len(self.placed)]
            return self.ask("positioned", d.ask(self.p, Kind.POSITION, (Option("attack", "attack"), Option("defense", "defense")),
                                                f"Pendulum Summon {card.name} in which position?", verb="position", subject=card.uid))
        d.players[self.p].pendulum_turn = d.turn
        d.batch += 1
        return self.then(d, "finish", summon_together(d, self.p, self.placed, "pendulum", properly=True))

    def positioned(self, d: DuelState, position: Option) -> Next:
        i = len(self.placed)
        self.placed.append((self.chosen[i], self.zones[i], Pos.ATTACK if position.key == "attack" else Pos.DEFENSE))
        return self.position(d, None)
