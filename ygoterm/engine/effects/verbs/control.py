"""Verbs on control: take control of a monster, switch control (Creature Swap)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ....schema import effects as fx
from ...core.events import Note
from ...core.machine import DONE, Frame, Next
from ...board import actions
from ...board.continuous import has_flag, only_one_blockers
from ...core.types import Loc
from ...state.card import CardInst
from ...state.duel_state import DuelState
from ..context import Ctx, choose
from ..registry import OpStep, run_ops, verb


@verb("take_control")
def op_take_control(ctx: Ctx, params: fx.TakeControl, name: str) -> Any:
    return TakeControl(ctx, params, name).after(ctx.cards(params.what))


class TakeControl(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        ctx, params = self.ctx, self.params
        holder = ctx.card
        if params.until == "while_face_up" and not (holder.loc == Loc.MZONE and holder.face_up):
            d.emit(Note(f"{holder.name} is no longer face-up on the field: control does not change"))
            return
        taker = d.opponent(ctx.player) if params.taker == "opponent" else ctx.player
        taken: list[CardInst] = []
        for card in cards:
            if card.loc == Loc.MZONE and card.controller != taker and only_one_blockers(d, card, taker, face_up=card.face_up):
                d.emit(Note(f"{d.names[taker]} can only control 1 \"{card.name}\": control does not change (R-CARD-13)"))
                continue
            if card.loc == Loc.MZONE and card.controller != taker and not has_flag(d, card, "control_cannot_switch"):
                if d.players[taker].free_mzone() is None:  # it cannot change control: it is destroyed by
                    actions.destroy(d, [card], by="rule", reason="no free Main Monster Zone to take control of it (R-ZONE-1)")
                    continue  # the rules (OCG Perfect Rulebook 2017 pp. 152-153), not by the card's effect
                before = card.controller
                d.take_control(card, taker, until_end_phase=params.until == "end_phase")
                if card.controller == taker:
                    taken.append(card)
                if params.until == "while_equipped" and card.loc == Loc.MZONE and ctx.card.equip_target is card:
                    card.held_by = ctx.card.uid  # its owner's again when this Equip Card leaves (actions._unequip)
                elif params.until == "while_face_up" and card.controller == taker:
                    card.held_by, card.original_controller = holder.uid, before  # back when it leaves or turns face-down (actions.release_held)
        ctx.affected = taken  # the monsters it took: "it can attack directly" after (Jowls of Dark Demise)


@verb("swap_control")
def op_swap_control(ctx: Ctx, params: fx.SwapControl, name: str) -> "SwapControl":
    return SwapControl(ctx, params)


@dataclass
class SwapControl(Frame):
    """Creature Swap: each player picks one of their monsters, then control of the two is switched."""

    ctx: Ctx
    params: fx.SwapControl
    picked: list[CardInst] = field(default_factory=list)
    asked: int = 0  # players who have picked (the effect's controller first)

    def start(self, d: DuelState, _: Any) -> Next:
        ctx = self.ctx
        if self.asked == 0 and self.params.give == "self":  # Dummy Golem: this card, if it is still there to give
            card = ctx.card
            if not (card.loc == Loc.MZONE and card.controller == ctx.player and card.face_up
                    and not has_flag(d, card, "control_cannot_switch")):
                d.emit(Note(f"{card.name} is no longer face-up on its controller's field: control does not switch"))
                return DONE
            self.picked.append(card)
            self.asked = 1
            if self.params.take is not None:  # the effect picked the opponent's monster (Invader of the Throne)
                found = ctx.cards(self.params.take)  # a target: a list, never a question
                taken = [c for c in (found if isinstance(found, list) else []) if c.loc == Loc.MZONE
                         and c.controller == 1 - ctx.player and c.seq < 5 and not has_flag(d, c, "control_cannot_switch")]
                if not taken:
                    d.emit(Note(f"{card.name}: the monster to switch with is no longer on the field: control does not switch"))
                    return DONE
                self.picked.append(taken[0])
                self.asked = 2
        while self.asked < 2:
            p = (ctx.player, 1 - ctx.player)[self.asked]
            mine = [c for c in d.players[p].mzone[:5] if c is not None and not has_flag(d, c, "control_cannot_switch")]
            chosen = choose(d, p, mine, 1, 1, "give", f"{ctx.card.name}: give 1 monster to your opponent")
            if isinstance(chosen, Frame):
                return self.then(d, "given", chosen)
            self.picked += chosen
            self.asked += 1
        return self.swap(d)

    def given(self, d: DuelState, chosen: list[CardInst]) -> Next:
        self.picked += chosen
        self.asked += 1
        return self.start(d, None)

    def swap(self, d: DuelState) -> Next:
        ctx, picked = self.ctx, self.picked
        if len(picked) == 2:
            a, b = picked
            d.players[a.controller].mzone[a.seq], d.players[b.controller].mzone[b.seq] = b, a
            a.controller, b.controller = b.controller, a.controller
            a.seq, b.seq = b.seq, a.seq
            for side in d.players:
                side.layout += 1
            for card in picked:
                card.moves += 1
                card.original_controller = card.held_by = None
            d.emit(Note(f"{a.name} and {b.name} switch control"))
            for card in picked:  # one moment: each card's previous controller is the other's new one
                d.signal("control_changed", card, 1 - card.controller)
            ctx.chosen = picked
            return self.then(d, "finish", run_ops(ctx, self.params.then))
        return DONE
