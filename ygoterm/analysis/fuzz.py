"""Random duels that check the engine's invariants after every choice (`ygoterm fuzz`).

Invariants: every card is in exactly one place and agrees with where it is; each player owns
as many cards as they started with; zones never overflow and the Extra Monster Zones are
shared correctly; LP are integers ≥ 0; every duel ends; the replay record reproduces the
final `state_hash()`.

With `copies` (`ygoterm fuzz --copies`), the duel is also copied and determinized at random
points: each copy must then play out exactly as the original for the same answers (same
`state_hash()` after every answer, same outcome and log), and each determinized world must
look the same to its viewer and play to its end with every invariant intact.
"""

from __future__ import annotations

import random
import traceback
from dataclasses import dataclass, field
from typing import Callable

from ..agents.random_agent import RandomAgent
from ..engine import EMZ_LEFT, N_MZONES, N_SZONES, Decision, Duel, Loc, replay
from ..schema.cardpool import CardPool
from ..schema.cards import FIXTURE_PASSCODES, Card
from ..schema.decks import Deck

_PILE_LOCS = {"deck": Loc.DECK, "hand": Loc.HAND, "gy": Loc.GY, "banished": Loc.BANISHED, "extra": Loc.EXTRA}
MAX_DECISIONS = 20_000
COPY_RATE = 0.05  # with --copies: the chance of copying and determinizing at a decision
MAX_FOLLOWERS = 3  # copies following the original at once


@dataclass
class Violation:
    duel: int
    seed: int
    choice: int
    message: str

    def __str__(self) -> str:
        return f"duel {self.duel} (seed {self.seed}), choice {self.choice}: {self.message}"


@dataclass
class FuzzReport:
    duels: int = 0
    decisions: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    violation: Violation | None = None
    copies: int = 0  # copies that followed their original to its end
    worlds: int = 0  # determinized worlds played out


def invariants(d: Duel, owned: tuple[int, int]) -> str | None:
    """The first broken invariant, or None."""
    seen: set[int] = set()
    counts = [0, 0]
    for p, side in enumerate(d.players):
        if not isinstance(side.lp, int) or side.lp < 0:
            return f"player {p + 1} has LP {side.lp!r}"
        if len(side.mzone) != N_MZONES or len(side.szone) != N_SZONES:
            return f"player {p + 1}'s zones overflowed"
        for name, loc in _PILE_LOCS.items():
            for card in side.pile(name):
                if card.uid in seen:
                    return f"{card!r} is in two places"
                seen.add(card.uid)
                # a hand may hold a card of the opponent's (Amazoness Chain Master), a Deck too (Parasite Paracide): its
                # holder is its controller
                held = loc in (Loc.HAND, Loc.DECK)
                if card.loc != loc or (card.controller if held else card.owner) != p:
                    return f"{card!r} is listed in player {p + 1}'s {name} but says {card.loc.name}, owner {card.owner + 1}, " \
                           f"controller {card.controller + 1}"
                if not held and card.controller != card.owner:
                    return f"{card!r} is in its owner's {name} but says controller {card.controller + 1}"
                counts[card.owner] += 1
        for zone_name, zone, loc in (("monster", side.mzone, Loc.MZONE), ("spell/trap", side.szone, Loc.SZONE)):
            for seq, placed in enumerate(zone):
                if placed is None:
                    continue
                if placed.uid in seen:
                    return f"{placed!r} is in two places"
                seen.add(placed.uid)
                if placed.loc != loc or placed.seq != seq or placed.controller != p:
                    return f"{placed!r} sits in player {p + 1}'s {zone_name} zone {seq} but says {placed.loc.name}:{placed.seq}"
                if not placed.is_token:
                    counts[placed.owner] += 1
                for material in placed.materials:
                    if material.uid in seen:
                        return f"material {material!r} is in two places"
                    seen.add(material.uid)
                    counts[material.owner] += 1
        if sum(1 for s in (EMZ_LEFT, EMZ_LEFT + 1) if side.mzone[s] is not None) > 1:
            return f"player {p + 1} occupies both Extra Monster Zones"
    for seq in (EMZ_LEFT, EMZ_LEFT + 1):
        if d.players[0].mzone[seq] is not None and d.players[1].mzone[seq] is not None:
            return f"both players occupy Extra Monster Zone {seq - 4}"
    if tuple(counts) != owned:
        return f"card counts changed: {owned} at the start, {tuple(counts)} now"
    return None


def unanswerable(decision: Decision) -> str | None:
    """Why no answer could satisfy `decision` (an offered action whose next question cannot be
    answered traps the player), or None."""
    n = len(decision.options)
    if not decision.multi:
        return None if n else f"'{decision.prompt}' offers no option"
    if decision.min > n:
        return f"'{decision.prompt}' asks for at least {decision.min} of {n} options"
    if decision.sets and not any(decision.min <= len(s) <= decision.max for s in decision.sets):
        return f"'{decision.prompt}' lists no legal combination of {decision.min} to {decision.max} options"
    return None


