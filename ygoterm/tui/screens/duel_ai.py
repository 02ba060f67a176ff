"""The duel screen's AI seat: it thinks in a worker thread while the board stays usable, and
w says why it did what it did (its own search, as the viewer may see it: its hidden cards stay hidden)."""

from __future__ import annotations

from typing import Any

from ..presenters.describe import why_lines
from ..presenters.session import EngineBug
from ..widgets.questions import ChoicePrompt
from .dialogs import MessageScreen
from .duel_base import DuelScreenBase


class AISeat(DuelScreenBase):
    """Mixed into `DuelScreen`: asking the AI seat and explaining its moves."""


    def why_lines(self) -> list[str] | None:
        """The AI's last searched move: the candidates it weighed, their values and play-outs, as
        the viewer may see them (presenters.describe.why_lines); None before its first search."""
        return why_lines(self.session)

    def action_why(self) -> None:
        """w on the board (a question open over it asks with `ChoicePrompt.WhyAsked`)."""
        if self.asking:
            return
        lines = self.why_lines()
        if not lines:
            self.notify("The AI has not weighed a move yet (easy plays by rules of thumb).", timeout=4)
            return
        self.ask(MessageScreen("Why the AI did that", "\n".join(lines)), lambda _: self.advance())

    def on_choice_prompt_why_asked(self, _: ChoicePrompt.WhyAsked) -> None:
        """w over an open question (answering the AI's attack, you may want to know): the
        question stays under the message."""
        lines = self.why_lines()
        if lines:
            self.app.push_screen(MessageScreen("Why the AI did that", "\n".join(lines)))

    def _think(self) -> None:
        """Ask the AI in a worker thread; the screen stays responsive and says so."""
        self.thinking = True
        self.sync_keys()
        seat = self.session.ai_seat()
        self.notify(f"{seat.name if seat else 'The AI'} is thinking…", timeout=1.5)
        self.run_worker(self._thought_in_worker, thread=True, exclusive=True, group="ai", exit_on_error=False)

    def _thought_in_worker(self) -> None:
        try:
            answer = self.session.ai_answer()
        except Exception as e:  # (a bug in the AI must not take the screen with it)
            self.app.call_from_thread(self._thought_failed, e)
            return
        self.app.call_from_thread(self._thought, answer)

    def _thought(self, answer: Any) -> None:
        self.thinking = False
        try:
            events = self.session.apply_ai(answer)
        except EngineBug as e:
            where = f" A replay that shows it is in {e.report}; please attach it to a bug report." if e.report else ""
            self.ask(MessageScreen("Sorry: an internal error", f"{e}{where}"), lambda _: self.advance())
            return
        self.remember(events)
        pause = float(getattr(getattr(self.app, "settings", None), "ai_pause", 0) or 0)
        if pause and self.session.ai_seat() is not None and self.session.duel.outcome is None:
            # its next move waits: this one is seen on the board and in the log first (keys as while it thinks)
            self.thinking = True
            self.advance()  # (the board only, while "thinking")
            self.set_timer(pause, self._after_pause)
            return
        self.advance()

    def _after_pause(self) -> None:
        self.thinking = False
        self.advance()

    def _thought_failed(self, error: Exception) -> None:
        self.thinking = False
        self.sync_keys()
        self.ask(MessageScreen("Sorry: the AI failed", f"{type(error).__name__}: {error}\n\nThe duel is as it was; q goes back to the menu."),
                 lambda _: None)
