"""`ygoterm cards import`: what of a card database becomes card files, and writing them safely.

`plan_import` decides card by card against the pool that is already there: a card the pool has
(a shipped, scripted one, or your own) wins and is not written again; an alternate artwork (the
source's `alias` of a card of the same name, or a YGOPRODeck `card_images` id) becomes an
alternate passcode of its card (`alternates.yaml`); a card whose alias is another card is
`treated_as` that card; what cannot be played (Skills, Speed and Rush Duel cards, Tokens) is
counted with its reason. `write_import` writes the folder under a hidden temporary name and
renames it into place, so a failed import leaves the old folder as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .cardpool import ALTERNATES_FILE, CardPool, remember
from .carddb import Raw, Source
from .cards import Card, card_adapter, card_list_adapter
from .jsonio import loads
from .problems import DataError, Problem
from .query import search

CARDS_PER_FILE = 1000
FILE_BYTES = 2 * 1024 * 1024  # a card file of the import ends before this size (well under MAX_CARD_FILE_BYTES)
MAX_IMPORT_CARDS = 250_000  # the game's whole database holds some 13,000 cards: this is far beyond any real one
IMPORT_FILES = re.compile(r"cards-\d{3,}\.yaml|alternates\.yaml|passcodes\.tsv")  # what an import writes (an older marker lists nothing)
MARKER = ".import.json"  # marks a folder written by an import (hidden: the pool loader skips it)
INDEX = "passcodes.tsv"  # every passcode of the source with its name and what became of it


@dataclass
class Plan:
    source: Source
    cards: list[dict[str, Any]] = field(default_factory=list)  # to write, by passcode
    alternates: dict[int, list[int]] = field(default_factory=dict)  # a card's passcode → its other passcodes
    names: dict[int, tuple[str, str]] = field(default_factory=dict)  # every source passcode → (name, status)
    skipped: Counter[str] = field(default_factory=Counter)  # reason → cards
    in_pool: int = 0
    scripted_in_pool: int = 0
    notes: Counter[str] = field(default_factory=Counter)  # other things worth saying, → cards
    invalid: list[str] = field(default_factory=list)  # cards our schema refused, with why
    checked: dict[int, Card] = field(default_factory=dict, repr=False)  # plan.cards as validated

    @property
    def alternate_count(self) -> int:
        return sum(len(v) for v in self.alternates.values())


def plan_import(source: Source, pool: CardPool, only: list[str] | None = None) -> Plan:
    """What to write for `source`, given the cards already in `pool` (which must not hold the
    import's own previous folder). `only`: a `cards search` query selecting the cards to write."""
    plan = Plan(source)
    sorting = _sort(source, pool, plan)
    cards, dicts = _validated(_card_dicts(sorting, pool, plan), plan)
    chosen = _chosen(cards, pool, only, plan)
    if len(chosen) > MAX_IMPORT_CARDS:
        raise DataError([Problem(source.file, 0, 0, "", f"{len(chosen):,} cards to import: at most {MAX_IMPORT_CARDS:,} at once "
                                 "(the game's whole database holds some 13,000)",
                                 "import the cards you need with --only (a `cards search` query), or split the database")])
    for card, data in zip(cards, dicts):
        if card.id in chosen:
            plan.cards.append(data)
            plan.checked[card.id] = card
            plan.names[card.id] = (card.name, "imported")
        else:
            plan.names[card.id] = (card.name, "not chosen (--only)")
    _place_alternates(sorting, pool, plan)
    return plan


def pool_for_import(dirs: list[Path], files: list[Path], target: Path) -> CardPool:
    """The pool an import is planned against: every card but the import's own earlier ones.
    Those stay loaded while the other folders are checked — an add-on database's cards are
    `treated_as` cards of the base database, so re-importing the base must not make them
    unknown — and are then left out. An earlier import that does not load (it is about to be
    replaced) is left out from the start."""
    try:
        whole = CardPool.load(dirs, files=files)
    except DataError as e:
        folder = target.resolve()
        if not all(Path(p.file).resolve().is_relative_to(folder) for p in e.problems):
            raise
        return CardPool.load(dirs, files=files, exclude=[target])
    return whole.without(target) if target.is_dir() else whole


@dataclass
class _Sorting:
    """What `_sort` decided about the source's cards."""

    by_id: dict[int, Raw]  # every card of the source
    kept: dict[int, Raw] = field(default_factory=dict)  # the cards to write (before validation and --only)
    treated: dict[int, int] = field(default_factory=dict)  # passcode → the passcode of the card it is treated as
    alternate_of: dict[int, int] = field(default_factory=dict)  # passcode → the card it is an alternate passcode of


def _sort(source: Source, pool: CardPool, plan: Plan) -> _Sorting:
    """Card by card (in passcode order, so the first of a name is its own card): skipped, in the
    pool already, an alternate passcode, or kept (and perhaps treated as another card)."""
    sorting = _Sorting({r.id: r for r in source.raws})
    by_id, kept, treated, alternate_of = sorting.by_id, sorting.kept, sorting.treated, sorting.alternate_of
    own_name: dict[str, int] = {}  # folded name → passcode of the card that has it (source or pool)

    roots = _alias_roots(by_id)
    for raw in source.raws:
        if raw.skip:
            plan.skipped[raw.skip] += 1
            plan.names[raw.id] = (raw.name, f"skipped: {raw.skip}")
            continue
        folded = raw.name.casefold()
        target = roots.get(raw.id, 0)
        if target == -1:
            plan.notes["cards whose alias chain runs in a circle, imported as cards of their own"] += 1
            target = 0
        target_name = by_id[target].name if target in by_id else (pool.by_id[target].name if target in pool.by_id else "")
        in_pool = pool.by_id.get(raw.id)
        if in_pool is not None:
            plan.in_pool += 1
            plan.scripted_in_pool += in_pool.scripted
            plan.names[raw.id] = (raw.name, "in the pool already (that card is used)")
            own_name.setdefault(in_pool.name.casefold(), raw.id)
            for other in raw.alternates:
                alternate_of.setdefault(other, raw.id)
            continue
        if target and target_name.casefold() == folded:
            alternate_of[raw.id] = target
            continue
        same = own_name.get(folded)
        if same is None:
            named = pool.named(raw.name)
            same = named.id if named is not None else None
        if same is not None:
            alternate_of[raw.id] = same
            plan.notes["cards with the name of another passcode, read as its alternate passcode"] += 1
            continue
        own_name[folded] = raw.id
        kept[raw.id] = raw
        for other in raw.alternates:
            alternate_of.setdefault(other, raw.id)
        if target:
            treated[raw.id] = target
    return sorting


def _alias_roots(by_id: dict[int, Raw]) -> dict[int, int]:
    """Each aliased card → the card at the end of its alias chain (-1 when the chain loops back
    on itself), in linear time: every chain is walked once, its cards remembered."""
    roots: dict[int, int] = {}
    for start, raw in by_id.items():
        if not raw.alias or raw.alias == start or start in roots:
            continue
        path, on_path, code = [], set(), start
        while code in by_id and by_id[code].alias and by_id[code].alias != code and code not in roots:
            if code in on_path:
                break
            path.append(code)
            on_path.add(code)
            code = by_id[code].alias
        if code in on_path:  # a loop: its cards have no root
            end = -1
        elif code in roots:
            end = roots[code]
        else:
            end = code
        for visited in path:
            roots[visited] = end
    return roots


def _card_dicts(sorting: _Sorting, pool: CardPool, plan: Plan) -> list[dict[str, Any]]:
    """The kept cards as card data (`treated_as` named), not validated yet."""
    kept, treated = sorting.kept, sorting.treated

    def deck_name(code: int, depth: int = 0) -> str | None:
        if code in pool.by_id:
            return pool.by_id[code].deck_name
        if code in kept and depth < 8:
            further = treated.get(code)
            return (deck_name(further, depth + 1) if further is not None and (further in kept or further in pool.by_id) else None) or kept[code].name
        return None

    dicts = []
    for code, raw in kept.items():
        target = treated.get(code)
        name = deck_name(target) if target is not None else None
        if target is not None and name is None:
            plan.notes["cards treated as a card not in the pool, imported without treated_as (import the database that has it first, then this one again)"] += 1
        dicts.append(raw.card(treated_as=name if name and name.casefold() != raw.name.casefold() else None))
    return dicts


def _chosen(cards: list[Card], pool: CardPool, only: list[str] | None, plan: Plan) -> set[int]:
    """The passcodes to write: all, or those `only` selects and the cards they are treated as."""
    chosen = {c.id for c in (search(cards, only) if only else cards)}
    if only:  # a chosen card brings the card it is treated as
        for card in cards:
            if card.id in chosen and card.treated_as and pool.named(card.treated_as) is None:
                extra = next((c.id for c in cards if c.name == card.treated_as), None)
                if extra is not None and extra not in chosen:
                    chosen.add(extra)
                    plan.notes["cards added because a chosen card is treated as them"] += 1
    return chosen


def _place_alternates(sorting: _Sorting, pool: CardPool, plan: Plan) -> None:
    """Each alternate passcode goes to its card, when that card is written or in the pool."""
    written = {c["id"] for c in plan.cards}
    for other, own in sorted(sorting.alternate_of.items()):
        own = sorting.alternate_of.get(own, own)
        name = sorting.by_id[other].name if other in sorting.by_id else ""
        if (own in written or own in pool.by_id) and other not in written and other not in pool.by_id:
            plan.alternates.setdefault(own, []).append(other)
            plan.names[other] = (name, f"alternate passcode of {own}")
        elif other in sorting.by_id and other not in plan.names:
            plan.names[other] = (name, f"alternate passcode of {own}, which was not imported")


def _validated(dicts: list[dict[str, Any]], plan: Plan) -> tuple[list[Card], list[dict[str, Any]]]:
    try:
        return card_list_adapter.validate_python(dicts), dicts
    except ValidationError:
        pass
    cards, kept = [], []
    for data in dicts:
        try:
            cards.append(card_adapter.validate_python(data))
            kept.append(data)
        except ValidationError as e:
            first = e.errors(include_url=False)[0]
            where = ".".join(str(p) for p in first["loc"][1:]) or "card"
            plan.skipped["cards our card format cannot hold"] += 1
            plan.invalid.append(f"{data['id']} '{data['name']}': {where}: {first['msg']}")
            plan.names[data["id"]] = (data["name"], f"skipped: {where}: {first['msg']}")
    return cards, kept


# -- writing ----------------------------------------------------------------------------------

_NOT_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")


def card_line(card: dict[str, Any]) -> str:
    """One card as one line of YAML that is also JSON: `- {"id": 1, "name": …}`. Characters YAML
    may not hold as they are (C1 controls, line and paragraph separators, BOMs) are escaped."""
    text = json.dumps(card, ensure_ascii=False)
    return "- " + _NOT_PRINTABLE.sub(lambda m: "".join(f"\\u{u:04x}" for u in _utf16_units(m.group())), text)


def _utf16_units(char: str) -> list[int]:
    data = char.encode("utf-16-be")
    return [int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2)]


