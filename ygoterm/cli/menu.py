"""`ygoterm` without a command: the main menu, on screen before the cards are loaded.

The card pool needs the card schema (pydantic models of the whole effect vocabulary), which
with the engine is most of a second to import; the menu needs neither to be drawn. So the app
gets a `PoolLoader` that loads the pool on a thread once the menu is on screen, and whatever
first needs the pool waits for it. A broken card file still ends the program with its
problems listed and exit code 2 (`run_app`), as a command's does."""

from __future__ import annotations

import argparse
import os
import signal
import threading
import time
from typing import TYPE_CHECKING

from .common import EXIT_INTERNAL, EXIT_OK, card_sources, deck_dirs, err, load_pool

if TYPE_CHECKING:
    from ..schema.cardpool import CardPool
    from ..tui.app import YgoApp


def run_menu(args: argparse.Namespace) -> int:
    from ..tui.app import YgoApp
    from ..tui.pool_loader import PoolLoader

    dirs, files = card_sources(args)  # (a --cards path that does not exist is refused before the TUI starts)
    end_with_the_server()
    return run_app(YgoApp(PoolLoader(lambda: load_pool(dirs, files)), deck_dirs(args)))


def end_with_the_server() -> None:
    """A browser tab's ygoterm ends when `ygoterm serve` ($YGOTERM_SERVE_PID, its parent) is gone,
    even if the server was killed before it could end its tabs: SIGTERM (textual's web driver
    quits the app, which autosaved at its last answer), and 5 s later an exit whatever the app does."""
    server = os.environ.get("YGOTERM_SERVE_PID", "")
    if not server.isdigit() or os.getppid() != int(server):
        return

    def watch() -> None:
        while os.getppid() == int(server):
            time.sleep(1)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
        os._exit(1)

    threading.Thread(target=watch, name="end-with-the-server", daemon=True).start()


def tui_app(args: argparse.Namespace, pool: CardPool) -> YgoApp:
    from ..tui.app import YgoApp

    return YgoApp(pool, deck_dirs(args))


def run_app(app: YgoApp) -> int:
    """Run the TUI; a card file the pool could not load is reported like a command's (its
    DataError, exit 2); after an unexpected exception say where its report is and exit EXIT_INTERNAL."""
    app.run()
    if app.load_error is not None:
        raise app.load_error
    if app.return_code:
        where = f"; the report (with the duel's replay) is in {app.crash_report}" if app.crash_report else ""
        err.print(f"[red]ygoterm stopped on an internal error{where}.[/] Please report it.")
        return EXIT_INTERNAL
    return EXIT_OK
