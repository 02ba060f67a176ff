"""Deck construction (RULES.md AS-01 … AS-05) and the deck file forms."""

from pathlib import Path

import pytest

from ygoterm.schema.banlist import Banlist, load_banlist
from ygoterm.schema.decks import load_deck
from ygoterm.schema.problems import DataError
from ygoterm.schema.rules import DeckRules
from ygoterm.schema.validate import check_deck


def rules_of(problems):
    return [p.rule for p in problems]


# ------------------------------------------------------------------ AS-01 Main size (R-DECK-1)

@pytest.mark.parametrize("size, ok", [(39, False), (40, True), (60, True), (61, False)])
def test_as01_main_deck_size(make_deck, size, ok):
    problems = check_deck(make_deck(size=size))
    if ok:
        assert problems == []
    else:
        (problem,) = problems
        assert problem.rule == "R-DECK-1" and f"Main Deck has {size} cards" in problem.message


def test_as01_variant_main_max_none(make_deck):
    assert check_deck(make_deck(size=75), DeckRules(main_max=None)) == []


# ------------------------------------------------------------------ AS-02 copies (R-DECK-4)

def test_as02_copies_across_main_and_side(make_deck):
    (problem,) = check_deck(make_deck(main={"Gemini Elf": 2}, side={"Gemini Elf": 2}, size=40))
    assert problem.rule == "R-DECK-4" and "4 copies (max 3)" in problem.message


def test_as02_three_copies_pass(make_deck):
    assert check_deck(make_deck(main={"Gemini Elf": 3}, size=40)) == []


# ------------------------------------------------------------------ AS-03 treated-as names (R-DECK-6)

def test_as03_treated_as_names_count_together(make_deck):
    (problem,) = check_deck(make_deck(main={"Harpie Lady": 2, "Harpie Lady 1": 2}, size=40))
    assert problem.rule == "R-DECK-4"
    assert "'Harpie Lady': 4 copies (max 3)" in problem.message and "R-DECK-6" in problem.message


def test_as03_one_of_each_passes(make_deck):
    assert check_deck(make_deck(main={"Harpie Lady": 1, "Harpie Lady 1": 1, "Harpie Lady 2": 1}, size=40)) == []


# ------------------------------------------------------------------ AS-04 banlist (R-DECK-5)

@pytest.fixture
def as04_list():
    return Banlist("as04", {"Pot of Greed": 0, "Monster Reborn": 1, "Call of the Haunted": 2})


def test_as04_forbidden(make_deck, as04_list):
    (problem,) = check_deck(make_deck(main={"Pot of Greed": 1}, size=40), banlist=as04_list)
    assert problem.rule == "R-DECK-5" and "Forbidden" in problem.message


def test_as04_limited_counts_main_and_side(make_deck, as04_list):
    (problem,) = check_deck(make_deck(main={"Monster Reborn": 1}, side={"Monster Reborn": 1}, size=40), banlist=as04_list)
    assert problem.rule == "R-DECK-5" and "Limited" in problem.message and "2 copies (max 1)" in problem.message


def test_as04_semi_limited(make_deck, as04_list):
    assert check_deck(make_deck(main={"Call of the Haunted": 2}, size=40), banlist=as04_list) == []
    (problem,) = check_deck(make_deck(main={"Call of the Haunted": 3}, size=40), banlist=as04_list)
    assert problem.rule == "R-DECK-5" and "Semi-Limited" in problem.message


def test_as04_banlist_file(tmp_path, pool, make_deck):
    path = tmp_path / "as04.yaml"
    path.write_text("name: as04\ndate: 2012-03-01\nforbidden: [Pot of Greed]\nlimited: [Monster Reborn]\nsemi_limited: [Call of the Haunted]\n")
    banlist = load_banlist(path, pool)
    assert banlist.limits == {"Pot of Greed": 0, "Monster Reborn": 1, "Call of the Haunted": 2}
    assert rules_of(check_deck(make_deck(main={"Pot of Greed": 1}, size=40), banlist=banlist)) == ["R-DECK-5"]


def test_banlist_unknown_card_suggests(tmp_path, pool):
    path = tmp_path / "bad.yaml"
    path.write_text("name: bad\nforbidden: [Pot of Gred]\n")
    with pytest.raises(DataError) as info:
        load_banlist(path, pool)
    assert "bad.yaml:2:13" in str(info.value) and "did you mean 'Pot of Greed'" in str(info.value)


