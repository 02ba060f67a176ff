"""The match clock of tournament mode (R-TIME-1): an injected clock, read, never obeyed blindly.

`MatchClock` wraps a callable returning seconds (time.monotonic in the CLI, a fake one in tests).
It says when the match time is up and how long the current turn and break have lasted; the
warnings for a 3-minute turn or break are *data* in `ClockStatus` for a client to show, and
never a penalty (R-TIME-1). What happens when time is up is the match's business
(engine/match/match.py); the clock's readings are not part of the record, only the moment time was
called, so a replay needs no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class ClockStatus:
    """What a match clock shows now (the TUI's header)."""

    remaining: float | None  # seconds of match time left (0 once called); None: a replay, no clock
    called: bool  # time has been called (R-TIME-2/6/7)
    stage: str  # "running", "extra turns", "sudden death", "extra duel", "over" (or "untimed")
    extra_turn: int = 0  # which extra turn is being played (1…of), 0 otherwise
    of: int = 0  # how many extra turns (or turns of the extra duel)
    turn_seconds: float = 0.0  # how long the current turn has taken
    turn_warning: bool = False  # longer than the turn guideline (R-TIME-1: a notice, no penalty)
    break_seconds: float = 0.0  # how long the current break between duels has taken
    break_warning: bool = False  # longer than the break limit (R-TIME-1: a notice, no penalty)

    def text(self) -> str:
        """A one-line summary: "12:34 left", "time called: extra turn 2 of 3", "time called: sudden death"."""
        if self.stage == "untimed":
            return ""
        if self.stage in ("extra turns", "extra duel") and self.extra_turn:
            what = "extra turn" if self.stage == "extra turns" else "extra duel, turn"
            line = f"time called: {what} {self.extra_turn} of {self.of}"
        elif self.called:
            line = f"time called: {self.stage}"
        else:
            line = f"{_mmss(self.remaining or 0)} left"
        if self.turn_warning:
            line += f" · this turn {_mmss(self.turn_seconds)}"
        if self.break_warning:
            line += f" · break {_mmss(self.break_seconds)}"
        return line


class MatchClock:
    """Match time from an injected clock: `limit`, `turn_limit` and `break_limit` in seconds."""

    def __init__(self, clock: Clock, limit: float, turn_limit: float, break_limit: float) -> None:
        self.clock = clock
        self.limit = limit
        self.turn_limit = turn_limit
        self.break_limit = break_limit
        self.started = clock()
        self.turn_started: float | None = None
        self.break_started: float | None = None
        self.stopped: float | None = None  # when time was called or the match ended

    def now(self) -> float:
        return self.clock()

    def elapsed(self) -> float:
        return (self.stopped if self.stopped is not None else self.clock()) - self.started

    def expired(self) -> bool:
        return self.elapsed() >= self.limit

    def stop(self) -> None:
        if self.stopped is None:
            self.stopped = self.clock()

    def new_turn(self) -> None:
        self.turn_started, self.break_started = self.clock(), None

    def new_break(self) -> None:
        self.break_started, self.turn_started = self.clock(), None

    def readings(self) -> tuple[float, float, float]:
        """(remaining, this turn so far, this break so far), in seconds."""
        now = self.clock()
        remaining = max(0.0, self.limit - self.elapsed())
        turn = now - self.turn_started if self.turn_started is not None else 0.0
        pause = now - self.break_started if self.break_started is not None else 0.0
        return remaining, turn, pause


def _mmss(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"
