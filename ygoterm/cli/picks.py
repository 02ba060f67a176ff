"""What the play commands start from: a deck checked as the menu checks it, a save found by name."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..paths import saves_dir
from ..schema.cardpool import CardPool
from ..schema.decks import Deck
from ..schema.legality import judge_deck
from ..schema.problems import DataError, nearest_first
from .common import UsageError, deck_dirs, find_deck_file

SAVES_LISTED = 12  # saves named in the "no such save" hint; the rest are counted


def playable_deck(args: argparse.Namespace, pool: CardPool, ref: str) -> tuple[Deck, list[str]]:
    """The deck `ref` if the menu would let it be chosen, or, with --allow-illegal, if it breaks
    only rules a duel can be played through; returns it with the rules it breaks. Otherwise a
    UsageError (exit 2) after the problems, as the menu's deck picker shows them."""
    dirs = deck_dirs(args)
    verdict = judge_deck(find_deck_file(ref, dirs), pool, dirs)
    if verdict.deck is None:
        raise DataError(verdict.problems)
    broken = sorted({p.rule for p in verdict.problems if p.rule})
    if verdict.problems and not (args.allow_illegal and verdict.waivable):
        hint = ("or play it anyway with --allow-illegal" if verdict.waivable else
                "--allow-illegal plays through deck sizes, copies and the banlist only, R-DECK-1…5: fix the others first")
        rules = f" ({', '.join(broken)})" if broken else ""
        raise UsageError(f"deck '{verdict.deck.name}' ({verdict.path.name}) breaks the construction rules{rules}; "
                         "fix the problems shown above", hint, verdict.problems)
    return verdict.deck, broken


def saves_folder() -> Path:
    """The folder the duel screen saves into and the menu's "Saved duels" lists."""
    return saves_dir()


def find_save(ref: str) -> Path:
    """A save by path, or by its name in the saves folder (with or without .json, ignoring case,
    or as the duel screen cleans a typed name). Unknown: a UsageError listing the saves, nearest first."""
    from ..tui.presenters.session import save_file_name

    path = Path(ref).expanduser()
    if path.is_file():
        return path
    folder = saves_folder()
    saves = sorted(p for p in folder.glob("*.json") if not p.name.startswith(".")) if folder.is_dir() else []
    wanted = {ref.casefold().removesuffix(".json"), save_file_name(ref).casefold().removesuffix(".json")}
    for save in saves:
        if save.stem.casefold() in wanted:
            return save
    if not saves:
        raise UsageError(f"no save file or save named '{ref}'", f"there are no saves in {folder} yet: s on the duel screen saves a duel")
    names = nearest_first(ref.removesuffix(".json"), [p.stem for p in saves])
    more = f" and {len(names) - SAVES_LISTED} more" if len(names) > SAVES_LISTED else ""
    raise UsageError(f"no save file or save named '{ref}'", f"saves in {folder}: {', '.join(names[:SAVES_LISTED])}{more}")
