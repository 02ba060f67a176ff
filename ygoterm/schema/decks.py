"""Decklists: reading the YAML forms, resolving card names, and the resolved `Deck` value.

Canonical form::

    name: Warrior Beatdown
    banlist: classic
    rules: goat            # optional: the format it is built for (a rules profile, schema/rules.py)
    main:
      Gemini Elf: 3
      89631139: 1          # a passcode works too
    extra: {}
    side: {}

A section may also be a list: `- Gemini Elf` (one copy per line) or `- {card: Gemini Elf, count: 3}`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from .cards import Card
from .cardpool import CardPool
from .lab import Lab, read_lab
from .problems import DataError, Problem, display_path, is_digits
from .report import model_keys, problems_from
from .rules import Rules, RulesField
from .yamlio import Locator, load

SECTIONS = ("main", "extra", "side")
SECTION_TITLES = {"main": "Main Deck", "extra": "Extra Deck", "side": "Side Deck"}
MAX_DECK_FILE_BYTES = 512 * 1024
MAX_COUNT = 99


class _DeckHeader(BaseModel):
    """The deck file's top-level keys; sections are read by hand to keep exact positions."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = None
    banlist: str | None = None
    rules: RulesField | None = None  # the format it is built for: a profile's name (`goat`) or switches
    description: str = ""
    main: Any = None
    extra: Any = None
    side: Any = None
    lab: Any = None


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """One line of a section as written: a card name or passcode and how many copies."""

    ref: str | int
    count: int
    loc: tuple[Any, ...]


@dataclass
class DeckFile:
    """A deck file as written, card names not yet looked up."""

    name: str
    file: str
    banlist: str | None
    sections: dict[str, list[DeckEntry]]
    locator: Locator
    description: str = ""
    rules: Rules | None = None  # the format it is built for (`rules: goat`), if it names one
    lab: Lab | None = None  # the deck lab's roles and combos (schema/lab.py), names not yet looked up
    path: Path | None = None

    def problem(self, loc: tuple[Any, ...], message: str, hint: str = "", rule: str = "", key: bool = True) -> Problem:
        line, col = self.locator.position(loc, key=key)
        where = ".".join(str(p) for p in loc)
        return Problem(self.file, line, col, where, message, hint, rule)


@dataclass
class Deck:
    """A resolved deck: card definitions in the order written, copies repeated."""

    name: str
    main: list[Card]
    extra: list[Card]
    side: list[Card] = field(default_factory=list)
    banlist: str | None = None
    source: DeckFile | None = None
    rules: Rules | None = None  # the format it is built for (`rules: goat`), if it names one

    def section(self, name: str) -> list[Card]:
        return getattr(self, name)

    @property
    def all_cards(self) -> list[Card]:
        return [*self.main, *self.extra, *self.side]

    @property
    def digest(self) -> str:
        """What it plays, in 12 hex digits: its Main and Extra Decks in order (what a duel's deal depends on) and
        its rules — two runs of an arena with decks of the same name and other cards are told apart."""
        text = "\n".join(["main", *(c.name for c in self.main), "extra", *(c.name for c in self.extra),
                          "rules", self.rules.model_dump_json() if self.rules is not None else ""])
        return hashlib.sha256(text.encode()).hexdigest()[:12]


def unscripted_cards(*decks: Deck, sections: tuple[str, ...] = ("main", "extra", "side")) -> list[str]:
    """The names of the cards without scripted effects (`play: manual`) in these decks' `sections`, each card as
    its deck's format plays it (`rules: goat`: its 2005 version, Necrovalley's): they are played by hand, with
    manual actions (DESIGN.md §4); the AI cannot play them."""
    return sorted({c.name for deck in decks for section in sections for c in deck.section(section)
                   if c.in_format(deck.rules.format if deck.rules is not None else "modern").play == "manual"})


def read_deck_file(path: Path) -> DeckFile:
    """Parse a deck YAML file; raise DataError listing every structural problem."""
    name = display_path(path)
    data, text = load(path, max_bytes=MAX_DECK_FILE_BYTES)
    return parse_deck(data, text, name, default_name=path.stem, path=path)


def parse_deck(data: Any, text: str, file: str, *, default_name: str, path: Path | None = None) -> DeckFile:
    locator = Locator(text)
    if data is None:
        raise DataError([Problem(file, 1, 1, "", "the deck file is empty", "write at least 'main:' with card names and counts")])
    if not isinstance(data, dict):
        raise DataError([Problem(file, 1, 1, "", "a deck file must be a mapping with 'name', 'main', 'extra' and 'side'",
                                 "see decks/*.yaml for examples")])
    if "combos" in data:  # (combos had a top-level key before the lab section had a place)
        raise DataError([Problem(file, *locator.position(("combos",)), "combos", "combos live in the 'lab:' section now",
                                 "indent them under 'lab:' as 'combos:' (docs/data.md, The deck lab)")])
    try:
        header = _DeckHeader.model_validate(data)
    except ValidationError as e:
        raise DataError(problems_from(e, file=file, locator=locator, valid_keys=lambda loc: model_keys(_DeckHeader))) from None
    deck = DeckFile(name=header.name or default_name, file=file, banlist=header.banlist, sections={},
                    locator=locator, description=header.description, path=path, rules=header.rules)
    deck.lab, problems = read_lab(header.lab, deck.problem)
    for section in SECTIONS:
        deck.sections[section] = _read_section(deck, section, getattr(header, section), problems)
    if header.main is None:
        problems.append(deck.problem((), "the deck has no 'main' section", "add 'main:' followed by 'Card Name: count' lines"))
    if problems:
        raise DataError(problems)
    return deck


