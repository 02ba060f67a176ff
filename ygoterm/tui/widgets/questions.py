"""The duel's questions: a choice, a selection, a declaration, the shared response window.

A `Question` is a widget: the duel screen asks it over the board (`DuelScreen.ask`), a modal
screen would draw the whole board again under it at every question, which is most of what a
keypress costs. Anywhere else a question sits on its own modal screen (`QuestionScreen`).
Either way it answers through `Question.answer`, once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text
from textual.geometry import Size
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.containers import Vertical
from textual.widgets import Input, OptionList, SelectionList, Static
from textual.widgets.option_list import Option as ListOption

from ...engine import Decision, Kind, Option, Refusal
from ..presenters.tags import ATTACK_TAGS, PLACE_TAG
from .lists import Choices

if TYPE_CHECKING:  # (the menu's dialogs come before the card schema is loaded: tui/pool_loader.py)
    pass


Describe = Callable[[Option], str]  # what an option's card is, for the list: "Player 2's M3 · 1400/1200 · ATK"


Highlight = Callable[[Option | None], None]  # the option now highlighted (the duel screen shows its card)


@dataclass(frozen=True)
class Numbered:
    """An option of a numbered list: its number in a column of its own, so that a label too long for
    the line goes on under the label, not under the number (a duel as a user read option 3 end in
    "card", then a line "4" that looked like option 4). `str` is the line as read: "3 summon …"."""

    number: int | None
    label: Text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(width=1, no_wrap=True)
        grid.add_column(ratio=1)
        grid.add_row(Text(str(self.number) if self.number is not None else "", style="bold #7d8794"), self.label)
        yield grid

    def __str__(self) -> str:
        return f"{self.number} {self.label.plain}" if self.number is not None else self.label.plain


def _option_text(option: Option, describe: Describe | None) -> Text:
    text = Text()
    about = describe(option) if describe is not None and option.card is not None else ""
    # the description says where the card is ("Player 1's hand, card 6"; the attacker's and the target's places): the
    # label drops the tag that tells equal labels apart for typed commands ("Smashing Ground@H6", "@M4->M1")
    text.append(ATTACK_TAGS.sub("", option.label) if "target:" in about else PLACE_TAG.sub("", option.label) if about
                else option.label)
    if about:
        text.append(f"  · {about}", style="dim")
    return text


class Question(Vertical, can_focus=True):
    """A question's body: its widgets and keys. `answer` gives the answer to whoever asked
    (`on_answer`), once: keys typed ahead (a second Enter) must not answer twice. Escape
    answers None when `cancellable`. Tab stays in the question (the board behind it is not
    for the keys while it is open)."""

    BINDINGS = [Binding("escape", "cancel", "back", key_display="Esc"), Binding("tab,shift+tab", "stay", show=False)]
    cancellable = True
    ASKED: tuple[str, ...] = ()  # what `ask` takes from the next question (classes that can be asked again)
    context: list[str] = []  # what the question answers, a line each (a response: the chain link …)

    def __init__(self, *, classes: str = "") -> None:
        super().__init__(classes=f"dialog {classes}".strip())
        self.on_answer: Callable[[Any], None] | None = None
        self.answered = False

    def answer(self, result: Any) -> None:
        if self.answered or self.on_answer is None:
            return
        self.answered = True
        self.on_answer(result)

    def action_cancel(self) -> None:
        if self.cancellable:
            self.answer(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """(The duel's key bar shows the open question's keys that work: Esc only where it backs out.)"""
        return self.cancellable if action == "cancel" else True

    def action_stay(self) -> None:
        """(Tab: the focus stays in the question.)"""

    def _context_lines(self) -> list[Static]:
        self.context_room = len(self.context)  # context lines `ask` can fill (more would need mounting)
        return [Static(Text(line), classes="dialog-context") for line in self.context]

    def can_ask(self, question: Question) -> bool:
        """Whether `ask` can put `question` here: it is of this class, which can be asked again,
        and this one is mounted, answered, and has room for the question's context lines (a
        line more would have to be mounted, which would race the first frame; lines not needed
        are hidden)."""
        return (bool(self.ASKED) and type(question) is type(self) and self.is_mounted and self.answered
                and len(question.context) <= self.context_room and self._fits(question))

    def _fits(self, question: Question) -> bool:
        return True

    def ask(self, question: Question) -> None:
        """Ask `question` with this one's widgets, which stay mounted between questions:
        composing a question's widgets and styling them anew cost a third of opening it. The
        widgets stay, their content changes."""
        for name in self.ASKED:
            setattr(self, name, getattr(question, name))
        self.answered = False
        for i, line in enumerate(self.query(".dialog-context").results(Static)):
            line.display = i < len(self.context)
            if line.display:
                line.update(Text(self.context[i]))
        self._refill()

    def _refill(self) -> None:
        """(`ask`: the widgets other than the context lines show the new question.)"""

    def on_mount(self) -> None:
        self.start()

    def start(self) -> None:
        """Focus what takes the keys; called when the question is shown."""
        self.take_keys(self)

    def take_keys(self, widget: Any) -> None:
        """Focus `widget` now: `Widget.focus` does it later, which can land after the question
        was answered and hidden (then a hidden question kept the keys)."""
        self.screen.set_focus(widget)


def open_question(app: Any) -> Any:
    """What the player is asked now: the question open over the duel board, or on a
    `QuestionScreen`; otherwise the current screen itself (a curtain, a message, the board).
    For tools and tests that answer the screens like a person."""
    screen = app.screen
    question = getattr(screen, "question", None)
    return question if question is not None else screen


class ChoicePrompt(Question):
    """Pick one option. Refused actions appear greyed with the engine's reason and rule.

    `default`: the option highlighted first (a key); `nothing_chosen`: none is (a card's menu
    opened with Enter, so that a second Enter never acts by itself). The digits 1–9 choose an
    option at once. `context` says what the question answers (a response: the chain link …)."""

    BINDINGS = [Binding("p", "pass_option", "pass"), Binding("n", "pass_option", show=False),
                Binding("s", "skip", "skip until something happens"), Binding("w", "why", show=False),
                *[Binding(str(n), f"number({n})", show=False) for n in range(1, 10)]]
    digits = True  # (for tools that drive the screens: the digits choose)
    SKIP = "skip"  # the answer of s in a response window: pass, and stop asking until something happens
    ASKED = ("title_text", "options", "refusals", "cancellable", "default", "nothing_chosen", "context", "describe",
             "on_highlight", "skippable")

    def __init__(self, title: str, options: Sequence[Option], *, refusals: Iterable[Refusal] = (),
                 cancellable: bool = True, default: str | None = None, nothing_chosen: bool = False,
                 context: Sequence[str] = (), describe: Describe | None = None, on_highlight: Highlight | None = None,
                 skippable: bool = False) -> None:
        super().__init__()
        self.skippable = skippable  # a response window: s passes and stops the asking until something happens
        self.title_text = title
        self.options = list(options)
        self.refusals = list(refusals)
        self.cancellable = cancellable
        self.default = default
        self.nothing_chosen = nothing_chosen
        self.context = list(context)
        self.describe = describe
        self.on_highlight = on_highlight

    def compose(self) -> ComposeResult:
        yield Static(self.title_text, classes="dialog-title")
        yield from self._context_lines()
        yield Choices(*self._items(), id="choices")
        yield Static(self._help_text(), classes="dialog-help")

    def _items(self) -> list[ListOption]:
        numbered = bool(self.options)
        items = [ListOption(Numbered(i + 1 if numbered and i < 9 else None, _option_text(o, self.describe)), id=f"o{i}")
                 for i, o in enumerate(self.options)]
        self.listed = items + [ListOption(Text(str(r), style="dim"), id=f"r{i}", disabled=True) for i, r in enumerate(self.refusals)]
        return self.listed

    def _current(self, event: OptionList.OptionHighlighted | OptionList.OptionSelected) -> bool:
        """Whether `event` is about this question's options: one sent for the last question asked
        with these widgets (a key typed ahead) arrives after `ask` put the next one here."""
        return any(event.option is item for item in self.listed)

    def _help_text(self) -> str:
        keys = "↓ then Enter choose" if self.nothing_chosen else "Enter choose"
        if self.options:
            keys += " · 1–9 choose"
        return (keys + (" · p pass" if self._pass_option() else "") + (" · s skip until something happens" if self.skippable else "")
                + (" · Esc back" if self.cancellable else ""))

    def _refill(self) -> None:
        self.query_one(".dialog-title", Static).update(self.title_text)
        choices = self.query_one(OptionList)
        choices.clear_options()
        # (hidden, the list measures nothing and keeps the last question's height as its scroll height: shown again, a
        # shorter list took a scrollbar for it, its labels wrapped for the scrollbar's room into a line more than its
        # height — option 1's first line out of sight, a duel as a user saw: Textual 8.2)
        choices.virtual_size = Size(choices.virtual_size.width, 0)
        choices.add_options(self._items())
        if choices.option_count:
            choices.action_first()  # (as a new OptionList starts)
        self.query_one(".dialog-help", Static).update(self._help_text())

    def _pass_option(self) -> Option | None:
        return next((o for o in self.options if o.key == "pass"), None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pass_option":
            return self._pass_option() is not None
        if action == "skip":
            return self.skippable and self._pass_option() is not None
        return super().check_action(action, parameters)

    def action_skip(self) -> None:
        """s in a response window: pass, and the windows after it pass by themselves until
        something happens (a Summon, an activation, an attack …), never past this turn."""
        if self.skippable and self._pass_option() is not None:
            self.answer(self.SKIP)

    class WhyAsked(Message):
        """w over a question: the screen shows why the AI did what it just did."""

    def action_why(self) -> None:
        """w: why the AI did what it just did, over this question (answering the AI's attack,
        you may want to know); the question stays (the duel screen answers `WhyAsked`)."""
        self.post_message(self.WhyAsked())

    def action_pass_option(self) -> None:
        """p (or n) answers "pass" in a response window, as on the board."""
        option = self._pass_option()
        if option is not None:
            self.answer(option)

    def action_number(self, n: int) -> None:
        if 0 < n <= min(9, len(self.options)):
            self.answer(self.options[n - 1])

    def start(self) -> None:
        """Focus the options and highlight the first one to show (none, the default …)."""
        found = self.query(OptionList)
        if not found:
            return  # (answered, or the app closing, before it was mounted)
        choices = found.first()
        self.take_keys(choices)
        if self.nothing_chosen:
            choices.highlighted = None
        elif self.default is not None:
            for i, o in enumerate(self.options):
                if o.key == self.default:
                    choices.highlighted = i
        self._highlighted(choices.highlighted)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self._current(event):
            self._highlighted(event.option_index)

    def _highlighted(self, index: int | None) -> None:
        if self.on_highlight is not None and not self.answered:
            self.on_highlight(self.options[index] if index is not None and 0 <= index < len(self.options) else None)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""
        if option_id.startswith("o") and self._current(event):
            self.answer(self.options[int(option_id[1:])])


class SelectPrompt(Question):
    """Select min..max cards with a running count; for ORDER decisions, the order of ticking is
    the order (first ticked = first)."""

    BINDINGS = [Binding("enter", "confirm", "confirm", priority=True)]

    def __init__(self, decision: Decision, *, ordering: bool = False, refused: str = "", describe: Describe | None = None,
                 on_highlight: Highlight | None = None) -> None:
        super().__init__()
        self.decision = decision
        self.ordering = ordering
        self.refused = refused
        self.describe = describe
        self.on_highlight = on_highlight
        self.picked: list[int] = []  # (Escape leaves the question open: the board's c asks it again)

    def compose(self) -> ComposeResult:
        d = self.decision
        yield Static(d.prompt, classes="dialog-title")
        if self.refused:
            yield Static(Text(self.refused, style="bold red"), id="refused")
        yield SelectionList[int](*[(_option_text(o, self.describe), i) for i, o in enumerate(d.options)], id="select")
        yield Static("", id="count", classes="dialog-help")
        yield Static("Space tick · Enter confirm · Esc back to the board", classes="dialog-help")

    def on_mount(self) -> None:
        self._update_count()

    def start(self) -> None:
        self.take_keys(self.query_one(SelectionList))
        if self.on_highlight is not None and self.decision.options:
            self.on_highlight(self.decision.options[0])

    def on_selection_list_selection_highlighted(self, event: SelectionList.SelectionHighlighted) -> None:
        if self.on_highlight is not None and not self.answered and 0 <= event.selection_index < len(self.decision.options):
            self.on_highlight(self.decision.options[event.selection_index])

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged) -> None:
        selected = set(event.selection_list.selected)
        self.picked = [i for i in self.picked if i in selected] + [i for i in sorted(selected) if i not in self.picked]
        self._update_count()

    def _update_count(self) -> None:
        d = self.decision
        want = str(d.min) if d.min == d.max else f"{d.min}–{d.max}"
        n = len(self.picked)
        ok = d.min <= n <= d.max
        # the ticked options in words: a tick differs from an empty box by its colour only (none without colour, NO_COLOR)
        named = "" if not self.picked else (" · order: " if self.ordering else ": ") + ", ".join(
            PLACE_TAG.sub("", d.options[i].label) for i in self.picked)
        self.query_one("#count", Static).update(Text(f"{n} of {want} selected{named}", style="bold green" if ok else "bold yellow"))

    def action_confirm(self) -> None:
        d = self.decision
        if not d.min <= len(self.picked) <= d.max:
            self.notify(f"Choose {d.min if d.min == d.max else f'{d.min} to {d.max}'}", severity="warning", markup=False)
            return
        self.answer([d.options[i] for i in self.picked])


class DeclarePrompt(Question):
    """Declare a Type, Attribute, card name or number: type to filter, Enter to choose."""

    def __init__(self, decision: Decision) -> None:
        super().__init__()
        self.decision = decision
        self.shown: list[Option] = list(decision.options)

    def compose(self) -> ComposeResult:
        yield Static(self.decision.prompt, classes="dialog-title")
        yield Input(placeholder="type to filter", id="filter")
        yield Choices(*[o.label for o in self.shown[:200]], id="choices")

    def start(self) -> None:
        self.take_keys(self.query_one(Input))

    def on_input_changed(self, event: Input.Changed) -> None:
        word = event.value.strip().casefold()
        # the word itself first, then the labels it starts, then those it is inside: "Warrior" + Enter is Warrior,
        # not Beast-Warrior (seen declaring with Tribe-Infecting Virus)
        found = [o for o in self.decision.options if word in o.label.casefold()]
        self.shown = sorted(found, key=lambda o: (o.label.casefold() != word, not o.label.casefold().startswith(word)))
        choices = self.query_one(OptionList)
        choices.clear_options()
        choices.add_options([o.label for o in self.shown[:200]])

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.shown:
            self.answer(self.shown[0])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.answer(self.shown[event.option_index])


class SharedResponse(Question):
    """A hot-seat response window: one question to both players at the table, from the public
    view. It looks the same at every window, whichever player the engine asks and whether or not
    anyone could respond, so it reveals nothing: Enter continues (no one responds), 1 or 2 says
    that player responds (the curtain, then their own cards with the first activation
    highlighted), s stops asking until something happens, d passes the rest of the Damage Step.

    `auto_continue` (seconds, 0 = off; a setting): Enter is pressed by itself after that long
    unless someone presses any other key first (which stops the countdown). Answers
    "continue", "respond:N", "skip", "skip-damage-step", or None (Esc: the board, c asks again)."""

    BINDINGS = [Binding("enter", "choose('continue')", "continue", priority=True),
                Binding("n", "choose('continue')", show=False),  # (n moves on, as on the board)
                Binding("1", "choose('respond:0')", "respond", show=False), Binding("2", "choose('respond:1')", "respond", show=False),
                Binding("s", "choose('skip')", "skip until something happens"),
                Binding("d", "skip_damage_step", show=False)]
    ASKED = ("names", "context", "in_damage_step", "auto_continue")

    def __init__(self, names: Sequence[str], context: Sequence[str], *, in_damage_step: bool = False,
                 auto_continue: float = 0.0) -> None:
        super().__init__(classes="shared")
        self.names = list(names)
        self.context = list(context)
        self.in_damage_step = in_damage_step
        self.auto_continue = auto_continue
        self.countdown: Any = None

    def compose(self) -> ComposeResult:
        yield Static(Text("Anyone responding?", style="bold"), classes="dialog-title")
        yield from self._context_lines()
        yield Static(self._keys_text(), id="shared-keys", classes="dialog-help")
        if self.auto_continue > 0:
            yield Static(self._countdown_text(), id="countdown", classes="dialog-help")

    def _keys_text(self) -> Text:
        keys = Text()
        for key, what in (("Enter", "no one responds: continue"), ("1", f"{self.names[0]} responds"),
                          ("2", f"{self.names[1]} responds"), ("s", "stop asking until something happens"),
                          *((("d", "pass the rest of this Damage Step"),) if self.in_damage_step else ()),
                          ("Esc", "look at the board first")):
            keys.append(f"\n{key:>5} ", style="bold")
            keys.append(what)
        return keys

    def _countdown_text(self) -> Text:
        return Text(f"continuing by itself in {self.auto_continue:g} s — any other key waits", style="italic")

    def _fits(self, question: Question) -> bool:
        return (getattr(question, "auto_continue", 0) > 0) == (self.auto_continue > 0)  # (the countdown's line)

    def _refill(self) -> None:
        self.query_one("#shared-keys", Static).update(self._keys_text())
        if self.auto_continue > 0:
            self.query_one("#countdown", Static).update(self._countdown_text())

    def start(self) -> None:
        super().start()
        if self.auto_continue > 0 and self.countdown is None:
            self.countdown = self.set_timer(self.auto_continue, lambda: self.action_choose("continue"))

    def stop_countdown(self) -> None:
        if self.countdown is not None:
            self.countdown.stop()
            self.countdown = None
            found = self.query("#countdown")
            if found:
                found.first(Static).update(Text("waiting — Enter continues", style="italic"))

    def on_key(self, event: Any) -> None:
        """Any key that does not answer stops the countdown (either player may: "wait!")."""
        if event.key not in ("enter", "n", "1", "2", "s", "d", "escape"):
            self.stop_countdown()

    def action_choose(self, result: str) -> None:
        self.stop_countdown()
        self.answer(result)

    def action_skip_damage_step(self) -> None:
        if self.in_damage_step:
            self.action_choose("skip-damage-step")

    def action_cancel(self) -> None:
        self.stop_countdown()
        self.answer(None)


def prompt_for(decision: Decision, refused: str = "", *, context: Sequence[str] = (), describe: Describe | None = None,
               on_highlight: Highlight | None = None, responding: bool = False) -> Question:
    """The question that asks a decision (Main Phase and Battle Step commands use the board);
    `refused` says why the last answer to it was refused. A response window highlights "pass"
    (Enter passes), unless the player said they respond (`responding`): then the first activation."""
    kind = decision.kind
    extra: dict[str, Any] = {"describe": describe, "on_highlight": on_highlight}
    if kind == Kind.CARDS:
        if decision.min == decision.max == 1:
            return ChoicePrompt(decision.prompt, decision.options, context=context, **extra)
        return SelectPrompt(decision, refused=refused, **extra)
    if kind == Kind.ORDER:
        return SelectPrompt(decision, ordering=True, **extra)
    if kind == Kind.DECLARE:
        return DeclarePrompt(decision)
    default = None
    if kind == Kind.CHAIN:
        default = next((o.key for o in decision.options if o.key != "pass"), "pass") if responding else "pass"
    return ChoicePrompt(decision.prompt, decision.options, default=default, context=context, **extra,
                        skippable=kind == Kind.CHAIN and not responding)


class QuestionLayer(Vertical):
    """Where the duel's questions are asked: a layer over the board, left of the card text and
    the chain panel, in the duel screen itself — a modal screen would draw the whole board
    again under it, which was most of what opening a question cost. The widgets of a
    ChoicePrompt and of a shared response window are kept for the next question of their
    class (`Question.ask`): composing and styling them anew costs more than changing them."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.question: Question | None = None  # the question open now
        self.kept: dict[type, Question] = {}  # a question of each class that can be asked again, kept mounted

    def pose(self, question: Question, done: Callable[[Any], None]) -> None:
        """Show `question`; `done` gets its answer, at once (the next question then opens in
        the same frame), once it is hidden and the focus is back on the screen."""
        kept = self.kept.get(type(question))
        if kept is not None and kept.can_ask(question):
            kept.ask(question)
            shown: Question = kept
            shown.display = True
            shown.start()
        else:
            if question.ASKED:
                if kept is not None:
                    kept.remove()
                self.kept[type(question)] = question
            shown = question
            self.mount(question)  # (it starts itself once mounted: `Question.on_mount`)

        def answered(result: Any) -> None:
            self.question = None
            if self.kept.get(type(shown)) is shown:
                shown.display = False
            else:
                shown.remove()
            self.screen.set_focus(None)
            done(result)

        shown.on_answer = answered
        self.question = shown
