"""A card in a duel: its definition plus where it is and what happened to it this turn."""

from __future__ import annotations

import weakref
from typing import Any

from ..schema.cards import Card, Monster, Spell, Trap, spell_speed
from ..schema.effects import Effect
from .decision import Option
from .types import Loc, Pos


def _no_duel() -> None:
    return None


_OWNER_SEES = frozenset((Loc.HAND, Loc.EXTRA, Loc.MZONE, Loc.SZONE, Loc.BANISHED))
CHOSEN_KINDS = frozenset(("activate", "ignition", "quick", "procedure"))

# Effects every card of a kind has by the rules, added to the card's own (R-CARD-6, R-ZONE-4):
# a Pendulum monster may be activated as a Spell into a Pendulum Zone; a Spirit returns to the
# hand in the End Phase of the turn it was Normal Summoned or flipped face-up.
PENDULUM_ACTIVATION = Effect.model_validate({"kind": "activate", "pendulum": True, "label": "Pendulum Zone"})
SPIRIT_RETURN = Effect.model_validate({
    "kind": "trigger", "label": "return to the hand", "when": {"event": "end_phase", "subject": "any"},
    "condition": {"normal_summoned_or_flipped_this_turn": True}, "do": [{"return_to_hand": "self"}]})


def rule_effects(data: Card) -> tuple[Effect, ...]:
    """The effects the rules give this card beyond its own text (see above)."""
    if not isinstance(data, Monster):
        return ()
    extra: tuple[Effect, ...] = ()
    if data.is_pendulum and not any(e.kind == "activate" and e.pendulum for e in data.effects):
        extra += (PENDULUM_ACTIVATION,)
    if "spirit" in data.abilities:
        extra += (SPIRIT_RETURN,)
    return extra


def effect_speed(data: Card, effect: Effect) -> int:
    """R-CHAIN-2: speeds come from the rules, never from the card file."""
    if effect.kind == "activate" and isinstance(data, (Spell, Trap)):
        return spell_speed(data)
    if isinstance(data, Trap):
        return 3 if data.subtype == "counter" else 2
    if isinstance(data, Spell):
        return 2 if data.subtype == "quick-play" else 1
    return 2 if effect.kind == "quick" else 1



def own_timing(effect: Effect) -> bool:
    """A speed 1 effect whose text names a phase other than the Main Phase for it (R-CARD-13:
    Curse of Fiend is activated in your Standby Phase)."""
    phases = effect.condition.phase if effect.condition is not None else None
    return bool(phases) and not {"main", "main1", "main2"} & set(phases or ())


def _activation_places(is_monster: bool, is_trap: bool, effect: Effect) -> frozenset[Loc]:
    """Where a card must be for this effect to be activated at all (chain.activation_refusal
    refuses it anywhere else, R-CARD-5/7/9, R-ZONE-4, R-SUMMON-7): lets option lists skip, say,
    every Spell in the GY without asking the full check. A Trap in the hand counts only with
    "from: hand"; `chain.activation_options` adds the hand on a turn Makyura allows it."""
    if effect.kind == "procedure" or (effect.kind == "activate" and is_monster and effect.pendulum):
        return frozenset((Loc.HAND,))
    if effect.kind == "activate" and not is_monster:  # (a Trap from the hand only if it says so, or with Makyura: see below)
        return frozenset((Loc.HAND, Loc.SZONE)) if not is_trap or "hand" in effect.from_ else frozenset((Loc.SZONE,))
    if effect.pendulum:
        return frozenset((Loc.SZONE,))
    where = {"field": Loc.MZONE, "hand": Loc.HAND, "gy": Loc.GY}
    return frozenset((Loc.SZONE, *(where[f] for f in effect.from_ if f in where)))


