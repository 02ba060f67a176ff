"""The duel screen's keys that end, leave or start a duel again: undo, restart and test hands
(solo testing), save, leave, concede, the end-of-duel screen and rematches."""

from __future__ import annotations

import random
from typing import Any

from ...engine import Option
from ...scenarios import GOAL_WORDS
from .dialogs import ConfirmScreen, DuelOverScreen, InputPrompt
from .duel_base import DuelScreenBase


class DuelEndings(DuelScreenBase):
    """Mixed into `DuelScreen` (its bindings name these actions)."""

    def action_undo(self) -> None:
        if self.asking:
            return
        if self.session.hot_seat:
            self.notify("Undo is for solo testing.")
            return
        if self.session.undo():
            self.over_shown = False
            self.forget_history()
            self.notify("Undone.")
        else:
            self.notify("Nothing to undo.")
        self.advance()

    def action_restart(self) -> None:
        if self.solo and not self.asking:
            self.session.restart()
            self._after_new_duel("Restarted (same seed).")

    def action_test_hand(self) -> None:
        if self.solo and not self.asking:
            seed = random.SystemRandom().randrange(10**6)
            self.session.prefer_first = self.prefer_first
            self.session.restart(seed)
            self._after_new_duel(f"New test hand: seed {seed}, going {'first' if self.prefer_first else 'second'}.")

    def action_toggle_first(self) -> None:
        if self.solo:
            self.prefer_first = not self.prefer_first
            self.notify(f"New test hands go {'first' if self.prefer_first else 'second'} (t deals one).")

    def _after_new_duel(self, message: str) -> None:
        self.over_shown = False
        self.forget_history()
        self.last_lp = [p.lp for p in self.session.duel.players]
        self.lp_change = [0, 0]
        self.notify(message)
        self.advance()

    def action_save(self) -> None:
        if self.asking:
            return

        def saved(name: Any) -> None:
            if name:
                try:
                    path = self.session.save(str(name))
                    self.notify(f"Saved to {path}")
                except OSError as e:
                    self.notify(f"Could not save: {e.strerror or e}. Check that the saves folder "
                                f"({self.session.save_dir}) exists and is writable, or free some disk space.", severity="error", timeout=20)
            self.advance()

        duel = self.session.duel
        self.ask(InputPrompt("Save the duel as", f"seed{duel.seed}-turn{duel.turn}"), saved)

    def action_quit_duel(self) -> None:
        """q: back to the menu, after a yes while the duel is on (it stays autosaved)."""
        if self.asking:
            return
        s = self.session
        if s.duel.outcome is not None:
            self.app.pop_screen()
            return
        s.save_auto()
        if not s.autosave:
            body = "This duel is not saved: answer n, then s saves it under a name."
        elif s.autosave_error:
            body = f"The autosave is failing ({s.autosave_error}): answer n, then s saves the duel under a name."
        else:
            body = ("The duel is autosaved: \"Resume\" on the menu plays on from here (until another "
                    "duel starts). s saves it under a name to keep it longer.")
        self.ask(ConfirmScreen("Leave the duel?", body, yes="leave", no="play on"), self._leave_or_stay)

    def _leave_or_stay(self, leave: Any) -> None:
        if leave:
            self.app.pop_screen()
        else:
            self.advance()

    def action_concede(self) -> None:
        """R-WIN-5: the player at the keyboard concedes, after a yes that names them."""
        s = self.session
        who = s.at_keyboard()
        if self.asking or who is None or s.duel.outcome is not None:
            return
        names = s.duel.names

        def answered(yes: Any) -> None:
            if yes and s.duel.outcome is None and s.at_keyboard() == who:
                s.concede(who)
            self.advance()

        self.ask(ConfirmScreen(f"{names[who]}: concede the duel?", f"{names[who]} loses and {names[1 - who]} wins (R-WIN-5).",
                               yes=f"{names[who]} concedes", no="play on"), answered)

    def _again_options(self) -> tuple[list[Option], str]:
        """What the end-of-duel screen offers to play again, and its note: a rematch in which
        the loser chooses to go first or second (R-MATCH-3); a puzzle's position again."""
        s = self.session
        names = s.duel.names
        if s.can_rematch():
            chooser = s.rematch_chooser()
            assert chooser is not None and s.duel.outcome is not None
            why = "lost" if s.duel.outcome.winner is not None else "chose last time"
            if s.seats[chooser].kind == "human":
                return ([Option(f"rematch:{chooser}", f"Rematch: {names[chooser]} goes first"),
                         Option(f"rematch:{1 - chooser}", f"Rematch: {names[chooser]} goes second")],
                        f"A rematch: the same decks, a new seed. {names[chooser]} {why}, so chooses to go first or second (R-MATCH-3).")
            # an agent that lost takes the first turn
            return ([Option(f"rematch:{chooser}", f"Rematch: {names[chooser]} goes first")],
                    f"A rematch: the same decks, a new seed. {names[chooser]} {why} and goes first (R-MATCH-3).")
        if s.duel.record is not None:
            return [Option("restart", "Try again: the same position")], ""
        return [], ""

    def action_duel_over(self) -> None:
        """The end-of-duel screen (r on the board brings it back): the board, a rematch in which
        the loser chooses to go first or second (R-MATCH-3), or the menu. A puzzle's position
        can only be tried again."""
        s = self.session
        if self.asking or s.duel.outcome is None:
            return
        again, note = self._again_options()

        def chosen(key: Any) -> None:
            if isinstance(key, str) and key.startswith("rematch:"):
                self.rematch(int(key.split(":")[1]))
            elif key == "restart":
                s.restart()
                self._after_new_duel("The same position again.")
            elif key == "menu":
                self.app.pop_screen()

        self.ask(DuelOverScreen(s.duel.outcome.text(s.duel.names), again, note), chosen)

    def _tell_puzzle(self) -> bool:
        """Once a puzzle's goal is solved or missed, say so (once; an undo or a restart opens it
        again) with a try-again. True if it asked."""
        assert self.puzzle is not None
        s = self.session
        state = self.puzzle.state(s.duel)
        if state is None:
            self.puzzle_told = False
            return False
        if self.puzzle_told:
            return False
        self.puzzle_told = True
        self.over_shown = s.duel.outcome is not None  # (this is its end-of-duel screen)

        def chosen(key: Any) -> None:
            if key == "restart":
                s.restart()
                self._after_new_duel("The same position again.")
            elif key == "menu":
                self.app.pop_screen()
            else:
                self.advance()

        heading = "Puzzle solved" if state == "solved" else "Puzzle not solved"
        goal = GOAL_WORDS[self.puzzle.goal].capitalize()
        self.ask(DuelOverScreen(self.puzzle.verdict(s.duel), [Option("restart", "Try again: the same position")],
                                f"The goal: {goal}.", heading=heading), chosen)
        return True

    def action_rematch(self) -> None:
        """r once the duel is over: the end-of-duel screen again, where the loser chooses."""
        self.action_duel_over()
