"""Modal dialogs: a question on its own screen, the curtain, confirmations, the end of a duel,
pile viewers, messages, typed input, help, and the command palette. Each dismisses with its
answer (`ModalScreen[T]`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.command import CommandList, CommandPalette
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option as ListOption

from ...engine import CardView, Option
from ..widgets.lists import BrowsesList, Choices
from ..widgets.questions import Question
from .base import Dialog

if TYPE_CHECKING:  # (the menu's dialogs come before the card schema is loaded: tui/pool_loader.py)
    from ...schema.cardpool import CardPool


class QuestionScreen(Dialog):
    """A `Question` on its own modal screen (menus, the match screens): dismissed with its answer."""

    def __init__(self, question: Question) -> None:
        super().__init__()
        self.question = question
        self.cancellable = question.cancellable
        question.on_answer = self.dismiss

    def compose(self) -> ComposeResult:
        yield self.question


class CurtainScreen(ModalScreen[None]):
    """Hand the device over: nothing private is drawn until the next player presses Enter."""

    BINDINGS = [Binding("enter", "lift", "I am " , show=False), Binding("space", "lift", show=False)]

    def __init__(self, name: str, why: str = "") -> None:
        super().__init__()
        self.player_name = name
        self.why = why

    def compose(self) -> ComposeResult:
        with Vertical(classes="curtain"):
            yield Static(Text(f"Pass to {self.player_name}", style="bold"), classes="curtain-title")
            if self.why:
                yield Static(self.why, classes="curtain-why")
            yield Static(f"{self.player_name}: press Enter when the other player is not looking", classes="curtain-help")

    def action_lift(self) -> None:
        if self.is_current and not getattr(self, "_answered", False):
            self._answered = True
            self.dismiss(None)


class ConfirmScreen(Dialog):
    """A yes/no question before something that cannot be taken back (leaving, conceding,
    quitting). It never traps: y or Enter answers yes, n or Esc no; dismisses with a bool."""

    BINDINGS = [Binding("y,enter", "confirm", "Yes", priority=True), Binding("n,escape", "cancel", "No")]

    def __init__(self, title: str, body: str = "", *, yes: str = "yes", no: str = "no") -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.title_text, style="bold"), classes="dialog-title")
            if self.body:
                yield Static(Text(self.body))
            yield Static(f"y or Enter: {self.yes} · n or Esc: {self.no}", classes="dialog-help")

    def action_confirm(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)


class DuelOverScreen(Dialog):
    """The end of a duel: look at the board (Esc), play again (r: the first of `again`, e.g. a
    rematch where the loser goes first) or the menu (q). The board comes first so that an Enter
    typed ahead only closes this screen. Dismisses with the chosen option's key."""

    BINDINGS = [Binding("r", "again", "Rematch"), Binding("q", "choose('menu')", "Menu")]

    def __init__(self, outcome: str, again: Sequence[Option] = (), note: str = "", heading: str = "The duel is over") -> None:
        super().__init__()
        self.heading = heading  # (a puzzle's: solved or not)
        self.outcome = outcome
        self.again = list(again)  # rematch entries (or "try again"), keys chosen by the caller
        self.note = note  # e.g. who chooses to go first in the rematch
        self.options = [Option("board", "Look at the board"), *self.again, Option("menu", "Back to the menu")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.heading, style="bold"), classes="dialog-title")
            yield Static(Text(self.outcome, style="bold"))
            if self.note:
                yield Static(Text(self.note, style="dim"))
            yield Choices(*[ListOption(o.label, id=f"o{i}") for i, o in enumerate(self.options)], id="choices")
            yield Static("Enter choose" + (" · r play again" if self.again else "") + " · q menu · Esc the board", classes="dialog-help")

    def on_mount(self) -> None:
        found = self.query(OptionList)
        if found:
            found.first().focus()

    def action_again(self) -> None:
        if self.again:
            self.dismiss(self.again[0].key)

    def action_choose(self, key: str) -> None:
        self.dismiss(key)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.options[int((event.option.id or "o0")[1:])].key)


