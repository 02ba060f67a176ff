"""Full garbage collections between keypresses, not during them.

Textual leaves reference cycles behind every frame (its line caches), so CPython's automatic
collections of the oldest generation come every second or so of typing, each 40–75 ms: most of
the keypress → repaint p95 of the duel screen (`ygoterm bench --tui`). Here the oldest
generation is collected only when no key has come for a moment — the player is reading, and a
pause there is not felt — and the younger generations as usual. Typing on without a pause
still gets a full collection after `TYPING_CEILING` young ones (ten times CPython's 10), so
memory stays bounded; cycles live a few seconds longer, nothing else changes."""

from __future__ import annotations

import gc
import time
from typing import Any

QUIET_S = 1.0  # no key for this long: collect
EVERY_S = 3.0  # how often to look
TYPING_CEILING = 100  # threshold2: generation-1 collections before an automatic full one


class IdleCollector:
    def __init__(self) -> None:
        self.last_key = time.monotonic()
        self.saved: tuple[int, int, int] | None = None

    def install(self, app: Any) -> None:
        """From the app's mount until `uninstall`."""
        self.saved = gc.get_threshold()
        gc.set_threshold(self.saved[0], self.saved[1], TYPING_CEILING)
        app.set_interval(EVERY_S, self.collect_if_quiet)

    def uninstall(self) -> None:
        if self.saved is not None:
            gc.set_threshold(*self.saved)
            self.saved = None

    def key(self) -> None:
        self.last_key = time.monotonic()

    def collect_if_quiet(self) -> None:
        # (gc.get_count()[2]: young collections since the last full one — none, nothing to do)
        if self.saved is not None and time.monotonic() - self.last_key >= QUIET_S and gc.get_count()[2]:
            gc.collect()
