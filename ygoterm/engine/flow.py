"""The rules' control flow: setup, turns, phases, priority windows, summons and battle.

Every function here is a generator: it `yield`s a Decision when a player must choose and
receives the chosen Option (or a tuple of them). `Duel.apply` drives it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any, Generator

from .card import CardInst
from .chain import activate, activation_options, answerable, process_triggers, run_chain
from .continuous import effects_negated, enforce_positions, equip_takes_battle_destruction, has_flag, tribute_value
from .decision import Decision, Kind, Option, Refusal
from .events import (Attack, AttackStopped, CoinToss, DamageCalc, Flip, PhaseChange, Replay,
                     SetCard, Shuffle, Summon, TurnOrder, TurnStart)
from .legality import (NORMAL_SUMMON, attack_option, attack_targets, battle_options, in_attacking_position, main_options, tribute_terms,
                       unique_labels)
from .types import Loc, Phase, Pos, Step

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
    foes: frozenset[tuple[int, int]]  # the opponent's monsters (uid, moves): one that left and came back is new
    negated: bool = False
    moves: tuple[int, int] = (0, 0)  # the attacker's and the target's move counts: a card that moved is a new card
    fresh: bool = True  # the declaration is still the last thing that happened (Mirror Force, R-CHAIN-10)
    no_damage: set[int] = field(default_factory=set)  # players who take no battle damage (Kuriboh)


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
    skips = d.players[p].skip
    skip = {phase for phase, when in skips.items() if when < d.turn}  # R-PHASE-8: set before this turn
    if start == Phase.DRAW:
        d.emit(TurnStart(d.turn, p))
        for card in d.players[p].mzone:
            if card is not None:
                card.attacks = 0
    if start <= Phase.DRAW and "draw" not in skip:
        yield from draw_phase(d)
    if start <= Phase.STANDBY and "standby" not in skip:
        set_phase(d, Phase.STANDBY)
        d.signal("standby_phase", None, p)
        yield from window(d)
    go = "main2" if start == Phase.MAIN2 else "battle" if start == Phase.BATTLE else "end" if start == Phase.END else ""
    if start <= Phase.MAIN1:
        if "main1" in skip:  # R-PHASE-8
            go = "end" if "battle" in skip else "battle"
        else:
            go = yield from main_phase(d, Phase.MAIN1)
    if go == "battle":
        yield from battle_phase(d)
        go = "main2"
    if go == "main2":
        yield from main_phase(d, Phase.MAIN2)
    yield from end_phase(d)
    left = d.players[p].skips_left
    for phase in skip:  # R-PHASE-8: a skip lasts for as many of the player's turns as it says
        left[phase] = left.get(phase, 1) - 1
        if left[phase] <= 0:
            skips.pop(phase, None)
            left.pop(phase, None)


def set_phase(d: "Duel", phase: Phase, step: Step = Step.NONE) -> None:
    d.phase, d.step = phase, step
    d.batch += 1
    d.emit(PhaseChange(d.turn, d.turn_player, phase, step))


def set_step(d: "Duel", step: Step) -> None:
    d.step = step
    d.emit(PhaseChange(d.turn, d.turn_player, d.phase, step))


def draw_phase(d: "Duel") -> Flow:
    """R-PHASE-2 and R-SETUP-6: the first player skips the draw of turn 1."""
    set_phase(d, Phase.DRAW)
    if d.turn != 1 or d.rules.duel.first_turn_draw:
        for card in d.draw(d.turn_player, 1):
            d.signal("drawn", card, d.turn_player)
    yield from window(d)


def end_phase(d: "Duel") -> Flow:
    """R-PHASE-7: End Phase effects, then the turn player discards down to the hand limit."""
    set_phase(d, Phase.END)
    d.signal("end_phase", None, d.turn_player)
    _end_of_turn_effects(d)
    yield from window(d)
    p = d.turn_player
    limit = d.rules.hand_limit
    hand = d.players[p].hand
    if limit is not None and len(hand) > limit:
        excess = len(hand) - limit
        options = unique_labels(d, [Option(f"card:{c.uid}", c.name, c.uid) for c in hand])
        chosen = yield d.ask(p, Kind.CARDS, options, f"Hand limit {limit}: discard {excess} card{'s' if excess > 1 else ''}",
                             lo=excess, hi=excess, verb="discard", rule="R-PHASE-7")
        for option in chosen:
            d.move(d.cards[option.card], Loc.GY, reason="hand limit")
            d.signal("discarded", d.cards[option.card], p)
        yield from window(d)  # triggers of the discards happen in this End Phase
    _expire_until_end_of_turn(d)


def _end_of_turn_effects(d: "Duel") -> None:
    """What the rules and card texts do in every End Phase: control returns (R-TERM-5),
    Swords of Revealing Light counts the opponent's turns (R-CARD-13)."""
    for side in d.players:
        for card in list(side.mzone):
            if card is not None and card.original_controller is not None and card.control_until == d.turn:
                d.return_control(card)
    for side in d.players:
        for card in side.szone:
            if card is not None and card.face_up and card.turns_left and card.controller != d.turn_player:
                card.turns_left -= 1
                if card.turns_left == 0:
                    d.destroy([card], by="effect", reason="its turns are over")


