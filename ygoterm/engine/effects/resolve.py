"""Resolving a chain link and paying costs: the link's operations run in order through the
registry (every verb family is loaded here, `effects/verbs/`); an engine bug while they run is
reported as an EffectError naming the card."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.errors import EffectError
from ..core.machine import DONE, Frame, Next
from ..state.card import CardInst
from ..state.duel_state import DuelState
from ..state.links import ChainLink
from . import verbs  # noqa: F401  (registers every verb)
from .context import Ctx, valid_targets
from .registry import RunOps, run_ops


def resolve_link(d: DuelState, link: ChainLink) -> "ResolveLink":
    ctx = Ctx(d, link, link.player, link.card, link.effect, chosen=list(link.chosen))  # a delayed effect remembers
    link.resolving_targets = [(c, c.moves) for c in valid_targets(d, link)]
    if link.declared is not None:
        d.declared = link.declared  # what this link declared on activation, not a later link's declaration
    d.declarations = link.declarations
    return ResolveLink(ctx)


@dataclass
class ResolveLink(Frame):
    """A chain link's operations. An engine bug while they run (a Python error in this frame or
    any frame above it) is reported as an EffectError naming the card (machine.advance)."""

    ctx: Ctx

    def start(self, d: DuelState, _: Any) -> Next:
        return self.then(d, "finish", run_ops(self.ctx, self.ctx.link.effect.do))

    def failed(self, d: DuelState, error: BaseException) -> "EffectError":
        link = self.ctx.link
        record = d.record.to_json() if d.record is not None else None
        return EffectError(link.card.name, link.index, error, record)


def pay_unchained_cost(d: DuelState, p: int, card: CardInst, index: int) -> "RunOps | None":
    """Pay the cost of an effect that starts no chain link: an inherent Special Summon's
    (R-SUMMON-7) or declaring an attack (Panther Warrior's Tribute, Dark Elf's LP)."""
    effect = card.effects[index]
    link = ChainLink(0, p, card, effect, index, 1)
    return run_ops(Ctx(d, link, p, card, effect, cost=True), effect.cost)


def pay_costs(d: DuelState, link: ChainLink) -> "PayCosts | None":
    if link.effect.cost:
        return PayCosts(Ctx(d, link, link.player, link.card, link.effect, cost=True))
    return None


@dataclass
class PayCosts(Frame):
    ctx: Ctx

    def start(self, d: DuelState, _: Any) -> Next:
        return self.then(d, "paid", run_ops(self.ctx, self.ctx.link.effect.cost))

    def paid(self, d: DuelState, _: Any) -> Next:
        self.ctx.link.chosen = self.ctx.chosen  # what the cost chose (Catapult Turtle's Tribute) is `chosen` on resolution
        return DONE
