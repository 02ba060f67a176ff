"""How good a duel position is for one player: the AI's evaluation at the end of a rollout.

It reads a determinized world (`Observation.world`), which holds the player's knowledge and a
guess at the rest. Terms (`features`), in LP-like units of 1000: life points, monsters on the
field (their fighting strength; attackers more than walls), cards in hand, Set cards by what they
can still do, and a bonus for being able to attack for game. How much each kind is worth against
the others was fitted to who goes on to win (`WEIGHTS`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine import Pos

if TYPE_CHECKING:
    from ..engine import Duel

WIN = 100.0  # a won duel, beyond any position


def evaluate(d: "Duel", me: int) -> float:
    """The position's value for player `me` (positive: better for them)."""
    if d.outcome is not None:
        winner = d.outcome.winner
        return 0.0 if winner is None else WIN if winner == me else -WIN
    return sum(w * f for w, f in zip(WEIGHTS, features(d, me)))


# What each term of `features` is worth. Set by hand first (1.2, -1.0, 1.0, 0.9, 0.8, 0.7, 0.9, 0.7,
# 0.2, 0.3, -0.5, 3.0); the groups' multipliers since fitted to who wins (devtools/fit_evaluation.py:
# `python -m ygoterm.devtools.fit_evaluation --duels 10000 --seed 1`, 127276 positions): monsters
# × 2.84, hand × 2.15, Spells & Traps × 7.10, an open lethal attack × 3.06 against life points.
WEIGHTS = (1.2, -1.0, 2.84, 2.56, 2.28, 1.99, 1.93, 4.97, 1.42, 2.13, -0.5, 9.17)


def features(d: "Duel", me: int) -> list[float]:
    """The evaluation's terms, `me`'s side minus the opponent's (see `_terms`)."""
    mine, theirs = _terms(d, me), _terms(d, 1 - me)
    return [a - b for a, b in zip(mine, theirs)]


def _terms(d: "Duel", p: int) -> tuple[float, ...]:
    """One side's terms: LP (thousands, up to 8000), how far below 2000 they are, monsters in
    Attack Position (how many, their ATK) and in Defense Position (how many, their better stat),
    cards in hand, Set answers (Traps, Quick-Play Spells), other Set Spells, face-up Spells and
    Traps, how far the Deck is below 5 cards, and whether the opponent is open to a
    game-winning attack."""
    side, foe = d.players[p], d.players[1 - p]
    attackers = attack = walls = wall = 0.0
    for card in side.mzone:
        if card is None:
            continue
        if card.pos == Pos.ATTACK:  # (a monster that can attack is worth more than one that only walls)
            attackers += 1
            attack += card.atk
        else:
            walls += 1
            wall += max(card.atk, card.defense)
    answers = others = face_up = 0
    for card in side.szone:
        if card is None:
            continue
        if card.face_up:
            face_up += 1
        elif card.is_trap or getattr(card.data, "subtype", "") == "quick-play":
            answers += 1  # a Set Trap or Quick-Play Spell waits to answer
        else:
            others += 1  # a Set Normal Spell is worth less than in the hand
    lethal = not any(c is not None for c in foe.mzone) and attack >= foe.lp > 0
    return (min(side.lp, 8000) / 1000, max(0, 2000 - side.lp) / 1000, attackers, attack / 1000, walls, wall / 1000,
            len(side.hand), answers, others, face_up, max(0, 5 - len(side.deck)), float(lethal))
