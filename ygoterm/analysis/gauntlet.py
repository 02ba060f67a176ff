"""The gauntlet: one deck against every deck of a format's field (`ygoterm arena --gauntlet goat
DECK`) — where a deck builder stands against the decks it will meet.

Each matchup is an arena matchup whose deck under test always sits with agent A, and the same
agent plays both sides (the deck is measured, not the agent); going first alternates, duel by
duel. Duels are best-of-one with the Main Decks as written: siding needs a plan per matchup that
the decks' Side Deck comments tell a person, not a program. The seeds are the arena's, so the
results are the same for any number of workers or on Ray.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .arena import Matchup, Summary, Tally


@dataclass
class Standing:
    """The deck under test against the field: a summary per opponent, and over all of them."""

    deck: str
    rows: list[Summary]

    @property
    def overall(self) -> Tally:
        return Tally.merged(row.total for row in self.rows)

    def side(self, first: bool) -> Tally:
        """Over all matchups, going first (or second)."""
        return Tally.merged(row.going_first if first else row.going_second for row in self.rows)


COLUMNS = ("#", "opponent", "score", "going first", "going second", "turns")


def table_rows(standing: Standing) -> list[tuple[str, ...]]:
    """The standing as text cells under COLUMNS: a row per opponent, then the overall."""
    rows = [(str(n), row.matchup.decks[1], row.total.text(), row.going_first.text(), row.going_second.text(),
             f"{row.mean_turns:.1f}") for n, row in enumerate(standing.rows)]
    turns = sum(row.turns for row in standing.rows) / max(1, standing.overall.duels)
    return [*rows, ("", "overall", standing.overall.text(), standing.side(True).text(), standing.side(False).text(), f"{turns:.1f}")]


def matchups(deck: str, field: list[str], agent: str) -> list[Matchup]:
    """`deck` (a deck name) against each deck of `field` — itself too, when it is one of them
    (the mirror: a fair coin, a check on the seats)."""
    return [Matchup((agent, agent), (deck, other), decks_fixed=True) for other in field]


def tested_name(path: Path, field: dict[str, Path]) -> str:
    """The deck under test's name in the matchups: its file stem, told apart when the field holds another file of that
    name (a user's own version of a field deck)."""
    return path.stem if field.get(path.stem, path).resolve() == path.resolve() else f"{path.stem} (tested)"


def field_names(files: list[Path]) -> dict[str, Path]:
    """The field's decks by name (file stem), in file order."""
    return {path.stem: path for path in files}