def _expire_until_end_of_turn(d: "Duel") -> None:
    if d.floating:
        kept = [f for f in d.floating if f[2] > d.turn]
        d.continuous_count -= len(d.floating) - len(kept)
        d.floating = kept
    for side in d.players:
        for card in (*side.mzone, *side.szone):  # (Pendulum Scales change in the Spell & Trap Zones)
            if card is not None and card.modifiers:
                card.modifiers = [m for m in card.modifiers if m.until != "end_of_turn"
                                  and not (m.until in ("opponent_turns", "your_turns") and m.expires <= d.turn)]


# ---------------------------------------------------------------------- priority


def window(d: "Duel", first: int | None = None, passes: int = 0, stop_after_chain: bool = False,
           triggers: bool = True) -> Flow | tuple[()]:
    """R-PRIO-1/2: players may act, `first` (default: the turn player) first, until both pass
    in succession. `yield from window(…)` gives True if anything was activated.

    Triggers waiting from what just happened form a chain first (R-PRIO-5), unless
    `triggers` is False (inside a Summon's negation window and early Damage Step sub-steps).
    A player with nothing to activate passes by themselves unless their prompt mode is
    "always" (hot-seat privacy: then every window asks, so a prompt reveals nothing). When no
    card in the duel could ever respond and nobody asked for "always", the window is skipped
    without building a generator (`yield from ()` gives None).
    """
    if not d.responders and "always" not in d.prompt_modes:
        return ()
    return _window(d, d.turn_player if first is None else first, passes, stop_after_chain, triggers)


def _window(d: "Duel", p: int, passes: int, stop_after_chain: bool, triggers: bool) -> Flow:
    acted = False
    if d.forcers:
        enforce_positions(d)
    if triggers:
        if d.signals:
            yield from process_triggers(d)
            check_card_wins(d)
        else:
            d.last_signals = []  # nothing new happened: "when …" conditions refer to the last action only
    while passes < 2:
        options = activation_options(d, p, open_state=False)
        if options or d.prompt_modes[p] == "always":
            choice = yield d.ask(p, Kind.CHAIN, (*options, PASS), window_prompt(d))
            if choice.key == "refresh":
                continue
            if choice.key != "pass":
                acted = True
                yield from start_chain(d, p, choice)
                if stop_after_chain:
                    yield from after_chain(d)
                    return True
                passes, p = 0, d.turn_player  # R-PRIO-1: after a chain the turn player acts first
                continue
        passes += 1
        p = 1 - p
    d.last_signals = []  # both passed: what happened is no longer "the last thing" (R-CHAIN-10)
    return acted


