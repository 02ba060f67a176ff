""""When …" conditions: does what just happened (a Signal, the last chain link, an attack
declaration, a Summon being declared) match an effect's `when:`? Activation legality and
triggers both ask (R-CHAIN-9/10). Also what kind an activation is (Spell Card, Trap Card,
monster effect, other effect) for "When a Spell Card is activated".
"""

from __future__ import annotations

from typing import Any

from ...schema.effects import Effect, Filter, When, walk_ops
from ..state.card import CardInst
from ..board.filters import matches, select
from ..state.links import ChainLink, Signal
from ..state.duel_state import DuelState
from ..core.types import Loc, Step


def is_card_activation(card: CardInst, effect: Effect) -> bool:
    """The activation of a card itself: a Spell/Trap card, or a Pendulum monster activated as a
    Spell into its Pendulum Zone (R-ZONE-4) — not an effect of a card already there."""
    return effect.kind == "activate" and (not card.is_monster or effect.pendulum)


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


def when_holds(d: DuelState, p: int, card: CardInst, when: When) -> bool:
    """An activation condition such as "when a monster declares an attack" (the last event),
    "when a Spell is activated" (the last chain link) or "when a Summon is declared"."""
    for name in when.event:
        if name == "summon_declared":
            if any(_subject_ok(d, p, card, when, m, m.controller) for m in d.summoning):
                return True
        elif name == "activated":
            if d.chain and _link_kind_ok(d.chain[-1], when, p) and _subject_ok(d, p, card, when, d.chain[-1].card, d.chain[-1].player) \
                    and (not when.targets_self or card in d.chain[-1].targets) \
                    and (when.targets_self != "only" or list(d.chain[-1].targets) == [card]) \
                    and (when.targets_card is None or any(matches(d, t, when.targets_card, p, card) for t in d.chain[-1].targets)) \
                    and (when.targets_one is None or (len(d.chain[-1].targets) == 1
                                                      and matches(d, d.chain[-1].targets[0], when.targets_one, p, card))) \
                    and (when.would_destroy is None or would_destroy(d, d.chain[-1], when.would_destroy, p, card)):
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


def _link_kind_ok(link: ChainLink, when: When, p: int) -> bool:
    if when.activated is None:
        return True
    if "damages" in when.activated and p in damaged_players(link):
        return True
    if "destroys" in when.activated and any(op.op == "destroy" for op in link.effect.do):
        return True
    if "discards" in when.activated and any(op.op == "discard" for op in walk_ops(link.effect.do)):
        return True
    if "destroys_monsters" in when.activated and _destroys_cards(link.effect, monsters=True):
        return True
    if "destroys_spell_trap" in when.activated and _destroys_cards(link.effect, monsters=False):
        return True
    if "draws" in when.activated and any(op.op == "draw" for op in walk_ops(link.effect.do)):
        return True
    if "special_summons" in when.activated and special_summons(link.effect):
        return True
    kind = activation_kind(link.card, link.effect)
    return kind in when.activated or (kind in ("monster", "effect") and "effect" in when.activated)


def special_summons(effect: Effect) -> bool:
    """An effect that Special Summons a monster(s) as it resolves ("an effect that Special Summons a monster(s)": Royal
    Oppression): a `special_summon`, `token`, `ritual_summon` or `fusion_summon` that Summons (not one that only Tributes
    materials as a cost) among its operations."""
    return any(op.op in ("special_summon", "token", "ritual_summon") or (op.op == "fusion_summon" and not op.params.tribute)
               for op in walk_ops(effect.do))


def damaged_players(link: ChainLink) -> set[int]:
    """The players the effect of a chain link would inflict damage to (`damage` operations naming you, the opponent or each
    player, seen from the link's player)."""
    found: set[int] = set()
    for op in walk_ops(link.effect.do):
        if op.op == "damage":
            who = op.params.player
            found |= {"you": {link.player}, "opponent": {1 - link.player}, "each": {0, 1}}.get(who, set())
    return found


_MONSTER_ZONES = frozenset(("monster", "onfield"))
_SPELL_TRAP_ZONES = frozenset(("spell", "field", "pendulum", "onfield"))


