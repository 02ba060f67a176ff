"""The menu's "Match (best of 3)" and "Duel vs computer": who plays, tournament time, the decks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..agents.ai import ABOUT
from ..engine import Option
from ..schema.decks import Deck
from ..schema.rules import Rules, TimeRules
from .presenters.decks import ai_refusal, manual_rules, survey_decks
from .presenters.match_session import MatchRun
from .presenters.session import Seat
from .presenters.settings import new_seed
from .screens.decks import DeckPicker
from .screens.dialogs import InputPrompt, MessageScreen, QuestionScreen
from .screens.match import MatchBreakScreen, MatchDuelScreen
from .widgets.questions import ChoicePrompt

if TYPE_CHECKING:
    from .app import YgoApp

AI_LEVELS = tuple((f"ai:{level}", f"The AI, {level} ({about})") for level, about in ABOUT.items())


def match_screen(run: MatchRun) -> Any:
    """The screen for where the match is: a duel, or between duels (or over)."""
    return MatchDuelScreen(run) if run.match.stage == "duel" else MatchBreakScreen(run)


def match_seats(opponent: str, names: list[str], prompts: list[str], alone: str = "auto") -> tuple[tuple[Seat, Seat], bool]:
    """The seats of a match and whether it is hot-seat: "hotseat" (two people), "deck" (you play
    both decks: no curtain), or an AI level (you against it); `alone`: your response prompts
    when you play alone."""
    if opponent == "hotseat":
        return (Seat(names[0], "human", prompts[0]), Seat(names[1], "human", prompts[1])), True
    if opponent.startswith("ai:"):
        return (Seat(names[0], "human", alone), Seat(f"AI ({opponent[3:]})", opponent, "auto")), False
    return (Seat(names[0], "human", alone), Seat(names[1], "human", alone)), False


def new_match(app: "YgoApp", decks: tuple[Deck, Deck], opponent: str, seed: int, *, minutes: float | None = None,
              rules: Rules | None = None, clock: Any = None) -> Any:
    """A match's first screen. `minutes`: tournament mode with that match length (None: casual)."""
    import time

    from ..schema.legality import rules_of_decks

    s = app.settings
    rules = rules_of_decks(decks, rules or s.rules())  # (decks built for rules: a GOAT match plays under them, as a duel does)
    if not opponent.startswith("ai:"):
        rules = manual_rules(rules, decks)  # two humans: cards without scripts are played by hand
    if minutes is not None:
        rules = rules.model_copy(update={"time": TimeRules(match_minutes=minutes)})
    seats, hot_seat = match_seats(opponent, s.names, s.prompts, s.solo_prompt)
    run = MatchRun.new(app.pool, decks, seed, rules, seats, hot_seat=hot_seat, tournament=minutes is not None,
                       clock=clock or time.monotonic)
    run.table_asks = s.table_asks
    return match_screen(run)


def menu_match(app: "YgoApp") -> None:
    """Match (best of 3): opponent → time → decks → the match. An unfinished match is never
    replaced without asking (its autosave would be)."""
    from ..paths import autosave_dir, next_autosave
    from .screens.dialogs import ConfirmScreen

    if next_autosave(autosave_dir(), "match").is_file():
        def answered(yes: bool | None) -> None:
            if yes:
                _choose_match(app)

        app.push_screen(ConfirmScreen("An unfinished match is autosaved",
                                      "A new match replaces its autosave. Start a new match anyway? "
                                      "(No: the menu's Resume plays on from it.)", yes="new match", no="back"), answered)
        return
    _choose_match(app)


def _choose_match(app: "YgoApp") -> None:
    entries = survey_decks(app.pool, app.deck_dirs)
    names = app.settings.names
    who = [Option("hotseat", f"Hot-seat: {names[0]} and {names[1]} at this terminal"),
           *[Option(key, label) for key, label in AI_LEVELS],
           Option("deck", "Solo: a second deck you play too")]

    def decks(opponent: str, minutes: float | None) -> None:
        second = "The AI's deck" if opponent.startswith("ai:") else f"{names[1]}: choose a deck"

        def other(first: Deck | None) -> None:
            if first is not None:
                app.push_screen(DeckPicker(second, entries),
                                lambda deck: deck and opponent.startswith("ai:") and _refuse_for_ai(app, deck)
                                or deck and app.push_screen(new_match(app, (first, deck), opponent, new_seed(), minutes=minutes)))

        app.push_screen(DeckPicker(f"{names[0]}: choose a deck" if opponent == "hotseat" else "Your deck", entries), other)

    def timed(opponent: Option | None) -> None:
        if opponent is None:
            return
        times = [Option("casual", "Casual: no time limit"), Option("40", "Tournament: 40 minutes (R-TIME-1)"),
                 Option("20", "Tournament: 20 minutes"), Option("custom", "Tournament: another length…"),
                 Option("0", "Tournament: time is called at once (to watch the time procedure)")]

        def chosen(option: Option | None) -> None:
            if option is None:
                return
            if option.key == "casual":
                decks(opponent.key, None)
            elif option.key == "custom":
                app.push_screen(InputPrompt("Match length in minutes (0–1440)", "30"), lambda text: _minutes(text))
            else:
                decks(opponent.key, float(option.key))

        def _minutes(text: Any) -> None:
            try:
                minutes = float(str(text).strip())
            except ValueError:
                minutes = -1
            if not 0 <= minutes <= 24 * 60:
                if text is not None:
                    app.notify(f"{text!r}: give the match length as minutes from 0 to 1440.", severity="error", markup=False)
                return
            decks(opponent.key, minutes)

        app.push_screen(QuestionScreen(ChoicePrompt("Tournament time (R-TIME)?", times)), chosen)

    app.push_screen(QuestionScreen(ChoicePrompt("Match (best of 3): who plays?", who)), timed)


def _refuse_for_ai(app: "YgoApp", deck: Deck) -> bool:
    """True (and says why) when the AI cannot play `deck`: it has cards without scripts."""
    why = ai_refusal(deck)
    if why:
        app.push_screen(MessageScreen("The AI cannot play this deck", f"{why}.\n\nChoose another deck for the AI."))
    return bool(why)


def menu_vs_computer(app: "YgoApp", start: Callable[[tuple[Deck, Deck], str], Any]) -> None:
    """Duel vs computer: the AI's level, your deck, the AI's deck (default: the same)."""
    entries = survey_decks(app.pool, app.deck_dirs)

    def level(option: Option | None) -> None:
        if option is None:
            return

        def ai_deck(mine: Deck | None) -> None:
            if mine is not None:
                app.push_screen(DeckPicker("The AI's deck", entries),
                                lambda deck: deck and _refuse_for_ai(app, deck) or deck and app.push_screen(start((mine, deck), option.key)))

        app.push_screen(DeckPicker("Your deck", entries), ai_deck)

    app.push_screen(QuestionScreen(ChoicePrompt("Duel vs computer: which AI?", [Option(k, label) for k, label in AI_LEVELS],
                                 default="ai:normal")), level)
