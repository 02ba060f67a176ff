"""Decks with imported (unscripted, `play: manual`) cards: played in solo and hot-seat with
manual actions switched on; the TUI marks those cards (✎) and offers their manual actions from
the card's Enter menu; manual actions on hidden cards reveal nothing to the other player
(issue 16)."""

from __future__ import annotations

import html
import re

import pytest

from ygoterm import paths
from ygoterm.engine.core.decision import Kind
from ygoterm.engine import load_duel
from ygoterm.schema.cardpool import CardPool
from ygoterm.schema.decks import find_deck, load_deck, unscripted_cards
from ygoterm.tui.app import YgoApp
from ygoterm.tui.screens.deck_editor import DeckEditor
from ygoterm.tui.screens.duel import DuelScreen
from ygoterm.tui.presenters.manual_menu import card_manual_actions
from ygoterm.tui.widgets.questions import ChoicePrompt, SharedResponse, open_question
from ygoterm.tui.screens.dialogs import CurtainScreen, MessageScreen, PileScreen
from tests.test_tui import open_menu_item

CARDS = '''- id: 99000001
  name: Quill Imp
  kind: monster
  frame: effect
  attribute: DARK
  type: Fiend
  level: 4
  atk: 1500
  def: 1200
  text: "Once per turn: you can draw 1 card."
- id: 99000002
  name: Ink Blot
  kind: spell
  subtype: normal
  text: "Your opponent discards 1 card."
'''
FILL = {"Blue-Eyes White Dragon": 2, "Summoned Skull": 2, "Dark Magician": 1, "Gemini Elf": 3, "Luster Dragon": 3,
        "Alexandrite Dragon": 3, "Vorse Raider": 3, "La Jinn the Mystical Genie of the Lamp": 2, "Battle Ox": 2,
        "Celtic Guardian": 3, "Mystical Elf": 3, "Giant Soldier of Stone": 3, "Axe Raider": 2, "Mechanicalchaser": 2}
