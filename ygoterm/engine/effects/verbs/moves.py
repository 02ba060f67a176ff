"""Verbs that move cards: destroy, send to the GY, banish, return to the hand or Deck, add to the hand, return a banished monster to the field, place face-up (Destiny Board), Set, detach Xyz Materials."""

from __future__ import annotations

from typing import Any

from ...core.decision import DecisionVerb
from ...core.events import Note
from ....schema import effects as fx
from ...board import actions
from ...board.continuous import gy_banish_locked, indestructible_untargeted
from ...board.filters import variant
from ...core.types import Loc, Pos, Reason
from ...state.card import CardInst, leaves_after_resolving
from ...state.duel_state import DuelState
from ..context import Ctx
from ..registry import OpStep, verb


# what a choice of cards for each verb asks the player to do (the scenario command's first word)
_MOVE_VERBS: dict[str, DecisionVerb] = {"destroy": "destroy", "send_to_gy": "send", "banish": "banish", "return_to_hand": "return",
                                        "return_to_deck": "return", "add_to_hand": "add"}


@verb("destroy", "send_to_gy", "banish", "return_to_hand", "return_to_deck", "add_to_hand")
def op_move(ctx: Ctx, params: fx.Moves, name: str) -> Any:
    verb: DecisionVerb = "tribute" if _tribute_cost(ctx, params, name) else _MOVE_VERBS[name]  # R-TERM-3
    return MoveCards(ctx, params, name).after(ctx.cards(params.what, verb=verb))


def _tribute_cost(ctx: Ctx, params: fx.Moves, name: str) -> bool:
    """A cost that chooses monsters to send to the GY: a Tribute (R-TERM-3) — asked as one, and each
    monster it sends from the field is Tributed, also one its player Tributes as if it controlled it
    (Soul Exchange; Lava Golem's procedure, Tributing the opponent's): by a card effect for an
    effect's cost, for a Summon for a Summon procedure's."""
    return ctx.cost and name == "send_to_gy" and isinstance(params.what, fx.ChooseOf) and params.what.choose.where.zone == ("monster",)


