"""Card data from other programs: EDOPro/YGOPro `cards.cdb` and YGOPRODeck card-info JSON.

Both are read into the same plain records (`Raw`), checked for values no card can have, and turned
into card mappings of our schema (`cards.py`). Nothing here writes files: `cardimport.py` does.

`cards.cdb` is SQLite with tables `datas` (id, ot, alias, setcode, type, atk, def, level, race,
attribute, category) and `texts` (id, name, desc, str1…). `type`, `race`, `attribute` and `ot`
are bit flags (the tables below, as in ocgcore's `common.h`); `level` packs the Level/Rank/Link
Rating in its low byte and the Pendulum Scales in bytes 3 and 4; a Link monster's `def` holds its
Link Arrows; `alias` names the card an alternate artwork (or a card "treated as") belongs to.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable

from .jsonio import JsonLocator, loads
from .problems import DataError, Problem, display_path, too_many_digits
from .vocab import ATTRIBUTES, LINK_ARROWS, MONSTER_TYPES

MAX_JSON_BYTES = 512 * 1024 * 1024
MAX_STAT = 1_000_000  # anime cards reach 100,000; beyond this a value is a broken file, not a card
MAX_PASSCODE = 999_999_999
MAX_PROBLEMS = 30

# -- ocgcore's bit flags ----------------------------------------------------------------------

TYPE_MONSTER, TYPE_SPELL, TYPE_TRAP = 0x1, 0x2, 0x4
TYPE_NORMAL, TYPE_EFFECT, TYPE_FUSION, TYPE_RITUAL = 0x10, 0x20, 0x40, 0x80
TYPE_SPIRIT, TYPE_UNION, TYPE_GEMINI, TYPE_TUNER = 0x200, 0x400, 0x800, 0x1000
TYPE_SYNCHRO, TYPE_TOKEN, TYPE_MAXIMUM = 0x2000, 0x4000, 0x8000
TYPE_QUICKPLAY, TYPE_CONTINUOUS, TYPE_EQUIP, TYPE_FIELD, TYPE_COUNTER = 0x10000, 0x20000, 0x40000, 0x80000, 0x100000
TYPE_FLIP, TYPE_TOON, TYPE_XYZ, TYPE_PENDULUM, TYPE_SPSUMMON, TYPE_LINK = 0x200000, 0x400000, 0x800000, 0x1000000, 0x2000000, 0x4000000
TYPE_SKILL, TYPE_ACTION = 0x8000000, 0x10000000

BASE_FLAGS = {"ritual": TYPE_RITUAL, "fusion": TYPE_FUSION, "synchro": TYPE_SYNCHRO, "xyz": TYPE_XYZ, "link": TYPE_LINK}
ABILITY_FLAGS = {"flip": TYPE_FLIP, "spirit": TYPE_SPIRIT, "gemini": TYPE_GEMINI, "toon": TYPE_TOON, "union": TYPE_UNION}
SPELL_FLAGS = {"quick-play": TYPE_QUICKPLAY, "continuous": TYPE_CONTINUOUS, "equip": TYPE_EQUIP, "field": TYPE_FIELD, "ritual": TYPE_RITUAL}
TRAP_FLAGS = {"continuous": TYPE_CONTINUOUS, "counter": TYPE_COUNTER}

RACES = {  # bit → our monster Type; the Rush Duel ones (Cyborg, Galaxy …) have no place here
    0x1: "Warrior", 0x2: "Spellcaster", 0x4: "Fairy", 0x8: "Fiend", 0x10: "Zombie", 0x20: "Machine",
    0x40: "Aqua", 0x80: "Pyro", 0x100: "Rock", 0x200: "Winged Beast", 0x400: "Plant", 0x800: "Insect",
    0x1000: "Thunder", 0x2000: "Dragon", 0x4000: "Beast", 0x8000: "Beast-Warrior", 0x10000: "Dinosaur",
    0x20000: "Fish", 0x40000: "Sea Serpent", 0x80000: "Reptile", 0x100000: "Psychic", 0x200000: "Divine-Beast",
    0x400000: "Creator God", 0x800000: "Wyrm", 0x1000000: "Cyberse", 0x2000000: "Illusion",
}
RUSH_RACES = {0x4000000: "Cyborg", 0x8000000: "Magical Knight", 0x10000000: "High Dragon",
              0x20000000: "Omega Psychic", 0x40000000: "Celestial Warrior", 0x80000000: "Galaxy"}
ATTRIBUTE_FLAGS = {0x1: "EARTH", 0x2: "WATER", 0x4: "FIRE", 0x8: "WIND", 0x10: "LIGHT", 0x20: "DARK", 0x40: "DIVINE"}
LINK_FLAGS = {0x40: "top-left", 0x80: "top", 0x100: "top-right", 0x8: "left", 0x20: "right",
              0x1: "bottom-left", 0x2: "bottom", 0x4: "bottom-right"}
SCOPE_SPEED, SCOPE_RUSH, SCOPE_HIDDEN = 0x40, 0x200, 0x1000

assert set(RACES.values()) == set(MONSTER_TYPES) and set(ATTRIBUTE_FLAGS.values()) == set(ATTRIBUTES)

# skip reasons, as counted and shown
SKILL, SPEED, RUSH, TOKEN, ACTION, HIDDEN = ("Skill cards", "Speed Duel-only cards", "Rush Duel cards", "Tokens",
                                             "Action cards", "hidden system entries (not cards)")
NAMELESS = "entries without a name (no row in 'texts')"


@dataclass
class Raw:
    """One card as the source file says it, in our words; `skip` says why it cannot be imported."""

    id: int
    name: str
    where: str  # how to find it in the source: "datas id 123" / "data[4]"
    text: str = ""
    alias: int = 0
    skip: str = ""
    kind: str = ""
    frame: str = ""
    attribute: str = ""
    type: str = ""
    level: int | None = None
    rank: int | None = None
    link: int | None = None
    arrows: tuple[str, ...] = ()
    scale: int | None = None
    atk: int | str | None = None
    def_: int | str | None = None
    tuner: bool = False
    abilities: tuple[str, ...] = ()
    special_summon_only: bool = False
    subtype: str = ""
    alternates: tuple[int, ...] = ()  # (JSON) other artworks' passcodes

    def card(self, treated_as: str | None = None) -> dict[str, Any]:
        """The card mapping of our schema (keys in the order the shipped files use)."""
        out: dict[str, Any] = {"id": self.id, "name": self.name, "kind": self.kind}
        if self.kind == "monster":
            out.update(frame=self.frame, attribute=self.attribute, type=self.type)
            for key in ("level", "rank", "link"):
                if getattr(self, key) is not None:
                    out[key] = getattr(self, key)
            if self.arrows:
                out["arrows"] = list(self.arrows)
            if self.scale is not None:
                out["scale"] = self.scale
            out["atk"] = self.atk
            if self.def_ is not None:
                out["def"] = self.def_
            if self.tuner:
                out["tuner"] = True
            if self.abilities:
                out["abilities"] = list(self.abilities)
            if self.special_summon_only:
                out["special_summon_only"] = True
            materials = material_line(self) if set(self.frame.split("+")) & {"fusion", "synchro", "xyz", "link"} else None
            if materials:
                out["materials"] = materials
        elif self.subtype != "normal":
            out["subtype"] = self.subtype
        if treated_as:
            out["treated_as"] = treated_as
        if self.text:
            out["text"] = self.text
        return out


def material_line(raw: Raw) -> str | None:
    """The material line an Extra Deck monster's text starts with ('1 Tuner + 1+ non-Tuner monsters')."""
    first = raw.text.split("\n", 1)[0].strip()
    if not first or len(first) > 200 or first.endswith((".", ":")):
        return None
    return first if " + " in first or re.match(r"\d+\+? ", first) else None


