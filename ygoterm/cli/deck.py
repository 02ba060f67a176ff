"""`ygoterm deck import|export` and `ygoterm banlist import|export`: other simulators' formats."""

from __future__ import annotations

import argparse
from io import StringIO
from pathlib import Path

from ruamel.yaml import YAML

from ..schema.banlist import banlist_to_yaml_data, read_lflist, write_lflist
from ..schema.interop import deck_to_yaml, import_deck, write_ydk, write_ydke
from ..schema.problems import did_you_mean
from ..schema.decks import load_deck
from ..schema.problems import DataError
from .common import EXIT_INVALID, EXIT_OK, UsageError, banlist_by_ref, card_pool, deck_dirs, err, find_deck_file, out, print_problems


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("deck", help="import/export decks as .ydk files or ydke:// links")
    deck_sub = p.add_subparsers(dest="deck_command", metavar="{import,export}", required=True)
    imp = deck_sub.add_parser("import", help="convert a .ydk file or a ydke:// link to deck YAML")
    imp.add_argument("source", help="FILE.ydk or 'ydke://…' (quote the link)")
    imp.add_argument("-o", "--output", type=Path, help="write the YAML here (default: print it)")
    imp.add_argument("--name", help="deck name (default: the file name)")
    imp.set_defaults(run=run_import)
    exp = deck_sub.add_parser("export", help="convert a deck to .ydk or a ydke:// link")
    exp.add_argument("deck", help="deck file or deck name")
    exp.add_argument("--format", choices=("ydk", "ydke"), default="ydk")
    exp.add_argument("-o", "--output", type=Path, help="write here (default: print it)")
    exp.set_defaults(run=run_export)

    b = sub.add_parser("banlist", help="import/export banlists as YGOPro lflist.conf")
    b_sub = b.add_subparsers(dest="banlist_command", metavar="{import,export}", required=True)
    bimp = b_sub.add_parser("import", help="convert a list of an lflist.conf to banlist YAML")
    bimp.add_argument("source", type=Path, help="lflist.conf")
    bimp.add_argument("--list", dest="list_name", help="which list of the file (default: the first)")
    bimp.add_argument("-o", "--output", type=Path, help="write the YAML here (default: print it)")
    bimp.set_defaults(run=run_banlist_import)
    bexp = b_sub.add_parser("export", help="write a banlist as lflist.conf")
    bexp.add_argument("banlist", help="banlist name or file")
    bexp.add_argument("-o", "--output", type=Path, help="write here (default: print it)")
    bexp.set_defaults(run=run_banlist_export)


def _emit(text: str, output: Path | None, what: str) -> int:
    if output is None:
        out.print(text, end="", markup=False, highlight=False, soft_wrap=True)
        return EXIT_OK
    if output.exists():
        raise UsageError(f"{output} already exists", "choose another -o path or delete it first (nothing was overwritten)")
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as e:
        raise UsageError(f"cannot write {output}: {e.strerror or e}") from None
    err.print(f"Wrote {what} to {output}")
    return EXIT_OK


def run_import(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    if not args.source.startswith("ydke://") and not Path(args.source).is_file():
        raise UsageError(f"{args.source}: no such file", "pass a .ydk file or a link starting with ydke://")
    deck, problems = import_deck(args.source, pool)
    if args.name:
        deck.name = args.name
    elif args.output and args.source.startswith("ydke://"):
        deck.name = args.output.stem
    code = _emit(deck_to_yaml(deck), args.output, f"deck '{deck.name}' ({len(deck.main)}/{len(deck.extra)}/{len(deck.side)})")
    if problems:
        print_problems(problems)
        err.print("The imported deck breaks the construction rules above: fix it before duelling with it.")
        return EXIT_INVALID
    return code


def run_export(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    deck, problems = load_deck(find_deck_file(args.deck, deck_dirs(args)), pool)
    if problems:
        raise DataError(problems, unreadable=False)
    text = write_ydk(deck) if args.format == "ydk" else write_ydke(deck) + "\n"
    return _emit(text, args.output, f"{args.format} of '{deck.name}'")


def run_banlist_import(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    if not args.source.is_file():
        raise UsageError(f"{args.source}: no such file")
    lists = read_lflist(args.source, pool)
    if not lists:
        raise UsageError(f"{args.source} holds no list", "a list starts with a line '!Name'")
    chosen = lists[0]
    if args.list_name:
        match = [b for b in lists if b.name.casefold() == args.list_name.casefold()]
        if not match:
            raise UsageError(f"no list named '{args.list_name}'", did_you_mean(args.list_name, [b.name for b in lists]) or "lists: " + ", ".join(b.name for b in lists))
        chosen = match[0]
    buf = StringIO()
    YAML(typ="rt").dump(banlist_to_yaml_data(chosen), buf)
    return _emit(buf.getvalue(), args.output, f"banlist '{chosen.name}'")


def run_banlist_export(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    banlist = banlist_by_ref(args.banlist, deck_dirs(args), pool)
    return _emit(write_lflist([banlist], pool), args.output, f"banlist '{banlist.name}'")
