"""The arena: many duels between agents and decks, for testing a deck or an AI (`ygoterm arena`).

A matchup is two agents and two decks. Its duels cycle through the four ways to sit: agent A
with the first deck or the second, going first or second (the arena answers the coin-toss
winner's choice to keep that schedule). Every duel has its own seed derived from the arena's
seed, the decks and the duel's number, so any duel can be played again alone, two runs with
other agents meet the same deals, and the results are the same whatever the number of worker
processes: duels are independent and deterministic, and results are put back in duel order.
"""

from __future__ import annotations

import gc
import math
import os
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol, Sequence, TypeVar

from ..agents import make_agent, observe
from ..agents.random_agent import RandomAgent
from ..engine import Duel, Kind
from ..schema.cardpool import CardPool
from ..schema.decks import Deck, load_deck
from ..schema.printable import printable

MAX_DECISIONS = 20_000  # a duel that takes longer is stopped and counted as a draw (never seen)


@dataclass(frozen=True)
class Matchup:
    agents: tuple[str, str]  # agent A, agent B
    decks: tuple[str, str]  # deck names (files are passed to the workers)
    # agent A always plays the first deck (a gauntlet measures a deck, with one agent on both sides): only the
    # seat going first alternates; otherwise the decks alternate too (an arena measures agents)
    decks_fixed: bool = False

    @property
    def name(self) -> str:
        return f"{self.agents[0]} vs {self.agents[1]} · {self.decks[0]} vs {self.decks[1]}"


@dataclass(frozen=True)
class Task:
    matchup: int
    number: int
    seed: int
    a_deck: int  # which of the matchup's decks agent A plays (0 or 1)
    a_first: bool  # agent A goes first


@dataclass(frozen=True)
class DuelResult:
    matchup: int
    number: int
    seed: int
    a_deck: int
    a_first: bool
    winner: str  # "A", "B" or "draw"
    turns: int
    reason: str
    decisions: int
    seconds: float
    a_times: tuple[float, ...] = ()  # agent A's time per decision that had a choice (seconds)


def schedule(matchups: list[Matchup], duels: int, seed: int) -> list[Task]:
    """Every duel of every matchup, with its derived seed and seating."""
    return [duel_task(m, matchup, n, seed) for m, matchup in enumerate(matchups) for n in range(duels)]


