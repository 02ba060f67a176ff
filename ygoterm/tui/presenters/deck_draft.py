"""The deck being edited (`DeckDraft`) and where the editor puts and counts cards."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path


from ... import paths
from ...schema.cards import Card
from ...schema.decks import SECTIONS, Deck


def user_decks() -> Path:
    return paths.user_home() / "decks"


@dataclass
class DeckDraft:
    """The deck being edited: its cards (copies grouped, in the order first added), where it is
    saved (None until the first save picks a free name in the user's decks folder), and the text
    of the file it came from (its comments are kept on save)."""

    name: str
    banlist: str | None = None
    description: str = ""
    sections: dict[str, list[Card]] = field(default_factory=lambda: {s: [] for s in SECTIONS})
    path: Path | None = None
    original: str | None = None
    unknown: int = 0  # R-DECK-8 entries of the file, kept as written

    @classmethod
    def from_deck(cls, deck: Deck, *, name: str | None = None, path: Path | None = None, unknown: int = 0) -> "DeckDraft":
        source = deck.source
        original = None
        if source is not None and source.path is not None:
            try:
                original = source.path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                original = None
        draft = cls(name or deck.name, deck.banlist, source.description if source else "", path=path, original=original, unknown=unknown)
        for section in SECTIONS:
            for card in deck.section(section):
                draft.add(card, section)
        return draft

    def deck(self) -> Deck:
        main, extra, side = (list(self.sections[s]) for s in SECTIONS)
        return Deck(self.name, main, extra, side, banlist=self.banlist)

    def add(self, card: Card, section: str) -> None:
        cards = self.sections[section]
        last = max((i for i, c in enumerate(cards) if c.id == card.id), default=len(cards) - 1)
        cards.insert(last + 1, card)

    def remove(self, card: Card, section: str) -> bool:
        cards = self.sections[section]
        for i in range(len(cards) - 1, -1, -1):
            if cards[i].id == card.id:
                del cards[i]
                return True
        return False

    def count(self, card: Card) -> dict[str, int]:
        return {s: sum(1 for c in self.sections[s] if c.id == card.id) for s in SECTIONS}


def home_section(card: Card) -> str:
    """Where `a` puts a card: the Extra Deck for Fusion/Synchro/Xyz/Link monsters, else the Main."""
    return "extra" if card.is_extra_deck else "main"


def kind_totals(cards: list[Card]) -> str:
    counts = Counter(c.kind for c in cards)
    return " · ".join(f"{counts[k]} {k}{'s' if counts[k] != 1 else ''}" for k in ("monster", "spell", "trap") if counts[k])
