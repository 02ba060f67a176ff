"""The `ygoterm` command: wires the subcommands, turns user errors into messages and exit codes.

User errors (bad files, bad arguments) print `file:line:col  message  (hint)` lines and exit
non-zero without a traceback. Anything else is a bug in ygoterm and keeps its traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..schema.problems import DataError
from . import cards, check, deck, engine_tools, play, scenario
from .common import EXIT_UNREADABLE, UsageError, err, report_data_error

COMMANDS = (play, check, cards, deck, scenario, engine_tools)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ygoterm",
        description="ygoterm: Yu-Gi-Oh!-style card duels in the terminal. Without a command it opens the main menu.",
        epilog="Run 'ygoterm COMMAND --help' for a command's options.",
    )
    parser.add_argument("--cards", action="append", type=Path, metavar="PATH", help="also load cards from this folder or YAML file (repeatable)")
    parser.add_argument("--decks", action="append", type=Path, metavar="DIR", help="also look for decks in DIR (repeatable)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for module in COMMANDS:
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        args.run = play.run_menu  # no command: the TUI's main menu
    try:
        return args.run(args)
    except DataError as e:
        return report_data_error(e)
    except UsageError as e:
        err.print(f"[red]ygoterm: {e}[/]" + (f"  [dim]({e.hint})[/]" if e.hint else ""), soft_wrap=True)
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0