def _read_section(deck: DeckFile, section: str, value: Any, problems: list[Problem]) -> list[DeckEntry]:
    entries: list[DeckEntry] = []
    if value is None:
        return entries
    if isinstance(value, dict):
        for ref, count in value.items():
            loc = (section, ref)
            if not isinstance(ref, (str, int)) or isinstance(ref, bool):
                problems.append(deck.problem(loc, f"{ref!r} is not a card name", "write the card's name or passcode"))
                continue
            entry = _entry(deck, loc, ref, count, problems)
            if entry:
                entries.append(entry)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            loc = (section, index)
            if isinstance(item, dict):
                unknown = set(item) - {"card", "count"}
                if "card" not in item or unknown:
                    problems.append(deck.problem(loc, "a list entry is a card name or {card: NAME, count: N}",
                                                 f"unknown key {sorted(map(str, unknown))[0]!r}" if unknown else "add 'card: NAME'"))
                    continue
                entry = _entry(deck, loc, item["card"], item.get("count", 1), problems)
            else:
                entry = _entry(deck, loc, item, 1, problems)
            if entry:
                entries.append(entry)
    else:
        problems.append(deck.problem((section,), f"'{section}' must be a mapping of 'Card Name: count' or a list of card names",
                                     "e.g.  main:\\n  Gemini Elf: 3"))
    return entries


def _entry(deck: DeckFile, loc: tuple[Any, ...], ref: Any, count: Any, problems: list[Problem]) -> DeckEntry | None:
    if isinstance(ref, bool) or not isinstance(ref, (str, int)) or (isinstance(ref, str) and not ref.strip()):
        problems.append(deck.problem(loc, f"{ref!r} is not a card name", "write the card's name or passcode", key=False))
        return None
    if isinstance(count, bool) or not isinstance(count, int):
        problems.append(deck.problem(loc, f"the count of '{ref}' must be a whole number, not {count!r}", f"e.g. '{ref}: 2'", key=False))
        return None
    if not 0 <= count <= MAX_COUNT:
        problems.append(deck.problem(loc, f"{count} copies of '{ref}' is not a possible count", "a deck holds at most 3 copies of a card (R-DECK-4)", key=False))
        return None
    return DeckEntry(ref, count, loc) if count else None


def resolve(deck_file: DeckFile, pool: CardPool) -> tuple[Deck, list[Problem]]:
    """Look up every card; unknown names become R-DECK-8 problems with the nearest names."""
    problems: list[Problem] = []
    sections: dict[str, list[Card]] = {s: [] for s in SECTIONS}
    for section, entries in deck_file.sections.items():
        for entry in entries:
            card = pool.get(entry.ref)
            if card is None:
                what = f"passcode {entry.ref}" if isinstance(entry.ref, int) or is_digits(str(entry.ref)) else f"'{entry.ref}'"
                problems.append(deck_file.problem(entry.loc, f"unknown card {what}", pool.suggest(entry.ref), "R-DECK-8"))
                continue
            sections[section].extend([card] * entry.count)
    deck = Deck(deck_file.name, sections["main"], sections["extra"], sections["side"], deck_file.banlist, deck_file,
                deck_file.rules)
    return deck, problems


def load_deck(path: Path, pool: CardPool) -> tuple[Deck, list[Problem]]:
    """Read and resolve a deck file. Structural problems raise; unknown cards are returned."""
    return resolve(read_deck_file(path), pool)


DECK_SUFFIXES = (".yaml", ".yml")


def deck_paths(dirs: list[Path]) -> list[Path]:
    """Deck files in the deck folders: those directly inside, then those of each subfolder — a
    format's decks (`decks/goat/`) — except `banlists/`."""
    out: list[Path] = []
    for d in dirs:
        out.extend(sorted(p for p in d.iterdir() if p.suffix in DECK_SUFFIXES and p.is_file()))
        for sub in sorted(p for p in d.iterdir() if p.is_dir() and p.name != "banlists"):
            out.extend(sorted(p for p in sub.iterdir() if p.suffix in DECK_SUFFIXES and p.is_file()))
    return out


def deck_folder(name: str, dirs: list[Path]) -> list[Path]:
    """The deck files of the subfolder `name` of every deck folder (the shipped `decks/goat/`, then
    the user's own `goat/`), or of the folder `name` itself when it is a path."""
    folder = Path(name).expanduser()
    folders = [folder] if folder.is_dir() else [d / name for d in dirs if (d / name).is_dir() and name != "banlists"]
    return [p for f in folders for p in sorted(f.iterdir()) if p.suffix in DECK_SUFFIXES and p.is_file()]


def find_deck(ref: str, dirs: list[Path]) -> Path | None:
    """A deck by path, by file stem, or by its `name:` (ignoring case)."""
    p = Path(ref).expanduser()
    if p.is_file():
        return p
    folded = ref.casefold()
    candidates = deck_paths(dirs)
    for path in candidates:
        if folded in (path.stem.casefold(), path.name.casefold(), f"{path.parent.name}/{path.stem}".casefold()):
            return path  # (a format's deck by its folder too: goat/burn)
    for path in candidates:
        try:
            if read_deck_file(path).name.casefold() == folded:
                return path
        except DataError:
            continue
    return None
