"""Where ygoterm finds its data: shipped cards/decks, the user's data dir, the cache.

The shipped `cards/` and `decks/` sit at the top of a source checkout; an installed wheel
carries them as `ygoterm/_data/` (see pyproject.toml). Both are looked for, wheel first.
`YGOTERM_HOME` and `YGOTERM_CACHE` override the platform directories (tests use them).
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

_PACKAGE = Path(__file__).resolve().parent


def shipped(name: str) -> Path:
    """The shipped data folder `name` ('cards' or 'decks')."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    return _PACKAGE / "_data" / name  # absent: callers treat a missing folder as empty


def user_home() -> Path:
    """The user's data dir: their own cards/, decks/, saves/ and settings."""
    env = os.environ.get("YGOTERM_HOME")
    return Path(env) if env else platformdirs.user_data_path("ygoterm", appauthor=False)


AUTOSAVE = "autosave.json"  # an older version's one autosave (still resumed), in saves/
# one autosave per kind of game, in saves/ (tui/presenters/session.py writes them): a test hand
# never overwrites an unfinished match
AUTOSAVE_KINDS = {"hotseat": "hot-seat duel", "solo": "solo duel", "match": "match", "lab": "deck lab test hand"}


def autosave_name(kind: str) -> str:
    """The file name of the autosave of a kind of game (`AUTOSAVE_KINDS`)."""
    return f"autosave-{kind}.json"


def autosave_path(kind: str | None = None) -> Path:
    """The autosave of a kind of game; without a kind, the older single autosave."""
    return user_home() / "saves" / (autosave_name(kind) if kind else AUTOSAVE)


def autosaves() -> list[tuple[str, Path]]:
    """The autosaves there are now, newest first, as (what game it is, path)."""
    found = [(what, autosave_path(kind)) for kind, what in AUTOSAVE_KINDS.items()]
    found.append(("duel", autosave_path()))
    here = [(what, path) for what, path in found if path.is_file()]
    return sorted(here, key=lambda item: item[1].stat().st_mtime, reverse=True)


def is_autosave(path: Path) -> bool:
    return path.name == AUTOSAVE or (path.name.startswith("autosave-") and path.suffix == ".json")


def cache_home() -> Path:
    env = os.environ.get("YGOTERM_CACHE")
    return Path(env) if env else platformdirs.user_cache_path("ygoterm", appauthor=False)


def card_dirs(extra: list[Path] | None = None) -> list[Path]:
    """Card folders in load order: shipped, the user's, then any given with --cards."""
    return _existing([shipped("cards"), user_home() / "cards", *(extra or [])])


def deck_dirs(extra: list[Path] | None = None) -> list[Path]:
    return _existing([shipped("decks"), user_home() / "decks", *(extra or [])])


def banlist_dirs(extra: list[Path] | None = None) -> list[Path]:
    return _existing([d / "banlists" for d in deck_dirs(extra)])


def _existing(paths: list[Path]) -> list[Path]:
    seen: list[Path] = []
    for p in paths:
        if p.is_dir() and p.resolve() not in [s.resolve() for s in seen]:
            seen.append(p)
    return seen


def may_read(target: Path, named_in: Path) -> bool:
    """Whether a file named inside a data file (a deck's banlist, a scenario's cards and decks)
    may be read: it must lie in the shipped data, the user's data, the folder of the file that
    names it, or the current working folder. A path given on the command line needs no check."""
    target = target.resolve()
    roots = (shipped("cards"), shipped("decks"), user_home(), named_in.resolve().parent, Path.cwd())
    return any(target.is_relative_to(root.resolve()) for root in roots)
