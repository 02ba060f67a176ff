"""`ygoterm cards draft`: a card's effects drafted from its text (ygoterm/schema/draft/)."""

import pytest

from ygoterm.schema.draft import check_card, draft, render
from ygoterm.schema.draft.effects import CardInfo
from ygoterm.schema.draft.phrases import modern

SPELL = ("spell", "normal", ())
TRAP = ("trap", "normal", ())
MONSTER = ("monster", None, ("effect",))

EXACT = [
    ("Target 1 monster on the field; destroy that target.", SPELL,
     [{"kind": "activate", "target": {"where": {"zone": "monster"}}, "do": [{"destroy": "target"}]}]),
    ("Draw 2 cards.", SPELL, [{"kind": "activate", "do": [{"draw": 2}]}]),
    ("FLIP: Destroy 1 monster on the field.", MONSTER,
     [{"kind": "flip", "do": [{"destroy": {"choose": {"where": {"zone": "monster"}}}}]}]),
    ("Inflict 800 damage to your opponent.", SPELL, [{"kind": "activate", "do": [{"damage": 800}]}]),
    ("Select 1 monster on the field and destroy it.", SPELL,  # 2005 wording: "select" on the field is a target
     [{"kind": "activate", "target": {"where": {"zone": "monster"}}, "do": [{"destroy": "target"}]}]),
    ("Gain 1000 Life Points.", SPELL, [{"kind": "activate", "do": [{"gain_lp": 1000}]}]),
    ("Destroy all Spells and Traps your opponent controls.", SPELL,
     [{"kind": "activate", "do": [{"destroy": {"all": {"zone": "spell", "side": "opponent"}}}]}]),
    ("Add 1 Level 4 or lower Warrior monster from your Deck to your hand.", SPELL,
     [{"kind": "activate", "do": [{"add_to_hand": {"choose": {"where": {"zone": "deck", "side": "you", "kind": "monster",
                                                                         "type": "Warrior", "level": "<=4"}}}}]}]),
    ("Target 1 face-up monster your opponent controls; take control of it until the End Phase.", SPELL,
     [{"kind": "activate", "target": {"where": {"zone": "monster", "side": "opponent", "face_up": True}},
       "do": [{"take_control": "target"}]}]),
    ("When a Spell Card is activated: Discard 1 card; negate the activation, and if you do, destroy it.", ("trap", "counter", ()),
     [{"kind": "activate", "when": {"event": "activated", "activated": "spell"}, "cost": [{"discard": 1}],
       "do": [{"negate": {"what": "activation", "destroy": True}}]}]),
    ("When an opponent's monster declares an attack: Target the attacking monster; negate the attack, and if you do, "
     "inflict damage to your opponent equal to its ATK.", TRAP,
     [{"kind": "activate", "when": {"event": "attack_declared", "subject": "opponent"},
       "target": {"where": {"zone": "monster", "side": "opponent", "attacking": True}},
       "do": [{"negate": "attack"}, {"if_you_do": [{"damage": {"amount": "atk_of", "of": "target"}}]}]}]),
    ("When this card is Normal Summoned: You can Special Summon 1 Level 4 or lower Warrior monster from your hand.", MONSTER,
     [{"kind": "trigger", "when": {"event": "normal_summoned"}, "timing": "when", "optional": True,
       "do": [{"special_summon": {"choose": {"where": {"zone": "hand", "side": "you", "kind": "monster", "type": "Warrior",
                                                         "level": "<=4"}}}}]}]),
    ("Once per turn: You can Tribute 1 monster; inflict 500 damage to your opponent.", MONSTER,
     [{"kind": "ignition", "once_per_turn": True, "cost": [{"send_to_gy": {"choose": {"where": {"zone": "monster", "side": "you"}}}}],
       "do": [{"damage": 500}]}]),
    ("Draw 3 cards, then discard 2 cards.", SPELL, [{"kind": "activate", "do": [{"draw": 3}, {"then": [{"discard": 2}]}]}]),
    ("All WIND monsters on the field gain 300 ATK.", ("spell", "field", ()),
     [{"kind": "activate"}, {"kind": "continuous", "continuous": {"applies_to": {"zone": "monster", "face_up": True, "attribute": "WIND"},
                                                                 "atk": 300}}]),
    ("The equipped monster gains 1000 ATK.", ("spell", "equip", ()),
     [{"kind": "activate", "target": {"where": {"zone": "monster", "face_up": True}}, "do": [{"equip": "target"}]},
      {"kind": "continuous", "continuous": {"applies_to": "equipped", "atk": 1000}}]),
    ("When this card is sent to the Graveyard as a result of battle, you can Special Summon 1 DARK monster with an ATK of 1500 "
     "or less in face-up Attack Position from your Deck. Then shuffle your Deck.", MONSTER,
     [{"kind": "trigger", "when": {"event": "destroyed_by_battle", "where": {"zone": "gy"}}, "timing": "when", "optional": True,
       "do": [{"special_summon": {"what": {"choose": {"where": {"zone": "deck", "side": "you", "kind": "monster", "attribute": "DARK",
                                                                 "atk": "<=1500"}}}, "position": "attack"}}]}]),
]


