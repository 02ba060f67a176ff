"""`ygoterm cards search|show`: browse the card pool."""

from __future__ import annotations

import argparse
import shlex

from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..schema.cards import Card, Monster
from ..schema.query import FIELDS, search, stat_line
from ..schema.vocab import RARITIES
from .common import EXIT_INVALID, EXIT_OK, UsageError, card_pool, out


PLAY_NOTES = {"scripted": "scripted: plays automatically",
              "manual": "manual: no effects scripted yet; play its text with manual actions",
              "stats": "no effect: plays by its stats"}


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("cards", help="search the card pool and show cards",
                       description="Search and show cards from the shipped, user and --cards folders.")
    cards_sub = p.add_subparsers(dest="cards_command", metavar="{search,show}", required=True)
    s = cards_sub.add_parser("search", help="find cards: name words plus filters like atk>=2000 attribute:dark type:dragon level:4",
                             description=f"Name words must all appear in the name; filters are FIELD:VALUE or FIELD>=N etc. Fields: {', '.join(FIELDS)}.")
    s.add_argument("query", nargs="*", help="e.g.  dragon atk>=2000 attribute:light")
    s.add_argument("-n", "--limit", type=int, default=50, help="show at most N cards (default 50)")
    s.set_defaults(run=run_search)
    show = cards_sub.add_parser("show", help="show one card in full (by name or passcode)")
    show.add_argument("name", nargs="+", help="card name (any case) or passcode")
    show.set_defaults(run=run_show)


def run_search(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    words = [w for q in args.query for w in shlex.split(q)] if args.query else []
    hits = search(pool, words)
    table = Table(title=f"{len(hits)} card{'s' if len(hits) != 1 else ''} match", title_justify="left")
    # in a narrow terminal the long names give way (with an ellipsis), never the numbers
    table.add_column("Name", no_wrap=True, overflow="ellipsis", max_width=30)
    table.add_column("Passcode", justify="right", no_wrap=True)
    table.add_column("Kind")
    for column in ("ATK", "DEF"):
        table.add_column(column, justify="right", no_wrap=True)
    table.add_column("Play", no_wrap=True)
    for card in hits[: args.limit]:
        atk = str(card.atk) if isinstance(card, Monster) else ""
        df = str(card.def_) if isinstance(card, Monster) and card.def_ is not None else ""
        table.add_row(escape(card.name), str(card.id), escape(stat_line(card).rsplit(" · ", 1)[0] if isinstance(card, Monster) else stat_line(card)),
                      atk, df, card.play if card.scripted else f"[dim]{card.play}[/]")
    out.print(table)
    if len(hits) > args.limit:
        out.print(f"[dim]… {len(hits) - args.limit} more; narrow the query or raise --limit[/]")
    return EXIT_OK if hits else EXIT_INVALID


def run_show(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    ref = " ".join(args.name)
    card = pool.get(ref)
    if card is None:
        raise UsageError(f"no card named '{ref}'", pool.suggest(ref))
    out.print(card_panel(card, pool.origin.get(card.id)))
    return EXIT_OK


def card_panel(card: Card, origin: tuple[str, int] | None = None) -> Panel:
    """A card rendered for the terminal: name, type line, stats, text, print data."""
    body = Text()
    body.append(stat_line(card) + "\n", style="bold")
    if card.treated_as:
        body.append(f"This card's name is always treated as \"{card.treated_as}\".\n", style="italic")
    if isinstance(card, Monster):
        if card.materials:
            body.append(f"Materials: {card.materials.text}\n")
        if card.arrows:
            body.append(f"Link Arrows: {', '.join(card.arrows)}\n")
        if card.special_summon_only:
            body.append("Cannot be Normal Summoned or Set.\n", style="italic")
    body.append("\n" + (card.text or "(no text)") + "\n")
    foot = [f"Passcode {card.id}"]
    if card.rarity:
        foot.append(f"{RARITIES[card.rarity]} ({card.rarity})")
    foot.append(PLAY_NOTES[card.play])
    if origin:
        foot.append(f"defined in {origin[0]}")
    body.append("\n" + " · ".join(foot), style="dim")
    colour = {"monster": "yellow", "spell": "green", "trap": "magenta"}[card.kind]
    return Panel(body, title=f"[bold]{escape(card.name)}[/]", border_style=colour, expand=False, width=min(out.width, 80))
