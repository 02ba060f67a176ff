"""The rules' control flow: setup, turns, phases, priority windows, summons and battle.

Every function here is a generator: it `yield`s a Decision when a player must choose and
receives the chosen Option (or a tuple of them). `Duel.apply` drives it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generator

from .card import CardInst
from .decision import Decision, Kind, Option
from .events import (Attack, AttackStopped, CoinToss, DamageCalc, Destroyed, Flip, PhaseChange, PositionChange,
                     Replay, SetCard, Summon, TurnOrder, TurnStart, Shuffle)
from .legality import attack_option, attack_targets, battle_options, main_options, tributes_needed, unique_labels
from .types import FIELD_ZONE, Loc, Phase, Pos, Step

if TYPE_CHECKING:
    from .duel import Duel

Flow = Generator[Decision, Any, Any]

PASS = Option("pass", "pass", verb="pass")
STOP = Option("stop", "stop", verb="stop")


@dataclass(slots=True)
class AttackState:
    """The attack in progress: who attacks whom, and the opponent's monsters at declaration."""

    attacker: CardInst
    target: CardInst | None
    foes: frozenset[int]


# ---------------------------------------------------------------------- duel and turns


def run(d: "Duel") -> Flow:
    """A whole duel from the coin toss (R-SETUP-1…6)."""
    yield from setup(d)
    yield from play(d, Phase.DRAW)


def play(d: "Duel", phase: Phase) -> Flow:
    """Turns from the given phase of the current turn onwards, until the duel is decided."""
    while True:
        yield from turn(d, phase)
        phase = Phase.DRAW
        d.turn += 1
        d.turn_player = 1 - d.turn_player


def setup(d: "Duel") -> Flow:
    winner = d.rng.randrange(2)  # R-SETUP-3: a seeded coin; the winner chooses
    d.emit(CoinToss(winner))
    choice = yield d.ask(winner, Kind.FIRST, (Option("first", "first"), Option("second", "second")),
                         f"{d.names[winner]} won the coin toss: go first or second?")
    first = winner if choice.key == "first" else 1 - winner
    d.first_player = d.turn_player = first
    d.emit(TurnOrder(first))
    for p in (0, 1):  # R-SETUP-2: each player shuffles, then the opponent cuts (a second shuffle)
        d.rng.shuffle(d.players[p].deck)
        d.rng.shuffle(d.players[p].deck)
        d.emit(Shuffle(p))
    for p in (first, 1 - first):  # R-SETUP-5
        d.draw(p, 5)
    d.turn = 1


def turn(d: "Duel", start: Phase) -> Flow:
    p = d.turn_player
    if start == Phase.DRAW:
        d.emit(TurnStart(d.turn, p))
        for card in d.players[p].mzone:
            if card is not None:
                card.attacks = 0
    if start <= Phase.DRAW:
        yield from draw_phase(d)
    if start <= Phase.STANDBY:
        set_phase(d, Phase.STANDBY)
        yield from window(d)
    go = "main2" if start == Phase.MAIN2 else "battle" if start == Phase.BATTLE else "end" if start == Phase.END else ""
    if start <= Phase.MAIN1:
        go = yield from main_phase(d, Phase.MAIN1)
    if go == "battle":
        yield from battle_phase(d)
        go = "main2"
    if go == "main2":
        yield from main_phase(d, Phase.MAIN2)
    yield from end_phase(d)


def set_phase(d: "Duel", phase: Phase, step: Step = Step.NONE) -> None:
    d.phase, d.step = phase, step
    d.emit(PhaseChange(d.turn, d.turn_player, phase, step))


def set_step(d: "Duel", step: Step) -> None:
    d.step = step
    d.emit(PhaseChange(d.turn, d.turn_player, d.phase, step))


def draw_phase(d: "Duel") -> Flow:
    """R-PHASE-2 and R-SETUP-6: the first player skips the draw of turn 1."""
    set_phase(d, Phase.DRAW)
    if d.turn != 1 or d.rules.duel.first_turn_draw:
        d.draw(d.turn_player, 1)
    yield from window(d)


