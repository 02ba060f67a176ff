"""The duel's flow: setup, turns and phases (RULES.md §5 Setup, §6 Phases).

Each piece of pending work is a Frame (core/machine.py): its step methods receive the duel and
the chosen Option (or a tuple of them). `Duel.apply` drives the stack. The Main Phase with its
Summons is `rules/main_phase.py`, the Battle Phase `rules/battle.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.decision import Kind, Option
from ..core.events import (CoinToss, Note, Shuffle, TurnOrder, TurnStart)
from ..core.machine import DONE, Frame, Next
from ..board.continuous import hand_limit_of
from ..board.labels import unique_labels
from ..state.duel_state import DuelState
from . import time_procedure
from ..core.types import Loc, Phase, Reason
from ..board import actions
from ..board.continuous import battle_phase_forbidden, no_hand_limit
from .chain import process_triggers
from .windows import window
from .battle import BattlePhase
from .main_phase import MainPhase


@dataclass
class Run(Frame):
    """A whole duel from the coin toss (R-SETUP-1…6)."""

    def start(self, d: DuelState, _: Any) -> Next:
        return self.then(d, "play", Setup())

    def play(self, d: DuelState, _: Any) -> Next:
        return self.then(d, "finish", Play(Phase.DRAW))


@dataclass
class Play(Frame):
    """Turns from the given phase of the current turn onwards, until the duel is decided."""

    phase: Phase

    def start(self, d: DuelState, _: Any) -> Next:
        return self.then(d, "next_turn", Turn(self.phase))

    def next_turn(self, d: DuelState, _: Any) -> Next:
        if d.time_limit is not None:
            time_procedure.turn_ended(d)  # R-TIME-3/4: after the last turn, LP decide
        for side in d.players:
            if not side.hand:
                side.empty_hand_turn = d.turn  # (condition hand_empty_last_turn)
        d.turn += 1
        d.turn_player = 1 - d.turn_player
        skipped = d.players[d.turn_player].skip
        if "turn" in skipped and skipped["turn"] < d.turn:  # "skip your next turn" (Gamble): it does not happen,
            _skip_turn(d)  # the other player takes the next turn too (R-PHASE-8)
        return self.then(d, "next_turn", Turn(Phase.DRAW))


def _skip_turn(d: DuelState) -> None:
    side = d.players[d.turn_player]
    left = side.skips_left.get("turn", 1) - 1
    if left <= 0:
        side.skip.pop("turn", None)
        side.skips_left.pop("turn", None)
    else:
        side.skips_left["turn"] = left
    d.emit(Note(f"{d.names[d.turn_player]} skips this turn"))
    d.turn_player = 1 - d.turn_player


@dataclass
class Setup(Frame):
    winner: int = 0

    def start(self, d: DuelState, _: Any) -> Next:
        if d.first_given is not None:  # R-MATCH-3: chosen between duels by the last duel's loser
            self.winner = d.first_given
            return self.chosen(d, Option("first", "first"))
        self.winner = winner = d.rng.randrange(2)  # R-SETUP-3: a seeded coin; the winner chooses
        d.emit(CoinToss(winner))
        return self.ask("chosen", d.ask(winner, Kind.FIRST, (Option("first", "first"), Option("second", "second")),
                                        f"{d.names[winner]} won the coin toss: go first or second?"))

    def chosen(self, d: DuelState, choice: Option) -> Next:
        first = self.winner if choice.key == "first" else 1 - self.winner
        d.first_player = d.turn_player = first
        d.emit(TurnOrder(first))
        for p in (0, 1):  # R-SETUP-2: each player shuffles, then the opponent cuts (a second shuffle)
            d.rng.shuffle(d.players[p].deck)
            d.rng.shuffle(d.players[p].deck)
            d.emit(Shuffle(p))
        for p in (first, 1 - first):  # R-SETUP-5
            d.draw(p, 5)
        d.turn = 1
        return DONE


@dataclass
class Turn(Frame):
    """One turn from `first` (its Draw Phase, or a later phase for a position) to its end."""

    first: Phase
    skip: frozenset[str] = frozenset()  # phases skipped this turn (R-PHASE-8)

    def start(self, d: DuelState, _: Any) -> Next:
        p = d.turn_player
        self.skip = _skipped(d)
        if self.first == Phase.DRAW:
            d.emit(TurnStart(d.turn, p))
            if d.time_limit is not None:
                time_procedure.turn_started(d)
            for side in d.players:  # attacks declared this turn (R-BATTLE-1), whoever controlled the monster before
                for card in side.mzone:
                    if card is not None:
                        card.attacks, card.attacked_foes = 0, ()
        if self.first <= Phase.DRAW and "draw" not in self.skip:
            return self.then(d, "standby", draw_phase(d))
        return self.standby(d, None)

    def standby(self, d: DuelState, _: Any) -> Next:
        if d.end_phase_turn == d.turn:  # "it becomes the End Phase" (Neko Mane King) in the Draw Phase
            return self.end(d, None)
        if self.first <= Phase.STANDBY and "standby" not in self.skip:
            d.set_phase(Phase.STANDBY)
            d.signal("standby_phase", None, d.turn_player)
            return self.then(d, "main1", window(d))
        return self.main1(d, None)

    def main1(self, d: DuelState, _: Any) -> Next:
        if d.end_phase_turn == d.turn:  # … or in the Standby Phase
            return self.end(d, None)
        first = self.first
        self.skip = _skipped(d)  # (one an effect skipped in this turn's Standby Phase: Frozen Soul)
        if first <= Phase.MAIN1:
            if "main1" not in self.skip:
                return self.then(d, "after_main1", MainPhase(Phase.MAIN1))
            return self.after_main1(d, "end" if "battle" in self.skip or _no_battle_phase(d) else "battle")  # R-PHASE-8
        return self.after_main1(d, "main2" if first == Phase.MAIN2 else "battle" if first == Phase.BATTLE else "end")

    def after_main1(self, d: DuelState, go: str) -> Next:
        if go == "battle":
            return self.then(d, "main2", BattlePhase())
        if go == "main2":
            return self.main2(d, None)
        return self.end(d, None)

    def main2(self, d: DuelState, _: Any) -> Next:
        if d.end_phase_turn == d.turn:  # … or in the Battle Phase
            return self.end(d, None)
        return self.then(d, "after_main2", MainPhase(Phase.MAIN2))

    def after_main2(self, d: DuelState, go: str | None) -> Next:
        """A second Battle Phase from Main Phase 2 (Weather Report: "you can perform your Battle Phase twice this turn"),
        then Main Phase 2 again; each monster may attack again in it (R-BATTLE-1)."""
        if go != "battle":
            return self.end(d, None)
        d.players[d.turn_player].second_battle_turn = 0  # (used)
        for side in d.players:
            for card in side.mzone:
                if card is not None:
                    card.attacks, card.attacked_foes = 0, ()
        return self.then(d, "main2", BattlePhase())

    def end(self, d: DuelState, _: Any) -> Next:
        return self.then(d, "over", EndPhase())

    def over(self, d: DuelState, _: Any) -> Next:
        side = d.players[d.turn_player]
        for phase in _skipped(d):  # R-PHASE-8: a skip lasts for as many of the player's turns as it says
            left = side.skips_left
            left[phase] = left.get(phase, 1) - 1
            if left[phase] <= 0:
                side.skip.pop(phase, None)
                left.pop(phase, None)
        return DONE


def draw_phase(d: DuelState) -> Frame | tuple[()]:
    """R-PHASE-2 and R-SETUP-6: the first player skips the draw of turn 1."""
    d.set_phase(Phase.DRAW)
    if d.turn != 1 or d.rules.duel.first_turn_draw:
        if "normal_draw" in d.index.trigger_events or any(r.phase == "normal_draw" for r in d.delayed):
            return DrawPhase()  # (a delayed effect `later: {at: normal_draw}` too: Hino-Kagu-Tsuchi)
        for card in (drawn := d.draw(d.turn_player, 1)):
            d.signal("drawn", card, d.turn_player)
        actions.destroy_drawn(d, drawn, d.turn_player)  # (Deck Devastation Virus)
    return window(d)


def _no_battle_phase(d: DuelState) -> bool:
    """Whether a face-up card forbids every Battle Phase now (D.D. Borderline): a skipped Main Phase 1 goes on to the End Phase."""
    return "no_battle_phase" in d.index.flags and battle_phase_forbidden(d) is not None


def _skipped(d: DuelState) -> frozenset[str]:
    """The turn player's phases skipped this turn (R-PHASE-8): set before this turn, or in it for a phase still ahead."""
    return frozenset(phase for phase, when in d.players[d.turn_player].skip.items() if when < d.turn)


