"""Fitting the AI's evaluation to who wins (`python -m ygoterm.devtools.fit_evaluation`).

`agents.evaluate` adds up a position's terms with hand-set weights. Which of them matter how much
— board, hand, Set cards, life points — is a question of fact: in duels played by the rules of
thumb the play-outs use (`ai:easy` against itself, every pair of shipped decks), record each turn
start's terms and whether the turn player went on to win, and fit a logistic regression of the
win on the groups of terms (life points, monsters, hand, Spells & Traps, an open lethal attack).
The groups keep the hand-set weights inside them and get one multiplier each: a fit term by term
learns symptoms (a monster in Defense Position "loses" because the rules of thumb turn losing
monsters to defense), a group multiplier only how much each kind of advantage is worth. The
decks' strength is fitted too, as indicators that the evaluation drops: the Pendulum deck wins
most duels, and without them its face-up Scales would look like a winning term.

The result is printed as the `WEIGHTS` line of `agents/evaluate.py`, scaled so that 1000 LP above
2000 stays worth 1.2 (the search's `MARGIN` keeps its meaning). The fit multiplies the weights
as they are, so a run on today's weights printing multipliers near 1 says they are still
calibrated — rerun it after changing the rules of thumb or the shipped decks. Duels run as the
arena's do (every local core, the same rows whatever the number of workers).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .. import paths
from ..agents.evaluate import WEIGHTS, features
from ..agents.observation import observe
from ..agents.policy import Heuristic
from ..engine import Duel, Kind
from ..schema.cardpool import CardPool
from ..schema.decks import Deck, load_deck
from ..schema.problems import DataError
from ..analysis.arena import MAX_DECISIONS, default_workers, run

# the evaluation's terms (agents.evaluate._terms) in groups that get one multiplier each
GROUPS = {"life points": (0, 1), "monsters": (2, 3, 4, 5), "hand": (6,), "spells & traps": (7, 8, 9),
          "open lethal": (11,)}
RIDGE = 1.0  # a weak prior towards 0 on every coefficient (keeps rare terms finite)


@dataclass(frozen=True)
class Position:
    terms: tuple[float, ...]  # agents.evaluate.features for the turn player
    won: bool  # the turn player won the duel
    deck: int  # the turn player's deck (index into the run's decks)
    other: int  # the opponent's


@dataclass(frozen=True)
class SelfPlay:
    """One duel of `ai:easy` against itself; its positions at every turn start."""

    card_dirs: list[Path]
    deck_files: list[Path]

    def start(self) -> tuple[CardPool, list[Deck]]:
        pool = CardPool.load(self.card_dirs)
        return pool, [load_deck(path, pool)[0] for path in self.deck_files]

    def play(self, context: tuple[CardPool, list[Deck]], task: tuple[int, int, int]) -> list[Position]:
        pool, decks = context
        seed, a, b = task
        duel = Duel.new(pool, (decks[a], decks[b]), seed)
        agents = (Heuristic(seed, careful=True), Heuristic(seed + 1, careful=True))
        seen: list[tuple[int, tuple[float, ...]]] = []
        turn = decisions = 0
        while (decision := duel.pending) is not None and decisions < MAX_DECISIONS:
            if duel.turn != turn and duel.turn >= 2:
                turn = duel.turn
                seen.append((duel.turn_player, tuple(features(duel, duel.turn_player))))
            if decision.kind == Kind.FIRST:
                duel.apply("first")
            else:
                duel.apply(agents[decision.player].choose(observe(duel, decision.player, pool), decision))
            decisions += 1
        outcome = duel.outcome
        if outcome is None or outcome.winner is None:
            return []  # (a draw says nothing about who was ahead)
        return [Position(terms, outcome.winner == p, a if p == 0 else b, b if p == 0 else a) for p, terms in seen]


def schedule(duels: int, seed: int, decks: int) -> list[tuple[int, int, int]]:
    """Each duel's seed and decks (every pair, mirrors too, at random)."""
    rng = random.Random(f"fit-evaluation:{seed}")
    return [(rng.randrange(2**31), rng.randrange(decks), rng.randrange(decks)) for _ in range(duels)]


