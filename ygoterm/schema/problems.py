"""What went wrong in a user's file, said so that they can fix it.

Three kinds of failure are kept apart (as RenderCV does):
- `Problem`: one thing wrong at one place of one file (`file:line:col  path  message  (hint)`);
- `DataError`: a user error carrying every `Problem` found, so all are reported together;
- anything else is an internal bug and may show a traceback.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable


@dataclass(frozen=True, slots=True)
class Problem:
    """One error in one place. `line`/`col` are 1-based; 0 means unknown."""

    file: str
    line: int
    col: int
    path: str
    message: str
    hint: str = ""
    rule: str = ""  # a RULES.md id such as "R-DECK-1", when a game rule is broken

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}:{self.col}" if self.line else self.file

    def __str__(self) -> str:
        parts = [self.where]
        if self.path:
            parts.append(self.path)
        message = f"{self.message} [{self.rule}]" if self.rule and self.rule not in self.message else self.message
        parts.append(message)
        text = "  ".join(parts)
        return f"{text}  ({self.hint})" if self.hint else text


class DataError(Exception):
    """A user's file (card, deck, banlist, scenario, save) is unreadable or invalid.

    `unreadable` distinguishes "cannot parse/validate this file" (CLI exit 2) from a file that
    reads fine but breaks a game rule such as deck construction (exit 1).
    """

    def __init__(self, problems: Iterable[Problem], *, unreadable: bool = True) -> None:
        self.problems: list[Problem] = list(problems)
        self.unreadable = unreadable
        super().__init__("\n".join(str(p) for p in self.problems))


def display_path(path: Path | str) -> str:
    """A path as the user would type it: relative to the working directory when inside it."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(p)


def nearest(word: str, candidates: Iterable[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    """The candidates closest to `word`, ignoring case (for "did you mean" hints)."""
    by_folded: dict[str, str] = {}
    for c in candidates:
        by_folded.setdefault(c.casefold(), c)
    hits = difflib.get_close_matches(word.casefold(), list(by_folded), n=n, cutoff=cutoff)
    return [by_folded[h] for h in hits]


def nearest_first(word: str, candidates: Iterable[str]) -> list[str]:
    """All the candidates, the most similar to `word` first (ignoring case), for "these exist" lists."""
    folded = word.casefold()
    return sorted(candidates, key=lambda c: -difflib.SequenceMatcher(None, folded, c.casefold()).ratio())


def did_you_mean(word: str, candidates: Iterable[str], n: int = 3) -> str:
    """A hint such as "did you mean 'Gemini Elf'?", or "" when nothing is close."""
    hits = nearest(word, candidates, n=n)
    if not hits:
        return ""
    return "did you mean " + " or ".join(repr(h) for h in hits) + "?"


MAX_PASSCODE = 999_999_999  # a passcode has at most 9 digits (the card schema's `id`)


def too_many_digits(digits: str, most: int) -> str:
    """"has 5,000 digits" when a run of ASCII digits has more than `most` (leading zeros aside),
    else "": checked before `int()`, which raises on over 4,300 digits."""
    significant = len(digits.lstrip("-").lstrip("0"))
    return f"has {len(digits):,} digits" if significant > most else ""


def is_digits(text: str) -> bool:
    """ASCII digits only: `str.isdigit()` also accepts '²' and other Unicode digits, which
    `int()` then refuses with a traceback."""
    return text.isascii() and text.isdigit()


def capped(problems: list[Problem], file: str, most: int = 50) -> list[Problem]:
    """At most `most` problems of one file, and a last line saying how many more there are."""
    if len(problems) <= most:
        return problems
    return problems[:most] + [Problem(file, 0, 0, "", "… more problems in this file are not shown",
                                      "fix the ones above first; they are often the same mistake repeated")]
