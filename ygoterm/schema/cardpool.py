"""The card pool: every card file under the card folders, validated, indexed, cached.

Loading collects every problem of every file before reporting. A file whose bytes were seen
before is read from a cache of its validated cards (keyed by the SHA-256 of the file and the
schema version), which is what makes a 12,000-card pool load in a fraction of a second warm.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from pydantic import TypeAdapter, ValidationError

from .cards import CARD_KINDS, Card, CardBase, card_list_adapter
from .problems import DataError, Problem, capped, did_you_mean, display_path, is_digits, nearest
from .report import model_keys, nested_model, problems_from
from .yamlio import Locator, decode, parse

SCHEMA_VERSION = "cards-4"
# a card file parses at about 2 s per megabyte (the YAML library builds every value in Python): 8 MB
# holds some 15,000 cards, and anything bigger is refused at once instead of taking minutes
MAX_CARD_FILE_BYTES = 8 * 1024 * 1024
MAX_PROBLEMS_PER_FILE = 50
# A file of this name holds other passcodes of cards (alternate artworks), not cards:
#   alternates:
#     46986414: [46986415, 46986416]   # Dark Magician
ALTERNATES_FILE = "alternates.yaml"
_alternates_adapter: TypeAdapter[dict[int, list[int]]] = TypeAdapter(dict[int, list[int]])


@dataclass(slots=True)
class _Source:
    """One card file as read: its display name, raw bytes and (lazily) a position locator."""

    name: str
    raw: bytes
    _locator: Locator | None = None

    @property
    def locator(self) -> Locator:
        if self._locator is None:
            self._locator = Locator(decode(self.raw, self.name))
        return self._locator

    def where(self, index: int, key: str | None = None) -> tuple[int, int]:
        return self.locator.position((index, key) if key else (index,))


@dataclass
class CardPool:
    """All known cards, by passcode and by name."""

    by_id: dict[int, Card] = field(default_factory=dict)
    by_name: dict[str, Card] = field(default_factory=dict)
    origin: dict[int, tuple[str, int]] = field(default_factory=dict)  # id → (file, index in file)
    files: list[str] = field(default_factory=list)
    digest: str = ""
    _folded: dict[str, Card] = field(default_factory=dict, repr=False)
    _aka: dict[str, Card] = field(default_factory=dict, repr=False)  # other names (Card.aka), folded
    # other passcodes of a card (alternate artworks) → the card's own passcode (alternates.yaml)
    alternates: dict[int, int] = field(default_factory=dict)
    _names: frozenset[str] = field(default_factory=frozenset, repr=False)

    def __len__(self) -> int:
        return len(self.by_id)

    def names(self) -> frozenset[str]:
        """Every card name of the pool: what a player may declare ("declare 1 card name"),
        whichever cards the duel holds (naming only those would show the opponent's Deck)."""
        if len(self._names) != len(self.by_name):
            self._names = frozenset(self.by_name)
        return self._names

    def __iter__(self) -> Iterator[Card]:
        return iter(self.by_id.values())

    def get(self, ref: str | int) -> Card | None:
        """A card by passcode (int or digits) or by name, ignoring case and extra spaces."""
        if isinstance(ref, int) and not isinstance(ref, bool):
            return self.by_id.get(ref) or self._alternate(ref)
        text = " ".join(str(ref).split())
        if is_digits(text):  # a passcode — or the name of a card such as "7" that is only digits
            return self.by_id.get(int(text)) or self._alternate(int(text)) or self.named(text)
        return self.named(text) or self._aka.get(text.casefold())

    def _alternate(self, code: int) -> Card | None:
        own = self.alternates.get(code)
        return self.by_id.get(own) if own is not None else None

    def named(self, name: str) -> Card | None:
        """The card whose own name this is (ignoring case), not counting other names (aka)."""
        return self.by_name.get(name) or self._folded.get(name.casefold())

    def suggest(self, ref: str | int, n: int = 3) -> str:
        """A "did you mean" hint for an unknown card reference (R-DECK-8)."""
        if isinstance(ref, int) or is_digits(str(ref).strip()):
            return "no card has this passcode; check the number or name the card instead"
        return did_you_mean(str(ref), self.by_name, n=n) or "check the spelling; `ygoterm cards search` lists known cards"

    def nearest_names(self, ref: str, n: int = 3) -> list[str]:
        return nearest(ref, self.by_name, n=n)

    def without(self, files_under: Path) -> "CardPool":
        """This pool less the cards loaded from files under a folder (an import's earlier
        cards, which it is about to replace)."""
        folder = files_under.resolve()
        rest = CardPool(files=[f for f in self.files if not Path(f).resolve().is_relative_to(folder)], digest=self.digest)
        for card in self:
            origin = self.origin[card.id]
            if not Path(origin[0]).resolve().is_relative_to(folder):
                rest.add(card, origin)
        rest.alternates = {other: own for other, own in self.alternates.items() if own in rest.by_id}
        return rest

    def add(self, card: Card, origin: tuple[str, int]) -> None:
        self.by_id[card.id] = card
        self.by_name[card.name] = card
        self._folded[card.name.casefold()] = card
        for other in card.aka:  # a card's own name always wins over another card's other name (get)
            self._aka.setdefault(other.casefold(), card)
        self.origin[card.id] = origin

    @classmethod
    def load(cls, dirs: Iterable[Path], *, files: Iterable[Path] = (), use_cache: bool = True,
             exclude: Iterable[Path] = ()) -> "CardPool":
        """Load every `*.yaml`/`*.yml` under `dirs` (and the given `files`); raise DataError on any problem.
        Hidden files and folders (a name starting with '.': editors' and imports' temporary files)
        and anything under `exclude` are left out."""
        paths: list[Path] = []
        skip = [Path(e).resolve() for e in exclude]
        for d in dirs:
            d = Path(d)
            paths.extend(sorted(p for p in d.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file()
                                and not any(part.startswith(".") for part in p.relative_to(d).parts)
                                and not (skip and any(p.resolve().is_relative_to(e) for e in skip))))
        paths.extend(Path(f) for f in files)
        return _Loader(use_cache).run(paths)


class _Loader:
    def __init__(self, use_cache: bool) -> None:
        self.use_cache = use_cache
        self.problems: list[Problem] = []
        self.sources: dict[str, _Source] = {}

    def run(self, paths: list[Path]) -> CardPool:
        pool = CardPool()
        alternates: list[tuple[str, dict[int, list[int]]]] = []
        hasher = hashlib.sha256(SCHEMA_VERSION.encode())
        for path in paths:
            name = display_path(path)
            try:
                size = path.stat().st_size
                if size > MAX_CARD_FILE_BYTES:  # (checked before reading: the file may be huge)
                    self.problems.append(Problem(name, 1, 1, "", f"file is {size:,} bytes; a card file may hold at most {MAX_CARD_FILE_BYTES:,}",
                                                 "split it into several files"))
                    continue
                raw = path.read_bytes()
            except OSError as e:
                self.problems.append(Problem(name, 0, 0, "", f"cannot read card file: {e.strerror or e}"))
                continue
            if not path.is_file() or not raw:
                self.problems.append(Problem(name, 1, 1, "", "not a card file: it is empty or not a regular file",
                                             "--cards takes a folder of card files or one .yaml file"))
                continue
            source = _Source(name, raw)
            self.sources[name] = source
            digest = hashlib.sha256(raw).hexdigest()
            hasher.update(digest.encode())
            before = len(self.problems)
            if path.name == ALTERNATES_FILE:
                alternates.append((name, self._alternates_of(source, digest)))
                pool.files.append(name)
                continue
            cards = self._cards_of(source, digest)
            pool.files.append(name)
            for index, card in enumerate(cards):
                if len(self.problems) - before > MAX_PROBLEMS_PER_FILE:
                    break  # (the rest of this file would only add more of the same)
                self._add(pool, card, (name, index))
            self.problems[before:] = capped(self.problems[before:], name)
        for _, table in alternates:  # a card's own passcode always wins over another's alternate
            for own, others in table.items():
                for other in others:
                    if other not in pool.by_id and own in pool.by_id:
                        pool.alternates.setdefault(other, own)
        self._check_treated_as(pool)
        if self.problems:
            raise DataError(self.problems)
        pool.digest = hasher.hexdigest()[:16]
        return pool

    # -- one file -------------------------------------------------------------------------

    def _cards_of(self, source: _Source, digest: str) -> list[Card]:
        cached = self._cache_read(digest)
        if cached is not None:
            return cached
        try:
            text = decode(source.raw, source.name)
            data = _json_lines(text)
            if data is None:
                data = parse(text, source.name)
        except DataError as e:
            self.problems.extend(e.problems)
            return []
        source._locator = Locator(text)
        if data is None:
            self.problems.append(Problem(source.name, 1, 1, "", "the file is empty", "a card file is a list of cards, each starting with '- id: …'"))
            return []
        if not isinstance(data, list):
            self.problems.append(Problem(source.name, 1, 1, "", "a card file must be a list of cards", "start each card with '- id: …' at the left margin"))
            return []
        try:
            cards = card_list_adapter.validate_python(data)
        except ValidationError as e:
            self.problems.extend(problems_from(e, file=source.name, locator=source.locator,
                                               valid_keys=lambda loc: _card_keys(data, loc), tags=CARD_KINDS))
            return []
        self._cache_write(digest, cards)
        return cards

    def _alternates_of(self, source: _Source, digest: str) -> dict[int, list[int]]:
        if self.use_cache:
            try:
                return _alternates_adapter.validate_json(self._cache_path(digest).read_bytes())
            except (OSError, ValidationError, ValueError):
                pass
        try:
            text = decode(source.raw, source.name)
            data = parse(text, source.name)
        except DataError as e:
            self.problems.extend(e.problems)
            return {}
        source._locator = Locator(text)
        hint = "write 'alternates:' and then lines 'PASSCODE: [OTHER, OTHER]' (the card's own passcode, then its other passcodes)"
        if not isinstance(data, dict) or set(data) != {"alternates"}:
            self.problems.append(Problem(source.name, 1, 1, "", f"{ALTERNATES_FILE} holds one mapping, 'alternates'", hint))
            return {}
        table = {k: ([v] if isinstance(v, int) and not isinstance(v, bool) else v) for k, v in (data["alternates"] or {}).items()} \
            if isinstance(data["alternates"], dict) else data["alternates"]
        try:
            result = _alternates_adapter.validate_python(table, strict=True)
        except ValidationError as e:
            self.problems.extend(problems_from(e, file=source.name, locator=source.locator, prefix=("alternates",)))
            return {}
        if self.use_cache:
            self._write_cache(digest, _alternates_adapter.dump_json(result))
        return result

    def _add(self, pool: CardPool, card: Card, origin: tuple[str, int]) -> None:
        for clash, what, key in ((pool.by_id.get(card.id), f"id {card.id}", "id"),
                                 (pool.named(card.name), f"name '{card.name}'", "name")):
            if clash is None:
                continue
            other_file, other_index = pool.origin[clash.id]
            line, col = self.sources[origin[0]].where(origin[1], key)
            other_line, _ = self.sources[other_file].where(other_index, key)
            self.problems.append(Problem(origin[0], line, col, f"[{origin[1]}].{key}",
                                         f"duplicate {what}: already used by '{clash.name}' at {other_file}:{other_line}",
                                         f"each card needs its own {key}"))
            return
        pool.add(card, origin)

    def _check_treated_as(self, pool: CardPool) -> None:
        for card in pool:
            if card.treated_as and pool.get(card.treated_as) is None:
                file, index = pool.origin[card.id]
                line, col = self.sources[file].where(index, "treated_as")
                self.problems.append(Problem(file, line, col, f"[{index}].treated_as",
                                             f"'{card.treated_as}' is not a known card (R-DECK-6)", pool.suggest(card.treated_as)))

    # -- cache ----------------------------------------------------------------------------

    def _cache_path(self, digest: str) -> Path:
        from ..paths import cache_home

        return cache_home() / SCHEMA_VERSION / f"{digest}.json"

    def _cache_read(self, digest: str) -> list[Card] | None:
        if not self.use_cache:
            return None
        try:
            return card_list_adapter.validate_json(self._cache_path(digest).read_bytes())
        except (OSError, ValidationError, ValueError):
            return None  # absent or stale: parse the YAML again

    def _cache_write(self, digest: str, cards: list[Card]) -> None:
        if self.use_cache:
            self._write_cache(digest, card_list_adapter.dump_json(cards, by_alias=True))

    def _write_cache(self, digest: str, data: bytes) -> None:
        path = self._cache_path(digest)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only cache only costs speed


def _json_lines(text: str) -> list[Any] | None:
    """A card file written one card per line as a flow mapping in JSON's syntax (`- {"id": 1, …}`,
    as `ygoterm cards import` writes them) read with the JSON parser, some 30 times faster than
    the YAML one; None for any other file (or any doubt), which the YAML parser then reads."""
    if not text.startswith(("- {", "#")):
        return None
    out: list[Any] = []
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            continue
        if not (line.startswith("- {") and line.endswith("}")):
            return None
        try:
            out.append(json.loads(line[2:], object_pairs_hook=_unique_keys, parse_constant=_no_constant))
        except (ValueError, RecursionError):
            return None
    return out


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        raise ValueError("duplicate key")  # (the YAML parser then says where)
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(name)  # NaN, Infinity: not YAML


def _card_keys(data: list[Any], loc: tuple[Any, ...]) -> list[str]:
    """Valid keys at `loc` inside a card list, for "did you mean" hints on unknown keys."""
    if not loc or not isinstance(loc[0], int) or loc[0] >= len(data) or not isinstance(data[loc[0]], dict):
        return []
    model = CARD_KINDS.get(str(data[loc[0]].get("kind")), CardBase)
    nested = nested_model(model, loc[1:])
    return model_keys(nested) if nested else []
