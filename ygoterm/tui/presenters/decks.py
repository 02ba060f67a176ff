"""The decks the menu offers (each read and judged once), the seats of a solo duel and the
rules two decks call for."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


from ...schema.cardpool import CardPool
from ...schema.decks import Deck, deck_paths, unscripted_cards
from ...schema.legality import judge_deck
from ...schema.problems import Problem
from ...schema.rules import Rules
from .session import Seat


@dataclass
class DeckEntry:
    path: Path
    deck: Deck | None
    problems: list[Problem]

    @property
    def name(self) -> str:
        return self.deck.name if self.deck else self.path.stem

    @property
    def legal(self) -> bool:
        return self.deck is not None and not self.problems


def survey_decks(pool: CardPool, dirs: list[Path]) -> list[DeckEntry]:
    """Every deck with its legality, as the deck validator says (R-DECK-1…8; `judge_deck`, which
    `ygoterm duel/solo` use too)."""
    return [DeckEntry(v.path, v.deck, v.problems) for v in (judge_deck(path, pool, dirs) for path in deck_paths(dirs))]


def manual_rules(rules: Rules, decks: tuple[Deck, Deck]) -> Rules:
    """A two-player duel with cards without scripts (`play: manual`) has manual actions switched
    on (DESIGN.md §4), so that those cards can be played by hand; the duel screen says so."""
    if unscripted_cards(*decks) and not rules.manual_actions:
        return rules.model_copy(update={"manual_actions": True})
    return rules


def ai_refusal(deck: Deck) -> str | None:
    """Why the AI cannot play `deck` (its cards without scripts), as the CLI says it."""
    unscripted = unscripted_cards(deck)
    return f"the AI cannot play cards without scripts: {', '.join(unscripted)}" if unscripted else None


def solo_seats(opponent: str, names: list[str], prompt: str = "auto") -> tuple[Seat, Seat]:
    """You, and the opponent: goldfish, random, ai:LEVEL, or "deck" (a second deck you play too);
    `prompt`: your response prompts (the Settings' "when you play alone")."""
    if opponent.startswith("ai:"):
        return Seat(names[0], "human", prompt), Seat(f"AI ({opponent[3:]})", opponent, "auto")
    kind = {"goldfish": "goldfish", "random": "random"}.get(opponent, "human")
    return (Seat(names[0], "human", prompt),
            Seat(names[1] if kind == "human" else {"goldfish": "Goldfish", "random": "Random AI"}[kind], kind, prompt))
