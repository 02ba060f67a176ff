"""The engine's bug report: an error raised while resolving a card's effect.

A module of its own so that what only needs to catch it (the CLI, the bug reporter) does not
load the operations and the effect schema (about half a second of the TUI's cold start)."""

from __future__ import annotations


class EffectError(RuntimeError):
    """An engine bug while resolving a card's effect: carries what is needed to reproduce it."""

    def __init__(self, card: str, effect: int, cause: BaseException, record_json: str | None) -> None:
        self.card, self.effect, self.cause, self.record_json = card, effect, cause, record_json
        super().__init__(f"internal error resolving {card} (effect {effect + 1}): {type(cause).__name__}: {cause}")
