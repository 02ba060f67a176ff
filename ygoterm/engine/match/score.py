"""The score of a match (R-MATCH-1…3): the duels' results, who takes the match, who chooses next.

The match itself — duels one after the other, side-decking, tournament time — is engine/match/match.py."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...schema.rules import MatchRules


@dataclass
class Score:
    """Results of the duels so far: 0 or 1 for a winner, None for a drawn duel."""

    rules: MatchRules = field(default_factory=MatchRules)
    results: list[int | None] = field(default_factory=list)
    choosers: list[int] = field(default_factory=list)  # who chose first/second for each duel

    taken_by: int | None = None  # a duel won with "wins the Match" (Victory Dragon) decided it

    def record(self, winner: int | None, chooser: int, takes_match: bool = False) -> None:
        if self.over:
            raise ValueError("the match is already decided (R-MATCH-1)")
        self.results.append(winner)
        self.choosers.append(chooser)
        if takes_match and winner is not None:
            self.taken_by = winner

    @property
    def draws(self) -> int:
        return sum(1 for r in self.results if r is None)

    def wins(self, player: int) -> int:
        return sum(1 for r in self.results if r == player)

    @property
    def over(self) -> bool:
        """R-MATCH-1/2: first to 2 wins, else after 3 duels. With V-24's option a match at
        1 win and 2 draws goes on until a second win or until the wins are level. A card
        that "wins the Match" ends it at once, and a lost match stays lost."""
        if self.taken_by is not None:
            return True
        a, b = self.wins(0), self.wins(1)
        if a >= 2 or b >= 2:
            return True
        if len(self.results) < 3:
            return False
        return not self.rules.extra_duels_after_draws or a == b

    @property
    def leader(self) -> int | None:
        """The player with more duel wins now, or None when they are level (R-TIME-5/7)."""
        a, b = self.wins(0), self.wins(1)
        return 0 if a > b else 1 if b > a else None

    def text(self) -> str:
        """"1–0", "1–1 (1 draw)"."""
        draws = self.draws
        return f"{self.wins(0)}–{self.wins(1)}" + (f" ({draws} draw{'s' if draws != 1 else ''})" if draws else "")

    @property
    def winner(self) -> int | None:
        """The match winner, or None for a drawn (or unfinished) match (R-MATCH-2)."""
        if not self.over:
            return None
        if self.taken_by is not None:
            return self.taken_by
        a, b = self.wins(0), self.wins(1)
        return 0 if a > b else 1 if b > a else None

    def next_chooser(self) -> int | None:
        """R-MATCH-3: the loser of the last duel chooses; after a draw, last duel's chooser again."""
        if not self.results:
            return None  # duel 1: a coin toss (R-SETUP-3)
        last = self.results[-1]
        return self.choosers[-1] if last is None else 1 - last
