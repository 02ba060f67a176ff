"""Activations, chains and triggers (RULES.md §9 Chains, §10 Priority).

- `activation_refusal` says whether a card's effect can be activated now, and why not — the
  one source of legality for activations, used by option lists, windows and `explain`;
- `activate` pays costs, picks targets and adds a chain link;
- `run_chain` lets players respond (R-CHAIN-3/4), resolves last-in-first-out (R-CHAIN-1/6),
  sends spent cards to the GY together (R-CHAIN-7) and then handles the triggers its events
  caused as a new chain (R-CHAIN-9, R-PRIO-5 SEGOC).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...schema.cards import Spell, Trap
from ...schema.effects import Effect, When
from ..state.card import CardInst, effect_speed, own_timing
from ..board.continuous import activation_forbidden, applies_from_here, condition_holds, effects_negated, has_flag
from ..core.decision import PASS, Kind, Option, Refusal
from ..core.events import ChainLinkAdded, ChainResolves, Negated, Note
from ..board.filters import event_cards, matches, select
from ..board.labels import card_options, unique_labels
from ..state.links import ChainLink, Delayed, Signal, _Pending
from ..state.duel_state import DuelState
from ..core.machine import DONE, Frame, Next, Return
from ..effects.checks import cost_payable, possible
from ..effects.resolve import pay_costs, resolve_link
from ..board.timing import summon_locked
from ..core.types import Loc, Phase, Step
from ..board import actions

ACTIVATE = "Activate"


# ---------------------------------------------------------------------- speed and kinds


def _negates(effect: Effect) -> str | None:
    for op in effect.do:
        if op.op == "negate":
            return op.params.what
    return None


def _modifies_stats(effect: Effect) -> bool:
    return any(op.op == "modify" for op in effect.do)


# ---------------------------------------------------------------------- legality


def is_card_activation(card: CardInst, effect: Effect) -> bool:
    """The activation of a card itself: a Spell/Trap card, or a Pendulum monster activated as a
    Spell into its Pendulum Zone (R-ZONE-4) — not an effect of a card already there."""
    return effect.kind == "activate" and (not card.is_monster or effect.pendulum)


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
        refusal = None if card.loc == Loc.HAND and card.owner == p else Refusal(action, "R-SUMMON-7", "it is Special Summoned from your hand")
    else:
        refusal = _monster_place(d, p, card, effect)
    if refusal:
        return refusal
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
    if effect.when is not None and kind != "trigger" and not _when_holds(d, p, card, effect.when):
        return Refusal(action, "R-CHAIN-8", f"its activation condition ({_when_text(effect.when)}) is not met now")
    if effect.condition is not None and not condition_holds(d, _as_controller(card, p), effect.condition):
        return Refusal(action, "R-CARD-13", f"its {'summoning' if kind == 'procedure' else 'activation'} condition is not met")
    if effect.once_per_turn and used_this_turn(d, p, card, index):
        return Refusal(action, "R-CARD-13", f"only 1 \"{card.name}\" can be activated per turn" if effect.once_per_turn == "name"
                       else "this effect can be used only once per turn")
    blocker = activation_forbidden(d, p, card)
    if blocker is not None:
        return Refusal(action, "R-CARD-13", f"{blocker.name} forbids activating it")
    # -- can it be paid for, and can it do anything? (R-CHAIN-5, R-WIN-2)
    if not cost_payable(d, p, card, effect):
        return Refusal(action, "R-CHAIN-5", "its cost cannot be paid")
    if any(len(target_candidates(d, p, card, effect, group=g)) < (spec.count.min or 1) for g, spec in enumerate(effect.target_groups)):
        return Refusal(action, "R-TERM-17", "there is no legal target")
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
    return card.used_turn.get(-1 if once == "card" else index) == d.turn


def _spell_trap_place(d: DuelState, p: int, card: CardInst, effect: Effect) -> Refusal | None:
    data = card.data
    if card.loc == Loc.HAND:
        if card.owner != p:
            return Refusal(ACTIVATE, "R-TERM-5", "it is in your opponent's hand")
        if isinstance(data, Trap) and "hand" not in effect.from_ and d.players[p].traps_from_hand_turn != d.turn:
            return Refusal(ACTIVATE, "R-CARD-9", "a Trap must be Set first; it can be activated from the next turn")
        if not card.is_field_spell and d.players[p].free_szone() is None:
            return Refusal(ACTIVATE, "R-ZONE-2", "all 5 Spell & Trap Zones are occupied")
        return None
    if card.loc != Loc.SZONE or card.controller != p:
        return Refusal(ACTIVATE, "R-CARD-7", "only from your hand or your Spell & Trap Zone")
    if card.face_up:
        return Refusal(ACTIVATE, "R-CARD-10", "it is already face-up on the field")
    if isinstance(data, Trap) and card.set_turn >= d.turn:
        return Refusal(ACTIVATE, "R-CARD-9", "a Trap cannot be activated in the turn it was Set")
    if isinstance(data, Spell) and data.subtype == "quick-play" and card.set_turn >= d.turn:
        return Refusal(ACTIVATE, "R-CARD-7", "a Set Quick-Play Spell can be activated from the turn after it was Set")
    return None


def _pendulum_place(d: DuelState, p: int, card: CardInst) -> Refusal | None:
    """R-ZONE-4: a Pendulum monster is activated as a Spell from the hand into a free Pendulum Zone."""
    if card.loc != Loc.HAND or card.owner != p:
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
        if card.controller != p or not card.face_up or not card.active:
            return Refusal(ACTIVATE, "R-CARD-10", "it must be face-up on your field, its activation resolved")
        return Refusal(ACTIVATE, "R-CARD-13", "its effects are negated") if effects_negated(d, card) else None
    if effect.pendulum:
        return Refusal(ACTIVATE, "R-ZONE-4", "a Pendulum Effect is used only while the card is in a Pendulum Zone")
    if card.loc == Loc.MZONE:
        if "field" not in allowed:
            return Refusal(ACTIVATE, "R-CARD-5", "this effect is not used from the field")
        if card.controller != p:
            return Refusal(ACTIVATE, "R-TERM-5", "your opponent controls it")
        if not card.face_up:
            return Refusal(ACTIVATE, "R-CARD-5", "a face-down monster cannot activate its effects")
        if effects_negated(d, card):
            return Refusal(ACTIVATE, "R-CARD-13", "its effects are negated")
        return None
    place = {Loc.HAND: "hand", Loc.GY: "gy"}.get(card.loc)
    if place is None or place not in allowed or card.owner != p:
        return Refusal(ACTIVATE, "R-CARD-5", f"this effect is not used from the {card.loc.title}")
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


def _when_holds(d: DuelState, p: int, card: CardInst, when: When) -> bool:
    """An activation condition such as "when a monster declares an attack" (the last event),
    "when a Spell is activated" (the last chain link) or "when a Summon is declared"."""
    for name in when.event:
        if name == "summon_declared":
            if any(_subject_ok(d, p, card, when, m, m.controller) for m in d.summoning):
                return True
        elif name == "activated":
            if d.chain and _link_kind_ok(d.chain[-1], when) and _subject_ok(d, p, card, when, d.chain[-1].card, d.chain[-1].player):
                return True
        elif name == "damage_calculation":
            if d.step == Step.DAMAGE_CALC and d.attack is not None:
                return True
        elif name == "attack_declared":
            attack = d.attack
            if attack is not None and d.step == Step.BATTLE and not attack.negated and attack.fresh and \
                    _subject_ok(d, p, card, when, attack.attacker, attack.attacker.controller):
                return True
        else:
            for signal in d.last_signals:
                if signal_matches(d, p, card, when, signal):
                    return True
    return False


def _link_kind_ok(link: ChainLink, when: When) -> bool:
    if when.activated is None:
        return True
    if "destroys" in when.activated and any(op.op == "destroy" for op in link.effect.do):
        return True
    kind = activation_kind(link.card, link.effect)
    return kind in when.activated or (kind in ("monster", "effect") and "effect" in when.activated)


def activation_kind(card: CardInst, effect: Effect) -> str:
    """What an activation is, for "When a Spell Card is activated" (Magic Jammer) and the like:
    "spell"/"trap" for a card's own activation (a Pendulum card activated into its zone is a
    Spell Card, R-ZONE-4), "monster" for a monster's effect, "effect" for the other effects of
    Spells and Traps (a Pendulum Effect is a Spell's effect, not a Spell Card's activation)."""
    if is_card_activation(card, effect):
        return "spell" if card.is_monster else card.data.kind
    if card.is_monster and not effect.pendulum:
        return "monster"
    return "effect"


def _subject_ok(d: DuelState, p: int, card: CardInst, when: When, subject: CardInst | None, actor: int,
                default: str = "any") -> bool:
    who = when.subject or default
    if who == "self" and subject is not card:
        return False
    if who == "you" and actor != p:
        return False
    if who == "opponent" and actor == p:
        return False
    if when.where is not None and (subject is None or not matches(d, subject, when.where, p, card)):
        return False
    return True


def signal_matches(d: DuelState, p: int, card: CardInst, when: When, s: Signal, default: str = "any") -> bool:
    if s.event not in when.event and not _implied(s, when):
        return False
    if s.event == "activated" and when.activated is not None and s.card is not None:
        kind = s.how or ("monster" if s.card.is_monster else s.card.data.kind)  # the activation's kind, if recorded
        if kind not in when.activated:
            return False
    if when.how is not None and s.how not in when.how:
        return False
    if when.from_ is not None and (s.src is None or _zone_of(s.src) not in when.from_):
        return False
    if when.player != "any" and (s.player == p) != (when.player == "you"):
        return False
    if when.by == "self":
        if s.by_card is not card:
            return False
    elif when.by != "any" and (s.by is None or (s.by == p) != (when.by == "you")):
        return False
    actor = s.player if s.card is None else (s.card.controller if s.card.loc.on_field else s.player)
    if s.card is None:
        default = "any"  # phase events ("during your Standby Phase") are about no card
    return _subject_ok(d, p, card, when, s.card, actor, default)


_SUMMON_EVENTS = frozenset(("normal_summoned", "flip_summoned", "special_summoned"))


def _implied(s: Signal, when: When) -> bool:
    """"summoned" also matches the specific summon events (and the other way round)."""
    return _implied_by(s, when.event)


def _implied_by(s: Signal, events: Any) -> bool:
    if s.event in _SUMMON_EVENTS and "summoned" in events:
        return True
    return s.event == "destroyed" and s.by_battle and "destroyed_by_battle" in events


def answerable(d: DuelState, s: Signal) -> bool:
    """Whether some "When …" activation among the duel's cards listens for what `s` says
    happened (`Duel.listens`): only then is a window opened for it after a chain (R-CHAIN-9)."""
    return s.event in d.index.listens or _implied_by(s, d.index.listens)


def _zone_of(loc: Loc) -> str:
    return {Loc.MZONE: "monster", Loc.SZONE: "spell", Loc.HAND: "hand", Loc.DECK: "deck", Loc.GY: "gy",
            Loc.BANISHED: "banished", Loc.EXTRA: "extra"}.get(loc, "")


def _when_text(when: When) -> str:
    return " or ".join(e.replace("_", " ") for e in when.event)


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
    return [c for c in select(d, spec.where, p, card, events)
            if (itself or c is not card)
            and not (to and c.is_link)  # R-SUMMON-16: a Link monster never changes position
            and not (to == "facedown" and c.is_token)  # R-CARD-11: a Token is always face-up
            and not (c.loc == Loc.MZONE and c.battle_destroyed)  # R-BATTLE-5
            and not (c.controller != p and has_flag(d, c, "cannot_be_targeted"))]


def _target_position_change(effect: Effect) -> str:
    """The position the effect changes its target to (Book of Moon: "facedown"), or ""."""
    return next((op.params.to for op in effect.do if op.op == "change_position" and op.params.what in ("target", "targets")
                 and op.params.to != "attack"), "")


# ---------------------------------------------------------------------- options


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
                and (effect.when is None or _when_holds(d, p, card, effect.when)) \
                and activation_refusal(d, p, card, index, open_state=open_state, speed=speed) is None:
            options.append(activation_option(card, effect, index, many))
    if len(options) > 1:
        options = unique_labels(d, options)
    return options


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
    return d.per_layout(p, ("candidates", d.turn, hand_traps, main, responses),  # type: ignore[no-any-return]
                        _candidates, d, p, hand_traps, main, responses)


def _candidates(d: DuelState, p: int, hand_traps: bool, main: bool, responses: bool) -> list[Candidate]:
    side = d.players[p]
    found: list[Candidate] = []
    for pile in (side.hand, side.mzone, side.szone, side.gy):
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
        return Option(f"procedure:{card.uid}:{index}", label, card.uid, verb="special")
    label = f"activate {card.name}"
    if effect.label:
        label += f" ({effect.label})"
    elif many:
        label += f" #{index + 1}"
    return Option(f"activate:{card.uid}:{index}", label, card.uid, verb="activate")


# ---------------------------------------------------------------------- activating


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
        effect = self.effect = self.effect or card.effects[self.index]
        signal = self.signal
        link = self.link = ChainLink(len(d.chain) + 1, p, card, effect, self.index, effect_speed(card.data, effect), signal=signal)
        d.reveal([card], (0, 1))  # an activation is public (a Chain Link names its card), wherever the card goes next
        link.answers = d.chain[-1] if d.chain else None
        link.event_cards = [signal.card] if signal is not None and signal.card is not None else event_cards(d)
        if is_card_activation(card, effect):
            link.was_spell_trap_card = True
            return self.then(d, "placed", _place_activated_card(d, p, card))
        return self.placed(d, None)

    def placed(self, d: DuelState, _: Any) -> Next:
        p, card, effect, link = self.p, d.cards[self.uid], self.effect, self.link
        assert effect is not None and link is not None
        if effect.once_per_turn == "name":
            d.players[p].used_names[card.name] = d.turn
        elif effect.once_per_turn:
            card.used_turn[-1 if effect.once_per_turn == "card" else self.index] = d.turn
        d.chain.append(link)
        return self.then(d, "targets", pay_costs(d, link))

    def targets(self, d: DuelState, _: Any) -> Next:
        p, card, effect, link = self.p, d.cards[self.uid], self.effect, self.link
        assert effect is not None and link is not None
        while self.group < len(effect.target_groups):
            group = self.group
            spec = effect.target_groups[group]
            candidates = [c for c in target_candidates(d, p, card, effect, self.signal, group) if c not in link.targets]
            lo, hi = spec.count.min or 1, spec.count.max or len(candidates)
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
        link.targets += [d.cards[o.card] for o in chosen]  # type: ignore[index]
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
    return None


@dataclass
class PendulumZone(Frame):
    """Which of two free Pendulum Zones a Pendulum card is activated into."""

    p: int
    uid: int
    zones: tuple[int, ...]

    def start(self, d: DuelState, _: Any) -> Next:
        card = d.cards[self.uid]
        return self.ask("chosen", d.ask(self.p, Kind.ZONE, [Option(f"zone:{z}", name) for z, name in zip(self.zones, ("left", "right"))],
                                        f"{card.name}: into which Pendulum Zone?", verb="zone"))

    def chosen(self, d: DuelState, answer: Option) -> Next:
        actions.move(d, d.cards[self.uid], Loc.SZONE, seq=int(answer.key.split(":")[1]), face_up=True, quiet=True)
        return DONE


# ---------------------------------------------------------------------- chains


def run_chain(d: DuelState, first: int | None = None) -> "RunChain":
    """Responses (the other player first, R-CHAIN-4), then LIFO resolution and cleanup."""
    return RunChain(1 - d.chain[-1].player if first is None else first)


@dataclass
class Priority(Frame):
    """R-PRIO-1, R-CHAIN-4: the players may act in turn, `p` first, until both pass in
    succession. A player with nothing to activate passes by themselves unless their prompt mode
    is "always" (hot-seat privacy: then every window asks, so a prompt reveals nothing).
    A subclass says what the question is (`prompt`), what an activation starts (`activated`)
    and what follows when both have passed (`passed`)."""

    p: int  # who may act now
    passes: int = 0

    def ask_priority(self, d: DuelState, _: Any = None) -> Next:
        while self.passes < 2:
            p = self.p
            options = activation_options(d, p, open_state=False)
            if options or d.prompt_modes[p] == "always":
                return self.ask("answered", d.ask(p, Kind.CHAIN, (*options, PASS), self.prompt(d)))
            self.passes += 1
            self.p = 1 - p
        return self.passed(d)

    def answered(self, d: DuelState, choice: Option) -> Next:
        if choice.key == "pass":
            self.passes += 1
            self.p = 1 - self.p
        elif choice.key != "refresh":  # (a manual action: ask again)
            return self.activated(d, choice)
        return self.ask_priority(d)

    def prompt(self, d: DuelState) -> str:
        raise NotImplementedError

    def activated(self, d: DuelState, choice: Option) -> Next:
        raise NotImplementedError

    def passed(self, d: DuelState) -> Next:
        raise NotImplementedError


@dataclass
class RunChain(Priority):
    """The responses to a chain; then it resolves."""

    def start(self, d: DuelState, _: Any) -> Next:
        return self.ask_priority(d)

    def prompt(self, d: DuelState) -> str:
        return f"Chain Link {len(d.chain)} ({d.chain[-1].card.name}): respond or pass"

    def activated(self, d: DuelState, choice: Option) -> Next:
        assert choice.card is not None
        return self.then(d, "responded", activate(d, self.p, d.cards[choice.card], int(choice.key.rsplit(":", 1)[1])))

    def responded(self, d: DuelState, _: Any) -> Next:
        self.passes, self.p = 0, 1 - self.p
        return self.ask_priority(d)

    def passed(self, d: DuelState) -> Next:
        return self.then(d, "finish", ResolveChain())


@dataclass
class ResolveChain(Frame):
    """R-CHAIN-6/7: the links resolve last first; spent cards go to the GY together."""

    spent: list[CardInst] = field(default_factory=list)
    negated: list[CardInst] = field(default_factory=list)
    link: ChainLink | None = None  # the link resolving now

    def start(self, d: DuelState, _: Any) -> Next:
        d.resolving = True
        while d.chain:
            link = self.link = d.chain[-1]
            d.batch += 1
            d.emit(ChainResolves(link.number, link.player, link.card.uid, link.card.name))
            if link.was_spell_trap_card:
                self.spent.append(link.card)
            if link.negated:
                d.emit(Note(f"Chain Link {link.number} ({link.card.name}) was negated and does nothing"))
                if link.was_spell_trap_card:
                    self.negated.append(link.card)
            elif _stopped(d, link):
                d.emit(Note(f"Chain Link {link.number} ({link.card.name}) applies nothing: the card is no longer face-up on the field (R-CHAIN-6)"))
            elif link.effect_negated or (link.card.loc.on_field and link.card.face_up and effects_negated(d, link.card)):
                d.emit(Negated(link.card.uid, link.card.name, "effect"))
            elif link.card.is_spell and _spell_blocked(d, link):
                d.emit(Negated(link.card.uid, link.card.name, "effect"))
                actions.destroy(d, [link.card], by="effect", reason="it targeted a monster that negates such Spells")
            else:
                return self.then(d, "resolved", resolve_link(d, link))
            d.chain.pop()
        return self.cleanup(d)

    def resolved(self, d: DuelState, _: Any) -> Next:
        link = self.link
        assert link is not None
        card = link.card
        if link.was_spell_trap_card and card.loc == Loc.SZONE and card.face_up and not card.active \
                and not _leaves_after_resolving(card):
            _now_applies(card)  # a Continuous card applies from its own resolution on (Royal Decree as CL2)
        d.chain.pop()
        return self.start(d, None)

    def cleanup(self, d: DuelState) -> Next:
        d.resolving = False
        self.link = None
        # R-CHAIN-7: spent Normal/Quick-Play Spells and Normal/Counter Traps go to the GY together.
        for card in self.spent:
            if card.loc == Loc.SZONE and card.face_up and (_leaves_after_resolving(card) or card in self.negated):
                actions.move(d, card, Loc.GY, reason="resolved" if card not in self.negated else "its activation was negated")
            elif card.loc == Loc.SZONE and card.face_up and not card.active:
                _now_applies(card)  # a Continuous/Field/Equip card whose effect was negated: it is there from now
        d.batch += 1
        if d.attack is not None and d.step == Step.BATTLE:
            d.attack.fresh = False  # a chain resolved: the attack declaration is no longer the last thing (R-CHAIN-10)
        if d.index.forcers:
            actions.enforce_positions(d)
        return self.then(d, "finish", process_triggers(d))


def _now_applies(card: CardInst) -> None:
    """A Continuous, Field or Equip card (or one that stays) applies once its activation resolves."""
    card.active = True
    card.turns_left = next((e.lasts_turns for e in card.effects if e.lasts_turns), 0)


def _spell_blocked(d: DuelState, link: ChainLink) -> bool:
    """Ryu Senshi: a Spell whose targets include it has its effect negated."""
    if not d.index.continuous_count or not link.targets:
        return False
    return any(t.loc == Loc.MZONE and t.face_up and has_flag(d, t, "negates_spells_targeting") for t in link.targets)


def _stopped(d: DuelState, link: ChainLink) -> bool:
    """R-CHAIN-6: a Continuous, Field or Equip card no longer face-up on the field applies nothing."""
    card = link.card
    return link.was_spell_trap_card and _persistent(card) and not (card.loc == Loc.SZONE and card.face_up)


def _persistent(card: CardInst) -> bool:
    """A Continuous, Field or Equip Spell, a Continuous Trap or a Pendulum card (in its Pendulum
    Zone): it stays on the field once activated and applies only while it is there."""
    data = card.data
    return card.is_pendulum or (isinstance(data, Spell) and data.subtype in ("continuous", "field", "equip")) \
        or (isinstance(data, Trap) and data.subtype == "continuous")


def _leaves_after_resolving(card: CardInst) -> bool:
    """R-CHAIN-7: a resolved card activation goes to the GY unless the card persists or says it stays."""
    return not _persistent(card) and not any(e.stays for e in card.effects)


# ---------------------------------------------------------------------- triggers


def process_triggers(d: DuelState) -> "ProcessTriggers | tuple[()]":
    """R-PRIO-5 (SEGOC): triggers from what just happened form the next chain. When no card of
    the duel has a trigger for any of it and no delayed effect waits, what happened is only
    the last thing that happened (as ProcessTriggers would leave it), and no frame is needed."""
    if d.signals and not d.delayed and _happened(d.signals).isdisjoint(d.index.trigger_events):
        d.last_signals, d.signals = d.signals, []
    if not d.signals:
        return ()
    return ProcessTriggers()


@dataclass
class ProcessTriggers(Frame):
    """R-PRIO-5 (SEGOC): each group of simultaneous triggers — the turn player's mandatory,
    the opponent's mandatory, then the optional ones — is asked and ordered, then they form
    the next chain; triggers of that chain's resolution follow, until nothing is left."""

    groups: list[list[_Pending]] = field(default_factory=list)
    chosen: list[_Pending] = field(default_factory=list)  # of the group being asked
    ordered: list[_Pending] = field(default_factory=list)  # the new chain, in order
    asked: int = 0  # triggers of the group asked so far
    started: bool = False

    def start(self, d: DuelState, _: Any) -> Next:
        while d.signals:
            signals, d.signals = d.signals, []
            d.last_signals = signals
            last_batch = max(s.batch for s in signals)
            found = _collect(d, signals, last_batch)
            if not found:
                continue
            tp = d.turn_player
            if d.rules.chain.legacy_trigger_order:
                self.groups = [found]  # V-23: the turn player orders every simultaneous trigger
            else:
                self.groups = [[t for t in found if t.player == who and t.mandatory == mandatory]
                               for mandatory in (True, False) for who in (tp, 1 - tp)]
            self.ordered, self.chosen, self.asked = [], [], 0
            return self.ask_group(d, None)
        return DONE

    def ask_group(self, d: DuelState, _: Any) -> Next:
        while self.groups:
            group = self.groups[0]
            while self.asked < len(group):
                t = group[self.asked]
                self.asked += 1
                if t.mandatory:
                    self.chosen.append(t)
                    continue
                return self.ask("answered", d.ask(t.player, Kind.YESNO, (Option("yes", "yes"), Option("no", "no")),
                                                  f"Activate {t.card.name}'s effect?", verb="trigger", subject=t.card.uid,
                                                  effect=t.index if t.index >= 0 else None))
            chosen = self.chosen
            if len(chosen) > 1:
                orderer = d.turn_player if d.rules.chain.legacy_trigger_order else chosen[0].player
                twice = {t.card.uid for t in chosen if sum(1 for u in chosen if u.card is t.card) > 1}
                options = [Option(f"trigger:{t.card.uid}:{t.index}", _trigger_label(t) if t.card.uid in twice else t.card.name,
                                  t.card.uid) for t in chosen]
                return self.ask("order", d.ask(orderer, Kind.ORDER, unique_labels(d, options), "Order these effects (first = lower chain link)",
                                               lo=len(chosen), hi=len(chosen), verb="order"))
            self.next_group(chosen)
        self.started = False
        return self.activate_next(d, None)

    def answered(self, d: DuelState, answer: Option) -> Next:
        if answer.key == "yes":
            self.chosen.append(self.groups[0][self.asked - 1])
        return self.ask_group(d, None)

    def order(self, d: DuelState, answer: tuple[Option, ...]) -> Next:
        by_key = {f"trigger:{t.card.uid}:{t.index}": t for t in self.chosen}
        self.next_group([by_key[o.key] for o in answer])
        return self.ask_group(d, None)

    def next_group(self, chosen: list[_Pending]) -> None:
        self.ordered.extend(chosen)
        self.groups.pop(0)
        self.chosen, self.asked = [], 0

    def activate_next(self, d: DuelState, _: Any) -> Next:
        while self.ordered:
            t = self.ordered[0]
            if not _still_able(d, t):
                self.ordered.pop(0)
                continue
            return self.then(d, "activated", activate(d, t.player, t.card, t.index, t.signal, effect=t.effect))
        if self.started:
            return self.then(d, "start", run_chain(d))
        return self.start(d, None)

    def activated(self, d: DuelState, link: ChainLink) -> Next:
        link.chosen = self.ordered.pop(0).remembered
        self.started = True
        return self.activate_next(d, None)


