"""The Main Phase (R-PHASE-4/6): the turn player's commands in an open game state, and the
Summons a player makes — Normal/Tribute Summons and Sets, Flip Summons, Gemini Summons,
Summons by a card's own procedure — and changes of battle position (RULES.md §7).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..state.card import CardInst
from .activation import activation_options
from ..board.continuous import monster_sets_forbidden, only_one_blockers, tribute_value, type_rivals
from ..core.decision import Kind, Option, OptionVerb, Refusal, effect_of
from ..core.events import Note, SetCard, Summon
from ..core.machine import DONE, Frame, Next, Return
from ..board.labels import unique_labels
from .legality import BATTLE, NORMAL_SUMMON, may_skip_tributes, main_options, only_one_refusal, tribute_terms
from ..state.duel_state import DuelState
from ..effects.resolve import pay_unchained_cost
from ..core.types import Loc, Phase, Pos, Reason
from ..board import actions
from ..board.hand_costs import pay_hand_play
from .chain import process_triggers
from .windows import SummonTogether, after_chain, last_chance, start_chain, summon_with_negation_window, window
from .extra_summons import extra_summon, summon_zones
from .pendulum import summon as pendulum_summon


@dataclass
class MainPhase(Frame):
    """R-PHASE-4/6: the turn player acts in an open game state until they move on."""

    phase: Phase
    verb: OptionVerb = ""  # "battle" or "end": how the turn player moves on

    def start(self, d: DuelState, _: Any) -> Next:
        d.set_phase(self.phase)
        if d.signals:
            return self.then(d, "idle", window(d))
        return self.idle(d, None)

    def idle(self, d: DuelState, _: Any) -> Next:
        if d.end_phase_turn == d.turn:  # "it becomes the End Phase" (Neko Mane King): once the chain has resolved
            return Return("end")
        p = d.turn_player
        d.idle = True
        options = main_options(d, p)
        if d.index.responders:
            moves_on = len(options) - 2 if len(options) > 1 and options[-2] is BATTLE else len(options) - 1  # (END is last)
            options[moves_on:moves_on] = activation_options(d, p, open_state=True)
        return self.ask("chosen", d.ask(p, Kind.COMMAND, options, f"{self.phase.title}: your move"))

    def chosen(self, d: DuelState, choice: Option) -> Next:
        d.idle = False
        p = d.turn_player
        verb = choice.verb
        if choice.key == "refresh":
            return self.idle(d, None)
        if verb in ("battle", "end"):
            self.verb = verb
            return self.then(d, "moving_on", last_chance(d))
        if verb == "pendulum":
            return self.then(d, "idle", pendulum_summon(d, p))
        if verb == "activate":
            return self.then(d, "activated", start_chain(d, p, choice))
        card = d.card_of(choice)
        if verb in ("summon", "set", "special") and card.loc == Loc.HAND:
            pay_hand_play(d, p, card)  # (Chain Energy: LP per card played from the hand — offered only when they cover it)
        if verb == "summon":
            return self.then(d, "idle", NormalSummon(p, card.uid, setting=False))
        if verb == "set":
            if card.is_monster:
                return self.then(d, "set_done", NormalSummon(p, card.uid, setting=True))
            actions.set_spell_trap(d, p, card)
            return self.set_done(d, None)
        if verb == "flip":
            return self.then(d, "idle", flip_summon(d, p, card))
        if verb == "gemini":
            return self.then(d, "idle", gemini_summon(d, p, card))
        if verb == "switch":
            change_position(d, card)
            return self.then(d, "idle", window(d) if d.signals else None)  # triggers of the change (Dream Clown)
        if verb == "special":
            return self.then(d, "idle", procedure_summon(d, p, card, effect_of(choice)))
        assert verb in ("synchro", "xyz", "link"), verb
        return self.then(d, "idle", extra_summon(d, p, card))

    def activated(self, d: DuelState, _: Any) -> Next:
        return self.then(d, "idle", after_chain(d))  # then the turn player is back in an open game state (R-PRIO-1)

    def set_done(self, d: DuelState, _: Any) -> Next:
        """After a Set, the triggers of what happened on the way (a Tribute's "If … sent to the GY",
        an Equip Card destroyed with it) activate now; the Set is the last thing that happened, so
        "When … you can" ones have missed their timing (R-CHAIN-10)."""
        if not d.signals:
            return self.idle(d, None)
        return self.then(d, "activated", process_triggers(d))

    def moving_on(self, d: DuelState, acted: bool | None) -> Next:
        if acted:
            return self.idle(d, None)
        return Return(self.verb)


@dataclass
class NormalSummon(Frame):
    """R-SUMMON-1…3 and R-SUMMON-19: Tributes on declaration, then the negation window."""

    p: int
    uid: int
    setting: bool
    need: int = 0  # Tributes needed
    none_ok: bool = False  # … or none at all (Fusilier Dragon, the Dual-Mode Beast)

    def start(self, d: DuelState, _: Any) -> Next:
        p, card = self.p, d.cards[self.uid]
        d.players[p].normal_summon_turn = d.turn  # counts even if the Summon is negated (R-SUMMON-19)
        d.batch += 1
        d.players[p].normal_summon_batches.append(d.batch)  # (Narrow Pass counts them from its activation)
        need, most, monsters = tribute_terms(d, p, card)
        self.need = need
        card.tributes_used = 0
        card.tributed = ()
        # its Tributes, or none at all (Fusilier Dragon, the Dual-Mode Beast): without them when they cannot be paid
        self.none_ok = none_ok = need > 0 and may_skip_tributes(card, d, self.setting) and d.players[p].free_mzone() is not None
        if none_ok and sum(tribute_value(d, c, card) for c in monsters) < need:
            return self.place(d, ())
        if not need:
            return self.place(d, ())
        options = unique_labels(d, [Option(f"card:{c.uid}", c.name if c.face_up or c.controller == p else "face-down monster", c.uid)
                                    for c in monsters])
        doubles = d.index.continuous_count and any(tribute_value(d, c, card) > 1 for c in monsters)
        many = f"{need}" if most == need else f"{need} or {most}" if most == need + 1 else f"{need} to {most}"
        prompt = f"Tribute {many} monster{'s' if most > 1 else ''} for {card.name}" + (", or none" if none_ok else "")
        most = min(most, len(monsters))
        lo = 0 if none_ok else 1 if doubles else need
        fits = tuple(frozenset(f"card:{c.uid}" for c in s) for n in range(lo, most + 1) for s in combinations(monsters, n)
                     if (none_ok and not s) or tribute_refusal(d, p, card, list(s), need, self.setting) is None)
        return self.ask("place", d.ask(p, Kind.CARDS, options, prompt, lo=lo, hi=most, verb="tribute", sets=fits, subject=card.uid))

    def selection_refusal(self, d: DuelState, chosen: tuple[Option, ...]) -> Refusal | None:
        """Why a set of Tributes outside the decision's `sets` is refused."""
        if self.none_ok and not chosen:
            return None
        return tribute_refusal(d, self.p, d.cards[self.uid], [d.card_of(o) for o in chosen], self.need, self.setting)

    def after_set(self, d: DuelState, _: Any) -> Next:
        return DONE

    def place(self, d: DuelState, chosen: tuple[Option, ...]) -> Next:
        p, card = self.p, d.cards[self.uid]
        side = d.players[p]
        if chosen:
            d.batch += 1
            card.tributes_used = len(chosen)
            for option in chosen:
                actions.move(d, d.card_of(option), Loc.GY, reason=Reason.TRIBUTE, tributer=p)  # R-SUMMON-3: not destroyed
            card.tributed = tuple((c.uid, c.moves) for c in map(d.card_of, chosen))
        zone = side.free_mzone()
        if zone is None:
            # the Tributes took away what kept a cap from applying (Jinzo negating Spatial Collapse): no zone is left
            # for the monster (R-ZONE-1) — the Tributes are paid, it stays in the hand
            d.emit(Note(f"{card.name} cannot be placed: once its Tributes left, no Main Monster Zone can be used (R-ZONE-1)"))
            return DONE
        if self.setting and d.index.continuous_count and monster_sets_forbidden(d) is not None:
            # Light of Intervention: "If a Monster Card would be Set, it must be Normal Summoned in face-up Defense Position"
            return self.then(d, "finish", summon_with_negation_window(d, p, card, zone, Pos.DEFENSE, "tribute" if chosen else "normal",
                                                                      properly=True))
        if self.setting:
            side.monster_set_turn = d.turn
            actions.move(d, card, Loc.MZONE, seq=zone, face_up=False, pos=Pos.FACEDOWN_DEFENSE, quiet=True)
            card.set_with = len(chosen)
            d.emit(SetCard(p, card.uid, card.name, Loc.MZONE, zone))
            if d.signals or "set" in d.index.listens:  # after the Tributes (R-SUMMON-3): the Set is the last thing that happened (R-CHAIN-10)
                d.batch += 1
                d.signal("set", card, p)
            if "set" in d.index.listens:  # "When a monster(s) is Set on your opponent's side of the field" (Shadow of Eyes)
                return self.then(d, "after_set", window(d))
            return DONE
        return self.then(d, "finish", summon_with_negation_window(d, p, card, zone, Pos.ATTACK, "tribute" if chosen else "normal",
                                                                  properly=True))


