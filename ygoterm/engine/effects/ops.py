"""The operations registry: what each `do:`/`cost:` word of a card file does (docs/cards.md).

Each operation is a function `op(ctx, params, name)` that changes the duel through the Duel's
own methods. One that needs no answer does its work at once and returns its result (False when
it could not do what it says, for `if_you_do`); one that must ask (choose cards, a position, a
name) returns a Frame (engine/machine.py) whose steps ask and then act, and whose result is the
operation's. `possible` and `cost_payable` answer "could this do anything / be paid now?" for
activation legality (R-WIN-2: an optional draw needs the cards; R-CHAIN-5: costs are paid up
front).

A card the vocabulary cannot express names a Python handler registered in HANDLERS
(engine/handlers.py). Nothing from a data file is ever executed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import GeneratorType
from typing import Any, Callable, Sequence

from ...schema import effects as fx
from ...schema.effects import Effect, OpSpec
from ..state.card import CardInst
from ..board.continuous import Modifier, condition_holds
from ..state.card import spec_flags
from ..state.copying import copied_by_slots
from ..core.decision import Kind, Option
from ..core.errors import EffectError
from ..core.events import Negated, Note
from ..board.filters import event_cards, matches, select, variant
from ..board.labels import card_options
from ..state.links import ChainLink, Delayed
from ..state.duel_state import DuelState
from ..core.machine import DONE, Frame, Next, Return
from .summons import fusion_choices, fusion_summon, ritual_choices, ritual_summon, special_summon
from ..core.types import TRIBUTED_BY_EFFECT, Loc
from ..board import actions

@copied_by_slots
@dataclass(slots=True)
class Ctx:
    """What an operation knows: the duel, the chain link, who controls the effect.

    Frames of pending operations hold it, so it is copied with them (`copied_by_slots`: its
    duel is remapped to the copy, its cards and link to the copy's)."""

    d: DuelState
    link: ChainLink
    player: int
    card: CardInst
    effect: Effect
    chosen: list[CardInst] = field(default_factory=list)
    cost: bool = False
    discarded: dict[int, int] = field(default_factory=dict)  # player → cards this effect made them discard
    others: list[CardInst] = field(default_factory=list)  # chosen before a choice `among: chosen`, not picked by it
    done: bool = True  # whether the last operation did what it says ("…, and if you do, …": op if_you_do)
    affected: list[CardInst] = field(default_factory=list)  # the cards the last moving operation moved

    def players(self, who: str) -> list[int]:
        p = self.player
        return {"you": [p], "opponent": [1 - p], "each": [p, 1 - p], "owner": [self.card.owner],
                "controller": [self.card.controller],
                "event_player": [self.link.signal.player if self.link.signal else 1 - p]}[who]

    def targets(self) -> list[CardInst]:
        """R-CHAIN-6: the targets that were still valid when the link began to resolve and have
        not moved since (a target flipped face-up by this effect is still its target)."""
        if self.link.resolving_targets is None:
            return valid_targets(self.d, self.link)
        return [c for c, moves in self.link.resolving_targets if c.moves == moves]

    def event_cards(self) -> list[CardInst]:
        return self.link.event_cards

    def cards(self, selection: Any, *, verb: str = "select") -> "list[CardInst] | Frame":
        """The cards a selection names; when it says `choose` and a player must answer, a
        `Choose` frame whose result is the chosen cards."""
        d = self.d
        if isinstance(selection, str):
            if selection == "self":
                return [self.card]
            if selection in ("target", "targets"):
                return self.targets()
            if selection == "event":
                return self.event_cards()
            if selection == "equipped":
                return [self.card.equip_target] if self.card.equip_target else []
            if selection == "bound":
                return [self.card.bound] if self.card.bound else []
            if selection == "chosen":
                return list(self.chosen)
            if selection == "chain_card":
                return [self.link.answers.card] if self.link.answers else []
            if selection == "attacker":
                return [d.attack.attacker] if d.attack else []
            if selection == "attack_target":
                return [d.attack.target] if d.attack and d.attack.target else []
            if selection == "others":
                return list(self.others)
            if selection == "affected":
                return list(self.affected)
            if selection == "equips":
                return list(self.card.equips)
            if selection == "defeated":
                return [c for c, moves, turn in self.card.defeated if turn == d.turn and c.moves == moves and c.loc == Loc.GY]
            if selection == "battling":  # the other monster in this card's battle
                a = d.attack
                if a is None or a.target is None or self.card not in (a.attacker, a.target):
                    return []
                return [a.target if self.card is a.attacker else a.attacker]
            return []
        if isinstance(selection, fx.AllOf):
            return select(d, selection.all, self.player, self.card, self.event_cards())
        if isinstance(selection, fx.ChooseOf):
            spec = selection.choose
            if spec.among == "chosen":
                candidates = [c for c in self.chosen if matches(d, c, spec.where, self.player, self.card)]
            else:
                candidates = select(d, spec.where, self.player, self.card, self.event_cards())
            if spec.pick is not None and candidates:
                stat = (lambda c: c.atk) if spec.pick.endswith("atk") else (lambda c: c.defense)
                best = (min if spec.pick.startswith("lowest") else max)(stat(c) for c in candidates)
                candidates = [c for c in candidates if stat(c) == best]
            lo = 1 if spec.count.min is None else spec.count.min  # "0-1": you may choose none
            chosen = choose(d, self.player if spec.who == "you" else 1 - self.player, candidates,
                            lo, spec.count.max, verb, f"{self.card.name}: {verb}", random=spec.random, look=spec.look)
            if isinstance(chosen, Choose):  # asked: the answer becomes `chosen` when it comes
                chosen.ctx, chosen.among_chosen = self, spec.among == "chosen"
                return chosen
            return self.picked(chosen, spec.among == "chosen")
        if isinstance(selection, fx.CopiesOf):
            spec = selection.copies
            originals = self.cards(spec.of)  # (a reference, never a choice: a list)
            assert type(originals) is list
            copies: list[CardInst] = []
            for original in originals:
                where = fx.Filter(zone=spec.zone, name=(original.data.name,), side="you")
                copies += [c for c in select(d, where, original.controller) if c is not original and c not in copies]
            return copies
        return []

    def picked(self, chosen: list[CardInst], among_chosen: bool) -> list[CardInst]:
        """What a `choose` selection chose is the effect's `chosen` from now on."""
        self.others = [c for c in self.chosen if c not in chosen] if among_chosen else []
        self.chosen = chosen
        return chosen


def choose(d: DuelState, player: int, candidates: list[CardInst], lo: int, hi: int | None, verb: str, prompt: str,
           random: bool = False, look: bool = False) -> "list[CardInst] | Choose":
    """Let `player` choose lo..hi of `candidates` (all of them when there are no more): the
    chosen cards when there is nothing to ask, else a `Choose` frame that asks; with `look`
    the chooser sees the hidden ones' names."""
    if not candidates:
        return []
    hi = len(candidates) if hi is None else min(hi, len(candidates))
    lo = min(lo, hi)
    if random:
        return d.rng.sample(candidates, hi)
    if lo == hi == len(candidates) and verb not in ("discard", "tribute"):
        return list(candidates)
    if hi == 0:
        return []
    return Choose(player, candidates, lo, hi, verb, prompt, look)


@dataclass
class Choose(Frame):
    """Ask `player` to choose lo..hi of `candidates`; the result is the chosen cards. For a
    selection of an operation (`Ctx.cards`), they also become its context's `chosen`."""

    player: int
    candidates: list[CardInst]
    lo: int
    hi: int
    verb: str
    prompt: str
    look: bool = False
    ctx: Ctx | None = None
    among_chosen: bool = False  # a choice `among: chosen` (the others are remembered)

    def start(self, d: DuelState, _: Any) -> Next:
        lo, hi = self.lo, self.hi
        if self.look:  # the chooser sees them (a look at the opponent's hand) and remembers
            d.reveal(self.candidates, (self.player,))
        return self.ask("chosen", d.ask(self.player, Kind.CARDS, card_options(d, self.candidates, self.player, self.look),
                                        f"{self.prompt} ({lo if lo == hi else f'{lo}-{hi}'})", lo=lo, hi=hi, verb=self.verb,
                                        subject=self.ctx.card.uid if self.ctx else None,
                                        effect=self.ctx.link.index if self.ctx and self.ctx.link.index >= 0 else None))

    def chosen(self, d: DuelState, answer: tuple[Option, ...]) -> Next:
        chosen = [d.cards[o.card] for o in answer]  # type: ignore[index]
        if self.ctx is not None:
            self.ctx.picked(chosen, self.among_chosen)
        return Return(chosen)


def valid_targets(d: DuelState, link: ChainLink) -> list[CardInst]:
    """R-CHAIN-6: targets that are still where they were and still fit the target's filter."""
    groups = link.effect.target_groups
    out = []
    for card, moves, group in zip(link.targets, link.target_moves, link.target_groups):
        if card.moves != moves:
            continue
        if not matches(d, card, groups[group].where, link.player, link.card, _signal_cards(link)):
            continue
        out.append(card)
    return out


def _signal_cards(link: ChainLink) -> list[CardInst]:
    return link.event_cards


# ---------------------------------------------------------------------- resolving


def resolve_link(d: DuelState, link: ChainLink) -> "ResolveLink":
    ctx = Ctx(d, link, link.player, link.card, link.effect, chosen=list(link.chosen))  # a delayed effect remembers
    link.resolving_targets = [(c, c.moves) for c in valid_targets(d, link)]
    if link.declared is not None:
        d.declared = link.declared  # what this link declared on activation, not a later link's declaration
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


def run_ops(ctx: Ctx, ops: Sequence[OpSpec]) -> "RunOps | None":
    """Run operations in order (None: there are none). An operation returns False when it could
    not do what it says (nothing left to destroy, an attack already over); `if_you_do` reads that."""
    return RunOps(ctx, ops) if ops else None


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
            done = OPERATIONS[spec.op](ctx, spec.params, spec.op)
            if isinstance(done, Frame) or type(done) is GeneratorType:  # it must ask first
                return self.then(d, "ran", done)
            self.i += 1
            if spec.op != "if_you_do":
                ctx.done = done is not False
        return DONE

    def ran(self, d: DuelState, done: Any) -> Next:
        op = self.ops[self.i].op
        self.i += 1
        if op != "if_you_do":
            self.ctx.done = done is not False
        return self.start(d, None)


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


# ---------------------------------------------------------------------- activation checks


def cost_payable(d: DuelState, p: int, card: CardInst, effect: Effect) -> bool:
    for spec in effect.cost:
        params = spec.params
        side = d.players[p]
        if spec.op == "pay_lp":
            amount = params.amount
            if isinstance(amount, int) and side.lp < amount:  # R-WIN-1: a cost may bring LP to 0, never below
                return False
        elif spec.op == "discard":
            if params.what == "self":
                if card.loc != Loc.HAND:
                    return False
            elif sum(1 for c in side.hand if c is not card and matches(d, c, params.where, p, card)) < params.count:
                return False
        elif spec.op in ("send_to_gy", "banish", "return_to_hand", "destroy"):
            if not _selection_available(d, p, card, params.what):
                return False
        elif spec.op == "detach":
            if len(card.materials) < params.count:
                return False
        elif spec.op == "remove_counter":
            if card.counters.get(params.counter, 0) < params.count:
                return False
    return True


def _selection_available(d: DuelState, p: int, card: CardInst, selection: Any, events: list[CardInst] | None = None,
                         skip: CardInst | None = None) -> bool:
    """Whether a `choose` or `all` selection (of costs and operations) finds enough cards now;
    `skip` does not count (Dark Hole's own card)."""
    if isinstance(selection, fx.ChooseOf):
        spec = selection.choose
        need = spec.count.min or 1
        return len(select(d, spec.where, p, card, events or (), limit=need)) >= need
    if isinstance(selection, fx.AllOf):
        return any(c is not skip for c in select(d, selection.all, p, card, events or (), limit=2))
    return True


def possible(d: DuelState, p: int, card: CardInst, effect: Effect) -> tuple[str, str] | None:
    """(rule, why) when the effect could not do anything now, so it may not be activated."""
    events = event_cards(d)
    drawn = {0: 0, 1: 0}  # cards an earlier operation of the same effect draws first (Graceful Charity)
    for spec in effect.do:
        params = spec.params
        if spec.op == "draw":
            for who in _who(p, card, params.player):
                if len(d.players[who].deck) < params.count:
                    return "R-WIN-2", f"it draws {params.count} card{'s' if params.count > 1 else ''} and the Deck has {len(d.players[who].deck)}"
                drawn[who] += params.count
        elif spec.op in ("destroy", "send_to_gy", "banish", "return_to_hand", "return_to_deck", "add_to_hand", "take_control", "reveal"):
            what = params.what
            if isinstance(what, fx.AllOf) and what.all.declared:
                what = variant(what, all=variant(what.all, declared=False))  # declared on resolution: any may do
            optional = isinstance(what, fx.ChooseOf) and what.choose.count.min == 0
            if not optional and not _selection_available(d, p, card, what, events, skip=card if spec.op == "destroy" else None):
                return "R-CHAIN-6", "there is nothing for it to affect"
        elif spec.op == "special_summon":
            if d.players[p].free_mzone() is None and not _summon_frees_zone(effect):
                return "R-ZONE-1", "there is no free Monster Zone"
            what = params.what
            if isinstance(what, fx.ChooseOf) and what.choose.count.min != 0 and not select(d, what.choose.where, p, card, events, limit=1):
                return "R-CHAIN-6", "there is no monster it could Special Summon"
        elif spec.op == "discard" and params.what is None:
            for who in _who(p, card, params.player):
                if len(d.players[who].hand) + drawn[who] - (1 if card.loc == Loc.HAND and who == p else 0) < params.count:
                    return "R-CHAIN-6", "there are not enough cards in hand to discard"
        elif spec.op == "fusion_summon":
            if not fusion_choices(d, p, params, card):
                return "R-SUMMON-10", "no Fusion Monster can be Fusion Summoned with the available materials"
        elif spec.op == "ritual_summon":
            if not ritual_choices(d, p, params, card):
                return "R-SUMMON-11", "no Ritual Monster in your hand can be Ritual Summoned now"
        elif spec.op == "token":
            player = p if params.player == "you" else 1 - p
            free = sum(1 for i in range(5) if d.players[player].mzone[i] is None)
            if free < params.count:
                return "R-ZONE-1", f"it makes {params.count} Token{'s' if params.count > 1 else ''} and there {'are' if free != 1 else 'is'} {free} free Monster Zone{'s' if free != 1 else ''}"
        elif spec.op == "equip" and params.to == "target" and not effect.target_groups:
            return "R-CARD-8", "an Equip Spell needs a monster to equip"
    return None


def _summon_frees_zone(effect: Effect) -> bool:
    return any(op.op in ("destroy", "send_to_gy", "banish") for op in effect.cost)


def _who(p: int, card: CardInst, who: str) -> list[int]:
    return {"you": [p], "opponent": [1 - p], "each": [p, 1 - p]}.get(who, [p])


# ---------------------------------------------------------------------- the operations


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


def op_draw(ctx: Ctx, params: fx.Draw, name: str) -> None:
    for p in ctx.players(params.player):
        count = ctx.discarded.get(p, 0) if params.as_discarded else params.count
        if not count:
            continue
        for card in ctx.d.draw(p, count):
            ctx.d.signal("drawn", card, p)


def op_discard(ctx: Ctx, params: fx.Discard, name: str) -> Any:
    if params.what is not None:
        return DiscardCards(ctx, params, name).after(ctx.cards(params.what, verb="discard"))
    return DiscardEach(ctx, params, ctx.players(params.player))


class DiscardCards(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        actions.discard(d, cards, cost=self.ctx.cost)


@dataclass
class DiscardEach(Frame):
    """Each player named discards from their hand: cards they choose, at random, or the whole hand."""

    ctx: Ctx
    params: fx.Discard
    players: list[int]
    i: int = 0  # the player discarding now

    def start(self, d: DuelState, _: Any) -> Next:
        ctx, params = self.ctx, self.params
        while self.i < len(self.players):
            p = self.players[self.i]
            hand = [c for c in d.players[p].hand if c is not ctx.card and matches(d, c, params.where, p, ctx.card)]
            if params.whole_hand:
                cards = hand
            else:
                cards = choose(d, p, hand, params.count, params.count, "discard", f"{ctx.card.name}: discard",
                               random=params.random)
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
        actions.discard(d, cards, cost=self.ctx.cost)
        self.ctx.discarded[p] = self.ctx.discarded.get(p, 0) + len(cards)


_MOVE_VERBS = {"destroy": "destroy", "send_to_gy": "send to the GY", "banish": "banish", "return_to_hand": "return to the hand",
               "return_to_deck": "return to the Deck", "add_to_hand": "add to your hand"}


def op_move(ctx: Ctx, params: fx.Moves, name: str) -> Any:
    tribute = ctx.cost and name == "send_to_gy" and isinstance(params.what, fx.ChooseOf) and params.what.choose.where.zone == ("monster",)
    verb = "tribute" if tribute else _MOVE_VERBS[name].split()[0]  # R-TERM-3
    return MoveCards(ctx, params, name).after(ctx.cards(params.what, verb=verb))


class MoveCards(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> bool:
        ctx = self.ctx
        cards = [c for c in cards if c.loc != Loc.GONE]
        moves = [c.moves for c in cards]
        _move(ctx, self.params, self.name, cards)
        ctx.affected = [c for c, before in zip(cards, moves) if c.moves != before]
        return bool(ctx.affected)


def _move(ctx: Ctx, params: fx.Moves, name: str, cards: list[CardInst]) -> None:
    d = ctx.d
    if not cards:
        return
    if name == "destroy":  # "destroy it, and if you do, banish it" (banish: Bottomless Trap Hole)
        actions.destroy(d, cards, by="effect", source=ctx.card, to=Loc.BANISHED if params.banish else Loc.GY)
    elif name == "send_to_gy":
        for c in cards:  # R-TERM-3: sending your own monster from the field as a cost is a Tribute
            tribute = ctx.cost and c.loc == Loc.MZONE and c.controller == ctx.player
            actions.send_to_gy(d, [c], reason=TRIBUTED_BY_EFFECT if tribute else "cost" if ctx.cost else "effect")
    elif name == "banish":
        for c in cards:
            actions.move(d, c, Loc.BANISHED, face_up=not params.face_down, reason="banished")
    elif name == "return_to_hand":
        for c in cards:
            actions.move(d, c, Loc.HAND, face_up=False, reason="returned to hand")
    elif name == "return_to_deck":
        owners = set()
        for c in cards:
            actions.move(d, c, Loc.DECK, face_up=False, reason="returned to Deck", top=params.position != "bottom")  # Extra Deck monsters go home
            owners.add(c.owner)
        if params.position == "shuffle":
            for owner in sorted(owners):
                d.shuffle(owner)
    elif name == "add_to_hand":
        searched = {c.owner for c in cards if c.loc == Loc.DECK}
        for c in cards:
            actions.move(d, c, Loc.HAND, face_up=False, reason="added to hand", reveal=params.reveal)
        for owner in sorted(searched):  # R-ZONE-7: a searched Deck is shuffled
            d.shuffle(owner)


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
        self.from_deck = sorted({c.owner for c in cards if c.loc == Loc.DECK})
        return self.next(d, None)

    def next(self, d: DuelState, _: Any) -> Next:
        ctx, params = self.ctx, self.params
        while self.i < len(self.cards):
            card = self.cards[self.i]
            self.i += 1
            if card.loc in (Loc.MZONE, Loc.GONE) or not card.is_monster:
                continue
            controller = ctx.player if params.controller == "you" else card.owner
            summoning = special_summon(d, card, controller, params.position, how="special", proper=params.proper)
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
                ctx.card.binding = "destroyed" if self.params.bind == "destroyed" else "leaves"


def op_change_position(ctx: Ctx, params: fx.ChangePosition, name: str) -> Any:
    return ChangePosition(ctx, params, name).after(ctx.cards(params.what))


class ChangePosition(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        for card in cards:
            if card.loc != Loc.MZONE:
                continue
            actions.set_position(d, card, self.params.to, flip_effects=not self.params.no_flip_effects)


def amount_of(ctx: Ctx, params: fx._Amount, player: int) -> "int | Amount":
    """The LP amount an operation names, for `player` (whose LP "half" halves); a frame whose
    result is the amount when the cards it counts must be chosen first."""
    amount = params.amount
    if amount == "half":
        return ctx.d.players[player].lp // 2
    if isinstance(amount, int):
        return _scaled(ctx, params, amount)
    return Amount(ctx, params).after(ctx.cards(params.of) if params.of is not None else list(ctx.chosen))


class Amount(OpStep):
    def act(self, d: DuelState, source: list[CardInst]) -> int:
        amount = self.params.amount
        if amount == "atk_of":
            amount = sum(c.atk for c in source)
        elif amount == "field_atk_of":
            amount = sum(c.atk if c.loc == Loc.MZONE else c.field_atk for c in source)
        elif amount == "def_of":
            amount = sum(c.defense for c in source)
        elif amount == "count_of":
            amount = len(source)
        else:
            amount = sum(c.level for c in source) * 100
        return _scaled(self.ctx, self.params, amount)


def _scaled(ctx: Ctx, params: fx._Amount, amount: int) -> int:
    amount = int(amount * params.factor)
    if params.per is not None:
        amount *= len(select(ctx.d, params.per, ctx.player, ctx.card))
    return amount


def op_damage(ctx: Ctx, params: fx.Damage, name: str) -> Any:
    return Damage(ctx, params, name).after(amount_of(ctx, params, ctx.player))


class Damage(OpStep):
    def act(self, d: DuelState, amount: int) -> bool | None:
        if amount <= 0:
            return False
        ctx = self.ctx
        d.change_lps({p: -amount for p in ctx.players(self.params.player)}, "effect")
        for p in ctx.players(self.params.player):
            d.signal("effect_damage", None, p)
        return None


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
        while self.i < len(self.players):
            self.lp = d.players[self.players[self.i]].lp
            amount = amount_of(self.ctx, self.params, self.players[self.i])
            if isinstance(amount, Frame):
                return self.then(d, "counted", amount)
            self._change(d, amount)
        return DONE

    def counted(self, d: DuelState, amount: int) -> Next:
        self._change(d, amount)
        return self.start(d, None)

    def _change(self, d: DuelState, amount: int) -> None:
        p, lp = self.players[self.i], self.lp
        self.i += 1
        if amount <= 0:
            return
        if self.name == "gain_lp":
            d.change_lp(p, amount, "gain")
        else:
            d.change_lp(p, -min(amount, lp), "cost" if self.name == "pay_lp" else "loss")


_MODIFY_FLAGS = tuple(n for n, f in fx.Modify.model_fields.items() if f.annotation in (bool, "bool"))  # restrictions it lasts with


def op_modify(ctx: Ctx, params: fx.Modify, name: str) -> Any:
    return Modify(ctx, params, name).after(ctx.cards(params.what))


class Modify(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> bool:
        ctx, params = self.ctx, self.params
        times = ctx.link.rolled if params.times == "roll" else 1
        atk, defense = params.atk * times, params.def_ * times
        flags = frozenset(f for f in _MODIFY_FLAGS if getattr(params, f))
        scale = params.scale * times
        done = False
        for card in cards:
            if not card.face_up or not (card.loc == Loc.MZONE or (scale and card.in_pendulum_zone)):
                continue
            done = True
            expires = 0
            if params.until in ("opponent_turns", "your_turns"):  # the last of the opponent's (your) next N turns
                now_mine = d.turn_player == ctx.player
                expires = d.turn + 2 * params.turns - (1 if now_mine == (params.until == "opponent_turns") else 0)
            card.modifiers.append(Modifier(atk, defense, params.set_atk, params.until, d.turn, ctx.card.uid, flags, expires,
                                           scale, params.scale_limit))
            if card.loc == Loc.SZONE:  # a Pendulum Scale (R-SUMMON-14)
                d.emit(Note(f"{card.name}: Pendulum Scale {scale:+d} → {card.scale}"))
                continue
            parts = [f"{v:+d} {s}" for v, s in ((atk, "ATK"), (defense, "DEF")) if v]
            if params.set_atk is not None:
                parts.insert(0, f"ATK becomes {params.set_atk}")
            parts += [f.replace("_", " ") for f in sorted(flags)]
            until = {"end_of_turn": " until the end of the turn", "damage_calculation": " for this damage calculation",
                     "opponent_turns": f" until the end of turn {expires}", "your_turns": f" until the end of turn {expires}"}.get(params.until, "")
            d.emit(Note(f"{card.name}: {', '.join(parts)}{until}"
                        + f" → {card.atk}/{card.defense}"))
        return done


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


def op_equip(ctx: Ctx, params: fx.Equip, name: str) -> "Equip":
    return Equip(ctx, params)


@dataclass
class Equip(Frame):
    """Equip cards to a monster. A monster card becomes an Equip Card in a Spell & Trap Zone of
    the effect's controller (R-CARD-8: Archfiend of Gilfer, Dark Necrofear, Relinquished)."""

    ctx: Ctx
    params: fx.Equip
    equips: list[CardInst] = field(default_factory=list)

    def start(self, d: DuelState, _: Any) -> Next:
        return self.follow(d, "chosen", self.ctx.cards(self.params.what))

    def chosen(self, d: DuelState, equips: list[CardInst]) -> Next:
        self.equips = equips
        return self.follow(d, "act", self.ctx.cards(self.params.to))

    def act(self, d: DuelState, targets: list[CardInst]) -> Next:
        ctx, equips = self.ctx, self.equips
        monster = next((t for t in targets if t.loc == Loc.MZONE and t.face_up and t not in equips), None)
        for card in equips:
            if card.is_monster and card.loc != Loc.SZONE:
                zone = d.players[ctx.player].free_szone()
                if monster is None or zone is None or card.loc == Loc.GONE:
                    continue  # it stays where it is
                for old in list(card.equips):  # a monster leaving the Monster Zone loses its Equip Cards (R-CARD-8)
                    actions.destroy(d, [old], by="rule", reason=f"{card.name} became an Equip Card (R-CARD-8)")
                actions.move(d, card, Loc.SZONE, seq=zone, face_up=True, controller=ctx.player, reason="equipped as an Equip Card")
            if monster is None or card.loc != Loc.SZONE:
                if card.loc == Loc.SZONE:
                    actions.move(d, card, Loc.GY, reason="nothing to equip")
                continue
            actions.equip(d, card, monster)
        return DONE


def op_counters(ctx: Ctx, params: fx.Counters, name: str) -> Any:
    return Counters(ctx, params, name).after(ctx.cards(params.what))


class Counters(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        params = self.params
        for card in cards:
            if not card.loc.on_field:
                continue
            have = card.counters.get(params.counter, 0)
            card.counters[params.counter] = have + params.count if self.name == "add_counter" else max(0, have - params.count)
            d.emit(Note(f"{card.name} has {card.counters[params.counter]} {params.counter}"))


def op_token(ctx: Ctx, params: fx.Token, name: str) -> "Tokens":
    return Tokens(ctx, params, ctx.player if params.player == "you" else 1 - ctx.player)


@dataclass
class Tokens(Frame):
    """Special Summon Tokens one by one while there is a free zone (each may ask its position)."""

    ctx: Ctx
    params: fx.Token
    player: int
    made: int = 0

    def start(self, d: DuelState, _: Any) -> Next:
        while self.made < self.params.count:
            self.made += 1
            if d.players[self.player].free_mzone() is None:
                break
            token = d.make_token(self.player, self.params)
            summoning = special_summon(d, token, self.player, self.params.position, how="special")
            if summoning is not None:
                return self.then(d, "start", summoning)
        return DONE


def op_take_control(ctx: Ctx, params: fx.TakeControl, name: str) -> Any:
    return TakeControl(ctx, params, name).after(ctx.cards(params.what))


class TakeControl(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        ctx, params = self.ctx, self.params
        for card in cards:
            if card.loc == Loc.MZONE and card.controller != ctx.player:
                d.take_control(card, ctx.player, until_end_phase=params.until == "end_phase")
                if params.until == "while_equipped" and card.loc == Loc.MZONE and ctx.card.equip_target is card:
                    card.original_controller = 1 - ctx.player  # given back when this Equip Card leaves (Duel._unequip)
                    card.held_by = ctx.card.uid


def op_skip(ctx: Ctx, params: fx.Skip, name: str) -> None:
    player = ctx.player if params.player == "you" else 1 - ctx.player
    ctx.d.players[player].skip[params.phase] = ctx.d.turn
    ctx.d.players[player].skips_left[params.phase] = params.count
    phase = params.phase.replace('main1', 'Main Phase 1').title()
    ctx.d.emit(Note(f"{ctx.d.names[player]} skips their next {phase} Phase" if params.count == 1
                    else f"{ctx.d.names[player]} skips their next {params.count} {phase} Phases"))


def op_coin(ctx: Ctx, params: fx.Coin, name: str) -> "RunOps | None":
    heads = ctx.d.rng.random() < 0.5
    ctx.d.emit(Note(f"Coin toss for {ctx.card.name}: {'heads' if heads else 'tails'}"))
    return run_ops(ctx, params.heads if heads else params.tails)


def op_look(ctx: Ctx, params: fx.Look, name: str) -> None:
    d = ctx.d
    for p in ctx.players(params.player):
        top = d.players[p].deck[-params.count:][::-1]
        d.reveal(top, (ctx.player,))
        d.emit(Note(f"{d.names[ctx.player]} looks at the top {len(top)} card{'s' if len(top) != 1 else ''} of {d.names[p]}'s Deck",
                    private_to=ctx.player, secret=", ".join(c.name for c in top)))


def op_mill(ctx: Ctx, params: fx.Mill, name: str) -> None:
    d = ctx.d
    for p in ctx.players(params.player):
        deck = d.players[p].deck
        cards = deck[-params.count:][::-1]
        actions.send_to_gy(d, cards, reason="sent from the Deck")


def op_declare(ctx: Ctx, params: fx.Declare, name: str) -> "Declare":
    return Declare(ctx, params)


@dataclass
class Declare(Frame):
    """A player declares a Type, an Attribute, a number, a kind of card or a card name."""

    ctx: Ctx
    params: fx.Declare

    def player(self) -> int:
        return self.ctx.player if self.params.player == "you" else 1 - self.ctx.player

    def start(self, d: DuelState, _: Any) -> Next:
        from ...schema.vocab import ATTRIBUTES, MONSTER_TYPES

        params = self.params
        if params.what == "type":
            words = MONSTER_TYPES
        elif params.what == "attribute":
            words = ATTRIBUTES
        elif params.what == "number":
            words = tuple(str(n) for n in range(1, 13))
        elif params.what == "kind":
            words = ("Monster", "Spell", "Trap")
        else:
            words = tuple(sorted({c.name for c in d.cards.values()}))
        return self.ask("declared", d.ask(self.player(), Kind.DECLARE, [Option(f"declare:{w}", w) for w in words],
                                          f"{self.ctx.card.name}: declare a {params.what}", verb="declare", subject=self.ctx.card.uid))

    def declared(self, d: DuelState, answer: Option) -> Next:
        self.ctx.link.declared = d.declared = (self.params.what, answer.label)  # (in `cost:`, declared on activation)
        d.emit(Note(f"{d.names[self.player()]} declares {answer.label}"))
        return DONE


def op_win(ctx: Ctx, params: fx.Win, name: str) -> None:
    player = ctx.player if params.player == "you" else 1 - ctx.player
    ctx.d.win(player, "card", f"{ctx.card.name}: {params.reason} (R-WIN-3)")


def op_no_battle_damage(ctx: Ctx, params: fx.NoBattleDamage, name: str) -> None:
    attack = ctx.d.attack
    if attack is not None:
        attack.no_damage.update(ctx.players(params.player))


def op_shuffle(ctx: Ctx, params: fx.Shuffle, name: str) -> None:
    for p in ctx.players(params.player):
        ctx.d.shuffle(p)


def op_reveal(ctx: Ctx, params: fx.Reveal, name: str) -> Any:
    return Reveal(ctx, params, name).after(ctx.cards(params.what))


class Reveal(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        d.reveal(cards, (0, 1))
        for card in cards:
            d.emit(Note(f"{d.names[card.owner]} reveals {card.name}"))


def op_later(ctx: Ctx, params: fx.Later, name: str) -> None:
    d = ctx.d
    effect = Effect.model_construct(kind="trigger", do=list(params.do), label=f"{ctx.card.name} (delayed)")
    d.delayed.append(Delayed(ctx.card, ctx.player, params.at, params.player, params.count, -1, effect,
                             ctx.card.moves if params.needs_self else None, [(c, c.moves) for c in ctx.chosen],
                             params.optional))
    whose = {"you": "your ", "opponent": "the opponent's ", "any": "the "}[params.player]
    nth = "next" if params.count == 1 else _ordinal(params.count)
    d.emit(Note(f"{ctx.card.name}: the rest happens during {whose}{nth} {params.at.replace('_', ' ').title()}"))


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


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
            top = d.players[p].deck[-params.count:][::-1]
            if not top:
                self.i += 1
                continue
            d.reveal(top, (0, 1))
            d.emit(Note(f"{d.names[p]} reveals the top {len(top)} card{'s' if len(top) != 1 else ''} of their Deck: "
                        + ", ".join(c.name for c in top)))
            self.top = top
            monsters = [c for c in top if c.is_monster and matches(d, c, params.summon, p, ctx.card)]
            free = sum(1 for z in d.players[p].mzone[:5] if z is None)
            if len(monsters) <= free:
                return self.chose(d, monsters)
            return self.follow(d, "chose", choose(d, p, monsters, free, free, "special summon",
                                                  f"{ctx.card.name}: Special Summon {free} of them"))
        return DONE

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
        for card in self.top:
            if card.loc == Loc.DECK:
                actions.move(d, card, Loc.HAND, face_up=False, reason="added to hand", reveal=True)
        self.i += 1
        return self.start(d, None)


def op_detach(ctx: Ctx, params: fx.Detach, name: str) -> None:
    """R-SUMMON-13: detached Xyz Materials go to the GY."""
    for material in ctx.card.materials[:params.count]:
        actions.move(ctx.d, material, Loc.GY, reason="detached")  # (it leaves the Xyz monster's materials)


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
        while self.asked < 2:
            p = (ctx.player, 1 - ctx.player)[self.asked]
            mine = [c for c in d.players[p].mzone[:5] if c is not None]
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
            ctx.chosen = picked
            return self.then(d, "finish", run_ops(ctx, self.params.then))
        return DONE


def op_for_this_turn(ctx: Ctx, params: fx.ForThisTurn, name: str) -> None:
    d = ctx.d
    for spec in params.continuous:
        effect = Effect.model_construct(kind="continuous", continuous=spec, condition=None)
        d.floating.append((ctx.card, effect, d.turn))
        d.index.continuous_count += 1  # the continuous layer has something to look at now
        d.index.flags |= spec_flags(spec)
    d.emit(Note(f"{ctx.card.name}: applies until the end of this turn"))


def op_lock_summons(ctx: Ctx, params: fx.LockSummons, name: str) -> None:
    d = ctx.d
    p = ctx.player if params.player == "you" else 1 - ctx.player
    d.players[p].summon_lock_turn = d.turn
    if params.sets:
        d.players[p].set_lock_turn = d.turn
    d.emit(Note(f"{d.names[p]} cannot Summon{' or Set' if params.sets else ''} monsters for the rest of this turn"))


def op_roll_die(ctx: Ctx, params: fx.RollDie, name: str) -> None:
    """R-TERM-7: the die is the duel's seeded RNG."""
    ctx.link.rolled = ctx.d.rng.randint(1, 6)
    ctx.d.emit(Note(f"{ctx.card.name}: the die shows {ctx.link.rolled}"))


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


def op_if(ctx: Ctx, params: fx.If, name: str) -> "RunOps | None":
    holds = condition_holds(ctx.d, ctx.card, params.condition)
    if params.condition.target_is is not None:
        targets = ctx.targets()
        holds = holds and bool(targets) and all(matches(ctx.d, t, params.condition.target_is, ctx.player, ctx.card) for t in targets)
    if params.condition.declared_is is not None:
        declared = ctx.chosen[0] if ctx.chosen else None
        holds = declared is not None and declared.data.kind == params.condition.declared_is
    return run_ops(ctx, params.then if holds else params.otherwise)


def op_fusion(ctx: Ctx, params: fx.FusionSummon, name: str) -> Frame:
    return fusion_summon(ctx.d, ctx.player, params, ctx.card)


def op_ritual(ctx: Ctx, params: fx.RitualSummon, name: str) -> Frame:
    return ritual_summon(ctx.d, ctx.player, params, ctx.card)


def op_if_you_do(ctx: Ctx, params: fx.IfYouDo, name: str) -> "RunOps | None":
    """"…, and if you do, …": the operations run only if the one before did what it says
    (Magic Cylinder: no damage when the attack could not be negated)."""
    if ctx.done:
        return run_ops(ctx, params.then)
    return None


def op_handler(ctx: Ctx, params: fx.Handler, name: str) -> Any:
    from .handlers import HANDLERS

    return HANDLERS[params.name](ctx)  # a result, or a Frame that asks first


def op_protect(ctx: Ctx, params: fx.Protect, name: str) -> None:
    d = ctx.d
    for p in ctx.players(params.player):
        if params.battle_damage:
            d.players[p].no_battle_damage_turn = d.turn
        if params.battle_destruction:
            d.players[p].battle_immune_turn = d.turn
    d.emit(Note(f"{ctx.card.name}: protection until the end of the turn"))


def op_bind(ctx: Ctx, params: fx.Bind, name: str) -> Any:
    return Bind(ctx, params, name).after(ctx.cards(params.what))


class Bind(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        card = self.ctx.card
        for monster in cards:
            if monster.loc.on_field and card.loc.on_field:
                card.bound, monster.bound = monster, card
                card.binding = "leaves"
                card.active = True
                break


def op_set_card(ctx: Ctx, params: fx.SetCard, name: str) -> Any:
    return SetCards(ctx, params, name).after(ctx.cards(params.what, verb="set"))


class SetCards(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        ctx = self.ctx
        for card in cards:
            if card.loc == Loc.HAND and not card.is_monster and (card.is_field_spell or d.players[ctx.player].free_szone() is not None):
                actions.set_spell_trap(d, ctx.player, card)


def op_flag(ctx: Ctx, params: fx.Flag, name: str) -> None:
    d = ctx.d
    p = ctx.player if params.player == "you" else 1 - ctx.player
    if name == "traps_from_hand":
        d.players[p].traps_from_hand_turn = d.turn
        d.emit(Note(f"{d.names[p]} may activate Traps from the hand this turn"))
    else:
        d.players[p].normal_summon_turn = 0
        d.emit(Note(f"{d.names[p]} may Normal Summon or Set again this turn"))


# an operation returns its result (False: it did not do what it says) or a Frame whose result it is
OPERATIONS: dict[str, Callable[[Ctx, Any, str], Any]] = {
    "draw": op_draw, "discard": op_discard,
    "destroy": op_move, "send_to_gy": op_move, "banish": op_move, "return_to_hand": op_move,
    "return_to_deck": op_move, "add_to_hand": op_move,
    "special_summon": op_special_summon, "change_position": op_change_position,
    "damage": op_damage, "gain_lp": op_life, "pay_lp": op_life, "lose_lp": op_life,
    "modify": op_modify, "negate": op_negate, "equip": op_equip,
    "add_counter": op_counters, "remove_counter": op_counters, "token": op_token,
    "take_control": op_take_control, "skip": op_skip, "coin": op_coin, "look": op_look, "mill": op_mill,
    "declare": op_declare, "win": op_win, "fusion_summon": op_fusion, "ritual_summon": op_ritual,
    "handler": op_handler, "no_battle_damage": op_no_battle_damage, "shuffle": op_shuffle, "reveal": op_reveal,
    "if": op_if, "if_you_do": op_if_you_do, "protect": op_protect, "bind": op_bind, "set_card": op_set_card,
    "traps_from_hand": op_flag, "extra_normal_summon": op_flag,
    "later": op_later, "roll_die": op_roll_die, "place": op_place, "excavate": op_excavate, "detach": op_detach, "swap_control": op_swap_control, "lock_summons": op_lock_summons,
    "for_this_turn": op_for_this_turn,
}
assert set(OPERATIONS) == set(fx.OPS), "every operation of the vocabulary has a handler"
