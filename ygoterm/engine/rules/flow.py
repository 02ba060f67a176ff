"""The rules' control flow: setup, turns, phases, the player's Summons and battle (the response
windows they open are engine/windows.py).

Each piece of pending work is a frame (engine/machine.py): a record whose step methods follow
the rule book in order and return a Decision when a player must choose; the next step receives
the chosen Option (or a tuple of them). `Duel.apply` drives the stack.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..state.card import CardInst
from .chain import activation_options
from ..board.continuous import effects_negated, equip_takes_battle_destruction, has_flag, tribute_value
from ..core.decision import Kind, Option, Refusal
from ..core import events
from ..core.events import (AttackStopped, CoinToss, DamageCalc, Flip, PhaseChange, Replay,
                     SetCard, Shuffle, Summon, TurnOrder, TurnStart)
from ..core.machine import DONE, Frame, Next, Return
from ..board.labels import unique_labels
from .legality import BATTLE, NORMAL_SUMMON, attack_option, attack_targets, battle_options, in_attacking_position, main_options, tribute_terms
from ..state.links import AttackState
from ..state.duel_state import DuelState
from ..effects.resolve import pay_unchained_cost
from . import time_procedure
from ..core.types import Loc, Phase, Pos, Step
from ..board import actions
from .windows import SummonTogether, after_chain, last_chance, start_chain, summon_with_negation_window, window

STOP = Option("stop", "stop", verb="stop")


# ---------------------------------------------------------------------- duel and turns


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
        d.turn += 1
        d.turn_player = 1 - d.turn_player
        return self.then(d, "next_turn", Turn(Phase.DRAW))


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
        self.skip = frozenset(phase for phase, when in d.players[p].skip.items() if when < d.turn)  # R-PHASE-8: set before this turn
        if self.first == Phase.DRAW:
            d.emit(TurnStart(d.turn, p))
            if d.time_limit is not None:
                time_procedure.turn_started(d)
            for card in d.players[p].mzone:
                if card is not None:
                    card.attacks = 0
        if self.first <= Phase.DRAW and "draw" not in self.skip:
            return self.then(d, "standby", draw_phase(d))
        return self.standby(d, None)

    def standby(self, d: DuelState, _: Any) -> Next:
        if self.first <= Phase.STANDBY and "standby" not in self.skip:
            set_phase(d, Phase.STANDBY)
            d.signal("standby_phase", None, d.turn_player)
            return self.then(d, "main1", window(d))
        return self.main1(d, None)

    def main1(self, d: DuelState, _: Any) -> Next:
        first = self.first
        if first <= Phase.MAIN1:
            if "main1" not in self.skip:
                return self.then(d, "after_main1", MainPhase(Phase.MAIN1))
            return self.after_main1(d, "end" if "battle" in self.skip else "battle")  # R-PHASE-8
        return self.after_main1(d, "main2" if first == Phase.MAIN2 else "battle" if first == Phase.BATTLE else "end")

    def after_main1(self, d: DuelState, go: str) -> Next:
        if go == "battle":
            return self.then(d, "main2", BattlePhase())
        if go == "main2":
            return self.main2(d, None)
        return self.end(d, None)

    def main2(self, d: DuelState, _: Any) -> Next:
        return self.then(d, "end", MainPhase(Phase.MAIN2))

    def end(self, d: DuelState, _: Any) -> Next:
        return self.then(d, "over", EndPhase())

    def over(self, d: DuelState, _: Any) -> Next:
        side = d.players[d.turn_player]
        for phase in self.skip:  # R-PHASE-8: a skip lasts for as many of the player's turns as it says
            left = side.skips_left
            left[phase] = left.get(phase, 1) - 1
            if left[phase] <= 0:
                side.skip.pop(phase, None)
                left.pop(phase, None)
        return DONE


def set_phase(d: DuelState, phase: Phase, step: Step = Step.NONE) -> None:
    d.phase, d.step = phase, step
    d.batch += 1
    d.emit(PhaseChange(d.turn, d.turn_player, phase, step))


def set_step(d: DuelState, step: Step) -> None:
    d.step = step
    d.emit(PhaseChange(d.turn, d.turn_player, d.phase, step))


def draw_phase(d: DuelState) -> Frame | tuple[()]:
    """R-PHASE-2 and R-SETUP-6: the first player skips the draw of turn 1."""
    set_phase(d, Phase.DRAW)
    if d.turn != 1 or d.rules.duel.first_turn_draw:
        for card in d.draw(d.turn_player, 1):
            d.signal("drawn", card, d.turn_player)
    return window(d)


@dataclass
class EndPhase(Frame):
    """R-PHASE-7: End Phase effects, then the turn player discards down to the hand limit."""

    def start(self, d: DuelState, _: Any) -> Next:
        set_phase(d, Phase.END)
        d.signal("end_phase", None, d.turn_player)
        _end_of_turn_effects(d)
        return self.then(d, "hand_limit", window(d))

    def hand_limit(self, d: DuelState, _: Any) -> Next:
        p = d.turn_player
        limit = d.rules.hand_limit
        hand = d.players[p].hand
        if limit is not None and len(hand) > limit:
            excess = len(hand) - limit
            options = unique_labels(d, [Option(f"card:{c.uid}", c.name, c.uid) for c in hand])
            return self.ask("discarded", d.ask(p, Kind.CARDS, options, f"Hand limit {limit}: discard {excess} card{'s' if excess > 1 else ''}",
                                               lo=excess, hi=excess, verb="discard", rule="R-PHASE-7"))
        return self.expire(d, None)

    def discarded(self, d: DuelState, chosen: tuple[Option, ...]) -> Next:
        for option in chosen:
            actions.move(d, d.cards[option.card], Loc.GY, reason="hand limit")
            d.signal("discarded", d.cards[option.card], d.turn_player)
        return self.then(d, "expire", window(d))  # triggers of the discards happen in this End Phase

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
    if d.floating:
        kept = [f for f in d.floating if f[2] > d.turn]
        d.index.continuous_count -= len(d.floating) - len(kept)
        d.floating = kept
    for side in d.players:
        for card in (*side.mzone, *side.szone):  # (Pendulum Scales change in the Spell & Trap Zones)
            if card is not None and card.modifiers:
                card.modifiers = [m for m in card.modifiers if m.until != "end_of_turn"
                                  and not (m.until in ("opponent_turns", "your_turns") and m.expires <= d.turn)]


# ---------------------------------------------------------------------- main phase


@dataclass
class MainPhase(Frame):
    """R-PHASE-4/6: the turn player acts in an open game state until they move on."""

    phase: Phase
    verb: str = ""  # "battle" or "end": how the turn player moves on

    def start(self, d: DuelState, _: Any) -> Next:
        set_phase(d, self.phase)
        if d.signals:
            return self.then(d, "idle", window(d))
        return self.idle(d, None)

    def idle(self, d: DuelState, _: Any) -> Next:
        p = d.turn_player
        d.idle = True
        options = main_options(d, p)
        if d.index.responders:
            moves_on = len(options) - 2 if len(options) > 1 and options[-2] is BATTLE else len(options) - 1  # (END is last)
            options[moves_on:moves_on] = activation_options(d, p, open_state=True)
        return self.ask("chosen", d.ask(p, Kind.COMMAND, options, f"{self.phase.title}: your move"))

    def chosen(self, d: DuelState, choice: Option) -> Next:
        d.idle = False
        p = d.turn_player
        verb = choice.verb
        if choice.key == "refresh":
            return self.idle(d, None)
        if verb in ("battle", "end"):
            self.verb = verb
            return self.then(d, "moving_on", last_chance(d))
        if verb == "pendulum":
            from .pendulum import summon as pendulum_summon

            return self.then(d, "idle", pendulum_summon(d, p))
        if verb == "activate":
            return self.then(d, "activated", start_chain(d, p, choice))
        card = d.cards[choice.card]  # type: ignore[index]
        if verb == "summon":
            return self.then(d, "idle", NormalSummon(p, card.uid, setting=False))
        if verb == "set":
            if card.is_monster:
                return self.then(d, "idle", NormalSummon(p, card.uid, setting=True))
            actions.set_spell_trap(d, p, card)
            return self.idle(d, None)
        if verb == "flip":
            return self.then(d, "idle", flip_summon(d, p, card))
        if verb == "gemini":
            return self.then(d, "idle", gemini_summon(d, p, card))
        if verb == "switch":
            change_position(d, card)
            return self.then(d, "idle", window(d) if d.signals else None)  # triggers of the change (Dream Clown)
        if verb == "special":
            return self.then(d, "idle", procedure_summon(d, p, card, int(choice.key.rsplit(":", 1)[1])))
        assert verb in ("synchro", "xyz", "link"), verb
        from .extra_summons import extra_summon

        return self.then(d, "idle", extra_summon(d, p, card))

    def activated(self, d: DuelState, _: Any) -> Next:
        return self.then(d, "idle", after_chain(d))  # then the turn player is back in an open game state (R-PRIO-1)

    def moving_on(self, d: DuelState, acted: bool | None) -> Next:
        if acted:
            return self.idle(d, None)
        return Return(self.verb)


@dataclass
class NormalSummon(Frame):
    """R-SUMMON-1…3 and R-SUMMON-19: Tributes on declaration, then the negation window."""

    p: int
    uid: int
    setting: bool
    need: int = 0  # Tributes needed

    def start(self, d: DuelState, _: Any) -> Next:
        p, card = self.p, d.cards[self.uid]
        d.players[p].normal_summon_turn = d.turn  # counts even if the Summon is negated (R-SUMMON-19)
        need, most, monsters = tribute_terms(d, p, card)
        self.need = need
        card.tributes_used = 0
        if not need:
            return self.place(d, ())
        options = unique_labels(d, [Option(f"card:{c.uid}", c.name if c.face_up or c.controller == p else "face-down monster", c.uid)
                                    for c in monsters])
        doubles = d.index.continuous_count and any(tribute_value(d, c, card) > 1 for c in monsters)
        many = f"{need}" if most == need else f"{need} or {most}" if most == need + 1 else f"{need} to {most}"
        prompt = f"Tribute {many} monster{'s' if most > 1 else ''} for {card.name}"
        most = min(most, len(monsters))
        lo = 1 if doubles else need
        fits = tuple(frozenset(f"card:{c.uid}" for c in s) for n in range(lo, most + 1) for s in combinations(monsters, n)
                     if tribute_refusal(d, p, card, list(s), need) is None)
        return self.ask("place", d.ask(p, Kind.CARDS, options, prompt, lo=lo, hi=most, verb="tribute", sets=fits, subject=card.uid))

    def selection_refusal(self, d: DuelState, chosen: tuple[Option, ...]) -> Refusal | None:
        """Why a set of Tributes outside the decision's `sets` is refused."""
        return tribute_refusal(d, self.p, d.cards[self.uid], [d.cards[o.card] for o in chosen], self.need)  # type: ignore[index]

    def place(self, d: DuelState, chosen: tuple[Option, ...]) -> Next:
        p, card = self.p, d.cards[self.uid]
        side = d.players[p]
        if chosen:
            d.batch += 1
            card.tributes_used = len(chosen)
            for option in chosen:
                actions.move(d, d.cards[option.card], Loc.GY, reason="tribute")  # type: ignore[index]  # R-SUMMON-3: not destroyed
        zone = side.free_mzone()
        assert zone is not None
        if self.setting:
            side.monster_set_turn = d.turn
            actions.move(d, card, Loc.MZONE, seq=zone, face_up=False, pos=Pos.FACEDOWN_DEFENSE, quiet=True)
            card.set_with = len(chosen)
            d.emit(SetCard(p, card.uid, card.name, Loc.MZONE, zone))
            return DONE
        return self.then(d, "finish", summon_with_negation_window(d, p, card, zone, Pos.ATTACK, "tribute" if self.need else "normal",
                                                                  properly=True))