def _destroys_cards(effect: Effect, monsters: bool) -> bool:
    """Whether an effect has a destruction that may destroy monsters (`monsters`) or else Spell/Trap Cards on the field: its
    targets', or an `all:`/`choose:` filter's zone and kind; for monsters the attacker, a battler, the equipped monster …
    ("a card that has an effect which destroys 1 or more monster(s) on the field": My Body as a Shield; Mystical Space
    Typhoon, Heavy Storm, Harpie's Feather Duster — not Dark Hole — for Judgment of Anubis)."""
    zones = _MONSTER_ZONES if monsters else _SPELL_TRAP_ZONES
    for op in walk_ops(effect.do):
        if op.op != "destroy":
            continue
        what = op.params.what
        if isinstance(what, str):
            if monsters and what in ("attacker", "attack_target", "battling", "equipped", "bound", "defeated"):
                return True
            wheres = [g.where for g in effect.target_groups] if what in ("target", "targets", "first_target", "second_target") else []
        else:
            wheres = [what.all] if hasattr(what, "all") else [what.choose.where] if hasattr(what, "choose") else []
        for w in wheres:
            kinds = set(w.kind) if w.kind is not None else None
            if (w.zone is None or zones & set(w.zone)) and (kinds is None or (("monster" in kinds) if monsters else bool(kinds - {"monster"}))):
                return True
    return False


def would_destroy(d: DuelState, link: ChainLink, flt: Filter, p: int, card: CardInst) -> bool:
    """Whether the effect of a chain link would destroy a card `flt` matches (seen by `p`, for `card`'s effect): one of
    its targets, for a `destroy` of its targets, or a card that a `destroy`'s `all:`/`choose:` selection matches now, seen
    from the link's player (Fake Trap: "a card or effect that would destroy a Trap(s) you control")."""
    for op in walk_ops(link.effect.do):
        if op.op != "destroy":
            continue
        what = op.params.what
        if isinstance(what, str):
            found = list(link.targets) if what in ("target", "targets", "first_target", "second_target") else []
        elif hasattr(what, "all"):
            found = select(d, what.all, link.player, link.card)
        elif hasattr(what, "choose"):
            found = select(d, what.choose.where, link.player, link.card)
        else:
            continue
        if any(c.loc.on_field and matches(d, c, flt, p, card) for c in found):
            return True
    return False


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
    if s.event == "resolved" and s.how == "negated":
        return False  # "when that Spell Card resolves": not a negated activation
    if s.event in ("activated", "resolved") and when.activated is not None and s.card is not None:
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
    elif when.by == "equipped":
        if s.by_card is None or s.by_card is not card.equip_target:
            return False
    elif when.by != "any" and (s.by is None or (s.by == p) != (when.by == "you")):
        return False
    if when.by_card is not None and (s.by_card is None or not matches(d, s.by_card, when.by_card, p, card)):
        return False  # "by the effect of a Continuous Spell Card" (Malice Doll of Demise)
    if when.together is not None and not any(
            o.event == s.event and o.batch == s.batch and o.player == s.player and o.card is not None and o.card is not s.card
            and matches(d, o.card, when.together, p, card) for o in d.last_signals):
        return False  # "… and … are destroyed at the same time" (Theinen the Great Sphinx)
    actor = s.player if s.card is None else (s.card.controller if s.card.loc.on_field else s.player)
    if s.card is None:
        default = "any"  # phase events ("during your Standby Phase") are about no card
    return _subject_ok(d, p, card, when, s.card, actor, default)


SUMMON_EVENTS = frozenset(("normal_summoned", "flip_summoned", "special_summoned"))


def _implied(s: Signal, when: When) -> bool:
    """"summoned" also matches the specific summon events (and the other way round)."""
    return _implied_by(s, when.event)


def _implied_by(s: Signal, events: Any) -> bool:
    if s.event in SUMMON_EVENTS and "summoned" in events:
        return True
    return s.event == "destroyed" and s.by_battle and "destroyed_by_battle" in events


def answerable(d: DuelState, s: Signal) -> bool:
    """Whether some "When …" activation among the duel's cards listens for what `s` says
    happened (`Duel.listens`): only then is a window opened for it after a chain (R-CHAIN-9)."""
    return s.event in d.index.listens or _implied_by(s, d.index.listens)


def _zone_of(loc: Loc) -> str:
    return {Loc.MZONE: "monster", Loc.SZONE: "spell", Loc.HAND: "hand", Loc.DECK: "deck", Loc.GY: "gy",
            Loc.BANISHED: "banished", Loc.EXTRA: "extra"}.get(loc, "")


def when_text(when: When) -> str:
    return " or ".join(e.replace("_", " ") for e in when.event)
