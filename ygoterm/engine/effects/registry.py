"""The verb registry: what each `do:`/`cost:` word of a card file does (docs/cards.md).

A verb is a function `verb(ctx, params, name)`, registered under its names with `@verb(...)`
(the families are in `effects/verbs/`). One that needs no answer does its work at once and
returns its result (False when it could not do what it says, for `if_you_do`); one that must
ask (choose cards, a position, a name) returns a Frame (core/machine.py) whose steps ask and
then act, and whose result is the verb's. `RunOps` runs a list of them in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import GeneratorType
from typing import Any, Callable, Sequence

from ...schema import effects as fx
from ...schema.effects import OpName, OpSpec
from ..board.continuous import original_atk
from ..board.filters import select, turns_of_since
from ..core.machine import DONE, Frame, Next, Return
from ..core.types import Loc
from ..state.card import CardInst
from ..state.duel_state import DuelState
from .context import Ctx


# a verb's function: (context, its parameter model, the name it was called by) → its result
# (False: it did not do what it says) or a Frame whose result it is
VerbFn = Callable[[Ctx, Any, OpName], Any]
VERBS: dict[OpName, VerbFn] = {}


def verb(*names: OpName) -> Callable[[VerbFn], VerbFn]:
    """Register the function below as the verb(s) `names` of the vocabulary (schema/effects/operations.py:OPS)."""
    def register(fn: VerbFn) -> VerbFn:
        for name in names:
            assert name not in VERBS, f"verb {name!r} registered twice"
            VERBS[name] = fn
        return fn
    return register


def run_ops(ctx: Ctx, ops: Sequence[OpSpec]) -> "RunOps | None":
    """Run operations in order (None: there are none). An operation returns False when it could
    not do what it says (nothing left to destroy, an attack already over); `if_you_do` reads that."""
    return RunOps(ctx, ops) if ops else None


_NESTED = frozenset(("if_you_do", "then", "one_of"))  # they run operations of their own, which say what was done


@dataclass
class RunOps(Frame):
    """Operations in order: those that need no answer run one after another in this step; one
    that returns a Frame runs as a child, and its result is the operation's."""

    ctx: Ctx
    ops: Sequence[OpSpec]
    i: int = 0  # the operation running now

    def start(self, d: DuelState, _: Any) -> Next:
        ctx, ops = self.ctx, self.ops
        while self.i < len(ops):
            spec = ops[self.i]
            done = VERBS[spec.op](ctx, spec.params, spec.op)
            if isinstance(done, Frame) or type(done) is GeneratorType:  # it must ask first
                return self.then(d, "ran", done)
            self.i += 1
            if spec.op not in _NESTED:
                ctx.done = done is not False
        return DONE

    def ran(self, d: DuelState, done: Any) -> Next:
        op = self.ops[self.i].op
        self.i += 1
        if op not in _NESTED:
            self.ctx.done = done is not False
        return self.start(d, None)


@dataclass
class OpStep(Frame):
    """An operation that needs one value before it acts — the cards of its selection, an LP
    amount — and then acts at once: `act(d, value)` does the work and returns the operation's
    result. `after(value)` acts now when the value is known; when it is a frame that must ask
    first (a `Choose`), the OpStep keeps it and is returned instead: it runs that frame, then acts."""

    ctx: Ctx
    params: Any
    name: str = ""
    choice: Frame | None = None  # the question to run first (held only until the frame starts)

    def after(self, value: Any) -> Any:
        if isinstance(value, Frame):
            self.choice = value
            return self
        return self.act(self.ctx.d, value)

    def start(self, d: DuelState, _: Any) -> Next:
        choice, self.choice = self.choice, None
        return self.then(d, "acting", choice)

    def acting(self, d: DuelState, value: Any) -> Next:
        return Return(self.act(d, value))

    def act(self, d: DuelState, value: Any) -> Any:
        raise NotImplementedError