def tribute_refusal(d: DuelState, p: int, card: CardInst, tributes: list[CardInst], need: int) -> Refusal | None:
    """Why these Tributes cannot Summon `card` (None if they can): worth too little (R-SUMMON-2),
    or none of them frees the Main Monster Zone it needs (R-ZONE-1: an EMZ monster frees an EMZ)."""
    if sum(tribute_value(d, c, card) for c in tributes) < need:
        return Refusal(NORMAL_SUMMON, "R-SUMMON-2", f"those are worth fewer than {need} Tributes for {card.name}")
    if d.players[p].free_mzone() is None and not any(c.seq < 5 for c in tributes):
        return Refusal(NORMAL_SUMMON, "R-ZONE-1", "all 5 Main Monster Zones are occupied: Tribute at least 1 monster from one")
    return None


def procedure_summon(d: DuelState, p: int, card: CardInst, index: int) -> "ProcedureSummon":
    """R-SUMMON-7: no chain link; pay the cost, place the monster, then the negation window."""
    return ProcedureSummon(p, card.uid, index)


@dataclass
class ProcedureSummon(Frame):
    p: int
    uid: int
    index: int  # the card's summoning procedure (an effect of kind `procedure`)
    zone: int = 0

    def start(self, d: DuelState, _: Any) -> Next:
        card = d.cards[self.uid]
        if card.effects[self.index].cost:
            return self.then(d, "paid", pay_unchained_cost(d, self.p, card, self.index))
        return self.paid(d, None)

    def paid(self, d: DuelState, _: Any) -> Next:
        zone = d.players[self.p].free_mzone()
        if zone is None:
            return DONE
        self.zone = zone
        return self.ask("placed", d.ask(self.p, Kind.POSITION, (Option("attack", "attack"), Option("defense", "defense")),
                                        f"Special Summon {d.cards[self.uid].name} in which position?", verb="position",
                                        subject=self.uid, effect=self.index))

    def placed(self, d: DuelState, answer: Option) -> Next:
        pos = Pos.ATTACK if answer.key == "attack" else Pos.DEFENSE
        card = d.cards[self.uid]
        return self.then(d, "finish", summon_with_negation_window(d, self.p, card, self.zone, pos, "special", properly=True))



