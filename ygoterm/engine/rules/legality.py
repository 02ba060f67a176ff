"""Which actions are legal now, and why the others are not: the one source of legality.

The option lists the flow offers, `Duel.explain`, and the rule IDs in IllegalChoice all come
from the check functions here. Each returns None when the action is allowed, or a `Refusal`
naming the rule that refuses it.
"""

from __future__ import annotations

from typing import Sequence


from ..state.card import CardInst
from ..state.duel_state import DuelState
from ..state.links import AttackState
from .activation import activation_refusal
from ..board.hand_costs import hand_play_refusal, hand_play_short
from ..board.continuous import (battle_phase_forbidden, field_attack_costs, source_with, applies, only_one_blockers, attacks_allowed, condition_holds, summon_condition_holds, effects_negated, fewer_tributes, forced_position,
                                has_flag, sources, tribute_value, tributes_forbidden, type_rivals, use_forbidden)
from ..core.decision import Option, Refusal
from .extra_summons import extra_options, extra_refusal
from ..board.filters import matches
from ..board.labels import unique_labels
from ..effects.checks import cost_payable
from .pendulum import option as pendulum_option, refusal as pendulum_refusal
from ..board.timing import open_main, summon_excluded, summon_locked
from ..core.types import Loc, Phase, Pos, Step

NORMAL_SUMMON, NORMAL_SET, SET_CARD, GEMINI_SUMMON = "Normal Summon", "Normal Set", "Set", "Gemini Summon"
_PROCEDURE_FRAMES = frozenset(("synchro", "xyz", "link"))  # Summoned from the Extra Deck by their own procedure
FLIP_SUMMON, CHANGE_POSITION, ATTACK, ENTER_BATTLE = "Flip Summon", "Change position", "Attack", "Battle Phase"


def tribute_terms(d: DuelState, p: int, card: CardInst) -> tuple[int, int, list[CardInst]]:
    """R-SUMMON-2 and the card's own terms: the fewest and most Tributes for a Normal Summon
    or Set of `card`, and the monsters `p` may Tribute for it.

    Level 5-6 need 1 Tribute, Level 7 or more 2 (never 3); a card may say otherwise (Victory
    Dragon: 3 Dragons; Gilford the Lightning: 2 or 3; Lich Lord: a DARK monster), and Geartown
    lowers the count (R-CARD-13)."""
    level = card.level
    lo = hi = 0 if level <= 4 else 1 if level <= 6 else 2
    rule = card.monster.tributes
    monsters = [c for c in d.players[p].mzone if c is not None and not c.no_tribute]
    if "cannot_be_tributed_for_summon" in d.index.flags:  # Fox Fire
        monsters = [c for c in monsters if not has_flag(d, c, "cannot_be_tributed_for_summon")]
    monsters += [c for c in d.players[1 - p].mzone if c is not None and not c.no_tribute
                 and has_flag(d, c, "tributable_by_opponent")]  # (Soul Exchange: the opponent's monster, as if p controlled it)
    monsters = [c for c in monsters if not has_flag(d, c, "cannot_be_tributed")]  # (Mind Control: a resolved effect's change too)
    if "locks_tributes" in d.index.flags and tributes_forbidden(d) is not None:
        monsters = []  # Mask of Restrict: "Neither player can Tribute cards"
    if rule is not None:
        if rule.count is not None:
            lo = rule.count.min if rule.count.min is not None else lo
            hi = rule.count.max if rule.count.max is not None else lo
        if rule.where is not None:
            monsters = [c for c in monsters if matches(d, c, rule.where, p, card)]
    if d.index.continuous_count and hi:
        fewer = fewer_tributes(d, card)
        lo, hi = max(0, lo - fewer), max(0, hi - fewer)
    return lo, hi, monsters


def normal_summon(d: DuelState, p: int, card: CardInst, setting: bool = False) -> Refusal | None:
    """R-SUMMON-1/2: one Normal Summon or Set per turn, with the right number of Tributes."""
    action = NORMAL_SET if setting else NORMAL_SUMMON
    if card.loc != Loc.HAND or card.controller != p or not card.is_monster:
        return Refusal(action, "R-SUMMON-1", "only a monster in your hand can be Normal Summoned or Set")
    return (open_main(d, p, action) or normal_summon_left(d, p, action) or summon_locked(d, p, action, setting, card)
            or summon_this(d, p, card, action) or hand_play_refusal(d, p, card, action))


def normal_summon_left(d: DuelState, p: int, action: str = NORMAL_SUMMON) -> Refusal | None:
    """R-SUMMON-1: the player's one Normal Summon/Set of the turn is still unused."""
    if d.players[p].normal_summon_turn == d.turn:
        return Refusal(action, "R-SUMMON-1", "you already Normal Summoned or Set this turn")
    if "normal_summons_after_self" in d.index.flags:
        for source, effect in sources(d):
            cap = effect.continuous.normal_summons_after_self if effect.continuous is not None else None
            if cap is not None and source.loc.on_field and sum(
                    1 for b in d.players[p].normal_summon_batches if b > source.face_up_at) >= cap:
                return Refusal(action, "R-CARD-13", f"{source.name}: each player can Normal Summon or Set only {cap} more "
                                                    f"monster{'s' if cap != 1 else ''} after its activation")
    return None


