"""The deck editor (Decks → n new, e edit, d duplicate): search the pool with the `cards search`
language, build Main/Extra/Side, see its legality as you go, save it as YAML in your decks folder.

No rule lives here: what may be added is `schema.validate.refusal`, what is wrong with the deck
`schema.legality.judge_unsaved` (R-DECK-1…7 and the banlist), the file `schema.deckwrite`."""

from __future__ import annotations

import shlex
from collections import Counter

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option as ListOption

from ...schema.banlist import Banlist
from ...schema.cardpool import CardPool
from ...schema.cards import Card, Monster
from ...schema.decks import SECTION_TITLES, SECTIONS, Deck, unscripted_cards
from ...schema.deckwrite import deck_yaml, free_deck_path
from ...schema.legality import judge_unsaved
from ...schema.problems import DataError, Problem
from ...schema.query import search, stat_line
from ...schema.validate import limit_word, refusal
from ...schema.yamlio import write_atomically
from ..presenters.deck_draft import DeckDraft, home_section, kind_totals, user_decks
from ..presenters.render import MANUAL_MARK
from .base import Dialog
from .base import PlainNotifications


MAX_RESULTS = 200  # search hits listed at once (the count says how many more match)


KIND_COLOURS = {"monster": "#e8c170", "spell": "#5fd38d", "trap": "#d37fd3"}


MARK_STYLES = {"Forbidden": "bold red", "Limited": "bold yellow", "Semi-Limited": "yellow"}


def problem_line(p: Problem, *, hint: bool = True) -> Text:
    text = Text(f"{p.rule} " if p.rule else "", style="bold")
    text.append(p.message)
    if p.hint and hint:
        text.append(f" ({p.hint})", style="dim")
    return text


