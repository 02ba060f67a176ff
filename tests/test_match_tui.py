"""Matches in the TUI, driven by keys: the match bar, side-decking behind the curtain, the
loser's choice, tournament time on a fake clock, a match against the AI, resuming a match."""

from __future__ import annotations

import pytest

from ygoterm import paths
from ygoterm.engine.core.decision import Kind
from ygoterm.engine.match.match import SideDone
from ygoterm.schema.decks import Deck, find_deck, load_deck
from ygoterm.tui.screens.duel import DuelScreen
from ygoterm.tui.match_menu import new_match
from ygoterm.tui.screens.match import MatchBreakScreen, MatchDuelOver, MatchDuelScreen, SideDeckScreen
from ygoterm.tui.widgets.questions import ChoicePrompt, SelectPrompt, open_question
from ygoterm.tui.screens.dialogs import CurtainScreen
from tests.conftest import FakeClock
from tests.test_tui import make_app, pick, screen_text


@pytest.fixture(autouse=True)
def fresh_home(tmp_path, monkeypatch):
    monkeypatch.setenv("YGOTERM_HOME", str(tmp_path / "home"))


def normals(pool, avoid: set[str], size: int = 40) -> dict[str, int]:
    """A Main Deck of Normal Monsters (3 of each) that avoids these names."""
    main: dict[str, int] = {}
    for card in pool:
        if getattr(card, "frame", "") == "normal" and card.name not in avoid and card.name not in main:
            main[card.name] = min(3, size - sum(main.values()))
            if sum(main.values()) == size:
                return main
    raise AssertionError("not enough Normal Monsters")


@pytest.fixture
def sided(pool, make_deck):
    """Both players have a Side Deck whose cards appear nowhere else in either deck."""
    sides = {"Mystical Elf", "Stardust Dragon", "Test Zero", "Flamvell Guard"}
    a = make_deck(main={"Gemini Elf": 3, "Celtic Guardian": 3, **normals(pool, sides | {"Gemini Elf", "Celtic Guardian"}, 34)},
                  extra={"Number 39: Utopia": 1}, side={"Mystical Elf": 2, "Stardust Dragon": 1, "Test Zero": 1}, name="sided A")
    b = make_deck(main=normals(pool, sides), side={"Flamvell Guard": 2}, name="sided B")
    for card in ("Mystical Elf", "Stardust Dragon", "Flamvell Guard"):
        assert sum(c.name == card for deck in (a, b) for c in (*deck.main, *deck.extra)) == 0
    return a, b


def match_app(pool, decks, opponent="hotseat", seed=5, minutes=None, clock=None, lp=None):
    app = make_app(pool, start=lambda app: new_match(app, decks, opponent, seed, minutes=minutes, clock=clock))
    app.settings.prompts = ["auto", "auto"]
    if lp:
        app.settings.starting_lp = lp
    return app


def the_match(app):
    return next(s for s in reversed(app.screen_stack) if hasattr(s, "run")).run.match


async def to_the_board(pilot, app, limit=40):
    """Through curtains, the coin toss and response prompts to a move on the board."""
    for _ in range(limit):
        await pilot.pause()
        screen = open_question(app)
        if isinstance(screen, MatchDuelScreen) and screen.session.pending and screen.session.pending.kind == Kind.COMMAND:
            return screen
        await pilot.press("enter")
    raise AssertionError(f"no move on the board: {app.screen_stack}")


async def concede(pilot, app) -> int:
    """The player at the keyboard concedes the duel (ctrl+x, y); returns who lost."""
    screen = await to_the_board(pilot, app)
    loser = screen.session.at_keyboard()
    await pilot.press("ctrl+x", "y")
    await pilot.pause()
    assert isinstance(open_question(app), MatchDuelOver)
    return loser


