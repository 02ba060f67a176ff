"""Where ygoterm finds its data: shipped cards/decks, the user's data dir, the cache.

The shipped `cards/` and `decks/` sit at the top of a source checkout; an installed wheel
carries them as `ygoterm/_data/` (see pyproject.toml). Both are looked for, wheel first.
`YGOTERM_HOME` and `YGOTERM_CACHE` override the platform directories (tests use them);
`YGOTERM_SESSION` gives a session its own settings and autosaves (`ygoterm serve` sets it per tab).

Several ygoterm processes may share one data dir (two terminals, browser tabs): a game holds
the autosave it writes (a lock file beside it, released by the OS when the process ends), and a
game of the same kind elsewhere takes the next free one, so no process overwrites another's.
"""

from __future__ import annotations

import os
import re
import sys
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


def session() -> str:
    """This process's session ($YGOTERM_SESSION: `ygoterm serve` gives each browser tab web-1,
    web-2 …), cleaned to a folder name; "" for a plain ygoterm."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", os.environ.get("YGOTERM_SESSION", ""))[:40]


def session_home() -> Path:
    """Where this session keeps its own settings.json and autosaves: the user's data dir, or for
    a session its sessions/NAME/ there (cards, decks, named saves and puzzles stay shared)."""
    name = session()
    return user_home() / "sessions" / name if name else user_home()


def saves_dir() -> Path:
    """The named saves (s on the duel screen; the menu's "Saved duels"), shared by every session."""
    return user_home() / "saves"


def autosave_dir() -> Path:
    """This session's autosaves (the plain ygoterm's are among the named saves, as they always were)."""
    return session_home() / "saves"


AUTOSAVE = "autosave.json"  # an older version's one autosave (still resumed), in saves/
# one autosave per kind of game, in saves/ (tui/presenters/session.py writes them): a test hand
# never overwrites an unfinished match
AUTOSAVE_KINDS = {"hotseat": "hot-seat duel", "solo": "solo duel", "match": "match", "lab": "deck lab test hand"}
_NUMBERED = re.compile(r"autosave-([a-z]+)(?:-(?:[2-9]|[1-9][0-9]+))?\.json")  # (autosave-solo.json, autosave-solo-2.json …)


def autosave_name(kind: str, n: int = 1) -> str:
    """The file name of the autosave of a kind of game (`AUTOSAVE_KINDS`); n > 1: the one a game
    takes while other running ygoterms hold the first n - 1."""
    return f"autosave-{kind}.json" if n == 1 else f"autosave-{kind}-{n}.json"


def autosave_kind(path: Path) -> str | None:
    """The kind of game an autosave file keeps (None: not one of the kinds' autosaves)."""
    m = _NUMBERED.fullmatch(path.name)
    return m.group(1) if m and m.group(1) in AUTOSAVE_KINDS else None


def autosave_path(kind: str | None = None) -> Path:
    """The (first) autosave of a kind of game; without a kind, the older single autosave."""
    return autosave_dir() / (autosave_name(kind) if kind else AUTOSAVE)


def autosaves() -> list[tuple[str, Path]]:
    """The autosaves there are now, newest first, as (what game it is, path) — but not those
    another running ygoterm is playing on."""
    folder = autosave_dir()
    found = []
    for path in sorted(folder.glob("autosave*.json")) if folder.is_dir() else []:
        kind = autosave_kind(path)
        if (kind or path.name == AUTOSAVE) and not held_elsewhere(path):
            try:
                found.append((path.stat().st_mtime, AUTOSAVE_KINDS[kind] if kind else "duel", path))
            except OSError:  # (removed since: that game just ended)
                pass
    return [(what, path) for _, what, path in sorted(found, key=lambda item: item[0], reverse=True)]


def is_autosave(path: Path) -> bool:
    return path.name == AUTOSAVE or (path.name.startswith("autosave-") and path.suffix == ".json")


# ---------------------------------------------------------------------- which process holds an autosave

_held: dict[Path, int] = {}  # the autosaves this process holds → the open lock file (its lock)


def _lock_file(path: Path) -> Path:
    return path.with_name(f".{path.name}.lock")


if sys.platform == "win32":
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:  # (flock, not lockf: a lock per open file, which closing another descriptor keeps)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True


def hold(path: Path) -> bool:
    """Hold the autosave `path` for this process, until `release` or the process ends (the OS
    drops the lock even after a crash). False: another running ygoterm holds it. A folder that
    cannot be written counts as held here: the autosave itself then fails and says why."""
    key = path.absolute()
    if key in _held:
        return True
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(_lock_file(path), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return True
    if not _try_lock(fd):
        os.close(fd)
        return False
    _held[key] = fd
    return True


def release(path: Path) -> None:
    """Let other processes take the autosave `path` (its game ended)."""
    fd = _held.pop(path.absolute(), None)
    if fd is not None:
        os.close(fd)


def held_elsewhere(path: Path) -> bool:
    """Whether another running ygoterm holds the autosave `path` (is playing that game)."""
    if path.absolute() in _held:
        return False
    try:
        fd = os.open(_lock_file(path), os.O_RDWR)
    except OSError:  # no lock file: nobody ever held it
        return False
    try:
        return not _try_lock(fd)
    finally:
        os.close(fd)  # (releases the lock just taken)


def claim_autosave(folder: Path, kind: str) -> Path:
    """The autosave in `folder` a new game of `kind` keeps, held from now on: the kind's own
    file, or while other running ygoterms hold it, the next free one (autosave-solo-2.json …)."""
    n = 1
    while not hold(path := folder / autosave_name(kind, n)):
        n += 1
    return path


def autosave_for(kept: Path | None, folder: Path, kind: str) -> Path:
    """The autosave a game of `kind` writes in `folder`: `kept`, the one it keeps already, if it
    is that kind's in that folder; else a newly claimed one (and `kept` is let go)."""
    if kept is not None and kept.parent == folder and autosave_kind(kept) == kind:
        return kept
    if kept is not None:
        release(kept)
    return claim_autosave(folder, kind)


def next_autosave(folder: Path, kind: str) -> Path:
    """The autosave a new game of `kind` would take now (`claim_autosave`), not held yet."""
    n = 1
    while held_elsewhere(path := folder / autosave_name(kind, n)):
        n += 1
    return path


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
