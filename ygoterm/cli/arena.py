"""`ygoterm arena`: many duels between agents and decks on every core, with win rates."""

from __future__ import annotations

import argparse
import itertools
import time
from pathlib import Path

from .. import paths
from ..agents import AGENTS, make_agent
from rich.markup import escape

from ..analysis import arena_records, gauntlet
from ..analysis.arena import Arena, DuelResult, Matchup, Summary, duel_task, play_duel, schedule, summarize
from ..schema.cardpool import CardPool
from ..schema.decks import Deck, deck_folder, load_deck, unscripted_cards
from ..schema.yamlio import write_atomically
from ..tui.presenters.gauntlet import standing_chart, standing_table
from ..schema.problems import DataError
from .common import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, UsageError, card_pool, deck_dirs, err, find_deck_file, out
from .runner import run_with_progress


DEFAULT_AGENTS = ["ai:normal", "greedy"]


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    a = sub.add_parser("arena", help="play many duels between agents and decks (all cores) and report win rates",
                       description="Round-robin matchups between the decks (a single deck plays itself). Each duel has its own "
                                   "seed derived from --seed; seats and decks alternate, so agent A plays each deck going first "
                                   "and second equally often. Results are the same for any number of workers.")
    a.add_argument("decks_", nargs="+", metavar="DECK", help="decks (files or names)")
    a.add_argument("--agents", nargs="+", default=None, metavar="AGENT",
                   help=f"agent A and agent B (one: it plays itself); one of {', '.join(AGENTS)} (default: ai:normal greedy; with --gauntlet: ai:normal)")
    a.add_argument("--duels", type=int, default=100, metavar="N", help="duels per matchup (default 100)")
    a.add_argument("--seed", type=int, default=0, metavar="S")
    a.add_argument("--workers", type=int, default=0, metavar="K", help="worker processes (default: every core)")
    a.add_argument("--out", type=Path, metavar="FILE", help="write every duel's result to FILE (.json or .csv), as duels finish")
    a.add_argument("--resume", action="store_true",
                   help="with --out FILE: play only the duels FILE does not hold yet (the file is written as duels finish, "
                        "so an interrupted arena goes on where it stopped; the same decks, agents and --seed)")
    a.add_argument("--replay", metavar="[MATCHUP:]DUEL",
                   help="play one duel of this arena again, alone (same decks, agents and --seed), and print what happened: "
                        "MATCHUP and DUEL are the numbers of --out (MATCHUP may be left out when there is one matchup)")
    a.add_argument("--verify", type=int, metavar="N",
                   help="with --out FILE: play the first N duels of each matchup FILE holds again and check that each ends "
                        "as recorded (winner, turns, ending, decisions) — whether this ygoterm still plays the file's duels, "
                        "so that --resume may go on with it; exit 1 when one differs")
    a.add_argument("--save", type=Path, metavar="FILE",
                   help="with --replay: also save that duel as a replay (.json) that ygoterm open FILE shows")
    a.add_argument("--gauntlet", metavar="FIELD",
                   help="play the one DECK against every deck of FIELD — a format's shipped decks (goat: decks/goat/) or a "
                        "folder of decks — with one agent on both sides (default ai:normal), best of one, going first "
                        "alternating; print the win rate per matchup with its 95%% interval, first and second, and overall")
    a.add_argument("--plot", action="store_true", help="with --gauntlet: also draw the win rates as a bar chart")
    a.add_argument("--ray", metavar="local|auto|ADDRESS",
                   help="play the duels as Ray tasks: on a local Ray (local), the cluster this machine is in (auto), "
                        "or the cluster at host:port; needs pip install 'ygoterm[cluster]'")
    a.set_defaults(run=run_arena)


def run_arena(args: argparse.Namespace) -> int:
    if args.gauntlet is not None:
        return run_gauntlet(args)
    if args.plot:
        raise UsageError("--plot draws a gauntlet's win rates", "for example: ygoterm arena --gauntlet goat DECK --plot")
    agents = list(args.agents or DEFAULT_AGENTS)
    if len(agents) not in (1, 2):
        raise UsageError("--agents takes one or two agents (A and B)", "for example: --agents ai:normal greedy")
    for spec in agents:
        try:
            make_agent(spec, 0)
        except ValueError as e:
            raise UsageError(str(e)) from None
    if len(agents) == 1:
        agents *= 2
    _check_numbers(args)
    pool = card_pool(args)
    dirs = deck_dirs(args)
    files, digests = {}, {}
    for ref in args.decks_:
        path = find_deck_file(ref, dirs)
        digests[path.stem] = _check_deck(path, pool, agents).digest
        files[path.stem] = path
    names = list(files)
    pairs = list(itertools.combinations(names, 2)) or [(names[0], names[0])]
    matchups = [Matchup((agents[0], agents[1]), pair) for pair in pairs]
    arena = _arena(args, files, matchups)
    if args.replay is not None:
        return _replay(arena, _duel_number(args.replay, matchups), args)
    if args.verify is not None:
        return _verify(arena, args, digests)
    results, workers, saved = _play(arena, args, digests)
    _report(summarize(matchups, results), workers)
    return _said_out(args, saved)


