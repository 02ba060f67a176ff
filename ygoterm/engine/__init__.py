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
    ".duel.protocol": ("Duel", "Answer", "forced"),
    ".core.decision": ("Decision", "Kind", "Option", "Outcome", "Refusal", "IllegalChoice", "EndReason", "PromptMode",
                       "OptionVerb", "DecisionVerb"),
    ".core.errors": ("EffectError",),
    # what a player sees
    ".board.views": ("DuelView", "SideView", "CardView", "LinkView"),
    ".core.types": ("Loc", "Pos", "Phase", "Step", "Reason", "SummonKind", "EMZ_LEFT", "FIELD_ZONE", "PHASE_WORDS"),
    ".state.player": ("Player", "N_MZONES", "N_SZONES", "SEPARATE_PENDULUM_ZONES"),
    ".state.card": ("CardInst",),  # a card of a duel, as the duel's owner (a hot-seat table, a test) reads it
    # what happened
    ".core.events": ("Event", "ChainLinkAdded", "ChainResolves", "CoinToss", "Draw", "LifePoints", "Move", "Negated", "Note",
                "PhaseChange", "SetCard", "Shuffle", "Summon", "TimeProcedure", "TurnOrder", "TurnStart"),
    # manual actions (DESIGN.md §4)
    ".rules.manual": ("Manual",),
    # saves, replays, positions
    ".state.record": ("ReplayRecord", "load_record"),
    ".duel.replay": ("load_duel", "replay"),
    ".duel.position": ("SIDES", "build_position"),
    # matches
    ".match.match": ("Match", "DuelBegins", "DuelResult", "MatchEnd", "OrderChosen", "SideDone", "TimeCalled", "duel_seed"),
    ".match.score": ("Score",),
    ".match.clock": ("MatchClock",),
    ".match.replay": ("load_match",),
}
_MODULES = {"siding": ".match.siding"}  # modules exported whole (a namespace of functions)

_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted([*_WHERE, *_MODULES])


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is not None:
        loaded = import_module(module, __name__)
        for other in _EXPORTS[module]:  # (found once, with their neighbours)
            globals()[other] = getattr(loaded, other)
        return globals()[name]
    if name in _MODULES:
        value = globals()[name] = import_module(_MODULES[name], __name__)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:  # the same names for type checkers
    from .match import siding as siding
    from .match.clock import MatchClock as MatchClock
    from .core.decision import (Decision as Decision, DecisionVerb as DecisionVerb, EndReason as EndReason,
                                IllegalChoice as IllegalChoice, Kind as Kind, Option as Option, OptionVerb as OptionVerb,
                                Outcome as Outcome, PromptMode as PromptMode, Refusal as Refusal)
    from .duel.protocol import Answer as Answer, Duel as Duel, forced as forced
    from .core.errors import EffectError as EffectError
    from .core.events import (ChainLinkAdded as ChainLinkAdded, ChainResolves as ChainResolves, CoinToss as CoinToss,
                              Draw as Draw, Event as Event, LifePoints as LifePoints, Move as Move,
                              Negated as Negated, Note as Note, PhaseChange as PhaseChange, SetCard as SetCard,
                              Shuffle as Shuffle, Summon as Summon, TimeProcedure as TimeProcedure, TurnOrder as TurnOrder,
                              TurnStart as TurnStart)
    from .rules.manual import Manual as Manual
    from .match.match import (DuelBegins as DuelBegins, DuelResult as DuelResult, Match as Match,
                              MatchEnd as MatchEnd, OrderChosen as OrderChosen, SideDone as SideDone,
                              TimeCalled as TimeCalled, duel_seed as duel_seed)
    from .match.replay import load_match as load_match
    from .state.player import (N_MZONES as N_MZONES, N_SZONES as N_SZONES, SEPARATE_PENDULUM_ZONES as SEPARATE_PENDULUM_ZONES,
                               Player as Player)
    from .duel.position import SIDES as SIDES, build_position as build_position
    from .state.record import ReplayRecord as ReplayRecord, load_record as load_record
    from .duel.replay import load_duel as load_duel, replay as replay
    from .match.score import Score as Score
    from .core.types import (EMZ_LEFT as EMZ_LEFT, FIELD_ZONE as FIELD_ZONE, PHASE_WORDS as PHASE_WORDS, Loc as Loc,
                             Phase as Phase, Pos as Pos, Reason as Reason, Step as Step, SummonKind as SummonKind)
    from .board.views import CardView as CardView, DuelView as DuelView, LinkView as LinkView, SideView as SideView
    from .state.card import CardInst as CardInst