def render(plan: Plan, pool: CardPool) -> dict[str, str]:
    """The import folder's files: name → text."""
    src = plan.source
    head = (f"# Imported by 'ygoterm cards import' from {src.path.name} ({src.kind_name}).\n"
            "# One card per line. Importing again replaces this whole folder: keep your own cards elsewhere.\n")
    files: dict[str, str] = {}
    lines: list[str] = []
    size = 0
    for card in plan.cards:  # files of at most CARDS_PER_FILE cards and FILE_BYTES
        line = card_line(card) + "\n"
        if lines and (len(lines) == CARDS_PER_FILE or size + len(line.encode()) > FILE_BYTES):
            files[f"cards-{len(files):03d}.yaml"] = head + "".join(lines)
            lines, size = [], 0
        lines.append(line)
        size += len(line.encode())
    if lines:
        files[f"cards-{len(files):03d}.yaml"] = head + "".join(lines)
    if plan.alternates:
        names = {c["id"]: c["name"] for c in plan.cards}
        lines = [head.splitlines()[0], "# Other passcodes of the same card (alternate artworks): a deck, a banlist or a",
                 "# .ydk may use any of them, and they all count as the card (R-DECK-4/5).", "alternates:"]
        for own, others in sorted(plan.alternates.items()):
            name = names.get(own) or (pool.by_id[own].name if own in pool.by_id else "")
            lines.append(f"  {own}: [{', '.join(map(str, sorted(others)))}]" + (f"  # {name}" if name else ""))
        files[ALTERNATES_FILE] = "\n".join(lines) + "\n"
    files[INDEX] = "passcode\tname\tstatus\n" + "".join(f"{code}\t{name}\t{status}\n" for code, (name, status) in sorted(plan.names.items()))
    return files


