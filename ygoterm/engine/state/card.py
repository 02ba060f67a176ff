"""A card in a duel: its definition plus where it is and what happened to it this turn."""

from __future__ import annotations

import weakref
from typing import Any, Callable

from ...schema.cards import Card, Monster, Spell, Trap, spell_speed
from ...schema.effects import ContinuousSpec, Effect
from ..core.decision import Option
from ..core.types import Loc, Pos, SummonKind


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
    "condition": {"normal_summoned_or_flipped_this_turn": True, "spirits_kept": False}, "do": [{"return_to_hand": "self"}]})


def persists_on_field(card: "CardInst") -> bool:
    """A Continuous, Field or Equip Spell, a Continuous Trap or a Pendulum card (in its Pendulum
    Zone): it stays on the field once activated and applies only while it is there."""
    data = card.data
    return card.is_pendulum or (isinstance(data, Spell) and data.subtype in ("continuous", "field", "equip")) \
        or (isinstance(data, Trap) and data.subtype == "continuous")


def leaves_after_resolving(card: "CardInst") -> bool:
    """R-CHAIN-7: a resolved card activation goes to the GY unless the card persists or says it stays;
    until then it only waits on the field (it cannot be returned to the hand or Deck: Giant Trunade)."""
    return not persists_on_field(card) and not any(e.stays for e in card.effects)


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
    if effect.condition is None or not effect.condition.phase:
        return False
    return not {"main", "main1", "main2"} & set(effect.condition.phase)


FLAGS = frozenset(name for name, info in ContinuousSpec.model_fields.items() if info.annotation in (bool, "bool", bool | None))


def spec_flags(spec: ContinuousSpec | None) -> frozenset[str]:
    """The flags a continuous effect sets, with "cannot_activate" when it forbids activations:
    a duel keeps those its cards may ever set (`CardIndex.flags`), so `has_flag` and
    `activation_forbidden` answer at once for everything else."""
    if spec is None:
        return frozenset()
    found = _SPEC_FLAGS.get(id(spec))
    if found is None or found[0] is not spec:
        flags = {name for name in FLAGS if getattr(spec, name)}
        if spec.cannot_activate is not None:
            flags.add("cannot_activate")
        for name in ("cannot_summon", "banish_instead", "negates_battle_victims", "cannot_be_destroyed_by_battle_with",
                     "indestructible_unless_targeted", "indestructible_if_targeted", "negates_targeting_on_roll", "destroyed_instead", "attack_only",
                     "no_battle_damage_involving", "destroyed_unless", "cannot_be_destroyed_by", "untargetable_by", "shows_hands",
                     "field_treated_as", "negates_battle_destroyed", "opponent_hand_limit", "destroys_flip_summoned", "destroys_drawn",
                     "battle_damage_becomes", "forbids_use", "multiply_atk", "gain_before_battle_damage",
                     "direct_damage_becomes", "normal_summons_after_self", "destroys_on_leaving",
                     "level_change", "set_type", "set_attribute", "gains_attack_target_atk", "summon_only", "opponent_pays_too",
                     "hand_play_lp_cost"):  # (keys with a value, not a bool — or either)
            if getattr(spec, name):
                flags.add(name)
        found = _SPEC_FLAGS[id(spec)] = (spec, frozenset(flags))
    return found[1]


_SPEC_FLAGS: dict[int, tuple[ContinuousSpec, frozenset[str]]] = {}


