"""Summoning materials of Fusion, Synchro, Xyz and Link monsters.

Written as on the card ("2 Level 4 monsters", "1 Tuner + 1+ non-Tuner monsters") and parsed into
structured groups when the wording is one of the simple forms; anything else stays text and is
resolved by hand (manual actions).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .vocab import ATTRIBUTES, MONSTER_TYPES
from .problems import is_digits


class MaterialGroup(BaseModel):
    """`min`..`max` monsters (max None = no limit) matching every given filter."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    min: int = Field(default=1, ge=1)
    max: int | None = Field(default=1, ge=1)
    name: str | None = None
    level: int | None = Field(default=None, ge=1, le=13)
    attribute: str | None = None
    type: str | None = None
    tuner: bool | None = None  # True: Tuner, False: non-Tuner, None: either
    frame: str | None = None  # e.g. "effect" for "Effect Monsters"

    @model_validator(mode="after")
    def _range(self) -> "MaterialGroup":
        if self.max is not None and self.max < self.min:
            raise ValueError(f"max ({self.max}) is smaller than min ({self.min})")
        return self


class Materials(BaseModel):
    """The printed material line and, when it is simple enough, its structured form."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str
    groups: tuple[MaterialGroup, ...] | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, value: Any) -> Any:
        if isinstance(value, str):
            return {"text": value, "groups": parse_materials(value)}
        if isinstance(value, dict) and "groups" not in value and isinstance(value.get("text"), str):
            return {**value, "groups": parse_materials(value["text"])}
        return value


_COUNT = re.compile(r"^(\d+)(\+| or more)?\s+(.*)$", re.IGNORECASE)
_ATTRS = {a.casefold(): a for a in ATTRIBUTES}
_TYPES = {t.casefold(): t for t in MONSTER_TYPES}


def parse_materials(text: str) -> list[dict[str, Any]] | None:
    """Groups for the simple material forms, or None when the text needs a human."""
    groups: list[dict[str, Any]] = []
    for part in text.split(" + "):
        group = _parse_group(part.strip())
        if group is None:
            return None
        groups.append(group)
    return groups or None


def _parse_group(part: str) -> dict[str, Any] | None:
    quoted = re.fullmatch(r'"([^"]+)"', part)
    if quoted:
        return {"min": 1, "max": 1, "name": quoted.group(1)}
    m = _COUNT.match(part)
    if not m:
        return None
    count, more, rest = int(m.group(1)), m.group(2), m.group(3)
    group: dict[str, Any] = {"min": count, "max": None if more else count}
    words = rest.replace("non-Tuner", "non-tuner").split()
    i = 0
    while i < len(words):
        w = words[i].casefold()
        if w == "level" and i + 1 < len(words) and is_digits(words[i + 1]):
            group["level"] = int(words[i + 1])
            i += 2
            continue
        if w in ("tuner", "tuners"):
            group["tuner"] = True
        elif w in ("non-tuner", "non-tuners"):
            group["tuner"] = False
        elif w in ("effect",):
            group["frame"] = "effect"
        elif w in _ATTRS:
            group["attribute"] = _ATTRS[w]
        elif w.rstrip("s") in _TYPES or w in _TYPES:
            group["type"] = _TYPES.get(w) or _TYPES[w.rstrip("s")]
        elif i + 1 < len(words) and f"{w} {words[i + 1].casefold()}".rstrip("s") in _TYPES:
            group["type"] = _TYPES[f"{w} {words[i + 1].casefold()}".rstrip("s")]
            i += 1
        elif w in ("monster", "monsters"):
            pass
        else:
            return None
        i += 1
    return group