def check_target(target: Path) -> None:
    """The folder an import may write: new, empty, or holding exactly what an earlier import
    wrote — the files its marker lists, unchanged (their SHA-256). A file of yours put in it, an
    imported file you edited, or a marker copied into a folder of your own: refused, as the
    import replaces the whole folder and they would be lost."""
    if target.exists() and not target.is_dir():
        raise DataError([Problem(str(target), 0, 0, "", "exists and is not a folder", "choose another --into folder")])
    if not target.is_dir() or not any(target.iterdir()):
        return
    if not (target / MARKER).is_file():
        raise DataError([Problem(str(target), 0, 0, "", "this folder holds files that no card import wrote",
                                 "an import replaces its whole folder: choose a new or empty --into folder (nothing was changed)")])
    written = _written_files(target)
    foreign = sorted(p.name for p in target.iterdir() if p.name != MARKER and not _as_written(p, written))
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        raise DataError([Problem(str(target), 0, 0, "", f"this import folder also holds {shown}, which the last import did not write "
                                 "(or which changed since)", "an import replaces its whole folder: move those elsewhere first (nothing was changed)")])


def _written_files(target: Path) -> dict[str, str] | None:
    """What the folder's marker says the import wrote (name → SHA-256); None for a marker of an
    older version, which listed nothing (then the import's file names are trusted)."""
    try:
        marker = loads((target / MARKER).read_text(encoding="utf-8"), str(target / MARKER))
    except (OSError, ValueError, DataError):
        return {}  # (unreadable: nothing is known to be the import's)
    files = marker.get("files") if isinstance(marker, dict) else None
    if files is None and isinstance(marker, dict) and "sha256" in marker:
        return None
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(files, dict) else {}


