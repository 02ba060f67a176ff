"""What the board says, read from an `Observation`: the facts the rules of thumb weigh.

`agents/policy.py` decides (what to summon, attack, answer, pick); the functions here only say
what is so, as far as the player can see: what a card is worth, the opponent's strongest
attacker, whether a battle is lost, which of our Set cards the opponent's chain link removes,
what an option's activation does and whom it hits. Like every agent, they read the player's
view and public card text, never the duel.
"""

from __future__ import annotations

from typing import Literal

from ..engine import CardView, Loc, Option, Pos, SideView, Step
from ..schema.cards import Monster
from ..schema.effects import AllOf, Effect, EffectKind
from .observation import Observation
from .reading import REMOVAL, Reading, operations, read_activation

UNKNOWN_DEF = 1500  # what a face-down monster is guessed to have
PRESSED_DECK = 8  # cards left in the Deck when a careful player stops waiting

# -------------------------------------------------------------- cards and the field


def card_worth(obs: Observation, uid: int | None) -> float:
    """What a card is worth to whoever holds it, in about 1000 ATK (a face-down card: something)."""
    card = obs.card(uid)
    if card is None or card.name is None:
        return 1.5 if card is not None else 0.0  # a face-down card: something
    if card.atk is not None:
        return max(card.atk, card.defense or 0) / 1000 + 0.5
    data = obs.definition(uid)
    if isinstance(data, Monster):
        return max(num(data.atk), num(data.def_)) / 1000 + 0.2 * (data.level or 0) / 4
    return 1.2  # a Spell or Trap


def strongest_foe(obs: Observation) -> int:
    """The ATK of the opponent's strongest monster as far as we know (a face-down one: UNKNOWN_DEF)."""
    best = 0
    for m in obs.view.foe.monsters:
        if m is not None:
            best = max(best, (m.atk or 0) if m.face_up else UNKNOWN_DEF)
    return best


def pressed(obs: Observation) -> bool:
    """Our Deck runs out first (R-WIN-2) unless something changes: few cards, no more than theirs."""
    me, foe = obs.view.me, obs.view.foe
    return me.deck <= PRESSED_DECK and me.deck <= foe.deck


def can_attack_now(obs: Observation) -> bool:
    """Our Main Phase 1 with a Battle Phase to come (none on the first turn, R-PHASE-3)."""
    view = obs.view
    return view.turn_player == obs.player and view.phase.name == "MAIN1" and view.turn > 1


def beats_something(obs: Observation, atk: int) -> bool:
    """A monster with this ATK would win an attack now: a direct one, or on a monster it beats."""
    foes = [m for m in obs.view.foe.monsters if m is not None]
    if not foes:
        return atk > 0
    return any(m.face_up and atk > ((m.atk if m.pos == Pos.ATTACK else m.defense) or 0) for m in foes)


def _tribute_pool(obs: Observation, summoned: int | None) -> list[tuple[float, CardView]]:
    """What a Tribute Summon of ours may take, cheapest first, with what giving each up costs us: the
    opponent's monsters lent to us (Soul Exchange: taking one is a gain, its worth counts off) before
    ours (what they are worth)."""
    view = obs.view
    lent = [(-card_worth(obs, m.uid), m) for m in view.foe.monsters if m is not None and m.uid in view.lent]
    ours = [(card_worth(obs, m.uid), m) for m in view.me.monsters if m is not None and m.uid != summoned]
    return sorted(lent, key=lambda pair: pair[0]) + sorted(ours, key=lambda pair: pair[0])


def tribute_cost(obs: Observation, need: int, summoned: int | None) -> float | None:
    """What the `need` cheapest Tributes cost us (None: too few to Tribute)."""
    if not need:
        return 0.0
    pool = _tribute_pool(obs, summoned)
    return sum(cost for cost, _ in pool[:need]) if len(pool) >= need else None


def tributes_stronger(obs: Observation, need: int, summoned: int | None, atk: int) -> bool:
    """Whether one of our monsters a Tribute Summon would take (of the `need` cheapest) has at
    least the new monster's ATK: Judge Man is not worth a Blue-Eyes."""
    return any((m.atk or 0) >= atk for _, m in _tribute_pool(obs, summoned)[:need] if m.controller == obs.player)


