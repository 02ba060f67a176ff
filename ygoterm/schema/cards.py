"""Card definitions: one pydantic model per card kind, discriminated by `kind`.

Models are frozen values; the engine never mutates a card definition (per-duel state such as
current ATK lives on the engine's card instances).
"""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Any, Literal, Self, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator, model_validator

from .effects import Ability, Condition, Effect, Filter, NumRange
from .materials import Materials
from .vocab import EXTRA_DECK_FRAMES
from .words import Attribute, Frame, LinkArrow, MonsterType, Rarity, Stat

SpellSubtype = Literal["normal", "quick-play", "continuous", "equip", "field", "ritual"]
TrapSubtype = Literal["normal", "continuous", "counter"]


# card → (the card, its version of an era): kept for the life of the card (it holds the card)
_VERSIONS: dict[int, tuple["CardBase", "CardBase"]] = {}


class CardVersion(BaseModel):
    """The card as printed and ruled in another format's era, where its errata changed what it
    does: in a `goat` duel (Rules.format) the card plays with this text and these effects."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    text: str
    # None: only the wording changed and the card's own effects stand; a list (even empty): what
    # the card did in that era, scripted apart (empty: it plays by manual actions in that format)
    effects: tuple[Effect, ...] | None = None
    data_only: bool = False
    note: str = ""  # what the errata changed, and the source


class CardBase(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    id: int = Field(ge=1, le=999_999_999, description="the passcode printed on the card")
    name: Annotated[str, Field(min_length=1, max_length=200)]
    treated_as: str | None = Field(default=None, description="R-DECK-6: the name this card is always treated as")
    # other names it is known by (OCG or anime names): decks and scenarios may name it so
    aka: tuple[Annotated[str, Field(min_length=1, max_length=200)], ...] = ()
    # (the longest printed texts run to some 2,000 characters: 10,000 is a broken file, and a
    # card of megabytes would make its card file too big to load, MAX_CARD_FILE_BYTES)
    text: Annotated[str, Field(max_length=10_000)] = ""
    rarity: Rarity | None = None
    # The effect vocabulary (docs/cards.md); a card without effects is played by hand with
    # manual actions.
    effects: tuple[Effect, ...] = ()
    # The text is fully said by the other fields (treated_as, special_summon_only …): nothing to script.
    data_only: bool = False
    # the 2005 TCG card (GOAT format) where it differs in meaning from today's text
    goat: CardVersion | None = None

    @field_validator("name", "treated_as")
    @classmethod
    def _strip(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = " ".join(value.split())
        if not value:
            raise ValueError("must not be empty")
        return value

    def in_format(self, fmt: str) -> Self:
        """The card as it plays in format `fmt` ("modern" or "goat"): itself, or its version of
        that era (text and effects replaced), made once per card."""
        version = self.goat if fmt == "goat" else None
        if version is None:
            return self
        found = _VERSIONS.get(id(self))
        if found is None or found[0] is not self:
            changes: dict[str, Any] = {"text": version.text}
            if version.effects is not None:  # (None: only the wording changed; the card's effects stand)
                changes.update(effects=version.effects, data_only=version.data_only)
            found = _VERSIONS[id(self)] = (self, self.model_copy(update=changes))
        changed: Self = found[1]  # type: ignore[assignment]  # (stored as CardBase, made from self)
        return changed

    @property
    def deck_name(self) -> str:
        """The name that counts for R-DECK-4/5 (R-DECK-6)."""
        return self.treated_as or self.name

    @property
    def scripted(self) -> bool:
        return bool(self.effects) or self.data_only

    @property
    def has_effect(self) -> bool:
        """Whether the card does anything beyond its stats (Spells, Traps, Effect monsters)."""
        return True

    @property
    def play(self) -> str:
        """How the engine plays it: "scripted" (automatically), "manual" (its text is played
        with manual actions) or "stats" (no effect)."""
        return "scripted" if self.scripted else "manual" if self.has_effect else "stats"

    @property
    def is_extra_deck(self) -> bool:
        return False

    @property
    def is_token(self) -> bool:
        return False


class Tributes(BaseModel):
    """A monster's own Tribute Summon terms (R-SUMMON-2, R-CARD-13): how many Tributes
    (Victory Dragon: 3; Gilford the Lightning: 2 or 3) and which monsters (Lich Lord: DARK)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    count: NumRange | None = None
    where: Filter | None = None
    or_none: bool | None = None  # it may also be Normal Summoned/Set without Tributing (Fusilier Dragon, the Dual-Mode Beast)
    # it may also be Normal Summoned (not Set) without Tributing while this holds for its owner (Swift Gaia the Fierce
    # Knight: "If this is the only card in your hand", {hand_at_most: 1})
    or_none_if: Condition | None = None


