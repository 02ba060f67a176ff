"""`ygoterm cards search|show|import|draft`: browse the card pool, import cards, draft a script."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .. import paths
from ..schema.cardimport import plan_import, pool_for_import, write_import
from ..schema.carddb import read_source
from ..schema.cards import Card, Monster
from ..schema.query import FIELDS, search, stat_line
from ..schema.vocab import RARITIES
from . import coverage
from .common import EXIT_INVALID, EXIT_OK, UsageError, card_pool, out


PLAY_NOTES = {"scripted": "scripted: plays automatically",
              "manual": "manual: no effects scripted yet; play its text with manual actions",
              "stats": "no effect: plays by its stats"}


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("cards", help="search the card pool and show cards",
                       description="Search and show cards from the shipped, user and --cards folders.")
    cards_sub = p.add_subparsers(dest="cards_command", metavar="{search,show,import,draft,coverage}", required=True)
    s = cards_sub.add_parser("search", help="find cards: name words plus filters like atk:2000+ attribute:dark type:dragon level:4",
                             description=f"Name words must all appear in the name; filters are FIELD:VALUE or FIELD>=N etc. Fields: {', '.join(FIELDS)}.")
    s.add_argument("query", nargs="*", help="e.g.  dragon atk:2000+ attribute:light")
    s.add_argument("-n", "--limit", type=int, default=50, help="show at most N cards (default 50)")
    s.set_defaults(run=run_search)
    show = cards_sub.add_parser("show", help="show one card in full (by name or passcode)")
    show.add_argument("name", nargs="+", help="card name (any case) or passcode")
    show.set_defaults(run=run_show)
    imp = cards_sub.add_parser("import", help="add the cards of an EDOPro/YGOPro cards.cdb or a YGOPRODeck JSON to your card folder",
                               description="Convert a card database into card files in your card folder, so that decks and .ydk "
                                           "files using those cards load. Imported cards play by hand (manual actions) unless a "
                                           "scripted card with the same passcode exists, which wins. Skills, Speed and Rush Duel "
                                           "cards and Tokens are skipped and counted. Importing the same file again gives the same "
                                           "files; the folder is replaced only once the new one is complete.")
    imp.add_argument("source", type=Path, metavar="FILE", help="cards.cdb (EDOPro, YGOPro) or YGOPRODeck card-info JSON")
    imp.add_argument("--only", metavar="QUERY", help="import only the cards matching this 'cards search' query, e.g. \"attribute:dark type:dragon\"")
    imp.add_argument("--into", type=Path, metavar="DIR",
                     help="the folder to write (default: imported-NAME in your card folder); replaced as a whole on the next import")
    imp.set_defaults(run=run_import)
    draft = cards_sub.add_parser("draft", help="draft a card's effects (YAML) from its text, to start scripting it",
                                 description="Read a card's text and print a draft of its effects: in the card vocabulary "
                                             "(docs/cards.md), with a '# TODO untranslated: …' line for every phrase it could "
                                             "not translate. A draft to check and complete, never a finished script.")
    draft.add_argument("name", nargs="*", help="a card of the pool (name or passcode); or give --text")
    draft.add_argument("--text", help="draft this text instead of a pool card's")
    draft.add_argument("--kind", choices=("monster", "spell", "trap"), default=None,
                       help="with --text: the card's kind (default: monster; spell or trap if --subtype names one of theirs)")
    draft.add_argument("--subtype", help="with --text: the Spell/Trap subtype (normal, quick-play, continuous, equip, field, ritual, "
                                         "counter) or the monster's frames (effect, pendulum+effect …)")
    draft.add_argument("--goat", action="store_true", help="draft the card's 2005 text (its goat: text) instead of today's")
    draft.set_defaults(run=run_draft)
    coverage.add_parser(cards_sub)


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


def import_folder(source: Path) -> Path:
    """Where `cards import FILE` writes by default: imported-STEM in the user's card folder."""
    stem = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in source.stem.casefold()).strip("-") or "cards"
    return paths.user_home() / "cards" / f"imported-{stem}"


