"""Card effects are checked when the file loads: typos never surprise a duel."""

from pathlib import Path

import pytest

from ygoterm.schema.cardpool import CardPool
from ygoterm.schema.problems import DataError

HEAD = "- id: 1\n  name: Bad FX\n  kind: spell\n  effects:\n    - kind: activate\n"


def errors(tmp_path: Path, body: str) -> str:
    path = tmp_path / "fx.yaml"
    path.write_text(HEAD + body)
    with pytest.raises(DataError) as info:
        CardPool.load([], files=[path], use_cache=False)
    return str(info.value)


def test_unknown_operation_suggests_the_nearest(tmp_path):
    text = errors(tmp_path, "      do: [{destory: target}]\n")
    assert "fx.yaml:6:12  [0].effects[0].do[0]  unknown operation 'destory'  (did you mean 'destroy'?)" in text


def test_wrong_parameter_type(tmp_path):
    assert "do[0].count  expected a whole number, found 'two'" in errors(tmp_path, "      do: [{draw: {count: two}}]\n")


def test_impossible_filter(tmp_path):
    text = errors(tmp_path, "      target: {where: {zone: monster, level: '5-3'}}\n      do: [{destroy: target}]\n")
    assert "target.where.level  this range can never match: 5 is more than 3" in text


def test_unknown_filter_word(tmp_path):
    text = errors(tmp_path, "      target: {where: {zone: monstr}}\n      do: [{destroy: target}]\n")
    assert "'monstr' is not allowed here  (did you mean 'monster'?)" in text


def test_cost_without_a_payer(tmp_path):
    text = errors(tmp_path, "      cost: [{pay_lp: {amount: 500, player: opponent}}]\n      do: [{draw: 1}]\n")
    assert "a cost is paid by the player who activates (R-TERM-4)" in text


def test_an_operation_that_cannot_be_a_cost(tmp_path):
    assert "'draw' cannot be a cost" in errors(tmp_path, "      cost: [{draw: 1}]\n      do: [{draw: 1}]\n")


def test_unknown_handler(tmp_path):
    assert "no handler named 'nope'" in errors(tmp_path, "      do: [{handler: nope}]\n")


def test_continuous_needs_its_part(tmp_path):
    text = errors(tmp_path, "    - kind: continuous\n")
    assert "a continuous effect needs 'continuous: {…}'" in text


def test_trigger_needs_an_event(tmp_path):
    assert "a trigger effect needs 'when: EVENT'" in errors(tmp_path, "    - kind: trigger\n      do: [{draw: 1}]\n")
