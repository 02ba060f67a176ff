"""Verbs on monsters and their cards: ATK/DEF and other lasting changes, battle positions, counters, equipping, binding a card to a monster."""

from __future__ import annotations

import math

from dataclasses import dataclass, field
from typing import Any

from ....schema import effects as fx
from ...board import actions
from ...board.continuous import Modifier, original_atk
from ...board.labels import card_options
from ...board.filters import counters_held, equip_spell_fits, select, variant
from ...core.decision import Kind, Option
from ...core.events import Note
from ...core.machine import DONE, Frame, Next
from ...core.types import Loc
from ...state.card import CardInst
from ...state.duel_state import DuelState
from ..context import Ctx
from ..registry import OpStep, amount_of, verb


_BATTLE_FLAGS = frozenset(("sole_attacker", "must_attack", "negates_battle_destroyed"))
_MODIFY_FLAGS = tuple(n for n, f in fx.Modify.model_fields.items()  # restrictions it lasts with
                      if f.annotation in (bool, "bool", bool | None) and n not in ("switch_original_atk", "later_arrivals"))


@verb("modify")
def op_modify(ctx: Ctx, params: fx.Modify, name: str) -> Any:
    return Modify(ctx, params, name).after(ctx.cards(params.what))


def _amount(ctx: Ctx, params: fx.AmountParams | None) -> int:
    """An `atk_by`/`def_by` amount, worked out now (its `of` names cards chosen before: nothing to ask)."""
    if params is None:
        return 0
    found = amount_of(ctx, params, ctx.player)
    return found if isinstance(found, int) else 0


