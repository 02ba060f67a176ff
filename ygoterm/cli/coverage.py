"""`ygoterm cards coverage`: how much of the pool (or a format's list, or decks) plays
automatically — scripted, by stats, or by manual actions (analysis/coverage.py)."""

from __future__ import annotations

import argparse
import json

from rich.markup import escape
from rich.table import Table

from ..analysis.coverage import KINDS, PLAYS, Coverage, coverage, deck_coverage, listed_cards
from ..schema.decks import load_deck
from ..schema.problems import DataError
from ..schema.rules import PROFILES
from .common import EXIT_OK, banlist_by_ref, card_pool, deck_dirs, find_deck_file, out


def add_parser(cards_sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = cards_sub.add_parser("coverage", help="how many cards play automatically: scripted / by stats / manual, per kind",
                             description="Count the cards of the pool — or of a format's list (--banlist goat), or of decks — "
                                         "that are scripted (play automatically), play by their stats alone, or still need "
                                         "manual actions; list the manual ones. Exit 0.")
    p.add_argument("deck_refs", nargs="*", metavar="DECK", help="decks whose manual cards to list (names or files)")
    p.add_argument("--banlist", metavar="NAME|FILE", help="count the cards this list allows (a whitelist: its cards), e.g. goat")
    p.add_argument("--rules", metavar="PROFILE", choices=sorted(PROFILES),
                   help="judge cards as they play in this format (default: the list's format, else modern)")
    p.add_argument("--list", action="store_true", help="also list every manual card by kind")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    dirs = deck_dirs(args)
    banlist = banlist_by_ref(args.banlist, dirs, pool) if args.banlist else None
    fmt = args.rules or (banlist.format if banlist and banlist.format in PROFILES else "modern")
    cards = listed_cards(pool, banlist) if banlist else list(pool)
    result = coverage(cards, fmt)
    decks = []
    for ref in args.deck_refs:
        path = find_deck_file(ref, dirs)
        deck, problems = load_deck(path, pool)
        if problems:
            raise DataError(problems)
        decks.append(deck_coverage(deck, fmt if deck.rules is None else deck.rules.format))
    if args.json:
        data = result.to_json() | {"banlist": banlist.name if banlist else None,
                                   "names_listed": len(banlist.limits) if banlist is not None and banlist.whitelist else None,
                                   "decks": [{"name": d.name, "cards": d.cards, "manual": dict(d.manual)} for d in decks]}
        print(json.dumps(data, indent=1))
        return EXIT_OK
    listed = f", {len(banlist.limits):,} names on the list" if banlist is not None and banlist.whitelist else ""
    _print(result, banlist.name if banlist else None, listed, args.list)
    for d in decks:
        if d.manual:
            out.print(f"\n[bold]{escape(d.name)}[/]: {d.manual_copies} of {d.cards} cards need manual actions — "
                      + ", ".join(f"{escape(n)} ×{k}" for n, k in d.manual))
        else:
            out.print(f"\n[bold]{escape(d.name)}[/]: all {d.cards} cards play automatically")
    return EXIT_OK


def _print(result: Coverage, banlist: str | None, listed: str, listing: bool) -> None:
    what = f"the '{escape(banlist)}' list" if banlist else "the card pool"
    table = Table(title=f"Coverage of {what} ({result.total():,} cards{listed}; as they play in format {result.fmt})",
                  title_justify="left")
    table.add_column("kind")
    for play in PLAYS:
        table.add_column(play, justify="right")
    table.add_column("total", justify="right")
    table.add_column("scripted or stats", justify="right")
    for kind in (*KINDS, "all"):
        counts = result.counts[kind] if kind != "all" else None
        values = [counts[p] if counts is not None else result.total(p) for p in PLAYS]
        total = sum(values)
        done = values[0] + values[1]
        table.add_row(kind + ("s" if kind != "all" else ""), *(f"{v:,}" for v in values), f"{total:,}",
                      f"{done / total:.0%}" if total else "-", style="bold" if kind == "all" else None)
    out.print(table)
    if listing:
        for kind in KINDS:
            if result.manual[kind]:
                out.print(f"\n[bold]manual {kind}s[/] ({len(result.manual[kind])}): " + ", ".join(escape(n) for n in result.manual[kind]))