@dataclass
class Source:
    """Everything read from one file: the records, in passcode order, and what the file is."""

    path: Path
    format: str  # "cdb" or "json"
    raws: list[Raw] = field(default_factory=list)

    @property
    def file(self) -> str:
        return display_path(self.path)

    @property
    def kind_name(self) -> str:
        return "EDOPro/YGOPro card database" if self.format == "cdb" else "YGOPRODeck card data (JSON)"


def read_source(path: Path) -> Source:
    """Read a `cards.cdb` or a card-info JSON; DataError for anything else or for broken data."""
    file = display_path(path)
    try:
        with path.open("rb") as f:
            head = f.read(64)
    except OSError as e:
        raise DataError([Problem(file, 0, 0, "", f"cannot read it: {e.strerror or e}")]) from None
    if head.startswith(b"SQLite format 3\0"):
        return Source(path, "cdb", _read_cdb(path, file))
    if _looks_like_json(head):
        return Source(path, "json", _read_json(path, file))
    what = "it is empty" if not head else "it is neither an SQLite database nor JSON"
    raise DataError([Problem(file, 1, 1, "", f"not card data: {what}",
                             "pass EDOPro's or YGOPro's cards.cdb (in the program's folder, or expansions/), or the JSON of "
                             "https://db.ygoprodeck.com/api/v7/cardinfo.php")])