def useful_effect(obs: Observation, data: Monster) -> bool:
    """The monster has an effect to use face-up now: an ignition effect on the field that
    removes or weakens the opponent's cards (they have some) or helps us (Exiled Force)."""
    foe_cards = any(c is not None for c in (*obs.view.foe.monsters, *obs.view.foe.spells))
    for index, effect in enumerate(data.effects):
        if effect.kind != "ignition" or "field" not in effect.from_:
            continue
        r = read_activation(data.effects, index)
        if ((r.removes_foe or r.weakens) and foe_cards) or r.helps:
            return True
    return False


def lethal(obs: Observation) -> bool:
    """The opponent has no monster and our attackers' ATK reaches their LP: attack now."""
    view = obs.view
    if any(m is not None for m in view.foe.monsters):
        return False
    attack = sum(m.atk or 0 for m in view.me.monsters if m is not None and m.face_up and m.pos == Pos.ATTACK)
    return attack >= view.foe.lp > 0


def losing_battle(obs: Observation) -> bool:
    """Our monster is in this battle's Damage Step, before damage calculation, and would not
    win it (R-BATTLE-6 lets ATK/DEF changes be used up to then)."""
    view = obs.view
    if view.step not in (Step.DAMAGE_START, Step.BEFORE_DAMAGE, Step.DAMAGE_CALC) or view.attack_target is None:
        return False
    attacker, target = obs.card(view.attacker), obs.card(view.attack_target)
    if attacker is None or target is None or not target.face_up:
        return False
    if attacker.controller == obs.player:
        mine, theirs = attacker, target
        theirs_value = (theirs.atk if theirs.pos == Pos.ATTACK else theirs.defense) or 0
        return (mine.atk or 0) <= theirs_value
    mine, theirs = target, attacker
    mine_value = (mine.atk if mine.pos == Pos.ATTACK else mine.defense) or 0
    return (theirs.atk or 0) >= mine_value and mine.pos == Pos.ATTACK


def threatened(obs: Observation) -> frozenset[int]:
    """Our Set cards the opponent's last chain link will remove: the ones it targets, or all
    of them for a card that removes every card of a kind (Heavy Storm)."""
    chain = obs.view.chain
    if not chain or chain[-1].player == obs.player:
        return frozenset()
    link = chain[-1]
    data = obs.definition(link.card)
    if data is None or not 0 <= link.effect < len(data.effects):  # (-1: an effect the rules give it)
        return frozenset()
    r = read_activation(data.effects, link.effect)
    if not r.removes_foe:
        return frozenset()
    mine = {c.uid for c in obs.view.me.spells if c is not None and not c.face_up}
    return frozenset(mine if r.mass else mine.intersection(link.target_uids))


def attack_hurts(obs: Observation, attacker: CardView) -> bool:
    """Whether the opponent's attack would cost us: a direct attack, or a monster of ours
    that loses the battle (a face-down one is assumed to)."""
    target = obs.card(obs.view.attack_target)
    atk = attacker.atk or 0
    if target is None:
        return atk > 0
    if not target.face_up or target.atk is None:
        return True
    if target.pos == Pos.ATTACK:
        return atk >= target.atk
    return atk > (target.defense or 0)


# -------------------------------------------------------------- what an option's activation does


def option_effect(obs: Observation, option: Option) -> Effect | None:
    """The printed effect an `activate:UID:INDEX` option uses (None: not in the card's text)."""
    data = obs.definition(option.card)
    index = effect_index(option)
    return data.effects[index] if data is not None and 0 <= index < len(data.effects) else None


def option_reading(obs: Observation, option: Option) -> Reading | None:
    """What the option's activation does (None: the card is unknown to us)."""
    data = obs.definition(option.card)
    if data is None:
        return None
    index = effect_index(option)
    if not 0 <= index < len(data.effects):
        return Reading(helps=True)  # an effect the rules give it, a Pendulum Zone activation
    return read_activation(data.effects, index)


def effect_kind(obs: Observation, option: Option) -> EffectKind | Literal[""]:
    """The kind of the printed effect an option uses ("": none)."""
    effect = option_effect(obs, option)
    return effect.kind if effect is not None else ""


def temporary(obs: Observation, option: Option) -> bool:
    """The card's effect is over at the end of the turn: a Normal or Quick-Play Spell or a Normal
    Trap without a continuous effect (not an Equip, Field or Continuous card)."""
    data = obs.definition(option.card)
    if data is None or data.kind == "monster":
        return False
    return data.subtype in ("normal", "quick-play") and not any(e.kind == "continuous" for e in data.effects)