def _trigger_label(t: _Pending) -> str:
    """'Card (label)' or 'Card #2' for one of several triggers of the same card."""
    effect = t.effect or t.card.effects[t.index]
    return f"{t.card.name} ({effect.label})" if effect.label else f"{t.card.name} #{t.index + 1}"


def _collect(d: DuelState, signals: list[Signal], last_batch: int) -> list[_Pending]:
    found: list[_Pending] = _due_delayed(d, signals) if d.delayed else []
    seen: set[tuple[int, int]] = set()
    happened = _happened(signals)  # (a trigger waiting for none of these is skipped at once)
    for card in d.index.trigger_cards:
        for index, effect in card.triggers:
            if (card.uid, index) in seen:
                continue
            if "flipped" not in happened if effect.kind == "flip" else happened.isdisjoint(effect.when.event):  # type: ignore[union-attr]
                continue
            for s in signals:
                if not _trigger_fires(d, card, effect, s, last_batch):
                    continue
                seen.add((card.uid, index))
                if effect.at is not None:  # the event only arms it (Sacred Phoenix of Nephthys)
                    d.delayed.append(Delayed(card, card.controller if card.loc.on_field else card.owner, effect.at,
                                             effect.at_player, 1, index, effect, card.moves, optional=effect.optional))
                else:
                    found.append(_Pending(card, index, s, not effect.optional, card.controller))
                break
    return found