def _activation_places(is_monster: bool, is_trap: bool, effect: Effect) -> frozenset[Loc]:
    """Where a card must be for this effect to be activated at all (chain.activation_refusal
    refuses it anywhere else, R-CARD-5/7/9, R-ZONE-4, R-SUMMON-7): lets option lists skip, say,
    every Spell in the GY without asking the full check. A Trap in the hand counts only with
    "from: hand"; `chain.activation_options` adds the hand on a turn Makyura allows it."""
    if effect.kind == "procedure" and "extra" in effect.from_:
        return frozenset((Loc.EXTRA,))  # a Summon procedure from the Extra Deck (XYZ-Dragon Cannon)
    if effect.kind == "procedure" and "deck" in effect.from_:
        return frozenset((Loc.DECK,))  # … from the Deck (Metalzoa)
    if effect.kind == "procedure" or (effect.kind == "activate" and is_monster and effect.pendulum):
        return frozenset((Loc.HAND,))
    if effect.kind == "activate" and not is_monster:  # (a Trap from the hand only if it says so, or with Makyura: see below)
        return frozenset((Loc.HAND, Loc.SZONE)) if not is_trap or "hand" in effect.from_ else frozenset((Loc.SZONE,))
    if effect.pendulum:
        return frozenset((Loc.SZONE,))
    where = {"field": Loc.MZONE, "hand": Loc.HAND, "gy": Loc.GY, "banished": Loc.BANISHED}
    return frozenset((Loc.SZONE, *(where[f] for f in effect.from_ if f in where)))


def _profile(data: Card) -> tuple[Any, ...]:
    """What a card instance derives from its definition (`PROFILE` order), worked out once per definition."""
    effects = data.effects + rule_effects(data)
    monster = data if isinstance(data, Monster) else None
    is_monster = monster is not None
    # effects a player activates by choice, with their speed (R-CHAIN-2; a Summon procedure
    # counts as speed 1: it is never a response), where the card must be, whether it is the
    # card's own Spell/Trap activation (R-CARD-7/9: from the hand, or Set in a zone), and
    # whether it may be used outside the Main Phase's open game state (speed 2 or more, or a
    # phase of its own: Curse of Fiend)
    chosen = tuple((i, e, speed, _activation_places(is_monster, isinstance(data, Trap), e),
                    e.kind == "activate" and (not is_monster or e.pendulum), speed > 1 or own_timing(e))
                   for i, e in enumerate(effects) if e.kind in CHOSEN_KINDS
                   for speed in (1 if e.kind == "procedure" else effect_speed(data, e),))
    profile = {
        "data": data,
        "name": data.name,
        "is_monster": is_monster,
        "is_spell": isinstance(data, Spell),
        "is_trap": isinstance(data, Trap),
        "base_level": (monster.level or 0) if monster else 0,  # its printed Level (`level`: the current one)
        "base_atk": (0 if monster.atk == "?" else monster.atk) if monster else 0,  # R-TERM-19: '?' counts as 0
        "base_def": (0 if monster.def_ in ("?", None) else monster.def_) if monster else 0,
        # R-SUMMON-9: cannot be Normal Summoned/Set (a condition, or an Extra Deck monster)
        "special_summon_only": monster is not None and monster.needs_proper_summon,
        "is_field_spell": isinstance(data, Spell) and data.subtype == "field",
        "is_link": monster is not None and monster.link is not None,
        "is_token": data.is_token,
        "is_pendulum": monster is not None and monster.is_pendulum,
        "effects": effects,
        "continuous": tuple(e for e in effects if e.kind == "continuous"),
        "triggers": tuple((i, e) for i, e in enumerate(effects) if e.kind in ("trigger", "flip")),
        "attack_costs": tuple(i for i, e in enumerate(effects) if e.kind == "attack_cost"),
        "chosen": chosen,
        "used_from": frozenset().union(*(places for _, _, _, places, _, _ in chosen)),
        "abilities": frozenset(monster.abilities) if monster else frozenset(),
        # may act outside an open game state: a response window, or a phase of its own (Curse of Fiend)
        "responds": any(anytime for *_, anytime in chosen),
    }
    assert tuple(profile) == PROFILE
    return tuple(profile.values())


# what a card instance takes from its definition (`CardInst.define`)
PROFILE = ("data", "name", "is_monster", "is_spell", "is_trap", "base_level", "base_atk", "base_def", "special_summon_only",
           "is_field_spell", "is_link", "is_token", "is_pendulum", "effects", "continuous", "triggers", "attack_costs",
           "chosen", "used_from", "abilities", "responds")

