"""Reading JSON (saves, settings, YGOPRODeck card data) so that no text makes it raise anything
but a located DataError, and finding where a value stands for error messages.

`json.loads` fails in two ways besides `JSONDecodeError`, both without a position: a number of
over 4,300 digits (ValueError: Python refuses to convert it) and nesting deeper than the
recursion limit (RecursionError, near 1,000 levels). `loads` turns both into `file:line:col`
problems; a syntax error stays a `JSONDecodeError` for the caller, whose message says what the
file should have been ("not a valid save", "not valid JSON" …).
"""

from __future__ import annotations

import bisect
import json
import re
from typing import Any, Sequence

from .problems import DataError, Problem

MAX_DIGITS = 100  # no number in our JSON needs more (passcodes have 9 digits, seeds about 20)
MAX_NESTING = 500  # where a too-deep file is pointed at (json itself gives up near 1,000)

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")
_BRACKETS = re.compile(r"[\[\]{}]")


class _LongNumber(ValueError):
    """Raised from inside the decoder, before int() would refuse the number without a place."""

    def __init__(self, digits: str) -> None:
        super().__init__(f"a number of {len(digits):,} digits")
        self.digits = digits


def bounded_int(digits: str) -> int:
    """json's `parse_int`: a ValueError that says what is wrong for over MAX_DIGITS digits."""
    if len(digits) > MAX_DIGITS:
        raise _LongNumber(digits)
    return int(digits)


def loads(text: str, name: str) -> Any:
    """`json.loads(text)`; a huge number or absurd nesting is a DataError at its place."""
    try:
        return json.loads(text, parse_int=bounded_int)
    except _LongNumber as e:
        at = text.find(e.digits)
        raise DataError([Problem(name, *position_of(text, max(at, 0)), "",
                                 f"this number has {len(e.digits):,} characters; no value here needs more than a few",
                                 "the file is damaged or was edited: write the number out in a few digits")]) from None
    except RecursionError:
        raise DataError([Problem(name, *_too_deep(text), "", f"JSON nesting is deeper than {MAX_NESTING} levels",
                                 "no ygoterm file nests more than a few levels: is this the file you meant?")]) from None


def _too_deep(text: str) -> tuple[int, int]:
    """Where the nesting first passes MAX_NESTING (brackets in strings counted too: only used
    once json has already given up, to point somewhere useful)."""
    depth = 0
    for match in _BRACKETS.finditer(text):
        depth += 1 if match.group() in "[{" else -1
        if depth > MAX_NESTING:
            return position_of(text, match.start())
    return 1, 1


def position_of(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a character offset."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


class JsonLocator:
    """Maps a data path (keys and indices) to `(line, col)` in JSON text without parsing it all
    again: it walks down the path, skipping siblings with the C decoder, and remembers where the
    items of the last list it walked start (card data: every problem is in one long list)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._items: dict[tuple[Any, ...], list[int]] = {}
        self._newlines: list[int] | None = None

    def position(self, path: Sequence[Any]) -> tuple[int, int]:
        """1-based position of the deepest part of `path` present in the text (1, 1 if none):
        a mapping entry's key, a list's item."""
        at = spot = self._skip_space(0)
        for depth, part in enumerate(path):
            found = self._child(tuple(path[:depth]), at, part)
            if found is None:
                break
            spot, at = found
        return self._line_col(spot)

    def _child(self, where: tuple[Any, ...], at: int, part: Any) -> tuple[int, int] | None:
        """(where to point, where its value starts) for `part` of the container at `at`."""
        text = self._text
        if at < len(text) and text[at] == "{" and isinstance(part, str):
            return self._member(at, part)
        if at < len(text) and text[at] == "[" and isinstance(part, int):
            items = self._items.get(where)
            if items is None:
                items = self._items[where] = self._item_starts(at)
            return (items[part], items[part]) if 0 <= part < len(items) else None
        return None

    def _member(self, at: int, key: str) -> tuple[int, int] | None:
        """(its key, its value) of `key` in the object at `at`."""
        text = self._text
        at = self._skip_space(at + 1)
        try:
            while at < len(text) and text[at] == '"':
                name, after = _DECODER.raw_decode(text, at)
                value = self._skip_space(self._skip_space(after) + 1)  # (past the ':')
                if name == key:
                    return at, value
                _, end = _DECODER.raw_decode(text, value)
                at = self._skip_space(self._skip_space(end) + 1)  # (past the ',')
        except (ValueError, RecursionError):
            pass
        return None

    def _item_starts(self, at: int) -> list[int]:
        text = self._text
        starts: list[int] = []
        at = self._skip_space(at + 1)
        try:
            while at < len(text) and text[at] != "]":
                starts.append(at)
                _, end = _DECODER.raw_decode(text, at)
                at = self._skip_space(self._skip_space(end) + 1)
        except (ValueError, RecursionError):
            pass
        return starts

    def _skip_space(self, at: int) -> int:
        match = _SPACE.match(self._text, at)
        return match.end() if match else at

    def _line_col(self, offset: int) -> tuple[int, int]:
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self._text)]
        line = bisect.bisect_left(self._newlines, offset)
        start = self._newlines[line - 1] + 1 if line else 0
        return line + 1, offset - start + 1