class DeckEditor(PlainNotifications, Screen):
    """Search on the left (with the highlighted card in full), the deck on the right (Main, Extra,
    Side with counts) and its legality under it."""

    BINDINGS = [
        Binding("a", "add", "Add"),
        Binding("s", "add('side')", "Side"),
        Binding("x,delete", "remove", "Remove"),
        Binding("slash", "search", "Search"),
        Binding("r", "rename", "Rename"),
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape,q", "leave", "Back"),
    ]

    def __init__(self, draft: DeckDraft, *, dirty: bool = False) -> None:
        super().__init__()
        self.draft = draft
        self.dirty = dirty  # changes not yet saved
        self.hits: list[Card] = []
        self.banlist: Banlist | None = None
        self.problems: list[Problem] = []
        self.refused: Problem | None = None  # why the last card could not be added
        self.query_problem = ""
        self.rows: list[tuple[str, Card] | None] = []  # the deck list's rows (None: a section title)

    @property
    def pool(self) -> CardPool:
        return self.app.pool  # type: ignore[attr-defined]

    def compose(self) -> ComposeResult:
        yield Static("", id="editor-title")
        with Horizontal(id="editor"):
            with Vertical(id="editor-left"):
                yield Input(placeholder="search: dragon atk>=2000 attribute:dark", id="editor-search")
                yield OptionList(id="editor-results")
                yield Static("", id="editor-card")
            with Vertical(id="editor-right"):
                yield OptionList(id="editor-deck")
                yield Static("", id="editor-legality")
        yield Footer()

    def on_mount(self) -> None:
        self._search("")
        self._changed(dirty=self.dirty)
        self.query_one("#editor-search", Input).focus()

    # ------------------------------------------------------------------ search

    def on_input_changed(self, event: Input.Changed) -> None:
        self._search(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one("#editor-results", OptionList).focus()

    def _search(self, query: str) -> None:
        try:
            words = shlex.split(query)
        except ValueError:
            words = query.replace('"', " ").replace("'", " ").split()
        try:
            self.hits = search(self.pool, words)
            self.query_problem = ""
        except DataError as e:
            self.hits, self.query_problem = [], str(e.problems[0].message) + (f" ({e.problems[0].hint})" if e.problems[0].hint else "")
        results = self.query_one("#editor-results", OptionList)
        results.clear_options()
        results.add_options([ListOption(self._hit_label(c)) for c in self.hits[:MAX_RESULTS]])
        results.border_title = (f"{len(self.hits)} card{'s' if len(self.hits) != 1 else ''}"
                                + (f" (first {MAX_RESULTS})" if len(self.hits) > MAX_RESULTS else ""))
        if self.hits:
            results.highlighted = 0
        self._show_card(self.hits[0] if self.hits else None)

    def _card_label(self, card: Card, prefix: str = "") -> Text:
        """A list entry: the name in its frame colour, ✎ for a card without scripts (played by
        hand, refused by the AI), and its banlist mark."""
        text = Text(prefix, style="bold", no_wrap=True, overflow="ellipsis")
        text.append(card.name, style=KIND_COLOURS[card.kind])
        if card.play == "manual":
            text.append(f" {MANUAL_MARK}", style="italic #c792ea")
        mark = limit_word(self.banlist, card)
        if mark:
            text.append(f" {mark}", style=MARK_STYLES[mark])
        return text

    def _hit_label(self, card: Card) -> Text:
        text = self._card_label(card)
        n = sum(self.draft.count(card).values())
        if n:
            text.append(f" ×{n}", style="bold")
        return text

    # ------------------------------------------------------------------ the highlighted card

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        card = self._card_of(event.option_list, event.option_index)
        if card is not None:
            self._show_card(card[0])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        picked = self._card_of(event.option_list, event.option_index)
        if picked is not None:
            self._add(picked[0], picked[1] or home_section(picked[0]))

    def _card_of(self, widget: OptionList, index: int | None) -> tuple[Card, str | None] | None:
        """The card at `index` of the results (section None) or of the deck list (its section)."""
        if index is None:
            return None
        if widget.id == "editor-results":
            return (self.hits[index], None) if 0 <= index < len(self.hits) else None
        if widget.id == "editor-deck" and 0 <= index < len(self.rows) and self.rows[index] is not None:
            section, card = self.rows[index]  # type: ignore[misc]
            return card, section
        return None

    def _current(self) -> tuple[Card, str | None] | None:
        focused = self.focused
        if isinstance(focused, OptionList):
            return self._card_of(focused, focused.highlighted)
        return None

    def _show_card(self, card: Card | None) -> None:
        panel = self.query_one("#editor-card", Static)
        if self.query_problem:
            panel.update(Text(f"query: {self.query_problem}", style="red"))
            return
        if card is None:
            panel.update(Text("No card matches. Name words, or filters such as atk>=2000 attribute:dark level:4 type:dragon "
                              "kind:spell text:draw", style="dim"))
            return
        text = Text()
        text.append(card.name, style=f"bold {KIND_COLOURS[card.kind]}")
        mark = limit_word(self.banlist, card)
        if mark:
            text.append(f"  {mark} on '{self.banlist.name}'", style=MARK_STYLES[mark])  # type: ignore[union-attr]
        text.append("\n" + stat_line(card) + "\n", style="bold")
        if card.treated_as:
            text.append(f"Always treated as \"{card.treated_as}\".\n", style="italic")
        if isinstance(card, Monster) and card.materials:
            text.append(f"Materials: {card.materials.text}\n")
        counts = self.draft.count(card)
        if any(counts.values()):
            text.append("In this deck: " + " · ".join(f"{n} {s.title()}" for s, n in counts.items() if n) + "\n", style="cyan")
        text.append("\n" + (card.text or "(no text)") + "\n")
        text.append(f"\nPasscode {card.id} · " + ("scripted" if card.scripted else "manual" if card.has_effect else "no effect"), style="dim")
        panel.update(text)

    # ------------------------------------------------------------------ editing

    def action_add(self, section: str = "") -> None:
        current = self._current()
        if current is None:
            self.notify("Highlight a card in the search results or the deck first (/ searches).")
            return
        card, from_section = current
        self._add(card, section or from_section or home_section(card))

    def _add(self, card: Card, section: str) -> None:
        problem = refusal(self.draft.deck(), card, section, banlist=self.banlist)
        if problem is not None:
            self.refused = problem
            self.notify(f"Not added: {problem.message} [{problem.rule}]", severity="warning")
            self._changed(dirty=self.dirty)
            return
        self.refused = None
        self.draft.add(card, section)
        self._changed(dirty=True, keep=(section, card))

    def action_remove(self) -> None:
        current = self._current()
        if current is None:
            return
        card, section = current
        sections = [section] if section else [s for s in ("main", "extra", "side") if self.draft.count(card)[s]]
        if not sections or not self.draft.remove(card, sections[0]):
            self.notify(f"'{card.name}' is not in the deck.")
            return
        self.refused = None
        self._changed(dirty=True, keep=(sections[0], card))

    def action_search(self) -> None:
        self.query_one("#editor-search", Input).focus()

    def action_rename(self) -> None:
        def renamed(name: str | None) -> None:
            if name and name != self.draft.name:
                self.draft.name = name
                self._changed(dirty=True)

        self.app.push_screen(NameDialog(self.draft.name), renamed)

    # ------------------------------------------------------------------ the deck and its legality

    def _changed(self, *, dirty: bool, keep: tuple[str, Card] | None = None) -> None:
        self.dirty = dirty
        deck = self.draft.deck()
        target = self.draft.path or user_decks() / "new.yaml"
        dirs = self.app.deck_dirs  # type: ignore[attr-defined]
        self.banlist, self.problems = judge_unsaved(deck, self.pool, dirs, named_in=target)
        self._fill_deck(keep)
        self._fill_legality(deck)
        where = str(self.draft.path) if self.draft.path else f"new file in {user_decks()}"
        title = Text("Deck editor  ", style="bold #e8c170", no_wrap=True, overflow="ellipsis")
        title.append(self.draft.name, style="bold")
        if self.dirty:
            title.append("  ● unsaved", style="bold yellow")
        title.append(f"  {where}", style="dim")
        self.query_one("#editor-title", Static).update(title)
        results = self.query_one("#editor-results", OptionList)
        for i, card in enumerate(self.hits[:MAX_RESULTS]):  # (the ×N and banlist marks)
            results.replace_option_prompt_at_index(i, self._hit_label(card))
        current = self._current()
        if current is not None:
            self._show_card(current[0])

    def _fill_deck(self, keep: tuple[str, Card] | None) -> None:
        listing = self.query_one("#editor-deck", OptionList)
        old = listing.highlighted
        self.rows, options = [], []
        for section in SECTIONS:
            cards = self.draft.sections[section]
            title = Text(f"{SECTION_TITLES[section]} {len(cards)}", style="bold #e8c170", no_wrap=True, overflow="ellipsis")
            kinds = Counter(c.kind for c in cards)
            for kind in ("monster", "spell", "trap"):  # (short: 22 M · 10 S · 8 T, in the kinds' colours)
                if kinds[kind]:
                    title.append(f"  {kinds[kind]} {kind[0].upper()}", style=KIND_COLOURS[kind])
            self.rows.append(None)
            options.append(ListOption(title, disabled=True))
            seen: dict[int, int] = {}
            for card in cards:
                seen[card.id] = seen.get(card.id, 0) + 1
            for card_id, n in seen.items():
                card = next(c for c in cards if c.id == card_id)
                self.rows.append((section, card))
                options.append(ListOption(self._card_label(card, f" {n}× ")))
        listing.clear_options()
        listing.add_options(options)
        index = None
        if keep is not None:
            index = next((i for i, row in enumerate(self.rows) if row is not None and row[0] == keep[0] and row[1].id == keep[1].id), None)
        if index is None and old is not None:
            index = next((i for i in range(min(old, len(self.rows) - 1), -1, -1) if self.rows[i] is not None), None)
        if index is not None:
            listing.highlighted = index

    def _fill_legality(self, deck: Deck) -> None:
        text = Text()
        if self.refused is not None:
            text.append("Not added: ", style="bold red")
            text.append_text(problem_line(self.refused, hint=False))  # (its fix is not to add it)
            text.append("\n")
        main, extra, side = (len(deck.section(s)) for s in SECTIONS)
        text.append(f"Main {main} · Extra {extra} · Side {side}", style="bold")
        text.append(f" · {self.draft.banlist or 'no'} banlist\n", style="dim")
        if deck.main:
            text.append(f"Main: {kind_totals(deck.main)}\n", style="dim")
        if self.problems:
            text.append(f"Illegal ({len(self.problems)}):\n", style="bold red")
            for p in self.problems:
                text.append_text(problem_line(p))
                text.append("\n")
        else:
            text.append("Legal: R-DECK-1…7 and the banlist pass\n", style="bold green")
        manual = unscripted_cards(deck)
        if manual:
            text.append(f"{len(manual)} card{'s' if len(manual) != 1 else ''} without scripts ({MANUAL_MARK}): played by hand with manual "
                        f"actions; the AI cannot pilot this deck ({', '.join(manual[:4])}{' …' if len(manual) > 4 else ''})\n", style="#c792ea")
        if self.draft.unknown:
            text.append(f"{self.draft.unknown} unknown card{'s' if self.draft.unknown != 1 else ''} (R-DECK-8) stay in the file as written\n",
                        style="yellow")
        self.query_one("#editor-legality", Static).update(text)

    # ------------------------------------------------------------------ saving and leaving

    def action_save(self) -> bool:
        """Write the deck (atomically) to its file, or to a new one in the user's decks folder."""
        draft = self.draft
        dirs = self.app.deck_dirs  # type: ignore[attr-defined]
        target = draft.path or free_deck_path(draft.name, user_decks(), dirs)
        text = deck_yaml(draft.deck(), self.pool, draft.original, description=draft.description)
        try:
            write_atomically(target, text)
        except OSError as e:
            self.notify(f"Not saved: {target}: {e.strerror or e}", severity="error", timeout=15)
            return False
        draft.path, draft.original = target, text
        if not any(d.resolve() == target.parent.resolve() for d in dirs if d.exists()):
            dirs.append(target.parent)  # (the user's decks folder did not exist when the app started)
        verdict = "legal" if not self.problems else f"illegal: {len(self.problems)} problem{'s' if len(self.problems) != 1 else ''}"
        self.notify(f"Saved {target.name} ({verdict})")
        self._changed(dirty=False)
        return True

    def action_leave(self) -> None:
        if isinstance(self.focused, Input):
            self.query_one("#editor-results", OptionList).focus()  # (Esc in the search box: to the results)
            return
        if not self.dirty:
            self.app.pop_screen()
            return

        def answered(choice: str | None) -> None:
            if (choice == "save" and self.action_save()) or choice == "discard":
                if self.is_current:
                    self.app.pop_screen()

        self.app.push_screen(UnsavedDialog(self.draft.name), answered)


class UnsavedDialog(Dialog):
    """Unsaved changes: s or Enter saves, d discards, n or Esc goes back to the editor (never traps)."""

    BINDINGS = [Binding("s,enter", "choose('save')", "Save", priority=True), Binding("d", "choose('discard')", "Discard"),
                Binding("n,escape", "cancel", "Cancel")]

    def __init__(self, name: str, *, leaving: str = "leaving the editor") -> None:
        super().__init__()
        self.deck_name = name
        self.leaving = leaving

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(f"Save the changes to '{self.deck_name}'?", style="bold"), classes="dialog-title")
            yield Static(Text(f"The deck has changes that are not saved yet; {self.leaving} would lose them."))
            yield Static("s or Enter: save · d: discard the changes · n or Esc: back to the editor", classes="dialog-help")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


class NameDialog(Dialog):
    """The deck's name (Enter keeps it, Esc leaves it as it was)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.deck_name = name

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Deck name", classes="dialog-title")
            yield Input(self.deck_name, id="deck-name")
            yield Static("Enter: rename · Esc: keep the name", classes="dialog-help")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = " ".join(event.value.split())[:80]
        self.dismiss(name or None)