def _profile(data: Card) -> dict[str, Any]:
    """What a card instance derives from its definition, worked out once per definition."""
    effects = data.effects + rule_effects(data)
    monster = data if isinstance(data, Monster) else None
    # effects a player activates by choice, with their speed (R-CHAIN-2); a Summon
    # procedure counts as speed 1: it is never a response
    chosen = tuple((i, e, 1 if e.kind == "procedure" else effect_speed(data, e)) for i, e in enumerate(effects) if e.kind in CHOSEN_KINDS)
    places = tuple(_activation_places(monster is not None, isinstance(data, Trap), e) for _, e, _ in chosen)
    continuous = tuple(e for e in effects if e.kind == "continuous")
    return {
        "data": data,
        "name": data.name,
        "is_monster": monster is not None,
        "is_spell": isinstance(data, Spell),
        "is_trap": isinstance(data, Trap),
        "level": (monster.level or 0) if monster else 0,
        "base_atk": (0 if monster.atk == "?" else monster.atk) if monster else 0,  # R-TERM-19: '?' counts as 0
        "base_def": (0 if monster.def_ in ("?", None) else monster.def_) if monster else 0,
        # R-SUMMON-9: cannot be Normal Summoned/Set (a condition, or an Extra Deck monster)
        "special_summon_only": monster is not None and monster.needs_proper_summon,
        "is_field_spell": isinstance(data, Spell) and data.subtype == "field",
        "is_link": monster is not None and monster.link is not None,
        "is_extra_deck": monster is not None and monster.is_extra_deck,
        "is_token": data.is_token,
        "effects": effects,
        "continuous": continuous,
        "negates": any(e.continuous is not None and e.continuous.negate_effects is not None for e in continuous),
        "forces_position": any(e.continuous is not None and e.continuous.force_position for e in continuous),
        "triggers": tuple(e for e in effects if e.kind in ("trigger", "flip")),
        "attack_costs": tuple(i for i, e in enumerate(effects) if e.kind == "attack_cost"),
        "chosen": chosen,
        "activation_places": places,
        "used_from": frozenset().union(*places),
        # its Spell/Trap Card activations (R-CARD-7/9: from the hand, or Set in a Spell & Trap Zone)
        "card_activations": tuple(e.kind == "activate" and (monster is None or e.pendulum) for _, e, _ in chosen),
        "wins": any(e.kind == "win" for e in effects),
        "is_pendulum": monster is not None and monster.is_pendulum,
        "abilities": frozenset(monster.abilities) if monster else frozenset(),
        # may act outside an open game state: a response window, or a phase of its own (Curse of Fiend)
        "responds": any(speed > 1 or own_timing(e) for _, e, speed in chosen),
    }


# definition id → (a weak reference to it, its profile); an entry leaves with its definition
_PROFILES: dict[int, tuple[Any, dict[str, Any]]] = {}


def profile_of(data: Card) -> dict[str, Any]:
    """What a card instance derives from `data` (`_profile`), worked out once per definition."""
    entry = _PROFILES.get(id(data))
    if entry is None or entry[0]() is not data:
        entry = _PROFILES[id(data)] = (weakref.ref(data, lambda _, key=id(data), cache=_PROFILES: cache.pop(key, None)), _profile(data))
    return entry[1]


