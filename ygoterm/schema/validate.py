"""Deck construction rules R-DECK-1…8: every problem of a deck, each citing its rule."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .banlist import Banlist
from .cards import Card, Monster
from .decks import Deck, DeckFile
from .problems import Problem, is_digits
from .rules import DeckRules

_LIMIT_WORDS = {0: "Forbidden", 1: "Limited", 2: "Semi-Limited"}


@dataclass(frozen=True, slots=True)
class CardLines:
    """Where an imported deck's cards stand in their file (a .ydk lists one passcode per line)."""

    file: str
    line_of: Mapping[tuple[str, int], int]  # (section, index in it) → line


def check_deck(deck: Deck, rules: DeckRules | None = None, banlist: Banlist | None = None,
               *, lines: CardLines | None = None) -> list[Problem]:
    """All construction problems of `deck` (an empty list means legal), located in its deck file,
    or at the `lines` of the file it was imported from."""
    rules = rules or (deck.rules.deck if deck.rules is not None else DeckRules())
    out: list[Problem] = []
    at = _Positions(deck, lines)

    main, extra, side = len(deck.main), len(deck.extra), len(deck.side)
    if main < rules.main_min or (rules.main_max is not None and main > rules.main_max):
        wanted = f"{rules.main_min} to {rules.main_max}" if rules.main_max is not None else f"at least {rules.main_min}"
        out.append(at.section("main", f"Main Deck has {main} cards; it needs {wanted}", _fix(main, rules.main_min, rules.main_max), "R-DECK-1"))
    if rules.extra_max is not None and extra > rules.extra_max:
        out.append(at.section("extra", f"Extra Deck has {extra} cards; the most is {rules.extra_max}", f"remove {extra - rules.extra_max}", "R-DECK-2"))
    if rules.side_exact is not None and side != rules.side_exact:
        out.append(at.section("side", f"Side Deck has {side} cards; this format needs exactly {rules.side_exact}", "", "R-DECK-3"))
    elif side > rules.side_max:
        out.append(at.section("side", f"Side Deck has {side} cards; the most is {rules.side_max}", f"remove {side - rules.side_max}", "R-DECK-3"))

    for section in ("main", "extra", "side"):
        for card in _distinct(deck.section(section)):
            problem = _wrong_deck(card, section)
            if problem:
                out.append(at.card(section, card, problem[0], problem[1], problem[2]))

    counts: Counter[str] = Counter(c.deck_name for c in deck.all_cards)
    members: dict[str, set[str]] = {}
    for card in deck.all_cards:
        members.setdefault(card.deck_name, set()).add(card.name)
    for name, count in counts.items():
        others = sorted(members[name] - {name})
        via = f" (counting {', '.join(others)}, treated as '{name}', R-DECK-6)" if others else ""
        if count > rules.max_copies:
            out.append(at.name(deck, name, f"'{name}': {count} copies (max {rules.max_copies}) across Main, Extra and Side{via}",
                               f"remove {count - rules.max_copies}", "R-DECK-4"))
        limit = banlist.limit(name) if banlist else None
        if banlist is not None and banlist.whitelist and name not in banlist.limits:
            out.append(at.name(deck, name, f"'{name}' is not on the '{banlist.name}' whitelist: no card it does not list is legal{via}",
                               "remove it from every section", "R-DECK-5"))
        elif banlist is not None and limit is not None and count > limit:
            out.append(at.name(deck, name, f"'{name}' is {_LIMIT_WORDS[limit]} on the '{banlist.name}' list: {count} {'copy' if count == 1 else 'copies'} (max {limit}){via}",
                               f"remove {count - limit}" if limit else "remove it from every section", "R-DECK-5"))
    return out


def limit_word(banlist: Banlist | None, card: Card) -> str:
    """"Forbidden", "Limited" or "Semi-Limited" when `banlist` restricts `card` (R-DECK-5), else ""."""
    limit = banlist.limit(card.deck_name) if banlist is not None else None
    return _LIMIT_WORDS.get(limit, "") if limit is not None else ""


_SIZE_RULES = {"main": "R-DECK-1", "extra": "R-DECK-2", "side": "R-DECK-3"}


def refusal(deck: Deck, card: Card, section: str, rules: DeckRules | None = None, banlist: Banlist | None = None) -> Problem | None:
    """Why one more `card` in `section` would break a construction rule, or None: the problem
    `check_deck` finds in the deck with the card added that is about this card (R-DECK-4 copies,
    R-DECK-5 banlist, R-DECK-7 wrong deck) or about the section going over its maximum
    (R-DECK-1/2/3). A deck still too small (under 40) is not a reason to refuse a card."""
    rules = rules or (deck.rules.deck if deck.rules is not None else DeckRules())
    sections = {s: list(deck.section(s)) for s in ("main", "extra", "side")}
    sections[section].append(card)
    after = Deck(deck.name, sections["main"], sections["extra"], sections["side"], deck.banlist, rules=deck.rules)
    most = {"main": rules.main_max, "extra": rules.extra_max, "side": rules.side_max}[section]
    names = (f"'{card.name}'", f"'{card.deck_name}'")
    for problem in check_deck(after, rules, banlist):
        if problem.rule in ("R-DECK-4", "R-DECK-5", "R-DECK-7") and problem.message.startswith(names):
            return problem
        if problem.rule == _SIZE_RULES[section] and most is not None and len(sections[section]) > most:
            return problem
    return None