class Modify(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> bool:
        ctx, params = self.ctx, self.params
        if params.switch_original_atk:
            return self._switch(d, cards)
        times = {"roll": ctx.link.rolled, "chosen": len(ctx.chosen), "affected": len(ctx.affected)}.get(params.times or "", 1)
        atk, defense = params.atk * times + _amount(ctx, params.atk_by), params.def_ * times + _amount(ctx, params.def_by)
        set_level = ctx.link.rolled if params.set_level == "rolled" else params.set_level
        # a Level change alone applies to monsters in the hand too (Cost Down, Level Conversion Lab)
        in_hand = bool(params.level_change or set_level is not None) and not (atk or defense or params.set_atk is not None
                                                                        or params.set_def is not None or params.multiply_atk)
        lost = 0
        flags = frozenset(f for f in _MODIFY_FLAGS if getattr(params, f))
        if flags & _BATTLE_FLAGS:
            d.battle_flags_turn = d.turn  # (read by the attack checks this turn: Diffusion Wave-Motion)
        scale = params.scale * times
        declared = ctx.link.declared
        attribute = declared[1] if params.set_attribute == "declared" and declared and declared[0] == "attribute" else None
        done = False
        changed: list[CardInst] = []
        bound: CardInst | None = ctx.card
        if params.until == "while_this_face_up" and params.while_card is not None:  # another card's (Pumpking's Castle)
            bound = next((c for c in select(d, params.while_card, ctx.player, ctx.card) if c.loc.on_field and c.face_up), None)
        if params.until == "while_this_face_up" and not (bound is not None and bound.loc.on_field and bound.face_up):
            cards = []  # "as long as this card is face-up on the field": it is not, so nothing lasts
        # restrictions alone also bind a face-down monster, and still do once it is flipped (Mind Control on a Set monster:
        # Flip Summoned, it still cannot attack or be Tributed)
        only_flags = bool(flags) and not (atk or defense or scale or params.set_atk is not None or params.set_def is not None
                                          or params.multiply_atk is not None or attribute is not None
                                          or params.set_type is not None)
        for card in cards:
            if in_hand and card.loc == Loc.HAND and card.is_monster and card.base_level:
                pass
            elif not (card.face_up or only_flags and card.loc == Loc.MZONE) or not (card.loc == Loc.MZONE or (scale and card.in_pendulum_zone)):
                continue
            done = True
            changed.append(card)
            expires = 0
            if params.until in ("opponent_turns", "your_turns"):  # the last of the opponent's (your) next N turns
                now_mine = d.turn_player == ctx.player
                expires = d.turn + 2 * params.turns - (1 if now_mine == (params.until == "opponent_turns") else 0)
            set_atk = params.set_atk
            if params.multiply_atk is not None:  # × its current ATK: the change is what that adds or takes (Goddess of Whim)
                now = card.atk
                if params.original:  # × its original ATK, which it changes (Adhesion Trap Hole: "Halve … original ATK")
                    now = original_atk(card) + sum(m.atk for m in card.modifiers if "original" in m.flags)
                atk = params.atk * times + math.ceil(now * params.multiply_atk) - now
            before = card.atk if card.loc == Loc.MZONE else 0
            card.modifiers.append(Modifier(atk, defense, set_atk, params.until, d.turn, (bound or ctx.card).uid, flags, expires,
                                           scale, params.scale_limit, params.set_def, attribute, params.level_change or 0, set_level,
                                           type=params.set_type, multiplied=params.multiply_atk is not None and not params.atk_by))
            lost += max(0, before - card.atk) if card.loc == Loc.MZONE else 0
            if card.loc == Loc.SZONE:  # a Pendulum Scale (R-SUMMON-14)
                d.emit(Note(f"{card.name}: Pendulum Scale {scale:+d} → {card.scale}"))
                continue
            if card.loc == Loc.HAND:
                d.emit(Note(f"a monster in {d.names[card.controller]}'s hand: its Level changes", private_to=card.controller,
                            secret=f"{card.name}: Level {card.level}"))
                continue
            parts = [f"{v:+d} {s}" for v, s in ((atk, "ATK"), (defense, "DEF")) if v]
            if set_atk is not None:
                parts.insert(0, f"ATK becomes {set_atk}")
            if params.set_def is not None:
                parts.insert(1 if set_atk is not None else 0, f"DEF becomes {params.set_def}")
            if attribute is not None:
                parts.append(f"its Attribute becomes {attribute}")
            if params.set_type is not None:
                parts.append(f"it is treated as {params.set_type}-Type")
            if params.level_change or set_level is not None:
                parts.append(f"Level {card.level}")
            parts += [f.replace("_", " ") for f in sorted(flags)]
            until = {"end_of_turn": " until the end of the turn", "damage_calculation": " for this damage calculation",
                     "battle_phase": " until the End Step",
                     "opponent_turns": f" until the end of turn {expires}", "your_turns": f" until the end of turn {expires}",
                     "while_this_face_up": f" while {(bound or ctx.card).name} is face-up"}.get(params.until, "")
            if not card.face_up:  # a restriction on a Set monster: only its controller knows what it is (R-TERM-6)
                d.emit(Note(f"{d.names[card.controller]}'s face-down monster: {', '.join(parts)}{until}",
                            private_to=card.controller, secret=f"it is {card.name}"))
                continue
            d.emit(Note(f"{card.name}: {', '.join(parts)}{until}"
                        + f" → {card.atk}/{card.defense}"))
        if params.later_arrivals and isinstance(params.what, fx.AllOf):  # (Cost Down: monsters added to the hand later)
            d.arrivals.append((ctx.player, params.what.all, ctx.card, Modifier(
                atk, defense, params.set_atk, params.until, d.turn, ctx.card.uid, flags, 0, 0, None, params.set_def, attribute,
                params.level_change or 0, set_level), d.turn))
        ctx.affected = changed  # "those monsters" (a delayed effect's `remember: affected`: Castle of Dark Illusions)
        ctx.atk_lost = lost  # "add that lost ATK to the other monster" (Riryoku: the amount atk_lost)
        return done

    def _switch(self, d: DuelState, cards: list[CardInst]) -> bool:
        """"Switch the original ATK of those targets" (Amazoness Spellcaster): both must still be face-up monsters."""
        pair = [c for c in cards if c.loc == Loc.MZONE and c.face_up]
        if len(pair) != 2:
            return False
        first, second = pair
        values = original_atk(second), original_atk(first)
        for card, value in zip(pair, values):
            card.modifiers.append(Modifier(0, 0, None, self.params.until, d.turn, self.ctx.card.uid, original_atk=value))
            d.emit(Note(f"{card.name}: its original ATK becomes {value} → {card.atk}/{card.defense}"))
        self.ctx.affected = pair
        return True


@verb("change_position")
def op_change_position(ctx: Ctx, params: fx.ChangePosition, name: str) -> Any:
    return ChangePosition(ctx, params, name).after(ctx.cards(params.what))


class ChangePosition(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        for card in cards:
            if card.loc != Loc.MZONE:
                continue
            actions.set_position(d, card, self.params.to, flip_effects=not self.params.no_flip_effects)


@verb("add_counter", "remove_counter")
def op_counters(ctx: Ctx, params: fx.Counters, name: str) -> Any:
    if params.any_number and name == "remove_counter" and params.what == "self":
        return HowMany(ctx, params)
    if params.in_all and name == "remove_counter":
        cards = ctx.cards(params.what)  # an `all` selection: the cards at once
        return InAll(ctx, params, cards if isinstance(cards, list) else [])
    return Counters(ctx, params, name).after(ctx.cards(params.what))


@dataclass
class HowMany(Frame):
    """"Remove any number of Spell Counters from this card": its player says how many (at least
    `count`, at most those it has); the chain link keeps the number (`removed`) for the filter
    atk_at_most_removed (Blast Magician)."""

    ctx: Ctx
    params: fx.Counters

    def start(self, d: DuelState, _: Any) -> Next:
        card, counter = self.ctx.card, self.params.counter
        have = card.counters.get(counter, 0) if card.loc.on_field else 0
        if have < self.params.count:
            return DONE
        numbers = list(range(self.params.count, have + 1))
        limits = [g.where for g in self.ctx.effect.target_groups if g.where.atk_at_most_removed]
        if limits:  # only the numbers that leave a target for the effect (Blast Magician: 1 counter reaches 700 ATK)
            where = limits[0]
            per = where.atk_at_most_removed or 0
            found = [c for c in select(d, variant(where, atk_at_most_removed=None), self.ctx.player, card) if c.is_monster]
            numbers = [n for n in numbers if any(c.atk <= n * per for c in found)] or numbers
        return self.ask("said", d.ask(self.ctx.player, Kind.DECLARE, [Option(f"declare:{n}", str(n)) for n in numbers],
                                      f"{card.name}: remove how many {counter}s?", verb="declare", subject=card.uid))

    def said(self, d: DuelState, answer: Option) -> Next:
        card, counter, count = self.ctx.card, self.params.counter, int(answer.label)
        card.counters[counter] = card.counters.get(counter, 0) - count
        self.ctx.link.removed = count
        d.emit(Note(f"{d.names[self.ctx.player]} removes {count} {counter}{'s' if count != 1 else ''} from {card.name} → {card.counters[counter]}"))
        return DONE


@dataclass
class InAll(Frame):
    """"Remove 10 Spell Counters on your side of the field": `count` counters from among the cards, one at a time —
    the player chooses the card of each unless every counter left is needed (Mega Ton Magical Cannon)."""

    ctx: Ctx
    params: fx.Counters
    cards: list[CardInst]
    left: int = 0

    def start(self, d: DuelState, _: Any) -> Next:
        self.cards = [c for c in self.cards if c.loc.on_field and c.counters.get(self.params.counter, 0) > 0]
        self.left = self.params.count
        return self.next(d)

    def next(self, d: DuelState) -> Next:
        counter = self.params.counter
        holders = [c for c in self.cards if c.loc.on_field and c.counters.get(counter, 0) > 0]
        if self.left <= 0 or not holders:
            return DONE
        if sum(c.counters[counter] for c in holders) <= self.left or len(holders) == 1:
            for card in holders:
                took = min(card.counters[counter], self.left)
                self.left -= took
                self.take(d, card, took)
            return DONE
        return self.ask("took", d.ask(self.ctx.player, Kind.CARDS, card_options(d, holders, self.ctx.player),
                                      f"Remove a {counter} from which card? ({self.left} left)", lo=1, hi=1, verb="select",
                                      subject=self.ctx.card.uid))

    def took(self, d: DuelState, answer: tuple[Option, ...]) -> Next:
        self.left -= 1
        self.take(d, d.card_of(answer[0]), 1)
        return self.next(d)

    def take(self, d: DuelState, card: CardInst, count: int) -> None:
        counter = self.params.counter
        card.counters[counter] = card.counters.get(counter, 0) - count
        d.emit(Note(f"{d.names[self.ctx.player]} removes {count} {counter}{'s' if count != 1 else ''} from {card.name} → {card.counters[counter]}"))


class Counters(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        params = self.params
        for card in cards:
            if not card.loc.on_field:
                continue
            have = card.counters.get(params.counter, 0)
            if self.name == "add_counter":
                if params.shield and params.counter not in d.shield_counters:  # (read by `actions.destroy`: Magic Reflector)
                    d.shield_counters = d.shield_counters | {params.counter}
                most = counters_held(card).get(params.counter)  # "(max. N)" in the card's own script
                card.counters[params.counter] = have + params.count if most is None else min(most, have + params.count)
            else:
                card.counters[params.counter] = 0 if params.every else max(0, have - params.count)
            d.emit(Note(f"{card.name} has {card.counters[params.counter]} {params.counter}"))


@verb("equip")
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
            elif card.is_spell and not card.loc.on_field:  # an Equip Spell from the GY (Chopman the Desperate Outlaw)
                zone = d.players[ctx.player].free_szone()
                if monster is None or zone is None or not equip_spell_fits(d, card, monster, ctx.player):
                    continue  # it stays where it is: no zone, or a monster it cannot equip (R-CARD-8)
                actions.move(d, card, Loc.SZONE, seq=zone, face_up=True, controller=ctx.player, reason="equipped by an effect")
            elif card.is_spell and card.loc == Loc.SZONE and card.equip_target is not None and card is not ctx.card:
                # an Equip Spell already equipped, moved to another monster (Tailor of the Fickle): only to one its own
                # activation could equip it to, else it stays where it is (R-CARD-8)
                if monster is None or monster is card.equip_target \
                        or not (self.params.any_monster or equip_spell_fits(d, card, monster, card.controller)):
                    continue
                actions.equip(d, card, monster, by=card.equipped_by)
                continue
            if monster is None or card.loc != Loc.SZONE:
                if card.loc == Loc.SZONE:
                    actions.move(d, card, Loc.GY, reason="nothing to equip")
                continue
            actions.equip(d, card, monster, by=card.uid if self.params.as_union and "union" in card.abilities else ctx.card.uid)
        return DONE


@verb("bind")
def op_bind(ctx: Ctx, params: fx.Bind, name: str) -> Any:
    return Bind(ctx, params, name).after(ctx.cards(params.what))


class Bind(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        card = self.ctx.card
        for monster in cards:
            if monster.loc.on_field and card.loc.on_field:
                card.bound, monster.bound = monster, card
                card.binding = "follows" if self.params.one_way else "leaves"
                card.active = True
                break
