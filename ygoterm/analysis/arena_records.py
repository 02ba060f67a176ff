"""An arena's duels as a file (`ygoterm arena --out F`), and an arena resumed from one (`--resume`).

An arena of thousands of duels takes hours; the file is written as duels finish, so an
interrupted run keeps what it played and the same command with `--resume` plays only the rest.
A record holds what identifies its duel — the matchup and duel numbers, the derived seed, the
seating, the agents and decks — so a file is only resumed by the arena that wrote it: a record
whose seed or seating is not this arena's is refused, with where it is and what to change.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any, Iterator

from ..schema.problems import DataError, Problem, display_path
from .arena import DuelResult, Matchup, duel_task

# a record's fields and how each reads back from a CSV cell (JSON keeps the types)
FIELDS: dict[str, type] = {"matchup": int, "number": int, "seed": int, "a_deck": int, "a_first": bool, "winner": str,
                           "turns": int, "reason": str, "decisions": int, "seconds": float,
                           "agent_a": str, "agent_b": str, "deck_a": str, "deck_b": str}
# what the decks held (`Deck.digest`): checked when present (files of ygoterm before 2026-12-06 lack them)
DIGESTS = ("digest_a", "digest_b")
_KIND_WORDS = {int: "a whole number", float: "a number", bool: "true or false", str: "text"}


def rows(results: list[DuelResult], matchups: list[Matchup], digests: dict[str, str]) -> Iterator[dict[str, object]]:
    """One flat record per duel: enough to play it again alone (`--replay`) and to resume; `digests`: each deck's
    `Deck.digest` by name."""
    for r in results:
        m = matchups[r.matchup]
        row = asdict(r)
        row.pop("a_times")
        a_deck, b_deck = m.decks[r.a_deck], m.decks[1 - r.a_deck]
        row.update(agent_a=m.agents[0], agent_b=m.agents[1], deck_a=a_deck, deck_b=b_deck,
                   digest_a=digests[a_deck], digest_b=digests[b_deck])
        yield row


def render(path: Path, records: list[dict[str, object]]) -> str:
    """The file's text: JSON with one record per line (so a problem names its line), or CSV."""
    if path.suffix == ".json":
        return "[\n" + ",\n".join(json.dumps(r) for r in records) + "\n]\n" if records else "[]\n"
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=[*FIELDS, *DIGESTS], restval="")
    writer.writeheader()
    writer.writerows(records)
    return buffer.getvalue()


