"""Whether a card's effect can be activated now, and activating it (RULES.md §9).

- `activation_refusal` says whether a card's effect can be activated now, and why not — the
  one source of legality for activations, used by option lists, windows and `explain`;
- `activation_options` lists what a player may activate now;
- `activate` pays costs, picks targets and adds a chain link (the `Activate` frame).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ...schema.cards import Spell, Trap
from ...schema.effects import Effect, Negate, TargetSpec
from ..state.card import CardInst, effect_speed, own_timing, persists_on_field
from ..board.continuous import (activation_forbidden, applies_from_here, condition_holds, effects_negated, has_flag,
                                spells_set_first, summon_condition_holds, untargetable, only_one_blockers)
from ..core.decision import Kind, Option, Refusal, effect_of, zone_of
from ..core.events import ChainLinkAdded
from ..board.filters import event_cards, select
from ..board.labels import card_options, unique_labels
from ..state.links import ChainLink, Signal
from ..state.duel_state import DuelState
from ..core.machine import DONE, Frame, Next, Return
from ..effects.checks import cost_frees_mzone, cost_payable, possible
from ..effects.resolve import pay_costs
from ..effects.context import atk_at_most_of, level_below_of, named_in_text_of
from ..board.timing import summon_locked
from ..board.hand_costs import hand_play_refusal, pay_hand_play
from ..core.types import Loc, Phase, Step
from ..board import actions
from .when import activation_kind, is_card_activation, when_holds, when_text


ACTIVATE = "Activate"


def _negates(effect: Effect) -> str | None:
    for op in effect.do:
        if isinstance(op.params, Negate):
            return op.params.what
    return None


def _modifies_stats(effect: Effect) -> bool:
    """An effect that changes ATK/DEF (R-BATTLE-6) — a `modify` that only gives a restriction or another attack does not
    (Combination Attack's `extra_attack`)."""
    return any(op.op == "modify" and _changes_stats(op.params) for op in effect.do)


def _changes_stats(params: Any) -> bool:
    return bool(params.atk or params.def_ or params.set_atk is not None or params.set_def is not None
                or params.multiply_atk is not None or params.swap_original)


def activation_refusal(d: DuelState, p: int, card: CardInst, index: int, *, open_state: bool,
                       speed: int | None = None) -> Refusal | None:
    """Why `p` cannot activate effect `index` of `card` now (None: they can).

    `open_state`: the turn player's open game state (empty chain, Main Phase or Battle Step
    command); otherwise a response window. `speed`: the effect's, when the caller knows it.
    """
    effect = card.effects[index]
    kind = effect.kind
    action = "Special Summon" if kind == "procedure" else ACTIVATE  # what the refusal says was refused
    if kind in ("continuous", "trigger", "flip", "win", "attack_cost"):
        return Refusal(action, "R-CARD-5", "this effect is not activated by choice")
    if d.outcome is not None:
        return Refusal(action, "R-WIN-1", "the duel is over")
    card_activation = is_card_activation(card, effect)
    # -- where the card is
    if card_activation and card.is_monster:
        refusal = _pendulum_place(d, p, card)
    elif card_activation:
        refusal = _spell_trap_place(d, p, card, effect)
    elif kind == "procedure":
        # a procedure from the Extra Deck (`from: extra`) or the Deck (`from: deck`: Metalzoa)
        source = Loc.EXTRA if "extra" in effect.from_ else Loc.DECK if "deck" in effect.from_ else Loc.HAND
        holder = card.controller if source == Loc.HAND else card.owner  # (a hand may hold an opponent's card)
        refusal = None if card.loc == source and holder == p else Refusal(
            action, "R-SUMMON-7", f"it is Special Summoned from your {_PLACE_WORDS[source]}")
    else:
        refusal = _monster_place(d, p, card, effect)
    if refusal:
        return refusal
    if effect.user == "turn_player" and d.turn_player != p:
        return Refusal(action, "R-CARD-13", "only the turn player can use it (its own text)")
    if card_activation and card.activation_locked == d.turn:
        return Refusal(action, "R-CARD-13", f"{card.name} cannot be activated this turn")
    if speed is None:
        speed = effect_speed(card.data, effect)
    # -- timing (R-CHAIN-3, R-CARD-7/9, R-PRIO-7, R-BATTLE-6)
    chain = d.chain
    if kind == "procedure":
        if not open_state or d.phase not in (Phase.MAIN1, Phase.MAIN2) or d.turn_player != p:
            return Refusal("Special Summon", "R-SUMMON-7", "only in your Main Phase with an open game state")
        refusal = summon_locked(d, p, "Special Summon")
        if refusal is not None:
            return refusal
        if not summon_condition_holds(d, card, p):
            return Refusal("Special Summon", "R-CARD-13", f"{card.name} cannot be Summoned now: its own summoning condition does not hold")
        if only_one_blockers(d, card, p):
            return Refusal("Special Summon", "R-CARD-13", f"you can only control 1 \"{card.name}\" (its own text)")
        if effect.no_normal_summon_turn and d.players[p].normal_summon_turn == d.turn:
            return Refusal("Special Summon", "R-CARD-13", "not the turn you Normal Summoned or Set a monster (its own text)")
        if effect.summon_to == "opponent":  # (Lava Golem: their zone, which Tributing their monsters frees)
            if d.players[1 - p].free_mzone() is None and not cost_frees_mzone(card, effect, side="opponent"):
                return Refusal("Special Summon", "R-ZONE-1", "your opponent has no free Main Monster Zone, and its cost frees none")
        elif d.players[p].free_mzone() is None and not cost_frees_mzone(card, effect):
            return Refusal("Special Summon", "R-ZONE-1", "there is no free Main Monster Zone, and its cost frees none")
    elif speed == 1:
        if chain:
            return Refusal(action, "R-CHAIN-3", "a speed 1 effect can only start a chain, not respond to one")
        if own_timing(effect):  # its own words give the phase (R-CARD-13), checked with the conditions below
            if d.turn_player != p:
                return Refusal(action, "R-CARD-13", "only in your own turn")
        elif not open_state or d.phase not in (Phase.MAIN1, Phase.MAIN2) or d.turn_player != p:
            if card_activation:
                return Refusal(action, "R-CARD-7", "a speed 1 Spell is activated only in your Main Phase with an empty chain")
            return Refusal(action, "R-CARD-5", "an Ignition effect is activated only in your Main Phase with an empty chain")
    elif chain:
        last = chain[-1].speed
        if speed < max(2, last):
            return Refusal(action, "R-CHAIN-3", f"a speed {speed} effect cannot respond to a speed {last} chain link")
    if isinstance(card.data, Spell) and card.data.subtype == "quick-play" and card.loc == Loc.HAND and d.turn_player != p:
        return Refusal(action, "R-CARD-7", "a Quick-Play Spell is activated from the hand only in your own turn")
    if d.summoning and not chain and not _answers_summon(effect):  # the first link only: its answers follow R-CHAIN-3
        return Refusal(action, "R-SUMMON-19", "while a Summon is being declared, only effects that negate Summons may be used")
    if d.step.in_damage_step and not _damage_step_ok(d, card, effect):
        return Refusal(action, "R-BATTLE-6", "this cannot be activated in the Damage Step")
    # -- conditions
    if effect.when is not None and kind != "trigger" and not when_holds(d, p, card, effect.when):
        return Refusal(action, "R-CHAIN-8", f"its activation condition ({when_text(effect.when)}) is not met now")
    if effect.condition is not None and not condition_holds(d, _as_controller(card, p), effect.condition):
        return Refusal(action, "R-CARD-13", f"its {'summoning' if kind == 'procedure' else 'activation'} condition is not met")
    if effect.once_per_turn and used_this_turn(d, p, card, index):
        return Refusal(action, "R-CARD-13", f"only 1 \"{card.name}\" can be activated per turn" if effect.once_per_turn == "name"
                       else "this effect can be used only once per turn")
    if d.traps_locked_by and card_activation and card.is_trap:
        return Refusal(action, "R-CARD-13", f"no Trap Card can be activated in answer to the Summon of {d.traps_locked_by}")
    blocker = None if effect.cannot_be_negated else activation_forbidden(d, p, card)
    if blocker is not None:
        return Refusal(action, "R-CARD-13", f"{blocker.name} forbids activating it")
    # -- can it be paid for, and can it do anything? (R-CHAIN-5, R-WIN-2)
    if card.loc == Loc.HAND and (short := hand_play_refusal(d, p, card, action, effect)) is not None:
        return short  # (Chain Energy: LP for every card played from the hand)
    if not cost_payable(d, p, card, effect):
        return Refusal(action, "R-CHAIN-5", "its cost cannot be paid")
    if targets_missing(d, p, card, effect):
        return Refusal(action, "R-TERM-17", "there is no legal target")
    side = d.players[p]
    if card_activation and card.loc == Loc.HAND and side.zone_locks:  # (it takes a place on the field too: Spatial Collapse)
        side.placing = 1
        try:
            why = possible(d, p, card, effect)
        finally:
            side.placing = 0
    else:
        why = possible(d, p, card, effect)
    if why:
        rule, message = why
        return Refusal(action, rule, message)
    return None


def _as_controller(card: CardInst, p: int) -> CardInst:
    return card  # conditions read card.controller, which is p for every activatable card


def used_this_turn(d: DuelState, p: int, card: CardInst, index: int) -> bool:
    """Once per turn: this effect of this card, or (`once_per_turn: name`) any card of this name;
    `while_here`: once until the card moves (its per-place history is forgotten then)."""
    once = card.effects[index].once_per_turn
    if once == "name":
        return d.players[p].used_names.get(card.name) == d.turn
    if once == "while_here":
        return index in card.used_turn
    if once == "duel":
        return index in card.used_duel
    return card.used_turn.get(-1 if once == "card" else index) == d.turn


def _spell_trap_place(d: DuelState, p: int, card: CardInst, effect: Effect) -> Refusal | None:
    data = card.data
    if card.loc == Loc.HAND:
        if card.controller != p:
            return Refusal(ACTIVATE, "R-TERM-5", "it is in your opponent's hand")
        if isinstance(data, Trap) and "hand" not in effect.from_ and d.players[p].traps_from_hand_turn != d.turn:
            return Refusal(ACTIVATE, "R-CARD-9", "a Trap must be Set first; it can be activated from the next turn")
        if d.players[p].zone_locks and d.players[p].field_full() and not (card.is_field_spell and d.players[p].field_spell):
            return Refusal(ACTIVATE, "R-CARD-13", "an effect caps the cards on your field, and you have as many")  # (Spatial Collapse)
        if not card.is_field_spell and d.players[p].free_szone() is None:
            return Refusal(ACTIVATE, "R-ZONE-2", "all 5 Spell & Trap Zones are occupied")
        if isinstance(data, Spell) and d.index.continuous_count and (fragrance := spells_set_first(d)) is not None:
            return Refusal(ACTIVATE, "R-CARD-13", f"{fragrance.name}: a Spell Card must be Set first")
        return None
    if card.loc != Loc.SZONE or card.controller != p:
        return Refusal(ACTIVATE, "R-CARD-7", "only from your hand or your Spell & Trap Zone")
    if card.face_up:
        return Refusal(ACTIVATE, "R-CARD-10", "it is already face-up on the field")
    if isinstance(data, Trap) and card.set_turn >= d.turn:
        return Refusal(ACTIVATE, "R-CARD-9", "a Trap cannot be activated in the turn it was Set")
    if isinstance(data, Spell) and data.subtype == "quick-play" and card.set_turn >= d.turn:
        return Refusal(ACTIVATE, "R-CARD-7", "a Set Quick-Play Spell can be activated from the turn after it was Set")
    # "cannot activate them until their next turn after Setting them": from its player's next turn on (turns alternate)
    if isinstance(data, Spell) and (card.set_turn >= d.turn or (d.turn_player != p and card.set_turn >= d.turn - 1)) \
            and d.index.continuous_count and (fragrance := spells_set_first(d)) is not None:
        return Refusal(ACTIVATE, "R-CARD-13", f"{fragrance.name}: a Set Spell Card can be activated from your next turn after it was Set")
    return None


def _pendulum_place(d: DuelState, p: int, card: CardInst) -> Refusal | None:
    """R-ZONE-4: a Pendulum monster is activated as a Spell from the hand into a free Pendulum Zone."""
    if card.loc != Loc.HAND or card.controller != p:
        reason = "a Pendulum monster is activated as a Spell: it is already in a Pendulum Zone" if card.in_pendulum_zone \
            else "a Pendulum monster is activated as a Spell only from your hand"
        return Refusal(ACTIVATE, "R-ZONE-4", reason)
    if not d.players[p].free_pendulum_zones():
        return Refusal(ACTIVATE, "R-ZONE-4", "both of your Pendulum Zones are occupied")
    return None


def _monster_place(d: DuelState, p: int, card: CardInst, effect: Effect) -> Refusal | None:
    allowed = effect.from_
    if card.loc == Loc.SZONE:  # a face-up Continuous Spell/Trap's own effects, a Pendulum Effect, a Union's
        if card.is_monster and not applies_from_here(card, effect):
            if card.in_pendulum_zone:
                return Refusal(ACTIVATE, "R-ZONE-4", "in a Pendulum Zone only its Pendulum Effects can be used")
            return Refusal(ACTIVATE, "R-CARD-8", "a monster card that is an Equip Card has no monster effects to use")
        if (card.controller != p and effect.user is None) or not card.face_up or not card.active:
            return Refusal(ACTIVATE, "R-CARD-10", "it must be face-up on your field, its activation resolved"
                           if effect.user is None else "it must be face-up on the field, its activation resolved")
        return Refusal(ACTIVATE, "R-CARD-13", "its effects are negated") if effects_negated(d, card) else None
    if effect.pendulum:
        return Refusal(ACTIVATE, "R-ZONE-4", "a Pendulum Effect is used only while the card is in a Pendulum Zone")
    if card.loc == Loc.MZONE:
        if "field" not in allowed:
            return Refusal(ACTIVATE, "R-CARD-5", "this effect is not used from the field")
        if card.controller != p:
            return Refusal(ACTIVATE, "R-TERM-5", "your opponent controls it")
        if not card.face_up and not effect.face_down:
            return Refusal(ACTIVATE, "R-CARD-5", "a face-down monster cannot activate its effects")
        if card.face_up and effect.face_down:
            return Refusal(ACTIVATE, "R-CARD-5", "this effect is used only while this card is face-down")
        if effects_negated(d, card):
            return Refusal(ACTIVATE, "R-CARD-13", "its effects are negated")
        return None
    place = {Loc.HAND: "hand", Loc.GY: "gy"}.get(card.loc)
    if place is None or place not in allowed or card.controller != p:
        return Refusal(ACTIVATE, "R-CARD-5", f"this effect is not used from the {card.loc.title}")
    if card.negated_at == card.moves:
        return Refusal(ACTIVATE, "R-CARD-13", "its effects are negated")
    return None


def _answers_summon(effect: Effect) -> bool:
    return effect.when is not None and "summon_declared" in effect.when.event


def _damage_step_ok(d: DuelState, card: CardInst, effect: Effect) -> bool:
    """R-BATTLE-6: Counter Traps, negation, Damage-Step timing, and ATK/DEF changes up to sub-step 2."""
    if isinstance(card.data, Trap) and card.data.subtype == "counter":
        return True
    if _negates(effect) or effect.damage_step:
        return True
    if effect.when is not None and "damage_calculation" in effect.when.event:
        return d.step == Step.DAMAGE_CALC
    return _modifies_stats(effect) and d.step <= Step.BEFORE_DAMAGE


def group_offered(d: DuelState, p: int, card: CardInst, spec: TargetSpec) -> bool:
    """Whether a target group is chosen at all now: its `only_if` holds (Mysterious Guard's additional target)."""
    return spec.only_if is None or condition_holds(d, _as_controller(card, p), spec.only_if)


def targets_missing(d: DuelState, p: int, card: CardInst, effect: Effect, signal: Signal | None = None, *, one: bool = False) -> bool:
    """R-TERM-17: whether some target group lacks the legal targets it needs (`one`: at least 1 of them), a group that
    may be left empty (`count: "0-1"`) or is not offered now (`only_if`) needing none."""
    if any(spec.needed and group_offered(d, p, card, spec)
           and len(target_candidates(d, p, card, effect, signal, g)) < (min(1, spec.needed) if one else spec.needed)
           for g, spec in enumerate(effect.target_groups)):
        return True
    if one or len(effect.target_groups) < 2:
        return False
    # groups that may take the same cards need as many different ones (Riryoku: 2 face-up monsters, 1 per group)
    offered = [(g, spec) for g, spec in enumerate(effect.target_groups) if spec.needed and group_offered(d, p, card, spec)]
    found: set[int] = set()
    for g, _ in offered:
        found.update(c.uid for c in target_candidates(d, p, card, effect, signal, g))
    return len(found) < sum(spec.needed for _, spec in offered)


def target_candidates(d: DuelState, p: int, card: CardInst, effect: Effect, signal: Signal | None = None,
                      group: int = 0) -> list[CardInst]:
    """The legal targets of one target group of `effect` (R-TERM-17).

    A Spell/Trap card being activated is not yet a card on the field that its own activation
    could target (Mystical Space Typhoon never targets itself) unless its filter says `self`;
    a monster's effect may target the monster itself (Man-Eater Bug), as its text allows."""
    events = [signal.card] if signal is not None and signal.card is not None else event_cards(d)
    spec = effect.target_groups[group]
    itself = not (effect.kind == "activate" and not card.is_monster) or spec.where.self_
    to = _target_position_change(effect)
    takes = any(op.op == "take_control" and op.params.what in ("target", "targets") for op in effect.do)
    found = select(d, spec.where, p, card, events)
    groups = effect.target_groups  # "an effect that targets 1 monster" (and no other card: Metalsilver Armor)
    single = len(groups) == 1 and spec.count.max == 1 and spec.where.zone in (("monster",), ("onfield",))
    if spec.where.named_in_text_of == "event":  # listed in the text of the event's card (Centrifugal Field)
        found = named_in_text_of(found, events)
    if spec.where.retarget_candidate:  # (read here, not in board/filters: a legal target of the link it answers)
        found = [c for c in found if _retarget_candidate(d, c, card)]
    return [c for c in found
            if (itself or c is not card)
            and not (takes and has_flag(d, c, "control_cannot_switch"))  # (an effect that could not apply to it)
            and not (takes and c.controller != p and only_one_blockers(d, c, p, face_up=c.face_up))  # (R-CARD-13: Amazoness Tiger)
            and not (to and c.is_link)  # R-SUMMON-16: a Link monster never changes position
            and not (to == "facedown" and c.is_token)  # R-CARD-11: a Token is always face-up
            and not (c.loc == Loc.MZONE and c.battle_destroyed)  # R-BATTLE-5
            and not (c.controller != p and has_flag(d, c, "cannot_be_targeted"))
            and not untargetable(d, c, p, single)]


def _retarget_candidate(d: DuelState, c: CardInst, card: CardInst) -> bool:
    """A legal target of the chain link below `card`'s (the one it answers), other than that link's target(s) — "Target
    another card that would be an appropriate target" (Fairy's Hand Mirror: the filter `retarget_candidate`)."""
    link = next((l for l in reversed(d.chain) if l.card is not card), None)
    if link is None or c in link.targets or not link.effect.target_groups:
        return False
    group = link.target_groups[0] if link.target_groups else 0
    return c in target_candidates(d, link.player, link.card, link.effect, link.signal, group)


def _target_position_change(effect: Effect) -> str:
    """The position the effect changes its target to (Book of Moon: "facedown"), or ""."""
    return next((op.params.to for op in effect.do if op.op == "change_position" and op.params.what in ("target", "targets")
                 and op.params.to != "attack"), "")


def activation_options(d: DuelState, p: int, *, open_state: bool) -> list[Option]:
    """Every effect `p` may activate now, as options ('activate Dark Hole')."""
    # speed 1 effects and summon procedures only in your Main Phase's open game state (R-CARD-5/7,
    # R-SUMMON-7) unless their text names another phase (R-CARD-13); activation_refusal says so
    main = open_state and d.phase in (Phase.MAIN1, Phase.MAIN2) and d.turn_player == p
    candidates = activation_candidates(d, p, main, responses=not open_state)
    if not candidates:
        return []
    options: list[Option] = []
    for card, index, effect, speed, card_activation, many in candidates:
        # (the activation condition first: in most windows no "when …" card has its event)
        if not (card_activation and card.face_up and card.loc == Loc.SZONE) \
                and (effect.when is None or when_holds(d, p, card, effect.when)) \
                and activation_refusal(d, p, card, index, open_state=open_state, speed=speed) is None:
            options.append(activation_option(card, effect, index, many))
    if len(options) > 1:
        options = unique_labels(d, options)
    return options


def priority_ignitions(d: DuelState, p: int) -> list[Option]:
    """The Ignition Effects of `p`'s monsters that `p` could activate in an open game state now:
    what GOAT format's priority lets the turn player activate first (V-26, rules/windows.py)."""
    out = []
    for option in activation_options(d, p, open_state=True):
        card = d.card_of(option)
        if card.is_monster and card.loc == Loc.MZONE and card.effects[effect_of(option)].kind == "ignition":
            out.append(option)
    return out


Candidate = tuple[CardInst, int, Effect, int, bool, bool]  # card, effect index, effect, speed, card activation, one of several


def activation_candidates(d: DuelState, p: int, main: bool, *, responses: bool) -> list[Candidate]:
    """The effects of `p`'s cards that `activation_refusal` could allow now, in pile order:
    those used from where their card is, of a speed the moment admits (`main`: `p`'s Main
    Phase with an open game state; `responses`: a response window), and not refused for the
    whole turn (`_refused_this_turn`).

    No effect is activated from where it cannot be (a Spell in the GY, a Trap in the hand) and
    a response window never admits speed 1 effects or summon procedures (R-CHAIN-3, R-CARD-7):
    most windows would otherwise run the full check for every card (activation_refusal still
    explains them when asked). All this changes only when a card changes place or controller
    (`Duel.per_layout`) or a new turn starts, so it is kept until then: a window costs almost
    nothing when no card could answer it."""
    side = d.players[p]
    hand_traps = side.traps_from_hand_turn == d.turn  # Makyura: Traps from the hand this turn (R-CARD-9)
    found: list[Candidate] = d.per_layout(p, ("candidates", d.turn, hand_traps, main, responses),
                                          _candidates, d, p, hand_traps, main, responses)
    if "shared_effects" in d.index.flags:  # (only a duel with such a card looks at the opponent's field)
        shared: list[Candidate] = d.per_layout(1 - p, ("shared", main, responses), _shared_candidates, d, 1 - p, main, responses)
        if shared:
            found = found + shared
    return found


def _shared_candidates(d: DuelState, owner: int, main: bool, responses: bool) -> list[Candidate]:
    """The effects of the cards `owner` controls in the Spell & Trap and Field Zones that their opponent may activate too (`user: either`
    or `turn_player`: Royal Oppression, Fusion Gate — ocgcore's EFFECT_FLAG_BOTH_SIDE); `activation_refusal` judges them
    for the player asking as for any other. Kept per layout of `owner`'s side."""
    found: list[Candidate] = []
    for card in d.players[owner].szone:
        if card is None or (responses and not card.responds):  # (face-up or not: an activation turns it face-up in place)
            continue
        many = len(card.chosen) > 1
        for index, effect, speed, _, card_activation, anytime in card.chosen:
            if effect.user is not None and not card_activation and (main or anytime):
                found.append((card, index, effect, speed, card_activation, many))
    return found


def _candidates(d: DuelState, p: int, hand_traps: bool, main: bool, responses: bool) -> list[Candidate]:
    side = d.players[p]
    found: list[Candidate] = []
    piles: tuple[Sequence[CardInst | None], ...] = (side.hand, side.mzone, side.szone, side.gy, side.extra)
    if main and "deck_procedure" in d.index.flags:  # a Summon procedure from the Deck (Metalzoa)
        piles += (side.deck,)
    for pile in piles:
        for card in pile:
            if card is None or not card.chosen or (responses and not card.responds):
                continue
            loc = card.loc
            trap_in_hand = hand_traps and loc == Loc.HAND and card.is_trap
            if not (loc in card.used_from or trap_in_hand):
                continue
            many = len(card.chosen) > 1
            for index, effect, speed, places, card_activation, anytime in card.chosen:
                if (loc in places or (trap_in_hand and card_activation)) and (main or anytime) \
                        and not _refused_this_turn(d, p, card, card_activation):
                    found.append((card, index, effect, speed, card_activation, many))
    return found


_PLACE_WORDS = {Loc.EXTRA: "Extra Deck", Loc.DECK: "Deck", Loc.HAND: "hand"}


def _refused_this_turn(d: DuelState, p: int, card: CardInst, card_activation: bool) -> bool:
    """Refusals of `activation_refusal` that hold for the rest of the turn while the card stays
    where it is: the card activation of a Trap or Quick-Play Spell Set this turn (R-CARD-9,
    R-CARD-7; face-up, it is refused as already active, R-CARD-10), any effect of a Quick-Play
    Spell in the hand in the opponent's turn (R-CARD-7)."""
    data = card.data
    quick_play = isinstance(data, Spell) and data.subtype == "quick-play"
    if card_activation and card.loc == Loc.SZONE and card.set_turn >= d.turn and (card.is_trap or quick_play):
        return True
    return quick_play and card.loc == Loc.HAND and d.turn_player != p


def activation_option(card: CardInst, effect: Effect, index: int, many: bool) -> Option:
    if effect.kind == "procedure":
        label = f"special summon {card.name}"
        return Option(f"procedure:{card.uid}:{index}", label, card.uid, verb="special", effect=index)
    label = f"activate {card.name}"
    if effect.label:
        label += f" ({effect.label})"
    elif many:
        label += f" #{index + 1}"
    return Option(f"activate:{card.uid}:{index}", label, card.uid, verb="activate", effect=index)


def activate(d: DuelState, p: int, card: CardInst, index: int, signal: Signal | None = None, effect: Effect | None = None) -> "Activate":
    """R-CHAIN-5: put the card on the field face-up, pay the cost, choose targets, add the link.
    `effect` is given for a delayed effect's operations (op `later`), which are not one of the card's.
    The frame's result is the new ChainLink."""
    return Activate(p, card.uid, index, signal, effect)


@dataclass
class Activate(Frame):
    p: int
    uid: int
    index: int
    signal: Signal | None
    effect: Effect | None
    link: ChainLink | None = None
    group: int = 0  # the target group being chosen

    def start(self, d: DuelState, _: Any) -> Next:
        p, card = self.p, d.cards[self.uid]
        if self.effect is None and card.loc == Loc.HAND:
            pay_hand_play(d, p, card)  # (Chain Energy: activated from the hand — offered only when the LP cover it)
        effect = self.effect = self.effect or card.effects[self.index]
        signal = self.signal
        link = self.link = ChainLink(len(d.chain) + 1, p, card, effect, self.index, effect_speed(card.data, effect), signal=signal)
        d.reveal([card], (0, 1))  # an activation is public (a Chain Link names its card), wherever the card goes next
        link.answers = d.chain[-1] if d.chain else None
        link.event_cards = [signal.card] if signal is not None and signal.card is not None else event_cards(d)
        link.event_group = [*link.event_cards, *signal.together] if signal is not None and signal.together else link.event_cards
        if is_card_activation(card, effect):
            link.was_spell_trap_card = True
            return self.then(d, "placed", _place_activated_card(d, p, card))
        if card.loc == Loc.SZONE and card.face_up and not card.is_monster and persists_on_field(card):
            link.field_moves = card.moves  # it resolves only if the card is still there (R-CHAIN-6)
        return self.placed(d, None)

    def placed(self, d: DuelState, _: Any) -> Next:
        p, card, effect, link = self.p, d.cards[self.uid], self.effect, self.link
        assert effect is not None and link is not None
        if effect.once_per_turn == "name":
            d.players[p].used_names[card.name] = d.turn
        elif effect.once_per_turn == "duel":
            card.used_duel.add(self.index)
        elif effect.once_per_turn:
            card.used_turn[-1 if effect.once_per_turn == "card" else self.index] = d.turn
        d.chain.append(link)
        return self.then(d, "targets", pay_costs(d, link))

    def targets(self, d: DuelState, _: Any) -> Next:
        p, card, effect, link = self.p, d.cards[self.uid], self.effect, self.link
        assert effect is not None and link is not None
        if self.group == 0 and link.field_moves >= 0 and effect.cost and not (card.loc == Loc.SZONE and card.face_up):
            # its own cost took the card off the field (sent it, or Tributed the monster it equips): the effect still
            # resolves — R-CHAIN-6 stops only a card that leaves after its activation (Magical Labyrinth)
            link.field_moves = -1
        while self.group < len(effect.target_groups):
            group = self.group
            spec = effect.target_groups[group]
            if not group_offered(d, p, card, spec):
                self.group += 1
                continue
            candidates = [c for c in target_candidates(d, p, card, effect, self.signal, group) if c not in link.targets]
            if spec.where.atk_at_most_of == "chosen":  # related to what the cost chose (Armed Dragon LV5)
                candidates = atk_at_most_of(candidates, link.chosen)
            if spec.where.level_below_of == "chosen":  # (Vampire Genesis: lower than the discarded monster's Level)
                candidates = level_below_of(candidates, link.chosen)
            # count "0-1": the chooser may target none (Gilasaurus as printed in 2005: "Your opponent can target 1 …")
            lo, hi = spec.needed, spec.count.max or len(candidates)
            hi = min(hi, len(candidates))
            if candidates:
                chooser = p if spec.who == "you" else 1 - p
                options = card_options(d, candidates, chooser)
                return self.ask("targeted", d.ask(chooser, Kind.CARDS, options,
                                                  f"{card.name}: choose {lo if lo == hi else f'{lo} to {hi}'} target{'s' if hi > 1 else ''}",
                                                  lo=min(lo, len(candidates)), hi=hi, verb="target", subject=card.uid,
                                                  effect=link.index))
            self.group += 1
        link.target_moves = [t.moves for t in link.targets]
        d.emit(ChainLinkAdded(link.number, p, card.uid, card.name, link.speed, tuple(t.uid for t in link.targets),
                              tuple(t.name if t.face_up or t.controller == p else None for t in link.targets)))
        d.signal("activated", card, p, how=activation_kind(card, effect))
        return Return(link)

    def targeted(self, d: DuelState, chosen: tuple[Option, ...]) -> Next:
        link = self.link
        assert link is not None
        link.targets += [d.card_of(o) for o in chosen]
        link.target_groups += [self.group] * len(chosen)
        self.group += 1
        return self.targets(d, None)


def _place_activated_card(d: DuelState, p: int, card: CardInst) -> "PendulumZone | None":
    if card.is_monster:  # a Pendulum monster activated into a Pendulum Zone (R-ZONE-4)
        zones = d.players[p].free_pendulum_zones()
        if len(zones) > 1:
            return PendulumZone(p, card.uid, tuple(zones))
        actions.move(d, card, Loc.SZONE, seq=zones[0], face_up=True, quiet=True)
    elif card.loc == Loc.HAND:
        actions.move(d, card, Loc.SZONE, seq=actions.spell_zone_for(d, p, card), face_up=True, quiet=True)
    else:
        card.face_up = True
        card.flipped_turn = d.turn  # (a Set card activated: face-up from this turn — Dark Snake Syndrome's doubling counts from it)
        card.face_up_at = d.batch  # a Set card activated becomes face-up now ("flipped face-up after activation of this card")
    return None


@dataclass
class PendulumZone(Frame):
    """Which of two free Pendulum Zones a Pendulum card is activated into."""

    p: int
    uid: int
    zones: tuple[int, ...]

    def start(self, d: DuelState, _: Any) -> Next:
        card = d.cards[self.uid]
        return self.ask("chosen", d.ask(self.p, Kind.ZONE, [Option(f"zone:{z}", name, zone=z) for z, name in zip(self.zones, ("left", "right"))],
                                        f"{card.name}: into which Pendulum Zone?", verb="zone"))

    def chosen(self, d: DuelState, answer: Option) -> Next:
        actions.move(d, d.cards[self.uid], Loc.SZONE, seq=zone_of(answer), face_up=True, quiet=True)
        return DONE
