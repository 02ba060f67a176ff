"""Named Python handlers: the escape hatch for the few cards the vocabulary cannot express.

A card file says `- handler: cyber_jar`; the name is looked up here (a typo is caught when the
card file loads). Keep this list short: every entry is a card the vocabulary should one day
cover. Never code from a data file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Generator

if TYPE_CHECKING:
    from .ops import Ctx

Flow = Generator[Any, Any, Any]
HANDLERS: dict[str, Callable[["Ctx"], Flow]] = {}


def handler(name: str):
    """Register the function below as the handler `name` (and add the name to
    schema/effects.py:HANDLER_NAMES, which the card loader checks against)."""
    def register(fn: Callable[["Ctx"], Flow]) -> Callable[["Ctx"], Flow]:
        HANDLERS[name] = fn
        return fn
    return register


# The handlers themselves follow here. There are none yet: all scripted cards fit the
# vocabulary (docs/cards.md lists the cards left to manual play and what they would need).