UNSCRIPTED = ("Ink Blot", "Quill Imp")


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A user folder with two imported (unscripted) cards and a deck that uses them."""
    home = tmp_path / "home"
    monkeypatch.setenv("YGOTERM_HOME", str(home))
    (home / "cards").mkdir(parents=True)
    (home / "decks").mkdir()
    (home / "cards" / "imported.yaml").write_text(CARDS)
    main = {"Quill Imp": 3, "Ink Blot": 3, **FILL}
    (home / "decks" / "quill.yaml").write_text("name: Quill Ink\nmain:\n" + "".join(f"  {k}: {v}\n" for k, v in main.items()))
    return home


@pytest.fixture
def world(home):
    pool = CardPool.load(paths.card_dirs())
    deck = load_deck(home / "decks" / "quill.yaml", pool)[0]
    vanilla = load_deck(find_deck("vanilla-beatdown", paths.deck_dirs()), pool)[0]
    return pool, deck, vanilla


def screen_text(app) -> str:
    svg = app.export_screenshot()
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


def board(app) -> DuelScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, DuelScreen))


def slot_of(screen: DuelScreen, name: str, row: str = "bottom-hand"):
    return next(slot for slot in screen.board.slots[row] if slot.view and slot.view.name == name)


async def choose(pilot, app, label: str) -> None:
    """In the open ChoicePrompt, the option labelled `label`, by its digit."""
    prompt = open_question(app)
    assert isinstance(prompt, ChoicePrompt), app.screen_stack
    labels = [o.label for o in prompt.options]
    index = labels.index(label)
    if index < 9:
        await pilot.press(str(index + 1))
    else:  # (nothing is highlighted in a card's menu: the first ↓ highlights the first option)
        await pilot.press(*["down"] * (index + 1), "enter")
    await pilot.pause()


async def card_menu(pilot, app, name: str, row: str = "bottom-hand") -> list[str]:
    screen = board(app)
    screen.select(slot_of(screen, name, row))
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(open_question(app), ChoicePrompt)
    return [o.label for o in open_question(app).options]


def test_unscripted_cards_of_a_deck(world):
    _, deck, vanilla = world
    assert unscripted_cards(deck) == list(UNSCRIPTED) and unscripted_cards(vanilla) == []


def test_a_manual_atk_change_lasts_while_face_up_and_only_on_a_face_up_monster(world):
    from ygoterm.engine.core.decision import IllegalChoice
    from ygoterm.engine.duel.protocol import Duel
    from ygoterm.engine.rules.manual import Manual

    pool, deck, vanilla = world
    d = Duel.new(pool, (deck, vanilla), 2, solo=True)
    while d.pending.kind != Kind.COMMAND:
        d.apply(d.pending.options[0])
    p = d.pending.player
    card = d.players[p].hand[0]
    with pytest.raises(IllegalChoice, match="face-up monster"):
        d.manual(p, Manual("atk", card.uid, amount=500))
    d.manual(p, Manual("move", card.uid, to="monster"))
    d.manual(p, Manual("def", card.uid, amount=-300))
    assert card.defense == card.base_def - 300
    d.manual(p, Manual("flip", card.uid))  # face-down: the change is gone (R-CARD-12's like for counters)
    assert card.defense == card.base_def


# ---------------------------------------------------------------------- solo


def solo_seed(app, deck) -> int:
    """A seed whose opening hand (you go first) holds both unscripted cards."""
    for seed in range(1, 200):
        session = app.solo_session((deck, deck), "goldfish", seed, autosave=False)
        if set(UNSCRIPTED) <= {c.name for c in session.duel.players[0].hand}:
            return seed
    raise AssertionError("no seed")


async def test_solo_marks_the_card_offers_its_manual_actions_and_records_them(world, tmp_path):
    pool, deck, _ = world
    app = YgoApp(pool, paths.deck_dirs())
    seed = solo_seed(app, deck)
    app.start = lambda app: app.solo_screen((deck, deck), "goldfish", seed)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = board(app)
        duel = screen.session.duel
        assert duel.pending.kind == Kind.COMMAND and duel.pending.player == 0
        assert "manual actions on" in screen_text(app)  # the status line
        assert "Manual actions are on (solo test)" in screen.manual_reason() and "Quill Imp" in screen.manual_reason()
        screen.select(slot_of(screen, "Quill Imp"))
        await pilot.pause()
        text = screen_text(app)
        assert "✎Quill Imp" in text  # the mark on the card in the hand
        assert "✎ no script: play its text with" in text  # the detail panel (wrapped)
        labels = await card_menu(pilot, app, "Quill Imp")
        assert "summon Quill Imp" in labels  # its rules actions stay (a Normal Summon is scripted by the rules)
        assert "✎ manual: place it in a Monster Zone in Attack Position" in labels
        assert "✎ manual: send it to the GY" in labels and "✎ manual: put it on top of the Deck" in labels
        before = len(duel.record.choices)
        await choose(pilot, app, "✎ manual: place it in a Monster Zone in Attack Position")
        imp = next(c for c in duel.players[0].mzone if c is not None)
        assert imp.name == "Quill Imp" and imp.face_up
        assert duel.record.choices[before:] == [duel.record.choices[-1]] and duel.record.choices[-1].startswith("!manual:0:")
        assert '"to": "monster"' in duel.record.choices[-1]
        assert any("(manual): move Quill Imp to monster" in e.text(duel.names) for e in duel.log)
        # on the field: a counter by hand, shown on the card
        labels = await card_menu(pilot, app, "Quill Imp", row="bottom-m")
        await choose(pilot, app, "✎ manual: add a counter to it")
        assert imp.counters == {"counter": 1}
        labels = await card_menu(pilot, app, "Quill Imp", row="bottom-m")
        await choose(pilot, app, "✎ manual: +500 ATK")
        assert (imp.atk, imp.defense) == (2000, 1200) and "2000▲" in screen_text(app)  # (raised above the printed ATK: marked)
        # any amount, typed; a typo changes nothing and says why
        for typed in ("lots", "-800"):
            await card_menu(pilot, app, "Quill Imp", row="bottom-m")
            await choose(pilot, app, "✎ manual: change its ATK by …")
            await pilot.press(*typed, "enter")
            await pilot.pause()
        assert (imp.atk, imp.defense) == (1200, 1200) and "1200▼" in screen_text(app)
        assert any("'lots' is not a change of ATK" in str(n.message) for n in app._notifications)
        # a Spell without a script: its manual actions, not the rules' "activate" (it has nothing to activate)
        labels = await card_menu(pilot, app, "Ink Blot")
        assert "✎ manual: place it face-up in a Spell & Trap Zone (activate it by hand)" in labels
        await choose(pilot, app, "✎ manual: send it to the GY")
        assert [c.name for c in duel.players[0].gy] == ["Ink Blot"]
        # from the GY viewer: Enter on a card with actions (▸) opens the same card menu
        await pilot.press("g")
        await pilot.pause()
        pile = open_question(app)
        assert isinstance(pile, PileScreen) and pile.acts == [True]
        assert "▸ Ink Blot" in screen_text(app) and "Enter actions" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(open_question(app), ChoicePrompt) and "✎ manual: return it to the hand" in [o.label for o in open_question(app).options]
        await choose(pilot, app, "✎ manual: return it to the hand")
        assert duel.players[0].gy == [] and "Ink Blot" in [c.name for c in duel.players[0].hand]
        await card_menu(pilot, app, "Ink Blot")
        await choose(pilot, app, "✎ manual: send it to the GY")
        # the replay plays the manual actions again: the same duel
        duel.record.save(tmp_path / "manual.json")
        replayed = load_duel(tmp_path / "manual.json", pool)
        assert replayed.state_hash() == duel.state_hash()
        assert sum(1 for c in replayed.record.choices if c.startswith("!manual:")) == 7


async def test_a_scripted_deck_in_solo_shows_no_manual_mark(world):
    pool, _, vanilla = world
    app = YgoApp(pool, paths.deck_dirs(), start=lambda app: app.solo_screen((vanilla, vanilla), "goldfish", 5))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = board(app)
        assert screen.manual_reason() == "" and "manual actions on" not in screen_text(app)
        name = screen.board.slots["bottom-hand"][0].view.name
        labels = await card_menu(pilot, app, name)
        assert not any(label.startswith("✎") for label in labels)


# ---------------------------------------------------------------------- hot-seat


def hot_seat_app(pool, decks, seed=2):
    app = YgoApp(pool, paths.deck_dirs(), start=lambda app: app.hot_seat_screen(decks, seed))
    app.settings.prompts = ["auto", "auto"]
    app.settings.names = ["Ann", "Bob"]
    return app


async def to_command(pilot, app, player: int, limit: int = 80) -> DuelScreen:
    """Lift curtains and take the first option (pass, go first …) until `player` has a command on the board."""
    for _ in range(limit):
        await pilot.pause()
        if isinstance(open_question(app), DuelScreen):
            s = open_question(app).session
            if s.pending and s.pending.kind == Kind.COMMAND and s.pending.player == player and s.viewer == player:
                return open_question(app)
            if s.pending and s.pending.kind == Kind.COMMAND:
                await pilot.press("n")
                continue
        await pilot.press("enter")
    raise AssertionError(f"no command for player {player}: {app.screen_stack}")


async def test_hot_seat_with_unscripted_cards_has_manual_actions_on(world, tmp_path):
    pool, deck, vanilla = world
    app = hot_seat_app(pool, (deck, vanilla))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await to_command(pilot, app, 0)
        duel = screen.session.duel
        assert duel.rules.manual_actions and not duel.solo
        assert screen.manual_reason().startswith("Manual actions are on for this duel: Ann's deck has cards without scripts")
        assert "Quill Imp" not in screen.manual_reason()  # whose deck, never which cards
        assert "manual actions on" in screen_text(app)
        assert set(UNSCRIPTED) <= {c.name for c in duel.players[0].hand}
        assert "✎ manual: Set it in a Spell & Trap Zone" in await card_menu(pilot, app, "Ink Blot")
        await choose(pilot, app, "✎ manual: place it face-up in a Spell & Trap Zone (activate it by hand)")
        blot = next(c for c in duel.players[0].szone if c is not None)
        assert blot.name == "Ink Blot" and blot.face_up
        assert duel.record.choices[-1].startswith("!manual:0:")
        duel.record.save(tmp_path / "hot.json")  # the save keeps the switch: the manual action replays
        assert load_duel(tmp_path / "hot.json", pool).state_hash() == duel.state_hash()
        # Bob's cards are scripted: no manual actions on them from the card menu, and none on Ann's cards for Bob
        screen2 = await to_command(pilot, app, 1)
        assert card_manual_actions(screen2.session, blot.uid) == []
        name = screen2.board.slots["bottom-hand"][0].view.name
        assert not any(label.startswith("✎") for label in await card_menu(pilot, app, name))


async def test_hot_seat_manual_actions_on_hidden_cards_reveal_nothing(world):
    """The hot-seat leak test for manual actions: Ann Sets Quill Imp by hand, gives it a
    counter and puts a second Quill Imp on top of her Deck. Bob's screens (board, log, detail)
    never name it, nor does his log; Ann's log does. Ink Blot sent to the GY is public."""
    pool, deck, vanilla = world
    app = hot_seat_app(pool, (deck, vanilla), seed=43)  # Ann goes first with two Quill Imps and Ink Blot
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await to_command(pilot, app, 0)
        duel = screen.session.duel
        assert [c.name for c in duel.players[0].hand].count("Quill Imp") == 2
        await card_menu(pilot, app, "Quill Imp")
        await choose(pilot, app, "✎ manual: Set it in a Monster Zone (face-down Defense)")
        set_imp = next(c for c in duel.players[0].mzone if c is not None)
        assert not set_imp.face_up
        screen.select(next(slot for slot in screen.board.slots["bottom-m"] if slot.uid == set_imp.uid))
        await pilot.pause()
        assert "✎Quill Imp" in screen_text(app)  # Ann sees her own Set card, marked
        await card_menu(pilot, app, "Quill Imp", row="bottom-m")
        await choose(pilot, app, "✎ manual: add a counter to it")
        await card_menu(pilot, app, "Quill Imp")
        await choose(pilot, app, "✎ manual: put it on top of the Deck")
        assert "Quill Imp" not in [c.name for c in duel.players[0].hand]
        assert "Quill Imp" in (duel.players[0].deck[-1].name, duel.players[0].deck[0].name)
        assert any("(manual): move a card to deck-top: Quill Imp" in e.text(duel.names) for e in duel.events_for(0))
        await card_menu(pilot, app, "Ink Blot")
        await choose(pilot, app, "✎ manual: send it to the GY")
        mine = [e.text(duel.names) for e in duel.events_for(0)]
        assert any("(manual): move a card to monster: Quill Imp" in line for line in mine)  # Ann sees the name
        theirs = [e.text(duel.names) for e in duel.events_for(1)]
        assert not any("Quill Imp" in line for line in theirs), [line for line in theirs if "Quill" in line]
        assert any("(manual): move a card to monster" in line for line in theirs)  # that something happened is public
        assert any("(manual): move Ink Blot to gy" in line for line in theirs)  # what the action makes public
        # Bob at the keyboard: nothing on his screens names Quill Imp
        checked = 0
        for _ in range(40):
            await pilot.pause()
            s = board(app).session
            if s.viewer == 1 and isinstance(open_question(app), DuelScreen):
                bob = open_question(app)
                for slot in bob.board.slots["top-m"]:
                    bob.select(slot)
                    await pilot.pause()
                    assert "Quill Imp" not in screen_text(app)
                    checked += 1
                assert card_manual_actions(bob.session, set_imp.uid) == []
                break
            if isinstance(open_question(app), (CurtainScreen, SharedResponse, ChoicePrompt)):
                assert "Quill Imp" not in screen_text(app)
                await pilot.press("enter")
            else:
                await pilot.press("n")
        assert checked >= 5