def read(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """The records of an --out file with their line numbers; DataError when it cannot be read."""
    where = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise DataError([Problem(where, 0, 0, "", f"cannot read the arena's results: {e}")]) from None
    if path.suffix == ".json":
        return _read_json(where, text)
    return _read_csv(where, text)


def _read_json(where: str, text: str) -> list[tuple[int, dict[str, Any]]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError([Problem(where, e.lineno, e.colno, "", f"not JSON: {e.msg}",
                                 "an arena's --out file; delete it to start the arena again")]) from None
    if not isinstance(data, list):
        raise DataError([Problem(where, 1, 1, "", "not an arena's results (a list of duels)")])
    lines = _record_lines(text, len(data))
    records = []
    for i, record in enumerate(data):
        if not isinstance(record, dict):
            raise DataError([Problem(where, lines[i], 0, f"[{i}]", "a duel's record is an object of its fields")])
        records.append((lines[i], _typed(where, lines[i], f"[{i}]", record, cast=False)))
    return records


def _record_lines(text: str, count: int) -> list[int]:
    """The line of each record of a list written by `render` (one per line); else the first line."""
    lines = [n for n, line in enumerate(text.splitlines(), 1) if line.lstrip().startswith("{")]
    return lines if len(lines) == count else [1] * count


def _read_csv(where: str, text: str) -> list[tuple[int, dict[str, Any]]]:
    reader = csv.DictReader(io.StringIO(text))
    records = []
    for record in reader:
        line = reader.line_num
        records.append((line, _typed(where, line, "", record, cast=True)))
    return records


def _typed(where: str, line: int, path: str, record: dict[str, Any], cast: bool) -> dict[str, Any]:
    """The record with each field of its type (a CSV's cells are text)."""
    missing = [name for name in FIELDS if name not in record or record[name] is None]
    if missing:
        raise DataError([Problem(where, line, 0, path, f"a duel's record lacks {', '.join(missing)}",
                                 "an arena's --out file; delete it to start the arena again")])
    typed = {}
    for name, kind in FIELDS.items():
        value = record[name]
        try:
            if cast:
                if kind is bool and value not in ("True", "False"):
                    raise ValueError
                value = value == "True" if kind is bool else kind(value)
            elif isinstance(value, bool) != (kind is bool) or not isinstance(value, (int, float) if kind is float else kind):
                raise ValueError
        except ValueError:
            raise DataError([Problem(where, line, 0, f"{path}.{name}".lstrip("."),
                                     f"{value!r} is not {_KIND_WORDS[kind]}")]) from None
        typed[name] = value
    for name in DIGESTS:
        if record.get(name):
            typed[name] = str(record[name])
    if typed["winner"] not in ("A", "B", "draw"):
        raise DataError([Problem(where, line, 0, f"{path}.winner".lstrip("."), f"{typed['winner']!r} is not A, B or draw")])
    return typed


def restore(path: Path, matchups: list[Matchup], seed: int, duels: int,
            digests: dict[str, str]) -> tuple[list[DuelResult], list[dict[str, Any]]]:
    """The duels of this arena that `path` already holds, and its records beyond `duels` (kept in
    the file, not counted). DataError for a record another arena wrote — other agents, decks,
    seed, or decks of the same names holding other cards (`digests`) — naming what differs."""
    where = display_path(path)
    done: dict[tuple[int, int], DuelResult] = {}
    beyond = []
    for line, r in read(path):
        m, n = r["matchup"], r["number"]
        if not 0 <= m < len(matchups) or n < 0:
            raise _foreign(where, line, f"matchup {m}, duel {n}: this arena has matchups 0–{len(matchups) - 1}")
        matchup = matchups[m]
        task = duel_task(m, matchup, n, seed)
        a_deck, b_deck = matchup.decks[task.a_deck], matchup.decks[1 - task.a_deck]
        said = (r["agent_a"], r["agent_b"], r["deck_a"], r["deck_b"], r["seed"], r["a_first"],
                r.get("digest_a", digests.get(a_deck)), r.get("digest_b", digests.get(b_deck)))
        expected = (*matchup.agents, a_deck, b_deck, task.seed, task.a_first, digests.get(a_deck), digests.get(b_deck))
        if said != expected:
            labels = ("agent A", "agent B", "deck A", "deck B", "seed", "A going first",
                      f"the cards of {a_deck}", f"the cards of {b_deck}")
            diff = "; ".join(f"{label} {s!r}, this arena's {e!r}" for label, s, e in zip(labels, said, expected) if s != e)
            raise _foreign(where, line, f"matchup {m}, duel {n} is another arena's: {diff}")
        if (m, n) in done:
            raise DataError([Problem(where, line, 0, "", f"matchup {m}, duel {n} is in the file twice",
                                     "delete the file to start the arena again")])
        if n >= duels:
            beyond.append(r)
            continue
        done[(m, n)] = DuelResult(m, n, task.seed, task.a_deck, task.a_first, r["winner"], r["turns"], r["reason"],
                                  r["decisions"], r["seconds"])
    return [done[key] for key in sorted(done)], beyond


def _foreign(where: str, line: int, message: str) -> DataError:
    return DataError([Problem(where, line, 0, "", message,
                              "resume with the decks, agents and --seed of the run that wrote it, or give another --out")])
