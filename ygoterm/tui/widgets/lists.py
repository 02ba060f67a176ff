"""Option lists for screens built around one: a picker's list and the panel that follows it."""

from __future__ import annotations

from typing import Literal

from typing import TYPE_CHECKING

from textual.widgets import OptionList


if TYPE_CHECKING:  # (the menu uses these widgets before the card schema is loaded: tui/pool_loader.py)
    pass


class BrowsesList:
    """For screens built around one OptionList and a panel that describes the highlighted
    entry (deck pickers, piles): focus the list, and redraw the panel as the highlight moves."""

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()  # type: ignore[attr-defined]
        self._show(0)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show(event.option_index)

    def _show(self, index: int) -> None:
        raise NotImplementedError


class Choices(OptionList):
    """An OptionList whose PageUp/PageDown before it is laid out (its options just replaced, the
    question just shown, keys typed ahead) does nothing: Textual 8 raised KeyError there."""

    def _move_page(self, direction: Literal[-1, 1]) -> None:
        self._update_lines()
        try:
            super()._move_page(direction)
        except (KeyError, IndexError):
            return
