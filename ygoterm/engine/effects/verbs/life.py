"""Verbs on Life Points and the duel's end: damage, gain, pay, lose, win."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.decision import EndReason, Kind, Option
from ....schema import effects as fx
from ...board.continuous import effect_damage_prevented, effect_damage_protected, spell_lp_costs_waived, gains_reversed, pays_too
from ...core.events import Note
from ...core.machine import DONE, Frame, Next
from ...state.card import CardInst
from ...state.duel_state import DuelState
from ..context import Ctx
from ..registry import OpStep, amount_of, verb


@verb("exchange_lp")
def op_exchange_lp(ctx: Ctx, params: fx.ExchangeLp, name: str) -> bool:
    """Reversal Quiz: both players' LP are exchanged (the one who gains LP gains them: "lp_gained")."""
    d = ctx.d
    a, b = d.players[0].lp, d.players[1].lp
    d.emit(Note(f"{d.names[0]} and {d.names[1]} exchange their LP"))
    d.change_lps({0: b - a, 1: a - b}, "effect")
    return a != b


@verb("damage")
def op_damage(ctx: Ctx, params: fx.Damage, name: str) -> Any:
    return Damage(ctx, params, name).after(amount_of(ctx, params, ctx.player))


class Damage(OpStep):
    def act(self, d: DuelState, amount: int) -> bool | None:
        if amount <= 0:
            return False
        ctx = self.ctx
        players = []
        for p in ctx.players(self.params.player):
            if p in ctx.link.damage_redirected:  # "Your opponent takes the damage instead" (Barrel Behind the Door)
                p = 1 - p
            shield = effect_damage_prevented(d, p)
            if shield is None and effect_damage_protected(d, p, ctx.player):
                d.emit(Note(f"{d.names[p]} takes no effect damage this turn: the {amount} damage becomes 0"))
                continue
            if shield is None:
                players.append(p)
            else:
                d.emit(Note(f"{shield.name}: the {amount} damage to {d.names[p]} becomes 0"))
        if not players:
            return False
        changes: dict[int, int] = {}
        for p in players:  # (both players' damage may now go to one of them: Ring of Destruction)
            changes[p] = changes.get(p, 0) - amount
        players = list(changes)
        d.change_lps(changes, "effect")
        for p in players:
            # about the card whose effect inflicted it ("except \"Dark Room of Nightmare\"": `where`), and its controller (`by`)
            d.signal("effect_damage", ctx.card, p, by_player=ctx.player, by_card=ctx.card)
        return None


@verb("gain_lp", "pay_lp", "lose_lp")
def op_life(ctx: Ctx, params: fx.LifeChange, name: str) -> "LifeChanges":
    return LifeChanges(ctx, params, name, ctx.players(params.player))


@dataclass
class LifeChanges(Frame):
    """Each player named gains, pays or loses the amount (worked out for each of them)."""

    ctx: Ctx
    params: fx.LifeChange
    name: str
    players: list[int]
    i: int = 0  # the player whose LP change is next
    lp: int = 0  # … and their LP before the amount was worked out

    def start(self, d: DuelState, _: Any) -> Next:
        if self.params.amount == "lp" and self.name == "lose_lp" and self.i == 0:
            # "Both players' Life Points become 0" (Self-Destruct Button): one moment for both, a draw (R-WIN-4)
            d.change_lps({p: -d.players[p].lp for p in self.players}, "loss")
            return DONE
        if self.params.amount == "multiple" and self.i == 0:
            # "any multiple of 1000 Life Points" (Wall of Revealing Light): its player says how many times, LP allowing
            p, step = self.players[0], max(1, int(self.params.factor))
            times = list(range(1, d.players[p].lp // step + 1))
            if not times:
                self.i = len(self.players)
                return DONE
            return self.ask("said", d.ask(p, Kind.DECLARE, [Option(f"declare:{n * step}", str(n * step)) for n in times],
                                          f"{self.ctx.card.name}: pay how many LP?", verb="declare", subject=self.ctx.card.uid))
        while self.i < len(self.players):
            self.lp = d.players[self.players[self.i]].lp
            amount = amount_of(self.ctx, self.params, self.players[self.i])
            if isinstance(amount, Frame):
                return self.then(d, "counted", amount)
            self._change(d, amount)
        return DONE

    def said(self, d: DuelState, answer: Option) -> Next:
        amount = int(answer.label)
        self.lp = d.players[self.players[0]].lp
        self._change(d, amount)
        if self.name == "pay_lp":
            self.ctx.card.cost_paid = amount  # remembered while it stays on the field (the filter atk_at_most_paid)
        return DONE

    def counted(self, d: DuelState, amount: int) -> Next:
        self._change(d, amount)
        return self.start(d, None)

    def _change(self, d: DuelState, amount: int) -> None:
        p, lp = self.players[self.i], self.lp
        self.i += 1
        if amount <= 0:
            return
        free = waived(self.ctx, p) if self.name == "pay_lp" and self.ctx.cost else None
        if free is not None:
            d.emit(Note(f"{free.name}: {d.names[p]} pays no LP to activate {self.ctx.card.name}"))
            return
        if self.name == "gain_lp" and d.index.continuous_count and (reverser := gains_reversed(d, p)) is not None:
            # "any effect of increasing your opponent's Life Points is changed to inflict the same amount of points in damage"
            # (Bad Reaction to Simochi): effect damage from the card that would have given the LP
            d.emit(Note(f"{reverser.name}: {d.names[p]} takes {amount} damage instead of gaining it"))
            shield = effect_damage_prevented(d, p)
            if shield is not None:
                d.emit(Note(f"{shield.name}: the {amount} damage to {d.names[p]} becomes 0"))
                return
            if effect_damage_protected(d, p, self.ctx.player):
                d.emit(Note(f"{d.names[p]} takes no effect damage this turn: the {amount} damage becomes 0"))
                return
            d.change_lp(p, -amount, "effect")
            d.signal("effect_damage", self.ctx.card, p, by_player=self.ctx.player, by_card=self.ctx.card)
        elif self.name == "gain_lp":
            d.change_lp(p, amount, "gain")
        else:
            d.change_lp(p, -min(amount, lp), "cost" if self.name == "pay_lp" else "loss")
            if self.name == "pay_lp" and "opponent_pays_too" in d.index.flags and (mirror := pays_too(d, p, self.ctx.card)) is not None:
                q = 1 - p  # "Your opponent also pays the same Life Points" (Battle-Scarred): at once, as many as they have
                paid = min(amount, lp)
                d.emit(Note(f"{mirror.name}: {d.names[q]} also pays {paid} LP"))
                d.change_lp(q, -min(paid, d.players[q].lp), "cost")


def waived(ctx: Ctx, p: int) -> "CardInst | None":
    """The card by which `p` pays no LP for this cost: the activation of a Spell Card of theirs (Spell Economics)."""
    if ctx.effect.kind != "activate" or not ctx.card.is_spell or p != ctx.player:
        return None
    return spell_lp_costs_waived(ctx.d, p)


@verb("win")
def op_win(ctx: Ctx, params: fx.Win, name: str) -> None:
    player = ctx.player if params.player == "you" else 1 - ctx.player
    ctx.d.win(player, EndReason.CARD, f"{ctx.card.name}: {params.reason} (R-WIN-3)")
