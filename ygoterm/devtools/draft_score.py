"""How good are the drafts of `ygoterm cards draft`? Measured on the cards already scripted by
hand (`python -m ygoterm.devtools.draft_score [--json]`).

For every shipped card of the top-level card files (cards/*.yaml, not cards/goat/) with
`effects:`, the drafter reads only its `text` (blind: it never sees the script). Then:

- untranslated: whether the draft left no phrase of the text untranslated;
- structure: whether the drafted effects have the hand-written ones' shape — the same effect
  kinds, and in each the same verbs (cost, then resolution, nested lists read in order; the
  `if_you_do`/`then` wrappers are structure, not verbs);
- scenarios: the card's own scenarios (files under tests/scenarios/ whose text names the card)
  run with the draft in place of the hand-written script. Only the scenarios that pass with the
  hand-written script count; a card passes when all of them pass with the draft. Cards with no
  such scenario are counted apart.

A pass with the draft is the honest figure: a draft that reads well but plays wrong fails.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .. import paths
from ..scenarios import PoolCache, run, scenario_files
from ..schema.cardpool import CardPool
from ..schema.cards import Card
from ..schema.draft import draft
from ..schema.effects import Effect, OpSpec
from ..schema.problems import DataError

SCENARIOS = Path(__file__).resolve().parents[2] / "tests" / "scenarios"


@dataclass
class Score:
    """One card's measurement."""

    name: str
    untranslated: int
    structure: bool
    scenarios: int = 0  # its scenarios that pass with the hand-written script
    passed: int = 0  # … and with the draft
    drafted: list[str] = field(default_factory=list)  # the drafted shape, for reading
    written: list[str] = field(default_factory=list)  # the hand-written shape

    @property
    def all_pass(self) -> bool:
        return self.scenarios > 0 and self.passed == self.scenarios


def _ops(ops: Iterable[OpSpec]) -> list[str]:
    """The verbs of a list of operations with the lists nested in them, in reading order."""
    names: list[str] = []
    for op in ops:
        if op.op not in ("if_you_do", "then"):
            names.append(op.op)
        for value in vars(op.params).values():
            if isinstance(value, list) and value and all(isinstance(v, OpSpec) for v in value):
                names += _ops(value)
    return names


def shape(effects: Iterable[Effect]) -> list[str]:
    """Each effect as "kind: verb verb …" (cost verbs first)."""
    return [f"{e.kind}: {' '.join(_ops([*e.cost, *e.do]))}".rstrip() for e in effects]


def measured_cards(pool: CardPool) -> list[Card]:
    """The cards scripted by hand in the top-level card files (not cards/goat/)."""
    shipped = paths.card_dirs()[0].resolve()
    return [c for c in pool if c.effects and Path(pool.origin[c.id][0]).resolve().parent == shipped]


class _Patched(PoolCache):
    """Every pool a scenario asks for, with one card's effects replaced."""

    def __init__(self, base: CardPool, card: Card, effects: tuple[Effect, ...]) -> None:
        super().__init__(base=_patch(base, card, effects))
        self.card, self.effects = card, effects

    def get(self, more: list[Path]) -> CardPool:
        pool = super().get(more)
        own = pool.get(self.card.id)
        return pool if own is None or own.effects == self.effects else self._keep(more, _patch(pool, self.card, self.effects))

    def _keep(self, more: list[Path], pool: CardPool) -> CardPool:
        self._pools[tuple(sorted(str(p.resolve()) for p in more))] = pool
        return pool


def _patch(pool: CardPool, card: Card, effects: tuple[Effect, ...]) -> CardPool:
    return pool.replaced(pool.by_id[card.id].model_copy(update={"effects": effects}))


def scenarios_of(name: str, files: dict[Path, str]) -> list[Path]:
    """The scenario files whose text names the card."""
    rx = re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])")
    return [path for path, text in files.items() if rx.search(text)]


def _passes(path: Path, pools: PoolCache) -> bool:
    try:
        return run(path, pools).passed
    except DataError:
        return False
    except Exception:  # a draft the engine cannot play fails its scenario, it does not stop the measurement
        return False


def score_card(card: Card, pool: CardPool, files: dict[Path, str], base: PoolCache) -> Score:
    drafted = draft(card.text, card.kind, getattr(card, "subtype", None), sorted(getattr(card, "frames", ())))
    effects = tuple(Effect.model_validate(e) for e in drafted.effects)
    score = Score(card.name, len(drafted.untranslated), shape(effects) == shape(card.effects), drafted=shape(effects),
                  written=shape(card.effects))
    mine = [p for p in scenarios_of(card.name, files) if _passes(p, base)]
    score.scenarios = len(mine)
    if mine:
        pools = _Patched(pool, card, effects)
        score.passed = sum(_passes(p, pools) for p in mine)
    return score


def measure(names: list[str] | None = None) -> list[Score]:
    pool = CardPool.load(paths.card_dirs())
    files = {p: p.read_text(encoding="utf-8") for p in scenario_files([SCENARIOS])}
    base = PoolCache(base=pool)
    cards = [c for c in measured_cards(pool) if not names or c.name in names]
    return [score_card(c, pool, files, base) for c in cards]


def summary(scores: list[Score]) -> dict[str, Any]:
    with_scenarios = [s for s in scores if s.scenarios]

    def share(part: int, whole: int) -> float:
        return round(part / whole, 3) if whole else 0.0

    return {
        "cards": len(scores),
        "no_untranslated": share(sum(s.untranslated == 0 for s in scores), len(scores)),
        "structure_equal": share(sum(s.structure for s in scores), len(scores)),
        "with_scenarios": len(with_scenarios),
        "without_scenarios": len(scores) - len(with_scenarios),
        "scenarios_pass": share(sum(s.all_pass for s in with_scenarios), len(with_scenarios)),
    }


def _table(scores: list[Score], verbose: bool) -> str:
    lines = [f"{'card':<40} {'untransl.':>9} {'struct':>6} {'scenarios':>10}"]
    for s in scores:
        runs = f"{s.passed}/{s.scenarios}" if s.scenarios else "-"
        lines.append(f"{s.name[:40]:<40} {s.untranslated:>9} {'yes' if s.structure else 'no':>6} {runs:>10}")
        if verbose and not s.structure:
            lines.append(f"    drafted: {s.drafted}\n    written: {s.written}")
    t = summary(scores)
    lines.append("")
    lines.append(f"{t['cards']} cards measured: {t['no_untranslated']:.1%} with no untranslated phrase, "
                 f"{t['structure_equal']:.1%} structurally equal to the hand-written script; "
                 f"{t['with_scenarios']} with scenarios, {t['scenarios_pass']:.1%} of them pass all with the draft "
                 f"({t['without_scenarios']} cards have no scenario)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ygoterm.devtools.draft_score", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures and every card's scores as JSON")
    parser.add_argument("-v", "--verbose", action="store_true", help="show the drafted and written shapes that differ")
    parser.add_argument("--card", action="append", metavar="NAME", help="measure only this card (repeatable)")
    args = parser.parse_args(argv)
    scores = measure(args.card)
    if args.json:
        print(json.dumps({"summary": summary(scores), "cards": [asdict(s) for s in scores]}, indent=2))
    else:
        print(_table(scores, args.verbose))
    return 0


if __name__ == "__main__":
    sys.exit(main())
