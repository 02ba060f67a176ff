"""The `ygoterm` command: wires the subcommands, turns user errors into messages and exit codes.

User errors (bad files, bad arguments) print `file:line:col  message  (hint)` lines and exit
non-zero without a traceback. An effect that fails to resolve (EffectError) is a bug in ygoterm:
its replay is saved for the report and the exit code is 70. Anything else keeps its traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.markup import escape

from ..bugs import write_bug_report
from ..engine import EffectError
from ..schema.problems import DataError
from .common import EXIT_INTERNAL, EXIT_UNREADABLE, UsageError, err, print_problems, report_data_error
from .menu import run_menu


def _add_global_options(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--cards", action="append", type=Path, metavar="PATH", help="also load cards from this folder or YAML file (repeatable)")
    parser.add_argument("--decks", action="append", type=Path, metavar="DIR", help="also look for decks in DIR (repeatable)")
    return parser


def build_parser() -> argparse.ArgumentParser:
    # (the commands are imported here, not at the top: `ygoterm` alone opens the menu without them)
    from . import arena, cards, check, deck, engine_tools, match, odds, play, scenario, serve

    parser = _add_global_options(argparse.ArgumentParser(
        prog="ygoterm",
        description="ygoterm: Yu-Gi-Oh!-style card duels in the terminal. Without a command it opens the main menu.",
        epilog="Run 'ygoterm COMMAND --help' for a command's options.",
    ))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for module in (play, match, check, cards, deck, scenario, engine_tools, arena, odds, serve):
        module.add_parser(sub)
    _every_help_says_its_defaults(parser)
    return parser


def _every_help_says_its_defaults(parser: argparse.ArgumentParser) -> None:
    """Every command's --help: a description (its one-line help when it has no longer one) and
    each option's default (SettingsHelpFormatter)."""
    from .defaults import SettingsHelpFormatter

    for action in parser._actions:
        if action.help is None and action.option_strings and action.default is not None and action.default is not False \
                and action.default != argparse.SUPPRESS:
            default = action.default
            action.help = "default: " + (" ".join(map(str, default)) if isinstance(default, (list, tuple)) else str(default))
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, child in action.choices.items():
                formatter = child.formatter_class
                if not (isinstance(formatter, type) and issubclass(formatter, SettingsHelpFormatter)):
                    child.formatter_class = type("HelpWithDefaults", (SettingsHelpFormatter, formatter), {})
                said = helps.get(name, "")
                if not child.description and said:
                    child.description = said[:1].upper() + said[1:] + "."
                _every_help_says_its_defaults(child)


def _parse(argv: list[str]) -> argparse.Namespace:
    """The arguments; with no command (the main menu) without importing any command's module,
    so that the menu comes up sooner (a command, --help or a mistake goes to the full parser)."""
    menu_only = _add_global_options(argparse.ArgumentParser(prog="ygoterm", add_help=False, exit_on_error=False))
    try:
        menu, rest = menu_only.parse_known_args(argv)
    except argparse.ArgumentError:
        rest = argv  # (the full parser says what is wrong, with the whole usage)
    if not rest:
        return menu
    return build_parser().parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _parse(sys.argv[1:] if argv is None else argv)
    if not getattr(args, "run", None):
        args.run = run_menu  # no command: the TUI's main menu
    try:
        return args.run(args)
    except DataError as e:
        return report_data_error(e)
    except UsageError as e:
        print_problems(e.problems)
        err.print(f"[red]ygoterm: {escape(str(e))}[/]" + (f"  [dim]({escape(e.hint)})[/]" if e.hint else ""), soft_wrap=True)
        return EXIT_UNREADABLE
    except EffectError as e:
        report = write_bug_report(e)
        err.print(f"[red]ygoterm: {escape(str(e))}[/]", soft_wrap=True)
        err.print("This is a bug in ygoterm, not in your files." + (f" The replay that shows it is in {report}; please attach it to a bug report." if report else ""))
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0