def summon_this(d: DuelState, p: int, card: CardInst, action: str = NORMAL_SUMMON,
                tribute_power: int | None = None, zone_free: bool | None = None) -> Refusal | None:
    """What depends on the card itself: its summoning condition, Tributes (R-SUMMON-2), a zone.

    `tribute_power` (what the player's monsters are worth as Tributes) and `zone_free` may be
    passed in when checking a whole hand, to work them out once.
    """
    if (forbidder := use_forbidden(d, card)) is not None:
        return Refusal(action, "R-CARD-13", f"{forbidder.name} forbids using {card.name}")
    if card.special_summon_only:
        return Refusal(action, "R-SUMMON-9", f"{card.name} cannot be Normal Summoned or Set; it must be Special Summoned")
    if action == NORMAL_SUMMON and card.monster.set_only:
        return Refusal(action, "R-CARD-13", f"{card.name} cannot be Normal Summoned; it can be Normal Set")
    if action == NORMAL_SUMMON and not normal_summon_allowed(d, card):
        return Refusal(action, "R-CARD-13", f"{card.name} cannot be Normal Summoned now: its own summoning condition does not hold")
    blockers = only_one_blockers(d, card, p, face_up=action == NORMAL_SUMMON)
    level = card.level
    if blockers and not (level > 4 and set(blockers) <= set(tribute_terms(d, p, card)[2])):  # (unless it Tributes them)
        return only_one_refusal(card, action)
    rivals = type_rivals(d, card, p) if action == NORMAL_SUMMON else []
    if rivals and not (level > 4 and set(rivals) <= set(tribute_terms(d, p, card)[2])):  # (unless it Tributes them)
        return Refusal(action, "R-CARD-13", "each player can only have 1 Type of monster on the field")
    if level > 4 or card.monster.tributes is not None:
        need, _, monsters = tribute_terms(d, p, card)
        if need:
            if d.index.continuous_count:
                tribute_power = sum(tribute_value(d, c, card) for c in monsters)
            elif card.monster.tributes is not None or tribute_power is None:
                tribute_power = len(monsters)
            refusal = None
            if tribute_power < need and "locks_tributes" in d.index.flags and (locker := tributes_forbidden(d)) is not None:
                refusal = Refusal(action, "R-CARD-13", f"{locker.name} forbids Tributes: {card.name} needs {need}")
            elif tribute_power < need:
                which = _tribute_words(card)
                count = len(monsters)
                refusal = Refusal(action, "R-SUMMON-2", f"{card.name} needs {need} {which}Tribute{'s' if need > 1 else ''}; "
                                                        f"you control {count} {which}monster{'s' if count != 1 else ''}")
            elif not any(c.seq < 5 for c in monsters) and d.players[p].free_mzone() is None:
                refusal = Refusal(action, "R-ZONE-1", "no Main Monster Zone can be used (occupied or made unusable) and none of their monsters can be Tributed")
            elif d.players[p].zone_locks and d.players[p].room(leaving=min(need, len(monsters))) < 1:
                refusal = Refusal(action, "R-ZONE-1", "it would give you more monsters than an effect allows (Kaiser Colosseum)")
            if refusal is None or not may_skip_tributes(card, d, setting=action != NORMAL_SUMMON):
                return refusal
            # (Fusilier Dragon: without Tributes it needs a free zone, below)
    if not (d.players[p].free_mzone() is not None if zone_free is None else zone_free):
        return Refusal(action, "R-ZONE-1", "no Main Monster Zone can be used: all 5 are occupied or made unusable")
    return None


def only_one_refusal(card: CardInst, action: str) -> Refusal:
    """R-CARD-13: "You can only control 1 (face-up) X" — its player already controls one."""
    face_up = "face-up " if card.monster.only_one == "face_up" else ""
    return Refusal(action, "R-CARD-13", f"you can only control 1 {face_up}\"{card.name}\" (its own text)")


def normal_summon_allowed(d: DuelState, card: CardInst) -> bool:
    """Whether the card's own condition lets it be Normal Summoned now (Cave Dragon: "Cannot be
    Normal Summoned while you control a monster"); a Normal Set is not a Summon (R-SUMMON-1)."""
    condition = card.monster.normal_summon_if
    return (condition is None or condition_holds(d, card, condition)) and summon_condition_holds(d, card, card.controller)



