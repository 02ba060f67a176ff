"""Verbs that decide what runs: if, "and if you do", "then", and the named Python handlers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ....schema import effects as fx
from ....schema.effects import OpSpec
from ...board.continuous import condition_holds
from ...board.filters import matches
from ...core.decision import Kind, Option, Refusal
from ...core.events import Note
from ...core.machine import DONE, Frame, Next
from ...state.duel_state import DuelState
from ..checks import possible
from ..context import Ctx
from ..handlers import HANDLERS
from ..registry import RunOps, run_ops, verb


@verb("if")
def op_if(ctx: Ctx, params: fx.If, name: str) -> "RunOps | None":
    holds = condition_holds(ctx.d, ctx.card, params.condition)
    if params.condition.target_is is not None:
        targets = ctx.targets()
        holds = holds and bool(targets) and all(matches(ctx.d, t, params.condition.target_is, ctx.player, ctx.card) for t in targets)
    checks: tuple[tuple[fx.Ref, fx.Filter | None], ...] = (("chosen", params.condition.chosen_is), ("affected", params.condition.affected_is))
    for selection, wanted in checks:
        if wanted is not None:
            cards = ctx.cards(selection)
            assert isinstance(cards, list)  # (a reference: never a choice)
            holds = holds and bool(cards) and all(matches(ctx.d, c, wanted, ctx.player, ctx.card) for c in cards)
    if params.condition.rolled is not None:  # Agido: the die this effect rolled
        holds = holds and ctx.link.rolled is not None and ctx.link.rolled in params.condition.rolled
    if params.condition.heads is not None:  # Sand Gambler: how many of the coins this effect tossed showed heads
        holds = holds and ctx.link.heads in params.condition.heads
    if params.condition.declared_is is not None:
        declared = ctx.chosen[0] if ctx.chosen else None
        holds = declared is not None and declared.data.kind == params.condition.declared_is
    return run_ops(ctx, params.then if holds else params.otherwise)


@verb("one_of")
def op_one_of(ctx: Ctx, params: fx.OneOf, name: str) -> "OneOf":
    return OneOf(ctx, params)


@dataclass
class OneOf(Frame):
    """"Activate 1 of these effects": the effect's player picks one, which then resolves."""

    ctx: Ctx
    params: fx.OneOf

    def start(self, d: DuelState, _: Any) -> Next:
        ctx = self.ctx
        refusals = self._refusals(d)
        options = [Option(f"choice:{i}", choice.label) for i, choice in enumerate(self.params.choices) if i not in refusals]
        left_out = "".join(f" (not \"{r.action}\": {r.message}, {r.rule})" for r in refusals.values())  # (why one is missing)
        return self.ask("chosen", d.ask(self._who(), Kind.OPTION, options, f"{ctx.card.name}: which effect?{left_out}",
                                        subject=ctx.card.uid))

    def _refusals(self, d: DuelState) -> dict[int, Refusal]:
        """The effects that could do nothing now, each with why (R-CHAIN-6: Don Zaloog's random discard
        against an empty hand is not chosen) — none when every effect could do nothing (then the one
        chosen does what it can)."""
        ctx = self.ctx
        events = ctx.link.event_group or ctx.event_cards()  # (what the choice's own selections will read)
        reasons = {i: possible(d, ctx.player, ctx.card, ctx.effect, events, choice.do) for i, choice in enumerate(self.params.choices)}
        if all(reasons.values()):
            return {}
        return {i: Refusal(self.params.choices[i].label, *why) for i, why in reasons.items() if why is not None}

    def refused_options(self, d: DuelState) -> list[Refusal]:
        """The effects left out, with why: `Duel.apply` names the refusal when one is typed."""
        return list(self._refusals(d).values())

    def _who(self) -> int:
        if self.params.who == "opponent":  # "your opponent selects and executes 1 of the following effects" (Dark Coffin)
            return 1 - self.ctx.player
        return self.ctx.players("event_player")[0] if self.params.who == "event_player" else self.ctx.player

    def chosen(self, d: DuelState, answer: Option) -> Next:
        choice = self.params.choices[int(answer.key.split(":")[1])]
        d.emit(Note(f"{d.names[self._who()]} chooses for {self.ctx.card.name}: {choice.label}"))
        return self.then(d, "ran", run_ops(self.ctx, choice.do))

    def ran(self, d: DuelState, _: Any) -> Next:
        return DONE


@verb("if_you_do")
def op_if_you_do(ctx: Ctx, params: fx.IfYouDo, name: str) -> "RunOps | None":
    """"…, and if you do, …": the operations run only if the one before did what it says
    (Magic Cylinder: no damage when the attack could not be negated)."""
    if ctx.done:
        return run_ops(ctx, params.then)
    return None


@verb("then")
def op_then(ctx: Ctx, params: fx.Then, name: str) -> "ThenOps | None":
    """"…, then …": the operations run only if the one before did what it says, and after it —
    a new moment, not at the same time: a "When … you can" trigger of what happened before
    misses its timing once these do something (R-CHAIN-10; Dust Tornado's "destroy it, then you
    can Set 1 Spell/Trap": a Set after the destruction). If they do nothing, nothing changes."""
    if ctx.done and params.do:
        return ThenOps(ctx, params.do)
    return None


@dataclass
class ThenOps(Frame):
    """The operations after "then": the first thing they do starts a new moment (`DuelState.new_moment`)."""

    ctx: Ctx
    ops: Sequence[OpSpec]

    def start(self, d: DuelState, _: Any) -> Next:
        d.new_moment = True
        return self.then(d, "ran", run_ops(self.ctx, self.ops))

    def ran(self, d: DuelState, _: Any) -> Next:
        d.new_moment = False  # (they did nothing: what happened before is still the last thing)
        return DONE


@verb("handler")
def op_handler(ctx: Ctx, params: fx.Handler, name: str) -> Any:
    return HANDLERS[params.name](ctx)  # a result, or a Frame that asks first
