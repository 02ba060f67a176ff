"""Text from files shown in a terminal: control characters are shown, never obeyed.

A name or a card text may hold ESC (a save edited by hand, an imported card database): printed
raw, `ESC ] 0 ;` retitles the terminal and `ESC [ 2 J` clears it. The files keep them as they
are; what reaches the terminal shows them as `\\x1b`. Rich and Textual already remove five
control characters (BEL, BS, VT, FF, CR) where text becomes something they draw (rich's `Text`,
Textual's `Content`): the CLI and the TUI add our escapes to those two tables
(`escape_controls_in`), so every string either draws passes through them, measured after the
change. docs/design.md ("Control characters from files are shown, not obeyed") says why this
is done at display time.
"""

from __future__ import annotations

from typing import Any, MutableMapping

# C0 controls but tab and newline, DEL and the C1 controls (U+0080–U+009F: U+009B is a CSI)
ESCAPES: dict[int, str] = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0)) if code not in (0x09, 0x0A)}


def printable(text: str) -> str:
    """`text` with every control character but tab and newline written out (`\\x1b`)."""
    return text.translate(ESCAPES)


def escape_controls_in(table: MutableMapping[int, Any]) -> None:
    """Add our escapes to a library's table of control characters to strip (rich's, Textual's:
    code point → replacement); those it removes already stay removed."""
    for code, escape in ESCAPES.items():
        table.setdefault(code, escape)
