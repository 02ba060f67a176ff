"""What an effect does: the operations of `do:` and `cost:`, their parameters and short forms.

Nothing here is executed: an operation is a name looked up in the engine's registry
(ygoterm/engine/effects/registry.py) with its validated parameters; the rare card that needs code names a
Python handler registered in the package (`HANDLER_NAMES`). Part of the effect vocabulary
(`ygoterm.schema.effects`, docs/cards.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Literal, Union, get_args

from pydantic import BaseModel, ConfigDict, Field, model_serializer, model_validator
from pydantic_core import PydanticCustomError

from ..problems import did_you_mean
from ..words import Attribute, MonsterType
from .conditions import Condition, ContinuousSpec, When
from .filters import Filter, Player, Selection

if TYPE_CHECKING:
    from . import Effect

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


class ThisTurnMoves(_Op):
    """The cards of the effect's player that went this turn the ways `moves` names and match `where` (where they are
    now): "each Dragon-Type monster discarded from your hand and/or Tributed during this turn" (Super Rejuvenation) —
    `discarded`: discarded from their hand (a cost, an effect, not the hand limit); `tributed`: Tributed by them (for a
    Summon, a Ritual Summon or as a cost, R-TERM-3). Read back in this turn's moves: a card counts once for each such move,
    even if it has left the GY since."""

    moves: list[Literal["discarded", "tributed"]] = Field(min_length=1)
    where: Filter = Filter()


class Draw(_Op):
    count: int = Field(default=1, ge=1)
    player: Player = "you"
    as_discarded: bool = False  # as many as this effect made that player discard (Card Destruction)
    as_returned: bool | None = None  # as many of that player's cards as the operation before moved (Reload: the hand put into the Deck)
    more_per: Filter | None = None  # one more card for each card this matches (Dekoichi: each face-up Bokoichi you control)
    # instead of `count`: as many as the player needs to hold this many cards, none if they hold as many already
    # ("your opponent draws cards until his/her hand has 7 cards": Sasuke Samurai #3)
    until_hand: int | None = Field(default=None, ge=1, le=60)
    # instead of `count`: 1 card for each card of the player's moved this turn those ways ("draw 1 card from your Deck for
    # each Dragon-Type monster discarded from your hand and/or Tributed during this turn": Super Rejuvenation); none: no draw
    per_this_turn: ThisTurnMoves | None = None


class Discard(_Op):
    count: int = Field(default=1, ge=1)
    player: Player = "you"
    random: bool = False
    whole_hand: bool = False  # the player's whole hand (Card Destruction)
    where: Filter = Filter()
    what: Selection | None = None  # e.g. self (Kuriboh's cost)
    # count × the cards this matches as it resolves — in a trigger `event: true` counts the cards of its moment ("your
    # opponent must also discard the same number of cards": Forced Requisition, `{zone: gy, event: true}`)
    count_per: Filter | None = None


class Moves(_Op):
    """destroy / send_to_gy / banish / return_to_hand / return_to_deck / add_to_hand / return_to_field."""

    what: Selection
    face_down: bool = False  # banish face-down (R-ZONE-9)
    position: Literal["top", "bottom", "shuffle"] = "shuffle"  # return_to_deck
    reveal: bool = True  # add_to_hand from the Deck is shown to the opponent
    banish: bool = False  # destroy: "destroy it, and if you do, banish it" — destroyed, then banished, never in the GY
    deck_top: bool | None = None  # destroy: "place it on top of the Deck instead of sending it to the GY" (Mystic Swordsman LV6)
    # add_to_hand: "add 1 monster from their hand to your hand" — to the effect's controller's hand, a card they may not own
    # (it goes to its owner's piles once it leaves that hand or the field: Amazoness Chain Master); `opponent`: to the
    # opponent's hand ("add 1 card from each other's hand to their hand": Exchange)
    to: Literal["you", "opponent"] | None = None


class TrapMonster(BaseModel):
    """The monster a Trap Card is Special Summoned as ("Special Summon this card as a Normal Monster (Reptile-Type/EARTH/Level
    4/ATK 1600/DEF 1800). (This card is also still a Trap Card.)": Embodiment of Apophis)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    type: MonsterType
    attribute: Attribute
    level: int = Field(ge=1, le=12)
    atk: int = Field(ge=0)
    def_: int = Field(ge=0, alias="def")


class SpecialSummon(_Op):
    what: Selection
    position: Literal["choose", "attack", "defense", "facedown", "attack_or_facedown"] = "choose"
    controller: Literal["you", "owner"] = "you"
    # Call of the Haunted (true, or "leaves"): when this card leaves the field, destroy the monster, and when
    # the monster is destroyed, destroy this card; "destroyed": only this card's destruction destroys it (Premature Burial)
    # this_leaves: this card leaving the field destroys the monster, the monster leaving does nothing to this card ("When this
    # card is removed from your side of the field, destroy the monster": Ninjitsu Art of Transformation)
    bind: Union[bool, Literal["leaves", "destroyed", "this_leaves"]] = False
    proper: bool = False  # this is the monster's own required Summon (Elegant Egotist → Harpie Lady Sisters), R-SUMMON-9
    # a Trap Card on the field Special Summoned as a Normal Monster with these stats, still a Trap Card too; under the 2005
    # rules its Spell & Trap Zone stays taken while it is a monster (Embodiment of Apophis)
    as_monster: TrapMonster | None = None


class ChangePosition(_Op):
    what: Selection
    # facedown: face-down Defense; facedown_same: face-down in the position it is in (Darkness Approaches, 2005)
    to: Literal["attack", "defense", "facedown", "facedown_same", "toggle", "face_up"] = "toggle"
    no_flip_effects: bool = False  # monsters flipped face-up do not activate their FLIP effects (Ceasefire)


