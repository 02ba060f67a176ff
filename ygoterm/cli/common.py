"""What every command shares: the console, the card pool, printing problems, exit codes."""

from __future__ import annotations

import argparse
import gc
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

import rich.control as rich_control
from rich.console import Console
from rich.markup import escape

from .. import paths
from ..schema.printable import escape_controls_in
from ..schema.problems import DataError, Problem, did_you_mean

if TYPE_CHECKING:  # (imported where used: `ygoterm` alone opens the menu before loading the card schema)
    from ..schema.banlist import Banlist
    from ..schema.cardpool import CardPool

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2
EXIT_INTERNAL = 70  # EX_SOFTWARE: a bug in ygoterm (an effect failed to resolve)

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)
# a name or card text from a file that holds ESC … prints as '\x1b', never raw (schema/printable.py),
# through rich's table of control characters to strip (private: tests/test_bad_inputs.py fails if it moves)
escape_controls_in(getattr(rich_control, "_CONTROL_STRIP_TRANSLATE", {}))


class UsageError(Exception):
    """A command-line mistake (a missing file, an unknown deck name, an illegal deck to play):
    exit 2 with the message, after the `problems` that explain it."""

    def __init__(self, message: str, hint: str = "", problems: Iterable[Problem] = ()) -> None:
        self.hint = hint
        self.problems = list(problems)
        super().__init__(message)


def existing_dirs(values: Iterable[Path] | None, flag: str) -> list[Path]:
    dirs = [Path(v).expanduser() for v in values or []]
    for d in dirs:
        if not d.is_dir():
            raise UsageError(f"{flag} {d}: no such folder")
    return dirs


def card_pool(args: argparse.Namespace) -> CardPool:
    """The pool from the shipped, user and --cards folders or files (raises DataError on bad files)."""
    return load_pool(*card_sources(args))


def card_sources(args: argparse.Namespace) -> tuple[list[Path], list[Path]]:
    """The card folders and single card files to load: shipped, user and --cards (a --cards
    path that does not exist is a UsageError)."""
    extra = [Path(v).expanduser() for v in args.cards or []]
    for p in extra:
        if not p.exists():
            raise UsageError(f"--cards {p}: no such file or folder")
        if not (p.is_dir() or p.is_file()):
            raise UsageError(f"--cards {p}: not a folder or a card file", "--cards takes a folder of card files or one .yaml file")
    return paths.card_dirs([p for p in extra if p.is_dir()]), [p for p in extra if p.is_file()]


def load_pool(dirs: list[Path], files: list[Path]) -> CardPool:
    from ..schema.cardpool import CardPool

    pool = CardPool.load(dirs, files=files)
    # The pool (tens of thousands of small objects) lives as long as the process: moving it out
    # of the cyclic GC's sight stops every full collection from re-walking it. Duels, whose
    # card<->duel cycles do need the collector, run ~30% faster for it (`ygoterm bench`).
    gc.freeze()
    return pool


def deck_dirs(args: argparse.Namespace) -> list[Path]:
    return paths.deck_dirs(existing_dirs(args.decks, "--decks"))


def find_deck_file(ref: str, dirs: list[Path]) -> Path:
    """A deck file by path or name, or a UsageError naming the nearest decks."""
    from ..schema.decks import deck_paths, find_deck

    path = find_deck(ref, dirs)
    if path is None:
        names = [p.stem for p in deck_paths(dirs)]
        raise UsageError(f"no deck file or deck named '{ref}'", did_you_mean(ref, names) or f"known decks: {', '.join(names)}")
    return path


def banlist_by_ref(ref: str, dirs: list[Path], pool: CardPool, named_in: Path | None = None) -> Banlist:
    """A banlist by name or path, loaded and resolved against the pool. `named_in`: the deck
    file that names it, whose folder a relative path starts from (and which may not point
    outside the folders `paths.may_read` allows)."""
    from ..schema.banlist import find_banlist, load_banlist

    path = find_banlist(ref, paths.banlist_dirs(dirs), named_in=named_in)
    if path is None:
        known = sorted({p.stem for d in paths.banlist_dirs(dirs) for p in d.iterdir()})
        raise UsageError(f"unknown banlist '{ref}'", did_you_mean(ref, known) or f"known banlists: {', '.join(known) or 'none'}")
    return load_banlist(path, pool)


def print_problems(problems: Iterable[Problem], console: Console = err) -> None:
    """One line per problem: `file:line:col  path  message  (hint)`, coloured on a terminal."""
    for p in problems:
        line = f"[bold]{escape(p.where)}[/]"
        if p.path:
            line += f"  [cyan]{escape(p.path)}[/]"
        message = p.message + (f" [{p.rule}]" if p.rule and p.rule not in p.message else "")
        line += f"  [red]{escape(message)}[/]"
        if p.hint:
            line += f"  [dim]({escape(p.hint)})[/]"
        console.print(line, soft_wrap=True)


def report_data_error(error: DataError) -> int:
    print_problems(error.problems)
    count = len(error.problems)
    err.print(f"[red]{count} problem{'s' if count != 1 else ''} found.[/]")
    return EXIT_UNREADABLE if error.unreadable else EXIT_INVALID
