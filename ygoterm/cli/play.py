"""`ygoterm` (the menu), `ygoterm duel`, `ygoterm solo`, `ygoterm scenario play`: the TUI."""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import TYPE_CHECKING

from ..agents.ai import LEVELS
from ..schema.decks import load_deck
from ..schema.problems import DataError
from .common import EXIT_INTERNAL, EXIT_OK, UsageError, card_pool, deck_dirs, err, find_deck_file

if TYPE_CHECKING:
    from ..tui.app import YgoApp


def add_parser(sub: argparse._SubParsersAction) -> None:
    d = sub.add_parser("duel", help="a hot-seat duel between two decks (two players, one terminal)")
    d.add_argument("--p1", required=True, metavar="DECK", help="Player 1's deck (file or name)")
    d.add_argument("--p2", required=True, metavar="DECK", help="Player 2's deck")
    d.add_argument("--seed", type=int, help="the duel's random seed (default: a new one)")
    d.add_argument("--lp", type=int, choices=(8000, 4000, 2000), help="starting LP (R-SETUP-4)")
    d.set_defaults(run=run_duel)
    s = sub.add_parser("solo", help="test a deck alone: against a goldfish, a random AI, or a deck you play too")
    s.add_argument("deck", help="your deck (file or name)")
    s.add_argument("--opponent", default="goldfish", metavar="goldfish|random|ai[:LEVEL]|DECK",
                   help="goldfish (does nothing), random (random play), ai, ai:easy, ai:normal or ai:hard (the AI), "
                        "or a deck you play as well")
    s.add_argument("--ai-deck", metavar="DECK", help="the AI's deck (default: a copy of yours)")
    s.add_argument("--seed", type=int)
    s.add_argument("--lp", type=int, choices=(8000, 4000, 2000))
    s.set_defaults(run=run_solo)
    o = sub.add_parser("open", help="play on from a saved duel (s on the duel screen saves one; the autosave too)")
    o.add_argument("file", type=Path, help="a save file (.json), e.g. from the saves/ folder of your user data dir")
    o.set_defaults(run=run_open)


def add_scenario_play(scenario_sub: argparse._SubParsersAction) -> None:
    p = scenario_sub.add_parser("play", help="open a scenario (puzzle) in the TUI and play it")
    p.add_argument("file", type=Path)
    p.set_defaults(run=run_scenario_play)


def _deck(args: argparse.Namespace, pool, ref: str):
    deck, problems = load_deck(find_deck_file(ref, deck_dirs(args)), pool)
    if problems:
        raise DataError(problems, unreadable=False)
    return deck


def _app(args: argparse.Namespace, start=None):
    from ..tui.app import YgoApp

    pool = card_pool(args)
    app = YgoApp(pool, deck_dirs(args), start=start)
    if getattr(args, "lp", None):
        app.settings.starting_lp = args.lp
    return app


def run_menu(args: argparse.Namespace) -> int:
    return _run(_app(args))


def _run(app: "YgoApp") -> int:
    """Run the TUI; after an unexpected exception say where its report is and exit EXIT_INTERNAL."""
    app.run()
    if app.return_code:
        where = f"; the report (with the duel's replay) is in {app.crash_report}" if app.crash_report else ""
        err.print(f"[red]ygoterm stopped on an internal error{where}.[/] Please report it.")
        return EXIT_INTERNAL
    return EXIT_OK


def run_duel(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    decks = (_deck(args, pool, args.p1), _deck(args, pool, args.p2))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10**6)
    app = _app(args, start=lambda app: app.hot_seat_screen(decks, seed))
    return _run(app)


def run_solo(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    mine = _deck(args, pool, args.deck)
    opponent = args.opponent
    if opponent == "ai" or opponent.startswith("ai:"):
        kind = "ai:normal" if opponent == "ai" else opponent
        if kind[3:] not in LEVELS:
            raise UsageError(f"unknown AI level '{kind[3:]}'", f"choose one of: {', '.join('ai:' + level for level in LEVELS)}")
        other = _deck(args, pool, args.ai_deck) if args.ai_deck else mine
        unscripted = sorted({c.name for c in (*other.main, *other.extra) if c.play == "manual"})
        if unscripted:
            raise UsageError(f"the AI cannot play cards without scripts: {', '.join(unscripted)}",
                             "give it another deck with --ai-deck")
    else:
        if args.ai_deck:
            raise UsageError("--ai-deck is for --opponent ai")
        other = mine if opponent in ("goldfish", "random") else _deck(args, pool, opponent)
        kind = opponent if opponent in ("goldfish", "random") else "deck"
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10**6)
    app = _app(args, start=lambda app: app.solo_screen((mine, other), kind, seed))
    return _run(app)


def run_scenario_play(args: argparse.Namespace) -> int:
    return _run_file(args, lambda app: app.puzzle_screen(args.file))


def run_open(args: argparse.Namespace) -> int:
    return _run_file(args, lambda app: app.saved_screen(args.file))


def _run_file(args: argparse.Namespace, build) -> int:
    """Open the TUI on a screen built from `args.file` (a scenario or a save). The screen is built
    before the TUI starts, so a broken file or an unknown card is reported as a clean error."""
    if not args.file.is_file():
        raise UsageError(f"{args.file}: no such file")
    app = _app(args)
    screen = build(app)
    app.start = lambda app: screen
    return _run(app)
