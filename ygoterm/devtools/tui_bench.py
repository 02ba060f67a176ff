"""TUI figures (`ygoterm bench --tui`): cold start to the menu, keypress → repaint latency on
the duel screen at 120×40, memory after a 20-turn duel. Measured, never asserted.

A key is sent the way the terminal driver sends it and timed to the first repaint; the next
key waits until the app is idle again (as a person's next key does). The pool is frozen out
of the cyclic GC's sight as `ygoterm` itself does (`cli.common.card_pool`), so a full
collection costs here what it costs a player."""

from __future__ import annotations

import asyncio
import gc
import os
import random
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

from textual import events

from .. import paths
from ..agents.random_agent import RandomAgent
from ..schema.cardpool import CardPool
from ..schema.decks import find_deck, load_deck

KEYS = ["left", "right", "up", "down", "n", "enter", "escape", "c"]  # c: ask a question left open with Escape again
SETTLED_S = 0.06  # no repaint for this long (and no AI thinking): the app is idle, the next key may go


@dataclass
class TuiFigures:
    cold_start_s: float
    first_picker_s: float  # Enter on the menu at once: the deck picker (it waits for the pool)
    latencies_ms: dict[str, list[float]]
    hot_seat_ms: dict[str, list[float]]  # the hot-seat turns of tui/presses.py, by what was on screen
    turns: int
    rss_mb: float


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def cold_start() -> tuple[float, float]:
    """Seconds from starting `ygoterm` in a 120×40 pseudo-terminal to the menu on screen, and
    to the first deck picker when Enter is pressed on "Hot-seat duel" at once (which waits
    for the pool the menu did not need; tui/pool_loader.py). A scratch user folder keeps the
    menu's first entry the same whatever the user saved."""
    import pty
    import select
    import struct
    import tempfile
    import termios
    import fcntl

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "YGOTERM_HOME": home, "TERM": os.environ.get("TERM", "xterm-256color")}
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "ygoterm"], stdin=slave, stdout=slave, stderr=slave, env=env,
                                start_new_session=True)
        os.close(slave)
        seen = b""
        marks: list[float] = []
        try:
            for wanted in (b"Hot-seat duel", b"choose a deck"):
                while wanted not in _plain(seen):
                    ready, _, _ = select.select([master], [], [], 30)
                    if not ready or proc.poll() is not None:
                        raise RuntimeError(f"ygoterm did not show {wanted.decode()!r}")
                    seen += os.read(master, 65536)
                marks.append(time.perf_counter() - start)
                seen = b""
                os.write(master, b"\r")
        finally:
            proc.kill()
            proc.wait(timeout=30)
            os.close(master)
    return marks[0], marks[1]


def _plain(output: bytes) -> bytes:
    """Terminal output without its escape sequences (the text a person reads)."""
    import re

    return re.sub(rb"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])", b"", output)


async def _latency_and_memory(pool: CardPool, keys: int, seed: int) -> tuple[dict[str, list[float]], int]:
    from ..tui.app import YgoApp
    from ..tui.screens.duel import DuelScreen
    from ..tui.widgets.questions import open_question

    deck = load_deck(find_deck("kaiba-dragons", paths.deck_dirs()), pool)[0]  # type: ignore[arg-type]
    other = load_deck(find_deck("joey-warriors", paths.deck_dirs()), pool)[0]  # type: ignore[arg-type]
    app = YgoApp(pool, paths.deck_dirs(), start=lambda app: app.solo_screen((deck, other), "goldfish", seed))
    latencies: dict[str, list[float]] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        rng = random.Random(seed)
        for i in range(keys):
            # on the board: a mix of moves, phase changes and card menus; in a prompt: answer it
            key = rng.choice(KEYS) if isinstance(open_question(app), DuelScreen) else ("space", "enter", "escape", "down")[i % 4]
            latency = await timed_key(app, pilot, key)
            if latency is not None:
                latencies.setdefault("move" if key in ("left", "right", "up", "down") else key, []).append(latency)
        # play on to turn 20 (or the end of the duel) for the memory figure
        screen = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
        session = screen.session
        agent = RandomAgent(seed)
        while session.duel.pending is not None and session.duel.turn < 20:
            session.answer(agent.choose(None, session.duel.pending))
        screen.advance()
        await pilot.pause()
        return latencies, session.duel.turn


