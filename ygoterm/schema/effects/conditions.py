"""When an effect applies: the events it answers (`when`), the conditions it needs, the targets
it chooses on activation and what a continuous effect does. Part of the effect vocabulary
(`ygoterm.schema.effects`, docs/cards.md).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from ..words import Attribute, MonsterType
from .filters import Filter, NumRange, Range, Zone, _one_or_many

EventName = Literal[
    "summoned", "normal_summoned", "flip_summoned", "special_summoned", "summon_declared", "changed_to_defense", "changed_to_attack", "equipped",
    "flipped", "destroyed", "destroyed_by_battle", "destroyed_by_effect", "sent_to_gy", "leaves_field",
    "battle_damage", "attack_declared", "activated", "standby_phase", "end_phase", "battle_phase_end", "drawn", "discarded",
    "damage_calculation", "targeted", "battled", "damage_step_start", "banished", "damage_step_end", "lp_gained", "normal_draw", "called_right",
    "before_damage_calculation",
    "control_changed",  # control of a monster on the field shifted (taken, switched, returned): Ameba, Griggle
    "resolved",  # a chain link resolves, its activation not negated ("when that Spell Card resolves": Blast Magician)
    "added_to_hand",  # a card added to the hand by a card effect (`add_to_hand`), `from: deck` — Watapon
    "effect_damage",  # a player took damage from a card effect, about that card (Dark Room of Nightmare)
    "set",  # a monster was Normal Set (or Tribute Set): a response window follows when some card answers it (Shadow of Eyes)
    "drawn_face_up",  # a card face-up in the Deck (face_up_in_deck, `when_drawn: trigger`) was drawn: Pharaoh's Treasure
    "equips",  # an Equip Card became equipped to a monster, about the Equip Card, of its controller (Morale Boost)
]


class When(BaseModel):
    """The event an effect answers. `subject` says whose card it is about."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    event: Annotated[tuple[EventName, ...], BeforeValidator(_one_or_many)]
    # whose card the event is about; default: this card for triggers, any card for activations
    subject: Literal["self", "any", "you", "opponent"] | None = None
    # summons: how it was Summoned; sent_to_gy: "tribute" (for a Summon) or "effect_tribute" (as an effect's cost);
    # banished, leaves_field: "face_up" (it was face-up on the field: D.D. Survivor, Serpentine Princess); damage_step_end: "defense" or
    # "attack", the battler's position in that battle (Legendary Jujitsu Master); destroyed: "face_down", it was face-down
    # on the field as it was destroyed ("When this face-down card is destroyed": Statue of the Wicked)
    how: Annotated[tuple[Literal["normal", "tribute", "flip", "special", "fusion", "ritual", "synchro", "xyz", "link",
                                 "pendulum", "gemini", "effect_tribute", "face_up", "face_down", "defense", "attack", "effect"], ...],
                   BeforeValidator(_one_or_many)] | None = None
    where: Filter | None = None  # the event's card must match
    from_: Annotated[tuple[Zone, ...], BeforeValidator(_one_or_many)] | None = Field(default=None, alias="from")
    # destroys: an activation that would destroy cards (Stardust Dragon)
    # discards: an activation whose effect makes a player discard (Gravekeeper's Watcher)
    # draws: an effect that draws cards (Muko); damages: an activation whose effect would inflict damage to this card's
    # controller (Barrel Behind the Door);
    # destroys_monsters: an effect whose destruction may take a monster on the field (My Body as a Shield);
    # destroys_spell_trap: an effect whose destruction may take a Spell/Trap Card on the field ("a Spell Card that would
    # destroy a Spell/Trap Card(s) on the field": Judgment of Anubis, with `where: {kind: spell}`);
    # damages: an activation whose effect inflicts damage to this card's controller (Trap of Board Eraser)
    # special_summons: an activation whose effect Special Summons a monster(s) — special_summon, token, fusion_summon,
    # ritual_summon ("an effect that Special Summons a monster(s)": Royal Oppression)
    activated: Annotated[tuple[Literal["spell", "trap", "monster", "effect", "destroys", "destroys_monsters", "discards", "destroys_spell_trap", "draws",
                                       "damages", "special_summons"], ...],
                         BeforeValidator(_one_or_many)] | None = None
    player: Literal["you", "opponent", "any"] = "any"  # whose turn / who acted / who took damage
    # destroyed by whose card (effect or battling monster); self: by this card; sent_to_gy/discarded: by whose card's effect
    # (as a chain link resolves — not a cost, a Tribute or the hand limit): "sent from your hand to your Graveyard by an
    # opponent's card effect" (Elephant Statue of Blessing, Fear from the Dark)
    # equipped: the monster this card is equipped to destroyed it by battle ("each time the equipped monster destroys 1 of
    # your opponent's monsters": Zombie Tiger, `from: equip`)
    by: Literal["you", "opponent", "any", "self", "equipped"] = "any"
    # the card whose effect caused it matches this filter (seen as it is then): a destruction by a card effect, or a card
    # sent to the GY as a chain link resolves — that link's card ("sent from the field to the Graveyard by the effect of a
    # Continuous Spell Card": Malice Doll of Demise, `{kind: spell, subtype: continuous}`)
    by_card: Filter | None = None
    # for `activated`: the activation targets this card ("When a card or effect is activated that targets this card": Blue-Eyes Shining Dragon)
    # only: it targets this card and no other card ("a Spell Card that targets this 1 face-down monster": Mid Shield Gardna)
    targets_self: bool | Literal["only"] | None = None
    # for `activated`: the last chain link targets exactly 1 card, which this filter matches ("a Spell Card that targets
    # exactly 1 monster (and no other cards) on the field": Fairy's Hand Mirror, `{zone: monster}`)
    targets_one: Filter | None = None
    # for `activated`: the last chain link targets a card this filter matches, among any others ("when your opponent activates
    # a card that targets a monster in the Graveyard": Big Burn's `{zone: gy, kind: monster}` — Pot of Avarice's 5 too)
    targets_card: Filter | None = None
    # for `activated`: the last chain link's destruction would take a card this filter matches (seen from this card's
    # controller) — one of its targets, or a card its `all:`/`choose:` selection of a `destroy` matches now ("When your
    # opponent activates a card or effect that would destroy a Trap(s) you control": Fake Trap, `{zone: spell, side: you,
    # kind: trap, not_self: true}` — a Set Trap too, never itself alone)
    would_destroy: Filter | None = None
    # another card of the same event at the same moment, of the same player, matches this filter: "when both \"Andro Sphinx\"
    # and \"Sphinx Teleia\" on your side of the field are destroyed at the same time" (Theinen the Great Sphinx: `where`
    # names one, `together` the other)
    together: Filter | None = None
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


