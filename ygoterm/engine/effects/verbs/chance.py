"""Verbs of chance and declaration: coin tosses, dice (the duel's seeded RNG, R-TERM-7), declaring a Type, Attribute, number, kind or name."""

from __future__ import annotations

from dataclasses import dataclass, field as dc_field
from typing import Any, Sequence

from ....schema import effects as fx
from ....schema.vocab import ATTRIBUTES, MONSTER_TYPES, TYPES_AFTER_2005
from ...core.decision import Kind, Option
from ...core.events import Note
from ...board.continuous import source_with
from ...core.machine import DONE, Frame, Next, Return
from ...state.card import CardInst
from ...state.duel_state import DuelState
from ...board.filters import declarable_words, select
from ...core.types import Loc
from ..context import Ctx, choose
from ..registry import RunOps, run_ops, verb


@verb("coin")
def op_coin(ctx: Ctx, params: fx.Coin, name: str) -> "RunOps | Toss | None":
    results = _toss(ctx, params)
    if "redoes_coin_tosses" in ctx.d.index.flags:  # Second Coin Toss: a player may have the toss redone
        return Toss(ctx, params, results)
    return _tossed(ctx, params, results)


def _toss(ctx: Ctx, params: fx.Coin) -> list[bool]:
    results = [ctx.d.rng.random() < 0.5 for _ in range(params.tosses or 1)]  # "toss a coin 3 times" (Barrel Dragon)
    count = sum(results)
    if params.tosses is None:
        ctx.d.emit(Note(f"Coin toss for {ctx.card.name}: {'heads' if count else 'tails'}"))
    else:
        ctx.d.emit(Note(f"Coin tosses for {ctx.card.name}: {', '.join('heads' if r else 'tails' for r in results)} ({count} head{'' if count == 1 else 's'})"))
    return results


def _tossed(ctx: Ctx, params: fx.Coin, results: list[bool]) -> "RunOps | None":
    count = ctx.link.heads = sum(results)  # (a later `choose` with `count_heads` takes as many: Gatling Dragon)
    if params.tosses is None:
        if params.call and count:  # "if you call it right" (Time Wizard): what Dark Sage answers
            ctx.d.signal("called_right", ctx.card, ctx.player)
        return run_ops(ctx, params.heads if count else params.tails)
    return run_ops(ctx, params.heads if count >= (params.heads_at_least or params.tosses) else params.tails)


@dataclass
class Toss(Frame):
    """Second Coin Toss (`redoes_coin_tosses`): after a coin toss, the controller of a face-up card with that key who has
    not used "the effect of" such a card this turn may have it redone — every coin of it; then the effect goes on."""

    ctx: Ctx
    params: fx.Coin
    results: list[bool]
    asked: tuple[int, ...] = ()  # the players asked about this toss
    source: CardInst | None = None  # the card whose redo is being asked

    def redoer(self, d: DuelState) -> CardInst | None:
        for p in (self.ctx.player, 1 - self.ctx.player):
            if p in self.asked:
                continue
            source = source_with(d, "redoes_coin_tosses", lambda s, _: s.controller == p and s.loc.on_field
                                 and d.players[p].used_names.get(s.data.name) != d.turn)
            if source is not None:
                return source
        return None

    def start(self, d: DuelState, _: Any) -> Next:
        source = self.redoer(d)
        if source is None:
            return self.follow(d, "finish", _tossed(self.ctx, self.params, self.results))
        self.asked = (*self.asked, source.controller)
        self.source = source
        return self.ask("answered", d.ask(source.controller, Kind.YESNO, (Option("yes", "yes"), Option("no", "no")),
                                          f"{source.name}: redo the coin toss for {self.ctx.card.name}?", subject=source.uid))

    def answered(self, d: DuelState, answer: Option) -> Next:
        source = self.source
        if answer.key == "yes" and source is not None:
            d.players[source.controller].used_names[source.data.name] = d.turn  # "once per turn"
            d.emit(Note(f"{d.names[source.controller]} redoes the coin toss with {source.name}"))
            self.results = _toss(self.ctx, self.params)
            self.asked = (source.controller,)  # (the other player's copy may still answer the new toss)
        return self.start(d, None)

    def finish(self, d: DuelState, value: Any) -> Next:
        return Return(value)


@verb("roll_die")
def op_roll_die(ctx: Ctx, params: fx.RollDie, name: str) -> "KeepRoll | Reroll | None":
    """R-TERM-7: the die is the duel's seeded RNG; a player who gained a re-roll this turn may have it rolled again."""
    kept = _roll(ctx, params)
    d = ctx.d
    for p in (ctx.player, 1 - ctx.player):
        if d.players[p].reroll == (d.turn, True):  # (Dice Re-Roll)
            return Reroll(ctx, params, p, kept)
    return kept