class AmountParams(_Op):
    """An amount of LP: a number, or worked out from cards. field_atk_of: the ATK the card last
    had on the field (Catapult Turtle's Tribute); original_atk_of: its printed ATK (R-TERM-19);
    count_of: how many cards (Emergency Provisions); half: half the player's LP (pay_lp/lose_lp); battle_damage: the
    battle damage the opponent took in the current battle (Fushi No Tori: "an amount equal to the Battle Damage")."""

    # counters_of: the counters on it — off the field, those it had as it left (Balloon Lizard: "the number of counters x 400");
    # battle_damage: what the opponent took in the current battle (Fushi No Tori)
    # lp_difference: the difference between both players' LP (The Agent of Judgment - Saturn: "equal to the difference")
    # lp_paid_last_turn: the LP the effect's controller paid during their last turn before this one (Life Absorbing
    # Machine: "half of the total Life Points you paid during your last turn", with factor 0.5)
    # turns_on_field: how many turns of its controller (its owner once it has left the field) began since the turn it arrived
    # where it is (that one not counted) — for a card that has left the field since, where it was there ("for each of your
    # Standby Phases that have passed since this card was activated": Wave-Motion Cannon, after its cost sent it)
    # multiple (pay_lp only): any multiple of `factor` the player chooses, at least once — the card remembers what was paid
    # while it stays on the field, for the filter atk_at_most_paid ("Activate by paying any multiple of 1000 Life Points":
    # Wall of Revealing Light, `{amount: multiple, factor: 1000}`)
    # paid: what this effect's card paid with `pay_lp: {amount: multiple}` ("Pay LP (in multiples of 100 points) … loses
    # that much ATK and DEF": Bark of Dark Ruler, `atk_by: {amount: paid, factor: -1}`)
    # lp: all the player's LP ("Both players' Life Points become 0": Self-Destruct Button's `lose_lp: {amount: lp, player: each}`)
    # rolled: the die this effect rolled last — the higher roll of a `roll_die: {each_player: true}` ("their opponent's
    # roll x 500": Dice Jar)
    # field_def_of: the DEF it last had on the field (Mystik Wok: "Select either its ATK or DEF" of the Tributed monster)
    # atk_lost: the ATK the `modify` before took from the monsters it changed ("halve the ATK of 1 monster, and if you do,
    # add that lost ATK to the other monster": Riryoku)
    amount: Union[int, Literal["atk_of", "field_atk_of", "original_atk_of", "def_of", "level_x100", "count_of", "half", "counters_of",
                               "battle_damage", "lp_difference", "rolled", "turns_on_field", "lp_paid_last_turn", "atk_lost", "field_def_of", "lp", "multiple", "paid"]] = 0
    of: Selection | None = None  # whose stat (default: what the effect chose)
    factor: float = 1.0
    per: Filter | None = None  # amount × the number of cards matching (Just Desserts, Gift of The Mystical Elf)
    # amount × 2 for each turn of this card's controller begun since it last became face-up on the field, after the first:
    # "This damage begins at 200 and is doubled during each of your following Standby Phases" (Dark Snake Syndrome)
    doubled_each_turn: bool | None = None


class Damage(AmountParams):
    player: Player = "opponent"


class LifeChange(AmountParams):
    player: Player = "you"


