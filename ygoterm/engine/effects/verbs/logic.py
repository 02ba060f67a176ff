"""Verbs that decide what runs: if, "and if you do", and the named Python handlers."""

from __future__ import annotations

from typing import Any

from ....schema import effects as fx
from ...board.continuous import condition_holds
from ...board.filters import matches
from ..context import Ctx
from ..handlers import HANDLERS
from ..registry import RunOps, run_ops, verb


@verb("if")
def op_if(ctx: Ctx, params: fx.If, name: str) -> "RunOps | None":
    holds = condition_holds(ctx.d, ctx.card, params.condition)
    if params.condition.target_is is not None:
        targets = ctx.targets()
        holds = holds and bool(targets) and all(matches(ctx.d, t, params.condition.target_is, ctx.player, ctx.card) for t in targets)
    if params.condition.declared_is is not None:
        declared = ctx.chosen[0] if ctx.chosen else None
        holds = declared is not None and declared.data.kind == params.condition.declared_is
    return run_ops(ctx, params.then if holds else params.otherwise)


@verb("if_you_do")
def op_if_you_do(ctx: Ctx, params: fx.IfYouDo, name: str) -> "RunOps | None":
    """"…, and if you do, …": the operations run only if the one before did what it says
    (Magic Cylinder: no damage when the attack could not be negated)."""
    if ctx.done:
        return run_ops(ctx, params.then)
    return None


@verb("handler")
def op_handler(ctx: Ctx, params: fx.Handler, name: str) -> Any:
    return HANDLERS[params.name](ctx)  # a result, or a Frame that asks first
