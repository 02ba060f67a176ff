"""A duel as the TUI runs it: who sits in each seat, prompt settings, curtains, undo, saves.

No Textual here: the screens ask the session what to show and tell it what was chosen, so the
hot-seat rules (who may see what, when to draw the curtain) are testable on their own.
"""

from __future__ import annotations

import re

import random
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

from ...agents import make_agent, observe, seat_seed
from ...agents.random_agent import RandomAgent
from ...bugs import write_bug_report
from ...engine import CoinToss, Decision, Duel, EffectError, Event, Kind, LifePoints, Move, Note, Option, Phase, PhaseChange, ReplayRecord, Score, Summon, forced, load_duel, replay
from ... import paths
from ...paths import autosave_path
from ...schema.cardpool import CardPool
from .prompting import worth_asking

class EngineBug(Exception):
    """An internal error resolving an effect; the duel was rewound to before the answer."""

    def __init__(self, message: str, report: Path | None) -> None:
        super().__init__(message)
        self.report = report


PUBLIC = -1  # the viewer that sees only public information (R-TERM-6)
MAX_SNAPSHOTS = 30  # undo points kept as copies of the duel (each a few hundred kB)


@dataclass
class Seat:
    """A player's seat: a human at the keyboard, or an agent that answers by itself."""

    name: str
    kind: str = "human"  # "human", "goldfish" (passes everything it can), "random", "ai:easy|normal|hard"
    # for humans, which response windows ask: "always" (every one), "auto" (where a response
    # matters, presenters.prompting), "never", or "able" (wherever one is possible: puzzles)
    prompt: str = "always"
    agent: Any = None

    @property
    def thinks(self) -> bool:
        """An AI that searches: the screen lets it think in a worker thread (`Session.ai_seat`)."""
        return self.kind.startswith("ai:") and self.kind != "ai:easy"


@dataclass
class Backout:
    """The way back out of an action still being chosen (`Session.back_out`)."""

    before: Duel  # a copy of the duel from before the action
    mark: int  # the record's length then
    label: str  # what was chosen ("activate Mystical Space Typhoon")
    player: int
    log_start: int  # the log's length then: what happened since decides whether it can still be taken back