def _happened(signals: list[Signal]) -> set[str]:
    """The events the signals say happened, with those they imply ("summoned", "destroyed_by_battle")."""
    happened = {s.event for s in signals}
    if happened & _SUMMON_EVENTS:
        happened.add("summoned")
    if "destroyed" in happened and any(s.event == "destroyed" and s.by_battle for s in signals):
        happened.add("destroyed_by_battle")
    return happened


def _due_delayed(d: DuelState, signals: list[Signal]) -> list[_Pending]:
    """Delayed effects whose Standby or End Phase has come."""
    found = []
    for s in signals:
        if s.event not in ("standby_phase", "end_phase"):
            continue
        for rec in [r for r in d.delayed if r.due(s)]:
            d.delayed.remove(rec)
            if rec.card_moves is not None and rec.card.moves != rec.card_moves:
                d.emit(Note(f"{rec.card.name}'s delayed effect does not apply: the card has moved since"))
                continue
            index = rec.index if rec.index >= 0 else -1 - len(found)  # distinct keys when ordering
            pending = _Pending(rec.card, index, Signal(s.event, None, s.player, batch=s.batch), not rec.optional, rec.player,
                               effect=rec.effect if index < 0 else None,
                               remembered=[c for c, moves in rec.remembered if c.moves == moves])
            found.append(pending)
    return found


