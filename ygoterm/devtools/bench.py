"""Random-vs-random duels, single-threaded, timed (`ygoterm bench`).

Duels/s on the same decks is the figure that compares engines; decisions/s depends on how
finely an engine splits its questions, so decisions per duel are reported beside it.
"""

from __future__ import annotations

import random
import resource
import time
from dataclasses import dataclass

from ..agents.random_agent import RandomAgent
from ..engine import Duel
from ..schema.cardpool import CardPool
from ..schema.decks import Deck


@dataclass
class BenchFigures:
    duels: int
    decisions: int
    seconds: float
    per_decision: list[float]
    peak_rss_mb: float

    @property
    def duels_per_s(self) -> float:
        return self.duels / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds

    @property
    def decisions_per_duel(self) -> float:
        return self.decisions / self.duels

    def percentile(self, q: float) -> float:
        ordered = sorted(self.per_decision)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench(pool: CardPool, decks: tuple[Deck, Deck], duels: int, seed: int, *, time_decisions: bool = True) -> BenchFigures:
    """Play `duels` duels (setup included in the time). Per-decision times cover choose + apply."""
    rng = random.Random(seed)
    decisions = 0
    per_decision: list[float] = []
    clock = time.perf_counter
    start = clock()
    for _ in range(duels):
        duel_seed = rng.randrange(2**31)
        d = Duel.new(pool, decks, duel_seed)
        agents = (RandomAgent(duel_seed), RandomAgent(duel_seed + 1))
        if time_decisions:
            while (decision := d.pending) is not None:
                t0 = clock()
                d.apply(agents[decision.player].choose(None, decision))
                per_decision.append(clock() - t0)
        else:
            while (decision := d.pending) is not None:
                d.apply(agents[decision.player].choose(None, decision))
                decisions += 1
    seconds = clock() - start
    decisions = decisions or len(per_decision)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return BenchFigures(duels, decisions, seconds, per_decision, peak)


@dataclass
class CopyFigures:
    """Latency of `Duel.copy()` and `Duel.determinize()` at a turn of random duels (seconds)."""

    turn: int
    copy: list[float]
    determinize: list[float]

    @staticmethod
    def quantile(samples: list[float], q: float) -> float:
        ordered = sorted(samples)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def copy_latency(pool: CardPool, decks: tuple[Deck, Deck], duels: int, seed: int, turns: tuple[int, ...] = (3, 8, 15),
                 repeats: int = 20) -> list[CopyFigures]:
    """Play random duels; at the first decision of each of `turns`, time `repeats` copies and
    determinizations (for the deciding player) of the duel as it stands."""
    rng = random.Random(seed)
    figures = {t: CopyFigures(t, [], []) for t in turns}
    clock = time.perf_counter
    for _ in range(duels):
        duel_seed = rng.randrange(2**31)
        d = Duel.new(pool, decks, duel_seed)
        agents = (RandomAgent(duel_seed), RandomAgent(duel_seed + 1))
        waiting = sorted(turns)
        while (decision := d.pending) is not None and waiting:
            if d.turn >= waiting[0]:
                f = figures[waiting.pop(0)]
                for i in range(repeats):
                    t0 = clock()
                    d.copy()
                    t1 = clock()
                    d.determinize(decision.player, i)
                    t2 = clock()
                    f.copy.append(t1 - t0)
                    f.determinize.append(t2 - t1)
            d.apply(agents[decision.player].choose(None, decision))
    return [figures[t] for t in turns]


@dataclass
class AIFigures:
    """CPU seconds and play-outs per searched decision of the AI (forced and trivial ones excluded)."""

    level: str
    seconds: list[float]
    playouts: list[int]

    def quantile(self, q: float) -> float:
        return CopyFigures.quantile(self.seconds, q)


def ai_latency(pool: CardPool, decks: tuple[Deck, Deck], level: str, duels: int, seed: int) -> AIFigures:
    """Play `duels` duels of `ai:level` (Player 1) against the greedy baseline and time every
    decision the AI searched. CPU time of this thread (`time.thread_time`): what the search costs,
    whatever else the machine runs (wall time on a busy machine is larger)."""
    from ..agents import GreedyAgent, observe
    from ..agents.ai import AIAgent

    rng = random.Random(seed)
    figures = AIFigures(level, [], [])
    for _ in range(duels):
        duel_seed = rng.randrange(2**31)
        d = Duel.new(pool, decks, duel_seed)
        ai = AIAgent(level, duel_seed)
        agents = (ai, GreedyAgent(duel_seed + 1))
        while (decision := d.pending) is not None:
            ai.last = None
            t0 = time.thread_time()
            answer = agents[decision.player].choose(observe(d, decision.player, pool), decision)
            if decision.player == 0 and ai.last is not None:
                figures.seconds.append(time.thread_time() - t0)
                figures.playouts.append(sum(visits for _, _, visits in ai.last.candidates))
            d.apply(answer)
    return figures
