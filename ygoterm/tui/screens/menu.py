"""The main menu and Settings.

Drawn before the card pool is loaded (tui/pool_loader.py): nothing here imports the card
schema or the engine. The deck pickers and the deck browser, which need the pool, are in
screens/decks.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option as ListOption

from ...paths import autosaves
from ..presenters.settings import Settings, saved_duels
from .base import PlainNotifications


class MenuScreen(Screen):
    BINDINGS = [Binding("q", "app.quit", "Quit"), Binding("escape", "app.confirm_quit", "Quit?", show=False)]

    ITEMS = [("resume", "Resume"), ("hotseat", "Hot-seat duel"), ("vscomputer", "Duel vs computer"),
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
        """The entries (Resume and Saved duels only when there is something to open), the highlight
        kept on the entry it was on: back from Decks, the highlight is on Decks, not on Resume — from
        where ↑ wraps to Quit."""
        items = self.query_one(OptionList)
        was = items.get_option_at_index(items.highlighted).id if items.highlighted is not None else None
        items.clear_options()
        shown = {"resume": bool(autosaves()), "saves": bool(saved_duels())}
        entries = [(key, label) for key, label in self.ITEMS if shown.get(key, True)]
        items.add_options([ListOption(label, id=key) for key, label in entries])
        keys = [key for key, _ in entries]
        items.highlighted = keys.index(was) if was in keys else 0
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
            yield Static("Response prompts — Always: every window asks, whatever you hold, so a prompt reveals nothing "
                         "(hot-seat default). Auto: only when a response could matter — an activation, a Summon, an attack, "
                         "something that happened, the opponent's End Phase — and you hold something to respond with "
                         "(default when you play alone). Never: always pass. s in any response prompt: stop asking until "
                         "something happens. In hot-seat both players answer one \"Anyone responding?\", asked where "
                         "something happened and in each End Phase (or at every window), which can continue by itself "
                         "after a few seconds unless either player presses a key.", classes="dialog-help")
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
            ListOption(f"Hot-seat \"Anyone responding?\" asked: "
                       f"{'where something happened, and in End Phases' if s.table_asks == 'events' else 'at every window'}", id="table"),
            ListOption(f"Your response prompts when you play alone (solo, vs the AI): {s.solo_prompt.title()}", id="solo"),
            ListOption(f"First or second when you play alone: "
                       f"{'the coin-toss winner chooses' if s.go_first == 'ask' else 'you always go first'}", id="first"),
            ListOption(f"The AI's moves stay on screen: {f'{s.ai_pause:g} s each' if s.ai_pause else 'no pause'}", id="pause"),
            ListOption(f"Player 1's name: {s.names[0]}", id="n0"),
            ListOption(f"Player 2's name: {s.names[1]}", id="n1"),
        ])
        items.highlighted = 0
        items.focus()

    def _ask_name(self, player: int, index: int) -> None:
        """A player's name (1–40 characters, as settings.json allows): the hot-seat table's,
        and yours (Player 1) when you play alone."""
        from .dialogs import InputPrompt

        def typed(text: str | None) -> None:
            name = " ".join((text or "").split())
            if not name:
                self.notify("A name needs at least one character: kept as it was.", timeout=5)
            elif len(name) > 40:
                self.notify("A name has at most 40 characters: kept as it was.", severity="warning", timeout=6)
            else:
                self.settings.names[player] = name
                failed = self.settings.save()
                if failed:
                    self.notify(failed, severity="error", timeout=15)
            self._refresh()
            self.query_one(OptionList).highlighted = index

        self.app.push_screen(InputPrompt(f"Player {player + 1}'s name", self.settings.names[player]), typed)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        s = self.settings
        cycle = ["always", "auto", "never"]
        if event.option.id in ("p0", "p1"):
            i = int(event.option.id[1])
            s.prompts[i] = cycle[(cycle.index(s.prompts[i]) + 1) % 3]
        elif event.option.id == "solo":
            s.solo_prompt = cycle[(cycle.index(s.solo_prompt) + 1) % 3]
        elif event.option.id in ("n0", "n1"):
            self._ask_name(int(event.option.id[1]), event.option_index)
            return
        elif event.option.id == "pause":
            s.ai_pause = {0: 0.3, 0.3: 0.8}.get(s.ai_pause, 0)
        elif event.option.id == "first":
            s.go_first = "always" if s.go_first == "ask" else "ask"
        elif event.option.id == "table":
            s.table_asks = "every" if s.table_asks == "events" else "events"
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