# definition id → (a weak reference to it, its profile); an entry leaves with its definition
_PROFILES: dict[int, tuple[Any, tuple[Any, ...]]] = {}


def profile_of(data: Card) -> tuple[Any, ...]:
    """What a card instance derives from `data` (`_profile`), worked out once per definition."""
    entry = _PROFILES.get(id(data))
    if entry is None or entry[0]() is not data:
        entry = _PROFILES[id(data)] = (weakref.ref(data, _forget(id(data), _PROFILES)), _profile(data))
    return entry[1]


def _forget(key: int, cache: dict[int, Any]) -> Callable[[Any], None]:
    """A weak reference's callback that drops `key` from `cache` (the cache is bound here, not
    looked up at call time: at interpreter exit the module's globals may be gone already)."""
    def drop(_: Any) -> None:
        cache.pop(key, None)
    return drop


class CardInst:
    """One physical card (or Token) of a duel.

    `uid` is a handle that stays with the card for the whole duel; uids are dealt in a seeded
    random order so that a hidden card's uid says nothing about which card it is.

    `__slots__`: reading a slot is about twice as fast as reading an instance dict entry
    (17 vs 33 ns on CPython 3.11), and the engine reads card attributes more than anything
    else; a slotted card is also 40% smaller. A copied duel copies each card with one
    generated function (`copy_card`, 0.5 µs — as fast as `dict.copy()`), and a card given
    another identity (`define`) takes its definition's profile in one assignment.
    """

    __slots__ = (*PROFILE,
                 "uid", "owner", "controller", "loc", "seq", "pos", "face_up", "arrived_turn", "pos_changed_turn", "attacks",
                 "attacked_turn", "attacked_at", "summon_kind", "summon_turn", "properly_summoned", "counters", "materials", "battle_destroyed",
                 "set_turn", "options", "_tagged", "_duel", "active", "modifiers", "equip_target", "equipped_by", "equips", "bound", "binding",
                 "used_turn", "used_duel", "negated_at", "battle_sent_at", "turns_left", "defeated", "tributes_used", "cost_paid", "selected", "no_tribute", "field_atk", "field_def", "field_level", "field_counters", "field_since", "original_controller",
                 "held_by", "control_until", "moves", "arrived_at", "gemini_active", "flipped_turn", "left_flipped", "set_with", "sent_by",
                 "seen_as", "attacked_foes", "summoned_by", "tributed", "battle_wins", "declaration", "fusion_material_at", "battled_with", "left_equipped", "face_up_at",
                 "activation_locked", "lost_monster", "brainwashed_from", "activated_as", "trap_data", "left_zone", "battled_turn", "fused_from", "remembered")

    # from the definition (`PROFILE`)
    data: Card
    name: str
    is_monster: bool
    is_spell: bool
    is_trap: bool
    base_level: int
    base_atk: int
    base_def: int
    special_summon_only: bool
    is_field_spell: bool
    is_link: bool
    is_token: bool
    is_pendulum: bool
    effects: tuple[Effect, ...]
    continuous: tuple[Effect, ...]
    triggers: tuple[tuple[int, Effect], ...]  # (index, effect) of its trigger and FLIP effects
    attack_costs: tuple[int, ...]
    chosen: tuple[tuple[int, Effect, int, frozenset[Loc], bool, bool], ...]  # (index, effect, speed, places, card activation, anytime)
    used_from: frozenset[Loc]
    abilities: frozenset[str]
    responds: bool

    def __init__(self, uid: int, data: Card, owner: int) -> None:
        self.uid = uid
        self.define(data)
        self.owner = owner
        self.controller = owner
        self.loc = Loc.DECK
        self.seq = 0
        self.pos = Pos.FACEDOWN_DEFENSE
        self.face_up = False
        self.arrived_turn = 0  # turn it entered its current location
        self.sent_by: int | None = None  # in the GY: the player whose card effect sent it there, if one did (Fairy Guardian)
        self.pos_changed_turn = 0  # last turn its battle position changed by the player (R-SUMMON-4/5)
        self.attacks = 0  # attacks declared this turn (R-BATTLE-1)
        self.attacked_foes: tuple[tuple[int, int], ...] = ()  # (uid, moves) of the monsters it attacked this turn (Asura Priest)
        # (uid, moves) of the monsters it battled (damage calculation was performed) since it arrived here (The Unhappy Girl)
        self.battled_with: tuple[tuple[int, int], ...] = ()
        self.battled_turn = 0  # the last turn it was involved in damage calculation, since it arrived here (After the Struggle)
        self.attacked_turn = 0  # last turn it declared an attack (R-BATTLE-11)
        self.attacked_at = 0  # the moment (batch) it last declared an attack or its attack ended, on the field (Mirror Wall)
        self.summon_kind: SummonKind = ""  # how it was Summoned; "" when Set or never Summoned
        self.summon_turn = 0
        self.properly_summoned = False  # R-SUMMON-9 / R-TERM-22
        self.counters: dict[str, int] = {}
        self.materials: list[CardInst] = []  # Xyz materials attached (R-ZONE-10)
        self.battle_destroyed = False  # marked at damage calculation (R-BATTLE-4)
        self.battle_sent_at = -1  # its move count when it was destroyed by battle and left the field (Helpoemer: "if this card was destroyed by battle and sent to the Graveyard")
        self.negated_at = -1  # its effects are negated while its move count is this: destroyed by battle with Ancient Gear Beast ("including in the GY") or a Fiend of Dark Ruler Ha Des
        self.set_turn = 0  # turn a Spell/Trap was Set (R-CARD-7/9)
        self._duel: Any = _no_duel  # a weak reference to the Duel (see `duel`)
        self.gemini_active = False  # a Gemini monster Normal Summoned a second time: an Effect Monster (R-CARD-6)
        self.flipped_turn = 0  # the last turn it was flipped face-up (a Spirit returns then)
        self.left_flipped = False  # it had been flipped face-up during its last stay in a Monster Zone (Spear Cretin)
        self.summoned_by = ""  # the name of the card whose effect Special Summoned it when it last arrived on the field
        # (what, word, its moves then): the last declaration its own effect made, while it stays where it was (The Hunter with 7 Weapons)
        self.declaration: tuple[str, str, int] | None = None
        # (uid, moves) of the Fusion Materials of its last Fusion Summon, as they went (De-Fusion)
        self.fused_from: tuple[tuple[int, int], ...] = ()
        self.remembered: tuple[tuple[int, int], ...] = ()  # (uid, moves) its effect's `remember` kept (Different Dimension Gate)
        self.fusion_material_at = -1  # its moves when it last went to the GY as a Fusion Material (R-SUMMON-10: Supply)
        self.active = False  # a face-up Continuous Spell/Trap whose activation has resolved
        self.activated_as: tuple[int, int] | None = None  # (effect index, moves) of its last activation that resolved (7 Completed)
        self.modifiers: list[Any] = []  # continuous.Modifier values from resolved effects
        self.equip_target: CardInst | None = None  # the monster this Equip Card equips (R-CARD-8)
        # the uid of the card whose effect last equipped this card (0: set up so): a Union equipped by another card's effect
        # (Union Rider's) has none of its effects as an Equip Card (`union_equipped_by_other`)
        self.equipped_by = 0
        # (uid, moves) of the monster it was equipped to as it last left the field: the selection `equipped` of its own
        # effect whose cost sent it away (Kiryu: "Tribute this card to allow the equipped monster to attack directly")
        self.left_equipped: tuple[int, int] | None = None
        # (uid, moves, own moves) of the monster whose leaving the field destroyed this Equip Card (R-CARD-8), both as they
        # were then: the filter `equipped_destroyed_by_battle` and the selection `equipped` (Necklace of Command, Nitro Unit)
        self.lost_monster: tuple[int, int, int] | None = None
        self.face_up_at = 0  # the duel's batch (moment) when it last arrived or was flipped face-up (Kotodama: "the new face-up monster")
        self.equips: list[CardInst] = []
        self.bound: CardInst | None = None  # Call of the Haunted and its monster, each pointing at the other
        # on the Spell/Trap of such a pair: when its leaving the field destroys the monster ("leaves":
        # Call of the Haunted; "destroyed": Premature Burial). The monster's destruction destroys it.
        self.binding = ""
        self.used_turn: dict[int, int] = {}  # effect index → turn it was last used (once per turn)
        self.used_duel: set[int] = set()  # effects used once per Duel (never forgotten)
        self.turns_left = 0  # Swords of Revealing Light: opponent's End Phases left
        self.defeated: tuple[tuple[CardInst, int, int], ...] = ()  # (monster, its moves, turn) it destroyed by battle (Sword Hunter)
        self.tributes_used = 0  # Tributes of its last Tribute Summon (Gilford the Lightning)
        self.cost_paid = 0  # cards the cost of its own Summon procedure chose (Megarock Dragon: the Rock monsters banished)
        # the cards its Summon procedure's cost selected (op `select`), each with its arrival on the field (`arrived_at`): a change of
        # control is no removal from the field (Gradius' Option)
        self.selected: tuple[tuple[int, int], ...] = ()
        # (uid, moves) of the monsters Tributed for its last Tribute Summon, kept once it leaves the field and forgotten as
        # it goes to the hand or Deck or arrives otherwise: "the monster … that was used for its Tribute Summon" (Guardian Tryce)
        self.tributed: tuple[tuple[int, int], ...] = ()
        self.battle_wins = 0  # monsters it destroyed by battle since it arrived face-up on the field (Great Dezard)
        self.set_with: int | None = None  # Normal Set face-down with this many Tributes (public: what a face-down monster can be)
        self.seen_as: tuple[Any, Any] = (None, None)  # per viewer: (what its view depends on, the CardView): engine/board/views.py
        self.no_tribute = False  # cannot be Tributed for a Tribute Summon (Sheep Tokens)
        self.field_atk = 0  # the ATK it last had on the field (Catapult Turtle)
        self.field_def = 0  # … and the DEF (Mystik Wok)
        self.field_level = 0  # the Level it had as its last move took it out of a Monster Zone face-up, else 0
        self.left_zone = -1  # the Main Monster Zone it last left, as controller * 10 + zone (Dimensionhole)
        self.field_counters = 0  # the counters it had as it last left the field (Balloon Lizard)
        self.field_since = 0  # the turn it had arrived where it was on the field, as it last left it (Wave-Motion Cannon)
        self.original_controller: int | None = None  # take control "until the End Phase"
        self.brainwashed_from: int | None = None  # its taker, while Remove Brainwashing keeps it on its owner's field
        self.held_by: int | None = None  # uid of the Equip Card whose control this is (Snatch Steal): its unequipping gives it back
        self.control_until = 0
        self.moves = 0  # how often it changed place: targets and triggers check it (R-CHAIN-6/10)
        self.arrived_at = 0  # the duel's move count when it last moved
        self.activation_locked = 0  # a turn in which it cannot be activated, wherever it goes — Set too (Fairy of the Spring)
        self.trap_data: Card | None = None  # a Trap Card Special Summoned as a monster (a Trap Monster): its own definition

    def define(self, data: Card) -> None:
        """Make this card `data`: its name, kind, printed stats and effects. A determinized
        copy of a duel (engine/state/determinize.py) gives a hidden card another identity this way."""
        (self.data, self.name, self.is_monster, self.is_spell, self.is_trap, self.base_level, self.base_atk, self.base_def,
         self.special_summon_only, self.is_field_spell, self.is_link, self.is_token, self.is_pendulum, self.effects,
         self.continuous, self.triggers, self.attack_costs, self.chosen, self.used_from, self.abilities,
         self.responds) = profile_of(data)
        self.options = CardOptions(self)  # its Main Phase options (built when first offered; read at every Main Phase decision)
        self._tagged: dict[str, CardOptions] | None = None

    @property
    def wins(self) -> bool:
        """It says "you win" (R-WIN-3)."""
        return any(e.kind == "win" for e in self.effects)

    @property
    def negates(self) -> bool:
        """A continuous effect of it negates other cards' effects (Royal Decree)."""
        return any(e.continuous is not None and e.continuous.negate_effects is not None for e in self.continuous)

    @property
    def union_equipped_by_other(self) -> bool:
        """A Union monster card equipped by another card's effect (Union Rider): its "while equipped by this card's
        effect" effects do not apply and it cannot unequip itself (R-CARD-6; the rulings of Union Rider)."""
        return "union" in self.abilities and self.equipped_by not in (0, self.uid)

    @property
    def forces_position(self) -> bool:
        """A continuous effect of it keeps monsters in a position (Level Limit - Area B), or
        destroys it in face-up Defense Position (Berserk Gorilla) — a state the rules check at every window and chain end."""
        return getattr(self.data, "only_one", None) is not None or any(  # (and "You can only control 1": Amazoness Tiger)
            e.continuous is not None and (e.continuous.force_position or e.continuous.destroyed_in_defense
                                          or e.continuous.destroyed_unless is not None or e.continuous.destroys_same_names
                                          or e.continuous.one_type_per_player or e.continuous.control_to_owners
                                          or e.continuous.decks_upside_down)  # (and turns the Decks over: Convulsion of Nature)
            for e in self.continuous)

    @property
    def is_extra_deck(self) -> bool:
        return isinstance(self.data, Monster) and self.data.is_extra_deck

    def options_at(self, tag: str) -> "CardOptions":
        """The same options labelled with a location tag ('summon Celtic Guardian@H2'), for
        when another card with the same name offers the same action."""
        if self._tagged is None:
            self._tagged = {}
        found = self._tagged.get(tag)
        if found is None:
            found = self._tagged[tag] = CardOptions(self, "@" + tag)
        return found

    # Current ATK/DEF: printed values changed by effects (engine/board/continuous.py), never below 0.
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
        if not self.modifiers and not self.duel.index.continuous_count:
            return self.base_atk
        value: int = self.duel.stat(self, "atk")  # (the duel applies continuous effects: board/continuous.py)
        return value

    @property
    def defense(self) -> int:
        if not self.modifiers and not self.duel.index.continuous_count:
            return self.base_def
        value: int = self.duel.stat(self, "def")
        return value

    @property
    def level(self) -> int:
        """Its current Level: the printed one changed by resolved effects (Cost Down, Level Conversion Lab) and continuous ones
        (Demotion, A Legendary Ocean), never below 1 — board/continuous.py; 0 for a card without a Level."""
        if not self.modifiers:
            d = self._duel()
            if d is None or "level_change" not in d.index.flags:
                return self.base_level
        value: int = self.duel.level_of(self)
        return value

    @property
    def original_atk(self) -> int:
        """Its original ATK (R-TERM-19): the printed one, or what a resolved effect made it (Amazoness Spellcaster)."""
        for m in reversed(self.modifiers):
            if m.original_atk is not None:
                return int(m.original_atk)
        return self.base_atk

    @property
    def monster(self) -> Monster:
        """The definition, as a monster's (only asked of monster cards: a Spell's has no monster fields)."""
        return self.data  # type: ignore[return-value]

    @property
    def kind(self) -> str:
        """What the card is now: a monster card in a Spell & Trap Zone — a Pendulum card in a
        Pendulum Zone (R-ZONE-4) or an Equip Card (R-CARD-8) — is a Spell."""
        return "spell" if self.is_monster and self.loc == Loc.SZONE else self.data.kind

    @property
    def makes_trap_monster(self) -> bool:
        """A Trap Card that Special Summons itself as a monster (`special_summon` with `as_monster`: Embodiment of Apophis),
        or such a card now a monster: the rules check it at every window (`board/actions.enforce_positions`)."""
        return self.trap_data is not None or (self.is_trap and any(
            op.op == "special_summon" and getattr(op.params, "as_monster", None) is not None for e in self.effects for op in e.do))

    def become_monster(self, monster: Card) -> None:
        """A Trap Card Special Summoned as a monster (Embodiment of Apophis): a monster with those stats until it leaves the
        Monster Zone (`back_to_trap`), and still a Trap Card (the filter `kind: trap` matches it)."""
        self.trap_data = self.data
        self.define(monster)

    def back_to_trap(self) -> None:
        assert self.trap_data is not None
        data, self.trap_data = self.trap_data, None
        self.define(data)

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
        return self.face_up or (self.owner == viewer and self.loc in _OWNER_SEES and self.loc != Loc.HAND) \
            or (self.controller == viewer and (self.loc.on_field or self.loc == Loc.HAND)) \
            or (self.loc == Loc.HAND and self._hand_shown())

    def _hand_shown(self) -> bool:
        """Its owner shows their hand now (Ceremonial Bell: both players; Mind on Air: its controller's opponent)."""
        d = self._duel()
        return d is not None and "shows_hands" in d.index.flags and bool(d.hand_shown(self.controller))

    def reset_for_move(self, on_field: bool = False, summoned: bool = False) -> None:
        """Forget per-location history when the card changes location (a new object, R-TERM-23).
        `on_field`: it moved between zones without leaving the field (a Union equipping itself),
        so its effects' "once per turn" still counts. `summoned`: from the hand to a Monster Zone — a
        Level change made in the hand stays (Cost Down: "even after they are Summoned")."""
        self.attacks = 0
        self.attacked_foes = ()
        self.battled_with = ()
        self.battled_turn = 0
        self.attacked_turn = 0
        self.attacked_at = 0
        self.pos_changed_turn = 0
        self.summon_kind = ""
        self.summon_turn = 0
        self.battle_destroyed = False
        self.set_turn = 0
        if self.counters:
            self.counters = {}  # R-CARD-12
        if self.modifiers:
            self.modifiers = [m for m in self.modifiers if m.level or m.set_level is not None] if summoned else []
        self.active = False
        if not on_field and self.used_turn:
            self.used_turn = {}
        self.turns_left = 0
        self.gemini_active = False
        self.flipped_turn = 0
        self.set_with = None
        if not on_field:
            self.battle_wins = 0

    def __repr__(self) -> str:
        return f"<{self.name}#{self.uid} p{self.owner} {self.loc.name}:{self.seq}>"