def run_gauntlet(args: argparse.Namespace) -> int:
    """`arena --gauntlet FIELD DECK`: the deck against every deck of the field (analysis.gauntlet)."""
    if len(args.decks_) != 1:
        raise UsageError(f"--gauntlet plays one deck against the field; {len(args.decks_)} decks given",
                         f"for example: ygoterm arena --gauntlet {args.gauntlet} {args.decks_[0]}")
    agents = list(dict.fromkeys(args.agents or ["ai:normal"]))  # (a deck is measured: one agent, both sides)
    if len(agents) != 1:
        raise UsageError("--gauntlet measures a deck: one agent plays both sides", "for example: --agents ai:easy")
    try:
        make_agent(agents[0], 0)
    except ValueError as e:
        raise UsageError(str(e)) from None
    _check_numbers(args)
    pool = card_pool(args)
    dirs = deck_dirs(args)
    field_files = deck_folder(args.gauntlet, dirs)
    if not field_files:
        shipped = sorted(p.name for d in dirs for p in d.iterdir() if p.is_dir() and p.name != "banlists")
        raise UsageError(f"--gauntlet {args.gauntlet}: no such field of decks (a subfolder of the deck folders, or a folder)",
                         f"the shipped fields: {', '.join(shipped) or 'none'}")
    path = find_deck_file(args.decks_[0], dirs)
    files = gauntlet.field_names(field_files)
    digests = {other_name: _check_deck(other, pool, agents).digest for other_name, other in files.items()}
    name = gauntlet.tested_name(path, files)
    digests[name] = _check_deck(path, pool, agents).digest
    matchups = gauntlet.matchups(name, list(files), agents[0])
    arena = _arena(args, {name: path, **files}, matchups)
    if args.replay is not None:
        return _replay(arena, _duel_number(args.replay, matchups), args)
    if args.verify is not None:
        return _verify(arena, args, digests)
    results, workers, saved = _play(arena, args, digests)
    standing = gauntlet.Standing(name, summarize(matchups, results))
    _report_gauntlet(standing, agents[0], args)
    if args.plot:
        out.print(standing_chart(standing, width=min(100, out.width)))
    return _said_out(args, saved)


def _check_numbers(args: argparse.Namespace) -> None:
    if args.duels < 1:
        raise UsageError("--duels must be at least 1")
    if args.out is not None and args.out.suffix not in (".json", ".csv"):
        raise UsageError(f"--out {args.out}: write .json or .csv")
    if args.resume and args.out is None:
        raise UsageError("--resume goes on from the duels in an --out file", "for example: --out results.json --resume")
    if args.verify is not None and (args.out is None or args.verify < 1 or args.resume or args.replay is not None):
        raise UsageError("--verify N plays again the first N (1 or more) duels of each matchup of an --out file, alone "
                         "(not with --resume or --replay)", "for example: --out results.csv --verify 4")
    if args.save is not None and (args.replay is None or args.save.suffix != ".json"):
        raise UsageError(f"--save {args.save}: saves the duel of --replay, as a .json file", "for example: --replay 0:17 --save duel.json")


def _check_deck(path: Path, pool: CardPool, agents: list[str]) -> Deck:
    """A deck the agents can play: legal to load, and every card scripted unless only `random` plays."""
    deck, problems = load_deck(path, pool)
    if problems:
        raise DataError(problems, unreadable=False)
    unscripted = unscripted_cards(deck, sections=("main", "extra"))
    if unscripted and any(spec != "random" for spec in agents):
        raise UsageError(f"{path}: the AI cannot play cards without scripts: {', '.join(unscripted)}",
                         "play this deck with --agents random, or replace those cards")
    return deck


def _arena(args: argparse.Namespace, files: dict[str, Path], matchups: list[Matchup]) -> Arena:
    extra = [Path(v).expanduser() for v in args.cards or []]
    return Arena(paths.card_dirs([p for p in extra if p.is_dir()]), [p for p in extra if p.is_file()], files, matchups)


