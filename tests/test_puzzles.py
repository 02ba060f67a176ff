"""The shipped puzzles: each states a goal, its solution reaches it (tests/test_scenarios.py runs
them), the obvious wrong line misses it, and the AI opponent of a "survive" puzzle plays the same
moves in `scenario check` as on the screen. The TUI says "Puzzle solved" / "not solved"."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from ygoterm.scenarios import PoolCache, run, scenario_files
from ygoterm.schema.scenario import read_scenario

PUZZLES = Path(__file__).parent.parent / "ygoterm" / "puzzles"
_POOLS = PoolCache()

# The line a player tries first, which must not solve the puzzle (else it is no puzzle).
WRONG_LINES = {
    "survive-jinzo": ["pass", "pass", "activate Book of Moon", "target Vorse Raider"],  # Jinzo still attacks
    # Sakuretsu Armor on the first attacker, then the tokens: Spear Dragon pierces one
    "survive-piercing-dragon": ["pass", "pass", "activate Sakuretsu Armor", "target Summoned Skull", "pass", "activate Scapegoat"],
    "survive-four-attackers": ["activate Magic Cylinder", "target Summoned Skull", "pass", "pass", "pass", "activate Kuriboh"],  # no LP gained in time
    # burn first, keep the rest: 2100 LP left (the opponent's deck-out next turn is no solution)
    # Blue-Eyes, taken with Change of Heart, attacks into the Magic Cylinder the AI holds
    "the-cylinder-you-saw": ["activate Change of Heart", "target Blue-Eyes White Dragon", "pass", "battle", "pass",
                             "attack Blue-Eyes White Dragon -> direct", "pass", "pass"],
    # Celtic Guardian before the Storm: the AI's Trap Hole takes it, 1400 LP short
    "their-backrow-counts": ["flip Princess of Tsurugi", "summon Celtic Guardian", "activate Heavy Storm", "battle",
                             "attack Gemini Elf -> direct", "attack Princess of Tsurugi -> direct", "main2", "end"],
    "lethal-with-rush": ["activate Ookazi", "pass", "activate Sparks", "pass", "end", "pass"],
}


def _with_script(path: Path, tmp_path: Path, script: list[str]) -> Path:
    """A copy of the puzzle with another script and no expectations but its goal."""
    yaml = YAML(typ="safe")
    data = yaml.load(path.read_text())
    data["script"] = script
    data.pop("expect", None)
    copy = tmp_path / path.name
    with copy.open("w") as f:
        yaml.dump(data, f)
    return copy


def test_there_are_at_least_eight_puzzles_each_with_a_goal_and_a_task():
    files = scenario_files([PUZZLES])
    assert len(files) >= 8
    for path in files:
        scenario, _, _ = read_scenario(path)
        assert scenario.goal in ("win", "survive"), f"{path.name}: no goal"
        assert len(scenario.description) > 60, f"{path.name}: the task is not told"
        assert scenario.script, f"{path.name}: no solution"
    goals = {read_scenario(p)[0].goal for p in files}
    assert goals == {"win", "survive"}


@pytest.mark.parametrize("name", sorted(WRONG_LINES))
def test_the_obvious_line_misses_the_goal(name, tmp_path):
    result = run(_with_script(PUZZLES / f"{name}.yaml", tmp_path, WRONG_LINES[name]), _POOLS)
    assert any("is missed" in f for f in result.failures), result.failures + result.log_tail


def test_a_puzzle_left_open_is_not_solved(tmp_path):
    result = run(_with_script(PUZZLES / "survive-jinzo.yaml", tmp_path, ["pass", "pass"]), _POOLS)
    assert result.failures == ["the puzzle's goal (survive this turn) is not reached yet: it is still turn 4"]


def test_the_ai_opponent_plays_the_same_moves_every_time(tmp_path):
    """Its seed comes from the duel's (agents.seat_seed), so a solution stays a solution."""
    logs = []
    for _ in range(2):
        result = run(PUZZLES / "survive-piercing-dragon.yaml", PoolCache())
        assert result.passed
        assert result.duel is not None
        logs.append([e.text(result.duel.names) for e in result.duel.log])
    assert logs[0] == logs[1]
    assert "Spear Dragon attacks Sheep Token" in " ".join(logs[0])


# ---------------------------------------------------------------------- on the screen


async def _answer(pilot, app, label: str) -> None:
    """Wait for the AI's moves until a question offers `label`, then choose it."""
    from ygoterm.tui.widgets.questions import ChoicePrompt, open_question

    for _ in range(400):
        await pilot.pause(0.02)
        question = open_question(app)
        if isinstance(question, ChoicePrompt) and any(o.label.startswith(label) for o in question.options):
            break
    else:
        raise AssertionError(f"never asked to {label!r}")
    index = next(i for i, o in enumerate(question.options) if o.label.startswith(label))
    await pilot.press("home", *["down"] * index, "enter")


async def _told(pilot, app, heading: str):
    from ygoterm.tui.screens.dialogs import DuelOverScreen

    for _ in range(400):
        await pilot.pause(0.02)
        if isinstance(app.screen, DuelOverScreen):
            assert app.screen.heading == heading, app.screen.outcome
            return app.screen
    raise AssertionError(f"never told {heading!r}")


async def test_a_survive_puzzle_against_the_ai_is_told_missed_then_solved(pool, tmp_path, monkeypatch):
    from ygoterm import paths
    from ygoterm.tui.app import YgoApp
    from ygoterm.tui.screens.duel import DuelScreen

    monkeypatch.setenv("YGOTERM_HOME", str(tmp_path / "home"))
    app = YgoApp(pool, paths.deck_dirs(), start=lambda app: app.puzzle_screen(PUZZLES / "survive-piercing-dragon.yaml"))
    app.settings.ai_pause = 0
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # the task
        screen = app.screen
        assert isinstance(screen, DuelScreen)
        assert screen.session.seats[1].kind == "ai:hard"
        # Sakuretsu Armor on the first attacker, Scapegoat after it: Spear Dragon pierces a token.
        await _answer(pilot, app, "pass")
        await _answer(pilot, app, "pass")
        await _answer(pilot, app, "activate Sakuretsu Armor")
        await _answer(pilot, app, "Summoned Skull")
        await _answer(pilot, app, "pass")
        await _answer(pilot, app, "activate Scapegoat")
        told = await _told(pilot, app, "Puzzle not solved")
        assert "Player 2 wins" in told.outcome
        await pilot.press("r")  # try again: the same position, the same opponent
        await pilot.pause()
        duel = screen.session.duel
        assert duel.players[0].lp == 1500 and duel.turn == 4
        await _answer(pilot, app, "pass")
        await _answer(pilot, app, "activate Scapegoat")  # four tokens before the first attack
        await _answer(pilot, app, "activate Sakuretsu Armor")  # Spear Dragon attacks a token
        await _answer(pilot, app, "Spear Dragon")
        told = await _told(pilot, app, "Puzzle solved")
        assert told.outcome == "You made it through the turn with 1500 LP."
        assert screen.session.duel.turn == 5
