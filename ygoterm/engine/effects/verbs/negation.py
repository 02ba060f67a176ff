"""Negating an activation, an effect, a Summon or an attack (R-TERM-24, R-SUMMON-19); moving an attack to another target."""

from __future__ import annotations


from ....schema import effects as fx
from ...board import actions
from typing import Any

from ...core.events import Negated, Note
from ...core.types import Loc
from ...state.card import CardInst
from ...state.duel_state import DuelState
from ..context import Ctx
from ..registry import OpStep, verb


@verb("negate")
def op_negate(ctx: Ctx, params: fx.Negate, name: str) -> bool:
    d = ctx.d
    what = params.what
    if what in ("activation", "effect"):
        target = ctx.link.answers
        if target is None or target not in d.chain or target.negated:
            return False
        if target.effect.cannot_be_negated:  # "This card's activation and effect cannot be negated" (Spiritualism)
            d.emit(Note(f"{target.card.name}: its activation and effect cannot be negated"))
            return False
        if what == "activation":
            target.negated = True
        else:
            target.effect_negated = True
        d.emit(Negated(target.card.uid, target.card.name, what))
        if params.destroy and target.card.loc.on_field:
            actions.destroy(d, [target.card], by="effect", source=ctx.card)  # R-CHAIN-7: to the GY at once
    elif what == "summon":
        if not d.summoning or d.summon_negated:
            return False
        d.summon_negated = True
        for monster in d.summoning:  # "a monster(s)": the whole Summon
            d.emit(Negated(monster.uid, monster.name, "summon"))
        if params.destroy:  # (the monsters never reached the field: no "sent from the field" triggers)
            actions.destroy(d, [m for m in d.summoning if m.loc == Loc.MZONE], by="effect", source=ctx.card, as_from=d.summoned_from)
    elif what == "attack":
        attack = d.attack
        if params.end_battle_phase:
            d.end_battle = True
        if attack is None or attack.negated or attack.attacker.loc != Loc.MZONE:
            return False  # the attack is already over: there is nothing to negate
        attack.negated = True
        d.emit(Negated(attack.attacker.uid, attack.attacker.name, "attack"))
    return True


@verb("redirect_damage")
def op_redirect_damage(ctx: Ctx, params: fx.RedirectDamage, name: str) -> bool:
    """The damage the answered link would inflict to this effect's player goes to their opponent (Barrel Behind the Door)."""
    target = ctx.link.answers
    if target is None or target not in ctx.d.chain or target.negated:
        return False
    target.damage_redirected += (ctx.player,)
    ctx.d.emit(Note(f"{ctx.card.name}: the damage {target.card.name} would inflict to {ctx.d.names[ctx.player]} goes to "
                    f"{ctx.d.names[1 - ctx.player]} instead"))
    return True


@verb("retarget")
def op_retarget(ctx: Ctx, params: fx.Retarget, name: str) -> Any:
    return Retarget(ctx, params, name).after(ctx.cards(params.what))


class Retarget(OpStep):
    """The chain link this effect answers targets the new card instead of its target (Fairy's Hand Mirror, Fiend's Hand
    Mirror); on resolution it checks that target as any other (R-CHAIN-6)."""

    def act(self, d: DuelState, cards: list[CardInst]) -> bool:
        link = self.ctx.link.answers
        new = next(iter(cards), None)
        if link is None or link not in d.chain or new is None or new in link.targets or len(link.targets) != 1:
            return False
        link.targets, link.target_moves = [new], [new.moves]
        d.emit(Note(f"{link.card.name} now targets {new.name if new.face_up or not new.loc.on_field else 'a face-down card'}"))
        return True


@verb("change_attack_target")
def op_change_attack_target(ctx: Ctx, params: fx.ChangeAttackTarget, name: str) -> Any:
    if params.what is None:  # `direct: true`
        return _attack_directly(ctx.d)
    return ChangeAttackTarget(ctx, params, name).after(ctx.cards(params.what))


def _attack_directly(d: DuelState) -> bool:
    """The attack in progress becomes a direct attack (Astral Barrier, Absolute End): no attack target from now on, so no
    replay when the opponent's monsters change (R-BATTLE-3 compares them with the declaration's)."""
    attack = d.attack
    if attack is None or attack.negated or attack.target is None or attack.attacker.loc != Loc.MZONE:
        return False
    attack.target = None
    attack.moves = (attack.moves[0], 0)
    d.emit(Note(f"{attack.attacker.name} now attacks directly"))
    return True


class ChangeAttackTarget(OpStep):
    """The attack in progress targets another monster of the same player (Dreamsprite); the battle goes on with it — in
    the Damage Step a face-down one is flipped face-up before damage calculation, as an attacked monster is (R-BATTLE-5)."""

    def act(self, d: DuelState, cards: list[CardInst]) -> bool:
        attack = d.attack
        new = next((c for c in cards if c.loc == Loc.MZONE), None)
        if attack is None or attack.negated or attack.target is None or new is None or new is attack.target \
                or new.controller != attack.target.controller or attack.attacker.loc != Loc.MZONE:
            return False
        attack.target = new
        attack.moves = (attack.moves[0], new.moves)
        d.emit(Note(f"{attack.attacker.name} now attacks {new.name if new.face_up else 'a face-down monster'}"))
        return True  # (a face-down one is flipped face-up before damage calculation: rules/battle.py)


@verb("change_attacker")
def op_change_attacker(ctx: Ctx, params: fx.ChangeAttacker, name: str) -> Any:
    return ChangeAttacker(ctx, params, name).after(ctx.cards(params.what))


class ChangeAttacker(OpStep):
    """"That monster attacks instead" (Dark Spirit of the Silent): the attack in progress goes on with another face-up
    monster of the attacker's controller as the attacker, on the same target — changed to Attack Position first if it is in
    Defense Position; it has attacked this turn. rules/battle.py's Attack frame reads the new attacker from `d.attack`."""

    def act(self, d: DuelState, cards: list[CardInst]) -> bool:
        attack = d.attack
        new = next((c for c in cards if c.loc == Loc.MZONE and c.face_up), None)
        if attack is None or attack.negated or new is None or new is attack.attacker or new.controller != attack.attacker.controller:
            return False
        if not new.pos.is_attack:
            actions.set_position(d, new, "attack")
        attack.attacker = new
        attack.moves = (new.moves, attack.moves[1])
        new.attacks += 1
        new.attacked_turn = d.turn
        new.attacked_at = d.batch
        if attack.target is not None:
            new.attacked_foes += ((attack.target.uid, attack.target.moves),)
        d.emit(Note(f"{new.name} attacks instead"))
        return True


@verb("spare")
def op_spare(ctx: Ctx, params: fx.Spare, name: str) -> Any:
    return Spare(ctx, params, name).after(ctx.cards(params.what))


class Spare(OpStep):
    """White Hole: the cards cannot be destroyed by the effect of the chain link this one answers."""

    def act(self, d: DuelState, cards: list[CardInst]) -> bool:
        answered = self.ctx.link.answers
        if answered is None or answered.negated or not cards:
            return False
        answered.spared = answered.spared | {c.uid for c in cards}
        d.emit(Note(f"{', '.join(c.name for c in cards)} cannot be destroyed by the effect of {answered.card.name}"))
        return True
