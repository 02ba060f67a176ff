"""The one filter language (schema.effects.Filter) applied to cards in a duel.

`side` is seen from the player the effect belongs to: controller for cards on the field,
owner elsewhere.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, TypeVar

from pydantic import BaseModel

from ...schema import effects as fx
from ...schema.effects import Filter
from ..state.card import CardInst
from ..state.duel_state import DuelState
from ..core.types import FIELD_ZONE, Loc, Pos

_M = TypeVar("_M", bound=BaseModel)

_ZONE_LOCS = {"monster": (Loc.MZONE,), "spell": (Loc.SZONE,), "field": (Loc.SZONE,), "pendulum": (Loc.SZONE,), "onfield": (Loc.MZONE, Loc.SZONE),
              "hand": (Loc.HAND,), "deck": (Loc.DECK,), "gy": (Loc.GY,), "banished": (Loc.BANISHED,), "extra": (Loc.EXTRA,)}
_PILES = {Loc.HAND: "hand", Loc.DECK: "deck", Loc.GY: "gy", Loc.BANISHED: "banished", Loc.EXTRA: "extra"}


def zone_word(card: CardInst) -> str:
    if card.loc == Loc.MZONE:
        return "monster"
    if card.loc == Loc.SZONE:
        return "field" if card.seq == FIELD_ZONE else "pendulum" if card.in_pendulum_zone else "spell"
    return _PILES.get(card.loc, "")


def matches(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None = None,
            event_cards: Iterable[CardInst] = ()) -> bool:
    """Does `card` match `f`, seen by `player` (the effect's controller), for effect `source`?

    Only the tests for what `f` says are run (`_tests`, worked out once per filter): a filter
    names two or three of its thirty properties, and `Filter()` matches every card."""
    for test in _tests(f):
        if not test(d, card, f, player, source, event_cards):
            return False
    return True


_Test = Callable[[DuelState, CardInst, Filter, int, "CardInst | None", Iterable[CardInst]], bool]


def _tests(f: Filter) -> tuple[_Test, ...]:
    found = _TESTS.get(id(f))
    if found is None or found[0] is not f:
        if len(_TESTS) > 50_000:
            _TESTS.clear()  # (filters made while playing: a bound for very long runs)
        found = _TESTS[id(f)] = (f, tuple(test for wanted, test in _plan(f) if wanted))
    return found[1]


_TESTS: dict[int, tuple[Filter, tuple[_Test, ...]]] = {}


def _plan(f: Filter) -> list[tuple[bool, _Test]]:
    """Each test with whether `f` needs it, in the order they are cheapest to fail."""
    return [
        (f.zone is not None, _zone), (f.side != "any", _side), (f.owner is not None, _owner), (f.atk_equal_battling is not None, _atk_equal_battling), (f.bound is not None, _bound), (f.kind is not None, _kind), (f.self_, _self),
        (f.not_self, _not_self), (f.event, _event), (f.face_up is not None, _face_up), (f.name is not None, _name),
        (f.subtype is not None, _subtype), (f.name_has is not None, _name_has), (f.not_name is not None, _not_name), (f.has_counter is not None, _has_counter), (f.holds_counter is not None, _holds_counter),
        (f.summoned_how is not None, _summoned_how), (f.left_in_position is not None, _left_in_position), (f.declared, _declared), (bool(f.declared_by_self), _declared_by_self), (f.fusion_material is not None, _fusion_material),
        (f.battling, _battling), (bool(f.attacking), _attacking), (bool(f.atk_at_most_paid), _atk_at_most_paid), (bool(f.selected_by_self), _selected_by_self),
        (f.attacked is not None, _attacked), (f.battle_destroyed is not None, _battle_destroyed),
        (f.battle_destroyed_this_turn is not None, _battle_destroyed_this_turn), (f.sent_by_battle is not None, _sent_by_battle), (f.can_equip_self is not None, _can_equip_self),
        (f.union_can_equip is not None, _union_can_equip),
        (f.flip is not None, _flip), (f.equip_card is not None, _equip_card), (f.equip_fits is not None, _equip_fits), (f.left_equipped is not None, _left_equipped), (f.equipped is not None, _equipped), (f.equipped_to_self is not None, _equipped_to_self), (f.your_turns_here is not None, _your_turns_here), (f.same_name_count is not None, _same_name_count), (f.same_name_on_field is not None, _same_name_on_field), (bool(f.highest_atk_on_field), _highest_atk_on_field), (f.your_turns_face_up is not None, _your_turns_face_up), (f.normal_summonable is not None, _normal_summonable), (f.set_or is not None, _set_or),
        (f.equipped_with is not None, _equipped_with), (f.new_since_self is not None, _new_since_self), (f.tributes_taken is not None, _tributes_taken), (f.equipped_destroyed_by_battle is not None, _equipped_destroyed_by_battle), (f.any_of is not None, _any_of),
        (f.ability is not None, _ability), (f.level_matches is not None, _level_matches), (f.atk_reaches is not None, _atk_reaches),
        (f.level_exceeds is not None, _level_exceeds), (f.tributed_self is not None, _tributed_self),
        (f.level_total_from is not None, _level_total_from), (f.negates_traps is not None, _negates_traps),
        (bool(f.atk_above_self), _atk_above_self), (f.highest_atk is not None, _highest_atk),
        (f.flipped_by_attack is not None, _flipped_by_attack), (f.left_flipped is not None, _left_flipped), (f.flipped_after_self is not None, _flipped_after_self), (f.attacked_since_self is not None, _attacked_since_self), (f.zone_number is not None, _zone_number), (f.sent_this_turn_by is not None, _sent_this_turn_by),
        (f.atk_below_self is not None or f.original_atk_below_self is not None or bool(f.atk_equal_self) or f.def_at_most_self is not None,
         _below_self),
        (f.atk_at_most_removed is not None, _atk_at_most_removed), (f.battled_self is not None, _battled_self),
        (f.level_is_removed is not None, _level_is_removed),
        (f.battled_this_turn is not None, _battled_this_turn), (f.battling_with is not None, _battling_with),
        (f.was_equipped is not None, _was_equipped), (f.has_attacked is not None, _has_attacked), (f.atk_below_target_def is not None, _atk_below_target_def),
        (any(getattr(f, name) is not None for name in _MONSTER_PROPERTIES) or f.revivable, _monster),
    ]


def _zone(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    word = zone_word(card)
    # "spell" is every Spell & Trap Zone: the Field Zone and the Pendulum Zones too
    return word in f.zone or ("onfield" in f.zone and card.loc.on_field) or ("spell" in f.zone and word in ("field", "pendulum"))  # type: ignore[operator]


def _side(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    who = card.controller if card.loc.on_field or card.loc == Loc.HAND else card.owner  # (a hand may hold an opponent's card)
    return (who == player) == (f.side == "you")


def _owner(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return (card.owner == player) == (f.owner == "you")


def _bound(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """The card this effect's card is bound to (`bind`: Mask of Dispel's Spell)."""
    return (source is not None and source.bound is card) == f.bound


def _atk_equal_battling(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A battler of the current attack whose ATK equals its battle opponent's, both in Attack Position (Kishido Spirit)."""
    attack = d.attack
    other = None if attack is None or attack.target is None else attack.target if card is attack.attacker \
        else attack.attacker if card is attack.target else None
    return (other is not None and card.loc == Loc.MZONE and card.pos == Pos.ATTACK and other.pos == Pos.ATTACK
            and card.atk == other.atk) == f.atk_equal_battling