def start_chain(d: "Duel", p: int, choice: Option) -> Flow:
    card = d.cards[choice.card]
    index = int(choice.key.rsplit(":", 1)[1])
    d.batch += 1
    yield from activate(d, p, card, index)
    yield from run_chain(d)
    check_card_wins(d)


def after_chain(d: "Duel") -> Flow:
    """R-CHAIN-9, R-PRIO-1: what happened while a chain resolved (a Special Summon by Monster
    Reborn, Tokens, a Fusion Summon) is then the last thing that happened, so the turn player and
    then the opponent may start a chain answering it (Bottomless Trap Hole, Torrential Tribute).
    Windows inside a window loop get this from the loop itself; an activation from an open game
    state, or one that ends a "before the phase ends" window, needs it here. The window opens
    only when some card of the duel answers such an event, and then in every prompt mode alike."""
    if d.outcome is None and any(answerable(d, s) for s in d.last_signals):
        yield from window(d, triggers=False)
    d.last_signals = []


def check_card_wins(d: "Duel") -> None:
    """R-WIN-3: "you win" texts are checked before a new chain starts: all of Exodia in hand,
    Destiny Board and the four Spirit Messages face-up on your field."""
    if not d.responders:
        return
    winners: dict[int, str] = {}
    for p, side in enumerate(d.players):
        on_field = [c for c in side.szone if c is not None and c.face_up]
        for zone, cards in (("hand", side.hand), ("field", on_field)):
            names = {c.data.deck_name for c in cards}
            for card in cards:
                for effect in card.effects:
                    if effect.kind == "win" and effect.win_zone == zone and effect.win_when and set(effect.win_when) <= names:
                        winners[p] = f"all the cards {card.name}'s text names are {'in hand' if zone == 'hand' else 'on the field'} (R-WIN-3)"
    if len(winners) == 2:
        d.lose([0, 1], "card", "both players met a win condition at once (R-WIN-4)")
    for p, why in winners.items():
        d.win(p, "card", why)
        break


def window_prompt(d: "Duel") -> str:
    where = d.step.title if d.step else d.phase.title
    return f"{where}: respond or pass"


# ---------------------------------------------------------------------- main phase


def main_phase(d: "Duel", phase: Phase) -> Flow:
    """R-PHASE-4/6: the turn player acts in an open game state until they move on."""
    set_phase(d, phase)
    p = d.turn_player
    if d.signals:
        yield from window(d)
    while True:
        d.idle = True
        options = main_options(d, p)
        if d.responders:
            moves_on = next(i for i, o in enumerate(options) if o.verb in ("battle", "end"))
            options[moves_on:moves_on] = activation_options(d, p, open_state=True)
        choice = yield d.ask(p, Kind.COMMAND, options, f"{phase.title}: your move")
        d.idle = False
        if choice.key == "refresh":
            continue
        verb = choice.verb
        if verb in ("battle", "end"):
            # R-PRIO-2: announcing the end of the phase is a pass; the opponent may act before it ends.
            if (yield from window(d, first=1 - p, passes=1, stop_after_chain=True)):
                continue
            return verb
        if verb == "pendulum":
            from .pendulum import summon as pendulum_summon

            yield from pendulum_summon(d, p)
            continue
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
        elif verb == "gemini":
            yield from gemini_summon(d, p, card)
        elif verb == "switch":
            change_position(d, card)
            if d.signals:  # triggers of the change (Dream Clown)
                yield from window(d)
        elif verb == "activate":
            yield from start_chain(d, p, choice)
            yield from after_chain(d)  # then the turn player is back in an open game state (R-PRIO-1)
        elif verb == "special":
            from .summons import procedure_summon

            yield from procedure_summon(d, p, card, int(choice.key.rsplit(":", 1)[1]))
        elif verb in ("synchro", "xyz", "link"):
            from .extra_summons import extra_summon

            yield from extra_summon(d, p, card)


