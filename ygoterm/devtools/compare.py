"""Old and new engine side by side (`ygoterm bench --against REV`).

This machine's speed drifts by ±30% over minutes, so two figures taken apart compare nothing.
The old revision is checked out in a temporary git worktree and both run the same `ygoterm
bench` command in alternating rounds (old, new, old, new …), each in a fresh process; the
ratio of the medians is the figure to report.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

_REPO = Path(__file__).resolve().parents[2]
_FIGURES = re.compile(r"([\d,.]+) duels/s · ([\d,.]+) decisions/s · ([\d,.]+) decisions per duel")


class CompareError(RuntimeError):
    """The old revision could not be checked out or benchmarked (the message says why)."""


@dataclass
class Run:
    duels_per_s: float
    decisions_per_duel: float


@dataclass
class Comparison:
    names: dict[str, str]
    old: list[Run] = field(default_factory=list)
    new: list[Run] = field(default_factory=list)

    def median(self, label: str) -> float:
        return statistics.median(r.duels_per_s for r in (self.old if label == "old" else self.new))

    @property
    def ratio(self) -> float:
        return self.median("new") / self.median("old")


def _git(*args: str) -> str:
    done = subprocess.run(["git", "-C", str(_REPO), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise CompareError(f"git {' '.join(args)}: {done.stderr.strip() or 'failed'}")
    return done.stdout.strip()


def _bench(code: Path, bench_args: list[str]) -> Run:
    env = {**os.environ, "PYTHONPATH": str(code)}
    done = subprocess.run([sys.executable, "-m", "ygoterm", "bench", *bench_args], capture_output=True, text=True, env=env, cwd=code)
    found = _FIGURES.search(done.stdout)
    if done.returncode != 0 or found is None:
        raise CompareError(f"the bench failed in {code}: {(done.stderr or done.stdout).strip()[-500:]}")
    return Run(float(found.group(1).replace(",", "")), float(found.group(3).replace(",", "")))


def compare_revisions(rev: str, bench_args: list[str], rounds: int, progress: Callable[[str], None] = lambda _: None) -> Comparison:
    """Bench git revision `rev` and this working tree in `rounds` alternating rounds."""
    if not (_REPO / ".git").exists():
        raise CompareError(f"{_REPO} is not a git checkout: --against needs the repository's history")
    commit = _git("rev-parse", "--short", rev)
    with tempfile.TemporaryDirectory(prefix="ygoterm-against-") as tmp:
        old = Path(tmp) / "old"
        _git("worktree", "add", "--detach", str(old), commit)
        try:
            result = Comparison({"old": commit, "new": "this tree"})
            for n in range(rounds):
                for label, code in (("old", old), ("new", _REPO)):
                    run = _bench(code, bench_args)
                    (result.old if label == "old" else result.new).append(run)
                    progress(f"  round {n + 1}: {label} {run.duels_per_s:.1f} duels/s")
            return result
        finally:
            _git("worktree", "remove", "--force", str(old))
