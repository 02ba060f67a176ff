"""The 2005 (GOAT format) pool and rules profile (issue #37): every card of the format's list in
the pool, its 2005 names and texts, `rules: goat` for decks and duels, the `goat` whitelist."""

from __future__ import annotations

import pytest

from ygoterm import paths
from ygoterm.engine import Duel, Kind, Phase
from ygoterm.schema.banlist import load_banlist
from ygoterm.schema.cards import CardVersion
from ygoterm.schema.decks import Deck
from ygoterm.schema.rules import Rules

GOAT_LIST = paths.shipped("decks") / "banlists" / "goat.yaml"


def test_every_card_of_the_goat_list_is_in_the_pool(pool):
    goat = load_banlist(GOAT_LIST, pool)  # (a name the pool lacks would be an error here)
    assert goat.whitelist and len(goat.limits) == 1693
    assert all(pool.get(name) is not None for name in goat.limits)


def test_the_2005_names_resolve(pool):
    assert pool.get("Kinetic Soldier").name == "Cipher Soldier"
    assert pool.get("Marie the Fallen One").name == "Darklord Marie"
    assert pool.get("7").name == "7" and pool.get(7) is None  # (a name of digits is a name when no passcode has it)


def test_a_2005_passcode_is_the_card_it_is_a_version_of(pool):
    witch = pool.get(504700144)  # EDOPro's "Witch of the Black Forest (GOAT)"
    assert witch is not None and witch.name == "Witch of the Black Forest"


def test_a_card_plays_its_2005_version_in_a_goat_duel(pool):
    card = pool.get("Cipher Soldier")
    assert card.goat is not None and "increase the ATK and DEF" in card.goat.text
    assert card.in_format("goat").text == card.goat.text and card.in_format("modern") is card
    assert card.in_format("goat") is card.in_format("goat")  # (made once)
    # a version that only rewords keeps the card's effects; one with its own effects replaces them
    scripted = pool.get("Pot of Greed")
    reworded = scripted.model_copy(update={"goat": CardVersion(text="Draw 2 cards.")})
    assert reworded.in_format("goat").effects == scripted.effects
    apart = scripted.model_copy(update={"goat": CardVersion(text="Draw 2 cards.", effects=())})
    assert apart.in_format("goat").effects == () and apart.in_format("goat").play == "manual"


def test_a_goat_duel_deals_the_2005_versions_and_draws_on_turn_1(pool, make_deck):
    deck = make_deck(main={"Cipher Soldier": 3}, size=40)
    duel = Duel.new(pool, (deck, deck), seed=3, rules=Rules.named("goat"))
    soldiers = [c for c in duel.cards.values() if c.name == "Cipher Soldier"]
    assert soldiers and all(c.data.text == pool.get("Cipher Soldier").goat.text for c in soldiers)
    duel.apply("first")  # (the coin toss winner chooses)
    modern = Duel.new(pool, (deck, deck), seed=3)
    modern.apply("first")
    first = duel.turn_player
    assert duel.pending.kind == Kind.COMMAND and duel.phase == Phase.MAIN1
    assert len(duel.players[first].hand) == 6  # R-SETUP-6 / V-14: the first player draws in 2005
    assert len(modern.players[modern.turn_player].hand) == 5


