"""How good a duel position is for one player: the AI's evaluation at the end of a rollout.

It reads a determinized world (`Observation.world`), which holds the player's knowledge and a
guess at the rest. Terms, in LP-like units of 1000: life points, monsters on the field (their
fighting strength; attackers more than walls), cards in hand, Set cards by what they can still
do, and a bonus for being able to attack for game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.types import Pos

if TYPE_CHECKING:
    from ..engine.card import CardInst
    from ..engine.duel import Duel

WIN = 100.0  # a won duel, beyond any position


def evaluate(d: "Duel", me: int) -> float:
    """The position's value for player `me` (positive: better for them)."""
    if d.outcome is not None:
        winner = d.outcome.winner
        return 0.0 if winner is None else WIN if winner == me else -WIN
    return _side(d, me) - _side(d, 1 - me)


def _side(d: "Duel", p: int) -> float:
    side, foe = d.players[p], d.players[1 - p]
    value = min(side.lp, 8000) / 1000 * 1.2
    if side.lp <= 2000:
        value -= (2000 - side.lp) / 1000  # low LP is worth less than its number says
    attack = 0
    for card in side.mzone:
        if card is None:
            continue
        atk, deff = card.atk, card.defense
        if card.pos == Pos.ATTACK:  # (a monster that can attack is worth more than one that only walls)
            value += 1.0 + atk / 1000 * 0.9
            attack += atk
        else:
            value += 0.8 + max(atk, deff) / 1000 * 0.7
    foe_monsters = any(c is not None for c in foe.mzone)
    if not foe_monsters and attack >= foe.lp > 0:
        value += 3.0  # the opponent is open to a game-winning attack
    value += 0.9 * len(side.hand)
    value += sum(_backrow(card) for card in side.szone if card is not None)
    if len(side.deck) < 5:
        value -= (5 - len(side.deck)) * 0.5
    return value


def _backrow(card: "CardInst") -> float:
    """A card in a Spell & Trap Zone: a Set Trap or Quick-Play Spell waits to answer; a Set
    Normal Spell is worth less than in the hand; a face-up card applies (its effect counts
    elsewhere, as ATK or protection)."""
    if card.face_up:
        return 0.3
    if card.is_trap or getattr(card.data, "subtype", "") == "quick-play":
        return 0.7
    return 0.2
