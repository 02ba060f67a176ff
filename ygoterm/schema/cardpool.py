"""The card pool: every card file under the card folders, validated, indexed, cached.

Loading collects every problem of every file before reporting. A file whose bytes were seen
before is read from a cache of its validated cards (keyed by the SHA-256 of the file and the
schema version): an index of passcodes and names, and each card's JSON, validated again only
when the card is first used. A 12,000-card pool loads in a fraction of a second warm, and a
200,000-card one in about a second, whatever the command.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Mapping
from typing import Any, Callable, Iterable, Iterator

from pydantic import TypeAdapter, ValidationError

from .cards import CARD_KINDS, Card, CardBase, card_adapter, card_list_adapter
from .problems import DataError, Problem, capped, did_you_mean, display_path, is_digits, nearest
from .report import model_keys, nested_model, problems_from
from .yamlio import Locator, decode, parse

SCHEMA_VERSION = "cards-5"
# a card file parses at about 2 s per megabyte (the YAML library builds every value in Python): 8 MB
# holds some 15,000 cards, and anything bigger is refused at once instead of taking minutes
MAX_CARD_FILE_BYTES = 8 * 1024 * 1024
MAX_PROBLEMS_PER_FILE = 50
# A file of this name holds other passcodes of cards (alternate artworks), not cards:
#   alternates:
#     46986414: [46986415, 46986416]   # Dark Magician
ALTERNATES_FILE = "alternates.yaml"
_alternates_adapter: TypeAdapter[dict[int, list[int]]] = TypeAdapter(dict[int, list[int]])
# One card as the loader indexes it: passcode, own name, other names, treated_as, and the card
# itself or (read from the cache) its JSON, validated when first used (Cards).
_Entry = tuple[int, str, "tuple[str, ...] | list[str]", "str | None", "Card | bytes"]
_index_adapter: TypeAdapter[list[tuple[int, str, list[str], str | None]]] = TypeAdapter(list[tuple[int, str, list[str], str | None]])


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


class Cards(Mapping[int, Card]):
    """Cards by passcode. A card read from the cache stays its JSON until first used: a pool of
    200,000 imported cards then loads in about a second, and a command pays only for the cards
    it touches (`cards show`, one deck) instead of validating every card again."""

    __slots__ = ("_cards", "reread")

    def __init__(self, cards: dict[int, Card | bytes] | None = None) -> None:
        self._cards: dict[int, Card | bytes] = cards if cards is not None else {}
        # what rebuilds a card whose cached JSON no longer validates (a damaged cache)
        self.reread: Callable[[int], Card] | None = None

    def __getitem__(self, code: int) -> Card:
        card = self._cards[code]
        if type(card) is bytes:
            card = self._cards[code] = self._validate(code, card)
        return card  # type: ignore[return-value]

    def get(self, code: int, default: Any = None) -> Any:  # (Mapping's get goes through KeyError)
        return self[code] if code in self._cards else default

    def __contains__(self, code: object) -> bool:
        return code in self._cards

    def __iter__(self) -> Iterator[int]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def put(self, code: int, card: Card | bytes) -> None:
        self._cards[code] = card

    def copy(self) -> "Cards":
        return Cards(dict(self._cards))

    def _validate(self, code: int, raw: bytes) -> Card:
        try:
            card = card_adapter.validate_json(raw)
            if card.id == code:
                return card
        except (ValidationError, ValueError):
            pass
        if self.reread is None:
            raise KeyError(code)
        return self.reread(code)  # (a damaged cache: the card file is read again)


@dataclass
class CardPool:
    """All known cards, by passcode and by name."""

    by_id: Cards = field(default_factory=Cards)
    origin: dict[int, tuple[str, int]] = field(default_factory=dict)  # id → (file, index in file)
    files: list[str] = field(default_factory=list)
    digest: str = ""
    _ids: dict[str, int] = field(default_factory=dict, repr=False)  # own name → id
    _folded: dict[str, int] = field(default_factory=dict, repr=False)  # own name, folded → id
    _aka: dict[str, int] = field(default_factory=dict, repr=False)  # other names (Card.aka), folded → id
    # other passcodes of a card (alternate artworks) → the card's own passcode (alternates.yaml)
    alternates: dict[int, int] = field(default_factory=dict)
    _names: frozenset[str] = field(default_factory=frozenset, repr=False)

    def __post_init__(self) -> None:
        self.by_id.reread = self._reread

    def __len__(self) -> int:
        return len(self.by_id)

    def names(self) -> frozenset[str]:
        """Every card name of the pool: what a player may declare ("declare 1 card name"),
        whichever cards the duel holds (naming only those would show the opponent's Deck)."""
        if len(self._names) != len(self._ids):
            self._names = frozenset(self._ids)
        return self._names

    def kind_of(self, name: str) -> str | None:
        """The kind ("monster", "spell", "trap") of the card of this name ("Declare 1 Monster Card name": Dark
        Designator), None for a name the pool lacks. One card at a time: a card cached as JSON is validated only
        when asked (`Cards`), so a duel's start does not read every card of the pool."""
        code = self._ids.get(name)
        return None if code is None else self.by_id[code].kind

    def __iter__(self) -> Iterator[Card]:
        return iter(self.by_id.values())

    def get(self, ref: str | int) -> Card | None:
        """A card by passcode (int or digits) or by name, ignoring case and extra spaces."""
        code = self.id_of(ref)
        return None if code is None else self.by_id.get(code)

    def id_of(self, ref: str | int) -> int | None:
        """The passcode of the card `get` finds, without reading the card itself."""
        if isinstance(ref, int) and not isinstance(ref, bool):
            return ref if ref in self.by_id else self.alternates.get(ref)
        text = " ".join(str(ref).split())
        if is_digits(text):  # a passcode — or the name of a card such as "7" that is only digits
            code = int(text)
            found = code if code in self.by_id else self.alternates.get(code)
            return found if found is not None else self._own_id(text)
        found = self._own_id(text)
        return found if found is not None else self._aka.get(text.casefold())

    def _own_id(self, name: str) -> int | None:
        code = self._ids.get(name)
        return code if code is not None else self._folded.get(name.casefold())

    def named(self, name: str) -> Card | None:
        """The card whose own name this is (ignoring case), not counting other names (aka)."""
        code = self._own_id(name)
        return None if code is None else self.by_id[code]

    def suggest(self, ref: str | int, n: int = 3) -> str:
        """A "did you mean" hint for an unknown card reference (R-DECK-8)."""
        if isinstance(ref, int) or is_digits(str(ref).strip()):
            return "no card has this passcode; check the number or name the card instead"
        return did_you_mean(str(ref), self._ids, n=n) or "check the spelling; `ygoterm cards search` lists known cards"

    def nearest_names(self, ref: str, n: int = 3) -> list[str]:
        return nearest(ref, self._ids, n=n)

    def without(self, files_under: Path) -> "CardPool":
        """This pool less the cards loaded from files under a folder (an import's earlier
        cards, which it is about to replace)."""
        folder = files_under.resolve()
        outside = {file: not Path(file).resolve().is_relative_to(folder) for file in self.files}
        rest = CardPool(files=[f for f in self.files if outside[f]], digest=self.digest)
        kept = {code: origin for code, origin in self.origin.items() if outside.get(origin[0], True)}
        rest.by_id = Cards({code: self.by_id._cards[code] for code in kept})
        rest.by_id.reread = rest._reread
        rest.origin = kept
        for mine, theirs in ((self._ids, rest._ids), (self._folded, rest._folded), (self._aka, rest._aka)):
            theirs.update((name, code) for name, code in mine.items() if code in kept)
        rest.alternates = {other: own for other, own in self.alternates.items() if own in kept}
        return rest

    def replaced(self, card: Card) -> "CardPool":
        """A copy of this pool in which `card` replaces the card of its passcode (same name)."""
        copy = CardPool(self.by_id.copy(), dict(self.origin), self.files, self.digest, dict(self._ids),
                        dict(self._folded), dict(self._aka), self.alternates)
        copy.by_id.put(card.id, card)
        return copy

    def add(self, card: Card, origin: tuple[str, int]) -> None:
        self._index(card.id, card, origin, card.name, card.aka)

    def _index(self, code: int, card: Card | bytes, origin: tuple[str, int], name: str, aka: Iterable[str]) -> None:
        self.by_id.put(code, card)
        self._ids[name] = code
        self._folded[name.casefold()] = code
        for other in aka:  # a card's own name always wins over another card's other name (get)
            self._aka.setdefault(other.casefold(), code)
        self.origin[code] = origin

    def _reread(self, code: int) -> Card:
        """The card of a passcode read again from its card file, the cache left aside (a cache
        file that no longer validates is damaged: it is written afresh)."""
        file = self.origin[code][0]
        fresh = _Loader(use_cache=True, read_cache=False).run([Path(file)])
        card = fresh.by_id[code]
        self.by_id.put(code, card)
        return card

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


def remember(raw: bytes, cards: list[Card]) -> None:
    """Cache the cards of a card file whose writer has just validated them (an import): the next
    load reads them from the cache instead of validating each card again."""
    _Loader(use_cache=True)._cache_write(hashlib.sha256(raw).hexdigest(), cards)


class _Loader:
    def __init__(self, use_cache: bool, read_cache: bool = True) -> None:
        self.use_cache = use_cache
        self.read_cache = use_cache and read_cache
        self.treated_as: list[tuple[int, str]] = []  # (card, the name it is treated as)
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
            entries = self._entries_of(source, digest)
            pool.files.append(name)
            if self._add_all(pool, entries, name):
                continue
            for index, entry in enumerate(entries):
                if len(self.problems) - before > MAX_PROBLEMS_PER_FILE:
                    break  # (the rest of this file would only add more of the same)
                self._add(pool, entry, (name, index))
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

    def _entries_of(self, source: _Source, digest: str) -> list[_Entry]:
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
        return [(card.id, card.name, card.aka, card.treated_as, card) for card in cards]

    def _alternates_of(self, source: _Source, digest: str) -> dict[int, list[int]]:
        if self.read_cache:
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

    def _add_all(self, pool: CardPool, entries: list[_Entry], file: str) -> bool:
        """Index a whole file's cards at once when none clashes with another (the usual case:
        some 5 times faster than one by one); False when one does, to be added one by one."""
        codes = [entry[0] for entry in entries]
        folded = [entry[1].casefold() for entry in entries]
        if not (len(set(codes)) == len(codes) == len(set(folded)) and pool.by_id._cards.keys().isdisjoint(codes)
                and pool._folded.keys().isdisjoint(folded)):
            return False
        pool.by_id._cards.update(zip(codes, (entry[4] for entry in entries)))
        pool._ids.update(zip((entry[1] for entry in entries), codes))
        pool._folded.update(zip(folded, codes))
        pool.origin.update(zip(codes, ((file, index) for index in range(len(codes)))))
        for code, _, aka, treated_as, _ in entries:
            if aka:
                for other in aka:
                    pool._aka.setdefault(other.casefold(), code)
            if treated_as:
                self.treated_as.append((code, treated_as))
        return True

    def _add(self, pool: CardPool, entry: _Entry, origin: tuple[str, int]) -> None:
        code, name, aka, treated_as, card = entry
        for clash, what, key in ((code if code in pool.by_id else None, f"id {code}", "id"),
                                 (pool._own_id(name), f"name '{name}'", "name")):
            if clash is None:
                continue
            other_file, other_index = pool.origin[clash]
            line, col = self.sources[origin[0]].where(origin[1], key)
            other_line, _ = self.sources[other_file].where(other_index, key)
            self.problems.append(Problem(origin[0], line, col, f"[{origin[1]}].{key}",
                                         f"duplicate {what}: already used by '{pool.by_id[clash].name}' at {other_file}:{other_line}",
                                         f"each card needs its own {key}"))
            return
        pool._index(code, card, origin, name, aka)
        if treated_as:
            self.treated_as.append((code, treated_as))

    def _check_treated_as(self, pool: CardPool) -> None:
        for code, name in self.treated_as:
            if pool.id_of(name) is None:
                file, index = pool.origin[code]
                line, col = self.sources[file].where(index, "treated_as")
                self.problems.append(Problem(file, line, col, f"[{index}].treated_as",
                                             f"'{name}' is not a known card (R-DECK-6)", pool.suggest(name)))

    # -- cache ----------------------------------------------------------------------------

    def _cache_path(self, digest: str) -> Path:
        from ..paths import cache_home

        return cache_home() / SCHEMA_VERSION / f"{digest}.json"

    def _cache_read(self, digest: str) -> list[_Entry] | None:
        """A file's cards as cached: a first line indexing them (passcode, name, other names,
        treated_as), then each card's JSON on a line of its own, validated when first used."""
        if not self.read_cache:
            return None
        try:
            head, _, body = self._cache_path(digest).read_bytes().partition(b"\n")
            index = _index_adapter.validate_json(head)
        except (OSError, ValidationError, ValueError):
            return None  # absent or stale: parse the YAML again
        raws = body.split(b"\n")
        if len(raws) != len(index):
            return None
        return [(code, name, aka, treated_as, raw) for (code, name, aka, treated_as), raw in zip(index, raws)]

    def _cache_write(self, digest: str, cards: list[Card]) -> None:
        if self.use_cache:
            index = json.dumps([[c.id, c.name, c.aka, c.treated_as] for c in cards]).encode()
            self._write_cache(digest, b"\n".join([index, *(card_adapter.dump_json(c, by_alias=True, exclude_defaults=True) for c in cards)]))

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