def duel_task(m: int, matchup: Matchup, n: int, seed: int) -> Task:
    """Duel `n` of matchup number `m`. Its seed depends on the arena's seed, the decks and `n`
    only: not on how many duels the arena plays, so any duel can be played again alone; not on
    the agents, so two runs that differ only in an agent deal the same hands and seatings (a
    paired comparison: the luck of the deal cancels out of their difference)."""
    duel_seed = random.Random(f"arena:{seed}:{matchup.decks[0]} vs {matchup.decks[1]}:{n}").randrange(2**31)
    if matchup.decks_fixed:
        return Task(m, n, duel_seed, a_deck=0, a_first=n % 2 == 0)
    return Task(m, n, duel_seed, a_deck=n % 2, a_first=(n // 2) % 2 == 0)


def play(task: Task, matchup: Matchup, pool: CardPool, decks: dict[str, Deck]) -> DuelResult:
    """One duel of the arena (the same result in any process)."""
    return play_duel(task, matchup, pool, decks)[1]


def play_duel(task: Task, matchup: Matchup, pool: CardPool, decks: dict[str, Deck]) -> tuple[Duel, DuelResult]:
    """`play`, with the duel itself (its log and replay record: `ygoterm arena --replay`)."""
    a_deck, b_deck = (decks[matchup.decks[task.a_deck]], decks[matchup.decks[1 - task.a_deck]])
    a_seat = 0  # agent A is Player 1; who goes first is the schedule's
    duel = Duel.new(pool, (a_deck, b_deck), task.seed)
    agents = (make_agent(matchup.agents[0], task.seed), make_agent(matchup.agents[1], task.seed + 1))
    start = time.perf_counter()
    decisions = 0
    a_times: list[float] = []
    while (decision := duel.pending) is not None and decisions < MAX_DECISIONS:
        p = decision.player
        if decision.kind == Kind.FIRST:
            goes_first = task.a_first == (p == a_seat)
            duel.apply("first" if goes_first else "second")
        else:
            agent = agents[0] if p == a_seat else agents[1]
            t0 = time.perf_counter()
            answer = agent.choose(None if isinstance(agent, RandomAgent) else observe(duel, p, pool), decision)
            if p == a_seat and len(decision.options) > 1:
                a_times.append(time.perf_counter() - t0)
            duel.apply(answer)
        decisions += 1
    outcome = duel.outcome
    winner = "draw" if outcome is None or outcome.winner is None else "A" if outcome.winner == a_seat else "B"
    return duel, DuelResult(task.matchup, task.number, task.seed, task.a_deck, task.a_first, winner, duel.turn,
                            outcome.reason if outcome else "unfinished", decisions, time.perf_counter() - start, tuple(a_times))


# ---------------------------------------------------------------------- running many


ContextT = TypeVar("ContextT")
TaskT = TypeVar("TaskT")
TaskT_contra = TypeVar("TaskT_contra", contravariant=True)
ResultT = TypeVar("ResultT")
ResultT_co = TypeVar("ResultT_co", covariant=True)


class Job(Protocol[ContextT, TaskT_contra, ResultT_co]):
    """Work that runs as independent tasks on every core or on Ray (the arena, the deck lab's
    openings): `start` builds what a worker needs once (the card pool, the decks), `play` does one
    task with it. A job is pickled to the workers, so it holds paths and plain values."""

    def start(self) -> ContextT: ...

    def play(self, context: ContextT, task: TaskT_contra) -> ResultT_co: ...


@dataclass
class Arena:
    """What every worker needs to play any duel of the run."""

    card_dirs: list[Path]
    card_files: list[Path]
    deck_files: dict[str, Path]
    matchups: list[Matchup]

    def start(self) -> tuple[CardPool, dict[str, Deck]]:
        pool = CardPool.load(self.card_dirs, files=self.card_files)
        decks = {name: load_deck(path, pool)[0] for name, path in self.deck_files.items()}  # (checked before the run)
        return pool, decks

    def play(self, context: tuple[CardPool, dict[str, Deck]], task: Task) -> DuelResult:
        pool, decks = context
        return play(task, self.matchups[task.matchup], pool, decks)


_WORKER: dict[str, object] = {}


def _start_worker(job: Job[Any, Any, Any]) -> None:
    context = job.start()
    gc.freeze()  # the pool lives as long as the worker (as in cli.common.card_pool)
    _WORKER.update(job=job, context=context)


def _play_in_worker(task: Any) -> Any:
    return _WORKER["job"].play(_WORKER["context"], task)  # type: ignore[attr-defined]


def run(job: Job[Any, TaskT, ResultT], tasks: Sequence[TaskT], workers: int,
        progress: Callable[[ResultT], None] = lambda _: None) -> list[ResultT]:
    """Do `tasks` on `workers` processes (1: in this one); results in task order."""
    results: list[ResultT] = []
    if workers <= 1:
        _start_worker(job)
        for task in tasks:
            result = _play_in_worker(task)
            progress(result)
            results.append(result)
        return results
    with ProcessPoolExecutor(max_workers=workers, initializer=_start_worker, initargs=(job,)) as executor:
        for result in executor.map(_play_in_worker, tasks, chunksize=max(1, min(8, len(tasks) // (workers * 4) or 1))):
            progress(result)
            results.append(result)
    return results


# ---------------------------------------------------------------------- on a Ray cluster


class ClusterError(RuntimeError):
    """Ray is missing, or its cluster cannot be reached (the message says which and what to do)."""


_CHUNK = 8  # duels per Ray task: a worker loads the pool once per arena, then plays chunks


def _play_chunk(job: Job[Any, Any, Any], tasks: list[Any]) -> list[Any]:
    """A Ray task: do `tasks` in this worker process (its pool loaded once per job)."""
    if _WORKER.get("job") != job:
        _start_worker(job)
    return [_play_in_worker(task) for task in tasks]


def run_on_ray(job: Job[Any, TaskT, ResultT], tasks: Sequence[TaskT], address: str, cpus: int,
               progress: Callable[[ResultT], None] = lambda _: None) -> list[ResultT]:
    """Do `tasks` as Ray tasks: `address` "local" starts a Ray instance on this machine with
    `cpus` CPUs, "auto" joins the cluster this machine belongs to, anything else is a cluster's
    address (host:port). The same duels, the same results as `run`, in task order."""
    try:
        import ray
    except ImportError:
        raise ClusterError("Ray is not installed", "pip install 'ygoterm[cluster]'") from None
    if address not in ("local", "auto"):
        _reachable(address)
    try:
        if address == "local":
            ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise ClusterError(f"cannot join the Ray cluster at {address!r}: {str(e).splitlines()[0]}",
                           "start one with 'ray start --head', or use --ray local") from None
    try:
        remote = ray.remote(_play_chunk)
        shared = ray.put(job)
        chunks = [list(tasks[i:i + _CHUNK]) for i in range(0, len(tasks), _CHUNK)]
        results: list[ResultT] = []
        for ref in [remote.remote(shared, chunk) for chunk in chunks]:
            for result in ray.get(ref):
                progress(result)
                results.append(result)
        return results
    finally:
        ray.shutdown()


# what an HTTP/2 client sends first (RFC 9113 §3.4): the connection preface and an empty SETTINGS frame
_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
_SETTINGS = 4  # the frame type a server's own preface starts with


def _reachable(address: str, timeout: float = 4.0) -> None:
    """Fail at once, with a message, unless a Ray cluster answers at host:port: ray.init retries
    for minutes when nothing listens, and waits as long on a server that is not Ray's. Ray's
    GCS speaks gRPC, so it answers an HTTP/2 preface with a SETTINGS frame at once; anything
    else (silence, an HTTP/1 server's 400) is said within `timeout` seconds. With RAY_USE_TLS
    the handshake is TLS's, and only the connection is checked."""
    import socket

    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ClusterError(f"{address!r} is not a Ray address", "give host:port (e.g. 10.0.0.5:6379), auto or local")
    try:
        conn = socket.create_connection((host, int(port)), timeout=timeout)
    except OSError as e:
        raise ClusterError(f"cannot reach the Ray cluster at {address}: {e.strerror or e}",
                           "check the address and that 'ray start --head' runs there") from None
    with conn:
        if os.environ.get("RAY_USE_TLS", "0").casefold() in ("1", "true"):
            return
        try:
            conn.sendall(_HTTP2_PREFACE)
        except OSError:
            pass  # (closed at once: said below as an empty answer)
        answer = _read(conn, 9, timeout)
        if answer and (len(answer) < 9 or answer[3] != _SETTINGS):
            answer += _read(conn, 31, 0.5) or b""  # (the rest of its first line, for the message)
    _refuse_unless_ray(address, answer, timeout)


def _refuse_unless_ray(address: str, answer: bytes | None, timeout: float) -> None:
    """ClusterError unless `answer` to the HTTP/2 preface starts with a SETTINGS frame."""
    if answer is None:
        raise ClusterError(f"something listens at {address} but does not answer as a Ray cluster does (no reply in {timeout:g} s)",
                           "give the address of the head node's GCS ('ray start --head' prints it; port 6379 by default)")
    if len(answer) < 9 or answer[3] != _SETTINGS:
        first_line = (answer[:40].decode("latin-1").splitlines() or [""])[0]
        said = f"'{printable(first_line)}'" if answer else "nothing (it closed the connection)"
        raise ClusterError(f"{address} is not a Ray cluster: it answered {said}; Ray's GCS speaks gRPC",
                           "give the address of the head node's GCS ('ray start --head' prints it; port 6379 by default)")


def _read(conn: Any, count: int, timeout: float) -> bytes | None:
    """Up to `count` bytes from `conn` (fewer if it closes); None when nothing came within
    `timeout` seconds."""
    import socket

    deadline = time.monotonic() + timeout
    answer = b""
    try:
        while len(answer) < count:
            conn.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = conn.recv(count - len(answer))
            if not chunk:
                break
            answer += chunk
    except socket.timeout:
        return answer or None
    except OSError:
        pass  # (reset by the server: what it said is the answer)
    return answer


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


# ---------------------------------------------------------------------- figures


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)
    return max(0.0, low), min(1.0, high)


@dataclass
class Tally:
    duels: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    def add(self, result: DuelResult) -> None:
        self.duels += 1
        if result.winner == "A":
            self.wins += 1
        elif result.winner == "B":
            self.losses += 1
        else:
            self.draws += 1

    @property
    def rate(self) -> float:
        """Agent A's score: a win 1, a draw ½."""
        return (self.wins + self.draws / 2) / self.duels if self.duels else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins + self.draws // 2, self.duels)

    def text(self) -> str:
        """"61% [52%–70%]": the score and its 95% interval ("–" without duels)."""
        low, high = self.interval()
        return f"{self.rate:.0%} [{low:.0%}–{high:.0%}]" if self.duels else "–"

    @classmethod
    def merged(cls, tallies: Iterable[Tally]) -> Tally:
        """The tallies of several matchups as one."""
        total = cls()
        for t in tallies:
            total.duels, total.wins, total.losses, total.draws = (total.duels + t.duels, total.wins + t.wins,
                                                                  total.losses + t.losses, total.draws + t.draws)
        return total


@dataclass
class Summary:
    matchup: Matchup
    total: Tally = field(default_factory=Tally)
    going_first: Tally = field(default_factory=Tally)
    going_second: Tally = field(default_factory=Tally)
    turns: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    a_times: list[float] = field(default_factory=list)

    @property
    def mean_turns(self) -> float:
        return self.turns / self.total.duels if self.total.duels else 0.0

    def percentile(self, q: float) -> float:
        ordered = sorted(self.a_times)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def summarize(matchups: list[Matchup], results: Iterable[DuelResult]) -> list[Summary]:
    summaries = [Summary(m) for m in matchups]
    for r in results:
        s = summaries[r.matchup]
        s.total.add(r)
        (s.going_first if r.a_first else s.going_second).add(r)
        s.turns += r.turns
        s.endings[r.reason] += 1
        s.seconds += r.seconds
        s.a_times += r.a_times
    return summaries