def gemini_summon(d: DuelState, p: int, card: CardInst) -> Frame | tuple[()]:
    """R-CARD-6: a Gemini monster on the field Normal Summoned again becomes an Effect Monster.
    It uses the turn's Normal Summon; as the monster is already on the field there is nothing to
    negate, but it is a Normal Summon that "When … Normal Summoned" cards may answer."""
    side = d.players[p]
    side.normal_summon_turn = side.summoned_turn = d.turn
    card.gemini_active = True
    card.summon_kind, card.summon_turn = "gemini", d.turn
    d.emit(Summon(p, card.uid, card.name, "gemini", card.pos, card.seq))
    d.batch += 1
    d.signal("normal_summoned", card, p, how="gemini")
    return window(d)


def flip_summon(d: DuelState, p: int, card: CardInst) -> "SummonTogether":
    """R-SUMMON-4: face-down Defense → face-up Attack; it counts as the turn's position change."""
    card.pos = Pos.ATTACK
    card.face_up = True
    card.pos_changed_turn = d.turn
    return summon_with_negation_window(d, p, card, None, Pos.ATTACK, "flip", properly=False)


def change_position(d: DuelState, card: CardInst) -> None:
    """R-SUMMON-5: face-up Attack ↔ face-up Defense, once per turn."""
    actions.set_position(d, card, "toggle")
    card.pos_changed_turn = d.turn


