"""Negating an activation, an effect, a Summon or an attack (R-TERM-24, R-SUMMON-19)."""

from __future__ import annotations


from ....schema import effects as fx
from ...board import actions
from ...core.events import Negated
from ...core.types import Loc
from ..context import Ctx
from ..registry import verb


@verb("negate")
def op_negate(ctx: Ctx, params: fx.Negate, name: str) -> bool:
    d = ctx.d
    what = params.what
    if what in ("activation", "effect"):
        target = ctx.link.answers
        if target is None or target not in d.chain or target.negated:
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