class Modify(_Op):
    what: Selection
    atk: int = 0
    def_: int = Field(default=0, alias="def")
    set_atk: int | None = None
    set_def: int | None = None  # its DEF becomes this (Twin-Headed Behemoth)
    # its ATK becomes its current ATK × this, worked out as the effect resolves (halves round up) and kept as the
    # difference, so later changes still add to it: "double (halve) this card's ATK during this turn" (Goddess of Whim: 2 / 0.5);
    # with original: true, its original ATK × this becomes its original ATK ("Halve that monster's original ATK": Adhesion Trap Hole)
    multiply_atk: float | None = Field(default=None, gt=0)
    # atk/def × the die just rolled (Graceful Dice); chosen: × the cards the effect chose — its cost too (Bazoo the Soul-Eater:
    # "banish up to 3 monsters from your GY; this card gains 300 ATK for each"; its cost's Tributes: Gaia Soul); affected: ×
    # how many the operation before moved ("for each card banished by this effect": Chaosrider Gustaph)
    times: Literal["roll", "chosen", "affected"] | None = None
    # opponent_turns / your_turns: through the opponent's (your) next N turns (Harpie Lady 3, Goblin Attack Force);
    # damage_calculation: for the current damage calculation only (Injection Fairy Lily)
    # while_this_face_up: as long as this effect's card stays face-up on the field ("These effects last as long as this card is
    # face-up on the field": Castle of Dark Illusions) — it ends for good once the card leaves or is turned face-down
    # battle_phase: until the End Step of this Battle Phase ("until the End Step": Spirit Ryu)
    until: Literal["end_of_turn", "while_face_up", "permanent", "opponent_turns", "your_turns", "damage_calculation",
                   "while_this_face_up", "battle_phase"] = "end_of_turn"
    turns: int = Field(default=1, ge=1, le=10)
    # with until: while_this_face_up — as long as the first face-up card on the field this filter matches stays face-up
    # there, instead of this effect's card; none there: no change ("As long as this "Castle of Dark Illusions" remains
    # face-up on the field": Pumpking the King of Ghosts)
    while_card: Filter | None = None
    cannot_be_tributed: bool | None = None  # (Mind Control: "it cannot declare an attack or be Tributed")
    # its controller's opponent may Tribute it as if they controlled it — Tribute Summons, Ritual Summons, Tributes as a cost
    # (Soul Exchange: "this turn, you may Tribute that monster as if you controlled it when you Tribute")
    tributable_by_opponent: bool | None = None
    cannot_attack: bool = False  # restrictions on that monster for as long as the change lasts
    cannot_attack_directly: bool = False
    cannot_change_position: bool = False
    extra_attack: bool = False  # it may attack once more this turn (Black Luster Soldier - Envoy)
    # "this turn, only that monster can attack, and it must attack all monsters your opponent controls, once each. The
    # effects of Effect Monsters destroyed by these attacks do not activate and are negated" (Diffusion Wave-Motion): its
    # controller's other monsters cannot attack; it may attack each of the opponent's monsters once and must while it can;
    # the effects of monsters it destroys by battle are negated (as the continuous keys of those names)
    sole_attacker: bool | None = None
    attacks_each_monster: bool | None = None
    must_attack: bool | None = None
    negates_battle_destroyed: bool | None = None
    # the opponent's monsters can only attack it (Taunt) — and must attack it (Staunch Defender), as long as the change lasts
    draws_attacks: bool | None = None
    must_be_attacked: bool | None = None
    # the battle damage the attacking player takes from a battle in which it is the attack target is doubled, for as long as
    # the change lasts ("the Battle Damage inflicted to your opponent is doubled": Cross Counter, until: damage_calculation)
    doubles_damage_to_attacker: bool | None = None
    # declared: its Attribute becomes the one this effect declared (`declare: attribute` before it), for as long as the
    # change lasts ("change the Attribute of this card": Homunculus the Alchemic Being)
    set_attribute: Literal["declared"] | None = None
    # its Type becomes this for as long as the change lasts ("All monsters on your side of the field are treated as
    # Dragon-Type until the End Phase of this turn": D. Tribe — those there as it resolves)
    set_type: MonsterType | None = None
    direct_attack: bool | None = None  # it can attack directly while the change lasts (Jowls of Dark Demise: "it can attack … directly")
    swap_original: bool = False  # its original ATK and DEF are switched (Shield & Sword)
    # its current ATK and DEF are switched, every change made to them included, for as long as the change lasts (Weapon
    # Change: "Switch the ATK and DEF of 1 Warrior-Type or Machine-Type monster")
    swap_current: bool | None = None
    # the change also ends once this effect's card leaves the field or is turned face-down, whatever `until` says (Weapon
    # Change: "When this card is destroyed, the effect is negated")
    ends_with_this: bool | None = None
    # atk/def change its original ATK/DEF, the base that "twice its original ATK" multiplies (Megamorph): "Increase the
    # original ATK and DEF of all face-up Level 2 Normal Monsters … by 1000 points until the End Phase" (Thousand Energy)
    original: bool | None = None
    scale: int = 0  # a Pendulum card's Scale changes by this (× the die with times: roll) …
    scale_limit: int | None = Field(default=None, ge=0, le=13)  # … but not below (a decrease) or above (an increase) this (Mild Turkey: min. 1)
    # its Level changes by this (never below 1) — a monster in the hand too, and the change stays as it is Summoned from
    # the hand ("Downgrade all Monster Cards in your hand by 2 Levels until the End Phase": Cost Down, -2)
    level_change: int | None = None
    # its Level becomes this (rolled: the die this effect rolled — Level Conversion Lab), in the hand too as `level`
    set_level: Union[int, Literal["rolled"], None] = Field(default=None)
    # the original ATK (R-TERM-19) of the two monsters `what` holds are switched; nothing if it no longer holds two
    # ("switch the original ATK of those targets until the end of this turn": Amazoness Spellcaster)
    switch_original_atk: bool | None = None
    # it gains ATK (DEF) equal to an amount worked out as the change is made — an LP amount's forms, `of` a selection named
    # before (chosen, target, first_target …): "gains ATK equal to the ATK of the sent monster" (Gift of the Martyr:
    # {amount: field_atk_of, of: chosen}); "add that lost ATK to the other monster" (Riryoku: {amount: atk_lost});
    # "200 points for each card in your opponent's hand" (Energy Drain: {amount: 200, per: {zone: hand, side: opponent}})
    atk_by: AmountParams | None = None
    def_by: AmountParams | None = None
    # with what: {all: FILTER}: a card that comes to match that filter later this turn gets the same change as it arrives
    # ("reduce the Levels of all monsters in your hand by 2" — those added to the hand afterwards too: Cost Down)
    later_arrivals: bool | None = None
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Negate(_Op):
    what: Literal["activation", "effect", "summon", "attack"] = "activation"
    destroy: bool = False
    end_battle_phase: bool = False  # Negate Attack


class Equip(_Op):
    """Equip `what` (this card, or monsters that become Equip Cards: Relinquished, Sword Hunter) to `to`."""

    what: Selection = "self"
    to: Selection = "target"
    # true: a Union Monster equipped as if by its own equip effect — its effects as an Equip Card apply and it may unequip
    # itself (Formation Union's "Equip 1 Union Monster … to an appropriate monster … as an Equip Spell Card")
    as_union: bool | None = None
    # an Equip Spell already equipped moves even to a monster its own activation could not equip ("equip it with all Equip
    # Cards on the field. If any of those Equip Cards is now equipped to an incorrect target, destroy that Equip Card":
    # Collected Power, then `destroy` of the filter `equip_fits: false`)
    any_monster: bool | None = None


class Counters(_Op):
    what: Selection = "self"
    counter: str
    count: int = Field(default=1, ge=1)
    # on an add_counter to `self`: "(max. N)" — this card never holds more than N of them (Breaker the Magical Warrior: 1)
    max_counters: int | None = Field(default=None, ge=1)
    # remove_counter: "remove any number of …" — the player says how many (at least `count`); the filter atk_at_most_removed
    # reads that number (Blast Magician)
    any_number: bool | None = None
    # on an add_counter: "If it would ever be destroyed, remove the counter instead" — while the card holds such a counter,
    # a destruction of it (by battle or a card effect, not by the rules) removes 1 of them instead (Magic Reflector)
    shield: bool | None = None
    # remove_counter: "Remove 10 Spell Counters on your side of the field" — `count` counters in all from among the cards the
    # selection holds (`{all: …}`), the player choosing the card of each counter unless every one is needed (Mega Ton
    # Magical Cannon); as a cost the cards must hold that many between them
    in_all: bool | None = None
    every: bool | None = None  # remove_counter: every such counter on those cards ("Remove all Spell Counters": Exhausting Spell)


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
    # the Token takes the current Level, Type, Attribute, ATK and DEF of the first face-up monster on the field this
    # selection holds, as it is Summoned (none there: no Token) — "Special Summon 1 "Mirage Token" with the same Level,
    # Type, Attribute, ATK, and DEF as that target" (Physical Double: `copy_of: target`)
    copy_of: Selection | None = None
    # the Token's own effects, which it keeps while it exists (Cobra Jar's Poisonous Snake Token: "When it is destroyed
    # by battle, inflict 500 damage to your opponent"); `Effect` is resolved in the package's __init__
    effects: tuple["Effect", ...] | None = None
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_serializer(mode="wrap")
    def _without_no_effects(self, handler: Any) -> Any:
        """A Token without effects dumps as before the key existed (a save's card digest, engine/state/record.py)."""
        data = handler(self)
        if isinstance(data, dict) and data.get("effects") is None:
            data.pop("effects", None)
        return data


