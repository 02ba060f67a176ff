"""The effect vocabulary: how a card's YAML says what it does (docs/cards.md).

Every effect has a kind and up to four parts — condition (`when`, `condition`), `cost`,
`target` and the operation (`do`) — in the style of ocgcore's effects and Forge's verbs.
Everything here is validated when the card file loads, so a typo is a `file:line` error and
never a surprise mid-duel. Nothing here is executed: operations are names looked up in the
engine's registry (ygoterm/engine/ops.py), and the rare card that needs code names a Python
handler registered in the package.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Callable, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from .problems import did_you_mean, is_digits
from .words import Attribute, MonsterType

# ---------------------------------------------------------------------- numbers and filters

_CMP = re.compile(r"^\s*(>=|<=|>|<|=|==)?\s*(\d+)\s*$")


def _range(value: Any) -> Any:
    """4 → {min: 4, max: 4}; '>=1000' → {min: 1000}; '<=4' → {max: 4}; '1-4' → {min: 1, max: 4}."""
    if isinstance(value, bool):
        raise PydanticCustomError("range", "expected a number or a comparison such as '>=1000'", {})
    if isinstance(value, int):
        return {"min": value, "max": value}
    if isinstance(value, str):
        text = value.strip()
        if "-" in text and all(is_digits(p.strip()) for p in text.split("-", 1)):
            lo, hi = (int(p) for p in text.split("-", 1))
            return {"min": lo, "max": hi}
        m = _CMP.match(text)
        if not m:
            raise PydanticCustomError("range", "'{value}' is not a number or a comparison such as '>=1000' or '1-4'", {"value": value})
        op, n = m.group(1) or "=", int(m.group(2))
        return {">=": {"min": n}, ">": {"min": n + 1}, "<=": {"max": n}, "<": {"max": n - 1}}.get(op, {"min": n, "max": n})
    return value


class Range(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    min: int | None = None
    max: int | None = None

    @model_validator(mode="after")
    def _possible(self) -> "Range":
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"this range can never match: {self.min} is more than {self.max}")
        return self

    def __contains__(self, value: int) -> bool:
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)


NumRange = Annotated[Range, BeforeValidator(_range)]


def _one_or_many(value: Any) -> Any:
    return value if isinstance(value, (list, tuple)) else [value]


# pendulum: the Pendulum Zones (R-ZONE-4; the end Spell & Trap Zones unless they are separate, V-06)
Zone = Literal["monster", "spell", "field", "pendulum", "onfield", "hand", "deck", "gy", "banished", "extra"]
Ability = Literal["flip", "spirit", "gemini", "toon", "union"]  # R-CARD-6 (the words on a monster's type line)
Side = Literal["you", "opponent", "any"]


class Filter(BaseModel):
    """One filter language for targets, searches, continuous effects and conditions.

    `side` means controller on the field and owner elsewhere, seen from the effect's controller.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    zone: Annotated[tuple[Zone, ...], BeforeValidator(_one_or_many)] | None = None
    side: Side = "any"
    kind: Annotated[tuple[Literal["monster", "spell", "trap"], ...], BeforeValidator(_one_or_many)] | None = None
    frame: Annotated[tuple[str, ...], BeforeValidator(_one_or_many)] | None = None
    subtype: Annotated[tuple[str, ...], BeforeValidator(_one_or_many)] | None = None
    attribute: Annotated[tuple[Attribute, ...], BeforeValidator(_one_or_many)] | None = None
    type: Annotated[tuple[MonsterType, ...], BeforeValidator(_one_or_many)] | None = None
    not_type: Annotated[tuple[MonsterType, ...], BeforeValidator(_one_or_many)] | None = None
    name: Annotated[tuple[str, ...], BeforeValidator(_one_or_many)] | None = None  # counts treated_as (R-DECK-6)
    level: NumRange | None = None
    atk: NumRange | None = None
    def_: NumRange | None = Field(default=None, alias="def")
    face_up: bool | None = None
    position: Literal["attack", "defense"] | None = None
    tuner: bool | None = None
    not_self: bool = False
    self_: bool = Field(default=False, alias="self")
    event: bool = False  # the card(s) of the event this effect answers
    revivable: bool = False  # may be Special Summoned from the GY/banishment (R-SUMMON-9)
    token: bool | None = None
    summoned_this_turn: bool | None = None  # Summoned this turn in any way (a Flip Summon too; not Set): "the turn it is Summoned"
    declared: bool = False  # its Type/Attribute/name is what this effect declared (Tribe-Infecting Virus)
    battling: bool = False  # in the current battle with this effect's card
    battle_destroyed: bool | None = None  # marked for destruction by the current battle (R-BATTLE-4)
    flip: bool | None = None  # a Flip monster (has a FLIP effect)
    set_or: "Filter | None" = None  # a Set card (its kind unknown), or a face-up one matching this ("target 1 Trap")
    name_has: str | None = None  # its name contains this ("Ancient Gear")
    normal_summonable: bool | None = None  # a monster that can be Normal Summoned/Set (not Extra Deck, not "Special Summon only")
    attacking: bool = False  # the monster declaring the current attack ("target the attacking monster")
    ability: Annotated[tuple[Ability, ...], BeforeValidator(_one_or_many)] | None = None  # "Toon monsters", "Spirit monsters"

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


