"""The deck editor (Decks → n/e/d), driven by keys through Textual's pilot."""

from __future__ import annotations

import html
import re

import pytest
from textual.widgets import Input

from ygoterm import paths
from ygoterm.schema.decks import load_deck
from ygoterm.schema.deckwrite import deck_yaml
from ygoterm.schema.legality import judge_deck
from ygoterm.schema.validate import refusal
from ygoterm.tui.app import YgoApp
from ygoterm.tui.screens.deck_editor import DeckEditor, UnsavedDialog
from ygoterm.tui.screens.decks import DeckBrowser


@pytest.fixture(autouse=True)
def fresh_home(tmp_path, monkeypatch):
    monkeypatch.setenv("YGOTERM_HOME", str(tmp_path / "home"))


def user_decks():
    return paths.user_home() / "decks"


def screen_text(app) -> str:
    text = re.sub(r"<[^>]+>", "", app.export_screenshot())
    return html.unescape(text).replace("\xa0", " ")


async def open_browser(app, pilot):
    await pilot.pause()
    app.menu_decks()
    await pilot.pause()
    assert isinstance(app.screen, DeckBrowser)


async def highlight_deck(pilot, app, stem: str) -> None:
    browser = app.screen
    index = next(i for i, e in enumerate(browser.entries) if e.path.stem == stem)
    await pilot.press("home", *["down"] * index)


async def search(pilot, query: str) -> None:
    """Esc in the search box goes to the results; / comes back with the old query selected."""
    if isinstance(pilot.app.focused, Input):
        await pilot.press("escape")
    await pilot.press("slash", *query)
    await pilot.pause()
    await pilot.press("enter")  # (to the results)


async def test_search_add_three_refuse_the_fourth_save_and_reopen(pool):
    app = YgoApp(pool, paths.deck_dirs())
    async with app.run_test(size=(120, 40)) as pilot:
        await open_browser(app, pilot)
        await pilot.press("n")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, DeckEditor)
        await search(pilot, "summoned skull")
        assert [c.name for c in editor.hits][0] == "Summoned Skull"  # (the exact name first; Toon Summoned Skull after it)
        await pilot.press("a", "enter", "a")  # a and Enter both add (Main, by its kind)
        await pilot.pause()
        assert editor.draft.count(pool.get("Summoned Skull"))["main"] == 3
        await pilot.press("a")  # the 4th
        await pilot.pause()
        assert editor.draft.count(pool.get("Summoned Skull"))["main"] == 3
        text = screen_text(app)
        assert "Not added" in text and "R-DECK-4" in text
        assert "R-DECK-1" in text  # 3 cards: the Main Deck is too small, live
        assert "unsaved" in text
        await search(pilot, "")
        await pilot.press("ctrl+s")
        await pilot.pause()
        saved = user_decks() / "new-deck.yaml"
        assert saved.is_file()
        assert "Summoned Skull: 3" in saved.read_text()
        assert "unsaved" not in screen_text(app)
        await pilot.press("escape")  # saved: leaves without asking
        await pilot.pause()
        assert isinstance(app.screen, DeckBrowser)
        assert "New deck" in [e.name for e in app.screen.entries]  # the browser reads the folder again
        await highlight_deck(pilot, app, "new-deck")
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, DeckEditor)
        text = screen_text(app)
        assert "3× Summoned Skull" in text and "Main Deck 3" in text


async def test_leaving_or_quitting_with_unsaved_changes_asks(pool):
    app = YgoApp(pool, paths.deck_dirs())
    async with app.run_test(size=(80, 24)) as pilot:
        await open_browser(app, pilot)
        await pilot.press("n")
        await pilot.pause()
        editor = app.screen
        await search(pilot, "dark magician")
        await pilot.press("a")
        await pilot.press("escape")  # leave
        await pilot.pause()
        assert isinstance(app.screen, UnsavedDialog)
        assert "Save the changes" in screen_text(app)
        await pilot.press("escape")  # Esc cancels: back in the editor, nothing lost
        await pilot.pause()
        assert app.screen is editor and editor.dirty
        await pilot.press("ctrl+q")  # quitting asks too
        await pilot.pause()
        assert isinstance(app.screen, UnsavedDialog)
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is editor and app.is_running
        await pilot.press("q")  # (q in a list: leave) → d discards
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, DeckBrowser)
        assert not user_decks().exists() or not list(user_decks().iterdir())


