"""Shared fixtures: an isolated user dir and cache, the card pool, deck builders, the CLI."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEST_CARDS = ROOT / "tests" / "cards"

# Keep tests away from the real user data and cache directories.
_SANDBOX = Path(os.environ.get("PYTEST_YGOTERM_SANDBOX", "/tmp")) / f"ygoterm-tests-{os.getpid()}"
os.environ["YGOTERM_HOME"] = str(_SANDBOX / "home")
os.environ["YGOTERM_CACHE"] = str(_SANDBOX / "cache")


@pytest.fixture(scope="session")
def pool():
    """The shipped cards plus the rules-test fixtures (Test Zero, TM-A …)."""
    from ygoterm import paths
    from ygoterm.schema.cardpool import CardPool

    return CardPool.load([*paths.card_dirs(), TEST_CARDS])


@pytest.fixture
def make_deck(pool):
    """make_deck(main={"Gemini Elf": 3, ...}, extra=..., side=...) → a resolved Deck."""
    from ygoterm.schema.decks import Deck

    def build(main=None, extra=None, side=None, name="test deck", filler="Giant Soldier of Stone", size=None):
        def cards(spec):
            out = []
            for ref, count in (spec or {}).items():
                card = pool.get(ref)
                assert card is not None, f"test uses unknown card {ref}"
                out.extend([card] * count)
            return out

        main_cards = cards(main)
        if size is not None:
            used = {pool.get(ref).deck_name for spec in (main, extra, side) for ref in (spec or {})}
            fillers = [c for c in pool if getattr(c, "frame", "") == "normal" and c.deck_name not in used]
            i = 0
            while len(main_cards) < size:
                main_cards.extend([fillers[i]] * min(3, size - len(main_cards)))
                i += 1
        return Deck(name, main_cards, cards(extra), cards(side))

    return build


@pytest.fixture
def cli(capsys):
    """Run `ygoterm ARGS…` in-process; returns (exit code, stdout, stderr)."""
    from ygoterm.cli import main

    def run(*args: str):
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


@pytest.fixture
def started(monkeypatch):
    """Stops `ygoterm duel|solo|open` before the TUI runs: `started["screen"]` is the screen it
    would open, `started["notes"]` what it would notify."""
    from ygoterm.cli import menu
    from ygoterm.tui.app import YgoApp

    seen: dict = {"notes": []}
    monkeypatch.setattr(YgoApp, "notify", lambda app, message, **kw: seen["notes"].append(message))

    def run(app):
        seen["app"], seen["screen"] = app, app.start(app)
        return 0

    monkeypatch.setattr(menu, "run_app", run)
    return seen


class FakeClock:
    """A match clock the test moves by hand (R-TIME)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def advance(self, minutes: float) -> None:
        self.now += minutes * 60
