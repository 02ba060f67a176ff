"""An arena of hours survives an interruption: --out is written as duels finish, and the same
command with --resume plays only what the file does not hold (same duels, same figures)."""

from __future__ import annotations

import json

import pytest

ARENA = ["arena", "vanilla-beatdown", "--agents", "greedy", "--workers", "1", "--seed", "3"]


def outcomes(path):
    records = json.loads(path.read_text()) if path.suffix == ".json" else None
    if records is None:
        import csv

        records = list(csv.DictReader(path.open()))
    return [(int(r["number"]), r["winner"], int(r["turns"]), r["reason"]) for r in records]


@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_a_resumed_arena_plays_the_rest_and_ends_as_one_run(cli, tmp_path, suffix):
    whole, part = tmp_path / f"whole{suffix}", tmp_path / f"part{suffix}"
    code, full_report, err = cli(*ARENA, "--duels", "6", "--out", whole)
    assert code == 0, err
    code, _, err = cli(*ARENA, "--duels", "2", "--out", part)  # (as if stopped after 2 duels)
    assert code == 0, err
    code, report, err = cli(*ARENA, "--duels", "6", "--out", part, "--resume")
    assert code == 0, err
    said = " ".join(report.split())
    assert "resuming: 2 duels already in" in said and "4 to play" in said
    assert outcomes(part) == outcomes(whole)
    score = next(line for line in full_report.splitlines() if "score" in line)
    assert score in report  # the figures count all six duels


def test_resume_keeps_duels_beyond_duels_and_resume_without_a_file_starts_one(cli, tmp_path):
    path = tmp_path / "r.json"
    code, _, err = cli(*ARENA, "--duels", "4", "--out", path, "--resume")  # (no file yet: a new run)
    assert code == 0, err
    code, report, err = cli(*ARENA, "--duels", "1", "--out", path, "--resume")
    assert code == 0, err
    assert "3 duels beyond --duels 1 stay in the file" in " ".join(report.split()) and "— 1 duel," in report
    assert [n for n, *_ in outcomes(path)] == [0, 1, 2, 3]


def test_resume_refuses_another_arenas_file_and_says_where(cli, tmp_path):
    path = tmp_path / "r.json"
    assert cli(*ARENA, "--duels", "2", "--out", path)[0] == 0
    before = path.read_text()
    code, _, err = cli(*ARENA[:-1], "4", "--duels", "3", "--out", path, "--resume")  # (another --seed)
    said = " ".join(err.split())
    assert code == 2 and "r.json:2:0" in said and "matchup 0, duel 0 is another arena's: seed" in said
    assert "resume with the decks, agents and --seed of the run that wrote it" in said
    code, _, err = cli("arena", "vanilla-beatdown", "--agents", "random", "greedy", "--workers", "1", "--seed", "3",
                       "--duels", "3", "--out", path, "--resume")
    assert code == 2 and "agent A 'greedy', this arena's 'random'" in " ".join(err.split())
    assert path.read_text() == before  # nothing lost


@pytest.mark.parametrize("text, said", [
    ("[{\"matchup\": 0", "r.json:1:15 not JSON"),
    ("{}", "not an arena's results"),
    ("[\n{\"matchup\": 0, \"number\": 0}\n]", "r.json:2:0 [0] a duel's record lacks seed, a_deck"),
    ("[\n" + json.dumps({"matchup": 0, "number": "zero", "seed": 1, "a_deck": 0, "a_first": True, "winner": "A",
                         "turns": 3, "reason": "LP", "decisions": 9, "seconds": 0.1, "agent_a": "greedy",
                         "agent_b": "greedy", "deck_a": "d", "deck_b": "d"}) + "\n]", "[0].number 'zero' is not a whole number"),
])
def test_a_broken_results_file_is_named_with_its_line(cli, tmp_path, text, said):
    path = tmp_path / "r.json"
    path.write_text(text)
    code, out, err = cli(*ARENA, "--duels", "3", "--out", path, "--resume")
    assert code == 2 and said in " ".join((out + err).split()), err
    assert "Traceback" not in err and path.read_text() == text