def may_skip_tributes(card: CardInst, d: DuelState | None = None, setting: bool = True) -> bool:
    """It may also be Normal Summoned or Set without Tributing (Fusilier Dragon, the Dual-Mode Beast), or Normal
    Summoned without Tributing while its own condition holds (Swift Gaia the Fierce Knight: the only card in the hand)."""
    rule = card.monster.tributes
    if rule is None:
        return False
    if rule.or_none:
        return True
    return rule.or_none_if is not None and not setting and d is not None and condition_holds(d, card, rule.or_none_if)


def _tribute_words(card: CardInst) -> str:
    """'Dragon ', 'DARK ' … for a card that only takes some monsters as Tributes."""
    rule = card.monster.tributes
    if rule is None or rule.where is None:
        return ""
    f = rule.where
    words = [*(f.attribute or ()), *(f.type or ())]
    return " ".join(words) + " " if words else "suitable "


def gemini_summon(d: DuelState, p: int, card: CardInst) -> Refusal | None:
    """R-CARD-6: a face-up Gemini monster that is still a Normal Monster may be Normal Summoned
    a second time, using the turn's Normal Summon (R-SUMMON-1), to become an Effect Monster."""
    if card.loc != Loc.MZONE or card.controller != p or "gemini" not in card.abilities:
        return Refusal(GEMINI_SUMMON, "R-CARD-6", "only a Gemini monster you control can be Gemini Summoned")
    return open_main(d, p, GEMINI_SUMMON) or gemini_this(d, card) or normal_summon_left(d, p, GEMINI_SUMMON) \
        or summon_locked(d, p, GEMINI_SUMMON, card=card)


def gemini_this(d: DuelState, card: CardInst) -> Refusal | None:
    if not card.face_up:
        return Refusal(GEMINI_SUMMON, "R-CARD-6", "a Gemini monster must be face-up on the field to be Summoned again")
    if card.gemini_active:
        return Refusal(GEMINI_SUMMON, "R-CARD-6", "it is already an Effect Monster with its effects")
    return None


def set_spell_trap(d: DuelState, p: int, card: CardInst) -> Refusal | None:
    """R-ZONE-2/3: Set a Spell or Trap from the hand into a free zone (Field Spells: Field Zone)."""
    if card.loc != Loc.HAND or card.controller != p or card.is_monster:
        return Refusal(SET_CARD, "R-ZONE-2", "only a Spell or Trap in your hand can be Set")
    if (forbidder := use_forbidden(d, card)) is not None:
        return Refusal(SET_CARD, "R-CARD-13", f"{forbidder.name} forbids using {card.name}")
    if card.data.cannot_set:  # type: ignore[union-attr]
        return Refusal(SET_CARD, "R-CARD-13", f"{card.name} cannot be Set: only a card's effect places it on the field")
    return open_main(d, p, SET_CARD) or set_zone_for(d, p, card) or hand_play_refusal(d, p, card, SET_CARD)


def set_zone_for(d: DuelState, p: int, card: CardInst) -> Refusal | None:
    """A Field Spell always has its zone (the old one is sent to the GY, R-ZONE-3); others need a free one."""
    side = d.players[p]
    if side.zone_locks and side.field_full() and not (card.is_field_spell and side.field_spell):
        return Refusal(SET_CARD, "R-CARD-13", "an effect caps the cards on your field, and you have as many")  # (Spatial Collapse)
    if card.is_field_spell or side.free_szone() is not None:
        return None
    return Refusal(SET_CARD, "R-ZONE-2", "all 5 Spell & Trap Zones are occupied")


def flip_summon(d: DuelState, p: int, card: CardInst) -> Refusal | None:
    """R-SUMMON-4: a face-down Defense monster, not Set or Summoned this turn, whose position
    has not changed (by its player) and that has not attacked this turn."""
    if card.loc != Loc.MZONE or card.controller != p:
        return Refusal(FLIP_SUMMON, "R-SUMMON-4", "only a face-down monster you control can be Flip Summoned")
    if (forbidder := use_forbidden(d, card)) is not None:
        return Refusal(FLIP_SUMMON, "R-CARD-13", f"{forbidder.name} forbids using {card.name}")
    return open_main(d, p, FLIP_SUMMON) or summon_locked(d, p, FLIP_SUMMON, card=card) or flip_this(d, card)


