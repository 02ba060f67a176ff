"""The rules engine's public API: what the TUI, the agents, the analysis tools, the CLI and the
scenario runner use (docs/architecture.md). Everything else in the package is internal and may
move; `tests/test_layering.py` checks that clients import only from here.

    from ygoterm.engine import Duel, Kind
    duel = Duel.new(pool, (deck_a, deck_b), seed=42)
    while (d := duel.pending) is not None:
        duel.apply(agent.choose(duel.view(d.player), d))

The names load lazily (PEP 562): importing one module of the engine for a type must not cost the
whole engine's import time, which the menu's cold start avoids (tests/test_cold_start.py).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

# where each public name lives: module (relative to this package) → names
_EXPORTS: dict[str, tuple[str, ...]] = {
    # the decision protocol
    ".duel": ("Duel", "Answer", "forced"),
    ".decision": ("Decision", "Kind", "Option", "Outcome", "Refusal", "IllegalChoice"),
    ".errors": ("EffectError",),
    # what a player sees
    ".views": ("DuelView", "SideView", "CardView"),
    ".types": ("Loc", "Pos", "Phase", "Step", "EMZ_LEFT", "FIELD_ZONE", "PHASE_WORDS"),
    ".player": ("N_MZONES", "N_SZONES", "SEPARATE_PENDULUM_ZONES"),
    # what happened
    ".events": ("Event", "ChainLinkAdded", "ChainResolves", "CoinToss", "Draw", "LifePoints", "Move", "Negated", "Note",
                "PhaseChange", "SetCard", "Summon", "TimeProcedure"),
    # manual actions (DESIGN.md §4)
    ".manual": ("Manual",),
    # saves, replays, positions
    ".record": ("ReplayRecord", "load_record"),
    ".replays": ("load_duel", "replay"),
    ".position": ("SIDES", "build_position"),
    # matches
    ".match": ("Match", "DuelBegins", "DuelResult", "MatchEnd", "OrderChosen", "SideDone", "TimeCalled", "duel_seed"),
    ".score": ("Score",),
    ".clock": ("MatchClock",),
    ".match_replay": ("load_match",),
}
_MODULES = (".siding",)  # modules exported whole (a namespace of functions)

_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted([*_WHERE, *(m[1:] for m in _MODULES)])


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is not None:
        loaded = import_module(module, __name__)
        for other in _EXPORTS[module]:  # (found once, with their neighbours)
            globals()[other] = getattr(loaded, other)
        return globals()[name]
    if f".{name}" in _MODULES:
        value = globals()[name] = import_module(f".{name}", __name__)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:  # the same names for type checkers
    from . import siding
    from .clock import MatchClock
    from .decision import Decision, IllegalChoice, Kind, Option, Outcome, Refusal
    from .duel import Answer, Duel, forced
    from .errors import EffectError
    from .events import (ChainLinkAdded, ChainResolves, CoinToss, Draw, Event, LifePoints, Move, Negated, Note,
                         PhaseChange, SetCard, Summon, TimeProcedure)
    from .manual import Manual
    from .match import DuelBegins, DuelResult, Match, MatchEnd, OrderChosen, SideDone, TimeCalled, duel_seed
    from .match_replay import load_match
    from .player import N_MZONES, N_SZONES, SEPARATE_PENDULUM_ZONES
    from .position import SIDES, build_position
    from .record import ReplayRecord, load_record
    from .replays import load_duel, replay
    from .score import Score
    from .types import EMZ_LEFT, FIELD_ZONE, PHASE_WORDS, Loc, Phase, Pos, Step
    from .views import CardView, DuelView, SideView
