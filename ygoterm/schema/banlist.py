"""Forbidden/Limited lists (R-DECK-5): YAML files and YGOPro's `lflist.conf`.

YAML form::

    name: classic
    date: 2005-04-01
    format: classic
    forbidden: [Pot of Greed]
    limited: [Monster Reborn]
    semi_limited: [Call of the Haunted]

`lflist.conf` holds one or more lists: a `!Name` line starts a list, then `CODE COUNT --comment`
lines (0 forbidden, 1 limited, 2 semi-limited); `#` and `--` lines are comments. A `$whitelist`
line makes the list a whitelist (EDOPro): only the cards it lists are legal, `3` lines included.

A whitelist in YAML says `kind: whitelist` and lists its unrestricted cards under `allowed`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from .. import paths
from .cardpool import CardPool
from .problems import DataError, Problem, display_path, is_digits, too_many_digits
from .report import model_keys, problems_from
from .yamlio import Locator, load, read_text

MAX_BANLIST_BYTES = 2 * 1024 * 1024
LIMITS = {"forbidden": 0, "limited": 1, "semi_limited": 2}
WHITELIST_LIMITS = {**LIMITS, "allowed": 3}


class _BanlistModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    date: dt.date | None = None  # an effective date (YYYY-MM-DD); an impossible one is refused with its line
    format: str | None = None
    kind: Literal["banlist", "whitelist"] = "banlist"
    allowed: list[str | int] = []  # (whitelists) the cards allowed at 3
    forbidden: list[str | int] = []
    limited: list[str | int] = []
    semi_limited: list[str | int] = []


@dataclass
class Banlist:
    """Card name (as it counts for R-DECK-6) → maximum copies. A whitelist allows no card it
    does not list."""

    name: str
    limits: dict[str, int] = field(default_factory=dict)
    date: str = ""
    format: str = ""
    source: str = ""
    kind: str = "banlist"  # or "whitelist"
    unknown: int = 0  # (lflist.conf) entries naming cards the pool does not have, left out

    @property
    def whitelist(self) -> bool:
        return self.kind == "whitelist"

    def limit(self, deck_name: str) -> int | None:
        return self.limits.get(deck_name, 0 if self.whitelist else None)

    def set_limit(self, deck_name: str, count: int) -> None:
        """Several passcodes of one card (alternate artworks) may be listed: the lowest limit holds."""
        self.limits[deck_name] = min(count, self.limits.get(deck_name, count))

    def section(self, count: int) -> list[str]:
        return sorted(n for n, c in self.limits.items() if c == count)


def load_banlist(path: Path, pool: CardPool) -> Banlist:
    """A banlist from YAML (or `.conf`, its first list); unknown cards are errors with hints."""
    if path.suffix == ".conf":
        lists = read_lflist(path, pool)
        if not lists:
            raise DataError([Problem(display_path(path), 1, 1, "", "no list found", "a list starts with a line '!Name'")])
        return lists[0]
    file = display_path(path)
    data, text = load(path, max_bytes=MAX_BANLIST_BYTES)
    locator = Locator(text)
    if not isinstance(data, dict):
        raise DataError([Problem(file, 1, 1, "", "a banlist file must be a mapping with name, forbidden, limited, semi_limited")])
    try:
        model = _BanlistModel.model_validate(data)
    except ValidationError as e:
        raise DataError(problems_from(e, file=file, locator=locator, valid_keys=lambda loc: model_keys(_BanlistModel))) from None
    banlist = Banlist(model.name, date=str(model.date or ""), format=model.format or "", source=file, kind=model.kind)
    problems: list[Problem] = []
    if model.allowed and not banlist.whitelist:
        line, col = locator.position(("allowed",))
        problems.append(Problem(file, line, col, "allowed", "only a whitelist lists 'allowed' cards",
                                "add 'kind: whitelist' (then no other card is legal), or remove 'allowed'"))
    for section, count in WHITELIST_LIMITS.items():
        for index, ref in enumerate(getattr(model, section)):
            card = (pool.named(ref) if isinstance(ref, str) else None) or pool.get(ref)  # (a card may be named "7")
            if card is None:
                line, col = locator.position((section, index))
                problems.append(Problem(file, line, col, f"{section}[{index}]", f"unknown card '{ref}'", pool.suggest(ref), "R-DECK-8"))
                continue
            banlist.set_limit(card.deck_name, count)
    if problems:
        raise DataError(problems)
    return banlist


def read_lflist(path: Path, pool: CardPool) -> list[Banlist]:
    """Every list in a YGOPro/EDOPro `lflist.conf`. Unknown passcodes are left out (other pools have
    more cards) and counted in `Banlist.unknown`."""
    file = display_path(path)
    text = read_text(path, max_bytes=MAX_BANLIST_BYTES)
    lists: list[Banlist] = []
    problems: list[Problem] = []
    current: Banlist | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(("#", "--")):
            continue
        if line.startswith("$"):
            if line.split()[0].casefold() != "$whitelist":
                problems.append(Problem(file, number, 1, "", f"unknown directive {line.split()[0]!r}", "the only one is '$whitelist'"))
            elif current is None:
                problems.append(Problem(file, number, 1, "", "'$whitelist' before any '!Name' line", "put it after the list's '!Name' line"))
            else:
                current.kind = "whitelist"
            continue
        if line.startswith("!"):
            current = Banlist(line[1:].strip(), source=file)
            lists.append(current)
            continue
        body = line.split("--", 1)[0].split()
        if len(body) < 2 or not is_digits(body[0]) or not is_digits(body[1].lstrip("-")):
            problems.append(Problem(file, number, 1, "", f"expected 'PASSCODE COUNT --comment', found {line!r}"))
            continue
        if current is None:
            problems.append(Problem(file, number, 1, "", "card line before any '!Name' line", "start the list with '!Name'"))
            continue
        count = int(body[1]) if not too_many_digits(body[1], 2) else None  # (int() raises on over 4,300 digits)
        if count not in (0, 1, 2, 3):
            shown = body[1] if count is not None else f"{body[1][:12]}… ({len(body[1]):,} digits)"
            problems.append(Problem(file, number, len(raw) - len(raw.lstrip()) + len(body[0]) + 2, "", f"{shown} is not a limit",
                                    "use 0 (Forbidden), 1 (Limited), 2 (Semi-Limited) or 3 (no longer limited)", "R-DECK-5"))
            continue
        if too_many_digits(body[0], 9):
            problems.append(Problem(file, number, len(raw) - len(raw.lstrip()) + 1, "", f"this passcode {too_many_digits(body[0], 9)}",
                                    "a passcode has at most 9 digits: the file is damaged, or this line is not a card"))
            continue
        card = pool.get(int(body[0]))
        if card is None:
            current.unknown += 1
        elif count < 3 or current.whitelist:  # (3 on a banlist: "unlimited again", nothing to enforce)
            current.set_limit(card.deck_name, count)
    if problems:
        raise DataError(problems)
    return lists


def write_lflist(banlists: list[Banlist], pool: CardPool) -> str:
    """Export lists in YGOPro's `lflist.conf` format."""
    lines = ["#[" + "][".join(b.name for b in banlists) + "]"]
    for banlist in banlists:
        lines.append(f"!{banlist.name}")
        if banlist.whitelist:
            lines.append("$whitelist")
        for section, count in (WHITELIST_LIMITS if banlist.whitelist else LIMITS).items():
            lines.append(f"#{section.replace('_', '-')}")
            for name in banlist.section(count):
                card = pool.get(name)
                if card is not None:
                    lines.append(f"{card.id} {count} --{name}")
    return "\n".join(lines) + "\n"