class CardInst:
    """One physical card (or Token) of a duel.

    `uid` is a handle that stays with the card for the whole duel; uids are dealt in a seeded
    random order so that a hidden card's uid says nothing about which card it is.

    No `__slots__`, and one class for every card: the instance dict holds what the card derives
    from its definition (`profile_of`, shared values worked out once) and what happens to it, so
    a copied duel copies each card with one `dict.copy()` (engine/copying.py) — ten times faster
    than sixty `__slots__` — and a card given another identity takes another profile. (A class
    per definition kept instances smaller, but made every `card.x` in the engine polymorphic for
    CPython's attribute caches: option lists ran 25% slower.)
    """

    data: Card  # the definition, and what the card derives from it (`profile_of`)
    name: str
    is_monster: bool
    is_spell: bool
    is_trap: bool
    level: int
    base_atk: int
    base_def: int
    special_summon_only: bool
    is_field_spell: bool
    is_link: bool
    is_extra_deck: bool
    is_token: bool
    is_pendulum: bool
    effects: tuple[Effect, ...]
    continuous: tuple[Effect, ...]
    triggers: tuple[Effect, ...]
    attack_costs: tuple[int, ...]
    chosen: tuple[tuple[int, Effect, int], ...]
    activation_places: tuple[frozenset[Loc], ...]
    card_activations: tuple[bool, ...]
    used_from: frozenset[Loc]
    abilities: frozenset[str]
    responds: bool
    wins: bool
    negates: bool
    forces_position: bool

    # what happens to it (instance fields, set in __init__)
    uid: int
    owner: int
    controller: int
    loc: Loc
    seq: int
    pos: Pos
    face_up: bool
    counters: dict[str, int]
    materials: list["CardInst"]
    modifiers: list[Any]
    equip_target: "CardInst | None"
    equips: list["CardInst"]
    bound: "CardInst | None"
    used_turn: dict[int, int]
    defeated: list[tuple["CardInst", int, int]]
    original_controller: int | None
    held_by: int | None

    def __init__(self, uid: int, data: Card, owner: int) -> None:
        # every field at once, the definition's profile first: a dict built in one go is sized
        # for them, and a copy is one dict.copy()
        self.__dict__ = {
            **profile_of(data),
            "uid": uid,
            "_options": None,
            "_tagged": None,
            "owner": owner,
            "controller": owner,
            "loc": Loc.DECK,
            "seq": 0,
            "pos": Pos.FACEDOWN_DEFENSE,
            "face_up": False,
            "arrived_turn": 0,  # turn it entered its current location
            "pos_changed_turn": 0,  # last turn its battle position changed by the player (R-SUMMON-4/5)
            "attacks": 0,  # attacks declared this turn (R-BATTLE-1)
            "attacked_turn": 0,  # last turn it declared an attack (R-BATTLE-11)
            "summon_kind": "",  # "normal", "tribute", "flip", "special", "" (Set or not summoned)
            "summon_turn": 0,
            "properly_summoned": False,  # R-SUMMON-9 / R-TERM-22
            "counters": {},
            "materials": [],  # Xyz materials attached (R-ZONE-10)
            "battle_destroyed": False,  # marked at damage calculation (R-BATTLE-4)
            "set_turn": 0,  # turn a Spell/Trap was Set (R-CARD-7/9)
            "_duel": _no_duel,  # a weak reference to the Duel (see `duel`)
            "gemini_active": False,  # a Gemini monster Normal Summoned a second time: an Effect Monster (R-CARD-6)
            "flipped_turn": 0,  # the last turn it was flipped face-up (a Spirit returns then)
            "active": False,  # a face-up Continuous Spell/Trap whose activation has resolved
            "modifiers": [],  # continuous.Modifier values from resolved effects
            "equip_target": None,  # the monster this Equip Card equips (R-CARD-8)
            "equips": [],
            "bound": None,  # Call of the Haunted and its monster, each pointing at the other
            # on the Spell/Trap of such a pair: when its leaving the field destroys the monster ("leaves":
            # Call of the Haunted; "destroyed": Premature Burial). The monster's destruction destroys it.
            "binding": "",
            "used_turn": {},  # effect index → turn it was last used (once per turn)
            "turns_left": 0,  # Swords of Revealing Light: opponent's End Phases left
            "defeated": [],  # (monster, its moves, turn) it destroyed by battle (Sword Hunter)
            "tributes_used": 0,  # Tributes of its last Tribute Summon (Gilford the Lightning)
            "no_tribute": False,  # cannot be Tributed for a Tribute Summon (Sheep Tokens)
            "field_atk": 0,  # the ATK it last had on the field (Catapult Turtle)
            "original_controller": None,  # take control "until the End Phase"
            "held_by": None,  # uid of the Equip Card whose control this is (Snatch Steal): its unequipping gives it back
            "control_until": 0,
            "moves": 0,  # how often it changed place: targets and triggers check it (R-CHAIN-6/10)
            "arrived_at": 0,  # the duel's move count when it last moved
        }

    def define(self, data: Card) -> None:
        """Make this card `data`: its name, kind, printed stats and effects. A determinized
        copy of a duel (engine/determinize.py) gives a hidden card another identity this way."""
        self.__dict__.update(profile_of(data))
        self._options = None
        self._tagged = None

    @property
    def options(self) -> "CardOptions":
        """This card's Main Phase options, built once (they never change for a card)."""
        if self._options is None:
            self._options = CardOptions(self)
        return self._options

    def options_at(self, tag: str) -> "CardOptions":
        """The same options labelled with a location tag ('summon Celtic Guardian@H2'), for
        when another card with the same name offers the same action."""
        if self._tagged is None:
            self._tagged = {}
        found = self._tagged.get(tag)
        if found is None:
            found = self._tagged[tag] = CardOptions(self, "@" + tag)
        return found

    # Current ATK/DEF: printed values changed by effects (engine/continuous.py), never below 0.
    @property
    def duel(self) -> Any:
        """The Duel the card was dealt into (for current ATK/DEF). Held weakly: a strong
        card -> duel reference made every finished duel a reference cycle that only the cyclic
        GC could free, which cost random play a third of its speed (`ygoterm bench`)."""
        return self._duel()

    @duel.setter
    def duel(self, duel: Any) -> None:
        self._duel = weakref.ref(duel)

    @property
    def atk(self) -> int:
        if not self.modifiers and not self.duel.continuous_count:
            return self.base_atk
        return self.duel.stat(self, "atk")  # (the duel applies continuous effects: engine/continuous.py)

    @property
    def defense(self) -> int:
        if not self.modifiers and not self.duel.continuous_count:
            return self.base_def
        return self.duel.stat(self, "def")

    @property
    def monster(self) -> Monster:
        assert isinstance(self.data, Monster)
        return self.data

    @property
    def kind(self) -> str:
        """What the card is now: a monster card in a Spell & Trap Zone — a Pendulum card in a
        Pendulum Zone (R-ZONE-4) or an Equip Card (R-CARD-8) — is a Spell."""
        return "spell" if self.is_monster and self.loc == Loc.SZONE else self.data.kind

    @property
    def in_pendulum_zone(self) -> bool:
        """A Pendulum monster card in its controller's Pendulum Zone (not an Equip Card)."""
        return self.is_pendulum and self.loc == Loc.SZONE and self.equip_target is None

    @property
    def scale(self) -> int:
        """Its Pendulum Scale now (R-SUMMON-14): the printed one, changed by effects within their limits."""
        value = self.monster.scale or 0
        for m in self.modifiers:
            if m.scale:
                value += m.scale
                if m.scale_limit is not None:
                    value = max(value, m.scale_limit) if m.scale < 0 else min(value, m.scale_limit)
        return max(0, value)

    @property
    def treated_as_normal(self) -> bool:
        """A Gemini monster is a Normal Monster on the field and in the GY until it is Normal
        Summoned a second time (R-CARD-6)."""
        return "gemini" in self.abilities and not self.gemini_active and self.loc in (Loc.MZONE, Loc.GY)

    def seen_by(self, viewer: int) -> bool:
        """Whether `viewer` sees this card where it is now (R-TERM-6): face-up cards, and your
        own hand, Extra Deck, banished cards and face-down cards on your field."""
        return self.face_up or (self.owner == viewer and self.loc in _OWNER_SEES) or (self.controller == viewer and self.loc.on_field)

    def reset_for_move(self, on_field: bool = False) -> None:
        """Forget per-location history when the card changes location (a new object, R-TERM-23).
        `on_field`: it moved between zones without leaving the field (a Union equipping itself),
        so its effects' "once per turn" still counts."""
        self.attacks = 0
        self.attacked_turn = 0
        self.pos_changed_turn = 0
        self.summon_kind = ""
        self.summon_turn = 0
        self.battle_destroyed = False
        self.set_turn = 0
        self.counters = {}  # R-CARD-12
        self.modifiers = []
        self.active = False
        if not on_field:
            self.used_turn = {}
        self.turns_left = 0
        self.gemini_active = False
        self.flipped_turn = 0

    def __repr__(self) -> str:
        return f"<{self.name}#{self.uid} p{self.owner} {self.loc.name}:{self.seq}>"


