"""The Battle Phase (R-PHASE-5, RULES.md §8 Battle): the Battle Step's attacks, replays,
the Damage Step's five sub-steps each ending in its window, damage calculation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..state.card import CardInst
from .activation import activation_options
from ..board.continuous import (field_attack_costs, battle_indestructible_with, battle_result, effect_damage_prevented, effect_damage_protected,
                                effects_negated,
                                equip_takes_battle_destruction, has_flag)
from ..core.decision import Kind, Option
from ..core import events
from ..core.events import (AttackStopped, DamageCalc, Flip, Note, Replay)
from ..core.machine import DONE, Frame, Next
from ..board.labels import card_options, unique_labels
from .legality import (CHOSEN_TARGET, attack_option, attack_target_chooser, attack_targets, attacked_already, battle_options,
                       attacker_still_able, chosen_target_option, targets_for)
from ..state.links import AttackState, Signal
from ..state.duel_state import DuelState
from ..effects.resolve import pay_unchained_cost
from ..core.types import Loc, Phase, Pos, Step
from ..board import actions
from .windows import after_chain, last_chance, start_chain, window


STOP = Option("stop", "stop", verb="stop")


@dataclass
class BattlePhase(Frame):
    """R-PHASE-5: Start Step → (Battle Step ↔ Damage Step) → End Step."""

    def start(self, d: DuelState, _: Any) -> Next:
        d.players[d.turn_player].battle_turn = d.turn
        d.set_phase(Phase.BATTLE, Step.START)
        return self.then(d, "battle_step", window(d))

    def battle_step(self, d: DuelState, _: Any) -> Next:
        if d.end_phase_turn == d.turn:  # "it becomes the End Phase" (Neko Mane King): no End Step, no Main Phase 2
            return DONE
        if d.step != Step.BATTLE:
            d.set_step(Step.BATTLE)
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
        d.set_step(Step.END)
        for side in d.players:  # "until the End Step" (Spirit Ryu)
            for card in side.mzone:
                if card is not None and card.modifiers and any(m.until == "battle_phase" for m in card.modifiers):
                    card.modifiers = [m for m in card.modifiers if m.until != "battle_phase"]
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
    costs: tuple[tuple[int, int], ...] = ()  # attack costs still to pay, (card uid, effect index): Panther Warrior's own, Toll's, Gravekeeper's Servant's

    def start(self, d: DuelState, _: Any) -> Next:
        attacker = d.cards[self.attacker]
        if self.target == CHOSEN_TARGET:  # the opponent chooses the target as the attack is declared (Patrician of Darkness)
            return self.target_chosen_by(d)
        attacker.attacks += 1  # a negated or replayed attack still uses it (R-BATTLE-1/3)
        if self.target is not None:
            target = d.cards[self.target]
            attacker.attacked_foes += ((target.uid, target.moves),)
        attacker.attacked_turn = d.turn
        if d.players[self.p].first_attacker[0] != d.turn:
            d.players[self.p].first_attacker = (d.turn, attacker.uid)
        d.batch += 1
        attacker.attacked_at = d.batch
        if attacker.attack_costs and not effects_negated(d, attacker):  # paid as it declares: no response comes first
            self.costs = tuple((attacker.uid, i) for i in attacker.attack_costs)
        # a face-up Continuous Spell/Trap asks a cost for the attack (Toll: each player; Gravekeeper's Servant: the opponent)
        self.costs += tuple((card.uid, i) for card, i in field_attack_costs(d, self.p))
        return self.pay(d, None)

    def target_chosen_by(self, d: DuelState) -> Next:
        attacker = d.cards[self.attacker]
        chooser = attack_target_chooser(d, self.p)
        foes = [t for t in targets_for(d, attacker, attack_targets(d, self.p))
                if t is not None and not (attacker.attacks and attacked_already(d, attacker, t))]
        if chooser is None or len(foes) <= 1:
            self.target = foes[0].uid if foes else None
            return self.start(d, None)
        return self.ask("chosen_target", d.ask(chooser, Kind.CARDS, card_options(d, foes, chooser),
                                               f"Choose the target of {attacker.name}'s attack", verb="target",
                                               subject=attacker.uid))

    def chosen_target(self, d: DuelState, answer: tuple[Option, ...]) -> Next:
        self.target = d.card_of(answer[0]).uid
        d.emit(Note(f"{d.names[1 - self.p]} chooses the target of {d.cards[self.attacker].name}'s attack"))
        return self.start(d, None)

    def replay_chosen(self, d: DuelState, answer: tuple[Option, ...]) -> Next:
        state = _attack(d)
        state.foes = _foes(d, 1 - self.p)
        state.target = target = d.card_of(answer[0])
        state.moves = (state.attacker.moves, target.moves)
        return self.declared(d, None)

    def pay(self, d: DuelState, _: Any) -> Next:
        if self.costs:
            (uid, index), self.costs = self.costs[0], self.costs[1:]
            return self.then(d, "pay", pay_unchained_cost(d, self.p, d.cards[uid], index))
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
        p, state = self.p, _attack(d)
        attacker = state.attacker
        self.attacker = attacker.uid  # (another monster may attack instead: Dark Spirit of the Silent's change_attacker)
        if state.negated:
            return self.stop(d, "the attack was negated")
        if not attacker_still_able(d, state, p):
            return self.stop(d, "the attacker is no longer able to attack")
        now = _foes(d, 1 - p)
        if now == state.foes:
            return self.then(d, "over", DamageStep(p))
        # R-BATTLE-3: replay. Re-choosing is not a new declaration.
        d.emit(Replay(attacker.uid, attacker.name))
        targets = attack_targets(d, p)
        allowed = targets_for(d, attacker, targets)
        options = [attack_option(d, attacker, t) for t in allowed if not attacked_already(d, attacker, t)]
        if attack_target_chooser(d, p) is not None and any(t is not None for t in allowed):  # Patrician of Darkness
            options = [chosen_target_option(d, attacker)] + [o for o in options if o.target is None]
        if None not in targets and (d.index.continuous_count or attacker.modifiers) and allowed is targets:
            if has_flag(d, attacker, "direct_attack"):
                options.append(attack_option(d, attacker, None))
        options.append(STOP)
        return self.ask("replayed", d.ask(p, Kind.BATTLE, unique_labels(d, options), f"Replay: choose a new target for {attacker.name} or stop"))

    def replayed(self, d: DuelState, choice: Option) -> Next:
        state = _attack(d)
        if choice.key == "refresh":  # a manual action: look again
            return self.declared(d, None)
        if choice.verb == "stop":
            return self.stop(d, "the attack was stopped after a replay")
        if choice.target == CHOSEN_TARGET:  # the opponent chooses the new target (Patrician of Darkness)
            attacker = state.attacker
            foes = [t for t in targets_for(d, attacker, attack_targets(d, self.p)) if t is not None
                    and not attacked_already(d, attacker, t)]
            chooser = attack_target_chooser(d, self.p)
            if chooser is not None and len(foes) > 1:
                return self.ask("replay_chosen", d.ask(chooser, Kind.CARDS, card_options(d, foes, chooser),
                                                       f"Choose the new target of {attacker.name}'s attack", verb="target",
                                                       subject=attacker.uid))
            choice = choice._replace(target=foes[0].uid if foes else None)
        state.foes = _foes(d, 1 - self.p)
        state.target = target = d.cards[choice.target] if choice.target is not None else None
        state.moves = (state.attacker.moves, target.moves if target else 0)
        return self.declared(d, None)

    def stop(self, d: DuelState, why: str) -> Next:
        d.emit(AttackStopped(self.attacker, d.cards[self.attacker].name, why))
        return self.over(d, None)

    def over(self, d: DuelState, _: Any) -> Next:
        attacker = d.cards[self.attacker]
        if attacker.loc == Loc.MZONE and d.attack is not None and attacker.moves == d.attack.moves[0]:
            attacker.attacked_at = d.batch  # it conducted this attack: "while this card was face-up" (Mirror Wall)
        d.attack = None
        if d.delayed:  # "after damage calculation" of a battle that ended without one: lost
            d.delayed = [rec for rec in d.delayed if rec.phase != "after_damage_calculation"]
        return DONE


def _attack(d: DuelState) -> AttackState:
    """The attack this Battle Step or Damage Step is about (set while it runs)."""
    state = d.attack
    assert state is not None, "an attack is in progress"
    return state


def _foes(d: DuelState, foe: int) -> frozenset[tuple[int, int]]:
    return frozenset((c.uid, c.moves) for c in d.players[foe].mzone if c is not None)


@dataclass
class DamageStep(Frame):
    """R-BATTLE-4 sub-steps, with R-BATTLE-5 (face-down targets) and the tables of R-BATTLE-7…9."""

    p: int
    held: list[Signal] = field(default_factory=list)  # signals kept for after damage calculation (a flipped target's)

    def start(self, d: DuelState, _: Any) -> Next:
        d.set_step(Step.DAMAGE_START)
        listened = "damage_step_start" in d.index.trigger_events
        if listened:  # "At the start of the Damage Step, if this card attacks a face-down monster" (Mystic Swordsman LV2)
            attacker = _attack(d).attacker
            d.signal("damage_step_start", attacker, attacker.controller)
        return self.then(d, "before_damage", window(d, triggers=listened))

    def before_damage(self, d: DuelState, _: Any) -> Next:
        if _battle_over(d, self.p, _attack(d)):
            return DONE
        d.set_step(Step.BEFORE_DAMAGE)
        target = _attack(d).target
        if target is not None and not target.face_up:
            _flip_target(d, _attack(d), target)
        if target is not None and "before_damage_calculation" in d.index.trigger_events:
            # "if this card attacks a Defense Position monster with 2000 or more DEF" (Disc Fighter): about the attacker, once
            # the target is face-up; the flip's own signal waits (its FLIP activates after damage calculation, R-BATTLE-5)
            self.held, d.signals = d.signals, []
            attacker = _attack(d).attacker
            d.signal("before_damage_calculation", attacker, attacker.controller)
            return self.then(d, "damage_calculation", window(d))
        return self.then(d, "damage_calculation", window(d, triggers=False))

    def damage_calculation(self, d: DuelState, _: Any) -> Next:
        if self.held:
            d.signals[:0], self.held = self.held, []
        if _battle_over(d, self.p, _attack(d)):
            return DONE
        target = _attack(d).target
        if target is not None and not target.face_up:  # a face-down monster the attack was moved to (Dreamsprite)
            _flip_target(d, _attack(d), target)
        d.set_step(Step.DAMAGE_CALC)
        return self.then(d, "calculate", window(d, triggers=False))

    def calculate(self, d: DuelState, _: Any) -> Next:
        state = _attack(d)
        if _battle_over(d, self.p, state):
            return DONE
        attacker, target = state.attacker, state.target
        d.batch += 1  # battle damage and "battled" are one moment: after damage calculation (R-BATTLE-4)
        _damage_calculation(d, self.p, 1 - self.p, state)
        if target is not None:  # "a monster that battled with this card" (The Unhappy Girl: the filter battled_self)
            attacker.battled_with += ((target.uid, target.moves),)
            target.battled_with += ((attacker.uid, attacker.moves),)
        attacker.battled_turn = d.turn  # (a direct attack is a damage calculation too: After the Struggle)
        if target is not None:
            target.battled_turn = d.turn
        for card in (attacker, target):  # "during that damage calculation only" (Injection Fairy Lily)
            if card is not None and card.modifiers:
                card.modifiers = [m for m in card.modifiers if m.until != "damage_calculation"]
        d.set_step(Step.AFTER_DAMAGE)
        for card in (attacker, target):
            if card is not None and card.loc == Loc.MZONE:
                d.signal("battled", card, card.controller)
        if any(rec.phase == "after_damage_calculation" for rec in d.delayed):  # a `later` waits for it (Reflect Bounder)
            d.signal("after_damage_calculation", None, self.p)
        return self.then(d, "end_of_damage_step", window(d))

    def end_of_damage_step(self, d: DuelState, _: Any) -> Next:
        state = _attack(d)
        d.set_step(Step.DAMAGE_END)
        d.batch += 1
        destroyed = [c for c in (state.attacker, state.target) if c is not None and c.battle_destroyed and c.loc == Loc.MZONE]
        # "at the end of the Damage Step" (Ryu Kokki): about each battler, as the destroyed ones leave; `how` is its position
        # in that battle ("this Defense Position card": Legendary Jujitsu Master)
        positions = {c.uid: "attack" if c.pos.is_attack else "defense" for c in (state.attacker, state.target)
                     if c is not None and c.loc == Loc.MZONE}
        if d.index.responders:
            for card in (state.attacker, state.target):
                if card is not None and card.loc == Loc.MZONE and card not in destroyed:
                    d.signal("damage_step_end", card, card.controller, how=positions[card.uid])
        if d.index.continuous_count:
            for card in list(destroyed):
                substitute = equip_takes_battle_destruction(d, card)  # Relinquished
                if substitute is not None:
                    destroyed.remove(card)
                    card.battle_destroyed = False
                    actions.destroy(d, [substitute], by="effect", source=card, reason=f"destroyed instead of {card.name}")
        actions.destroy(d, destroyed, by="battle")
        if d.index.responders:  # … and each battler it destroyed, where it went: only an effect that works from there
            for card in destroyed:  # answers (Getsu Fuhma's `from: [field, gy]`: it still destroys what it battled)
                d.signal("damage_step_end", card, card.controller if card.loc.on_field else card.owner, how=positions[card.uid])
        return self.then(d, "finish", window(d))


def _flip_target(d: DuelState, state: AttackState, target: CardInst) -> None:
    """R-BATTLE-5: the face-down attack target is flipped face-up before damage calculation."""
    state.target_was_set = target.pos == Pos.FACEDOWN_DEFENSE  # (not a face-down Attack one: Darkness Approaches)
    state.target_flipped = True
    target.face_up = True
    target.pos = Pos.ATTACK if target.pos == Pos.FACEDOWN_ATTACK else Pos.DEFENSE
    target.flipped_turn = d.turn
    target.face_up_at = d.batch
    d.emit(Flip(target.uid, target.name, target.pos))
    d.signal("flipped", target, target.controller)  # its FLIP activates after damage calculation


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
    result = battle_result(d, p, state)
    d.emit(DamageCalc(attacker.uid, None if target is None else target.uid, result.atk, result.other,
                      None if target is None else target.pos))
    for card in result.destroyed:
        _mark(d, card)
    damage = result.damage
    if damage and d.floating:
        _gain_before_damage(d, damage)
    if damage:
        if target is None and d.index.continuous_count and has_flag(d, attacker, "wins_match"):
            d.match_claim = p  # Victory Dragon
        state.dealt = dict(damage)
        try:
            d.change_lps({who: -amount for who, amount in damage.items()}, "battle")
        finally:
            d.match_claim = None
        for who in damage:
            dealer = attacker if who == foe else target
            d.signal("battle_damage", dealer, who)
    for who, amount in result.effect_damage.items():  # "treated as effect damage instead" (Gravekeeper's Vassal): R-BATTLE-10
        shield = effect_damage_prevented(d, who)
        if shield is not None:
            d.emit(Note(f"{shield.name}: the {amount} damage to {d.names[who]} becomes 0"))
            continue
        dealer = attacker if who == foe else target
        assert dealer is not None
        if effect_damage_protected(d, who, dealer.controller):
            d.emit(Note(f"{d.names[who]} takes no effect damage this turn: the {amount} damage becomes 0"))
            continue
        d.emit(Note(f"{dealer.name}: its battle damage is effect damage"))
        d.change_lps({who: -amount}, "effect")
        d.signal("effect_damage", dealer, who, by_player=dealer.controller, by_card=dealer)


def _gain_before_damage(d: DuelState, damage: dict[int, int]) -> None:
    """Nutrient Z: once this turn, before battle damage of N or more is subtracted, its controller gains LP."""
    for who, amount in damage.items():
        for entry in list(d.floating):
            card, effect, turn = entry
            gain = effect.continuous.gain_before_battle_damage if effect.continuous is not None else None
            if gain is None or turn < d.turn or card.controller != who or amount < gain.at_least:
                continue
            d.floating.remove(entry)  # once
            d.emit(Note(f"{card.name}: {d.names[who]} gains {gain.amount} LP before the battle damage"))
            d.change_lp(who, gain.amount, "gain")
            break


def _mark(d: DuelState, card: CardInst) -> None:
    if not has_flag(d, card, "cannot_be_destroyed_by_battle") and d.players[card.controller].battle_immune_turn != d.turn \
            and not battle_indestructible_with(d, card, _other_battler(d, card)):
        card.battle_destroyed = True


def _other_battler(d: DuelState, card: CardInst) -> CardInst | None:
    state = d.attack
    if state is None:
        return None
    return state.target if card is state.attacker else state.attacker