def flip_this(d: DuelState, card: CardInst) -> Refusal | None:
    """The card's own part of R-SUMMON-4."""
    if card.pos != Pos.FACEDOWN_DEFENSE:
        return Refusal(FLIP_SUMMON, "R-SUMMON-4", "only a face-down Defense Position monster can be Flip Summoned")
    turn = d.turn
    if card.arrived_turn == turn:
        return Refusal(FLIP_SUMMON, "R-SUMMON-4", "not in the turn it was Set or Summoned")
    if card.pos_changed_turn == turn:
        return Refusal(FLIP_SUMMON, "R-SUMMON-4", "its position already changed this turn")
    if card.attacked_turn == turn:  # (turned face-down by an effect after its attack: Book of Moon)
        return Refusal(FLIP_SUMMON, "R-SUMMON-4", "it declared an attack this turn")
    if (d.index.continuous_count or card.modifiers) and has_flag(d, card, "cannot_change_position"):
        # a Flip Summon is a manual change of battle position: a card that stops those stops it too (Gravity Axe - Grarl,
        # Spellbinding Circle on a face-down monster)
        return Refusal(FLIP_SUMMON, "R-CARD-13", "a card's effect stops it from changing its battle position")
    if not summon_condition_holds(d, card, card.controller):
        return Refusal(FLIP_SUMMON, "R-CARD-13", f"{card.name} cannot be Summoned now: its own summoning condition does not hold")
    if only_one_blockers(d, card, card.controller):
        return only_one_refusal(card, FLIP_SUMMON)
    if type_rivals(d, card, card.controller):
        return Refusal(FLIP_SUMMON, "R-CARD-13", "each player can only have 1 Type of monster on the field")
    condition = card.monster.flip_summon_if
    if condition is not None and not condition_holds(d, card, condition):
        return Refusal(FLIP_SUMMON, "R-CARD-13", f"{card.name} cannot be Flip Summoned now: its own summoning condition does not hold")
    return None


def change_position(d: DuelState, p: int, card: CardInst) -> Refusal | None:
    """R-SUMMON-5 / R-BATTLE-11: once per turn, not the turn it arrived, not after attacking."""
    if card.loc != Loc.MZONE or card.controller != p:
        return Refusal(CHANGE_POSITION, "R-SUMMON-5", "only a monster you control can change position")
    return open_main(d, p, CHANGE_POSITION) or change_this(d, card)


def change_this(d: DuelState, card: CardInst) -> Refusal | None:
    """The card's own part of R-SUMMON-5 (and R-SUMMON-4/16, R-BATTLE-11)."""
    turn = d.turn
    if not card.face_up:
        return Refusal(CHANGE_POSITION, "R-SUMMON-4", "a face-down monster changes position only by a Flip Summon")
    if card.is_link:
        return Refusal(CHANGE_POSITION, "R-SUMMON-16", "a Link monster is always in Attack Position")
    if card.arrived_turn == turn:
        return Refusal(CHANGE_POSITION, "R-SUMMON-5", "not in the turn it arrived on the field")
    if card.pos_changed_turn == turn:
        rule = "R-SUMMON-4" if card.summon_kind == "flip" and card.summon_turn == turn else "R-SUMMON-5"
        return Refusal(CHANGE_POSITION, rule, "its position already changed this turn")
    if card.attacked_turn == turn:
        return Refusal(CHANGE_POSITION, "R-BATTLE-11", "it declared an attack this turn")
    if d.index.continuous_count or card.modifiers:
        if has_flag(d, card, "cannot_change_position"):
            return Refusal(CHANGE_POSITION, "R-CARD-13", "a card's effect stops it from changing position")
        into = "defense" if card.pos == Pos.DEFENSE else "attack"
        forcer = forced_position(d, card, into) if d.index.forcers else None
        if forcer is not None:
            return Refusal(CHANGE_POSITION, "R-CARD-13", f"{forcer.name} keeps it in {into.title()} Position")
    return None


def enter_battle(d: DuelState, p: int) -> Refusal | None:
    """R-PHASE-1 / R-SETUP-6: a Battle Phase from Main Phase 1, not in the first player's turn 1."""
    return open_main(d, p, ENTER_BATTLE) or battle_now(d, p)


def battle_now(d: DuelState, p: int) -> Refusal | None:
    """`enter_battle` once the player is known to be in an open game state of their Main Phase."""
    if d.phase != Phase.MAIN1 and not (d.phase == Phase.MAIN2 and d.players[p].second_battle_turn == d.turn):
        return Refusal(ENTER_BATTLE, "R-PHASE-1", "the Battle Phase comes only after Main Phase 1")
    if d.turn == 1 and not d.rules.duel.first_turn_battle:
        return Refusal(ENTER_BATTLE, "R-SETUP-6", "the player going first cannot conduct a Battle Phase in turn 1")
    if d.players[p].battle_lock_turn == d.turn:
        return Refusal(ENTER_BATTLE, "R-PHASE-8", "an effect forbids your Battle Phase this turn")
    if d.players[p].skip.get("battle", d.turn) < d.turn:
        return Refusal(ENTER_BATTLE, "R-PHASE-8", "an effect skips your Battle Phase")
    if "no_battle_phase" in d.index.flags and (forbidder := battle_phase_forbidden(d)) is not None:
        return Refusal(ENTER_BATTLE, "R-PHASE-8", f"{forbidder.name}: neither player can conduct their Battle Phase")
    return None


