"""The deck lab (issue 15): the lab section, exact odds, what-if, the `ygoterm odds` command and
engine-played openings."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from ygoterm.analysis.odds import deck_counts, odds, what_if
from ygoterm.schema.decks import read_deck_file, resolve
from ygoterm.schema.lab import Combo, Lab, resolve_lab

FILLERS = ["Summoned Skull", "Gemini Elf", "Luster Dragon", "Alexandrite Dragon", "Celtic Guardian", "Mystical Elf",
           "Giant Soldier of Stone", "Gaia the Fierce Knight", "Curse of Dragon", "Feral Imp", "Silver Fang", "Beaver Warrior",
           "Neo the Magic Swordsman", "Ancient Elf", "Saggi the Dark Clown", "Rogue Doll", "Illusionist Faceless Mage",
           "Cosmo Queen", "Aqua Madoor", "Vorse Raider"]


def deck_text(main: dict[str, int], lab: str = "", size: int | None = None) -> str:
    """A deck file: `main`, topped up to `size` cards with vanilla fillers, and a lab section."""
    cards = dict(main)
    fillers = iter(f for f in FILLERS if f not in cards)
    while size is not None and sum(cards.values()) < size:
        cards[next(fillers)] = min(3, size - sum(cards.values()))
    lines = ["name: Lab Test", "main:"] + [f"  {name}: {n}" for name, n in cards.items()]
    return "\n".join(lines) + "\n" + lab


def load(tmp_path: Path, pool, text: str, name: str = "lab.yaml"):
    path = tmp_path / name
    path.write_text(text)
    deck_file = read_deck_file(path)
    deck, problems = resolve(deck_file, pool)
    assert not problems
    return deck, resolve_lab(deck_file, deck, pool)


def combo(result, name):
    return next(o for o in result.all() if o.name == name)


def total(n, k):
    return comb(n, k)


# ---------------------------------------------------------------------- exact values, checked by hand


def test_single_card_going_first_and_second(tmp_path, pool):
    deck, lab = load(tmp_path, pool, deck_text({"Dark Magician": 3}, "lab:\n  combos:\n    DM: [1 Dark Magician]\n", 40))
    first, second = odds(deck_counts(deck.main), lab, 5), odds(deck_counts(deck.main), lab, 6)
    assert combo(first, "DM").fraction == 1 - Fraction(comb(37, 5), comb(40, 5))
    assert combo(second, "DM").fraction == 1 - Fraction(comb(37, 6), comb(40, 6))
    assert f"{combo(first, 'DM').percent:.2f}" == "33.76"  # the figure every calculator quotes for a 3-of


def test_two_different_cards(tmp_path, pool):
    deck, lab = load(tmp_path, pool, deck_text({"Dark Magician": 3, "Blue-Eyes White Dragon": 2},
                                               "lab:\n  combos:\n    both: [1 Dark Magician, 1 Blue-Eyes White Dragon]\n", 40))
    got = combo(odds(deck_counts(deck.main), lab, 5), "both").fraction
    n = comb(40, 5)
    assert got == 1 - Fraction(comb(37, 5), n) - Fraction(comb(38, 5), n) + Fraction(comb(35, 5), n)


def test_overlapping_roles_need_different_cards(tmp_path, pool):
    """A card with both roles fills one requirement: 1 starter + 1 extender needs two cards."""
    lab = ("lab:\n  roles:\n    Dark Magician: [starter, extender]\n    Blue-Eyes White Dragon: extender\n"
           "  combos:\n    go: [1 starter, 1 extender]\n    one: [1 starter|extender]\n")
    deck, resolved = load(tmp_path, pool, deck_text({"Dark Magician": 3, "Blue-Eyes White Dragon": 3}, lab, 40))
    result = odds(deck_counts(deck.main), resolved, 5)
    n = comb(40, 5)
    # fails when no Dark Magician, or exactly one and no Blue-Eyes
    assert combo(result, "go").fraction == 1 - Fraction(comb(37, 5), n) - Fraction(3 * comb(34, 4), n)
    # a card with two roles is one card of the hand: 6 cards can fill "1 starter|extender"
    assert combo(result, "one").fraction == 1 - Fraction(comb(34, 5), n)


def test_at_most_and_exactly(tmp_path, pool):
    lab = "lab:\n  combos:\n    few: [at most 1 Dark Magician]\n    two: [exactly 2 Dark Magician]\n    none: [no Dark Magician]\n"
    deck, resolved = load(tmp_path, pool, deck_text({"Dark Magician": 3}, lab, 40))
    result = odds(deck_counts(deck.main), resolved, 5)
    n = comb(40, 5)
    assert combo(result, "few").fraction == Fraction(comb(37, 5) + 3 * comb(37, 4), n)
    assert combo(result, "two").fraction == Fraction(3 * comb(37, 3), n)
    assert combo(result, "none").fraction == Fraction(comb(37, 5), n)


def test_a_sixty_card_deck_with_alternatives_and_groups(tmp_path, pool):
    lab = ("lab:\n  combos:\n    pair: [1 Dark Magician, 1 Blue-Eyes White Dragon]\n"
           "    either: [{any: [1 Dark Magician, 1 Blue-Eyes White Dragon]}]\n"
           "  groups:\n    g: [pair, either]\n")
    deck, resolved = load(tmp_path, pool, deck_text({"Dark Magician": 3, "Blue-Eyes White Dragon": 3}, lab, 60))
    assert len(deck.main) == 60
    result = odds(deck_counts(deck.main), resolved, 5)
    n = comb(60, 5)
    assert combo(result, "pair").fraction == 1 - 2 * Fraction(comb(57, 5), n) + Fraction(comb(54, 5), n)
    assert combo(result, "either").fraction == 1 - Fraction(comb(54, 5), n)
    assert combo(result, "g").fraction == combo(result, "either").fraction
    assert result.any.fraction == combo(result, "either").fraction
    assert result.brick.fraction == Fraction(comb(54, 5), n)  # no brick defined: no combo


def test_impossible_combos_say_why(tmp_path, pool):
    lab = ("lab:\n  combos:\n    four: [4 Dark Magician]\n    six: [2 Dark Magician, 2 Blue-Eyes White Dragon, 2 Gemini Elf]\n"
           "    clash: [2 Dark Magician, at most 1 Dark Magician]\n")
    deck, resolved = load(tmp_path, pool, deck_text({"Dark Magician": 3, "Blue-Eyes White Dragon": 3, "Gemini Elf": 3}, lab, 40))
    result = odds(deck_counts(deck.main), resolved, 5)
    assert combo(result, "four").impossible and "needs 4 of Dark Magician, the deck has 3" in combo(result, "four").reason
    assert combo(result, "six").impossible and "needs 6 different cards, the hand has 5" in combo(result, "six").reason
    assert combo(result, "clash").impossible and "contradict" in combo(result, "clash").reason
    assert combo(odds(deck_counts(deck.main), resolved, 6), "six").hands > 0


# ---------------------------------------------------------------------- against brute force


def brute(deck: dict[str, int], combos: list[Combo], hand: int) -> list[Fraction]:
    """Every hand of `hand` cards (copies are distinct cards), each combo checked by trying every
    assignment of hand cards to the requirements."""
    cards = [name for name, n in deck.items() for _ in range(n)]
    hits = [0] * len(combos)
    hands = 0
    for h in itertools.combinations(range(len(cards)), hand):
        names = [cards[i] for i in h]
        hands += 1
        for k, c in enumerate(combos):
            hits[k] += any(_meets(way, names) for way in c.ways())
    return [Fraction(x, hands) for x in hits]


def _meets(way, names) -> bool:
    for need in way:
        if need.op in ("at_most", "exactly") and sum(n in need.cards for n in names) > need.n:
            return False
    slots = [need.cards for need in way if need.op != "at_most" for _ in range(need.n)]
    if len(slots) > len(names):
        return False
    return any(all(names[i] in slot for i, slot in zip(p, slots)) for p in itertools.permutations(range(len(names)), len(slots)))


@pytest.mark.parametrize("hand", [4, 5])
def test_agrees_with_enumeration_on_small_decks(tmp_path, pool, hand):
    lab = ("lab:\n  roles:\n    Dark Magician: [starter, boss]\n    Blue-Eyes White Dragon: [boss]\n"
           "    Gemini Elf: [starter, extender]\n    Celtic Guardian: extender\n"
           "  combos:\n"
           "    a: [1 starter, 1 extender]\n"
           "    b: [2 boss, at most 1 Celtic Guardian]\n"
           "    c: [1 starter, any: [[1 boss, 1 extender], 2 Mystical Elf]]\n"
           "    d: [exactly 1 starter, 1 boss|extender]\n"
           "    e: [2+ starter|extender, no Mystical Elf]\n"
           "    f: [1 monster, 1 spell]\n")
    main = {"Dark Magician": 2, "Blue-Eyes White Dragon": 2, "Gemini Elf": 1, "Celtic Guardian": 2, "Mystical Elf": 2,
            "Pot of Greed": 1, "Feral Imp": 2}
    deck, resolved = load(tmp_path, pool, deck_text(main, lab))
    counts = deck_counts(deck.main)
    result = odds(counts, resolved, hand)
    assert [o.fraction for o in result.combos] == brute(counts, list(resolved.combos), hand)


def test_what_if_matches_recounting_the_changed_deck(tmp_path, pool):
    lab = "lab:\n  combos:\n    DM: [1 Dark Magician, 1 Blue-Eyes White Dragon]\n"
    deck, resolved = load(tmp_path, pool, deck_text({"Dark Magician": 2, "Blue-Eyes White Dragon": 3}, lab, 40))
    counts = deck_counts(deck.main)
    base, changes = what_if(counts, resolved, (5,))
    by = {w.card: w for w in changes}
    dm = by["Dark Magician"]
    plus = dict(counts, **{"Dark Magician": 3})
    assert dm.plus.deck_size == 41 and dm.plus.reports[0].combos[0].fraction == odds(plus, resolved, 5).combos[0].fraction
    minus = dict(counts, **{"Dark Magician": 1, "a blank": 1})  # at 40 cards a card counting for nothing takes its place
    assert dm.minus.deck_size == 40 and dm.minus.reports[0].combos[0].fraction == odds(minus, resolved, 5).combos[0].fraction
    assert not by["Blue-Eyes White Dragon"].plus.possible  # a 4th copy
    assert changes[0].card in ("Dark Magician", "Blue-Eyes White Dragon")  # sorted by effect
    assert by["Summoned Skull"].idle


# ---------------------------------------------------------------------- bad lab sections


@pytest.mark.parametrize("lab, line, message, hint", [
    ("lab:\n  combos:\n    x: [1 Dark Magican]\n", 6, "unknown role or card 'Dark Magican'", "Dark Magician"),
    ("lab:\n  roles:\n    Dark Magician: starter\n  combos:\n    x: [1 startr]\n", 8, "unknown role or card 'startr'", "starter"),
    ("lab:\n  roles:\n    Dark Magican: starter\n", 6, "unknown card 'Dark Magican'", "Dark Magician"),
    ("lab:\n  combos:\n    x: [1 Pot of Greed]\n", 6, "'Pot of Greed' is not in the Main Deck", ""),
    ("lab:\n  combos:\n    x: [one Dark Magician]\n", 6, "cannot read the requirement", "N NAME"),
    ("lab:\n  combos:\n    x: [1 Dark Magician]\n  groups:\n    g: [y]\n", 8, "names no combo 'y'", ""),
    ("lab:\n  combo:\n    x: [1 Dark Magician]\n", 5, "unknown key 'combo'", "combos"),
    ("lab:\n  combos:\n    x: [{at_least: 1, off: Dark Magician}]\n", 6, "unknown key 'off'", "of"),
])
def test_bad_lab_sections_are_located_with_nearest_names(tmp_path, cli, lab, line, message, hint):
    path = tmp_path / "bad.yaml"
    path.write_text("name: Bad\nmain:\n  Dark Magician: 3\n" + lab)
    code, out, err = cli("odds", path)
    assert code == 2, (out, err)
    text = " ".join(err.split())
    assert f"bad.yaml:{line}:" in text and message in text and hint in text


def test_ygoterm_check_reads_the_lab_shape(tmp_path, cli):
    path = tmp_path / "bad.yaml"
    path.write_text("name: Bad\nmain:\n  Dark Magician: 3\nlab:\n  combos:\n    x: [1 Dark Magician, 0 Dark Magician]\n")
    code, out, err = cli("check", path)
    assert code == 2 and "bad.yaml:6:" in out + err and "asks for nothing" in out + err


# ---------------------------------------------------------------------- the command


def test_odds_command_table_json_and_need(tmp_path, cli):
    path = tmp_path / "deck.yaml"
    path.write_text(deck_text({"Dark Magician": 3, "Dark Hole": 1, "Monster Reborn": 1, "Call of the Haunted": 1},
                              "lab:\n  combos:\n    DM: [1 Dark Magician]\n", 40))
    code, out, err = cli("odds", path)
    assert code == 0, err
    assert "33.76%" in out and "going second" in out
    code, out, err = cli("odds", path, "--first", "--json", "--need", "1 Dark Hole", "--need", "1 Monster Reborn|Call of the Haunted")
    assert code == 0, err
    doc = json.loads(out)
    [row] = [o for o in doc["exact"][0]["odds"] if o["kind"] == "combo"]
    n = comb(40, 5)
    expect = 1 - Fraction(comb(39, 5), n) - Fraction(comb(38, 5), n) + Fraction(comb(37, 5), n)
    assert Fraction(row["fraction"]) == expect and doc["exact"][0]["hand"] == 5
    code, out, err = cli("odds", path, "--need", "1 Dark Hol")
    assert code == 2 and "Dark Hole" in err


def test_what_if_command(tmp_path, cli):
    path = tmp_path / "deck.yaml"
    path.write_text(deck_text({"Dark Magician": 2}, "lab:\n  combos:\n    DM: [1 Dark Magician]\n", 40))
    code, out, err = cli("odds", path, "--what-if", "--first")
    assert code == 0, err
    assert "41 cards" in out and "Cheapest cuts" in out and "Count toward no combo" in out


def test_shipped_decks_have_lab_sections(cli):
    for deck in ("joey-warriors", "kaiba-dragons"):
        code, out, err = cli("odds", deck, "--json")
        assert code == 0, err
        assert len(json.loads(out)["combos"]) >= 3


# ---------------------------------------------------------------------- engine-played openings


def simulate(pool, path: Path, lab: Lab, openings: int, seed: int = 0, first: bool = True):
    from ygoterm import paths
    from ygoterm.analysis.arena import run
    from ygoterm.analysis.lab_sim import Openings, schedule, summarize

    job = Openings(paths.card_dirs(), [], path)
    return summarize(lab, run(job, schedule(openings, seed, (first,)), workers=1))[first]


def test_a_plain_opening_agrees_with_the_exact_odds(tmp_path, pool):
    """No card digs: the opening is the hand, so the estimate's interval holds the exact value."""
    text = deck_text({"Dark Magician": 3}, "lab:\n  combos:\n    DM: [1 Dark Magician]\n", 40)
    deck, lab = load(tmp_path, pool, text)
    exact = float(combo(odds(deck_counts(deck.main), lab, 5), "DM").fraction)
    side = simulate(pool, tmp_path / "lab.yaml", lab, 400)
    low, high = side.estimates["DM"].interval
    assert low <= exact <= high and side.reached == 5
    second = simulate(pool, tmp_path / "lab.yaml", lab, 200, first=False)
    assert second.reached == 6
    exact2 = float(combo(odds(deck_counts(deck.main), lab, 6), "DM").fraction)
    assert second.estimates["DM"].interval[0] <= exact2 <= second.estimates["DM"].interval[1]


