"""A match: duels one after the other, side-decking between them, tournament time (RULES.md §12–13).

A `Match` is driven exactly like a duel — it is always waiting for one player's decision, or
it is over:

    match = Match.new(pool, (deck_a, deck_b), seed=42, tournament=True, clock=time.monotonic)
    while (d := match.pending) is not None:
        match.apply(agent.choose(..., d))
    match.outcome                                   # MatchOutcome(winner | None, reason, rule, detail)

During a duel, `pending` is that duel's decision (`match.duel` is the Duel: view it, explain
with it — but answer through the match). Between duels it is a match decision: `Kind.SIDE`
for each player with a Side Deck in turn (swap one for one, or done — R-MATCH-4), then
`Kind.FIRST` for the loser of the last duel (after a draw, the last chooser — R-MATCH-3).
Duel 1 starts with its coin toss; there is no siding before it (R-MATCH-5) and every match
starts from the registered decks. Each duel's seed derives from the match seed.

Tournament time: the injected clock is read after every answer (and by `tick()`); when the
match time is up, time is called (`call_time`) — inside a duel the duel's own procedure runs
(engine/state/timelimit.py, R-TIME-2…4) and the match is judged after it (R-TIME-5); between duels
the leader wins (R-TIME-7) or an extra duel of 4 turns is played (R-TIME-6). Where it was
called is stored in the record, so a replay needs no clock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from ...schema.decks import Deck
from ...schema.legality import rules_of_decks
from ...schema.rules import Rules
from . import siding
from .clock import Clock, ClockStatus, MatchClock
from ..core.decision import Decision, IllegalChoice, Kind, Option, PromptMode
from ..duel.protocol import Answer, Duel
from ..state.duel_state import DEFAULT_NAMES
from ..core.events import CoinToss, Event, Names, TimeProcedure
from .record import MatchRecord
from .score import Score
from ..state.timelimit import EXTRA_DUEL, TimeLimit

if TYPE_CHECKING:
    from ...schema.cardpool import CardPool
    from ..rules.manual import Manual

FIRST = Option("first", "first")
SECOND = Option("second", "second")


def duel_seed(match_seed: int, number: int) -> int:
    """Duel `number`'s seed (1-based), derived from the match seed."""
    return random.Random(f"match:{match_seed}:{number}").randrange(2**31)


# ---------------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """How a match ended. `winner` None: a drawn match. `rule`: the rule that decided it."""

    winner: int | None
    reason: str  # "2 wins", "1 win and 2 draws", "Victory Dragon", "more wins at time", "extra duel", "draw" …
    rule: str
    detail: str = ""

    def text(self, names: Names) -> str:
        who = "The match is a draw" if self.winner is None else f"{names[self.winner]} wins the match"
        return f"{who}: {self.reason}" + (f" — {self.detail}" if self.detail else "") + f" ({self.rule})"


@dataclass(slots=True)
class DuelBegins(Event):
    number: int
    seed: int
    extra: bool = False  # R-TIME-6's extra duel

    def text(self, names: Names) -> str:
        return f"Extra duel (duel {self.number}, seed {self.seed}) — R-TIME-6" if self.extra else f"Duel {self.number} (seed {self.seed})"


@dataclass(slots=True)
class OrderChosen(Event):
    number: int
    player: int
    choice: str  # "first" or "second"
    why: str  # "won the coin toss (R-SETUP-3)", "lost duel 1 (R-MATCH-3)", …

    def text(self, names: Names) -> str:
        return f"{names[self.player]} ({self.why}) chooses to go {self.choice}"


@dataclass(slots=True)
class DuelResult(Event):
    number: int
    winner: int | None
    reason: str
    detail: str
    turns: int
    score: str = ""

    def text(self, names: Names) -> str:
        who = "draw" if self.winner is None else f"{names[self.winner]} wins by {self.reason}"
        return f"Duel {self.number}: {who}" + (f" ({self.detail})" if self.detail else "") + f", {self.turns} turns — score {self.score}"


@dataclass(slots=True)
class SideDone(Event):
    """A player finished side-decking before duel `before`: the net change (names)."""

    before: int
    player: int
    out: tuple[str, ...]
    in_: tuple[str, ...]

    def text(self, names: Names) -> str:
        if not self.out:
            return f"{names[self.player]} keeps the deck for duel {self.before}"
        return f"{names[self.player]} sides for duel {self.before}: out {', '.join(self.out)}; in {', '.join(self.in_)} (R-MATCH-4)"