def declare_attack(d: DuelState, p: int, card: CardInst) -> Refusal | None:
    """R-BATTLE-1: a face-up Attack Position monster that has not attacked this turn, in the Battle Step."""
    if card.loc != Loc.MZONE or card.controller != p:
        return Refusal(ATTACK, "R-BATTLE-1", "only a monster you control can attack")
    if d.outcome is not None:
        return Refusal(ATTACK, "R-WIN-1", "the duel is over")
    if d.turn_player != p or d.phase != Phase.BATTLE:
        rule = "R-SETUP-6" if d.turn == 1 and d.turn_player == p else "R-BATTLE-1"
        return Refusal(ATTACK, rule, "attacks are declared in your Battle Phase")
    if d.step != Step.BATTLE or not d.idle:
        return Refusal(ATTACK, "R-PRIO-7", "attacks are declared in the Battle Step with an empty chain")
    if not in_attacking_position(d, card):
        return Refusal(ATTACK, "R-BATTLE-1", "only a face-up Attack Position monster can attack")
    if d.battle_flags_turn == d.turn and not modifier_flag(card, "sole_attacker") \
            and any(c is not None and c is not card and modifier_flag(c, "sole_attacker") for c in d.players[p].mzone):
        return Refusal(ATTACK, "R-CARD-13", "this turn, only the monster a card's effect chose can attack")
    if d.index.continuous_count or card.modifiers:
        if has_flag(d, card, "cannot_attack"):
            return Refusal(ATTACK, "R-CARD-13", "a card's effect stops it from attacking")
        if has_flag(d, card, "attacks_each_monster"):
            if card.attacks and not any(not attacked_already(d, card, foe) for foe in attack_targets(d, p) if foe is not None):
                return Refusal(ATTACK, "R-BATTLE-1", "it already attacked this turn, and no monster of the opponent is left that it has not attacked")
        elif card.attacks >= attacks_allowed(d, card):
            return Refusal(ATTACK, "R-BATTLE-1", "it already attacked this turn")
    elif card.attacks >= 1:
        return Refusal(ATTACK, "R-BATTLE-1", "it already attacked this turn")
    if card.attack_costs and not effects_negated(d, card):
        if not all(cost_payable(d, p, card, card.effects[i]) for i in card.attack_costs):
            return Refusal(ATTACK, "R-CARD-13", f"{card.name} cannot declare an attack unless its cost is paid, and it cannot be paid now")
    first = d.players[p].first_attacker
    if first[0] == d.turn and first[1] != card.uid and "single_attacker" in d.index.flags \
            and source_with(d, "single_attacker", lambda source, _: source.loc.on_field) is not None:
        return Refusal(ATTACK, "R-CARD-13", "only 1 monster can attack during each Battle Phase, and another one has attacked")
    tolls = field_attack_costs(d, p)
    if tolls:  # Gravekeeper's Servant; Toll: "Each player must pay 500 Life Points to declare an attack" — 2 of them, 1000 LP (TCG FAQ of the era)
        lp = sum(spec.params.amount for source, i in tolls for spec in source.effects[i].cost
                 if spec.op == "pay_lp" and isinstance(spec.params.amount, int))
        if not all(cost_payable(d, p, source, source.effects[i]) for source, i in tolls) or lp > d.players[p].lp:
            names = ", ".join(sorted({source.name for source, _ in tolls}))
            return Refusal(ATTACK, "R-CARD-13", f"an attack cannot be declared unless the cost of {names} is paid, and it cannot be paid now")
    return None


def modifier_flag(card: CardInst, flag: str) -> bool:
    """A resolved effect's lasting flag on `card` (`modify`), read without the continuous layer."""
    return bool(card.modifiers) and any(flag in m.flags for m in card.modifiers)


def attacked_already(d: DuelState, card: CardInst, target: CardInst | None) -> bool:
    """A monster that attacks each of the opponent's monsters once (Asura Priest) has attacked
    this one this turn — or, having attacked, would attack directly."""
    if not card.attacks or not (d.index.continuous_count or card.modifiers) or not has_flag(d, card, "attacks_each_monster"):
        return False
    return target is None or (target.uid, target.moves) in card.attacked_foes


def in_attacking_position(d: DuelState, card: CardInst) -> bool:
    """R-BATTLE-1: face-up Attack Position, or face-up Defense for a card that says so (Total Defense Shogun)."""
    if card.pos == Pos.ATTACK:
        return True
    return card.pos == Pos.DEFENSE and bool(d.index.continuous_count) and has_flag(d, card, "attacks_in_defense")


def attacker_still_able(d: DuelState, state: AttackState, p: int) -> bool:
    """Whether the attack `p` declared goes on with its attacker: still the monster that attacked (in a
    Monster Zone all along: one that left and came back is a new card), still `p`'s, still in a position
    that attacks. Not so once Sakuretsu Armor destroyed it, Book of Moon set it, or it changed hands."""
    attacker = state.attacker
    return attacker.loc == Loc.MZONE and attacker.moves == state.moves[0] and attacker.controller == p \
        and in_attacking_position(d, attacker)


