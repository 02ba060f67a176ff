"""The TUI's garbage-collection policy: full collections between keypresses (tui/idle_gc.py)."""

from __future__ import annotations

import gc

from ygoterm.tui import idle_gc
from ygoterm.tui.idle_gc import IdleCollector


class FakeApp:
    def __init__(self) -> None:
        self.timers: list = []

    def set_interval(self, seconds, callback):
        self.timers.append((seconds, callback))


def test_full_collections_wait_for_a_quiet_moment_and_the_thresholds_come_back(monkeypatch):
    before = gc.get_threshold()
    collector, app = IdleCollector(), FakeApp()
    collector.install(app)
    try:
        assert gc.get_threshold() == (before[0], before[1], idle_gc.TYPING_CEILING)
        assert app.timers == [(idle_gc.EVERY_S, collector.collect_if_quiet)]
        collected: list = []
        monkeypatch.setattr(idle_gc.gc, "collect", lambda: collected.append(1))
        now = [100.0]
        monkeypatch.setattr(idle_gc.time, "monotonic", lambda: now[0])
        collector.key()
        now[0] += idle_gc.QUIET_S / 2
        collector.collect_if_quiet()
        assert collected == []  # a key a moment ago: not now
        now[0] += idle_gc.QUIET_S
        counts = [(0, 0, 0)]
        monkeypatch.setattr(idle_gc.gc, "get_count", lambda: counts[0])
        collector.collect_if_quiet()
        assert collected == []  # quiet, but nothing has reached the oldest generation since the last one
        counts[0] = (0, 0, 1)
        collector.collect_if_quiet()
        assert collected == [1]
    finally:
        collector.uninstall()
    assert gc.get_threshold() == before
    collector.collect_if_quiet()  # uninstalled: does nothing
