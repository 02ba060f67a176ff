"""`ygoterm` (the menu), `ygoterm duel`, `ygoterm solo`, `ygoterm open`, `ygoterm scenario play`: the TUI.

The shortcuts start what the menu would start, refusing what it refuses (an illegal deck), and
take the menu's Settings as their defaults (`defaults.py`), never as a silent override of a flag."""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..agents.ai import LEVELS
from ..schema.cardpool import CardPool
from ..schema.decks import Deck, unscripted_cards
from ..schema.legality import rules_admitting
from ..schema.rules import Rules
from .common import UsageError, card_pool
from .defaults import SettingsHelpFormatter, apply_settings
from . import menu
from .picks import find_save, playable_deck

if TYPE_CHECKING:
    from textual.screen import Screen

    from ..tui.app import YgoApp


_FROM_SETTINGS_NOTE = ("Player names and response prompts are those of the menu's Settings; "
                      "a flag always wins over a setting.")


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    d = sub.add_parser("duel", help="a hot-seat duel between two decks (two players, one terminal)",
                       description="A hot-seat duel between two decks. A deck the menu would refuse (R-DECK-1…8) is refused. "
                                   + _FROM_SETTINGS_NOTE, formatter_class=SettingsHelpFormatter)
    d.add_argument("--p1", required=True, metavar="DECK", help="Player 1's deck (file or name)")
    d.add_argument("--p2", required=True, metavar="DECK", help="Player 2's deck")
    d.add_argument("--manual-actions", action="store_true",
                   help="allow manual actions (move cards, LP, counters … by hand) in this duel; they are switched on "
                        "anyway when a deck has cards without scripts (`play: manual`)")
    _duel_options(d)
    d.set_defaults(run=run_duel)
    s = sub.add_parser("solo", help="test a deck alone: against a goldfish, a random AI, or a deck you play too",
                       description="Test a deck alone. A deck the menu would refuse (R-DECK-1…8) is refused. " + _FROM_SETTINGS_NOTE,
                       formatter_class=SettingsHelpFormatter)
    s.add_argument("deck", help="your deck (file or name)")
    s.add_argument("--opponent", default="goldfish", metavar="goldfish|random|ai[:LEVEL]|DECK",
                   help="goldfish (does nothing), random (random play), ai, ai:easy, ai:normal or ai:hard (the AI), "
                        "or a deck you play as well")
    s.add_argument("--ai-deck", metavar="DECK", help="the AI's deck (default: a copy of yours)")
    _duel_options(s)
    s.set_defaults(run=run_solo)
    o = sub.add_parser("open", help="play on from a saved duel (s on the duel screen saves one; the autosave too)")
    o.add_argument("save", metavar="SAVE", help="a save's name as the menu's Saved duels lists it (with or without .json; "
                                                 "'autosave' is the last unfinished duel), or the path of a save file")
    o.set_defaults(run=run_open)


def _duel_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, help="the duel's random seed (default: a new one)")
    p.add_argument("--lp", type=int, choices=(8000, 4000, 2000), help="starting LP (R-SETUP-4)")
    p.add_argument("--allow-illegal", action="store_true",
                   help="play a deck that breaks the deck sizes, copy limits or its banlist (R-DECK-1…5) anyway")


def add_scenario_play(scenario_sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = scenario_sub.add_parser("play", help="open a scenario (puzzle) in the TUI and play it")
    p.add_argument("file", type=Path)
    p.set_defaults(run=run_scenario_play)


DuelBuilder = Callable[["YgoApp", tuple[Deck, Deck], int, Rules], "Screen[Any]"]  # (app, decks, seed, rules) → the duel screen


def _duel_start(args: argparse.Namespace, pool: CardPool, decks: tuple[Deck, Deck], illegal: list[str], build: DuelBuilder) -> int:
    """Open the TUI on the duel `build(app, decks, seed, rules)` makes, under the settings' rules
    with the flags applied (the settings themselves are left as they are); the screen says
    which values came from the settings and that a deck is played although illegal."""
    app = menu.tui_app(args, pool)
    notes = apply_settings(args, app.settings)
    rules = app.settings.rules()
    rules = rules.model_copy(update={"duel": rules.duel.model_copy(update={"starting_lp": args.lp})})
    if illegal:
        rules = rules.model_copy(update={"deck": rules_admitting(decks, rules.deck)})
        notes.append(f"Playing a deck that breaks {', '.join(illegal)} (--allow-illegal).")
    if getattr(args, "manual_actions", False):
        rules = rules.model_copy(update={"manual_actions": True})  # (the duel screen says they are on, and why)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10**6)

    def start(app: YgoApp) -> Screen[Any]:
        screen = build(app, decks, seed, rules)
        for note in notes:
            app.notify(note, timeout=12, markup=False)
        return screen

    app.start = start
    return menu.run_app(app)


def run_duel(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    (first, broken1), (second, broken2) = playable_deck(args, pool, args.p1), playable_deck(args, pool, args.p2)
    return _duel_start(args, pool, (first, second), sorted({*broken1, *broken2}),
                       lambda app, decks, seed, rules: app.hot_seat_screen(decks, seed, rules))


def run_solo(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    mine, broken = playable_deck(args, pool, args.deck)
    opponent = args.opponent
    if opponent == "ai" or opponent.startswith("ai:"):
        kind = "ai:normal" if opponent == "ai" else opponent
        if kind[3:] not in LEVELS:
            raise UsageError(f"unknown AI level '{kind[3:]}'", f"choose one of: {', '.join('ai:' + level for level in LEVELS)}")
        other, other_broken = playable_deck(args, pool, args.ai_deck) if args.ai_deck else (mine, [])
        unscripted = unscripted_cards(other, sections=("main", "extra"))
        if unscripted:
            raise UsageError(f"the AI cannot play cards without scripts: {', '.join(unscripted)}",
                             "give it another deck with --ai-deck")
    else:
        if args.ai_deck:
            raise UsageError("--ai-deck is for --opponent ai")
        other, other_broken = (mine, []) if opponent in ("goldfish", "random") else playable_deck(args, pool, opponent)
        kind = opponent if opponent in ("goldfish", "random") else "deck"
    return _duel_start(args, pool, (mine, other), sorted({*broken, *other_broken}),
                       lambda app, decks, seed, rules: app.solo_screen(decks, kind, seed, rules, first=app.first_as_set()))


def run_scenario_play(args: argparse.Namespace) -> int:
    if not args.file.is_file():
        raise UsageError(f"{args.file}: no such file")
    return _run_file(args, lambda app: app.puzzle_screen(args.file))


def run_open(args: argparse.Namespace) -> int:
    path = find_save(args.save)
    return _run_file(args, lambda app: app.saved_screen(path))


def _run_file(args: argparse.Namespace, build: Callable[[YgoApp], Screen[Any]]) -> int:
    """Open the TUI on a screen built from a file (a scenario or a save). The screen is built
    before the TUI starts, so a broken file or an unknown card is reported as a clean error."""
    app = menu.tui_app(args, card_pool(args))
    screen = build(app)
    app.start = lambda app: screen
    return menu.run_app(app)
