"""Exact opening-hand odds of a deck's lab combos (`ygoterm odds`; the lab section: schema/lab.py).

The hand is a draw without replacement from the Main Deck, so the chance of a hand is a
multivariate hypergeometric term. Counting goes by *signature* rather than by card: two cards
that every requirement treats alike (same roles for the lab's purpose) are one class, and a
hand is a number of cards from each class. A card with several roles is one card of the hand.

Requirements of one combo are met by *different* cards ("1 searcher + 1 monster" needs two
cards even if Sangan is both). By Hall's theorem such an assignment exists exactly when every
subset J of the at-least requirements finds at least Σ_J n cards in the union of their card
sets; so the counts we need are those of a few unions, each only up to the largest number it is
compared with. A dynamic programme over the classes keeps, for each reachable vector of those
clipped counts and number of cards used, how many hands lead to it; every combo, group and
"any combo" is then read off the final vectors. Exact integers throughout (Fractions at the end).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Iterable

from ..schema.lab import Combo, Lab, Need

FIRST_HAND, SECOND_HAND = 5, 6  # the opening hand going first; going second the first draw is known to come (R-PHASE-1)
MAIN_MIN, MAIN_MAX, MAX_COPIES = 40, 60, 3  # R-DECK-1, R-DECK-4


@dataclass(frozen=True)
class Odds:
    """How many of the `total` opening hands meet one thing (a combo, a group, any combo)."""

    name: str
    kind: str  # "combo", "group", "any", "brick"
    hands: int
    total: int
    reason: str = ""  # why no hand can meet it (set only when none can)

    @property
    def fraction(self) -> Fraction:
        return Fraction(self.hands, self.total) if self.total else Fraction(0)

    @property
    def percent(self) -> float:
        return float(self.fraction) * 100

    @property
    def impossible(self) -> bool:
        return self.hands == 0


@dataclass(frozen=True)
class Report:
    hand: int
    deck_size: int
    combos: tuple[Odds, ...]
    groups: tuple[Odds, ...]
    any: Odds | None
    brick: Odds | None

    def all(self) -> list[Odds]:
        return [*self.combos, *self.groups, *([self.any] if self.any else []), *([self.brick] if self.brick else [])]


# ---------------------------------------------------------------------- compiling the lab


@dataclass
class _Way:
    lower: list[tuple[int, int]]  # (counter, at least)
    upper: list[tuple[int, int]]  # (counter, at most)


@dataclass
class Plan:
    """The lab turned into counters over card sets and, per combo, its ways as bounds on them."""

    counters: list[frozenset[str]] = field(default_factory=list)
    clips: list[int] = field(default_factory=list)
    combos: list[list[_Way]] = field(default_factory=list)  # the lab's combos, then the brick (if any)
    names: list[str] = field(default_factory=list)

    def counter(self, cards: frozenset[str], clip: int) -> int:
        try:
            i = self.counters.index(cards)
        except ValueError:
            self.counters.append(cards)
            self.clips.append(clip)
            return len(self.counters) - 1
        self.clips[i] = max(self.clips[i], clip)
        return i

    def add(self, combo: Combo) -> None:
        ways = []
        for way in combo.ways():
            lower_needs = [n for n in way if n.op in ("at_least", "exactly")]
            upper_needs = [n for n in way if n.op in ("at_most", "exactly")]
            lower = []
            for size in range(1, len(lower_needs) + 1):
                for subset in itertools.combinations(lower_needs, size):
                    if size > 1 and not _connected(subset):
                        continue  # Hall's condition splits over parts that share no card: implied by theirs
                    cards = frozenset().union(*(n.cards for n in subset))
                    need = sum(n.n for n in subset)
                    lower.append((self.counter(cards, need), need))
            upper = [(self.counter(n.cards, n.n + 1), n.n) for n in upper_needs]
            ways.append(_Way(lower, upper))
        self.combos.append(ways)
        self.names.append(combo.name)

    def met(self, counts: tuple[int, ...]) -> int:
        """A bit per combo met by a hand with these (clipped) counts."""
        bits = 0
        for i, ways in enumerate(self.combos):
            for way in ways:
                if all(counts[c] >= n for c, n in way.lower) and all(counts[c] <= n for c, n in way.upper):
                    bits |= 1 << i
                    break
        return bits


def _connected(needs: tuple[Need, ...]) -> bool:
    """Whether the needs' card sets form one piece (linked by shared cards)."""
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j, other in enumerate(needs):
            if j not in seen and needs[i].cards & other.cards:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(needs)