def _kind(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    # (a Pendulum or Equip monster card in a Spell & Trap Zone is a Spell; a Trap Monster is also still a Trap Card)
    return card.kind in f.kind or (card.trap_data is not None and "trap" in f.kind)  # type: ignore[operator]


def _self(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return card is source


def _not_self(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return card is not source


def _event(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return card in events


def _face_up(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    # on the field, and among banished cards (face-down banished: Primal Seed cannot target them)
    return not (card.loc.on_field or card.loc == Loc.BANISHED) or card.face_up == f.face_up


def _name(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return card.data.name in f.name or card.data.deck_name in f.name  # type: ignore[operator]


def _not_name(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return card.data.name not in f.not_name and card.data.deck_name not in f.not_name  # type: ignore[operator]


def _subtype(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    equip_card = card.is_monster and card.loc == Loc.SZONE and card.equip_target is not None  # a monster Equip Card is an Equip Spell
    return ("equip" if equip_card else getattr(card.data, "subtype", None)) in f.subtype  # type: ignore[operator]


def _name_has(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    if card.is_monster and card.monster.also_archetypes and f.name_has in card.monster.also_archetypes:
        return True  # "always treated as an \"Archfiend\" card" (Shadow Tamer)
    return f.name_has in card.data.name or f.name_has in card.data.deck_name  # type: ignore[operator]


def _has_counter(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return card.counters.get(f.has_counter, 0) > 0  # type: ignore[arg-type]


def _summoned_how(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return card.loc == Loc.MZONE and card.summon_kind in f.summoned_how  # type: ignore[operator]


def _left_in_position(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """Off the field, a monster keeps the position it had there (the Damage Step flipped a face-down one face-up)."""
    return card.is_monster and not card.loc.on_field and card.pos.is_attack == (f.left_in_position == "attack")


def _holds_counter(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    held = counters_held(card)
    if f.holds_counter not in held:
        return False
    most = held[f.holds_counter]  # "(max. 1)": a Breaker that has its counter can take no other
    return most is None or card.counters.get(f.holds_counter, 0) < most


def counters_held(card: CardInst) -> dict[str, int | None]:
    """The counters a card can have put on it, each with the most it holds (None: no limit):
    those its own effects put on itself (R-CARD-12: counters are placed only by effects that say
    so — "Each time …, place 1 Spell Counter on this card (max. 3)")."""
    found = _HELD.get(id(card.effects))  # (the effects the duel plays: today's or the 2005 card's)
    if found is None or found[0] is not card.effects:
        held: dict[str, int | None] = {}
        stack = [op for effect in card.effects for op in (*effect.cost, *effect.do)]
        while stack:
            op = stack.pop()
            if op.op == "add_counter" and op.params.what == "self":
                held[op.params.counter] = op.params.max_counters
            for value in vars(op.params).values():  # operations nested in if / coin / one_of …
                items = value if isinstance(value, list) else [value]
                for item in items:
                    if hasattr(item, "op") and hasattr(item, "params"):
                        stack.append(item)
                    elif hasattr(item, "do") and isinstance(item.do, list):
                        stack.extend(item.do)
        found = _HELD[id(card.effects)] = (card.effects, held)
    return found[1]


_HELD: dict[int, tuple[object, dict[str, int | None]]] = {}


def _declared(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """It has what the resolving effect declared — each of its declarations ("both the declared Type and Attribute")."""
    if len(d.declarations) > 1:
        return all(_is_declared(d, card, declared) for declared in d.declarations)
    return _is_declared(d, card)


def _level_matches(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A monster with a Level some card of `f.level_matches` has too (Metamorphosis: a Fusion of its Level in the Extra Deck)."""
    where = f.level_matches
    if where is None or not card.is_monster or card.monster.level is None:
        return False
    level = card.level + (f.level_offset or 0)  # (Insect Imitation: an Insect 1 Level higher in the Deck)
    return any(other.level == level for other in select(d, where, player, source, events) if other is not card and other.is_monster)


def level_total_reachable(levels: list[int], need: int) -> bool:
    """Whether some of `levels` (each used once) total exactly `need`, at least one of them."""
    sums = {0}
    for lv in levels:
        sums |= {s + lv for s in sums if s + lv <= need}
    return need > 0 and need in sums


def _level_total_from(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A monster whose Level equals the total Levels of some cards of `f.level_total_from` (The Puppet Magic of Dark Ruler)."""
    where = f.level_total_from
    if where is None or not card.is_monster or card.monster.level is None:
        return False
    levels = [o.level for o in select(d, where, player, source, events) if o is not card and o.is_monster and o.monster.level is not None]
    return level_total_reachable(levels, card.level)


def _negates_traps(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A card whose script has an effect that negates Trap Cards' effects (Double Snare: Jinzo, Royal Decree …)."""
    found = False
    for effect in card.effects:
        spec = effect.continuous
        if spec is not None and (spec.negate_effects is not None and spec.negate_effects.kind is not None
                                 and "trap" in spec.negate_effects.kind
                                 or spec.negates_traps_targeting or spec.negates_opponent_traps_targeting):
            found = True
            break
    return found == f.negates_traps


def _atk_reaches(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A monster whose ATK is at least the ATK of some card of `f.atk_reaches` (Armed Dragon LV7's cost)."""
    where = f.atk_reaches
    if where is None or not card.is_monster:
        return False
    return any(other.atk <= card.atk for other in select(d, where, player, source, events) if other is not card and other.is_monster)


def _level_exceeds(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A monster whose Level is higher than the Level of some card of `f.level_exceeds` (Vampire Genesis' cost)."""
    where = f.level_exceeds
    if where is None or not card.is_monster or card.monster.level is None:
        return False
    return any(other.monster.level is not None and other.level < card.level
               for other in select(d, where, player, source, events) if other is not card and other.is_monster)


def _tributed_self(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A monster whose last Tribute Summon Tributed this effect's card, which has not moved since (Zolga)."""
    found = source is not None and any(uid == source.uid and source.moves == moves for uid, moves in card.tributed)
    return found == f.tributed_self


def _atk_above_self(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A monster on the field whose ATK is higher than this effect's card's (Freed the Brave Wanderer)."""
    return source is not None and card.is_monster and card.loc == Loc.MZONE and card.atk > source.atk


reading_highest: list[bool] = []  # while set, a filter `applies_to` gives no Spell immunity (continuous._filter_shields)


def _highest_atk(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A face-up monster with the highest ATK among the face-up monsters on the field, ties all of them (Pole Position):
    read with every Spell applying, as if no filter made a monster unaffected by Spells (no loop through its own shield)."""
    if not (card.is_monster and card.loc == Loc.MZONE and card.face_up):
        return False
    reading_highest.append(True)
    try:
        atk = card.atk
        top = all(other.atk <= atk for side in d.players for other in side.mzone
                  if other is not None and other is not card and other.face_up and other.is_monster)
    finally:
        reading_highest.pop()
    return top == f.highest_atk


def _zone_number(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """In the Main Monster Zone of that number, counted from its controller's left (Needle Wall)."""
    return card.loc == Loc.MZONE and card.seq == (f.zone_number or 0) - 1


def _attacked_since_self(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A monster attacking now, or that declared or conducted an attack after this effect's card last became face-up (Mirror Wall)."""
    found = (source is not None and card.loc == Loc.MZONE and card.face_up
             and (d.attack is not None and d.attack.attacker is card or 0 < card.attacked_at and source.face_up_at <= card.attacked_at))
    return found == f.attacked_since_self


def _flipped_after_self(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A face-up monster flipped face-up after this effect's card last became face-up (Judgment of the Desert)."""
    found = (source is not None and card.loc == Loc.MZONE and card.face_up and card.flipped_turn != 0
             and card.face_up_at > source.face_up_at)
    return found == f.flipped_after_self


def _left_flipped(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """Off the field, it had been flipped face-up during its last stay in a Monster Zone (Spear Cretin)."""
    return (not card.loc.on_field and card.left_flipped) == f.left_flipped


def _flipped_by_attack(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """The attack target that was face-down when the Damage Step began (R-BATTLE-5), or with `false` not that one."""
    attack = d.attack
    return (attack is not None and attack.target is card and attack.target_flipped) == f.flipped_by_attack


def _sent_this_turn_by(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """In the GY, sent there this turn by a card effect of that player (Fairy Guardian: "by your opponent's card effect")."""
    if card.loc != Loc.GY or card.arrived_turn != d.turn or card.sent_by is None:
        return False
    return (card.sent_by == player) == (f.sent_this_turn_by == "you")
def _atk_at_most_removed(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A monster whose ATK is at most N × the counters the cost of `source`'s chain link removed
    (Blast Magician) — before that link is on the chain, × the counters `source` has, the most it could remove."""
    if not card.is_monster or source is None:
        return False
    removed = next((link.removed for link in reversed(d.chain) if link.card is source and link.removed), None)
    most = sum(source.counters.values()) if removed is None else removed
    return card.atk <= most * f.atk_at_most_removed  # type: ignore[operator]


def _level_is_removed(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A monster whose Level equals the number of cards the cost of `source`'s chain link moved (a `choose` with
    `how_many`: Skull Lair) — before that link is on the chain, a Level of at most the number of cards `f.level_is_removed`
    matches, the most the cost could move."""
    if not card.is_monster or card.monster.level is None or source is None or f.level_is_removed is None:
        return False
    removed = next((link.removed for link in reversed(d.chain) if link.card is source and link.removed), None)
    if removed is not None:
        return card.level == removed
    return 1 <= card.level <= len(select(d, f.level_is_removed, player, source, events))


def _battling(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """In the current battle with the effect's card — for an Equip Card, with the monster it equips (Buster Rancher:
    "the opponent's monster that battles it")."""
    if source is not None and source.loc == Loc.SZONE and source.equip_target is not None:
        source = source.equip_target
    return d.attack is not None and {d.attack.attacker, d.attack.target} == {card, source}


def _has_attacked(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A monster on the field that declared an attack this turn (Combination Attack)."""
    return (card.loc == Loc.MZONE and card.attacked_turn == d.turn) == f.has_attacked


def _was_equipped(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """The monster whose leaving the field destroyed the effect's card (R-CARD-8), neither moved since (Flint; `lost_monster`)."""
    lost = source.lost_monster if source is not None else None
    return (lost is not None and lost[0] == card.uid and lost[1] == card.moves and source is not None
            and lost[2] == source.moves) == f.was_equipped


def _battling_with(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """In the current battle with a monster the filter matches (Kaminote Blow: "the monster(s) that battle with these monsters")."""
    attack = d.attack
    if attack is None or attack.target is None or card not in (attack.attacker, attack.target):
        return False
    other = attack.target if card is attack.attacker else attack.attacker
    assert f.battling_with is not None
    return matches(d, other, f.battling_with, player, source)


def _selected_by_self(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A card `source` remembers selecting (`select: {remember: true}`), not moved since (Xing Zhen Hu)."""
    return source is not None and (card.uid, card.arrived_at) in source.selected


def _atk_at_most_paid(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A monster whose ATK is at most the LP `source` was activated by paying (Wall of Revealing Light)."""
    return source is not None and card.is_monster and card.atk <= source.cost_paid


def _attacking(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """The monster whose attack is in progress — not once its attack is negated or it is turned
    face-down: then it is no longer "the attacking monster" (Sakuretsu Armor resolves on nothing)."""
    attack = d.attack
    if attack is None or attack.attacker is not card or attack.negated or not card.face_up:
        return False
    if f.attacking == "directly":  # (Des Counterblow)
        return attack.target is None
    if f.attacking == "into_higher_def":  # a Defense Position monster with more DEF than its ATK (Destruction Punch)
        target = attack.target
        return target is not None and target.loc == Loc.MZONE and not target.pos.is_attack and target.face_up \
            and card.atk < target.defense
    return True


def _attacked(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """The target of the attack in progress (not once that attack is negated)."""
    attack = d.attack
    return (attack is not None and not attack.negated and attack.target is card) == f.attacked


def _battle_destroyed(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return card.battle_destroyed == f.battle_destroyed


def _battle_destroyed_this_turn(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None,
                                events: Iterable[CardInst]) -> bool:
    """Destroyed by battle this turn and not moved since: some monster's record of the monsters it
    destroyed by battle (`defeated`, kept by board/actions.destroy) holds it as it is now."""
    found = not card.loc.on_field and any(c is card and moves == card.moves and turn == d.turn
                                          for other in d.cards.values() for c, moves, turn in other.defeated)
    return found == f.battle_destroyed_this_turn


def _sent_by_battle(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """Off the field, destroyed by battle (in any turn) and not moved since (Helpoemer)."""
    return (not card.loc.on_field and card.battle_sent_at == card.moves) == f.sent_by_battle


def equip_spell_fits(d: DuelState, card: CardInst, monster: CardInst, player: int) -> bool:
    """Whether Equip Spell `card` could be equipped to `monster` by its own activation: the
    monster matches the target of its `equip` activation (Legendary Sword: a Warrior), R-CARD-8."""
    if getattr(card.data, "subtype", None) != "equip":
        return False
    for effect in card.effects:
        if effect.kind == "activate" and effect.target is not None:
            return matches(d, monster, effect.target.where, player, card)
    return True


def union_equip_where(card: CardInst) -> Filter | None:
    """The target filter of a Union Monster's own equip effect ("equip this card to …"), if it has one."""
    if "union" not in card.abilities:
        return None
    for effect in card.effects:
        if effect.kind == "ignition" and effect.target_groups and any(op.op == "equip" for op in effect.do):
            return effect.target_groups[0].where
    return None


def union_partners(d: DuelState, union: CardInst, monsters: Iterable[CardInst]) -> list[CardInst]:
    """The face-up monsters of `monsters` the Union's own equip effect could equip it to: "an appropriate monster"."""
    where = union_equip_where(union)
    if where is None:
        return []
    return [m for m in monsters if m is not union and m.loc == Loc.MZONE and m.face_up and m.controller == union.controller
            and matches(d, m, where, union.controller, union)]


def _union_can_equip(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    ok = card.loc == Loc.MZONE and card.face_up and bool(union_partners(d, card, d.players[card.controller].monsters()))
    return ok == f.union_can_equip


def _can_equip_self(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return (source is not None and equip_spell_fits(d, card, source, player)) == f.can_equip_self


def _left_equipped(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return (not card.loc.on_field and card.left_equipped is not None) == f.left_equipped


def _equipped_destroyed_by_battle(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None,
                                  events: Iterable[CardInst]) -> bool:
    lost = card.lost_monster
    monster = d.cards[lost[0]] if lost is not None else None
    return (monster is not None and lost is not None and lost[2] == card.moves and monster.moves == lost[1]
            and monster.battle_sent_at == monster.moves) == f.equipped_destroyed_by_battle


def _tributes_taken(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return card.loc == Loc.MZONE and f.tributes_taken is not None and card.tributes_used in f.tributes_taken


def _new_since_self(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    new = not card.loc.on_field or (source is not None and card is not source and card.arrived_at > source.arrived_at)
    return new == f.new_since_self


def _equip_card(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return (card.loc == Loc.SZONE and card.equip_target is not None) == f.equip_card


def _equip_fits(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """An Equip Card whose monster its own activation could have equipped (an Equip Spell's `equip` target; other Equip
    Cards — monsters, Equip Traps — fit any monster): Collected Power destroys those that do not."""
    monster = card.equip_target
    if card.loc != Loc.SZONE or monster is None:
        return False
    fits = getattr(card.data, "subtype", None) != "equip" or card.is_monster or equip_spell_fits(d, card, monster, card.controller)
    return fits == f.equip_fits


def _equipped(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """The monster the effect's card is equipped to (Burning Beast: "the equipped monster")."""
    return (source is not None and source.equip_target is card and source.loc == Loc.SZONE) == f.equipped


def _equipped_with(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A monster with an Equip Card matching `f.equipped_with` (Perfectly Ultimate Great Moth: a Petit Moth with its Cocoon)."""
    where = f.equipped_with
    return where is not None and card.loc == Loc.MZONE and any(
        e.loc == Loc.SZONE and e.equip_target is card and matches(d, e, where, player, source, events) for e in card.equips)


def _your_turns_face_up(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """How many turns of the effect's controller began after the turn the card last became face-up on the field — it
    arrived face-up, or was flipped later (Pumpking's "until your 4th turn after the card is activated")."""
    assert f.your_turns_face_up is not None
    if not (card.loc.on_field and card.face_up):
        return False
    return turns_of_since(d, player, max(card.arrived_turn, card.flipped_turn)) in f.your_turns_face_up


def _your_turns_here(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """How many turns of its controller began after the turn it arrived where it is (Great Moth's Cocoon of Evolution)."""
    assert f.your_turns_here is not None
    return card.loc.on_field and turns_of_since(d, card.controller, card.arrived_turn) in f.your_turns_here


def turns_of_since(d: DuelState, p: int, turn: int) -> int:
    """How many of player `p`'s turns began after `turn` (this one included when it is theirs): the players take turns
    in turn, so a turn's player follows from its parity."""
    parity = d.turn % 2 if d.turn_player == p else (d.turn + 1) % 2
    return sum(1 for t in range(turn + 1, d.turn + 1) if t % 2 == parity)


def _counter_count(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """So many counters on it — of the `has_counter` kind, if the filter names one (Tower of Babel: the 4th Spell Counter)."""
    assert f.counter_count is not None
    count = card.counters.get(f.has_counter, 0) if f.has_counter is not None else sum(card.counters.values())
    return count in f.counter_count




def _same_name_count(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A face-up monster whose controller controls so many face-up monsters of its name, itself included (Delta Attacker)."""
    assert f.same_name_count is not None
    if card.loc != Loc.MZONE or not card.face_up:
        return False
    count = sum(1 for other in d.players[card.controller].mzone if other is not None and other.face_up and other.name == card.name)
    return count in f.same_name_count


def _same_name_on_field(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A face-up monster with so many face-up monsters of its name on the field, both sides, itself included (Aqua Chorus)."""
    assert f.same_name_on_field is not None
    if card.loc != Loc.MZONE or not card.face_up:
        return False
    count = sum(1 for side in d.players for other in side.mzone if other is not None and other.face_up and other.name == card.name)
    return count in f.same_name_on_field


def _highest_atk_on_field(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A face-up monster with the highest ATK among the face-up monsters on the field, ties included (Bottomless Shifting Sand)."""
    if card.loc != Loc.MZONE or not card.face_up:
        return False
    return card.atk >= max(other.atk for side in d.players for other in side.mzone if other is not None and other.face_up)


def _equipped_to_self(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """An Equip Card equipped to the effect's card ("1 Equip Spell Card … that is equipped to this card": Guardian Ceal)."""
    return (source is not None and card.loc == Loc.SZONE and card.equip_target is source) == f.equipped_to_self


def _flip(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return (card.is_monster and "flip" in card.monster.abilities) == f.flip


def _normal_summonable(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return (card.is_monster and not card.special_summon_only and not card.is_token) == f.normal_summonable


def _any_of(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return any(matches(d, card, each, player, source, events) for each in f.any_of)  # type: ignore[union-attr]


def _set_or(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return not card.face_up or matches(d, card, f.set_or, player, source, events)  # type: ignore[arg-type]


def _below_self(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A monster whose ATK (`atk_below_self`) or original ATK (`original_atk_below_self`) is lower than this card's ATK or
    DEF, whose ATK equals its ATK (`atk_equal_self`), or whose DEF is at most its ATK (`def_at_most_self`) — read only while
    this card is face-up in a Monster Zone (Des Kangaroo, Elemental HERO Thunder Giant, Kaiser Glider, Throwstone Unit)."""
    if source is None or source.loc != Loc.MZONE or not source.face_up or not card.is_monster or card.loc == Loc.SZONE:
        return False
    if f.atk_below_self is not None and not card.atk < (source.atk if f.atk_below_self == "atk" else source.defense):
        return False
    if f.atk_equal_self and card.atk != source.atk:  # "a monster that has the same ATK" (Kaiser Glider)
        return False
    if f.def_at_most_self is not None and (card.defense <= source.atk) != f.def_at_most_self:
        return False
    return f.original_atk_below_self is None or card.original_atk < (source.atk if f.original_atk_below_self == "atk" else source.defense)


def _atk_below_target_def(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """The attacking monster, whose ATK is lower than the DEF of the Defense Position monster it attacks (Continuous
    Destruction Punch)."""
    attack = d.attack
    below = attack is not None and attack.attacker is card and attack.target is not None and not attack.target.pos.is_attack \
        and attack.target.loc == Loc.MZONE and card.atk < attack.target.defense
    return below == f.atk_below_target_def


def _battled_this_turn(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A monster involved in damage calculation this turn, not moved since (After the Struggle)."""
    return (card.battled_turn == d.turn) == f.battled_this_turn


def _battled_self(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """A monster that battled with this effect's card since both arrived where they are (The Unhappy Girl)."""
    return (source is not None and (card.uid, card.moves) in source.battled_with) == f.battled_self


def _ability(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    return bool(card.abilities & set(f.ability))  # type: ignore[arg-type]


# what only a monster has: a filter that names one matches no Spell or Trap (a monster card in a
# Spell & Trap Zone is not a monster); `not_type`, `token` and `summoned_this_turn` do not exclude them
_MONSTER_PROPERTIES = ("frame", "not_frame", "attribute", "type", "not_type", "level", "atk", "atk_within_lp", "def_", "tuner", "token", "position",
                       "summoned_this_turn", "special_summoned")
_MONSTER_ONLY = ("frame", "not_frame", "attribute", "type", "level", "atk", "atk_within_lp", "def_", "tuner", "position")


def hidden_face_down(f: Filter) -> bool:
    """Whether `f` names what a face-down monster does not show (ATK, Level, Type …): a face-down
    monster no longer meets such a requirement ("a monster with 1000 or more ATK")."""
    return any(getattr(f, name) is not None for name in _MONSTER_ONLY if name != "position") or f.not_type is not None


def _monster(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    if not (card.is_monster and card.loc != Loc.SZONE):
        return not f.revivable and all(getattr(f, name) is None for name in _MONSTER_ONLY)
    if f.event and not card.face_up and card.loc == Loc.MZONE and hidden_face_down(f):
        return False  # "those monsters with 1500 or more ATK" (Bottomless Trap Hole): turned face-down, it has none
    monster = card.monster
    if f.frame is not None and not (frames_now(card) & set(f.frame)):
        return False
    if f.not_frame is not None and frames_now(card) & set(f.not_frame):
        return False
    if f.attribute is not None and attribute_now(card, d) not in f.attribute \
            and not (monster.also_attributes and set(monster.also_attributes) & set(f.attribute)):
        return False  # (Elemental Mistress Doriado is also WIND, WATER, FIRE and EARTH)
    if f.type is not None or f.not_type is not None:
        type_ = type_now(card, d) if "set_type" in d.index.flags or card.modifiers else monster.type  # (DNA Surgery, Dragonic Attack; D. Tribe)
        if f.type is not None and type_ not in f.type:
            return False
        if f.not_type is not None and type_ in f.not_type:
            return False
    if f.level is not None and (not card.base_level or card.level not in f.level):
        return False
    if f.atk is not None and card.atk not in f.atk:
        return False
    if f.atk_within_lp is not None and (card.atk <= d.players[card.controller].lp) != f.atk_within_lp:
        return False
    if f.def_ is not None and (monster.def_ is None or card.defense not in f.def_):
        return False
    if f.tuner is not None and monster.tuner != f.tuner:
        return False
    if f.token is not None and card.is_token != f.token:
        return False
    if f.position is not None:  # R-ZONE-1: a face-down Defense monster is in Defense Position
        if card.loc != Loc.MZONE or (f.position == "attack") != card.pos.is_attack:
            return False
    if f.revivable and monster.no_special_summon_from and _PILES.get(card.loc) in monster.no_special_summon_from:
        return False  # "cannot be Special Summoned from the Graveyard" (Andro Sphinx)
    if f.revivable and (monster.no_special_summon or card.loc in (Loc.GY, Loc.BANISHED) and monster.needs_proper_summon
                        and not card.properly_summoned and not monster.any_special_summon or monster.no_special_summon_from and _LOC_WORDS.get(card.loc) in monster.no_special_summon_from):
        return False
    if f.revivable and monster.revive_tribute is not None and card.loc == Loc.GY and not any(
            m is not card and matches(d, m, monster.revive_tribute, player, card) for m in d.players[player].monsters()):
        return False  # no monster to Tribute for it (Tyrant Dragon as printed in 2005)
    if f.revivable and monster.only_one is not None and any(
            m is not card and m.name == card.name and (monster.only_one == "any" or m.face_up) for m in d.players[player].monsters()):
        return False  # "You can only control 1 face-up \"Gravekeeper's Chief\"": no second one to Summon (R-CARD-13)
    if f.summoned_this_turn is not None and (card.loc == Loc.MZONE and card.summon_turn == d.turn and card.summon_kind != "") \
            != f.summoned_this_turn:  # any Summon, a Flip Summon too; not a Set
        return False
    if f.special_summoned is not None and (card.loc == Loc.MZONE and card.summon_kind not in _NOT_SPECIAL) != f.special_summoned:
        return False
    return True


_LOC_WORDS = {Loc.HAND: "hand", Loc.DECK: "deck", Loc.GY: "gy", Loc.BANISHED: "banished"}
_NOT_SPECIAL = ("", "normal", "tribute", "flip", "gemini")  # a Set, or a Normal, Tribute, Flip or Gemini Summon


def frames_now(card: CardInst) -> frozenset[str]:
    """The card's frames as they count now: a Gemini that is still a Normal Monster (R-CARD-6)."""
    return _NORMAL if card.treated_as_normal else card.monster.frames


_NORMAL = frozenset(("normal",))


def _fusion_material(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """In the GY as a Fusion Summon's material, not moved since (Supply)."""
    return (card.loc == Loc.GY and card.fusion_material_at == card.moves) == f.fusion_material


def _declared_by_self(d: DuelState, card: CardInst, f: Filter, player: int, source: CardInst | None, events: Iterable[CardInst]) -> bool:
    """What `source`'s own effect last declared, while `source` has not moved since (The Hunter with 7 Weapons)."""
    if source is None or source.declaration is None or source.declaration[2] != source.moves:
        return False
    return _is_declared(d, card, source.declaration[:2])


def _is_declared(d: DuelState, card: CardInst, declared: tuple[str, str] | None = None) -> bool:
    """Whether the card has the Type/Attribute/name the resolving effect declared (op `declare`)."""
    declared = d.declared if declared is None else declared
    if declared is None:
        return False
    what, word = declared
    if what == "kind":
        return card.data.kind == word.casefold()
    if what == "card":
        return word in (card.data.name, card.data.deck_name)
    if what == "level":
        return card.is_monster and card.monster.level is not None and card.level == int(word)
    if not card.is_monster:
        return False
    if what == "attribute" and card.monster.also_attributes and word in card.monster.also_attributes:
        return True  # (Elemental Mistress Doriado)
    return (type_now(card, d) if what == "type" else attribute_now(card, d)) == word


def attribute_now(card: CardInst, d: DuelState | None = None) -> str:
    """A monster's Attribute: its printed one, or what a continuous effect makes it (DNA Transplant), or what a resolved
    effect changed it to while it stays on the field (`modify: {attribute: declared}`: Homunculus the Alchemic Being)."""
    if d is not None and card.loc == Loc.MZONE and "set_attribute" in d.index.flags:
        changed = d.changed_word(card, "set_attribute")
        if changed is not None:
            return changed
    for m in reversed(card.modifiers):
        if m.attribute is not None:
            return str(m.attribute)
    return card.monster.attribute


def type_now(card: CardInst, d: DuelState | None = None) -> str:
    """A monster's Type: its printed one, or what a continuous effect makes it while it applies — "treated as a Dragon-Type"
    (Dragonic Attack), "All face-up monsters on the field become that Type" (DNA Surgery) —, or what a resolved effect
    made it while that change lasts (`modify: {set_type: Dragon}`: D. Tribe)."""
    if d is not None and card.loc == Loc.MZONE and "set_type" in d.index.flags:
        changed = d.changed_word(card, "set_type")
        if changed is not None:
            return changed
    if card.modifiers and card.loc == Loc.MZONE:  # a resolved effect's change, while it lasts (D. Tribe)
        for m in reversed(card.modifiers):
            if m.type is not None:
                return str(m.type)
    return card.monster.type


def select(d: DuelState, f: Filter, player: int, source: CardInst | None = None, event_cards: Iterable[CardInst] = (),
           limit: int = 0) -> list[CardInst]:
    """The cards `f` names, seen by `player`, for effect `source`: the first `limit` of them
    when the caller only needs to know there are so many (0: all)."""
    events = event_cards if type(event_cards) in (list, tuple) else list(event_cards)
    tests = _placed_tests(f)
    found = []
    for pile in _piles(d, f, player):
        for card in pile:
            if card is None:
                continue
            for test in tests:
                if not test(d, card, f, player, source, events):
                    break
            else:
                found.append(card)
                if len(found) == limit:
                    return found
    return found


def _piles(d: DuelState, f: Filter, player: int) -> list[list[Any]]:
    sides = (player,) if f.side == "you" else (1 - player,) if f.side == "opponent" else (player, 1 - player)
    return [getattr(d.players[p], name) for p in sides for name in _pile_names(f.zone)]


def _placed_tests(f: Filter) -> tuple[_Test, ...]:
    """`f`'s tests without those its piles already answer: the side (a player's field holds what
    they control, the other piles what they own) and zones that are whole piles."""
    found = _PLACED.get(id(f))
    if found is None or found[0] is not f:
        if len(_PLACED) > 50_000:
            _PLACED.clear()
        pure = f.zone is None or not set(f.zone) & {"spell", "field", "pendulum"}
        found = _PLACED[id(f)] = (f, tuple(t for t in _tests(f) if t is not _side and not (pure and t is _zone)))
    return found[1]


_PLACED: dict[int, tuple[Filter, tuple[_Test, ...]]] = {}
_PILE_NAMES: dict[tuple[str, ...] | None, tuple[str, ...]] = {}
_LOC_PILES = {Loc.MZONE: "mzone", Loc.SZONE: "szone", **_PILES}


def _pile_names(zones: tuple[str, ...] | None) -> tuple[str, ...]:
    found = _PILE_NAMES.get(zones)
    if found is None:
        found = _PILE_NAMES[zones] = tuple(_LOC_PILES[loc] for loc in _locs(zones))
    return found


_ALL_ZONES = ("onfield", "hand", "deck", "gy", "banished", "extra")
_ZONE_SETS: dict[tuple[str, ...] | None, tuple[Loc, ...]] = {}


def _locs(zones: tuple[str, ...] | None) -> tuple[Loc, ...]:
    """The places a filter's `zone` names, each once, in order (worked out once per zone list)."""
    found = _ZONE_SETS.get(zones)
    if found is None:
        found = _ZONE_SETS[zones] = tuple(dict.fromkeys(loc for zone in (zones or _ALL_ZONES) for loc in _ZONE_LOCS[zone]))
    return found


def variant(model: _M, **changes: Any) -> _M:
    """`model.model_copy(update=changes)`, made once per model and changes: conditions and
    checks narrow a card's filters ("on your field") every time they are asked, and a pydantic
    copy costs more than the check itself. Definitions never change, so the copy stays right
    (a model given as a change is told apart by identity: pass only kept ones, such as variants)."""
    key = (id(model), *((k, id(v) if isinstance(v, BaseModel) else v) for k, v in changes.items()))
    found = _VARIANTS.get(key)
    if found is None or found[0] is not model:
        found = _VARIANTS[key] = (model, model.model_copy(update=changes))
    return found[1]


_VARIANTS: dict[tuple[Any, ...], tuple[Any, Any]] = {}


def event_cards(d: DuelState) -> list[CardInst]:
    """The cards "the event" means for filters (`event: true`): those being Summoned, those of
    the last thing that happened, the last chain link's card and the attacker (a new list)."""
    found = [*d.summoning, *[s.card for s in d.last_signals if s.card is not None]] if d.summoning or d.last_signals else []
    if d.chain:
        found.append(d.chain[-1].card)
    if d.attack is not None:
        found.append(d.attack.attacker)
    return found


def declarable_words(d: DuelState, params: fx.Declare, player: int, card: CardInst) -> set[str]:
    """The Types (Attributes) of the cards `params.among` matches now: the words a `declare` with `among` may say."""
    assert params.among is not None
    monsters = [c for c in select(d, params.among, player, card) if c.is_monster]
    if params.what == "attribute":
        return {attribute_now(c, d) for c in monsters}
    return {type_now(c, d) for c in monsters}
