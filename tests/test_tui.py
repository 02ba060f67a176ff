"""The TUI driven as a user drives it: keys (and clicks) through Textual's pilot."""

from __future__ import annotations

import html
import json
import random
import re

import pytest
from textual.widgets import Input

from ygoterm import paths
from ygoterm.engine.core.decision import Kind
from ygoterm.engine.core.events import ChainLinkAdded
from ygoterm.schema.decks import find_deck, load_deck
from ygoterm.tui.app import YgoApp
from ygoterm.tui.screens.duel import DuelScreen
from ygoterm.tui.widgets.questions import ChoicePrompt, SelectPrompt, SharedResponse, open_question
from ygoterm.tui.screens.dialogs import CurtainScreen

SIZES = [(80, 24), (120, 40)]


@pytest.fixture(autouse=True)
def fresh_home(tmp_path, monkeypatch):
    monkeypatch.setenv("YGOTERM_HOME", str(tmp_path / "home"))


@pytest.fixture(scope="module")
def decks(pool):
    def get(name):
        return load_deck(find_deck(name, paths.deck_dirs()), pool)[0]
    return {name: get(name) for name in ("kaiba-dragons", "joey-warriors", "vanilla-beatdown")}


def make_app(pool, start=None) -> YgoApp:
    return YgoApp(pool, paths.deck_dirs(), start=start)


def position_app(pool, tmp_path, position: str) -> YgoApp:
    """The app opened on a puzzle whose starting position is this scenario YAML."""
    path = tmp_path / "position.yaml"
    path.write_text(position)
    return make_app(pool, start=lambda app: app.puzzle_screen(path))


def screen_text(app) -> str:
    """What the terminal shows, as plain text."""
    svg = app.export_screenshot()
    text = re.sub(r"<[^>]+>", "", svg)
    return html.unescape(text).replace("\xa0", " ")


async def open_menu_item(pilot, app, label: str) -> None:
    """On the main menu: the entry labelled `label`, by ↓ from the top and Enter."""
    labels = [str(o.prompt) for o in open_question(app).query_one("#menu-items").options]
    await pilot.press("home", *["down"] * labels.index(label), "enter")


async def pick(pilot, screen, label_start: str) -> None:
    """Move the highlight of a ChoicePrompt to the option starting with `label_start`, press Enter."""
    options = [o.label for o in screen.options]
    index = next(i for i, label in enumerate(options) if label.startswith(label_start))
    await pilot.press("home")  # response windows highlight "pass" first
    for _ in range(index):
        await pilot.press("down")
    await pilot.press("enter")


async def command(pilot, app, label_start: str) -> None:
    """At your move: open the commands (c) and choose the one starting with `label_start`."""
    await pilot.press("c")
    await pilot.pause()
    await pick(pilot, open_question(app), label_start)
    await pilot.pause()


async def play_hot_seat_turns(pilot, app, *, limit: int = 400, want_chain: bool = True) -> None:
    """Answer every prompt with keys: lift curtains, pass responses, summon and attack."""
    for _ in range(limit):
        await pilot.pause()
        screen = open_question(app)
        if isinstance(screen, DuelScreen):
            duel = screen.session.duel
            if duel.outcome is not None:
                return
            d = duel.pending
            if d is None:
                return
            labels = [o.label for o in d.options]
            if d.kind == Kind.COMMAND:
                if want_chain and any(label.startswith("activate Pot of Greed") for label in labels):
                    await pilot.press("c")
                    await pilot.pause()
                    await pick(pilot, open_question(app), "activate Pot of Greed")
                    continue
                summons = [o for o in d.options if o.verb == "summon"]
                if summons:
                    await pilot.press("c")
                    await pilot.pause()
                    await pick(pilot, open_question(app), summons[0].label)
                    continue
                await pilot.press("n")
                continue
            if d.kind == Kind.BATTLE:
                attacks = [o for o in d.options if o.verb == "attack"]
                if attacks:
                    await pilot.press("a")
                    await pilot.pause()
                    best = next((o for o in attacks if o.label.endswith("-> direct")), attacks[0])
                    await pick(pilot, open_question(app), best.label)
                else:
                    await pilot.press("n")
                continue
            await pilot.press("enter")
        elif isinstance(screen, (CurtainScreen, SharedResponse)):
            await pilot.press("enter")
        elif isinstance(screen, SelectPrompt):
            needed = screen.decision.min
            for i in range(needed):
                await pilot.press("space")
                if i + 1 < needed:
                    await pilot.press("down")
            await pilot.press("enter")
        else:
            await pilot.press("enter")
    raise AssertionError("the duel did not end")


async def test_hot_seat_from_the_menu_to_a_win(pool, monkeypatch):
    monkeypatch.setattr("ygoterm.tui.app.new_seed", lambda: 3)
    app = make_app(pool)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        # Settings: faster prompts and 2000 LP so that the test duel is short
        await open_menu_item(pilot, app, "Settings")
        await pilot.pause()
        await pilot.press("enter", "down", "enter", "down", "enter", "enter")  # P1 auto, P2 auto, LP 4000, 2000
        await pilot.press("escape")
        await pilot.pause()
        assert app.settings.starting_lp == 2000 and app.settings.prompts == ["auto", "auto"]
        await pilot.press("home", "enter")  # Hot-seat duel
        await pilot.pause()
        await pilot.press("home", "down", "down", "enter")  # Player 1: Kaiba's Dragons (decks are listed by file name)
        await pilot.pause()
        await pilot.press("home", "down", "enter")  # Player 2: Joey's Warriors (after Dracoslayer Pendulums)
        await pilot.pause()
        assert isinstance(open_question(app), CurtainScreen), "the coin-toss winner gets the device first"
        await play_hot_seat_turns(pilot, app)
        duel = open_question(app).session.duel if isinstance(open_question(app), DuelScreen) else app.screen_stack[-2].session.duel
        assert duel.outcome is not None and duel.outcome.winner is not None
        assert any(isinstance(e, ChainLinkAdded) for e in duel.log), "a chain was played"
        assert duel.rules.duel.starting_lp == 2000


async def test_hot_seat_never_shows_the_other_hand(pool, decks):
    app = make_app(pool, start=lambda app: app.hot_seat_screen((decks["kaiba-dragons"], decks["joey-warriors"]), 11))
    async with app.run_test(size=(120, 40)) as pilot:
        checked = 0
        for _ in range(120):
            await pilot.pause()
            duel_screen = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
            session = duel_screen.session
            duel = session.duel
            if duel.outcome is not None or duel.pending is None:
                break
            text = screen_text(app)
            deciding = duel.pending.player
            hidden_from = [1 - deciding] if not isinstance(open_question(app), (CurtainScreen, SharedResponse)) else [0, 1]
            public = {c.name for side in duel.players for pile in (side.gy, side.banished) for c in pile}
            public |= {c.name for side in duel.players for c in side.mzone + side.szone if c is not None and c.face_up}
            for other in hidden_from:
                mine = {c.name for c in duel.players[1 - other].hand} if len(hidden_from) == 1 else set()
                for card in duel.players[other].hand:
                    if any(name[:9] == card.name[:9] for name in public | mine):
                        continue  # (shown as that card, or a card that begins like it)
                    assert card.name[:9] not in text, f"{card.name} of Player {other + 1}'s hand is visible"
                    checked += 1
            screen = open_question(app)
            if isinstance(screen, (CurtainScreen, SharedResponse, ChoicePrompt)):
                await pilot.press("enter")
            elif isinstance(screen, SelectPrompt):
                for _ in range(screen.decision.min):
                    await pilot.press("space", "down")
                await pilot.press("enter")
            else:
                await pilot.press("n")
        assert checked > 50


def keep_dueling(app, new_duel) -> bool:
    """After a batch of random keys: if they left the duel (the end screen's "Back to the menu",
    or a yes to q), go back to the menu and start another one. True if a new duel started."""
    if any(isinstance(s, DuelScreen) for s in app.screen_stack):
        return False
    assert any(type(s).__name__ == "MenuScreen" for s in app.screen_stack), app.screen_stack
    while type(open_question(app)).__name__ != "MenuScreen":
        app.pop_screen()
    app.push_screen(new_duel(app))
    return True


async def test_two_thousand_random_keys_never_raise(pool, decks, monkeypatch):
    app = make_app(pool, start=lambda app: app.solo_screen((decks["kaiba-dragons"], decks["joey-warriors"]), "random", 7))
    keys = ["up", "down", "left", "right", "h", "j", "k", "l", "enter", "space", "escape", "c", "n", "a", "p", "g", "b",
            "x", "d", "u", "r", "t", "f", "question_mark", "tab", "1", "y", "s", "ctrl+x"]  # not q: it leaves the duel
    monkeypatch.setattr(YgoApp, "exit", lambda self, *args, **kwargs: None)  # (Esc, y on the menu would quit)
    rng = random.Random(2026)
    async with app.run_test(size=(100, 30)) as pilot:
        for batch in range(80):
            # 25 keys at a time, as fast as a user could type them; an exception in any handler
            # would end run_test with that exception
            for _ in range(25):
                send_key(app, rng.choice(keys))
            await pilot.pause()
            keep_dueling(app, lambda app: app.solo_screen((decks["kaiba-dragons"], decks["joey-warriors"]), "random", batch))
        await pilot.pause()
        assert any(isinstance(s, DuelScreen) for s in app.screen_stack), app.screen_stack


MASH_KEYS = ["up", "down", "left", "right", "h", "j", "k", "l", "enter", "space", "escape", "c", "n", "a", "p", "g", "b",
             "x", "d", "u", "r", "t", "f", "question_mark", "tab", "shift+tab", "1", "y", "s", "m", "backspace", "home", "end",
             "ctrl+p", "pageup", "pagedown", "ctrl+x"]  # not q: it leaves the duel


@pytest.mark.parametrize("size", [(80, 24), (40, 12)])
async def test_five_thousand_keys_with_the_palette_never_raise(pool, decks, size, monkeypatch):
    """Typed ahead at full speed, palette keys included (Textual's palette once crashed on PageUp
    while it filled): no exception, and the app is always on a duel or, once one is left, the
    menu. At 40×12 the "terminal too small" message takes every key and stays on top."""
    def new_duel(app):
        return app.solo_screen((decks["kaiba-dragons"], decks["joey-warriors"]), "random", rng.randrange(1000))

    monkeypatch.setattr(YgoApp, "exit", lambda self, *args, **kwargs: None)  # (Esc, y on the menu would quit)
    rng = random.Random(size[0])
    app = make_app(pool, start=new_duel)
    duels = 1
    async with app.run_test(size=size) as pilot:
        for _ in range(200):
            for _ in range(25):
                send_key(app, rng.choice(MASH_KEYS))
            await pilot.pause()
            if keep_dueling(app, new_duel):
                duels += 1
                await pilot.pause()
            if size[0] < 80:
                assert type(open_question(app)).__name__ == "TooSmallScreen"
    assert duels < 20