def plan(combos: Iterable[Combo]) -> Plan:
    p = Plan()
    for combo in combos:
        p.add(combo)
    return p


def classes(p: Plan, deck: dict[str, int]) -> tuple[list[tuple[tuple[int, ...], int]], int]:
    """The deck's cards by signature (the counters a card counts for): (signature, copies) of
    every class that matters, and how many cards count for nothing."""
    by_sig: Counter[tuple[int, ...]] = Counter()
    for name, copies in deck.items():
        sig = tuple(i for i, cards in enumerate(p.counters) if name in cards)
        by_sig[sig] += copies
    other = by_sig.pop((), 0)
    return sorted(by_sig.items()), other


def tally(p: Plan, sigs: list[tuple[tuple[int, ...], int]], other: int, hand: int) -> Counter[int]:
    """How many hands of `hand` cards meet each set of combos (bitmask → hands)."""
    clips = p.clips
    states: dict[tuple[int, tuple[int, ...]], int] = {(0, (0,) * len(clips)): 1}
    for sig, copies in sigs:
        nxt: dict[tuple[int, tuple[int, ...]], int] = {}
        for (used, counts), ways in states.items():
            room = min(copies, hand - used)
            for x in range(room + 1):
                if x:
                    c = list(counts)
                    for i in sig:
                        c[i] = min(c[i] + x, clips[i])
                    key = (used + x, tuple(c))
                else:
                    key = (used, counts)
                nxt[key] = nxt.get(key, 0) + ways * math.comb(copies, x)
        states = nxt
    out: Counter[int] = Counter()
    memo: dict[tuple[int, ...], int] = {}
    for (used, counts), ways in states.items():
        rest = math.comb(other, hand - used) if hand - used <= other else 0
        if rest:
            bits = memo.get(counts)
            if bits is None:
                bits = memo[counts] = p.met(counts)
            out[bits] += ways * rest
    return out


# ---------------------------------------------------------------------- the report


def deck_counts(main: Iterable[object]) -> dict[str, int]:
    """{card name: copies} of a list of cards (Deck.main)."""
    return dict(Counter(getattr(c, "name") for c in main))


def odds(deck: dict[str, int], lab: Lab, hand: int) -> Report:
    """The exact odds of every combo, group, any combo and the brick for a `hand`-card opening."""
    combos = list(lab.combos)
    p = plan([*combos, *([lab.brick] if lab.brick else [])])
    sigs, other = classes(p, deck)
    return _report(p, lab, deck, tally(p, sigs, other, hand), hand)


def _report(p: Plan, lab: Lab, deck: dict[str, int], counts: Counter[int], hand: int) -> Report:
    size = sum(deck.values())
    total = math.comb(size, hand) if hand <= size else 0
    n = len(lab.combos)

    def hands_meeting(mask: int) -> int:
        """The hands that meet any of the combos in `mask` (bit i: combo i)."""
        return sum(v for bits, v in counts.items() if bits & mask)

    out = []
    for i, combo in enumerate(lab.combos):
        hits = hands_meeting(1 << i)
        out.append(Odds(combo.name, "combo", hits, total, "" if hits else why_impossible(combo, deck, hand)))
    index = {c.name: i for i, c in enumerate(lab.combos)}
    groups = []
    for name, members in lab.groups.items():
        mask = sum(1 << index[m] for m in members if m in index)
        hits = hands_meeting(mask)
        groups.append(Odds(name, "group", hits, total, "" if hits else "none of its combos can be met"))
    any_odds = None
    if n:
        hits = hands_meeting((1 << n) - 1)
        any_odds = Odds("any combo", "any", hits, total, "" if hits else "no combo can be met")
    if lab.brick:
        hits = hands_meeting(1 << n)
        brick = Odds("brick", "brick", hits, total, "" if hits else why_impossible(lab.brick, deck, hand))
    elif any_odds is not None:  # (there are combos)
        brick = Odds("brick (no combo)", "brick", total - any_odds.hands, total)
    else:
        brick = None
    return Report(hand, size, tuple(out), tuple(groups), any_odds, brick)


