"""What the duel screen's parts share: `DuelScreen` (duel.py) is this base with its parts mixed
in — the AI seat (duel_ai.py), manual actions (duel_manual.py), the keys that end or restart a
duel (duel_endings.py). The base declares the state and the few methods the parts use of one
another, so that each part is a module of its own and still type-checked as the screen."""

from __future__ import annotations

from typing import Any, Callable

from textual.screen import Screen

from ...engine import Event
from ...scenarios import Puzzle
from ..presenters.session import Session
from ..widgets.board import Board
from ..widgets.questions import Question
from .base import PlainNotifications

Answered = Callable[[Any], None]


class DuelScreenBase(PlainNotifications, Screen[None]):
    """The duel screen's shared state; the methods below are the screen's (duel.py)."""

    session: Session
    title_text: str
    solo: bool
    asking: bool  # a question or a dialog is open: the board's keys wait
    thinking: bool  # the AI is thinking in a worker thread: the board shows, actions wait
    over_shown: bool  # the end-of-duel screen came up once (r and q work on the board after it)
    prefer_first: bool  # new test hands go first
    puzzle: Puzzle | None  # a puzzle's goal (told by duel_endings once solved or missed)
    puzzle_told: bool
    last_lp: list[int]
    lp_change: list[int]
    board: Board
    _manual_reason: tuple[Any, str] | None

    def advance(self) -> None:
        """Draw the duel and ask whatever the pending decision needs."""
        raise NotImplementedError

    def ask(self, asked: Question | Screen[Any], callback: Answered) -> None:
        """Ask a question over the board, or push a modal screen; `callback` gets the answer."""
        raise NotImplementedError

    def forget_history(self) -> None:
        """Another duel, or this one taken back: the log is written again, no last chain."""
        raise NotImplementedError

    def remember(self, events: list[Event]) -> None:
        """The events of an answer: the chain panel follows its links."""
        raise NotImplementedError

    def sync_keys(self) -> None:
        """The key bar follows what `check_action` depends on."""
        raise NotImplementedError

    def rematch(self, first: int) -> None:
        """The same decks again on a new screen, `first` going first."""
        raise NotImplementedError