class TooSmallScreen(ModalScreen[None]):
    """Shown instead of everything while the terminal is below the size the screens need; the
    app removes it when the terminal is large enough again. It is modal, so no key reaches the
    screens below while they cannot be seen (ctrl+q still quits)."""

    def __init__(self, size: tuple[int, int], needs: tuple[int, int]) -> None:
        super().__init__()
        self.needs = needs
        self.now = size

    def compose(self) -> ComposeResult:
        with Vertical(classes="too-small"):
            yield Static(self._text(), id="too-small-text")

    def _text(self) -> Text:
        (w, h), (nw, nh) = self.now, self.needs
        text = Text(f"terminal too small (needs {nw}×{nh}, now {w}×{h})", style="bold")
        text.append("\nmake the window larger to go on · ctrl+q quits", style="dim")
        return text

    def show_size(self, size: tuple[int, int]) -> None:
        if size != self.now:
            self.now = size
            found = self.query("#too-small-text")
            if found:
                found.first(Static).update(self._text())


class PileScreen(BrowsesList, Dialog):
    """A pile (GY, banished, Extra Deck, …) as the viewer may see it, with the card text.

    `actionable` says which cards have actions now (a GY effect, a manual action for a card
    without scripts): Enter on one closes the viewer with its uid, and the duel screen opens
    that card's menu, the same as Enter on the board. Without it, or on other cards, Enter
    does nothing (Esc closes)."""

    def __init__(self, pool: CardPool, title: str, cards: Sequence[CardView],
                 actionable: Callable[[CardView], bool] | None = None) -> None:
        super().__init__()
        self.pool = pool
        self.title_text = title
        self.cards = list(cards)
        self.acts = [actionable is not None and c.uid is not None and actionable(c) for c in self.cards]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static(self.title_text, classes="dialog-title")
            labels: list[str | Text] = [self._label(c, acts) for c, acts in zip(self.cards, self.acts)] or ["(empty)"]
            yield Choices(*labels, id="pile")
            yield Static("", id="pile-detail")
            yield Static("↑↓ browse · Enter actions (▸) · Esc close" if any(self.acts) else "↑↓ browse · Esc close",
                         classes="dialog-help")

    @staticmethod
    def _label(view: CardView, acts: bool) -> Text:
        text = Text("▸ " if acts else "  ", style="bold #e8c170")
        text.append(view.name if view.name else "face-down card")
        return text

    def _show(self, index: int) -> None:
        view = self.cards[index] if 0 <= index < len(self.cards) else None
        from ..presenters.render import card_detail

        self.query_one("#pile-detail", Static).update(card_detail(self.pool, view, "Nothing here."))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        index = event.option_index
        if 0 <= index < len(self.cards) and self.acts[index]:
            self.dismiss(self.cards[index].uid)


class MessageScreen(Dialog):
    """A message with an OK (the end of a duel, an error)."""

    BINDINGS = [Binding("enter", "cancel", "OK", priority=True), Binding("escape", "cancel", "OK")]

    def __init__(self, title: str, body: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.title_text, style="bold"), classes="dialog-title")
            yield Static(Text(self.body))  # plain text: "[R-DECK-1]" in a message is not markup
            yield Static("Enter OK", classes="dialog-help")


class InputPrompt(Dialog):
    """Ask for a line of text (a save name, a seed, an LP change)."""

    def __init__(self, title: str, value: str = "", placeholder: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.value = value
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title")
            yield Input(value=self.value, placeholder=self.placeholder)
            yield Static("Enter confirm · Esc back", classes="dialog-help")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)


