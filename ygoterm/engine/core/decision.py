"""The decision protocol's values: what the engine asks, what may be answered, why not.

A `Decision` lists every legal `Option`; `Duel.apply` accepts exactly those (or, for a
selection, a valid combination of them). Each option has a stable `key` (for programs and
replays) and a `label` that is also a command a human can type (docs/scenarios.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Literal, NamedTuple

# What an option does, for clients that group or highlight options (the key says which card):
OptionVerb = Literal[
    "",  # a plain answer: yes/no, first/second, a card of a selection, a position …
    "summon", "set", "flip", "switch", "gemini", "special", "pendulum", "synchro", "xyz", "link",  # Summons and positions
    "activate", "attack", "pass", "stop",  # activations, attacks, passing a window, stopping a replayed attack
    "battle", "main2", "end",  # moving on to a phase
    "done", "reset", "swap",  # side-decking between a match's duels
]
# What a question is for; a selection's scenario command starts with it (docs/scenarios.md)
DecisionVerb = Literal[
    "",  # a command, a response window, first or second …
    "select", "target", "tribute", "material", "discard", "special summon", "pendulum", "fusion", "ritual",  # selections of cards
    "destroy", "send", "banish", "return", "add", "place", "set", "give",  # … an effect's, by what it does to them
    "trigger", "order", "position", "zone", "declare",  # an optional trigger, ordering triggers, a position, a zone, a declaration
]


class Kind(str, Enum):
    """Decision kinds (DESIGN.md §2)."""

    COMMAND = "command"  # open game state in the Main Phase: summon, set, activate, battle, end …
    BATTLE = "battle"  # Battle Step: declare an attack or end the Battle Phase
    CHAIN = "chain"  # a response window: activate something or pass
    CARDS = "cards"  # select min..max cards (tributes, targets, discards)
    POSITION = "position"  # choose a battle position
    ZONE = "zone"  # choose a zone
    YESNO = "yesno"
    OPTION = "option"  # choose one of several effects / texts
    DECLARE = "declare"  # declare a card name, Type, Attribute or number
    ORDER = "order"  # order simultaneous triggers (give all options in the chosen order)
    FIRST = "first"  # the coin-toss winner (R-SETUP-3) or, in a match, the last duel's loser (R-MATCH-3) chooses
    SIDE = "side"  # a match, between duels: swap a Side Deck card one for one, or done (R-MATCH-4)


class Option(NamedTuple):
    """One legal answer. `card` is the uid of the card it concerns (for UIs), if any.

    Options and Decisions are immutable NamedTuples: created for every question, they must
    be cheap (frozen dataclasses cost twice as much to build).
    """

    key: str
    label: str
    card: int | None = None
    target: int | None = None  # an attack's target (None: a direct attack, or no target)
    verb: OptionVerb = ""
    effect: int | None = None  # the index of the card's effect it activates or whose procedure it uses
    zone: int | None = None  # the zone it chooses (a ZONE decision)

    def __str__(self) -> str:
        return self.label



def effect_of(option: Option) -> int:
    """The effect index an activation's or a procedure's option carries."""
    assert option.effect is not None, f"option {option.key!r} names no effect"
    return option.effect


def zone_of(option: Option) -> int:
    """The zone a ZONE decision's option chooses."""
    assert option.zone is not None, f"option {option.key!r} names no zone"
    return option.zone


PASS = Option("pass", "pass", verb="pass")  # the answer that passes in a response window (R-PRIO-1)

class Decision(NamedTuple):
    """A question to one player. For CARDS/ORDER decisions, answer with a sequence of options."""

    player: int
    kind: Kind
    options: tuple[Option, ...]
    prompt: str
    min: int = 1
    max: int = 1
    verb: DecisionVerb = ""  # for selections: "tribute", "discard", "target" … (scenario commands start with it)
    multi: bool = False  # answered with a sequence of options (CARDS and ORDER decisions)
    # when not every choice of min..max options is legal: the legal ones, as sets of option keys
    # (materials that must fit together); agents pick among them, clients may check with them
    sets: tuple[frozenset[str], ...] = ()
    rule: str = ""  # the rule a wrong selection breaks when it is not the verb's usual one (hand limit: R-PHASE-7)
    # what the question is about, as data (the prompt says it in words): the card being Summoned,
    # positioned, Tributed or materialled for, whose effect targets or may activate …
    subject: int | None = None  # its uid
    effect: int | None = None  # the index of that card's effect the question is about, if one is

    def option(self, key: str) -> Option | None:
        for o in self.options:
            if o.key == key:
                return o
        return None


class Refusal(NamedTuple):
    """Why an action is not allowed now, with the rule that refuses it. A NamedTuple like
    Option: the option lists ask the same checks as `explain`, and most of their answers are
    refusals that are only tested and dropped (a frozen dataclass took three times as long
    to build, 8% of a Normal-Monster duel)."""

    action: str
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.action}: {self.message} ({self.rule})"


class IllegalChoice(ValueError):
    """`Duel.apply` was given something that is not a legal answer; the duel is unchanged."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"{message} ({rule})")


class DuelOver(Exception):
    """Raised inside the engine's flow the moment the duel is decided (R-WIN-1: at once)."""


class EndReason(StrEnum):
    """How a duel ended (R-WIN-1…5, R-TIME-3…6)."""

    LP = "LP"  # a player's LP reached 0 (R-WIN-1)
    DECK_OUT = "deck-out"  # a player had to draw from an empty Deck (R-WIN-2)
    CARD = "card"  # a card's effect says so (R-WIN-3)
    CONCESSION = "concession"  # a player conceded (R-WIN-5)
    TIME = "time"  # the time procedure decided (R-TIME-3…6)


PromptMode = Literal["auto", "always"]  # a player's response windows: ask only when they could respond, or at every one


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a duel ended. `winner` is None for a draw (R-WIN-4)."""

    winner: int | None
    reason: EndReason
    detail: str = ""
    takes_match: bool = False  # Victory Dragon: this win decides the whole match

    def text(self, names: tuple[str, str]) -> str:
        if self.winner is None:
            return f"Draw: {self.detail or self.reason}"
        return f"{names[self.winner]} wins {'the match ' if self.takes_match else ''}by {self.reason}" + (f" ({self.detail})" if self.detail else "")