# ---------------------------------------------------------------------- the CLI and the menu


def test_the_cli_plays_the_deck_in_solo_and_hot_seat_but_not_for_the_ai(cli, home, started):
    code, _, err = cli("solo", "quill", "--seed", "4")
    assert code == 0, err
    assert started["screen"].session.duel.solo
    assert "Quill Imp" in started["screen"].manual_reason()
    code, _, err = cli("duel", "--p1", "quill", "--p2", "vanilla-beatdown", "--seed", "4")
    assert code == 0, err
    duel = started["screen"].session.duel
    assert duel.rules.manual_actions and "Ann" not in started["screen"].manual_reason()
    assert "Player 1's deck has cards without scripts" in started["screen"].manual_reason()
    code, _, err = cli("duel", "--p1", "vanilla-beatdown", "--p2", "vanilla-beatdown", "--seed", "4")
    assert code == 0 and not started["screen"].session.duel.rules.manual_actions
    code, _, err = cli("duel", "--p1", "vanilla-beatdown", "--p2", "vanilla-beatdown", "--manual-actions")
    assert code == 0 and started["screen"].session.duel.rules.manual_actions
    assert "rules switch" in started["screen"].manual_reason()
    for args in (("solo", "quill", "--opponent", "ai"), ("solo", "vanilla-beatdown", "--opponent", "ai:easy", "--ai-deck", "quill")):
        started.pop("screen", None)
        code, _, err = cli(*args)
        assert code == 2 and "the AI cannot play cards without scripts: Ink Blot, Quill Imp" in " ".join(err.split())
        assert "screen" not in started
    code, _, err = cli("solo", "quill", "--opponent", "ai", "--ai-deck", "vanilla-beatdown")
    assert code == 0, err  # your deck may have them: you play it by hand
    code, _, err = cli("match", "--p1", "vanilla-beatdown", "--p2", "quill", "--opponent", "ai")
    assert code == 2 and "the AI cannot play cards without scripts: Ink Blot, Quill Imp" in " ".join(err.split())