class TakeControl(_Op):
    what: Selection = "target"
    # while_equipped: until this card (an Equip Card) leaves the field (Dark Necrofear);
    # while_face_up: while this card (a monster) stays face-up on the field (the Charmers)
    until: Literal["end_phase", "permanent", "while_equipped", "while_face_up"] = "end_phase"
    # who gains control: the effect's controller, or its opponent ("Control of this card is shifted to your opponent":
    # Mushroom Man #2, with `what: self`)
    taker: Literal["you", "opponent"] | None = None  # (None: you)


class Skip(_Op):
    # `turn`: the player's whole next turn does not happen — the other player takes the next turn too (Gamble's "skip your
    # next turn"); the skipped turn is no turn at all (it counts for no "turns" of any card)
    phase: Literal["draw", "standby", "main1", "battle", "main2", "turn"] = "battle"
    player: Literal["you", "opponent"] = "opponent"
    count: int = Field(default=1, ge=1, le=5)  # the player's next N such phases (Reckless Greed: 2 Draw Phases)
    # the Battle Phase of this turn instead of the next: "You cannot conduct your Battle Phase the turn you activate this card"
    # (Soul Exchange)
    this_turn: bool | None = None


class ExchangeLp(_Op):
    """"exchange your current Life Points with your opponent's current ones" (Reversal Quiz): each player's LP become the
    other's — not damage, not a cost."""


class DiscardDraws(_Op):
    """"Both players see the cards drawn by the effect and discard them all" (Muko): the cards the chain link this one
    answers draws as it resolves are shown to both players and discarded at once, by this effect."""


class RedirectDamage(_Op):
    """"Your opponent takes the damage instead" (Barrel Behind the Door): the damage the effect of the chain link this one
    answers would inflict to this effect's player is inflicted to their opponent instead."""


class ToEndPhase(_Op):
    """"It becomes the End Phase of this turn" (Neko Mane King): the rest of the turn's phases before the End Phase are
    skipped — the Main Phase ends once the chain has resolved, the Battle Phase after the attack in progress, with no
    End Step."""


class BattlePhaseTwice(_Op):
    """"you can perform your Battle Phase twice this turn (or your next turn, if activated during your opponent's turn)"
    (Weather Report): the effect's controller may conduct a second Battle Phase from Main Phase 2 of that turn — after it,
    Main Phase 2 again; each monster may attack again in it (R-BATTLE-1 counts each Battle Phase)."""


class Coin(_Op):
    # "toss a coin and call it" (Time Wizard): heads is a right call, which signals `called_right` about this card
    call: bool | None = None
    heads: list["OpSpec"] = []
    tails: list["OpSpec"] = []
    # several tosses: `heads` runs if at least `heads_at_least` of them (default: all) are heads, else `tails`
    # (Barrel Dragon: "toss a coin 3 times and destroy it if at least 2 of the results are heads"); a later `choose` with
    # `count_heads: true` takes as many cards as showed heads (Gatling Dragon)
    tosses: int | None = Field(default=None, ge=2, le=5)
    heads_at_least: int | None = Field(default=None, ge=1, le=5)

    @model_validator(mode="after")
    def _possible(self) -> "Coin":
        if self.heads_at_least is not None and self.heads_at_least > (self.tosses or 1):
            raise ValueError(f"heads_at_least ({self.heads_at_least}) is more than the coins tossed ({self.tosses or 1})")
        return self


class Look(_Op):
    count: int = Field(default=1, ge=1)
    player: Player = "you"
    then: Literal["none", "reorder", "shuffle"] = "none"


class Mill(_Op):
    count: int = Field(default=1, ge=1)
    player: Player = "you"
    # the top cards are banished instead of sent to the GY ("remove N cards from the top of your Deck from play": Lady
    # Assailant of Flames); face_down: banished face-down
    banish: bool | None = None
    face_down: bool | None = None
    # count × the cards this matches as it resolves ("send a number of cards equal to the number of cards in your
    # opponent's Graveyard from your Deck to your Graveyard": Fiend Comedian, `{zone: gy, side: opponent}`)
    count_per: Filter | None = None


class Declare(_Op):
    what: Literal["type", "attribute", "card", "number", "kind", "level"] = "type"  # kind: Monster, Spell or Trap; level: 1-12, a monster's Level
    player: Literal["you", "opponent"] = "you"
    # count: the player declares that many different words, then `chosen_by` (relative to this effect's player) keeps 1
    # of them — the declaration the effect goes on with ("Select 2 Monster Card Attributes. Your opponent then selects 1
    # of the 2 Attributes": Earthshaker, `{what: attribute, count: 2, chosen_by: opponent}`)
    count: int = Field(default=1, ge=1, le=6)
    chosen_by: Literal["you", "opponent"] = "opponent"
    # only the Types (Attributes) the cards it matches have now, and at least `count` of them for the card to be
    # activated (R-CHAIN-6) — Earthshaker's Attributes "of the face-up monsters on the field" (the OCG ruling, as the
    # reference engine plays it): `among: {zone: monster, face_up: true}`
    among: Filter | None = None
    # with `what: card`: only the names of cards of this kind ("Declare 1 Monster Card name": Dark Designator)
    kind: Literal["monster", "spell", "trap"] | None = None


class Win(_Op):
    player: Literal["you", "opponent"] = "you"
    reason: str = "card effect"


class FusionSummon(_Op):
    where: Filter = Filter()
    materials_from: tuple[Literal["hand", "field"], ...] = ("hand", "field")
    with_self: bool | None = None  # this effect's card is one of the materials ("including this face-up card")
    # the materials are Tributed (R-TERM-3) and nothing is Summoned: the Fusion monster becomes `chosen` for a later
    # special_summon — a cost (the Hex-Sealed Fusions: "Tribute Fusion Material Monsters on the field, including this
    # face-up card; Special Summon 1 corresponding DARK Fusion Monster from your Extra Deck", not a Fusion Summon)
    tribute: bool | None = None
    # where the materials go: the GY (default, R-SUMMON-10) or banished face-up ("by banishing Fusion Materials listed on it
    # from their hand or field": Fusion Gate)
    materials_to: Literal["gy", "banished"] | None = None


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