def end_phase(d: "Duel") -> Flow:
    """R-PHASE-7: End Phase effects, then the turn player discards down to the hand limit."""
    set_phase(d, Phase.END)
    yield from window(d)
    p = d.turn_player
    limit = d.rules.hand_limit
    hand = d.players[p].hand
    if limit is not None and len(hand) > limit:
        excess = len(hand) - limit
        options = unique_labels(d, [Option(f"card:{c.uid}", c.name, c.uid) for c in hand])
        chosen = yield d.ask(p, Kind.CARDS, options, f"Hand limit {limit}: discard {excess} card{'s' if excess > 1 else ''}",
                             lo=excess, hi=excess, verb="discard")
        for option in chosen:
            d.move(d.cards[option.card], Loc.GY, reason="hand limit")


# ---------------------------------------------------------------------- priority


def window(d: "Duel", first: int | None = None, passes: int = 0, stop_after_chain: bool = False) -> Flow | tuple[()]:
    """R-PRIO-1/2: players may act, `first` (default: the turn player) first, until both pass
    in succession. `yield from window(…)` gives True if anything was activated.

    A player with nothing to activate passes by themselves unless their prompt mode is
    "always" (hot-seat privacy: then every window asks, so a prompt reveals nothing). When no
    card in the duel can ever respond and nobody asked for "always", the window is skipped
    without building a generator (`yield from ()` gives None): random Normal Monster duels
    open hundreds of windows each.
    """
    if not d.responders and "always" not in d.prompt_modes:
        return ()
    return _window(d, d.turn_player if first is None else first, passes, stop_after_chain)


def _window(d: "Duel", p: int, passes: int, stop_after_chain: bool) -> Flow:
    acted = False
    while passes < 2:
        options = activations(d, p)
        if options or d.prompt_modes[p] == "always":
            choice = yield d.ask(p, Kind.CHAIN, (*options, PASS), window_prompt(d))
            if choice.key != "pass":
                acted = True
                # The chains issue resolves the activation here; then the turn player acts first.
                if stop_after_chain:
                    return True
                passes, p = 0, d.turn_player
                continue
        passes += 1
        p = 1 - p
    return acted


def activations(d: "Duel", p: int) -> list[Option]:
    """What `p` may activate in the current window. Card effects arrive with the chains issue."""
    return []


def window_prompt(d: "Duel") -> str:
    where = d.step.title if d.step else d.phase.title
    return f"{where}: respond or pass"


# ---------------------------------------------------------------------- main phase


def main_phase(d: "Duel", phase: Phase) -> Flow:
    """R-PHASE-4/6: the turn player acts in an open game state until they move on."""
    set_phase(d, phase)
    p = d.turn_player
    while True:
        d.idle = True
        choice = yield d.ask(p, Kind.COMMAND, main_options(d, p), f"{phase.title}: your move")
        d.idle = False
        verb = choice.verb
        if verb in ("battle", "end"):
            # R-PRIO-2: announcing the end of the phase is a pass; the opponent may act before it ends.
            if (yield from window(d, first=1 - p, passes=1, stop_after_chain=True)):
                continue
            return verb
        card = d.cards[choice.card]
        if verb == "summon":
            yield from normal_summon(d, p, card, setting=False)
        elif verb == "set":
            if card.is_monster:
                yield from normal_summon(d, p, card, setting=True)
            else:
                set_spell_trap(d, p, card)
        elif verb == "flip":
            yield from flip_summon(d, p, card)
        elif verb == "switch":
            change_position(d, card)


