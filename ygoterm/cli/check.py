"""`ygoterm check`: validate decks (R-DECK-1…8) and the card pool."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path

from rich.table import Table

from ..schema.banlist import Banlist
from ..schema.cardpool import CardPool
from ..schema.decks import Deck, deck_paths, load_deck
from ..schema.lab import resolve_lab
from ..schema.problems import DataError, Problem, is_digits
from ..schema.rules import PROFILES, Rules
from ..schema.validate import check_deck, deck_summary
from .common import (EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, UsageError, banlist_by_ref, card_pool, deck_dirs,
                     find_deck_file, out, print_problems)


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("check", help="validate decks and the card pool (deck construction rules R-DECK-1…8)",
                       description="Validate decks against the construction rules and report every problem with file:line. "
                                   "Without arguments, checks every shipped and user deck. Exit 0 = all legal, 1 = a deck is illegal, 2 = unreadable input.")
    p.add_argument("decks_to_check", nargs="*", metavar="DECK", help="deck file or deck name (default: all decks)")
    p.add_argument("--banlist", metavar="NAME|FILE", help="check against this banlist instead of the one each deck names")
    p.add_argument("--rules", metavar="PROFILE", choices=sorted(PROFILES),
                   help="check under this rules profile instead of the one each deck names (modern, goat)")
    p.add_argument("--main-max", metavar="N|none", help="V-01: largest Main Deck (default 60; 'none' = no limit)")
    p.add_argument("--side-exact", metavar="N", type=int, help="V-03: demand exactly N Side Deck cards")
    p.add_argument("-s", "--summary", action="store_true", help="print each legal deck's make-up (kinds, levels, attributes)")
    p.set_defaults(run=run)


@dataclass
class _Result:
    path: Path
    deck: Deck | None = None
    banlist: str = ""
    rules: str = "modern"
    problems: list[Problem] = field(default_factory=list)
    unreadable: bool = False


def run(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    changes = _rule_changes(args)
    dirs = deck_dirs(args)
    targets = [find_deck_file(ref, dirs) for ref in args.decks_to_check] if args.decks_to_check else deck_paths(dirs)
    if not targets:
        raise UsageError("no decks found", "put deck files in decks/ or pass a deck file")
    forced = banlist_by_ref(args.banlist, dirs, pool) if args.banlist else None
    results = [_check(path, pool, args.rules, changes, dirs, forced) for path in targets]

    table = Table(title=f"{len(results)} deck{'s' if len(results) != 1 else ''} checked against {len(pool)} cards", title_justify="left")
    wide = out.width >= 110  # (the file column when there is room: a long name wraps, the figures are never cut)
    table.add_column("Deck", ratio=1)
    for column in ("File", "Main", "Extra", "Side", "Rules", "Banlist", "Result")[0 if wide else 1:]:
        table.add_column(column, justify="right" if column in ("Main", "Extra", "Side") else "left", no_wrap=True)
    for r in results:
        verdict = "[red]unreadable[/]" if r.unreadable else ("[red]illegal[/]" if r.problems else "[green]legal[/]")
        d = r.deck
        name = d.name if d else "?"
        files = [_file_label(r.path, dirs)] if wide else []
        table.add_row(name if wide or d is None else f"{name} [dim]({_file_label(r.path, dirs)})[/]", *files,
                      *(str(len(d.section(s))) if d else "-" for s in ("main", "extra", "side")), r.rules, r.banlist or "-", verdict)
    out.print(table)
    for r in results:
        if r.problems:
            print_problems(r.problems, out)
        elif r.deck and (args.summary or len(results) == 1):
            _print_summary(r.deck)
    if any(r.unreadable for r in results):
        return EXIT_UNREADABLE
    return EXIT_INVALID if any(r.problems for r in results) else EXIT_OK


def _file_label(path: Path, dirs: list[Path]) -> str:
    """How a deck is named on the command line: its file stem, under its format's folder (goat/burn)."""
    in_subfolder = path.parent.parent.resolve() in {d.resolve() for d in dirs}
    return f"{path.parent.name}/{path.stem}" if in_subfolder else path.stem


def _check(path: Path, pool: CardPool, profile: str | None, changes: dict[str, int | None], dirs: list[Path],
           forced: Banlist | None) -> _Result:
    result = _Result(path)
    try:
        deck, problems = load_deck(path, pool)
    except DataError as e:
        result.problems, result.unreadable = e.problems, True
        return result
    result.deck = deck
    source = deck.source
    assert source is not None  # (a deck read from a file keeps it)
    if source.lab is not None and not problems:  # the lab's role and card names (schema/lab.py)
        try:
            resolve_lab(source, deck, pool)
        except DataError as e:
            result.problems, result.unreadable = e.problems, True
            return result
    banlist = forced
    if banlist is None and deck.banlist:
        try:
            banlist = banlist_by_ref(deck.banlist, dirs, pool, named_in=path)
        except UsageError as e:
            problems.append(source.problem(("banlist",), str(e), e.hint, "R-DECK-5", key=False))
        except DataError as e:  # say which deck pointed at the broken banlist
            problems.append(source.problem(("banlist",), f"its banlist '{deck.banlist}' cannot be read (below)",
                                           "fix that file, or name another banlist", key=False))
            problems.extend(e.problems)
            result.unreadable = True
    result.banlist = banlist.name if banlist else ""
    rules = Rules.named(profile) if profile else deck.rules or Rules()
    result.rules = rules.format
    result.problems = problems + check_deck(deck, rules.deck.model_copy(update=changes), banlist)
    return result


def _rule_changes(args: argparse.Namespace) -> dict[str, int | None]:
    """The deck rules the flags change (on top of the deck's profile or --rules)."""
    changes: dict[str, int | None] = {}
    if args.main_max is not None:
        if args.main_max.lower() in ("none", "null", "0"):
            changes["main_max"] = None
        elif is_digits(args.main_max):
            changes["main_max"] = int(args.main_max)
        else:
            raise UsageError(f"--main-max takes a number or 'none', not '{args.main_max}'")
    if args.side_exact is not None:
        if args.side_exact < 0:
            raise UsageError(f"--side-exact takes a number of cards, not {args.side_exact}")
        changes["side_exact"] = args.side_exact
    return changes


def _print_summary(deck: Deck) -> None:
    summary = deck_summary(deck)
    parts = [f"[bold]{deck.name}[/]: {len(deck.main)} Main"]
    parts.append(" · ".join(f"{n} {k}" for k, n in summary["kind"].most_common()))
    if summary["level"]:
        parts.append("Levels " + ", ".join(f"{lv}×{n}" for lv, n in sorted(summary["level"].items(), key=lambda kv: int(kv[0]))))
    if summary["attribute"]:
        parts.append(" ".join(f"{a} {n}" for a, n in summary["attribute"].most_common()))
    out.print("\n  ".join(parts))
