"""What chains and battles are made of: the Signals that say what happened, chain links,
triggers waiting to activate, delayed effects, and the attack in progress.

Plain records (engine/state/copying.py copies them slot by slot); the rules that use them are in
engine/rules/chain.py, engine/effects/registry.py and engine/rules/flow.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...schema.effects import Effect
from .card import CardInst
from ..core.types import Loc


@dataclass(slots=True)
class Signal:
    """Something that happened, for triggers and "when …" activations to answer."""

    event: str  # an EventName of schema.effects
    card: CardInst | None
    player: int  # whose card / who acted / who took damage
    how: str = ""  # summon kind
    src: Loc | None = None  # where the card was (sent_to_gy from …)
    batch: int = 0  # events of one action share a batch (R-CHAIN-10 "the last thing that happened")
    moves: int = 0  # the card's move count at the time: if it moved since, the trigger is lost
    by_battle: bool = False
    at: int = 0  # the duel's move count when it happened
    by: int | None = None  # destroyed by whose card (the effect's controller, or the other battler's)
    by_card: CardInst | None = None  # … and by which card (the effect's card, or the other battler)
    # the other players of the same moment a trigger answers once (their monsters returned with this one: Criosphinx)
    players: tuple[int, ...] = ()
    # the other cards of the same moment a trigger answers once (the monsters Summoned together: King Tiger Wanghu's
    # "destroy those monsters"); the filter `event: true` matches them too
    together: tuple[CardInst, ...] = ()


@dataclass(slots=True)
class ChainLink:
    number: int
    player: int
    card: CardInst
    effect: Effect
    index: int  # the effect's index on the card
    speed: int
    targets: list[CardInst] = field(default_factory=list)
    target_moves: list[int] = field(default_factory=list)
    target_groups: list[int] = field(default_factory=list)  # which target group each target answers
    signal: Signal | None = None  # the event a trigger answers
    answers: "ChainLink | None" = None  # the link it responds to (for negation)
    negated: bool = False  # activation negated: does nothing (R-TERM-24)
    effect_negated: bool = False
    was_spell_trap_card: bool = False  # a Spell/Trap card's own activation (it is "spent" after)
    field_moves: int = -1  # an effect of a face-up Continuous/Field/Equip card activated there: the card's move count then
    chosen: list[CardInst] = field(default_factory=list)
    declared: Any = None
    # every declaration it made, one per kind ("Declare a Type and an Attribute": Abyssal Designator), read by the filter `declared`
    declarations: tuple[tuple[str, str], ...] = ()
    rolled: int = 1  # the last die this effect rolled (op roll_die)
    roll_loser: int | None = None  # roll_die each_player: the player whose roll was lower (Dice Jar)
    heads: int = 0  # how many of the coins this effect tossed last showed heads (op coin)
    # the players whose damage from this link's effect goes to their opponent instead (Barrel Behind the Door)
    damage_redirected: tuple[int, ...] = ()
    removed: int = 0  # the counters its cost removed, as many as its player chose (remove_counter any_number: Blast Magician)
    resolving_targets: list[tuple[CardInst, int]] | None = None  # valid targets when it began to resolve
    event_cards: list[CardInst] = field(default_factory=list)  # the cards of the event it answers
    # … and for a trigger, the cards of the other events of that moment it answers too (read by the filter `event: true`)
    event_group: list[CardInst] = field(default_factory=list)
    spared: frozenset[int] = frozenset()  # cards its effect cannot destroy (op spare of a link answering it: White Hole)
    # the player whose effect discards the cards this link draws as it resolves (op discard_draws: Muko)
    draws_discarded_by: int | None = None

    @property
    def label(self) -> str:
        return f"CL{self.number} {self.card.name}"


# "When …" activation conditions read from the chain, the attack or the Summon being declared,
# not from what happened (Signals)
STATE_EVENTS = frozenset(("activated", "attack_declared", "summon_declared", "damage_calculation"))


@dataclass(slots=True)
class _Pending:
    card: CardInst
    index: int
    signal: Signal
    mandatory: bool
    player: int  # who activates it
    effect: Effect | None = None  # a delayed effect's own operations (op `later`)
    remembered: list[CardInst] = field(default_factory=list)


@dataclass(slots=True)
class Delayed:
    """An effect waiting for a later Standby or End Phase (op `later`, or a trigger with `at`).

    When its phase comes it activates as a mandatory trigger of `player` (R-PRIO-5)."""

    card: CardInst
    player: int
    phase: str  # "standby_phase", "end_phase", "normal_draw" (the Draw Phase, before the normal draw) or "after_damage_calculation" (of the current battle) or "battle_phase_end" (its End Step)
    whose: str  # whose phase counts, seen from `player`: "you", "opponent", "any"
    left: int  # how many such phases are still to come
    index: int  # the card's effect (a trigger with `at`), or -1 for `later`
    effect: Effect
    card_moves: int | None = None  # lost if the card has moved since
    remembered: list[tuple[CardInst, int]] = field(default_factory=list)  # chosen cards and their move counts
    optional: bool = False  # "you can": asked when it comes
    when: Any = None  # for phase "event": the When it waits for, this turn only (Last Will)
    turn: int = 0  # … the turn it waits in (the turn it was made in, or its controller's next: Dora of Fate)
    each_time: bool = False  # for phase "event": every such event this turn, not the first only (The Secret of the Bandit)
    # for phase "event": only events about a remembered card — "chosen": not moved since ("the selected monster");
    # "remembered": wherever it went since (Graverobber's Spell)
    about: str | None = None
    keep_moved: bool = False  # `remembered` cards stay remembered after they move (Dora of Fate's selected monster)

    def due(self, s: Signal) -> bool:
        """Count `s` if it is one of this effect's phases; True when it is the one."""
        if s.event != self.phase or (self.whose != "any" and (s.player == self.player) != (self.whose == "you")):
            return False
        self.left -= 1
        return self.left <= 0


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
    target_was_set: bool = False  # the target was face-down Defense when the Damage Step began, and was flipped (R-BATTLE-5)
    target_flipped: bool = False  # the target was face-down (Defense or Attack) when the Damage Step began, and was flipped
    dealt: dict[int, int] = field(default_factory=dict)  # the battle damage each player took in this battle (Fushi No Tori)