def _copier(names: tuple[str, ...]) -> Any:
    """A function copying every slot of a card, generated from the slot names (as dataclasses
    generate `__init__`): about 0.5 µs for sixty slots, where a getattr/setattr loop takes ten
    times as long."""
    body = "".join(f"    new.{name} = card.{name}\n" for name in names)
    namespace: dict[str, Any] = {"CardInst": CardInst}
    exec(f"def copy_card(card):\n    new = object.__new__(CardInst)\n{body}    return new\n", namespace)  # (names are our own slots)
    return namespace["copy_card"]


copy_card = _copier(CardInst.__slots__)
copy_card.__doc__ = "A copy of `card` sharing every value (its containers too: engine/state/copying.py replaces them)."


class CardOptions:
    """The fixed Main Phase options of one card, each built on first use (labels are
    commands: docs/scenarios.md). `suffix` tells apart cards with the same name."""

    __slots__ = ("uid", "name", "_summon", "_set", "_flip", "_to_defense", "_to_attack", "_gemini")

    def __init__(self, card: CardInst, suffix: str = "") -> None:
        self.uid, self.name = card.uid, card.name + suffix
        self._summon: Option | None = None
        self._set: Option | None = None
        self._flip: Option | None = None
        self._to_defense: Option | None = None
        self._to_attack: Option | None = None
        self._gemini: Option | None = None

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