@dataclass(slots=True)
class SideSwap(Event):
    """One accepted exchange (the record keeps each; `SideDone` sums them up)."""

    before: int
    player: int
    out: tuple[str, ...]
    in_: tuple[str, ...]

    def text(self, names: Names) -> str:
        return f"{names[self.player]} swaps {', '.join(self.out)} for {', '.join(self.in_)}"


@dataclass(slots=True)
class TimeCalled(Event):
    """Match time is up (R-TIME-2 during duel `number`, or R-TIME-6/7 between duels)."""

    number: int
    between: bool
    turn: int = 0
    message: str = ""

    def text(self, names: Names) -> str:
        return self.message


@dataclass(slots=True)
class MatchEnd(Event):
    outcome: MatchOutcome

    def text(self, names: Names) -> str:
        return self.outcome.text(names)


# ---------------------------------------------------------------------- the match


class Match:
    """Duels between players 0 and 1 until the match is decided. Create it with `Match.new`."""

    def __init__(self, pool: "CardPool", decks: tuple[Deck, Deck], seed: int, rules: Rules, names: tuple[str, str],
                 tournament: bool, clock: Clock | None) -> None:
        self.pool = pool
        self.registered = decks  # R-DECK-9 / R-MATCH-5: every match starts from these
        self.decks = [decks[0], decks[1]]  # as sided for the next duel
        self.seed = seed
        self.rules = rules
        self.names = names
        self.tournament = tournament
        self.score = Score(rules.match)
        self.duels: list[Duel] = []
        self.choosers: list[int] = []  # who chose first/second, per duel
        self.extra: list[bool] = []  # per duel: R-TIME-6's extra duel?
        self.between: list[list[str]] = []  # the answers after each duel: "P:key", "!time"
        self.log: list[Event] = []
        self.outcome: MatchOutcome | None = None
        self.time_called: dict[str, int] | None = None  # {"duel": n, "turn": t} or {"between": n}
        self.prompt_modes: list[PromptMode] = ["auto", "auto"]
        self.stage = "duel"  # "duel", "between" or "over"
        self.siding: list[int] = []  # players still to side-deck before the next duel (the first is asked)
        self.sided_from: list[Deck] = []  # the decks when this break began (for the net change)
        self.chooser: int | None = None  # the player who chooses first/second for the next duel
        self.next_is_extra = False
        self.pending: Decision | None = None
        self.meta: dict[str, Any] = {}
        settings = rules.time
        self.clock = MatchClock(clock, settings.match_minutes * 60, settings.turn_minutes * 60,
                                settings.break_minutes * 60) if tournament and clock is not None else None
        self._turn_key: tuple[int, int] | None = None

    @classmethod
    def new(cls, pool: "CardPool", decks: tuple[Deck, Deck], seed: int, rules: Rules | None = None,
            names: tuple[str, str] = DEFAULT_NAMES, *, tournament: bool = False, clock: Clock | None = None) -> "Match":
        """A match at duel 1's coin toss, under `rules` (None: those the decks are built for, as
        `Duel.new`). `tournament`: the time procedure applies (R-TIME);
        `clock()` returns seconds (time.monotonic, or a fake one) — without one, time is only
        called by `call_time` (a replay, a test)."""
        for deck in decks:
            if not isinstance(deck, Deck):
                raise TypeError("a match needs two Decks")
        match = cls(pool, decks, seed, rules or rules_of_decks(decks, Rules()), names, tournament, clock)
        match._start_duel(None)
        match.tick()
        return match

    # ------------------------------------------------------------------ what a client reads

    @property
    def duel(self) -> Duel:
        """The duel being played, or the last one played (between duels, after the match)."""
        return self.duels[-1]

    @property
    def number(self) -> int:
        """The current (or last) duel's number, from 1."""
        return len(self.duels)

    @property
    def in_extra_duel(self) -> bool:
        return bool(self.extra) and self.extra[-1] and self.stage == "duel"

    def deck(self, player: int) -> Deck:
        """`player`'s deck as sided for the next duel (during a duel: the one being played)."""
        return self.decks[player]

    def clock_status(self) -> ClockStatus:
        """The match clock for a header: time left, extra turn N of M, sudden death, warnings."""
        if not self.tournament:
            return ClockStatus(None, False, "untimed")
        remaining, turn, pause = self.clock.readings() if self.clock is not None else (None, 0.0, 0.0)
        if self.time_called is not None:
            remaining = 0.0
        extra_turn = of = 0
        stage = "over" if self.outcome is not None else "extra turns" if self.time_called else "running"
        if self.stage == "duel" and self.duel.time_limit is not None:
            limit = self.duel.time_limit
            stage = "sudden death" if limit.sudden_death else "extra duel" if limit.kind == EXTRA_DUEL else "extra turns"
            extra_turn, of = limit.extra_turn(self.duel.turn), limit.extra
        elif self.time_called is not None and self.outcome is None:
            stage = "extra duel"
        clock = self.clock
        in_turn = self.stage == "duel" and self.outcome is None
        return ClockStatus(remaining, self.time_called is not None, stage, extra_turn, of,
                           turn if in_turn else 0.0, bool(clock and in_turn and turn > clock.turn_limit),
                           pause if self.stage == "between" else 0.0,
                           bool(clock and self.stage == "between" and pause > clock.break_limit))

    @property
    def record(self) -> MatchRecord:
        """The save: registered decks, seed, rules, every duel's replay, every answer between duels."""
        results = [{"winner": d.outcome.winner, "reason": d.outcome.reason, "turns": d.turn} if d.outcome else None
                   for d in self.duels]
        return MatchRecord.for_match(self.pool, self.registered, self.seed, self.rules, self.names, self.tournament,
                                     [d.record for d in self.duels], self.between, self.time_called, results, self.meta,
                                     None if self.outcome is None else self.outcome.winner)

    # ------------------------------------------------------------------ the protocol

    def apply(self, answer: Answer) -> list[Event]:
        """Answer the pending decision (the duel's, or a match decision between duels); return
        the events: the duel's, then the match's. IllegalChoice leaves everything unchanged."""
        if self.pending is None:
            raise IllegalChoice("R-MATCH-1", "the match is over")
        start = len(self.log)
        if self.stage == "duel":
            duel = self.duel
            asked = duel.pending
            events = duel.apply(answer)
            if asked is not None and asked.kind == Kind.FIRST:
                self._order_chosen(asked.player, "first" if duel.first_player == asked.player else "second",
                                   "won the coin toss, R-SETUP-3")
            self._after_duel_step(events)
        else:
            events = []
            self._answer_between(answer)
        self.tick()
        return events + [e for e in self.log[start:] if not isinstance(e, TimeProcedure)]

    def concede(self, player: int) -> list[Event]:
        """R-WIN-5: concede the duel being played (it counts as a loss)."""
        if self.stage != "duel":
            raise IllegalChoice("R-WIN-5", "no duel is being played")
        start = len(self.log)
        events = self.duel.concede(player)
        self._after_duel_step(events)
        return events + self.log[start:]

    def manual(self, player: int, action: "Manual") -> list[Event]:
        """A manual action in the current duel (docs/engine.md), through the match."""
        if self.stage != "duel":
            raise IllegalChoice("MANUAL", "no duel is being played")
        start = len(self.log)
        events = self.duel.manual(player, action)
        self._after_duel_step(events)
        return events + self.log[start:]

    def set_prompt_mode(self, player: int, mode: PromptMode) -> None:
        """As `Duel.set_prompt_mode`, for this duel and the ones after it."""
        if self.duels and self.stage == "duel":
            self.duel.set_prompt_mode(player, mode)
        self.prompt_modes[player] = mode

    def tick(self) -> list[Event]:
        """Read the clock (clients call this on a timer too): time up → `call_time`."""
        if self.clock is None or self.outcome is not None:
            return []
        if self.stage == "duel":
            key = (self.number, self.duel.turn)
            if key != self._turn_key:
                self._turn_key = key
                self.clock.new_turn()
        if self.time_called is None and self.clock.expired():
            return self.call_time()
        return []

    def call_time(self) -> list[Event]:
        """Match time is up (tournament mode). In a duel: R-TIME-2 there, and the match is judged
        after it (R-TIME-5). Between duels: R-TIME-7 (the leader wins) or R-TIME-6 (an extra
        duel). Called once; later calls do nothing."""
        if not self.tournament:
            raise IllegalChoice("R-TIME-1", "time limits apply in tournament mode only")
        if self.time_called is not None or self.outcome is not None:
            return []
        start = len(self.log)
        if self.clock is not None:
            self.clock.stop()
        if self.stage == "duel":
            duel = self.duel
            settings = self.rules.time
            turn = max(duel.turn, 1)
            self.time_called = {"duel": self.number, "turn": turn}
            self.log.append(TimeCalled(self.number, False, turn, f"Match time is up during duel {self.number}, turn {turn}, score {self.score.text()}"))
            self._absorb(duel.call_time(settings.extra_turns, settings.equal_lp))
        else:
            after = self.number
            self.time_called = {"between": after}
            self.between[-1].append("!time")
            self.log.append(TimeCalled(after, True, 0, f"Match time is up between duels {after} and {after + 1}, "
                                                         f"score {self.score.text()}"))
            self.siding = []
            self._judge_time("R-TIME-7")
            self._refresh()
        return self.log[start:]

    # ------------------------------------------------------------------ duels

    def _start_duel(self, first: int | None) -> None:
        number = len(self.duels) + 1
        extra = self.next_is_extra
        self.next_is_extra = False
        for p, deck in enumerate(self.decks):  # R-SETUP-1 / R-MATCH-4: the Side Deck size never changes
            assert len(deck.side) == len(self.registered[p].side), "side-decking changed a Side Deck's size"
        rules, limit = self.rules, None
        if extra:  # R-TIME-6: 4 turns (2 each) from 8000 LP
            rules = rules.model_copy(update={"duel": rules.duel.model_copy(update={"starting_lp": 8000})})
            limit = TimeLimit(EXTRA_DUEL, 0, self.rules.time.extra_duel_turns, self.rules.time.equal_lp)
        seed = duel_seed(self.seed, number)
        self.log.append(DuelBegins(number, seed, extra))
        duel = Duel.new(self.pool, (self.decks[0], self.decks[1]), seed, rules, self.names, first=first, time_limit=limit)
        for p, mode in enumerate(self.prompt_modes):
            duel.set_prompt_mode(p, mode)
        self.duels.append(duel)
        self.extra.append(extra)
        if first is None:  # duel 1: the coin toss winner chooses (R-SETUP-3)
            self.choosers.append(next(e.winner for e in duel.log if isinstance(e, CoinToss)))
        else:
            self.choosers.append(self.chooser)  # type: ignore[arg-type]
        self.stage = "duel"
        self._absorb(duel.log)
        self._after_duel_step([])

    def _absorb(self, events: Sequence[Event]) -> None:
        """The duel's time-procedure steps join the match log (they are the match's story too)."""
        self.log.extend(e for e in events if isinstance(e, TimeProcedure))

    def _after_duel_step(self, events: Sequence[Event]) -> None:
        self._absorb(events)
        if self.duel.pending is None:
            self._duel_over()
        self._refresh()

    def _duel_over(self) -> None:
        duel = self.duel
        outcome = duel.outcome
        assert outcome is not None
        self.score.record(outcome.winner, self.choosers[-1], outcome.takes_match)
        self.log.append(DuelResult(self.number, outcome.winner, outcome.reason, outcome.detail, duel.turn, self.score.text()))
        if self.extra[-1]:  # R-TIME-6: the extra duel decides the match
            self._finish(outcome.winner, "won the extra duel" if outcome.winner is not None else "the extra duel was a draw",
                         "R-TIME-6", outcome.detail)
        elif self.time_called is not None:  # time was called in this duel: judge now (R-TIME-5)
            self._judge_time("R-TIME-5")
        elif self.score.over:
            self._finish_by_score()
        else:
            self._begin_break()

    def _begin_break(self) -> None:
        self.stage = "between"
        self.between.append([])
        self.sided_from = list(self.decks)
        self.siding = [p for p in (0, 1) if self.decks[p].side]  # no Side Deck: nothing to side (R-MATCH-4)
        self.chooser = self.score.next_chooser()
        if self.clock is not None:
            self.clock.new_break()

    def _judge_time(self, rule: str) -> None:
        """Time is up and no duel is going on: R-TIME-5 (after the duel time was called in) or
        R-TIME-7 (between duels) — the leader wins; level: R-TIME-6's extra duel."""
        if self.score.over:
            self._finish_by_score()
            return
        leader = self.score.leader
        score = self.score.text()
        if leader is not None:
            self._finish(leader, "more duel wins when time ran out", rule, f"score {score}")
        elif self.rules.time.level_wins == "draw":
            self._finish(None, "wins level when time ran out", "R-TIME-6", f"score {score}; custom time procedure: a draw")
        else:
            self.stage = "between"
            if len(self.between) < len(self.duels):
                self.between.append([])
            self.siding = []
            self.chooser = self.score.next_chooser()
            self.next_is_extra = True

    def _finish_by_score(self) -> None:
        score = self.score
        text = score.text()
        if score.taken_by is not None:
            self._finish(score.taken_by, "a card that wins the match (Victory Dragon)", "R-MATCH-1", f"score {text}")
        elif score.winner is None:
            self._finish(None, "after 3 duels no one has more wins", "R-MATCH-2", f"score {text}")
        elif score.wins(score.winner) >= 2:
            self._finish(score.winner, "2 duel wins", "R-MATCH-1", f"score {text}")
        else:
            self._finish(score.winner, "1 win and 2 draws", "R-MATCH-2", f"score {text}")

    def _finish(self, winner: int | None, reason: str, rule: str, detail: str = "") -> None:
        self.outcome = MatchOutcome(winner, reason, rule, detail)
        self.stage = "over"
        self.siding = []
        self.log.append(MatchEnd(self.outcome))
        if self.clock is not None:
            self.clock.stop()

    # ------------------------------------------------------------------ between duels

    def _refresh(self) -> None:
        """Work out the pending decision after a change."""
        if self.stage == "duel":
            self.pending = self.duel.pending
        elif self.stage == "over":
            self.pending = None
        elif self.siding:
            p = self.siding[0]
            deck = self.decks[p]
            options = siding.swap_options(deck, self.registered[p], self.rules.deck)
            self.pending = Decision(p, Kind.SIDE, tuple(options),
                                    f"{self.names[p]}: side-deck for duel {self.number + 1} — Main {len(deck.main)}, "
                                    f"Extra {len(deck.extra)}, Side {len(deck.side)}; swap one for one, then done (R-MATCH-4)")
        else:
            chooser = self.chooser
            assert chooser is not None
            what = "the extra duel (R-TIME-6)" if self.next_is_extra else f"duel {self.number + 1}"
            self.pending = Decision(chooser, Kind.FIRST, (FIRST, SECOND),
                                    f"{self.names[chooser]} ({self._why(chooser)}): go first or second in {what}?")

    def _why(self, p: int) -> str:
        last = self.score.results[-1]
        return f"lost duel {self.number}, R-MATCH-3" if last is not None else f"chose last time and duel {self.number} was a draw, R-MATCH-3"

    def _answer_between(self, answer: Answer) -> None:
        decision = self.pending
        assert decision is not None
        p = decision.player
        if decision.kind == Kind.FIRST:
            option = _option(decision, answer)
            if option is None:
                raise IllegalChoice("R-MATCH-3", f"answer 'first' or 'second', not {_text(answer)!r}")
            self.between[-1].append(f"{p}:{option.key}")
            self._order_chosen(p, option.key, self._why(p))
            self._start_duel(p if option.key == "first" else 1 - p)
            return
        option = _option(decision, answer)
        deck = self.decks[p]
        if option is not None and option.key == "done":
            self.between[-1].append(f"{p}:done")
            before = self.sided_from[p]
            out, into = siding.net_change(before, deck)
            self.log.append(SideDone(self.number + 1, p, tuple(out), tuple(into)))
            self.siding.pop(0)
            self._refresh()
            return
        if option is not None and option.key == "reset":
            outs, ins = siding.reset_exchange(deck, self.registered[p])
        else:
            parsed = siding.parse(deck, _text(answer), lambda ref: _card_in(deck, ref) or self.pool.get(ref))
            if parsed is None:
                raise IllegalChoice("R-MATCH-4", f"not a side-deck answer: {_text(answer)!r} "
                                                 "(swap OUT for IN, reset, or done)")
            outs, ins = parsed
            refusal = siding.refusal(deck, outs, ins, self.rules.deck)
            if refusal is not None:
                raise IllegalChoice(refusal.rule, f"{refusal.action}: {refusal.message}")
        if outs:
            self.decks[p] = siding.exchange(deck, outs, ins)
            self.log.append(SideSwap(self.number + 1, p, tuple(c.name for c in outs), tuple(c.name for c in ins)))
        self.between[-1].append(f"{p}:{siding.key(outs, ins) if option is None or option.key != 'reset' else 'reset'}")
        self._refresh()

    def _order_chosen(self, player: int, choice: str, why: str) -> None:
        self.log.append(OrderChosen(self.number + (0 if self.stage == "duel" else 1), player, choice, why))


def _text(answer: Answer) -> str:
    if isinstance(answer, Option):
        return answer.key
    if isinstance(answer, str):
        return answer
    return ",".join(_text(a) for a in answer)


def _option(decision: Decision, answer: Answer) -> Option | None:
    """The option an answer names: the Option itself, its key or its label (any case)."""
    if not isinstance(answer, (str, Option)):
        if len(answer) != 1:
            return None
        answer = answer[0]
    if isinstance(answer, Option):
        answer = answer.key
    wanted = " ".join(answer.split()).casefold()
    for o in decision.options:
        if o.key == answer or o.label.casefold() == wanted:
            return o
    return None


def _card_in(deck: Deck, ref: Any) -> Any:
    """A card of this deck by name or passcode (typed exchanges name the deck's own cards first)."""
    text = str(ref).strip()
    for card in deck.all_cards:
        if card.name.casefold() == text.casefold() or (text.isdigit() and card.id == int(text)):
            return card
    return None
