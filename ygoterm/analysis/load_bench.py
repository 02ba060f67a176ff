"""How fast a large card pool loads: cold (parse + validate) and warm (from the cache)."""

from __future__ import annotations

import os
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ..schema.cardpool import CardPool
from ..schema.vocab import ATTRIBUTES, MONSTER_TYPES

CARDS_PER_FILE = 1000


@dataclass
class LoadFigures:
    cards: int
    files: int
    megabytes: float
    cold_s: float
    warm_s: list[float]

    @property
    def warm_best(self) -> float:
        return min(self.warm_s)


def generate_pool(folder: Path, count: int, seed: int = 0) -> None:
    """Write `count` plausible cards (monsters, spells, traps) as YAML files into `folder`."""
    rng = random.Random(seed)
    for start in range(0, count, CARDS_PER_FILE):
        lines: list[str] = []
        for i in range(start, min(count, start + CARDS_PER_FILE)):
            passcode = 10_000_000 + i
            kind = rng.choices(("monster", "spell", "trap"), (6, 3, 2))[0]
            lines += [f"- id: {passcode}", f"  name: Generated Card {i}", f"  kind: {kind}"]
            if kind == "monster":
                lines += [f"  frame: {rng.choice(('normal', 'effect'))}", f"  attribute: {rng.choice(ATTRIBUTES[:6])}",
                          f"  type: {rng.choice(MONSTER_TYPES)}", f"  level: {rng.randint(1, 12)}",
                          f"  atk: {rng.randrange(0, 3100, 50)}", f"  def: {rng.randrange(0, 3100, 50)}"]
            else:
                sub = rng.choice(("normal", "continuous") if kind == "trap" else ("normal", "quick-play", "equip", "field"))
                lines.append(f"  subtype: {sub}")
            lines.append(f"  text: \"Generated card number {i}; it exists to measure loading speed.\"")
        (folder / f"pool-{start // CARDS_PER_FILE:03d}.yaml").write_text("\n".join(lines) + "\n")


def measure_load(count: int, warm_runs: int = 5) -> LoadFigures:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "cards"
        folder.mkdir()
        generate_pool(folder, count)
        old = os.environ.get("YGOTERM_CACHE")
        os.environ["YGOTERM_CACHE"] = str(Path(tmp) / "cache")
        try:
            size = sum(p.stat().st_size for p in folder.iterdir()) / 1e6
            t0 = time.perf_counter()
            pool = CardPool.load([folder])
            cold = time.perf_counter() - t0
            warm = []
            for _ in range(warm_runs):
                t0 = time.perf_counter()
                CardPool.load([folder])
                warm.append(time.perf_counter() - t0)
        finally:
            if old is None:
                os.environ.pop("YGOTERM_CACHE", None)
            else:
                os.environ["YGOTERM_CACHE"] = old
        return LoadFigures(len(pool), len(list(folder.iterdir())), size, cold, warm)