def tribute_refusal(d: DuelState, p: int, card: CardInst, tributes: list[CardInst], need: int,
                    setting: bool = False) -> Refusal | None:
    """Why these Tributes cannot Summon `card` (None if they can): worth too little (R-SUMMON-2),
    or none of them frees the Main Monster Zone it needs (R-ZONE-1: an EMZ monster frees an EMZ), or they leave
    a copy it cannot be controlled with (R-CARD-13: "You can only control 1 face-up \"Gravekeeper's Chief\"")."""
    if not set(only_one_blockers(d, card, p, face_up=not setting)) <= set(tributes):
        return only_one_refusal(card, NORMAL_SUMMON)
    if not setting and not set(type_rivals(d, card, p)) <= set(tributes):
        return Refusal(NORMAL_SUMMON, "R-CARD-13", "each player can only have 1 Type of monster on the field: Tribute all the others")
    if sum(tribute_value(d, c, card) for c in tributes) < need:
        return Refusal(NORMAL_SUMMON, "R-SUMMON-2", f"those are worth fewer than {need} Tributes for {card.name}")
    if d.players[p].free_mzone() is None and not any(c.seq < 5 and c.controller == p for c in tributes):  # (not a Soul Exchange foe)
        return Refusal(NORMAL_SUMMON, "R-ZONE-1", "all 5 Main Monster Zones are occupied: Tribute at least 1 monster from one")
    if d.players[p].zone_locks and d.players[p].room(leaving=len(tributes)) < 1:
        return Refusal(NORMAL_SUMMON, "R-ZONE-1", "it would give you more monsters than an effect allows (Kaiser Colosseum)")
    return None