@dataclass
class DrawPhase(Frame):
    """R-PHASE-2: before the normal draw only an effect that replaces it may be activated — a trigger
    of the event `normal_draw` (Freed the Matchless General: "instead of conducting your normal draw",
    with the operation `replace_draw`); then the draw, unless it was replaced."""

    def start(self, d: DuelState, _: Any) -> Next:
        d.signal("normal_draw", None, d.turn_player)
        return self.then(d, "draw", process_triggers(d))

    def draw(self, d: DuelState, _: Any) -> Next:
        p = d.turn_player
        if d.players[p].draw_replaced_turn != d.turn:
            for card in (drawn := d.draw(p, 1)):
                d.signal("drawn", card, p)
            actions.destroy_drawn(d, drawn, p)  # (Deck Devastation Virus)
        return self.then(d, "over", window(d))

    def over(self, d: DuelState, _: Any) -> Next:
        return DONE


@dataclass
class EndPhase(Frame):
    """R-PHASE-7: End Phase effects, then the turn player discards down to the hand limit."""

    def start(self, d: DuelState, _: Any) -> Next:
        d.set_phase(Phase.END)
        d.signal("end_phase", None, d.turn_player)
        _end_of_turn_effects(d)
        return self.then(d, "hand_limit", window(d))

    def hand_limit(self, d: DuelState, _: Any) -> Next:
        p = d.turn_player
        limit = hand_limit_of(d, p)  # the player's (Hieroglyph Lithograph) or the rules', or an opponent's card's (Enervating Mist)
        if limit is not None and "no_hand_limit" in d.index.flags and no_hand_limit(d) is not None:
            limit = None  # "There is no limit to the number of cards in players' hands" (Infinite Cards)
        hand = d.players[p].hand
        if limit is not None and len(hand) > limit:
            excess = len(hand) - limit
            options = unique_labels(d, [Option(f"card:{c.uid}", c.name, c.uid) for c in hand])
            return self.ask("discarded", d.ask(p, Kind.CARDS, options, f"Hand limit {limit}: discard {excess} card{'s' if excess > 1 else ''}",
                                               lo=excess, hi=excess, verb="discard", rule="R-PHASE-7"))
        return self.expire(d, None)

    def discarded(self, d: DuelState, chosen: tuple[Option, ...]) -> Next:
        for option in chosen:
            actions.move(d, d.card_of(option), Loc.GY, reason=Reason.HAND_LIMIT)
            d.signal("discarded", d.card_of(option), d.turn_player)
        # triggers of the discards happen in this End Phase; the turn then ends (no new window, R-PHASE-7)
        return self.then(d, "expire", process_triggers(d))

    def expire(self, d: DuelState, _: Any) -> Next:
        _expire_until_end_of_turn(d)
        return DONE


