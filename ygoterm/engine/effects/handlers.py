"""Named Python handlers: the escape hatch for the few cards the vocabulary cannot express.

A card file says `- handler: cyber_jar`; the name is looked up here (a typo is caught when the
card file loads). Keep this list short: every entry is a card the vocabulary should one day
cover. Never code from a data file.

A handler is called like an operation (engine/effects/registry.py), with the operation's context: it does
its work at once and returns its result (False: it did not do what it says), or it returns a
Frame (engine/core/machine.py) whose steps ask what it needs and whose result is the handler's. A
frame holds plain data only — the context, cards, numbers — never a closure or a generator, so
that a duel in the middle of it can be copied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from .context import Ctx

Handler = Callable[["Ctx"], Any]  # → a result, or a Frame whose result it is
HANDLERS: dict[str, Handler] = {}


def handler(name: str) -> Callable[[Handler], Handler]:
    """Register the function below as the handler `name` (and add the name to
    schema/effects.py:HANDLER_NAMES, which the card loader checks against)."""
    def register(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn
    return register


# The handlers themselves follow here. There are none yet: all scripted cards fit the
# vocabulary (docs/cards.md lists the cards left to manual play and what they would need).
