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
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..core.events import TimeProcedure

if TYPE_CHECKING:
    from ..duel.protocol import Duel

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
        """Its replay entry (engine/record.py)."""
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


def called(d: "Duel", limit: TimeLimit) -> None:
    """Narrate a limit just set."""
    if limit.kind == EXTRA_DUEL:
        text = f"Extra duel: {limit.last_turn} turns from 8000 LP, then the higher LP wins the match (R-TIME-6)"
    elif limit.extra:
        text = (f"Time is called: turn {limit.called_turn} is played to its end, then {limit.extra} extra "
                f"turn{'s' if limit.extra != 1 else ''}, starting with the opponent's (R-TIME-2)")
    else:
        text = f"Time is called: turn {limit.called_turn} is played to its end, then LP decide (R-TIME-3)"
    d.emit(TimeProcedure("called", d.turn, 0, limit.extra, text))


def turn_started(d: "Duel") -> None:
    """At the start of a turn: say which extra turn it is."""
    limit = d.time_limit
    if limit is None or limit.sudden_death:
        return
    n = limit.extra_turn(d.turn)
    if n:
        what = "Extra duel: turn" if limit.kind == EXTRA_DUEL else "Extra turn"
        rule = "R-TIME-6" if limit.kind == EXTRA_DUEL else "R-TIME-2"
        d.emit(TimeProcedure("extra_turn", d.turn, n, limit.extra, f"{what} {n} of {limit.extra}: {d.names[d.turn_player]} ({rule})"))


def turn_ended(d: "Duel") -> None:
    """After a turn: once the last turn is over, LP decide (R-TIME-3) or sudden death begins
    (R-TIME-4) — or, in a custom procedure, equal LP draw the duel."""
    limit = d.time_limit
    if limit is None or limit.sudden_death or d.turn < limit.last_turn:
        return
    a, b = d.players[0].lp, d.players[1].lp
    rule = "R-TIME-6" if limit.kind == EXTRA_DUEL else "R-TIME-3"
    after = f"after turn {d.turn}" if limit.kind == EXTRA_DUEL else f"after the {limit.extra} extra turns" if limit.extra else f"after turn {d.turn}"
    if a != b:
        winner = 0 if a > b else 1
        d.emit(TimeProcedure("judged", d.turn, 0, 0, f"LP {after}: {a} – {b} ({rule})"))
        d.decide(winner, "time", f"more LP {after}: {max(a, b)} vs {min(a, b)} ({rule})")
    if limit.equal_lp == "draw":
        d.emit(TimeProcedure("judged", d.turn, 0, 0, f"LP {after}: {a} – {b}, equal (V-25 custom: a draw)"))
        d.decide(None, "time", f"equal LP {after}: {a} each (custom time procedure)")
    d.time_limit = replace(limit, sudden_death=True)
    d.emit(TimeProcedure("sudden_death", d.turn, 0, 0,
                         f"LP {after}: {a} – {b}, equal: sudden death — the first LP change that leaves them unequal decides (R-TIME-4)"))


def lp_changed(d: "Duel") -> None:
    """R-TIME-4: in sudden death, an LP change that leaves the totals unequal ends the duel at
    once — LP compared at that moment, so a cost decides before its effect resolves."""
    a, b = d.players[0].lp, d.players[1].lp
    if a != b:
        d.decide(0 if a > b else 1, "time", f"sudden death: the first LP change left {max(a, b)} vs {min(a, b)} (R-TIME-4)")
