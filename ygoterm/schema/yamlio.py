"""Reading YAML safely, fast, and with line/column for error messages.

Two parsers serve two needs:
- the fast path uses ruamel.yaml's *safe* loader (C-accelerated when ruamel.yaml.clib is there):
  plain dicts/lists, no tags that construct objects, nothing is ever executed;
- only when something is wrong does `Locator` re-parse the text with the round-trip loader,
  which remembers where every key and item stands, to turn a data path into `line:col`.
"""

from __future__ import annotations

import bisect
import os
import stat
import re
import tempfile
from pathlib import Path
from typing import Any, Sequence

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import ConstructorError, RoundTripConstructor, SafeConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from .problems import DataError, Problem, display_path

MAX_EXPANSION_FACTOR = 4
MAX_EXPANSION_FLOOR = 100_000
MAX_NESTING = 500  # deeper YAML crashes the C parser (a segfault near 50,000 levels): refuse it before parsing


class _Constructor(SafeConstructor):
    """The safe constructor, minus two ways plain values could raise instead of being refused:
    dates stay text (pydantic reads them, and an impossible `2005-02-30` becomes a located
    error), and an integer too long for Python (over 4,300 digits) is a located YAML error."""


def _as_text(self: SafeConstructor, node: Any) -> Any:  # (both constructors: a date stays its text)
    return self.construct_scalar(node)


def _integer(self: SafeConstructor, node: Any) -> Any:
    try:
        return SafeConstructor.construct_yaml_int(self, node)
    except ValueError:
        raise ConstructorError(None, None, f"this number has {len(node.value):,} characters; no value here needs more than a few",
                               node.start_mark) from None


_Constructor.add_constructor("tag:yaml.org,2002:timestamp", _as_text)
_Constructor.add_constructor("tag:yaml.org,2002:int", _integer)


class _LocatingConstructor(RoundTripConstructor):
    """The round-trip constructor used only to find positions: values it could not build
    (an impossible date, a huge number) are kept as text, since only where they are matters."""


def _int_or_text(self: RoundTripConstructor, node: Any) -> Any:
    try:  # (an int stays an int: data paths hold int keys such as a deck's passcodes)
        return RoundTripConstructor.construct_yaml_int(self, node)
    except ValueError:
        return self.construct_scalar(node)


_LocatingConstructor.add_constructor("tag:yaml.org,2002:timestamp", _as_text)
_LocatingConstructor.add_constructor("tag:yaml.org,2002:int", _int_or_text)


def _safe_yaml() -> YAML:
    y = YAML(typ="safe")  # pure=False: the C parser when available
    y.Constructor = _Constructor
    y.allow_duplicate_keys = False
    return y


_SAFE = _safe_yaml()


def read_text(path: Path, *, max_bytes: int) -> str:
    """The file's text, or a DataError saying why it cannot be read as a text file."""
    name = display_path(path)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise DataError([Problem(name, 1, 1, "", f"file is {size:,} bytes; the limit for this kind of file is {max_bytes:,}",
                                     "split it into several files, or check that it is the file you meant")])
        raw = path.read_bytes()
    except OSError as e:
        raise DataError([Problem(name, 0, 0, "", f"cannot read file: {e.strerror or e}")]) from None
    return decode(raw, name)


def decode(raw: bytes, name: str) -> str:
    """UTF-8 text from bytes; binary garbage gets a message with the line of the first bad byte."""
    if _utf16(raw):
        raise DataError([Problem(name, 1, 1, "", "this is UTF-16 text, not UTF-8", "save the file as UTF-8 (most editors offer it under Save As / Encoding)")])
    nul = raw.find(b"\0")
    if nul >= 0:
        line, col = _line_col(raw, nul)
        raise DataError([Problem(name, line, col, "", "this is a binary file, not YAML text (a NUL byte)",
                                 "card, deck and scenario files are plain UTF-8 YAML")])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line, col = _line_col(raw, e.start)
        raise DataError([Problem(name, line, col, "", f"not UTF-8 text (byte 0x{raw[e.start]:02x})",
                                 "save the file as UTF-8")]) from None
    return text.removeprefix("\ufeff")


