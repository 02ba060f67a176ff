"""Replays: how a duel is rebuilt from its save (the save format itself is engine/state/record.py).

A duel is its card pool, decks (or starting position), rules, seed and the list of answers,
so the save file *is* the replay (DESIGN.md §2): rebuilding it applies the recorded answers
to a new duel, the forced ones included, and stops exactly where the duel was.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.decision import PASS, PromptMode
from ...schema.problems import DataError, Problem, display_path
from ..state.record import ReplayRecord, _deck, load_record, pool_digest

if TYPE_CHECKING:
    from ...schema.cardpool import CardPool
    from .protocol import Duel

__all__ = ["ReplayRecord", "load_duel", "load_record", "pool_digest", "replay", "start"]


def start(record: ReplayRecord, pool: "CardPool") -> "Duel":
    """The duel at its first decision, as recorded (no answers applied)."""
    from .protocol import Duel
    from .position import build_position

    if record.position is not None:
        duel = build_position(pool, record.position, record.seed, record.rules, record.names)
        duel.solo = duel.record.solo = record.solo  # type: ignore[union-attr]
        return duel
    from ..state.timelimit import TimeLimit

    decks = tuple(_deck(d, pool) for d in record.decks)
    limit = TimeLimit.from_entry(record.time_limit) if record.time_limit else None
    return Duel.new(pool, decks, record.seed, record.rules, record.names, solo=record.solo, first=record.first,  # type: ignore[arg-type]
                    time_limit=limit)


def replay(record: ReplayRecord, pool: "CardPool", upto: int | None = None, prompt_modes: tuple[PromptMode, PromptMode] | None = None) -> "Duel":
    """Rebuild a duel by applying the recorded answers (the first `upto` of them, if given).
    With the `prompt_modes` the duel was played in, the rebuilt record is the same entry for
    entry (the forced passes of "always" windows included), not only the same duel."""
    duel = start(record, pool)
    for player, mode in enumerate(prompt_modes or ()):
        duel.set_prompt_mode(player, mode)
    if duel.record is not None:
        duel.record.meta = dict(record.meta)
    entries = record.choices if upto is None else record.choices[:upto]
    feed(duel, record, entries)
    return duel


def feed(duel: Any, record: ReplayRecord, entries: list[str], offset: int = 0) -> None:
    """Apply recorded entries to `duel` — a Duel, or anything with its `pending`, `apply`,
    `concede`, `manual` and `set_time_limit` (a match's current duel, engine/match/replay.py).
    `offset`: the index of `entries[0]` in the record, for messages."""
    from ..core.decision import IllegalChoice
    from .protocol import forced
    from ..state.timelimit import TimeLimit

    for index, entry in enumerate(entries, offset):
        if entry.startswith("!concede:"):
            duel.concede(int(entry.split(":")[1]))  # (load_record let only "!concede:0" and "!concede:1" through)
            break
        if entry.startswith("!manual:") or entry.startswith("!time:"):
            try:
                if entry.startswith("!time:"):
                    duel.set_time_limit(TimeLimit.from_entry(entry))
                else:
                    from ..rules.manual import Manual

                    _, who, body = entry.split(":", 2)
                    duel.manual(int(who), Manual.from_json(body))
            except (IllegalChoice, ValueError, TypeError) as e:
                what = "time call" if entry.startswith("!time:") else "manual action"
                raise DataError([Problem(*record.where(index), 0, f"choices[{index}]", f"recorded {what} is not possible here: {e}",
                                         "the save is damaged or from another version of the rules engine")]) from None
            continue
        is_forced = entry.startswith("=")
        key = entry.lstrip("=")
        while duel.pending is not None and forced(duel.pending) and not is_forced:
            duel.apply(duel.pending.options[0] if not duel.pending.multi else duel.pending.options)
        if duel.pending is None:
            raise DataError([Problem(*record.where(index), 0, f"choices[{index}]", "the duel ended before this recorded answer",
                                     "the save does not match this version of the rules engine")])
        if is_forced:
            keys = key.split(",")
            while keys != [PASS.key] and _only_pass(duel.pending):
                duel.apply(PASS.key)  # a window only this run's prompt mode asks ('always')
            if duel.pending is not None and forced(duel.pending) and sorted(o.key for o in duel.pending.options) == sorted(keys):
                duel.apply(keys if duel.pending.multi else key)  # the recorded order matters (GY order)
            elif key != PASS.key:
                # only the "pass" of a window that asked in the recorded run's prompt mode may be
                # missing here; any other forced answer that does not fit was written by hand
                asked = "; ".join(o.key for o in duel.pending.options[:12]) if duel.pending is not None else "none: the duel is over"
                raise DataError([Problem(*record.where(index), 0, f"choices[{index}]",
                                         f"recorded answer {entry[:60]!r} is not the only answer here (the options are: {asked})",
                                         "the save is damaged or was edited: an answer with '=' is one the duel gave itself")])
            continue
        try:
            duel.apply(([k for k in key.split(",") if k]) if duel.pending.multi else key)
        except IllegalChoice as e:
            raise DataError([Problem(*record.where(index), 0, f"choices[{index}]", f"recorded answer {key!r} is not legal here: {e}",
                                     "the save is damaged or from another version of the rules engine")]) from None


def _only_pass(decision: Any) -> bool:
    """A response window whose only answer is to pass (asked in prompt mode 'always')."""
    return decision is not None and not decision.multi and [o.key for o in decision.options] == [PASS.key]


def load_duel(path: Path, pool: "CardPool") -> "Duel":
    """A saved duel rebuilt up to where it was saved; every way a save can fail to replay —
    damaged, edited, or hitting an engine bug — is a DataError naming the file."""
    from ..core.errors import EffectError

    record = load_record(path, pool)
    try:
        return replay(record, pool)
    except EffectError as e:
        raise DataError([Problem(display_path(path), 0, 0, "", f"replaying this save hit an engine bug: {e}",
                                 "please report it with the save file attached")]) from None
