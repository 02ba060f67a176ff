"""Playing an opening turn to dig for combo pieces (the deck lab's `ygoterm odds --sim`).

`Opener` plays the open game state of its first turn only for what reaches more cards: it
activates what draws, adds from the Deck to the hand, looks at or excavates the Deck, or mills,
and Normal Summons a monster whose own effect does so; every other question (costs, discards,
targets of those cards, chain windows) goes to the careful `Heuristic`. When nothing digs it ends
the turn. `Passer` is the opponent that lets it: it ends its turns and passes every window.
Both read only their `Observation`, like every agent; what cards do comes from the effect
vocabulary, never from per-card code.
"""

from __future__ import annotations

from ..engine import Decision, Kind, Option
from ..schema.cards import Monster
from ..schema.effects import Effect
from .board import option_effect
from .observation import Answer, Observation
from .policy import Heuristic
from .reading import operations

DIG = {"draw": 3.0, "add_to_hand": 2.5, "excavate": 2.0, "reveal_until": 2.0, "look": 1.0, "mill": 0.5}


def digs(effect: Effect) -> float:
    """How much an effect reaches into the Deck (0: not at all)."""
    return max((DIG.get(spec.op, 0.0) for spec in operations(effect.do)), default=0.0)


class Opener:
    """Activate what digs, summon a monster that digs, then end the turn."""

    def __init__(self, seed: int = 0) -> None:
        self.policy = Heuristic(seed, careful=True)

    def choose(self, obs: Observation, decision: Decision) -> Answer:
        d = decision
        if d.kind == Kind.COMMAND:
            return self.command(obs, d)
        if d.kind == Kind.CHAIN:
            return d.option("pass") or self.policy.choose(obs, d)
        return self.policy.choose(obs, d)

    def command(self, obs: Observation, d: Decision) -> Option:
        best, best_score = None, 0.0
        for option in d.options:
            score = self.value(obs, option)
            if score > best_score:
                best, best_score = option, score
        return best or d.option("end") or d.option("main2") or d.options[-1]

    def value(self, obs: Observation, option: Option) -> float:
        if option.verb == "activate":
            effect = option_effect(obs, option)
            return digs(effect) if effect is not None else 0.0
        if option.verb == "summon":
            data = obs.definition(option.card)
            if isinstance(data, Monster):
                return max((digs(e) for e in data.effects if e.kind in ("trigger", "ignition")), default=0.0) * 0.5
        return 0.0


class Passer:
    """The opponent of an opening: does nothing, so the opening is the deck's alone."""

    def choose(self, obs: Observation | None, decision: Decision) -> Answer:
        d = decision
        for key in ("pass", "end", "main2", "no"):
            found = d.option(key)
            if found is not None:
                return found
        if d.kind == Kind.FIRST:
            return d.option("first") or d.options[0]
        if d.kind == Kind.ORDER:
            return list(d.options)
        if d.multi or d.kind == Kind.CARDS:
            return list(d.options[: max(d.min, 1)])
        return d.options[0]