# ---------------------------------------------------------------------- battle


@dataclass
class BattlePhase(Frame):
    """R-PHASE-5: Start Step → (Battle Step ↔ Damage Step) → End Step."""

    def start(self, d: DuelState, _: Any) -> Next:
        d.players[d.turn_player].battle_turn = d.turn
        set_phase(d, Phase.BATTLE, Step.START)
        return self.then(d, "battle_step", window(d))

    def battle_step(self, d: DuelState, _: Any) -> Next:
        if d.step != Step.BATTLE:
            set_step(d, Step.BATTLE)
        p = d.turn_player
        d.idle = True
        options = battle_options(d, p)
        if d.index.responders:
            options[-1:-1] = activation_options(d, p, open_state=True)
        return self.ask("chosen", d.ask(p, Kind.BATTLE, options, "Battle Step: attack or end the Battle Phase"))

    def chosen(self, d: DuelState, choice: Option) -> Next:
        d.idle = False
        p = d.turn_player
        if choice.key == "refresh":
            return self.battle_step(d, None)
        if choice.verb == "main2":
            return self.then(d, "moving_on", last_chance(d))
        if choice.verb == "activate":
            return self.then(d, "activated", start_chain(d, p, choice))
        assert choice.card is not None
        return self.then(d, "attacked", Attack(p, choice.card, choice.target))

    def activated(self, d: DuelState, _: Any) -> Next:
        return self.then(d, "battle_step", after_chain(d))

    def moving_on(self, d: DuelState, acted: bool | None) -> Next:
        return self.battle_step(d, None) if acted else self.end_step(d, None)

    def attacked(self, d: DuelState, _: Any) -> Next:
        if d.end_battle:  # Negate Attack: "… then end the Battle Phase"
            d.end_battle = False
            return self.end_step(d, None)
        return self.battle_step(d, None)

    def end_step(self, d: DuelState, _: Any) -> Next:
        set_step(d, Step.END)
        d.batch += 1
        d.signal("battle_phase_end", None, d.turn_player)
        return self.then(d, "finish", window(d))