# ------------------------------------------------------------------ AS-05 Extra/Side (R-DECK-2/3/7)

def test_as05_sixteen_extra(make_deck):
    (problem,) = check_deck(make_deck(extra={"Stardust Dragon": 3, "Number 39: Utopia": 3, "Blue-Eyes Ultimate Dragon": 3,
                                             "Gaia the Dragon Champion": 3, "Thousand Dragon": 3, "Black Skull Dragon": 1}, size=40))
    assert problem.rule == "R-DECK-2" and "16" in problem.message


def test_as05_sixteen_side(make_deck):
    side = {"Pot of Greed": 1, "Dark Hole": 1, "Mystical Space Typhoon": 3, "Trap Hole": 3, "Book of Moon": 3,
            "Solemn Judgment": 1, "Magic Jammer": 3, "Royal Decree": 1}
    (problem,) = check_deck(make_deck(side=side, size=40))
    assert problem.rule == "R-DECK-3" and "16" in problem.message


def test_as05_extra_deck_monster_in_main(make_deck):
    (problem,) = check_deck(make_deck(main={"Stardust Dragon": 1}, size=40))
    assert problem.rule == "R-DECK-7" and "Stardust Dragon" in problem.message and "Extra Deck" in problem.message


def test_as05_main_deck_monster_in_extra(make_deck):
    (problem,) = check_deck(make_deck(extra={"Gemini Elf": 1}, size=40))
    assert problem.rule == "R-DECK-7" and "Gemini Elf" in problem.message


def test_as05_empty_side_passes_and_side_exact_variant(make_deck):
    deck = make_deck(size=40)
    assert check_deck(deck) == []
    (problem,) = check_deck(deck, DeckRules(side_exact=15))
    assert problem.rule == "R-DECK-3" and "exactly 15" in problem.message


# ------------------------------------------------------------------ deck files

def write_deck(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deck.yaml"
    path.write_text(text)
    return path


def test_all_problems_are_listed_together_with_lines(tmp_path, pool):
    path = write_deck(tmp_path, "name: Broken\nmain:\n  Gemini Elf: 3\n  Celtic Guardain: 2\n  Stardust Dragon: 1\n")
    deck, problems = load_deck(path, pool)
    problems += check_deck(deck)
    text = "\n".join(map(str, problems))
    assert "deck.yaml:4:3  main.Celtic Guardain  unknown card 'Celtic Guardain' [R-DECK-8]  (did you mean 'Celtic Guardian'" in text
    assert "deck.yaml:2:1  main  Main Deck has 4 cards" in text
    assert "deck.yaml:5:3" in text and "R-DECK-7" in text


def test_list_forms_and_passcodes(tmp_path, pool):
    path = write_deck(tmp_path, "name: Lists\nmain:\n  - Gemini Elf\n  - Gemini Elf\n  - {card: Celtic Guardian, count: 3}\n  - 89631139\nextra: []\n")
    deck, problems = load_deck(path, pool)
    assert problems == []
    assert [c.name for c in deck.main] == ["Gemini Elf"] * 2 + ["Celtic Guardian"] * 3 + ["Blue-Eyes White Dragon"]


def test_unknown_passcode(tmp_path, pool):
    path = write_deck(tmp_path, "main:\n  12345678: 3\n")
    _, problems = load_deck(path, pool)
    (problem,) = problems
    assert problem.rule == "R-DECK-8" and "passcode 12345678" in problem.message and problem.line == 2


def test_unknown_top_level_key_suggests(tmp_path, pool):
    path = write_deck(tmp_path, "name: x\nmian:\n  Gemini Elf: 3\n")
    with pytest.raises(DataError) as info:
        load_deck(path, pool)
    assert "deck.yaml:2:1  mian  unknown field 'mian'  (did you mean 'main'?)" in str(info.value)


def test_shipped_decks_are_legal(pool):
    from ygoterm import paths
    from ygoterm.schema.banlist import find_banlist
    from ygoterm.schema.decks import deck_paths

    decks = deck_paths(paths.deck_dirs())
    assert len(decks) >= 4
    for path in decks:
        deck, problems = load_deck(path, pool)
        banlist = load_banlist(find_banlist(deck.banlist, paths.banlist_dirs()), pool) if deck.banlist else None
        assert problems + check_deck(deck, banlist=banlist) == [], path
        assert len(deck.main) == 40 or path.parent.name == "goat" and len(deck.main) <= 41  # (two 2005 lists ran 41)