def procedure_summon(d: DuelState, p: int, card: CardInst, index: int) -> "ProcedureSummon":
    """R-SUMMON-7: no chain link; pay the cost, place the monster, then the negation window."""
    return ProcedureSummon(p, card.uid, index)


@dataclass
class ProcedureSummon(Frame):
    p: int
    uid: int
    index: int  # the card's summoning procedure (an effect of kind `procedure`)
    zone: int = 0
    paid_cards: int = 0  # how many cards the cost chose (Megarock Dragon's `atk_per: cost_paid`)
    cost: Any = None  # the cost being paid (its operations' frame)

    def start(self, d: DuelState, _: Any) -> Next:
        card = d.cards[self.uid]
        if card.loc == Loc.DECK:  # (Metalzoa: the card it Summons from the Deck is shown as its procedure begins)
            d.reveal([card], (0, 1))
        if card.effects[self.index].cost:
            self.cost = pay_unchained_cost(d, self.p, card, self.index)
            return self.then(d, "paid", self.cost)
        return self.paid(d, None)

    def paid(self, d: DuelState, _: Any) -> Next:
        self.paid_cards = len(self.cost.ctx.chosen) if self.cost is not None else 0
        card = d.cards[self.uid]
        if card.loc == Loc.EXTRA:  # from the Extra Deck (`from: extra`): an Extra Monster Zone or a linked zone (R-SUMMON-17)
            zones = summon_zones(d, self.p, card)
            zone = zones[0] if zones else None
        else:
            to_opponent = card.effects[self.index].summon_to == "opponent"
            zone = d.players[1 - self.p if to_opponent else self.p].free_mzone()
        if zone is None:
            return DONE
        self.zone = zone
        return self.ask("placed", d.ask(self.p, Kind.POSITION, (Option("attack", "attack"), Option("defense", "defense")),
                                        f"Special Summon {d.cards[self.uid].name} in which position?", verb="position",
                                        subject=self.uid, effect=self.index))

    def placed(self, d: DuelState, answer: Option) -> Next:
        pos = Pos.ATTACK if answer.key == "attack" else Pos.DEFENSE
        card = d.cards[self.uid]
        card.cost_paid = self.paid_cards
        effect = card.effects[self.index]
        if self.cost is not None and any(op.op == "select" for op in effect.cost):  # (Gradius' Option: "the selected \"Gradius\"")
            card.selected = tuple((c.uid, c.arrived_at) for c in self.cost.ctx.chosen)
        if effect.no_normal_summon_turn:  # (Lava Golem: no Normal Summon/Set for the rest of the turn)
            d.players[self.p].normal_summon_turn = d.turn
        if card.loc == Loc.DECK:  # Special Summoned from the Deck (Metalzoa): the Deck is shuffled
            d.shuffle(card.owner)
        return self.then(d, "finish", summon_with_negation_window(d, self.p, card, self.zone, pos, "special", properly=True,
                                                                  by=card.name,
                                                                  controller=1 - self.p if effect.summon_to == "opponent" else None))


