"""Typed events: one small value per change of state, appended to `Duel.log`.

An event that carries private information names the one player allowed to see it
(`private`); `for_player` gives everyone else a copy with the secret parts removed, so that
`Duel.events_for(player)` never leaks a hidden card (DESIGN.md §2).

Events are values: nothing changes one after it is logged. (They are not frozen dataclasses
only because a duel creates hundreds and frozen ones cost twice as much to build.)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .decision import EndReason
from .types import DestroyedBy, Loc, LpChangeKind, Phase, Pos, Reason, Step, SummonKind

Names = tuple[str, str]


@dataclass(slots=True)
class Event:
    def for_player(self, player: int) -> "Event":
        """This event as `player` may see it."""
        return self

    def text(self, names: Names) -> str:
        return type(self).__name__


def _card(name: str | None) -> str:
    return name if name is not None else "a card"


@dataclass(slots=True)
class Note(Event):
    """A line for the log; `secret` is shown only to `private_to` (a peek at the Deck …)."""

    message: str
    private_to: int | None = None
    secret: str | None = None

    def for_player(self, player: int) -> Event:
        return self if self.private_to is None or self.private_to == player else replace(self, secret=None)

    def text(self, names: Names) -> str:
        return self.message + (f": {self.secret}" if self.secret else "")


@dataclass(slots=True)
class ChainLinkAdded(Event):
    """An activation: a new link on the chain (R-CHAIN-1)."""

    number: int
    player: int
    card: int
    name: str
    speed: int
    targets: tuple[int, ...] = ()
    target_names: tuple[str | None, ...] = ()

    def text(self, names: Names) -> str:
        aim = ""
        if self.targets:
            aim = " targeting " + ", ".join(n or "a face-down card" for n in self.target_names)
        return f"{names[self.player]} activates {self.name} (Chain Link {self.number}, speed {self.speed}){aim}"


@dataclass(slots=True)
class ChainResolves(Event):
    number: int
    player: int
    card: int
    name: str

    def text(self, names: Names) -> str:
        return f"Chain Link {self.number} resolves: {self.name}"


@dataclass(slots=True)
class Negated(Event):
    card: int
    name: str
    what: str  # "activation", "effect", "summon", "attack"

    def text(self, names: Names) -> str:
        return {"activation": f"The activation of {self.name} is negated", "effect": f"{self.name}'s effect is negated",
                "summon": f"The Summon of {self.name} is negated", "attack": f"{self.name}'s attack is negated"}[self.what]


@dataclass(slots=True)
class CoinToss(Event):
    winner: int

    def text(self, names: Names) -> str:
        return f"Coin toss: {names[self.winner]} wins and chooses (R-SETUP-3)"


@dataclass(slots=True)
class TurnOrder(Event):
    first: int

    def text(self, names: Names) -> str:
        return f"{names[self.first]} goes first"


@dataclass(slots=True)
class Shuffle(Event):
    player: int
    loc: Loc = Loc.DECK

    def text(self, names: Names) -> str:
        return f"{names[self.player]} shuffled their {self.loc.title}"


@dataclass(slots=True)
class Draw(Event):
    player: int
    cards: tuple[int, ...]
    names: tuple[str, ...] | None  # None when hidden

    def for_player(self, player: int) -> Event:
        return self if player == self.player else replace(self, names=None)

    def text(self, names: Names) -> str:
        n = len(self.cards)
        what = ", ".join(self.names) if self.names is not None else f"{n} card{'s' if n != 1 else ''}"
        return f"{names[self.player]} drew {what}"


@dataclass(slots=True)
class TurnStart(Event):
    turn: int
    player: int

    def text(self, names: Names) -> str:
        return f"— Turn {self.turn}: {names[self.player]} —"


@dataclass(slots=True)
class PhaseChange(Event):
    turn: int
    player: int
    phase: Phase
    step: Step = Step.NONE

    def text(self, names: Names) -> str:
        return f"{self.phase.title}" + (f": {self.step.title}" if self.step else "")


@dataclass(slots=True)
class Move(Event):
    """A card went from one location to another (the general event under every other)."""

    card: int
    name: str | None
    owner: int
    controller: int
    src: Loc
    dst: Loc
    dst_seq: int
    face_up: bool
    reason: Reason | str  # a Reason the rules read, or a text that explains the move
    private: int | None = None  # only this player sees the name
    tributer: int | None = None  # who Tributed it, when not its controller (Soul Exchange: the Summoning player, R-TERM-3)

    def for_player(self, player: int) -> Event:
        if self.private is None or self.private == player:
            return self
        return replace(self, name=None)

    def text(self, names: Names) -> str:
        if self.reason == Reason.DISCARD or self.reason == Reason.HAND_LIMIT:
            why = " (hand limit, R-PHASE-7)" if self.reason == Reason.HAND_LIMIT else ""
            return f"{names[self.owner]} discarded {_card(self.name)}{why}"
        if self.reason == Reason.TRIBUTE:
            return f"{names[self.controller if self.tributer is None else self.tributer]} Tributed {_card(self.name)}"
        if self.dst == Loc.GY and self.reason == Reason.BATTLE:
            return f"{_card(self.name)} ({names[self.owner]}) was destroyed by battle"
        if self.dst == Loc.GONE:  # (a Token leaving the field, R-CARD-11: wherever it was sent)
            return f"{_card(self.name)} ({names[self.owner]}) left the {self.src.title} and ceased to exist" + (
                f" [{self.reason}]" if self.reason else "")
        return f"{_card(self.name)} ({names[self.owner]}) moved from {self.src.title} to {self.dst.title}" + (f" [{self.reason}]" if self.reason else "")


@dataclass(slots=True)
class Summon(Event):
    player: int
    card: int
    name: str | None  # None: Special Summoned face-down (Cyber Jar)
    how: SummonKind
    pos: Pos
    zone: int

    def text(self, names: Names) -> str:
        verb = {"normal": "Normal Summoned", "tribute": "Tribute Summoned", "flip": "Flip Summoned",
                "special": "Special Summoned"}.get(self.how, f"{self.how.title()} Summoned")
        return f"{names[self.player]} {verb} {self.name or 'a monster'} in {self.pos.title} Position"


@dataclass(slots=True)
class SetCard(Event):
    player: int
    card: int
    name: str | None
    loc: Loc
    zone: int

    def for_player(self, player: int) -> Event:
        return self if player == self.player else replace(self, name=None)

    def text(self, names: Names) -> str:
        where = "a monster" if self.loc == Loc.MZONE else "a Spell/Trap"
        what = f"{self.name}" if self.name else where
        return f"{names[self.player]} Set {what}" + (f" ({where.split()[1]})" if self.name else "")


@dataclass(slots=True)
class PositionChange(Event):
    card: int
    name: str | None
    old: Pos
    new: Pos

    def text(self, names: Names) -> str:
        return f"{_card(self.name)} changed to {self.new.title} Position"


@dataclass(slots=True)
class Flip(Event):
    """A face-down monster turned face-up (by an attack or an effect; not a Flip Summon)."""

    card: int
    name: str
    pos: Pos

    def text(self, names: Names) -> str:
        return f"{self.name} was flipped face-up ({self.pos.title})"


@dataclass(slots=True)
class Attack(Event):
    player: int
    attacker: int
    attacker_name: str
    target: int | None  # None: a direct attack
    target_name: str | None  # None for a face-down target

    def text(self, names: Names) -> str:
        if self.target is None:
            return f"{self.attacker_name} attacks {names[1 - self.player]} directly"
        return f"{self.attacker_name} attacks {self.target_name or 'a face-down monster'}"


@dataclass(slots=True)
class AttackStopped(Event):
    attacker: int
    attacker_name: str
    reason: str

    def text(self, names: Names) -> str:
        return f"{self.attacker_name}'s attack ends ({self.reason})"


@dataclass(slots=True)
class Replay(Event):
    """R-BATTLE-3: the opponent's monster count changed after an attack was declared."""

    attacker: int
    attacker_name: str

    def text(self, names: Names) -> str:
        return f"Replay: {self.attacker_name}'s target must be chosen again (R-BATTLE-3)"