def exclusive_side_names(match, player: int) -> set[str]:
    """Side Deck cards of `player` that are in no other list of either player."""
    others = {c.name for p in (0, 1) for c in (*match.registered[p].main, *match.registered[p].extra)}
    others |= {c.name for c in match.registered[1 - player].side}
    return {c.name for c in match.registered[player].side} - others


async def test_hot_seat_match_side_decks_behind_the_curtain_and_the_loser_chooses(pool, sided):
    app = match_app(pool, sided)
    async with app.run_test(size=(120, 40)) as pilot:
        loser = await concede(pilot, app)
        match = the_match(app)
        assert "Duel 1 is over" in screen_text(app) and "Next: side-decking" in screen_text(app)
        private = {p: exclusive_side_names(match, p) for p in (0, 1)}
        assert private[0] and private[1]
        await pilot.press("r")  # on to duel 2
        await pilot.pause()
        sided_players = []
        for _ in range(12):
            await pilot.pause()
            screen, text = open_question(app), screen_text(app)
            if isinstance(screen, CurtainScreen) or isinstance(screen, MatchBreakScreen):
                for p in (0, 1):  # nobody's Side Deck under the curtain or on the break screen
                    assert not any(name in text for name in private[p]), f"{private[p]} visible at {screen}"
                await pilot.press("enter")
            elif isinstance(screen, SideDeckScreen):
                me = screen.player
                sided_players.append(me)
                assert all(name in text for name in private[me])
                assert not any(name in text for name in private[1 - me]), "the other Side Deck is visible"
                if me == 0:
                    # bad input first: Celtic Guardian for Stardust Dragon (a Synchro into the Main Deck)
                    await pilot.press("down", "right", "down", "enter")
                    await pilot.pause()
                    assert "R-DECK-7" in screen_text(app) and "Refused" in screen_text(app)
                    assert match.deck(0) == match.registered[0]
                    await pilot.press("up", "enter")  # Celtic Guardian for Mystical Elf
                    await pilot.pause()
                    main = [c.name for c in match.deck(0).main]
                    assert main.count("Celtic Guardian") == 2 and main.count("Mystical Elf") == 1
                    assert "changes for this duel: out Celtic Guardian; in Mystical Elf" in screen_text(app)
                await pilot.press("d")
            elif isinstance(screen, ChoicePrompt):
                assert match.pending.kind == Kind.FIRST and match.pending.player == loser
                assert sided_players == [0, 1]
                await pick(pilot, screen, "second")
            elif isinstance(screen, MatchDuelScreen) and match.number == 2:
                break
        assert match.stage == "duel" and match.number == 2
        assert match.duel.first_player == 1 - loser, "the loser chose to go second"
        assert [c.name for c in match.duel.players[0].deck + match.duel.players[0].hand].count("Mystical Elf") == 1
        await to_the_board(pilot, app)
        text = " ".join(screen_text(app).split())
        score = f"{match.names[0]} {loser}–{1 - loser} {match.names[1]}"  # (the loser has no win yet)
        assert f"Match duel 2 · {score}" in text, "the match bar shows duel 2 and the score"


async def test_the_side_deck_screen_never_shows_the_other_players_cards_at_80x24(pool, sided):
    """The leak test for side-decking: at every step between duels only the player at the
    keyboard's own Side Deck is on screen; at the small size too."""
    app = match_app(pool, sided, seed=9)
    async with app.run_test(size=(80, 24)) as pilot:
        await concede(pilot, app)
        match = the_match(app)
        private = {p: exclusive_side_names(match, p) for p in (0, 1)}
        await pilot.press("r")
        checked = 0
        for _ in range(12):
            await pilot.pause()
            screen, text = open_question(app), screen_text(app)
            mine = screen.player if isinstance(screen, SideDeckScreen) else None
            for p in (0, 1):
                if p != mine:
                    assert not any(name[:9] in text for name in private[p]), f"Player {p + 1}'s Side Deck shown on {screen}"
                    checked += 1
            if isinstance(screen, SideDeckScreen):
                await pilot.press("escape")  # back to the break screen: nothing private on it
                await pilot.pause()
                assert isinstance(open_question(app), MatchBreakScreen)
                assert not any(name[:9] in screen_text(app) for name in private[mine])
                await pilot.press("enter")  # the curtain again, then the same Side Deck
                await pilot.pause()
                assert isinstance(open_question(app), CurtainScreen)
                await pilot.press("enter")
                await pilot.pause()
                await pilot.press("d")
            elif isinstance(screen, MatchDuelScreen):
                break
            else:
                await pilot.press("enter")
        assert checked >= 6 and match.number == 2


