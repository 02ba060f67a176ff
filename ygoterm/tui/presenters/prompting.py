"""When a response window is worth asking a person: the Auto response-prompt setting.

The engine asks a player in every response window where they could activate something (its
"auto" prompt mode). Holding one card that can always be activated — a Set Castle Walls, a
Mystical Space Typhoon — that is every phase and step of every turn: 15 prompts in one turn
of the AI's. Like Master Duel's "Auto" chain setting and EDOPro's chain toggle, Auto asks only
where a response could change what is happening now: an activation to answer (a chain is
open), a Summon being declared, an attack declared, a card of yours whose own condition names
an event ("When …:", an activation condition), something that happened since you were last
asked (a Summon, a card destroyed, damage), the moment before damage calculation for the
attacker, and the opponent's End Phase — the last moment of their turn. Phase and step changes
alone, and the other sub-steps of the Damage Step, pass by themselves.
Which windows ask depends on the duel's public events and on the player's own cards only, so
it tells nothing to the opponent that the engine's own "auto" mode would not.

Hot-seat keeps "Always" (every window asks both players, whatever they hold, so a prompt
reveals nothing), and its one shared question to the table follows the same idea from public
information only: asked where something happened and in each End Phase (the Settings can make
it ask at every window again).
"""

from __future__ import annotations

from ...engine import CoinToss, Decision, Draw, Duel, Kind, Note, Phase, PhaseChange, SetCard, Shuffle, Step, TurnOrder, TurnStart

# what happens without being worth a response prompt by itself (the next one asks)
QUIET = (CoinToss, TurnOrder, TurnStart, PhaseChange, Draw, Shuffle, SetCard, Note)


def worth_asking(duel: Duel, decision: Decision, since: int, *, public: bool = False) -> bool:
    """Whether Auto asks `decision` (a response window of a human) rather than passing it;
    `since`: the log's length when this player's last response window was asked or passed.

    `public`: the hot-seat table's shared "Anyone responding?" — decided from public
    information only (not the player's cards: the question must reveal nothing), and asked in
    every End Phase, whoever the engine asks first."""
    if decision.kind != Kind.CHAIN:
        return True
    if duel.chain or duel.summoning:
        return True  # an activation to answer, a Summon being declared
    if duel.attack is not None:
        if not duel.step.in_damage_step:
            return True  # the attack's declaration
        if duel.step != Step.BEFORE_DAMAGE:
            return False
        # the last moment before damage: the attacker's (an ATK boost played where only Damage
        # Step cards can answer it), the defender's only if something happened since the declaration
        return public or decision.player == duel.turn_player or _happened(duel, since)
    if not public and any(_names_an_event(duel, o.card, o.effect) for o in decision.options if o.verb == "activate"):
        return True
    if duel.phase == Phase.END and (public or duel.turn_player != decision.player):
        return True
    return _happened(duel, since)


def _happened(duel: Duel, since: int) -> bool:
    """Whether something other than phases, steps, draws and Sets happened since log entry `since`."""
    return any(not isinstance(e, QUIET) for e in duel.log[since:])


def _names_an_event(duel: Duel, uid: int | None, effect: int | None) -> bool:
    """An activation whose card's own condition is an event ("When …:"): it is offered because
    that event just happened."""
    if uid is None or effect is None:
        return False
    effects = duel.cards[uid].effects
    return 0 <= effect < len(effects) and effects[effect].when is not None
