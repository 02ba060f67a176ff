"""`ygoterm cards import` of EDOPro/YGOPro cards.cdb and YGOPRODeck JSON; alternate passcodes;
.ydk imports with unknown cards; whitelist banlists."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from ygoterm import paths
from ygoterm.schema import carddb as db
from ygoterm.schema.cardpool import CardPool

CREATE = [
    "CREATE TABLE datas(id integer primary key, ot integer, alias integer, setcode integer, type integer, atk integer, "
    "def integer, level integer, race integer, attribute integer, category integer)",
    "CREATE TABLE texts(id integer primary key, name text, desc text, " + ", ".join(f"str{i} text" for i in range(1, 17)) + ")",
]
M, S, T = db.TYPE_MONSTER, db.TYPE_SPELL, db.TYPE_TRAP
N, E = db.TYPE_NORMAL, db.TYPE_EFFECT


def make_cdb(path: Path, rows: list[tuple], create: list[str] = CREATE) -> Path:
    """rows: (id, name, type, atk, def, level, race, attribute, alias=0, ot=3, desc='')."""
    con = sqlite3.connect(path)
    for sql in create:
        con.execute(sql)
    for row in rows:
        code, name, type_, atk, def_, level, race, attribute, *rest = row
        alias, ot, desc = (rest + [0, 3, ""][len(rest):])[:3]
        con.execute("INSERT INTO datas VALUES (?,?,?,?,?,?,?,?,?,?,?)", (code, ot, alias, 0, type_, atk, def_, level, race, attribute, 0))
        if "texts" in " ".join(create):
            con.execute("INSERT INTO texts (id, name, desc) VALUES (?,?,?)", (code, name, desc or f"Text of {name}."))
    con.commit()
    con.close()
    return path


def scales(level: int, left: int, right: int) -> int:
    return level | (right << 16) | (left << 24)


# every frame and flag, each Type and Attribute bit
ROWS = [
    (900001, "Imp Normal", M | N, 1000, 800, 4, 0x2000, 0x10),
    (900002, "Imp Effect Tuner", M | E | db.TYPE_TUNER, 500, 500, 2, 0x1, 0x20),
    (900003, "Imp Ritual", M | E | db.TYPE_RITUAL, 2500, 2000, 8, 0x2, 0x10),
    (900004, "Imp Plain Fusion", M | db.TYPE_FUSION, 2200, 1800, 6, 0x1, 0x1, 0, 3, '"Imp Normal" + "Imp Effect Tuner"'),
    (900005, "Imp Synchro", M | E | db.TYPE_SYNCHRO, 2500, 2000, 8, 0x2000, 0x8, 0, 3, "1 Tuner + 1+ non-Tuner monsters\nEffect text."),
    (900006, "Imp Xyz", M | E | db.TYPE_XYZ, 2000, 1500, 4, 0x8, 0x20, 0, 3, "2 Level 4 monsters\nDetach 1."),
    (900007, "Imp Link", M | E | db.TYPE_LINK, 2300, 0x80 | 0x1 | 0x4, 3, 0x1000000, 0x20, 0, 3, "2+ Effect Monsters\nLink text."),
    (900008, "Imp Pendulum Normal", M | N | db.TYPE_PENDULUM, 1200, 600, scales(4, 1, 1), 0x2, 0x10),
    (900009, "Imp Pendulum Effect", M | E | db.TYPE_PENDULUM, 2000, 2500, scales(7, 8, 8), 0x2000, 0x20),
    (900010, "Imp Pendulum Xyz", M | E | db.TYPE_XYZ | db.TYPE_PENDULUM, 3000, 2500, scales(7, 4, 4), 0x2000, 0x20, 0, 3, "2 Level 7 monsters\nText."),
    (900011, "Imp Flip", M | E | db.TYPE_FLIP, 100, 100, 1, 0x800, 0x1),
    (900012, "Imp Spirit", M | E | db.TYPE_SPIRIT, 100, 100, 4, 0x4, 0x10),
    (900013, "Imp Gemini", M | E | db.TYPE_GEMINI, 100, 100, 4, 0x1, 0x4),
    (900014, "Imp Toon", M | E | db.TYPE_TOON, 100, 100, 4, 0x10, 0x20),
    (900015, "Imp Union", M | E | db.TYPE_UNION, 100, 100, 4, 0x20, 0x1),
    (900016, "Imp Nomi", M | E | db.TYPE_SPSUMMON, -2, -2, 8, 0x200000, 0x40),
    (900020, "Imp Spell", S, 0, 0, 0, 0, 0),
    (900021, "Imp Quick-Play", S | db.TYPE_QUICKPLAY, 0, 0, 0, 0, 0),
    (900022, "Imp Continuous Spell", S | db.TYPE_CONTINUOUS, 0, 0, 0, 0, 0),
    (900023, "Imp Equip", S | db.TYPE_EQUIP, 0, 0, 0, 0, 0),
    (900024, "Imp Field", S | db.TYPE_FIELD, 0, 0, 0, 0, 0),
    (900025, "Imp Ritual Spell", S | db.TYPE_RITUAL, 0, 0, 0, 0, 0),
    (900030, "Imp Trap", T, 0, 0, 0, 0, 0),
    (900031, "Imp Continuous Trap", T | db.TYPE_CONTINUOUS, 0, 0, 0, 0, 0),
    (900032, "Imp Counter Trap", T | db.TYPE_COUNTER, 0, 0, 0, 0, 0),
    # alternate artwork (same name, alias) and a card treated as another (other name, alias)
    (900041, "Imp Normal", M | N, 1000, 800, 4, 0x2000, 0x10, 900001),
    (900042, "Imp Normal (GOAT)", M | N, 1000, 800, 4, 0x2000, 0x10, 900001, 8),
    (900043, "Dark Magician", M | N, 2500, 2100, 7, 0x2, 0x20, 46986414),
    # what is skipped
    (900050, "Imp Token", M | N | db.TYPE_TOKEN, 0, 0, 1, 0x1, 0x1),
    (900051, "Imp Skill", db.TYPE_SKILL, 0, 0, 0, 0, 0, 0, 0x40),
    (900052, "Imp Rush", M | N, 1000, 1000, 4, 0x1, 0x1, 0, 0x200),
    (900053, "Imp Speed Skill-less", S, 0, 0, 0, 0, 0, 0, 0x40),
    (900054, "Imp Galaxy", M | N, 1000, 1000, 4, 0x80000000, 0x1),
    (900055, "Imp Hidden", 0, 0, 0, 0, 0, 0, 0, 0x1004),
] + [(900100 + i, f"Imp Type {name}", M | N, 100 * i, 100, 1 + i % 12, bit, 1 << (i % 7))
     for i, (bit, name) in enumerate(db.RACES.items())]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("YGOTERM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("YGOTERM_CACHE", str(tmp_path / "cache"))
    return tmp_path / "home"


@pytest.fixture
def cdb(tmp_path):
    return make_cdb(tmp_path / "cards.cdb", ROWS)


def user_pool():
    return CardPool.load(paths.card_dirs())


def test_cdb_import_maps_every_frame_and_flag(cli, home, cdb):
    code, out, err = cli("cards", "import", cdb)
    assert code == 0, out + err
    assert "Wrote" in out and "imported-cards" in out
    pool = user_pool()
    card = pool.get
    assert card(900001).frame == "normal" and card(900001).type == "Dragon" and card(900001).attribute == "LIGHT"
    assert card(900002).tuner and card(900002).frame == "effect"
    assert card(900003).frame == "ritual+effect"
    assert card(900004).frame == "fusion" and card(900004).materials.groups[0].name == "Imp Normal"
    assert card(900005).frame == "synchro+effect" and card(900005).materials.groups[0].tuner is True
    assert card(900006).rank == 4 and card(900006).level is None
    link = card(900007)
    assert link.link == 3 and set(link.arrows) == {"top", "bottom-left", "bottom-right"} and link.def_ is None
    assert card(900008).frame == "pendulum+normal" and card(900008).scale == 1 and card(900008).level == 4
    assert card(900009).scale == 8 and card(900009).level == 7
    assert card(900010).frame == "pendulum+xyz+effect" and card(900010).rank == 7 and card(900010).scale == 4
    for code_, ability in ((900011, "flip"), (900012, "spirit"), (900013, "gemini"), (900014, "toon"), (900015, "union")):
        assert card(code_).abilities == (ability,)
    nomi = card(900016)
    assert nomi.special_summon_only and nomi.atk == "?" and nomi.def_ == "?" and nomi.attribute == "DIVINE" and nomi.type == "Divine-Beast"
    assert [card(c).subtype for c in range(900020, 900026)] == ["normal", "quick-play", "continuous", "equip", "field", "ritual"]
    assert [card(c).subtype for c in range(900030, 900033)] == ["normal", "continuous", "counter"]
    for i, name in enumerate(db.RACES.values()):
        assert card(900100 + i).type == name and card(900100 + i).attribute == db.ATTRIBUTE_FLAGS[1 << (i % 7)]
    assert card(900001).play == "stats" and card(900002).play == "manual"
    # alternates and treated_as
    assert card(900041).id == 900001  # an alternate artwork is the card itself
    assert card(900042).treated_as == "Imp Normal" and card(900042).deck_name == "Imp Normal"
    assert card(900043).id == 46986414 and card(900043).scripted is False or card(900043).name == "Dark Magician"
    for skipped in (900050, 900051, 900052, 900053, 900054, 900055):
        assert card(skipped) is None
    for reason in ("Tokens", "Skill cards", "Rush Duel cards", "Speed Duel-only cards", "Galaxy", "hidden"):
        assert reason in out


def test_scripted_shipped_card_wins_and_text_comes_from_the_file(cli, home, tmp_path):
    shipped = CardPool.load([paths.shipped("cards")])
    reborn = shipped.get("Monster Reborn")
    path = make_cdb(tmp_path / "c.cdb", [(reborn.id, "Monster Reborn", S, 0, 0, 0, 0, 0, 0, 3, "Other text."),
                                         (83764719, "Monster Reborn", S, 0, 0, 0, 0, 0, reborn.id)])
    code, out, _ = cli("cards", "import", path)
    assert code == 0 and "1 already in the pool (1 of them scripted)" in out
    pool = user_pool()
    assert pool.get(83764719) is pool.get(reborn.id) and pool.get(reborn.id).scripted


def test_reimport_is_idempotent_and_a_failed_import_loses_nothing(cli, home, cdb, tmp_path):
    assert cli("cards", "import", cdb)[0] == 0
    folder = home / "cards" / "imported-cards"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    code, out, _ = cli("cards", "import", cdb)
    assert code == 0 and "Unchanged" in out
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    bad = make_cdb(tmp_path / "bad" / "cards.cdb" if (tmp_path / "bad").mkdir() is None else None,
                   [(1, "Broken", M | N, 10**9, 0, 4, 1, 1)])
    code, out, err = cli("cards", "import", bad)
    assert code == 2 and "ATK 1,000,000,000" in err and "Traceback" not in err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_only_imports_the_matching_cards(cli, home, cdb):
    code, out, _ = cli("cards", "import", cdb, "--only", "type:dragon")
    assert code == 0
    pool = user_pool()
    assert pool.get(900001) is not None and pool.get(900009) is not None and pool.get(900002) is None


def test_into_refuses_a_folder_it_did_not_write(cli, home, cdb, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "my-cards.yaml").write_text("[]\n")
    code, _, err = cli("cards", "import", cdb, "--into", mine)
    assert code == 2 and "no card import wrote" in err
    assert (mine / "my-cards.yaml").read_text() == "[]\n"
    code, _, _ = cli("cards", "import", cdb, "--into", tmp_path / "new")
    assert code == 0 and (tmp_path / "new" / "cards-000.yaml").is_file()


def json_card(**kw):
    base = {"id": 1, "name": "X", "type": "Normal Monster", "frameType": "normal", "desc": "d", "race": "Dragon",
            "attribute": "LIGHT", "atk": 100, "def": 100, "level": 4}
    base.update(kw)
    return {k: v for k, v in base.items() if v is not None}


JSON_CARDS = [
    json_card(id=800001, name="Jay Normal", card_images=[{"id": 800001}, {"id": 800091}]),
    json_card(id=800002, name="Jay Tuner", type="Tuner Monster", frameType="effect", race="Beast-Warrior", attribute="DARK"),
    json_card(id=800003, name="Jay Fusion", type="Fusion Monster", frameType="fusion", race="Winged Beast", desc='"Jay Normal" + "Jay Tuner"'),
    json_card(id=800004, name="Jay Xyz", type="XYZ Monster", frameType="xyz", level=4, race="Sea Serpent", desc="2 Level 4 monsters\nText"),
    json_card(id=800005, name="Jay Link", type="Link Monster", frameType="link", level=None, **{"def": None}, linkval=2,
              linkmarkers=["Top", "Bottom-Left"], race="Cyberse", desc="2 monsters\nText"),
    json_card(id=800006, name="Jay Pendulum", type="Pendulum Effect Monster", frameType="effect_pendulum", scale=5, atk=None, race="Spellcaster"),
    json_card(id=800007, name="Jay Flip", type="Flip Effect Monster", frameType="effect", race="Insect"),
    json_card(id=800008, name="Jay Toon", type="Toon Monster", frameType="effect", race="Creator God", attribute="DIVINE"),
    {"id": 800010, "name": "Jay Quick", "type": "Spell Card", "frameType": "spell", "race": "Quick-Play", "desc": "q"},
    {"id": 800011, "name": "Jay Counter", "type": "Trap Card", "frameType": "trap", "race": "Counter", "desc": "c"},
    {"id": 800020, "name": "Jay Skill", "type": "Skill Card", "frameType": "skill", "race": "Yugi", "desc": "s"},
    json_card(id=800021, name="Jay Token", type="Token", frameType="token"),
    json_card(id=800022, name="Jay Speed", misc_info=[{"formats": ["Speed Duel", "Duel Links"]}]),
]


def test_json_import(cli, home, tmp_path):
    path = tmp_path / "cardinfo.json"
    path.write_text(json.dumps({"data": JSON_CARDS}))
    code, out, err = cli("cards", "import", path)
    assert code == 0, out + err
    pool = user_pool()
    assert pool.get(800091).id == 800001  # another artwork
    assert pool.get(800002).tuner and pool.get(800002).type == "Beast-Warrior"
    assert pool.get(800003).frame == "fusion"
    assert pool.get(800004).rank == 4 and pool.get(800004).type == "Sea Serpent"
    assert pool.get(800005).arrows == ("top", "bottom-left") and pool.get(800005).link == 2
    assert pool.get(800006).scale == 5 and pool.get(800006).atk == "?" and pool.get(800006).frame == "pendulum+effect"
    assert pool.get(800007).abilities == ("flip",) and pool.get(800008).type == "Creator God"
    assert pool.get(800010).subtype == "quick-play" and pool.get(800011).subtype == "counter"
    assert all(pool.get(c) is None for c in (800020, 800021, 800022))


def test_imported_pendulum_and_link_round_trip(cli, home, cdb):
    """Imported files load back to the same cards, and those cards written again are the same lines."""
    from ygoterm.schema.cardimport import card_line

    cli("cards", "import", cdb)
    folder = home / "cards" / "imported-cards"
    lines = [line for line in (folder / "cards-000.yaml").read_text().splitlines() if line.startswith("- ")]
    pool = user_pool()
    for code_ in (900007, 900009, 900010):
        card = pool.get(code_)
        line = next(line for line in lines if f'"id": {code_},' in line)
        again = card.model_dump(mode="json", by_alias=True, exclude_defaults=True)
        assert json.loads(line[2:]) == {k: v for k, v in again.items() if k != "materials"} | (
            {"materials": card.materials.text} if card.materials else {})
        assert card_line(json.loads(line[2:])) == line
    # the YAML parser reads the same cards as the fast path (the files are YAML)
    slow = CardPool.load([folder], use_cache=False)
    from ygoterm.schema import yamlio

    data = yamlio.parse((folder / "cards-000.yaml").read_text(), "x")
    assert [d["id"] for d in data] == sorted(c.id for c in slow if c.id in {d["id"] for d in data})


def test_odd_characters_survive(cli, home, tmp_path):
    weird = "Line\u2028sep\x85nel \u00e9 \U0001F600 \"quoted\" # not a comment \\ tab\t"
    path = make_cdb(tmp_path / "w.cdb", [(700001, "Weird Card", S, 0, 0, 0, 0, 0, 0, 3, weird)])
    assert cli("cards", "import", path)[0] == 0
    pool = user_pool()
    assert pool.get(700001).text == weird.strip()
    slow = CardPool.load([home / "cards"], use_cache=False)
    assert slow.get(700001).text == weird.strip()


# -- bad input --------------------------------------------------------------------------------

def bad(cli, path, *words):
    code, out, err = cli("cards", "import", path)
    assert code == 2, out + err
    assert "Traceback" not in err
    for w in words:
        assert w in err, err
    return err


def test_bad_inputs(cli, home, tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    bad(cli, text, "not card data", "neither an SQLite database nor JSON", "cards.cdb")
    empty = tmp_path / "empty.cdb"
    empty.write_bytes(b"")
    bad(cli, empty, "it is empty")
    no_texts = make_cdb(tmp_path / "nt.cdb", [], create=CREATE[:1])
    bad(cli, no_texts, "no table 'texts'")
    cols = make_cdb(tmp_path / "cols.cdb", [], create=["CREATE TABLE datas(id integer, type integer)", CREATE[1]])
    bad(cli, cols, "has no columns", "ot, alias")
    garbage = tmp_path / "garbage.cdb"
    garbage.write_bytes(b"SQLite format 3\0" + b"\x13" * 200)
    bad(cli, garbage, "cannot")
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"cards": []}))
    bad(cli, wrong, "expected YGOPRODeck card data")
    broken = tmp_path / "broken.json"
    broken.write_text('{"data": [')
    bad(cli, broken, "not valid JSON")
    items = tmp_path / "items.json"
    items.write_text(json.dumps({"data": [1, {"name": "no id"}]}))
    bad(cli, items, "data[0]", "not int", "no id")
    dupes = tmp_path / "dupes.json"
    dupes.write_text(json.dumps([json_card(id=5, name="A"), json_card(id=5, name="B")]))
    bad(cli, dupes, "duplicate passcode 5")
    huge = tmp_path / "huge.json"
    huge.write_text(json.dumps([json_card(id=5, atk=10**9), json_card(id=6, name="L", level=99)]))
    bad(cli, huge, "ATK 1000000000", "level 99")
    level = make_cdb(tmp_path / "lv.cdb", [(1, "High", M | N, 0, 0, 99, 1, 1)])
    bad(cli, level, "Level/Rank 99")
    code, _, err = cli("cards", "import", tmp_path / "missing.cdb")
    assert code == 2 and "no such file" in err


# -- alternates, .ydk, whitelists -------------------------------------------------------------

def write_ydk(path: Path, main: list[int], extra: list[int] = ()) -> Path:
    path.write_text("#created by test\n#main\n" + "".join(f"{c}\n" for c in main) + "#extra\n" + "".join(f"{c}\n" for c in extra) + "!side\n")
    return path


def test_a_ydk_of_imported_cards_passes_check(cli, home, cdb, tmp_path):
    assert cli("cards", "import", cdb)[0] == 0
    main = [c for i in range(13) for c in [900100 + i] * 3] + [900020]  # 40 cards
    ydk = write_ydk(tmp_path / "imps.ydk", main, [900005, 900006, 900007])
    code, out, err = cli("deck", "import", ydk)
    assert code == 0, out + err
    code, out, err = cli("check", "imps")
    assert code == 0 and "legal" in out, out + err


def test_alternate_passcodes_count_as_the_card(cli, home, tmp_path, pool):
    dm = pool.get("Dark Magician")
    alts = [46986415, 46986418, 46986419]
    assert all(pool.get(a) is dm for a in alts)  # shipped cards/alternates.yaml
    filler = [c.id for c in pool if getattr(c, "frame", "") == "normal" and c.deck_name != dm.name][:13]
    main = [c for f in filler for c in [f] * 3] + alts + [dm.id]  # 4 Dark Magicians under 4 passcodes
    code, out, err = cli("deck", "import", write_ydk(tmp_path / "dm.ydk", main), "-o", "-")
    assert code == 1 and "'Dark Magician': 4 copies (max 3)" in err and "R-DECK-4" in err
    # a banlist line with an alternate passcode limits the card
    conf = tmp_path / "lflist.conf"
    conf.write_text("!Test\n46986418 1 --Dark Magician (alt)\n")
    from ygoterm.schema.banlist import read_lflist

    assert read_lflist(conf, pool)[0].limit("Dark Magician") == 1


def test_unknown_passcodes_are_listed_once_with_counts_and_names(cli, home, tmp_path, pool):
    path = make_cdb(tmp_path / "cards.cdb", ROWS)
    assert cli("cards", "import", path, "--only", "imp normal")[0] == 0  # 900002 and the rest stay out
    filler = [c.id for c in pool if getattr(c, "frame", "") == "normal"][:14]
    main = [c for f in filler for c in [f] * 3] + [900002, 900002, 900002, 555]
    ydk = write_ydk(tmp_path / "modern.ydk", main)
    code, out, err = cli("deck", "import", ydk)
    assert code == 1
    assert err.count("unknown passcode 900002") == 1 and "900002 ×3: 'Imp Effect Tuner' (not chosen (--only) in cards.cdb)" in err
    assert "unknown passcode 555: a card no imported card database has" in err
    assert "cards import" in err and str(home / "cards") in err and "--skip-unknown" in err
    code, out, err = cli("deck", "import", ydk, "--skip-unknown")
    assert code == 0, err
    assert "Left out 2 unknown cards" in err
    assert "Wrote deck 'modern' (42/0/0)" in err


def test_whitelist_import_and_check(cli, home, tmp_path, pool):
    names = [c for c in pool if getattr(c, "frame", "") == "normal"][:15]
    listed, outsider = names[:14], names[14]
    conf = tmp_path / "goat.lflist.conf"
    conf.write_text("#[GOAT]\n!GOAT\n$whitelist\n-- a comment line\n#forbidden\n"
                    + "".join(f"{c.id} 3 --{c.name}\n" for c in listed[1:]) + f"{listed[0].id} 1 --{listed[0].name}\n"
                    + "99999999 3 --A card the pool lacks\n")
    banlists = home / "decks" / "banlists"
    banlists.mkdir(parents=True)
    code, out, err = cli("banlist", "import", conf, "-o", banlists / "my-goat.yaml")
    assert code == 0, err
    assert "(whitelist): kept 14 entries; 1 name cards the card pool does not have" in err
    text = (banlists / "my-goat.yaml").read_text()
    assert "kind: whitelist" in text and "allowed:" in text
    decks = home / "decks"
    legal = {c.name: 3 for c in listed[1:]} | {listed[0].name: 1}
    (decks / "wl.yaml").write_text("name: WL\nbanlist: my-goat\nmain:\n" + "".join(f"  {n}: {k}\n" for n, k in legal.items()))
    code, out, err = cli("check", "wl")
    assert code == 0, out + err
    (decks / "wl.yaml").write_text("name: WL\nbanlist: my-goat\nmain:\n" + "".join(f"  {n}: {k}\n" for n, k in legal.items())
                                   + f"  {outsider.name}: 1\n")
    code, out, err = cli("check", "wl")
    assert code == 1 and f"'{outsider.name}' is not on the 'GOAT' whitelist" in out and "R-DECK-5" in out
    # the .conf round trip keeps it a whitelist
    from ygoterm.schema.banlist import load_banlist, read_lflist, write_lflist

    wl = load_banlist(banlists / "my-goat.yaml", pool)
    assert wl.whitelist and wl.limit(listed[0].name) == 1 and wl.limit(listed[1].name) == 3 and wl.limit(outsider.name) == 0
    again = tmp_path / "again.conf"
    again.write_text(write_lflist([wl], pool))
    back = read_lflist(again, pool)[0]
    assert back.whitelist and back.limits == wl.limits


def test_lflist_directives_and_comments(tmp_path, pool):
    from ygoterm.schema.banlist import read_lflist
    from ygoterm.schema.problems import DataError

    conf = tmp_path / "x.conf"
    conf.write_text("!A\n$blacklist\n")
    with pytest.raises(DataError, match="unknown directive"):
        read_lflist(conf, pool)
    conf.write_text("$whitelist\n!A\n")
    with pytest.raises(DataError, match="before any '!Name'"):
        read_lflist(conf, pool)


def test_a_row_without_a_name_is_skipped_and_counted_not_fatal(cli, home, tmp_path):
    """Real databases hold a few `datas` rows with no `texts` row: the rest still imports."""
    path = make_cdb(tmp_path / "c.cdb", [(900001, "Quill Imp", M | N, 1000, 1000, 4, 1, 1)])
    con = sqlite3.connect(path)
    con.execute("INSERT INTO datas VALUES (?,?,?,?,?,?,?,?,?,?,?)", (900002, 3, 0, 0, M | N, 0, 0, 4, 1, 1, 0))
    con.commit()
    con.close()
    code, out, _ = cli("cards", "import", path)
    assert code == 0, out
    assert "imported 1 card" in out and "entries without a name" in out
    assert user_pool().get(900001).name == "Quill Imp"


def test_a_file_with_no_importable_card_writes_nothing(cli, home, tmp_path):
    """All skipped (here: one JSON entry without a frame): a message and exit 2, no empty folder."""
    path = tmp_path / "skills.json"
    entry = json_card(id=7)
    del entry["frameType"]
    path.write_text(json.dumps([entry]))
    code, out, err = cli("cards", "import", path)
    assert code == 2 and "skipped 1" in out and "not one card in it can be imported" in err
    assert not (home / "cards" / "imported-skills").exists()


# ---------------------------------------------------------------------- imports that never break the pool (#36)


def test_a_card_of_megabytes_is_skipped_and_big_imports_split_into_small_files(cli, home, tmp_path):
    """A 10 MB card text used to be written into a card file over the 8 MB limit, after which
    every command failed; long (legal) texts now fill files of at most 2 MB."""
    rows = [(900001, "Endless Imp", M | N, 1000, 1000, 4, 1, 1, 0, 3, "x" * 10_000_000)]
    rows += [(900100 + i, f"Wordy Imp {i}", M | N, 100, 100, 4, 1, 1, 0, 3, "w" * 9_000) for i in range(400)]
    path = make_cdb(tmp_path / "big.cdb", rows)
    code, out, err = cli("cards", "import", path)
    assert code == 0, err
    assert "skipped 1" in out and "900001 'Endless Imp': text" in out
    folder = home / "cards" / "imported-big"
    files = sorted(folder.glob("cards-*.yaml"))
    assert len(files) == 2 and all(f.stat().st_size <= 2 * 1024 * 1024 for f in files)
    pool = user_pool()
    assert pool.get(900001) is None and pool.get(900499).name == "Wordy Imp 399"
    assert cli("cards", "show", "Wordy Imp 0")[0] == 0  # the pool loads: commands work


def test_an_import_folder_holding_a_file_of_yours_is_not_replaced(cli, home, cdb, tmp_path):
    assert cli("cards", "import", cdb)[0] == 0
    folder = home / "cards" / "imported-cards"
    (folder / "my-notes.yaml").write_text("[]\n")
    code, _, err = cli("cards", "import", cdb)
    assert code == 2 and "my-notes.yaml" in err and "move those elsewhere" in err
    assert (folder / "my-notes.yaml").read_text() == "[]\n"
    (folder / "my-notes.yaml").unlink()
    edited = folder / "cards-000.yaml"  # an imported file edited by hand: the edit would be lost
    edited.write_text(edited.read_text() + "# my change\n")
    code, _, err = cli("cards", "import", cdb)
    assert code == 2 and "cards-000.yaml" in err and "changed since" in err
    assert edited.read_text().endswith("# my change\n")
    mine = tmp_path / "mine"  # a marker copied into a folder of one's own does not make it an import's,
    mine.mkdir()             # even where a file of yours has an import's name
    (mine / "cards-000.yaml").write_text("[]\n")
    (mine / ".import.json").write_text((folder / ".import.json").read_text())
    code, _, err = cli("cards", "import", cdb, "--into", mine)
    assert code == 2 and "cards-000.yaml" in err
    assert (mine / "cards-000.yaml").read_text() == "[]\n"


def test_what_a_killed_import_left_is_tidied_and_the_earlier_import_comes_back(cli, home, cdb):
    assert cli("cards", "import", cdb)[0] == 0
    cards = home / "cards"
    folder = cards / "imported-cards"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    dead = 2**22 + 12345  # (beyond Linux's default pid_max: no such process)
    # killed between moving the earlier import aside and renaming the new one into place
    folder.rename(cards / f".imported-cards.replaced-{dead}")
    half = cards / f".imported-cards.importing-{dead}"
    half.mkdir()
    (half / "cards-000.yaml").write_bytes(b"x" * 1_000_000)
    stray = cards / f".imported-other.importing-{dead}"
    stray.mkdir()
    code, out, _ = cli("cards", "import", cdb)
    assert code == 0 and "Unchanged" in out  # the earlier import came back, and it is this one
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert sorted(p.name for p in cards.iterdir()) == ["imported-cards"]


def test_a_duplicate_passcode_in_a_cdb_is_refused(cli, home, tmp_path):
    loose = [CREATE[0].replace("id integer primary key", "id integer"), CREATE[1].replace("id integer primary key", "id integer")]
    path = make_cdb(tmp_path / "dup.cdb", [(900001, "First Imp", M | N, 1000, 1000, 4, 1, 1),
                                           (900001, "Second Imp", M | N, 1000, 1000, 4, 1, 1)], create=loose)
    code, _, err = cli("cards", "import", path)
    assert code == 2 and "duplicate passcode 900001" in err and "Traceback" not in err
    assert not (home / "cards" / "imported-dup").exists()


def test_cards_aliasing_each_other_are_imported_and_counted(cli, home, tmp_path):
    path = make_cdb(tmp_path / "loop.cdb", [(900001, "Ouro Imp", M | N, 1000, 1000, 4, 1, 1, 900002),
                                            (900002, "Boros Imp", M | N, 1000, 1000, 4, 1, 1, 900001),
                                            (900003, "Plain Imp", M | N, 1000, 1000, 4, 1, 1)])
    code, out, _ = cli("cards", "import", path)
    assert code == 0 and "imported 3 cards" in out
    assert "2 cards whose alias chain runs in a circle" in out
    pool = user_pool()
    assert pool.get(900001).name == "Ouro Imp" and pool.get(900002).name == "Boros Imp"


def test_a_long_alias_chain_resolves_to_its_root(cli, home, tmp_path):
    """30,000 rows each aliasing the next (it took ~100 s when each row walked its whole chain)."""
    n = 30_000
    rows = [(900000 + i, f"Link Imp {i}", M | N, 100, 100, 4, 1, 1, 900000 + i + 1) for i in range(n)]
    rows.append((900000 + n, "Root Imp", M | N, 100, 100, 4, 1, 1))
    path = make_cdb(tmp_path / "chain.cdb", rows)
    code, out, err = cli("cards", "import", path)
    assert code == 0, err
    pool = user_pool()
    assert pool.get(900000).treated_as == "Root Imp" and pool.get(900000 + n - 1).treated_as == "Root Imp"


def test_reimporting_the_base_database_after_an_add_on_works(cli, home, tmp_path):
    """An add-on's cards are treated_as base cards: re-importing the base must not make them
    unknown (it failed with an error per add-on card)."""
    base = make_cdb(tmp_path / "base.cdb", [(900001, "Base Imp", M | N, 1000, 1000, 4, 1, 1)])
    addon = make_cdb(tmp_path / "addon.cdb", [(900002, "Base Imp Prerelease", M | N, 1000, 1000, 4, 1, 1, 900001)])
    assert cli("cards", "import", base)[0] == 0
    assert cli("cards", "import", addon)[0] == 0
    assert user_pool().get(900002).treated_as == "Base Imp"
    base2 = make_cdb(tmp_path / "new" / "base.cdb" if (tmp_path / "new").mkdir() is None else None,
                     [(900001, "Base Imp", M | N, 1000, 1000, 4, 1, 1), (900003, "New Imp", M | N, 1, 1, 1, 1, 1)])
    code, out, err = cli("cards", "import", base2)
    assert code == 0, err
    assert "imported 2 cards" in out
    assert user_pool().get(900003).name == "New Imp"


def test_the_next_command_reads_the_imported_cards_from_the_cache(cli, home, cdb, monkeypatch):
    """An import validated its cards already: the pool's cache gets them, so the first command
    after a big import does not parse and validate every card again."""
    from ygoterm.schema import cardpool

    assert cli("cards", "import", cdb)[0] == 0
    expected = CardPool.load(paths.card_dirs(), use_cache=False)

    def refuse(text: str, *_: object) -> None:
        raise AssertionError("a card file was parsed instead of read from the cache")

    monkeypatch.setattr(cardpool, "_json_lines", refuse)  # (alternates.yaml is read by `parse`)
    pool = user_pool()
    assert sorted(c.id for c in pool) == sorted(c.id for c in expected)
    assert all(pool.get(c.id) == c for c in expected)


def test_an_import_too_big_for_the_pool_is_refused_unless_narrowed(cli, home, tmp_path, monkeypatch):
    from ygoterm.schema import cardimport

    monkeypatch.setattr(cardimport, "MAX_IMPORT_CARDS", 2)
    path = make_cdb(tmp_path / "many.cdb", [(900001 + i, f"Many Imp {i}", M | N, 100 * i, 100, 4, 1, 1) for i in range(3)])
    code, _, err = cli("cards", "import", path)
    assert code == 2 and "3 cards to import: at most 2" in err and "--only" in err
    assert not (home / "cards" / "imported-many").exists()
    code, out, _ = cli("cards", "import", path, "--only", "atk:100+")
    assert code == 0 and "imported 2 cards" in out


def test_a_damaged_import_marker_only_loses_the_names_in_messages(cli, home, tmp_path, pool):
    """A hand-made .import.json nested 100,000 levels deep raised RecursionError in `deck import`."""
    path = make_cdb(tmp_path / "cards.cdb", ROWS)
    assert cli("cards", "import", path, "--only", "imp normal")[0] == 0
    (home / "cards" / "imported-cards" / ".import.json").write_text("[" * 100_000 + "]" * 100_000)
    filler = [c.id for c in pool if getattr(c, "frame", "") == "normal"][:14]
    ydk = write_ydk(tmp_path / "modern.ydk", [c for f in filler for c in [f] * 3] + [900002])
    code, _, err = cli("deck", "import", ydk)
    assert code == 1 and "unknown passcode 900002" in err and "Traceback" not in err
