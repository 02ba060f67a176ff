"""Could an effect do anything now, and could its cost be paid? Activation legality asks
(R-WIN-2: a draw needs the cards; R-CHAIN-5: costs are paid up front; R-CHAIN-6: an effect
with nothing to affect is not activated; R-ZONE-1: a monster it would bring to its
controller's field needs a free zone).

`possible` reads the effect's own operations: each verb says what it needs to do anything
(cards to move or change, a battle whose damage it would prevent, monsters it counts, a zone
to put a monster in), so a card is refused for what its script says, not by name."""

from __future__ import annotations

from typing import Any

from ...schema import effects as fx
from ...schema.effects import Effect
from ..board.continuous import (battle_result, discard_cost_locked, draw_locked, gy_banish_locked, has_flag, monster_sets_forbidden,
                                spell_lp_costs_waived, tributes_forbidden)
from ..board.timing import summon_forbidden
from ..board import hand_costs
from ..board.filters import declarable_words, event_cards, matches, select, variant
from ..core.types import Loc
from ..state.card import CardInst
from ..state.duel_state import DuelState
from .context import tributable_foes
from .summons import fusion_choices, ritual_choices


def cost_payable(d: DuelState, p: int, card: CardInst, effect: Effect) -> bool:
    if card.loc == Loc.HAND and hand_costs.applies(d, card) and hand_costs.hand_play_refusal(d, p, card, "Activate", effect) is not None:
        return False  # (Chain Energy: LP for every card played from the hand — a trigger from the hand too)
    for spec in effect.cost:
        params = spec.params
        side = d.players[p]
        if spec.op == "pay_lp":
            amount = params.amount
            if (isinstance(amount, int) and side.lp < amount  # R-WIN-1: a cost may bring LP to 0, never below
                    and not (effect.kind == "activate" and card.is_spell and spell_lp_costs_waived(d, p))):  # Spell Economics
                return False
            if amount == "multiple" and side.lp < params.factor:  # at least once (Wall of Revealing Light)
                return False
        elif spec.op == "discard":
            if effect.kind not in ("procedure", "attack_cost") and discard_cost_locked(d) is not None:
                return False  # Goblin of Greed: no effect is activated by discarding (a Summon procedure is no activation)
            if params.what == "self":
                if card.loc != Loc.HAND:
                    return False
            elif params.what is not None:  # a chosen card of the hand (Vampire Genesis: a Zombie of a Level above one in the GY)
                if not _selection_available(d, p, card, params.what, skip=card):
                    return False
            elif sum(1 for c in side.hand if c is not card and matches(d, c, params.where, p, card)) < params.count:
                return False
        elif spec.op == "banish" and _from_gy(params.what, effect) and gy_banish_locked(d, p) is not None:
            return False  # Kycoo the Ghost Destroyer: no banishing from the GY
        elif spec.op in ("send_to_gy", "banish", "return_to_hand", "return_to_deck", "destroy", "select"):
            # a Spell/Trap being activated is on the field by the time its cost is paid: never its own cost
            if not _selection_available(d, p, card, params.what, skip=None if card.is_monster else card,
                                        tribute=spec.op == "send_to_gy"):
                return False
        elif spec.op == "mill":  # "banish the top 3 cards of your Deck" as a cost needs all 3
            if any(len(d.players[q].deck) < params.count for q in ((p, 1 - p) if params.player == "each"
                                                                   else (1 - p,) if params.player == "opponent" else (p,))):
                return False
        elif spec.op == "detach":
            if len(card.materials) < params.count:
                return False
        elif spec.op == "remove_counter" and params.in_all:  # from among several cards (Mega Ton Magical Cannon)
            if not isinstance(params.what, fx.AllOf) or sum(c.counters.get(params.counter, 0) for c in select(
                    d, params.what.all, p, card) if c.loc.on_field) < params.count:
                return False
        elif spec.op == "remove_counter":
            if isinstance(params.what, fx.ChooseOf):  # "remove 2 Spell Counters from your side of the field": one op per
                # counter, each from a card chosen then (Miracle Restoring) — all of them together must be there now
                where = params.what.choose.where
                have = sum(c.counters.get(params.counter, 0) for c in select(d, where, p, card))
                need = sum(s.params.count for s in effect.cost if s.op == "remove_counter"
                           and isinstance(s.params.what, fx.ChooseOf) and s.params.counter == params.counter)
                if have < need:
                    return False
            elif card.counters.get(params.counter, 0) < params.count:
                return False
        elif spec.op == "fusion_summon":  # (Tributing a Fusion Monster's materials: the Hex-Sealed Fusions)
            if params.tribute and "locks_tributes" in d.index.flags and tributes_forbidden(d) is not None:
                return False  # Mask of Restrict
            if not fusion_choices(d, p, params, card):
                return False
    return True


