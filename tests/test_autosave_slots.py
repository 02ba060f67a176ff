"""Several ygoterms in one data dir: a browser tab of `ygoterm serve` keeps its own settings and
autosaves ($YGOTERM_SESSION), and a game holds the autosave it writes, so a second terminal's
game of the same kind takes the next one rather than overwriting it (paths.claim_autosave)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from tests.test_cli import _save as _duel_save

ROOT = Path(__file__).resolve().parent.parent

HOLDER = """
import sys, time
from pathlib import Path
from ygoterm import paths
print(paths.claim_autosave(Path(sys.argv[1]), sys.argv[2]), flush=True)
time.sleep(600)
"""


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("YGOTERM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("YGOTERM_SESSION", raising=False)
    return tmp_path / "home"


@contextmanager
def another_ygoterm_playing(folder: Path, kind: str) -> Iterator[Path]:
    """Another process holding the autosave a new game of `kind` takes in `folder`."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder), kind], stdout=subprocess.PIPE, text=True, env=env)
    try:
        yield Path(holder.stdout.readline().strip())
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()


def test_a_served_tab_keeps_its_own_settings_and_autosaves(home, monkeypatch):
    from ygoterm import paths
    from ygoterm.tui.presenters.settings import Settings, settings_path, saved_duels

    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"names": ["Ann", "Bob"]}))
    monkeypatch.setenv("YGOTERM_SESSION", "web-2")
    assert paths.autosave_dir() == home / "sessions" / "web-2" / "saves"
    assert paths.saves_dir() == home / "saves"  # named saves are shared
    assert settings_path() == home / "sessions" / "web-2" / "settings.json"
    settings = Settings.load()
    assert settings.names == ["Ann", "Bob"]  # a new tab starts from the user's settings …
    settings.names = ["Cid", "Dee"]
    assert settings.save() == ""
    assert json.loads((home / "settings.json").read_text())["names"] == ["Ann", "Bob"]  # … and keeps its changes
    assert Settings.load().names == ["Cid", "Dee"]
    _duel_save(home / "saves" / "shared.json")
    assert [p.name for p in saved_duels()] == ["shared.json"]
    monkeypatch.setenv("YGOTERM_SESSION", "../../elsewhere")
    assert paths.session_home().parent == home / "sessions"  # (a session name never leaves the folder)


def test_a_game_never_overwrites_an_autosave_another_process_holds(home):
    from ygoterm import paths
    from ygoterm.engine import load_duel
    from ygoterm.schema.cardpool import CardPool
    from ygoterm.tui.presenters.session import Seat, Session

    folder = paths.autosave_dir()
    with another_ygoterm_playing(folder, "hotseat") as theirs:
        assert theirs == folder / "autosave-hotseat.json"
        theirs.write_text("their duel")
        assert paths.held_elsewhere(theirs) and paths.next_autosave(folder, "hotseat").name == "autosave-hotseat-2.json"
        pool = CardPool.load(paths.card_dirs())
        session = Session.start(load_duel(_duel_save(home / "saves" / "start.json"), pool), pool, (Seat("Ann"), Seat("Bob")),
                                hot_seat=True)
        session.answer(session.duel.pending.options[0])
        assert session.autosave_file == folder / "autosave-hotseat-2.json" and session.autosave_file.is_file()
        assert theirs.read_text() == "their duel"
        assert [path.name for _, path in paths.autosaves()] == ["autosave-hotseat-2.json"]  # (theirs is being played)
    # they quit: their unfinished duel is there to resume, as ours is
    assert sorted(path.name for _, path in paths.autosaves()) == ["autosave-hotseat-2.json", "autosave-hotseat.json"]
    paths.release(session.autosave_file)


def test_an_autosave_another_process_plays_is_not_opened(home, cli):
    from ygoterm import paths

    with another_ygoterm_playing(paths.autosave_dir(), "solo") as theirs:
        _duel_save(theirs)
        code, _, err = cli("open", theirs)
    assert code == 2 and "this game is being played in another ygoterm" in " ".join(err.split())


def test_a_resumed_autosave_goes_on_in_its_own_file(home, cli, started):
    from ygoterm import paths

    folder = paths.autosave_dir()
    resumed = _duel_save(folder / "autosave-hotseat-2.json", seed=9)
    (folder / "autosave-hotseat.json").write_text("another unfinished duel")
    assert cli("open", resumed)[0] == 0
    session = started["screen"].session
    assert session.duel.record.seed == 9 and session.autosave_file == resumed
    session.answer(session.duel.pending.options[0])
    assert json.loads(resumed.read_text())["seed"] == 9
    assert (folder / "autosave-hotseat.json").read_text() == "another unfinished duel"
    paths.release(resumed)