@dataclass
class Reroll(Frame):
    """"If either player rolls a die, you can have the player re-roll" (Dice Re-Roll): once, the holder decides after seeing
    the result; the new roll replaces it (both dice of a pair, Dice Jar; both of a choice, Roulette Barrel)."""

    ctx: Ctx
    params: fx.RollDie
    holder: int
    kept: "KeepRoll | None"

    def start(self, d: DuelState, _: Any) -> Next:
        return self.ask("answered", d.ask(self.holder, Kind.YESNO, (Option("yes", "yes"), Option("no", "no")),
                                          f"{self.ctx.card.name}: have the die re-rolled?", verb="",
                                          subject=self.ctx.card.uid))

    def answered(self, d: DuelState, answer: Option) -> Next:
        if answer.key == "yes":
            d.players[self.holder].reroll = (d.turn, False)
            d.emit(Note(f"{d.names[self.holder]} has the die re-rolled"))
            self.kept = _roll(self.ctx, self.params)
        return self.then(d, "over", self.kept)

    def over(self, d: DuelState, _: Any) -> Next:
        return DONE


def _roll(ctx: Ctx, params: fx.RollDie) -> "KeepRoll | None":
    if params.keep_one_of:  # "roll a six-sided die twice, choose 1 result" (Roulette Barrel)
        rolls = [ctx.d.rng.randint(1, 6) for _ in range(params.keep_one_of)]
        ctx.d.emit(Note(f"{ctx.card.name}: the die shows {', '.join(map(str, rolls))}"))
        return KeepRoll(ctx, sorted(set(rolls)))
    if params.each_player:  # both players roll, again on a tie; `rolled` is the higher roll (Dice Jar)
        d, first = ctx.d, ctx.player
        while True:
            pair = {first: d.rng.randint(1, 6), 1 - first: d.rng.randint(1, 6)}
            d.emit(Note(f"{ctx.card.name}: {d.names[first]} rolls {pair[first]}, {d.names[1 - first]} rolls {pair[1 - first]}"
                        + (" — the same: both roll again" if pair[0] == pair[1] else "")))
            if pair[0] != pair[1]:
                break
        ctx.link.roll_loser = min(pair, key=lambda p: pair[p])
        ctx.link.rolled = max(pair.values())
        return None
    ctx.link.rolled = ctx.d.rng.randint(1, 6)
    ctx.d.emit(Note(f"{ctx.card.name}: the die shows {ctx.link.rolled}"))
    while params.reroll and ctx.link.rolled in params.reroll:  # "If the result is 6, roll again" (Needle Wall)
        ctx.link.rolled = ctx.d.rng.randint(1, 6)
        ctx.d.emit(Note(f"{ctx.card.name}: rolled again, the die shows {ctx.link.rolled}"))
    return None


@dataclass
class KeepRoll(Frame):
    """The effect's player keeps 1 of the results rolled; the others are forgotten."""

    ctx: Ctx
    results: list[int]

    def start(self, d: DuelState, _: Any) -> Next:
        if len(self.results) == 1:
            return self.kept(d, Option(f"roll:{self.results[0]}", str(self.results[0])))
        options = [Option(f"roll:{n}", f"keep {n}") for n in self.results]
        return self.ask("kept", d.ask(self.ctx.player, Kind.OPTION, options, f"{self.ctx.card.name}: which result?",
                                      subject=self.ctx.card.uid))

    def kept(self, d: DuelState, answer: Option) -> Next:
        self.ctx.link.rolled = int(answer.key.split(":")[1])
        d.emit(Note(f"{d.names[self.ctx.player]} keeps {self.ctx.link.rolled} for {self.ctx.card.name}"))
        return DONE


@verb("declare")
def op_declare(ctx: Ctx, params: fx.Declare, name: str) -> "Declare":
    return Declare(ctx, params)


