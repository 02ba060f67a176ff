"""`ygoterm fuzz` and `ygoterm bench`: random play against the rules engine."""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats

from ..devtools.bench import CopyFigures, ai_latency, bench, copy_latency
from ..devtools.compare import CompareError, compare_revisions
from ..analysis.fuzz import fuzz, pool_decks
from ..devtools.load_bench import measure_import, measure_load
from ..schema.cardpool import CardPool
from ..schema.decks import Deck, deck_paths, load_deck
from ..schema.problems import DataError
from .common import EXIT_INVALID, EXIT_OK, UsageError, card_pool, deck_dirs, err, find_deck_file, out

BENCH_DECK = "vanilla-beatdown"


def add_parser(sub: argparse._SubParsersAction) -> None:
    f = sub.add_parser("fuzz", help="play random duels and check the engine's invariants after every choice",
                       description="Exit 0 if every duel ended with all invariants intact; otherwise print the seed and choice index of the first violation and exit 1.")
    f.add_argument("--duels", type=int, default=300, metavar="N", help="duels to play")
    f.add_argument("--seed", type=int, default=0, metavar="S", help="the seed of the run (the same seed plays the same duels)")
    f.add_argument("--decks", nargs="+", metavar="DECK", dest="deck_refs", help="decks to pair at random (default: every shipped and user deck)")
    f.add_argument("--pool", type=int, default=0, metavar="N",
                   help="instead, N random decks of the card pool's scripted cards (reaches every card script)")
    f.add_argument("--copies", action="store_true",
                   help="also copy and determinize duels at random points: copies must play out as the original, worlds to their end")
    f.set_defaults(run=run_fuzz)
    b = sub.add_parser("bench", help="time random-vs-random duels (duels/s, decisions/s) or card-pool loading",
                       description=f"Single-threaded random duels between two decks (default: {BENCH_DECK} twice); setup is included in the time.")
    b.add_argument("--duels", type=int, metavar="N", help="duels to play (default 200; 3 with --ai)")
    b.add_argument("--seed", type=int, default=0, metavar="S")
    b.add_argument("--decks", nargs=2, metavar=("A", "B"), dest="deck_refs", help=f"the two decks (default: {BENCH_DECK} {BENCH_DECK})")
    b.add_argument("--profile", action="store_true", help="run under cProfile and print the top entries")
    b.add_argument("--load", type=int, metavar="CARDS", help="instead: time loading a generated pool of CARDS cards, cold and warm")
    b.add_argument("--import", type=int, dest="import_cards", metavar="CARDS",
                   help="instead: time 'cards import' of a generated CARDS-card cards.cdb, then the pool's cold and warm load and searches")
    b.add_argument("--tui", action="store_true", help="instead: TUI cold start, keypress → repaint latency at 120×40, memory after 20 turns")
    b.add_argument("--keys", type=int, default=300, metavar="N", help="with --tui: keys to press on the duel screen (default 300)")
    b.add_argument("--copy", action="store_true", help="instead: Duel.copy() and determinize() latency (median, p99) at turns 3, 8 and 15")
    b.add_argument("--ai", metavar="LEVEL", help="instead: CPU time per searched decision of ai:LEVEL against the greedy baseline "
                                                 "(p50/p95/max; default decks kaiba-dragons joey-warriors)")
    b.add_argument("--odds", action="store_true", help="instead: exact odds of 10 combos over a 60-card deck (the deck lab), "
                                                       "5 and 6 cards, and a --what-if of every card")
    b.add_argument("--against", metavar="REV",
                   help="run the same bench with git revision REV (checked out apart) and this code in alternating rounds; print the ratio")
    b.add_argument("--rounds", type=int, default=3, metavar="N", help="rounds for --against (default 3)")
    b.set_defaults(run=run_bench)


def _decks(args: argparse.Namespace, pool: CardPool, refs: list[str] | None) -> list[Deck]:
    dirs = deck_dirs(args)
    paths = [find_deck_file(r, dirs) for r in refs] if refs else deck_paths(dirs)
    decks = []
    for path in paths:
        deck, problems = load_deck(path, pool)
        if problems:
            raise DataError(problems, unreadable=False)
        decks.append(deck)
    if not decks:
        raise UsageError("no decks to play with")
    return decks