def _as_written(path: Path, written: dict[str, str] | None) -> bool:
    if not path.is_file():
        return False
    if written is None:
        return IMPORT_FILES.fullmatch(path.name) is not None
    try:
        return written.get(path.name) == hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return False


_LEFTOVER = re.compile(r"\.(?P<name>.+)\.(?P<kind>importing|replaced)-(?P<pid>\d+)")


def _recover(folder: Path) -> None:
    """Tidy what imports killed midway (kill -9, a power cut) left in a card folder: their
    temporary folders go; an earlier import, moved aside just before, comes back if the new one
    never took its place. Only the leftovers of processes that are gone are touched."""
    for leftover in sorted(folder.iterdir()):
        found = _LEFTOVER.fullmatch(leftover.name)
        if found is None or not leftover.is_dir() or _alive(int(found["pid"])):
            continue
        home = folder / found["name"]
        if found["kind"] == "replaced" and not home.exists():
            os.rename(leftover, home)
        else:
            shutil.rmtree(leftover, ignore_errors=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False  # (our own leftovers: an earlier, failed attempt of this process)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # (someone else's process: leave its files alone)
    return True


def write_import(plan: Plan, pool: CardPool, target: Path) -> bool:
    """Write the import folder atomically; False when it already held exactly these files."""
    if target.parent.is_dir():
        _recover(target.parent)
    check_target(target)
    files = render(plan, pool)
    digest = hashlib.sha256(plan.source.path.read_bytes()).hexdigest()
    written = {name: hashlib.sha256(text.encode("utf-8")).hexdigest() for name, text in files.items()}
    files[MARKER] = json.dumps({"source": plan.source.path.name, "format": plan.source.format, "sha256": digest,
                                "cards": len(plan.cards), "alternates": plan.alternate_count, "files": written}, indent=1) + "\n"
    # check_target found every file the marker lists unchanged: the same marker and the same
    # names mean the same files (read once, by their hashes)
    if target.is_dir() and {p.name for p in target.iterdir()} == set(files) and \
            (target / MARKER).read_text(encoding="utf-8") == files[MARKER]:
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.parent / f".{target.name}.importing-{os.getpid()}"
    old = target.parent / f".{target.name}.replaced-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        tmp.mkdir()
        for name, text in files.items():
            with open(tmp / name, "w", encoding="utf-8", newline="\n") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
        if target.exists():
            os.rename(target, old)
        try:
            os.rename(tmp, target)
        except OSError:
            if old.exists():
                os.rename(old, target)  # put the previous import back
            raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(old, ignore_errors=True)
    _remember(plan, files)
    return True


def _remember(plan: Plan, files: dict[str, str]) -> None:
    """Give the pool's cache the cards just written, as validated here: the first command after
    an import then reads them from the cache instead of validating every card again. The card
    files hold plan.cards in order, one line each (`- {…}`, a JSON line never spans two)."""
    start = 0
    for name, text in files.items():
        if name.startswith("cards-"):
            count = text.count("\n- ")
            remember(text.encode("utf-8"), [plan.checked[card["id"]] for card in plan.cards[start:start + count]])
            start += count


def imported_names(dirs: list[Path]) -> dict[int, tuple[str, str, str]]:
    """Every passcode the imports in `dirs` have seen: passcode → (name, what became of it, source file)."""
    out: dict[int, tuple[str, str, str]] = {}
    for d in dirs:
        for index in sorted(Path(d).rglob(INDEX)):
            try:
                marker = loads((index.parent / MARKER).read_text(encoding="utf-8"), str(index.parent / MARKER))
                source = str(marker.get("source", index.parent.name))
                for line in index.read_text(encoding="utf-8").splitlines()[1:]:
                    code, name, status = line.split("\t", 2)
                    out.setdefault(int(code), (name, status, source))
            except (OSError, ValueError, AttributeError, DataError):
                continue  # (an index is a convenience: a damaged one only loses names in messages)
    return out
