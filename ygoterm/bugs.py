"""Where an internal error leaves the replay that reproduces it (for a bug report)."""

from __future__ import annotations

from pathlib import Path

from .engine import EffectError
from .paths import user_home
from .schema.problems import is_digits


def write_bug_report(error: EffectError) -> Path | None:
    """Save the replay an EffectError carries as bugs/bug-N.json in the user folder; None if
    there is no replay or the folder is not writable (the error message still names the card)."""
    if error.record_json is None:
        return None
    return write_report(error.record_json, str(error))


def write_report(replay_json: str | None, detail: str) -> Path | None:
    """bugs/bug-N.json (the replay: `ygoterm open` plays it up to the failure) and bug-N.txt (what
    went wrong, e.g. a traceback) in the user folder; the path of the replay (of the text when
    there is no replay), or None if the folder is not writable."""
    folder = user_home() / "bugs"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        number = 1 + max((int(p.stem[4:]) for p in folder.glob("bug-*.*") if is_digits(p.stem[4:])), default=0)
        text = folder / f"bug-{number}.txt"
        text.write_text(detail, encoding="utf-8")
        if replay_json is None:
            return text
        path = folder / f"bug-{number}.json"
        path.write_text(replay_json, encoding="utf-8")
    except OSError:
        return None
    return path