@dataclass
class Attack(Frame):
    """R-BATTLE-1…3: declare, let players respond, replay if the opponent's monsters changed.
    The attack in progress is `d.attack` (an AttackState) until the frame ends."""

    p: int
    attacker: int  # uid
    target: int | None  # uid, None for a direct attack
    costs: tuple[int, ...] = ()  # attack costs still to pay (Panther Warrior)

    def start(self, d: DuelState, _: Any) -> Next:
        attacker = d.cards[self.attacker]
        attacker.attacks += 1  # a negated or replayed attack still uses it (R-BATTLE-1/3)
        attacker.attacked_turn = d.turn
        d.batch += 1
        if attacker.attack_costs and not effects_negated(d, attacker):  # paid as it declares: no response comes first
            self.costs = attacker.attack_costs
        return self.pay(d, None)

    def pay(self, d: DuelState, _: Any) -> Next:
        if self.costs:
            index, self.costs = self.costs[0], self.costs[1:]
            return self.then(d, "pay", pay_unchained_cost(d, self.p, d.cards[self.attacker], index))
        return self.declare(d)

    def declare(self, d: DuelState) -> Next:
        attacker = d.cards[self.attacker]
        target = d.cards[self.target] if self.target is not None else None
        d.emit(events.Attack(self.p, attacker.uid, attacker.name, target.uid if target else None,
                             target.name if target is not None and target.face_up else None))
        d.attack = AttackState(attacker, target, _foes(d, 1 - self.p), moves=(attacker.moves, target.moves if target else 0))
        d.signal("attack_declared", attacker, self.p)
        return self.then(d, "declared", window(d))  # R-CHAIN-8: the new-chain window after an attack declaration

    def declared(self, d: DuelState, _: Any) -> Next:
        p, state = self.p, d.attack
        attacker = state.attacker
        if state.negated:
            return self.stop(d, "the attack was negated")
        if attacker.loc != Loc.MZONE or attacker.moves != state.moves[0] or attacker.controller != p \
                or not in_attacking_position(d, attacker):
            return self.stop(d, "the attacker is no longer able to attack")
        now = _foes(d, 1 - p)
        if now == state.foes:
            return self.then(d, "over", DamageStep(p))
        # R-BATTLE-3: replay. Re-choosing is not a new declaration.
        d.emit(Replay(attacker.uid, attacker.name))
        targets = attack_targets(d, p)
        options = [attack_option(d, attacker, t) for t in targets]
        if None not in targets and d.index.continuous_count:
            if has_flag(d, attacker, "direct_attack"):
                options.append(attack_option(d, attacker, None))
        options.append(STOP)
        return self.ask("replayed", d.ask(p, Kind.BATTLE, unique_labels(d, options), f"Replay: choose a new target for {attacker.name} or stop"))

    def replayed(self, d: DuelState, choice: Option) -> Next:
        state = d.attack
        if choice.key == "refresh":  # a manual action: look again
            return self.declared(d, None)
        if choice.verb == "stop":
            return self.stop(d, "the attack was stopped after a replay")
        state.foes = _foes(d, 1 - self.p)
        state.target = target = d.cards[choice.target] if choice.target is not None else None
        state.moves = (state.attacker.moves, target.moves if target else 0)
        return self.declared(d, None)

    def stop(self, d: DuelState, why: str) -> Next:
        d.emit(AttackStopped(self.attacker, d.cards[self.attacker].name, why))
        return self.over(d, None)

    def over(self, d: DuelState, _: Any) -> Next:
        d.attack = None
        return DONE


