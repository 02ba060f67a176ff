"""The rules profile: the switches where eras and rule texts disagree (RULES.md Appendix B).

Defaults follow the current official rules; every other behaviour is a named option. Scenario
and save files carry a `rules:` mapping with the same shape.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator


class _Switches(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DeckRules(_Switches):
    main_min: int = Field(default=40, ge=0)
    main_max: int | None = Field(default=60, ge=1, description="V-01: null = no upper limit")
    extra_max: int | None = Field(default=15, ge=0, description="V-02: null = no limit (the 2005 Fusion Deck)")
    side_max: int = Field(default=15, ge=0)
    side_exact: int | None = Field(default=None, ge=0, description="V-03: e.g. 15 to demand exactly 15")
    max_copies: int = Field(default=3, ge=1)


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
    # V-26 (GOAT format): after a Summon or a chain resolves, the turn player may activate an
    # Ignition Effect before the opponent may respond ("priority")
    ignition_priority: bool = False


class MatchRules(_Switches):
    extra_duels_after_draws: bool = False  # V-24


class TimeRules(_Switches):
    """Tournament time (RULES.md §13, V-25). `classic2005` is the procedure of R-TIME-2…7 with its
    numbers fixed; `custom` lets each of them be set. The match length and the two warnings
    (R-TIME-1: they never penalise) may be set under either procedure."""

    procedure: Literal["classic2005", "custom"] = "classic2005"  # V-25
    match_minutes: float = Field(default=40, ge=0, le=24 * 60)  # R-TIME-1, breaks included
    turn_minutes: float = Field(default=3, ge=0, le=24 * 60)  # R-TIME-1: the per-turn notice
    break_minutes: float = Field(default=3, ge=0, le=24 * 60)  # R-TIME-1: the break between duels
    # custom only:
    extra_turns: int = Field(default=3, ge=0, le=99)  # R-TIME-2: turns played after the current one
    equal_lp: Literal["sudden_death", "draw"] = "sudden_death"  # R-TIME-4 (the 2018 policy: a draw)
    level_wins: Literal["extra_duel", "draw"] = "extra_duel"  # R-TIME-5/6: wins level when time is up
    extra_duel_turns: int = Field(default=4, ge=1, le=99)  # R-TIME-6: the extra duel's length

    @model_validator(mode="after")
    def _classic_is_fixed(self) -> "TimeRules":
        if self.procedure == "classic2005":
            changed = [name for name in _CUSTOM_ONLY if getattr(self, name) != _CLASSIC[name]]
            if changed:
                raise ValueError(f"{', '.join(changed)} can only be changed with procedure: custom (classic2005 is R-TIME-2…7 as written)")
        return self


_CUSTOM_ONLY = ("extra_turns", "equal_lp", "level_wins", "extra_duel_turns")
_CLASSIC = {"extra_turns": 3, "equal_lp": "sudden_death", "level_wins": "extra_duel", "extra_duel_turns": 4}


Format = Literal["modern", "goat"]


class Rules(_Switches):
    """A complete rules profile; `Rules()` is the modern default, `Rules.named("goat")` the
    2005 format (RULES.md Appendix B lists each difference with its source)."""

    # which cards' texts are played: today's, or the 2005 TCG's where errata changed them (Card.goat)
    format: Format = "modern"
    ruleset: Literal["mr2020", "mr4", "mr3"] = "mr2020"  # V-07/18
    deck: DeckRules = DeckRules()
    duel: DuelRules = DuelRules()
    hand_limit: int | None = Field(default=6, ge=0)  # V-15
    field: FieldRules = FieldRules()
    zones: ZoneRules = ZoneRules()
    chain: ChainRules = ChainRules()
    match: MatchRules = MatchRules()
    time: TimeRules = TimeRules()  # tournament mode only (R-TIME)
    manual_actions: bool = False  # DESIGN §4: allow manual actions in a two-player duel

    @classmethod
    def named(cls, name: str) -> "Rules":
        """A named profile: "modern" (today's rules) or "goat" (April 2005, as GOAT format is played)."""
        if name not in PROFILES:
            raise ValueError(f"unknown rules profile '{name}': one of {', '.join(PROFILES)}")
        return cls.model_validate(PROFILES[name])


# The named profiles (a deck's or a scenario's `rules: goat`). GOAT format: the 2005 TCG as the
# format is played today (goatformat.com "Rules/Game Mechanics", RULES.md Appendix B): the first
# player draws on turn 1, the Fusion Deck and the Main Deck have no upper limit, one face-up Field
# Spell on the whole field, priority for Ignition Effects, no Extra Monster Zones.
PROFILES: dict[str, dict[str, Any]] = {
    "modern": {},
    "goat": {"format": "goat", "ruleset": "mr3", "deck": {"main_max": None, "extra_max": None},
             "duel": {"first_turn_draw": True}, "field": {"shared_field_spell": True},
             "chain": {"ignition_priority": True}},
}


def _named(value: Any) -> Any:
    """`rules: goat` (a profile's name) or a mapping of switches, optionally on top of a profile
    (`rules: {profile: goat, hand_limit: null}`)."""
    if isinstance(value, str):
        if value not in PROFILES:
            raise ValueError(f"unknown rules profile '{value}': one of {', '.join(PROFILES)}")
        return PROFILES[value]
    if isinstance(value, dict) and "profile" in value:
        base = value["profile"]
        if not isinstance(base, str) or base not in PROFILES:
            raise ValueError(f"unknown rules profile {base!r}: one of {', '.join(PROFILES)}")
        merged = {k: (dict(v) if isinstance(v, dict) else v) for k, v in PROFILES[base].items()}
        for key, item in value.items():
            if key == "profile":
                continue
            if isinstance(item, dict) and isinstance(merged.get(key), dict):
                merged[key] = {**merged[key], **item}
            else:
                merged[key] = item
        return merged
    return value


# a `rules:` field in a data file: a profile's name, or switches (Rules)
RulesField = Annotated[Rules, BeforeValidator(_named)]
