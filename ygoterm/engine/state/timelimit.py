"""Tournament time inside a duel (R-TIME-2…4, R-TIME-6): the turns still to play, then LP.

When time is called, the current turn is played to its end and `extra` more turns follow,
starting with the opponent's (R-TIME-2); after the last one the higher LP wins the duel
(R-TIME-3). Equal LP mean sudden death: the first LP change that leaves the totals unequal
ends the duel, a cost's payment included (R-TIME-4). The extra duel of R-TIME-6 is the same
limit from turn 0: `turns` turns, then LP.

The engine never reads a clock: *when* time is called is an input (`Duel.call_time`, given by
the match from its injected clock) and is stored in the replay as a `!time:…` entry, so a
replay calls it at the same answer without any clock.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

EXTRA_TURNS, EXTRA_DUEL = "extra_turns", "extra_duel"
ENTRY = re.compile(r"!time:(extra_turns|extra_duel):(\d{1,6}):(\d{1,6}):(sudden_death|draw)")


@dataclass(frozen=True, slots=True)
class TimeLimit:
    """The duel ends after turn `last_turn` (by LP). `called_turn`: the turn being finished when
    time was called (0 for the extra duel). A value: a change makes a new one (copies share it)."""

    kind: str  # EXTRA_TURNS (R-TIME-2) or EXTRA_DUEL (R-TIME-6)
    called_turn: int
    last_turn: int
    equal_lp: str = "sudden_death"  # or "draw" (a custom procedure, V-25)
    sudden_death: bool = False

    @property
    def entry(self) -> str:
        """Its replay entry (engine/state/record.py)."""
        return f"!time:{self.kind}:{self.called_turn}:{self.last_turn}:{self.equal_lp}"

    @classmethod
    def from_entry(cls, entry: str) -> "TimeLimit":
        m = ENTRY.fullmatch(entry)
        if m is None:
            raise ValueError(f"not a time entry: {entry!r}")
        return cls(m[1], int(m[2]), int(m[3]), m[4])

    @property
    def extra(self) -> int:
        return self.last_turn - self.called_turn

    def extra_turn(self, turn: int) -> int:
        """Which of the extra turns `turn` is (1…extra), or 0 for one before them."""
        return turn - self.called_turn if self.called_turn < turn <= self.last_turn else 0