def _foes(d: DuelState, foe: int) -> frozenset[tuple[int, int]]:
    return frozenset((c.uid, c.moves) for c in d.players[foe].mzone if c is not None)


@dataclass
class DamageStep(Frame):
    """R-BATTLE-4 sub-steps, with R-BATTLE-5 (face-down targets) and the tables of R-BATTLE-7…9."""

    p: int

    def start(self, d: DuelState, _: Any) -> Next:
        set_step(d, Step.DAMAGE_START)
        return self.then(d, "before_damage", window(d, triggers=False))

    def before_damage(self, d: DuelState, _: Any) -> Next:
        if _battle_over(d, self.p, d.attack):
            return DONE
        set_step(d, Step.BEFORE_DAMAGE)
        target = d.attack.target
        if target is not None and not target.face_up:
            target.face_up = True
            target.pos = Pos.ATTACK if target.pos == Pos.FACEDOWN_ATTACK else Pos.DEFENSE
            target.flipped_turn = d.turn
            d.emit(Flip(target.uid, target.name, target.pos))
            d.signal("flipped", target, target.controller)  # its FLIP activates after damage calculation
        return self.then(d, "damage_calculation", window(d, triggers=False))

    def damage_calculation(self, d: DuelState, _: Any) -> Next:
        if _battle_over(d, self.p, d.attack):
            return DONE
        set_step(d, Step.DAMAGE_CALC)
        return self.then(d, "calculate", window(d, triggers=False))

    def calculate(self, d: DuelState, _: Any) -> Next:
        state = d.attack
        if _battle_over(d, self.p, state):
            return DONE
        attacker, target = state.attacker, state.target
        d.batch += 1  # battle damage and "battled" are one moment: after damage calculation (R-BATTLE-4)
        _damage_calculation(d, self.p, 1 - self.p, state)
        for card in (attacker, target):  # "during that damage calculation only" (Injection Fairy Lily)
            if card is not None and card.modifiers:
                card.modifiers = [m for m in card.modifiers if m.until != "damage_calculation"]
        set_step(d, Step.AFTER_DAMAGE)
        for card in (attacker, target):
            if card is not None and card.loc == Loc.MZONE:
                d.signal("battled", card, card.controller)
        return self.then(d, "end_of_damage_step", window(d))

    def end_of_damage_step(self, d: DuelState, _: Any) -> Next:
        state = d.attack
        set_step(d, Step.DAMAGE_END)
        d.batch += 1
        destroyed = [c for c in (state.attacker, state.target) if c is not None and c.battle_destroyed and c.loc == Loc.MZONE]
        if d.index.continuous_count:
            for card in list(destroyed):
                substitute = equip_takes_battle_destruction(d, card)  # Relinquished
                if substitute is not None:
                    destroyed.remove(card)
                    card.battle_destroyed = False
                    actions.destroy(d, [substitute], by="effect", source=card, reason=f"destroyed instead of {card.name}")
        actions.destroy(d, destroyed, by="battle")
        return self.then(d, "finish", window(d))


