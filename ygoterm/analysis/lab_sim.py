"""Engine-played openings for the deck lab (`ygoterm odds --sim N`).

An opening is the deck's first turn played through the engine: the opening hand, the draw
going second, then Main Phase 1 played by `agents.opener.Opener` — draw spells, searchers,
cards that look at, excavate or mill the Deck — until it ends the turn. The opponent (the same
deck) does nothing (`Passer`). What the opening *reached* is every card of the deck's owner that
was drawn or moved from the Deck to the hand or the field during it (a card used on the way, such
as Pot of Greed, counts: it was in the hand); the lab's combos are checked on those cards, as
the exact odds check them on the opening hand. Cards without scripts are never activated:
they stay in the hand and count as they are.

Each opening has its own seed derived from the run's seed, its side (first/second) and its
number, so results are the same for any number of workers, and a run is reproducible. Openings
run as the arena's duels do (`analysis.arena.run`: every local core, or Ray).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..agents.observation import observe
from ..agents.opener import Opener, Passer
from ..engine import Draw, Duel, Kind, Loc, Move, Phase
from ..schema.cardpool import CardPool
from ..schema.decks import Deck, load_deck
from ..schema.lab import Lab
from .arena import wilson
from .odds import hand_meets, plan

MAX_DECISIONS = 2_000  # an opening that asks more is stopped there (a loop of "look" effects …)


@dataclass(frozen=True)
class OpeningTask:
    number: int
    seed: int
    first: bool


@dataclass(frozen=True)
class Opening:
    number: int
    seed: int
    first: bool
    reached: tuple[str, ...]  # names of the cards the opening had (hand, draws, searches)
    used: tuple[str, ...]  # names of the cards it activated or summoned, once each
    decisions: int


def schedule(openings: int, seed: int, sides: tuple[bool, ...] = (True, False)) -> list[OpeningTask]:
    """`openings` openings for each side (True: going first), each with its derived seed."""
    tasks = []
    for first in sides:
        for n in range(openings):
            s = random.Random(f"lab:{seed}:{'first' if first else 'second'}:{n}").randrange(2**31)
            tasks.append(OpeningTask(n, s, first))
    return tasks


def play_opening(task: OpeningTask, pool: CardPool, deck: Deck) -> Opening:
    """One opening of `deck` (player 0), the same in any process."""
    duel = Duel.new(pool, (deck, deck), task.seed, first=0 if task.first else 1)
    me = 0
    our_turn = 1 if task.first else 2
    opener, passer = Opener(task.seed), Passer()
    reached: dict[int, str] = {}
    used: dict[str, None] = {}
    seen_log = 0
    decisions = 0

    def note_events() -> None:
        nonlocal seen_log
        for event in duel.log[seen_log:]:
            if isinstance(event, Draw) and event.player == me:
                for uid in event.cards:
                    reached.setdefault(uid, duel.card(uid).data.name)
            elif isinstance(event, Move) and event.owner == me and event.src == Loc.DECK and event.dst in (Loc.HAND, Loc.MZONE, Loc.SZONE):
                reached.setdefault(event.card, duel.card(event.card).data.name)
        seen_log = len(duel.log)

    while (d := duel.pending) is not None and decisions < MAX_DECISIONS:
        note_events()
        if duel.turn > our_turn or (duel.turn == our_turn and duel.phase > Phase.MAIN1):
            break
        if d.kind == Kind.FIRST:
            duel.apply("first" if task.first == (d.player == me) else "second")
            continue
        if d.player == me and duel.turn == our_turn:
            answer = opener.choose(observe(duel, me, pool), d)
            verb, uid = getattr(answer, "verb", ""), getattr(answer, "card", None)  # (an Option; a selection is a list)
            if verb in ("activate", "summon", "special") and uid is not None:
                used.setdefault(duel.card(uid).data.name, None)
        else:
            answer = passer.choose(None, d)
        duel.apply(answer)
        decisions += 1
    note_events()
    return Opening(task.number, task.seed, task.first, tuple(sorted(reached.values())), tuple(used), decisions)


@dataclass
class Openings:
    """The deck lab's simulation as a job for `analysis.arena.run` / `run_on_ray`."""

    card_dirs: list[Path]
    card_files: list[Path]
    deck_file: Path

    def start(self) -> tuple[CardPool, Deck]:
        pool = CardPool.load(self.card_dirs, files=self.card_files)
        return pool, load_deck(self.deck_file, pool)[0]  # (checked before the run)

    def play(self, context: tuple[CardPool, Deck], task: OpeningTask) -> Opening:
        pool, deck = context
        return play_opening(task, pool, deck)


# ---------------------------------------------------------------------- figures


@dataclass
class Estimate:
    """How many of `n` openings met something, with its 95% Wilson interval."""

    hits: int
    n: int

    @property
    def rate(self) -> float:
        return self.hits / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.hits, self.n)


@dataclass
class Side:
    first: bool
    openings: int = 0
    estimates: dict[str, Estimate] = field(default_factory=dict)  # combo/group/"any combo"/brick name →
    used: Counter[str] = field(default_factory=Counter)  # card name → openings in which it was used
    reached: float = 0.0  # mean cards reached

    @property
    def hand(self) -> int:
        return 5 if self.first else 6


def summarize(lab: Lab, openings: list[Opening]) -> dict[bool, Side]:
    """Per side (True: going first), every combo's, group's, "any combo"'s and the brick's rate."""
    combos = list(lab.combos)
    p = plan([*combos, *([lab.brick] if lab.brick else [])])
    n = len(combos)
    index = {c.name: i for i, c in enumerate(combos)}
    sides: dict[bool, Side] = {}
    for o in openings:
        side = sides.setdefault(o.first, Side(o.first))
        side.openings += 1
        side.reached += len(o.reached)
        bits = hand_meets(p, o.reached)
        met = {c.name: bool(bits >> i & 1) for i, c in enumerate(combos)}
        for name, members in lab.groups.items():
            met[name] = any(bits >> index[m] & 1 for m in members if m in index)
        if n:
            met["any combo"] = bool(bits & ((1 << n) - 1))
        if lab.brick:
            met["brick"] = bool(bits >> n & 1)
        elif n:
            met["brick (no combo)"] = not met["any combo"]
        for name, hit in met.items():
            e = side.estimates.setdefault(name, Estimate(0, 0))
            e.n += 1
            e.hits += hit
        side.used.update(o.used)
    for side in sides.values():
        side.reached /= side.openings or 1
    return sides
