"""Verbs that Summon: Special Summon, Tokens, Fusion and Ritual Summons by effect."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ....schema import effects as fx
from ...core.machine import DONE, Frame, Next, Return
from ...core.types import Loc
from ...board.filters import attribute_now, type_now
from ....schema.cards import Monster
from ...state.card import CardInst
from ...state.duel_state import DuelState
from ..context import Ctx
from ..registry import verb
from ..summons import fusion_summon, ritual_summon, special_summon


def trap_monster(d: DuelState, card: CardInst, stats: fx.TrapMonster, controller: int) -> bool:
    """A Trap Card becomes a Normal Monster with these stats to be Special Summoned; under the 2005 rules (`rules: goat`)
    its Spell & Trap Zone stays taken while it is a monster. No free Monster Zone: it stays a Trap Card where it is."""
    if d.players[controller].free_mzone() is None:
        return False
    seq = card.seq
    card.become_monster(_monster_of(card, stats))
    if d.rules.format == "goat":
        d.players[card.controller].held_szones[seq] = card.uid
    return True


_MONSTERS: dict[tuple[int, fx.TrapMonster], Monster] = {}


def _monster_of(card: CardInst, stats: fx.TrapMonster) -> Monster:
    """The Normal Monster a Trap Card becomes (one definition per card and stats)."""
    key = (card.data.id, stats)
    found = _MONSTERS.get(key)
    if found is None:
        found = _MONSTERS[key] = Monster.model_validate({
            "id": card.data.id, "name": card.data.name, "kind": "monster", "frame": "normal", "text": card.data.text,
            "attribute": stats.attribute, "type": stats.type, "level": stats.level, "atk": stats.atk, "def": stats.def_})
    return found


@verb("special_summon")
def op_special_summon(ctx: Ctx, params: fx.SpecialSummon, name: str) -> "SpecialSummonCards":
    return SpecialSummonCards(ctx, params)


@dataclass
class SpecialSummonCards(Frame):
    """Special Summon the cards of the selection one by one (each may ask its position)."""

    ctx: Ctx
    params: fx.SpecialSummon
    cards: list[CardInst] = field(default_factory=list)
    from_deck: list[int] = field(default_factory=list)  # owners whose Deck they come from (shuffled after)
    arrived: list[CardInst] = field(default_factory=list)
    i: int = 0  # the next card to Summon

    def start(self, d: DuelState, _: Any) -> Next:
        return self.follow(d, "chosen", self.ctx.cards(self.params.what, verb="special summon"))

    def chosen(self, d: DuelState, cards: list[CardInst]) -> Next:
        self.cards = cards
        self.from_deck = sorted({c.owner for c in cards if c.loc == Loc.DECK and c not in self.ctx.from_top})
        return self.next(d, None)

    def next(self, d: DuelState, _: Any) -> Next:
        ctx, params = self.ctx, self.params
        while self.i < len(self.cards):
            card = self.cards[self.i]
            self.i += 1
            controller = ctx.player if params.controller == "you" else card.owner
            if params.as_monster is not None and card.is_trap and card.loc == Loc.SZONE:  # (Embodiment of Apophis)
                if not trap_monster(d, card, params.as_monster, controller):
                    continue
            if card.loc in (Loc.MZONE, Loc.GONE) or not card.is_monster:
                continue
            summoning = special_summon(d, card, controller, params.position, how="special", proper=params.proper,
                                       by=ctx.card.data.name)
            if summoning is not None:
                return self.then(d, "summoned", summoning)
            self._arrived(card)
        for owner in self.from_deck:  # R-ZONE-7
            d.shuffle(owner)
        ctx.affected = self.arrived
        return Return(bool(self.arrived))

    def summoned(self, d: DuelState, _: Any) -> Next:
        self._arrived(self.cards[self.i - 1])
        return self.next(d, None)

    def _arrived(self, card: CardInst) -> None:
        if card.loc == Loc.MZONE:
            self.arrived.append(card)
            if self.params.bind:
                ctx = self.ctx
                ctx.card.bound, card.bound = card, ctx.card
                ctx.card.binding = self.params.bind if self.params.bind in ("destroyed", "this_leaves") else "leaves"


@verb("token")
def op_token(ctx: Ctx, params: fx.Token, name: str) -> "Tokens":
    return Tokens(ctx, params, ctx.player if params.player == "you" else 1 - ctx.player)


@dataclass
class Tokens(Frame):
    """Special Summon Tokens one by one while there is a free zone (each may ask its position)."""

    ctx: Ctx
    params: fx.Token
    player: int
    made: int = 0
    tokens: list[CardInst] = field(default_factory=list)  # those Summoned: `affected` after it (Physical Double's End Phase)

    def start(self, d: DuelState, _: Any) -> Next:
        self.ctx.affected = self.tokens
        spec = self.params
        if spec.copy_of is not None:  # the stats of a monster now (Physical Double's target): none there, no Token
            model = next((c for c in self.ctx.cards(spec.copy_of) if c.loc == Loc.MZONE and c.face_up and c.is_monster), None)
            if model is None:
                return DONE
            spec = spec.model_copy(update={"attribute": attribute_now(model, d), "type": type_now(model, d),
                                           "level": model.level or 1, "atk": model.atk, "def_": model.defense})
        while self.made < spec.count:
            self.made += 1
            if d.players[self.player].free_mzone() is None:
                break
            token = d.make_token(self.player, spec)
            self.tokens.append(token)
            summoning = special_summon(d, token, self.player, self.params.position, how="special")
            if summoning is not None:
                return self.then(d, "start", summoning)
        return DONE


@verb("fusion_summon")
def op_fusion(ctx: Ctx, params: fx.FusionSummon, name: str) -> Frame:
    return fusion_summon(ctx.d, ctx.player, params, ctx.card, ctx)


@verb("ritual_summon")
def op_ritual(ctx: Ctx, params: fx.RitualSummon, name: str) -> Frame:
    return ritual_summon(ctx.d, ctx.player, params, ctx.card)