# The names of the Python handlers in ygoterm/engine/effects/handlers.py (the schema cannot import
# the engine; a test checks that both lists agree).
HANDLER_NAMES: frozenset[str] = frozenset()


class ChangeAttacker(_Op):
    """"That monster attacks instead": the attack in progress goes on with this face-up monster of the attacker's controller
    as the attacker, on the same target (or directly) — changed to Attack Position first if it is in Defense Position; it
    has attacked this turn (Dark Spirit of the Silent; EDOPro's Duel.ChangeAttacker)."""

    what: Selection


class ChangeAttackTarget(_Op):
    """The attack in progress now targets this monster (Dreamsprite: "select another 1 of your Monster Cards and
    designate it as the attack's target, then calculate damage"); in the Damage Step a face-down one is flipped face-up."""

    what: Selection | None = None
    # the attack in progress becomes a direct attack ("make the attack a direct attack instead": Astral Barrier, Toon
    # Defense; "the attacks from your opponent's monsters become direct attacks": Absolute End) — nothing happens if it
    # already is one
    direct: bool | None = None

    @model_validator(mode="after")
    def _one(self) -> "ChangeAttackTarget":
        if (self.what is None) == (not self.direct):
            raise ValueError("change_attack_target takes a monster (`what`) or `direct: true`, not both")
        return self


class Spare(_Op):
    """The cards cannot be destroyed by the effect of the chain link this effect answers ("Monsters you control cannot be
    destroyed by that \"Dark Hole's\" effect": White Hole) — that one activation only."""

    what: Selection


class NoBattleDamage(_Op):
    player: Literal["you", "opponent", "each"] = "you"


class FaceUpInDeck(_Op):
    """"Turn the top card of your opponent's Deck face-up, then your opponent shuffles their Deck" (Grave Lure): the top
    card of that player's Deck is turned face-up there — both players know it, wherever the shuffle puts it — and its
    Deck is shuffled; `when_drawn`: what happens to it at once, no chain, when that player draws it while it is still
    there face-up ("When your opponent draws the face-up card, immediately send it to the Graveyard": send_to_gy)."""

    player: Literal["you", "opponent"] = "opponent"
    # trigger: its drawer's draw of it signals the event `drawn_face_up` about it, for a trigger of the card in the hand
    # (`from: hand`) — Pharaoh's Treasure's "When you draw this card, …"
    when_drawn: Literal["send_to_gy", "trigger"] | None = None
    # self: not the top card — this card itself is put face-up into that player's Deck and that Deck shuffled ("After
    # activation, put this card face-up in your Deck and shuffle it": Pharaoh's Treasure; "Put this card face-up in your
    # opponent's Deck and shuffle it": Parasite Paracide — still its owner's card, which goes home as it leaves that Deck)
    what: Literal["top", "self"] = "top"


class Shuffle(_Op):
    player: Player = "you"
    # true: instead of the player's Deck, the face-down Defense Position monsters in their Main Monster Zones change places at
    # random, so the opponent no longer knows which is where ("rearrange the face-down Defense Position monsters in your
    # Main Monster Zones": Wandering Mummy)
    face_down_monsters: bool | None = None


class Reveal(_Op):
    what: Selection = "target"
    to: Literal["you"] | None = None  # you: shown to the effect's controller only ("look at it": A Man with Wdjat); default both players


class Retarget(_Op):
    """The chain link this effect answers now targets this card instead of its only target ("that Spell now targets the
    new target": Fairy's Hand Mirror) — pick it with a target filtered `retarget_candidate: true`."""

    what: Selection


class Select(_Op):
    """Choose cards and do nothing to them: they become `chosen` ("by selecting 1 face-up \"Gradius\""). In the `cost:` of
    a Summon `procedure`, the Summoned card remembers them as the cards selected for its Summon (Gradius' Option: the
    continuous `stats_of_selected`, the condition `selected_gone`). `remember: true`: this effect's card remembers them while
    it stays on the field, for the filter `selected_by_self` ("The selected Spell or Trap Cards cannot be activated":
    Xing Zhen Hu, a Continuous Trap bound to 2 targets)."""

    what: Selection
    # the cards chosen before stay chosen too: "Select 1 Monster Card and 2 non-Monster Cards from your hand" (Chosen One:
    # two `select`s, the second with `add`)
    add: bool | None = None
    remember: bool | None = None


class Protect(_Op):
    """Waboku-style protection for the rest of the turn."""

    player: Literal["you", "opponent", "each"] = "you"
    battle_damage: bool = True  # the player takes no battle damage
    battle_destruction: bool = False  # their monsters cannot be destroyed by battle
    # the player takes no effect damage: from the opponent's card effects, or from any ("During this turn, any damage you
    # take from your opponent becomes 0": Hallowed Life Barrier, `opponent` with battle_damage)
    effect_damage: Literal["opponent", "any"] | None = None


class Bind(_Op):
    """Link this card with a monster: each leaving the field destroys the other (Shadow Spell)."""

    what: Selection = "target"
    # one way: the card bound leaving the field in any way destroys this card; this card leaving frees it ("When the
    # selected card is removed from the field, destroy this card": Mask of Dispel, bound to a face-up Spell)
    one_way: bool | None = None


class SetCard(_Op):
    """Set a Spell/Trap (e.g. from the hand) into a free zone."""

    what: Selection


class LockActivation(_Op):
    """"That card cannot be activated this turn" (Fairy of the Spring: the Equip Spell it added to the hand) — Set or not."""

    what: Selection = "affected"


class HandLimit(_Op):
    """"During the current Duel, your hand size limit becomes 7" (Hieroglyph Lithograph): that player's hand limit for
    the rest of the duel (R-PHASE-7)."""

    limit: int = Field(ge=1, le=60)
    player: Literal["you", "opponent", "each"] = "you"


class Remember(_Op):
    """This card keeps the cards of `what` in mind, for as long as each of them stays where it is, wherever this card goes:
    the selection `remembered` of its later effects ("When this card is destroyed and sent to the Graveyard: Return those
    banished monsters to the field": Different Dimension Gate)."""

    what: Selection = "affected"