def _distinct(cards: list[Card]) -> list[Card]:
    return list({c.id: c for c in cards}.values())


def _wrong_deck(card: Card, section: str) -> tuple[str, str, str] | None:
    if card.is_token:
        return (f"'{card.name}' is a Token; Tokens go in no deck", "remove it", "R-DECK-7")
    if section == "main" and card.is_extra_deck:
        return (f"'{card.name}' is a {_frame_word(card)} monster and belongs in the Extra Deck, not the Main Deck",
                "move it to 'extra:'", "R-DECK-7")
    if section == "extra" and not card.is_extra_deck:
        return (f"'{card.name}' is not a Fusion, Synchro, Xyz or Link monster and cannot go in the Extra Deck",
                "move it to 'main:'", "R-DECK-7")
    return None


def wrong_deck(card: Card, section: str) -> tuple[str, str, str] | None:
    """R-DECK-7 for one card in one section: (message, hint, rule), or None when it may go there."""
    return _wrong_deck(card, section)


def _frame_word(card: Card) -> str:
    if isinstance(card, Monster):
        for frame in ("fusion", "synchro", "xyz", "link"):
            if frame in card.frames:
                return {"xyz": "Xyz", "link": "Link"}.get(frame, frame.capitalize())
    return "Extra Deck"


def _fix(count: int, low: int, high: int | None) -> str:
    if count < low:
        return f"add {low - count} more"
    return f"remove {count - high}" if high is not None else ""


class _Positions:
    """Builds Problems located in the deck file when there is one (by its entries), or in the
    file the deck was imported from (by the line of the first card the problem is about)."""

    def __init__(self, deck: Deck, lines: CardLines | None) -> None:
        self.deck = deck
        self.source: DeckFile | None = deck.source
        self.lines = lines
        self.file = lines.file if lines else self.source.file if self.source else deck.name

    def _at(self, loc: tuple[Any, ...], path: str, message: str, hint: str, rule: str,
            about: Callable[[Card], bool] = lambda card: False) -> Problem:
        if self.lines is not None:
            return Problem(self.file, self._first_line(loc[0] if loc else "", about) or 1, 1, path, message, hint, rule)
        if self.source is None:
            return Problem(self.file, 0, 0, path, message, hint, rule)
        line, col = self.source.locator.position(loc)
        return Problem(self.file, line, col, path, message, hint, rule)

    def _first_line(self, section: str, about: Callable[[Card], bool]) -> int:
        assert self.lines is not None
        cards = self.deck.section(section) if section else []
        return min((line for (s, index), line in self.lines.line_of.items() if s == section and about(cards[index])), default=0)

    def section(self, section: str, message: str, hint: str, rule: str) -> Problem:
        return self._at((section,), section, message, hint, rule, about=lambda card: True)

    def card(self, section: str, card: Card, message: str, hint: str, rule: str) -> Problem:
        loc = self._entry_loc(section, lambda ref: _matches(ref, card)) or (section,)
        return self._at(loc, ".".join(map(str, loc)), message, hint, rule, about=lambda other: other.id == card.id)

    def name(self, deck: Deck, deck_name: str, message: str, hint: str, rule: str) -> Problem:
        for section in ("main", "extra", "side"):
            for card in deck.section(section):
                if card.deck_name == deck_name:
                    return self.card(section, card, message, hint, rule)
        return self._at((), "", message, hint, rule)

    def _entry_loc(self, section: str, match: Callable[[str | int], bool]) -> tuple[Any, ...] | None:
        if self.source is None:
            return None
        for entry in self.source.sections.get(section, []):
            if match(entry.ref):
                return entry.loc
        return None


def _matches(ref: str | int, card: Card) -> bool:
    if isinstance(ref, int) or is_digits(str(ref).strip()):
        return int(ref) == card.id
    return " ".join(str(ref).split()).casefold() == card.name.casefold()


def deck_summary(deck: Deck) -> dict[str, Counter[str]]:
    """Counts by kind, level, attribute and type, for `ygoterm check` summaries."""
    summary: dict[str, Counter[str]] = {"kind": Counter(), "level": Counter(), "attribute": Counter(), "type": Counter()}
    for card in deck.main:
        if isinstance(card, Monster):
            summary["kind"]["monster"] += 1
            stars = card.level if card.level is not None else card.rank if card.rank is not None else card.link
            summary["level"][str(stars)] += 1
            summary["attribute"][card.attribute] += 1
            summary["type"][card.type] += 1
        else:
            summary["kind"][f"{card.subtype} {card.kind}"] += 1
    return summary
