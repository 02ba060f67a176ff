"""`ygoterm match`: a best-of-three match (RULES.md §12), optionally under tournament time (§13).

With `--auto AGENT AGENT` the whole match plays headless and its record is printed; `--replay
FILE` loads a match save, replays and verifies it and prints the same record. Without `--auto`
the match opens in the TUI: hot-seat, or against the AI with `--opponent ai[:LEVEL]`.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..agents import AGENTS, make_agent
from ..agents.observation import observe
from ..agents.random_agent import RandomAgent
from ..engine import (DuelBegins, DuelResult, Kind, Match, MatchEnd, OrderChosen, SideDone, TimeCalled,
                      TimeProcedure, load_match)
from ..schema.decks import unscripted_cards
from ..schema.legality import rules_admitting, rules_of_decks
from ..schema.rules import Rules, TimeRules
from .common import EXIT_OK, UsageError, card_pool, out
from .defaults import apply_settings
from .picks import playable_deck

if TYPE_CHECKING:
    from textual.screen import Screen

    from ..tui.app import YgoApp

MAX_DECISIONS = 2_000_000  # a safety net: random play ends every duel long before this


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    m = sub.add_parser("match", help="a best-of-three match with side-decking; --tournament adds the time limit",
                       description="A match of up to 3 duels (R-MATCH-1…5): first to 2 wins, the loser of a duel chooses to go "
                                   "first or second in the next, Side Decks are exchanged one for one between duels. "
                                   "--tournament plays under the time procedure of R-TIME-1…7 (time.procedure classic2005). "
                                   "Without --auto the match is played in the TUI (hot-seat, or --opponent ai:LEVEL); "
                                   "with --auto both players are agents and the record is printed.")
    m.add_argument("--p1", metavar="DECK", help="Player 1's deck (file or name)")
    m.add_argument("--p2", metavar="DECK", help="Player 2's deck")
    m.add_argument("--seed", type=int, help="the match seed; each duel's seed derives from it (default: a new one)")
    m.add_argument("--tournament", action="store_true", help="tournament mode: the match clock and the time procedure (R-TIME)")
    m.add_argument("--time", type=float, metavar="MINUTES",
                   help="match length in minutes with --tournament (default 40, R-TIME-1); 0 calls time at the start of duel 1")
    m.add_argument("--auto", nargs=2, metavar=("AGENT", "AGENT"),
                   help=f"play the match headless with these agents for Player 1 and Player 2 ({', '.join(AGENTS)})")
    m.add_argument("--opponent", metavar="human|ai[:LEVEL]", default="human",
                   help="in the TUI: Player 2 is a person at this terminal (hot-seat, the default) or the AI "
                        "(ai, ai:easy, ai:normal, ai:hard) playing the --p2 deck")
    m.add_argument("--save", type=Path, metavar="FILE", help="write the match save (its replay) to FILE")
    m.add_argument("--replay", type=Path, metavar="FILE", help="load a match save, replay and verify it, and print its record")
    m.add_argument("--lp", type=int, choices=(8000, 4000, 2000), help="starting LP (R-SETUP-4)")
    m.add_argument("--allow-illegal", action="store_true",
                   help="play a deck that breaks the deck sizes, copy limits or its banlist (R-DECK-1…5) anyway")
    m.set_defaults(run=run_match)


def run_match(args: argparse.Namespace) -> int:
    if args.replay is not None:
        if args.p1 or args.p2 or args.auto:
            raise UsageError("--replay takes only the save file", "ygoterm match --replay FILE")
        return _replay(args)
    if not args.p1 or not args.p2:
        raise UsageError("a match needs --p1 DECK and --p2 DECK", "or --replay FILE to check a saved match")
    if args.time is not None and not args.tournament:
        raise UsageError("--time is the match length of tournament mode", "add --tournament")
    if args.time is not None and not 0 <= args.time <= 24 * 60:
        raise UsageError(f"--time {args.time:g}: give 0 to {24 * 60} minutes")
    if args.auto is None:
        return _interactive(args)
    if args.opponent != "human":
        raise UsageError("--opponent is for a match in the TUI", "with --auto, name both agents: --auto AGENT AGENT")
    for spec in args.auto:
        try:
            make_agent(spec, 0)
        except ValueError as e:
            raise UsageError(str(e)) from None
    pool = card_pool(args)
    (first, broken1), (second, broken2) = playable_deck(args, pool, args.p1), playable_deck(args, pool, args.p2)
    for deck in (first, second):
        unscripted = unscripted_cards(deck)
        if unscripted and any(spec != "random" for spec in args.auto):
            raise UsageError(f"deck '{deck.name}': the AI cannot play cards without scripts: {', '.join(unscripted)}",
                             "play it with --auto random random, or replace those cards")
    rules = rules_of_decks((first, second), Rules())  # (decks built for rules: `rules: goat` decks play 2005 rules)
    if args.lp is not None:
        rules = rules.model_copy(update={"duel": rules.duel.model_copy(update={"starting_lp": args.lp})})
    if args.time is not None:
        rules = rules.model_copy(update={"time": TimeRules(match_minutes=args.time)})
    illegal = sorted({*broken1, *broken2})
    if illegal:
        rules = rules.model_copy(update={"deck": rules_admitting((first, second), rules.deck)})
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10**6)
    match = Match.new(pool, (first, second), seed, rules, tournament=args.tournament,
                      clock=time.monotonic if args.tournament else None)
    agents = [make_agent(spec, seed * 2 + p) for p, spec in enumerate(args.auto)]
    decisions = 0
    while (decision := match.pending) is not None:
        agent = agents[decision.player]
        between = decision.kind in (Kind.SIDE,) or match.stage == "between"
        obs = None if between or isinstance(agent, RandomAgent) else observe(match.duel, decision.player, pool)
        match.apply(agent.choose(obs, decision))
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise UsageError(f"the match did not end within {MAX_DECISIONS} decisions", "this is a bug in ygoterm; please report it")
    if args.save is not None:
        match.record.save(args.save)
    print_record(match, f"agents {args.auto[0]} vs {args.auto[1]}")
    if args.save is not None:
        out.print(f"match save: {args.save}")
    return EXIT_OK


def _interactive(args: argparse.Namespace) -> int:
    """The match in the TUI, as the menu's "Match (best of 3)" starts it (settings as defaults)."""
    from ..agents.ai import LEVELS
    from . import menu

    opponent = args.opponent
    if opponent == "ai":
        opponent = "ai:normal"
    if opponent != "human" and not (opponent.startswith("ai:") and opponent[3:] in LEVELS):
        raise UsageError(f"--opponent {args.opponent}: give human, ai or one of {', '.join('ai:' + level for level in LEVELS)}")
    if args.save is not None:
        raise UsageError("--save is for --auto; in the TUI, s saves the match under a name (and it is autosaved)")
    pool = card_pool(args)
    (first, broken1), (second, broken2) = playable_deck(args, pool, args.p1), playable_deck(args, pool, args.p2)
    if opponent.startswith("ai:"):
        unscripted = unscripted_cards(second)
        if unscripted:
            raise UsageError(f"deck '{second.name}': the AI cannot play cards without scripts: {', '.join(unscripted)}",
                             "give the AI another --p2 deck")
    app = menu.tui_app(args, pool)
    notes = apply_settings(args, app.settings)
    rules = app.settings.rules()
    rules = rules.model_copy(update={"duel": rules.duel.model_copy(update={"starting_lp": args.lp})})
    illegal = sorted({*broken1, *broken2})
    if illegal:
        rules = rules.model_copy(update={"deck": rules_admitting((first, second), rules.deck)})
        notes.append(f"Playing a deck that breaks {', '.join(illegal)} (--allow-illegal).")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10**6)
    minutes = (args.time if args.time is not None else TimeRules().match_minutes) if args.tournament else None

    def start(app: YgoApp) -> Screen[Any]:
        from ..tui.match_menu import new_match

        screen = new_match(app, (first, second), "hotseat" if opponent == "human" else opponent, seed, minutes=minutes,
                           rules=rules)
        for note in notes:
            app.notify(note, timeout=12, markup=False)
        return screen

    app.start = start
    return menu.run_app(app)


