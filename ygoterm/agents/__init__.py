"""Things that answer the engine's decisions: random play, the greedy baseline, the AI.

Every agent answers `choose(observation, decision)`; an `Observation` (agents/observation.py)
holds only what its player may know. `make_agent("ai:hard", seed)` builds one from its name.
"""

from __future__ import annotations

import random

from .ai import LEVELS, AIAgent
from .greedy import GreedyAgent
from .observation import Agent, Answer, Observation, observe
from .random_agent import RandomAgent

AGENTS = ("random", "greedy", *(f"ai:{level}" for level in LEVELS))


def make_agent(spec: str, seed: int) -> Agent:
    """The agent a name says: random, greedy, ai (normal), ai:easy, ai:normal or ai:hard."""
    name, _, level = spec.partition(":")
    if name == "random" and not level:
        return RandomAgent(seed)
    if name == "greedy" and not level:
        return GreedyAgent(seed)
    if name == "ai" and (level or "normal") in LEVELS:
        return AIAgent(level or "normal", seed)
    raise ValueError(f"unknown agent {spec!r}: choose one of {', '.join(AGENTS)}")


def seat_seed(duel_seed: int) -> int:
    """The seed of an agent seated in a duel of this seed: the TUI and `scenario check` agree on
    it, so a puzzle's AI opponent plays the moves its solution was written against."""
    return random.Random(duel_seed).randrange(2**31)


__all__ = ["AGENTS", "AIAgent", "Agent", "Answer", "GreedyAgent", "Observation", "RandomAgent", "make_agent", "observe", "seat_seed"]
