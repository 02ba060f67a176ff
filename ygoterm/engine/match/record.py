"""The match save format: registered decks, seed, rules, each duel's replay and every answer
between duels (side-deck exchanges, the go-first choice, where time was called).

```json
{"format": "ygoterm-match", "version": 1, "digest": "…", "seed": 7, "tournament": true,
 "rules": {…}, "names": ["Player 1", "Player 2"],
 "decks": [{"name": …, "main": [ids], "extra": [ids], "side": [ids]}, …],   (the registered lists)
 "time_called": {"duel": 1, "turn": 1} | {"between": 1} | null,
 "results": [{"winner": 1, "reason": "time", "turns": 4}, …],               (checked on replay)
 "winner": 1 | null,
 "between": [["0:swap:123:456", "0:done", "1:done", "1:second"], …],       (after duel 1, 2, …)
 "duels": [{a duel's replay record, engine/state/record.py}, …]}
```

Loading checks everything a duel save is checked for (each duel through `record_from_data`),
the registered decks and their digest; replaying (engine/match/replay.py) then checks that the
duels are the ones the match would have played. Every failure is a DataError naming the file.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ...schema.decks import Deck
from ...schema.jsonio import JsonLocator
from ...schema.problems import DataError, Problem
from ...schema.rules import Rules
from ...schema.yamlio import write_atomically
from ..state.record import ReplayRecord, _deck, pool_digest, read_save, record_from_data

if TYPE_CHECKING:
    from ...schema.cardpool import CardPool

FORMAT = "ygoterm-match"
VERSION = 1
# an answer between duels: "P:done", "P:reset", "P:first", "P:second", "P:swap:IDS:IDS", or "!time"
ENTRY = re.compile(r"[01]:(?:done|reset|first|second|swap:\d{1,12}(?:,\d{1,12}){0,59}:\d{1,12}(?:,\d{1,12}){0,59})|!time")


@dataclass
class MatchRecord:
    seed: int
    rules: Rules
    names: tuple[str, str]
    decks: list[dict[str, Any]]  # the registered lists (with the Side Deck)
    digest: str  # of every registered card, Side Deck included
    tournament: bool
    duels: list[ReplayRecord]
    between: list[list[str]]
    time_called: dict[str, int] | None = None
    results: list[dict[str, Any] | None] = field(default_factory=list)
    winner: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    source: str = ""  # the file it was read from, for messages

    @classmethod
    def for_match(cls, pool: "CardPool", decks: tuple[Deck, Deck], seed: int, rules: Rules, names: tuple[str, str],
                  tournament: bool, duels: list[ReplayRecord | None], between: list[list[str]],
                  time_called: dict[str, int] | None, results: list[dict[str, Any] | None], meta: dict[str, Any],
                  winner: int | None) -> "MatchRecord":
        data = [deck_data(d) for d in decks]
        return cls(seed, rules, names, data, registered_digest(decks), tournament, [d for d in duels if d is not None],
                   [list(b) for b in between], dict(time_called) if time_called else None, list(results), winner, dict(meta))

    def registered(self, pool: "CardPool") -> tuple[Deck, Deck]:
        return tuple(_deck(d, pool) for d in self.decks)  # type: ignore[return-value]

    def to_data(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "digest": self.digest, "seed": self.seed,
                "tournament": self.tournament, "rules": self.rules.model_dump(mode="json"), "names": list(self.names),
                "decks": self.decks, "time_called": self.time_called, "results": self.results, "winner": self.winner,
                "meta": self.meta, "between": self.between, "duels": [d.to_data() for d in self.duels]}

    def to_json(self) -> str:
        return json.dumps(self.to_data(), indent=1) + "\n"

    def save(self, path: Path) -> None:
        """Written atomically, like a duel save."""
        write_atomically(path, self.to_json())


def deck_data(deck: Deck) -> dict[str, Any]:
    return {"name": deck.name, "main": [c.id for c in deck.main], "extra": [c.id for c in deck.extra],
            "side": [c.id for c in deck.side]}


def registered_digest(decks: tuple[Deck, Deck]) -> str:
    return pool_digest([c for d in decks for c in d.all_cards])


# ---------------------------------------------------------------------- reading


class _Deck(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(max_length=200)]
    main: Annotated[list[int], Field(max_length=200)]
    extra: Annotated[list[int], Field(max_length=200)] = []
    side: Annotated[list[int], Field(max_length=200)] = []


class _Result(BaseModel):
    model_config = ConfigDict(extra="forbid")

    winner: int | None = Field(None, ge=0, le=1)
    reason: Annotated[str, Field(max_length=100)]
    turns: int = Field(ge=0)


class _TimeCalled(BaseModel):
    model_config = ConfigDict(extra="forbid")

    duel: int | None = Field(None, ge=1)
    turn: int | None = Field(None, ge=1)
    between: int | None = Field(None, ge=1)


class _MatchFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: str
    version: int = Field(ge=1)
    digest: str
    seed: int
    tournament: bool = False
    rules: Rules
    names: tuple[Annotated[str, Field(min_length=1, max_length=60)], Annotated[str, Field(min_length=1, max_length=60)]]
    decks: Annotated[list[_Deck], Field(min_length=2, max_length=2)]
    time_called: _TimeCalled | None = None
    results: Annotated[list[_Result | None], Field(max_length=1000)] = []
    winner: int | None = Field(None, ge=0, le=1)
    meta: dict[str, Any] = {}
    between: Annotated[list[Annotated[list[Annotated[str, Field(max_length=2000)]], Field(max_length=100_000)]], Field(max_length=1000)]
    duels: Annotated[list[Any], Field(min_length=1, max_length=1000)]


def _first_choice_line(lines: JsonLocator, duel: int) -> int:
    """The line of duel `duel`'s first recorded answer when they are one per line (as `to_json`
    writes them), for messages about an answer; 0 otherwise."""
    first, second = (lines.position(("duels", duel, "choices", i))[0] for i in (0, 1))
    return first if second == first + 1 else 0


def load_match_record(path: Path, pool: "CardPool") -> MatchRecord:
    """Read a match save; refuse a corrupt, truncated or mismatched one with `file:line` messages."""
    from ...schema.report import problems_from
    from ...schema.validate import check_deck
    from ...schema.yamlio import Locator

    data, text, name = read_save(path, FORMAT)
    locator = Locator(text)
    try:
        model = _MatchFile.model_validate(data)
    except ValidationError as e:
        raise DataError(problems_from(e, file=name, locator=locator)) from None
    if model.version > VERSION:
        raise DataError([Problem(name, 1, 1, "version", f"match save version {model.version} is newer than this ygoterm ({VERSION})", "update ygoterm")])
    decks = [d.model_dump() for d in model.decks]
    missing = sorted({str(i) for d in decks for k in ("main", "extra", "side") for i in d[k] if pool.get(i) is None})
    if missing:
        raise DataError([Problem(name, *locator.position(("decks",)), "decks", f"the match uses card{'s' if len(missing) > 1 else ''} "
                                 f"not in the card pool: {', '.join(missing[:5])}", "load the card folders the match was played with (--cards)")])
    registered = tuple(_deck(d, pool) for d in decks)
    if registered_digest(registered) != model.digest:  # type: ignore[arg-type]
        raise DataError([Problem(name, *locator.position(("digest",)), "digest", "the card definitions changed since this match was saved, "
                                 "so it cannot be replayed faithfully", "use the card files the match was played with")])
    for index, deck in enumerate(registered):
        problems = [p for p in check_deck(deck, model.rules.deck)]
        if problems:
            raise DataError([Problem(name, *locator.position(("decks", index)), f"decks[{index}]",
                                     f"registered deck '{deck.name}' could not start a match: {problems[0].message}"
                                     + (f" [{problems[0].rule}]" if problems[0].rule else ""), "the save is damaged or was edited")])
    for i, entries in enumerate(model.between):
        for j, entry in enumerate(entries):
            if not ENTRY.fullmatch(entry):
                raise DataError([Problem(name, locator.position(("between", i, j))[0], 0, f"between[{i}][{j}]",
                                         f"{entry[:60]!r} is not an answer between duels", "the save is damaged: answers look like '0:done' or '1:swap:123:456'")])
    if not len(model.duels) - 1 <= len(model.between) <= len(model.duels):
        raise DataError([Problem(name, *locator.position(("between",)), "between", f"{len(model.between)} breaks for {len(model.duels)} duels",
                                 "the save is damaged: there is one list of answers after each duel but the last")])
    lines = JsonLocator(text)
    duels = [record_from_data(d, pool, name, locator, prefix=("duels", i), first_line=_first_choice_line(lines, i))
             for i, d in enumerate(model.duels)]
    called = model.time_called.model_dump(exclude_none=True) if model.time_called else None
    results = [r.model_dump() if r is not None else None for r in model.results]
    return MatchRecord(model.seed, model.rules, model.names, decks, model.digest, model.tournament, duels,
                       [list(b) for b in model.between], called, results, model.winner, dict(model.meta), source=name)
