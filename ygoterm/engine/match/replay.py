"""Rebuilding a match from its save (engine/match/record.py): the same answers, no clock.

The match is started again from the registered decks and the match seed; each duel's recorded
answers are fed to it (as a duel replay feeds them, engine/duel/replay.py), then the answers between
duels, then the next duel's — and time is called where the record says. Every duel the match
starts must be the one saved (seed, decks after the recorded side changes, who went first) and
end as the save says, or the save is refused as mismatched.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ...schema.problems import DataError, Problem
from ..core.decision import IllegalChoice
from .match import Match
from .record import MatchRecord, load_match_record
from ..duel.replay import feed
from ..state.timelimit import EXTRA_TURNS, TimeLimit

if TYPE_CHECKING:
    from ...schema.cardpool import CardPool


class _CurrentDuel:
    """The match's current duel as `replay.feed` drives a duel: answers go through the match,
    and a recorded time call calls the match's time."""

    def __init__(self, match: Match, name: str, number: int) -> None:
        self.match, self.name, self.number = match, name, number

    @property
    def pending(self) -> Any:
        m = self.match
        return m.pending if m.stage == "duel" and m.number == self.number else None

    def apply(self, answer: Any) -> Any:
        return self.match.apply(answer)

    def concede(self, player: int) -> Any:
        return self.match.concede(player)

    def manual(self, player: int, action: Any) -> Any:
        return self.match.manual(player, action)

    def set_time_limit(self, limit: TimeLimit) -> None:
        if limit.kind != EXTRA_TURNS or self.pending is None:
            raise ValueError("time can only be called during a duel of the match")
        self.match.call_time()
        if self.match.duel.time_limit != limit:
            raise ValueError(f"the match calls time as {self.match.duel.time_limit}, the save says {limit}")


def replay_match(record: MatchRecord, pool: "CardPool") -> Match:
    """The match rebuilt up to where it was saved."""
    name = record.source or "match"
    match = Match.new(pool, record.registered(pool), record.seed, record.rules, record.names, tournament=record.tournament)
    match.meta = dict(record.meta)
    for index, saved in enumerate(record.duels):
        number = index + 1
        if match.number != number or match.stage != "duel":
            _mismatch(name, f"duels[{index}]", f"the save holds duel {number}, but the match "
                      + ("was over" if match.outcome else f"is waiting for {match.pending.prompt if match.pending else 'nothing'}"))
        played = match.duel.record
        assert played is not None
        if (played.seed, played.decks, played.first, played.time_limit) != (saved.seed, saved.decks, saved.first, saved.time_limit):
            _mismatch(name, f"duels[{index}]", f"duel {number} is not the duel this match starts (its seed, decks or first player differ): "
                      "the side-deck answers or the registered decks do not fit it")
        try:
            feed(_CurrentDuel(match, name, number), saved, saved.choices)
        except IllegalChoice as e:
            _mismatch(name, f"duels[{index}]", f"duel {number}: {e}")
        except DataError as e:  # (an answer of this duel: said as the place in the match save)
            raise DataError([replace(p, path=f"duels[{index}].{p.path}") for p in e.problems], unreadable=e.unreadable) from None
        if index < len(record.between):
            _feed_between(match, record.between[index], name, index)
    _check_results(match, record, name)
    return match


def _feed_between(match: Match, entries: list[str], name: str, index: int) -> None:
    for j, entry in enumerate(entries):
        where = f"between[{index}][{j}]"
        if entry == "!time":
            if match.stage != "between":
                _mismatch(name, where, "the save calls time between duels, but no break is going on")
            match.call_time()
            continue
        player, key = entry.split(":", 1)
        pending = match.pending
        if match.stage != "between" or pending is None:
            _mismatch(name, where, f"recorded answer {entry!r}, but the match is not between duels")
        if pending.player != int(player):
            _mismatch(name, where, f"recorded answer {entry!r} is for {match.names[int(player)]}, but {match.names[pending.player]} is asked")
        try:
            match.apply(key)
        except IllegalChoice as e:
            _mismatch(name, where, f"recorded answer {entry!r} is not legal here: {e}")


def _check_results(match: Match, record: MatchRecord, name: str) -> None:
    for index, (duel, saved) in enumerate(zip(match.duels, record.results)):
        if saved is None:
            continue
        got = duel.outcome
        if got is None or (got.winner, got.reason, duel.turn) != (saved["winner"], saved["reason"], saved["turns"]):
            found = "unfinished" if got is None else f"winner {got.winner}, {got.reason}, {duel.turn} turns"
            _mismatch(name, f"results[{index}]", f"duel {index + 1} replays as {found}, the save says winner {saved['winner']}, "
                      f"{saved['reason']}, {saved['turns']} turns")
    if record.time_called != match.time_called:
        _mismatch(name, "time_called", f"the save says time was called {record.time_called}, the replay calls it {match.time_called}")


def _mismatch(name: str, path: str, message: str) -> NoReturn:
    raise DataError([Problem(name, 0, 0, path, message, "the save is damaged, was edited, or is from another version of the rules engine")])


def load_match(path: Path, pool: "CardPool") -> Match:
    """A saved match rebuilt up to where it was saved; any failure is a DataError naming the file."""
    from ..core.errors import EffectError

    record = load_match_record(path, pool)
    try:
        return replay_match(record, pool)
    except EffectError as e:
        raise DataError([Problem(record.source, 0, 0, "", f"replaying this match hit an engine bug: {e}",
                                 "please report it with the save file attached")]) from None
