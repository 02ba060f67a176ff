"""The card view shows a Level, Type or Attribute an effect changed (batch v1: Cost Down, Dragonic Attack), and hides
the Level of a hand card from the opponent."""

from pathlib import Path

from ygoterm.scenarios import PoolCache, prepare
from ygoterm.tui.presenters.render import card_detail

V1 = Path(__file__).parent / "scenarios" / "goat" / "v1"


def test_a_type_changed_by_an_equip_card_is_in_the_view_and_the_detail_panel():
    _, d, pool = prepare(V1 / "dragonic-attack.yaml", PoolCache())
    d.apply("activate Dragonic Attack")
    d.apply("target Celtic Guardian")
    view = next(c for c in d.view(0).me.monsters if c is not None and c.name == "Celtic Guardian")
    assert (view.type, view.level, view.attribute) == ("Dragon", None, None)
    assert "Now Dragon-Type" in card_detail(pool, view).plain


def test_a_level_lowered_in_the_hand_is_shown_to_its_player_only():
    _, d, _ = prepare(V1 / "cost-down.yaml", PoolCache())
    d.apply("activate Cost Down")
    d.apply("discard Gemini Elf")
    mine = d.view(0).me.hand
    assert [(c.name, c.level) for c in mine] == [("Dark Witch", 3)]
    theirs = d.view(1).foe.hand
    assert [(c.name, c.level) for c in theirs] == [(None, None)]