def _when(value: Any) -> Any:
    if isinstance(value, (str, list)):
        return {"event": value}
    return value


class Condition(BaseModel):
    """Extra conditions checked on activation (and for continuous effects, all the time)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    your_turn: bool | None = None
    phase: Annotated[tuple[Literal["draw", "standby", "main1", "battle", "main2", "end", "main", "damage", "damage_calculation"], ...], BeforeValidator(_one_or_many)] | None = None
    you_control: Filter | None = None  # at least one such card
    you_control_none: Filter | None = None
    opponent_controls: Filter | None = None
    opponent_controls_none: Filter | None = None
    in_your_gy: Filter | None = None
    # a monster matching it (no `zone`: read where it is now) was sent from your side of the field to the GY this turn, by any
    # means, and even if it has left the GY since ("during a turn in which a Level 8 or higher monster on your side of the
    # field was sent to the Graveyard": A Deal with Dark Ruler)
    sent_from_field_this_turn: Filter | None = None
    count: NumRange | None = None  # with one of the filters above: how many must match
    lp_at_most: int | None = None
    lp_at_least: int | None = None
    opponent_lp_at_most: int | None = None  # the opponent's LP (Minor Goblin Official: "3000 or less")
    opponent_lp_at_least: int | None = None  # (Meteor of Destruction: "higher than 3000" is 3001)
    any: "list[Condition] | None" = None  # at least one of these holds (Ceasefire)
    # every one of these holds: two parts with the same key (Black Tyranno: "the only cards your opponent controls are
    # Defense Position monsters"; Exodia Necross: each of the 5 pieces in your GY)
    all: "list[Condition] | None" = None
    lp_vs_opponent: Literal["lower", "higher"] | None = None  # your LP compared with the opponent's (Megamorph)
    # this card's last activation that resolved was its effect with this `label`, and the card has not moved since: a
    # choice made as it is activated, read by its continuous effects ("Activate this card by choosing ATK or DEF … It gains
    # 700 ATK or DEF, depending on the choice": 7 Completed, two labelled `activate` effects)
    activated_as: str | None = None
    # nothing has happened yet in the current phase — no Summon, Set, activation or other game event since it began ("This
    # card can only be activated at the start of Main Phase 1": Cold Wave, with phase: main1)
    phase_start: bool | None = None
    lp_behind: int | None = Field(default=None, ge=1)  # your LP are at least N lower than the opponent's (Frozen Soul: 2000)
    # the opponent controls at least this many more monsters than you (The Fiend Megacyber: "at least 2 more monsters")
    opponent_monsters_more: int | None = None
    hand_at_least: int | None = None
    # you took at least this much battle damage in the current battle ("When you take 3000 or more Battle Damage from 1
    # attack": Inferno Tempest, with `when: {event: battle_damage, player: you}`)
    battle_damage_at_least: int | None = None
    # you had no cards in hand at the end of the last turn (the opponent's, read in your turn: The Agent of Wisdom - Mercury)
    hand_empty_last_turn: bool | None = None
    opponent_attacking: bool | None = None  # an opponent's monster is attacking (Kuriboh)
    being_attacked: bool | None = None  # this card is the attack target
    declared_is: Literal["spell", "trap", "monster"] | None = None
    tributes_used: NumRange | None = None  # this card's Tribute Summon took this many Tributes (Gilford)
    # true: a card selected for this card's Summon (`select` in its procedure's cost) has left the field since (a change of
    # control does not count);
    # false: none has — "If the selected \"Gradius\" is removed from the field, destroy this card" is `destroyed_unless:
    # {selected_gone: false}` (Gradius' Option)
    selected_gone: bool | None = None
    attacking: bool | None = None  # this card is the attacking monster (Black Luster Soldier - Envoy)
    # this card is attacking a monster that was face-down Defense when the Damage Step began (8-Claws Scorpion: "attacks a face-down Defense Position monster")
    attacking_set_monster: bool | None = None
    rolled: NumRange | None = None  # in `if`: the die this effect rolled shows this (Agido: "whose Level is equal to the number rolled")
    # in `if`: as many of the coins this effect tossed last showed heads (Sand Gambler: 0 — "if all 3 results are Tails")
    heads: NumRange | None = None
    direct_attack: bool | None = None  # this card is attacking directly (Spirit Reaper: "by a direct attack")
    destroyed_by_battle_this_turn: bool | None = None  # this card destroyed a monster by battle this turn (an LV monster's End Phase)
    # how many monsters this card destroyed by battle since it last arrived face-up on the field (forgotten as it leaves the
    # field or is turned face-down): "When this monster destroys the following number of monsters as a result of battle"
    # (Great Dezard: ">=1", ">=2")
    battle_wins: NumRange | None = None
    equipped_monsters: NumRange | None = None  # how many monster cards are equipped to this card (Relinquished)
    in_battle: bool | None = None  # this card is the attacker or the attack target
    damage_calculation: bool | None = None  # it is the damage calculation ("during damage calculation only": Cipher Soldier)
    attacked_this_turn: bool | None = None  # this card declared an attack this turn (Goblin Attack Force)
    hand_at_most: int | None = None
    opponent_hand_at_least: int | None = None  # the opponent holds at least this many cards (Gamble: 6)
    you_summoned_this_turn: bool | None = None  # you Summoned a monster this turn (any kind of Summon)
    you_set_monster_this_turn: bool | None = None  # you Set a monster this turn
    xyz_materials: NumRange | None = None  # how many Xyz Materials this card has (Number 39: Utopia)
    target_is: "Filter | None" = None  # every remaining target matches (Trap Master: "if it is a Trap")
    chosen_is: "Filter | None" = None  # what the effect chose (or revealed with reveal_until) is there and matches (Reasoning)
    affected_is: "Filter | None" = None  # what the operation before moved is there and matches (Nobleman of Crossout: "if it was a Flip monster")
    # this card was Normal Summoned or flipped face-up this turn (a Spirit's End Phase, R-CARD-6)
    normal_summoned_or_flipped_this_turn: bool | None = None
    # a face-up card keeps Spirit monsters on the field (`keeps_spirits`: Spiritual Energy Settle Machine) — read by the
    # rules' Spirit return (R-CARD-6)
    spirits_kept: bool | None = None
    # this card was Summoned in any way or flipped face-up this turn ("You cannot activate this effect the turn this card
    # is Normal Summoned, Special Summoned, or flipped face-up": Silent Swordsman LV3, Ultimate Insect LV1)
    summoned_or_flipped_this_turn: bool | None = None
    # this card's last arrival on the field was a Special Summon by the effect of a card with this name (Ultimate Insect LV3:
    # "If this card was Special Summoned by the effect of \"Ultimate Insect LV1\""); still read once it left (Dark Mimic LV3)
    summoned_by: str | None = None


class TargetSpec(BaseModel):
    """Targets chosen on activation (R-TERM-17); re-checked on resolution (R-CHAIN-6)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    where: Filter = Filter()
    count: NumRange = Range(min=1, max=1)  # `"0-1"`: this group may be left empty ("you can target 1 additional …")
    who: Literal["you", "opponent"] = "you"
    # this group is offered only while the condition holds as the effect is activated ("and if you control a face-up
    # Warrior-Type monster, you can target 1 additional face-up monster": Mysterious Guard)
    only_if: "Condition | None" = None

    @property
    def needed(self) -> int:
        """How many targets this group needs at least (an unbounded range: 1)."""
        return 1 if self.count.min is None else self.count.min


