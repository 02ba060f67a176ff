"""Deck interchange with other simulators: YGOPro `.ydk` files and `ydke://` links.

`.ydk`: `#main`, `#extra` and `!side` headers, then one passcode per line; `#` lines are comments.
`ydke://`: three standard-base64 blobs of little-endian uint32 passcodes (main, extra, side),
each followed by `!`.
"""

from __future__ import annotations

import base64
import binascii
import struct
from collections import Counter
from io import StringIO
from pathlib import Path
from typing import Callable, Iterable, Mapping

from ruamel.yaml import YAML

from .. import paths
from .cardpool import CardPool
from .cards import Card
from .decks import SECTIONS, Deck
from .problems import DataError, Problem, display_path, is_digits, too_many_digits
from .validate import CardLines, check_deck
from .yamlio import read_text

MAX_YDK_BYTES = 256 * 1024

Passcodes = dict[str, list[int]]  # section → passcodes in order


def parse_ydk(text: str, file: str) -> tuple[Passcodes, dict[tuple[str, int], int]]:
    """Passcodes per section, and the line of each (section, index) for error messages."""
    sections: Passcodes = {s: [] for s in SECTIONS}
    lines: dict[tuple[str, int], int] = {}
    current = "main"
    problems: list[Problem] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        low = line.casefold()
        if low.startswith("#main"):
            current = "main"
        elif low.startswith("#extra"):
            current = "extra"
        elif low.startswith("!side"):
            current = "side"
        elif line.startswith("#"):
            continue
        elif is_digits(line) and too_many_digits(line, 9):
            problems.append(Problem(file, number, 1, current, f"this passcode {too_many_digits(line, 9)}",
                                    "a passcode has at most 9 digits: the file is damaged, or this line is not a passcode"))
        elif is_digits(line):
            lines[(current, len(sections[current]))] = number
            sections[current].append(int(line))
        else:
            problems.append(Problem(file, number, 1, current, f"expected a passcode (digits), found {line[:40]!r}",
                                    "a .ydk file lists one passcode per line under #main, #extra and !side"))
    if problems:
        raise DataError(problems)
    return sections, lines


def write_ydk(deck: Deck) -> str:
    out = ["#created by ygoterm", "#main", *(str(c.id) for c in deck.main), "#extra", *(str(c.id) for c in deck.extra),
           "!side", *(str(c.id) for c in deck.side)]
    return "\n".join(out) + "\n"


def parse_ydke(url: str) -> Passcodes:
    """The three passcode lists of a `ydke://` link."""
    link = url.strip()
    if not link.startswith("ydke://"):
        raise DataError([Problem("ydke link", 0, 0, "", "a ydke link starts with 'ydke://'")])
    parts = link[len("ydke://"):].split("!")
    if len(parts) < 4 or any(p for p in parts[3:]):
        raise DataError([Problem("ydke link", 0, 0, "", "a ydke link has three parts (main, extra, side), each ending with '!'")])
    sections: Passcodes = {}
    for section, blob in zip(SECTIONS, parts[:3]):
        try:
            raw = base64.b64decode(blob, validate=True)
        except (binascii.Error, ValueError):
            raise DataError([Problem("ydke link", 0, 0, section, f"the {section} part is not valid base64")]) from None
        if len(raw) % 4:
            raise DataError([Problem("ydke link", 0, 0, section, f"the {section} part is {len(raw)} bytes, not a multiple of 4")])
        sections[section] = list(struct.unpack(f"<{len(raw) // 4}I", raw))
    return sections


def write_ydke(deck: Deck) -> str:
    def blob(ids: Iterable[int]) -> str:
        ids = list(ids)
        return base64.b64encode(struct.pack(f"<{len(ids)}I", *ids)).decode("ascii")

    return "ydke://" + "".join(blob(c.id for c in deck.section(s)) + "!" for s in SECTIONS)


Known = Callable[[], Mapping[int, tuple[str, str, str]]]  # passcode → (name, what became of it, source), lazily


