"""The deck lab screen driven by keys: the combos' exact odds, the what-if, test hands in solo."""

from __future__ import annotations

import random
import time

import pytest

from ygoterm import paths
from ygoterm.analysis.odds import FIRST_HAND, SECOND_HAND, deck_counts, hand_meets, odds, plan, what_if
from ygoterm.schema.decks import find_deck, read_deck_file, resolve
from ygoterm.schema.lab import resolve_lab
from ygoterm.tui.app import YgoApp
from ygoterm.tui.screens.duel import DuelScreen
from ygoterm.tui.screens.lab import LabScreen
from ygoterm.tui.screens.decks import DeckBrowser, DeckPicker
from ygoterm.tui.screens.menu import MenuScreen

from tests.test_tui import make_app, open_menu_item, screen_text


@pytest.fixture(autouse=True)
def fresh_home(tmp_path, monkeypatch):
    monkeypatch.setenv("YGOTERM_HOME", str(tmp_path / "home"))


def lab_of(pool, name):
    path = find_deck(name, paths.deck_dirs())
    deck_file = read_deck_file(path)
    deck, _ = resolve(deck_file, pool)
    return path, deck, resolve_lab(deck_file, deck, pool)


async def settle(app, pilot) -> None:
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def open_lab_from_menu(app, pilot, deck_name: str) -> LabScreen:
    await pilot.pause()
    await open_menu_item(pilot, app, "Deck lab")
    await pilot.pause()
    picker = app.screen
    assert isinstance(picker, DeckPicker)
    index = next(i for i, e in enumerate(picker.entries) if e.path.stem == deck_name)
    await pilot.press(*["down"] * index, "enter")
    await pilot.pause()
    assert isinstance(app.screen, LabScreen)
    return app.screen


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_lab_from_the_menu_shows_each_combo_with_its_exact_odds(pool, size):
    _, deck, lab = lab_of(pool, "kaiba-dragons")
    first, second = (odds(deck_counts(deck.main), lab, h) for h in (FIRST_HAND, SECOND_HAND))
    app = make_app(pool)
    async with app.run_test(size=size) as pilot:
        await open_lab_from_menu(app, pilot, "kaiba-dragons")
        text = screen_text(app)
        assert "Kaiba's Dragons" in text
        for a, b in zip(first.all(), second.all()):
            row = next(line for line in text.splitlines() if a.name[:20] in line)
            assert f"{a.percent:.2f}%" in row and f"{b.percent:.2f}%" in row, (a.name, row)
        assert "any combo" in text and "brick" in text
        # the highlighted line's exact fraction, both sides
        combo = first.combos[0]
        assert f"{combo.hands:,} of {combo.total:,} hands" in text
        await pilot.press("down")
        await pilot.pause()
        assert f"{first.combos[1].hands:,} of {first.combos[1].total:,} hands" in screen_text(app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert "what-if" in screen_text(app)
        await pilot.press("escape")  # the help closes
        await pilot.pause()
        assert isinstance(app.screen, LabScreen)
        await pilot.press("escape")  # back to the menu
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_the_what_if_view_shows_the_cards_by_effect(pool):
    path, deck, lab = lab_of(pool, "kaiba-dragons")
    base, changes = what_if(deck_counts(deck.main), lab, (FIRST_HAND, SECOND_HAND))
    top = next(w for w in changes if not w.idle)
    plus = top.plus.reports[0].any.percent - base[0].any.percent
    minus = top.minus.reports[0].any.percent - base[0].any.percent
    app = make_app(pool, start=lambda app: LabScreen(path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("w")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, LabScreen) and screen.showing_what_if
        text = screen_text(app)
        row = next(line for line in text.splitlines() if line.lstrip().startswith(top.card))
        assert f"{plus:+.2f}" in row and f"{minus:+.2f}" in row, row
        assert "cheapest cuts" in text
        await pilot.press("t")  # (no test hand from the what-if view)
        await pilot.press("down", "down", "w")  # back to the odds
        await pilot.pause()
        assert not screen.showing_what_if and "going first (5 cards)" in screen_text(app)
        await pilot.press("w", "escape")  # Esc leaves the what-if first, then the lab
        await pilot.pause()
        assert isinstance(app.screen, LabScreen) and not app.screen.showing_what_if


async def test_a_deck_without_a_lab_section_says_how_to_add_one(pool):
    app = make_app(pool)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await open_menu_item(pilot, app, "Decks")
        await pilot.pause()
        browser = app.screen
        assert isinstance(browser, DeckBrowser)
        index = next(i for i, e in enumerate(browser.entries) if e.path.stem == "vanilla-beatdown")
        await pilot.press(*["down"] * index, "l")
        await pilot.pause()
        assert isinstance(app.screen, LabScreen)
        text = " ".join(screen_text(app).split())
        assert "no combos" in text and "'lab:' section" in text and "docs/data.md" in text
        await pilot.press("w", "t", "m", "f", "enter", "down")  # nothing to do: nothing happens
        await pilot.pause()
        assert isinstance(app.screen, LabScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is browser
        await pilot.press("l", "q")  # q: straight to the menu
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


@pytest.mark.parametrize("first", [True, False], ids=["first", "second"])
async def test_a_test_hand_that_meets_a_combo_starts_a_solo_duel_with_it(pool, first):
    path, deck, lab = lab_of(pool, "kaiba-dragons")
    p = plan([*lab.combos, *([lab.brick] if lab.brick else [])])
    combo = next(i for i, c in enumerate(lab.combos) if c.name == "Blue-Eyes on turn 2")
    app = make_app(pool, start=lambda app: LabScreen(path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        lab_screen = app.screen
        if not first:
            await pilot.press("f")
        await pilot.press(*["down"] * combo, "t")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, DuelScreen) and screen.solo
        duel = screen.session.duel
        hand = [c.name for c in duel.players[0].hand]
        assert len(hand) == (FIRST_HAND if first else SECOND_HAND)
        assert duel.turn == (1 if first else 2) and duel.pending.player == 0
        assert hand_meets(p, hand) >> combo & 1, hand
        await pilot.press("q")  # leave the duel (a yes), back in the lab
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert app.screen is lab_screen
        await pilot.press("m")  # and one that misses it
        await settle(app, pilot)
        hand = [c.name for c in app.screen.session.duel.players[0].hand]
        assert not hand_meets(p, hand) >> combo & 1, hand


async def test_random_keys_on_the_lab_never_raise(pool, monkeypatch):
    path, _, _ = lab_of(pool, "joey-warriors")
    monkeypatch.setattr(YgoApp, "exit", lambda self, *args, **kwargs: None)
    keys = ["up", "down", "w", "f", "question_mark", "enter", "escape", "tab", "pageup", "pagedown", "home", "end", "x"]
    rng = random.Random(15)
    app = make_app(pool, start=lambda app: LabScreen(path))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(12):
            await pilot.press(*(rng.choice(keys) for _ in range(10)))
            if not any(isinstance(s, LabScreen) for s in app.screen_stack):
                app.push_screen(LabScreen(path))
        await settle(app, pilot)


async def test_leaving_the_lab_while_it_deals_stops_the_search(pool, monkeypatch):
    path, _, _ = lab_of(pool, "joey-warriors")
    monkeypatch.setattr("ygoterm.tui.screens.lab.hand_meets", lambda plan, hand: 0)  # no hand meets anything: a long search
    app = make_app(pool, start=lambda app: LabScreen(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("t", "t", "escape")  # (the second t: "still looking")
        started = time.monotonic()
        await settle(app, pilot)
        assert time.monotonic() - started < 5, "the search stops with its screen"
        assert isinstance(app.screen, MenuScreen)
        assert not any(isinstance(s, DuelScreen) for s in app.screen_stack)


async def test_the_lab_plays_the_deck_against_its_field_and_shows_the_standing(pool, tmp_path):
    """g: the deck against every deck of a field (a subfolder of a deck folder), the AI on both
    sides — the same figures as `ygoterm arena --gauntlet` with the lab's agent, duels and seed."""
    import shutil

    from ygoterm.analysis import gauntlet
    from ygoterm.analysis.arena import Arena, run, schedule, summarize
    from ygoterm.tui.screens.lab import GAUNTLET_AGENT, GAUNTLET_DUELS, GAUNTLET_SEED

    folder = tmp_path / "decks" / "field"
    folder.mkdir(parents=True)
    for name in ("kaiba-dragons", "mai-harpies"):
        shutil.copy(find_deck(name, paths.deck_dirs()), folder)
    path, _, _ = lab_of(pool, "joey-warriors")
    app = YgoApp(pool, [*paths.deck_dirs(), tmp_path / "decks"], start=lambda app: LabScreen(path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("g")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, LabScreen) and screen.showing_gauntlet
        text = screen_text(app)
        assert "joey-warriors against the field field" in " ".join(text.split())
        files = {"joey-warriors": path, **{p.stem: p for p in sorted(folder.iterdir())}}
        ms = gauntlet.matchups("joey-warriors", ["kaiba-dragons", "mai-harpies"], GAUNTLET_AGENT)
        results = run(Arena(paths.card_dirs(), [], files, ms), schedule(ms, GAUNTLET_DUELS, GAUNTLET_SEED), workers=1)
        standing = gauntlet.Standing("joey-warriors", summarize(ms, results))
        for cells in gauntlet.table_rows(standing):
            row = next(line for line in text.splitlines() if cells[1] in line and "│" in line)
            assert cells[2] in row, (cells, row)
        assert "█" in text  # the chart
        await pilot.press("t", "w")  # (no test hand, no what-if from the gauntlet view)
        await pilot.pause()
        assert screen.showing_gauntlet and not screen.showing_what_if
        await pilot.press("escape")  # Esc leaves the gauntlet first, then the lab
        await pilot.pause()
        assert isinstance(app.screen, LabScreen) and not screen.showing_gauntlet and "going first (5 cards)" in screen_text(app)
        app.save_screenshot("/tmp/lab-odds.svg")


async def test_the_lab_says_when_there_is_no_field(pool, tmp_path):
    path, _, _ = lab_of(pool, "joey-warriors")
    (tmp_path / "decks").mkdir()
    app = YgoApp(pool, [tmp_path / "decks"], start=lambda app: LabScreen(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("g")
        await settle(app, pilot)
        assert "No field of decks to play against" in " ".join(screen_text(app).split())
