"""The card pool, loaded on a thread while the main menu is already on screen.

`ygoterm` draws its menu first (docs/design.md, "Cold start"): loading the pool needs the card
schema and the rest of ygoterm needs the engine, about a second of imports together, and
nothing of either is on the menu. `PoolLoader.start` loads the pool (and then imports the
modules the menu's entries open, so that the first one opens at once); `get` waits for it (and for those imports: the app's menu entries call it before importing
anything themselves).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from ..schema.cardpool import CardPool

WARM_MODULES = ("ygoterm.tui.duel_screen", "ygoterm.tui.session", "ygoterm.tui.deck_editor",
                "ygoterm.tui.match_menu", "ygoterm.agents.ai")


class PoolLoader:
    def __init__(self, load: Callable[[], CardPool]) -> None:
        self._load = load
        self._thread: threading.Thread | None = None
        self._pool: CardPool | None = None
        self.error: BaseException | None = None  # what loading raised (a DataError for a broken card file)
        self._loaded = threading.Event()

    def start(self, done: Callable[[], None] = lambda: None) -> None:
        """Load on a thread; `done()` is called on that thread once the pool is loaded or failed."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, args=(done,), name="card pool", daemon=True)
            self._thread.start()

    def _run(self, done: Callable[[], None]) -> None:
        try:
            self._pool = self._load()
        except BaseException as e:  # (kept for get(): the app reports it)
            self.error = e
        done()
        if self.error is None:
            import importlib

            for name in WARM_MODULES:
                try:
                    importlib.import_module(name)
                except Exception:  # (the screen that needs it imports it again, and says what is wrong)
                    break
        # Only now: whoever waits in get() imports what it needs after this thread's imports, so
        # that no module is imported on two threads at once (a concurrent import of modules that
        # import each other can hand one thread a half-initialised module).
        self._loaded.set()

    def get(self) -> CardPool:
        """The pool, loading it here if no thread was started; raises what loading raised."""
        if self._thread is None:
            self._run(lambda: None)
        self._loaded.wait()
        if self.error is not None:
            raise self.error
        assert self._pool is not None
        return self._pool
