"""A small search language over the card pool: `dragon atk:2000+ attribute:dark level:4`.

Words with an operator filter a field (`:` or `=` equal, `>=` `<=` `>` `<`, `!=` different;
a number with `+` or `-` after it means "or more"/"or less": `atk:2000+` is `atk>=2000` in a
form no shell reads as a redirection);
other words must all appear in the card name (ignoring case). `text:WORD` searches the card text;
`play:manual` lists the cards whose effects are not scripted (`scripted`, `stats` for the others).
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from .cards import Card, Monster
from .problems import DataError, Problem, did_you_mean, is_digits

_TERM = re.compile(r"^([a-z_]+)(>=|<=|!=|:|=|>|<)(.+)$", re.IGNORECASE)
_OPS: dict[str, Callable[[Any, Any], bool]] = {
    ":": operator.eq, "=": operator.eq, "!=": operator.ne,
    ">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt,
}
_ALIASES = {"attr": "attribute", "lv": "level", "lvl": "level", "stars": "level", "def": "def_", "race": "type",
            "icon": "subtype", "passcode": "id", "desc": "text"}
NUMERIC = {"atk", "def_", "level", "rank", "link", "scale", "id"}
TEXTUAL = {"attribute", "type", "kind", "frame", "subtype", "rarity", "name", "text", "play"}
FIELDS = sorted((NUMERIC | TEXTUAL | {"def"}) - {"def_"})


@dataclass(frozen=True)
class _Filter:
    field: str
    op: str
    value: Any

    def __call__(self, card: Card) -> bool:
        actual = getattr(card, self.field, None)
        if self.field in NUMERIC:
            if actual is None or actual == "?":
                return False
            return _OPS[self.op](actual, self.value)
        if actual is None:
            return self.op == "!="
        text = str(actual).casefold()
        if self.field in ("frame", "name", "text"):
            hit = self.value in text
        else:
            hit = text == self.value
        return hit if self.op != "!=" else not hit


def parse_query(words: Iterable[str]) -> tuple[list[str], list[_Filter]]:
    """(name words, field filters) of a query; unknown fields raise DataError with a hint."""
    names: list[str] = []
    filters: list[_Filter] = []
    for word in words:
        m = _TERM.match(word)
        if not m:
            names.append(word.casefold())
            continue
        key, op, raw = m.group(1).lower(), m.group(2), m.group(3)
        field = _ALIASES.get(key, key)
        if field not in NUMERIC | TEXTUAL:
            raise DataError([Problem("query", 0, 0, word, f"unknown field '{key}'", did_you_mean(key, FIELDS) or "fields: " + ", ".join(FIELDS))])
        if field in NUMERIC:
            if op == ":" and raw[-1:] in ("+", "-"):
                op, raw = (">=" if raw[-1] == "+" else "<="), raw[:-1]
            if not is_digits(raw):
                raise DataError([Problem("query", 0, 0, word, f"'{key}' compares numbers, not '{raw}'")])
            filters.append(_Filter(field, op, int(raw)))
        else:
            if op not in (":", "=", "!="):
                raise DataError([Problem("query", 0, 0, word, f"'{key}' takes ':' (equals), not '{op}'")])
            filters.append(_Filter(field, op, raw.casefold().replace("_", " ") if field == "type" else raw.casefold()))
    return names, filters


def search(cards: Iterable[Card], words: Iterable[str]) -> list[Card]:
    """Cards matching every word of the query, sorted by name."""
    names, filters = parse_query(words)
    hits = [c for c in cards if all(n in c.name.casefold() for n in names) and all(f(c) for f in filters)]
    return sorted(hits, key=lambda c: c.name.casefold())


def stat_line(card: Card) -> str:
    """A compact one-line description: '[LIGHT] Dragon · Normal · Level 8 · 3000/2500'."""
    if isinstance(card, Monster):
        frame = card.frame.replace("+", "/").title().replace("Xyz", "Xyz")
        stars = (f"Rank {card.rank}" if card.rank is not None else f"LINK-{card.link}" if card.link is not None
                 else f"Level {card.level}")
        stats = f"{card.atk}" + (f"/{card.def_}" if card.def_ is not None else "")
        tuner = " · Tuner" if card.tuner else ""
        abilities = "".join(f" · {a.title()}" for a in card.abilities)
        scale = f" · Scale {card.scale}" if card.scale is not None else ""
        return f"[{card.attribute}] {card.type} · {frame}{abilities}{tuner} · {stars}{scale} · {stats}"
    return f"{card.subtype.replace('-', ' ').title()} {card.kind.title()}"
