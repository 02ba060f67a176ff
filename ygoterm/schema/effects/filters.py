"""How an effect names cards: numbers and ranges, the one filter language, and selections.

A `Filter` says which cards (targets, searches, what a continuous effect applies to, what a
condition counts); a `Selection` says which cards an operation acts on: a reference (`self`,
`target`, `event` …), every card matching a filter (`{all: …}`), cards chosen on resolution
(`{choose: …}`) or the copies of a card (`{copies: …}`). Part of the effect vocabulary
(`ygoterm.schema.effects`, docs/cards.md).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from ..problems import did_you_mean, is_digits
from ..words import Attribute, MonsterType

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
    # whose card it is, seen from the effect's controller, wherever it is — a hand may hold a card of the opponent's
    # (Exchange: "add 1 card from each other's hand": the opponent takes one of your own cards, not the one you took)
    owner: Literal["you", "opponent"] | None = None
    # a monster of the current battle whose ATK equals the ATK of the monster it battles ("Monsters on your side of the
    # field cannot be destroyed in a battle if the monsters' ATK are equal": Kishido Spirit)
    atk_equal_battling: bool | None = None
    # the card this effect's card is bound to by its `bind` ("The controller of the Spell Card takes 500 points of damage":
    # Mask of Dispel reads whose it is)
    bound: bool | None = None
    kind: Annotated[tuple[Literal["monster", "spell", "trap"], ...], BeforeValidator(_one_or_many)] | None = None
    frame: Annotated[tuple[str, ...], BeforeValidator(_one_or_many)] | None = None
    # a monster with none of these frames ("All face-up monsters, except for Effect Monsters": Non-Spellcasting Area, `effect`)
    not_frame: Annotated[tuple[str, ...], BeforeValidator(_one_or_many)] | None = None
    subtype: Annotated[tuple[str, ...], BeforeValidator(_one_or_many)] | None = None
    attribute: Annotated[tuple[Attribute, ...], BeforeValidator(_one_or_many)] | None = None
    type: Annotated[tuple[MonsterType, ...], BeforeValidator(_one_or_many)] | None = None
    not_type: Annotated[tuple[MonsterType, ...], BeforeValidator(_one_or_many)] | None = None
    name: Annotated[tuple[str, ...], BeforeValidator(_one_or_many)] | None = None  # counts treated_as (R-DECK-6)
    not_name: Annotated[tuple[str, ...], BeforeValidator(_one_or_many)] | None = None  # "except \"X\"" (Gravekeeper's Cannonholder, Arsenal Summoner)
    level: NumRange | None = None
    # a monster on the field whose Tribute Summon took this many Tributes (Precious Cards from Beyond: ">=2")
    tributes_taken: NumRange | None = None
    atk: NumRange | None = None
    atk_within_lp: bool | None = None  # its ATK is at most its controller's LP (Ring of Destruction)
    # the face-up monster(s) with the highest ATK among the face-up monsters on the field, ties all (Pole Position) — read
    # as if no monster were made unaffected by Spells by such a filter, so Equip Spells count
    highest_atk: bool | None = None
    atk_above_self: bool | None = None  # a monster with higher ATK than this effect's card ("higher ATK than this face-up card": Freed the Brave Wanderer)
    def_: NumRange | None = Field(default=None, alias="def")
    face_up: bool | None = None
    position: Literal["attack", "defense"] | None = None
    tuner: bool | None = None
    not_self: bool = False
    self_: bool = Field(default=False, alias="self")
    event: bool = False  # the card(s) of the event this effect answers
    revivable: bool = False  # may be Special Summoned from the GY/banishment (R-SUMMON-9)
    token: bool | None = None
    # an Equip Card destroyed because the monster it equipped was destroyed by battle (R-CARD-8), neither moved since ("When
    # a monster … equipped with this card is destroyed by battle, and this card is sent to the Graveyard": Necklace of Command)
    equipped_destroyed_by_battle: bool | None = None
    # not on the field, or arrived there after this effect's card did (Prohibition: "Cards already on the field are not
    # affected (including face-down cards)")
    new_since_self: bool | None = None
    summoned_this_turn: bool | None = None  # Summoned this turn in any way (a Flip Summon too; not Set): "the turn it is Summoned"
    special_summoned: bool | None = None  # on the field after a Special Summon (any kind: Fusion, Ritual … too): "Special Summoned monsters" (Jowgen the Spiritualist)
    declared: bool = False  # its Type/Attribute/name is what this effect declared (Tribe-Infecting Virus)
    # its Type/Attribute/name is what this effect's card last declared with its own effect, while that card has not moved
    # since ("declare 1 Type of monster. When battling that Type of monster …": The Hunter with 7 Weapons)
    declared_by_self: bool | None = None
    # in the GY, sent there as a Fusion Material by a Fusion Summon and not moved since (Supply: "Fusion-Material monsters that
    # were sent to the Graveyard as a result of a Fusion Summon")
    fusion_material: bool | None = None
    battling: bool = False  # in the current battle with this effect's card
    # a monster of the current battle whose opponent in it matches this filter ("the monster(s) that battle with these
    # monsters on your side of the field": Kaminote Blow)
    battling_with: "Filter | None" = None
    # `true`: the monster this effect's card was equipped to as that monster left the field, not moved since — "If the
    # equipped monster is destroyed" read by the Equip Card the rules sent to the GY with it (Flint, R-CARD-8)
    was_equipped: bool | None = None
    # `true`: a monster on the field that declared an attack this turn ("1 monster that has attacked this turn": Combination Attack)
    has_attacked: bool | None = None
    # `target` (`chosen`, `event`): an Equip Card equipped to that card ("Change the Union Monster back to a monster":
    # Combination Attack, the Union equipped to its target)
    equipped_to: Literal["target", "chosen", "event"] | None = None
    battle_destroyed: bool | None = None  # marked for destruction by the current battle (R-BATTLE-4)
    # destroyed by battle this turn and still where that sent it ("your monsters destroyed in battle during this turn": Crimson Sentry)
    battle_destroyed_this_turn: bool | None = None
    # off the field, destroyed by battle (any turn) and not moved since: "If this card was destroyed by battle and sent to
    # the Graveyard" (Helpoemer: `in_your_gy: {self: true, sent_by_battle: true}`)
    sent_by_battle: bool | None = None
    # an Equip Spell whose own activation could equip it to this effect's card (Chopman the Desperate Outlaw, R-CARD-8)
    can_equip_self: bool | None = None
    flip: bool | None = None  # a Flip monster (has a FLIP effect)
    # the attack target of the current battle that was face-down when the Damage Step began (R-BATTLE-5); `false`: a
    # battler that was face-up then (Fox Fire: "was face-up at the start of the Damage Step")
    flipped_by_attack: bool | None = None
    # off the field: it had been flipped face-up during its last stay in a Monster Zone (Spear Cretin: "After this card is
    # flipped, when it is sent to the Graveyard")
    left_flipped: bool | None = None
    # a face-up monster flipped face-up (Flip Summoned, attacked, flipped by an effect) after this effect's card last became
    # face-up, not moved since: "face-up monsters that are flipped face-up after activation of this card" (Judgment of the Desert)
    flipped_after_self: bool | None = None
    # a monster that is attacking, or that declared or conducted an attack after this effect's card last became face-up,
    # not moved since: "Each of your opponent's monsters that conducted an attack while this card was face-up" (Mirror Wall)
    attacked_since_self: bool | None = None
    # in the Main Monster Zone of this number, 1-5 counted from its controller's left — their opponent's right ("Treat your
    # opponent's Main Monster Zones as numbers 1-5, counting from your right": Needle Wall)
    zone_number: int | None = Field(default=None, ge=1, le=5)
    # in the GY, sent there this turn by a card effect of that player (seen from the effect's controller: "sent to your
    # Graveyard by your opponent's card effect during this turn", Fairy Guardian)
    sent_this_turn_by: Literal["you", "opponent"] | None = None
    # the monster this effect's card is equipped to ("each time the equipped monster inflicts Battle Damage": Burning Beast, Freezing Beast)
    equipped: bool | None = None
    # off the field, it left the field as an Equip Card still equipped to a monster — not one destroyed because its monster
    # had left (R-CARD-8), nor one destroyed before its activation resolved: Butterfly Dagger - Elma's "destroyed and sent
    # to the Graveyard while equipped"
    left_equipped: bool | None = None
    # false: an Equip Card equipped to a monster its own activation could not have equipped (an Equip Spell whose `equip`
    # target does not match that monster: Legendary Sword on a non-Warrior, Snatch Steal on its controller's own monster) —
    # "If any of those Equip Cards is now equipped to an incorrect target, destroy that Equip Card" (Collected Power)
    equip_fits: bool | None = None
    equip_card: bool | None = None  # an Equip Card equipped to a monster (an Equip Spell, or a monster card as one: a Union) — Cyber Raider
    # a monster with an Equip Card matching this ("\"Petit Moth\" … equipped with \"Cocoon of Evolution\"": Perfectly Ultimate Great Moth)
    equipped_with: "Filter | None" = None
    # how many of its controller's turns have begun since it arrived where it is (the turn it arrived not counted): "on the
    # 4th of your turns after "Petit Moth" has been equipped with "Cocoon of Evolution"" (Great Moth: ">=4" on the Cocoon)
    your_turns_here: NumRange | None = None
    # a face-up monster on the field whose controller controls this many face-up monsters of its name, itself included
    # ("3 Normal Monsters of the same name … on your side of the field": Delta Attacker, ">=3")
    same_name_count: NumRange | None = None
    # … and on the whole field, both players' face-up monsters of its name ("If there are monsters with the same name on the
    # field, increase the ATK and DEF of all those monsters": Aqua Chorus, ">=2")
    same_name_on_field: NumRange | None = None
    # a face-up monster whose ATK is the highest among the face-up monsters on the field — every one of them when several
    # share it ("destroy the face-up monster(s) with the highest ATK on the field": Bottomless Shifting Sand)
    highest_atk_on_field: bool | None = None
    # the name of a card an effect selected, read once as a `for_this_turn` applies (it becomes `name`): "your opponent cannot
    # activate Spell Cards with that name for the rest of this Duel" (Cursed Seal of the Forbidden Spell: `chain_card`)
    name_of: Literal["chosen", "target", "affected", "event", "chain_card"] | None = None
    # how many turns of this effect's controller have begun since it last became face-up on the field (the turn it did not
    # counted): "until your 4th turn after the card is activated" — a FLIP monster's flip (Pumpking the King of Ghosts'
    # Castle of Dark Illusions: "1-4")
    your_turns_face_up: NumRange | None = None
    equipped_to_self: bool | None = None  # an Equip Card equipped to this effect's card ("equipped to this card": Guardian Ceal)
    set_or: "Filter | None" = None  # a Set card (its kind unknown), or a face-up one matching this ("target 1 Trap")
    # it matches at least one of these filters: "1 Ritual Monster or 1 Ritual Spell Card" (Manju of the Ten Thousand Hands)
    any_of: "tuple[Filter, ...] | None" = None
    name_has: str | None = None  # its name contains this ("Ancient Gear")
    # a card such counters can be put on: its own script puts them on itself ("a face-up card on the field that you can put a
    # Spell Counter on": Apprentice Magician — Skilled Dark Magician, Breaker the Magical Warrior)
    holds_counter: str | None = None
    # how it was Summoned (its last Summon: normal, tribute, flip, special …), with summoned_this_turn: "the turn it is
    # Normal Summoned or Special Summoned" (Andro Sphinx: [normal, tribute, special])
    summoned_how: Annotated[tuple[str, ...], BeforeValidator(_one_or_many)] | None = None
    # the battle position it had when it left the field ("destroys a Defense Position monster": Andro Sphinx's event card)
    left_in_position: Literal["attack", "defense"] | None = None
    has_counter: str | None = None  # it has at least 1 such counter ("remove 1 Spell Counter on your side of the field": Armor Exe)
    # how many counters it has (of the `has_counter` kind, if given): "If the 4th Spell Counter is placed on this card"
    # (Tower of Babel: `{self: true, counter_count: ">=4"}`)
    counter_count: NumRange | None = None
    normal_summonable: bool | None = None  # a monster that can be Normal Summoned/Set (not Extra Deck, not "Special Summon only")
    # the monster declaring the current attack, while it is attacking ("target the attacking monster"); directly: attacking
    # directly ("Destroy any monster that inflicts Battle Damage … by attacking directly": Des Counterblow); into_higher_def:
    # attacking a Defense Position monster whose DEF is higher than its ATK (Destruction Punch)
    attacking: bool | Literal["directly", "into_higher_def"] = False
    # a card the chain link this effect answers (the one below it) could target instead of its target: another legal
    # target of that link's effect ("Target another card that would be an appropriate target": Fairy's Hand Mirror)
    retarget_candidate: bool | None = None
    attacked: bool | None = None  # the monster the current attack targets (Jam Defender's "declares an attack on a monster you control")
    # a monster whose ATK is at most the LP this effect's card was activated by paying (`pay_lp: {amount: multiple}`), while
    # that card stays on the field: "Monsters your opponent controls cannot attack if their ATK is less than or equal to the
    # amount you paid" (Wall of Revealing Light)
    atk_at_most_paid: bool | None = None
    ability: Annotated[tuple[Ability, ...], BeforeValidator(_one_or_many)] | None = None  # "Toon monsters", "Spirit monsters"
    # a monster with the same Level as a card this filter matches (Metamorphosis' Tribute: a Fusion of its Level in your Extra Deck)
    level_matches: "Filter | None" = None
    # a monster with the same Level as a card of this selection of the effect (Metamorphosis: "the Tributed monster");
    # read where the effect selects cards (Ctx.cards), not in conditions
    same_level_as: Literal["chosen", "target", "affected", "event"] | None = None
    # a monster whose Type is none of the Types of the cards of that selection — read where an operation selects cards
    # ("sends monsters … so that he/she only controls 1 Type of monster": Rivalry of Warlords keeps the Type of the
    # monster its player selected, `send_to_gy: {all: {…, other_type_than: chosen}}`)
    other_type_than: Literal["chosen", "target", "affected", "event"] | None = None
    # a card this effect's card remembers (`select: {remember: true}`), still where it was then (Xing Zhen Hu's 2 Set cards)
    selected_by_self: bool | None = None
    # with same_level_as or level_matches: the Level is this many above the other card's instead of the same ("an
    # Insect-Type monster … that is 1 Level higher than the Tributed monster": Insect Imitation, 1)
    level_offset: int | None = Field(default=None, ge=-12, le=12)
    # one of the cards that selection holds: "If there are any Spell Cards among them (the cards just drawn), discard all
    # those Spell Cards" (Hiro's Shadow Scout: `{all: {zone: hand, kind: spell, in_selection: affected}}` after a `draw`)
    in_selection: Literal["chosen", "target", "affected", "event"] | None = None
    # a card whose name a card of this selection's text lists in quotes (Level Up!: "a monster listed in the sent monster's text")
    named_in_text_of: Literal["chosen", "target", "affected", "event"] | None = None
    # a monster whose ATK is at most the ATK of a card of this selection of the effect (Armed Dragon LV7: "with ATK less than
    # or equal to the sent monster's ATK" — the cost's card is `chosen`); read where the effect selects cards and targets
    atk_at_most_of: Literal["chosen", "target", "affected", "event"] | None = None
    # a monster whose DEF is at most the ATK a card of this selection had on the field (its last ATK there, once it has left:
    # "destroy all face-up monsters … whose DEF is less than or equal to the ATK the Tributed monster had on the field" —
    # Burst Breath, the cost's Tribute being `chosen`); read where the effect selects cards
    def_at_most_atk_of: Literal["chosen", "target", "affected", "event"] | None = None
    # a monster whose ATK is at least the ATK of a card this filter matches (Armed Dragon LV7's cost: a monster in the hand
    # that could destroy something) — pair it with `atk_at_most_of` so the card is not activated for nothing
    atk_reaches: "Filter | None" = None
    # a monster whose Level is lower than the Level of a card of this selection of the effect (Vampire Genesis: "a Zombie-Type
    # monster in your Graveyard with a Level less than the discarded Zombie-Type monster's" — the cost's card is `chosen`);
    # read where the effect selects cards and targets. Pair it with `level_exceeds` on the cost
    level_below_of: Literal["chosen", "target", "affected", "event"] | None = None
    level_below_by: int | None = Field(default=None, ge=1, le=12)  # with level_below_of: exactly this many Levels lower (Dora of Fate: 1)
    # a monster whose Level is at most the Level a card of this selection had (on the field, once it left it) + `level_offset`
    # ("a Level equal to or less than the Level of the Tributed card + 3": Ninjitsu Art of Transformation,
    # `level_at_most_of: chosen, level_offset: 3`); read where the effect selects cards
    level_at_most_of: Literal["chosen", "target", "affected", "event"] | None = None
    # a face-up monster on the field that the own equip effect of a Union Monster of that selection could equip it to — "an
    # appropriate monster" (Formation Union: `union_partner_of: chosen`)
    union_partner_of: Literal["chosen", "target", "affected", "event"] | None = None
    # true: a face-up Union Monster in a Monster Zone whose own equip effect has a face-up monster of its controller's to
    # equip it to (Formation Union's first choice)
    union_can_equip: bool | None = None
    # a monster whose Level is higher than the Level of some card this filter matches (Vampire Genesis' cost: a Zombie in the
    # hand with a lower-Level Zombie in the GY to target), so the effect is not activated for nothing
    level_exceeds: "Filter | None" = None
    # a monster whose Level equals the total Levels of some of the cards this filter matches (The Puppet Magic of Dark
    # Ruler's target: "a Fiend-Type monster" for which "monsters on your side of the field whose total Levels exactly equal"
    # its Level exist), so the effect is not activated for nothing; pair it with a `choose` with `level_total`
    level_total_from: "Filter | None" = None
    # a card whose own script has an effect that negates Trap Cards' effects: a continuous `negate_effects` whose filter
    # names Traps (Jinzo, Royal Decree) or `negates_traps_targeting` / `negates_opponent_traps_targeting` (Fiend Skull
    # Dragon, Gora Turtle of Illusion) — "1 face-up card on the field that has an effect that negates Trap Cards' effects"
    # (Double Snare); whether that effect applies now does not matter
    negates_traps: bool | None = None
    # a monster whose last Tribute Summon Tributed this effect's card (not moved since it went to the GY): "When a monster is
    # Tribute Summoned by Tributing this card" (Zolga: `when: {event: summoned, how: tribute, subject: any, where:
    # {tributed_self: true}}`, `from: gy`) — not a Tribute Set, nor a Summon that was negated
    tributed_self: bool | None = None
    # a monster whose ATK (whose original ATK, R-TERM-19) is lower than this card's ATK or DEF, this card being face-up in a
    # Monster Zone: "a monster that attacks this monster with ATK lower than the DEF of this card" (Des Kangaroo: def),
    # "with original ATK less than the ATK of this card" (Elemental HERO Thunder Giant: original_atk_below_self: atk)
    atk_below_self: Literal["atk", "def"] | None = None
    original_atk_below_self: Literal["atk", "def"] | None = None
    # a monster whose ATK equals this card's ATK, this card being face-up in a Monster Zone: "a monster that has the same
    # ATK" (Kaiser Glider: cannot_be_destroyed_by_battle_with: {atk_equal_self: true})
    atk_equal_self: bool | None = None
    # a monster whose DEF is at most this card's ATK, read as those above: "1 face-up monster on the field whose DEF is
    # equal to or less than the ATK of this card" (Throwstone Unit)
    def_at_most_self: bool | None = None
    # a monster that battled with this effect's card (damage calculation was performed), both still where they were then
    # — "A monster that battled with this card cannot change its battle position … or attack" (The Unhappy Girl)
    battled_self: bool | None = None
    # a monster on the field involved in damage calculation this turn, not moved since — "All monsters … that have been
    # involved in damage calculation" (After the Struggle)
    battled_this_turn: bool | None = None
    # `target` (`chosen`, `event`): a card that was a Fusion Material of that Fusion Monster's last Fusion Summon, in the GY
    # and not moved since — only while every one of them is so ("if all the Fusion Materials that were used for its Fusion
    # Summon are in your GY": De-Fusion)
    fusion_material_of: Literal["target", "chosen", "event"] | None = None
    # the attacking monster of the current battle whose ATK is lower than the DEF of the Defense Position monster it
    # attacks ("If the DEF of the attacked Defense Position monster … is higher than the ATK of the attacking monster":
    # Continuous Destruction Punch)
    atk_below_target_def: bool | None = None
    # a monster whose ATK is at most N × the counters this effect's cost removed (`remove_counter: {any_number: true}`) — before
    # the cost is paid, × the counters its card has (Blast Magician: "ATK less than or equal to the number of counters you removed x 700")
    atk_at_most_removed: int | None = Field(default=None, ge=1)
    # a monster whose Level equals the number of cards this effect's cost moved with a `choose` with `how_many: true` —
    # before the cost is paid, a Level of at most the number of cards this filter matches (the cost's candidates): Skull
    # Lair's "destroy 1 face-up monster on the field whose Level is equal to the number of the cards you removed from play",
    # `level_is_removed: {zone: gy, side: you, kind: monster}`
    level_is_removed: "Filter | None" = None

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


# ---------------------------------------------------------------------- selections


class Choose(BaseModel):
    """Cards chosen on resolution (no targeting, R-TERM-17)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    where: Filter = Filter()
    count: NumRange = Range(min=1, max=1)
    # who chooses; `each`: each player, you first, among the candidates they control (hold) — with `count_as`, as many as
    # the cards of that selection they own ("Both you and your opponent then Special Summon from your hand the same
    # number of Monster Cards": Major Riot)
    who: Literal["you", "opponent", "owner", "each"] = "you"
    random: bool = False  # R-TERM-7
    # only among the lowest/highest (Fissure); `bottom`: the one nearest the bottom of its pile (Question: "the first monster
    # found at the bottom of your Graveyard")
    pick: Literal["lowest_atk", "highest_atk", "lowest_def", "highest_def", "bottom"] | None = None
    look: bool = False  # the chooser sees hidden cards to choose from (Confiscation: the opponent's hand)
    among: Literal["chosen"] | None = None  # choose among what this effect chose before (Painful Choice)
    # exactly as many as the coins this effect tossed showed heads, or all there are ("as many as possible, but not more
    # than the number of heads": Gatling Dragon) — instead of `count`
    count_heads: bool | None = None
    # exactly as many as the cards of that selection, or all there are ("Destroy a number of Spell/Trap Cards on the field
    # equal to the number of monsters removed from play for this effect": Infernal Flame Emperor, `count_as: affected`
    # after the banishing) — instead of `count`
    count_as: Literal["chosen", "affected"] | None = None
    # with count_as: up to that many, none too ("you can Special Summon … up to the number of monsters destroyed by this
    # effect": Big Wave Small Wave)
    up_to: bool | None = None
    # instead of `count`: cards whose Levels total exactly the Level of the card of that selection, chosen one at a time
    # ("Remove from play monsters on your side of the field whose total Levels exactly equal the Level of the selected
    # Fiend-Type monster": The Puppet Magic of Dark Ruler, `level_total: target`); none if no such total can be made
    level_total: Literal["chosen", "target", "affected", "event"] | None = None
    # all but this many of the matching cards — the chooser picks the ones to leave ("send cards to their respective
    # Graveyards until the amount remaining on the field and in their hand is 5": Bubble Crash, `keep: 5`) — instead of
    # `count`; none when that many or fewer match
    keep: int | None = Field(default=None, ge=0)
    # exactly as many as leave as many candidates as this filter counts ("Destroy your opponent's monsters so that your
    # opponent controls the same number of monsters as you": Pineapple Blast, `leave_as_many_as: {zone: monster, side:
    # you}`) — none when there are not more — instead of `count`
    leave_as_many_as: "Filter | None" = None
    # no two cards with the same name ("any number of \"Dark Scorpion\" monsters from your hand, but only 1 copy of each":
    # Mustering of the Dark Scorpions) — the player chooses them one at a time
    distinct_names: bool | None = None
    # "any number of" cards, as many as the player first declares — only numbers that leave a card for this effect's filter
    # with `level_is_removed` (its target's, or a `choose` of its operations): the chain link keeps the number (Skull Lair's
    # cost) — instead of `count`
    how_many: bool | None = None


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
    side: Literal["each"] | None = None  # each: in both players' zones (Nobleman of Crossout); else its controller's