@pytest.mark.parametrize("text, card, effects", EXACT, ids=[t[:40] for t, _, _ in EXACT])
def test_a_text_drafts_to_exactly_these_effects(text, card, effects):
    kind, subtype, frames = card
    result = draft(text, kind, subtype, frames)
    assert result.effects == effects
    assert result.untranslated == []


def test_an_untranslatable_phrase_is_reported_verbatim_and_the_rest_is_drafted():
    result = draft("Draw 1 card. Each player sings a song of the sea.", "spell", "normal")
    assert result.effects == [{"kind": "activate", "do": [{"draw": 1}]}]
    assert result.untranslated == ["Each player sings a song of the sea."]
    text = render(result)
    assert "# TODO untranslated: Each player sings a song of the sea.\n" in text
    assert text.startswith("effects:\n- kind: activate\n  do:\n  - draw: 1\n")


def test_a_clause_no_verb_reads_is_reported_and_the_effect_keeps_the_others():
    result = draft("Target 1 monster on the field; destroy it, then juggle 3 pies.", "spell", "normal")
    assert result.effects == [{"kind": "activate", "target": {"where": {"zone": "monster"}}, "do": [{"destroy": "target"}]}]
    assert result.untranslated == ["juggle 3 pies"]


def test_card_level_sentences_become_keys_not_effects():
    result = draft("Cannot be Special Summoned. FLIP: Draw 1 card.", "monster", None, ["effect"])
    assert result.keys == {"no_special_summon": True}
    assert result.effects == [{"kind": "flip", "do": [{"draw": 1}]}]
    assert "no_special_summon: true" in render(result)


def test_2005_words_read_as_today_s():
    assert modern("Remove from play 1 card in your Graveyard.") == "banish 1 card in your GY."
    assert modern("Offer 1 monster as a Tribute to draw 1 card from the Fusion Deck") == \
        "Tribute 1 monster to draw 1 card from the Extra Deck"
    assert modern("1 Machine-Type monster with a DEF of 1500 or less") == "1 Machine monster with 1500 or less DEF"


def test_every_shipped_card_text_drafts_to_a_valid_card(pool):
    """Blind drafts of every card in the pool (today's and 2005 texts) validate: no exception,
    and the card model accepts the drafted effects."""
    drafted = 0
    for card in pool:
        texts = [card.text] + ([card.goat.text] if card.goat is not None else [])
        for text in texts:
            if not text:
                continue
            result = draft(text, card.kind, getattr(card, "subtype", None), sorted(getattr(card, "frames", ())))
            check_card(result, CardInfo(card.kind, getattr(card, "subtype", None), frozenset(getattr(card, "frames", ()))))
            drafted += bool(result.effects)
    assert drafted > 300  # most texts give at least one effect


# ---------------------------------------------------------------------- the command


def test_cards_draft_prints_the_yaml_of_a_pool_card(cli):
    code, out, _ = cli("cards", "draft", "Man-Eater", "Bug")
    assert code == 0
    assert out.startswith("effects:\n- kind: flip\n  target:\n    where:\n      zone: monster\n  do:\n  - destroy: target\n")
    assert "# drafted 1 effect from Man-Eater Bug; 0 untranslated phrases" in out


def test_cards_draft_goat_drafts_the_2005_text(cli):
    code, out, _ = cli("cards", "draft", "Mystic Tomato", "--goat")
    assert code == 0 and "(2005 text)" in out
    assert "event: destroyed_by_battle" in out and "attribute: DARK" in out and "atk: <=1500" in out


def test_cards_draft_text_with_untranslated_phrases(cli):
    code, out, _ = cli("cards", "draft", "--text", "Draw 2 cards. Whistle.", "--kind", "spell")
    assert code == 0
    assert "- draw: 2" in out and "# TODO untranslated: Whistle.\n" in out
    assert "1 untranslated phrase" in out


def test_cards_draft_unknown_name_suggests_and_exits_2(cli):
    code, out, err = cli("cards", "draft", "Man-Eater", "Bugg")
    assert code == 2 and out == ""
    assert "no card named 'Man-Eater Bugg'" in err and "did you mean 'Man-Eater Bug'" in err


def test_cards_draft_needs_a_name_or_a_text(cli):
    code, _, err = cli("cards", "draft")
    assert code == 2 and "--text" in err
    code, _, err = cli("cards", "draft", "--text", "Draw 1 card.", "--kind", "trap", "--subtype", "field")
    assert code == 2 and "not a trap subtype" in err