def foe_target(obs: Observation, option: Option) -> bool:
    """Whether the opponent has a card where the effect's targets may be (no targets: True)."""
    effect = option_effect(obs, option)
    if effect is None or not effect.target_groups:
        return True
    for spec in effect.target_groups:
        where = spec.where
        if where.side == "you" or not _covers(where.zone, ("monster", "spell")):
            continue
        for c in _field(obs.view.foe, where.zone):
            if c is not None and (where.face_up is None or c.face_up == where.face_up):
                return True
    return False


def mass_balance(obs: Observation, option: Option) -> float:
    """What an effect that hits every card of a kind (Dark Hole, Heavy Storm, Torrential
    Tribute) takes from the opponent minus what it takes from us, in card worth."""
    effect = option_effect(obs, option)
    if effect is None:
        return 0.0
    balance = 0.0
    for spec in operations(effect.do):
        what = getattr(spec.params, "what", None)
        if spec.op not in REMOVAL or not isinstance(what, AllOf):
            continue
        where = what.all
        for side, sign in ((obs.view.foe, 1.0), (obs.view.me, -1.0)):
            if where.side == ("you" if sign > 0 else "opponent"):
                continue
            for c in _field(side, where.zone):
                if c is None or c.uid == option.card or (where.position and c.pos is not None
                                                         and (c.pos == Pos.ATTACK) != (where.position == "attack")):
                    continue
                balance += sign * card_worth(obs, c.uid)
    return balance


def targets_monsters(obs: Observation, option: Option) -> bool:
    """The effect targets monsters or equips (it needs a monster to take it)."""
    effect = option_effect(obs, option)
    return effect is not None and (any(spec.where.zone in (None, ("monster",)) for spec in effect.target_groups)
                                   or any(op.op == "equip" for op in effect.do))


def effect_index(option: Option) -> int:
    """Which of its card's effects an option uses (an activation, a procedure, a trigger; 0 without one)."""
    return option.effect if option.effect is not None else 0


def tributes(data: Monster) -> int:
    """The fewest Tributes a Normal Summon of the monster needs (R-SUMMON-2, or the card's own terms)."""
    level = data.level or 0
    need = 0 if level <= 4 else 1 if level <= 6 else 2
    terms = data.tributes
    if terms is not None and terms.count is not None and terms.count.min is not None:
        need = terms.count.min
    return need


def num(value: int | str | None) -> int:
    """A printed ATK or DEF as a number ("?" and none: 0)."""
    return value if isinstance(value, int) else 0


def _covers(zone: tuple[str, ...] | None, kinds: tuple[str, ...]) -> bool:
    return zone is None or any(z in kinds or z == "onfield" for z in zone)


def _field(side: SideView, zone: tuple[str, ...] | None) -> tuple[CardView | None, ...]:
    """A side's field cards in these zones (None: monsters)."""
    zone = zone or ("monster",)
    out: tuple[CardView | None, ...] = ()
    if "monster" in zone or "onfield" in zone:
        out += side.monsters
    if any(z in ("spell", "field", "pendulum", "onfield") for z in zone):
        out += side.spells
    return out


# -------------------------------------------------------------- declarations


def declaration_worth(obs: Observation, words: list[str]) -> dict[str, float]:
    """What declaring each word would hit, as far as the player sees: the worth of the opponent's face-up cards it
    names, less that of their own — by Type, Attribute or Level (face-up monsters on the field: Tribe-Infecting
    Virus destroys the declared Type), by kind (Monster, Spell, Trap) or by card name (their face-up cards and their
    Graveyard's). A word nothing has is worth 0."""
    worth = dict.fromkeys(words, 0.0)
    view = obs.view
    for side, sign in ((view.foe, 1.0), (view.me, -1.0)):
        for card in (*side.monsters, *side.spells, *side.gy):
            if card is None or card.name is None or not card.face_up:
                continue
            on_field = card.loc.on_field
            value = sign * (card_worth(obs, card.uid) if on_field else 0.3)
            for word in _words_of(obs, card, on_field):
                if word in worth:
                    worth[word] += value
    return worth


def _words_of(obs: Observation, card: CardView, on_field: bool) -> tuple[str, ...]:
    """The words a declaration may name `card` by: its name and kind; a monster on the field, its Type, Attribute
    and Level as they are now."""
    data = obs.definition(card.uid)
    if data is None:
        return (card.name or "",)
    kind = data.kind.capitalize()  # ("Monster", "Spell", "Trap")
    if not isinstance(data, Monster) or not on_field or card.loc != Loc.MZONE:
        return (card.name or "", kind)
    level = card.level if card.level is not None else data.level
    return (card.name or "", kind, card.type or data.type, card.attribute or data.attribute, str(level or ""))
