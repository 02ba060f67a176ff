"""The `Duel`: the decision protocol over the state (`protocol`), duels built from a scenario
position (`position`) and from a replay record (`replay`). Layer 6; `from ygoterm.engine.duel
import Duel` keeps working for external tools."""

from ..state.duel_state import DEFAULT_NAMES
from .protocol import Answer, Duel, forced

__all__ = ["DEFAULT_NAMES", "Answer", "Duel", "forced"]