def test_resume_needs_out(cli):
    code, _, err = cli(*ARENA, "--duels", "2", "--resume")
    assert code == 2 and "--resume goes on from the duels in an --out file" in err


def test_resume_refuses_a_deck_of_the_same_name_that_holds_other_cards(cli, tmp_path):
    from pathlib import Path

    deck = tmp_path / "mine.yaml"
    deck.write_text((Path(__file__).parent.parent / "decks" / "vanilla-beatdown.yaml").read_text())
    path = tmp_path / "r.csv"
    args = ["arena", deck, "--agents", "greedy", "--workers", "1", "--seed", "3", "--out", path]
    assert cli(*args, "--duels", "2")[0] == 0
    assert "digest_a" in path.read_text().splitlines()[0]
    text = deck.read_text()
    swapped = text.replace("Summoned Skull", "Baby Dragon", 1)
    assert swapped != text
    deck.write_text(swapped)
    code, _, err = cli(*args, "--duels", "4", "--resume")
    assert code == 2 and "the cards of mine" in " ".join(err.split()), err
    deck.write_text(text)  # (the deck as it was: the run goes on)
    assert cli(*args, "--duels", "4", "--resume")[0] == 0


def test_an_out_file_that_cannot_be_written_is_said_before_any_duel(cli, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    code, out, err = cli(*ARENA, "--duels", "2", "--out", blocker / "r.json")
    said = " ".join(err.split())
    assert code == 2 and "cannot write it" in said and "give a file in a folder you can write to" in said
    assert "score" not in out  # (no duel was played)


def test_a_write_that_fails_between_duels_is_said_once_and_the_duels_go_on(cli, tmp_path, monkeypatch):
    from ygoterm.cli import arena as arena_cli

    calls = []

    def flaky(path, text):
        calls.append(path)
        if len(calls) > 1:
            raise OSError(28, "No space left on device")
        path.write_text(text)

    monkeypatch.setattr(arena_cli, "write_atomically", flaky)
    monkeypatch.setattr(arena_cli._ResultsFile, "EVERY", 0.0)
    code, out, err = cli(*ARENA, "--duels", "4", "--out", tmp_path / "r.json")
    said = " ".join(err.split())
    assert code == 2 and said.count("No space left on device; the duels go on") == 1
    assert "does not hold every duel of this run" in said and "4 duels" in out and "score" in out


def test_verify_plays_a_files_first_duels_again_and_names_any_that_ends_otherwise(cli, tmp_path):
    """Before a run goes on after a change to the engine or the AI: do the file's duels still end as
    recorded? (docs/measurements/goat/README.md: a change that plays them otherwise starts the file again.)"""
    import csv

    path = tmp_path / "r.csv"
    assert cli(*ARENA, "--duels", "3", "--out", path)[0] == 0
    code, report, err = cli(*ARENA, "--out", path, "--verify", "2")
    assert code == 0, err
    assert "verified: 2 duels of" in " ".join(report.split())
    rows = list(csv.DictReader(path.open()))
    rows[1]["turns"] = str(int(rows[1]["turns"]) + 1)  # (as if this ygoterm played duel 1 a turn shorter)
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    before = path.read_text()
    code, report, err = cli(*ARENA, "--out", path, "--verify", "3")
    said = " ".join(report.split())
    assert code == 1, err
    assert "1 of 3 duels in" in said and "ends otherwise now" in said and f"0:1: turns {int(rows[1]['turns'])} → {int(rows[1]['turns']) - 1}" in said
    assert path.read_text() == before  # (--verify writes nothing)


@pytest.mark.parametrize("extra", [["--verify", "2"], ["--out", "r.csv", "--verify", "2", "--resume"],
                                   ["--out", "r.csv", "--verify", "0"]])
def test_verify_needs_an_out_file_and_goes_alone(cli, tmp_path, monkeypatch, extra):
    monkeypatch.chdir(tmp_path)
    code, _, err = cli(*ARENA, *extra)
    assert code == 2 and "--verify N plays again the first N" in " ".join(err.split()), err
