""""Activate 1 of these effects" (`one_of`): an effect that could do nothing now is not offered
(R-CHAIN-6), and the question says which one is missing and why — Don Zaloog's battle damage
against an empty hand (tests/scenarios/cards/don-zaloog-empty-hand.yaml plays the same duel)."""

from pathlib import Path

import pytest

from ygoterm.engine.core.decision import IllegalChoice
from ygoterm.scenarios import PoolCache, prepare

SCENARIO = Path(__file__).parent / "scenarios" / "cards" / "don-zaloog-empty-hand.yaml"


def _at_the_choice():
    _, duel, _ = prepare(SCENARIO, PoolCache())
    for command in ("battle", "attack Don Zaloog -> direct", "yes"):
        duel.apply(command)
    return duel


def test_the_question_names_the_effect_left_out_and_why():
    duel = _at_the_choice()
    decision = duel.pending
    assert [o.label for o in decision.options] == ["send the top 2 cards of their Deck to the GY"]
    assert decision.prompt == ('Don Zaloog: which effect? (not "discard 1 random card from their hand": '
                               "there are not enough cards in hand to discard, R-CHAIN-6)")


def test_the_effect_left_out_typed_anyway_is_refused_with_the_rule_and_nothing_changes():
    duel = _at_the_choice()
    before = len(duel.log)
    with pytest.raises(IllegalChoice) as refused:
        duel.apply("discard 1 random card from their hand")
    assert refused.value.rule == "R-CHAIN-6"
    assert "not enough cards in hand to discard" in refused.value.message
    assert len(duel.log) == before and duel.pending.prompt.startswith("Don Zaloog: which effect?")