def _from_gy(selection: Any, effect: Effect) -> bool:
    """Whether a selection takes its cards only from a GY (a choice, every such card, or the targets)."""
    if isinstance(selection, fx.ChooseOf):
        return selection.choose.where.zone == ("gy",)
    if isinstance(selection, fx.AllOf):
        return selection.all.zone == ("gy",)
    if selection == "target":
        return bool(effect.target_groups) and all(g.where.zone == ("gy",) for g in effect.target_groups)
    return False


def _selection_available(d: DuelState, p: int, card: CardInst, selection: Any, events: list[CardInst] | None = None,
                         skip: CardInst | None = None, tribute: bool = False) -> bool:
    """Whether a `choose` or `all` selection (of costs and operations) finds enough cards now;
    `skip` does not count (Dark Hole's own card); `tribute`: a cost sending monsters from the field, which leaves out
    those that cannot be Tributed (Mind Control)."""
    if isinstance(selection, fx.ChooseOf):
        spec = selection.choose
        need = spec.count.min or 1
        extra = 1 if skip is not None else 0
        if tribute and spec.where.zone == ("monster",):
            if "locks_tributes" in d.index.flags and tributes_forbidden(d) is not None:
                return False  # Mask of Restrict: no Tribute as a cost
            own = [c for c in select(d, spec.where, p, card, events or ()) if c is not skip and not has_flag(d, c, "cannot_be_tributed")]
            return len(own) + len(tributable_foes(d, p, spec.where, card, own)) >= need  # (Soul Exchange)
        return len([c for c in select(d, spec.where, p, card, events or (), limit=need + extra) if c is not skip]) >= need
    if isinstance(selection, fx.AllOf):
        return any(c is not skip for c in select(d, selection.all, p, card, events or (), limit=2))
    return True