class RevealCompare(_Op):
    """"Each player reveals 1 card from their hand. If one card is higher Level than the other, …" (Ante): each player,
    this effect's player first, chooses 1 card of their hand (`where`), then both are revealed and their Levels compared
    (a non-monster card is Level 0); if one is lower, `lower` runs with `chosen` that card and the player `roll_loser` the
    one who revealed it — on a tie, nothing."""

    where: Filter = Field(default_factory=lambda: Filter(zone=("hand",)))
    lower: list["OpSpec"] = []


class LockZones(_Op):
    """Main Monster Zones an effect makes unusable (R-ZONE-1): no card may be placed there — a Summon, a Set, a
    change of control, a return — and no free-zone count counts them. `count` zones are chosen by this effect's
    controller among the empty Main Monster Zones of `side` (`up_to`: as many or fewer, none too), kept unusable
    while this card stays face-up where it is (Ground Collapse, Ojama King); or, with `of: affected`, the Main
    Monster Zone each card the operation before moved off the field left, while that card stays face-up where it
    went (Dimensionhole: until the banished monster returns); or, with `cap: true`, no zone of the opponent's while
    they control as many monsters as this card's controller, who controls 1 or more — while this card stays face-up
    where it is (Kaiser Colosseum); or, with `field_total: N`, every player of `side` may have no more than N cards on
    their side of the field in all — no Summon, Set, activation from the hand, Token or card an effect places beyond it —
    while this card stays face-up where it is; the cards already there stay (Spatial Collapse: `{field_total: 5, side:
    any}`). A lock of a card on the field waits while that card's effects are negated."""

    count: int = Field(default=1, ge=1, le=5)
    cap: bool = False
    field_total: int | None = Field(default=None, ge=1, le=13)
    up_to: bool = False
    side: Literal["you", "opponent", "any"] = "opponent"
    of: Literal["chosen", "affected"] = "chosen"


class AdvanceTurnCount(_Op):
    """"Move the turn count forward by 1 turn" (Pyro Clock of Destiny): the counts of the cards that count turns on the
    field move forward — the turns left of a Spell/Trap that `lasts_turns` (Swords of Revealing Light: destroyed at once
    if its count is over), and the turns of its controller counted for a face-up Spell/Trap Card since it arrived
    (`your_turns_here`, `turns_on_field`: Cocoon of Evolution, Wave-Motion Cannon). The turn itself goes on."""

    count: int = Field(default=1, ge=1, le=10)


class Flag(_Op):
    """A rule change for the rest of the turn: `traps_from_hand` (Makyura), `extra_normal_summon`, `replace_draw` (the
    player's normal draw of this Draw Phase is not conducted: "instead of conducting your normal draw", Freed the
    Matchless General — in answer to the event `normal_draw`), `reroll_dice` (one time during the rest of the turn, when either
    player rolls a die, the player may have them roll it again; gained once per turn: Dice Re-Roll)."""

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
    # and through the end of the next N turns: "until the end of the End Phase of the next turn" (Sonic Jammer: 1)
    next_turns: int | None = Field(default=None, ge=1, le=10)
    # true: they stop as the End Phase begins ("until the End Phase, Spell and Trap Cards cannot be activated":
    # Sasuke Samurai #2)
    until_end_phase: bool | None = None
    # through the end of the opponent's Nth turn after this one ("until the end of their 3rd turn after this card's
    # activation": Deck Devastation Virus, 3)
    opponent_turns: int | None = Field(default=None, ge=1, le=10)
    # true: for the rest of the Duel ("for the rest of this Duel": Cursed Seal of the Forbidden Spell)
    for_duel: bool | None = None


class Later(_Op):
    """A delayed effect: `do` happens during a later Standby or End Phase (R-PRIO: it is then a
    mandatory trigger of this card's controller). Inside `do`, `chosen` is still what this
    effect chose before (Different Dimension Capsule's banished card)."""

    # normal_draw: in the Draw Phase, before the normal draw (R-PHASE-2: "your opponent discards all cards in their hand
    # during the next Draw Phase, before they draw": Hino-Kagu-Tsuchi); after_damage_calculation: after the damage
    # calculation of the current battle (Reflect Bounder: "If you do, after damage calculation: Destroy this card"); lost if
    # that battle ends without one; battle_phase_end: at the End Step of this Battle Phase (Sword of Dragon's Soul: "is
    # destroyed at the end of the Battle Phase")
    # event: the first event `when` matches for the rest of this turn, lost at its end ("You can only use this card's
    # effect once, and only during this turn. When a monster on your side of the field is sent to your Graveyard, you can
    # Special Summon …": Last Will as printed in 2005)
    at: Literal["standby_phase", "end_phase", "normal_draw", "after_damage_calculation", "battle_phase_end", "event"]
    upon: When | None = None  # for `at: event`: the event, seen from this effect's controller (`subject` default: any)
    player: Literal["you", "opponent", "any"] = "any"  # whose phase counts
    count: int = Field(default=1, ge=1, le=20)  # the Nth such phase after this one
    needs_self: bool = False  # lost if this card leaves its place first ("destroy this card, and if you do")
    optional: bool = False  # "you can": its controller is asked then
    # what `chosen` is inside `do`: what the effect chose (default), or `affected`: what the operation before moved or
    # changed (Castle of Dark Illusions: "each of those Zombie-Type monsters" its FLIP made stronger); attacker: the monster
    # attacking now (Steel Scorpion: "a non-Machine monster attacking this card will be destroyed" turns later)
    remember: Literal["chosen", "affected", "attacker"] | None = None
    # for `at: event`: each such event for the rest of this turn, not only the first ("Each time the selected monster
    # inflicts Battle Damage to your opponent's Life Points this turn": The Secret of the Bandit)
    each_time: bool | None = None
    # for `at: event`: only an event about a remembered card — `chosen`: one `chosen` holds inside `do` (what `remember`
    # names), if it has not moved since ("the selected monster"); `remembered`: one of them wherever it went since ("If you
    # use it, you take 2000 points of damage": Graverobber's Spell, `upon: {event: activated, subject: you}`)
    about: Literal["chosen", "remembered"] | None = None
    # for `at: event`: it waits through its controller's next turn instead of this one ("When you Normal Summon … during
    # your next turn": Dora of Fate)
    during: Literal["your_next_turn"] | None = None
    # true: the remembered cards stay remembered after they move, read where they are (a monster off the field has its
    # printed Level): Dora of Fate's "the Level of the selected monster", kept as EDOPro keeps it from its resolution
    keep_moved: bool | None = None
    do: list["OpSpec"]

    @model_validator(mode="after")
    def _event_needs_when(self) -> "Later":
        if (self.at == "event") != (self.upon is not None):
            raise PydanticCustomError("later_upon", "`upon` goes with `at: event`, and `at: event` needs an `upon`")
        if self.during is not None and self.at != "event":
            raise PydanticCustomError("later_during", "`during` goes with `at: event`")
        if (self.each_time or self.about) and self.at != "event":
            raise PydanticCustomError("later_each_time", "`each_time` and `about` go with `at: event`")
        return self


