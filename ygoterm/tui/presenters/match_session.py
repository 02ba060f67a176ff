"""A match as the TUI runs it: the seats, one `Session` per duel, the decisions between duels.

No Textual here (like session.py): the match screens ask `MatchRun` what to show and hand it the
answers. Every answer — in a duel or between duels — goes through `Match.apply`, so the match
sees each duel end and moves on; nothing here decides a rule. What the run adds is the seating:
which seats are people (hot-seat curtains, a Side Deck shown only to its owner) and which are
agents (an agent keeps its deck — R-MATCH-4's `done` — and picks first or second itself), the
autosave of the whole match, and the match clock of tournament mode put back on resume.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ...agents import make_agent
from ...engine import Decision, Event, Kind, Match, MatchClock, load_match
from ... import paths
from ...schema.cardpool import CardPool
from ...schema.decks import Deck
from ...schema.rules import Rules
from .session import Seat, Session, save_file_name

MATCH_FORMAT = "ygoterm-match"


@dataclass
class MatchSession(Session):
    """The session of one duel of a match: answers go through the match, and the autosave
    is the match's. Undo, restart and rematches are not part of a match."""

    run: Any = None  # the MatchRun this duel belongs to

    @property
    def match(self) -> Match:
        return self.run.match

    def _apply(self, answer: Any) -> list[Event]:
        return self.match.apply(answer)

    def _concede(self, player: int) -> list[Event]:
        return self.match.concede(player)

    def manual(self, player: int, action: Any) -> list[Event]:
        return self.match.manual(player, action)  # (the match sees a duel that a manual action ended)

    def undo(self) -> bool:
        return False

    def can_rematch(self) -> bool:
        return False

    def _rewind_after_bug(self, error: Any, mark: int, before: Any) -> Path | None:
        report = super()._rewind_after_bug(error, mark, before)
        match = self.match
        if match.duels and match.duels[-1] is not self.duel:  # the match plays on from the rewound duel
            match.duels[-1] = self.duel
            match.pending = self.duel.pending
        return report

    def back_out(self) -> str | None:
        """Esc out of an action still being chosen: the match plays on from the restored copy."""
        label = super().back_out()
        match = self.match
        if label is not None and match.duels and match.duels[-1] is not self.duel:
            match.duels[-1] = self.duel
            match.pending = self.duel.pending
            self.save_auto()
        return label

    def save(self, name: str) -> Path:
        return self.run.save(name)

    def save_auto(self) -> None:
        if self.run is not None:
            self.run.save_auto()
            self.autosave_error = self.run.autosave_error


