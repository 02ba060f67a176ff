"""Every scenario under tests/scenarios plays its script and meets its expectations."""

from pathlib import Path

import pytest

from ygoterm.scenarios import PoolCache, run, scenario_files

SCENARIOS = Path(__file__).parent / "scenarios"
PUZZLES = Path(__file__).parent.parent / "ygoterm" / "puzzles"
_POOLS = PoolCache()


@pytest.mark.parametrize("path", scenario_files([SCENARIOS, PUZZLES]), ids=lambda p: p.stem)
def test_scenario(path):
    result = run(path, _POOLS)
    assert result.passed, "\n".join(result.failures + ["log:"] + result.log_tail)


def test_every_scenario_names_the_rules_it_covers():
    from ygoterm.schema.scenario import read_scenario

    for path in scenario_files([SCENARIOS]):
        scenario, _, _ = read_scenario(path)
        assert scenario.rules_covered, f"{path.name} has no 'covers:' list"
        assert all(r.startswith("R-") for r in scenario.rules_covered)


def test_scenario_check_command_reports_a_diff(cli, tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text((SCENARIOS / "as-11-atk-vs-atk.yaml").read_text().replace("B: 7500", "B: 7400"))
    code, out, _ = cli("scenario", "check", broken)
    text = " ".join(out.split())
    assert code == 1
    assert "FAIL" in text and "B LP: expected 7400, found 7500" in text and "log (last lines)" in text
    code, out, _ = cli("scenario", "check", "-q", SCENARIOS)
    assert code == 0 and "0 failed" in out


def test_an_effect_bug_fails_the_scenario_with_the_card_named(cli, monkeypatch):
    from ygoterm.engine.effects import registry

    def broken(ctx, params, name):
        raise KeyError("simulated engine bug")
        yield

    monkeypatch.setitem(registry.VERBS, "damage", broken)
    code, out, _ = cli("scenario", "check", SCENARIOS / "cards" / "spells" / "sparks.yaml")
    text = " ".join(out.split())
    assert code == 1 and "internal error resolving Sparks" in text and "simulated engine bug" in text
