"""Scenario files (puzzles and rules tests): a position, a script of commands, expectations.

The format is documented in docs/scenarios.md. This module only describes and validates the
data; `ygoterm.engine.position` builds a duel from it and `ygoterm.scenarios` runs scripts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .problems import DataError, Problem, display_path
from .report import model_keys, nested_model, problems_from
from .rules import Rules, RulesField
from .yamlio import Locator, load

MAX_SCENARIO_BYTES = 1024 * 1024
Side = Literal["A", "B"]
PhaseWord = Literal["draw", "standby", "main1", "battle", "main2", "end"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class PileCard(_Model):
    """A card in a pile (hand, Deck, GY …): a name, or a mapping with details."""

    card: str
    count: int = Field(default=1, ge=1, le=60)
    face_down: bool = False  # banished face-down (R-ZONE-9)
    face_up: bool = False  # in the Extra Deck: a face-up Pendulum monster (R-ZONE-8)
    properly_summoned: bool = True  # in the GY/banished: was it properly Summoned (R-SUMMON-9)?
    owner: Side | None = None


def _with_card_key(value: Any) -> Any:
    """Let a bare card name stand for {card: NAME} in lists."""
    if isinstance(value, list):
        return [{"card": v} if isinstance(v, (str, int)) else v for v in value]
    return value


class ZoneCard(_Model):
    """A card on the field with its state."""

    card: str
    zone: int | None = Field(default=None, ge=1, le=7, description="1-5 Main Monster / Spell & Trap Zones; 6, 7 the EMZs")
    position: Literal["attack", "defense", "set", "facedown-attack"] = "attack"
    face_down: bool | None = None  # Spells/Traps: Set (default) or face-up
    summoned: Literal["this_turn", "earlier"] = "earlier"
    how: Literal["normal", "tribute", "flip", "special", "set"] = "normal"
    properly_summoned: bool = True
    attacked: bool = False  # declared an attack this turn
    position_changed: bool = False  # changed position (or was Flip Summoned) this turn
    set: Literal["this_turn", "earlier"] = "earlier"  # for Set cards
    counters: dict[str, int] = {}
    materials: list[str] = []
    owner: Side | None = None  # controlled by this side but owned by the other


class SideSetup(_Model):
    lp: int | None = Field(default=None, ge=0)
    hand: list[PileCard] = []
    deck: list[PileCard] = []  # top first
    extra: list[PileCard] = []
    gy: list[PileCard] = []  # bottom first
    banished: list[PileCard] = []
    monsters: list[ZoneCard] = []
    spells: list[ZoneCard] = []  # Spell & Trap Zones
    pendulum: list[ZoneCard] = Field(default=[], max_length=2)  # the Pendulum Zones, left first: Pendulum cards, face-up
    field: ZoneCard | None = None  # the Field Zone
    normal_summoned: bool = False  # already used this turn's Normal Summon/Set

    @field_validator("hand", "deck", "extra", "gy", "banished", mode="before")
    @classmethod
    def _names_in_piles(cls, value: Any) -> Any:
        return _with_card_key(value)

    @field_validator("monsters", "spells", "pendulum", mode="before")
    @classmethod
    def _names_in_zones(cls, value: Any) -> Any:
        return _with_card_key(value)

    @field_validator("field", mode="before")
    @classmethod
    def _field(cls, value: Any) -> Any:
        return {"card": value} if isinstance(value, (str, int)) else value


class ExpectCard(_Model):
    card: str
    position: Literal["attack", "defense", "set", "facedown-attack"] | None = None
    zone: int | None = None
    face_down: bool | None = None
    owner: Side | None = None  # when it matters whose card it is (control changes, R-TERM-5)
    atk: int | None = None  # current ATK/DEF, with every modifier (monsters)
    def_: int | None = Field(default=None, alias="def")


Group = Union[str, list[str]]  # a list inside a pile = cards that arrived together (compared as a multiset)


class SideExpect(_Model):
    lp: int | None = None
    hand: int | list[str] | None = None
    deck: int | None = None
    extra: int | list[str] | None = None
    gy: list[Group] | None = None
    banished: list[Group] | None = None
    monsters: list[ExpectCard] | None = None
    spells: list[ExpectCard] | None = None
    pendulum: list[ExpectCard] | None = None  # the Pendulum Zones, left first
    field: str | None = None

    @field_validator("monsters", "spells", "pendulum", mode="before")
    @classmethod
    def _names(cls, value: Any) -> Any:
        return _with_card_key(value)


class Outcome(_Model):
    winner: Literal["A", "B", "draw"]
    reason: str | None = None


class Expect(_Model):
    lp: dict[Side, int] | None = None
    A: SideExpect | None = None
    B: SideExpect | None = None
    outcome: Outcome | Literal["ongoing"] | None = None
    turn: int | None = None
    phase: PhaseWord | None = None
    turn_player: Side | None = None
    deciding: Side | None = None
    log: list[str] = []  # each must appear in the log text
    not_log: list[str] = []  # none may appear
    not_told: dict[Side, list[str]] = {}  # none may appear in the log as that side may read it (hidden information)


class Step(_Model):
    """One script line in its long form."""

    do: str | None = None
    refused: str | None = None  # a rule ID: the command must be refused with it
    as_: Side | None = Field(default=None, alias="as")
    expect: Expect | None = None
    first: Side | None = None  # answer the coin-toss decision so that this side goes first
    concede: Side | None = None
    time: Literal["call"] | None = None  # tournament time is called now (R-TIME-2, the rules' `time` procedure)

    @model_validator(mode="after")
    def _one_thing(self) -> "Step":
        actions = [x for x in (self.do, self.expect, self.first, self.concede, self.time) if x is not None]
        if len(actions) != 1:
            raise ValueError("a script step is a command, or one of {do: …}, {expect: …}, {first: A|B}, {concede: A|B}, {time: call}")
        if self.refused is not None and self.do is None:
            raise ValueError("'refused' goes with 'do'")
        return self


class Scenario(_Model):
    name: str
    description: str = ""
    rules_covered: list[str] = Field(default=[], alias="covers")
    rules: RulesField = Rules()  # a profile's name (`rules: goat`) or switches
    cards: list[str] = []  # extra card files or folders, relative to the scenario file
    seed: int = 0
    names: dict[Side, str] = {}
    # Either a position …
    turn: int = Field(default=1, ge=1)
    phase: PhaseWord = "main1"
    turn_player: Side = "A"
    A: SideSetup = SideSetup()
    B: SideSetup = SideSetup()
    # … or a fresh duel from two decks (deck names, files, or inline {main: …} mappings).
    decks: dict[Side, Any] | None = None
    prompt: dict[Side, Literal["auto", "always"]] = {}
    # A puzzle: what side A must do (checked after the script, and told by the TUI as it happens),
    # and the sides the AI plays (their decisions are the AI's, not the script's).
    goal: Literal["win", "survive"] | None = None
    ai: dict[Side, Literal["easy", "normal", "hard"]] = {}
    script: list[Step] = []
    expect: Expect | None = None

    @field_validator("script", mode="before")
    @classmethod
    def _steps(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [{"do": v} if isinstance(v, str) else v for v in value]
        return value


def read_scenario(path: Path) -> tuple[Scenario, dict[str, Any], Locator]:
    """The validated scenario, its raw data (kept in replays) and a locator for errors."""
    name = display_path(path)
    data, text = load(path, max_bytes=MAX_SCENARIO_BYTES)
    locator = Locator(text)
    if not isinstance(data, dict):
        raise DataError([Problem(name, 1, 1, "", "a scenario file must be a mapping (name, A, B, script, expect …)",
                                 "see docs/scenarios.md")])
    try:
        return Scenario.model_validate(data), data, locator
    except ValidationError as e:
        raise DataError(problems_from(e, file=name, locator=locator, valid_keys=_keys_at)) from None


def _keys_at(loc: tuple[Any, ...]) -> list[str]:
    model = nested_model(Scenario, loc)
    return model_keys(model) if model else []