class MoveCards(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> bool:
        ctx = self.ctx
        cards = [c for c in cards if c.loc != Loc.GONE]
        if self.name in ("return_to_hand", "return_to_deck") and (d.chain or d.resolving):
            cards = [c for c in cards if not _spent(c)]
        moves = [c.moves for c in cards]
        _move(ctx, self.params, self.name, cards)
        ctx.affected = [c for c, before in zip(cards, moves) if c.moves != before]
        return bool(ctx.affected)


@verb("return_to_field")
def op_return_to_field(ctx: Ctx, params: fx.Moves, name: str) -> Any:
    """A monster banished "until the End Phase" comes back to its owner's field, in the position it left in (face-up
    Attack if it left face-down): not a Summon, so nothing answers it as one (Strike Ninja). With no free Monster Zone it
    goes to the GY instead (R-ZONE-1)."""
    return ReturnToField(ctx, params, name).after(ctx.cards(params.what))


class ReturnToField(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> bool:
        back = []
        for card in cards:
            if card.loc != Loc.BANISHED or not card.is_monster:
                continue
            side = d.players[card.owner]
            # (a zone its absence keeps unusable — Dimensionhole — is its own to return to, and the one it takes)
            own = [seq for seq, holder, _ in side.zone_locks if holder is card and side.mzone[seq] is None] if side.zone_locks else []
            zone = own[0] if own else side.free_mzone(ignore=card)
            if zone is None:
                actions.send_to_gy(d, [card], reason="no free Monster Zone to return to (R-ZONE-1)")
                continue
            pos = card.pos if card.pos.face_up else Pos.ATTACK
            actions.move(d, card, Loc.MZONE, seq=zone, face_up=True, pos=pos, controller=card.owner, reason="returned to the field")
            back.append(card)
        self.ctx.affected = back
        return bool(back)


def _spent(card: CardInst) -> bool:
    """A Spell/Trap activated in this chain that goes to the GY once it ends (R-CHAIN-7): it is
    not returned to the hand or Deck (Giant Trunade leaves a chained Normal Trap where it is)."""
    return card.loc == Loc.SZONE and card.face_up and not card.is_monster and leaves_after_resolving(card)


def _move(ctx: Ctx, params: fx.Moves, name: str, cards: list[CardInst]) -> None:
    d = ctx.d
    if not cards:
        return
    if name == "destroy":  # "destroy it, and if you do, banish it" (banish: Bottomless Trap Hole)
        if ("indestructible_unless_targeted" in d.index.flags or "indestructible_if_targeted" in d.index.flags) and not ctx.cost:
            # (Different Dimension Dragon; Heart of Clear Water)
            kind = "monster" if ctx.card.is_monster and not ctx.effect.pendulum else ctx.card.data.kind
            targets = ctx.targets()
            spared = [c for c in cards if c.loc == Loc.MZONE and indestructible_untargeted(d, c, kind, c in targets)]
            for c in spared:
                d.emit(Note(f"{c.name} cannot be destroyed by a {kind} effect that {'targets' if c in targets else 'does not target'} it"))
            cards = [c for c in cards if c not in spared]
            if not cards:
                return
        to = Loc.BANISHED if params.banish else Loc.DECK if params.deck_top else Loc.GY  # (a Deck: its top, R-TERM-1's owner's)
        actions.destroy(d, cards, by="effect", source=ctx.card, to=to)
    elif name == "send_to_gy":
        chosen_tributes = _tribute_cost(ctx, params, name)
        for c in cards:  # R-TERM-3: sending your own monster from the field as a cost is a Tribute
            tribute = ctx.cost and c.loc == Loc.MZONE and (c.controller == ctx.player or chosen_tributes)
            # a Summon procedure's Tribute is for a Summon, by no card effect (Lava Golem, Gate Guardian)
            reason = (Reason.TRIBUTE if ctx.effect.kind == "procedure" else Reason.TRIBUTED_BY_EFFECT) if tribute \
                else Reason.COST if ctx.cost else Reason.EFFECT
            actions.move(d, c, Loc.GY, reason=reason, by=ctx.by, tributer=ctx.player if reason == Reason.TRIBUTE else None)
    elif name == "banish":
        locker = gy_banish_locked(d, ctx.player)
        if locker is not None and any(c.loc == Loc.GY for c in cards):
            d.emit(Note(f"{locker.name}: cards in the GY cannot be banished"))
            cards = [c for c in cards if c.loc != Loc.GY]
        for c in cards:
            actions.move(d, c, Loc.BANISHED, face_up=not params.face_down, reason="banished")
    elif name == "return_to_hand":
        for c in cards:
            actions.move(d, c, Loc.HAND, face_up=False, reason="returned to hand")
    elif name == "return_to_deck":
        # a card taken from its own Deck ("place it on top of your Deck": A Cat of Ill Omen): the searched
        # Deck is shuffled first, then the card is put on top or at the bottom (R-ZONE-7)
        if params.position != "shuffle":
            for owner in sorted({c.owner for c in cards if c.loc == Loc.DECK}):
                d.shuffle(owner)
        owners = set()
        for c in cards:
            actions.move(d, c, Loc.DECK, face_up=False, reason="returned to Deck", top=params.position != "bottom")  # Extra Deck monsters go home
            if c.loc == Loc.DECK:  # (a Fusion monster went to the Extra Deck: the Main Deck is not shuffled)
                owners.add(c.owner)
        if params.position == "shuffle":
            for owner in sorted(owners):
                d.shuffle(owner)
    elif name == "add_to_hand":
        searched = {c.owner for c in cards if c.loc == Loc.DECK and c not in ctx.from_top}  # (excavated: not searched)
        for c in cards:
            src = c.loc
            taker = ctx.player if params.to == "you" else 1 - ctx.player if params.to == "opponent" else None  # (Amazoness Chain Master: from the opponent's hand to yours)
            actions.move(d, c, Loc.HAND, face_up=False, reason="added to hand", reveal=params.reveal, controller=taker)
            if c.loc == Loc.HAND:  # "If this card is added from your Deck to your hand by a card effect" (Watapon)
                d.signal("added_to_hand", c, c.owner, src=src, by_player=ctx.player)
        for owner in sorted(searched):  # R-ZONE-7: a searched Deck is shuffled
            d.shuffle(owner)


@verb("place")
def op_place(ctx: Ctx, params: fx.Place, name: str) -> Any:
    """Place cards face-up in your Spell & Trap Zones; they are not activated (Destiny Board)."""
    d = ctx.d
    what = params.what
    if params.in_order and isinstance(what, fx.ChooseOf) and what.choose.where.name:
        mine = {c.name for c in d.players[ctx.player].szone if c is not None and c.face_up}
        missing = next((n for n in what.choose.where.name if n not in mine), None)
        if missing is None:
            return None
        where = what.choose.where.model_copy(update={"name": (missing,)})
        what = fx.ChooseOf(choose=what.choose.model_copy(update={"where": where}))
    return Place(ctx, params, name).after(ctx.cards(what, verb="place"))


class Place(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        ctx = self.ctx
        for card in cards:
            zone = d.players[ctx.player].free_szone()
            if zone is None or card.is_monster:
                continue
            searched = card.loc == Loc.DECK
            actions.move(d, card, Loc.SZONE, seq=zone, face_up=True, controller=ctx.player, reason="placed")
            card.active = True
            if searched:
                d.shuffle(card.owner)


@verb("set_card")
def op_set_card(ctx: Ctx, params: fx.SetCard, name: str) -> Any:
    what = params.what
    if isinstance(what, fx.ChooseOf) and ctx.d.players[ctx.player].free_szone() is None:
        # R-ZONE-2: with every Spell & Trap Zone occupied only a Field Spell (its own zone, R-ZONE-3)
        # can still be Set; nothing else is offered (Dust Tornado's "then you can Set 1 Spell/Trap")
        where = what.choose.where
        if where.subtype is not None and "field" not in where.subtype:
            return False
        what = variant(what, choose=variant(what.choose, where=variant(where, subtype=("field",))))
    return SetCards(ctx, params, name).after(ctx.cards(what, verb="set"))


class SetCards(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        ctx = self.ctx
        for card in cards:
            if card.loc == Loc.HAND and not card.is_monster and (card.is_field_spell or d.players[ctx.player].free_szone() is not None):
                actions.set_spell_trap(d, ctx.player, card)


@verb("detach")
def op_detach(ctx: Ctx, params: fx.Detach, name: str) -> None:
    """R-SUMMON-13: detached Xyz Materials go to the GY."""
    for material in ctx.card.materials[:params.count]:
        actions.move(ctx.d, material, Loc.GY, reason="detached")  # (it leaves the Xyz monster's materials)