class Monster(CardBase):
    kind: Literal["monster"]
    frame: Frame
    attribute: Attribute
    type: MonsterType
    tuner: bool = False
    level: int | None = Field(default=None, ge=1, le=13)
    rank: int | None = Field(default=None, ge=0, le=13)
    link: int | None = Field(default=None, ge=1, le=8, description="Link Rating")
    arrows: tuple[LinkArrow, ...] = ()
    atk: Stat
    def_: Stat | None = Field(default=None, alias="def")
    scale: int | None = Field(default=None, ge=0, le=13, description="Pendulum Scale")
    materials: Materials | None = None
    special_summon_only: bool = Field(default=False, description="'Cannot be Normal Summoned/Set' (R-SUMMON-9)")
    no_special_summon: bool = Field(default=False, description="'Cannot be Special Summoned' (Victory Dragon)")
    # with special_summon_only: its text says nothing more ("This card cannot be Normal Summoned or Set."), so any effect
    # may Special Summon it from anywhere, Summoned before or not — not R-SUMMON-9's "properly Summoned first" (Rare Metal Dragon)
    any_special_summon: bool | None = Field(default=None, description="'Cannot be Normal Summoned or Set' and no Summoning "
                                            "condition besides: revivable without a proper Summon (Rare Metal Dragon)")
    no_special_summon_from: tuple[Literal["gy", "banished", "deck", "hand"], ...] | None = Field(
        default=None, description="'Cannot be Special Summoned from the Graveyard' (Andro Sphinx, Dark Ruler Ha Des: [gy])")
    set_only: bool | None = Field(default=None, description="'Cannot be Normal Summoned (but can be Normal Set)' (Mystic Swordsman LV4)")
    # it can be Normal Summoned (not Set: a Set is no Summon) only while this holds for its owner ("Cannot be Normal
    # Summoned while you control a monster": Cave Dragon's {you_control_none: {zone: monster}})
    normal_summon_if: Condition | None = None
    # it can be Flip Summoned only while this holds for its controller (Terrorking Archfiend: "cannot be Normal Summoned
    # or Flip Summoned unless you have an Archfiend Monster Card on your side of the field"); flipped by an effect, it is
    # no Flip Summon
    flip_summon_if: Condition | None = None
    # "Cannot be Summoned unless you control a face-up …" (the Guardians: Guardian Grarl): a Normal, Flip or Special
    # Summon of it (by an effect or its own procedure) happens only while this holds for the player Summoning it; a Set
    # is no Summon, and an effect may still turn it face-up
    summon_if: Condition | None = None
    # "If this card is Special Summoned from the Graveyard by another card's effect, you must Tribute 1 Dragon-Type monster
    # on your side of the field" (Tyrant Dragon as printed in 2005): the player Special Summoning it Tributes 1 monster they
    # control matching this filter as it is Summoned; without one it is not Summoned, nor `revivable`
    revive_tribute: Filter | None = None
    # "When this card is Normal Summoned successfully, no Trap Cards can be activated" (Creeping Doom Manta): in the
    # window after such a Summon of it, and in the chain started there until it has resolved, no Trap Card is activated
    locks_traps_on_summon: tuple[Literal["normal", "flip"], ...] | None = None
    fusion_substitute: bool | None = Field(default=None, description="'You can substitute this card for any 1 Fusion Material Monster' "
                                                                     "(named in the Fusion's materials; 1 per Fusion Summon): King of the Swamp")
    tributes: Tributes | None = None
    # "The Attribute of this card is also treated as WIND, WATER, FIRE, and EARTH" (Elemental Mistress Doriado, as
    # printed in 2005: wherever it is): Attribute filters and declarations match these too
    also_attributes: tuple[Attribute, ...] | None = None
    # "(This card is always treated as an "Archfiend" card.)" (Shadow Tamer): the filter name_has matches these words too
    also_archetypes: tuple[str, ...] | None = None
    # "You can only control 1 face-up "Gravekeeper's Chief"" (`face_up`) / "You can only control 1 "Amazoness Tiger""
    # (`any`): a Summon of a second one its player would control (face-up, or with `any` a Set too) is refused
    # (R-CARD-13), no effect takes control of one for a player who controls one, and a second one that becomes face-up
    # anyway (flipped by an attack or an effect, taken by Creature Swap) is destroyed at once — the newer one
    only_one: Literal["face_up", "any"] | None = None
    # R-CARD-6 ability keywords on the card's type line ("Flip", "Spirit" …); the engine plays
    # Spirit, Gemini, Toon and Union by these words, and "Flip monster" filters read them
    abilities: tuple[Ability, ...] = ()

    @cached_property
    def frames(self) -> frozenset[str]:
        return frozenset(self.frame.split("+"))

    @property
    def is_extra_deck(self) -> bool:
        return bool(self.frames & EXTRA_DECK_FRAMES)

    @property
    def is_token(self) -> bool:
        return "token" in self.frames

    @property
    def is_normal(self) -> bool:
        """A Normal Monster (R-CARD-3); Tokens are treated as one (R-CARD-11)."""
        return bool(self.frames & {"normal", "token"})

    @property
    def has_effect(self) -> bool:
        return "effect" in self.frames or bool(self.effects)

    @property
    def is_pendulum(self) -> bool:
        return "pendulum" in self.frames

    @property
    def needs_proper_summon(self) -> bool:
        """R-SUMMON-9: must be properly Summoned before it can be revived."""
        return self.special_summon_only or bool(self.frames & (EXTRA_DECK_FRAMES | {"ritual"}))

    @model_validator(mode="after")
    def _consistent(self) -> "Monster":
        frames = self.frames
        problems: list[str] = []
        if "xyz" in frames:
            if self.rank is None:
                problems.append("an Xyz monster needs 'rank' (R-CARD-4)")
            if self.level is not None:
                problems.append("an Xyz monster has a Rank, not a Level: use 'rank' (R-CARD-4)")
        elif "link" in frames:
            if self.link is None:
                problems.append("a Link monster needs 'link' (its Link Rating)")
            elif len(self.arrows) != self.link:
                problems.append(f"Link-{self.link} needs {self.link} arrows, found {len(self.arrows)}")
            if len(set(self.arrows)) != len(self.arrows):
                problems.append("a Link Arrow is listed twice")
            if self.level is not None or self.def_ is not None:
                problems.append("a Link monster has neither Level nor DEF (R-CARD-4)")
        else:
            if self.level is None:
                problems.append("needs 'level' (1-13)")
            if self.rank is not None or self.link is not None:
                problems.append("only Xyz monsters have a rank and only Link monsters a link rating")
        if "link" not in frames and self.def_ is None:
            problems.append("needs 'def' (a number or '?')")
        if "link" not in frames and self.arrows:
            problems.append("only Link monsters have arrows")
        if self.is_pendulum and self.scale is None:
            problems.append("a Pendulum monster needs 'scale'")
        if not self.is_pendulum and self.scale is not None:
            problems.append("only Pendulum monsters have a 'scale'")
        if any(e.kind == "flip" for e in self.effects) and "flip" not in self.abilities:
            problems.append("a monster with a FLIP effect is a Flip monster: add 'abilities: [flip]'")
        if not self.is_pendulum and any(e.pendulum for e in self.effects):
            problems.append("only a Pendulum monster has Pendulum Effects ('pendulum: true')")
        if len(set(self.abilities)) != len(self.abilities):
            problems.append("an ability is listed twice")
        if self.materials is not None and not self.is_extra_deck:
            problems.append("only Fusion, Synchro, Xyz and Link monsters list 'materials'")
        if problems:
            raise ValueError("; ".join(problems))
        return self


