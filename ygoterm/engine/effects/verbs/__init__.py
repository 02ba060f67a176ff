"""The verbs of the effect vocabulary by family, each registered in `effects/registry.py`.
A new verb goes into the family it belongs to (or a new module here) with docs in docs/cards.md
and its scenarios; importing this package registers them all."""

from ....schema import effects as fx
from ..registry import VERBS
from . import cards, chance, control, life, logic, monsters, moves, negation, summoning, turn  # noqa: F401

assert set(VERBS) == set(fx.OPS), f"verbs without a function: {sorted(set(fx.OPS) - set(VERBS))}"