async def test_the_menu_marks_the_deck_plays_it_hot_seat_and_refuses_it_to_the_ai(world, monkeypatch):
    from ygoterm.tui.screens.decks import DeckPicker
    from ygoterm.tui.screens.menu import MenuScreen

    monkeypatch.setattr("ygoterm.tui.app.new_seed", lambda: 2)
    pool, deck, _ = world
    app = YgoApp(pool, paths.deck_dirs())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await open_menu_item(pilot, app, "Solo test")
        await pilot.pause()
        picker = open_question(app)
        assert isinstance(picker, DeckPicker)
        index = next(i for i, e in enumerate(picker.entries) if e.name == "Quill Ink")
        await pilot.press("home", *["down"] * index)
        await pilot.pause()
        text = screen_text(app)
        assert "✎ manual" in text and "Cards without scripts: Ink Blot, Quill Imp" in text
        await pilot.press("enter")
        await pilot.pause()
        await choose(pilot, app, "The AI (normal), playing a copy of your deck")
        assert isinstance(open_question(app), MessageScreen)
        assert "the AI cannot play cards without scripts: Ink Blot, Quill Imp" in open_question(app).body
        assert "The AI cannot play this deck" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert not any(isinstance(s, DuelScreen) for s in app.screen_stack)
        while not isinstance(open_question(app), MenuScreen):
            await pilot.press("escape")
            await pilot.pause()
        await open_menu_item(pilot, app, "Hot-seat duel")
        await pilot.pause()
        await pilot.press("home", *["down"] * index, "enter")
        await pilot.pause()
        await pilot.press("home", *["down"] * index, "enter")
        await pilot.pause()
        duel = board(app).session.duel
        assert duel.rules.manual_actions and not duel.solo