def run_fuzz(args: argparse.Namespace) -> int:
    pool = card_pool(args)
    decks = pool_decks(pool, args.pool, args.seed) if args.pool else _decks(args, pool, args.deck_refs)
    err.print(f"Fuzzing {args.duels} duels (seed {args.seed}) over {len(decks)} deck{'s' if len(decks) > 1 else ''}: {', '.join(d.name for d in decks)}")
    report = fuzz(pool, decks, args.duels, args.seed, copies=args.copies)
    out.print(f"{report.duels} duels, {report.decisions} decisions; wins {report.wins[0]}/{report.wins[1]}, draws {report.draws}; "
              f"endings: {', '.join(f'{k} {v}' for k, v in sorted(report.reasons.items()))}")
    if args.copies:
        out.print(f"{report.copies} copies played out as their originals; {report.worlds} determinized worlds played to their end")
    if report.violation:
        out.print(f"[red]Invariant violated[/]: {report.violation}")
        out.print(f"[dim]Reproduce: ygoterm fuzz --duels {report.violation.duel + 1} --seed {args.seed}"
                  + (f" --pool {args.pool}" if args.pool else "") + (" --copies" if args.copies else "")
                  + (f" --decks {' '.join(args.deck_refs)}" if args.deck_refs else "") + "[/]")
        return EXIT_INVALID
    out.print("[green]All invariants held.[/]")
    return EXIT_OK


def run_bench(args: argparse.Namespace) -> int:
    if args.tui:
        from ..devtools.tui_bench import measure, report

        for line in report(measure(keys=args.keys, seed=args.seed or 7)):
            out.print(line)
        return EXIT_OK
    if args.load:
        figures = measure_load(args.load)
        out.print(f"Loading {figures.cards:,} generated cards ({figures.files} files, {figures.megabytes:.1f} MB): "
                  f"cold {figures.cold_s:.2f} s (parse + validate + write cache), "
                  f"warm {figures.warm_best:.3f} s best of {len(figures.warm_s)} (median {sorted(figures.warm_s)[len(figures.warm_s) // 2]:.3f} s)")
        return EXIT_OK
    if args.import_cards:
        f = measure_import(args.import_cards)
        out.print(f"Importing a generated cards.cdb of {f.cards:,} entries: {f.import_s:.2f} s ({f.imported:,} cards written, {f.megabytes:.1f} MB)")
        out.print(f"  then the pool ({f.imported:,} + shipped cards): first load {f.cold_s:.2f} s (from the cache the import wrote), "
                  f"warm {min(f.warm_s):.3f} s best of {len(f.warm_s)} (median {sorted(f.warm_s)[len(f.warm_s) // 2]:.3f} s)")
        out.print(f"  cards search over it: {', '.join(f'{s * 1e3:.0f}' for s in f.search_s)} ms "
                  "(dragon; attribute:dark atk:2000+; text:banish level:4; import 99)")
        out.print(f"  `ygoterm cards show NAME` (a new process): {f.show_s:.2f} s, {f.show_mb:.0f} MB "
                  f"(with the shipped cards only: {f.show_shipped_s:.2f} s, {f.show_shipped_mb:.0f} MB)")
        return EXIT_OK
    if args.ai:
        return run_ai_bench(args, card_pool(args))
    if args.odds:
        return run_odds_bench(card_pool(args))
    args.duels = 200 if args.duels is None else args.duels
    if args.against:
        return run_against(args)
    pool = card_pool(args)
    a, b = _decks(args, pool, args.deck_refs or [BENCH_DECK, BENCH_DECK])
    if args.copy:
        out.print(f"Duel.copy() and determinize() of {a.name} vs {b.name}, {args.duels} random duels (seed {args.seed})")
        out.print("  (ms, median / p99)       copy             determinize")
        for turn in copy_latency(pool, (a, b), args.duels, args.seed):
            q = CopyFigures.quantile
            out.print(f"  turn {turn.turn:>2} ({len(turn.copy):>4} samples)  {q(turn.copy, 0.5) * 1e3:.3f} / {q(turn.copy, 0.99) * 1e3:.3f}"
                      f"    {q(turn.determinize, 0.5) * 1e3:.3f} / {q(turn.determinize, 0.99) * 1e3:.3f}")
        return EXIT_OK
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    played = bench(pool, (a, b), args.duels, args.seed, time_decisions=not profiler)
    if profiler:
        profiler.disable()
    out.print(f"{played.duels} duels {a.name} vs {b.name} (seed {args.seed}) in {played.seconds:.2f} s")
    out.print(f"  {played.duels_per_s:,.1f} duels/s · {played.decisions_per_s:,.0f} decisions/s · "
              f"{played.decisions_per_duel:,.1f} decisions per duel")
    if played.per_decision:
        out.print(f"  time per decision: p50 {played.percentile(0.5) * 1e6:.1f} µs · p99 {played.percentile(0.99) * 1e6:.1f} µs")
    out.print(f"  peak memory (max RSS): {played.peak_rss_mb:.0f} MB")
    if profiler:
        buffer = io.StringIO()
        pstats.Stats(profiler, stream=buffer).sort_stats("tottime").print_stats(25)
        out.print(buffer.getvalue(), markup=False, highlight=False)
    return EXIT_OK