# ---------------------------------------------------------------------- selections


class Choose(BaseModel):
    """Cards chosen on resolution (no targeting, R-TERM-17)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    where: Filter = Filter()
    count: NumRange = Range(min=1, max=1)
    who: Literal["you", "opponent", "owner"] = "you"  # who chooses
    random: bool = False  # R-TERM-7
    pick: Literal["lowest_atk", "highest_atk", "lowest_def", "highest_def"] | None = None  # only among the lowest/highest (Fissure)
    look: bool = False  # the chooser sees hidden cards to choose from (Confiscation: the opponent's hand)
    among: Literal["chosen"] | None = None  # choose among what this effect chose before (Painful Choice)


class AllOf(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    all: Filter


class ChooseOf(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    choose: Choose


class Copies(BaseModel):
    """Cards with the same name as the selected card(s), in their controller's zones (Chain Destruction)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    of: "Ref" = "target"
    zone: Annotated[tuple[Zone, ...], BeforeValidator(_one_or_many)] = ("hand", "deck")


class CopiesOf(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    copies: Copies


Ref = Literal["self", "target", "targets", "event", "equipped", "bound", "chosen", "chain_card", "attacker", "attack_target", "declared",
              "battling", "defeated", "equips", "others", "affected"]  # others: what was chosen before the last choice, minus it  # defeated: monsters this card destroyed by battle this turn, still in the GY


def _selection(value: Any) -> Any:
    if isinstance(value, str) and value not in Ref.__args__:  # type: ignore[attr-defined]
        raise PydanticCustomError("selection", "'{value}' is not a selection", {"value": value,
                                  "hint": did_you_mean(value, Ref.__args__) or "use self, target, event, {all: FILTER} or {choose: {...}}"})  # type: ignore[attr-defined]
    return value


Copies.model_rebuild()
Selection = Annotated[Union[Ref, AllOf, ChooseOf, CopiesOf], BeforeValidator(_selection)]
Player = Literal["you", "opponent", "each", "owner", "controller", "event_player"]


# ---------------------------------------------------------------------- operations


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _count_or(key: str) -> Callable[[Any], Any]:
    def coerce(value: Any) -> Any:
        if isinstance(value, (int, str)) and not isinstance(value, bool):
            return {key: value}
        return value
    return coerce


_SELECTION_KEYS = ("all", "choose", "copies")


def _what_or(value: Any) -> Any:
    """`destroy: target` is short for `destroy: {what: target}`, and `banish: {choose: …,
    face_down: true}` for `banish: {what: {choose: …}, face_down: true}`."""
    if isinstance(value, str):
        return {"what": value}
    if isinstance(value, dict) and "what" not in value and any(k in value for k in _SELECTION_KEYS):
        return {"what": {k: v for k, v in value.items() if k in _SELECTION_KEYS},
                **{k: v for k, v in value.items() if k not in _SELECTION_KEYS}}
    return value


class Draw(_Op):
    count: int = Field(default=1, ge=1)
    player: Player = "you"
    as_discarded: bool = False  # as many as this effect made that player discard (Card Destruction)


class Discard(_Op):
    count: int = Field(default=1, ge=1)
    player: Player = "you"
    random: bool = False
    whole_hand: bool = False  # the player's whole hand (Card Destruction)
    where: Filter = Filter()
    what: Selection | None = None  # e.g. self (Kuriboh's cost)


class Moves(_Op):
    """destroy / send_to_gy / banish / return_to_hand / return_to_deck / add_to_hand."""

    what: Selection
    face_down: bool = False  # banish face-down (R-ZONE-9)
    position: Literal["top", "bottom", "shuffle"] = "shuffle"  # return_to_deck
    reveal: bool = True  # add_to_hand from the Deck is shown to the opponent
    banish: bool = False  # destroy: "destroy it, and if you do, banish it" — destroyed, then banished, never in the GY


class SpecialSummon(_Op):
    what: Selection
    position: Literal["choose", "attack", "defense", "facedown", "attack_or_facedown"] = "choose"
    controller: Literal["you", "owner"] = "you"
    # Call of the Haunted (true, or "leaves"): when this card leaves the field, destroy the monster, and when
    # the monster is destroyed, destroy this card; "destroyed": only this card's destruction destroys it (Premature Burial)
    bind: Union[bool, Literal["leaves", "destroyed"]] = False
    proper: bool = False  # this is the monster's own required Summon (Elegant Egotist → Harpie Lady Sisters), R-SUMMON-9


class ChangePosition(_Op):
    what: Selection
    to: Literal["attack", "defense", "facedown", "toggle", "face_up"] = "toggle"
    no_flip_effects: bool = False  # monsters flipped face-up do not activate their FLIP effects (Ceasefire)


class _Amount(_Op):
    """An amount of LP: a number, or worked out from cards. field_atk_of: the ATK the card last
    had on the field (Catapult Turtle's Tribute); count_of: how many cards (Emergency
    Provisions); half: half the player's LP (pay_lp/lose_lp)."""

    amount: Union[int, Literal["atk_of", "field_atk_of", "def_of", "level_x100", "count_of", "half"]] = 0
    of: Selection | None = None  # whose stat (default: what the effect chose)
    factor: float = 1.0
    per: Filter | None = None  # amount × the number of cards matching (Just Desserts, Gift of The Mystical Elf)


class Damage(_Amount):
    player: Player = "opponent"


class LifeChange(_Amount):
    player: Player = "you"


class Modify(_Op):
    what: Selection
    atk: int = 0
    def_: int = Field(default=0, alias="def")
    set_atk: int | None = None
    times: Literal["roll"] | None = None  # atk/def × the die just rolled (Graceful Dice)
    # opponent_turns / your_turns: through the opponent's (your) next N turns (Harpie Lady 3, Goblin Attack Force);
    # damage_calculation: for the current damage calculation only (Injection Fairy Lily)
    until: Literal["end_of_turn", "while_face_up", "permanent", "opponent_turns", "your_turns", "damage_calculation"] = "end_of_turn"
    turns: int = Field(default=1, ge=1, le=10)
    cannot_attack: bool = False  # restrictions on that monster for as long as the change lasts
    cannot_attack_directly: bool = False
    cannot_change_position: bool = False
    extra_attack: bool = False  # it may attack once more this turn (Black Luster Soldier - Envoy)
    swap_original: bool = False  # its original ATK and DEF are switched (Shield & Sword)
    scale: int = 0  # a Pendulum card's Scale changes by this (× the die with times: roll) …
    scale_limit: int | None = Field(default=None, ge=0, le=13)  # … but not below (a decrease) or above (an increase) this (Mild Turkey: min. 1)
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Negate(_Op):
    what: Literal["activation", "effect", "summon", "attack"] = "activation"
    destroy: bool = False
    end_battle_phase: bool = False  # Negate Attack


class Equip(_Op):
    """Equip `what` (this card, or monsters that become Equip Cards: Relinquished, Sword Hunter) to `to`."""

    what: Selection = "self"
    to: Selection = "target"


class Counters(_Op):
    what: Selection = "self"
    counter: str
    count: int = Field(default=1, ge=1)


class Token(_Op):
    name: str
    count: int = Field(default=1, ge=1, le=5)
    attribute: Attribute = "EARTH"
    type: MonsterType = "Beast"
    level: int = Field(default=1, ge=1, le=12)
    atk: int = 0
    def_: int = Field(default=0, alias="def")
    position: Literal["attack", "defense", "choose"] = "defense"
    player: Literal["you", "opponent"] = "you"
    no_tribute: bool = False  # cannot be Tributed for a Tribute Summon (Sheep Tokens)
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class TakeControl(_Op):
    what: Selection = "target"
    # while_equipped: until this card (an Equip Card) leaves the field (Dark Necrofear)
    until: Literal["end_phase", "permanent", "while_equipped"] = "end_phase"


class Skip(_Op):
    phase: Literal["draw", "standby", "main1", "battle", "main2"] = "battle"
    player: Literal["you", "opponent"] = "opponent"
    count: int = Field(default=1, ge=1, le=5)  # the player's next N such phases (Reckless Greed: 2 Draw Phases)


class Coin(_Op):
    heads: list["OpSpec"] = []
    tails: list["OpSpec"] = []


class Look(_Op):
    count: int = Field(default=1, ge=1)
    player: Player = "you"
    then: Literal["none", "reorder", "shuffle"] = "none"


class Mill(_Op):
    count: int = Field(default=1, ge=1)
    player: Player = "you"


class Declare(_Op):
    what: Literal["type", "attribute", "card", "number", "kind"] = "type"  # kind: Monster, Spell or Trap
    player: Literal["you", "opponent"] = "you"


class Win(_Op):
    player: Literal["you", "opponent"] = "you"
    reason: str = "card effect"


class FusionSummon(_Op):
    where: Filter = Filter()
    materials_from: tuple[Literal["hand", "field"], ...] = ("hand", "field")


class RitualSummon(_Op):
    where: Filter = Filter()
    exact: bool = False  # Levels must equal (not just reach) the Ritual monster's Level
    tribute_from: tuple[Literal["hand", "field"], ...] = ("hand", "field")


class Handler(_Op):
    """A named Python handler registered in the package (never code from the file)."""

    name: str

    @model_validator(mode="after")
    def _known(self) -> "Handler":
        if self.name not in HANDLER_NAMES:
            raise PydanticCustomError("handler", "no handler named '{name}'", {"name": self.name,
                                      "hint": did_you_mean(self.name, HANDLER_NAMES) or "handlers: " + ", ".join(sorted(HANDLER_NAMES))})
        return self


# The names of the Python handlers in ygoterm/engine/handlers.py (the schema cannot import
# the engine; a test checks that both lists agree).
HANDLER_NAMES: frozenset[str] = frozenset()


class NoBattleDamage(_Op):
    player: Literal["you", "opponent", "each"] = "you"


class Shuffle(_Op):
    player: Player = "you"


class Reveal(_Op):
    what: Selection = "target"


class Protect(_Op):
    """Waboku-style protection for the rest of the turn."""

    player: Literal["you", "opponent", "each"] = "you"
    battle_damage: bool = True  # the player takes no battle damage
    battle_destruction: bool = False  # their monsters cannot be destroyed by battle


class Bind(_Op):
    """Link this card with a monster: each leaving the field destroys the other (Shadow Spell)."""

    what: Selection = "target"


class SetCard(_Op):
    """Set a Spell/Trap (e.g. from the hand) into a free zone."""

    what: Selection


class Flag(_Op):
    """A rule change for the rest of the turn: `traps_from_hand` (Makyura), `extra_normal_summon`."""

    player: Literal["you", "opponent"] = "you"


class LockSummons(_Op):
    """For the rest of the turn the player cannot Summon monsters (with `sets`: nor Set them):
    "You cannot Summon other monsters the turn you activate this card" (Scapegoat)."""

    player: Literal["you", "opponent"] = "you"
    sets: bool = False


class ForThisTurn(_Op):
    """Continuous effects that apply until the end of this turn, whatever happens to this card
    (Triangle Ecstasy Spark: "until the end of this turn, your opponent cannot activate Traps")."""

    continuous: list["ContinuousSpec"]


class Later(_Op):
    """A delayed effect: `do` happens during a later Standby or End Phase (R-PRIO: it is then a
    mandatory trigger of this card's controller). Inside `do`, `chosen` is still what this
    effect chose before (Different Dimension Capsule's banished card)."""

    at: Literal["standby_phase", "end_phase"]
    player: Literal["you", "opponent", "any"] = "any"  # whose phase counts
    count: int = Field(default=1, ge=1, le=20)  # the Nth such phase after this one
    needs_self: bool = False  # lost if this card leaves its place first ("destroy this card, and if you do")
    optional: bool = False  # "you can": its controller is asked then
    do: list["OpSpec"]


class Excavate(_Op):
    """Each named player reveals the top `count` cards of their Deck, Special Summons those
    matching `summon` (as many as their free zones allow, they choose which) and adds the rest
    to their hand (Cyber Jar)."""

    count: int = Field(default=5, ge=1, le=10)
    player: Player = "each"
    summon: Filter = Filter()
    position: Literal["choose", "attack", "defense", "facedown", "attack_or_facedown"] = "attack_or_facedown"


class Detach(_Op):
    """Detach Xyz Materials from this card (they go to the GY, R-SUMMON-13)."""

    count: int = Field(default=1, ge=1)


class SwapControl(_Op):
    """Each player chooses 1 monster they control; they switch control of them (Creature Swap)."""

    then: list["OpSpec"] = []  # run on both monsters afterwards (as `chosen`)


class RollDie(_Op):
    """Roll a six-sided die (R-TERM-7: the duel's seeded RNG); `modify: {times: roll}` uses it."""


class Place(_Op):
    """Place cards face-up in your Spell & Trap Zones without activating them (Destiny Board)."""

    what: Selection
    in_order: bool = False  # only the first name of the filter's `name` list you do not control yet


class IfYouDo(_Op):
    """"…, and if you do, …": `then` happens only if the operation before it did what it says
    (destroyed, negated, Special Summoned something …)."""

    then: list["OpSpec"]


class If(_Op):
    """Run `then` only if a condition holds (e.g. "if it was a Spell, …")."""

    condition: "Condition"
    then: list["OpSpec"] = []
    otherwise: list["OpSpec"] = Field(default=[], alias="else")
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


# what may be done on activation (R-CHAIN-5): costs, and `declare` for texts that declare as they
# are activated ("discard 1 card, then declare 1 Type; …": Tribe-Infecting Virus)
COST_OPS = frozenset({"pay_lp", "discard", "send_to_gy", "banish", "destroy", "return_to_hand", "return_to_deck",
                      "remove_counter", "reveal", "detach", "declare"})

# op name → parameter model, and how a short form expands
OPS: dict[str, tuple[type[_Op], Any]] = {
    "draw": (Draw, _count_or("count")),
    "discard": (Discard, lambda v: {"what": v} if v in ("self",) else _count_or("count")(v)),
    "destroy": (Moves, _what_or),
    "send_to_gy": (Moves, _what_or),
    "banish": (Moves, _what_or),
    "return_to_hand": (Moves, _what_or),
    "return_to_deck": (Moves, _what_or),
    "add_to_hand": (Moves, _what_or),
    "special_summon": (SpecialSummon, _what_or),
    "change_position": (ChangePosition, _what_or),
    "damage": (Damage, _count_or("amount")),
    "gain_lp": (LifeChange, _count_or("amount")),
    "pay_lp": (LifeChange, _count_or("amount")),
    "lose_lp": (LifeChange, _count_or("amount")),
    "modify": (Modify, lambda v: v),
    "negate": (Negate, lambda v: {"what": v} if isinstance(v, str) else v),
    "equip": (Equip, lambda v: {"to": v} if isinstance(v, str) or (isinstance(v, dict) and "to" not in v) else v),
    "add_counter": (Counters, lambda v: {"counter": v} if isinstance(v, str) else v),
    "remove_counter": (Counters, lambda v: {"counter": v} if isinstance(v, str) else v),
    "token": (Token, lambda v: v),
    "take_control": (TakeControl, _what_or),
    "skip": (Skip, lambda v: {"phase": v} if isinstance(v, str) else v),
    "coin": (Coin, lambda v: v),
    "look": (Look, _count_or("count")),
    "mill": (Mill, _count_or("count")),
    "declare": (Declare, lambda v: {"what": v} if isinstance(v, str) else v),
    "win": (Win, lambda v: {"player": v} if isinstance(v, str) else v),
    "fusion_summon": (FusionSummon, lambda v: v or {}),
    "ritual_summon": (RitualSummon, lambda v: v or {}),
    "handler": (Handler, lambda v: {"name": v} if isinstance(v, str) else v),
    "no_battle_damage": (NoBattleDamage, lambda v: {"player": v} if isinstance(v, str) else (v or {})),
    "shuffle": (Shuffle, lambda v: {"player": v} if isinstance(v, str) else (v or {})),
    "reveal": (Reveal, _what_or),
    "if": (If, lambda v: v),
    "if_you_do": (IfYouDo, lambda v: {"then": v} if isinstance(v, list) else v),
    "later": (Later, lambda v: v),
    "roll_die": (RollDie, lambda v: v or {}),
    "excavate": (Excavate, _count_or("count")),
    "detach": (Detach, _count_or("count")),
    "swap_control": (SwapControl, lambda v: v or {}),
    "for_this_turn": (ForThisTurn, lambda v: {"continuous": v} if isinstance(v, list) else v),
    "lock_summons": (LockSummons, lambda v: {"player": v} if isinstance(v, str) else (v or {})),
    "place": (Place, _what_or),
    "protect": (Protect, lambda v: {"player": v} if isinstance(v, str) else (v or {})),
    "bind": (Bind, _what_or),
    "set_card": (SetCard, _what_or),
    "traps_from_hand": (Flag, lambda v: {"player": v} if isinstance(v, str) else (v or {})),
    "extra_normal_summon": (Flag, lambda v: {"player": v} if isinstance(v, str) else (v or {})),
}


class OpSpec(BaseModel):
    """One operation: `{destroy: target}` → op='destroy', params=Moves(what='target')."""

    model_config = ConfigDict(frozen=True)
    op: str
    params: Any

    @model_validator(mode="before")
    @classmethod
    def _parse(cls, value: Any) -> Any:
        if isinstance(value, dict) and set(value) == {"op", "params"} and value["op"] in OPS:
            params = value["params"]  # the cached (already expanded) form
            model = OPS[value["op"]][0]
            return {"op": value["op"], "params": params if isinstance(params, model) else model.model_validate(params)}
        if isinstance(value, str):
            value = {value: None}
        if not isinstance(value, dict) or len(value) != 1:
            raise PydanticCustomError("op", "an operation is one 'name: parameters' pair, e.g. '- destroy: target'", {})
        (name, raw), = value.items()
        if name not in OPS:
            raise PydanticCustomError("op", "unknown operation '{name}'", {"name": name,
                                      "hint": did_you_mean(str(name), OPS) or "see docs/cards.md for the operations"})
        model, expand = OPS[name]
        params = model.model_validate(expand(raw) if raw is not None else {})
        return {"op": name, "params": params}


# ---------------------------------------------------------------------- conditions and triggers

EventName = Literal[
    "summoned", "normal_summoned", "flip_summoned", "special_summoned", "summon_declared", "changed_to_defense", "equipped",
    "flipped", "destroyed", "destroyed_by_battle", "destroyed_by_effect", "sent_to_gy", "leaves_field",
    "battle_damage", "attack_declared", "activated", "standby_phase", "end_phase", "battle_phase_end", "drawn", "discarded",
    "damage_calculation", "targeted", "battled",
]


class When(BaseModel):
    """The event an effect answers. `subject` says whose card it is about."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    event: Annotated[tuple[EventName, ...], BeforeValidator(_one_or_many)]
    # whose card the event is about; default: this card for triggers, any card for activations
    subject: Literal["self", "any", "you", "opponent"] | None = None
    # summons: how it was Summoned; sent_to_gy: "tribute" (for a Summon) or "effect_tribute" (as an effect's cost)
    how: Annotated[tuple[Literal["normal", "tribute", "flip", "special", "fusion", "ritual", "synchro", "xyz", "link",
                                 "pendulum", "gemini", "effect_tribute"], ...], BeforeValidator(_one_or_many)] | None = None
    where: Filter | None = None  # the event's card must match
    from_: Annotated[tuple[Zone, ...], BeforeValidator(_one_or_many)] | None = Field(default=None, alias="from")
    # destroys: an activation that would destroy cards (Stardust Dragon)
    activated: Annotated[tuple[Literal["spell", "trap", "monster", "effect", "destroys"], ...], BeforeValidator(_one_or_many)] | None = None
    player: Literal["you", "opponent", "any"] = "any"  # whose turn / who acted / who took damage
    by: Literal["you", "opponent", "any", "self"] = "any"  # destroyed by whose card (effect or battling monster); self: by this card
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


def _when(value: Any) -> Any:
    if isinstance(value, (str, list)):
        return {"event": value}
    return value


class Condition(BaseModel):
    """Extra conditions checked on activation (and for continuous effects, all the time)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    your_turn: bool | None = None
    phase: Annotated[tuple[Literal["draw", "standby", "main1", "battle", "main2", "end", "main", "damage"], ...], BeforeValidator(_one_or_many)] | None = None
    you_control: Filter | None = None  # at least one such card
    you_control_none: Filter | None = None
    opponent_controls: Filter | None = None
    opponent_controls_none: Filter | None = None
    in_your_gy: Filter | None = None
    count: NumRange | None = None  # with one of the filters above: how many must match
    lp_at_most: int | None = None
    lp_at_least: int | None = None
    any: "list[Condition] | None" = None  # at least one of these holds (Ceasefire)
    lp_vs_opponent: Literal["lower", "higher"] | None = None  # your LP compared with the opponent's (Megamorph)
    hand_at_least: int | None = None
    opponent_attacking: bool | None = None  # an opponent's monster is attacking (Kuriboh)
    being_attacked: bool | None = None  # this card is the attack target
    declared_is: Literal["spell", "trap", "monster"] | None = None
    tributes_used: NumRange | None = None  # this card's Tribute Summon took this many Tributes (Gilford)
    attacking: bool | None = None  # this card is the attacking monster (Black Luster Soldier - Envoy)
    equipped_monsters: NumRange | None = None  # how many monster cards are equipped to this card (Relinquished)
    in_battle: bool | None = None  # this card is the attacker or the attack target
    attacked_this_turn: bool | None = None  # this card declared an attack this turn (Goblin Attack Force)
    hand_at_most: int | None = None
    you_summoned_this_turn: bool | None = None  # you Summoned a monster this turn (any kind of Summon)
    you_set_monster_this_turn: bool | None = None  # you Set a monster this turn
    xyz_materials: NumRange | None = None  # how many Xyz Materials this card has (Number 39: Utopia)
    target_is: "Filter | None" = None  # every remaining target matches (Trap Master: "if it is a Trap")
    # this card was Normal Summoned or flipped face-up this turn (a Spirit's End Phase, R-CARD-6)
    normal_summoned_or_flipped_this_turn: bool | None = None


class TargetSpec(BaseModel):
    """Targets chosen on activation (R-TERM-17); re-checked on resolution (R-CHAIN-6)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    where: Filter = Filter()
    count: NumRange = Range(min=1, max=1)
    who: Literal["you", "opponent"] = "you"


class ContinuousSpec(BaseModel):
    """What a continuous effect does while its card is face-up on the field (R-CARD-10)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    applies_to: Union[Literal["self", "equipped", "bound"], Filter] = "self"
    atk: int = 0
    def_: int = Field(default=0, alias="def")
    atk_per: Literal["counter", "gy_monsters", "banished_monsters", "equipped_monsters", "equips"] | None = None  # "gains N for each …"
    per_where: Filter | None = None
    cannot_attack: bool = False
    cannot_change_position: bool = False
    cannot_be_targeted: bool = False
    cannot_be_destroyed_by_battle: bool = False
    cannot_activate: Filter | None = None  # players cannot activate such cards (applies_to: players' side)
    negate_effects: Filter | None = None  # Royal Decree: negate these cards' effects on the field
    piercing: bool = False  # R-BATTLE-12
    force_position: Literal["defense"] | None = None  # monsters in applies_to are changed to it at once (Level Limit - Area B)
    atk_factor: float | None = None  # its ATK becomes its original ATK × this (Megamorph)
    set_atk: int | None = None  # its ATK becomes this (Triangle Ecstasy Spark)
    stats_of_equip: bool = False  # its ATK/DEF become the original ATK/DEF of the monster equipped to it (Relinquished)
    equip_takes_battle_destruction: bool = False  # if it would be destroyed by battle, its equipped monster is instead
    shares_battle_damage: bool = False  # battle damage its controller takes from its battles is also dealt to the opponent
    cannot_be_attacked: bool = False  # the opponent cannot target it for attacks (Marauding Captain)
    cannot_attack_directly: bool = False
    no_battle_damage: bool = False  # its controller takes no battle damage from its battles (Dark Flare Knight)
    negates_spells_targeting: bool = False  # a Spell that targets it has its effect negated and is destroyed (Ryu Senshi)
    wins_match: bool = False  # if its direct attack's damage wins the duel, its controller wins the match (Victory Dragon)
    attacks_in_defense: bool = False  # may attack from face-up Defense Position, using its ATK (Total Defense Shogun)
    direct_attack: bool = False
    extra_attacks: int = 0
    tribute_value: int | None = None  # Kaiser Sea Horse: counts as N Tributes …
    tribute_for: Filter | None = None  # … for a monster matching this
    fewer_tributes: int = Field(default=0, ge=0, le=3)  # monsters in applies_to need this many fewer Tributes (Geartown)
    banish_instead: Filter | None = None  # Dimensional Fissure: such cards going to the GY are banished
    # if a monster it applies to would be destroyed by battle or by a card effect, this card is destroyed instead (a Union)
    destroyed_instead: bool = False
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


# attack_cost: "This card cannot declare an attack unless you …" — its `cost` is paid as the attack is declared
EffectKind = Literal["activate", "ignition", "trigger", "flip", "quick", "continuous", "procedure", "win", "attack_cost"]


class Effect(BaseModel):
    """One effect of a card."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    kind: EffectKind
    label: str | None = None  # how its option reads: "activate Black Luster Soldier (banish)"
    when: Annotated[When, BeforeValidator(_when)] | None = None
    timing: Literal["when", "if"] = "if"  # R-CHAIN-10: "When … you can" can miss the timing
    optional: bool = False  # "you can" (R-TERM-8); activations and ignitions are always optional
    condition: Condition | None = None
    cost: list[OpSpec] = []
    target: TargetSpec | None = None  # chosen on activation
    targets: list[TargetSpec] = []  # … or targets in groups ("2 monsters you control and 1 your opponent controls")
    do: list[OpSpec] = []
    continuous: ContinuousSpec | None = None
    # name: "You can only activate 1 \"X\" per turn"; card: "once per turn, 1 of these effects" (shared by this card's effects);
    # while_here: "Once, while this card is face-up on the field / in your Pendulum Zone" (until the card moves)
    once_per_turn: bool | Literal["name", "card", "while_here"] = False
    # where a monster's effect is used; equip: while it is an Equip Card (a Union's "unequip and Special Summon it")
    from_: Annotated[tuple[Literal["field", "hand", "gy", "equip"], ...], BeforeValidator(_one_or_many)] = Field(default=("field",), alias="from")
    pendulum: bool = False  # a Pendulum Effect: used (and applying) only while the card is in a Pendulum Zone, as a Spell's
    damage_step: bool = False  # may be activated in the Damage Step (R-BATTLE-6)
    stays: bool = False  # a Normal Spell/Trap that remains on the field (Swords of Revealing Light)
    lasts_turns: int | None = Field(default=None, ge=1)  # … destroyed in the End Phase of the opponent's Nth turn
    win_when: Annotated[tuple[str, ...], BeforeValidator(_one_or_many)] | None = None  # Exodia: these names in hand
    win_zone: Literal["hand", "field"] = "hand"  # Destiny Board: these names face-up on your field
    # a trigger whose event only arms it: it activates during the next such phase (Sacred Phoenix)
    at: Literal["standby_phase", "end_phase"] | None = None
    at_player: Literal["you", "opponent", "any"] = "any"  # … of whose turn (Vampire Lord: your next Standby Phase)

    @property
    def target_groups(self) -> tuple[TargetSpec, ...]:
        """The target groups, chosen one after the other (most effects have one)."""
        return (self.target,) if self.target is not None else tuple(self.targets)

    @model_validator(mode="after")
    def _parts_fit_the_kind(self) -> "Effect":
        if self.kind == "continuous" and self.continuous is None:
            raise ValueError("a continuous effect needs 'continuous: {…}' (what it does while face-up)")
        if self.kind != "continuous" and self.continuous is not None:
            raise ValueError("'continuous' belongs to a continuous effect (kind: continuous)")
        if self.kind == "trigger" and self.when is None:
            raise ValueError("a trigger effect needs 'when: EVENT'")
        if self.target is not None and self.targets:
            raise ValueError("use 'target' for one group of targets or 'targets' for several, not both")
        if self.at is not None and self.kind != "trigger":
            raise ValueError("'at' belongs to a trigger effect: its event arms it for the next Standby or End Phase")
        if self.kind == "attack_cost" and not self.cost:
            raise ValueError("an attack_cost effect needs 'cost: [operations]' (what declaring the attack costs)")
        if self.kind == "win" and not self.win_when:
            raise ValueError("a win effect needs 'win_when: [card names]'")
        if self.kind in ("ignition", "trigger", "flip", "quick") and not self.do:
            raise ValueError(f"a {self.kind} effect needs 'do: [operations]'")
        for op in self.cost:
            payer = getattr(op.params, "player", "you")
            if payer not in ("you", "controller"):
                raise ValueError(f"the cost '{op.op}' names player '{payer}': a cost is paid by the player who activates (R-TERM-4)")
            if op.op not in COST_OPS:
                raise ValueError(f"'{op.op}' cannot be a cost; costs are: {', '.join(sorted(COST_OPS))}")
        return self


If.model_rebuild()
IfYouDo.model_rebuild()
Filter.model_rebuild()
Condition.model_rebuild()
Later.model_rebuild()
SwapControl.model_rebuild()
ForThisTurn.model_rebuild()
Coin.model_rebuild()