def _play(arena: Arena, args: argparse.Namespace, digests: dict[str, str]) -> tuple[list[DuelResult], int, bool]:
    """Every duel of the arena: those --resume finds in --out, and the rest played now, written to
    --out as they finish (an interrupted run keeps them); `digests`: what each deck holds, by name. Also the worker
    count, and whether --out holds them all (a write that failed was said)."""
    tasks = schedule(arena.matchups, args.duels, args.seed)
    restored: list[DuelResult] = []
    beyond: list[dict[str, object]] = []
    if args.resume and args.out.exists():
        restored, beyond = arena_records.restore(args.out, arena.matchups, args.seed, args.duels, digests)
        done = {(r.matchup, r.number) for r in restored}
        tasks = [t for t in tasks if (t.matchup, t.number) not in done]
        kept = f"; {_duels(len(beyond))} beyond --duels {args.duels} stay in the file, not counted" if beyond else ""
        out.print(f"resuming: {_duels(len(restored))} already in {args.out}, {len(tasks)} to play{kept}")
    writer = _ResultsFile(args.out, arena.matchups, digests, restored, beyond)
    writer.write()  # (a file that cannot be written is said before hours of duels, not after)
    try:
        played, _, workers = run_with_progress(arena, tasks, "duels", args, on_result=writer.add)
    except KeyboardInterrupt:
        if args.out is not None:
            writer.write_meanwhile()
            out.print(f"interrupted: {len(writer.results)} of {len(tasks) + len(restored)} duels are in {args.out}; "
                      "the same command with --resume plays the rest")
        raise
    writer.write_meanwhile()
    return sorted([*restored, *played], key=lambda r: (r.matchup, r.number)), workers, not writer.failed


class _ResultsFile:
    """--out, rewritten (atomically) as duels finish: at most every few seconds, and at the end."""

    EVERY = 5.0  # seconds

    def __init__(self, path: Path | None, matchups: list[Matchup], digests: dict[str, str], restored: list[DuelResult],
                 beyond: list[dict[str, object]]) -> None:
        self.path, self.matchups, self.digests, self.beyond = path, matchups, digests, beyond
        self.results = list(restored)
        self.written = time.monotonic()
        self.failed = False  # a write between duels failed (said once)

    def add(self, result: DuelResult) -> None:
        self.results.append(result)
        if self.path is not None and time.monotonic() - self.written >= self.EVERY:
            self.write_meanwhile()

    def write(self) -> None:
        """The file as it stands; a file that cannot be written is a usage error (exit 2) — at the start, before any
        duel, and at the end, after the figures; in between it is said once and the duels go on."""
        if self.path is None:
            return
        ordered = sorted(self.results, key=lambda r: (r.matchup, r.number))
        try:
            write_atomically(self.path, arena_records.render(self.path, [*arena_records.rows(ordered, self.matchups, self.digests), *self.beyond]))
        except OSError as e:
            raise UsageError(f"--out {self.path}: cannot write it: {e.strerror or e}",
                             "give a file in a folder you can write to") from None
        self.written = time.monotonic()

    def write_meanwhile(self) -> None:
        try:
            self.write()
        except UsageError as e:
            if not self.failed:
                err.print(f"[yellow]ygoterm: {escape(str(e))}; the duels go on[/]", soft_wrap=True)
            self.failed = True
            self.written = time.monotonic()


def _duels(count: int) -> str:
    return f"{count} duel{'' if count == 1 else 's'}"


def _said_out(args: argparse.Namespace, saved: bool) -> int:
    """Where every duel's result is; exit 2 when --out could not be written in full (said as it failed)."""
    if args.out is None:
        return EXIT_OK
    if not saved:
        err.print(f"[red]ygoterm: --out {args.out} does not hold every duel of this run (a write failed, said above)[/]")
        return EXIT_UNREADABLE
    out.print(f"every duel's result: {args.out} (play one again alone: the same command with --replay MATCHUP:DUEL)")
    return EXIT_OK


def _duel_number(text: str, matchups: list[Matchup]) -> tuple[int, int]:
    """'17' (one matchup) or '3:17': the matchup and duel numbers of --out."""
    parts = text.split(":")
    if not all(part.isdigit() for part in parts) or len(parts) > 2:
        raise UsageError(f"--replay {text}: give DUEL or MATCHUP:DUEL, numbers as in --out", "for example: --replay 0:17")
    if len(parts) == 1 and len(matchups) > 1:
        raise UsageError(f"--replay {text}: these decks make {len(matchups)} matchups (0–{len(matchups) - 1}); say which",
                         f"for example: --replay 0:{text}")
    m, n = (0, int(parts[0])) if len(parts) == 1 else (int(parts[0]), int(parts[1]))
    if m >= len(matchups):
        raise UsageError(f"--replay {text}: there are matchups 0–{len(matchups) - 1} only (in the order the arena prints them)")
    return m, n