def run_odds_bench(pool: CardPool, rounds: int = 21) -> int:
    import time

    from ..analysis.odds import bench_lab, odds, what_if

    monsters = [c.name for c in pool if c.kind == "monster" and getattr(c, "frame", "") in ("normal", "effect")]
    names = monsters[:10] + [c.name for c in pool if c.kind != "monster"][:10]
    deck, lab = bench_lab(names, {c.name: c.kind for c in pool})
    out.print(f"Exact odds: {len(lab.combos)} combos, 1 group, over a {sum(deck.values())}-card deck of {len(deck)} three-ofs "
              f"(best and median of {rounds} runs)")
    for hand in (5, 6):
        times = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            odds(deck, lab, hand)
            times.append(time.perf_counter() - t0)
        times.sort()
        out.print(f"  hand of {hand}: best {times[0] * 1e3:.1f} ms · median {times[len(times) // 2] * 1e3:.1f} ms")
    t0 = time.perf_counter()
    what_if(deck, lab, (5, 6))
    out.print(f"  --what-if of all {len(deck)} cards, both hands: {(time.perf_counter() - t0) * 1e3:.0f} ms")
    return EXIT_OK


def run_ai_bench(args: argparse.Namespace, pool: CardPool) -> int:
    from ..agents.ai import LEVELS

    if args.ai not in LEVELS:
        raise UsageError(f"unknown AI level '{args.ai}'", f"choose one of: {', '.join(LEVELS)}")
    a, b = _decks(args, pool, args.deck_refs or ["kaiba-dragons", "joey-warriors"])
    duels = 3 if args.duels is None else args.duels
    f = ai_latency(pool, (a, b), args.ai, duels, args.seed)
    if not f.seconds:
        out.print(f"ai:{args.ai} searched no decision in {duels} duels {a.name} vs {b.name}")
        return EXIT_OK
    playouts = sorted(f.playouts)
    out.print(f"ai:{args.ai} vs greedy, {a.name} vs {b.name}, {duels} duels (seed {args.seed}): {len(f.seconds)} searched decisions")
    out.print(f"  CPU time per decision: p50 {f.quantile(0.5) * 1e3:.0f} ms · p95 {f.quantile(0.95) * 1e3:.0f} ms · "
              f"max {max(f.seconds) * 1e3:.0f} ms · play-outs p50 {playouts[len(playouts) // 2]} (min {playouts[0]}, max {playouts[-1]})")
    return EXIT_OK


def run_against(args: argparse.Namespace) -> int:
    """Old and new side by side in one run: alternating rounds, medians, and their ratio."""
    bench_args = ["--duels", str(args.duels), "--seed", str(args.seed)]
    if args.deck_refs:
        bench_args += ["--decks", *args.deck_refs]
    err.print(f"Benchmarking {args.against} against this code: {args.rounds} alternating rounds of `ygoterm bench {' '.join(bench_args)}`")
    try:
        result = compare_revisions(args.against, bench_args, args.rounds, progress=err.print)
    except CompareError as e:
        raise UsageError(str(e)) from e
    for label, runs in (("old", result.old), ("new", result.new)):
        out.print(f"  {label} ({result.names[label]}): duels/s {', '.join(f'{r.duels_per_s:.1f}' for r in runs)} · "
                  f"median {result.median(label):.1f} · decisions per duel {runs[0].decisions_per_duel:.1f}")
    out.print(f"  new/old throughput: {result.ratio:.2f}×")
    if result.old[0].decisions_per_duel != result.new[0].decisions_per_duel:
        out.print("[yellow]  decisions per duel differ: the two engines did not play the same duels[/]")
    return EXIT_OK