async def play_by_keys(pilot, app, until, limit=1500):
    """Answer everything with keys: curtains and responses pass, summon the first monster,
    attack directly when possible, else the next phase; between duels, keep the deck and go first."""
    for _ in range(limit):
        await pilot.pause()
        if until():
            return
        screen = open_question(app)
        if isinstance(screen, MatchDuelScreen):
            d = screen.session.pending
            if d is None or screen.thinking:
                continue
            if d.kind == Kind.COMMAND:
                summons = [o for o in d.options if o.verb == "summon"]
                if summons:
                    await pilot.press("c")
                    await pilot.pause()
                    await pick(pilot, open_question(app), summons[0].label)
                else:
                    await pilot.press("n")
            elif d.kind == Kind.BATTLE:
                attacks = [o for o in d.options if o.verb == "attack"]
                if attacks:
                    await pilot.press("a")
                    await pilot.pause()
                    best = next((o for o in attacks if o.label.endswith("-> direct")), attacks[0])
                    await pick(pilot, open_question(app), best.label)
                else:
                    await pilot.press("n")
            else:
                await pilot.press("enter")
        elif isinstance(screen, MatchDuelOver):
            await pilot.press("r" if screen.again else "q")
        elif isinstance(screen, SideDeckScreen):
            await pilot.press("d")
        elif isinstance(screen, ChoicePrompt) and screen.options and screen.options[0].key == "first":
            await pick(pilot, screen, "first")
        elif isinstance(screen, SelectPrompt):
            for i in range(screen.decision.min):
                await pilot.press("space", "down")
            await pilot.press("enter")
        else:
            await pilot.press("enter")
    raise AssertionError(f"not reached in {limit} steps: {app.screen_stack}")


async def test_a_solo_match_against_the_ai_to_its_end(pool):
    deck = load_deck(find_deck("vanilla-beatdown", paths.deck_dirs()), pool)[0]
    ai_deck = Deck("AI's", deck.main, deck.extra, [pool.get("Mystical Elf")] * 2)  # the AI keeps it: done
    app = match_app(pool, (deck, ai_deck), opponent="ai:easy", seed=4, lp=2000)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        match = the_match(app)
        assert match.names[1] == "AI (easy)"
        await play_by_keys(pilot, app, lambda: match.outcome is not None)
        assert match.number >= 2 and match.outcome is not None
        assert match.deck(1) == ai_deck, "the AI kept its deck"
        assert any(isinstance(e, SideDone) and e.player == 1 and not e.out for e in match.log), "the AI answered its SIDE: done"
        await pilot.pause()
        assert "The match is over" in screen_text(app) or type(open_question(app)).__name__ == "MenuScreen"
        assert not paths.autosave_path("match").exists(), "a finished match is not autosaved"