def _utf16(raw: bytes) -> bool:
    """A byte-order mark, or text whose every other byte is NUL (ASCII written as UTF-16)."""
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return True
    head = raw[:64] if len(raw) % 2 == 0 or len(raw) > 64 else raw[:-1]
    return len(head) >= 4 and (not any(head[1::2]) and all(head[0::2]) or not any(head[0::2]) and all(head[1::2]))


def _line_col(raw: bytes, offset: int) -> tuple[int, int]:
    line = raw.count(b"\n", 0, offset) + 1
    col = offset - (raw.rfind(b"\n", 0, offset) + 1) + 1
    return line, col


def _too_deep(text: str) -> tuple[int, int] | None:
    """Where the YAML nests deeper than MAX_NESTING (flow brackets, or '- - - …' on one line),
    found with regular expressions (C speed) before the parser can recurse on it."""
    depth = 0
    for match in _BRACKETS.finditer(text):
        depth += 1 if match.group() in "[{" else -1
        if depth > MAX_NESTING:
            return _position(text, match.start())
    dashes = _DASH_RUN.search(text)
    return _position(text, dashes.start()) if dashes else None


_BRACKETS = re.compile(r"[\[\]{}]")
_DASH_RUN = re.compile(r"(?m)^[ \t]*(?:-[ \t]+){%d,}" % MAX_NESTING)


