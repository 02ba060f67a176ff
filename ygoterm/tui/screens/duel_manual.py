"""The duel screen's manual actions (DESIGN.md §4): the palette lists them, a card's menu
offers its own, an amount is asked when the action needs one. What is offered is worked out
in `presenters/manual_menu.py`; each one taken goes through `Duel.manual` and the replay."""

from __future__ import annotations

from dataclasses import replace

from ...engine import IllegalChoice, Manual
from ..presenters import manual_menu
from .dialogs import InputPrompt
from .duel_base import DuelScreenBase


class ManualActions(DuelScreenBase):
    """Mixed into `DuelScreen`: its manual actions."""


    def action_manual(self) -> None:
        """ctrl+p where manual actions are allowed: the palette (they are listed in it)."""
        self.app.action_command_palette()

    def manual_reason(self) -> str:
        """Why manual actions are on in this duel ('' when off): `manual_menu.manual_reason`,
        worked out once per duel (it is asked at every refresh; the decks do not change)."""
        duel = self.session.duel
        if self._manual_reason is None or self._manual_reason[0] is not duel:
            self._manual_reason = (duel, manual_menu.manual_reason(duel))
        return self._manual_reason[1]

    def manual_commands(self) -> list[tuple[str, Manual]]:
        """The palette's manual actions (the focused card's first)."""
        cursor = self.board.cursor
        return manual_menu.manual_commands(self.session, cursor.view.uid if cursor is not None and cursor.view is not None else None)

    def run_manual(self, action: Manual) -> None:
        """Take a manual action; one without an amount (ATK/DEF/LP "by …") asks for it first."""
        if action.kind in ("atk", "def", "lp") and not action.amount:
            what = "LP" if action.kind == "lp" else action.kind.upper()

            def typed(text: str | None) -> None:
                if text is None:
                    self.advance()
                    return
                try:
                    amount = int(text.strip().replace(" ", ""))
                except ValueError:
                    amount = 0
                if not amount or abs(amount) > 1_000_000:
                    self.notify(f"'{text}' is not a change of {what}: type a whole number such as +800 or -1000.", severity="error")
                    self.advance()
                    return
                self.run_manual(replace(action, amount=amount))

            self.ask(InputPrompt(f"Change {what} by (+800 raises, -1000 lowers)", "", "+800"), typed)
            return
        s = self.session
        try:
            s.manual(manual_menu.acting_player(s, action.card), action)
            s.save_auto()
        except IllegalChoice as e:
            self.notify(f"{e.message} ({e.rule})", severity="error")
        self.advance()
