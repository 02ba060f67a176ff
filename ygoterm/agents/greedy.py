"""The greedy baseline: a beginner's rules of thumb, honest like the AI (it reads only its
`Observation`). The yardstick the AI is measured against (`ygoterm arena`)."""

from __future__ import annotations

from ..engine import Decision
from .observation import Answer, Observation
from .policy import Heuristic


class GreedyAgent:
    """Summon the strongest monster, attack only what it beats, fire a Trap at an attack or a
    Summon, remove the biggest threat, draw and search whenever it can."""

    def __init__(self, seed: int = 0) -> None:
        self.policy = Heuristic(seed, careful=False)

    def choose(self, obs: Observation | None, decision: Decision) -> Answer:
        return self.policy.choose(obs, decision)