def send_key(app, key: str) -> None:
    """Queue a key event like the terminal driver does (without waiting for the app to idle)."""
    from textual import events

    event = events.Key(key, key if len(key) == 1 else None)
    event.set_sender(app)
    app._driver.send_message(event)


async def test_enter_on_a_card_lists_its_actions_and_why_not(pool, decks):
    app = make_app(pool, start=lambda app: app.solo_screen((decks["vanilla-beatdown"], decks["vanilla-beatdown"]), "goldfish", 5))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = open_question(app)
        assert isinstance(screen, DuelScreen)
        duel = screen.session.duel
        big = next((c for c in duel.players[0].hand if c.level >= 5), None)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(open_question(app), ChoicePrompt)
        assert open_question(app).options[0].label.startswith(("summon", "set"))
        await pilot.press("1")  # Normal Summon the first card (nothing is chosen before: Enter alone does nothing)
        await pilot.pause()
        assert sum(1 for c in duel.players[0].mzone if c) == 1
        if big is not None:
            screen.select(next(slot for slot in screen.board.slots["bottom-hand"] if slot.uid == big.uid))
            await pilot.press("enter")
            await pilot.pause()
            text = " ".join(str(r) for r in open_question(app).refusals)
            assert "R-SUMMON-1" in text


async def test_solve_the_shipped_puzzle_from_the_menu(pool):
    app = make_app(pool)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("down", "down", "down", "down", "enter")  # Puzzles
        await pilot.pause()
        await pick(pilot, open_question(app), "Lethal this turn")
        await pilot.pause()
        assert "3100 LP" in screen_text(app), "the puzzle's task is shown first"
        await pilot.press("enter")
        await pilot.pause()
        screen = open_question(app)
        assert isinstance(screen, DuelScreen)
        duel = screen.session.duel

        await command(pilot, app, "activate Fissure")
        await pilot.press("p")  # do not chain Rush Recklessly yet
        await pilot.pause()
        assert [c.name for c in duel.players[1].gy] == ["Giant Soldier of Stone"]
        await pilot.press("n")  # to the Battle Phase
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        await pick(pilot, open_question(app), "attack Celtic Guardian -> direct")
        await pilot.pause()
        await pilot.press("p")  # the Damage Step starts; A may respond
        await pilot.pause()
        await pick(pilot, open_question(app), "activate Rush Recklessly")
        await pilot.pause()
        await pilot.press("enter")  # its only target: Celtic Guardian
        await pilot.pause()
        assert duel.players[1].lp == 3100 - 2100
        while duel.pending is not None and duel.pending.kind != Kind.COMMAND or "main2" in [o.key for o in duel.pending.options]:
            await pilot.press("n")
            await pilot.pause()
        await command(pilot, app, "activate Ookazi")
        await command(pilot, app, "activate Sparks")
        assert duel.outcome is not None and duel.outcome.winner == 0 and duel.players[1].lp == 0
        assert "Player 1 wins" in screen_text(app) or "wins" in screen_text(app)