def attack_targets(d: DuelState, p: int) -> list[CardInst | None]:
    """R-BATTLE-2: the opponent's monsters, or a direct attack (None) if they control none."""
    foes: list[CardInst | None] = [c for c in d.players[1 - p].mzone if c is not None]
    if not foes:
        return [None]
    if d.index.continuous_count:
        if "allows_direct_attacks" in d.index.flags and all(has_flag(d, c, "allows_direct_attacks") for c in foes if c is not None):
            # "does not prevent your opponent from attacking you directly" (Guardian Kay'est): as if they controlled none
            return [*(c for c in foes if c is not None and not has_flag(d, c, "cannot_be_attacked")), None]
        foes = [c for c in foes if c is not None and not has_flag(d, c, "cannot_be_attacked")]  # Marauding Captain (may leave none)
    magnets: list[CardInst | None] = [c for c in foes if c is not None and (c.modifiers or "draws_attacks" in d.index.flags)
                                      and has_flag(d, c, "draws_attacks")]
    return magnets or foes  # "they must select the selected monster as the attack target" (Taunt, Staunch Defender)


def targets_for(d: DuelState, attacker: CardInst, targets: list[CardInst | None]) -> list[CardInst | None]:
    """The targets `attacker` may choose among `targets`: only the monsters its `attack_only`
    filter names, while the opponent controls one (Blue-Eyes Toon Dragon must attack a face-up Toon)."""
    if "attack_only" not in d.index.flags:
        return targets
    for source, effect in sources(d):
        spec = effect.continuous
        if spec is not None and spec.attack_only is not None and applies(d, source, spec, attacker):
            wanted: list[CardInst | None] = [t for t in targets if t is not None and matches(d, t, spec.attack_only, source.controller, source)]
            if wanted:
                return wanted
    return targets


# ---------------------------------------------------------------------- option lists


def target_label(d: DuelState, target: CardInst | None) -> str:
    if target is None:
        return "direct"
    return target.name if target.face_up else "face-down monster"


def main_options(d: DuelState, p: int) -> list[Option]:
    """Everything the turn player may do in an open game state of the Main Phase (R-PHASE-4).

    The per-player checks run once and the per-card ones for each card; both are the same
    functions that `explain` and refusals use.
    """
    options: list[Option] = []
    side = d.players[p]
    if open_main(d, p, NORMAL_SUMMON) is None:
        can_summon = normal_summon_left(d, p) is None
        may_summon = summon_locked(d, p, NORMAL_SUMMON) is None
        may_set = summon_locked(d, p, NORMAL_SET, setting=True) is None
        free_mzone = side.free_mzone() is not None
        free_szone = side.free_szone() is not None
        hand = () if hand_play_short(d, p) else side.hand  # (Chain Energy: no LP to play a card from the hand)
        repeated = _repeated_names(hand)
        for index, card in enumerate(hand):
            if card.is_monster:
                if not (can_summon and (may_summon or may_set)):
                    continue
                set_ok = summon_this(d, p, card, NORMAL_SET, None, free_mzone) is None
                # (a Summon without Tributes that a Set does not have: Swift Gaia the Fierce Knight)
                summon_ok = set_ok or (card.monster.tributes is not None and card.monster.tributes.or_none_if is not None
                                       and summon_this(d, p, card, NORMAL_SUMMON, None, free_mzone) is None)
                if summon_ok:
                    card_options = card.options_at(f"H{index + 1}") if card.name in repeated else card.options
                    if may_summon and not card.monster.set_only and normal_summon_allowed(d, card) and not (
                            (card.monster.only_one or "one_type_per_player" in d.index.flags)  # (Rivalry of Warlords)
                            and summon_this(d, p, card, NORMAL_SUMMON, None, free_mzone)) \
                            and summon_excluded(d, p, card) is None:
                        options.append(card_options.summon)
                    if may_set and set_ok:
                        options.append(card_options.set)
            elif ((free_szone or card.is_field_spell and set_zone_for(d, p, card) is None) and not card.data.cannot_set  # type: ignore[union-attr]
                  and use_forbidden(d, card) is None):  # (Prohibition)
                options.append((card.options_at(f"H{index + 1}") if card.name in repeated else card.options).set)
        monsters = side.mzone
        repeated = _repeated_names(monsters)
        for monster in monsters:
            if monster is None:
                continue
            card_options = monster.options_at(d.where(monster)) if monster.name in repeated else monster.options
            if monster.pos == Pos.FACEDOWN_DEFENSE:
                if may_summon and flip_this(d, monster) is None and summon_excluded(d, p, monster) is None:
                    options.append(card_options.flip)
            elif change_this(d, monster) is None:
                options.append(card_options.to_defense if monster.pos == Pos.ATTACK else card_options.to_attack)
            if monster.abilities and "gemini" in monster.abilities and can_summon and may_summon and gemini_this(d, monster) is None \
                    and summon_excluded(d, p, monster) is None:
                options.append(card_options.gemini)  # R-CARD-6
        if may_summon and _has_procedure_monsters(d, p):
            options += extra_options(d, p)  # R-SUMMON-12/13/16
        if may_summon and side.has_pendulums:
            found = pendulum_option(d, p)  # R-SUMMON-14
            if found is not None:
                options.append(found)
        if battle_now(d, p) is None:
            options.append(BATTLE)
            if ("must_attack" in d.index.flags or d.battle_flags_turn == d.turn) and _must_attack(d, p):
                return options  # (Berserk Gorilla "must attack if able": no skipping the Battle Phase either)
    options.append(END)
    return options


