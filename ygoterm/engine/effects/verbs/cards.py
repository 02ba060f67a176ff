"""Verbs on the Deck and the hand: draw, discard, mill, shuffle, look at, reveal, excavate (Cyber Jar)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ....schema import effects as fx
from ...board import actions
from ...board.continuous import draw_locked, moved_this_turn
from ...board.filters import matches, select
from ...board.labels import card_options
from ...core.decision import Kind, Option
from ...core.events import Note
from ...core.machine import DONE, Frame, Next
from ...core.types import Loc, Pos
from ...state.card import CardInst
from ...state.duel_state import DuelState
from ..context import Ctx, choose
from ..registry import OpStep, verb
from ..summons import special_summon


@verb("draw")
def op_draw(ctx: Ctx, params: fx.Draw, name: str) -> None:
    drawn: list[CardInst] = []
    for p in ctx.players(params.player):
        if params.until_hand is not None:  # "draws until their hand has 7 cards" (Sasuke Samurai #3)
            count = max(0, params.until_hand - len(ctx.d.players[p].hand))
        elif params.as_discarded:
            count = ctx.discarded.get(p, 0)
        elif params.as_returned:
            count = sum(1 for c in ctx.affected if c.owner == p)
        elif params.per_this_turn is not None:  # "for each Dragon-Type monster discarded … and/or Tributed" (Super Rejuvenation)
            count = moved_this_turn(ctx.d, p, list(params.per_this_turn.moves), params.per_this_turn.where, ctx.card)
            ctx.d.emit(Note(f"{ctx.card.name}: {count} such card{'s' if count != 1 else ''} this turn"))
        else:
            count = params.count
        if params.more_per is not None:
            count += len(select(ctx.d, params.more_per, ctx.player, ctx.card, ctx.event_cards()))
        if not count:
            continue
        if (locker := draw_locked(ctx.d, p)) is not None:  # Protector of the Sanctuary
            ctx.d.emit(Note(f"{locker.name}: {ctx.d.names[p]} cannot draw cards except during the Draw Phase"))
            continue
        theirs = ctx.d.draw(p, count)
        for card in theirs:
            drawn.append(card)
            ctx.d.signal("drawn", card, p, how="effect")  # drawn by a card effect (Greed), not the normal draw
        actions.destroy_drawn(ctx.d, theirs, p)  # (Deck Devastation Virus)
    if drawn and ctx.link.draws_discarded_by is not None:  # Muko: shown to both players and discarded
        drawn = [c for c in drawn if c.loc == Loc.HAND]
        ctx.d.reveal(drawn, (0, 1))
        actions.discard(ctx.d, drawn, cost=False, by=ctx.link.draws_discarded_by)
    ctx.affected = drawn  # the cards drawn: "If there are any Spell Cards among them" (Hiro's Shadow Scout)


@verb("discard")
def op_discard(ctx: Ctx, params: fx.Discard, name: str) -> Any:
    if params.what is not None:
        return DiscardCards(ctx, params, name).after(ctx.cards(params.what, verb="discard"))
    return DiscardEach(ctx, params, ctx.players(params.player))


def _discard(ctx: Ctx, d: DuelState, cards: list[CardInst]) -> list[CardInst]:
    """Discard `cards` by `ctx`'s effect (or as its cost); the ones that went, for the operations after to read as
    `affected` (Thestalos: "if it was a Monster Card")."""
    moves = [c.moves for c in cards]
    actions.discard(d, cards, cost=ctx.cost, by=ctx.by)
    return [c for c, before in zip(cards, moves) if c.moves != before]


class DiscardCards(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        self.ctx.affected = _discard(self.ctx, d, cards)


@dataclass
class DiscardEach(Frame):
    """Each player named discards from their hand: cards they choose, at random, or the whole hand."""

    ctx: Ctx
    params: fx.Discard
    players: list[int]
    i: int = 0  # the player discarding now

    def start(self, d: DuelState, _: Any) -> Next:
        ctx, params = self.ctx, self.params
        if self.i == 0:
            ctx.affected = []  # the discarded cards, for the operations after (Thestalos: "if it was a Monster Card")
        while self.i < len(self.players):
            p = self.players[self.i]
            hand = [c for c in d.players[p].hand if c is not ctx.card and matches(d, c, params.where, p, ctx.card)]
            if params.whole_hand:
                self._discard(d, hand)
                continue
            count = params.count
            if params.count_per is not None:  # (Forced Requisition: as many as the cards just discarded)
                count = min(len(hand), count * len(select(d, params.count_per, ctx.player, ctx.card, ctx.link.event_group or ctx.event_cards())))
                if not count:
                    self.i += 1
                    continue
            cards = choose(d, p, hand, count, count, "discard", f"{ctx.card.name}: discard", random=params.random)
            if isinstance(cards, Frame):
                return self.then(d, "chosen", cards)
            self._discard(d, cards)
        return DONE

    def chosen(self, d: DuelState, cards: list[CardInst]) -> Next:
        self._discard(d, cards)
        return self.start(d, None)

    def _discard(self, d: DuelState, cards: list[CardInst]) -> None:
        p = self.players[self.i]
        self.i += 1
        self.ctx.affected = [*self.ctx.affected, *_discard(self.ctx, d, cards)]
        self.ctx.discarded[p] = self.ctx.discarded.get(p, 0) + len(cards)


@verb("mill")
def op_mill(ctx: Ctx, params: fx.Mill, name: str) -> bool:
    """The top cards of the Deck to the GY, or banished (`banish`); they are `affected` for the operations after."""
    d = ctx.d
    moved: list[CardInst] = []
    count = params.count * (len(select(d, params.count_per, ctx.player, ctx.card, ctx.link.event_group or ctx.event_cards()))
                          if params.count_per is not None else 1)
    for p in ctx.players(params.player):
        deck = d.players[p].deck
        cards = deck[-count:][::-1] if count else []
        if params.banish:
            for c in cards:
                actions.move(d, c, Loc.BANISHED, face_up=not params.face_down, reason="banished")
        else:
            actions.send_to_gy(d, cards, reason="sent from the Deck", by=ctx.by)
        moved += [c for c in cards if c.loc != Loc.DECK]
    ctx.affected = moved
    return bool(moved)


@verb("face_up_in_deck")
def op_face_up_in_deck(ctx: Ctx, params: fx.FaceUpInDeck, name: str) -> None:
    d = ctx.d
    p = ctx.player if params.player == "you" else 1 - ctx.player
    deck = d.players[p].deck
    if params.what == "self":
        card = ctx.card
        if not card.loc.on_field:
            return
        # (into the opponent's Deck it is still its owner's card: it goes home when it leaves that Deck, R-TERM-5)
        actions.move(d, card, Loc.DECK, face_up=True, reason="put face-up into the Deck", by=ctx.player, controller=p)
        card.face_up = True
        d.emit(Note(f"{card.name} is put face-up into {d.names[p]}'s Deck"))
    elif not deck:
        return
    else:
        card = deck[-1]
        card.face_up = True
        d.emit(Note(f"{ctx.card.name}: the top card of {d.names[p]}'s Deck, {card.name}, is turned face-up"))
    d.shuffle(p)
    d.reveal([card], (0, 1))  # (face-up in the Deck: both players know it wherever the shuffle put it)
    if params.when_drawn is not None:
        d.deck_marks[card.uid] = (card.moves, params.when_drawn, ctx.card.name, ctx.player)


@verb("shuffle")
def op_shuffle(ctx: Ctx, params: fx.Shuffle, name: str) -> None:
    for p in ctx.players(params.player):
        if params.face_down_monsters:
            _shuffle_face_down(ctx.d, p)
        else:
            ctx.d.shuffle(p)


def _shuffle_face_down(d: DuelState, p: int) -> None:
    """The face-down Defense Position monsters in `p`'s Main Monster Zones change places with the duel's seeded RNG; the
    opponent no longer knows which is which (Wandering Mummy). They do not leave the field: nothing else changes."""
    side = d.players[p]
    seqs = [i for i in range(5) if (c := side.mzone[i]) is not None and c.pos == Pos.FACEDOWN_DEFENSE]
    cards = [side.mzone[i] for i in seqs]
    if len(cards) < 2:
        return
    d.rng.shuffle(cards)
    for seq, card in zip(seqs, cards):
        assert card is not None
        side.mzone[seq], card.seq = card, seq
    side.layout += 1
    d.known[1 - p].difference_update(c.uid for c in cards if c is not None)
    d.emit(Note(f"{d.names[p]} rearranges the face-down monsters in their Main Monster Zones"))


@verb("look")
def op_look(ctx: Ctx, params: fx.Look, name: str) -> "Reorder | None":
    """Show the top cards to the effect's controller; they become `chosen`, for the operations
    after ("look at the top card, then return it to the top or bottom": Dark Scorpion - Chick the Yellow).
    `then: reorder`: the effect's controller puts them back on top in the order they choose (Big Eye)."""
    d = ctx.d
    looked: list[CardInst] = []
    piles: list[list[CardInst]] = []
    for p in ctx.players(params.player):
        top = d.players[p].deck[-params.count:][::-1]
        d.reveal(top, (ctx.player,))
        looked.extend(top)
        piles.append(top)
        d.emit(Note(f"{d.names[ctx.player]} looks at the top {len(top)} card{'s' if len(top) != 1 else ''} of {d.names[p]}'s Deck",
                    private_to=ctx.player, secret=", ".join(c.name for c in top)))
    ctx.picked(looked, False)
    if params.then == "reorder" and any(len(pile) > 1 for pile in piles):
        return Reorder(ctx, [pile for pile in piles if len(pile) > 1])
    if params.then == "shuffle":  # "then shuffle the Deck" (R-TERM-16)
        for p in ctx.players(params.player):
            d.shuffle(p)
    return None


