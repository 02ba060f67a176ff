"""The card pool, loaded on a thread while the main menu is already on screen.

`ygoterm` draws its menu first (docs/design.md, "Cold start"): loading the pool needs the card
schema and the rest of ygoterm needs the engine, about a second of imports together, and
nothing of either is on the menu. `PoolLoader.start` loads the pool (and then imports the
modules the menu's entries open, so that the first one opens at once); `get` waits for it,
and for those imports: the app's menu entries call it before importing anything themselves.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from ..schema.cardpool import CardPool

WARM_MODULES = ("ygoterm.tui.screens.duel", "ygoterm.tui.presenters.session", "ygoterm.tui.screens.deck_editor",
                "ygoterm.tui.match_menu", "ygoterm.agents.ai")


class PoolLoader:
    def __init__(self, load: Callable[[], CardPool]) -> None:
        self._load = load
        self._thread: threading.Thread | None = None
        self._pool: CardPool | None = None
        self.error: BaseException | None = None  # what loading raised (a DataError for a broken card file)
        self._loaded = threading.Event()

    def start(self, failed: Callable[[], None] = lambda: None) -> None:
        """Load on a thread; `failed()` is called on that thread if loading raised (`error`)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, args=(failed,), name="card pool", daemon=True)
            self._thread.start()

    def _run(self, failed: Callable[[], None]) -> None:
        if not self._load_pool():
            failed()  # (after `_loaded`: it may wait for the thread that waits in get())
            return
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

    def _load_pool(self) -> bool:
        """Load the pool; a failure is kept in `error` and ends the wait in get() at once."""
        try:
            self._pool = self._load()
            return True
        except BaseException as e:  # (kept for get(): the app reports it)
            self.error = e
            self._loaded.set()
            return False

    def get(self) -> CardPool:
        """The pool, loading it here if no thread was started; raises what loading raised."""
        if self._thread is None:
            self._load_pool()  # (no thread: nothing else imports meanwhile)
            self._loaded.set()
        self._loaded.wait()
        if self.error is not None:
            raise self.error
        assert self._pool is not None
        return self._pool