def _replay(args: argparse.Namespace) -> int:
    if not args.replay.is_file():
        raise UsageError(f"{args.replay}: no such file")
    pool = card_pool(args)
    match = load_match(args.replay, pool)  # (a DataError names the file; exit 2)
    print_record(match, f"replayed from {args.replay}")
    state = "finished" if match.outcome is not None else f"unfinished (next: {match.pending.prompt if match.pending else '–'})"
    out.print(f"verified: {match.number} duel{'s replay' if match.number != 1 else ' replays'} to the saved record; the match is {state}")
    return EXIT_OK


def print_record(match: Match, how: str) -> None:
    """The match record: each duel's start, who chose what, its result, side changes, and the
    time procedure's steps."""
    names = match.names
    decks = match.registered
    mode = "casual"
    if match.tournament:
        t = match.rules.time
        mode = f"tournament, {t.match_minutes:g} min, time.procedure {t.procedure}"
    out.print(f"[bold]Match[/]: {names[0]} ({decks[0].name}) vs {names[1]} ({decks[1].name}) — seed {match.seed}, {mode}, {how}",
              soft_wrap=True)
    for event in match.log:
        text = event.text(names)
        if isinstance(event, DuelBegins):
            out.print(f"[bold]{text}[/]", soft_wrap=True)
        elif isinstance(event, (OrderChosen, TimeProcedure, SideDone)):
            out.print(f"  {text}", soft_wrap=True, markup=False)
        elif isinstance(event, DuelResult):
            out.print(f"  → {text}", soft_wrap=True, markup=False)
        elif isinstance(event, TimeCalled):
            out.print(f"[yellow]{text}[/]", soft_wrap=True)
        elif isinstance(event, MatchEnd):
            out.print(f"[bold]{text}[/]", soft_wrap=True)
