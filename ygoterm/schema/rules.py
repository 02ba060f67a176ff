"""The rules profile: the switches where eras and rule texts disagree (RULES.md Appendix B).

Defaults follow the current official rules; every other behaviour is a named option. Scenario
and save files carry a `rules:` mapping with the same shape.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Switches(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DeckRules(_Switches):
    main_min: int = Field(40, ge=0)
    main_max: int | None = Field(60, ge=1, description="V-01: null = no upper limit")
    extra_max: int = Field(15, ge=0)
    side_max: int = Field(15, ge=0)
    side_exact: int | None = Field(None, ge=0, description="V-03: e.g. 15 to demand exactly 15")
    max_copies: int = Field(3, ge=1)


class DuelRules(_Switches):
    starting_lp: Literal[8000, 4000, 2000] = 8000  # V-13
    first_turn_draw: bool = False  # V-14
    first_turn_battle: bool = False  # V-14


class FieldRules(_Switches):
    shared_field_spell: bool = False  # V-05


class ZoneRules(_Switches):
    separate_pendulum: bool = False  # V-06


class ChainRules(_Switches):
    legacy_trigger_order: bool = False  # V-23


class MatchRules(_Switches):
    extra_duels_after_draws: bool = False  # V-24


class Rules(_Switches):
    """A complete rules profile; `Rules()` is the modern default."""

    ruleset: Literal["mr2020", "mr4", "mr3"] = "mr2020"  # V-07/18
    deck: DeckRules = DeckRules()
    duel: DuelRules = DuelRules()
    hand_limit: int | None = Field(6, ge=0)  # V-15
    field: FieldRules = FieldRules()
    zones: ZoneRules = ZoneRules()
    chain: ChainRules = ChainRules()
    match: MatchRules = MatchRules()
    manual_actions: bool = False  # DESIGN §4: allow manual actions in a two-player duel