def _end_of_turn_effects(d: DuelState) -> None:
    """What the rules and card texts do in every End Phase: control returns (R-TERM-5),
    Swords of Revealing Light counts the opponent's turns (R-CARD-13)."""
    for side in d.players:
        for card in list(side.mzone):
            if card is not None and card.original_controller is not None and card.control_until == d.turn:
                actions.return_control(d, card)
    for side in d.players:
        for card in side.szone:
            if card is not None and card.face_up and card.turns_left and card.controller != d.turn_player:
                card.turns_left -= 1
                if card.turns_left == 0:
                    actions.destroy(d, [card], by="effect", reason="its turns are over")


def _expire_until_end_of_turn(d: DuelState) -> None:
    if d.arrivals:
        d.arrivals = [a for a in d.arrivals if a[4] > d.turn]
    if d.floating:
        kept = [f for f in d.floating if f[2] > d.turn]
        d.index.continuous_count -= len(d.floating) - len(kept)
        d.floating = kept
    for side in d.players:
        for card in (*side.mzone, *side.szone, *side.hand):  # (Pendulum Scales change in the Spell & Trap Zones; Levels in the hand)
            if card is not None and card.modifiers:
                # (a change "for this damage calculation" whose battle never reached one ends with the turn too: Cross Counter)
                card.modifiers = [m for m in card.modifiers if m.until not in ("end_of_turn", "battle_phase", "damage_calculation")
                                  and not (m.until in ("opponent_turns", "your_turns") and m.expires <= d.turn)]
