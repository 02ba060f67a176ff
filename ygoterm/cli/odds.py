"""`ygoterm odds`: the deck lab on the command line — exact opening-hand odds of a deck's combos,
what one copy more or fewer does, and openings played through the engine (`--sim`)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.table import Table

from ..analysis.odds import FIRST_HAND, SECOND_HAND, Odds, Report, WhatIf, cuts, deck_counts, odds, what_if
from ..schema.cardpool import CardPool
from ..schema.decks import Deck, read_deck_file, resolve
from ..schema.lab import Combo, Lab, parse_need, resolve_needs
from ..schema.legality import copy_limit
from ..schema.problems import DataError, Problem
from .common import EXIT_OK, UsageError, card_pool, deck_dirs, find_deck_file, out


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    o = sub.add_parser("odds", help="the deck lab: exact odds of opening each combo, what-if deltas, engine-played openings",
                       description="The probability that the opening hand (5 cards going first, 6 going second) meets each "
                                   "combo of the deck's 'lab:' section, each group and any combo, counted exactly; or of the "
                                   "--need requirements given here. See docs/data.md, The deck lab.")
    o.add_argument("deck", metavar="DECK", help="a deck file or name")
    side = o.add_mutually_exclusive_group()
    side.add_argument("--first", action="store_true", help="only going first (a 5-card hand)")
    side.add_argument("--second", action="store_true", help="only going second (a 6-card hand)")
    side.add_argument("--hand", type=int, metavar="N", help="only a hand of N cards")
    o.add_argument("--need", action="append", metavar="REQ",
                   help="a requirement instead of the lab's combos: 'N NAME|OTHER NAME' is at least N of these cards or "
                        "roles; several --need are all needed at once (repeatable)")
    o.add_argument("--what-if", action="store_true", help="also: for every card, the odds with one copy more and one fewer, "
                                                          "and the cards to cut")
    o.add_argument("--sim", type=int, metavar="N", help="also: play N openings through the engine, going first and second")
    o.add_argument("--seed", type=int, default=0, metavar="S", help="the simulation's seed (default 0)")
    o.add_argument("--workers", type=int, default=0, metavar="K", help="worker processes for --sim (default: every core)")
    o.add_argument("--ray", metavar="local|auto|ADDRESS", help="run --sim as Ray tasks (as `ygoterm arena --ray`)")
    o.add_argument("--json", action="store_true", help="print JSON instead of tables")
    o.set_defaults(run=run_odds)


# ---------------------------------------------------------------------- loading


def load_lab(args: argparse.Namespace, pool: CardPool) -> tuple[Path, Deck, Lab]:
    """The deck and its lab with every name looked up; `--need`s replace the lab's combos."""
    path = find_deck_file(args.deck, deck_dirs(args))
    deck_file = read_deck_file(path)
    deck, problems = resolve(deck_file, pool)
    if problems:
        raise DataError(problems, unreadable=False)
    lab = deck_file.lab or Lab({}, (), {})
    extra: tuple[Combo, ...] = ()
    if args.need:
        needs = []
        for text in args.need:
            need, message = parse_need(text)
            if need is None:
                raise UsageError(f"--need {text!r}: {message}")
            needs.append(need)
        extra = (Combo(" + ".join(args.need), tuple(needs)),)
        lab = Lab(lab.roles, (), {}, None)
    found: list[Problem] = []
    bad_needs: list[str] = []

    def report(loc: tuple[Any, ...], message: str, hint: str) -> None:
        if loc and loc[0] == "--need":
            bad_needs.append(message + (f" ({hint})" if hint else ""))
        else:
            found.append(deck_file.problem(loc, message, hint, key=False))

    resolved = resolve_needs(lab, deck, pool, report, extra)
    if found:
        raise DataError(found)
    if bad_needs:
        raise UsageError("--need: " + "; ".join(bad_needs))
    if not resolved.combos:
        raise UsageError(f"{path.name} has no combos", "add a 'lab:' section with combos (docs/data.md, The deck lab), or give --need")
    return path, deck, resolved


def hand_sizes(args: argparse.Namespace) -> list[tuple[str, int]]:
    if args.hand is not None:
        if not 1 <= args.hand <= 60:
            raise UsageError(f"--hand {args.hand}: a hand has 1 to 60 cards")
        return [(f"hand of {args.hand}", args.hand)]
    if args.first:
        return [("going first", FIRST_HAND)]
    if args.second:
        return [("going second", SECOND_HAND)]
    return [("going first", FIRST_HAND), ("going second", SECOND_HAND)]


# ---------------------------------------------------------------------- the command


