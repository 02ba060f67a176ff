"""An agent that picks uniformly among the legal answers, with its own seed (fuzzing, benchmarks)."""

from __future__ import annotations

import random
from ..engine import Decision, Kind
from .observation import Answer


class RandomAgent:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: object, decision: Decision) -> Answer:
        options = decision.options
        if decision.kind == Kind.ORDER:
            order = list(options)
            self.rng.shuffle(order)
            return order
        if decision.sets:  # only some combinations are legal (materials)
            keys = self.rng.choice(decision.sets)
            return [o for o in options if o.key in keys]
        if decision.multi:
            hi = min(decision.max, len(options))
            count = self.rng.randint(min(decision.min, hi), hi)
            return self.rng.sample(options, count)
        return options[int(self.rng.random() * len(options))]  # uniform; cheaper than randrange