def possible(d: DuelState, p: int, card: CardInst, effect: Effect, events: list[CardInst] | None = None,
             ops: list[fx.OpSpec] | None = None) -> tuple[str, str] | None:
    """(rule, why) when the effect could not do anything now, so it may not be activated.
    `events`: the cards of the event it answers (a trigger's own), else the last thing that happened;
    `ops`: these operations of the effect instead of all of them (one effect of "activate 1 of these effects")."""
    events = event_cards(d) if events is None else events
    ops = effect.do if ops is None else ops
    drawn = {0: 0, 1: 0}  # cards an earlier operation of the same effect draws first (Graceful Charity)
    changed = False  # an earlier operation of the effect may have changed what a later one counts (Ceasefire)
    dealt = False  # an earlier operation deals damage or gives LP whatever it counts: the effect does something (Attack and Receive)
    for spec in ops:
        params = spec.params
        if spec.op == "change_position" and params.to in ("facedown", "facedown_same") and d.index.continuous_count \
                and (setter := monster_sets_forbidden(d)) is not None:
            return "R-CARD-13", f"{setter.name} forbids turning monsters face-down"  # (Book of Moon: its FAQ)
        if spec.op == "draw" and (lockers := [draw_locked(d, who) for who in _who(p, card, params.player)]) and all(lockers):
            return "R-CARD-13", f"{lockers[0].name} forbids drawing cards except during the Draw Phase"  # type: ignore[union-attr]
        if spec.op == "draw" and params.until_hand is None:  # (a draw up to N cards may draw none: never refused)
            for who in _who(p, card, params.player):
                count = params.count
                if len(d.players[who].deck) < count:
                    return "R-WIN-2", f"it draws {count} card{'s' if count > 1 else ''} and the Deck has {len(d.players[who].deck)}"
                drawn[who] += count
        elif spec.op == "banish" and _from_gy(params.what, effect) and (locker := gy_banish_locked(d, p)) is not None:
            return "R-CARD-13", f"{locker.name} forbids banishing cards from the GY"
        elif spec.op in ("destroy", "send_to_gy", "banish", "return_to_hand", "return_to_deck", "add_to_hand", "take_control", "reveal"):
            what = params.what
            if isinstance(what, fx.AllOf) and what.all.declared:
                what = variant(what, all=variant(what.all, declared=False))  # declared on resolution: any may do
            elif isinstance(what, fx.ChooseOf) and what.choose.where.declared:  # (Dark Designator: "add 1 of that card")
                what = variant(what, choose=variant(what.choose, where=variant(what.choose.where, declared=False)))
            # a choice the opponent makes in their own Deck is no check of it: the activator cannot know its cards, and a
            # refusal would tell them (Jade Insect Whistle: "Your opponent selects 1 Insect-Type Monster from their Deck")
            optional = isinstance(what, fx.ChooseOf) and (what.choose.count.min == 0 or what.choose.keep is not None or (
                what.choose.where.zone == ("deck",) and what.choose.where.side == "opponent" and what.choose.who == "opponent"))
            if not optional and not _selection_available(d, p, card, what, events, skip=card if spec.op == "destroy" else None):
                return "R-CHAIN-6", "there is nothing for it to affect"
            taker = 1 - p if spec.op == "take_control" and params.taker == "opponent" else p
            if spec.op == "take_control" and d.players[taker].free_mzone() is None and not _summon_frees_zone(effect):
                return "R-ZONE-1", "there is no free Main Monster Zone to take control of a monster into"
        elif (spec.op == "modify" and not params.later_arrivals or spec.op == "change_position" and len(ops) == 1
              and not effect.stays) and not changed:  # (Cost Down also lowers monsters added later: activated with none)
            # Shield & Sword: every face-up monster; Earthquake: every face-up Attack Position monster (a change of
            # positions beside other operations, or by a card that stays, may change none: Ceasefire, Swords of
            # Revealing Light)
            if not _selection_available(d, p, card, params.what, events):
                return "R-CHAIN-6", "there is no monster for it to change"
        elif spec.op in ("damage", "gain_lp") and params.per is not None and not changed and not dealt:
            if not select(d, params.per, p, card, events, limit=1):  # Just Desserts: 500 for each monster they control
                return "R-CHAIN-6", f"it counts {_count_of(params.per)} and there are none"
        elif spec.op == "declare" and params.among is not None and params.what in ("type", "attribute") and not changed \
                and len(declarable_words(d, params, p, card)) < params.count:
            return "R-CHAIN-6", f"the cards on the field have fewer than {params.count} different {params.what}s to declare"
        elif spec.op == "no_battle_damage":
            attack = d.attack
            if attack is None:
                return "R-CHAIN-6", "there is no battle"
            damage = battle_result(d, attack.attacker.controller, attack).damage
            if not any(damage.get(who) for who in _who(p, card, params.player)):  # Kuriboh
                return "R-CHAIN-6", "no battle damage would be taken from this battle"
        elif spec.op in _SUMMONS and d.players[1 - p if spec.op == "token" and params.player == "opponent" else p].summon_lock_turn == d.turn:
            return "R-CARD-13", "a card's effect stops you Summoning monsters this turn"  # (Scapegoat, Dark Magic Curtain)
        elif spec.op in _SUMMONS and (blocker := summon_forbidden(d, "special")) is not None:
            return "R-CARD-13", f"{blocker.name} forbids Special Summons"  # (Jowgen the Spiritualist)
        elif spec.op == "special_summon":
            if d.players[p].free_mzone() is None and not _summon_frees_zone(effect):
                return "R-ZONE-1", "there is no free Monster Zone"
            what = params.what
            if (isinstance(what, fx.ChooseOf) and what.choose.count.min != 0 and not select(d, what.choose.where, p, card, events, limit=1)
                    or isinstance(what, fx.AllOf) and not _selection_available(d, p, card, what, events)):
                return "R-CHAIN-6", "there is no monster it could Special Summon"  # (Dimension Fusion: none banished)
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
            free = len(d.players[player].open_mzones())
            if free < params.count:
                return "R-ZONE-1", f"it makes {params.count} Token{'s' if params.count > 1 else ''} and there {'are' if free != 1 else 'is'} {free} free Monster Zone{'s' if free != 1 else ''}"
        elif spec.op in ("excavate", "if") and d.players[p].free_mzone() is None and (
                spec.op == "excavate" and params.player == "you" or spec.op == "if" and any(
                    op.op == "special_summon" and getattr(op.params, "controller", "you") == "you"
                    for op in fx.walk_ops(params.then + params.otherwise))) and not _summon_frees_zone(effect):
            # Enchanting Fitting Room, Reasoning ("if not, Special Summon the excavated monster"): the Special Summon needs a zone
            return "R-ZONE-1", "there is no free Monster Zone"
        elif spec.op == "reveal_until" and not d.players[p if params.player == "you" else 1 - p].deck:
            return "R-CHAIN-6", "there is no card in the Deck to reveal"
        elif spec.op == "equip" and params.to == "target" and not effect.target_groups:
            return "R-CARD-8", "an Equip Spell needs a monster to equip"
        elif spec.op == "one_of" and not changed:  # "activate 1 of these effects": one that can do something is enough
            reasons = [possible(d, p, card, effect, events, choice.do) for choice in params.choices]
            if all(reasons):
                return reasons[0]
        if spec.op not in _COUNTS_NOTHING:
            changed = True
        if spec.op in ("damage", "gain_lp") and params.per is None and isinstance(params.amount, int) and params.amount > 0:
            dealt = True  # "Inflict 700 damage … Also, inflict 300 damage for each …" needs nothing to count
    return None