async def test_an_engine_bug_rewinds_the_duel_and_keeps_a_replay(pool, tmp_path, monkeypatch):
    from ygoterm.engine.effects import registry
    from ygoterm.tui.screens.dialogs import MessageScreen

    def broken(ctx, params, name):
        raise KeyError("simulated engine bug")
        yield

    monkeypatch.setitem(registry.VERBS, "damage", broken)
    app = position_app(pool, tmp_path, "name: Burn\nturn: 3\nA:\n  hand: [Ookazi, Sparks]\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        duel_screen = open_question(app)
        await command(pilot, app, "activate Ookazi")
        assert isinstance(open_question(app), MessageScreen)
        assert "internal error resolving Ookazi" in screen_text(app)
        reports = list((paths.user_home() / "bugs").glob("bug-*.json"))
        assert len(reports) == 1 and '"choices"' in reports[0].read_text()
        await pilot.press("enter")
        await pilot.pause()
        duel = duel_screen.session.duel
        assert open_question(app) is duel_screen
        assert sorted(c.name for c in duel.players[0].hand) == ["Ookazi", "Sparks"]  # rewound
        assert duel.players[1].lp == 8000 and duel.pending.kind == Kind.COMMAND


async def test_solo_with_two_decks_plays_both_sides(pool, decks):
    app = make_app(pool, start=lambda app: app.solo_screen((decks["vanilla-beatdown"], decks["vanilla-beatdown"]), "deck", 2))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        session = open_question(app).session
        duel = session.duel
        while duel.turn < 2 or duel.pending.kind != Kind.COMMAND:
            await pilot.press("n")
            await pilot.pause()
        assert duel.pending.player == 1 and session.viewer == 1, "Player 2's turn shows Player 2's hand"
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(open_question(app), ChoicePrompt) and open_question(app).options[0].label.startswith(("summon", "set"))
        await pilot.press("enter")
        await pilot.pause()
        assert sum(1 for c in duel.players[1].mzone if c) == 1


async def test_undo_and_save_in_solo(pool, decks, tmp_path):
    app = make_app(pool, start=lambda app: app.solo_screen((decks["vanilla-beatdown"], decks["vanilla-beatdown"]), "goldfish", 9))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = open_question(app)
        session = screen.session
        before = session.duel.state_hash()
        await pilot.press("enter", "1")  # summon the first hand card
        await pilot.pause()
        assert session.duel.state_hash() != before
        await pilot.press("u")
        await pilot.pause()
        assert session.duel.state_hash() == before
        assert paths.autosave_path("solo").is_file()
        await pilot.press("enter", "1")  # summon again, then save as "combo"
        await pilot.press("s")
        await pilot.pause()
        await pilot.press(*"combo", "enter")  # typing replaces the suggested name
        await pilot.pause()
        saved_hash = session.duel.state_hash()
    assert (paths.user_home() / "saves" / "combo.json").is_file()

    app = make_app(pool)  # a new start: the menu offers the saved duel
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await open_menu_item(pilot, app, "Saved duels")
        await pilot.pause()
        await pick(pilot, open_question(app), "combo")
        await pilot.pause()
        screen = open_question(app)
        assert isinstance(screen, DuelScreen) and screen.solo
        assert screen.session.duel.state_hash() == saved_hash


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_main_menu(pool, snap_compare, size):
    assert snap_compare(make_app(pool), terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_duel_screen(pool, decks, snap_compare, size):
    app = make_app(pool, start=lambda app: app.solo_screen((decks["kaiba-dragons"], decks["joey-warriors"]), "goldfish", 3))
    assert snap_compare(app, terminal_size=size, press=["_"])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_prompt_over_board(pool, decks, snap_compare, size):
    """A card's menu over the lightly dimmed board, its highlighted option's card marked there."""
    app = make_app(pool, start=lambda app: app.solo_screen((decks["kaiba-dragons"], decks["joey-warriors"]), "goldfish", 3))
    assert snap_compare(app, terminal_size=size, press=["_", "enter", "down"])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_confirm_over_board(pool, decks, snap_compare, size):
    app = make_app(pool, start=lambda app: app.solo_screen((decks["kaiba-dragons"], decks["joey-warriors"]), "goldfish", 3))
    assert snap_compare(app, terminal_size=size, press=["_", "q"])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_curtain(pool, decks, snap_compare, size):
    app = make_app(pool, start=lambda app: app.hot_seat_screen((decks["kaiba-dragons"], decks["joey-warriors"]), 3))
    assert snap_compare(app, terminal_size=size, press=["_"])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_shared_response(pool, decks, snap_compare, size):
    """Hot-seat: the curtain lifted, first chosen, the Draw Phase's "Anyone responding?" over the
    public board (the table asked at every window, as Settings can choose)."""
    def start(app):
        app.settings.table_asks = "every"
        return app.hot_seat_screen((decks["kaiba-dragons"], decks["joey-warriors"]), 3)

    app = make_app(pool, start=start)
    assert snap_compare(app, terminal_size=size, press=["enter", "1", "_"])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_chain_in_progress(pool, snap_compare, size):
    from pathlib import Path

    scenario = Path(__file__).parent / "scenarios" / "as-17-seed-chain.yaml"
    app = make_app(pool, start=lambda app: app.puzzle_screen(scenario))

    async def build_chain(pilot):
        screen = open_question(app)
        screen.session.answer("activate Dark Hole")
        screen.session.answer("activate Royal Decree")
        screen.advance()
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=build_chain)


async def test_synchro_summon_by_keys_refuses_materials_that_do_not_fit(pool, tmp_path):
    app = position_app(pool, tmp_path, "name: Synchro\nturn: 3\nA:\n"
                                   "  monsters: [Gemini Elf, Flamvell Guard, Luster Dragon, Giant Soldier of Stone]\n"
                                   "  extra: [Stardust Dragon]\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        duel = open_question(app).session.duel
        await command(pilot, app, "synchro summon Stardust Dragon")
        assert "Materials for Stardust Dragon" in screen_text(app)
        await pilot.press("space", "down", "space", "enter")  # Gemini Elf + Flamvell Guard: Levels 5, not 8
        await pilot.pause()
        assert "R-SUMMON-12" in screen_text(app)  # refused with its rule; nothing was lost
        assert duel.players[0].extra[0].name == "Stardust Dragon" and len(duel.players[0].monsters()) == 4
        assert duel.pending.verb == "material"
        await pilot.press("down", "space", "down", "space", "down", "space", "enter")  # Flamvell Guard + Luster + Giant: 8
        await pilot.pause()
        assert duel.pending.kind == Kind.ZONE
        await pick(pilot, open_question(app), "EMZ1")
        await pilot.pause()
        await pick(pilot, open_question(app), "attack")
        await pilot.pause()
        assert [c.name for c in duel.players[0].monsters()] == ["Gemini Elf", "Stardust Dragon"]
        assert sorted(c.name for c in duel.players[0].gy) == ["Flamvell Guard", "Giant Soldier of Stone", "Luster Dragon"]


async def test_pendulum_summon_by_keys(pool, tmp_path):
    """Activate a Scale from the hand, Pendulum Summon by keys: the Scales show on the board and
    a set that does not fit the zones is refused with its rule."""
    app = position_app(pool, tmp_path, "name: Pendulum\nturn: 3\nA:\n"
                                   "  hand: [Flash Knight, Gemini Elf]\n"
                                   "  extra: [{card: Dragong, face_up: true}, {card: Lancephorhynchus, face_up: true}]\n"
                                   "  pendulum: [Mandragon]\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        duel = open_question(app).session.duel
        await command(pilot, app, "activate Flash Knight (Pendulum Zone)")
        text = screen_text(app)
        assert "Scale 2" in text and "Scale 7" in text
        await command(pilot, app, "pendulum summon")
        assert "Dragong (Extra Deck)" in screen_text(app)
        await pilot.press("down", "space", "down", "space", "enter")  # two from the Extra Deck: one EMZ only
        await pilot.pause()
        assert "R-SUMMON-17" in screen_text(app)
        assert duel.pending.verb == "pendulum"
        await pilot.press("space", "down", "down", "space", "enter")  # asked again: Gemini Elf + Lancephorhynchus
        await pilot.pause()
        for _ in range(2):
            await pick(pilot, open_question(app), "attack")
            await pilot.pause()
        assert sorted(c.name for c in duel.players[0].monsters()) == ["Gemini Elf", "Lancephorhynchus"]


async def test_a_in_main_phase_1_goes_to_battle_and_asks_which_attack(pool, tmp_path):
    """a at your move in Main Phase 1: into the Battle Phase, whose Battle Step asks which
    attack at once (it said "No monster can attack now." before)."""
    app = position_app(pool, tmp_path, "name: Attack\nturn: 3\nA:\n  monsters: [Gemini Elf]\n"
                                       "B:\n  monsters: [{card: Celtic Guardian, position: attack}]\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        duel = app.screen.session.duel
        assert duel.pending.kind == Kind.COMMAND
        await pilot.press("a")
        await pilot.pause()
        for _ in range(4):  # the Start Step's response window, if this player is asked
            if duel.pending.kind != Kind.CHAIN:
                break
            await pilot.press("p")
            await pilot.pause()
        assert duel.pending.kind == Kind.BATTLE and "Declare an attack" in screen_text(app)
        await pick(pilot, open_question(app), "attack Gemini Elf -> Celtic Guardian")
        await pilot.pause()
        assert [c.name for c in duel.players[1].gy] == ["Celtic Guardian"] and duel.players[1].lp == 8000 - 500


async def test_an_unexpected_exception_leaves_a_report_with_the_replay(pool, decks, monkeypatch):
    """A bug anywhere in the TUI: the traceback and the duel's replay go to the bugs folder and
    the app stops with an error code (the CLI turns it into EXIT_INTERNAL)."""
    app = make_app(pool, start=lambda app: app.solo_screen((decks["vanilla-beatdown"], decks["vanilla-beatdown"]), "goldfish", 5))

    def broken(self):
        raise RuntimeError("simulated TUI bug")

    monkeypatch.setattr(DuelScreen, "action_detail", broken)
    with pytest.raises(RuntimeError, match="simulated TUI bug"):  # (run_test re-raises it; `run` exits)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("d")
            await pilot.pause()
    assert app.return_code == 1 and app.crash_report is not None
    assert app.crash_report.suffix == ".json" and '"format": "ygoterm-replay"' in app.crash_report.read_text()
    assert "simulated TUI bug" in app.crash_report.with_suffix(".txt").read_text()


async def test_escape_from_a_question_gives_the_board_back(pool, tmp_path):
    """A question can always be backed out of: Escape from the follow-up of an action (the
    Tributes of a Summon) takes the action back; from any other question (the hand limit's
    discard) it leaves the question open, the board (and q, u, s) work, and c asks it again."""
    hand = "[Summoned Skull, Celtic Guardian, Gemini Elf, Feral Imp, Silver Fang, Mystical Elf, Luster Dragon]"
    app = position_app(pool, tmp_path, f"name: Tribute\nturn: 3\nA:\n  hand: {hand}\n  monsters: [Giant Soldier of Stone]\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        duel = open_question(app).session.duel
        await command(pilot, app, "summon Summoned Skull")
        assert duel.pending.verb == "tribute" and not isinstance(open_question(app), DuelScreen)
        await pilot.press("escape")
        await pilot.pause()
        duel = open_question(app).session.duel
        assert isinstance(open_question(app), DuelScreen) and duel.pending.kind == Kind.COMMAND  # the Summon is taken back
        assert "Summoned Skull" in [c.name for c in duel.players[0].hand] and duel.players[0].monsters()
        await command(pilot, app, "end")
        assert duel.pending.kind == Kind.CARDS and not isinstance(open_question(app), DuelScreen)  # the hand limit (R-PHASE-7)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(open_question(app), DuelScreen) and "(c to answer)" in screen_text(app)
        await pilot.press("c")
        await pilot.pause()
        assert not isinstance(open_question(app), DuelScreen)  # asked again
        await pilot.press("escape", "q")
        await pilot.pause()
        assert type(open_question(app)).__name__ == "ConfirmScreen"  # leaving asks first
        await pilot.press("y")
        await pilot.pause()
        assert type(open_question(app)).__name__ == "MenuScreen"


async def test_escape_from_a_menu_at_your_move_is_just_back(pool, tmp_path):
    """At an open game state nothing is left open: Escape from the commands or a card's menu goes
    back to the board, and the next c opens the commands at once."""
    app = position_app(pool, tmp_path, "name: Move\nturn: 3\nA:\n  hand: [Summoned Skull, Celtic Guardian]\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for opening in (("c",), ("enter",)):  # the commands, then the highlighted hand card's menu
            await pilot.press(*opening)
            await pilot.pause()
            assert isinstance(open_question(app), ChoicePrompt)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(open_question(app), DuelScreen) and "(c to answer)" not in screen_text(app)
            await pilot.press("c")
            await pilot.pause()
            assert isinstance(open_question(app), ChoicePrompt) and any(o.label == "summon Celtic Guardian" for o in open_question(app).options)
            await pilot.press("escape")
            await pilot.pause()
        assert not any("still open" in str(n.message) for n in app._notifications)


async def test_a_failing_autosave_is_shown_at_once(pool, decks, tmp_path):
    app = make_app(pool, start=lambda app: app.solo_screen((decks["vanilla-beatdown"], decks["vanilla-beatdown"]), "goldfish", 5))
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the saves folder should be")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = open_question(app)
        screen.session.autosave_dir = blocked / "saves"
        await pilot.press("n")  # any answer autosaves
        await pilot.pause()
        assert screen.session.autosave_error and "AUTOSAVE FAILING" in screen_text(app)
        assert any("autosave" in str(n.message) for n in app._notifications)


async def test_notifications_are_plain_text(pool, decks, tmp_path):
    # a saves folder whose path holds what markup would swallow: the toast shows it as it is
    app = make_app(pool, start=lambda app: app.solo_screen((decks["vanilla-beatdown"], decks["vanilla-beatdown"]), "goldfish", 5))
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        screen = open_question(app)
        screen.session.save_dir = tmp_path / "[b]saves[/b] [R-DECK-1]"
        await pilot.press("s")
        for _ in range(50):  # (a loaded machine may take a few frames to open the dialog)
            await pilot.pause()
            if isinstance(app.focused, Input):
                break
        await pilot.press("enter")  # the offered name
        for _ in range(50):  # (… and to write the save and show the toast)
            await pilot.pause()
            shown = "".join(screen_text(app).replace("▌", "").split())  # (the toast wraps the long path anywhere, its border on each line)
            if "Savedto" in shown:
                break
        assert "Savedto" in shown and "[b]saves[/b][R-DECK-1]/seed5-turn1.json" in shown


async def test_the_ai_thinks_in_a_worker_and_the_screen_stays_usable(pool, decks):
    """Solo against the AI: its turn is played in a worker thread; meanwhile the screen is
    there, shows the board, and refuses actions (only looking around works); then it is your turn."""
    app = make_app(pool, start=lambda app: app.solo_screen((decks["kaiba-dragons"], decks["joey-warriors"]), "ai:normal", 3))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = open_question(app)
        assert isinstance(screen, DuelScreen)
        duel = screen.session.duel
        assert duel.turn_player == 0 and duel.pending.kind == Kind.COMMAND  # you go first
        screen._answer("end")
        thought = False
        for _ in range(600):
            await pilot.pause(0.05)
            if screen.thinking:
                thought = True
                assert screen.check_action("undo", ()) is False and screen.check_action("help", ())
            duel = screen.session.duel
            if duel.outcome is not None or (duel.turn == 3 and duel.pending and duel.pending.player == 0 and not screen.thinking):
                break
        assert thought
        assert duel.outcome is not None or duel.turn == 3
        if duel.outcome is None:  # the AI's moves are autosaved as they are made: a resume shows the same turn
            assert len(json.loads(paths.autosave_path("solo").read_text())["choices"]) == len(duel.record.choices)
        thought_of = screen.session.seats[1].agent.last
        assert thought_of is not None and "chose" in thought_of.lines()[0]
        if open_question(app) is screen:
            await pilot.press("w")  # why the AI did what it did
            await pilot.pause()
            assert type(open_question(app)).__name__ == "MessageScreen"
        assert isinstance(open_question(app), DuelScreen) or open_question(app).__class__.__name__ in ("MessageScreen", "SharedResponse", "SelectPrompt", "ChoicePrompt")


async def test_why_works_over_an_open_question(pool, decks):
    """w while a question is open (answering the AI's attack, say) shows the AI's last reasons
    over it; closing them returns to the question, unanswered."""
    from ygoterm.agents.ai import Thought

    app = make_app(pool, start=lambda app: app.solo_screen((decks["kaiba-dragons"], decks["joey-warriors"]), "ai:normal", 3))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = open_question(app)
        assert isinstance(screen, DuelScreen)
        from ygoterm.agents import make_agent

        seat = screen.session.seats[1]
        seat.agent = make_agent(seat.kind, 1)
        seat.agent.last = Thought("Battle Step", [("attack X -> direct", 1.5, 12)], "attack X -> direct")
        await pilot.press("c")  # every legal command: a question over the board
        await pilot.pause()
        question = open_question(app)
        assert type(question).__name__ == "ChoicePrompt"
        await pilot.press("w")
        await pilot.pause()
        assert type(open_question(app)).__name__ == "MessageScreen" and "attack X -> direct" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert open_question(app) is question and screen.session.duel.pending.kind == Kind.COMMAND


# ---------------------------------------------------------------------- keys that behave


def key_bar(app) -> str:
    screen = next(s for s in reversed(app.screen_stack) if isinstance(s, DuelScreen))
    return screen.key_bar.render().plain


def hot_seat_app(pool, decks, seed=3, prompts=("auto", "auto")):
    app = make_app(pool, start=lambda app: app.hot_seat_screen((decks["kaiba-dragons"], decks["joey-warriors"]), seed))
    app.settings.prompts = list(prompts)
    return app


async def to_the_board(pilot, app, limit=60):
    """Lift curtains and take the first option of every prompt until someone's move is on the board."""
    for _ in range(limit):
        await pilot.pause()
        screen = open_question(app)
        if isinstance(screen, DuelScreen) and screen.session.pending and screen.session.pending.kind == Kind.COMMAND:
            return screen
        await pilot.press("enter")
    raise AssertionError(f"no move on the board: {app.screen_stack}")


async def test_escape_on_the_menu_asks_before_quitting(pool):
    from ygoterm.tui.screens.dialogs import ConfirmScreen

    app = make_app(pool)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for cancel in ("n", "escape"):
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(open_question(app), ConfirmScreen) and "Quit ygoterm?" in screen_text(app)
            await pilot.press(cancel)  # never a trap: n and Esc go back
            await pilot.pause()
            assert type(open_question(app)).__name__ == "MenuScreen" and app.return_code is None
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("enter")  # Enter (like y) says yes
        await pilot.pause()
    assert app.return_code == 0


async def test_back_on_the_menu_the_highlight_stays_on_the_entry_left(pool):
    """Back from Decks, the highlight was on the first entry again — from where ↑ wraps to Quit
    (found: Decks, Esc, ↑ for Puzzles, Enter — and ygoterm quit)."""
    app = make_app(pool)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await open_menu_item(pilot, app, "Decks")
        await pilot.pause()
        assert type(open_question(app)).__name__ != "MenuScreen"
        await pilot.press("escape")
        await pilot.pause()
        items = open_question(app).query_one("#menu-items")
        assert items.get_option_at_index(items.highlighted).id == "decks"
        await pilot.press("up", "enter")
        await pilot.pause()
        assert app.return_code is None and type(open_question(app)).__name__ != "MenuScreen"  # the entry above Decks opened


@pytest.mark.parametrize("solo", [True, False], ids=["solo", "hot-seat"])
async def test_q_asks_before_leaving_a_duel_and_says_it_is_autosaved(pool, decks, solo):
    from ygoterm.tui.screens.dialogs import ConfirmScreen

    if solo:
        app = make_app(pool, start=lambda app: app.solo_screen((decks["vanilla-beatdown"], decks["vanilla-beatdown"]), "goldfish", 5))
    else:
        app = hot_seat_app(pool, decks)
    async with app.run_test(size=(120, 40)) as pilot:
        duel_screen = await to_the_board(pilot, app)
        for cancel in ("n", "escape"):
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(open_question(app), ConfirmScreen)
            text = screen_text(app)
            assert "Leave the duel?" in text and "autosaved" in text and "Resume" in text
            await pilot.press(cancel)
            await pilot.pause()
            assert open_question(app) is duel_screen
        await pilot.press("q", "y")
        await pilot.pause()
        assert type(open_question(app)).__name__ == "MenuScreen"
        assert paths.autosaves()  # what the dialog promised
        assert "Resume" in screen_text(app)


async def test_the_key_bar_shows_only_the_keys_that_work(pool, decks):
    app = hot_seat_app(pool, decks)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await to_the_board(pilot, app)
        bar = key_bar(app)
        assert "commands" in bar and "concede" in bar and "menu" in bar
        assert "undo" not in bar and "manual" not in bar and "rematch" not in bar  # hot-seat has no undo, no manual actions
        assert screen.check_action("undo", ()) is False and screen.check_action("manual", ()) is False
        await pilot.press("u")
        await pilot.pause()
        assert not any("Undo" in str(n.message) for n in app._notifications)  # the key does nothing at all

    app = make_app(pool, start=lambda app: app.solo_screen((decks["vanilla-beatdown"], decks["vanilla-beatdown"]), "goldfish", 5))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await to_the_board(pilot, app)
        bar = key_bar(app)
        assert "undo" in bar and "manual" in bar and "concede" in bar and "why?" not in bar  # (no AI here)
        await pilot.press("ctrl+x", "y")  # concede: the duel is over
        await pilot.pause()
        await pilot.press("escape")  # from the end screen to the board
        await pilot.pause()
        bar = key_bar(app)
        assert "rematch" in bar and "undo" in bar and "menu" in bar
        assert "commands" not in bar and "concede" not in bar and "manual" not in bar and "next" not in bar

    app = make_app(pool, start=lambda app: app.solo_screen((decks["vanilla-beatdown"], decks["vanilla-beatdown"]), "goldfish", 5))
    async with app.run_test(size=(80, 24)) as pilot:  # narrow: the least needed keys make room, help and menu stay
        await to_the_board(pilot, app)
        bar = key_bar(app)
        assert bar.startswith("? help") and bar.rstrip().endswith("q menu") and "undo" in bar
        assert len(bar.rstrip()) <= 80


async def test_concede_asks_and_names_the_player_at_the_keyboard(pool, decks):
    from ygoterm.tui.screens.dialogs import ConfirmScreen, DuelOverScreen

    app = hot_seat_app(pool, decks)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await to_the_board(pilot, app)
        session = screen.session
        me = session.at_keyboard()
        name, other = session.duel.names[me], session.duel.names[1 - me]
        for cancel in ("n", "escape"):
            await pilot.press("ctrl+x")
            await pilot.pause()
            assert isinstance(open_question(app), ConfirmScreen) and f"{name}: concede the duel?" in screen_text(app)
            await pilot.press(cancel)
            await pilot.pause()
            assert open_question(app) is screen and session.duel.outcome is None
        await pilot.press("ctrl+p")  # the palette lists it before anything is typed
        await pilot.pause()
        assert f"Concede the duel ({name})" in screen_text(app)
        await pilot.press(*"concede", "enter")
        await pilot.pause()
        assert isinstance(open_question(app), ConfirmScreen) and f"{name} loses and {other} wins" in screen_text(app)
        await pilot.press("y")
        await pilot.pause()
        outcome = session.duel.outcome
        assert outcome is not None and outcome.winner == 1 - me and outcome.reason == "concession"
        assert session.duel.record.choices[-1] == f"!concede:{me}"
        assert isinstance(open_question(app), DuelOverScreen) and f"{other} wins" in screen_text(app)


async def test_rematch_same_decks_new_seed_and_the_loser_chooses(pool, decks):
    from ygoterm.engine.core.events import CoinToss
    from ygoterm.tui.screens.dialogs import DuelOverScreen
    from ygoterm.tui.presenters.session import rematch_seed

    app = hot_seat_app(pool, decks)
    async with app.run_test(size=(120, 40)) as pilot:
        first = await to_the_board(pilot, app)
        old = first.session.duel
        loser = first.session.at_keyboard()
        name = old.names[loser]
        await pilot.press("ctrl+x", "y")
        await pilot.pause()
        assert isinstance(open_question(app), DuelOverScreen)
        assert f"{name} lost, so chooses to go first or second (R-MATCH-3)" in open_question(app).note
        assert "R-MATCH-3" in screen_text(app)
        assert [o.label for o in open_question(app).options] == ["Look at the board", f"Rematch: {name} goes first",
                                                         f"Rematch: {name} goes second", "Back to the menu"]
        await pick(pilot, open_question(app), f"Rematch: {name} goes second")
        await pilot.pause()
        rematch = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
        assert rematch is not first and first not in app.screen_stack  # the new duel replaces the old one
        duel = rematch.session.duel
        assert duel.seed == rematch_seed(old.seed) != old.seed and duel.record.decks == old.record.decks
        assert duel.outcome is None and duel.first_player == 1 - loser  # the loser's choice, no coin toss
        assert not any(isinstance(e, CoinToss) for e in duel.log) and duel.record.first == 1 - loser
        assert isinstance(open_question(app), CurtainScreen) and f"Pass to {old.names[1 - loser]}" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert rematch.session.viewer == 1 - loser

    # solo: you lost, so r (the first rematch entry) lets you go first; a goldfish that loses goes first
    app = make_app(pool, start=lambda app: app.solo_screen((decks["vanilla-beatdown"], decks["vanilla-beatdown"]), "goldfish", 5))
    async with app.run_test(size=(120, 40)) as pilot:
        await to_the_board(pilot, app)
        await pilot.press("ctrl+x", "enter")
        await pilot.pause()
        await pilot.press("escape")  # look at the board first; r brings the choice back
        await pilot.pause()
        assert isinstance(open_question(app), DuelScreen) and "rematch" in key_bar(app)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(open_question(app), DuelOverScreen)
        await pilot.press("r")
        await pilot.pause()
        screen = open_question(app)
        assert isinstance(screen, DuelScreen) and screen.solo
        duel = screen.session.duel
        assert duel.seed == rematch_seed(5) and duel.first_player == 0 and duel.pending.player == 0
        screen.session.concede(1)  # (the goldfish gives up)
        screen.advance()
        await pilot.pause()
        assert [o.label for o in open_question(app).options][1:-1] == ["Rematch: Goldfish goes first"]


def test_a_rematch_is_reproducible_and_resumes_with_its_chooser(pool, decks, tmp_path):
    """Session.rematch: the same seed and state from the same finished duel; its save plays on
    as the same duel and still knows who chose (for R-MATCH-3 after a draw)."""
    from ygoterm.engine.core.decision import Outcome
    from ygoterm.engine import load_duel
    from ygoterm.tui.presenters.session import Seat, Session

    from ygoterm.engine.duel.protocol import Duel

    def finished():
        duel = Duel.new(pool, (decks["kaiba-dragons"], decks["joey-warriors"]), 8, names=("Ann", "Bob"))
        session = Session.start(duel, pool, (Seat("Ann"), Seat("Bob")), hot_seat=True, autosave=False, table_asks="every")
        session.answer("first")
        session.concede(1)  # Bob lost
        return session

    one, two = finished(), finished()
    assert one.chooser() == one.duel.log[0].winner and one.rematch_chooser() == 1
    a, b = one.rematch(1), two.rematch(1)  # Bob goes first
    assert a.duel.seed == b.duel.seed and a.duel.state_hash() == b.duel.state_hash()
    assert a.chooser() == 1 and a.duel.first_player == 1
    path = tmp_path / "rematch.json"
    a.duel.record.save(path)
    again = load_duel(path, pool)
    assert again.state_hash() == a.duel.state_hash() and again.record.meta["chooser"] == 1
    a.duel.outcome = Outcome(None, "draw")  # after a draw the last chooser chooses again
    assert a.rematch_chooser() == 1


async def test_the_cursor_starts_on_your_own_hand_after_a_curtain(pool, decks):
    app = hot_seat_app(pool, decks)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await to_the_board(pilot, app)
        first = screen.session.duel.pending.player
        await pilot.press("up", "up", "up", "right")  # Player 1 leaves the cursor on the field
        await pilot.pause()
        assert not screen.board.cursor.id.startswith("bottom-hand")
        for _ in range(40):  # end the turn: the device goes to the other player
            if isinstance(open_question(app), CurtainScreen):
                break
            await pilot.press("n" if isinstance(open_question(app), DuelScreen) else "enter")
            await pilot.pause()
        assert isinstance(open_question(app), CurtainScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert screen.session.viewer == 1 - first
        assert screen.board.cursor.id == "bottom-hand-0" and screen.board.cursor.view.uid == screen.session.view().sides[1 - first].hand[0].uid


async def test_terminal_too_small_says_so_until_it_is_resized(pool, decks):
    from ygoterm.tui.screens.dialogs import HelpScreen, TooSmallScreen

    app = make_app(pool, start=lambda app: app.solo_screen((decks["vanilla-beatdown"], decks["vanilla-beatdown"]), "goldfish", 5))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(open_question(app), TooSmallScreen)
        assert "terminal too small (needs 80×24, now 60×20)" in screen_text(app)
        duel_screen = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
        before = duel_screen.session.duel.state_hash()
        await pilot.press("enter", "enter", "n", "c", "escape", "ctrl+p")  # keys wait: nothing acts unseen
        await pilot.pause()
        assert isinstance(open_question(app), TooSmallScreen) and duel_screen.session.duel.state_hash() == before
        await pilot.resize_terminal(100, 23)  # wide enough, not tall enough
        await pilot.pause()
        assert "now 100×23" in screen_text(app)
        duel_screen.action_help()  # a screen opened meanwhile (as an AI's question would be) goes under the message
        await pilot.pause()
        assert isinstance(open_question(app), TooSmallScreen) and isinstance(app.screen_stack[-2], HelpScreen)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert isinstance(open_question(app), HelpScreen) and "too small" not in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert open_question(app) is duel_screen
        await pilot.resize_terminal(79, 40)
        await pilot.pause()
        assert isinstance(open_question(app), TooSmallScreen) and "now 79×40" in screen_text(app)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert open_question(app) is duel_screen and "Player 1" in screen_text(app)


def test_a_crash_exits_non_zero_and_says_where_its_report_is(pool, decks, monkeypatch, capsys):
    """The whole way a user meets it: the TUI (headless here) dies on an unexpected exception,
    `ygoterm` exits 70 and prints the path of the report, which holds the traceback."""
    from ygoterm.cli import menu
    from ygoterm.cli.common import EXIT_INTERNAL

    def broken(self):
        raise RuntimeError("simulated TUI bug")

    async def user(pilot):
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()

    app = make_app(pool, start=lambda app: app.solo_screen((decks["vanilla-beatdown"], decks["vanilla-beatdown"]), "goldfish", 5))
    monkeypatch.setattr(DuelScreen, "action_detail", broken)
    monkeypatch.setattr(app, "run", lambda: YgoApp.run(app, headless=True, size=(120, 40), auto_pilot=user))
    assert menu.run_app(app) == EXIT_INTERNAL
    assert app.return_code == 1 and app.crash_report is not None and app.crash_report.is_file()
    assert "simulated TUI bug" in app.crash_report.with_suffix(".txt").read_text()
    # (colour codes too: cli.common's console, first imported inside a running app by an earlier
    # test, may have chosen colours — the path must be there all the same)
    printed = re.sub(r"\x1b\[[0-9;]*m", "", capsys.readouterr().err)
    assert str(app.crash_report) in "".join(printed.split())


async def test_a_duel_against_the_ai_resumes_from_its_autosave(pool, decks):
    """What the "Leave the duel?" question promises holds against the AI too: its seat is saved
    and "Resume the last duel" plays on against the same AI."""
    app = make_app(pool, start=lambda app: app.solo_screen((decks["vanilla-beatdown"], decks["vanilla-beatdown"]), "ai:easy", 5))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await to_the_board(pilot, app)
        await pilot.press("enter", "1")  # summon the first hand card
        await pilot.pause()
        played = screen.session.duel.state_hash()
        await pilot.press("q", "y")
        await pilot.pause()
        assert type(open_question(app)).__name__ == "MenuScreen"
        await pilot.press("home", "enter")  # Resume the last duel
        await pilot.pause()
        resumed = open_question(app)
        assert isinstance(resumed, DuelScreen) and resumed is not screen
        assert [s.kind for s in resumed.session.seats] == ["human", "ai:easy"]
        assert resumed.session.duel.state_hash() == played


# ---------------------------------------------------------------------- response windows (hot-seat)


def hot_seat_position_app(pool, position: dict, seed: int = 1, prompts=("always", "always"), table_asks="every") -> YgoApp:
    """A hot-seat duel (two humans, curtains, shared response prompts) from a scenario position.
    `table_asks`: "every" window asks the table (these tests look at particular windows), or
    "events" (the default of the app: where something happened)."""
    from ygoterm.engine.duel.position import build_position
    from ygoterm.tui.presenters.session import Seat, Session

    def start(app):
        duel = build_position(pool, position, seed=seed)
        seats = (Seat("Ann", "human", prompts[0]), Seat("Bob", "human", prompts[1]))
        return DuelScreen(Session.start(duel, pool, seats, hot_seat=True, table_asks=table_asks), title="hot-seat")

    return make_app(pool, start=start)


DECK = ["Giant Soldier of Stone", "Silver Fang", "Feral Imp", "Luster Dragon", "Mystical Elf"]


def summon_position(b_spells, phase="main1"):
    return {"name": "windows", "turn": 3, "phase": phase, "names": {"A": "Ann", "B": "Bob"}, "prompt": {"A": "always", "B": "always"},
            "A": {"hand": ["Celtic Guardian", "Mystical Space Typhoon"], "deck": DECK},
            "B": {"spells": b_spells, "deck": DECK}}


async def lift(pilot, app):
    """Past curtains (and nothing else) to whatever comes next."""
    while isinstance(open_question(app), CurtainScreen):
        await pilot.press("enter")
        await pilot.pause()


async def summon_from_the_card_menu(pilot, app, name: str) -> None:
    screen = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
    screen.select(next(slot for slot in screen.board.slots["bottom-hand"] if slot.view and slot.view.name == name))
    await pilot.press("enter")
    await pilot.pause()
    prompt = open_question(app)
    assert isinstance(prompt, ChoicePrompt)
    await pilot.press(str(next(i for i, o in enumerate(prompt.options) if o.label == f"summon {name}") + 1))
    await pilot.pause()


async def test_one_shared_response_prompt_per_window_says_what_happened(pool):
    """Both players answer one "Anyone responding?" per window from the public view: Enter passes
    for both (the engine's two chain decisions), it says what it answers, and the chain panel and
    the card text stay visible beside it."""
    app = hot_seat_position_app(pool, summon_position(["Trap Hole"]))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await lift(pilot, app)
        screen = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
        session, duel = screen.session, screen.session.duel
        assert duel.pending.kind == Kind.COMMAND and session.viewer == 0
        await summon_from_the_card_menu(pilot, app, "Celtic Guardian")
        assert isinstance(open_question(app), SharedResponse) and session.viewer == -1  # the public view: no hand shown
        text = screen_text(app)
        assert "Anyone responding?" in text and "Ann Normal Summoned Celtic Guardian" in text and "may be negated" in text
        assert "Ann responds" in text and "Bob responds" in text
        assert "Chain: empty" in text and "Mystical Space Typhoon" not in text  # the side panel shows; Ann's hand does not
        before = len(duel.record.choices)
        await pilot.press("n")  # no one (n moves on too, as on the board): both pass the negation window and the next
        await pilot.pause()
        assert [c.lstrip("=") for c in duel.record.choices[before:]] == ["pass"] * 4  # one question for the Summon's two windows
        # no curtain: Ann kept the device (the table only answered a shared question)
        assert open_question(app) is screen and duel.pending.kind == Kind.COMMAND and session.viewer == 0


async def test_saying_you_respond_highlights_your_first_activation(pool):
    app = hot_seat_position_app(pool, summon_position(["Trap Hole"]))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await lift(pilot, app)
        await summon_from_the_card_menu(pilot, app, "Celtic Guardian")
        await pilot.press("2")  # Bob responds (to the Summon: one question for its two windows; Trap Hole answers the second)
        await pilot.pause()
        assert isinstance(open_question(app), CurtainScreen) and "Pass to Bob" in screen_text(app) and "to respond" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        prompt = open_question(app)
        assert isinstance(prompt, ChoicePrompt)
        highlighted = prompt.options[prompt.query_one("#choices").highlighted]
        assert highlighted.label == "activate Trap Hole"  # never "pass" after saying so
        assert "Ann Normal Summoned Celtic Guardian" in screen_text(app)  # what it answers
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(open_question(app), ChoicePrompt) and "Trap Hole: choose 1 target" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert isinstance(open_question(app), SharedResponse) and "Chain Link 1: Trap Hole (Bob" in text and "→ Celtic Guardian" in text
        assert "CL1" in text  # the chain panel beside the prompt
        await pilot.press("enter")
        await pilot.pause()
        duel = next(s for s in app.screen_stack if isinstance(s, DuelScreen)).session.duel
        assert [c.name for c in duel.players[0].gy] == ["Celtic Guardian"]


async def test_the_shared_prompt_looks_the_same_whether_or_not_anyone_can_respond(pool):
    """The hot-seat leak test for response windows: Bob holds a Set Trap Hole (which can answer
    the Summon) or a Set Pot of Greed (which cannot). Every window comes up the same, and each
    shared prompt is the same on screen, key for key."""
    seen = []
    for spells in (["Trap Hole"], ["Pot of Greed"]):
        app = hot_seat_position_app(pool, summon_position(spells, phase="draw"))
        screens = []
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            summoned = False
            for _ in range(80):
                await pilot.pause()
                board = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
                duel = board.session.duel
                if duel.turn > 3:
                    break
                if isinstance(open_question(app), SharedResponse):
                    screens.append(screen_text(app))
                    await pilot.press("enter")
                elif isinstance(open_question(app), DuelScreen) and duel.pending.kind == Kind.COMMAND and not summoned:
                    summoned = True
                    await summon_from_the_card_menu(pilot, app, "Celtic Guardian")
                elif isinstance(open_question(app), DuelScreen):
                    await pilot.press("n")
                else:
                    await pilot.press("enter")
        seen.append(screens)
    assert len(seen[0]) > 8 and seen[0] == seen[1]


async def test_stop_asking_until_something_happens(pool):
    """s at the Draw Phase's window: no more windows (and no curtain) until the Summon, whose
    windows are asked again; d passes the rest of a Damage Step for both players."""
    position = summon_position([], phase="draw")
    position["A"]["monsters"] = ["Gemini Elf"]
    app = hot_seat_position_app(pool, position)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        board = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
        duel = board.session.duel
        assert isinstance(open_question(app), SharedResponse) and "stop asking until something happens" in screen_text(app)
        await pilot.press("s")
        await pilot.pause()
        await lift(pilot, app)
        assert open_question(app) is board and duel.pending.kind == Kind.COMMAND  # Standby Phase's windows went by
        await summon_from_the_card_menu(pilot, app, "Celtic Guardian")
        assert isinstance(open_question(app), SharedResponse) and "Celtic Guardian" in screen_text(app)  # something happened
        await pilot.press("enter")  # (one question for the Summon's two windows)
        await pilot.pause()
        await lift(pilot, app)
        await pilot.press("n")  # to the Battle Phase: its windows are asked (the skip ended with the Summon)
        await pilot.pause()
        while isinstance(open_question(app), (SharedResponse, CurtainScreen)):
            await pilot.press("enter")
            await pilot.pause()
        assert duel.pending.kind == Kind.BATTLE
        await pilot.press("a")
        await pilot.pause()
        await pick(pilot, open_question(app), "attack Gemini Elf -> direct")
        await pilot.pause()
        windows = 0
        while duel.attack is not None or isinstance(open_question(app), SharedResponse):
            if not isinstance(open_question(app), SharedResponse):
                break
            windows += 1
            await pilot.press("d" if board.session.in_damage_step() else "enter")
            await pilot.pause()
        assert windows == 2  # the attack's window, then the Damage Step's first: d passed its other four
        assert duel.players[1].lp == 8000 - 1900


def test_passing_the_rest_of_a_damage_step(pool):
    from ygoterm.engine.duel.position import build_position
    from ygoterm.tui.presenters.session import Seat, Session

    duel = build_position(pool, {"name": "attack", "turn": 3, "A": {"monsters": ["Gemini Elf"], "hand": ["Rush Recklessly"]},
                                 "B": {"monsters": ["Celtic Guardian"], "hand": ["Rush Recklessly"]}}, seed=1)
    session = Session.start(duel, pool, (Seat("Ann"), Seat("Bob")), hot_seat=True, autosave=False, table_asks="every")
    session.answer("battle")
    while duel.pending.kind != Kind.BATTLE:
        session.continue_window()
    session.answer("attack Gemini Elf -> Celtic Guardian")
    while not session.in_damage_step():
        session.continue_window()
    asked = []
    while session.in_damage_step() and duel.pending.kind == Kind.CHAIN:
        asked.append(duel.step.name)
        if len(asked) == 1:
            session.pass_damage_step()  # "d" at the first Damage Step prompt
        session.continue_window()
    assert asked == ["DAMAGE_START"], asked  # neither player is asked in the other four sub-steps
    assert [c.name for c in duel.players[1].gy] == ["Celtic Guardian"] and duel.players[1].lp == 8000 - 500


async def test_the_shared_prompt_can_continue_by_itself_unless_someone_waits(pool):
    app = hot_seat_position_app(pool, summon_position([], phase="draw"))
    app.settings.auto_continue = 1.5
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        duel = next(s for s in app.screen_stack if isinstance(s, DuelScreen)).session.duel
        assert isinstance(open_question(app), SharedResponse) and "continuing by itself" in screen_text(app)
        first = open_question(app)
        await pilot.press("x")  # either player: "wait"
        await pilot.pause(1.8)
        assert open_question(app) is first and "waiting" in screen_text(app)
        before = len(duel.record.choices)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(open_question(app), SharedResponse) and len(duel.record.choices) > before  # the next window
        assert "continuing by itself" in screen_text(app)  # (its own countdown, on the kept widgets)
        before = len(duel.record.choices)
        await pilot.pause(1.8)  # nobody presses anything
        assert len(duel.record.choices) > before


async def test_mashing_enter_never_acts_beyond_passing(pool):
    """Enter, again and again, from a turn's Draw Phase: the windows are passed, the curtain
    lifted, the card's menu opens with nothing chosen — and nothing else happens."""
    app = hot_seat_position_app(pool, summon_position(["Trap Hole"], phase="draw"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        board = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
        duel = board.session.duel
        field = [c and c.uid for side in duel.players for c in side.mzone + side.szone]
        for _ in range(30):
            await pilot.press("enter")
            await pilot.pause()
        assert isinstance(open_question(app), ChoicePrompt) and open_question(app).query_one("#choices").highlighted is None
        assert "Celtic Guardian: what now?" in screen_text(app)
        assert all(entry.lstrip("=") in ("pass", "draw") for entry in duel.record.choices), duel.record.choices
        assert [c and c.uid for side in duel.players for c in side.mzone + side.szone] == field
        assert len(duel.players[0].hand) == 3 and duel.pending.kind == Kind.COMMAND


async def test_escape_out_of_an_activation_leaves_the_duel_untouched(pool):
    """Choosing "activate" and then Esc at its target (before the activation is complete)
    takes it back: the card is in the hand again, the duel and its save as they were."""
    import json

    app = hot_seat_position_app(pool, summon_position(["Trap Hole"]))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await lift(pilot, app)
        board = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
        session = board.session
        before, record = session.duel.state_hash(), list(session.duel.record.choices)
        board.select(next(slot for slot in board.board.slots["bottom-hand"] if slot.view and slot.view.name == "Mystical Space Typhoon"))
        await pilot.press("enter")
        await pilot.pause()
        await pick(pilot, open_question(app), "activate Mystical Space Typhoon")
        await pilot.pause()
        prompt = open_question(app)
        assert isinstance(prompt, ChoicePrompt) and session.duel.pending.verb == "target"
        text = screen_text(app)
        assert "Bob's S" in text and "face-down" in text  # whose card, where
        assert "Face-down card" in text  # the highlighted target fills the detail panel (as Ann may see it)
        await pilot.press("escape")
        await pilot.pause()
        assert open_question(app) is board and session.duel.state_hash() == before and session.duel.record.choices == record
        assert "Mystical Space Typhoon" in [c.name for c in session.duel.players[0].hand]
        saved = json.loads(paths.autosave_path("hotseat").read_text())
        assert saved["choices"] == record
        assert any("Taken back: activate Mystical Space Typhoon" in str(n.message) for n in app._notifications)
        # once the activation is complete (its chain link added), Esc no longer takes it back
        await pilot.press("enter")
        await pilot.pause()
        await pick(pilot, open_question(app), "activate Mystical Space Typhoon")
        await pilot.pause()
        await pilot.press("enter")  # the target
        await pilot.pause()
        assert isinstance(open_question(app), SharedResponse) and not session.can_back_out()


def attack_app(pool) -> YgoApp:
    """Ann's Dark Paladin (ATK raised by its own effect) and Stardust Dragon against Bob's
    Summoned Skull, Main Phase 1 of turn 3, solo (no curtain)."""
    from ygoterm.engine.duel.position import build_position
    from ygoterm.tui.presenters.session import Seat, Session

    position = {"name": "marks", "turn": 3, "phase": "main1", "names": {"A": "Ann", "B": "Bob"},
                "A": {"deck": DECK, "monsters": [{"card": "Dark Paladin", "how": "special"}, {"card": "Stardust Dragon", "how": "special"}]},
                "B": {"deck": DECK, "monsters": ["Summoned Skull"]}}

    def start(app):
        duel = build_position(pool, position, seed=1)
        seats = (Seat("Ann", "human", "always"), Seat("Bob", "human", "always"))
        return DuelScreen(Session.start(duel, pool, seats, hot_seat=False), title="marks", solo=True)

    return make_app(pool, start=start)


def declare_attack(screen: DuelScreen, attack: str = "attack Dark Paladin -> Summoned Skull") -> None:
    """To the Battle Phase and declare `attack`, passing whatever asks in between."""
    session = screen.session
    for label in ("battle", attack):
        for _ in range(12):
            option = next((o for o in session.duel.pending.options if o.label.startswith(label)), None)
            session.answer(option or next(o for o in session.duel.pending.options if o.label == "pass"))
            if option is not None:
                break


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_attack_in_progress(pool, snap_compare, size):
    """The response window of an attack declaration: ⚔ on the attacker, ◎ on its target."""
    app = attack_app(pool)

    async def attack(pilot):
        screen = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
        declare_attack(screen)
        screen.advance()
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=attack)


async def test_the_board_marks_the_attacker_its_target_and_a_raised_atk(pool):
    """During an attack the attacker and its target are marked on the board (public: both
    players see them); a monster whose ATK differs from its printed ATK shows it (▲ raised)."""
    app = attack_app(pool)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
        paladin = next(slot for slot in screen.board.slots["bottom-m"] if slot.view and slot.view.name == "Dark Paladin")
        assert paladin.view.atk > paladin.view.base_atk and f"{paladin.view.atk}▲" in screen_text(app)
        assert "⚔" not in screen_text(app)
        declare_attack(screen)
        screen.advance()
        await pilot.pause()
        skull = next(slot for slot in screen.board.slots["top-m"] if slot.view and slot.view.name == "Summoned Skull")
        assert (paladin.mark, skull.mark) == ("attacker", "target")
        await pilot.press("escape")  # the response prompt aside: the board itself
        await pilot.pause()
        text = screen_text(app)
        assert "⚔ attacks" in text and "◎ target" in text


async def test_attack_options_say_the_details_are_the_attackers(pool):
    """An attack option's description says whose zone and stats it gives (the attacker's, not
    the target's named just before them) and where the target is — only its place, so a
    face-down target stays unnamed and its stats unseen."""
    from ygoterm.engine.duel.position import build_position
    from ygoterm.tui.presenters.session import Seat, Session

    position = {"name": "descriptions", "turn": 3, "phase": "main1",
                "A": {"deck": DECK, "monsters": ["Vorse Raider"]},
                "B": {"deck": DECK, "monsters": ["Celtic Guardian", {"card": "Mystical Elf", "position": "set"}]}}

    def start(app):
        duel = build_position(pool, position, seed=1)
        seats = (Seat("Player 1", "human", "always"), Seat("Player 2", "human", "always"))
        return DuelScreen(Session.start(duel, pool, seats, hot_seat=False), title="descriptions", solo=True)

    app = make_app(pool, start=start)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
        session = screen.session
        while session.duel.pending.kind != Kind.BATTLE:  # to the Battle Step, passing what asks
            session.answer(next(o for o in session.duel.pending.options if o.key in ("battle", "pass")))
        screen.advance()
        await pilot.pause()
        if open_question(app) is not screen:  # the Battle Step's own question aside: a lists the attacks
            await pilot.press("escape")
            await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        prompt = open_question(app)
        assert isinstance(prompt, ChoicePrompt) and prompt.title_text == "Declare an attack"
        texts = [str(o.prompt) for o in prompt.query_one("#choices").options]
        assert texts == ["1 attack Vorse Raider -> Celtic Guardian  · attacker: Player 1's M1 · 1900/1200 ATK · target: Player 2's M1",
                         "2 attack Vorse Raider -> face-down monster  · attacker: Player 1's M1 · 1900/1200 ATK · target: Player 2's M2"]
        assert "Mystical Elf" not in screen_text(app) and "800/2000" not in screen_text(app)


async def test_a_question_over_the_board_holds_the_keys_until_it_is_answered(pool, decks):
    """The duel's questions are asked over the board in the duel screen itself (no modal screen):
    while one is open, the board's keys and clicks do nothing, Tab stays in it, the key bar
    shows its keys; once answered, the board has the keys again."""
    app = make_app(pool, start=lambda app: app.solo_screen((decks["kaiba-dragons"], decks["joey-warriors"]), "goldfish", 7))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        board = open_question(app)
        assert isinstance(board, DuelScreen)
        duel = board.session.duel
        cursor = board.board.cursor
        await pilot.press("c")
        await pilot.pause()
        question = open_question(app)
        assert isinstance(question, ChoicePrompt) and app.screen is board  # over the board, not a pushed screen
        assert question.title_text == "Main Phase 1: your move"
        assert [label for _, label, _ in board.key_bar.items] == ["back"]  # only what works now
        record = list(duel.record.choices)
        await pilot.press("n", "a", "left", "right", "g", "u", "question_mark", "tab", "shift+tab")
        await pilot.pause()
        assert open_question(app) is question and app.screen is board  # nothing opened, nothing left
        assert duel.record.choices == record and board.board.cursor is cursor
        assert app.focused is question.query_one("#choices")  # (Tab stayed in the question)
        await pilot.click("#bottom-hand", offset=(3, 1))  # a card of the hand, behind nothing
        await pilot.pause()
        assert open_question(app) is question and board.board.cursor is cursor
        await pilot.press("escape")
        await pilot.pause()
        assert open_question(app) is board and not question.display
        assert "help" in [label for _, label, _ in board.key_bar.items]
        stale = question.listed[0]
        await pilot.press("c")  # the same widgets ask again (ChoicePrompt.ask)
        await pilot.pause()
        assert open_question(app) is question and question.display
        choices = question.query_one("#choices")
        question.post_message(choices.OptionSelected(choices, stale, 0))  # (sent for the last question, arriving now)
        await pilot.pause()
        assert open_question(app) is question and duel.record.choices == record  # not an answer to this one
        end = next(i for i, o in enumerate(question.options) if o.key == "end")
        assert end < 9 and question.options[-1].verb == "set"  # (activations and Summons first, Sets last)
        await pilot.press(str(end + 1))  # end, by its digit: the question closes, the turn ends
        await pilot.pause()
        assert duel.turn == 3 and open_question(app) is board  # (the goldfish's turn went by)



def test_the_window_after_a_summon_and_the_last_chance_read_differently(pool):
    """Player 1 Summons, then moves to the Battle Phase: Player 2's two windows both follow the
    Summon, but the second says it is the last chance in this phase (R-PRIO-2); they read the
    same before."""
    from ygoterm.engine.duel.position import build_position
    from ygoterm.tui.presenters.session import Seat, Session

    duel = build_position(pool, {"name": "windows", "turn": 3, "A": {"hand": ["Gemini Elf"]},
                                 "B": {"spells": ["Waboku"]}}, seed=1)
    session = Session.start(duel, pool, (Seat("Ann"), Seat("Bob")), hot_seat=True, autosave=False, table_asks="every")
    session.answer("summon Gemini Elf")
    while not (duel.pending.player == 1 and "activate Waboku" in [o.label for o in duel.pending.options]):
        session.answer("pass")  # (the Summon's negation window first, R-SUMMON-19)
    summoned = "Just now: Player 1 Normal Summoned Gemini Elf in face-up Attack Position"
    assert session.window_context()[-1] == summoned
    session.answer("pass")
    session.answer("battle")
    assert duel.pending.player == 1 and duel.pending.kind == Kind.CHAIN
    assert session.window_context()[-2:] == [summoned, "Player 1 moves on: the last chance to act in this phase (R-PRIO-2)"]


async def test_playing_alone_the_coin_toss_winner_chooses_first_or_second(pool, decks):
    """R-SETUP-3 against the AI too: the human who won the toss is asked; the AI chooses when it
    won it (the Settings can say "you always go first" instead)."""
    from ygoterm.tui.widgets.questions import ChoicePrompt

    app = make_app(pool, start=lambda app: app.solo_screen((decks["kaiba-dragons"], decks["joey-warriors"]), "ai:easy", 1,
                                                           first=app.first_as_set()))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        question = open_question(app)
        assert isinstance(question, ChoicePrompt) and "won the coin toss" in screen_text(app)
        await pick(pilot, question, "second")
        await pilot.pause()
        duel = next(s for s in app.screen_stack if isinstance(s, DuelScreen)).session.duel
        assert duel.first_player == 1 and duel.turn >= 1
    app = make_app(pool)
    app.settings.go_first = "always"
    assert app.first_as_set() is True


async def test_a_key_pressed_before_a_question_was_asked_never_answers_it(pool, decks):
    """Keys read while the screen was busy (the AI's turn, a long chain) or typed ahead arrive
    after the next question opened: they do not answer it; keys pressed after it opened do."""
    from textual import events

    app = make_app(pool, start=lambda app: app.solo_screen((decks["kaiba-dragons"], decks["joey-warriors"]), "goldfish", 7))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        board = open_question(app)
        duel = board.session.duel
        record = list(duel.record.choices)
        await pilot.press("c")
        await pilot.pause()
        question = open_question(app)
        assert isinstance(question, ChoicePrompt)
        for key in ("down", "enter"):
            stale = events.Key(key, "\r" if key == "enter" else None)
            stale.time = app.asked_at - 0.5  # (pressed half a second before the question was asked)
            app.post_message(stale)
            await pilot.pause()
        assert open_question(app) is question and duel.record.choices == record  # not answered
        await pilot.press("escape")  # a key pressed now works
        await pilot.pause()
        assert open_question(app) is board


async def test_one_autosave_per_kind_of_game_each_resumable(pool, decks):
    """A hot-seat duel and a solo duel keep their own autosaves (a lab test hand and a match
    theirs): Resume asks which, and plays on from the one chosen."""
    from ygoterm.engine.duel.protocol import Duel
    from ygoterm.tui.presenters.session import Seat, Session

    pair = (decks["kaiba-dragons"], decks["joey-warriors"])
    for hot in (True, False):
        duel = Duel.new(pool, pair, 5 if hot else 6)
        session = Session.start(duel, pool, (Seat("Ann"), Seat("Bob", "human" if hot else "goldfish")), hot_seat=hot)
        session.answer(session.duel.pending.options[0])  # (first or second: the autosave is written)
    assert paths.autosave_path("hotseat").is_file() and paths.autosave_path("solo").is_file()
    assert [what for what, _ in paths.autosaves()] == ["solo duel", "hot-seat duel"]  # newest first
    app = make_app(pool)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await open_menu_item(pilot, app, "Resume")
        await pilot.pause()
        await pick(pilot, open_question(app), "Hot-seat duel")
        await pilot.pause()
        screen = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
        assert screen.session.hot_seat and screen.session.duel.seed == 5


async def test_a_new_match_asks_before_replacing_an_unfinished_one(pool):
    paths.autosave_path("match").parent.mkdir(parents=True, exist_ok=True)
    paths.autosave_path("match").write_text("{}")  # (its content is not read to ask)
    app = make_app(pool)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await open_menu_item(pilot, app, "Match (best of 3)")
        await pilot.pause()
        assert "An unfinished match is autosaved" in screen_text(app)
        await pilot.press("n")  # back: nothing replaced
        await pilot.pause()
        assert type(open_question(app)).__name__ == "MenuScreen" and paths.autosave_path("match").read_text() == "{}"


def test_an_attack_option_reads_by_its_places_not_its_tags():
    """Three Sheep Tokens to attack: the list says where each target is ("target: Player 2's M1"), so the label drops
    the '@M4->M1' tags the command grammar uses (typed commands keep them)."""
    from ygoterm.engine import Option
    from ygoterm.tui.widgets.questions import _option_text

    option = Option("attack:1:2", "attack Sinister Serpent -> Sheep Token@M4->M1", 1, 2, "attack")
    text = _option_text(option, lambda o: "attacker: Player 1's M4 · 300/250 ATK · target: Player 2's M1").plain
    assert text == "attack Sinister Serpent -> Sheep Token  · attacker: Player 1's M4 · 300/250 ATK · target: Player 2's M1"
    plain = Option("card:3", "Celtic Guardian@M2", 3)
    assert _option_text(plain, lambda o: "Player 1's M2 · 1400/1200 ATK").plain == "Celtic Guardian  · Player 1's M2 · 1400/1200 ATK"
    assert _option_text(plain, None).plain == "Celtic Guardian@M2"  # (nothing else says where it is)


def test_two_copies_in_the_hand_read_by_their_place_not_their_tags(pool):
    """Copies of a card in the hand: the engine tells the options apart as '…@H1' … '…@H5' (typed commands keep
    them); the list says "Player 1's hand, card 1" instead (a duel as a user read "activate Smashing Ground@H6")."""
    from ygoterm.engine import Duel
    from ygoterm.schema.decks import Deck
    from ygoterm.tui.presenters.describe import describe_option
    from ygoterm.tui.widgets.questions import _option_text

    cards = [pool.get("Celtic Guardian")] * 40
    duel = Duel.new(pool, (Deck("a", cards, []), Deck("b", cards, [])), seed=1)
    while duel.pending is not None and duel.pending.kind.name != "COMMAND":
        duel.apply(duel.pending.options[0])
    options = [o for o in duel.pending.options if o.label.startswith("summon Celtic Guardian@H")]
    assert len(options) == 5, [o.label for o in duel.pending.options]
    view = duel.view(duel.pending.player)
    texts = [_option_text(o, lambda o: describe_option(view, duel.names, o)).plain for o in options]
    assert texts == [f"summon Celtic Guardian  · Player {duel.pending.player + 1}'s hand, card {n}" for n in range(1, 6)]


def test_a_long_option_wraps_under_its_label_not_under_its_number():
    """A duel as a user read "3 summon Thestalos the Firestorm Monarch · Player 1's hand, card" then a line "4":
    the wrapped end of option 3 looked like option 4. The number has a column of its own; the label wraps in its own."""
    from rich.console import Console
    from ygoterm.engine import Option
    from ygoterm.tui.widgets.questions import Numbered, _option_text

    option = Option("summon:7", "summon Thestalos the Firestorm Monarch@H4", 7)
    console = Console(width=50, color_system=None, legacy_windows=False)
    with console.capture() as out:
        console.print(Numbered(3, _option_text(option, lambda o: "Player 1's hand, card 4")))
    lines = out.get().rstrip("\n").split("\n")
    assert lines[0].startswith("3 summon Thestalos the Firestorm Monarch") and len(lines) == 2, lines
    assert lines[1].startswith("  ") and lines[1].strip().endswith("card 4"), lines


async def test_a_declaration_typed_in_full_is_that_word(pool, tmp_path):
    """Tribe-Infecting Virus: typing "Warrior" and Enter declares Warrior — not Beast-Warrior, the first label the
    word is inside (a duel as a user declared the wrong Type so)."""
    app = position_app(pool, tmp_path, "name: Virus\nrules: goat\nturn: 3\nA:\n  monsters: [Tribe-Infecting Virus]\n"
                                       "  hand: [Sinister Serpent]\nB:\n  monsters: [Vorse Raider, Celtic Guardian]\n")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        duel_screen = open_question(app)
        await command(pilot, app, "activate Tribe-Infecting Virus")
        await pilot.press("enter")  # (the one card to discard)
        await pilot.pause()
        if duel_screen.session.duel.pending.kind == Kind.CARDS:
            await pilot.press("space", "enter")
            await pilot.pause()
        await pilot.press(*"Warrior", "enter")
        await pilot.pause()
        duel = duel_screen.session.duel
        log = " ".join(e.text(duel.names) for e in duel.log)
        assert "declares Warrior" in log and "declares Beast-Warrior" not in log


async def test_a_question_asked_again_shows_every_line_of_its_options():
    """A duel as a user (120×40) saw the window after Tribe-Infecting Virus resolved show "ATK" and "2 pass": the
    question's widgets, kept from a 3-option question and refilled while hidden, kept its scroll height (3), so
    the 2-line list took a scrollbar, option 1's label wrapped for the scrollbar's room and its first line was out
    of sight. Every label that fits the list's width without a scrollbar now shows on one line, none scrolled."""
    from pathlib import Path

    from textual.app import App

    import ygoterm.tui.app
    from ygoterm.engine import Option
    from ygoterm.tui.widgets.questions import QuestionLayer

    class Host(App):
        CSS_PATH = str(Path(ygoterm.tui.app.__file__).with_name("styles.tcss"))

        def compose(self):
            yield QuestionLayer(id="questions")

    app = Host()
    async with app.run_test(size=(120, 40)) as pilot:
        layer = app.query_one(QuestionLayer)
        answers = []
        first = ChoicePrompt("discard (1)", [Option(f"c{i}", name) for i, name in enumerate(["Snatch Steal", "Sangan", "Kycoo"])])
        layer.pose(first, answers.append)
        await pilot.pause()
        width = first.query_one("#choices").size.width
        await pilot.press("enter")
        await pilot.pause()
        label = "activate " + "x" * (width - len("1 activate ") - 1)  # fits the width; not with a scrollbar's room
        again = ChoicePrompt("respond or pass", [Option("a", label), Option("pass", "pass")])
        layer.pose(again, answers.append)
        await pilot.pause()
        shown = layer.question
        assert shown is first  # (the kept widgets, asked again)
        choices = shown.query_one("#choices")
        lines = ["".join(s.text for s in choices.render_line(y)).rstrip() for y in range(choices.size.height)]
        assert lines == [f"1 {label}", "2 pass"], lines


def test_a_search_lists_deck_cards_without_their_place_in_the_deck(pool):
    """Sangan's search listed "Tsukuyomi@DECK34" and "Nimble Momonga@DECK11" (a duel as a user): the tags count from
    the top of the Deck, whose order nobody may know, and mean nothing to a player. The list says where they come
    from, not which copy."""
    from ygoterm.engine.duel.position import build_position
    from ygoterm.tui.presenters.describe import describe_option
    from ygoterm.tui.widgets.questions import _option_text

    deck = [{"card": "Feral Imp", "count": 10}, {"card": "D.D. Warrior Lady", "count": 2}, {"card": "Feral Imp", "count": 10}]
    duel = build_position(pool, {"name": "search", "turn": 3, "phase": "main1", "A": {"deck": deck, "hand": ["Reinforcement of the Army"]},
                                 "B": {"deck": [{"card": "Feral Imp", "count": 20}]}}, seed=1)
    duel.apply("activate Reinforcement of the Army")
    while not any("@DECK" in o.label for o in duel.pending.options):
        duel.apply("pass" if duel.pending.option("pass") else duel.pending.options[0])
    assert [o.label.split("@")[0] for o in duel.pending.options] == ["D.D. Warrior Lady"] * 2
    view = duel.view(duel.pending.player)
    texts = [_option_text(o, lambda o: describe_option(view, duel.names, o)).plain for o in duel.pending.options]
    assert texts == ["D.D. Warrior Lady  · from the Deck"] * 2


async def test_a_selection_names_the_ticked_options_in_words():
    """A ticked box and an empty one differ by colour alone (in a terminal without colour, or NO_COLOR,
    not at all): the count under the list names what is ticked, in the order ticked."""
    from textual.app import App
    from ygoterm.engine import Option
    from ygoterm.engine.core.decision import Decision

    options = tuple(Option(f"c{i}", f"{name}@M{i + 1}", i) for i, name in enumerate(("Sangan", "Sheep Token", "Jinzo")))
    prompt = SelectPrompt(Decision(0, Kind.CARDS, options, "Tribute 2 monsters", min=2, max=2, multi=True))

    class Host(App):
        def compose(self):
            yield prompt

    async with Host().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        count = lambda: str(prompt.query_one("#count").render())  # noqa: E731
        assert count() == "0 of 2 selected"
        await pilot.press("down", "down", "space", "up", "up", "space")
        await pilot.pause()
        assert count() == "2 of 2 selected: Jinzo, Sangan"
        await pilot.press("down", "down", "space")
        await pilot.pause()
        assert count() == "1 of 2 selected: Sangan"


async def test_the_whole_log_after_the_ais_turn(pool, decks):
    """L opens the whole duel log (the side panel shows its last lines; the AI's turn is longer),
    scrolled to its end, as the player may read it: the AI's hand stays hidden. Esc gives the board back."""
    from textual.containers import VerticalScroll
    from ygoterm.tui.screens.dialogs import LogScreen

    app = make_app(pool, start=lambda app: app.solo_screen((decks["kaiba-dragons"], decks["joey-warriors"]), "ai:normal", 3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = open_question(app)
        screen._answer("end")
        for _ in range(600):
            await pilot.pause(0.05)
            duel = screen.session.duel
            if duel.outcome is not None or (duel.turn == 3 and duel.pending and duel.pending.player == 0 and not screen.thinking):
                break
        assert duel.turn == 3 and open_question(app) is screen
        await pilot.press("L")
        await pilot.pause()
        log = app.screen
        assert isinstance(log, LogScreen)
        text = "\n".join(line.plain for line in log.lines)
        assert text.startswith("Coin toss") and "— Turn 2: AI (normal) —" in text and "— Turn 3: Player 1 —" in text
        assert len(log.lines) > 20  # (more than the side panel shows at 80×24)
        hidden = {c.name for c in duel.players[1].hand} - {c.name for side in duel.players for c in
                                                             side.gy + side.banished + [m for m in side.mzone + side.szone if m]}
        assert hidden and not any(name in text for name in hidden)
        body = log.query_one("#log-body", VerticalScroll)
        assert body.max_scroll_y > 0 and body.scroll_y == body.max_scroll_y  # the latest lines first
        await pilot.press("escape")
        await pilot.pause()
        assert open_question(app) is screen


def test_a_listed_option_drops_its_place_tag_inside_the_label_too():
    """The list says where each card is; "switch Sheep Token@M1 to attack" kept its tag, whose
    place tag is inside the label (seen with four Sheep Tokens)."""
    from ygoterm.engine import Option
    from ygoterm.tui.widgets.questions import _option_text

    switch = Option("switch:7", "switch Sheep Token@M1 to attack", 7, verb="switch")
    assert _option_text(switch, lambda o: "Player 1's M1 · 0/0 DEF").plain == "switch Sheep Token to attack  · Player 1's M1 · 0/0 DEF"
    summon = Option("summon:8", "summon Celtic Guardian@H2", 8, verb="summon")
    assert _option_text(summon, lambda o: "Player 1's hand, card 2").plain == "summon Celtic Guardian  · Player 1's hand, card 2"


def test_the_window_after_the_attacker_is_destroyed_no_longer_says_it_attacks(pool):
    """Sakuretsu Armor destroys the attacker: the windows that follow said "Gemini Elf (Player 1)
    attacks directly" (seen with Black Luster Soldier); they say what just happened instead."""
    from ygoterm.engine.duel.position import build_position
    from ygoterm.tui.presenters.session import Seat, Session

    duel = build_position(pool, {"name": "windows", "turn": 3, "A": {"monsters": ["Gemini Elf"]},
                                 "B": {"spells": ["Sakuretsu Armor"]}}, seed=1)
    session = Session.start(duel, pool, (Seat("Ann"), Seat("Bob")), hot_seat=True, autosave=False, table_asks="every")
    session.answer("battle")
    while duel.pending.kind != Kind.BATTLE:
        session.answer("pass")
    session.answer("attack Gemini Elf -> direct")
    while "activate Sakuretsu Armor" not in [o.label for o in duel.pending.options]:
        session.answer("pass")
    assert session.window_context()[-1] == "Gemini Elf (Player 1) attacks directly"
    session.answer("activate Sakuretsu Armor")
    session.answer("Gemini Elf")
    while duel.chain:
        session.answer("pass")
    assert duel.pending.kind == Kind.CHAIN and duel.players[0].gy[-1].name == "Gemini Elf"
    assert session.window_context()[-1] == "Just now: Gemini Elf (Player 1) is destroyed by a card effect"


def test_the_status_line_keeps_the_turn_beside_a_long_decision():
    """At 80 columns the status bar is ~53 cells: a long decision ("attack or end the Battle Phase")
    left only the decision, and the turn number went with the phase (seen playing Monarch at 80×24).
    The parts shorten in order — extra, turn player, step, phase — and the turn stays while it fits."""
    from ygoterm.tui.widgets.panels import StatusBar

    parts = (5, "Player 1", "Battle Phase", "Battle Step", "Player 1: attack or end the Battle Phase", "seed 7", "")
    assert StatusBar.line(parts, 120).plain == " Turn 5  Player 1's turn · Battle Phase › Battle Step · Player 1: attack or end the Battle Phase · seed 7"
    assert StatusBar.line(parts, 60).plain == " T5  Battle · Player 1: attack or end the Battle Phase"
    assert StatusBar.line(parts, 53).plain == " T5  Player 1: attack or end the Battle Phase"
    assert StatusBar.line(parts, 30).plain == "Player 1: attack or end the Battle Phase"  # (cut to the width as it is drawn)
    alert = StatusBar.line(parts[:6] + ("autosave failed",), 53).plain
    assert alert.startswith(" autosave failed ") and "attack or end" in alert