class Spell(CardBase):
    kind: Literal["spell"]
    subtype: SpellSubtype = "normal"
    cannot_set: bool = Field(default=False, description="'This card cannot be Set' (only an effect places it)")


class Trap(CardBase):
    kind: Literal["trap"]
    subtype: TrapSubtype = "normal"
    cannot_set: bool = Field(default=False, description="'This card cannot be Set' (Spirit Messages: only Destiny Board places them)")


Card = Annotated[Union[Monster, Spell, Trap], Field(discriminator="kind")]
CARD_KINDS: dict[str, type[CardBase]] = {"monster": Monster, "spell": Spell, "trap": Trap}

card_adapter: TypeAdapter[Card] = TypeAdapter(Card)
card_list_adapter: TypeAdapter[list[Card]] = TypeAdapter(list[Card])
# the passcodes of the rules-test fixtures (tests/cards: Test Zero, TM-A …), which no real card has: left out
# where "every scripted card" means the game's cards (the fuzz's pool decks, the tests' coverage of them)
FIXTURE_PASSCODES = range(99_000_000, 99_001_000)


def spell_speed(card: Spell | Trap) -> int:
    """R-CHAIN-2: the speed of a Spell or Trap card's activation."""
    if isinstance(card, Trap):
        return 3 if card.subtype == "counter" else 2
    return 2 if card.subtype == "quick-play" else 1
