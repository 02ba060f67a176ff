"""What our screens share: plain-text notifications, and the framed dialog every modal
question of ours is built on."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen

from .dimmed import DimsBelow


class PlainNotifications:
    """For our screens: a notification is plain text. Ours carry rule ids such as [R-DECK-1],
    file paths and card names, which Textual's content markup would swallow or misread."""

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)  # type: ignore[misc]


class Dialog(DimsBelow, PlainNotifications, ModalScreen):
    """A framed question in the middle of the screen; Escape cancels when allowed."""

    BINDINGS = [Binding("escape", "cancel", "Back")]
    cancellable = True

    def dismiss(self, result: Any = None) -> Any:
        """Answer once: keys typed ahead (a second Enter) must not close the screen below."""
        if getattr(self, "_answered", False) or not self.is_current:
            return None
        self._answered = True
        return super().dismiss(result)

    def action_cancel(self) -> None:
        if self.cancellable:
            self.dismiss(None)