class CardOptions:
    """The fixed Main Phase options of one card, each built on first use (labels are
    commands: docs/scenarios.md). `suffix` tells apart cards with the same name."""

    __slots__ = ("uid", "name", "_summon", "_set", "_flip", "_to_defense", "_to_attack", "_gemini")

    def __init__(self, card: CardInst, suffix: str = "") -> None:
        self.uid, self.name = card.uid, card.name + suffix
        self._summon = self._set = self._flip = self._to_defense = self._to_attack = self._gemini = None

    @property
    def gemini(self) -> Option:
        if self._gemini is None:
            self._gemini = Option(f"gemini:{self.uid}", f"gemini summon {self.name}", self.uid, verb="gemini")
        return self._gemini

    @property
    def summon(self) -> Option:
        if self._summon is None:
            self._summon = Option(f"summon:{self.uid}", f"summon {self.name}", self.uid, verb="summon")
        return self._summon

    @property
    def set(self) -> Option:
        if self._set is None:
            self._set = Option(f"set:{self.uid}", f"set {self.name}", self.uid, verb="set")
        return self._set

    @property
    def flip(self) -> Option:
        if self._flip is None:
            self._flip = Option(f"flip:{self.uid}", f"flip {self.name}", self.uid, verb="flip")
        return self._flip

    @property
    def to_defense(self) -> Option:
        if self._to_defense is None:
            self._to_defense = Option(f"switch:{self.uid}", f"switch {self.name} to defense", self.uid, verb="switch")
        return self._to_defense

    @property
    def to_attack(self) -> Option:
        if self._to_attack is None:
            self._to_attack = Option(f"switch:{self.uid}", f"switch {self.name} to attack", self.uid, verb="switch")
        return self._to_attack