def row(position: Position, decks: int) -> list[float]:
    """The regression's inputs: a constant (the turn player's edge), deck indicators (own minus
    the opponent's, deck 0 the reference) and the evaluation's groups with their weights."""
    indicators = [float(position.deck == i) - float(position.other == i) for i in range(1, decks)]
    grouped = [sum(WEIGHTS[i] * position.terms[i] for i in idx) for idx in GROUPS.values()]
    return [1.0, *indicators, *grouped]


def _as_one(x: list[float], decks: int) -> list[float]:
    """A row with the groups added up: the evaluation as it is, one coefficient for its scale."""
    return [*x[:decks], sum(x[decks:])]


def logistic_fit(xs: Sequence[Sequence[float]], ys: Sequence[bool], iterations: int = 25) -> list[float]:
    """Maximum-likelihood logistic regression by Newton's method, with a ridge of RIDGE."""
    k = len(xs[0])
    w = [0.0] * k
    for _ in range(iterations):
        grad = [-RIDGE * v for v in w]
        hess = [[RIDGE * (i == j) for j in range(k)] for i in range(k)]
        for x, y in zip(xs, ys):
            p = _chance(w, x)
            for i in range(k):
                grad[i] += (y - p) * x[i]
                s = p * (1 - p) * x[i]
                for j in range(i, k):
                    hess[i][j] += s * x[j]
        for i in range(k):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step)]
        if max(abs(v) for v in step) < 1e-9:
            break
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems are a dozen unknowns)."""
    n = len(b)
    m = [row[:] + [v] for row, v in zip(a, b)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def log_likelihood(xs: Sequence[Sequence[float]], ys: Sequence[bool], w: Sequence[float]) -> float:
    """Mean log-likelihood per position (higher: better predictions)."""
    total = 0.0
    for x, y in zip(xs, ys):
        p = _chance(w, x)
        total += math.log(p if y else 1 - p)
    return total / len(xs)


def _chance(w: Sequence[float], x: Sequence[float]) -> float:
    """The model's probability of a win for inputs `x` (the logit clipped: no overflow)."""
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x))))))


def fitted_weights(multipliers: Sequence[float]) -> tuple[float, ...]:
    """`WEIGHTS` with each group's multiplier applied, scaled so that the life points keep theirs."""
    scale = 1 / multipliers[0]
    out = list(WEIGHTS)
    for m, idx in zip(multipliers, GROUPS.values()):
        for i in idx:
            out[i] = round(WEIGHTS[i] * m * scale, 2)
    return tuple(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ygoterm.devtools.fit_evaluation", description=__doc__.split("\n\n")[0])
    parser.add_argument("--duels", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--cards", type=Path, default=paths.shipped("cards"), help="card folder (default: the shipped cards)")
    parser.add_argument("--decks", type=Path, default=paths.shipped("decks"), help="deck folder (default: the shipped decks)")
    args = parser.parse_args(argv)
    deck_files = sorted(args.decks.glob("*.yaml"))
    job = SelfPlay([args.cards], deck_files)
    try:
        job.start()  # (here first: a bad file is a message, not a broken worker pool)
    except DataError as e:
        print(e, file=sys.stderr)
        return 2
    if len(deck_files) < 2:
        print(f"{args.decks}: the fit needs at least two decks (*.yaml)", file=sys.stderr)
        return 2
    duels = run(job, schedule(args.duels, args.seed, len(deck_files)), args.workers)
    held_out = [p for rows in duels[: len(duels) // 5] for p in rows]  # (the first fifth of the duels checks the fit)
    train = [p for rows in duels[len(duels) // 5:] for p in rows]
    xs, ys = [row(p, len(deck_files)) for p in train], [p.won for p in train]
    w = logistic_fit(xs, ys)
    groups = w[len(deck_files):]
    hx, hy = [row(p, len(deck_files)) for p in held_out], [p.won for p in held_out]
    now = logistic_fit([_as_one(x, len(deck_files)) for x in xs], ys)  # today's weights, only their scale fitted
    print(f"{len(held_out) + len(train)} positions from {args.duels} duels of ai:easy against itself ({len(train)} to fit)")
    for name, m in zip(GROUPS, groups):
        print(f"  {name:15} × {m / groups[0]:.2f}")
    print(f"held-out log-likelihood per position: today's weights {log_likelihood([_as_one(x, len(deck_files)) for x in hx], hy, now):.4f}, "
          f"fitted {log_likelihood(hx, hy, w):.4f}")
    print("WEIGHTS =", fitted_weights(groups))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
