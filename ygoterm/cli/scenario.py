"""`ygoterm scenario check`: run scenario files headless and report every difference."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.markup import escape

from ..scenarios import PoolCache, run, scenario_files
from ..schema.problems import DataError, display_path
from .common import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, UsageError, out, print_problems


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("scenario", help="run scenario files (puzzles, rules tests) and check their expectations")
    scenario_sub = p.add_subparsers(dest="scenario_command", metavar="{check,play}", required=True)
    check = scenario_sub.add_parser("check", help="play each scenario's script headless; exit 0 only if every expectation holds",
                                    description="Runs FILE or every *.yaml under DIR. On a mismatch prints expected vs actual per zone and the log tail.")
    check.add_argument("targets", nargs="+", type=Path, metavar="FILE|DIR")
    check.add_argument("-q", "--quiet", action="store_true", help="print failures and the summary only")
    check.set_defaults(run=run_check)
    from .play import add_scenario_play

    add_scenario_play(scenario_sub)


def run_check(args: argparse.Namespace) -> int:
    for target in args.targets:
        if not target.exists():
            raise UsageError(f"{target}: no such file or folder")
    files = scenario_files(args.targets)
    if not files:
        raise UsageError("no scenario files found", "scenario files end in .yaml")
    pools = PoolCache([Path(c) for c in args.cards or []])
    passed = failed = broken = 0
    for path in files:
        try:
            result = run(path, pools)
        except DataError as e:
            broken += 1
            out.print(f"[red]ERROR[/] {escape(display_path(path))}")
            print_problems(e.problems, out)
            continue
        if result.passed:
            passed += 1
            if not args.quiet:
                out.print(f"[green]PASS[/]  {escape(result.name)}  [dim]{escape(display_path(path))}[/]")
            continue
        failed += 1
        out.print(f"[red]FAIL[/]  {escape(result.name)}  [dim]{escape(display_path(path))}[/]")
        for failure in result.failures:
            out.print(f"      [red]✗[/] {escape(failure)}", soft_wrap=True)
        out.print("      [dim]log (last lines):[/]")
        for line in result.log_tail:
            out.print(f"      [dim]{escape(line)}[/]", soft_wrap=True)
    summary = f"{passed} passed, {failed} failed" + (f", {broken} unreadable" if broken else "")
    out.print(f"[bold]{summary}[/] ({len(files)} scenario{'s' if len(files) != 1 else ''})")
    if broken:
        return EXIT_UNREADABLE
    return EXIT_INVALID if failed else EXIT_OK