def _trigger_fires(d: DuelState, card: CardInst, effect: Effect, s: Signal, last_batch: int) -> bool:
    if effect.kind == "flip":
        if s.event != "flipped" or s.card is not card:
            return False
    else:
        assert effect.when is not None
        owner = card.controller if card.loc.on_field else card.owner
        if not signal_matches(d, owner, card, effect.when, s, default="self"):
            return False
    if s.card is card and card.moves != s.moves:
        return False  # R-CHAIN-10: it changed location before the trigger could activate
    about_itself = s.card is card and (effect.kind == "flip" or effect.when is None or effect.when.subject in (None, "self"))
    if not about_itself and (not _trigger_place_ok(card, effect) or card.arrived_at > s.at):
        # it must already have been where its effect works when the event happened; so must a
        # card whose trigger is about any card, even when it is the one (Solemn Wishes drawn
        # into the hand does not count its own draw, R-CARD-10)
        return False
    if effect.optional and effect.timing == "when" and s.batch != last_batch:
        return False  # R-CHAIN-10: "When … you can" misses the timing
    if effect.once_per_turn and used_this_turn(d, card.controller, card, card.effects.index(effect)):
        return False
    if card.loc == Loc.SZONE and not (card.face_up and card.active):
        return False  # a Continuous Spell/Trap's triggers work once it is face-up and active
    if card.loc.on_field and card.face_up and effects_negated(d, card):
        return False
    if effect.condition is not None and not condition_holds(d, card, effect.condition):
        return False
    if effect.cost:
        if not cost_payable(d, card.controller if card.loc.on_field else card.owner, card, effect):
            return False  # R-CHAIN-5: an effect whose cost cannot be paid is not activated
    return True


def _trigger_place_ok(card: CardInst, effect: Effect) -> bool:
    """A trigger about another card works from where its text says (default: face-up on the field)."""
    if card.loc.on_field:
        if not card.face_up:
            return False
        if not card.is_monster:
            return "field" in effect.from_
        if card.in_pendulum_zone:  # only its Pendulum Effects (R-ZONE-4)
            return effect.pendulum
        if card.loc == Loc.SZONE:  # an Equip Card: only what works while equipped (a Union)
            return "equip" in effect.from_
        return "field" in effect.from_ and not effect.pendulum
    return {Loc.HAND: "hand", Loc.GY: "gy"}.get(card.loc, "") in effect.from_


def _still_able(d: DuelState, t: _Pending) -> bool:
    effect = t.effect or t.card.effects[t.index]
    if any(not target_candidates(d, t.player, t.card, effect, t.signal, g) for g in range(len(effect.target_groups))):
        d.emit(Note(f"{t.card.name}'s effect has no legal target and does not activate"))
        return False
    return True