@dataclass
class Reorder(Frame):
    """"Then place them on top of the Deck in any order" (Big Eye): the effect's controller orders
    each Deck's looked-at cards, the first becoming the top card; R-ZONE-7: no shuffle."""

    ctx: Ctx
    piles: list[list[CardInst]]
    i: int = 0

    def start(self, d: DuelState, _: Any) -> Next:
        if self.i >= len(self.piles):
            return DONE
        pile = self.piles[self.i]
        return self.ask("ordered", d.ask(self.ctx.player, Kind.ORDER, card_options(d, pile, self.ctx.player, look=True),
                                         f"{self.ctx.card.name}: put these cards back on top of the Deck (first = top card)",
                                         lo=len(pile), hi=len(pile), verb="order", subject=self.ctx.card.uid))

    def ordered(self, d: DuelState, answer: tuple[Option, ...]) -> Next:
        cards = [d.card_of(o) for o in answer]
        deck = d.players[cards[0].owner].deck
        if all(c.loc == Loc.DECK and c in deck[-len(cards):] for c in cards):
            del deck[-len(cards):]
            deck.extend(reversed(cards))  # (the top card is the last of the list)
            d.emit(Note(f"{d.names[self.ctx.player]} puts {len(cards)} cards back on top of {d.names[cards[0].owner]}'s Deck in the order they chose",
                        private_to=self.ctx.player, secret=", ".join(c.name for c in cards)))
        self.i += 1
        return self.start(d, None)