@dataclass(slots=True)
class DamageCalc(Event):
    attacker: int
    target: int | None
    attack_value: int
    target_value: int | None  # ATK or DEF used, None for a direct attack
    target_pos: Pos | None

    def text(self, names: Names) -> str:
        if self.target is None:
            return f"Damage calculation: direct attack, {self.attack_value} damage"
        stat = "ATK" if self.target_pos and self.target_pos.is_attack else "DEF"
        return f"Damage calculation: {self.attack_value} ATK against {self.target_value} {stat}"


@dataclass(slots=True)
class LifePoints(Event):
    """An LP change. `kind`: battle (damage), effect (damage), cost, gain, loss, manual (R-TERM-18)."""

    player: int
    delta: int
    lp: int
    kind: LpChangeKind

    def text(self, names: Names) -> str:
        if self.kind in ("battle", "effect"):
            return f"{names[self.player]} takes {-self.delta} {self.kind} damage → {self.lp} LP"
        if self.kind == "cost":
            return f"{names[self.player]} pays {-self.delta} LP → {self.lp} LP"
        verb = "gains" if self.delta >= 0 else "loses"
        return f"{names[self.player]} {verb} {abs(self.delta)} LP → {self.lp} LP" + (" (manual)" if self.kind == "manual" else "")


@dataclass(slots=True)
class Destroyed(Event):
    card: int
    name: str | None
    owner: int
    by: DestroyedBy  # "battle", "effect" (a card's effect) or "rule" (the game rules, R-CARD-8)

    def text(self, names: Names) -> str:
        how = {"effect": "a card effect", "rule": "the game rules"}.get(self.by, self.by)
        return f"{_card(self.name)} ({names[self.owner]}) is destroyed by {how}"


@dataclass(slots=True)
class TimeProcedure(Event):
    """A step of the time procedure (R-TIME-2…6): `step` is "called" (time called in this duel),
    "extra_turn" (turn `n` of `of` begins), "judged" (LP compared after the last turn) or
    "sudden_death" (LP were equal: the next LP change that leaves them unequal decides)."""

    step: str
    turn: int
    n: int = 0
    of: int = 0
    message: str = ""

    def text(self, names: Names) -> str:
        return self.message


@dataclass(slots=True)
class DuelEnd(Event):
    winner: int | None
    reason: EndReason
    detail: str = ""

    def text(self, names: Names) -> str:
        if self.winner is None:
            return f"The duel is a draw ({self.detail or self.reason})"
        return f"{names[self.winner]} wins the duel by {self.reason}" + (f" ({self.detail})" if self.detail else "")