def why_impossible(combo: Combo, deck: dict[str, int], hand: int) -> str:
    """Why no `hand`-card hand meets `combo`, in words (the first reason of each way)."""
    reasons = []
    for way in combo.ways():
        reasons.append(_way_reason(way, deck, hand))
    unique = list(dict.fromkeys(reasons))
    return unique[0] if len(unique) == 1 else "none of its ways can be met: " + "; ".join(unique[:3])


def _way_reason(way: tuple[Need, ...], deck: dict[str, int], hand: int) -> str:
    lower = [n for n in way if n.op != "at_most"]
    cards = sum(n.n for n in lower)
    if cards > hand:
        return f"needs {cards} different cards, the hand has {hand}"
    for n in lower:
        have = sum(deck.get(c, 0) for c in n.cards)
        if n.n > have:
            return f"needs {n.n} of {'|'.join(n.names)}, the deck has {have}"
    for a in lower:
        for b in way:
            if b.op in ("at_most", "exactly") and a.cards <= b.cards and a.n > b.n:
                return f"'{a}' and '{b}' contradict each other"
    return f"no {hand}-card hand meets it"


# ---------------------------------------------------------------------- one copy more, one fewer


@dataclass(frozen=True)
class Change:
    """The deck with one copy of a card more (+1) or fewer (-1)."""

    card: str
    step: int  # +1 or -1
    deck_size: int  # after the change
    note: str  # how the deck stays legal, or why it cannot
    reports: tuple[Report, ...] = ()  # per hand size asked for; empty when the change is not possible

    @property
    def possible(self) -> bool:
        return bool(self.reports)


@dataclass(frozen=True)
class WhatIf:
    card: str
    copies: int
    plus: Change
    minus: Change
    effect: float  # the largest change of "any combo" (percentage points), for sorting
    idle: bool = False  # counts toward no combo (nor the brick)


def what_if(deck: dict[str, int], lab: Lab, hands: tuple[int, ...], *, limit: Callable[[str], int] = lambda _: MAX_COPIES,
            main_min: int = MAIN_MIN, main_max: int | None = MAIN_MAX) -> tuple[list[Report], list[WhatIf]]:
    """For every card of `deck`: every report with one copy more and one fewer. The deck stays
    legal where it can: above `main_min` a copy fewer leaves the deck a card smaller, at
    `main_min` a card that counts for nothing takes its place; below `main_max` a copy more
    makes it a card bigger, at `main_max` it replaces a card that counts for nothing. A copy
    beyond `limit(card)` is not possible. Sorted by the largest effect on "any combo"."""
    p = plan([*lab.combos, *([lab.brick] if lab.brick else [])])
    base_sigs, other = classes(p, deck)
    size = sum(deck.values())
    base = [_report(p, lab, deck, tally(p, base_sigs, other, h), h) for h in hands]
    sig_of = {name: tuple(i for i, cards in enumerate(p.counters) if name in cards) for name in deck}
    cache: dict[tuple[tuple[int, ...], int, int], tuple[Report, ...]] = {}

    def reports(sig: tuple[int, ...], step: int, blank: int, new_deck: dict[str, int]) -> tuple[Report, ...]:
        key = (sig, step, blank)
        if key not in cache:
            sigs = dict(base_sigs)
            rest = other + blank
            if sig:
                sigs[sig] = sigs.get(sig, 0) + step
            else:
                rest += step
            items = sorted((s, k) for s, k in sigs.items() if k > 0)
            cache[key] = tuple(_report(p, lab, new_deck, tally(p, items, rest, h), h) for h in hands)
        return cache[key]

    def change(name: str, step: int) -> Change:
        copies = deck[name]
        new_deck = dict(deck)
        new_deck[name] = copies + step
        blank = 0
        if step > 0:
            if copies + 1 > limit(name):
                return Change(name, step, size, f"{copies + 1} copies are not allowed (at most {limit(name)})")
            if main_max is not None and size >= main_max:
                if other == 0 or sig_of[name] == ():
                    return Change(name, step, size, f"the deck has {size} cards already and no card that counts for nothing to replace")
                blank, note, after = -1, f"{size} cards: replaces a card that counts for nothing", size
            else:
                note, after = f"{size + 1} cards", size + 1
        else:
            if size <= main_min:
                if sig_of[name] == ():
                    return Change(name, step, size, "counts toward no combo: a card in its place changes nothing", tuple(base))
                blank, note, after = 1, f"{size} cards: a card that counts for nothing takes its place", size
            else:
                note, after = f"{size - 1} cards", size - 1
        if blank:
            new_deck["(a card that counts for nothing)"] = new_deck.get("(a card that counts for nothing)", 0) + blank
        return Change(name, step, after, note, reports(sig_of[name], step, blank, new_deck))

    def any_pct(r: Report) -> float:
        return r.any.percent if r.any else 0.0

    out = []
    for name in sorted(deck):
        plus, minus = change(name, +1), change(name, -1)
        effect = 0.0
        for ch in (plus, minus):
            for b, r in zip(base, ch.reports):
                effect = max(effect, abs(any_pct(r) - any_pct(b)))
        out.append(WhatIf(name, deck[name], plus, minus, effect, sig_of[name] == ()))
    out.sort(key=lambda w: (-w.effect, w.card))
    return base, out