def _must_attack(d: DuelState, p: int) -> bool:
    """Whether `p` controls a face-up Attack Position monster that must attack if able."""
    return any(card is not None and card.face_up and card.pos == Pos.ATTACK and has_flag(d, card, "must_attack")
               and not has_flag(d, card, "cannot_attack") for card in d.players[p].mzone)


def _has_procedure_monsters(d: DuelState, p: int) -> bool:
    """Whether `p`'s Extra Deck holds a Synchro, Xyz or Link monster (R-SUMMON-12/13/16)."""
    return d.per_layout(p, "procedure monsters", _procedure_monsters, d.players[p].extra)  # type: ignore[no-any-return]


def _procedure_monsters(extra: list[CardInst]) -> bool:
    return any(c.is_monster and c.monster.frames & _PROCEDURE_FRAMES for c in extra)


def _repeated_names(cards: Sequence[CardInst | None]) -> set[str] | tuple[()]:
    """Names that occur more than once among `cards` (None entries ignored)."""
    names = [c.name for c in cards if c is not None]
    if len(set(names)) == len(names):
        return ()
    return {n for n in names if names.count(n) > 1}


CHOSEN_TARGET = -1  # an attack option's target: the opponent chooses it as the attack is declared (Patrician of Darkness)


def attack_target_chooser(d: DuelState, p: int) -> int | None:
    """The player who chooses the targets of `p`'s attacks on monsters instead of `p`: `p`'s opponent while they control a
    face-up monster with `chooses_attack_targets` ("You choose the attack targets for your opponent's attacks": Patrician
    of Darkness); else None."""
    if "chooses_attack_targets" not in d.index.flags:
        return None
    foe = 1 - p
    return foe if any(c is not None and c.face_up and has_flag(d, c, "chooses_attack_targets")
                      for c in d.players[foe].mzone) else None


def chosen_target_option(d: DuelState, attacker: CardInst) -> Option:
    """'attack Gemini Elf -> a target the opponent chooses' (Patrician of Darkness)."""
    return Option(f"attack:{attacker.uid}:chosen", f"attack {attacker.name} -> a target the opponent chooses", attacker.uid,
                  CHOSEN_TARGET, verb="attack")


BATTLE = Option("battle", "battle", verb="battle")
END = Option("end", "end", verb="end")
MAIN2 = Option("main2", "main2", verb="main2")


def battle_options(d: DuelState, p: int) -> list[Option]:
    """The Battle Step: declare an attack, or end the Battle Phase (go to Main Phase 2)."""
    options: list[Option] = []
    targets = attack_targets(d, p)
    direct_ok = None not in targets
    chooser = attack_target_chooser(d, p)
    for card in d.players[p].mzone:
        if card is None or declare_attack(d, p, card) is not None:
            continue
        allowed = targets_for(d, card, targets)
        if chooser is not None and direct_ok:  # (the opponent controls monsters) the opponent will choose among the monsters it may attack
            if any(t is not None and not (card.attacks and attacked_already(d, card, t)) for t in allowed):
                options.append(chosen_target_option(d, card))
            if allowed is targets and _direct_ability(d, card):
                options.append(attack_option(d, card, None))
            continue
        for target in allowed:
            if target is None and (card.modifiers or d.index.continuous_count) and has_flag(d, card, "cannot_attack_directly"):
                continue  # Magical Scientist's Fusion monster
            if card.attacks and attacked_already(d, card, target):
                continue
            options.append(attack_option(d, card, target))
        if direct_ok and allowed is targets:
            if _direct_ability(d, card):  # "can attack your opponent directly" (Jinzo #7; this turn: Jowls of Dark Demise)
                options.append(attack_option(d, card, None))
    if not ((d.index.continuous_count or d.battle_flags_turn == d.turn) and any(o.card is not None and has_flag(d, d.cards[o.card], "must_attack") for o in options)) \
            and not (options and any(t is not None and (t.modifiers or "must_be_attacked" in d.index.flags)
                                     and has_flag(d, t, "must_be_attacked") for t in targets)):
        options.append(MAIN2)  # (Berserk Gorilla "must attack if able": no ending the Battle Phase while it can)
    return unique_labels(d, options)