def _replay(arena: Arena, number: tuple[int, int], args: argparse.Namespace) -> int:
    """One duel of the arena again: everything that happened (both hands: nobody hides from the
    person who ran it), its result, and optionally its replay file."""
    m, n = number
    matchup = arena.matchups[m]
    pool, decks = arena.start()
    task = duel_task(m, matchup, n, args.seed)
    duel, result = play_duel(task, matchup, pool, decks)
    a_name, b_name = matchup.decks[task.a_deck], matchup.decks[1 - task.a_deck]
    out.print(f"[bold]{matchup.name}[/] — duel {n} (seed {task.seed}): Player 1 is A ({matchup.agents[0]}, {a_name}), "
              f"Player 2 is B ({matchup.agents[1]}, {b_name}); A goes {'first' if task.a_first else 'second'}", markup=True)
    for event in duel.log:
        out.print(event.text(duel.names), markup=False, highlight=False)
    winner = {"A": f"A ({matchup.agents[0]}) won", "B": f"B ({matchup.agents[1]}) won"}.get(result.winner, "a draw")
    out.print(f"[bold]{winner}[/] on turn {result.turns} ({result.reason}), {result.decisions} decisions", markup=True)
    if args.save is not None:
        assert duel.record is not None
        duel.record.save(args.save)
        out.print(f"saved: {args.save} (ygoterm open {args.save} shows the board and the whole log)")
    return EXIT_OK


def _verify(arena: Arena, args: argparse.Namespace, digests: dict[str, str]) -> int:
    """--verify N: the first N duels of each matchup in --out played again, each compared with its
    record. A change to the engine or the AI that plays any of them differently means the file
    measures other code: --resume would mix the two (docs/measurements/goat/README.md)."""
    if not args.out.exists():
        raise UsageError(f"--verify: {args.out} does not exist", "give the --out file of an arena that was played")
    recorded, _ = arena_records.restore(args.out, arena.matchups, args.seed, 10**9, digests)
    chosen = sorted((r for r in recorded if r.number < args.verify), key=lambda r: (r.matchup, r.number))
    if not chosen:
        raise UsageError(f"--verify {args.verify}: {args.out} holds none of the first {args.verify} duels of any matchup")
    tasks = [duel_task(r.matchup, arena.matchups[r.matchup], r.number, args.seed) for r in chosen]
    played, _, _ = run_with_progress(arena, tasks, "duels", args)
    again = {(r.matchup, r.number): r for r in played}
    differ = []
    for r in chosen:
        now = again[(r.matchup, r.number)]
        was_is = [(what, getattr(r, what), getattr(now, what)) for what in ("winner", "turns", "reason", "decisions")
                  if getattr(r, what) != getattr(now, what)]
        if was_is:
            differ.append(f"  {r.matchup}:{r.number}: " + ", ".join(f"{what} {was!r} → {is_!r}" for what, was, is_ in was_is))
    if differ:
        out.print(f"[red]{len(differ)} of {_duels(len(chosen))} in {escape(str(args.out))} end{'s' if len(differ) == 1 else ''} otherwise "
                  "now[/] (recorded → now):", markup=True)
        for line in differ:
            out.print(line, markup=False)
        out.print("this ygoterm plays these duels differently: a run that goes on needs a new --out file")
        return EXIT_INVALID
    out.print(f"verified: {_duels(len(chosen))} of {args.out} end{'s' if len(chosen) == 1 else ''} as recorded "
              "(winner, turns, ending, decisions)")
    return EXIT_OK


def _report(summaries: list[Summary], workers: int) -> None:
    """A block per matchup: agent A's score with its 95% Wilson interval, split by going first
    and second, turns, how duels ended, speed and A's time per decision."""
    for s in summaries:
        t, first, second = s.total, s.going_first, s.going_second
        speed = t.duels / s.seconds * workers if s.seconds else 0.0
        out.print(f"[bold]{s.matchup.name}[/] — {_duels(t.duels)}, {speed:.1f} duels/s")
        out.print(f"  A: {t.wins} won, {t.losses} lost, {t.draws} drawn — score {t.text()}")
        out.print(f"  going first {first.text()} · going second {second.text()}")
        endings = ", ".join(f"{k} {v}" for k, v in s.endings.most_common())
        timing = f" · A's time per decision p50 {s.percentile(0.5) * 1000:.0f} ms, p95 {s.percentile(0.95) * 1000:.0f} ms" \
            if s.a_times else ""  # (duels resumed from a file kept no timing)
        out.print(f"  mean turns {s.mean_turns:.1f} · endings: {endings}{timing}")


def _report_gauntlet(standing: gauntlet.Standing, agent: str, args: argparse.Namespace) -> None:
    out.print(standing_table(standing, f"{standing.deck} against the {args.gauntlet} field — {agent} on both sides, "
                                       f"{args.duels} duels per matchup (seed {args.seed})"))
