"""`ygoterm deck import|export` and `ygoterm banlist import|export`: other simulators' formats.

An imported deck goes into the user's decks folder, where the menu and `ygoterm duel` find it;
`-o` writes elsewhere or prints. Files are written atomically and never replaced silently."""

from __future__ import annotations

import argparse
from io import StringIO
from pathlib import Path

from ruamel.yaml import YAML

from .. import paths
from ..schema.cardimport import imported_names
from ..schema.banlist import banlist_to_yaml_data, read_lflist, write_lflist
from ..schema.interop import deck_to_yaml, import_deck, write_ydk, write_ydke
from ..schema.decks import deck_paths, load_deck
from ..schema.problems import DataError, Problem, did_you_mean
from ..schema.deckwrite import deck_file_stem
from ..schema.yamlio import write_atomically
from .common import EXIT_INVALID, EXIT_OK, UsageError, banlist_by_ref, card_pool, deck_dirs, err, find_deck_file, out, print_problems


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("deck", help="import/export decks as .ydk files or ydke:// links")
    deck_sub = p.add_subparsers(dest="deck_command", metavar="{import,export}", required=True)
    imp = deck_sub.add_parser("import", help="add a .ydk file or a ydke:// link to your decks (as deck YAML)",
                              description="Add a deck from another simulator to the decks folder of your user data dir "
                                          "(where the menu and 'ygoterm duel' find it), as NAME.yaml. An existing deck is never "
                                          "replaced unless you pass --force.")
    imp.add_argument("source", help="FILE.ydk or 'ydke://…' (quote the link)")
    imp.add_argument("-o", "--output", type=Path, metavar="PATH|-", help="write the YAML to PATH instead, or print it with '-o -'")
    imp.add_argument("--name", help="deck name, and file name in your decks folder (default: the .ydk's file name; "
                                    "'Imported deck' for a link)")
    imp.add_argument("--force", action="store_true", help="replace a deck file of the same name")
    imp.add_argument("--skip-unknown", action="store_true",
                     help="import the deck without the cards the card pool does not have (listed), instead of refusing it")
    imp.set_defaults(run=run_import)
    exp = deck_sub.add_parser("export", help="convert a deck to .ydk or a ydke:// link")
    exp.add_argument("deck", help="deck file or deck name")
    exp.add_argument("--format", choices=("ydk", "ydke"), default="ydk")
    exp.add_argument("-o", "--output", type=Path, metavar="PATH|-", help="write here (default, or '-': print it)")
    exp.set_defaults(run=run_export)

    b = sub.add_parser("banlist", help="import/export banlists as YGOPro lflist.conf")
    b_sub = b.add_subparsers(dest="banlist_command", metavar="{import,export}", required=True)
    bimp = b_sub.add_parser("import", help="convert a list of an lflist.conf to banlist YAML")
    bimp.add_argument("source", type=Path, help="lflist.conf")
    bimp.add_argument("--list", dest="list_name", help="which list of the file (default: the first)")
    bimp.add_argument("-o", "--output", type=Path, metavar="PATH|-", help="write the YAML here (default, or '-': print it)")
    bimp.set_defaults(run=run_banlist_import)
    bexp = b_sub.add_parser("export", help="write a banlist as lflist.conf")
    bexp.add_argument("banlist", help="banlist name or file")
    bexp.add_argument("-o", "--output", type=Path, metavar="PATH|-", help="write here (default, or '-': print it)")
    bexp.set_defaults(run=run_banlist_export)


def _emit(text: str, output: Path | None, what: str, *, force: bool | None = None) -> int:
    """Print `text` (no output, or '-'), or write it atomically to `output`, which must not exist
    unless `force` (None: the command has no --force): nothing is ever overwritten silently."""
    if output is None or str(output) == "-":
        out.print(text, end="", markup=False, highlight=False, soft_wrap=True)
        return EXIT_OK
    if output.exists() and not (force and output.is_file()):
        how = "choose another -o path, delete it first" + (" or pass --force" if force is not None else "")
        raise UsageError(f"{output} already exists", f"{how} (nothing was overwritten)")
    try:
        write_atomically(output, text)
    except OSError as e:
        raise UsageError(f"cannot write {output}: {e.strerror or e}") from None
    err.print(f"Wrote {what} to {output}", markup=False, soft_wrap=True)  # (a path is never broken over lines)
    return EXIT_OK