def normal_summon(d: "Duel", p: int, card: CardInst, setting: bool) -> Flow:
    """R-SUMMON-1…3 and R-SUMMON-19: Tributes on declaration, then the negation window."""
    side = d.players[p]
    side.normal_summon_turn = d.turn  # counts even if the Summon is negated (R-SUMMON-19)
    need, most, monsters = tribute_terms(d, p, card)
    card.tributes_used = 0
    if need:
        options = unique_labels(d, [Option(f"card:{c.uid}", c.name if c.face_up or c.controller == p else "face-down monster", c.uid)
                                    for c in monsters])
        doubles = d.continuous_count and any(tribute_value(d, c, card) > 1 for c in monsters)
        many = f"{need}" if most == need else f"{need} or {most}" if most == need + 1 else f"{need} to {most}"
        prompt = f"Tribute {many} monster{'s' if most > 1 else ''} for {card.name}"
        most = min(most, len(monsters))
        lo = 1 if doubles else need

        def check(chosen: tuple[Option, ...]) -> Refusal | None:
            return tribute_refusal(d, p, card, [d.cards[o.card] for o in chosen], need)  # type: ignore[index]

        fits = tuple(frozenset(f"card:{c.uid}" for c in s) for n in range(lo, most + 1) for s in combinations(monsters, n)
                     if tribute_refusal(d, p, card, list(s), need) is None)
        d.selection_check = check
        try:
            chosen = yield d.ask(p, Kind.CARDS, options, prompt, lo=lo, hi=most, verb="tribute", sets=fits)
        finally:
            d.selection_check = None
        d.batch += 1
        card.tributes_used = len(chosen)
        for option in chosen:
            d.move(d.cards[option.card], Loc.GY, reason="tribute")  # R-SUMMON-3: not destroyed
    zone = side.free_mzone()
    assert zone is not None
    if setting:
        side.monster_set_turn = d.turn
        d.move(card, Loc.MZONE, seq=zone, face_up=False, pos=Pos.FACEDOWN_DEFENSE, quiet=True)
        d.emit(SetCard(p, card.uid, card.name, Loc.MZONE, zone))
        return
    yield from summon_with_negation_window(d, p, card, zone, Pos.ATTACK, "tribute" if need else "normal", properly=True)


def tribute_refusal(d: "Duel", p: int, card: CardInst, tributes: list[CardInst], need: int) -> Refusal | None:
    """Why these Tributes cannot Summon `card` (None if they can): worth too little (R-SUMMON-2),
    or none of them frees the Main Monster Zone it needs (R-ZONE-1: an EMZ monster frees an EMZ)."""
    if sum(tribute_value(d, c, card) for c in tributes) < need:
        return Refusal(NORMAL_SUMMON, "R-SUMMON-2", f"those are worth fewer than {need} Tributes for {card.name}")
    if d.players[p].free_mzone() is None and not any(c.seq < 5 for c in tributes):
        return Refusal(NORMAL_SUMMON, "R-ZONE-1", "all 5 Main Monster Zones are occupied: Tribute at least 1 monster from one")
    return None


def summon_with_negation_window(d: "Duel", p: int, card: CardInst, zone: int | None, pos: Pos, how: str, *, properly: bool) -> Flow:
    """Place a Summoned monster, open the summon-negation window (R-SUMMON-19), and if the
    Summon succeeds, let "when Summoned" triggers and the new-chain window follow (R-CHAIN-8)."""
    yield from summon_together(d, p, [(card, zone, pos)], how, properly=properly)