def normal_summon(d: "Duel", p: int, card: CardInst, setting: bool) -> Flow:
    """R-SUMMON-1…3 and R-SUMMON-19: Tributes on declaration, then the negation window."""
    side = d.players[p]
    side.normal_summon_turn = d.turn  # counts even if the Summon is negated (R-SUMMON-19)
    need = tributes_needed(card)
    if need:
        options = unique_labels(d, [Option(f"card:{c.uid}", c.name if c.face_up or c.controller == p else "face-down monster", c.uid)
                                    for c in side.mzone if c is not None])
        chosen = yield d.ask(p, Kind.CARDS, options, f"Tribute {need} monster{'s' if need > 1 else ''} for {card.name}",
                             lo=need, hi=need, verb="tribute")
        for option in chosen:
            d.move(d.cards[option.card], Loc.GY, reason="tribute")  # R-SUMMON-3: not destroyed
    zone = side.free_mzone()
    assert zone is not None
    if setting:
        d.move(card, Loc.MZONE, seq=zone, face_up=False, pos=Pos.FACEDOWN_DEFENSE, quiet=True)
        d.emit(SetCard(p, card.uid, card.name, Loc.MZONE, zone))
        return
    d.move(card, Loc.MZONE, seq=zone, face_up=True, pos=Pos.ATTACK, quiet=True)
    card.summon_kind = "tribute" if need else "normal"
    card.summon_turn = d.turn
    card.properly_summoned = True
    d.emit(Summon(p, card.uid, card.name, card.summon_kind, Pos.ATTACK, zone))
    yield from window(d)  # R-SUMMON-19 / R-CHAIN-8: negation window, then the new-chain window


def flip_summon(d: "Duel", p: int, card: CardInst) -> Flow:
    """R-SUMMON-4: face-down Defense → face-up Attack; it counts as the turn's position change."""
    card.pos = Pos.ATTACK
    card.face_up = True
    card.pos_changed_turn = d.turn
    card.summon_kind = "flip"
    card.summon_turn = d.turn
    d.emit(Summon(p, card.uid, card.name, "flip", Pos.ATTACK, card.seq))
    yield from window(d)


def change_position(d: "Duel", card: CardInst) -> None:
    """R-SUMMON-5: face-up Attack ↔ face-up Defense."""
    old = card.pos
    card.pos = Pos.DEFENSE if old == Pos.ATTACK else Pos.ATTACK
    card.pos_changed_turn = d.turn
    d.emit(PositionChange(card.uid, card.name, old, card.pos))


def set_spell_trap(d: "Duel", p: int, card: CardInst) -> None:
    """R-ZONE-2/3: Set face-down; a Field Spell replaces the old one, which goes to the GY."""
    side = d.players[p]
    if card.is_spell and card.data.subtype == "field":
        old = side.szone[FIELD_ZONE]
        if old is not None:
            d.move(old, Loc.GY, reason="replaced Field Spell")  # R-ZONE-3: not destroyed
        zone = FIELD_ZONE
    else:
        zone = side.free_szone()
        assert zone is not None
    d.move(card, Loc.SZONE, seq=zone, face_up=False, quiet=True)
    card.set_turn = d.turn
    d.emit(SetCard(p, card.uid, card.name, Loc.SZONE, zone))


# ---------------------------------------------------------------------- battle


def battle_phase(d: "Duel") -> Flow:
    """R-PHASE-5: Start Step → (Battle Step ↔ Damage Step) → End Step."""
    p = d.turn_player
    d.players[p].battle_turn = d.turn
    set_phase(d, Phase.BATTLE, Step.START)
    yield from window(d)
    while True:
        if d.step != Step.BATTLE:
            set_step(d, Step.BATTLE)
        d.idle = True
        choice = yield d.ask(p, Kind.BATTLE, battle_options(d, p), "Battle Step: attack or end the Battle Phase")
        d.idle = False
        if choice.verb == "main2":
            if (yield from window(d, first=1 - p, passes=1, stop_after_chain=True)):
                continue
            break
        target = d.cards[choice.target] if choice.target is not None else None
        yield from attack(d, p, d.cards[choice.card], target)
    set_step(d, Step.END)
    yield from window(d)