def attack_option(d: DuelState, attacker: CardInst, target: CardInst | None) -> Option:
    """'attack Gemini Elf -> Celtic Guardian' (or '-> direct', '-> face-down monster'), reused."""
    key = (attacker.uid, target.uid if target is not None else None, target is not None and target.face_up)
    option = d.index.attack_options.get(key)
    if option is None:
        tuid = key[1]
        option = d.index.attack_options[key] = Option(f"attack:{attacker.uid}:{tuid if tuid is not None else 'direct'}",
                                                f"attack {attacker.name} -> {target_label(d, target)}", attacker.uid, tuid, verb="attack")
    return option


# ---------------------------------------------------------------------- explain


def explain(d: DuelState, p: int, card: CardInst) -> list[Refusal]:
    """Every action that applies to `card` and is not available to `p` now, with its rule."""
    checks = []
    if card.loc == Loc.HAND and card.controller == p:
        if card.is_monster:
            checks += [normal_summon(d, p, card), normal_summon(d, p, card, setting=True)]
        else:
            checks.append(set_spell_trap(d, p, card))
    elif card.loc == Loc.MZONE and card.controller == p:
        if card.pos == Pos.FACEDOWN_DEFENSE:
            checks.append(flip_summon(d, p, card))
        else:
            checks.append(change_position(d, p, card))
        checks.append(declare_attack(d, p, card))
        if "gemini" in card.abilities:
            checks.append(gemini_summon(d, p, card))
    elif card.loc == Loc.HAND:
        checks.append(Refusal("Use", "R-TERM-5", "it is in your opponent's hand"))
    mine = card.controller == p if card.loc.on_field or card.loc == Loc.HAND else card.owner == p
    if mine and any(e.kind != "procedure" for _, e, *_ in card.chosen):
        checks.append(activation_refusal_any(d, p, card))
    if mine and any(e.kind == "procedure" for _, e, *_ in card.chosen):
        checks.append(activation_refusal_any(d, p, card, procedure=True))
    if not mine and card.loc.on_field:
        if "shared_effects" in d.index.flags and any(e.user is not None for _, e, *_ in card.chosen):
            checks.append(activation_refusal_any(d, p, card, shared=True))  # an effect either player may use (Royal Oppression)
        else:
            checks.append(Refusal("Use", "R-TERM-5", "your opponent controls it"))
    return [r for r in checks if r is not None]


def activation_refusal_any(d: DuelState, p: int, card: CardInst, procedure: bool = False, shared: bool = False) -> Refusal | None:
    """None if some effect of `card` can be activated now, else the first effect's refusal (`shared`: only the effects its
    controller's opponent may use too)."""
    first: Refusal | None = None
    for index, effect, *_ in card.chosen:
        if (effect.kind == "procedure") != procedure or (shared and effect.user is None):
            continue
        refusal = activation_refusal(d, p, card, index, open_state=d.idle)
        if refusal is None:
            return None
        first = first or refusal
    if first is None:
        return Refusal("Activate", "R-CARD-5", f"{card.name} has no effect that can be activated" if card.effects
                       else f"{card.name} has no scripted effects; play its text with manual actions")
    return first


def _direct_ability(d: DuelState, card: CardInst) -> bool:
    """It can attack directly: a continuous effect, or a resolved effect's lasting change (`modify: {direct_attack: true}`)."""
    return bool(d.index.continuous_count or card.modifiers) and has_flag(d, card, "direct_attack")


def refusal_for(d: DuelState, p: int, verb: str, card: CardInst | None, target: str = "") -> Refusal | None:
    """The refusal of one named action (used to explain a refused typed command)."""
    if verb == "battle":
        return enter_battle(d, p)
    if verb == "pendulum":
        return pendulum_refusal(d, p)
    if card is None:
        return None
    if verb == "summon":
        return normal_summon(d, p, card)
    if verb == "set":
        return normal_summon(d, p, card, setting=True) if card.is_monster else set_spell_trap(d, p, card)
    if verb == "flip":
        return flip_summon(d, p, card)
    if verb == "gemini":
        return gemini_summon(d, p, card)
    if verb == "switch":
        return change_position(d, p, card)
    if verb in ("activate", "special"):
        return activation_refusal_any(d, p, card, procedure=verb == "special")
    if verb in ("synchro", "xyz", "link"):
        return extra_refusal(d, p, card)
    if verb == "attack":
        refusal = declare_attack(d, p, card)
        if refusal is None and target == "direct" and d.monster_count(1 - p) and not _direct_ability(d, card) \
                and None not in attack_targets(d, p):
            refusal = Refusal(ATTACK, "R-BATTLE-2", "a direct attack is allowed only when your opponent controls no monsters")
        if refusal is None and target == "direct" and (card.modifiers or d.index.continuous_count):
            if has_flag(d, card, "cannot_attack_directly"):
                refusal = Refusal(ATTACK, "R-CARD-13", "a card's effect stops it from attacking directly")
        return refusal
    return None
