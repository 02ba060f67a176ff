"""The main menu, Settings, and the lists it shows of saves and puzzles.

Drawn before the card pool is loaded (tui/pool_loader.py): nothing here imports the card
schema or the engine. The deck pickers and the deck browser, which need the pool, are in
deck_screens.py."""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option as ListOption

from .. import paths
from ..paths import autosave_path
from ..schema.problems import DataError, display_path
from ..schema.report import problems_from
from ..schema.rules import DuelRules, Rules
from ..schema.yamlio import Locator, read_text, write_atomically
from .widgets import PlainNotifications

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


class _SettingsFile(BaseModel):
    """settings.json as written by `Settings.save`; anything else is refused with its place."""

    model_config = ConfigDict(extra="ignore")
    names: tuple[Annotated[str, Field(min_length=1, max_length=40)], Annotated[str, Field(min_length=1, max_length=40)]] = ("Player 1", "Player 2")
    prompts: tuple[Literal["always", "auto", "never"], Literal["always", "auto", "never"]] = ("always", "always")
    starting_lp: Literal[8000, 4000, 2000] = 8000
    auto_continue: Literal[0, 2, 4] = 0  # hot-seat "Anyone responding?": continue by itself after N seconds (0: off)


def settings_path() -> Path:
    """settings.json in the user data dir (the CLI names it where a setting supplies a default)."""
    return paths.user_home() / "settings.json"


@dataclass
class Settings:
    """What the player chose in Settings (saved in the user data dir)."""

    names: list[str] = field(default_factory=lambda: ["Player 1", "Player 2"])
    prompts: list[str] = field(default_factory=lambda: ["always", "always"])
    starting_lp: int = 8000
    problem: str = ""  # why settings.json could not be read (the defaults are used; the file is kept)
    auto_continue: int = 0  # seconds before a shared response prompt continues by itself (0: never)

    @classmethod
    def load(cls) -> "Settings":
        path = settings_path()
        if not path.is_file():
            return cls()
        try:
            text = read_text(path, max_bytes=64 * 1024)
            data = _SettingsFile.model_validate(json.loads(text))
        except DataError as e:
            return cls(problem=str(e.problems[0]))
        except json.JSONDecodeError as e:
            return cls(problem=f"{display_path(path)}:{e.lineno}:{e.colno}  not valid JSON: {e.msg}")
        except ValidationError as e:
            return cls(problem=str(problems_from(e, file=display_path(path), locator=Locator(text))[0]))
        return cls(list(data.names), list(data.prompts), data.starting_lp, auto_continue=data.auto_continue)

    def save(self) -> str:
        """Write settings.json atomically; returns why it failed, or ""."""
        path = settings_path()
        try:
            write_atomically(path, json.dumps({"names": self.names, "prompts": self.prompts, "starting_lp": self.starting_lp,
                                                 "auto_continue": self.auto_continue}, indent=1))
        except OSError as e:
            return f"Settings could not be saved to {path}: {e.strerror or e}"
        self.problem = ""
        return ""

    def rules(self) -> Rules:
        return Rules(duel=DuelRules(starting_lp=self.starting_lp))  # type: ignore[arg-type]


