"""CLI defaults that the menu's Settings supply, always said with where they come from.

A flag on the command line wins. Without it the setting applies (the player chose it), and
`--help` shows the value and the settings file it was read from, so that a setting never changes
a command silently. Settings are read only when a help page or a duel needs them: the `Settings`
class lives with the TUI, too heavy to import for every command.
"""

from __future__ import annotations

import argparse
import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..tui.presenters.settings import Settings


@dataclass(frozen=True)
class FromSettings:
    """A flag whose default is a setting: `setting` is the `Settings` attribute, `builtin` the
    value used without a settings file."""

    flag: str
    setting: str
    builtin: Any
    label: str  # what the value is, for the note on the duel screen


# argparse dest → the setting behind its default. Every setting a CLI flag can override is here.
FROM_SETTINGS: dict[str, FromSettings] = {"lp": FromSettings("--lp", "starting_lp", 8000, "starting LP")}


def load_settings() -> "Settings":
    from ..tui.presenters.settings import Settings

    return Settings.load()


def describe_default(spec: FromSettings, settings: "Settings") -> str:
    """'default: 4000, from your settings file PATH', or the built-in value and why."""
    from ..tui.presenters.settings import settings_path

    path = settings_path()
    if not path.is_file():
        return f"default: {spec.builtin}"
    if settings.problem:
        return f"default: {spec.builtin}; your settings file {path} could not be read"
    return f"default: {getattr(settings, spec.setting)}, from your settings file {path}"


def _with_default(text: str | None, action: argparse.Action) -> str | None:
    """An option's help with its default, unless it says it already or has none worth saying."""
    default = action.default
    if not action.option_strings or default is None or default is False or default == argparse.SUPPRESS or action.nargs == 0:
        return text
    text = (text or "").strip()
    if "default" in text:
        return text
    shown = " ".join(map(str, default)) if isinstance(default, (list, tuple)) else str(default)
    return f"{text} (default: {shown})" if text else f"default: {shown}"


class SettingsHelpFormatter(argparse.HelpFormatter):
    """Adds its default to an option's help line (a settings-fed flag's: from the settings file)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        spec = FROM_SETTINGS.get(action.dest)
        if spec is None:
            return _with_default(text, action)
        default = describe_default(spec, load_settings()).replace("%", "%%")  # (help is %-formatted)
        return f"{text} ({default})" if text else f"({default})"

    def _split_lines(self, text: str, width: int) -> list[str]:
        """Wrapped as argparse does, but a path is never broken (at its hyphens or anywhere)."""
        return textwrap.wrap(" ".join(text.split()), width, break_long_words=False, break_on_hyphens=False)


def apply_settings(args: argparse.Namespace, settings: "Settings") -> list[str]:
    """Fill every settings-fed flag left out with its setting; returns a note for each setting
    that differs from the built-in default (the duel screen shows it: nothing happens silently)."""
    from ..tui.presenters.settings import settings_path

    notes = []
    for dest, spec in FROM_SETTINGS.items():
        if not hasattr(args, dest) or getattr(args, dest) is not None:
            continue
        value = getattr(settings, spec.setting)
        setattr(args, dest, value)
        if value != spec.builtin:
            notes.append(f"The {spec.label} {value} comes from your settings file {settings_path()} (pass {spec.flag} to choose another).")
    return notes