def run_import(args: argparse.Namespace) -> int:
    if not args.source.is_file():
        raise UsageError(f"{args.source}: no such file", "pass EDOPro's or YGOPro's cards.cdb, or YGOPRODeck card-info JSON")
    target = (args.into.expanduser() if args.into else import_folder(args.source))
    source = read_source(args.source)
    extra = [Path(v).expanduser() for v in args.cards or []]
    pool = pool_for_import(paths.card_dirs([p for p in extra if p.is_dir()]), [p for p in extra if p.is_file()], target)
    only = shlex.split(args.only) if args.only else None
    plan = plan_import(source, pool, only)
    total = len(source.raws)
    out.print(f"{source.file} ({source.kind_name}): {total:,} entr{'y' if total == 1 else 'ies'}", markup=False, soft_wrap=True)
    out.print(f"  imported {len(plan.cards):,} card{'s' if len(plan.cards) != 1 else ''}"
              + (f" and {plan.alternate_count:,} alternate passcode{'s' if plan.alternate_count != 1 else ''}" if plan.alternate_count else ""),
              markup=False)
    if plan.in_pool:
        out.print(f"  {plan.in_pool:,} already in the pool ({plan.scripted_in_pool:,} of them scripted): those cards are used", markup=False)
    for reason, count in plan.notes.most_common():
        out.print(f"  {count:,} {reason}", markup=False, soft_wrap=True)
    if plan.skipped:
        out.print(f"  skipped {sum(plan.skipped.values()):,}:", markup=False)
        for reason, count in plan.skipped.most_common():
            out.print(f"    {count:>6,}  {reason}", markup=False)
    for line in plan.invalid[:5]:
        out.print(f"      {line}", markup=False, soft_wrap=True)
    if len(plan.invalid) > 5:
        out.print(f"      … and {len(plan.invalid) - 5} more (the status column of passcodes.tsv says why)", markup=False)
    if not (plan.cards or plan.alternate_count or plan.in_pool):
        raise UsageError(f"{source.file}: not one card in it can be imported (see the reasons above); nothing was written",
                         "pass a card database of the main game (EDOPro's cards.cdb, or YGOPRODeck's cardinfo.php JSON)")
    try:
        changed = write_import(plan, pool, target)
    except OSError as e:
        raise UsageError(f"cannot write {target}: {e.strerror or e}", "nothing was changed; check the folder's permissions and free space") from None
    verb = "Wrote" if changed else "Unchanged (the same import is there already):"
    out.print(f"{verb} {target}", markup=False, soft_wrap=True)
    return EXIT_OK


def run_show(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    ref = " ".join(args.name)
    card = pool.get(ref)
    if card is None:
        raise UsageError(f"no card named '{ref}'", pool.suggest(ref))
    out.print(card_panel(card, pool.origin.get(card.id)))
    return EXIT_OK


SPELL_SUBTYPES = ("normal", "quick-play", "continuous", "equip", "field", "ritual")
TRAP_SUBTYPES = ("normal", "continuous", "counter")


def run_draft(args: argparse.Namespace) -> int:
    """Print a draft of a pool card's effects, or of --text, with its untranslated phrases."""
    from ..schema.draft import draft, render

    if args.text is not None:
        if args.name:
            raise UsageError("give a card name or --text, not both")
        kind, subtype, frames = _custom_kind(args.kind, args.subtype)
        text, title = args.text, "the text"
    else:
        if not args.name:
            raise UsageError("name a card of the pool, or give --text \"…\"", "e.g. ygoterm cards draft Man-Eater Bug")
        pool = card_pool(args)
        ref = " ".join(args.name)
        card = pool.get(ref)
        if card is None:
            raise UsageError(f"no card named '{ref}'", pool.suggest(ref))
        if args.goat and card.goat is None:
            raise UsageError(f"{card.name} has no 2005 text (goat:)", "draft today's text: leave out --goat")
        text = card.goat.text if args.goat and card.goat is not None else card.text
        kind, subtype = card.kind, getattr(card, "subtype", None)
        frames = sorted(getattr(card, "frames", ()))
        title = f"{card.name}{' (2005 text)' if args.goat else ''}"
    result = draft(text, kind, subtype, frames)
    out.print(render(result), markup=False, highlight=False, soft_wrap=True, end="")
    n = len(result.untranslated)
    out.print(f"# drafted {len(result.effects)} effect{'s' if len(result.effects) != 1 else ''} from {title}; "
              f"{n} untranslated phrase{'s' if n != 1 else ''}", markup=False, soft_wrap=True)
    return EXIT_OK


def _custom_kind(kind: str | None, subtype: str | None) -> tuple[str, str | None, list[str]]:
    """(kind, Spell/Trap subtype, monster frames) for --text: --subtype names either."""
    if kind is None:
        kind = "spell" if subtype in SPELL_SUBTYPES and subtype != "normal" else "trap" if subtype == "counter" else "monster"
    if kind == "monster":
        return kind, None, (subtype or "effect").split("+")
    allowed = SPELL_SUBTYPES if kind == "spell" else TRAP_SUBTYPES
    if subtype is not None and subtype not in allowed:
        raise UsageError(f"--subtype {subtype}: not a {kind} subtype", "one of: " + ", ".join(allowed))
    return kind, subtype or "normal", []


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
    if card.goat is not None:
        body.append("\nIn 2005 (rules: goat): ", style="bold")
        body.append(card.goat.text + "\n")
        goat_play = card.in_format("goat").play
        if goat_play != card.play:
            body.append(f"  goat: {PLAY_NOTES[goat_play]}\n", style="dim")
    if card.aka:
        body.append(f"\nAlso known as: {', '.join(card.aka)}\n", style="italic")
    foot = [f"Passcode {card.id}"]
    if card.rarity:
        foot.append(f"{RARITIES[card.rarity]} ({card.rarity})")
    foot.append(PLAY_NOTES[card.play])
    if origin:
        foot.append(f"defined in {origin[0]}")
    body.append("\n" + " · ".join(foot), style="dim")
    colour = {"monster": "yellow", "spell": "green", "trap": "magenta"}[card.kind]
    return Panel(body, title=f"[bold]{escape(card.name)}[/]", border_style=colour, expand=False, width=min(out.width, 80))
