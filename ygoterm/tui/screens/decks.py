"""Choosing a deck (the pickers of the menu's duels) and the deck browser."""

from __future__ import annotations


from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option as ListOption

from ...schema.decks import unscripted_cards
from ...schema.validate import deck_summary
from ..presenters.deck_draft import DeckDraft, user_decks
from ..presenters.decks import DeckEntry, survey_decks
from ..widgets.lists import BrowsesList
from .base import PlainNotifications
from .deck_editor import DeckEditor


class DeckPicker(PlainNotifications, BrowsesList, ModalScreen):
    """Choose a deck; an illegal one shows its problems and cannot be chosen."""

    BINDINGS = [Binding("escape", "cancel", "Back")]

    def __init__(self, title: str, entries: list[DeckEntry]) -> None:
        super().__init__()
        self.title_text = title
        self.entries = entries

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static(self.title_text, classes="dialog-title")
            items = []
            for entry in self.entries:
                label = Text(entry.name, style="bold")
                label.append("  legal" if entry.legal else f"  illegal ({len(entry.problems)} problem{'s' if len(entry.problems) != 1 else ''})",
                             style="green" if entry.legal else "red")
                if entry.deck is not None and entry.deck.rules is not None and entry.deck.rules.format != "modern":
                    label.append(f"  · {entry.deck.rules.format} format", style="#87afd7")  # (a 2005 deck plays by its rules)
                if entry.deck is not None and unscripted_cards(entry.deck):
                    label.append("  ✎ manual", style="#d7af5f")  # cards without scripts: played with manual actions
                items.append(ListOption(label))
            yield OptionList(*items, id="decks")
            yield Static("", id="deck-info")
            yield Static("Enter choose · Esc back", classes="dialog-help")

    def _show(self, index: int) -> None:
        if not self.entries:
            self.query_one("#deck-info", Static).update("No decks found: put deck files in decks/ or your user data dir.")
            return
        entry = self.entries[index]
        info = Text()
        if entry.deck is not None and entry.deck.source and entry.deck.source.description:
            info.append(entry.deck.source.description + "\n", style="italic")
        if entry.problems:
            for p in entry.problems[:8]:
                info.append(str(p) + "\n", style="red")
        elif entry.deck is not None:
            summary = deck_summary(entry.deck)
            info.append(f"{len(entry.deck.main)} Main · {len(entry.deck.extra)} Extra · " +
                        " · ".join(f"{n} {k}" for k, n in summary["kind"].most_common()), style="dim")
        if entry.deck is not None and (unscripted := unscripted_cards(entry.deck)):
            info.append(f"\n✎ Cards without scripts: {', '.join(unscripted)}. They are played by hand: manual actions are "
                        "switched on for a duel with this deck (the AI cannot play it).", style="#d7af5f")
        self.query_one("#deck-info", Static).update(info)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        entry = self.entries[event.option_index]
        if not entry.legal:
            self.notify("This deck breaks the construction rules; fix the problems shown first.", severity="error")
            return
        if self.is_current:
            self.dismiss(entry.deck)

    def action_cancel(self) -> None:
        if self.is_current:
            self.dismiss(None)


class DeckBrowser(PlainNotifications, BrowsesList, Screen):
    """Every deck and its legality; the highlighted deck's list beside them. n starts a new deck,
    e edits one of yours, d duplicates any deck into your decks folder (the deck editor); l opens
    the highlighted deck's lab."""

    BINDINGS = [Binding("escape,q", "app.pop_screen", "Back"), Binding("n", "new", "New"), Binding("e", "edit", "Edit"),
                Binding("d", "duplicate", "Duplicate"), Binding("l", "lab", "Deck lab")]

    def __init__(self, entries: list[DeckEntry]) -> None:
        super().__init__()
        self.entries = entries

    def action_lab(self) -> None:
        """l: the deck lab of the highlighted deck (its combos' odds, what-if, test hands)."""
        index = self.query_one(OptionList).highlighted
        if index is None or not self.entries:
            return
        entry = self.entries[index]
        if entry.deck is None:
            self.app.notify("This deck cannot be read; fix the problems shown first.", severity="error", markup=False)
            return
        from .lab import LabScreen

        self.app.push_screen(LabScreen(entry.path))

    def compose(self) -> ComposeResult:
        with Horizontal(id="browser"):
            yield OptionList(*self._options(), id="browser-list")
            yield Static("", id="browser-info")
        yield Footer()

    def _options(self) -> list[ListOption]:
        return [ListOption(Text(e.name, style="bold" if e.legal else "red")) for e in self.entries]

    def on_screen_resume(self) -> None:
        """Back from the editor: the decks as they are on disk now."""
        listing = self.query_one(OptionList)
        index = listing.highlighted or 0
        self.entries = survey_decks(self.app.pool, self.app.deck_dirs)  # type: ignore[attr-defined]
        listing.clear_options()
        listing.add_options(self._options())
        if self.entries:
            listing.highlighted = min(index, len(self.entries) - 1)
            self._show(listing.highlighted)

    def _entry(self) -> DeckEntry | None:
        index = self.query_one(OptionList).highlighted
        return self.entries[index] if index is not None and 0 <= index < len(self.entries) else None

    def action_new(self) -> None:
        known = sorted(p.stem for d in self.app.deck_dirs if (d / "banlists").is_dir()  # type: ignore[attr-defined]
                       for p in (d / "banlists").iterdir() if p.suffix in (".yaml", ".yml", ".conf"))
        self.app.push_screen(DeckEditor(DeckDraft("New deck", banlist="classic" if "classic" in known else None)))

    def action_edit(self) -> None:
        entry = self._entry()
        if entry is None or entry.deck is None:
            self.notify("This deck file cannot be read; fix the problems shown first.", severity="error")
            return
        if entry.path.parent.resolve() != user_decks().resolve():
            self.notify("The shipped decks (and --decks folders) are not changed here: d duplicates this deck into your "
                        "decks folder to edit the copy.", severity="warning")
            return
        unknown = sum(1 for p in entry.problems if p.rule == "R-DECK-8")
        self.app.push_screen(DeckEditor(DeckDraft.from_deck(entry.deck, path=entry.path, unknown=unknown)))

    def action_duplicate(self) -> None:
        entry = self._entry()
        if entry is None or entry.deck is None:
            self.notify("This deck file cannot be read; fix the problems shown first.", severity="error")
            return
        unknown = sum(1 for p in entry.problems if p.rule == "R-DECK-8")
        draft = DeckDraft.from_deck(entry.deck, name=f"{entry.name} (copy)", unknown=unknown)
        self.app.push_screen(DeckEditor(draft, dirty=True))

    def _show(self, index: int) -> None:
        if not self.entries:
            return
        entry = self.entries[index]
        text = Text(f"{entry.name}\n", style="bold")
        text.append(f"{entry.path}\n\n", style="dim")
        if entry.problems:
            text.append("Illegal:\n", style="bold red")
            for p in entry.problems:
                text.append(str(p) + "\n", style="red")
        if entry.deck is not None:
            for section in ("main", "extra", "side"):
                cards = entry.deck.section(section)
                if not cards:
                    continue
                text.append(f"\n{section.title()} ({len(cards)})\n", style="bold")
                counts: dict[str, int] = {}
                for c in cards:
                    counts[c.name] = counts.get(c.name, 0) + 1
                for name, n in counts.items():
                    text.append(f"  {n}× {name}\n")
        self.query_one("#browser-info", Static).update(text)