def amount_of(ctx: Ctx, params: fx.AmountParams, player: int) -> "int | Amount":
    """The LP amount an operation names, for `player` (whose LP "half" halves); a frame whose
    result is the amount when the cards it counts must be chosen first."""
    amount = params.amount
    if amount == "half":
        return ctx.d.players[player].lp // 2
    if amount == "lp":  # all of them (Self-Destruct Button: "Both players' Life Points become 0")
        return ctx.d.players[player].lp
    if amount == "battle_damage":  # what the opponent took in the current battle (Fushi No Tori)
        attack = ctx.d.attack
        return _scaled(ctx, params, attack.dealt.get(1 - ctx.player, 0) if attack is not None else 0)
    if amount == "lp_difference":  # between both players' LP (The Agent of Judgment - Saturn)
        return _scaled(ctx, params, abs(ctx.d.players[ctx.player].lp - ctx.d.players[1 - ctx.player].lp))
    if amount == "lp_paid_last_turn":  # paid in the controller's last turn before this one (Life Absorbing Machine)
        return _scaled(ctx, params, ctx.d.players[ctx.player].lp_paid.get(ctx.d.turn - 2, 0))
    if amount == "atk_lost":  # what the `modify` before took (Riryoku: "add that lost ATK to the other monster")
        return _scaled(ctx, params, ctx.atk_lost)
    if amount == "paid":  # what this card paid with `pay_lp: {amount: multiple}` (Bark of Dark Ruler)
        return _scaled(ctx, params, ctx.card.cost_paid)
    if amount == "rolled":  # the die this effect rolled (Dice Jar: the higher of both players' rolls)
        return _scaled(ctx, params, ctx.link.rolled)
    if isinstance(amount, int):
        return _scaled(ctx, params, amount)
    counted: int | Amount = Amount(ctx, params).after(ctx.cards(params.of) if params.of is not None else list(ctx.chosen))
    return counted


class Amount(OpStep):
    def act(self, d: DuelState, source: list[CardInst]) -> int:
        amount = self.params.amount
        if amount == "atk_of":
            amount = sum(c.atk for c in source)
        elif amount == "field_atk_of":
            amount = sum(c.atk if c.loc == Loc.MZONE else c.field_atk for c in source)
        elif amount == "original_atk_of":
            amount = sum(original_atk(c) if c.loc == Loc.MZONE else c.base_atk for c in source)
        elif amount == "field_def_of":
            amount = sum(c.defense if c.loc == Loc.MZONE else c.field_def for c in source)
        elif amount == "def_of":
            amount = sum(c.defense for c in source)
        elif amount == "count_of":
            amount = len(source)
        elif amount == "counters_of":  # off the field: those it had as it left (R-CARD-12 removed them)
            amount = sum(sum(c.counters.values()) if c.loc.on_field else c.field_counters for c in source)
        elif amount == "turns_on_field":  # Wave-Motion Cannon: the Standby Phases since it was activated
            amount = sum(turns_of_since(d, c.controller if c.loc.on_field else c.owner, c.arrived_turn if c.loc.on_field
                                        else c.field_since) for c in source)
        else:
            amount = sum(c.level for c in source) * 100
        return _scaled(self.ctx, self.params, amount)


def _scaled(ctx: Ctx, params: fx.AmountParams, amount: int) -> int:
    amount = int(amount * params.factor)
    if params.per is not None:
        # `event: true` counts every card of the moment its trigger answers (Fatal Abacus, Soul Absorption, Magical Thorn)
        amount *= len(select(ctx.d, params.per, ctx.player, ctx.card, ctx.link.event_group or ctx.event_cards()))
    if params.doubled_each_turn:
        card = ctx.card
        turns = turns_of_since(ctx.d, card.controller, max(card.arrived_turn, card.flipped_turn)) if card.face_up else 1
        amount *= 2 ** max(0, turns - 1)
    return amount