def test_a_2005_list_with_20_fusion_monsters_is_legal_only_under_goat_rules(cli, home_decks, pool):
    goat = load_banlist(GOAT_LIST, pool)
    fusions = sorted(c.name for c in pool if "fusion" in getattr(c, "frames", ()) and goat.limit(c.deck_name))[:20]
    assert len(fusions) == 20
    staples = ["Sangan", "Tsukuyomi", "Magician of Faith", "Scapegoat", "Metamorphosis", "Book of Moon", "Nobleman of Crossout",
               "Sakuretsu Armor", "Call of the Haunted", "Mystical Space Typhoon", "Airknight Parshath", "Kinetic Soldier",
               "Breaker the Magical Warrior", "Tribe-Infecting Virus", "Don Zaloog", "Exiled Force", "Blade Knight",
               "Dekoichi the Battlechanted Locomotive", "D.D. Assailant", "Asura Priest", "Mystic Tomato", "Giant Rat",
               "Shining Angel", "Gravekeeper's Spy", "Dust Tornado", "Bottomless Trap Hole", "Solemn Judgment"]
    main, size = {}, 0
    for name in staples:
        count = min(2, goat.limit(pool.get(name).deck_name), 40 - size)
        if count > 0:
            main[name], size = count, size + count
    assert size == 40
    body = ("name: Goat 2005\nbanlist: goat\nmain:\n" + "".join(f"  {n}: {k}\n" for n, k in main.items())
            + "extra:\n" + "".join(f"  {n}: 1\n" for n in fusions))
    (home_decks / "goat2005.yaml").write_text("rules: goat\n" + body)
    code, out, err = cli("check", "goat2005")
    assert code == 0, out + err
    assert "goat" in out and "legal" in out
    (home_decks / "modern2005.yaml").write_text(body.replace("name: Goat 2005", "name: Modern 2005"))
    code, out, _ = cli("check", "modern2005")
    assert code == 1 and "Extra Deck has 20 cards; the most is 15" in " ".join(out.split()) and "R-DECK-2" in out
    code, out, _ = cli("check", "modern2005", "--rules", "goat")
    assert code == 0, out


@pytest.fixture
def home_decks(tmp_path, monkeypatch):
    monkeypatch.setenv("YGOTERM_HOME", str(tmp_path))
    decks = tmp_path / "decks"
    decks.mkdir()
    return decks


def test_rules_goat_is_a_profile_a_scenario_or_deck_may_name():
    goat = Rules.named("goat")
    assert goat.format == "goat" and goat.deck.extra_max is None and goat.deck.main_max is None
    assert goat.duel.first_turn_draw and goat.field.shared_field_spell and goat.chain.ignition_priority
    assert Rules.named("modern") == Rules()
    with pytest.raises(ValueError, match="unknown rules profile 'goats'"):
        Rules.named("goats")


def test_a_deck_file_names_its_format(tmp_path, pool):
    from ygoterm.schema.decks import load_deck

    path = tmp_path / "d.yaml"
    path.write_text("name: D\nrules: goat\nmain:\n  Sangan: 3\n")
    deck, _ = load_deck(path, pool)
    assert isinstance(deck, Deck) and deck.rules == Rules.named("goat")
    path.write_text("name: D\nrules: goats\nmain:\n  Sangan: 3\n")
    from ygoterm.schema.problems import DataError

    with pytest.raises(DataError) as info:
        load_deck(path, pool)
    assert "unknown rules profile 'goats'" in str(info.value.problems[0])