def _position(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def parse(text: str, name: str) -> Any:
    """Parse YAML text with the safe loader; syntax errors and alias bombs become DataErrors."""
    deep = _too_deep(text)
    if deep is not None:
        raise DataError([Problem(name, *deep, "", f"YAML nesting is deeper than {MAX_NESTING} levels",
                                 "no card, deck or scenario needs more than a few levels: is this the file you meant?")])
    try:
        data = _SAFE.load(text)
    except ConstructorError as e:  # a value the safe loader will not build (a !!python tag, a huge number)
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        what = " ".join(s for s in (e.context, e.problem) if s) or "a value that cannot be read"
        hint = _syntax_hint(what, "") if "tag" in what else "write the value out in a few characters (a card's numbers are small)"
        raise DataError([Problem(name, line, col, "", f"YAML value not allowed: {what}", hint)]) from None
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        what = " ".join(s for s in (e.context, e.problem) if s) or "invalid YAML"
        lines = text.splitlines()
        source_line = lines[line - 1] if 0 < line <= len(lines) else ""
        raise DataError([Problem(name, line, col, "", f"YAML syntax error: {what}", _syntax_hint(what, source_line))]) from None
    except YAMLError as e:
        raise DataError([Problem(name, 1, 1, "", f"YAML error: {e}")]) from None
    except RecursionError:
        raise DataError([Problem(name, 1, 1, "", "YAML nesting is too deep")]) from None
    _check_expansion(data, name, text)
    return data


def load(path: Path, *, max_bytes: int) -> tuple[Any, str]:
    """(data, text) of a YAML file; the text is kept so that errors can be located later."""
    text = read_text(path, max_bytes=max_bytes)
    return parse(text, display_path(path)), text


def _syntax_hint(what: str, source_line: str) -> str:
    if "\t" in source_line or "tab" in what.lower():
        return "indent with spaces, not tabs"
    if "duplicate key" in what.lower():
        return "each key may appear once in a mapping"
    if " #" in source_line or "\t#" in source_line:
        return "'#' starts a comment in YAML: put quotes around a name that contains '#'"
    if "constructor for the tag" in what:
        return "tags such as !!python/... are not allowed: plain YAML values only"
    if "mapping values are not allowed" in what:
        return "a value containing ': ' must be quoted"
    return "check indentation, quotes and brackets around this place"


def _check_expansion(data: Any, name: str, text: str) -> None:
    """Refuse YAML whose aliases expand to far more data than was written (a 'billion laughs')."""
    written = 0  # values as written in the file: each container counted once
    sizes: dict[int, int] = {}
    in_progress: set[int] = set()

    def size(node: Any) -> int:
        nonlocal written
        if not isinstance(node, (dict, list)):
            return 1
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in in_progress:
            raise DataError([Problem(name, *_first_alias(text), "", "YAML alias refers to itself (a recursive structure)",
                                     "remove the anchor/alias pair (&name / *name)")])
        in_progress.add(key)
        written += 1 + len(node)
        children = node.items() if isinstance(node, dict) else enumerate(node)
        total = 1
        for _, child in children:
            total += size(child)
        in_progress.discard(key)
        sizes[key] = total
        return total

    try:
        expanded = size(data)
    except RecursionError:
        raise DataError([Problem(name, 1, 1, "", "YAML nesting is too deep")]) from None
    if expanded > MAX_EXPANSION_FLOOR and expanded > MAX_EXPANSION_FACTOR * written:
        raise DataError([Problem(name, *_first_alias(text), "",
                                 f"YAML aliases expand to {expanded:,} values from a small file (an alias bomb?)",
                                 "write the data out instead of repeating anchors (&name / *name)")])


def _first_alias(text: str) -> tuple[int, int]:
    """Where the first alias (*name) is written, for pointing at an alias bomb."""
    match = _ALIAS.search(text)
    if not match:
        return 1, 1
    line = text.count("\n", 0, match.start()) + 1
    return line, match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1


_ALIAS = re.compile(r"(?:^|[\s\[,{:-])\*(?=[^\s,\]}]+)", re.MULTILINE)


class Locator:
    """Maps a data path (keys and indices) to `(line, col)` in the YAML text, parsed lazily.

    The round-trip parser that knows every position takes about 20 s per megabyte, so a text
    over FAST_LOCATE_BYTES is located by scanning its lines instead: the top-level list items
    ('- ' at the margin) and their keys — exact for card files, the line of the item otherwise."""

    FAST_LOCATE_BYTES = 256 * 1024

    def __init__(self, text: str) -> None:
        self._text = text
        self._tree: Any = None
        self._parsed = False
        self._items: list[int] | None = None  # (fast path) where each top-level list item starts
        self._newlines: list[int] | None = None  # (fast path) where each line ends

    def _line_of(self, offset: int) -> int:
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self._text)]
        return bisect.bisect_left(self._newlines, offset) + 1

    def _fast_position(self, path: Sequence[Any]) -> tuple[int, int]:
        if self._items is None:
            self._items = [m.start() for m in re.finditer(r"(?m)^- ", self._text)]
        if not path or not isinstance(path[0], int) or not 0 <= path[0] < len(self._items):
            return 1, 1
        start = self._items[path[0]]
        if len(path) > 1 and isinstance(path[1], str):
            end = self._items[path[0] + 1] if path[0] + 1 < len(self._items) else len(self._text)
            key = re.compile(r"(?m)^(?:- |  )" + re.escape(path[1]) + ":").search(self._text, start, end)
            if key:
                return self._line_of(key.start()), 3
        return self._line_of(start), 1

    def _root(self) -> Any:
        if not self._parsed:
            self._parsed = True
            try:
                y = YAML(typ="rt")
                y.Constructor = _LocatingConstructor
                self._tree = y.load(self._text)
            except Exception:  # already parsed once by the safe loader; be defensive
                self._tree = None
        return self._tree

    def position(self, path: Sequence[Any], *, key: bool = True) -> tuple[int, int]:
        """1-based position of the deepest part of `path` present in the file.

        With `key=True` a mapping entry points at its key (where "unknown key" errors belong);
        otherwise at its value.
        """
        if len(self._text) > self.FAST_LOCATE_BYTES:
            return self._fast_position(path)
        node = self._root()
        line, col = 1, 1
        if node is None:
            return line, col
        if hasattr(node, "lc"):
            line, col = node.lc.line + 1, node.lc.col + 1
        for i, part in enumerate(path):
            last = i == len(path) - 1
            try:
                if isinstance(node, CommentedMap):
                    if part not in node:
                        break
                    ln, cl = node.lc.value(part) if (last and not key) else node.lc.key(part)
                    line, col = ln + 1, cl + 1
                    node = node[part]
                elif isinstance(node, CommentedSeq) and isinstance(part, int) and 0 <= part < len(node):
                    ln, cl = node.lc.item(part)
                    line, col = ln + 1, cl + 1
                    node = node[part]
                else:
                    break
            except (AttributeError, KeyError, TypeError, IndexError):
                break
        return line, col


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` so that it is either the old file or the whole new one: a temporary
    file in the same folder, flushed to disk, then renamed over it. Raises OSError. The file keeps
    its permissions, and a new one gets those of any new file (the temporary file's own, 0600,
    would hide a deck or a results file from the other users of a shared machine)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, _mode_for(path))
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _mode_for(path: Path) -> int:
    """The permissions `path` has, or those a new file gets (0666 less the umask)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask
