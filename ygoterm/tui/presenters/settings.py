"""The player's settings file and the lists the menu shows of saves and puzzles.

Read before the card pool is loaded (tui/pool_loader.py): nothing here imports the card
schema or the engine."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ... import paths
from ...paths import is_autosave
from ...schema.jsonio import loads
from ...schema.problems import DataError, display_path
from ...schema.report import problems_from
from ...schema.rules import DuelRules, Rules
from ...schema.yamlio import Locator, read_text, write_atomically


PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


class _SettingsFile(BaseModel):
    """settings.json as written by `Settings.save`; anything else is refused with its place."""

    model_config = ConfigDict(extra="ignore")
    names: tuple[Annotated[str, Field(min_length=1, max_length=40)], Annotated[str, Field(min_length=1, max_length=40)]] = ("Player 1", "Player 2")
    prompts: tuple[Literal["always", "auto", "never"], Literal["always", "auto", "never"]] = ("always", "always")
    starting_lp: Literal[8000, 4000, 2000] = 8000
    auto_continue: Literal[0, 2, 4] = 0  # hot-seat "Anyone responding?": continue by itself after N seconds (0: off)
    solo_prompt: Literal["always", "auto", "never"] = "auto"  # your response prompts in solo, vs the AI and in matches vs the AI
    table_asks: Literal["events", "every"] = "events"  # hot-seat "Anyone responding?": where something happened, or at every window
    go_first: Literal["ask", "always"] = "ask"  # playing alone: the coin-toss winner chooses (R-SETUP-3), or you always go first
    ai_pause: Annotated[float, Field(ge=0, le=2)] = 0.3  # seconds each move of the AI's stays on screen before its next


def settings_path() -> Path:
    """settings.json in the user data dir, or a session's own (paths.session_home: a browser tab
    of `ygoterm serve`); the CLI names it where a setting supplies a default."""
    return paths.session_home() / "settings.json"


@dataclass
class Settings:
    """What the player chose in Settings (saved in the user data dir)."""

    names: list[str] = field(default_factory=lambda: ["Player 1", "Player 2"])
    prompts: list[str] = field(default_factory=lambda: ["always", "always"])
    starting_lp: int = 8000
    problem: str = ""  # why settings.json could not be read (the defaults are used; the file is kept)
    auto_continue: int = 0  # seconds before a shared response prompt continues by itself (0: never)
    solo_prompt: str = "auto"  # your response prompts when you play alone (solo, vs the AI)
    table_asks: str = "events"  # hot-seat "Anyone responding?": "events" (where something happened, End Phases) or "every" window
    go_first: str = "ask"  # playing alone: "ask" (the coin-toss winner chooses, R-SETUP-3) or "always" (you go first)
    ai_pause: float = 0.3  # seconds each move of the AI's stays on screen before its next (0: none)

    @classmethod
    def load(cls) -> "Settings":
        path = settings_path()
        if not path.is_file():
            path = paths.user_home() / "settings.json"  # a session starts from the user's settings
        for place in (settings_path(), path):
            if place.exists() and not place.is_file():  # (a folder, a fifo …: never opened)
                return cls(problem=f"{display_path(place)}  is a {'folder' if place.is_dir() else 'special file'}, "
                                   f"not a settings file  (rename or remove it: ygoterm writes its settings there)")
        if not path.is_file():
            return cls()
        try:
            text = read_text(path, max_bytes=64 * 1024)
            data = _SettingsFile.model_validate(loads(text, display_path(path)))
        except DataError as e:
            return cls(problem=str(e.problems[0]))
        except json.JSONDecodeError as e:
            return cls(problem=f"{display_path(path)}:{e.lineno}:{e.colno}  not valid JSON: {e.msg}")
        except ValidationError as e:
            return cls(problem=str(problems_from(e, file=display_path(path), locator=Locator(text))[0]))
        return cls(list(data.names), list(data.prompts), data.starting_lp, auto_continue=data.auto_continue,
                   solo_prompt=data.solo_prompt, table_asks=data.table_asks, go_first=data.go_first, ai_pause=data.ai_pause)

    def save(self) -> str:
        """Write settings.json atomically; returns why it failed, or ""."""
        path = settings_path()
        try:
            write_atomically(path, json.dumps({"names": self.names, "prompts": self.prompts, "starting_lp": self.starting_lp,
                                                 "auto_continue": self.auto_continue, "solo_prompt": self.solo_prompt,
                                                 "table_asks": self.table_asks, "go_first": self.go_first,
                                                 "ai_pause": self.ai_pause}, indent=1))
        except OSError as e:
            return f"Settings could not be saved to {path}: {e.strerror or e}"
        self.problem = ""
        return ""

    def rules(self) -> Rules:
        return Rules(duel=DuelRules(starting_lp=self.starting_lp))


def saved_duels() -> list[Path]:
    """Duels saved with s on the duel screen (newest first); the autosaves have their own menu item."""
    folder = paths.saves_dir()
    files = [p for p in folder.glob("*.json") if not is_autosave(p)] if folder.is_dir() else []
    return sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)


def puzzle_files() -> list[Path]:
    folders = [PUZZLES, paths.user_home() / "puzzles"]
    return [p for d in folders if d.is_dir() for p in sorted(d.glob("*.yaml"))]


def new_seed() -> int:
    return random.SystemRandom().randrange(1, 10**6)