def summon_together(d: "Duel", p: int, placed: list[tuple[CardInst, int | None, Pos]], how: str, *, properly: bool) -> Flow:
    """One Summon of one or more monsters (a Pendulum Summon: R-SUMMON-20, one event and one
    trigger moment): place them, open the negation window, then their triggers."""
    cards = [card for card, _, _ in placed]
    origins = {card.uid: card.loc for card, zone, _ in placed if zone is not None}  # (a Flip Summon starts on the field)
    for card, zone, pos in placed:
        if zone is not None:
            d.move(card, Loc.MZONE, seq=zone, face_up=True, pos=pos, quiet=True)
        card.summon_kind = how
        card.summon_turn = d.turn
        if properly:
            card.properly_summoned = True
        if how == "flip":
            card.flipped_turn = d.turn  # (a Spirit returns in this End Phase)
        d.emit(Summon(p, card.uid, card.name, how, pos, card.seq))
    d.players[p].summoned_turn = d.turn
    d.summoning, d.summon_negated, d.summoned_from = tuple(cards), False, origins
    try:
        yield from window(d, triggers=False)
    finally:
        d.summoning, d.summoned_from = (), {}
    if d.summon_negated:
        d.summon_negated = False
        d.send_to_gy([c for c in cards if c.loc == Loc.MZONE], reason="its Summon was negated", as_from=origins)
        yield from window(d)
        return
    d.batch += 1
    event = _SUMMON_EVENT.get(how, "special_summoned")
    for card in cards:
        if card.loc == Loc.MZONE:
            d.signal(event, card, p, how=how)
            if how == "flip":
                d.signal("flipped", card, p)
    yield from window(d)


_SUMMON_EVENT = {"normal": "normal_summoned", "tribute": "normal_summoned", "gemini": "normal_summoned", "flip": "flip_summoned"}


def gemini_summon(d: "Duel", p: int, card: CardInst) -> Flow:
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
    yield from window(d)


def flip_summon(d: "Duel", p: int, card: CardInst) -> Flow:
    """R-SUMMON-4: face-down Defense → face-up Attack; it counts as the turn's position change."""
    card.pos = Pos.ATTACK
    card.face_up = True
    card.pos_changed_turn = d.turn
    yield from summon_with_negation_window(d, p, card, None, Pos.ATTACK, "flip", properly=False)


def change_position(d: "Duel", card: CardInst) -> None:
    """R-SUMMON-5: face-up Attack ↔ face-up Defense, once per turn."""
    d.set_position(card, "toggle")
    card.pos_changed_turn = d.turn


def set_spell_trap(d: "Duel", p: int, card: CardInst) -> None:
    """R-ZONE-2/3: Set face-down; a Field Spell replaces the old one, which goes to the GY."""
    zone = d.spell_zone_for(p, card)
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
        options = battle_options(d, p)
        if d.responders:
            options[-1:-1] = activation_options(d, p, open_state=True)
        choice = yield d.ask(p, Kind.BATTLE, options, "Battle Step: attack or end the Battle Phase")
        d.idle = False
        if choice.key == "refresh":
            continue
        if choice.verb == "main2":
            if (yield from window(d, first=1 - p, passes=1, stop_after_chain=True)):
                continue
            break
        if choice.verb == "activate":
            yield from start_chain(d, p, choice)
            yield from after_chain(d)
            continue
        target = d.cards[choice.target] if choice.target is not None else None
        yield from attack(d, p, d.cards[choice.card], target)
        if d.end_battle:  # Negate Attack: "… then end the Battle Phase"
            d.end_battle = False
            break
    set_step(d, Step.END)
    d.batch += 1
    d.signal("battle_phase_end", None, p)
    yield from window(d)


