"""Card files: the schema, error messages with file:line:col, duplicates, the cache."""

from pathlib import Path

import pytest

from ygoterm.schema.cardpool import CardPool
from ygoterm.schema.cards import FIXTURE_PASSCODES, Monster
from ygoterm.schema.problems import DataError

GOOD = """\
- id: 89631139
  name: Blue-Eyes White Dragon
  kind: monster
  frame: normal
  attribute: light
  type: dragon
  level: 8
  atk: 3000
  def: 2500
- id: 44508094
  name: Stardust Dragon
  kind: monster
  frame: synchro+effect
  attribute: WIND
  type: Dragon
  level: 8
  atk: 2500
  def: 2000
  materials: 1 Tuner + 1+ non-Tuner monsters
- id: 5318639
  name: Mystical Space Typhoon
  kind: spell
  subtype: quick-play
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def load_errors(*paths: Path) -> list[str]:
    with pytest.raises(DataError) as info:
        CardPool.load([], files=paths, use_cache=False)
    return [str(p) for p in info.value.problems]


def test_good_cards_load_and_normalise(tmp_path):
    pool = CardPool.load([], files=[write(tmp_path, "good.yaml", GOOD)], use_cache=False)
    bewd = pool.get("blue-eyes white dragon")
    assert isinstance(bewd, Monster) and bewd.attribute == "LIGHT" and bewd.type == "Dragon"
    assert pool.get(89631139) is bewd and pool.get("89631139") is bewd
    stardust = pool.get("Stardust Dragon")
    assert stardust.is_extra_deck and stardust.needs_proper_summon
    groups = stardust.materials.groups
    assert (groups[0].tuner, groups[0].min, groups[0].max) == (True, 1, 1)
    assert (groups[1].tuner, groups[1].min, groups[1].max) == (False, 1, None)
    assert pool.get("Mystical Space Typhoon").subtype == "quick-play"


def test_every_error_of_a_file_is_reported_with_position_and_hint(tmp_path):
    bad = write(tmp_path, "bad.yaml", """\
- id: 1
  name: Bad One
  kind: monster
  frame: efect
  attribute: DARKK
  type: Dragn
  level: 4
  atkk: 100
  def: 10
- id: 2
  name: Bad Two
  kind: spel
""")
    errors = load_errors(bad)
    text = "\n".join(errors)
    assert "bad.yaml:4:10  [0].frame  'efect' is not a known frame  (did you mean 'effect'?)" in text
    assert "bad.yaml:5:14  [0].attribute  'DARKK' is not a known Attribute  (did you mean 'DARK'?)" in text
    assert "bad.yaml:6:9  [0].type  'Dragn' is not a known monster Type  (did you mean 'Dragon'?)" in text
    assert "bad.yaml:8:3  [0].atkk  unknown field 'atkk'  (did you mean 'atk'?)" in text
    assert "[1]  unknown kind 'spel'" in text
    assert len(errors) >= 6


def test_rank_level_and_link_consistency(tmp_path):
    bad = write(tmp_path, "xyz.yaml", """\
- id: 7
  name: Odd Xyz
  kind: monster
  frame: xyz
  attribute: LIGHT
  type: Warrior
  level: 4
  atk: 2500
  def: 2000
""")
    (error,) = load_errors(bad)
    assert "an Xyz monster needs 'rank'" in error and "R-CARD-4" in error and "xyz.yaml:1:" in error


def test_duplicate_ids_and_names_across_files_name_both_places(tmp_path):
    a = write(tmp_path, "a.yaml", GOOD)
    b = write(tmp_path, "b.yaml", """\
- id: 89631139
  name: Copy of Blue-Eyes
  kind: spell
- id: 123
  name: mystical space typhoon
  kind: trap
""")
    errors = load_errors(a, b)
    assert any("b.yaml:1:3" in e and "duplicate id 89631139" in e and "a.yaml:1" in e for e in errors)
    assert any("b.yaml:5:3" in e and "duplicate name" in e and "a.yaml:21" in e for e in errors)


def test_treated_as_must_name_a_known_card(tmp_path):
    bad = write(tmp_path, "t.yaml", GOOD + """\
- id: 9
  name: Dragon 1
  treated_as: Blue Eyes White Dragon
  kind: spell