def banlist_to_yaml_data(banlist: Banlist) -> dict[str, Any]:
    data: dict[str, Any] = {"name": banlist.name}
    if banlist.date:
        data["date"] = banlist.date
    if banlist.format:
        data["format"] = banlist.format
    if banlist.whitelist:
        data["kind"] = "whitelist"
    for section, count in (WHITELIST_LIMITS if banlist.whitelist else LIMITS).items():
        # a name that reads as a number (the Spell Card "7") is quoted, or it would be a passcode
        data[section] = [DoubleQuotedScalarString(n) if is_digits(n) else n for n in banlist.section(count)]
    return data


def find_banlist(ref: str, dirs: list[Path], *, named_in: Path | None = None) -> Path | None:
    """A banlist by path or by name/file stem. `named_in`: the deck file that names it — a
    relative path starts from its folder, and a path outside the folders `paths.may_read`
    allows is not used; a ref from the command line (no `named_in`) is taken as it is."""
    for candidate in ((named_in.parent / ref) if named_in else None, Path(ref).expanduser()):
        if candidate is not None and candidate.is_file() and (named_in is None or paths.may_read(candidate, named_in)):
            return candidate
    folded = ref.casefold()
    for d in dirs:
        for path in sorted(d.iterdir()):
            if path.suffix in (".yaml", ".yml", ".conf") and path.stem.casefold() == folded:
                return path
    return None