async def test_a_hot_seat_match_plays_the_deck_by_hand_and_its_save_replays(world, tmp_path):
    from ygoterm.engine.match.replay import load_match
    from ygoterm.tui.match_menu import new_match

    pool, deck, vanilla = world
    app = YgoApp(pool, paths.deck_dirs(), start=lambda app: new_match(app, (deck, vanilla), "hotseat", 43))
    app.settings.prompts = ["auto", "auto"]
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await to_command(pilot, app, 0)
        run = screen.run
        assert run.match.duel.rules.manual_actions and screen.manual_reason()
        await card_menu(pilot, app, "Ink Blot")
        await choose(pilot, app, "✎ manual: send it to the GY")
        assert [c.name for c in run.match.duel.players[0].gy] == ["Ink Blot"]
        run.match.record.save(tmp_path / "match.json")
        replayed = load_match(tmp_path / "match.json", pool)
        assert replayed.duel.state_hash() == run.match.duel.state_hash()


async def test_the_deck_editor_marks_cards_without_scripts(world):
    pool, _, _ = world
    app = YgoApp(pool, paths.deck_dirs())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.menu_decks()
        await pilot.pause()
        browser = open_question(app)
        index = next(i for i, e in enumerate(browser.entries) if e.path.stem == "quill")
        await pilot.press("home", *["down"] * index, "e")
        await pilot.pause()
        assert isinstance(open_question(app), DeckEditor)
        text = screen_text(app)
        assert "3× Quill Imp ✎" in text and "3× Ink Blot ✎" in text and "2× Summoned Skull" in text and "Summoned Skull ✎" not in text
        assert "2 cards without scripts (✎)" in text and "the AI cannot pilot this deck" in text