_SUMMONS = frozenset(("special_summon", "token", "fusion_summon", "ritual_summon"))
# operations that change nothing a later operation of the same effect could count or change
_COUNTS_NOTHING = frozenset(("draw", "damage", "gain_lp", "pay_lp", "lose_lp", "no_battle_damage", "protect", "declare",
                             "roll_die", "look", "shuffle", "reveal"))


def _count_of(where: fx.Filter) -> str:
    side = {"you": "your ", "opponent": "your opponent's "}.get(where.side or "", "")
    zone = "monsters" if where.zone == ("monster",) else "cards"
    return f"{side}{zone}"


def _summon_frees_zone(effect: Effect) -> bool:
    return any(op.op in ("destroy", "send_to_gy", "banish") for op in effect.cost)


_LEAVES = frozenset(("destroy", "send_to_gy", "banish", "return_to_hand", "return_to_deck"))


def cost_frees_mzone(card: CardInst, effect: Effect, side: str = "you") -> bool:
    """Whether paying the effect's cost can take a monster off its controller's Main Monster
    Zones (a Tribute, this card sent from the field), so the Summon it pays for finds a free
    zone (R-ZONE-1). A cost paid from the GY or the hand frees none."""
    for op in effect.cost:
        if op.op not in _LEAVES:
            continue
        what = op.params.what
        if what == "self":
            if card.loc == Loc.MZONE:
                return True
        elif isinstance(what, (fx.ChooseOf, fx.AllOf)):
            where = what.choose.where if isinstance(what, fx.ChooseOf) else what.all
            if (where.zone is None or "monster" in where.zone or "onfield" in where.zone) \
                    and (where.side != "opponent" if side == "you" else where.side in ("opponent", "any")):
                return True
    return False


def _who(p: int, card: CardInst, who: str) -> list[int]:
    return {"you": [p], "opponent": [1 - p], "each": [p, 1 - p], "event_player": []}.get(who, [p])  # (event_player: known as it resolves)