async def test_tournament_clock_runs_out_while_a_player_thinks_and_reaches_sudden_death(pool, make_deck):
    decks = make_deck(main={}, size=40, name="normals A"), make_deck(main={}, size=40, name="normals B")
    clock = FakeClock()
    app = match_app(pool, decks, minutes=40, clock=clock)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = await to_the_board(pilot, app)
        match = the_match(app)
        assert "40:00 left" in screen_text(app)
        clock.advance(4)  # a long first turn: a notice, never a penalty (R-TIME-1)
        await pilot.pause(1.3)  # the screen's timer reads the clock
        assert any("not a penalty" in str(n.message) for n in app._notifications)
        assert "36:00 left" in screen_text(app)
        clock.advance(37)  # time runs out while the player thinks: the timer calls it
        await pilot.pause(1.3)
        assert match.time_called == {"duel": 1, "turn": 1}
        assert "Match time is up" in screen_text(app) or any("Match time is up" in str(n.message) for n in app._notifications)
        seen = set()
        for _ in range(200):
            await pilot.pause()
            status = match.clock_status()
            seen.add(status.text())
            if status.stage == "sudden death":
                break
            screen = open_question(app)
            if isinstance(screen, MatchDuelScreen) and screen.session.pending is not None and \
                    screen.session.pending.kind in (Kind.COMMAND, Kind.BATTLE):
                await pilot.press("n")
            else:
                await pilot.press("enter")
        assert {"time called: extra turn 1 of 3", "time called: extra turn 2 of 3", "time called: extra turn 3 of 3"} <= seen
        assert match.clock_status().stage == "sudden death" and match.duel.outcome is None
        await to_the_board(pilot, app)
        assert "sudden death" in screen_text(app)


async def test_a_match_resumes_from_its_autosave_between_duels(pool, sided):
    app = match_app(pool, sided, seed=12)
    async with app.run_test(size=(120, 40)) as pilot:
        loser = await concede(pilot, app)
        await pilot.press("q")  # the duel is over: back to the menu, the match autosaved
        await pilot.pause()
        assert type(open_question(app)).__name__ == "MenuScreen"
        await pilot.press("home", "enter")  # Resume the last duel
        await pilot.pause()
        assert isinstance(open_question(app), (CurtainScreen, MatchBreakScreen))
        match = the_match(app)
        assert match.stage == "between" and match.score.wins(1 - loser) == 1
        assert match.pending.kind == Kind.SIDE and match.pending.player == 0


async def test_a_failing_match_autosave_is_shown_at_once(pool, sided, tmp_path):
    app = match_app(pool, sided)
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the saves folder should be")
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        screen = await to_the_board(pilot, app)
        screen.run.autosave_dir = blocked / "saves"
        await pilot.press("n")
        await pilot.pause()
        await to_the_board(pilot, app)
        assert "AUTOSAVE FAILING" in screen_text(app)
        assert any("autosave" in str(n.message) for n in app._notifications)


async def test_menu_offers_matches_and_a_duel_vs_computer(pool):
    app = make_app(pool)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        labels = [str(o.prompt) for o in open_question(app).query_one("#menu-items").options]
        assert labels[:3] == ["Hot-seat duel", "Duel vs computer", "Match (best of 3)"]
        await pilot.press("down", "enter")  # Duel vs computer: its level first
        await pilot.pause()
        assert isinstance(open_question(app), ChoicePrompt) and open_question(app).options[0].key == "ai:easy"
        await pick(pilot, open_question(app), "The AI, easy")
        await pilot.press("home", "enter")  # your deck
        await pilot.pause()
        await pilot.press("home", "enter")  # the AI's deck
        await pilot.pause()
        screen = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
        assert [seat.kind for seat in screen.session.seats] == ["human", "ai:easy"]
        app.pop_screen()
        while type(open_question(app)).__name__ != "MenuScreen":
            app.pop_screen()
        await pilot.pause()
        await pilot.press("home", "down", "down", "enter")  # Match (best of 3)
        await pilot.pause()
        await pick(pilot, open_question(app), "Hot-seat")
        await pilot.pause()
        await pick(pilot, open_question(app), "Tournament: 20 minutes")
        await pilot.press("home", "enter", "home", "enter")  # two decks
        for _ in range(5):
            await pilot.pause()
        match = the_match(app)
        assert match.tournament and match.rules.time.match_minutes == 20 and match.number == 1
        assert "20:00 left" in screen_text(app) or isinstance(open_question(app), CurtainScreen)