class CopiesOf(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    copies: Copies


Ref = Literal["self", "target", "targets", "first_target", "second_target", "event", "equipped", "lost_equipped", "bound", "chosen", "chain_card", "attacker", "attack_target", "declared",
              "battling", "defeated", "equips", "others", "affected", "tributes", "chain_targets", "remembered"]  # first_target/second_target: the targets of the first/second of `targets:` groups  # others: what was chosen before the last choice, minus it  # defeated: monsters this card destroyed by battle this turn, still in the GY


def _selection(value: Any) -> Any:
    if isinstance(value, str) and value not in Ref.__args__:  # type: ignore[attr-defined]
        raise PydanticCustomError("selection", "'{value}' is not a selection", {"value": value,
                                  "hint": did_you_mean(value, Ref.__args__) or "use self, target, event, {all: FILTER} or {choose: {...}}"})  # type: ignore[attr-defined]
    return value


Copies.model_rebuild()
Selection = Annotated[Union[Ref, AllOf, ChooseOf, CopiesOf], BeforeValidator(_selection)]
# destroyer: the controller of the card that destroyed the event's card (Balloon Lizard: "the controller of the card that destroyed it")
# roll_loser: the player whose roll was lower in this effect's `roll_die: {each_player: true}` (Dice Jar)
Player = Literal["you", "opponent", "each", "owner", "controller", "event_player", "destroyer", "roll_loser"]

Filter.model_rebuild()