def _play_world(d: Duel, viewer: int, seed: int, owned: tuple[int, int]) -> str | None:
    """Determinize `d` for `viewer` and play the world to its end: what went wrong, or None."""
    world = d.determinize(viewer, seed)
    if world.view(viewer) != d.view(viewer):
        return f"a world determinized for player {viewer + 1} looks different to them"
    if owned_counts(world) != owned:
        return "a determinized world has other card counts"
    agent = RandomAgent(seed)
    for _ in range(MAX_DECISIONS):
        decision = world.pending
        if decision is None:
            return None
        stuck = unanswerable(decision)
        if stuck:
            return f"in a determinized world: {stuck}"
        world.apply(agent.choose(None, decision))
        problem = invariants(world, owned)
        if problem:
            return f"in a determinized world: {problem}"
    return f"a determinized world did not end within {MAX_DECISIONS} decisions"


def owned_counts(d: Duel) -> tuple[int, int]:
    counts = [0, 0]
    for card in d.cards.values():
        if not card.is_token:
            counts[card.owner] += 1
    return counts[0], counts[1]


def pool_decks(pool: CardPool, count: int, seed: int) -> list[Deck]:
    """`count` random 40-card decks (up to 15 Extra Deck monsters) of the pool's scripted cards,
    so that fuzzing reaches every card script, not only those in the shipped decks: the cards
    are dealt in a shuffled order, each once before any twice, so `covering(pool)` decks hold
    every one of them."""
    rng = random.Random(seed)
    main, extra = _scripted(pool)
    main_order, extra_order = rng.sample(main, len(main)), rng.sample(extra, len(extra))
    return [Deck(f"pool deck {n + 1}", _dealt(main_order, n, 40), _dealt(extra_order, n, 15)) for n in range(count)]


def covering(pool: CardPool) -> int:
    """How many `pool_decks` hold every scripted card at least once."""
    main, extra = _scripted(pool)
    return max(1, -(-len(main) // 40), -(-len(extra) // 15))


def _scripted(pool: CardPool) -> tuple[list[Card], list[Card]]:
    scripted = [c for c in pool if c.scripted and c.id not in FIXTURE_PASSCODES]
    main = [c for c in scripted if not (c.kind == "monster" and c.is_extra_deck)]
    return main, [c for c in scripted if c.kind == "monster" and c.is_extra_deck]


def _dealt(order: list[Card], n: int, size: int) -> list[Card]:
    """Deck n's `size` cards of the shuffled `order`, going round it."""
    if not order:
        return []
    size = min(size, len(order))
    return [order[(n * size + i) % len(order)] for i in range(size)]


def fuzz(pool: CardPool, decks: list[Deck], duels: int, seed: int, *, pick: Callable[[random.Random], tuple[Deck, Deck]] | None = None,
         progress: Callable[[int], None] | None = None, copies: bool = False) -> FuzzReport:
    """Play `duels` random duels; stop at the first violated invariant or exception."""
    rng = random.Random(seed)
    report = FuzzReport()
    for index in range(duels):
        pair = pick(rng) if pick else (rng.choice(decks), rng.choice(decks))
        duel_seed = rng.randrange(2**31)
        violation = _one_duel(pool, pair, duel_seed, index, report, copies)
        report.duels += 1
        if violation is not None:
            report.violation = violation
            break
        if progress:
            progress(index + 1)
    return report


def _one_duel(pool: CardPool, decks: tuple[Deck, Deck], seed: int, index: int, report: FuzzReport, copies: bool = False) -> Violation | None:
    choice = 0
    try:
        d = Duel.new(pool, decks, seed)
        owned = owned_counts(d)
        agents = (RandomAgent(seed), RandomAgent(seed + 1))
        chance = random.Random(f"copies:{seed}")
        followers: list[Duel] = []
        while (decision := d.pending) is not None:
            stuck = unanswerable(decision)
            if stuck:
                return Violation(index, seed, choice, stuck)
            if copies and chance.random() < COPY_RATE:
                if len(followers) < MAX_FOLLOWERS:
                    followers.append(d.copy())
                problem = _play_world(d, decision.player, chance.randrange(2**31), owned)
                if problem:
                    return Violation(index, seed, choice, problem)
                report.worlds += 1
            answer = agents[decision.player].choose(None, decision)
            d.apply(answer)
            choice += 1
            problem = invariants(d, owned)
            if problem:
                return Violation(index, seed, choice, problem)
            for f in followers:
                f.apply(answer)
                if f.state_hash() != d.state_hash():
                    return Violation(index, seed, choice, "a copy given the same answer reached a different state_hash()")
            if choice > MAX_DECISIONS:
                return Violation(index, seed, choice, f"the duel did not end within {MAX_DECISIONS} decisions")
        for f in followers:
            if f.outcome != d.outcome or f.log != d.log:
                return Violation(index, seed, choice, "a copy ended differently from its original")
        report.copies += len(followers)
        report.decisions += choice
        outcome = d.outcome
        assert outcome is not None
        if outcome.winner is None:
            report.draws += 1
        else:
            report.wins[outcome.winner] += 1
        report.reasons[outcome.reason] = report.reasons.get(outcome.reason, 0) + 1
        assert d.record is not None
        again = replay(d.record, pool)
        if again.state_hash() != d.state_hash():
            return Violation(index, seed, choice, "replaying the record gives a different state_hash()")
    except Exception as e:  # noqa: BLE001 - any exception is a finding
        where = traceback.extract_tb(e.__traceback__)[-1]
        return Violation(index, seed, choice, f"{type(e).__name__}: {e} (at {where.filename}:{where.lineno})")
    return None