def cuts(base: list[Report], changes: list[WhatIf], n: int = 5) -> list[tuple[WhatIf, float]]:
    """The cards (of those that count toward some combo) whose copy fewer keeps "any combo"
    highest (mean change over the hand sizes, in percentage points), best first."""
    scored = []
    for w in changes:
        if not w.minus.possible or w.idle:
            continue
        delta = sum((r.any.percent if r.any else 0) - (b.any.percent if b.any else 0) for b, r in zip(base, w.minus.reports)) / len(base)
        scored.append((w, delta))
    scored.sort(key=lambda x: (-x[1], x[0].card))
    return scored[:n]


# ---------------------------------------------------------------------- a real hand


def hand_meets(p: Plan, hand: Iterable[str]) -> int:
    """The combos (bitmask, in `p`'s order) that a hand of card names meets."""
    names = Counter(hand)
    counts = tuple(min(sum(k for c, k in names.items() if c in cards), clip) for cards, clip in zip(p.counters, p.clips))
    return p.met(counts)


# ---------------------------------------------------------------------- the benchmark


def bench_lab(names: list[str], kinds: dict[str, str]) -> tuple[dict[str, int], Lab]:
    """A 60-card deck of 20 three-ofs (`names`, at least 20) and 10 combos over roles that
    overlap, with alternatives and upper bounds: the issue's yardstick (`ygoterm bench --odds`)."""
    deck = {name: 3 for name in names[:20]}
    n = names[:20]
    roles = {"starter": set(n[0:5]), "extender": set(n[3:9]), "boss": set(n[8:11]), "searcher": set(n[11:13]),
             "removal": set(n[13:16]), "brick": set(n[16:20])}
    for kind in ("monster", "spell", "trap"):
        roles[kind] = {x for x in n if kinds.get(x) == kind}

    def need(op: str, k: int, *words: str) -> Need:
        cards = frozenset().union(*(roles[w] if w in roles else {w} for w in words))
        return Need(op, k, words, cards=cards)

    from ..schema.lab import AnyOf

    combos = (
        Combo("starter + extender", (need("at_least", 1, "starter"), need("at_least", 1, "extender"))),
        Combo("boss + two", (need("at_least", 1, "boss"), need("at_least", 2, "starter", "extender"))),
        Combo("searcher line", (need("at_least", 1, "searcher"), AnyOf(((need("at_least", 1, "boss"),), (need("at_least", 2, "extender"),))))),
        Combo("removal backed", (need("at_least", 1, "removal"), need("at_least", 1, "starter"), need("at_most", 1, "brick"))),
        Combo("two starters", (need("exactly", 2, "starter"),)),
        Combo("no bricks", (need("at_most", 0, "brick"), need("at_least", 1, "monster"))),
        Combo("spell and monster", (need("at_least", 1, "spell"), need("at_least", 2, "monster"))),
        Combo("named pair", (need("at_least", 1, n[0]), need("at_least", 1, n[9]))),
        Combo("either boss", (AnyOf(((need("at_least", 1, n[8]),), (need("at_least", 1, n[10]), need("at_least", 1, "searcher")))),
                              need("at_least", 1, "extender", "removal"))),
        Combo("full board", (need("at_least", 1, "starter"), need("at_least", 1, "extender"), need("at_least", 1, "boss"),
                             need("at_least", 1, "removal"))),
    )
    return deck, Lab({}, combos, {"main lines": ("starter + extender", "boss + two", "searcher line")})
