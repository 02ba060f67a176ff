"""`ygoterm` alone draws its menu before the card pool is loaded (tui/pool_loader.py): the menu
works while the pool loads, whatever needs the pool waits for it, and a broken card file still
ends the program with its problems and exit code 2."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest
from textual import events
from textual.app import App

from ygoterm import paths
from ygoterm.schema.problems import DataError, Problem
from ygoterm.tui.app import YgoApp
from ygoterm.tui.screens.decks import DeckPicker
from ygoterm.tui.screens.menu import MenuScreen
from ygoterm.tui.pool_loader import PoolLoader


@pytest.fixture(autouse=True)
def fresh_home(tmp_path, monkeypatch):
    monkeypatch.setenv("YGOTERM_HOME", str(tmp_path / "home"))


def test_the_menu_needs_neither_the_card_schema_nor_the_engine():
    """What `ygoterm` imports before its menu is on screen (a fresh interpreter)."""
    code = ("import sys, ygoterm.cli, ygoterm.tui.app\n"
            "heavy = sorted(m for m in sys.modules if m.startswith(('ygoterm.schema.cards', 'ygoterm.schema.effects', "
            "'ygoterm.engine.duel.protocol', 'ygoterm.engine.effects.registry', 'ygoterm.agents', 'ygoterm.tui.screens.duel')))\n"
            "print(heavy)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


async def test_the_menu_answers_while_the_pool_loads_and_a_duel_waits_for_it(pool):
    release = threading.Event()

    def slow_load():
        release.wait(30)
        return pool

    app = YgoApp(PoolLoader(slow_load), paths.deck_dirs())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("down", "up")  # the menu moves while the pool is still loading
        await pilot.pause()
        assert app.screen.query_one("#menu-items").highlighted == 0
        release.set()
        await pilot.press("enter")  # Hot-seat duel: its deck picker needs the pool
        for _ in range(50):
            await pilot.pause(0.05)
            if not isinstance(app.screen, MenuScreen):
                break
        assert isinstance(app.screen, DeckPicker)
        assert app.screen.title_text == "Player 1: choose a deck"
        assert len(app.screen.query_one("#decks").options) == len(paths_of_decks())
        assert app.pool is pool


def paths_of_decks():
    from ygoterm.schema.decks import deck_paths

    return deck_paths(paths.deck_dirs())


BROKEN = DataError([Problem("cards/bad.yaml", 3, 5, "atk", "atk must be a number", "write atk: 1800")])


async def test_a_broken_card_file_ends_the_menu_with_exit_code_2():
    def broken():
        raise BROKEN

    app = YgoApp(PoolLoader(broken), paths.deck_dirs())
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(50):
            await pilot.pause(0.05)
            if not app.is_running:
                break
    assert app.load_error is BROKEN
    assert app.return_code == 2
    assert app.crash_report is None  # (a user's file, not a bug: no crash report)


async def test_a_menu_entry_waiting_for_a_pool_that_fails_ends_with_exit_code_2():
    """The player picks Hot-seat duel while the pool still loads, and the load then fails: the
    entry's wait ends with the error (the loading thread never waits for the busy app)."""
    release = threading.Event()

    def fails_later():
        release.wait(30)
        raise BROKEN

    app = YgoApp(PoolLoader(fails_later), paths.deck_dirs())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        threading.Timer(0.3, release.set).start()
        app.post_message(events.Key("enter", "\r"))  # Hot-seat duel: waits in app.pool (not press(): the app stops)
        for _ in range(50):
            await pilot.pause(0.05)
            if not app.is_running:
                break
    assert app.load_error is BROKEN
    assert app.return_code == 2
    assert app.crash_report is None


def test_ygoterm_with_a_broken_card_file_lists_its_problems(tmp_path, monkeypatch, capsys):
    """The whole command: `ygoterm --cards bad.yaml`, no command, so the menu path."""
    from ygoterm.cli import main

    bad = tmp_path / "bad.yaml"
    bad.write_text("- id: 1\n  name: Broken\n  kind: monster\n  atk: lots\n", encoding="utf-8")
    monkeypatch.setattr(YgoApp, "run", lambda self: App.run(self, headless=True, size=(120, 40)))
    assert main(["--cards", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.yaml:" in err and "problem" in err
    assert "Traceback" not in err