class GainBeforeDamage(BaseModel):
    """"If you take Battle Damage of 2000 points or more, increase your Life Points by 4000 points before the damage is
    subtracted" (Nutrient Z): once, in a `for_this_turn`."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    at_least: int = Field(ge=0)
    amount: int = Field(ge=1)


class ContinuousSpec(BaseModel):
    """What a continuous effect does while its card is face-up on the field (R-CARD-10)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    applies_to: Union[Literal["self", "equipped", "bound"], Filter] = "self"
    atk: int = 0
    def_: int = Field(default=0, alias="def")
    # "gains N for each …" (cost_paid: the cards its Summon procedure's cost chose; lp_difference: × the difference between
    # both players' LP, The Agent of Force - Mars with atk: 1)
    atk_per: Literal["counter", "gy_monsters", "banished_monsters", "equipped_monsters", "equips", "cost_paid", "lp_difference"] | None = None
    per_where: Filter | None = None
    cannot_attack: bool = False
    cannot_change_position: bool = False
    cannot_be_targeted: bool = False
    tributable_by_opponent: bool | None = None  # (a `modify` restriction's flag: Soul Exchange)
    cannot_be_tributed: bool | None = None  # no Tribute Summon, Ritual Summon or cost Tributes it (Mind Control's taken monster)
    # effects of this card's controller's opponent (`opponent`) or of either player (`any`) cannot target the monsters it
    # applies to, on either side of the field — seen from this card, not from each monster (King Dragun: "Your opponent
    # cannot target Dragon monsters"; Lord of D.: "Neither player can target Dragon monsters")
    # `opponent_one`: only the opponent's effects that target 1 monster and no other card ("your opponent cannot use the
    # effect of a Spell, Trap, or Effect Monster that targets 1 monster, except the equipped monster": Metalsilver Armor)
    untargetable_by: Literal["opponent", "any", "opponent_one"] | None = None
    cannot_be_destroyed_by_battle: bool = False
    # it cannot be destroyed by battle with a monster matching this (seen from its controller): "cannot be destroyed by
    # battle with a monster that has 1900 or less ATK" (Different Dimension Dragon: {atk: "<=1900"})
    cannot_be_destroyed_by_battle_with: Filter | None = None
    # it cannot be destroyed by the effects of these kinds of cards unless they target it: "cannot be destroyed by Spell/Trap
    # effects that do not target it" (Different Dimension Dragon: [spell, trap])
    indestructible_unless_targeted: Annotated[tuple[Literal["spell", "trap", "monster"], ...], BeforeValidator(_one_or_many)] | None = None
    # the reverse: an effect of such a card that targets it does not destroy it ("not destroyed … by the effect of a card that
    # targets the monster": Heart of Clear Water, `applies_to: equipped`)
    indestructible_if_targeted: Annotated[tuple[Literal["spell", "trap", "monster"], ...], BeforeValidator(_one_or_many)] | None = None
    cannot_activate: Filter | None = None  # players cannot activate such cards (applies_to: players' side)
    negate_effects: Filter | None = None  # Royal Decree: negate these cards' effects on the field
    piercing: bool = False  # R-BATTLE-12
    # both players' Decks are turned upside down while it applies: the bottom card becomes the top one, face-up — both
    # players know it; they turn back as it stops (Convulsion of Nature)
    decks_upside_down: bool | None = None
    # monsters in applies_to are changed to it at once and kept in it (Level Limit - Area B: defense; Insect Princess: attack,
    # face-up Defense monsters only — a Set monster is not flipped)
    force_position: Literal["defense", "attack"] | None = None
    atk_factor: float | None = None  # its ATK becomes its original ATK × this (Megamorph)
    # after every other change, its ATK × this, halves rounded up (Mirror Wall: 0.5 — "Halve the ATK of all your opponent's
    # attacking monsters": with Axe of Despair 3500 → 1750, and 1250 once the Axe is gone)
    multiply_atk: float | None = Field(default=None, gt=0)
    # once, before battle damage of at least N to this card's controller is subtracted, they gain M LP (Nutrient Z, in a
    # `for_this_turn`: the card has gone to the GY)
    gain_before_battle_damage: GainBeforeDamage | None = None
    set_atk: int | None = None  # its ATK becomes this (Triangle Ecstasy Spark)
    set_def: int | None = None  # its DEF becomes this (Arsenal Bug: "ATK and DEF become 1000")
    # it gains ATK equal to the original ATK of the opponent's monster it battles ("during damage calculation only", with
    # the condition damage_calculation: Mirage Knight)
    gains_battling_original_atk: bool | None = None
    # the ATK/DEF additions and subtractions that apply to it are reversed — a gain becomes a loss and a loss a gain, from
    # resolved effects and continuous ones (Equip Cards, Field Spells); multiplications (`multiply_atk`), values set in its
    # place and its original ATK/DEF stay (Reverse Trap, in a `for_this_turn: {until_end_phase: true}`)
    reverses_stat_changes: bool | None = None
    # it gains ATK equal to this × the current ATK of the monster it attacks — its attack target ("If it attacks, it gains
    # ATK equal to half the ATK of the attack target, during damage calculation only": Metalmorph, 0.5 with the condition
    # damage_calculation)
    gains_attack_target_atk: float | None = Field(default=None, gt=0)
    # its Level changes by this (never below 1), in the hand too when applies_to names the hand: Demotion's "Downgrade the
    # monster equipped with this card by 2 Levels" (-2), A Legendary Ocean's "Reduce the Level of all WATER monsters in
    # both players' hands and on the field by 1" (-1)
    level_change: int | None = None
    # its Type (Attribute) becomes this, or `declared`: the one this card declared with its own `declare` as it was
    # activated — "The equipped monster is treated as a Dragon-Type" (Dragonic Attack: Dragon); "Activate this card by
    # declaring 1 Monster Type. All face-up monsters on the field become that Type" (DNA Surgery: declared)
    set_type: Union[Literal["declared"], MonsterType, None] = None
    set_attribute: Union[Literal["declared"], Attribute, None] = None
    stats_of_equip: bool = False  # its ATK/DEF become the original ATK/DEF of the monster equipped to it (Relinquished)
    # its ATK/DEF are the current ATK/DEF of the monster selected for its Summon (`select` in its procedure's cost), while
    # that monster is face-up on the field and has not left it since ("becomes the same as the ATK and DEF of the selected
    # \"Gradius\"": Gradius' Option)
    stats_of_selected: bool | None = None
    equip_takes_battle_destruction: bool = False  # if it would be destroyed by battle, its equipped monster is instead
    shares_battle_damage: bool = False  # battle damage its controller takes from its battles is also dealt to the opponent
    cannot_be_attacked: bool = False  # the opponent cannot target it for attacks (Marauding Captain)
    # with applies_to: self, while it is face-up in a Monster Zone its controller chooses the target of each attack the
    # opponent declares against a monster ("You choose the attack targets for your opponent's attacks": Patrician of Darkness)
    chooses_attack_targets: bool | None = None
    # the `cannot_activate` and `negate_effects` of the monsters it applies to do not apply to their controller's cards
    # ("the effects of Trap Cards controlled by the equipped monster's controller are not negated by the effect of the
    # equipped monster": Amplifier on Jinzo, `applies_to: equipped`)
    spares_controller: bool | None = None
    # while it applies, the effect of every chain link that targets a card in the GY, or that was activated in the GY, is
    # negated as it resolves, whoever's it is; no chain link (The End of Anubis)
    negates_gy_effects: bool | None = None
    # Necrovalley (2005): cards in either GY cannot be banished (by either player), and the effect of a chain link that would
    # move a card in a GY — other than its own card — to another place is negated as it resolves: it targets a GY card, or
    # it adds, returns, Special Summons, banishes or equips cards it chooses from a GY
    guards_gy: bool | None = None
    # "When a coin toss is performed, you can choose to redo the coin toss … once per turn" (Second Coin Toss): its controller
    # may have each card's coin toss (all its coins) redone, once per turn for the cards of this name
    redoes_coin_tosses: bool | None = None
    # the cards it matches cannot be used: no Normal, Flip or Special Summon, no Set, no activation of them or their effects
    # (Prohibition: `{declared_by_self: true, new_since_self: true}` — "Cards already on the field are not affected")
    forbids_use: Filter | None = None
    # the battle damage it inflicts to the opponent becomes this much (Rod of the Mind's Eye: 1000, on the equipped monster)
    battle_damage_becomes: int | None = None
    # "Your Graveyard is unaffected by \"Necrovalley\"" (Gravekeeper's Chief): while it is face-up, `guards_gy` leaves its
    # controller's GY alone, and lets its controller banish cards from the GY
    unguards_gy: bool | None = None
    cannot_attack_directly: bool = False
    no_battle_damage: bool = False  # its controller takes no battle damage from its battles (Dark Flare Knight)
    # its controller takes no battle damage from a battle involving a monster this filter matches, on either side
    # (Emissary of the Oasis: "from battle involving a Level 3 or lower Normal Monster")
    no_battle_damage_involving: Filter | None = None
    # the battle damage its controller would take from its battles is dealt to the opponent instead (Amazoness Swords Woman)
    reflects_battle_damage: bool | None = None
    # the effects of an opponent's monster destroyed by battle with it are negated, from damage calculation on and in the GY (Ancient Gear Beast);
    # a filter: only of such a monster matching it (Twin-Headed Wolf: `{flip: true}`, "Flip Effect Monsters destroyed by this card")
    negates_battle_destroyed: bool | Filter | None = None
    negates_spells_targeting: bool = False  # a Spell that targets it has its effect negated and is destroyed (Ryu Senshi)
    # only once while this card stays on the field, a Spell (either player's) that targets it has its effect negated (Rare
    # Metalmorph: "Only once, negate the effect of a Spell Card that designates the monster")
    negates_spells_targeting_once: bool | None = None
    negates_traps_targeting: bool | None = None  # … a Trap (Fiend Skull Dragon)
    # an opponent's effect that targets a face-up monster it applies to (on its controller's side): as it resolves a die is
    # rolled for each such monster, and on one of these numbers that effect is negated and its card destroyed (the
    # Archfiends: Darkbishop Archfiend [1, 3, 6] for every Archfiend, Desrook Archfiend [3]; not a chain link)
    negates_targeting_on_roll: Annotated[tuple[int, ...], BeforeValidator(_one_or_many)] | None = None
    # while it is face-up in a Monster Zone, both players show their hands (Ceremonial Bell); `opponent`: only its
    # controller's opponent does ("Your opponent must play with their hand revealed": Mind on Air); `turn_player`: the
    # turn player does, in each player's turn ("During their respective turns, each player must show their opponent their
    # hand": Respect Play). A Spell/Trap applies it from its Spell & Trap Zone (The Eye of Truth)
    shows_hands: bool | Literal["opponent", "turn_player"] | None = None
    # a monster's effect that targets it and no other card has its effect negated (Chaos Command Magician)
    negates_monsters_targeting_it_alone: bool | None = None
    wins_match: bool = False  # if its direct attack's damage wins the duel, its controller wins the match (Victory Dragon)
    attacks_in_defense: bool = False  # may attack from face-up Defense Position, using its ATK (Total Defense Shogun)
    direct_attack: bool = False
    extra_attacks: int = 0
    tribute_value: int | None = None  # Kaiser Sea Horse: counts as N Tributes …
    tribute_for: Filter | None = None  # … for a monster matching this
    fewer_tributes: int = Field(default=0, ge=0, le=3)  # monsters in applies_to need this many fewer Tributes (Geartown)
    banish_instead: Filter | None = None  # Dimensional Fissure: such cards going to the GY are banished
    # "neither player can Normal Summon, Flip Summon, or Special Summon" while it is face-up (The Last Warrior from
    # Another Planet; Jowgen the Spiritualist: special) — a Set is no Summon
    cannot_summon: Annotated[tuple[Literal["normal", "flip", "special"], ...], BeforeValidator(_one_or_many)] | None = None
    # "You cannot Summon any monsters, except \"Slime Tokens\" (but you can Set)": its controller cannot Summon (Normal,
    # Flip or Special) a monster this filter does not match (Jam Breeding Machine: `{name: Slime Token}`)
    summon_only: "Filter | None" = None
    no_effect_damage: bool | None = None  # "any damage to you from a card effect becomes 0": its controller (Des Wombat)
    halves_battle_damage: bool | None = None  # the battle damage it inflicts to the opponent is halved (Susa Soldier)
    # "Any battle damage this card inflicts to your opponent is treated as effect damage instead" (Gravekeeper's Vassal): the
    # damage its battles would inflict to its controller's opponent is effect damage — no "battle damage" effect prevents or
    # changes it (Waboku, Kuriboh), "no effect damage" does (Des Wombat), and no "inflicts battle damage" trigger answers it
    battle_damage_as_effect: bool | None = None
    # the battle damage the opponent takes from a battle in which it is the attack target is doubled: "Double any Battle
    # Damage your opponent takes when they attack this monster" (Stone Statue of the Aztecs)
    doubles_damage_to_attacker: bool | None = None
    # the battle damage it inflicts to the opponent is doubled; with `condition: {direct_attack: true}`, "by attacking
    # directly" (Piranha Army)
    doubles_battle_damage: bool | None = None
    # the effects of monsters destroyed by battle with a monster matching this filter (seen from this card's
    # controller) are negated: their triggers of that destruction do not activate (Dark Ruler Ha Des: your Fiends;
    # Dark Balter the Terrible: itself)
    negates_battle_victims: Filter | None = None
    locks_gy_banishing: bool | None = None  # "your opponent cannot banish cards from either player's GY" (Kycoo the Ghost Destroyer)
    locks_opponent_draws: bool | None = None  # "your opponent cannot draw cards except during Draw Phases" (Protector of the Sanctuary)
    # a monster it matches that is Flip Summoned is destroyed at once (no chain), before anything answers its Summon, and its
    # FLIP effect does not activate ("When a Level 2 or lower monster is Flip Summoned, destroy it. Its effects do not
    # activate at that time": Goblin Fan, `{level: "<=2"}`)
    destroys_flip_summoned: Filter | None = None
    # each card the opponent of this card's controller draws that it matches is shown to both players and destroyed at once
    # (no chain) — with `for_this_turn`, for some turns wherever this card went ("look at … all cards they draw until the
    # end of their 3rd turn …, and destroy all those monsters with 1500 or less ATK": Deck Devastation Virus)
    destroys_drawn: Filter | None = None
    # the hand size limit of this card's controller's opponent becomes N in their End Phase (Enervating Mist: 5)
    opponent_hand_limit: int | None = Field(default=None, ge=0, le=60)
    destroyed_in_defense: bool | None = None  # "if this card is in face-up Defense Position, destroy this card" (Berserk Gorilla)
    # face-up monsters with the same name on the field: those that became face-up last are destroyed at once (all of them
    # when none was there before) — Kotodama
    destroys_same_names: bool | None = None
    # "the field is treated as \"Umi\"" while no Field Spell is active: a condition that some card with this name is
    # face-up on the field (or in the Field Zone) holds for its controller's side — Maiden of the Aqua
    field_treated_as: str | None = None
    # its original ATK becomes the combined original ATK of the monsters Tributed for its Tribute Summon (0 if it was not
    # Tribute Summoned: Set, then flipped; Special Summoned) — Maju Garzett; with `atk_factor: 2`, twice that (Great Maju
    # Garzett's "twice the original ATK of 1 monster that you Tributed")
    atk_of_tributes: bool | None = None
    # "destroy this card unless …": it is destroyed at once while this does not hold, as Berserk Gorilla in Defense
    # Position (Exodia Necross: all 5 Exodia pieces in your GY)
    destroyed_unless: "Condition | None" = None
    cannot_be_tributed_for_summon: bool | None = None  # "cannot be Tributed for a Tribute Summon" (Fox Fire; a cost may Tribute it)
    # the effects of these kinds of cards cannot destroy it ("cannot be destroyed by Spell/Trap effects": Exodia Necross);
    # `opponent`: the effects of its controller's opponent's cards, on the field ("\"Pandemonium\" on your side of the field is
    # not destroyed by your opponent's card effects": Pandemonium Watchbear)
    cannot_be_destroyed_by: Annotated[tuple[Literal["spell", "trap", "monster", "opponent"], ...], BeforeValidator(_one_or_many)] | None = None
    must_attack: bool | None = None  # "must attack if able": the Battle Phase cannot end while it can declare an attack (Berserk Gorilla)
    banish_if_leaves: bool | None = None  # "If this face-up card would leave the field, banish it instead" (Dark Magician of Chaos)
    # if a monster it applies to would be destroyed by battle or by a card effect, this card is destroyed instead (a Union)
    # battle: only if it would be destroyed by battle (a Union's 2005 text: "If the equipped monster is destroyed as a result of battle")
    destroyed_instead: bool | Literal["battle"] = False
    # destroyed once an effect that targets it (face-up on the field) has resolved — not if the activation was negated;
    # an Equip or Continuous card's target, once the chain has resolved (Spirit Reaper; not an activated effect, no chain link)
    destroyed_when_targeted: bool | None = None
    # while the opponent controls a monster matching this filter, this card can attack only such monsters (Blue-Eyes Toon
    # Dragon: "If a face-up Toon Monster is on your opponent's side of the field, you must select the Toon Monster as an attack target")
    attack_only: Filter | None = None
    attacks_each_monster: bool | None = None  # may attack each monster the opponent controls once per Battle Phase (Asura Priest)
    control_cannot_switch: bool | None = None  # no effect can take or swap control of it while it is face-up (Horus LV4)
    unaffected_by_spells: bool | None = None  # Spell Cards' effects do not apply to it (Horus the Black Flame Dragon LV6)
    unaffected_by_opponent_spells: bool | None = None  # … the opponent's Spell Cards' effects (Silent Swordsman LV5)
    # the opponent's Spell Card whose targets include it has its effect negated (Silent Swordsman LV3)
    negates_opponent_spells_targeting: bool | None = None
    # … the opponent's Trap Card (Gora Turtle of Illusion: "Negate the effect of Spell and Trap Cards controlled by your
    # opponent that target this face-up card")
    negates_opponent_traps_targeting: bool | None = None
    # "does not prevent your opponent from attacking you directly" (Guardian Kay'est): while every monster its controller
    # controls has this, the opponent may attack directly
    allows_direct_attacks: bool | None = None
    # "neither player can activate an effect by discarding": an activation (a card's or an effect's) whose cost discards
    # cannot be paid; a Summon procedure or an attack cost is no activation (Goblin of Greed)
    locks_discard_costs: bool | None = None
    # "Monster Cards cannot be Set or flipped face-down. If a Monster Card would be Set, it must be Normal Summoned in
    # face-up Defense Position" (Light of Intervention): a Set of a monster is its Normal (Tribute) Summon in face-up
    # Defense Position, a Special Summon in face-down Defense Position is in face-up Defense Position, and an effect
    # that would turn a monster face-down cannot be activated (and turns none face-down)
    no_monster_sets: bool | None = None
    # "Both players can only Normal Summon up to 2 additional monsters" (Narrow Pass): each player's Normal Summons and
    # Sets (Tribute ones too) after this card became face-up (its activation) are counted; once they reach N, no more
    normal_summons_after_self: int | None = None
    # each card the opponent of this card's controller draws is shown to that controller before it is added to the hand
    # (Pikeru's Second Sight, in a `for_this_turn`: "your opponent shows you all the cards that they draw")
    shows_drawn: bool | None = None
    # "When this card is removed from the field, destroy …" as a continuous effect (no chain): as this face-up card leaves
    # the field, once its activation has resolved and while not negated, the cards the filter matches are destroyed at
    # once, read as it leaves (Pole Position: the face-up monster(s) with the highest ATK)
    destroys_on_leaving: Filter | None = None
    # "unaffected by any of your opponent's monster effects" (Lone Wolf): the face-up monsters it applies to are left out of
    # what an effect of a monster of their controller's opponent selects (its targets do nothing to them) and that
    # opponent's continuous monster effects skip them
    unaffected_by_opponent_monsters: bool | None = None
    # "Neither player can Tribute cards" (Mask of Restrict): no Tribute Summon or Set, no Tribute as a cost (an effect
    # or a Summon procedure), no Ritual Summon (its Tributes) and no Tribute asked by a card's own terms
    locks_tributes: bool | None = None
    # "neither player can conduct their Battle Phase" while it applies (D.D. Borderline, with its condition "When there are
    # no Spell Cards in your Graveyard"): the Battle Phase is not offered and entering it is refused (R-PHASE-8)
    no_battle_phase: bool | None = None
    # "There is no limit to the number of cards in players' hands" (Infinite Cards): no player discards for the hand limit
    # in the End Phase (R-PHASE-7) while it applies
    no_hand_limit: bool | None = None
    # a monster it applies to that is destroyed by battle is shuffled into its owner's Deck (a Fusion Monster: the Extra
    # Deck) instead of going to the GY — unless it is banished instead (Grave Protector: every other monster)
    battle_destroyed_to_deck: bool | None = None
    # "each player can only have 1 Type of monster on the field": while it applies, a player cannot Normal, Flip or Special
    # Summon (face-up) a monster of another Type than the face-up monsters they control — a Tribute Summon may Tribute them
    # all —, and a player who controls face-up monsters of 2 Types anyway (one flipped face-up) sends those of the Types
    # that became face-up last to the GY at once, by the rules (Rivalry of Warlords; face-down monsters have no Type)
    one_type_per_player: bool | None = None
    # the opponent's monsters can only choose it as an attack target, while it is a possible target ("they must select
    # the selected monster as the attack target": Taunt, as a `modify` flag until the end of the turn); must_be_attacked:
    # and the opponent's face-up monsters that can attack it must do so before the Battle Phase ends (Staunch Defender)
    draws_attacks: bool | None = None
    must_be_attacked: bool | None = None
    # "The control of all monsters on the field returns to the owners": while it applies, every monster is moved back to
    # its owner's field at once (no chain), and one an effect takes is given back at once; the taking effects go on
    # applying underneath — once it no longer applies, each monster whose taking effect still lasts (Snatch Steal still
    # equipped, a Charmer still face-up, Change of Heart in its turn, Creature Swap) goes back to its taker (Remove Brainwashing)
    control_to_owners: bool | None = None
    # "You do not pay Life Points to activate Spell Cards": the LP costs of its controller's Spell Card activations are
    # not paid (and need no LP); other LP costs — an effect of a face-up Spell, a maintenance, an attack — are (Spell Economics)
    no_spell_lp_costs: bool | None = None
    # "Each player must pay 500 Life Points per card to Normal Summon, Special Summon, Set or activate cards from his/her
    # respective hand": each player pays this many LP for each card they Normal Summon/Set, Special Summon (by a procedure
    # or an effect), Set or activate from their hand — a monster effect activated from the hand too (Kuriboh) —, for each
    # face-up card with it; an action whose LP they do not have is not offered (R-CHAIN-5) (Chain Energy)
    hand_play_lp_cost: int | None = Field(default=None, ge=1)
    # "Only 1 monster can attack during each Battle Phase": once a monster has declared an attack this turn, no other monster
    # (either player's) may — that one may still attack again if it can (The Dark Door)
    single_attacker: bool | None = None
    # "all Spirit monsters remain face-up on the field and do not return to their owners' hand during the End Phase" — the
    # rules' return of a Spirit (R-CARD-6) does not happen while it applies (Spiritual Energy Settle Machine)
    keeps_spirits: bool | None = None
    # "Both players must Set Spell Cards before activating them, and cannot activate them until their next turn after
    # Setting them" (Anti-Spell Fragrance): a Spell Card's activation from the hand, or of one Set this turn, is refused
    spells_set_first: bool | None = None
    # "any effect of increasing your opponent's Life Points is changed to inflict the same amount of points in damage to your
    # opponent's Life Points" (Bad Reaction to Simochi): LP its controller's opponent would gain from an effect (`gain_lp`)
    # are effect damage to that player instead
    opponent_gains_become_damage: bool | None = None
    # "Your opponent also pays the same Life Points that you pay for the selected monster": each time its controller pays LP
    # by the effect (or cost) of a card this filter matches, the opponent pays the same amount at once, no chain link —
    # as much as they have (Battle-Scarred: `{bound: true}`, with `condition: {phase: standby}` on the continuous effect)
    opponent_pays_too: Filter | None = None
    # the battle damage its direct attack inflicts becomes this ("can attack your opponent's Life Points directly. In that
    # case, the Battle Damage inflicted to your opponent by each of those cards becomes 400 points": Dark Scorpion Combination)
    direct_damage_becomes: int | None = Field(default=None, ge=0)
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)



Condition.model_rebuild()
