"""The type hints hold: mypy with the project's settings (pyproject.toml: strict for the engine
and the agents, default elsewhere) finds no error. The README's test command runs it, so CI does."""

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_error(monkeypatch):
    monkeypatch.chdir(ROOT)
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml")])
    assert status == 0, out + err