def attack(d: "Duel", p: int, attacker: CardInst, target: CardInst | None) -> Flow:
    """R-BATTLE-1…3: declare, let players respond, replay if the opponent's monsters changed."""
    foe = 1 - p
    attacker.attacks += 1  # a negated or replayed attack still uses it (R-BATTLE-1/3)
    attacker.attacked_turn = d.turn
    d.batch += 1
    if attacker.attack_costs and not effects_negated(d, attacker):  # paid as it declares: no response comes first
        from .ops import pay_unchained_cost

        for index in attacker.attack_costs:
            yield from pay_unchained_cost(d, p, attacker, index)
    d.emit(Attack(p, attacker.uid, attacker.name, target.uid if target else None,
                  target.name if target is not None and target.face_up else None))
    state = AttackState(attacker, target, _foes(d, foe), moves=(attacker.moves, target.moves if target else 0))
    d.attack = state
    d.signal("attack_declared", attacker, p)
    try:
        yield from window(d)  # R-CHAIN-8: the new-chain window after an attack declaration
        while True:
            if state.negated:
                d.emit(AttackStopped(attacker.uid, attacker.name, "the attack was negated"))
                return
            if attacker.loc != Loc.MZONE or attacker.moves != state.moves[0] or attacker.controller != p \
                    or not in_attacking_position(d, attacker):
                d.emit(AttackStopped(attacker.uid, attacker.name, "the attacker is no longer able to attack"))
                return
            now = _foes(d, foe)
            if now == state.foes:
                break
            # R-BATTLE-3: replay. Re-choosing is not a new declaration.
            d.emit(Replay(attacker.uid, attacker.name))
            targets = attack_targets(d, p)
            options = [attack_option(d, attacker, t) for t in targets]
            if None not in targets and d.continuous_count:
                if has_flag(d, attacker, "direct_attack"):
                    options.append(attack_option(d, attacker, None))
            options.append(STOP)
            choice = yield d.ask(p, Kind.BATTLE, unique_labels(d, options), f"Replay: choose a new target for {attacker.name} or stop")
            if choice.verb == "stop":
                d.emit(AttackStopped(attacker.uid, attacker.name, "the attack was stopped after a replay"))
                return
            state.target = target = d.cards[choice.target] if choice.target is not None else None
            state.foes = now
            state.moves = (attacker.moves, target.moves if target else 0)
        yield from damage_step(d, p, state)
    finally:
        d.attack = None


def _foes(d: "Duel", foe: int) -> frozenset[tuple[int, int]]:
    return frozenset((c.uid, c.moves) for c in d.players[foe].mzone if c is not None)


def damage_step(d: "Duel", p: int, state: AttackState) -> Flow:
    """R-BATTLE-4 sub-steps, with R-BATTLE-5 (face-down targets) and the tables of R-BATTLE-7…9."""
    foe = 1 - p
    attacker, target = state.attacker, state.target
    set_step(d, Step.DAMAGE_START)
    yield from window(d, triggers=False)
    if _battle_over(d, p, state):
        return
    set_step(d, Step.BEFORE_DAMAGE)
    if target is not None and not target.face_up:
        target.face_up = True
        target.pos = Pos.ATTACK if target.pos == Pos.FACEDOWN_ATTACK else Pos.DEFENSE
        target.flipped_turn = d.turn
        d.emit(Flip(target.uid, target.name, target.pos))
        d.signal("flipped", target, target.controller)  # its FLIP activates after damage calculation
    yield from window(d, triggers=False)
    if _battle_over(d, p, state):
        return
    set_step(d, Step.DAMAGE_CALC)
    yield from window(d, triggers=False)
    if _battle_over(d, p, state):
        return
    d.batch += 1  # battle damage and "battled" are one moment: after damage calculation (R-BATTLE-4)
    _damage_calculation(d, p, foe, state)
    for card in (attacker, target):  # "during that damage calculation only" (Injection Fairy Lily)
        if card is not None and card.modifiers:
            card.modifiers = [m for m in card.modifiers if m.until != "damage_calculation"]
    set_step(d, Step.AFTER_DAMAGE)
    for card in (attacker, target):
        if card is not None and card.loc == Loc.MZONE:
            d.signal("battled", card, card.controller)
    yield from window(d)
    set_step(d, Step.DAMAGE_END)
    d.batch += 1
    destroyed = [c for c in (attacker, target) if c is not None and c.battle_destroyed and c.loc == Loc.MZONE]
    if d.continuous_count:
        for card in list(destroyed):
            substitute = equip_takes_battle_destruction(d, card)  # Relinquished
            if substitute is not None:
                destroyed.remove(card)
                card.battle_destroyed = False
                d.destroy([substitute], by="effect", source=card, reason=f"destroyed instead of {card.name}")
    d.destroy(destroyed, by="battle")
    yield from window(d)