def deck_from_passcodes(name: str, sections: Passcodes, pool: CardPool, *, source: str,
                        lines: dict[tuple[str, int], int] | None = None, known: Known | None = None,
                        skipped: list[Problem] | None = None) -> Deck:
    """Look up passcodes (alternate passcodes count as their card). Unknown ones are reported once
    per distinct card with its count, and its name when an imported card database knows it
    (R-DECK-8). With a `skipped` list they go there and the deck is built without them."""
    resolved: dict[str, list[Card]] = {s: [] for s in SECTIONS}
    unknown: dict[int, list[tuple[str, int]]] = {}
    for section in SECTIONS:
        for index, code in enumerate(sections.get(section, [])):
            card = pool.get(code)
            if card is None:
                unknown.setdefault(code, []).append((section, index))
            else:
                resolved[section].append(card)
    if unknown:
        problems = unknown_problems(unknown, source, lines or {}, known)
        if skipped is None:
            raise DataError(problems, unreadable=False)
        skipped.extend(problems)
    return Deck(name, resolved["main"], resolved["extra"], resolved["side"])


def unknown_problems(unknown: dict[int, list[tuple[str, int]]], source: str, lines: dict[tuple[str, int], int],
                     known: Known | None) -> list[Problem]:
    """One line per distinct unknown passcode, at its first line, then what to do about them."""
    from .cardimport import imported_names  # (only when a passcode is unknown: it reads every import's index)

    names = known() if known is not None else imported_names(paths.card_dirs())
    problems = []
    for code, places in unknown.items():
        section, index = places[0]
        line = lines.get((section, index), 0)
        count = f" ×{len(places)}" if len(places) > 1 else ""
        if code in names:
            name, status, file = names[code]
            what = f"'{name}' ({status} in {file})"
        else:
            what = "a card no imported card database has"
        problems.append(Problem(source, line, 1 if line else 0, f"{section}[{index}]", f"unknown passcode {code}{count}: {what}", "", "R-DECK-8"))
    copies = sum(len(p) for p in unknown.values())
    folder = paths.user_home() / "cards"
    problems.append(Problem(source, 0, 0, "", f"{len(unknown)} card{'s are' if len(unknown) > 1 else ' is'} not in the card pool "
                            f"({copies} cop{'ies' if copies > 1 else 'y'})",
                            f"add their data to your card folder ({folder}) with 'ygoterm cards import cards.cdb' (EDOPro/YGOPro) or "
                            "a YGOPRODeck JSON, then import the deck again; or pass --skip-unknown to import the rest", "R-DECK-8"))
    return problems


def import_deck(ref: str, pool: CardPool, *, known: Known | None = None,
                skipped: list[Problem] | None = None) -> tuple[Deck, list[Problem]]:
    """A deck from a `.ydk` path or a `ydke://` link, and what makes it illegal (R-DECK-1…7,
    located at the card's line of the .ydk): an import is checked like any deck file. With a
    `skipped` list, unknown cards are left out and listed there instead of refusing the deck."""
    lines: dict[tuple[str, int], int] = {}  # (a link has no lines)
    if ref.strip().startswith("ydke://"):
        sections, file = parse_ydke(ref), "ydke link"
        deck = deck_from_passcodes("Imported deck", sections, pool, source=file, known=known, skipped=skipped)
    else:
        path = Path(ref)
        file = display_path(path)
        text = read_text(path, max_bytes=MAX_YDK_BYTES)
        sections, lines = parse_ydk(text, file)
        deck = deck_from_passcodes(path.stem, sections, pool, source=file, lines=lines, known=known, skipped=skipped)
        if skipped:  # the lines of the cards that are left
            kept = {s: [i for i, code in enumerate(sections[s]) if pool.get(code) is not None] for s in SECTIONS}
            lines = {(s, new): lines[(s, old)] for s in SECTIONS for new, old in enumerate(kept[s]) if (s, old) in lines}
    return deck, check_deck(deck, lines=CardLines(file, lines))


def deck_to_yaml(deck: Deck) -> str:
    """The canonical deck YAML: names with counts, in first-appearance order."""
    data: dict[str, object] = {"name": deck.name}
    if deck.banlist:
        data["banlist"] = deck.banlist
    for section in SECTIONS:
        data[section] = dict(Counter(c.name for c in deck.section(section)))
    yaml = YAML(typ="rt")
    yaml.default_flow_style = False
    out = StringIO()
    yaml.dump(data, out)
    return out.getvalue()
