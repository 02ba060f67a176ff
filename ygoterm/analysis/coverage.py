"""How much of a card pool plays automatically: per kind, the cards that are scripted, that play
by their stats alone, and that still need manual actions (`ygoterm cards coverage`) — the
progress bar of scripting a format's cards. Each card is judged as it plays in the format
(`Card.in_format`): in a `goat` count, a card whose 2005 version is scripted apart counts by it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from ..schema.banlist import Banlist
from ..schema.cards import Card
from ..schema.decks import Deck

KINDS = ("monster", "spell", "trap")
PLAYS = ("scripted", "stats", "manual")


@dataclass
class Coverage:
    """Counts per kind and way of playing, and the manual cards by kind (names, sorted)."""

    fmt: str
    counts: dict[str, Counter[str]] = field(default_factory=lambda: {k: Counter() for k in KINDS})
    manual: dict[str, list[str]] = field(default_factory=lambda: {k: [] for k in KINDS})

    def total(self, play: str | None = None) -> int:
        return sum(c[play] if play else sum(c.values()) for c in self.counts.values())

    def to_json(self) -> dict[str, object]:
        return {"format": self.fmt,
                "kinds": {k: {p: self.counts[k][p] for p in PLAYS} | {"total": sum(self.counts[k].values())} for k in KINDS},
                "total": {p: self.total(p) for p in PLAYS} | {"total": self.total()},
                "manual": self.manual}


def coverage(cards: Iterable[Card], fmt: str = "modern") -> Coverage:
    """The coverage of `cards` (each counted once) as they play in format `fmt`."""
    result = Coverage(fmt)
    for card in sorted({c.id: c for c in cards}.values(), key=lambda c: c.name.casefold()):
        played = card.in_format(fmt)
        result.counts[card.kind][played.play] += 1
        if played.play == "manual":
            result.manual[card.kind].append(card.name)
    return result


def listed_cards(pool: Iterable[Card], banlist: Banlist) -> list[Card]:
    """The cards of a format: those a whitelist names (its Forbidden ones too: they are the
    format's cards), or for a Forbidden/Limited list the whole pool. A card treated as a listed
    name counts too (R-DECK-6)."""
    if banlist.whitelist:
        return [c for c in pool if c.deck_name in banlist.limits]
    return list(pool)


@dataclass(frozen=True)
class DeckCoverage:
    """One deck's cards that need manual actions, with their copies."""

    name: str
    cards: int
    manual: tuple[tuple[str, int], ...]

    @property
    def manual_copies(self) -> int:
        return sum(n for _, n in self.manual)


def deck_coverage(deck: Deck, fmt: str) -> DeckCoverage:
    copies = Counter(c.name for c in deck.all_cards if c.in_format(fmt).play == "manual")
    return DeckCoverage(deck.name, len(deck.all_cards), tuple(sorted(copies.items())))