def test_coverage_counts_the_goat_list_per_kind_and_names_the_manual_cards(cli):
    import json

    code, out, err = cli("cards", "coverage", "--banlist", "goat", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["format"] == "goat" and data["names_listed"] == 1693
    total = data["total"]
    assert total["total"] == 1698 == total["scripted"] + total["stats"] + total["manual"]  # (Umi and the Harpie Ladies share names)
    assert all(data["kinds"][k]["total"] > 0 for k in ("monster", "spell", "trap"))
    assert "Dice Jar" not in data["manual"]["monster"]  # (scripted: batch f1)
    assert "Vampire Baby" not in data["manual"]["monster"]  # (scripted: batch e1)
    assert "Pot of Greed" not in data["manual"]["spell"]  # (scripted)
    code, out, _ = cli("cards", "coverage", "--banlist", "goat", "kaiba-dragons")
    text = " ".join(out.split())
    assert code == 0 and "Coverage of the 'goat' list (1,698 cards, 1,693 names on the list; as they play in format goat)" in text
    assert "Kaiba's Dragons: all 57 cards play automatically" in text  # 40 Main, 2 Extra, 15 Side


def test_coverage_lists_a_decks_manual_cards(cli, home_decks):
    import json

    # a 2005 monster still played by manual actions (which one changes as batches script them: the first listed)
    manual = json.loads(cli("cards", "coverage", "--banlist", "goat", "--json")[1])["manual"]["monster"]
    if not manual:
        pytest.skip("every 2005 monster is scripted")
    name = manual[0]
    (home_decks / "m.yaml").write_text(f"name: Manual\nrules: goat\nmain:\n  Sangan: 1\n  Red-Moon Baby: 2\n  \"{name}\": 2\n")
    code, out, _ = cli("cards", "coverage", "m")
    assert code == 0 and f"Manual: 2 of 5 cards need manual actions — {name} ×2" in " ".join(out.split())


def test_a_deck_built_for_goat_plays_a_solo_duel_under_goat_rules(pool, make_deck):
    """`rules: goat` in a deck decides the duel's rules (first-turn draw, no Extra Monster Zone),
    the player's starting LP kept; two decks of different formats play under the settings' rules."""
    from dataclasses import replace

    from ygoterm.schema.legality import rules_of_decks
    from ygoterm.schema.rules import DuelRules
    from ygoterm.tui.app import YgoApp

    plain = make_deck(main={"Gemini Elf": 3}, size=40)
    goat = replace(plain, rules=Rules.named("goat"))
    base = Rules(duel=DuelRules(starting_lp=4000))
    chosen = rules_of_decks((goat, goat), base)
    assert chosen.format == "goat" and chosen.duel.first_turn_draw and chosen.duel.starting_lp == 4000
    assert rules_of_decks((goat, plain), base).format == "goat"  # (a deck that says nothing follows the other)
    assert rules_of_decks((goat, replace(plain, rules=Rules())), base) == base  # two formats: the settings decide
    session = YgoApp(pool, paths.deck_dirs()).solo_session((goat, goat), "goldfish", seed=5)
    duel = session.duel
    assert duel.rules.format == "goat" and len(duel.players[duel.turn_player].hand) == 6


def test_every_scripted_goat_card_with_an_effect_is_played_in_a_scenario(pool):
    """Issue #39's bar: a scripted 2005 card is proven by at least one scenario that puts it in play
    (tests/scenarios or the shipped puzzles); the manual cards are the ones docs/cards.md lists as waiting."""
    from pathlib import Path

    from ygoterm.analysis.coverage import listed_cards
    from ygoterm.scenarios import scenario_files
    from ygoterm.schema.scenario import read_scenario

    root = Path(__file__).parent
    named: set[str] = set()
    for path in scenario_files([root / "scenarios", Path(paths.__file__).parent / "puzzles"]):
        scenario = read_scenario(path)[0]
        for side in (scenario.A, scenario.B):
            refs = [side.field.card] if side.field is not None else []
            for pile in ("hand", "deck", "extra", "gy", "banished", "monsters", "spells", "pendulum"):
                for entry in getattr(side, pile):
                    refs += [entry.card, *getattr(entry, "materials", [])]
            named |= {card.name for card in map(pool.get, refs) if card is not None}
    goat = load_banlist(GOAT_LIST, pool)
    unproven = sorted(c.name for c in listed_cards(pool, goat) if c.in_format("goat").play == "scripted" and c.name not in named)
    assert unproven == []


def test_goat_decks_play_a_goat_duel_and_are_judged_by_their_2005_cards(make_deck):
    """Two decks built for `rules: goat` play under them when nobody names rules (the arena, the fuzz, the deck lab's
    openings), and a card scripted in its 2005 version only (Necrovalley) is no manual card in a GOAT deck."""
    from ygoterm.schema.decks import unscripted_cards

    goat = make_deck({"Necrovalley": 1, "Gravekeeper's Spy": 3}, size=40)
    goat.rules = Rules.named("goat")
    assert unscripted_cards(goat) == []
    today = make_deck({"Necrovalley": 1, "Gravekeeper's Spy": 3}, size=40)
    assert unscripted_cards(today) == ["Necrovalley"]


def test_a_duel_of_two_goat_decks_follows_their_rules(pool, make_deck):
    goat = make_deck({"Gravekeeper's Spy": 3}, size=40)
    goat.rules = Rules.named("goat")
    assert Duel.new(pool, (goat, goat), 1).rules.format == "goat"
    assert Duel.new(pool, (goat, make_deck({}, size=40)), 1).rules.format == "goat"  # (the one deck that says)
    modern = make_deck({}, size=40)
    modern.rules = Rules.named("modern")
    assert Duel.new(pool, (goat, modern), 1).rules.format == "modern"  # (decks of two formats: today's)
    assert Duel.new(pool, (goat, goat), 1, Rules()).rules.format == "modern"  # (rules named: those)
