"""Where an internal error leaves the replay that reproduces it (for a bug report)."""

from __future__ import annotations

from pathlib import Path

from .engine.ops import EffectError
from .paths import user_home
from .schema.problems import is_digits


def write_bug_report(error: EffectError) -> Path | None:
    """Save the replay an EffectError carries as bugs/bug-N.json in the user folder; None if
    there is no replay or the folder is not writable (the error message still names the card)."""
    if error.record_json is None:
        return None
    folder = user_home() / "bugs"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        number = 1 + max((int(p.stem[4:]) for p in folder.glob("bug-*.json") if is_digits(p.stem[4:])), default=0)
        path = folder / f"bug-{number}.json"
        path.write_text(error.record_json, encoding="utf-8")
    except OSError:
        return None
    return path