async def test_quit_can_save_first(pool):
    app = YgoApp(pool, paths.deck_dirs())
    async with app.run_test(size=(80, 24)) as pilot:
        await open_browser(app, pilot)
        await pilot.press("n")
        await pilot.pause()
        await search(pilot, "dark magician")
        await pilot.press("a", "ctrl+q")
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
    assert "Dark Magician: 1" in (user_decks() / "new-deck.yaml").read_text()


async def test_duplicate_of_a_shipped_deck_saves_into_the_user_folder_with_its_comments(pool):
    shipped = paths.shipped("decks") / "joey-warriors.yaml"
    before = shipped.read_text()
    app = YgoApp(pool, paths.deck_dirs())
    async with app.run_test(size=(120, 40)) as pilot:
        await open_browser(app, pilot)
        await highlight_deck(pilot, app, "joey-warriors")
        await pilot.press("e")  # a shipped deck is not edited in place
        await pilot.pause()
        assert isinstance(app.screen, DeckBrowser)
        await pilot.press("d")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, DeckEditor) and editor.dirty
        assert "Joey's Warriors (copy)" in screen_text(app)
        await search(pilot, "monster reborn")  # Forbidden on classic
        assert "Forbidden" in screen_text(app)
        await pilot.press("a")
        await pilot.pause()
        assert "R-DECK-5" in screen_text(app)
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert shipped.read_text() == before
    copy = user_decks() / "joey-s-warriors-copy.yaml"
    text = copy.read_text()
    assert "name: Joey's Warriors (copy)" in text and "# Spells (10)" in text and '"Jinzo #7": 1' in text
    verdict = judge_deck(copy, pool, [*paths.deck_dirs(), user_decks()])
    assert verdict.legal, verdict.problems


async def test_remove_and_side(pool):
    app = YgoApp(pool, paths.deck_dirs())
    async with app.run_test(size=(80, 24)) as pilot:
        await open_browser(app, pilot)
        await pilot.press("n")
        await pilot.pause()
        editor = app.screen
        await search(pilot, "gemini elf")
        await pilot.press("a", "s", "s")
        await pilot.pause()
        elf = pool.get("Gemini Elf")
        assert editor.draft.count(elf) == {"main": 1, "extra": 0, "side": 2}
        await pilot.press("x")  # from the results: one copy, Main first
        await pilot.pause()
        assert editor.draft.count(elf) == {"main": 0, "extra": 0, "side": 2}
        await pilot.press("tab")  # the deck list (the side row is highlighted)
        await pilot.press("delete")
        await pilot.pause()
        assert editor.draft.count(elf)["side"] == 1
        assert "Side Deck 1" in screen_text(app)


def test_refusal_and_yaml_round_trip(pool, make_deck):
    deck = make_deck(main={"Gemini Elf": 3}, size=40)
    assert refusal(deck, pool.get("Gemini Elf"), "main").rule == "R-DECK-4"
    assert refusal(deck, pool.get("Gemini Elf"), "extra").rule == "R-DECK-7"
    assert refusal(deck, pool.get("Pot of Greed"), "main") is None  # 41 is fine
    assert refusal(make_deck(main={"Gemini Elf": 3}), pool.get("Pot of Greed"), "main") is None  # too small never refuses
    assert refusal(make_deck(main={"Gemini Elf": 3}, size=60), pool.get("Pot of Greed"), "main").rule == "R-DECK-1"
    path = paths.shipped("decks") / "kaiba-dragons.yaml"
    shipped, _ = load_deck(path, pool)
    assert deck_yaml(shipped, pool, path.read_text()) == path.read_text()  # unchanged: byte for byte