@verb("reveal")
def op_reveal(ctx: Ctx, params: fx.Reveal, name: str) -> Any:
    return Reveal(ctx, params, name).after(ctx.cards(params.what))


class Reveal(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        if self.params.to == "you":  # "look at it": only the effect's controller sees it (A Man with Wdjat)
            viewer = self.ctx.player
            d.reveal(cards, (viewer,))
            for card in cards:
                d.emit(Note(f"{d.names[viewer]} looks at a card of {d.names[card.controller]}'s", private_to=viewer, secret=card.name))
            return
        d.reveal(cards, (0, 1))
        for card in cards:
            d.emit(Note(f"{d.names[card.owner]} reveals {card.name}"))


@verb("reveal_until")
def op_reveal_until(ctx: Ctx, params: fx.RevealUntil, name: str) -> None:
    """Reveal from the top until a card matches: it is `chosen`, the ones before it `others`
    (the operations after move them). Found nothing: the whole Deck was shown, and is shuffled
    (the ruling for Monster Gate, Reasoning and Magical Merchant)."""
    d = ctx.d
    p = ctx.player if params.player == "you" else 1 - ctx.player
    deck = d.players[p].deck
    revealed: list[CardInst] = []
    found = None
    for card in reversed(deck):  # (the top of the Deck is the end of the list)
        revealed.append(card)
        if matches(d, card, params.until, p, ctx.card):
            found = card
            break
    d.reveal(revealed, (0, 1))
    shown = ", ".join(c.name for c in revealed)
    if found is None:
        d.emit(Note(f"{d.names[p]} reveals their whole Deck for {ctx.card.name} and finds nothing: {shown or 'no card'}; the Deck is shuffled"))
        d.shuffle(p)
        ctx.chosen, ctx.others, ctx.done = [], [], False
        return
    d.emit(Note(f"{d.names[p]} reveals cards from the top of their Deck for {ctx.card.name}: {shown}"))
    ctx.chosen, ctx.others, ctx.done = [found], revealed[:-1], True
    ctx.from_top = list(revealed)


@verb("excavate")
def op_excavate(ctx: Ctx, params: fx.Excavate, name: str) -> "Excavate":
    players = ctx.players(params.player)
    if ctx.d.turn_player in players:  # the turn player's cards first (R-PRIO-4)
        players = [ctx.d.turn_player] + [p for p in players if p != ctx.d.turn_player]
    return Excavate(ctx, params, players)


@dataclass
class Excavate(Frame):
    """Cyber Jar: reveal the top cards, Special Summon the matching monsters, the rest to the hand."""

    ctx: Ctx
    params: fx.Excavate
    players: list[int]
    i: int = 0  # the player whose cards are revealed now
    top: list[CardInst] = field(default_factory=list)  # … their revealed cards
    chosen: list[CardInst] = field(default_factory=list)  # … the monsters of them Special Summoned
    summoned: int = 0  # … how many of those have been

    def start(self, d: DuelState, _: Any) -> Next:
        ctx, params = self.ctx, self.params
        while self.i < len(self.players):
            p = self.players[self.i]
            top = self._top(d, p) if params.until_monsters else d.players[p].deck[-params.count:][::-1]
            if not top:
                self.i += 1
                continue
            d.reveal(top, (0, 1))
            d.emit(Note(f"{d.names[p]} reveals the top {len(top)} card{'s' if len(top) != 1 else ''} of their Deck: "
                        + ", ".join(c.name for c in top)))
            self.top = top
            monsters = [c for c in top if c.is_monster and matches(d, c, params.summon, p, ctx.card)]
            free = len(d.players[p].open_mzones())
            if len(monsters) <= free:
                return self.chose(d, monsters)
            return self.follow(d, "chose", choose(d, p, monsters, free, free, "special summon",
                                                  f"{ctx.card.name}: Special Summon {free} of them"))
        return DONE

    def _top(self, d: DuelState, p: int) -> list[CardInst]:
        """The top cards of `p`'s Deck down to the Nth monster, N being `p`'s cards the operation before put into their
        Main Deck (Morphing Jar #2); all of it if it has fewer."""
        wanted = sum(1 for c in self.ctx.affected if c.owner == p and c.loc == Loc.DECK)
        top: list[CardInst] = []
        for card in reversed(d.players[p].deck):  # (the top of the Deck is the end of the list)
            if wanted <= 0:
                break
            top.append(card)
            wanted -= card.is_monster
        return top

    def chose(self, d: DuelState, chosen: list[CardInst]) -> Next:
        self.chosen, self.summoned = chosen, 0
        return self.summon(d, None)

    def summon(self, d: DuelState, _: Any) -> Next:
        p = self.players[self.i]
        while self.summoned < len(self.chosen):
            card = self.chosen[self.summoned]
            self.summoned += 1
            summoning = special_summon(d, card, p, self.params.position)
            if summoning is not None:
                return self.then(d, "summon", summoning)
        rest = [card for card in self.top if card.loc == Loc.DECK]
        if self.params.rest == "gy":
            actions.send_to_gy(d, rest, reason="excavated", by=self.ctx.by)
        elif self.params.rest == "deck":  # they never left it: the Deck is shuffled (Enchanting Fitting Room)
            d.shuffle(p)
        else:
            for card in rest:
                actions.move(d, card, Loc.HAND, face_up=False, reason="added to hand", reveal=True)
        self.i += 1
        return self.start(d, None)


@verb("select")
def op_select(ctx: Ctx, params: fx.Select, name: str) -> Any:
    """Choose cards and do nothing to them: a `choose` leaves them `chosen` (Gradius' Option's "selecting 1 face-up
    \"Gradius\"" in its Summon procedure's cost, which the Summoned card remembers: rules/main_phase.py)."""
    return Select(ctx, params, name, before=list(ctx.chosen) if params.add else []).after(ctx.cards(params.what))


@dataclass
class Select(OpStep):
    before: list[CardInst] = field(default_factory=list)  # with `add`: what was chosen before (Chosen One)

    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        # (a `choose` made them `chosen` already; `select: event`, `all:` and `target` make them so: Deal of Phantom, Return of the Doomed,
        # De-Fusion; with `add`, what was chosen before stays: Chosen One)
        self.ctx.chosen = [*self.before, *(c for c in cards if c not in self.before)]
        for card in cards:
            d.emit(Note(f"{d.names[self.ctx.player]} selects {card.name} for {self.ctx.card.name}"))
        if self.params.remember and self.ctx.card.loc.on_field:  # remembered while it stays there (Xing Zhen Hu)
            self.ctx.card.selected = tuple((c.uid, c.arrived_at) for c in cards)
