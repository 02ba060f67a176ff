"""Writing a deck back as YAML (the deck editor): the canonical form of docs/data.md, keeping
what it can of the file the deck came from — its comments, key order and the way each card is
named (name or passcode) — through ruamel.yaml's round-trip loader."""

from __future__ import annotations

import re
from collections import Counter
from io import StringIO
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap

from .cardpool import CardPool
from .cards import Card
from .decks import SECTIONS, Deck, deck_paths


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.default_flow_style = False
    yaml.width = 4096  # (a long description stays on its line)
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.preserve_quotes = True
    return yaml


def deck_yaml(deck: Deck, pool: CardPool, original: str | None = None, *, description: str = "") -> str:
    """`deck` as deck-file YAML (`description` for a new file). With `original` (the text of the file it was read from), that
    file is updated in place: counts change, cards no longer in the deck go, new cards are
    appended to their section; comments stay (those on a removed card's line go with it). A
    section written as a list, or a file that does not read as a mapping, is written anew."""
    yaml = _yaml()
    data: Any = None
    if original:
        try:
            data = yaml.load(original)
        except Exception:  # (the editor read this file already; be defensive all the same)
            data = None
    if not isinstance(data, CommentedMap):
        data = CommentedMap()
    _set(data, "name", deck.name, 0)
    if deck.banlist:
        _set(data, "banlist", deck.banlist, 1)
    elif "banlist" in data:
        del data["banlist"]
    if description and "description" not in data:
        _set(data, "description", description, 2)
    for section in SECTIONS:
        data[section] = _section(data.get(section), deck.section(section), pool)
    out = StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def _set(data: CommentedMap, key: str, value: Any, position: int) -> None:
    if key in data:
        data[key] = value
    else:
        data.insert(min(position, len(data)), key, value)


def _section(old: Any, cards: list[Card], pool: CardPool) -> Any:
    """A section's mapping of card → count: the old mapping's entries kept (in their order, with
    their comments and their way of naming the card) where the card is still there."""
    wanted: Counter[int] = Counter(c.id for c in cards)
    by_id = {c.id: c for c in cards}
    out = old if isinstance(old, CommentedMap) else CommentedMap()
    written: set[int] = set()
    for ref in list(out):
        card = pool.get(ref) if isinstance(ref, (str, int)) and not isinstance(ref, bool) else None
        if card is None:
            continue  # (an unknown card, R-DECK-8, stays as written: the editor never saw it)
        if card.id not in wanted or card.id in written:
            del out[ref]
            continue
        out[ref] = wanted[card.id]
        written.add(card.id)
    for card_id in wanted:  # (first-appearance order)
        if card_id not in written:
            out[by_id[card_id].name] = wanted[card_id]
    return out


def deck_file_stem(name: str) -> str:
    """A deck's file name from its name, as the shipped ones are written: 'Kaiba's Dragons' → kaiba-s-dragons."""
    return re.sub(r"\W+", "-", name.casefold()).strip("-_")[:80] or "deck"


def free_deck_path(name: str, folder: Path, dirs: list[Path]) -> Path:
    """A new deck file in `folder` for a deck named `name`: STEM.yaml, or STEM-2.yaml … when a
    deck file of that stem exists in any deck folder (two decks of one stem could not both be
    chosen by name)."""
    stem = deck_file_stem(name)
    taken = {p.stem.casefold() for p in deck_paths([d for d in {*dirs, folder} if d.is_dir()])}
    n, candidate = 1, stem
    while candidate in taken or (folder / f"{candidate}.yaml").exists():
        n += 1
        candidate = f"{stem}-{n}"
    return folder / f"{candidate}.yaml"
