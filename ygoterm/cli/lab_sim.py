"""`ygoterm odds --sim N`: openings played through the engine, on every core or on Ray."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.markup import escape

from .. import paths
from ..analysis.lab_sim import Openings, Side, schedule, summarize
from ..engine import Duel
from ..schema.cardpool import CardPool
from ..schema.decks import Deck, unscripted_cards
from ..schema.lab import Lab
from .common import UsageError, out
from .runner import run_with_progress


@dataclass
class SimResult:
    sides: dict[bool, Side]
    openings: int
    seed: int
    workers: str
    unscripted: list[str]

    def cells(self, name: str, hands: list[int]) -> list[str]:
        cells = []
        for hand in hands:
            side = self.sides.get(hand == 5)
            e = side.estimates.get(name) if side else None
            if e is None:
                cells.append("[dim]–[/]")
                continue
            low, high = e.interval
            cells.append(f"{e.rate * 100:6.2f}% [dim][{low * 100:.1f}–{high * 100:.1f}][/]")
        return cells

    def as_json(self) -> dict[str, Any]:
        return {"openings": self.openings, "seed": self.seed, "unscripted": self.unscripted,
                "sides": [{"label": "going first" if s.first else "going second", "openings": s.openings,
                           "mean_cards_reached": round(s.reached, 3),
                           "odds": [{"name": name, "hits": e.hits, "of": e.n, "rate": round(e.rate, 6),
                                     "interval": [round(x, 6) for x in e.interval]} for name, e in s.estimates.items()],
                           "used": {card: round(k / s.openings, 6) for card, k in s.used.most_common()}}
                          for s in self.sides.values()]}


def simulate(args: argparse.Namespace, pool: CardPool, path: Path, deck: Deck, lab: Lab, sizes: list[tuple[str, int]]) -> SimResult:
    if args.sim < 1:
        raise UsageError("--sim takes a number of openings of at least 1")
    if args.hand is not None:
        raise UsageError("--sim plays real openings (5 cards going first, 6 going second); leave out --hand")
    unscripted = unscripted_cards(deck, sections=("main",))
    try:
        Duel.new(pool, (deck, deck), 0)
    except Exception as e:  # (a deck the engine cannot start a duel with)
        raise UsageError(f"{path.name}: the engine cannot play this deck: {e}",
                         f"cards without scripts: {', '.join(unscripted)}" if unscripted else "check it with `ygoterm check`") from None
    sides = tuple(label == "going first" for label, _ in sizes)
    tasks = schedule(args.sim, args.seed, sides)
    extra = [Path(v).expanduser() for v in args.cards or []]
    job = Openings(paths.card_dirs([p for p in extra if p.is_dir()]), [p for p in extra if p.is_file()], path)
    results, where, _ = run_with_progress(job, tasks, "openings", args)
    return SimResult(summarize(lab, results), args.sim, args.seed, where, unscripted)


def print_usage(sim: SimResult) -> None:
    out.print(f"[bold]Played openings[/]: {sim.openings} per side through the engine (seed {sim.seed}, {sim.workers}); "
              "a combo counts the cards the turn reached: the hand, draws and searches")
    for side in sim.sides.values():
        label = "going first" if side.first else "going second"
        used = ", ".join(f"{escape(c)} {k / side.openings:.0%}" for c, k in side.used.most_common(12)) or "nothing"
        out.print(f"  {label}: {side.reached:.2f} cards reached on average; used: {used}")
    if sim.unscripted:
        out.print(f"  [dim]cards without scripts stay in the hand and count as they are: {escape(', '.join(sim.unscripted))}[/]")