def _battle_over(d: "Duel", p: int, state: AttackState) -> bool:
    """The attack ends early if it was negated or a monster of the battle left the field."""
    if state.negated:
        d.emit(AttackStopped(state.attacker.uid, state.attacker.name, "the attack was negated"))
        return True
    if state.attacker.loc != Loc.MZONE or state.attacker.moves != state.moves[0] or state.attacker.controller != p:
        d.emit(AttackStopped(state.attacker.uid, state.attacker.name, "the attacker left the field"))
        return True
    if state.target is not None and (state.target.loc != Loc.MZONE or state.target.moves != state.moves[1]
                                     or state.target.controller == p):
        d.emit(AttackStopped(state.attacker.uid, state.attacker.name, "the attack target left the field"))
        return True
    return False


def _damage_calculation(d: "Duel", p: int, foe: int, state: AttackState) -> None:
    attacker, target = state.attacker, state.target
    x = attacker.atk
    damage: dict[int, int] = {}
    if target is None:
        d.emit(DamageCalc(attacker.uid, None, x, None, None))
        if x > 0:  # R-BATTLE-9: 0 ATK inflicts no damage
            damage[foe] = x
    else:
        pos = target.pos
        if pos.is_attack:
            y = target.atk
            d.emit(DamageCalc(attacker.uid, target.uid, x, y, pos))
            if x > y:
                _mark(d, target)
                damage[foe] = x - y
            elif x == y:
                if x > 0:  # R-BATTLE-7: 0 vs 0 destroys nothing
                    _mark(d, attacker)
                    _mark(d, target)
            else:
                _mark(d, attacker)
                damage[p] = y - x
        else:
            df = target.defense
            d.emit(DamageCalc(attacker.uid, target.uid, x, df, pos))
            if x > df:
                _mark(d, target)  # R-BATTLE-8: no damage …
                if has_flag(d, attacker, "piercing"):  # … unless an effect grants piercing (R-BATTLE-12)
                    damage[foe] = x - df
            elif x < df:
                damage[p] = df - x
    damage = {who: amount for who, amount in damage.items()
              if who not in state.no_damage and d.players[who].no_battle_damage_turn != d.turn}
    if damage and d.continuous_count:
        for card in (attacker, target):  # Dark Flare Knight: its controller takes no battle damage from its battles
            if card is not None and card.controller in damage and has_flag(d, card, "no_battle_damage"):
                del damage[card.controller]
        for card in (attacker, target):  # Relinquished: the damage its controller takes is also the opponent's
            if card is not None and damage.get(card.controller) and has_flag(d, card, "shares_battle_damage"):
                other = 1 - card.controller
                damage[other] = damage.get(other, 0) + damage[card.controller]
    if damage:
        if target is None and d.continuous_count and has_flag(d, attacker, "wins_match"):
            d.match_claim = p  # Victory Dragon
        try:
            d.change_lps({who: -amount for who, amount in damage.items()}, "battle")
        finally:
            d.match_claim = None
        for who in damage:
            dealer = attacker if who == foe else target
            d.signal("battle_damage", dealer, who)


def _mark(d: "Duel", card: CardInst) -> None:
    if not has_flag(d, card, "cannot_be_destroyed_by_battle") and d.players[card.controller].battle_immune_turn != d.turn:
        card.battle_destroyed = True