def run_odds(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    path, deck, lab = load_lab(args, pool)
    sizes = hand_sizes(args)
    counts = deck_counts(deck.main)
    reports = [odds(counts, lab, h) for _, h in sizes]
    changes: list[WhatIf] = []
    if args.what_if:
        _, changes = what_if(counts, lab, tuple(h for _, h in sizes), limit=copy_limit(deck, deck_dirs(args), pool, named_in=path))
    sim = None
    if args.sim is not None:
        from .lab_sim import simulate

        sim = simulate(args, pool, path, deck, lab, sizes)
    if args.json:
        out.print_json(json.dumps(as_json(deck, lab, sizes, reports, changes, sim)))
        return EXIT_OK
    print_reports(deck, lab, sizes, reports, sim)
    if args.what_if:
        print_what_if(lab, sizes, reports, changes)
    if sim is not None:
        from .lab_sim import print_usage

        print_usage(sim)
    return EXIT_OK


def _cell(o: Odds, brief: bool = False) -> str:
    if o.impossible:
        return f"[red]impossible[/] [dim]({escape(o.reason)})[/]" if o.reason else "[dim]0%[/]"
    if brief:
        return f"{o.percent:6.2f}%"
    return f"{o.percent:6.2f}%  [dim]{o.fraction.numerator}/{o.fraction.denominator}[/]"


def print_reports(deck: Deck, lab: Lab, sizes: list[tuple[str, int]], reports: list[Report], sim: Any = None) -> None:
    table = Table(title=f"{escape(deck.name)} — {len(deck.main)} cards, exact opening-hand odds", title_justify="left")
    table.add_column("")
    for (label, h), _ in zip(sizes, reports):
        table.add_column(f"{label} ({h} cards)" + (", exact" if sim is not None else ""), justify="left")
    if sim is not None:
        for label, h in sizes:
            table.add_column(f"{label}, played [dim](95% interval)[/]", justify="left")
    for i, row in enumerate(reports[0].all()):
        cells = [_cell(r.all()[i], brief=sim is not None) for r in reports]
        if sim is not None:
            cells += sim.cells(row.name, [h for _, h in sizes])
        style = "bold" if row.kind in ("any", "group") else "dim" if row.kind == "brick" else ""
        name = escape(row.name) if row.kind != "group" else f"group: {escape(row.name)}"
        table.add_row(name, *cells, style=style)
    out.print(table)
    for combo in lab.combos:
        out.print(f"  [dim]{escape(combo.name)}: {escape(str(combo))}[/]")
    if lab.brick:
        out.print(f"  [dim]brick: {escape(str(lab.brick))}[/]")


def _pp(delta: float | None) -> str:
    if delta is None:
        return "[dim]–[/]"
    colour = "green" if delta > 0.005 else "red" if delta < -0.005 else "dim"
    return f"[{colour}]{delta:+.2f}[/]"


def print_what_if(lab: Lab, sizes: list[tuple[str, int]], reports: list[Report], changes: list[WhatIf]) -> None:
    label, _ = sizes[0]
    rows = reports[0].all()
    anyc = next(i for i, o in enumerate(rows) if o.kind == "any")
    table = Table(title=f"What if: one copy more / one fewer, {label} (change in percentage points, largest effect first)",
                  title_justify="left")
    table.add_column("card")
    table.add_column("+1", justify="left")
    table.add_column("−1", justify="left")
    table.add_column("any combo\n+1 / −1", justify="right")
    table.add_column("each combo: +1 / −1 (those it changes)")

    def delta(change: Any, i: int) -> float | None:
        return change.reports[0].all()[i].percent - rows[i].percent if change.possible else None

    for w in changes:
        if w.idle:
            continue
        per = []
        for i, o in enumerate(rows):
            if o.kind != "combo":
                continue
            d_plus, d_minus = delta(w.plus, i), delta(w.minus, i)
            if max(abs(d_plus or 0), abs(d_minus or 0)) >= 0.005:
                per.append(f"{escape(o.name)} {_pp(d_plus)} / {_pp(d_minus)}")
        table.add_row(f"{escape(w.card)} ×{w.copies}", _size(w.plus), _size(w.minus),
                      f"{_pp(delta(w.plus, anyc))} / {_pp(delta(w.minus, anyc))}", " · ".join(per))
    out.print(table)
    out.print("[dim]  +1/−1: the deck's size after the change; 'no': not possible (" +
              "; ".join(sorted({escape(c.note) for w in changes for c in (w.plus, w.minus) if not c.possible})) + ")[/]")
    idle = [f"{w.card} ×{w.copies}" for w in changes if w.idle]
    if idle:
        out.print(f"[bold]Count toward no combo[/] (cutting them changes the odds only through the deck's size): {escape(', '.join(idle))}")
    out.print("[bold]Cheapest cuts[/] of the others (a copy fewer keeps 'any combo' highest, mean over the hand sizes):")
    for w, d in cuts(reports, changes):
        out.print(f"  {escape(w.card)} ×{w.copies} → {w.copies - 1}: any combo {d:+.2f} points ({escape(w.minus.note)})")


def _size(change: Any) -> str:
    return f"{change.deck_size} cards" if change.possible else "[dim]no[/]"


# ---------------------------------------------------------------------- JSON


def _odds_json(o: Odds) -> dict[str, Any]:
    return {"name": o.name, "kind": o.kind, "hands": o.hands, "of": o.total,
            "fraction": f"{o.fraction.numerator}/{o.fraction.denominator}", "percent": round(o.percent, 4),
            "impossible": o.impossible, **({"reason": o.reason} if o.reason else {})}


def as_json(deck: Deck, lab: Lab, sizes: list[tuple[str, int]], reports: list[Report], changes: list[WhatIf], sim: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "deck": deck.name, "cards": len(deck.main),
        "combos": [{"name": c.name, "needs": str(c)} for c in lab.combos],
        "exact": [{"label": label, "hand": h, "odds": [_odds_json(o) for o in r.all()]} for (label, h), r in zip(sizes, reports)],
    }
    if changes:
        doc["what_if"] = [
            {"card": w.card, "copies": w.copies,
             **{key: {"deck": ch.deck_size, "note": ch.note, "possible": ch.possible,
                      "exact": [{"hand": r.hand, "odds": [_odds_json(o) for o in r.all()]} for r in ch.reports]}
                for key, ch in (("plus", w.plus), ("minus", w.minus))}}
            for w in changes]
        doc["cuts"] = [{"card": w.card, "any_combo_points": round(d, 4)} for w, d in cuts(reports, changes)]
    if sim is not None:
        doc["sim"] = sim.as_json()
    return doc