@dataclass
class Session:
    duel: Duel
    pool: CardPool
    seats: tuple[Seat, Seat]
    hot_seat: bool = True  # two humans share the screen: curtains and public views
    viewer: int = PUBLIC  # whose private cards the screen shows now
    save_dir: Path = field(default_factory=paths.saves_dir)  # where s saves the duel under a name
    autosave: bool = True
    autosave_error: str = ""  # why the last autosave failed ("" while it works): the screen shows it at once
    autosave_dir: Path = field(default_factory=paths.autosave_dir)
    # the autosave this duel keeps, held while it is played (paths.claim_autosave: never one another
    # running ygoterm writes); taken at the first autosave, or the one a resumed duel came from
    autosave_file: Path | None = None
    undo_points: list[int] = field(default_factory=list)  # record lengths before each human answer
    # copies of the duel at the last few undo points (record length → copy): undo restores one
    # in a fraction of a millisecond; older points are rebuilt by replay
    snapshots: dict[int, Duel] = field(default_factory=dict)
    prefer_first: bool | None = None  # solo test hands: the human goes first (True) or second
    think_apart: bool = False  # a thinking AI's decisions are left to the screen's worker (`ai_seat`)
    # shared response windows (hot-seat): one question to the table per window (`is_shared_prompt`)
    responding: int | None = None  # who said "I respond": their next response decision is asked privately
    skip_mark: int | None = None  # the table chose "skip until something happens": the log's length then
    skip_turn: int = 0  # (and the turn: a skip never outlives it)
    passing_attack: object = None  # the table passes the rest of this attack's Damage Step (`d`)
    backout: "Backout | None" = None  # an action still being chosen (targets, costs …) that Esc can take back
    # each player's log length at their last response window (asked or passed): Auto asks again
    # once something happened since (presenters.prompting)
    window_seen: list[int] = field(default_factory=lambda: [0, 0])
    holder: int | None = None  # hot-seat: the player who last lifted a curtain (holds the device)
    autosave_kind: str = ""  # which autosave it keeps (paths.AUTOSAVE_KINDS; "": hotseat or solo as it is)
    table_asks: str = "events"  # hot-seat "Anyone responding?": "events" (where something happened, End Phases) or "every" window
    table_seen: int = 0  # the log's length at the table's last response window
    summon_passed: int | None = None  # hot-seat: the log's length when the table passed a Summon's first window

    def __post_init__(self) -> None:
        self._apply_prompt_modes()
        if self.duel.record is not None:
            self.duel.record.meta["seats"] = [seat.kind for seat in self.seats]

    # ------------------------------------------------------------------ set-up

    @classmethod
    def start(cls, duel: Duel, pool: CardPool, seats: tuple[Seat, Seat], *, hot_seat: bool, autosave: bool = True,
              think_apart: bool = False, table_asks: str = "events") -> "Session":
        session = cls(duel, pool, seats, hot_seat=hot_seat, autosave=autosave, think_apart=think_apart, table_asks=table_asks)
        if not hot_seat:
            session.viewer = next((i for i, s in enumerate(seats) if s.kind == "human"), 0)
        session.run_agents()
        return session

    def _apply_prompt_modes(self) -> None:
        for i, seat in enumerate(self.seats):
            self.duel.set_prompt_mode(i, "always" if seat.kind == "human" and seat.prompt == "always" else "auto")

    def set_prompt(self, player: int, mode: str) -> None:
        if mode not in ("always", "auto", "never", "able"):
            raise ValueError(mode)
        self.seats[player].prompt = mode
        self._apply_prompt_modes()

    # ------------------------------------------------------------------ whose turn to look

    @property
    def pending(self) -> Decision | None:
        return self.duel.pending

    def human_to_decide(self) -> int | None:
        d = self.duel.pending
        if d is None or self.seats[d.player].kind != "human":
            return None
        return d.player

    def needs_curtain(self) -> bool:
        """A curtain before the deciding human may see their private cards (DESIGN.md §7)."""
        who = self.human_to_decide()
        if who is None or not self.hot_seat:
            return False
        return self.viewer != who and not self.is_shared_prompt()

    def is_shared_prompt(self) -> bool:
        """A hot-seat response window is one question to both players at the table ("Anyone
        responding?"), asked from the public view whichever player the engine asks and whether
        or not anyone could respond, so it reveals nothing. Only a player who says they respond
        is asked their own `chain` decision, privately, after a curtain."""
        d = self.duel.pending
        return bool(self.hot_seat and d is not None and d.kind == Kind.CHAIN and self.seats[d.player].kind == "human"
                    and self.responding != d.player)

    def in_damage_step(self) -> bool:
        step = self.duel.step
        return step is not None and step.in_damage_step

    def continue_window(self) -> list[Event]:
        """The table answers "no one responds": "pass" for the player the engine asks, and for the
        other one too if the engine asks them next in the same window (one pass already made,
        `Duel.priority_passes`), so the window closes — never further (the next window asks again)."""
        d = self.duel.pending
        assert d is not None and d.kind == Kind.CHAIN
        if self.duel.summoning:
            self.summon_passed = len(self.duel.log)  # its second window (after it succeeds) is passed too
        events = self.answer("pass")
        nxt = self.duel.pending
        if nxt is not None and nxt.kind == Kind.CHAIN and nxt.player != d.player and self.duel.priority_passes == 1 \
                and self.is_shared_prompt():
            events += self.answer("pass")
        return events

    def respond(self, player: int) -> bool:
        """`player` says they respond: the engine's question to the other player (if it is theirs
        now) is answered "pass", and `player`'s own one is asked next, privately. False if the
        window closed instead (the engine does not ask `player`: prompt mode auto/never with
        nothing to activate)."""
        d = self.duel.pending
        if d is None or d.kind != Kind.CHAIN:
            return False
        self.skip_mark = None
        self.responding = player
        asked_first = d.player == player
        if asked_first:
            self.run_agents()  # (a Summon's first window they have nothing for: their question is its second)
        else:
            self.answer("pass")
        d = self.duel.pending
        if d is None or d.kind != Kind.CHAIN or d.player != player or (not asked_first and self.duel.priority_passes != 1):
            self.responding = None
            return False
        return True

    def skip_windows(self) -> None:
        """The table: "stop asking until something happens". Response windows with no chain
        open are then answered "pass" for both until an event other than a phase or step
        change (a Summon, a Set, an activation, an attack, damage …), and never past this turn."""
        self.skip_mark = len(self.duel.log)
        self.skip_turn = self.duel.turn

    def pass_damage_step(self) -> None:
        """The table passes the rest of this attack's Damage Step (`d`): its new-chain windows
        are answered "pass" for both players; a response to a chain link is still asked."""
        if self.duel.attack is not None:
            self.passing_attack = self.duel.attack

    _QUIET = (PhaseChange,)  # what does not end a "skip until something happens"

    def _carries_response(self, d: Decision) -> bool:
        """A player said they respond to a Summon (its one shared question) but has nothing to
        activate in its first window (the negation window): they pass it, and their private
        question is the second window's, once the Summon succeeded (Trap Hole's)."""
        if self.responding != d.player or self.summon_passed is not None or any(o.verb == "activate" for o in d.options):
            return False
        if not self.duel.summoning:
            return False
        self.summon_passed = len(self.duel.log)
        return True

    def _worth_asking(self, d: Decision) -> bool:
        """Auto's rule (presenters.prompting) for a human's response window; at the hot-seat
        table, its public form for the shared question (unless the table asks at every window)."""
        seen = self.window_seen
        since, seen[d.player] = seen[d.player], len(self.duel.log)
        if self.is_shared_prompt():
            since, self.table_seen = self.table_seen, len(self.duel.log)
            if self.seats[d.player].prompt == "always":
                return self.table_asks == "every" or worth_asking(self.duel, d, since, public=True)
        return self.seats[d.player].prompt != "auto" or worth_asking(self.duel, d, since)

    def _passes_by_choice(self, d: Decision) -> bool:
        """The table chose not to be asked in this window (`skip_windows`, `pass_damage_step`)."""
        duel = self.duel
        if d.kind != Kind.CHAIN or duel.chain:
            return False
        if self.passing_attack is not None:
            if self.passing_attack is duel.attack and self.in_damage_step():
                return True
            self.passing_attack = None  # that attack's Damage Step is over
        if self.summon_passed is not None:
            since = duel.log[self.summon_passed:]
            if all(isinstance(e, Note) for e in since):  # (nothing happened since: the Summon succeeded)
                return d.player != self.responding  # the Summon's two windows are one question to the table
            self.summon_passed = None
        if self.skip_mark is not None:
            if duel.turn == self.skip_turn and all(isinstance(e, self._QUIET) for e in duel.log[self.skip_mark:]):
                return True
            self.skip_mark = None  # something happened: ask again
        return False

    def window_context(self) -> list[str]:
        """What a response window answers, in words, from public information only (the same for
        both players, whoever could respond): the chain link (its card, controller and targets),
        the Summon being made, the attack, or the last thing that happened in this phase; at an
        open game state's end, that the phase is ending (R-PRIO-2)."""
        duel = self.duel
        view = duel.view(PUBLIC)
        names = duel.names
        where = f"{names[view.turn_player]}'s {view.phase.title}" + (f" › {view.step.title}" if view.step else "")
        lines = [where]
        if view.chain:
            link = view.chain[-1]
            targets = f" → {', '.join(link.targets)}" if link.targets else ""
            lines.append(f"Chain Link {link.number}: {link.name} ({names[link.player]}, speed {link.speed}){targets}")
            if len(view.chain) > 1:
                below = view.chain[-2]
                lines.append(f"in answer to Chain Link {below.number}: {below.name} ({names[below.player]})")
            return lines
        if view.summoning:
            summon = next((e for e in reversed(duel.log) if isinstance(e, Summon)), None)
            what = summon.for_player(PUBLIC).text(names) if summon is not None else "a Summon"
            lines.append(f"{what} — the Summon itself may be negated now (R-SUMMON-19)")
            return lines
        # (an attack negated, or whose attacker was destroyed by Sakuretsu Armor, set or taken, goes on no more: what
        # just happened, then)
        if view.phase == Phase.BATTLE and view.attacker is not None and duel.attack_goes_on():
            attacker = duel.cards[view.attacker]
            target = duel.cards[view.attack_target] if view.attack_target is not None else None
            whom = "directly" if target is None else (target.name if target.face_up else "a face-down monster")
            lines.append(f"{attacker.name} ({names[attacker.controller]}) attacks {whom}")
            return lines
        recent = None
        for event in reversed(duel.log):
            if isinstance(event, PhaseChange):
                break
            if not isinstance(event, (Move, Note)):
                recent = event
                break
        moving_on = f"{names[view.turn_player]} moves on: the last chance to act in this {'step' if view.step else 'phase'} (R-PRIO-2)"
        if recent is not None:
            lines.append(f"Just now: {recent.for_player(PUBLIC).text(names)}")
        if view.closing:
            lines.append(moving_on)  # (after a Summon: else this window reads like the one the Summon opened)
        elif recent is None:
            lines.append(f"The {view.step.title if view.step else view.phase.title} begins")
        return lines

    def lift_curtain(self) -> None:
        who = self.human_to_decide()
        if who is not None:
            self.viewer = self.holder = who

    def keep_device(self) -> None:
        """Hot-seat: the deciding human still holds the device — nobody else lifted a curtain
        since they did (the table only answered a shared "Anyone responding?") — so their cards
        come back without a curtain."""
        who = self.human_to_decide()
        if self.hot_seat and who is not None and who == self.holder and self.viewer == PUBLIC and not self.is_shared_prompt():
            self.viewer = who

    def cover(self) -> None:
        """Hide everything private (the screen between players)."""
        if self.hot_seat:
            self.viewer = PUBLIC

    def view(self):
        return self.duel.view(self.viewer if self.viewer != PUBLIC else PUBLIC)

    def at_keyboard(self) -> int | None:
        """The player holding the device: whose cards the screen shows, else (nothing private
        on screen) whose decision it is; None once nothing is pending (the duel is over)."""
        if self.viewer != PUBLIC:
            return self.viewer
        d = self.duel.pending
        return d.player if d is not None else None

    def events(self) -> list[Event]:
        return self.duel.events_for(self.viewer)

    # ------------------------------------------------------------------ answering

    def _apply(self, answer: Any) -> list[Event]:
        """Every answer reaches the duel here (a match's session sends it through the match)."""
        return self.duel.apply(answer)

    def _concede(self, player: int) -> list[Event]:
        return self.duel.concede(player)

    def manual(self, player: int, action: Any) -> list[Event]:
        """A manual action (engine/rules/manual.py) by `player`; a match's session sends it through the match."""
        return self.duel.manual(player, action)

    def answer(self, answer: Option | str | Sequence[Option | str]) -> list[Event]:
        """Apply a human's answer, then let agents and automatic passes run.

        An engine bug while resolving an effect (EffectError) must not cost the duel: the
        replay that reproduces it is written to the bugs folder, the duel is rewound to before
        this answer, and EngineBug tells the screen what happened.
        """
        d = self.duel.pending
        mark = len(self.duel.record.choices) if self.duel.record is not None else 0
        undoable = d is not None and not forced(d)
        before = self._snapshot() if undoable else None
        log_start = len(self.duel.log)
        try:
            events = self._apply(answer)
            if d is not None and d.kind == Kind.CHAIN and d.player == self.responding:
                self.responding = None  # they answered (an activation or, after all, pass)
            events += self.run_agents()
        except EffectError as e:
            raise EngineBug(str(e), self._rewind_after_bug(e, mark, before)) from None
        self._track_backout(d, answer, before, mark, log_start)
        if undoable:
            self.undo_points.append(mark)
            if before is not None:
                self.snapshots[mark] = before
                while len(self.snapshots) > MAX_SNAPSHOTS:
                    del self.snapshots[next(iter(self.snapshots))]
        self.save_auto()
        return events

    def _snapshot(self) -> Duel | None:
        """A copy of the duel for undo, or None if its flow cannot be copied (a generator
        frame, Duel.copy's TypeError): undo to that point then replays the record."""
        try:
            return self.duel.copy()
        except TypeError:
            return None

    # Backing out of an action (Esc) before it is complete: a copy of the duel from before it

    _OPEN = (Kind.COMMAND, Kind.BATTLE, Kind.CHAIN)
    _WHILE_CHOOSING = (Move, LifePoints, Note)  # what may happen while an activation's costs and targets are chosen

    def _track_backout(self, d: Decision | None, answer: Any, before: Duel | None, mark: int, log_start: int) -> None:
        """After an answer: keep (or start, or drop) the way back out of the action being chosen.
        An action (an activation, a Summon …) chosen at an open decision can be taken back while
        its player is still answering its follow-up questions (costs, targets, Tributes, a
        position) and nothing but placing the card and paying its cost has happened: no chain
        link added, no Summon, nothing drawn or revealed. The duel then goes back to the copy
        taken before it, record included (`back_out`)."""
        now = self.duel.pending
        if d is not None and d.kind in self._OPEN:
            chosen = answer if isinstance(answer, Option) else d.option(answer) if isinstance(answer, str) else None
            label = chosen.label if chosen is not None else str(answer)
            self.backout = Backout(before, mark, label, d.player, log_start) if before is not None and label != "pass" else None
        backout = self.backout
        if backout is None:
            return
        if now is None or now.kind in self._OPEN or now.player != backout.player or not all(
                isinstance(e, self._WHILE_CHOOSING) for e in self.duel.log[backout.log_start:]):
            self.backout = None

    def can_back_out(self) -> bool:
        return self.backout is not None and self.duel.pending is not None and self.duel.pending.kind not in self._OPEN

    def back_out(self) -> str | None:
        """Esc during an action's follow-up questions: the duel as it was before the action (its
        copy; the save's record loses the abandoned answers too). Returns what was taken back."""
        backout = self.backout
        if backout is None or not self.can_back_out():
            return None
        self.backout = None
        self.duel = backout.before
        while self.undo_points and self.undo_points[-1] >= backout.mark:
            self.snapshots.pop(self.undo_points.pop(), None)
        self._apply_prompt_modes()
        self._follow_decider()
        self.save_auto()
        return backout.label

    def _rewind_after_bug(self, error: EffectError, mark: int, before: Duel | None) -> Path | None:
        report = write_bug_report(error)
        if before is not None:
            self.duel = before
        elif self.duel.record is not None:
            self.duel = self._replayed(mark)
        self._apply_prompt_modes()
        self._follow_decider()
        return report

    def run_agents(self) -> list[Event]:
        """Answer every decision that no human needs to see: agents' turns, "never" prompts."""
        events: list[Event] = []
        guard = 0
        while (d := self.duel.pending) is not None and guard < 10_000:
            guard += 1
            seat = self.seats[d.player]
            if d.kind == Kind.FIRST and self.prefer_first is not None and not self.hot_seat:
                human = next((i for i, s in enumerate(self.seats) if s.kind == "human"), 0)
                events += self._apply("first" if (d.player == human) == self.prefer_first else "second")
                continue
            if seat.kind == "human":
                if d.kind == Kind.CHAIN:
                    if self._carries_response(d):
                        events += self._apply("pass")
                        continue
                    if seat.prompt == "never" or self._passes_by_choice(d) or not self._worth_asking(d):
                        events += self._apply("pass")
                        continue
                else:
                    self.summon_passed = None  # (a window after a Summon's is another question)
                break
            if seat.thinks and self.think_apart and len(d.options) > 1:
                break  # the screen runs `ai_answer` in a worker and gives the answer to `apply_ai`
            events += self._apply(self._agent_answer(seat, d))
        self._follow_decider()
        return events

    def _follow_decider(self) -> None:
        """Without a curtain (solo) the screen shows the cards of whichever human decides: with
        a second deck you play too, that is Player 2 in Player 2's turn."""
        who = self.human_to_decide()
        if not self.hot_seat and who is not None:
            self.viewer = who

    def ai_seat(self) -> Seat | None:
        """The thinking AI that must decide now (the screen asks it in a worker), if any."""
        d = self.duel.pending
        if d is None or not self.think_apart:
            return None
        seat = self.seats[d.player]
        return seat if seat.thinks and len(d.options) > 1 else None

    def ai_answer(self) -> Any:
        """The thinking AI's answer to the pending decision. It reads only its observation and
        the duel stays as it is, so a worker thread may run this while the screen waits."""
        d = self.duel.pending
        assert d is not None
        return self._agent_answer(self.seats[d.player], d)

    def apply_ai(self, answer: Any) -> list[Event]:
        """Apply the thinking AI's answer, then whatever agents answer next by themselves; the
        autosave keeps them (a resume replays the AI's recorded moves rather than thinking anew)."""
        try:
            events = self._apply(answer)
            events += self.run_agents()
        except EffectError as e:
            mark = len(self.duel.record.choices) if self.duel.record is not None else 0
            raise EngineBug(str(e), self._rewind_after_bug(e, mark, None)) from None
        self.save_auto()
        return events

    def _agent_answer(self, seat: Seat, d: Decision):
        if seat.kind == "goldfish":
            for word in ("pass", "end", "main2", "no", "second", "stop"):
                option = d.option(word)
                if option is not None:
                    return option
        if seat.agent is None:
            seed = seat_seed(self.duel.seed)
            seat.agent = make_agent(seat.kind, seed) if seat.kind.startswith("ai:") else RandomAgent(seed)
        random_play = isinstance(seat.agent, RandomAgent)  # (it reads nothing: no view to build)
        return seat.agent.choose(None if random_play else observe(self.duel, d.player, self.pool), d)

    def concede(self, player: int) -> list[Event]:
        """R-WIN-5: `player` concedes, which counts as a loss. Solo testing can undo it like an answer."""
        mark = len(self.duel.record.choices) if self.duel.record is not None else 0
        before = self._snapshot()
        events = self._concede(player)
        self.undo_points.append(mark)
        if before is not None:
            self.snapshots[mark] = before
        self.save_auto()
        return events

    # ------------------------------------------------------------------ after the duel

    def can_rematch(self) -> bool:
        """A finished duel dealt from two decks (not a puzzle's position) can be played again."""
        record = self.duel.record
        return self.duel.outcome is not None and record is not None and record.position is None

    def chooser(self) -> int | None:
        """Who chose to go first or second in this duel: the coin-toss winner (R-SETUP-3), or
        in a rematch the player noted in the record (R-MATCH-3); None if unknown."""
        toss = next((e for e in self.duel.log if isinstance(e, CoinToss)), None)
        if toss is not None:
            return toss.winner
        chooser = self.duel.record.meta.get("chooser") if self.duel.record is not None else None
        return chooser if chooser in (0, 1) else None

    def rematch_chooser(self) -> int | None:
        """Who chooses to go first or second in a rematch: the loser; after a draw, whoever
        chose this time (R-MATCH-3, `Score.next_chooser`) — or, not known, who went second."""
        outcome = self.duel.outcome
        if outcome is None:
            return None
        chose = self.chooser()
        if outcome.winner is None and chose is None:
            return 1 - self.duel.first_player
        score = Score()
        score.record(outcome.winner, chose if chose is not None else 0)
        return score.next_chooser()

    def rematch(self, first: int) -> "Session":
        """The same decks, rules and seats again after the duel ended, `first` going first (the
        loser's choice, R-MATCH-3) with no coin toss (`Duel.new(first=…)`), and a seed derived
        from this duel's (`rematch_seed`: reproducible). Agents start afresh."""
        assert self.can_rematch() and self.duel.record is not None and first in (0, 1)
        fresh = _record_with(self.duel.record, [])
        fresh.seed, fresh.first = rematch_seed(self.duel.seed), first
        fresh.meta["chooser"] = self.rematch_chooser()
        duel = replay(fresh, self.pool)
        seats = (Seat(self.seats[0].name, self.seats[0].kind, self.seats[0].prompt),
                 Seat(self.seats[1].name, self.seats[1].kind, self.seats[1].prompt))
        session = Session(duel, self.pool, seats, hot_seat=self.hot_seat, save_dir=self.save_dir, autosave=self.autosave,
                          autosave_dir=self.autosave_dir, think_apart=self.think_apart, autosave_kind=self.autosave_kind,
                          table_asks=self.table_asks)
        if not self.hot_seat:
            session.viewer = next((i for i, s in enumerate(seats) if s.kind == "human"), 0)
        session.run_agents()
        session.save_auto()
        return session

    # ------------------------------------------------------------------ undo, restart, save

    def undo(self) -> bool:
        """Go back to the last real decision a human made: its snapshot, or a replay of
        everything before it."""
        if not self.undo_points or self.duel.record is None:
            return False
        mark = self.undo_points.pop()
        snapshot = self.snapshots.pop(mark, None)
        self.backout = self.responding = self.skip_mark = None
        self.duel = snapshot or self._replayed(mark)
        self._apply_prompt_modes()
        self._follow_decider()
        self.save_auto()
        return True

    def _replayed(self, mark: int) -> Duel:
        """The duel rebuilt up to its first `mark` recorded answers, in the prompt modes it is
        played in (so the rebuilt record, and the undo marks into it, stay the same)."""
        assert self.duel.record is not None
        modes = self.duel.prompt_modes
        return replay(_record_with(self.duel.record, self.duel.record.choices[:mark]), self.pool, prompt_modes=(modes[0], modes[1]))

    def restart(self, seed: int | None = None) -> None:
        """The duel from its start again (a new seed: new hands); its agents start afresh too,
        so the same answers meet the same moves (a puzzle's AI opponent plays as before)."""
        record = self.duel.record
        assert record is not None
        fresh = _record_with(record, [])
        if seed is not None:
            fresh.seed = seed
        self.duel = replay(fresh, self.pool)
        for seat in self.seats:
            seat.agent = None
        self.undo_points.clear()
        self.snapshots.clear()
        self._apply_prompt_modes()
        self.run_agents()

    def save(self, name: str) -> Path:
        """Save under `name` in the saves folder (never outside it: the name is cleaned). Raises OSError."""
        path = self.save_dir / save_file_name(name)
        assert self.duel.record is not None
        self.duel.record.save(path)
        return path

    def save_auto(self) -> None:
        """Keep the autosave up to date; a failure is kept in `autosave_error` for the screen."""
        if not self.autosave or self.duel.record is None:
            return
        kind = self.autosave_kind or ("hotseat" if self.hot_seat else "solo")
        path = self.autosave_file = paths.autosave_for(self.autosave_file, self.autosave_dir, kind)
        try:
            if self.duel.outcome is not None:
                path.unlink(missing_ok=True)
                paths.release(path)
            else:
                self.duel.record.save(path)
            self.autosave_error = ""
        except OSError as e:
            self.autosave_error = f"the autosave to {path} failed: {e.strerror or e}"

    @classmethod
    def load(cls, path: Path, pool: CardPool, seats: tuple[Seat, Seat], *, hot_seat: bool) -> "Session":
        return cls.start(load_duel(path, pool), pool, seats, hot_seat=hot_seat)


def _record_with(record: ReplayRecord, choices: list[str]) -> ReplayRecord:
    """The same duel's record with other answers (everything else as it was: a given first
    player, a time limit …)."""
    return replace(record, choices=list(choices), meta=dict(record.meta), source=None)


def rematch_seed(seed: int) -> int:
    """A rematch's seed, derived from the last duel's: a rematch (and the one after it) is as
    reproducible as the first duel."""
    return random.Random(f"rematch after {seed}").randrange(1, 10**6)


def save_file_name(name: str) -> str:
    """A save's file name from what the user typed: letters, digits, spaces, '.', '-' and '_'
    only, no folders, so that '../../x' or '/etc/x' stays inside the saves folder."""
    stem = re.sub(r"[^\w .-]", "_", name.strip().removesuffix(".json")).strip(" .")
    return f"{stem[:80] or 'duel'}.json"


__all__ = ["Session", "Seat", "EngineBug", "PUBLIC", "forced", "autosave_path"]
