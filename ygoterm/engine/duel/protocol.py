"""The `Duel`: the decision protocol over the duel's state (DESIGN.md §2).

    duel = Duel.new(pool, (deck_a, deck_b), seed=42)
    while (d := duel.pending) is not None:
        duel.apply(agent.choose(duel.view(d.player), d))
    duel.outcome

The rules' control flow is a stack of frames (core/machine.py): records of pending work that
return a `Decision` whenever a player must choose and receive the chosen option(s). `apply`
checks the answer against the pending decision *before* anything changes, so an illegal answer
never corrupts the duel. As the flow is data, `Duel.copy` copies a duel without replaying it.
The state itself and its primitive changes are `state/duel_state.py` (`DuelState`, the class
the rule modules type their duel as); this subclass adds what clients call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence

from ...schema.decks import Deck
from ...schema.legality import rules_of_decks
from ...schema.rules import Rules
from ..board import actions
from ..board.continuous import changed_word, level_now, source_with, stat, still_sources
from ..board.views import DuelView, make_view
from ..core import machine
from ..core.decision import Decision, DuelOver, EndReason, IllegalChoice, Kind, Option, PromptMode, Refusal
from ..core.events import Event
from ..core.machine import Frame
from ..core.types import Loc
from ..rules import flow
from ..rules import manual as manual_actions
from ..rules.commands import match_command, norm, split_selection
from ..rules.legality import attacker_still_able, explain
from ..rules.manual import Manual
from ..rules.windows import in_last_chance
from ..rules import time_procedure
from ..state.card import CardInst
from ..state.copying import copy_duel
from ..state.determinize import determinize
from ..state.duel_state import DEFAULT_NAMES, DuelState
from ..state.record import ReplayRecord
from ..state.timelimit import EXTRA_DUEL, EXTRA_TURNS, TimeLimit

if TYPE_CHECKING:
    from ...schema.cardpool import CardPool

REFRESH = Option("refresh", "refresh")  # sent into the flow after a manual action: ask again
Answer = Option | str | Sequence[Option | str]


class Duel(DuelState):
    """A duel between players 0 and 1. Create it with `Duel.new` (or `build_position`)."""

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, pool: "CardPool", decks: tuple[Deck, Deck], seed: int, rules: Rules | None = None,
            names: tuple[str, str] = DEFAULT_NAMES, *, solo: bool = False, first: int | None = None,
            time_limit: TimeLimit | None = None) -> "Duel":
        """A fresh duel: coin toss, shuffles and opening hands happen as the flow starts.
        `solo`: one person tests a deck, so manual actions are always allowed. `first`: the
        player who goes first, already chosen (a match's later duel, R-MATCH-3): no coin toss.
        `time_limit`: a duel limited from its start (the extra duel of R-TIME-6). Without `rules`, the rules the decks
        say they are built for (`rules: goat` — two GOAT decks play a GOAT duel in the arena, the fuzz, the lab), else
        today's."""
        duel = cls(rules or rules_of_decks(decks, Rules()), seed, names)
        duel.card_names, duel.card_kind = pool.names(), pool.kind_of
        duel.solo = solo
        duel.first_given = first
        duel.record = ReplayRecord.for_decks(pool, decks, seed, duel.rules, names)
        duel.record.solo = solo
        duel.record.first = first
        if time_limit is not None:
            duel.time_limit = time_limit
            duel.record.time_limit = time_limit.entry
            time_procedure.called(duel, time_limit)
        duel.deal_uids(sum(len(d.main) + len(d.extra) for d in decks))
        for p, deck in enumerate(decks):
            duel.deal(p, deck.main, Loc.DECK)
            duel.deal(p, deck.extra, Loc.EXTRA)
        duel.start_flow(flow.Run())
        return duel

    def start_flow(self, flow: Frame) -> None:
        """Run the duel's flow from `flow` (a new duel's whole duel, a position's current phase)
        until the first decision."""
        self.flow = [flow]
        self._advance(None)

    # ------------------------------------------------------------------ the protocol

    def apply(self, answer: Answer) -> list[Event]:
        """Answer the pending decision; return the events it caused.

        `answer` is an Option of the pending decision, its key or its label (a typed command);
        for CARDS/ORDER decisions, a sequence of them. Anything else raises IllegalChoice and
        leaves the duel exactly as it was.
        """
        decision = self.pending
        if decision is None:
            raise IllegalChoice("R-WIN-1", "the duel is over")
        chosen = self._validate(decision, answer)
        if self.record is not None:
            entry = ",".join(o.key for o in chosen) if decision.multi else chosen.key
            self.record.choices.append("=" + entry if forced(decision) else entry)
        start = len(self.log)
        self._advance(chosen)
        return self.log[start:]

    def _validate(self, decision: Decision, answer: Answer) -> Any:
        if decision.multi:
            if isinstance(answer, Option):
                answer = [answer]
            elif isinstance(answer, str):
                answer = [answer] if decision.option(answer) else split_selection(decision, answer)
            chosen = [self._match(decision, a) for a in answer]
            if len({o.key for o in chosen}) != len(chosen):
                raise IllegalChoice("PROTOCOL", "the same option was chosen twice")
            if decision.kind == Kind.ORDER and len(chosen) != len(decision.options):
                raise IllegalChoice("R-PRIO-5", f"order all {len(decision.options)} effects")
            if not decision.min <= len(chosen) <= decision.max:
                want = str(decision.min) if decision.min == decision.max else f"{decision.min} to {decision.max}"
                raise IllegalChoice(decision.rule or _SELECT_RULES.get(decision.verb, "PROTOCOL"), f"{decision.verb or 'select'} {want}, not {len(chosen)}")
            if decision.sets and frozenset(o.key for o in chosen) not in decision.sets:
                refusal = self._selection_refusal(tuple(chosen))
                if refusal is not None:
                    raise IllegalChoice(refusal.rule, f"{refusal.action}: {refusal.message}")
                raise IllegalChoice("PROTOCOL", "those cannot be chosen together")
            return tuple(chosen)
        if not isinstance(answer, (str, Option)):
            if len(answer) != 1:
                raise IllegalChoice("PROTOCOL", "choose exactly one option")
            answer = answer[0]
        return self._match(decision, answer)

    def _selection_refusal(self, chosen: tuple[Option, ...]) -> Refusal | None:
        """Why a selection outside the pending decision's `sets` is refused: the asking frame says
        (its `selection_refusal` method), or None."""
        check = getattr(self.flow[-1], "selection_refusal", None) if self.flow else None
        return check(self, chosen) if check is not None else None

    def _match(self, decision: Decision, answer: Option | str) -> Option:
        if isinstance(answer, Option):
            for o in decision.options:
                if o is answer:
                    return o
            answer = answer.key
        for o in decision.options:
            if o.key == answer:
                return o
        refusal = self._option_refusal(answer)
        if refusal is not None:
            raise IllegalChoice(refusal.rule, f"{refusal.action}: {refusal.message}")
        return match_command(self, decision, answer)

    def _option_refusal(self, text: str) -> Refusal | None:
        """Why an option the asking frame left out is refused (its `refused_options` method: Don
        Zaloog's effect that could do nothing), or None."""
        check = getattr(self.flow[-1], "refused_options", None) if self.flow else None
        return next((r for r in check(self) if norm(r.action) == norm(text)), None) if check is not None else None

    def _advance(self, value: Any) -> None:
        """Run the flow until it asks the next question (or the duel ends)."""
        try:
            self.pending = machine.advance(self, self.flow, value)
        except DuelOver:
            self.pending = None
        if self.pending is None:
            machine.close(self.flow)

    def concede(self, player: int) -> list[Event]:
        """R-WIN-5: a player may concede at any time; it counts as a loss."""
        if self.outcome is not None:
            raise IllegalChoice("R-WIN-5", "the duel is already over")
        start = len(self.log)
        if self.record is not None:
            self.record.choices.append(f"!concede:{player}")
        machine.close(self.flow)
        self.pending = None
        self._end(1 - player, EndReason.CONCESSION, f"{self.names[player]} conceded")
        return self.log[start:]

    def check_manual(self, player: int, action: Manual) -> None:
        """Raise IllegalChoice if `player` may not take this manual action now (a client lists
        only the actions that pass)."""
        manual_actions.check(self, player, action)

    def manual(self, player: int, action: Manual) -> list[Event]:
        """A manual action (DESIGN.md §4) between answers: allowed in solo testing or with the
        `manual_actions` rules switch, at an open moment (a command or response decision)."""
        if self.outcome is not None or self.pending is None:
            raise IllegalChoice("R-WIN-1", "the duel is over")
        if self.pending.kind not in (Kind.COMMAND, Kind.BATTLE, Kind.CHAIN):
            raise IllegalChoice("MANUAL", "finish the current choice first; manual actions wait for a command or response prompt")
        manual_actions.check(self, player, action)
        start = len(self.log)
        if self.record is not None:
            self.record.choices.append(f"!manual:{player}:{action.to_json()}")
        try:
            manual_actions.perform(self, player, action)
        except DuelOver:
            machine.close(self.flow)
            self.pending = None
            return self.log[start:]
        self._advance(REFRESH)  # the open decision is asked again with what changed
        return self.log[start:]

    def call_time(self, extra_turns: int | None = None, equal_lp: str | None = None) -> list[Event]:
        """R-TIME-2: time is called now. The current turn (turn 1 before the first begins) is
        played to its end, then `extra_turns` more (default: the rules' time procedure), then
        LP decide (R-TIME-3/4). Stored in the replay where it happened."""
        settings = self.rules.time
        turn = max(self.turn, 1)
        extra = settings.extra_turns if extra_turns is None else extra_turns
        return self.set_time_limit(TimeLimit(EXTRA_TURNS, turn, turn + extra, equal_lp or settings.equal_lp))

    def limit_turns(self, turns: int, equal_lp: str = "sudden_death") -> list[Event]:
        """R-TIME-6: this duel lasts `turns` turns, then the higher LP wins (equal: sudden death)."""
        return self.set_time_limit(TimeLimit(EXTRA_DUEL, 0, turns, equal_lp))

    def set_time_limit(self, limit: TimeLimit) -> list[Event]:
        if self.outcome is not None or self.pending is None:
            raise IllegalChoice("R-TIME-2", "the duel is over")
        if self.time_limit is not None:
            raise IllegalChoice("R-TIME-2", "time has already been called in this duel")
        start = len(self.log)
        if self.record is not None:
            self.record.choices.append(limit.entry)
        self.time_limit = limit
        time_procedure.called(self, limit)
        return self.log[start:]

    @property
    def priority_passes(self) -> int:
        """In a response window (a `chain` decision pending): how many players passed in
        succession just before this question — 0, or 1 when one more pass ends the window (or
        resolves the chain). A hot-seat client that asks both players one shared question per
        window reads it to answer "pass" for both, and no further (R-PRIO-1)."""
        pending = self.pending
        if pending is None or pending.kind != Kind.CHAIN or not self.flow:
            return 0
        return getattr(self.flow[-1], "passes", 0)

    def set_prompt_mode(self, player: int, mode: PromptMode) -> None:
        """'always': every response window asks, even with only "pass" (hot-seat privacy);
        'auto': windows with nothing to activate pass by themselves. Replays are unaffected."""
        if mode not in ("auto", "always"):
            raise ValueError(f"prompt mode must be 'auto' or 'always', not {mode!r}")
        self.prompt_modes[player] = mode

    def events_for(self, player: int, events: Iterable[Event] | None = None) -> list[Event]:
        """The log (or the given events) as `player` may see it."""
        return [e.for_player(player) for e in (self.log if events is None else events)]

    def view(self, player: int) -> DuelView:
        """What `player` may see (DESIGN.md §2 "hidden information is a view")."""
        with still_sources(self):
            return make_view(self, player, in_last_chance(self))

    def attack_goes_on(self) -> bool:
        """Whether an attack is declared and still goes on: not negated, its attacker still able to
        attack (what the Battle Step checks before the damage, rules/battle.py)."""
        state = self.attack
        return state is not None and not state.negated and attacker_still_able(self, state, self.turn_player)

    def explain(self, player: int, uid: int) -> list[Refusal]:
        """Why each action on card `uid` is unavailable to `player` now (with rule IDs)."""
        return explain(self, player, self.cards[uid])

    def copy(self) -> Duel:
        """An independent duel at the same pending decision: applying answers to one never
        changes the other. The flow is data, so this copies it (state/copying.py); a flow that
        holds a generator (`machine.GenFrame`: a handler or test written as one) cannot be
        copied (TypeError)."""
        if not machine.copyable(self.flow):
            raise TypeError("this duel's flow holds a generator (machine.GenFrame), which cannot be copied")
        return copy_duel(self)

    def determinize(self, viewer: int, seed: int) -> Duel:
        """A copy in which every card `viewer` cannot identify is resampled from what it could
        be (state/determinize.py): the same view for `viewer`, another hidden world."""
        return determinize(self, viewer, seed)

    def stat(self, card: CardInst, which: str) -> int:
        """A card's current ATK or DEF ("atk"/"def") with every continuous effect applied."""
        return stat(self, card, which)

    def arrived(self, card: CardInst) -> None:
        """A drawn card gets the changes of a `modify` with `later_arrivals` whose filter it matches (Cost Down)."""
        actions.arrived(self, card)

    def level_of(self, card: CardInst) -> int:
        """A card's current Level with every change applied (board/continuous.py: level_now)."""
        return level_now(self, card)

    def changed_word(self, card: CardInst, key: str) -> str | None:
        """The Type ("set_type") or Attribute ("set_attribute") a continuous effect gives `card` now, if one does."""
        return changed_word(self, card, key)

    def hands_shown(self) -> bool:
        """Whether both players must show their hands (a face-up Ceremonial Bell in a Monster Zone)."""
        return source_with(self, "shows_hands", lambda source, spec: source.loc == Loc.MZONE and spec.shows_hands is True) is not None

    def hand_shown(self, player: int) -> bool:
        """Whether `player` must show their hand: a face-up Ceremonial Bell (both hands) or a face-up Mind on Air of the
        other player (`shows_hands: opponent`) in a Monster Zone, or such a Spell/Trap on the field (The Eye of Truth); in
        their own turn, under Respect Play (`shows_hands: turn_player`)."""
        return source_with(self, "shows_hands", lambda source, spec: (source.loc == Loc.MZONE or not source.is_monster) and (
            spec.shows_hands is True or (spec.shows_hands == "opponent" and source.controller != player)
            or (spec.shows_hands == "turn_player" and self.turn_player == player))) is not None


_SELECT_RULES = {"tribute": "R-SUMMON-2", "discard": "R-TERM-13"}


def forced(decision: Decision) -> bool:
    """A decision with only one possible answer (clients may answer it by themselves)."""
    n = len(decision.options)
    if not decision.multi:
        return n == 1
    if decision.kind == Kind.ORDER:
        return n <= 1
    return decision.min == decision.max == n