""")
    (error,) = load_errors(bad)
    assert "'Blue Eyes White Dragon' is not a known card" in error and "did you mean 'Blue-Eyes White Dragon'" in error


def test_cache_gives_identical_cards(tmp_path, monkeypatch):
    monkeypatch.setenv("YGOTERM_CACHE", str(tmp_path / "cache"))
    path = write(tmp_path, "good.yaml", GOOD)
    cold = CardPool.load([], files=[path])
    assert list((tmp_path / "cache").rglob("*.json")), "the first load writes the cache"
    warm = CardPool.load([], files=[path])
    assert [c.model_dump() for c in cold] == [c.model_dump() for c in warm]
    assert cold.digest == warm.digest


def test_a_warm_pool_validates_only_the_cards_used(tmp_path, monkeypatch):
    """A 200,000-card import made every command validate every card again (5 s, 800 MB for
    `cards show`): from the cache a card stays its JSON until it is used."""
    monkeypatch.setenv("YGOTERM_CACHE", str(tmp_path / "cache"))
    path = write(tmp_path, "good.yaml", GOOD)
    cold = CardPool.load([], files=[path])
    warm = CardPool.load([], files=[path])
    assert len(warm) == 3 and warm.names() == {"Blue-Eyes White Dragon", "Stardust Dragon", "Mystical Space Typhoon"}
    assert all(isinstance(raw, bytes) for raw in warm.by_id._cards.values())
    assert warm.get("stardust dragon") == cold.get("Stardust Dragon")
    assert [type(raw).__name__ for raw in warm.by_id._cards.values()] == ["bytes", "Monster", "bytes"]
    assert warm.get(5318639) is warm.get("Mystical Space Typhoon"), "validated once, then kept"


def test_every_shipped_card_survives_the_cache_unchanged(pool):
    """The cache stores a card without its default values: reading it back gives the same card."""
    from ygoterm.schema.cards import card_adapter

    for card in pool:
        assert card_adapter.validate_json(card_adapter.dump_json(card, by_alias=True, exclude_defaults=True)) == card, card.name


def test_a_damaged_cache_is_read_again_from_the_card_file(tmp_path, monkeypatch):
    monkeypatch.setenv("YGOTERM_CACHE", str(tmp_path / "cache"))
    path = write(tmp_path, "good.yaml", GOOD)
    cold = CardPool.load([], files=[path])
    (cache,) = (tmp_path / "cache").rglob("*.json")
    index, first, second, third = cache.read_bytes().split(b"\n")
    for damaged in (b"\n".join([index, second, first, third]),  # two cards' JSON swapped
                    b"\n".join([index, b'{"id": 89631139, "kind": "trap"', second, third])):  # one cut short
        cache.write_bytes(damaged)
        warm = CardPool.load([], files=[path])
        assert [warm.get(c.id) for c in cold] == list(cold)
        assert cache.read_bytes().split(b"\n")[1:] == [first, second, third], "the cache is written afresh"


def test_changed_file_is_not_served_from_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("YGOTERM_CACHE", str(tmp_path / "cache"))
    path = write(tmp_path, "good.yaml", GOOD)
    CardPool.load([], files=[path])
    path.write_text(GOOD.replace("atk: 3000", "atk: 3100"))
    assert CardPool.load([], files=[path]).get("Blue-Eyes White Dragon").atk == 3100


def test_shipped_pool_is_valid_and_large_enough(pool):
    shipped = [c for c in pool if c.id not in FIXTURE_PASSCODES]
    assert len(shipped) >= 150
    for name in ("Blue-Eyes White Dragon", "Summoned Skull", "Gemini Elf", "Luster Dragon", "Alexandrite Dragon",
                 "Celtic Guardian", "Mystical Elf", "Giant Soldier of Stone", "Man-Eater Bug", "Stardust Dragon",
                 "Number 39: Utopia"):
        assert pool.get(name) is not None, name
    fixtures = {"Blue-Eyes White Dragon": (8, 3000, 2500), "Summoned Skull": (6, 2500, 1200), "Gemini Elf": (4, 1900, 900),
                "Luster Dragon": (4, 1900, 1600), "Alexandrite Dragon": (4, 2000, 100), "Celtic Guardian": (4, 1400, 1200),
                "Mystical Elf": (4, 800, 2000), "Giant Soldier of Stone": (3, 1300, 2000), "Man-Eater Bug": (2, 450, 600)}
    for name, stats in fixtures.items():
        card = pool.get(name)
        assert (card.level, card.atk, card.def_) == stats, name


def test_other_names_resolve_to_the_card_and_never_shadow_a_real_name(tmp_path):
    """`aka`: Different Dimension Capsule is also "Time Capsule" (its OCG name); a card whose
    own name is "Time Capsule" would still win, and it is not a duplicate."""
    from ygoterm import paths
    from ygoterm.schema.cardpool import CardPool

    pool = CardPool.load(paths.card_dirs(), use_cache=False)
    assert pool.get("time capsule").name == "Different Dimension Capsule"
    assert pool.get(11961740).name == "Different Dimension Capsule"
    assert pool.get(81670445) is None  # Time Thief Hack, not in the pool
    own = tmp_path / "mine.yaml"
    own.write_text("- id: 999001\n  name: Time Capsule\n  kind: spell\n  text: mine\n")
    mine = CardPool.load([*paths.card_dirs(), tmp_path], use_cache=False)
    assert mine.get("Time Capsule").id == 999001


def test_a_flip_effect_needs_the_flip_ability(tmp_path):
    from ygoterm.schema.cardpool import CardPool
    from ygoterm.schema.problems import DataError

    bad = tmp_path / "bad.yaml"
    bad.write_text("- id: 999002\n  name: Flipper\n  kind: monster\n  frame: effect\n  attribute: EARTH\n  type: Insect\n"
                   "  level: 2\n  atk: 100\n  def: 100\n  effects:\n  - kind: flip\n    do: [{draw: 1}]\n")
    with pytest.raises(DataError) as e:
        CardPool.load([tmp_path], use_cache=False)
    assert "abilities: [flip]" in str(e.value)