def attack(d: "Duel", p: int, attacker: CardInst, target: CardInst | None) -> Flow:
    """R-BATTLE-1…3: declare, let players respond, replay if the opponent's monsters changed."""
    foe = 1 - p
    attacker.attacks += 1  # a negated or replayed attack still uses it (R-BATTLE-1/3)
    attacker.attacked_turn = d.turn
    d.emit(Attack(p, attacker.uid, attacker.name, target.uid if target else None,
                  target.name if target is not None and target.face_up else None))
    state = AttackState(attacker, target, _foes(d, foe))
    d.attack = state
    try:
        yield from window(d)  # R-CHAIN-8: the new-chain window after an attack declaration
        while True:
            if attacker.loc != Loc.MZONE or attacker.controller != p or not attacker.pos.is_attack:
                d.emit(AttackStopped(attacker.uid, attacker.name, "the attacker is no longer able to attack"))
                return
            now = _foes(d, foe)
            if now == state.foes:
                break
            # R-BATTLE-3: replay. Re-choosing is not a new declaration.
            d.emit(Replay(attacker.uid, attacker.name))
            options = [attack_option(d, attacker, t) for t in attack_targets(d, p)]
            options.append(STOP)
            choice = yield d.ask(p, Kind.BATTLE, unique_labels(d, options), f"Replay: choose a new target for {attacker.name} or stop")
            if choice.verb == "stop":
                d.emit(AttackStopped(attacker.uid, attacker.name, "the attack was stopped after a replay"))
                return
            state.target = target = d.cards[choice.target] if choice.target is not None else None
            state.foes = now
        yield from damage_step(d, p, attacker, target)
    finally:
        d.attack = None


def _foes(d: "Duel", foe: int) -> frozenset[int]:
    return frozenset(c.uid for c in d.players[foe].mzone if c is not None)


def damage_step(d: "Duel", p: int, attacker: CardInst, target: CardInst | None) -> Flow:
    """R-BATTLE-4 sub-steps, with R-BATTLE-5 (face-down targets) and the tables of R-BATTLE-7…9."""
    foe = 1 - p
    set_step(d, Step.DAMAGE_START)
    yield from window(d)
    set_step(d, Step.BEFORE_DAMAGE)
    if target is not None and not target.face_up:
        target.face_up = True
        target.pos = Pos.ATTACK if target.pos == Pos.FACEDOWN_ATTACK else Pos.DEFENSE
        d.emit(Flip(target.uid, target.name, target.pos))
    yield from window(d)
    set_step(d, Step.DAMAGE_CALC)
    yield from window(d)
    x = attacker.atk
    if target is None:
        d.emit(DamageCalc(attacker.uid, None, x, None, None))
        if x > 0:  # R-BATTLE-9: 0 ATK inflicts no damage
            d.change_lp(foe, -x, "battle")
    else:
        pos = target.pos
        if pos.is_attack:
            y = target.atk
            d.emit(DamageCalc(attacker.uid, target.uid, x, y, pos))
            if x > y:
                target.battle_destroyed = True
                d.change_lp(foe, -(x - y), "battle")
            elif x == y:
                if x > 0:  # R-BATTLE-7: 0 vs 0 destroys nothing
                    attacker.battle_destroyed = target.battle_destroyed = True
            else:
                attacker.battle_destroyed = True
                d.change_lp(p, -(y - x), "battle")
        else:
            df = target.defense
            d.emit(DamageCalc(attacker.uid, target.uid, x, df, pos))
            if x > df:
                target.battle_destroyed = True  # R-BATTLE-8: no damage
            elif x < df:
                d.change_lp(p, -(df - x), "battle")
    set_step(d, Step.AFTER_DAMAGE)
    yield from window(d)
    set_step(d, Step.DAMAGE_END)
    for card in (attacker, target):
        if card is not None and card.battle_destroyed and card.loc == Loc.MZONE:
            d.emit(Destroyed(card.uid, card.name, card.owner, "battle"))
            d.move(card, Loc.GY, reason="battle", quiet=True)
    yield from window(d)