@dataclass
class Declare(Frame):
    """A player declares a Type, an Attribute, a number, a kind of card or a card name."""

    ctx: Ctx
    params: fx.Declare
    said: list[str] = dc_field(default_factory=list)  # with `count` > 1: the words declared so far

    def player(self) -> int:
        return self.ctx.player if self.params.player == "you" else 1 - self.ctx.player

    def start(self, d: DuelState, _: Any) -> Next:
        params = self.params
        if params.what == "type":
            words = MONSTER_TYPES if d.rules.format != "goat" else tuple(t for t in MONSTER_TYPES if t not in TYPES_AFTER_2005)
        elif params.what == "attribute":
            words = ATTRIBUTES
        elif params.what in ("number", "level"):
            words = tuple(str(n) for n in range(1, 13))
        elif params.what == "kind":
            words = ("Monster", "Spell", "Trap")
        else:  # every name of the pool: the duel's own cards would show the opponent's Deck
            if d.card_names:
                kind = params.kind  # ("Declare 1 Monster Card name": the pool's monsters' names)
                words = tuple(sorted(d.card_names if kind is None else (n for n in d.card_names if d.card_kind(n) == kind)))
            else:
                words = tuple(sorted({c.name for c in d.cards.values()
                                      if c.owner == self.player() and params.kind in (None, c.data.kind)}))
        if params.among is not None:
            present = declarable_words(d, params, self.ctx.player, self.ctx.card)
            words = tuple(w for w in words if w in present)
        if params.count > 1:  # (only different words: "Select 2 Monster Card Attributes")
            words = tuple(w for w in words if w not in self.said)
            return self._ask(d, "said_one", self.player(), words,
                             f"declare a {params.what} ({len(self.said) + 1} of {params.count})")
        return self._ask(d, "declared", self.player(), words, f"declare a {params.what}")

    def _ask(self, d: DuelState, then: str, player: int, words: Sequence[str], what: str) -> Next:
        return self.ask(then, d.ask(player, Kind.DECLARE, [Option(f"declare:{w}", w) for w in words],
                                    f"{self.ctx.card.name}: {what}", verb="declare", subject=self.ctx.card.uid))

    def chooser(self) -> int:
        """Who keeps 1 of several declarations (`chosen_by`, from this effect's player)."""
        return self.ctx.player if self.params.chosen_by == "you" else 1 - self.ctx.player

    def said_one(self, d: DuelState, answer: Option) -> Next:
        """One of several declarations; once all are made, `chosen_by` keeps 1 of them (Earthshaker)."""
        self.said.append(answer.label)
        d.emit(Note(f"{d.names[self.player()]} declares {answer.label}"))
        if len(self.said) < self.params.count:
            return self.start(d, None)
        return self._ask(d, "kept", self.chooser(), self.said, f"choose 1 of the declared {self.params.what}s")

    def kept(self, d: DuelState, answer: Option) -> Next:
        d.emit(Note(f"{d.names[self.chooser()]} chooses {answer.label}"))
        return self.declared(d, answer, note=False)

    def declared(self, d: DuelState, answer: Option, note: bool = True) -> Next:
        link = self.ctx.link
        link.declared = d.declared = (self.params.what, answer.label)  # (in `cost:`, declared on activation)
        # (a second declaration of another kind adds to the first: "Declare a Type and an Attribute" — Abyssal Designator)
        link.declarations = d.declarations = (*(x for x in link.declarations if x[0] != self.params.what), link.declared)
        card = self.ctx.card
        card.declaration = (self.params.what, answer.label, card.moves)  # (read by the filter declared_by_self)
        if note:
            d.emit(Note(f"{d.names[self.player()]} declares {answer.label}"))
        return DONE


@verb("reveal_compare")
def op_reveal_compare(ctx: Ctx, params: fx.RevealCompare, name: str) -> "RevealCompare":
    return RevealCompare(ctx, params)


@dataclass
class RevealCompare(Frame):
    """Each player chooses 1 card of their hand (this effect's player first); both are revealed and their Levels compared
    (Ante: a non-monster card is Level 0); the lower one becomes `chosen`, its player `roll_loser`, for `lower`."""

    ctx: Ctx
    params: fx.RevealCompare
    picked: list[CardInst] = dc_field(default_factory=list)

    def start(self, d: DuelState, _: Any) -> Next:
        ctx = self.ctx
        while len(self.picked) < 2:
            p = ctx.player if not self.picked else 1 - ctx.player
            cards = [c for c in select(d, self.params.where, p, ctx.card) if c.loc == Loc.HAND and c.controller == p and c is not ctx.card]
            if not cards:
                d.emit(Note(f"{ctx.card.name}: {d.names[p]} has no card to reveal"))
                return DONE
            out = choose(d, p, cards, 1, 1, "select", f"{ctx.card.name}: reveal 1 card of your hand")
            if not isinstance(out, list):
                return self.follow(d, "chose", out)
            self.picked.append(out[0])
        return self.compare(d)

    def chose(self, d: DuelState, chosen: list[CardInst]) -> Next:
        self.picked.append(chosen[0])
        return self.start(d, None)

    def compare(self, d: DuelState) -> Next:
        ctx = self.ctx
        mine, theirs = self.picked
        d.reveal([mine, theirs], (0, 1))
        level = {c.uid: (c.level if c.is_monster else 0) for c in (mine, theirs)}
        d.emit(Note(f"{ctx.card.name}: {d.names[mine.controller]} reveals {mine.name} (Level {level[mine.uid]}), "
                    f"{d.names[theirs.controller]} reveals {theirs.name} (Level {level[theirs.uid]})"))
        if level[mine.uid] == level[theirs.uid]:
            return DONE
        lower = min((mine, theirs), key=lambda c: level[c.uid])
        ctx.link.roll_loser = lower.controller
        ctx.chosen = [lower]
        return self.then(d, "done", run_ops(ctx, self.params.lower))

    def done(self, d: DuelState, _: Any) -> Next:
        return DONE