def run_import(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    if not args.source.startswith("ydke://") and not Path(args.source).is_file():
        raise UsageError(f"{args.source}: no such file", "pass a .ydk file or a link starting with ydke://")
    skipped: list[Problem] | None = [] if args.skip_unknown else None
    known = lambda: imported_names(paths.card_dirs([Path(c).expanduser() for c in args.cards or [] if Path(c).is_dir()]))
    deck, problems = import_deck(args.source, pool, known=known, skipped=skipped)
    if skipped:
        print_problems(skipped)
        err.print(f"Left out {len(skipped) - 1} unknown card{'s' if len(skipped) > 2 else ''} (--skip-unknown).")
    if args.name:
        deck.name = args.name
    elif args.output and str(args.output) != "-" and args.source.startswith("ydke://"):
        deck.name = args.output.stem
    target = args.output or new_deck_path(deck.name, deck_dirs(args), force=args.force)
    code = _emit(deck_to_yaml(deck), target, f"deck '{deck.name}' ({len(deck.main)}/{len(deck.extra)}/{len(deck.side)})", force=args.force)
    if args.output is None and not problems:
        err.print(f"Choose it in the menu, or play it with: ygoterm solo {target.stem}", markup=False, soft_wrap=True)
    if problems:
        print_problems(problems)
        where = f" ({target})" if str(target) != "-" else ""
        err.print(f"The imported deck{where} breaks the construction rules above: fix it before duelling with it.")
        return EXIT_INVALID
    return code


def new_deck_path(name: str, dirs: list[Path], *, force: bool) -> Path:
    """Where an imported deck goes: NAME.yaml in the user's decks folder. A deck file of that name
    there is replaced only with --force; a deck of that name in another folder (the shipped decks,
    --decks) would hide the new one from 'ygoterm duel NAME', so that is refused whatever the flags."""
    stem = deck_file_stem(name)
    target = paths.user_home() / "decks" / f"{stem}.yaml"
    for path in deck_paths(dirs):
        if path.stem.casefold() != stem:
            continue
        if path.name == target.name and path.parent.resolve() == target.parent.resolve():
            if not force:
                raise UsageError(f"your decks folder already has a deck file {target}",
                                 "choose another name with --name NAME or replace it with --force; nothing was overwritten")
        else:
            raise UsageError(f"a deck named '{stem}' already exists: {path}",
                             "choose another name with --name NAME: two decks of one name cannot both be chosen by name")
    return target


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
    if chosen.unknown:
        buf.write(f"# {chosen.unknown} entries of {args.source.name} name cards the pool does not have and are not here:\n"
                  "# add them with 'ygoterm cards import cards.cdb', then import this list again.\n")
    YAML(typ="rt").dump(banlist_to_yaml_data(chosen), buf)
    kind = "whitelist" if chosen.whitelist else "banlist"
    err.print(f"'{chosen.name}' ({kind}): kept {len(chosen.limits):,} entr{'y' if len(chosen.limits) == 1 else 'ies'}; "
              f"{chosen.unknown:,} name cards the card pool does not have"
              + (" (add them with 'ygoterm cards import cards.cdb', then import the list again)" if chosen.unknown else ""),
              markup=False, soft_wrap=True)
    return _emit(buf.getvalue(), args.output, f"{kind} '{chosen.name}'")


def run_banlist_export(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    banlist = banlist_by_ref(args.banlist, deck_dirs(args), pool)
    return _emit(write_lflist([banlist], pool), args.output, f"banlist '{banlist.name}'")