# the keys, by section: (title, [(keys, what they do)]); shown as two columns whose second wraps
# under itself at any width
HELP: list[tuple[str, list[tuple[str, str]]]] = [
    ("Moving around", [
        ("←↓↑→ or h j k l", "move between zones, hand and piles"),
        ("Enter", "the focused card's actions (greyed ones say why not, with the rule); nothing is chosen yet: "
                  "↓ then Enter, or the option's digit 1–9; a ✎ card has no script: its menu lists its manual actions too"),
        ("mouse", "click a card to act on it"),
    ]),
    ("Acting", [
        ("c or space", "every legal command now"),
        ("n", "next phase (Battle, Main 2, End) · pass in a response window"),
        ("a", "declare an attack (in Main Phase 1: into battle first)"),
        ("p", "pass in a response window; in your Main Phase 2, the End Phase"),
        ("s", "in a response prompt: pass, and stop asking until something happens"),
        ("ctrl+p", "command palette: concede, the menu, manual actions (solo, or when allowed)"),
        ("ctrl+x", "concede the duel, R-WIN-5 (asks first, naming who concedes)"),
    ]),
    ("Looking", [
        ("g / b / x", "Graveyards / banished cards / your Extra Deck (Enter on ▸: that card's actions)"),
        ("d", "the focused card in full"),
        ("L", "the whole duel log (the side panel shows its last lines)"),
        ("?", "this help"),
    ]),
    ('Hot-seat: "Anyone responding?" (one prompt for both players, where something happened)', [
        ("Enter or n", "no one responds: continue (at a curtain, Enter: show your cards)"),
        ("1 / 2", "Player 1 / Player 2 responds: the curtain, then your cards, the first activation highlighted"),
        ("s", "stop asking until something happens (a Summon, an activation, an attack …)"),
        ("d", "in the Damage Step: pass the rest of it (a chain link is still asked)"),
        ("Esc", "look at the board first (c asks again)"),
    ]),
    ("Leaving and after the duel", [
        ("q", "back to the menu (asks first; the duel stays autosaved)"),
        ("s", "save the duel under a name"),
        ("r", "once the duel is over: rematch (same decks, new seed; the loser picks first or second)"),
    ]),
    ("In a match (best of 3; the bar over the board shows the duel, the score and the clock)", [
        ("r", "once a duel is over: on to the break and the next duel"),
        ("side-deck screen", "←/→ or Tab: Main/Extra or Side · ↑↓ choose · Enter swap the two · r reset · d done"),
    ]),
    ("Solo testing", [
        ("u / r", "undo your last choice / restart the duel"),
        ("t / f", "new test hand (new seed) / go first or second in new hands"),
        ("w", "against the AI: why it made its last searched move (its hidden cards stay hidden)"),
    ]),
]


def help_text() -> Group:
    """The help as sections of two columns: the keys, and what they do (wrapped under itself)."""
    parts: list[Any] = []
    for title, keys in HELP:
        table = Table.grid(padding=(0, 2))
        table.add_column(no_wrap=True, min_width=17)
        table.add_column(ratio=1)
        for key, what in keys:
            table.add_row(key, what)
        parts += [Text(title, style="bold"), table, Text("")]
    parts.append(Text("The key bar shows the keys that work now; this list has them all."))
    return Group(*parts)


class HelpScreen(Dialog):
    BINDINGS = [Binding("escape", "cancel", "Close"), Binding("question_mark", "cancel", "Close"), Binding("enter", "cancel", "Close")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide help"):
            yield Static("Keys", classes="dialog-title")
            with VerticalScroll(id="help-body"):  # taller than an 80x24 terminal
                yield Static(help_text())
            yield Static("↑↓ scroll · Esc close", classes="dialog-help")

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()


class LogScreen(Dialog):
    """The whole duel log, as the player at the keyboard may read it: the side panel shows its
    last lines only, and an opponent's turn (the AI's, or a long chain) can be longer than that."""

    BINDINGS = [Binding("escape,enter,L", "cancel", "Close")]

    def __init__(self, lines: Sequence[Text]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide help"):
            yield Static(f"Duel log ({len(self.lines)} lines)", classes="dialog-title")
            with VerticalScroll(id="log-body"):
                yield Static(Text("\n").join(self.lines) if self.lines else Text("Nothing has happened yet.", style="dim"))
            yield Static("↑↓ PgUp PgDn scroll · Home the first line · Esc close", classes="dialog-help")

    def on_mount(self) -> None:
        body = self.query_one("#log-body", VerticalScroll)
        body.focus()
        # the latest lines first (what just happened), once laid out: before, there is nowhere to scroll
        self.call_after_refresh(body.scroll_end, animate=False, immediate=True)


class SafeCommandPalette(CommandPalette):
    """Textual's command palette, minus two faults of Textual 8: PageUp/PageDown while the list
    of commands is still being filled raised KeyError inside its option list (paging is then a
    no-op), and Enters typed ahead each closed the screen on top once the palette had closed
    (the duel, then the menu): it closes only itself."""

    def dismiss(self, result: Any = None) -> Any:
        if not self.is_current:
            return None
        return super().dismiss(result)

    def _action_command_list(self, action: str) -> None:
        try:
            getattr(self.query_one(CommandList), f"action_{action}")()
        except (AttributeError, KeyError, IndexError):
            return