def _battle_over(d: DuelState, p: int, state: AttackState) -> bool:
    """The attack ends early if it was negated or a monster of the battle left the field."""
    if state.negated:
        d.emit(AttackStopped(state.attacker.uid, state.attacker.name, "the attack was negated"))
        return True
    if state.attacker.loc != Loc.MZONE or state.attacker.moves != state.moves[0] or state.attacker.controller != p:
        d.emit(AttackStopped(state.attacker.uid, state.attacker.name, "the attacker left the field"))
        return True
    if state.target is not None and (state.target.loc != Loc.MZONE or state.target.moves != state.moves[1]
                                     or state.target.controller == p):
        d.emit(AttackStopped(state.attacker.uid, state.attacker.name, "the attack target left the field"))
        return True
    return False


def _damage_calculation(d: DuelState, p: int, foe: int, state: AttackState) -> None:
    attacker, target = state.attacker, state.target
    x = attacker.atk
    damage: dict[int, int] = {}
    if target is None:
        d.emit(DamageCalc(attacker.uid, None, x, None, None))
        if x > 0:  # R-BATTLE-9: 0 ATK inflicts no damage
            damage[foe] = x
    else:
        pos = target.pos
        if pos.is_attack:
            y = target.atk
            d.emit(DamageCalc(attacker.uid, target.uid, x, y, pos))
            if x > y:
                _mark(d, target)
                damage[foe] = x - y
            elif x == y:
                if x > 0:  # R-BATTLE-7: 0 vs 0 destroys nothing
                    _mark(d, attacker)
                    _mark(d, target)
            else:
                _mark(d, attacker)
                damage[p] = y - x
        else:
            df = target.defense
            d.emit(DamageCalc(attacker.uid, target.uid, x, df, pos))
            if x > df:
                _mark(d, target)  # R-BATTLE-8: no damage …
                if has_flag(d, attacker, "piercing"):  # … unless an effect grants piercing (R-BATTLE-12)
                    damage[foe] = x - df
            elif x < df:
                damage[p] = df - x
    damage = {who: amount for who, amount in damage.items()
              if who not in state.no_damage and d.players[who].no_battle_damage_turn != d.turn}
    if damage and d.index.continuous_count:
        for card in (attacker, target):  # Dark Flare Knight: its controller takes no battle damage from its battles
            if card is not None and card.controller in damage and has_flag(d, card, "no_battle_damage"):
                del damage[card.controller]
        for card in (attacker, target):  # Relinquished: the damage its controller takes is also the opponent's
            if card is not None and damage.get(card.controller) and has_flag(d, card, "shares_battle_damage"):
                other = 1 - card.controller
                damage[other] = damage.get(other, 0) + damage[card.controller]
    if damage:
        if target is None and d.index.continuous_count and has_flag(d, attacker, "wins_match"):
            d.match_claim = p  # Victory Dragon
        try:
            d.change_lps({who: -amount for who, amount in damage.items()}, "battle")
        finally:
            d.match_claim = None
        for who in damage:
            dealer = attacker if who == foe else target
            d.signal("battle_damage", dealer, who)


def _mark(d: DuelState, card: CardInst) -> None:
    if not has_flag(d, card, "cannot_be_destroyed_by_battle") and d.players[card.controller].battle_immune_turn != d.turn:
        card.battle_destroyed = True
