"""`ygoterm arena --gauntlet FIELD DECK` (issue #40): one deck against every deck of a field, one
agent on both sides, the deck always the one under test; a table per matchup, overall, a chart."""

from __future__ import annotations

import json
import shutil

import pytest

from ygoterm import paths
from ygoterm.analysis.arena import Arena, run, schedule, summarize
from ygoterm.analysis.gauntlet import Standing, matchups
from ygoterm.tui.presenters.gauntlet import standing_chart
from ygoterm.schema.decks import find_deck

FIELD = ("joey-warriors", "kaiba-dragons", "mai-harpies")


@pytest.fixture
def field(tmp_path):
    folder = tmp_path / "field"
    folder.mkdir()
    for name in FIELD:
        shutil.copy(find_deck(name, paths.deck_dirs()), folder)
    return folder


def _opponents(output: str) -> list[str]:
    """The table's opponent column (a row may wrap onto a second line)."""
    cells = [line.split("│")[2].strip() for line in output.splitlines() if line.count("│") > 3]
    return [cell for cell in cells if cell]


def test_the_deck_under_test_always_sits_with_agent_a_and_going_first_alternates():
    ms = matchups("yugi-spellcasters", list(FIELD), "greedy")
    tasks = schedule(ms, 4, seed=2)
    assert {t.a_deck for t in tasks} == {0}
    assert [t.a_first for t in tasks[:4]] == [True, False, True, False]
    assert [m.decks for m in ms] == [("yugi-spellcasters", name) for name in FIELD]


def test_the_standing_is_the_same_on_any_number_of_workers(pool):
    files = {n: find_deck(n, paths.deck_dirs()) for n in ("yugi-spellcasters", *FIELD)}
    ms = matchups("yugi-spellcasters", list(FIELD), "greedy")
    arena = Arena(paths.card_dirs(), [], files, ms)
    tasks = schedule(ms, 6, seed=4)
    strip = lambda rs: [(r.matchup, r.number, r.seed, r.a_first, r.winner, r.turns, r.decisions) for r in rs]
    one, two = run(arena, tasks, workers=1), run(arena, tasks, workers=2)
    assert strip(one) == strip(two)
    standing = Standing("yugi-spellcasters", summarize(ms, one))
    overall = standing.overall
    assert overall.duels == 18 and overall.wins + overall.losses + overall.draws == 18
    assert overall.wins == sum(1 for r in one if r.winner == "A")
    assert standing.side(True).duels == standing.side(False).duels == 9


def test_the_gauntlet_prints_a_row_per_opponent_and_the_overall(cli, field):
    args = ["arena", "--gauntlet", field, "yugi-spellcasters", "--agents", "greedy", "--duels", "4", "--seed", "1"]
    code, output, errors = cli(*args, "--workers", "1")
    assert code == 0, output + errors
    assert _opponents(output) == [*FIELD, "overall"]
    assert "greedy on both sides, 4 duels per matchup" in " ".join(output.split())
    assert cli(*args, "--workers", "2")[1] == output  # the same table whatever the workers


def test_the_mirror_is_a_matchup_and_a_changed_copy_is_told_apart(cli, field, tmp_path):
    code, output, _ = cli("arena", "--gauntlet", field, field / "kaiba-dragons.yaml", "--agents", "random", "--duels", "2")
    assert code == 0 and _opponents(output) == [*FIELD, "overall"] and "kaiba-dragons against the" in output
    mine = tmp_path / "kaiba-dragons.yaml"  # (the user's own version of a field deck: same file name)
    mine.write_text((field / "kaiba-dragons.yaml").read_text().replace("Battle Ox: 2", "Battle Ox: 1\n  Gemini Elf: 1"))
    code, output, _ = cli("arena", "--gauntlet", field, mine, "--agents", "random", "--duels", "2", "--out", tmp_path / "r.json")
    assert code == 0 and "kaiba-dragons (tested) against the" in " ".join(output.split())
    assert {r["deck_a"] for r in json.loads((tmp_path / "r.json").read_text())} == {"kaiba-dragons (tested)"}


def test_the_plot_draws_a_bar_per_opponent(cli, field):
    code, output, _ = cli("arena", "--gauntlet", field, "yugi-spellcasters", "--agents", "greedy", "--duels", "4", "--plot")
    assert code == 0
    bars = [line for line in output.splitlines() if "┤" in line and "█" in line]
    assert [line.split()[0] for line in bars] == list(reversed(FIELD)) or [line.split()[0] for line in bars] == list(FIELD)
    assert "\x1b[" not in output  # (not a terminal: no colour codes)


def test_the_chart_labels_carry_the_rate_and_its_interval():
    from ygoterm.analysis.arena import Summary

    ms = matchups("mine", ["a", "b"], "greedy")
    standing = Standing("mine", [Summary(m) for m in ms])
    standing.rows[0].total.duels, standing.rows[0].total.wins = 10, 7
    standing.rows[1].total.duels, standing.rows[1].total.wins = 10, 2
    text = standing_chart(standing, width=80).plain
    assert "a 70% [40%–89%]" in text and "b 20% [6%–51%]" in text and "mine · overall 45%" in text


def test_every_bar_is_on_its_own_row_on_a_0_to_100_scale():
    """Sixteen opponents: one row a bar, each as long as its score on the 0–100% scale (plotext's bars drifted off
    their labels' rows beyond about ten)."""
    from ygoterm.analysis.arena import Summary

    field = [f"deck{i:02}" for i in range(16)]
    standing = Standing("mine", [Summary(m) for m in matchups("mine", field, "greedy")])
    for i, row in enumerate(standing.rows):
        row.total.duels, row.total.wins = 20, i + 2
    lines = standing_chart(standing, width=80).plain.splitlines()
    bars = [line for line in lines if "┤" in line]
    assert [line.split()[0] for line in bars] == field
    area = len(lines[-2]) - lines[-2].index("└") - 1
    for i, line in enumerate(bars):
        assert line.split("┤")[1] == "█" * round((i + 2) / 20 * area)
    assert lines[-1].split() == ["0", "25", "50", "75", "100"] and max(map(len, lines)) <= 80


@pytest.mark.parametrize("extra, message", [
    (["kaiba-dragons", "--duels", "2"], "--gauntlet plays one deck against the field; 2 decks given"),
    (["--agents", "ai:easy", "greedy"], "one agent plays both sides"),
    (["--gauntlet", "nowhere"], "--gauntlet nowhere: no such field of decks"),
])
def test_gauntlet_mistakes_are_usage_errors(cli, field, extra, message):
    args = ["arena", "--gauntlet", field, "yugi-spellcasters", *extra]
    code, output, errors = cli(*args)
    assert code == 2 and message in " ".join((output + errors).split())


def test_plot_without_a_gauntlet_is_a_usage_error(cli):
    code, output, errors = cli("arena", "kaiba-dragons", "--agents", "random", "--duels", "2", "--plot")
    assert code == 2 and "--plot draws a gauntlet's win rates" in output + errors
