"""Turn pydantic validation errors into `Problem`s a YAML author can act on."""

from __future__ import annotations

import types
import typing
from typing import Any, Callable, Iterable, Sequence

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from .problems import Problem, did_you_mean
from .yamlio import Locator

Loc = tuple[Any, ...]


def problems_from(
    error: ValidationError,
    *,
    file: str,
    locator: Locator,
    prefix: Loc = (),
    valid_keys: Callable[[Loc], Iterable[str]] = lambda loc: (),
    tags: Iterable[str] = (),
) -> list[Problem]:
    """One Problem per pydantic error, positioned in the file and phrased in plain English.

    `prefix` is where the validated value sits in the file; `tags` are discriminator values that
    pydantic inserts into error paths (e.g. 'monster') and that do not exist in the file.
    """
    tagset = set(tags)
    out: list[Problem] = []
    seen: set[tuple[Loc, str]] = set()
    for err in error.errors(include_url=False):
        loc = prefix + tuple(p for p in err["loc"] if p not in tagset or not isinstance(p, str))
        loc = tuple(p for p in loc if not (isinstance(p, str) and p.startswith("function-")))
        message, hint = _phrase(err, loc, valid_keys)
        if (loc, message) in seen:
            continue
        seen.add((loc, message))
        line, col = locator.position(loc, key=err["type"] in ("extra_forbidden", "missing"))
        out.append(Problem(file, line, col, dotted(loc), message, hint))
    return out


def dotted(loc: Sequence[Any]) -> str:
    """('cards', 3, 'atk') → 'cards[3].atk' ; a leading index reads as '[3]'."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _phrase(err: ErrorDetails, loc: Loc, valid_keys: Callable[[Loc], Iterable[str]]) -> tuple[str, str]:
    kind = err["type"]
    ctx = err.get("ctx") or {}
    value = err.get("input")
    field = loc[-1] if loc else ""
    if kind == "extra_forbidden":
        hint = did_you_mean(str(field), valid_keys(loc[:-1])) or "remove it"
        return f"unknown field '{field}'", hint
    if kind == "missing":
        return f"required field '{field}' is missing", f"add '{field}: …'"
    if kind in ("union_tag_invalid",):
        expected = ctx.get("expected_tags", "")
        return f"unknown kind {ctx.get('tag')!r}", f"kind must be one of {expected}"
    if kind == "union_tag_not_found":
        return f"missing '{ctx.get('discriminator', 'kind').strip(chr(39))}'", "add e.g. 'kind: monster' (monster, spell or trap)"
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return f"expected a mapping (key: value lines), found {_describe(value)}", ""
    if kind in ("list_type", "tuple_type"):
        return f"expected a list, found {_describe(value)}", ""
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"expected a whole number, found {_describe(value)}", ""
    if kind in ("string_type",):
        return f"expected text, found {_describe(value)}", "put quotes around it"
    if kind in ("bool_type", "bool_parsing"):
        return f"expected true or false, found {_describe(value)}", ""
    if kind == "literal_error":
        expected = str(ctx.get("expected", ""))
        options = [o.strip(" '") for o in expected.replace(" or ", ", ").split(",")]
        return f"{value!r} is not allowed here", did_you_mean(str(value), options) or f"expected {expected}"
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        bound = {"greater_than_equal": "at least", "less_than_equal": "at most",
                 "greater_than": "more than", "less_than": "less than"}[kind]
        limit = next(iter(ctx.values()), "")
        return f"must be {bound} {limit}, found {value!r}", ""
    if kind in ("string_too_short", "too_short"):
        return "must not be empty", ""
    if kind in ("string_too_long", "too_long"):
        return f"is too long (at most {ctx.get('max_length')})", ""
    if kind == "value_error":
        message = str(err["msg"]).removeprefix("Value error, ")
        return message, str(ctx.get("hint", ""))
    return str(err["msg"]), str(ctx.get("hint", ""))


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def model_keys(model: type[BaseModel]) -> list[str]:
    """Field names as written in YAML (aliases where they exist)."""
    return [f.alias or name for name, f in model.model_fields.items()]


def nested_model(model: type[BaseModel], path: Loc) -> type[BaseModel] | None:
    """The model found by following field names (skipping list indices) from `model`."""
    current: Any = model
    for part in path:
        if isinstance(part, int):
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return None
        field = next((f for n, f in current.model_fields.items() if part in (n, f.alias)), None)
        if field is None:
            return None
        current = _model_in(field.annotation)
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _model_in(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType, tuple, list, typing.Annotated, dict):
        for arg in typing.get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
    return None
