"""Validators for the game's fixed words, forgiving about case and strict about spelling.

Each raises a single clear error with a "did you mean" hint, instead of pydantic's one error
per union member.
"""

from __future__ import annotations

from typing import Annotated, Any, Callable, Iterable, Literal

from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError

from .problems import did_you_mean, is_digits
from .vocab import ATTRIBUTES, BASE_FRAMES, LINK_ARROWS, MONSTER_TYPES, RARITIES, RARITY_ALIASES


def word_error(what: str, value: Any, choices: Iterable[str]) -> PydanticCustomError:
    choices = list(choices)
    hint = did_you_mean(str(value), choices) or "one of: " + ", ".join(choices)
    return PydanticCustomError("unknown_word", "'{value}' is not a known {what}", {"value": value, "what": what, "hint": hint})


def _canonical(what: str, choices: Iterable[str]) -> Callable[[Any], str]:
    table = {c.casefold(): c for c in choices}

    def check(value: Any) -> str:
        if not isinstance(value, str):
            raise PydanticCustomError("word_type", "{what} must be a word such as '{example}'", {"what": what, "example": next(iter(table.values()))})
        found = table.get(value.strip().casefold()) or table.get(value.strip().casefold().replace("_", "-"))
        if found is None:
            raise word_error(what, value, table.values())
        return found

    return check


Attribute = Annotated[str, BeforeValidator(_canonical("Attribute", ATTRIBUTES))]
MonsterType = Annotated[str, BeforeValidator(_canonical("monster Type", MONSTER_TYPES))]
LinkArrow = Annotated[str, BeforeValidator(_canonical("Link Arrow", LINK_ARROWS))]


def _rarity(value: Any) -> str:
    code = str(value).strip().upper()
    code = RARITY_ALIASES.get(code, code)
    if code not in RARITIES:
        raise word_error("rarity code", value, RARITIES)
    return code


Rarity = Annotated[str, BeforeValidator(_rarity)]


def _stat(value: Any) -> int | str:
    """ATK/DEF: a whole number from 0, or '?' (which counts as 0, R-TERM-19)."""
    if value == "?":
        return "?"
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and is_digits(value.strip()):
            return int(value.strip())
        raise PydanticCustomError("stat", "must be a whole number or '?', not {value}", {"value": repr(value)})
    if value < 0:
        raise PydanticCustomError("stat", "cannot be negative ({value})", {"value": value})
    return value


Stat = Annotated[int | Literal["?"], BeforeValidator(_stat)]

_EXTRA_BASES = {"ritual", "fusion", "synchro", "xyz", "link"}


def _frame(value: Any) -> str:
    """'effect', 'pendulum+effect', ['fusion', 'effect'] ... → one canonical '+'-joined string."""
    if isinstance(value, str):
        words = [w for w in value.replace("/", "+").replace(" ", "+").split("+") if w]
    elif isinstance(value, (list, tuple)):
        words = [str(w) for w in value]
    else:
        raise PydanticCustomError("frame", "frame must be a word such as 'effect' or 'pendulum+effect'", {})
    allowed = set(BASE_FRAMES) | {"pendulum"}
    words = [w.strip().casefold() for w in words]
    for w in words:
        if w not in allowed:
            raise word_error("frame", w, sorted(allowed))
    found = set(words)
    bases = found - {"pendulum", "effect"}
    if len(bases) > 1:
        raise PydanticCustomError("frame", "a monster has one frame, not {frames}", {"frames": " and ".join(sorted(bases)), "hint": "combine only 'pendulum' and 'effect' with another frame"})
    if "normal" in found and "effect" in found:
        raise PydanticCustomError("frame", "a monster cannot be both 'normal' and 'effect'", {"hint": "a Normal Monster has no effect (R-CARD-3)"})
    if "pendulum" in found and found & {"link", "token"}:
        raise PydanticCustomError("frame", "Link monsters and Tokens cannot be Pendulum monsters", {})
    if "token" in found and "effect" in found:
        raise PydanticCustomError("frame", "a Token is treated as a Normal Monster and has no effect frame (R-CARD-11)", {})
    if not (found - {"pendulum"}):
        raise PydanticCustomError("frame", "'pendulum' needs a second frame, e.g. 'pendulum+effect' or 'pendulum+normal'", {})
    order = ["pendulum", *BASE_FRAMES]
    # 'effect' goes last so that e.g. 'fusion+effect' reads as on the card
    ordered = sorted(found, key=lambda w: (w == "effect" and bool(found & _EXTRA_BASES), order.index(w)))
    return "+".join(ordered)


Frame = Annotated[str, BeforeValidator(_frame)]