@dataclass
class MatchRun:
    """A match being played in the TUI: the match, who sits where, and its saves."""

    match: Match
    pool: CardPool
    seats: tuple[Seat, Seat]  # name, kind ("human" or an agent: "ai:easy" …) and prompt mode of each seat
    hot_seat: bool = True  # two people share the screen: curtains, and a Side Deck is shown to its owner only
    save_dir: Path = field(default_factory=paths.saves_dir)  # where s saves the match under a name
    autosave: bool = True
    autosave_error: str = ""
    autosave_dir: Path = field(default_factory=paths.autosave_dir)
    autosave_file: Path | None = None  # the autosave this match keeps, held while it is played (as Session's)
    clock: Callable[[], float] = time.monotonic
    agents: dict[int, Any] = field(default_factory=dict)  # agents answering between duels
    table_asks: str = "events"  # hot-seat "Anyone responding?" (Session.table_asks, the Settings)

    def __post_init__(self) -> None:
        self.match.meta["seats"] = [seat.kind for seat in self.seats]
        self.match.meta["hot_seat"] = self.hot_seat

    @classmethod
    def new(cls, pool: CardPool, decks: tuple[Deck, Deck], seed: int, rules: Rules, seats: tuple[Seat, Seat], *,
            hot_seat: bool, tournament: bool = False, clock: Callable[[], float] = time.monotonic,
            autosave: bool = True) -> "MatchRun":
        match = Match.new(pool, decks, seed, rules, (seats[0].name, seats[1].name), tournament=tournament,
                          clock=clock if tournament else None)
        run = cls(match, pool, seats, hot_seat=hot_seat, clock=clock, autosave=autosave)
        run.save_auto()
        return run

    @classmethod
    def load(cls, path: Path, pool: CardPool, prompts: tuple[str, str] = ("always", "always"),
             clock: Callable[[], float] = time.monotonic, alone: str = "auto") -> "MatchRun":
        """A saved match played on with the seats it was saved with (people get this machine's
        prompt settings: `prompts` at a hot-seat table, `alone` otherwise); a tournament match's
        clock goes on from the time it had used.
        Raises DataError for a damaged or mismatched save (load_match)."""
        match = load_match(path, pool)
        kinds = match.meta.get("seats") or ["human", "human"]
        kinds = [k if isinstance(k, str) and (k == "human" or k.startswith("ai:")) else "human" for k in kinds[:2]]
        hot_seat = bool(match.meta.get("hot_seat", all(k == "human" for k in kinds)))
        seats = tuple(Seat(match.names[i], kinds[i], (prompts[i] if hot_seat else alone) if kinds[i] == "human" else "auto")
                      for i in (0, 1))
        if match.tournament and match.outcome is None:
            elapsed = match.meta.get("elapsed", 0.0)
            resume_clock(match, clock, float(elapsed) if isinstance(elapsed, (int, float)) else 0.0)
        return cls(match, pool, seats, hot_seat=hot_seat, clock=clock)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ a duel

    def duel_session(self) -> MatchSession:
        """The session of the duel being played (fresh agents: an agent's memory is per duel)."""
        seats = tuple(Seat(s.name, s.kind, s.prompt) for s in self.seats)
        session = MatchSession(self.match.duel, self.pool, seats, hot_seat=self.hot_seat,  # type: ignore[arg-type]
                               save_dir=self.save_dir, autosave=self.autosave, think_apart=True, run=self,
                               table_asks=self.table_asks)
        if not self.hot_seat:
            session.viewer = next((i for i, s in enumerate(seats) if s.kind == "human"), 0)
        session.run_agents()
        return session

    # ------------------------------------------------------------------ between duels

    @property
    def pending(self) -> Decision | None:
        return self.match.pending

    def person(self, player: int) -> bool:
        return self.seats[player].kind == "human"

    def run_agents_between(self) -> list[Event]:
        """Agents answer their decisions between duels: an agent keeps its deck (`done`) and
        chooses first or second as it likes. Stops at a person's decision or a new duel."""
        events: list[Event] = []
        m = self.match
        while m.stage == "between" and (d := m.pending) is not None and not self.person(d.player):
            if d.kind == Kind.SIDE:
                events += m.apply("done")
            else:
                agent = self.agents.get(d.player)
                if agent is None:
                    agent = self.agents[d.player] = make_agent(self.seats[d.player].kind, m.seed * 2 + d.player)
                events += m.apply(agent.choose(None, d))
        self.save_auto()
        return events

    def answer_between(self, answer: Any) -> list[Event]:
        """A person's answer between duels (a swap, reset, done, first or second); IllegalChoice
        (with the rule) when the engine refuses it."""
        events = self.match.apply(answer)
        events += self.run_agents_between()
        return events

    def side_curtain(self, player: int) -> bool:
        """A Side Deck is private: in hot-seat the curtain comes down before its owner's screen."""
        return self.hot_seat

    # ------------------------------------------------------------------ saves

    def _record_clock(self) -> None:
        clock = self.match.clock
        if clock is not None:
            self.match.meta["elapsed"] = round(clock.elapsed(), 1)

    def save(self, name: str) -> Path:
        """Save the match under `name` in the saves folder. Raises OSError."""
        self._record_clock()
        path = self.save_dir / save_file_name(name)
        self.match.record.save(path)
        return path

    def save_auto(self) -> None:
        """The autosave follows the match (not each duel); it goes when the match is over."""
        if not self.autosave:
            return
        path = self.autosave_file = paths.autosave_for(self.autosave_file, self.autosave_dir, "match")
        try:
            if self.match.outcome is not None:
                path.unlink(missing_ok=True)
                paths.release(path)
            else:
                self._record_clock()
                self.match.record.save(path)
            self.autosave_error = ""
        except OSError as e:
            self.autosave_error = f"the autosave to {path} failed: {e.strerror or e}"


def resume_clock(match: Match, clock: Callable[[], float], elapsed: float) -> None:
    """Give a reloaded tournament match (a replay has no clock) a running clock that has already
    used `elapsed` seconds; when time had been called, the clock stays stopped."""
    t = match.rules.time
    match.clock = MatchClock(clock, t.match_minutes * 60, t.turn_minutes * 60, t.break_minutes * 60)
    match.clock.started -= elapsed
    if match.time_called is not None:
        match.clock.stop()
    if match.stage == "between":
        match.clock.new_break()
    match.tick()


def is_match_save(path: Path) -> bool:
    """Whether a save file holds a match (format ygoterm-match) rather than a duel."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False  # (the duel loader says why it cannot be read)
    if b'"ygoterm-match"' not in head:
        return False  # (UTF-16 too: the duel loader says it is not UTF-8)
    try:
        return json.loads(Path(path).read_text(encoding="utf-8")).get("format") == MATCH_FORMAT
    except (OSError, ValueError, AttributeError, RecursionError):
        return True  # (a damaged match save: load_match says what is wrong with it)