def _looks_like_json(head: bytes) -> bool:
    """Starts with '{' or '[' in UTF-8, -16 or -32 (as json itself reads them; Windows
    PowerShell's Out-File writes UTF-16 with a byte-order mark)."""
    text = head.decode(json.detect_encoding(head), errors="ignore")
    return text.lstrip("\ufeff \t\r\n")[:1] in ("{", "[")


# -- cards.cdb --------------------------------------------------------------------------------

DATAS_COLUMNS = ("id", "ot", "alias", "type", "atk", "def", "level", "race", "attribute")
TEXTS_COLUMNS = ("id", "name", "desc")


def _read_cdb(path: Path, file: str) -> list[Raw]:
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error as e:
        raise DataError([Problem(file, 0, 0, "", f"cannot open the database: {e}")]) from None
    try:
        tables = {name: [c[1] for c in db.execute(f'PRAGMA table_info("{name}")')]
                  for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        problems = []
        for table, needed in (("datas", DATAS_COLUMNS), ("texts", TEXTS_COLUMNS)):
            if table not in tables:
                problems.append(Problem(file, 0, 0, table, f"the database has no table '{table}' (tables: {', '.join(sorted(tables)) or 'none'})",
                                        "this is not a YGOPro/EDOPro card database; use the cards.cdb that EDOPro or YGOPro reads"))
                continue
            missing = [c for c in needed if c not in tables[table]]
            if missing:
                problems.append(Problem(file, 0, 0, table, f"table '{table}' has no column{'s' if len(missing) > 1 else ''} {', '.join(missing)}",
                                        f"a card database's '{table}' table has {', '.join(needed)}; use an unmodified cards.cdb"))
        if problems:
            raise DataError(problems)
        rows = db.execute("SELECT d.id, d.ot, d.alias, d.type, d.atk, d.def, d.level, d.race, d.attribute, t.name, t.desc "
                          "FROM datas d LEFT JOIN texts t ON t.id = d.id ORDER BY d.id").fetchall()
    except sqlite3.Error as e:
        raise DataError([Problem(file, 0, 0, "", f"the database cannot be read: {e}",
                                 "the file is damaged or not a card database; copy cards.cdb again")]) from None
    finally:
        db.close()
    problems = []
    raws = _once_each((_cdb_raw(row, file, problems) for row in rows), file, problems)
    _raise(problems, file)
    return raws


def _cdb_raw(row: tuple[Any, ...], file: str, problems: list[Problem]) -> Raw | None:
    code, ot, alias, type_, atk, def_, level, race, attribute, name, desc = row
    where = f"datas id {code}"
    ints = {"id": code, "ot": ot, "alias": alias, "type": type_, "atk": atk, "def": def_, "level": level, "race": race, "attribute": attribute}
    for key, value in ints.items():
        if not isinstance(value, int) or isinstance(value, bool):
            problems.append(Problem(file, 0, 0, f"{where}.{key}", f"{key} is {value!r}, not a whole number", "the database is damaged; copy it again"))
            return None
    if not 1 <= code <= MAX_PASSCODE:
        problems.append(Problem(file, 0, 0, where, f"passcode {code} is not possible (1 to {MAX_PASSCODE:,})", "remove the row or fix its id"))
        return None
    if not isinstance(name, str) or not name.strip():
        raw = Raw(code, f"passcode {code}", where, alias=alias)  # (real databases hold a few: skipped, the rest imported)
        raw.skip = NAMELESS
        return raw
    raw = Raw(code, " ".join(name.split()), where, text=(desc or "").replace("\r\n", "\n").strip(), alias=alias)
    if ot & SCOPE_HIDDEN:
        raw.skip = HIDDEN
    elif type_ & TYPE_SKILL:
        raw.skip = SKILL
    elif type_ & TYPE_ACTION:
        raw.skip = ACTION
    elif ot & SCOPE_RUSH or type_ & TYPE_MAXIMUM:
        raw.skip = RUSH
    elif ot & SCOPE_SPEED and not ot & 0x3:
        raw.skip = SPEED
    elif type_ & TYPE_TOKEN:
        raw.skip = TOKEN
    elif type_ & TYPE_MONSTER:
        _cdb_monster(raw, type_, atk, def_, level, race, attribute, file, problems)
    elif type_ & TYPE_SPELL:
        raw.kind, raw.subtype = "spell", _subtype(type_, SPELL_FLAGS)
    elif type_ & TYPE_TRAP:
        raw.kind, raw.subtype = "trap", _subtype(type_, TRAP_FLAGS)
    else:
        raw.skip = "entries that are neither monster, Spell nor Trap"
    return raw


def _subtype(type_: int, flags: dict[str, int]) -> str:
    found = [word for word, bit in flags.items() if type_ & bit]
    return found[0] if len(found) == 1 else "normal" if not found else found[0]


def _cdb_monster(raw: Raw, type_: int, atk: int, def_: int, level: int, race: int, attribute: int,
                 file: str, problems: list[Problem]) -> None:
    raw.kind = "monster"
    bases = [word for word, bit in BASE_FLAGS.items() if type_ & bit]
    if len(bases) > 1:  # (anime cards: Supreme King Z-ARC is Fusion, Synchro and Xyz)
        raw.skip = "monsters with several frames (anime cards)"
        return
    pendulum = bool(type_ & TYPE_PENDULUM)
    effect = bool(type_ & TYPE_EFFECT)
    words = ["pendulum"] if pendulum else []
    if bases:
        words += [bases[0]] + (["effect"] if effect else [])
    else:
        words.append("effect" if effect or not type_ & TYPE_NORMAL else "normal")
    raw.frame = "+".join(words)
    raw.tuner = bool(type_ & TYPE_TUNER)
    raw.abilities = tuple(word for word, bit in ABILITY_FLAGS.items() if type_ & bit)
    raw.special_summon_only = bool(type_ & TYPE_SPSUMMON)
    raw.attribute = ATTRIBUTE_FLAGS.get(attribute, "")
    raw.type = RACES.get(race, "")
    if not raw.attribute:
        raw.skip = f"monsters with no single known Attribute (attribute {attribute:#x})"
    elif not raw.type:
        raw.skip = f"monsters of Type {RUSH_RACES[race]} (Rush Duel)" if race in RUSH_RACES else f"monsters with no single known Type (race {race:#x})"
    stars = level & 0xFF
    left, right = (level >> 24) & 0xFF, (level >> 16) & 0xFF
    raw.atk = _stat(raw, "atk", atk, file, problems)
    if "link" in bases:
        arrows = tuple(word for bit, word in LINK_FLAGS.items() if def_ & bit)
        if not 1 <= stars <= 8:
            problems.append(Problem(file, 0, 0, f"{raw.where}.level", f"'{raw.name}' is a Link monster with Link Rating {stars}",
                                    "a Link Rating is 1 to 8, stored in the low byte of 'level'"))
        elif def_ < 0 or def_ & ~0x1EF:
            problems.append(Problem(file, 0, 0, f"{raw.where}.def", f"'{raw.name}': {def_} is not a set of Link Arrows",
                                    "a Link monster's 'def' holds its arrows as bits 0x1…0x100 (0x10 is unused)"))
        else:
            raw.link, raw.arrows = stars, tuple(a for a in LINK_ARROWS if a in arrows)
            if len(raw.arrows) != stars:
                raw.skip = "Link monsters whose Link Rating is not their number of arrows"
        return
    raw.def_ = _stat(raw, "def", def_, file, problems)
    if stars == 0 and (not bases or bases[0] != "xyz"):  # (anime and manga cards)
        raw.skip = "monsters of Level 0 (a Level is 1 to 13)"
        return
    if not 0 <= stars <= 13:
        problems.append(Problem(file, 0, 0, f"{raw.where}.level", f"'{raw.name}' has Level/Rank {stars} (level {level:#x})",
                                "a Level is 1 to 13 and a Rank 0 to 13, in the low byte of 'level'"))
        return
    if bases and bases[0] == "xyz":
        raw.rank = stars
    else:
        raw.level = stars
    if pendulum:
        if left > 13 or right > 13:
            problems.append(Problem(file, 0, 0, f"{raw.where}.level", f"'{raw.name}' has Pendulum Scales {left}/{right}",
                                    "a Pendulum Scale is 0 to 13, in the high bytes of 'level'"))
        raw.scale = left


def _stat(raw: Raw, key: str, value: int, file: str, problems: list[Problem]) -> int | str | None:
    if value in (-1, -2):
        return "?"
    if not 0 <= value <= MAX_STAT:
        problems.append(Problem(file, 0, 0, f"{raw.where}.{key}", f"'{raw.name}' has {key.upper()} {value:,}",
                                f"ATK and DEF are 0 to {MAX_STAT:,}, or -2 for '?'; fix the value or remove the card"))
        return None
    return value


def _raise(problems: list[Problem], file: str) -> None:
    if problems:
        if len(problems) >= MAX_PROBLEMS:
            problems.append(Problem(file, 0, 0, "", "… the rest of the file was not checked", "fix the ones above first"))
        raise DataError(problems)


# -- YGOPRODeck JSON --------------------------------------------------------------------------

JSON_FRAMES = {"normal": "normal", "effect": "effect", "ritual": "ritual+effect", "fusion": "fusion+effect",
               "synchro": "synchro+effect", "xyz": "xyz+effect", "link": "link+effect",
               "normal_pendulum": "pendulum+normal", "effect_pendulum": "pendulum+effect",
               "ritual_pendulum": "pendulum+ritual+effect", "fusion_pendulum": "pendulum+fusion+effect",
               "synchro_pendulum": "pendulum+synchro+effect", "xyz_pendulum": "pendulum+xyz+effect"}
JSON_SKIPS = {"skill": SKILL, "token": TOKEN}
JSON_ARROWS = {a.replace("-", "").casefold(): a for a in LINK_FLAGS.values()}
_TYPE_WORDS = {t.replace("-", "").replace(" ", "").casefold(): t for t in MONSTER_TYPES}
_PLAYED_FORMATS = {"TCG", "OCG", "GOAT", "OCG GOAT", "Edison", "Common Charity", "Master Duel", "Genesys"}


def _read_json(path: Path, file: str) -> list[Raw]:
    try:
        size = path.stat().st_size
        if size > MAX_JSON_BYTES:
            raise DataError([Problem(file, 1, 1, "", f"file is {size:,} bytes; card JSON may be at most {MAX_JSON_BYTES:,}")])
        raw = path.read_bytes()
        text = raw.decode(json.detect_encoding(raw))
        data = loads(text, file)
    except OSError as e:
        raise DataError([Problem(file, 0, 0, "", f"cannot read it: {e.strerror or e}")]) from None
    except UnicodeDecodeError:
        raise DataError([Problem(file, 1, 1, "", "not UTF-8 JSON", "save it as UTF-8")]) from None
    except json.JSONDecodeError as e:
        raise DataError([Problem(file, e.lineno, e.colno, "", f"not valid JSON: {e.msg}",
                                 "download the card data again (https://db.ygoprodeck.com/api/v7/cardinfo.php)")]) from None
    items = data.get("data") if isinstance(data, dict) else data
    if not isinstance(items, list):
        got = "a mapping without a 'data' list" if isinstance(data, dict) else _json_kind(data)
        raise DataError([Problem(file, 1, 1, "data", f"expected YGOPRODeck card data ({{\"data\": [card, …]}}), found {got}",
                                 "use the JSON of https://db.ygoprodeck.com/api/v7/cardinfo.php, or a list of its cards")])
    problems: list[Problem] = []
    raws = _once_each((_json_raw(index, item, file, problems) for index, item in enumerate(items)), file, problems)
    _raise(_located(problems, text, ("data",) if isinstance(data, dict) else ()), file)
    return sorted(raws, key=lambda r: r.id)


_WHERE = re.compile(r"data\[(\d+)\](?: \(id \d+\))?(?:\.(\w+))?")


def _located(problems: list[Problem], text: str, prefix: tuple[str, ...]) -> list[Problem]:
    """The problems with the line and column of the card (or its field) each is about: found
    only now, and only for them (the data holds tens of thousands of cards)."""
    locator = JsonLocator(text)
    out = []
    for problem in problems:
        where = _WHERE.fullmatch(problem.path)
        if where and not problem.line:
            path = (*prefix, int(where.group(1)), *((where.group(2),) if where.group(2) else ()))
            line, col = locator.position(path)
            problem = replace(problem, line=line, col=col)
        out.append(problem)
    return out


def _once_each(raws: Iterable[Raw | None], file: str, problems: list[Problem]) -> list[Raw]:
    """The cards read, each passcode once: a second card with a passcode is refused (one of
    the two would silently vanish from the pool). Stops at MAX_PROBLEMS."""
    seen: dict[int, str] = {}
    kept: list[Raw] = []
    for raw in raws:
        if raw is not None:
            if raw.id in seen:
                problems.append(Problem(file, 0, 0, raw.where, f"duplicate passcode {raw.id}: '{raw.name}' and {seen[raw.id]}",
                                        "each card appears once; remove one of them"))
            else:
                seen[raw.id] = f"{raw.where} '{raw.name}'"
                kept.append(raw)
        if len(problems) >= MAX_PROBLEMS:
            break
    return kept


def _json_int(item: dict[str, Any], key: str) -> int | None:
    value = item.get(key)
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and value.isascii():
        return int(value) if not too_many_digits(value.strip(), 12) else None  # (int() raises on over 4,300 digits)
    return value if isinstance(value, int) else None


# the fields read as text or as lists: any other JSON type (null aside) is refused, not guessed at
_JSON_TEXT = ("name", "desc", "type", "frameType", "race", "attribute")
_JSON_LISTS = ("typeline", "card_images", "misc_info", "linkmarkers")


def _json_kind(value: Any) -> str:
    """A JSON value's type in the words of the JSON file: 'text', 'a list', 'a number' …"""
    kinds = {bool: "true/false", str: "text", list: "a list", dict: "a mapping", type(None): "null"}
    return kinds.get(type(value), "a number")


def _wrong_types(item: dict[str, Any], where: str, file: str, problems: list[Problem]) -> bool:
    """Whether a field holds the wrong JSON type (each one said in `problems`)."""
    wrong = [(key, "text") for key in _JSON_TEXT if not isinstance(item.get(key), (str, type(None)))]
    wrong += [(key, "a list") for key in _JSON_LISTS if not isinstance(item.get(key), (list, type(None)))]
    for key, wanted in wrong:
        problems.append(Problem(file, 0, 0, f"{where}.{key}", f"'{key}' must be {wanted}, not {_json_kind(item[key])}",
                                "the file is damaged or was edited: download the card data again"))
    return bool(wrong)


def _json_raw(index: int, item: Any, file: str, problems: list[Problem]) -> Raw | None:
    where = f"data[{index}]"
    if not isinstance(item, dict):
        problems.append(Problem(file, 0, 0, where, f"a card is a mapping with id, name, type …, not {type(item).__name__}",
                                "use the JSON of https://db.ygoprodeck.com/api/v7/cardinfo.php"))
        return None
    code, name = _json_int(item, "id"), item.get("name")
    if code is None or not isinstance(name, str) or not name.strip():
        missing = "id" if code is None else "name"
        value = item.get(missing)
        said = "" if value is None else f" ('{missing}' is {_json_kind(value)})" if isinstance(value, (list, dict)) else f" ({missing}: {_shown(value)})"
        problems.append(Problem(file, 0, 0, where, f"the card has no {missing}{said}",
                                "every card needs a numeric 'id' (its passcode) and a 'name' (text)"))
        return None
    where = f"data[{index}] (id {code})"
    if not 1 <= code <= MAX_PASSCODE:
        problems.append(Problem(file, 0, 0, where, f"passcode {_shown(code)} is not possible (1 to {MAX_PASSCODE:,})", "fix or remove the card"))
        return None
    if _wrong_types(item, where, file, problems):
        return None
    text = item.get("desc") or ""
    raw = Raw(code, " ".join(name.split()), where, text=text.replace("\r\n", "\n").strip())
    raw.alternates = tuple(sorted({i for img in item.get("card_images") or [] if isinstance(img, dict)
                                   and isinstance(i := img.get("id"), int) and not isinstance(i, bool) and i != code and 1 <= i <= MAX_PASSCODE}))
    frame = (item.get("frameType") or "").casefold()
    type_line = item.get("type") or ""
    words = set(type_line.casefold().replace("-", " ").split()) | {str(w).casefold() for w in item.get("typeline") or []}
    formats = {f for info in item.get("misc_info") or [] if isinstance(info, dict) and isinstance(info.get("formats"), list)
               for f in info["formats"] if isinstance(f, str)}  # (only read to tell Speed Duel cards: anything else is ignored)
    race = item.get("race") or ""
    if frame in JSON_SKIPS or "skill" in words:
        raw.skip = JSON_SKIPS.get(frame, SKILL)
    elif formats and not formats & _PLAYED_FORMATS and "Speed Duel" in formats:
        raw.skip = SPEED
    elif frame in ("spell", "trap"):
        raw.kind = frame
        sub = race.casefold().replace(" ", "-")
        allowed = ("quick-play", "continuous", "equip", "field", "ritual") if frame == "spell" else ("continuous", "counter")
        raw.subtype = sub if sub in allowed else "normal"
    elif frame in JSON_FRAMES:
        _json_monster(raw, item, frame, words, race, file, problems)
    else:
        raw.skip = f"cards of frameType {frame!r}" if frame else "cards without a frameType"
    return raw


def _json_monster(raw: Raw, item: dict[str, Any], frame: str, words: set[str], race: str, file: str, problems: list[Problem]) -> None:
    raw.kind = "monster"
    parts = JSON_FRAMES[frame].split("+")
    # "Fusion Monster" is said of Fusions with and without effects: the newer `typeline` tells,
    # else a text longer than its material line
    lines = [line for line in raw.text.split("\n") if line.strip()]
    effect = "effect" in words or (not item.get("typeline") and frame != "ritual" and len(lines) > 1)
    if "effect" in parts and frame != "effect" and not effect:
        parts.remove("effect")  # a Fusion/Ritual … monster without an effect ("Fusion Monster", not "Fusion Effect Monster")
        if parts == ["pendulum"]:
            parts.append("effect")
    raw.frame = "+".join(parts)
    raw.tuner = "tuner" in words
    raw.abilities = tuple(a for a in ABILITY_FLAGS if a in words)
    attribute = (item.get("attribute") or "").upper()
    raw.attribute = attribute if attribute in ATTRIBUTES else ""
    raw.type = _TYPE_WORDS.get(race.replace("-", "").replace(" ", "").casefold(), "")
    if not raw.attribute:
        raw.skip = f"monsters with no known Attribute ({_shown(item.get('attribute'))})"
    elif not raw.type:
        raw.skip = f"monsters of Type {_shown(race)}" if race else "monsters without a Type"
    raw.atk = _json_stat(raw, item, "atk", file, problems)
    if frame == "link":
        rating = _json_int(item, "linkval")
        markers = item.get("linkmarkers") or []
        arrows = {JSON_ARROWS.get(str(m).replace("-", "").casefold()) for m in markers if isinstance(m, str)}
        if rating is None or not 1 <= rating <= 8:
            problems.append(Problem(file, 0, 0, f"{raw.where}.linkval", f"'{raw.name}' is a Link monster with linkval {_shown(item.get('linkval'))}",
                                    "a Link Rating is 1 to 8"))
            return
        if None in arrows or not isinstance(markers, list):
            problems.append(Problem(file, 0, 0, f"{raw.where}.linkmarkers", f"'{raw.name}': {_shown(markers)} are not Link Arrows",
                                    "arrows are Top, Bottom, Left, Right, Top-Left, Top-Right, Bottom-Left, Bottom-Right"))
            return
        raw.link = rating
        raw.arrows = tuple(a for a in LINK_ARROWS if a in arrows)
        if len(raw.arrows) != rating:
            raw.skip = "Link monsters whose Link Rating is not their number of arrows"
        return
    raw.def_ = _json_stat(raw, item, "def", file, problems)
    stars = _json_int(item, "level")
    if stars == 0 and "xyz" not in parts:
        raw.skip = "monsters of Level 0 (a Level is 1 to 13)"
        return
    if stars is None or not 0 <= stars <= 13:
        problems.append(Problem(file, 0, 0, f"{raw.where}.level", f"'{raw.name}' has level {_shown(item.get('level'))}",
                                "a Level is 1 to 13 (a Rank 0 to 13)"))
        return
    if "xyz" in parts:
        raw.rank = stars
    else:
        raw.level = stars
    if "pendulum" in parts:
        scale = _json_int(item, "scale")
        if scale is None or not 0 <= scale <= 13:
            problems.append(Problem(file, 0, 0, f"{raw.where}.scale", f"'{raw.name}' has Pendulum Scale {_shown(item.get('scale'))}",
                                    "a Pendulum Scale is 0 to 13"))
            return
        raw.scale = scale


def _shown(value: Any) -> str:
    """A value as a message quotes it, cut short (a field may hold megabytes)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _json_stat(raw: Raw, item: dict[str, Any], key: str, file: str, problems: list[Problem]) -> int | str | None:
    value = item.get(key)
    if value is None or value in (-1, -2, "?"):
        return "?"
    number = _json_int(item, key)
    if number is None or not 0 <= number <= MAX_STAT:
        problems.append(Problem(file, 0, 0, f"{raw.where}.{key}", f"'{raw.name}' has {key.upper()} {_shown(value)}",
                                f"ATK and DEF are whole numbers from 0 to {MAX_STAT:,}, or '?'"))
        return None
    return number
