"""`.ydk`, `ydke://` and `lflist.conf`: import, export, round trips."""

import base64
import struct

import pytest
from hypothesis import given, settings, strategies as st

from ygoterm.schema.banlist import Banlist, read_lflist, write_lflist
from ygoterm.schema.decks import Deck, parse_deck, resolve
from ygoterm.schema.interop import (deck_from_passcodes, deck_to_yaml, import_deck, parse_ydk, parse_ydke,
                                    write_ydk, write_ydke)
from ygoterm.schema.problems import DataError
from ygoterm.schema.yamlio import parse


@pytest.fixture(scope="module")
def ids(pool):
    return sorted(c.id for c in pool)


def sample_deck(pool):
    get = pool.get
    return Deck("Sample", [get("Gemini Elf")] * 3 + [get("Dark Hole"), get("Blue-Eyes White Dragon")],
                [get("Stardust Dragon")], [get("Trap Hole")] * 2)


def test_ydk_round_trip(pool, tmp_path):
    deck = sample_deck(pool)
    text = write_ydk(deck)
    assert text.splitlines()[:3] == ["#created by ygoterm", "#main", str(pool.get("Gemini Elf").id)]
    path = tmp_path / "sample.ydk"
    path.write_text(text)
    again, _ = import_deck(str(path), pool)
    assert [c.id for c in again.main] == [c.id for c in deck.main]
    assert [c.id for c in again.extra] == [c.id for c in deck.extra]
    assert [c.id for c in again.side] == [c.id for c in deck.side]


def test_ydke_known_encoding(pool):
    deck = Deck("x", [pool.get(89631139)], [], [])
    link = write_ydke(deck)
    assert link == "ydke://" + base64.b64encode(struct.pack("<I", 89631139)).decode() + "!!!"
    assert parse_ydke(link) == {"main": [89631139], "extra": [], "side": []}


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_ydke_round_trip_property(pool, ids, data):
    pick = st.lists(st.sampled_from(ids), max_size=20)
    sections = {"main": data.draw(pick), "extra": data.draw(pick), "side": data.draw(pick)}
    deck = deck_from_passcodes("p", sections, pool, source="test")
    assert parse_ydke(write_ydke(deck)) == sections


def test_yaml_export_round_trip(pool):
    deck = sample_deck(pool)
    text = deck_to_yaml(deck)
    again, problems = resolve(parse_deck(parse(text, "x"), text, "x", default_name="x"), pool)
    assert problems == [] and [c.id for c in again.main] == [c.id for c in deck.main]
    assert "Gemini Elf: 3" in text


def test_bad_ydk_lines_are_reported(tmp_path):
    with pytest.raises(DataError) as info:
        parse_ydk("#main\n89631139\nnot a number\n", "deck.ydk")
    assert "deck.ydk:3:1" in str(info.value)


def test_unknown_passcodes_in_ydk(pool, tmp_path):
    path = tmp_path / "u.ydk"
    path.write_text("#main\n89631139\n11111111\n#extra\n!side\n")
    with pytest.raises(DataError) as info:
        import_deck(str(path), pool)
    assert "u.ydk:3:1" in str(info.value) and "unknown passcode 11111111" in str(info.value)


def test_an_imported_deck_problem_points_at_the_line_of_its_card(pool, tmp_path):
    # Dark Magician in both sections: the Extra Deck problem names the #extra line, not the #main one
    path = tmp_path / "mixed.ydk"
    path.write_text("#main\n46986414\n#extra\n46986414\n44508094\n!side\n")
    _, problems = import_deck(str(path), pool)
    located = {(p.rule, p.path, p.line) for p in problems}
    assert located == {("R-DECK-1", "main", 2), ("R-DECK-7", "extra", 4)}
    assert all(p.file.endswith("mixed.ydk") and p.col == 1 for p in problems)


@pytest.mark.parametrize("link", ["ydke://", "http://x", "ydke://!!", "ydke://@@@!!!", "ydke://AAA=!!!"])
def test_bad_ydke_links(link):
    with pytest.raises(DataError):
        parse_ydke(link)


def test_lflist_round_trip(pool, tmp_path):
    banlist = Banlist("2005.4 TCG", {"Pot of Greed": 0, "Monster Reborn": 1, "Call of the Haunted": 2})
    text = write_lflist([banlist], pool)
    assert f"{pool.get('Pot of Greed').id} 0 --Pot of Greed" in text
    path = tmp_path / "lflist.conf"
    path.write_text(text)
    (again,) = read_lflist(path, pool)
    assert again.name == "2005.4 TCG" and again.limits == banlist.limits


def test_lflist_several_lists_and_bad_line(pool, tmp_path):
    path = tmp_path / "lflist.conf"
    path.write_text(f"#[A][B]\n!A\n{pool.get('Pot of Greed').id} 0 --Pot\n!B\n#limited\n"
                    f"{pool.get('Monster Reborn').id} 1 --MR\n99999998 1 --not in our pool\n")
    a, b = read_lflist(path, pool)
    assert (a.name, a.limits) == ("A", {"Pot of Greed": 0})
    assert (b.name, b.limits) == ("B", {"Monster Reborn": 1})
    path.write_text("!A\nbogus line\n")
    with pytest.raises(DataError) as info:
        read_lflist(path, pool)
    assert "lflist.conf:2:1" in str(info.value)