async def timed_key(app: Any, pilot: Any, key: str) -> float | None:
    """Send `key` as the terminal driver does and return the ms to the first repaint (None: the
    key repainted nothing), then wait until the app is idle again."""
    frames = _frames(app)
    event = events.Key(key, None)
    event.set_sender(app)
    frames.clear()
    sent = time.perf_counter()
    app._driver.send_message(event)
    # (not pilot.pause() here: it first queues a callback on every widget of the screen,
    # which the key then waits behind — a cost of the harness, not of the app)
    while not frames and time.perf_counter() - sent < 0.3:  # a key that changes nothing never repaints
        await asyncio.sleep(0.001)
    latency = (frames[0] - sent) * 1000 if frames else None
    await _settle(app, pilot, frames)
    return latency


def _frames(app: Any) -> list[float]:
    """The times of the app's repaints, recorded from the first call on (every repaint goes
    through `App._display`)."""
    frames: list[float] | None = getattr(app, "_bench_frames", None)
    if frames is None:
        frames = app._bench_frames = []
        original = app._display

        def display(screen: Any, renderable: Any) -> Any:
            frames.append(time.perf_counter())
            return original(screen, renderable)

        app._display = display
    return frames


async def _settle(app: Any, pilot: Any, frames: list[float]) -> None:
    """Wait until nothing has been repainted for SETTLED_S and no AI is thinking (at most 2 s)."""
    start = time.perf_counter()
    await pilot.pause()
    while time.perf_counter() - start < 2:
        last = frames[-1] if frames else start
        busy = getattr(app.screen, "thinking", False)
        if not busy and time.perf_counter() - last >= SETTLED_S:
            return
        await asyncio.sleep(0.005)


def measure(keys: int = 300, seed: int = 7) -> TuiFigures:
    cold, picker = cold_start()
    from .presses import time_all

    pool = CardPool.load(paths.card_dirs())
    gc.freeze()  # (as `ygoterm` does once the pool is loaded)
    latencies, turns = asyncio.run(_latency_and_memory(pool, keys, seed))
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    hot_seat = asyncio.run(time_all(pool))
    return TuiFigures(cold, picker, latencies, hot_seat, turns, rss)


def report(figures: TuiFigures) -> list[str]:
    lines = [f"cold start to the menu: {figures.cold_start_s:.2f} s (`ygoterm` in a 120×40 pseudo-terminal); "
             f"Enter on it at once: the deck picker at {figures.first_picker_s:.2f} s"]
    everything = [v for values in figures.latencies_ms.values() for v in values]
    lines.append(f"keypress → repaint at 120×40: p50 {_percentile(everything, 0.5):.1f} ms · p95 {_percentile(everything, 0.95):.1f} ms "
                 f"({len(everything)} keys)")
    for kind, values in sorted(figures.latencies_ms.items()):
        lines.append(f"  {kind:6s} p50 {_percentile(values, 0.5):6.1f} ms · p95 {_percentile(values, 0.95):6.1f} ms ({len(values)})")
    hot = figures.hot_seat_ms
    everything = [v for values in hot.values() for v in values]
    lines.append(f"hot-seat, the turns of `python -m ygoterm.devtools.presses` at 120×40: p50 {_percentile(everything, 0.5):.1f} ms · "
                 f"p95 {_percentile(everything, 0.95):.1f} ms ({len(everything)} keys), by what the key answered")
    for kind, values in sorted(hot.items()):
        lines.append(f"  {kind:14s} p50 {_percentile(values, 0.5):6.1f} ms · p95 {_percentile(values, 0.95):6.1f} ms ({len(values)})")
    lines.append(f"memory (max RSS) after a duel played to turn {figures.turns}: {figures.rss_mb:.0f} MB")
    return lines