class MenuScreen(Screen):
    BINDINGS = [Binding("q", "app.quit", "Quit"), Binding("escape", "app.confirm_quit", "Quit?", show=False)]

    ITEMS = [("resume", "Resume the last duel"), ("hotseat", "Hot-seat duel"), ("vscomputer", "Duel vs computer"),
             ("match", "Match (best of 3)"), ("solo", "Solo test"),
             ("puzzles", "Puzzles"), ("saves", "Saved duels"), ("decks", "Decks"), ("lab", "Deck lab"), ("settings", "Settings"), ("quit", "Quit")]

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Static(Text("ygoterm", style="bold #e8c170"), id="menu-title")
            yield Static("card duels in the terminal", id="menu-subtitle")
            yield OptionList(id="menu-items")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_items()
        if os.environ.get("YGOTERM_MENU_SHOWN_FILE"):
            self.call_after_refresh(self._report_shown)

    def _report_shown(self) -> None:
        """Tell whoever set $YGOTERM_MENU_SHOWN_FILE (the `ygoterm serve` test) that the menu is
        on screen: the file gets the driver, the size and the menu's items, one JSON object."""
        shown = {"driver": type(self.app._driver).__name__, "size": list(self.app.size),
                 "items": [str(o.prompt) for o in self.query_one(OptionList).options]}
        Path(os.environ["YGOTERM_MENU_SHOWN_FILE"]).write_text(json.dumps(shown), encoding="utf-8")

    def on_screen_resume(self) -> None:
        self.refresh_items()

    def refresh_items(self) -> None:
        items = self.query_one(OptionList)
        items.clear_options()
        shown = {"resume": autosave_path().is_file(), "saves": bool(saved_duels())}
        items.add_options([ListOption(label, id=key) for key, label in self.ITEMS if shown.get(key, True)])
        items.highlighted = 0
        items.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        getattr(self.app, f"menu_{event.option.id}")()


class SettingsScreen(PlainNotifications, Screen):
    BINDINGS = [Binding("escape,q", "app.pop_screen", "Back")]

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings

    def compose(self) -> ComposeResult:
        with Vertical(id="settings"):
            yield Static("Settings", classes="dialog-title")
            yield OptionList(id="settings-list")
            yield Static("Response prompts — Always: asked at every window, so a prompt reveals nothing (hot-seat default). "
                         "Auto: only when you could respond (faster, but the prompt shows you hold something). "
                         "Never: always pass. In hot-seat both players answer one \"Anyone responding?\" per window; "
                         "it can continue by itself after a few seconds unless either player presses a key.", classes="dialog-help")
        yield Footer()

    def on_mount(self) -> None:
        self._refresh()

    def _refresh(self) -> None:
        s = self.settings
        items = self.query_one(OptionList)
        items.clear_options()
        items.add_options([
            ListOption(f"{s.names[0]} response prompts: {s.prompts[0].title()}", id="p0"),
            ListOption(f"{s.names[1]} response prompts: {s.prompts[1].title()}", id="p1"),
            ListOption(f"Starting LP: {s.starting_lp}", id="lp"),
            ListOption(f"Hot-seat \"Anyone responding?\" continues by itself: {f'after {s.auto_continue} s' if s.auto_continue else 'Off'}",
                       id="auto"),
        ])
        items.highlighted = 0
        items.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        s = self.settings
        cycle = ["always", "auto", "never"]
        if event.option.id in ("p0", "p1"):
            i = int(event.option.id[1])
            s.prompts[i] = cycle[(cycle.index(s.prompts[i]) + 1) % 3]
        elif event.option.id == "lp":
            s.starting_lp = {8000: 4000, 4000: 2000, 2000: 8000}[s.starting_lp]
        elif event.option.id == "auto":
            s.auto_continue = {0: 2, 2: 4, 4: 0}.get(s.auto_continue, 0)
        failed = s.save()
        if failed:
            self.notify(failed, severity="error", timeout=15)
        index = event.option_index
        self._refresh()
        self.query_one(OptionList).highlighted = index


def saved_duels() -> list[Path]:
    """Duels saved with s on the duel screen (newest first); the autosave has its own menu item."""
    folder = autosave_path().parent
    files = [p for p in folder.glob("*.json") if p.name != autosave_path().name] if folder.is_dir() else []
    return sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)


def puzzle_files() -> list[Path]:
    folders = [PUZZLES, paths.user_home() / "puzzles"]
    return [p for d in folders if d.is_dir() for p in sorted(d.glob("*.yaml"))]


def new_seed() -> int:
    return random.SystemRandom().randrange(1, 10**6)