def gemini_summon(d: DuelState, p: int, card: CardInst) -> Frame | tuple[()]:
    """R-CARD-6: a Gemini monster on the field Normal Summoned again becomes an Effect Monster.
    It uses the turn's Normal Summon; as the monster is already on the field there is nothing to
    negate, but it is a Normal Summon that "When … Normal Summoned" cards may answer."""
    side = d.players[p]
    side.normal_summon_turn = side.summoned_turn = d.turn
    card.gemini_active = True
    card.summon_kind, card.summon_turn = "gemini", d.turn
    d.emit(Summon(p, card.uid, card.name, "gemini", card.pos, card.seq))
    d.batch += 1
    d.signal("normal_summoned", card, p, how="gemini")
    return window(d)


def flip_summon(d: DuelState, p: int, card: CardInst) -> "SummonTogether":
    """R-SUMMON-4: face-down Defense → face-up Attack; it counts as the turn's position change."""
    card.pos = Pos.ATTACK
    card.face_up = True
    card.face_up_at = d.batch
    card.pos_changed_turn = d.turn
    return summon_with_negation_window(d, p, card, None, Pos.ATTACK, "flip", properly=False)


def change_position(d: DuelState, card: CardInst) -> None:
    """R-SUMMON-5: face-up Attack ↔ face-up Defense, once per turn."""
    actions.set_position(d, card, "toggle")
    card.pos_changed_turn = d.turn