def test_pot_of_greed_raises_the_played_odds(tmp_path, pool):
    """Draw spells (3 Pot of Greed, 3 Graceful Charity) reach more cards, so the turn finds
    Dark Magician more often than the opening hand does (a deck without banlist: any copies)."""
    lab_text = "lab:\n  combos:\n    DM: [1 Dark Magician]\n"
    plain, lab = load(tmp_path, pool, deck_text({"Dark Magician": 3}, lab_text, 40), "plain.yaml")
    _, pot_lab = load(tmp_path, pool, deck_text({"Dark Magician": 3, "Pot of Greed": 3, "Graceful Charity": 3}, lab_text, 40), "pot.yaml")
    exact = float(combo(odds(deck_counts(plain.main), lab, 5), "DM").fraction)  # the same for both decks
    without = simulate(pool, tmp_path / "plain.yaml", lab, 600)
    with_pot = simulate(pool, tmp_path / "pot.yaml", pot_lab, 600)
    assert with_pot.used["Pot of Greed"] > 150 and with_pot.used["Graceful Charity"] > 150 and with_pot.reached > 6
    assert with_pot.estimates["DM"].interval[0] > exact  # measurably above the opening hand's odds
    assert with_pot.estimates["DM"].rate > without.estimates["DM"].rate + 0.05


def test_sim_is_reproducible_whatever_the_workers(tmp_path, cli):
    path = tmp_path / "deck.yaml"
    path.write_text(deck_text({"Dark Magician": 3, "Pot of Greed": 1}, "lab:\n  combos:\n    DM: [1 Dark Magician]\n", 40))
    runs = []
    for workers in ("1", "2"):
        code, out, err = cli("odds", path, "--sim", "30", "--seed", "5", "--workers", workers, "--json")
        assert code == 0, err
        doc = json.loads(out)["sim"]
        doc.pop("workers", None)
        runs.append(doc)
    assert runs[0] == runs[1] and runs[0]["sides"][0]["openings"] == 30
    code, out, err = cli("odds", path, "--sim", "10", "--hand", "7")
    assert code == 2 and "--hand" in err