class RevealUntil(_Op):
    """Reveal cards from the top of a Deck one by one until one matches `until` (Magical
    Merchant, Monster Gate, Reasoning): that card is the effect's `chosen`, the others revealed
    before it are `others`, all still in the Deck for the operations after to move. With no such
    card the whole Deck was revealed: it is shuffled, and `chosen`/`others` are empty."""

    until: Filter
    player: Literal["you", "opponent"] = "you"


class Excavate(_Op):
    """Each named player reveals the top `count` cards of their Deck, Special Summons those
    matching `summon` (as many as their free zones allow, they choose which) and adds the rest
    to their hand (Cyber Jar)."""

    count: int = Field(default=5, ge=1, le=10)
    player: Player = "each"
    summon: Filter = Filter()
    position: Literal["choose", "attack", "defense", "facedown", "attack_or_facedown"] = "attack_or_facedown"
    # instead of `count`: reveal until as many monsters as that player's cards the operation before put into their Main
    # Deck ("until they excavate the same number of monsters they shuffled into their Main Deck": Morphing Jar #2)
    until_monsters: Literal["as_returned"] | None = None
    # where the other revealed cards go (default: the hand; Morphing Jar #2: the GY; deck: they stay, and the Deck is
    # shuffled — Enchanting Fitting Room's "Return all the other picked-up cards to your Deck and the Deck is then shuffled")
    rest: Literal["hand", "gy", "deck"] | None = None


class Detach(_Op):
    """Detach Xyz Materials from this card (they go to the GY, R-SUMMON-13)."""

    count: int = Field(default=1, ge=1)


class SwapControl(_Op):
    """Each player chooses 1 monster they control; they switch control of them (Creature Swap)."""

    then: list["OpSpec"] = []  # run on both monsters afterwards (as `chosen`)
    # self: the effect's controller gives this card (still face-up in its Monster Zone), only the opponent chooses
    # ("Your opponent selects 1 monster they control. Switch control of the selected monster and this card": Dummy Golem)
    give: Literal["self"] | None = None
    # with give: self, the opponent's monster this card is switched with, picked by the effect (its target) rather than by
    # the opponent ("Select 1 monster on your opponent's side of the field and switch control of it with this card":
    # Invader of the Throne, `take: target`); nothing switches if it is no longer on the opponent's field
    take: Literal["target"] | None = None


class RollDie(_Op):
    """Roll a six-sided die (R-TERM-7: the duel's seeded RNG); `modify: {times: roll}` uses it."""

    # roll the die N times and the effect's player keeps 1 result, the one `rolled` reads (Roulette Barrel: "roll a
    # six-sided die twice, choose 1 result")
    keep_one_of: int | None = Field(default=None, ge=2, le=6)
    # "Both players roll a six-sided die … If the rolls are the same, both players roll again": each player rolls (the
    # effect's player first), again while the rolls are the same; `rolled` reads the higher roll and the player `roll_loser`
    # is the one with the lower roll (Dice Jar)
    each_player: bool = False
    # roll again while the die shows one of these ("If the result is 6, roll again": Needle Wall)
    reroll: tuple[int, ...] | None = None


class Place(_Op):
    """Place cards face-up in your Spell & Trap Zones without activating them (Destiny Board)."""

    what: Selection
    in_order: bool = False  # only the first name of the filter's `name` list you do not control yet


class IfYouDo(_Op):
    """"…, and if you do, …": `then` happens only if the operation before it did what it says
    (destroyed, negated, Special Summoned something …)."""

    then: list["OpSpec"]


class Then(_Op):
    """"…, then …": `do` happens only if the operation before it did what it says, and after it,
    as a new moment (R-CHAIN-10: a "When … you can" trigger of the first part misses its timing)."""

    do: list["OpSpec"]


class Choice(BaseModel):
    """One of the effects `one_of` offers: what the player picks by its label, and what it does."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    label: str = Field(min_length=1)
    do: list["OpSpec"]


class OneOf(_Op):
    """"Activate 1 of these effects": the effect's player picks one as it resolves (Don Zaloog)."""

    choices: list[Choice] = Field(min_length=2)
    # who picks: the effect's player, or event_player — the player the event it answers is about ("they can draw 1 more
    # card": the player who activated Pot of Greed, Spirit of the Pot of Greed); opponent: the effect's player's opponent
    # ("your opponent selects and executes 1 of the following effects": Dark Coffin)
    who: Literal["you", "opponent", "event_player"] | None = None


class If(_Op):
    """Run `then` only if a condition holds (e.g. "if it was a Spell, …")."""

    condition: "Condition"
    then: list["OpSpec"] = []
    otherwise: list["OpSpec"] = Field(default=[], alias="else")
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


# what may be done on activation (R-CHAIN-5): costs, and `declare` for texts that declare as they
# are activated ("discard 1 card, then declare 1 Type; …": Tribe-Infecting Virus)
COST_OPS = frozenset({"pay_lp", "discard", "send_to_gy", "banish", "destroy", "return_to_hand", "return_to_deck",
                      "remove_counter", "reveal", "detach", "declare", "select", "mill"})  # mill: "send the top card of your Deck to the GY" (Gravekeeper's Servant)

# the verbs of the vocabulary (docs/cards.md); the engine registers a function for each (engine/effects/verbs/)
OpName = Literal[
    "draw", "discard", "destroy", "send_to_gy", "banish", "return_to_hand", "return_to_deck", "add_to_hand",
    "special_summon", "change_position", "damage", "gain_lp", "pay_lp", "lose_lp", "modify", "negate", "equip",
    "add_counter", "remove_counter", "token", "take_control", "skip", "coin", "look", "mill", "declare", "win",
    "fusion_summon", "ritual_summon", "handler", "no_battle_damage", "shuffle", "reveal", "if", "if_you_do", "then", "later",
    "roll_die", "excavate", "reveal_until", "one_of", "detach", "swap_control", "for_this_turn", "lock_summons", "place", "protect", "bind",
    "set_card", "traps_from_hand", "extra_normal_summon", "replace_draw", "change_attack_target", "change_attacker", "return_to_field", "to_end_phase",
    "select", "hand_limit", "lock_activation", "retarget", "exchange_lp", "discard_draws", "redirect_damage", "advance_turn_count", "spare", "battle_phase_twice", "reroll_dice", "face_up_in_deck", "lock_zones", "reveal_compare", "remember",
]

# op name → parameter model, and how a short form expands
OPS: dict[OpName, tuple[type[_Op], Any]] = {
    "draw": (Draw, _count_or("count")),
    "discard": (Discard, lambda v: {"what": v} if v in ("self",) else _count_or("count")(v)),
    "destroy": (Moves, _what_or),
    "send_to_gy": (Moves, _what_or),
    "banish": (Moves, _what_or),
    "return_to_hand": (Moves, _what_or),
    "return_to_deck": (Moves, _what_or),
    "add_to_hand": (Moves, _what_or),
    "return_to_field": (Moves, _what_or),
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
    "change_attack_target": (ChangeAttackTarget, _what_or),
    "change_attacker": (ChangeAttacker, _what_or),
    "no_battle_damage": (NoBattleDamage, lambda v: {"player": v} if isinstance(v, str) else (v or {})),
    "shuffle": (Shuffle, lambda v: {"player": v} if isinstance(v, str) else (v or {})),
    "reveal": (Reveal, _what_or),
    "select": (Select, _what_or),
    "retarget": (Retarget, _what_or),
    "spare": (Spare, _what_or),
    "if": (If, lambda v: v),
    "one_of": (OneOf, lambda v: {"choices": v} if isinstance(v, list) else v),
    "if_you_do": (IfYouDo, lambda v: {"then": v} if isinstance(v, list) else v),
    "then": (Then, lambda v: {"do": v} if isinstance(v, list) else v),
    "later": (Later, lambda v: v),
    "roll_die": (RollDie, lambda v: v or {}),
    "to_end_phase": (ToEndPhase, lambda v: v or {}),
    "battle_phase_twice": (BattlePhaseTwice, lambda v: v or {}),
    "redirect_damage": (RedirectDamage, lambda v: v or {}),
    "discard_draws": (DiscardDraws, lambda v: v or {}),
    "exchange_lp": (ExchangeLp, lambda v: v or {}),
    "excavate": (Excavate, _count_or("count")),
    "reveal_until": (RevealUntil, lambda v: {"until": v} if isinstance(v, dict) and "until" not in v else v),
    "detach": (Detach, _count_or("count")),
    "swap_control": (SwapControl, lambda v: v or {}),
    "lock_activation": (LockActivation, _what_or),
    "remember": (Remember, _what_or),
    "reveal_compare": (RevealCompare, lambda v: v or {}),
    "lock_zones": (LockZones, lambda v: _count_or("count")(v) if not isinstance(v, dict) else v),
    "hand_limit": (HandLimit, lambda v: {"limit": v} if isinstance(v, int) and not isinstance(v, bool) else v),
    "advance_turn_count": (AdvanceTurnCount, lambda v: {"count": v} if isinstance(v, int) and not isinstance(v, bool) else (v or {})),
    "for_this_turn": (ForThisTurn, lambda v: {"continuous": v} if isinstance(v, list) else v),
    "lock_summons": (LockSummons, lambda v: {"player": v} if isinstance(v, str) else (v or {})),
    "place": (Place, _what_or),
    "protect": (Protect, lambda v: {"player": v} if isinstance(v, str) else (v or {})),
    "bind": (Bind, _what_or),
    "set_card": (SetCard, _what_or),
    "traps_from_hand": (Flag, lambda v: {"player": v} if isinstance(v, str) else (v or {})),
    "extra_normal_summon": (Flag, lambda v: {"player": v} if isinstance(v, str) else (v or {})),
    "replace_draw": (Flag, lambda v: {"player": v} if isinstance(v, str) else (v if isinstance(v, dict) else {})),
    "face_up_in_deck": (FaceUpInDeck, lambda v: {"player": v} if isinstance(v, str) else (v or {})),
    "reroll_dice": (Flag, lambda v: {"player": v} if isinstance(v, str) else (v if isinstance(v, dict) else {})),
}


class OpSpec(BaseModel):
    """One operation: `{destroy: target}` → op='destroy', params=Moves(what='target')."""

    model_config = ConfigDict(frozen=True)
    op: OpName
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

assert set(get_args(OpName)) == set(OPS), "OpName and OPS name the same verbs"
If.model_rebuild()
Choice.model_rebuild()
OneOf.model_rebuild()
IfYouDo.model_rebuild()
Then.model_rebuild()
Later.model_rebuild()
RevealCompare.model_rebuild()
SwapControl.model_rebuild()
ForThisTurn.model_rebuild()
Coin.model_rebuild()


def walk_ops(ops: Iterable[OpSpec] | None) -> Iterator[OpSpec]:
    """Every operation of a list, with those nested in `if`, `if_you_do`, `then`, `later` and the
    choices of `one_of`, in reading order."""
    for spec in ops or ():
        yield spec
        params = spec.params
        for name in ("then", "do", "otherwise", "lower"):
            nested = getattr(params, name, None)
            if isinstance(nested, (list, tuple)):
                yield from walk_ops(nested)
        for choice in getattr(params, "choices", None) or ():
            yield from walk_ops(choice.do)
