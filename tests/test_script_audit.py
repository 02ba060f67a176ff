"""Card scripts against their text: the cues in an effect's text must match its script.

A card's `text:` is a paraphrase of the official text and its `effects:` say what it does
(docs/cards.md). The two can drift apart. This audit splits each scripted card's text into
effect texts, finds the text of every scripted effect (by the operations the text names) and
checks cheap cues of the Problem-Solving Card Text against the script:

- target      "Target 1 …", "target the attacking monster", "by targeting 1 …" ↔ `target:`/`targets:`
              (R-TERM-17; an Equip Spell's activation targets by the rules, R-CARD-8), and what the
              text says of the target: how many, face-up/face-down, whose, in the GY, attacking;
- cost        the text before ";" (R-TERM-4) ↔ `cost:` with the same kinds of operation;
- optional    "You can" opening a trigger or FLIP effect ↔ `optional: true` (R-TERM-8); "then you
              can …" inside the resolution ↔ an operation that may choose none;
- order       "X, and if you do, Y" ↔ Y in an `if_you_do` right after X, or carried by X itself
              (`negate: {destroy: true}`, `destroy: {banish: true}`); "X, then Y" ↔ X before Y;
- once_per_turn  "Once per turn" ↔ `once_per_turn` (`name` for "only activate 1 "X" per turn",
              `card` for "once per turn, … 1 of these effects", `while_here` for "Once, while …");
- timing      an optional "When …: You can" trigger ↔ `timing: when` (R-CHAIN-10); an "If …" one
              must not have it;
- quick       "(Quick Effect)" / "during either player's turn" ↔ `kind: quick`;
- sent_to_gy  "destroyed … and sent to the GY" ↔ the event requires the GY (`where: {zone: gy}`);
- from_hand   "you can activate this card from your hand" (a Trap) ↔ an effect `from: [hand]`;
- flip, text  every "FLIP:" text and every text that reads as an effect ("…:", a cost or target
              before ";") has its scripted effect, and every scripted effect has its text.

Intended exceptions are listed in EXCEPTIONS with the reason for each. The text is split and taken
apart by ygoterm/schema/draft/phrases.py, which `ygoterm cards draft` reads texts with too.
"""

from __future__ import annotations

import re

from ygoterm.schema.draft.phrases import TARGET, Part, effect_texts, split_effect
from ygoterm.schema.effects import Effect, OpSpec
from ygoterm.schema.cards import FIXTURE_PASSCODES

_DARK_SCORPION = ("its two '●' effects are two optional 'When …' triggers on the same battle damage, the one wanted "
                  "chosen as it is activated (the first can then target, R-CHAIN-5); `once_per_turn: card` lets only one of "
                  "them answer (a Dark Scorpion battles once per turn). The audit reads each '●' line alone, without the "
                  "'When … you can activate 1 of these effects:' before them")
_LOOK = ("'Look at the top card of their Deck, then return it to the top or bottom': `look` (the card becomes `chosen`) and a "
         "`one_of` whose 'leave it on top' does nothing — the verb cues name no operation there")

# {card name: {cue: reason}}: the script is right although the cue says otherwise, or the text needs
# what the engine cannot do yet ("needs engine support: …"). A stale entry fails the test below.
EXCEPTIONS: dict[str, dict[str, str]] = {
    # batch s5 (issue #39)
    "Mega Ton Magical Cannon": {
        "cost": "old wording 'Remove 10 Spell Counters on your side of the field. Destroy all cards …': the removal is its cost "
                "(EDOPro's c32062913.lua: a cost), two sentences where today's style has ';'",
    },
    "Multiplication of Ants": {
        "cost": "old wording 'Tribute 1 Insect-Type Monster on your side of the field. Special Summon 2 …': the Tribute is its "
                "cost (R-TERM-3/4; EDOPro's c22493811.lua), two sentences where today's style has ';'",
    },
    "Necklace of Command": {
        "text": "an Equip Spell's activation (equip) and one trigger whose 'you can either: ● Draw 1 card. OR ● Discard 1 "
                "random card' is a one_of: the audit reads the sentence before the '●' lines alone, which names no operation",
    },
    "Order to Charge": {
        "target": "old wording 'Select 1 face-up Normal Monster … on your side of the field when you activate this card': "
                  "selected on activation is a target (EDOPro's c78986941.lua), as Winged Minion's 'Select'",
    },
    "Raimei": {
        "text": "old wording 'Decrease your opponent's Life Points by 300 points': effect damage (`damage: 300`; EDOPro's "
                "c56260110.lua: Damage)",
    },
    "Rain of Mercy": {
        "text": "old wording 'Increases the Life Points of both players by 1000 points': `gain_lp` for each player",
    },
    "Return of the Doomed": {
        "cost": "old wording 'Discard 1 Monster Card from your hand to the Graveyard. Return …': the discard is its cost "
                "(EDOPro's c19827717.lua), two sentences where today's style has ';'",
    },
    "Rod of Silence - Kay'est": {
        "order": "'Negate other Spell effects that target the equipped monster, and if you do, destroy that Spell Card' is "
                 "its continuous `negates_spells_targeting` (as Ryu Senshi's): no operation of its activation follows the equip",
    },
    "Seal of the Ancients": {
        "cost": "old wording 'Pay 1000 Life Points. Pick up and see all face-down cards …': the LP are its cost (EDOPro's "
                "c97809599.lua), two sentences where today's style has ';'",
    },
    "Secret Pass to the Treasures": {
        "text": "old wording 'the selected monster can attack your opponent's Life Points directly': a `modify` with "
                "`direct_attack` until the end of the turn on its target",
    },
    "Senri Eye": {
        "cost": "old wording 'you can pay 100 Life Points to look at …': the payment is its cost (EDOPro's c60391791.lua)",
        "optional": "old wording 'during each of your Standby Phases, you can pay …': 'you can' after the comma, optional",
    },
    "Shifting Shadows": {
        "cost": "old wording 'by paying 300 Life Points, rearrange …': the payment is its cost (EDOPro's c59237154.lua)",
    },
    "Prohibition": {
        "text": "'Activate by declaring 1 card name': the declaration is its activation's (a `declare` in `cost`); what it "
                "does is its continuous `forbids_use`, which no verb cue names",
    },
    "Miracle Dig": {
        "text": "old wording 'return 3 of them to the Graveyard': banished monsters 'returned' to the GY are sent there "
                "(`send_to_gy` of the 3 targets; today's text: 'Target 3 of your banished monsters; return them to the GY')",
    },
    # batch v1 (issue #39)
    "Riryoku": {
        "target": "'Target 2 face-up monsters' is one phrase for two roles chosen as it is activated: the first target is "
                  "halved, the second gains what it lost — two groups (first_target, second_target) of 1",
        "order": "'add that lost ATK to the other monster' is an ATK gain (a modify with atk_by: atk_lost in the if_you_do), "
                 "not an add to the hand",
    },
    "Gift of the Martyr": {
        "cost": "old wording 'Send 1 monster on your side of the field to the Graveyard. Select 1 monster …': the sending is the "
                "cost, printed before costs went before ';' (today: 'Tribute 1 monster, then target 1 face-up monster you control')",
        "target": "old wording 'Select 1 monster on your side of the field.': it targets (today's text: 'target 1 face-up monster "
                  "you control'), the selection in a sentence of its own",
    },
    "Insect Imitation": {
        "cost": "old wording 'Tribute 1 monster. Special Summon …': the Tribute is the cost (R-TERM-3/4), printed before costs "
                "went before ';'",
    },
    "Mystik Wok": {
        "cost": "old wording 'Tribute 1 monster. Select either its ATK or DEF …': the Tribute is the cost (R-TERM-3/4), printed "
                "before costs went before ';'",
    },
    "Metalzoa": {
        "text": "'Must first be Special Summoned (from your Deck) by Tributing …' is its Summoning condition: a procedure "
                "(from: deck) whose cost is the Tribute, which the audit reads as no effect text",
    },
    "DNA Surgery": {
        "text": "'Activate this card by declaring 1 Monster Type': the declaration is made as it is activated (a cost: "
                "declare), and the activation does nothing more; the continuous effect reads the declared Type",
    },
    "DNA Transplant": {
        "text": "'Activate by declaring 1 monster Attribute': the declaration is made as it is activated (a cost: declare), "
                "and the activation does nothing more; the continuous effect reads the declared Attribute",
    },
    "Energy Drain": {
        "target": "old wording 'Select 1 face-up monster on your side of the field.': it targets (today's text: 'Target 1 face-up "
                  "monster you control'), the selection in a sentence of its own",
    },
    # batch e2 (issue #38)
    "Witch Doctor of Chaos": {
        "text": "old wording 'FLIP: Select 1 Monster Card from … Graveyard. Remove it from play.': one FLIP effect in two "
                "sentences, the first its target (today's text: 'FLIP: Target 1 monster in either GY; banish it')",
        "flip": "the same: the FLIP sentence is the target of the banishment its next sentence says",
    },
    "Woodland Sprite": {
        "cost": "old wording 'Send 1 Equip Card equipped to this card to the Graveyard. Inflict 500 points of damage …': the "
                "sending is the cost of the damage (EDOPro's script: a cost), two sentences where today's style has ';'",
    },
    "Zombie Tiger": {
        "target": "old Union wording 'you can equip it to your \"Decayed Commander\" as an Equip Card' targets (today's Unions: "
                  "'Target 1 … you control; equip this card to that target', as Burning Beast's)",
        "once_per_turn": "the one sentence 'Once per turn, … you can equip it …, OR unequip …' is a Union's two ignitions sharing "
                         "one use a turn (once_per_turn: card, as Burning Beast's); the audit pairs the equip with the parenthesis",
    },
    "Winged Minion": {
        "target": "old wording 'Tribute this face-up card. Select 1 face-up Fiend-Type monster on the field.': the selection on "
                  "activation is a target (EDOPro's script), as Inferno Hammer's 'select'",
        "cost": "old wording 'Tribute this face-up card. Select …': the Tribute is its cost (R-TERM-3/4), two sentences where "
                "today's style has ';'",
    },
    "Yado Karu": {
        "optional": "old wording 'When this card is changed …, you can place …': optional (a 'When … you can' trigger, timing: "
                    "when), the comma hides the cue",
    },
    "Mystic Swordsman LV6": {
        "text": "'Destroy that monster, and if you do, you can place it on top of your opponent's Deck instead of sending it to "
                "the Graveyard' is one destruction whose destination the player picks as it resolves: a one_of between a destroy "
                "and a destroy with deck_top (no second action follows the destruction)",
    },
    "Ultimate Insect LV1": {
        "cost": "old wording 'by sending this face-up card to the Graveyard, Special Summon …': the sending is the cost, as the "
                "LV monsters' 'send this face-up card to the Graveyard to Special Summon …' (Armed Dragon LV3: 'You can send …;')",
        "optional": "old wording; the level-up is optional like every LV monster's (Armed Dragon LV3 today: 'You can send this card "
                    "to the GY;'), the 2005 texts of the series never said 'you can'",
    },
    "Ultimate Insect LV3": {
        "cost": "old wording 'by sending this face-up card to the Graveyard, Special Summon …': the sending is the cost, as the "
                "LV monsters' 'send this face-up card to the Graveyard to Special Summon …' (Armed Dragon LV3: 'You can send …;')",
        "optional": "old wording; the level-up is optional like every LV monster's (Armed Dragon LV3 today: 'You can send this card "
                    "to the GY;'), the 2005 texts of the series never said 'you can'",
    },
    "Ultimate Insect LV5": {
        "cost": "old wording 'by sending this face-up card to the Graveyard, Special Summon …': the sending is the cost, as the "
                "LV monsters' 'send this face-up card to the Graveyard to Special Summon …' (Armed Dragon LV3: 'You can send …;')",
        "optional": "old wording; the level-up is optional like every LV monster's (Armed Dragon LV3 today: 'You can send this card "
                    "to the GY;'), the 2005 texts of the series never said 'you can'",
    },
    "Makyura the Destructor": {
        "optional": "'You can activate Trap Cards from your hand' grants a permission for the turn; the effect that grants it is mandatory",
    },
    "Skilled Dark Magician": {
        "cost": "the 3 Spell Counters are a condition of the Tribute; removing them as part of the cost is how the script requires them",
    },
    "Metamorphosis": {
        "cost": "'Tribute 1 monster.' is its cost, printed before card texts put costs before ';' (its Level decides the Summon)",
    },
    "The Forgiving Maiden": {  # goat batch d3
        "target": "old wording 'return to your hand 1 of your monsters destroyed …': it targets (EDOPro's c84080938.lua, "
                  "EFFECT_FLAG_CARD_TARGET), chosen as it is activated",
        "cost": "old wording 'Tribute this face-up card to return …': the Tribute is the cost, printed before costs went before ';'",
    },
    "The Agent of Judgment - Saturn": {
        "cost": "old wording 'you can Tribute this card to inflict …': the Tribute is the cost, printed before costs went before ';'",
    },
    "Dora of Fate": {  # goat batch h3
        "text": "its activation only targets the monster and makes a delayed effect (`later`, whose operations the cues leave "
                "to its own text); old wording 'Select 1 face-up monster': it targets (EDOPro's c67464807.lua, EFFECT_FLAG_CARD_TARGET)",
    },
    "Graverobber": {  # goat batch h3
        "target": "old wording 'Select 1 Spell Card from your opponent's Graveyard': it targets (EDOPro's c61705417.lua, "
                  "EFFECT_FLAG_CARD_TARGET), chosen as it is activated",
    },
    "Supply": {
        "target": "old wording 'Return 2 Fusion-Material monsters …': it targets them (EDOPro's c44072894.lua, EFFECT_FLAG_CARD_TARGET, "
                  "exactly 2), chosen as the FLIP effect is activated",
    },
    "The Little Swordsman of Aile": {
        "cost": "old wording 'Offer 1 monster … as a Tribute to increase …': the Tribute is the cost, printed before costs went before ';'",
    },
    "The Kick Man": {
        "optional": "old wording 'When …, you can equip …': optional (and a 'When … you can' trigger, timing: when), the comma hides the cue",
    },
    "The Rock Spirit": {
        "text": "old wording 'This card can only be Special Summoned by removing from play 1 EARTH monster in your Graveyard' "
                "is its Special Summon procedure (as Aqua Spirit, Inferno)",
    },
    "The Stern Mystic": {
        "text": "'turned face-up, and then returned to their original positions' with 'no card effects are activated': the cards "
                "are shown to both players and stay face-down — a reveal, no change of position",
        "flip": "its FLIP text is that reveal (above)",
    },
    "Card of Safe Return": {
        "optional": "old wording 'When …, you can draw 1 card.': optional (and a 'When … you can' trigger, timing: when), the comma hides the cue",
    },
    "The Thing in the Crater": {  # batch e1
        "optional": "old wording 'When …, you can Special Summon …': optional (and a 'When … you can' trigger, timing: when), the comma hides the cue",
    },
    "Tornado Bird": {
        "target": "old wording 'FLIP: Return 2 Spell or Trap Cards on the field': it targets (today's text: 'FLIP: Target 2 Spells/Traps on the "
                  "field; return them to the hand')",
    },
    "Theinen the Great Sphinx": {
        "cost": "old wording: 'by paying 500 Life Points when both … are destroyed at the same time' — the 500 LP is the cost, the "
                "destruction its trigger (`when: … together:`); 'pay 500 Life Points to increase the ATK' — the 500 LP is that effect's cost",
        "optional": "old wording 'then you can Special Summon this monster': its Summon is optional, the 'you can' follows the condition",
        "timing": "old wording '… when both … are destroyed at the same time; then you can …': a 'When … you can' trigger (R-CHAIN-10)",
    },
    "Throwstone Unit": {
        "target": "old wording 'Tribute … to destroy 1 face-up monster on the field …': it targets (today's text: 'You can Tribute 1 "
                  "Warrior monster, then target 1 face-up monster on the field with DEF less than or equal to this card's ATK; destroy it')",
        "cost": "old wording 'Tribute 1 Warrior-Type monster … to destroy …': the Tribute is its cost (today's text: 'You can Tribute 1 Warrior monster, then target …')",
    },
    "Valkyrion the Magna Warrior": {
        "target": "'target 1 \"Alpha …\", \"Beta …\", and \"Gamma …\"' is 3 groups of 1, one per name (a single group of 3 would allow 2 of a name)",
    },
    "Recycle": {
        "target": "old wording 'by paying 300 Life Points, select 1 …': today's text (its goat: text) targets",
        "cost": "old wording 'by paying 300 Life Points': the payment is the cost (today's text: 'You can pay 300 LP, then target …')",
        "optional": "old wording; today's text says 'You can pay 300 LP'",
    },
    "Threatening Roar": {
        "text": "'cannot declare an attack this turn' binds every monster the opponent controls for the rest of the turn, "
                "those Summoned after it resolves too: a for_this_turn continuous effect, which the text names by 'this turn' only",
    },
    # batch t4 (issue #39)
    "Skill Drain": {
        "cost": "the 2005 text 'Activate by paying 1000 Life Points.' predates ';' for costs; the payment is its cost "
                "(today's text: 'Activate this card by paying 1000 LP.')",
    },
    "Self-Destruct Button": {
        "text": "'Both player's Life Points become 0' is its effect (lose_lp: {amount: lp, player: each}); the audit's "
                "sentences know 'lose LP', not 'Life Points become 0'",
    },
    "Soul Demolition": {
        "cost": "the 2005 text 'Pay 500 Life Points to use this effect.' predates ';' for costs; the payment is its cost",
    },
    "Spell Purification": {
        "cost": "the 2005 text 'Discard 1 card from your hand.' predates ';' for costs; the discard is its cost",
    },
    "Spell Vanishing": {
        "cost": "the 2005 text 'Discard 2 cards from your hand.' predates ';' for costs; the discard is its cost",
    },
    "The Dragon's Bead": {
        "cost": "the 2005 text 'Discard 1 card from your hand.' predates ';' for costs; the discard is its cost",
    },
    "Type Zero Magic Crusher": {
        "cost": "the 2005 text 'Discard 1 Spell Card from your hand to inflict …' predates ';': the discard is the cost "
                "of each use",
    },
    "The Regulation of Tribe": {
        "cost": "'Declare 1 Type of monster.' is declared as the card is activated (the text predates ';'), as "
                "Tribe-Infecting Virus's `declare` in its cost: its continuous effect reads that declaration",
    },
    "Thunder of Ruler": {
        "text": "'there is no Battle Phase this turn' is its skip of the opponent's Battle Phase this_turn; the audit's "
                "sentences know 'skip', not 'there is no Battle Phase'",
    },
    "Token Feastevil": {
        "order": "'When a Token(s) is Special Summoned' is its event, not a Token operation: the 'and if you do' is "
                 "destroy → damage, as scripted",
    },
    "Toon Defense": {
        "target": "'an attack targeting a face-up … Toon Monster' is the attack's target, not a target of this effect: the "
                  "condition reads it with the filter attacked",
    },
    "Wall of Revealing Light": {
        "cost": "the 2005 text 'Activate by paying any multiple of 1000 Life Points.' predates ';' for costs; the payment "
                "is its cost",
    },
    "Staunch Defender": {
        "target": "the 2005 wording 'Select 1 face-up monster on your side of the field' is a target (the old wording for "
                  "one), in the sentence after its activation condition",
    },
    "Taunt": {
        "text": "'they must select the selected monster as the attack target' is its modify flag draws_attacks on the "
                "target; the audit's sentences know no such verb",
    },
    "Xing Zhen Hu": {
        "text": "'Activate by selecting 2 Set Spell or Trap Cards on the field' is its activation's targets, which it "
                "remembers (select: {keep: true}); what they cannot do is its continuous effect",
    },
    "White Hole": {
        "text": "'cannot be destroyed by that \"Dark Hole's\" effect' is its operation spare on the chain link it answers; "
                "the audit's sentences know no such verb",
    },
    "Shift": {
        "target": "'Target another monster you control …;' is the target of both effects (one text split in two scripted "
                  "effects: the attack's, the Spell/Trap's); the audit does not find it after the long 'When … or …:' clause",
    },
    "Snake Fang": {
        "text": "the 2005 wording 'Decrease 1 selected monster's DEF by 500 points' is its modify (def: -500) of the "
                "target; the audit reads 'loses DEF', not 'Decrease … DEF'",
    },
    "Forced Ceasefire": {
        "cost": "the 2005 text 'Discard 1 card from your hand.' predates ';' for costs; the discard is its cost "
                "(today's text: 'Discard 1 card; Trap Cards cannot be activated for the rest of this turn')",
    },
    "Curse of Aging": {
        "cost": "the 2005 text 'Discard 1 card from your hand.' predates ';' for costs; the discard is its cost "
                "(today's text: 'Discard 1 card; all monsters your opponent currently controls lose 500 ATK/DEF …')",
    },
    "Driving Snow": {
        "target": "'Destroy 1 Spell or Trap Card on the field' targets (the OCG text 'select' (選択して) is the old wording "
                  "for a target; today's: 'Target 1 Spell/Trap on the field; destroy that target')",
    },
    "Gust": {
        "target": "'Destroy 1 Spell or Trap Card on the field' targets (the OCG text 'select' (選択して) is the old wording "
                  "for a target; today's: 'Target 1 Spell/Trap on the field; destroy that target')",
    },
    "Don Zaloog": {
        "text": "its two '●' effects are one trigger whose `one_of` offers both; the audit pairs texts with operations, not with choices",
    },
    "Dark Scorpion - Chick the Yellow": {"optional": _DARK_SCORPION, "once_per_turn": _DARK_SCORPION, "timing": _DARK_SCORPION, "text": _LOOK},
    "Dark Scorpion - Cliff the Trap Remover": {"optional": _DARK_SCORPION, "once_per_turn": _DARK_SCORPION, "timing": _DARK_SCORPION},
    "Dark Scorpion - Gorg the Strong": {"optional": _DARK_SCORPION, "once_per_turn": _DARK_SCORPION, "timing": _DARK_SCORPION},
    "Dark Scorpion - Meanae the Thorn": {"optional": _DARK_SCORPION, "once_per_turn": _DARK_SCORPION, "timing": _DARK_SCORPION},
    "Cyber Raider": {
        "text": "its two '●' effects target the same card (1 Equip Card equipped to a monster): one mandatory trigger that "
                "targets it as it is activated, and a `one_of` that offers both as it resolves; the audit pairs texts with "
                "operations, not with choices",
    },
    "Cipher Soldier": {
        "text": "needs engine support: no trigger can activate during damage calculation (the engine's damage calculation "
                "window takes Quick Effects only); scripted as the 2005 text reads — a continuous 2000 ATK/DEF while it "
                "battles a Warrior, during damage calculation only (condition damage_calculation) — with the same result",
    },
    "Dark Balter the Terrible": {
        "cost": "old wording 'negate the effect by paying 1000 Life Points': the payment is its cost (paid as the effect is "
                "activated in answer to the Normal Spell, R-CHAIN-5), written after the effect in the pre-';' text",
    },
    "Aussa the Earth Charmer": {
        "target": "old wording 'take control of 1 EARTH monster your opponent controls': it targets (today's text: "
                  "'Target 1 EARTH monster your opponent controls; take control of it while this card is face-up on the field')",
    },
    "Wynn the Wind Charmer": {
        "target": "old wording 'take control of 1 WIND monster your opponent controls': it targets (today's text: "
                  "'Target 1 WIND monster your opponent controls; take control of it while this card is face-up on the field')",
    },
    "Nobleman of Extermination": {
        "target": "old wording 'Select, destroy, and remove from play 1 face-down Spell or Trap Card' targets (today's text: "
                  "'Target 1 face-down Spell/Trap on the field; destroy that target, and if you do, banish it …')",
    },
    "Cyber-Stein": {
        "cost": "the 2005 text 'Pay 5000 Life Points.' predates ';' for costs; the payment is its cost "
                "(today's text: 'You can pay 5000 LP; Special Summon 1 Fusion Monster from your Extra Deck in Attack Position')",
    },
    # batch s6 (issue #39): 2005 wordings of Spell Cards
    "Soul Reversal": {
        "target": "old wording 'Return 1 Flip Effect Monster from your Graveyard' targets (Yugipedia, Soul Reversal: today's text "
                  "'Target 1 Flip monster in your GY; return it to the top of the Deck')",
    },
    "Special Hurricane": {
        "cost": "the 2005 text 'Discard 1 card from your hand.' predates ';' for costs; the discard is its cost (R-CHAIN-5; today's "
                "'Discard 1 card; destroy all Special Summoned monsters')",
    },
    "Spellbook Organization": {
        "text": "'Look at the top 3 cards of your Deck, then return them to the top of the Deck in any order' is one `look` with "
                "`then: reorder` (as Big Eye) — the verb cues name no operation there",
    },
    "The Graveyard in the Fourth Dimension": {
        "text": "old wording 'Add 2 \"LV\" monsters from your Graveyard to your Deck and shuffle it' is a `return_to_deck` "
                "with `position: shuffle` (the verb cues read 'add' as to the hand); it targets (TCG FAQ of the era)",
    },
    "The Inexperienced Spy": {
        "text": "'Select and see 1 card in your opponent's hand' is a `reveal` to its controller of a card chosen at random "
                "among the hidden ones — the verb cues name no operation there",
    },
    "The Reliable Guardian": {
        "text": "old wording 'Increase 1 face-up monster's DEF by 700 points' is a `modify` (today's 'it gains 700 DEF'), "
                "which the verb cues do not read in that wording",
    },
    "The Shallow Grave": {
        "target": "'Each player selects 1 monster in their Graveyard' targets on activation (TCG FAQ of the era: Spear Cretin's "
                  "page lists The Shallow Grave among the cards that select a GY target at activation)",
    },
    "Two-Man Cell Battle": {
        "optional": "'the turn player can Special Summon': in its controller's End Phase the trigger is optional (that "
                    "player decides); in the opponent's, a mandatory trigger whose Summon the opponent may decline (a "
                    "`choose` with count '0-1', who: opponent)",
    },
    "Wave-Motion Cannon": {
        "cost": "old wording 'you can send this card to the Graveyard to inflict …': sending it is the cost (TCG FAQ of the era: "
                "'Sending \"Wave-Motion Cannon\" to the Graveyard is a cost'), before ';' existed",
    },
    "Spiritualism": {
        "target": "old wording 'Return 1 Spell/Trap Card your opponent controls to the hand' targets (today's text: 'Target 1 "
                  "Spell/Trap your opponent controls; return that target to the hand')",
    },
    "Tailor of the Fickle": {
        "target": "old wording 'Switch 1 Equip Card equipped to a monster to another correct target' targets both cards (today's "
                  "text: 'Target 1 Equip Spell equipped to a monster and 1 other monster it can be equipped to')",
    },
    # batch s4 (issue #39): 2005 wordings of Spell Cards
    "Final Countdown": {
        "cost": "the 2005 text 'Pay 2000 Life Points.' predates ';' for costs; the payment is its cost (R-CHAIN-5)",
    },
    "Final Destiny": {
        "cost": "the 2005 text 'Discard 5 cards from your hand.' predates ';' for costs; the discard is its cost (R-CHAIN-5)",
    },
    "Fulfillment of the Contract": {
        "cost": "the 2005 text 'Pay 800 Life Points.' predates ';' for costs; the payment is its cost (R-CHAIN-5)",
    },
    "Gather Your Mind": {
        "once_per_turn": "said in a sentence of its own: 'You can only use 1 \"Gather Your Mind\" per turn.' (every copy: `name`)",
    },
    "Gravedigger Ghoul": {
        "text": "old wording 'Select up to 2 Monster Card(s) from your opponent's Graveyard. Remove the selected card(s) from play.': "
                "one effect in two sentences, the first its target (today's text: 'Target up to 2 monsters in your opponent's GY; banish them')",
    },
    "Heart of the Underdog": {
        "timing": "'During your Draw Phase, when you draw a Normal Monster(s): You can …': a 'When … you can' trigger (R-CHAIN-10) "
                  "whose sentence starts with the phase",
    },
    "Horn of Light": {
        "cost": "the 2005 text '… if you pay 500 Life Points, this card returns to the top of your Deck' predates ';' for costs: the "
                "payment is its cost (today's Malevolent Nuzzler-like 'You can pay 500 LP; put this card on top of your Deck')",
        "optional": "'if you pay 500 Life Points' makes it optional (R-TERM-8): its controller may not pay",
    },
    "Hieroglyph Lithograph": {
        "cost": "the 2005 text 'Pay 1000 Life Points.' predates ';' for costs; the payment is its cost (R-CHAIN-5)",
    },
    "Impenetrable Formation": {
        "text": "old wording 'Select 1 monster on your side of the field to activate this card.': its target, the sentences after "
                "say what applies to it (a continuous effect) and when this card is destroyed (bound as Shadow Spell)",
    },
    "Inspection": {
        "cost": "'… at the cost of 500 Life Points': the payment is its cost, said after the effect (the 2005 text: 'You can pay 500 LP; …')",
        "optional": "'you can randomly select …' in lower case after the phase: optional (R-TERM-8)",
    },
    "Jade Insect Whistle": {
        "text": "'Your opponent selects 1 Insect-Type Monster from their Deck. After shuffling the Deck, place the card on top of the "
                "Deck.': one move to the top of the Deck (return_to_deck position top, the Deck shuffled first), chosen by the opponent",
    },
    "Malice Dispersion": {
        "cost": "the 2005 text 'Discard 1 card from your hand.' predates ';' for costs; the discard is its cost (R-CHAIN-5)",
    },
    "Mass Driver": {
        "cost": "old wording 'Tribute 1 monster … to inflict 400 points of damage': the Tribute is its cost (R-TERM-3, R-CHAIN-5)",
    },
    "Gravekeeper's Servant": {
        "text": "'Your opponent must send 1 card from the top of their Deck to the Graveyard to declare an attack.': an attack cost "
                "(kind attack_cost, paid by the opponent) has no operations to do, only its cost",
    },
    "Last Will": {
        "text": "its script plays the 2005 text, whose Special Summon waits for a later event: the `do` is a delayed effect "
                "(`later: {at: event}`) the audit does not read (its `goat.note` says why)",
    },
    "Mask of Dispel": {
        "text": "old wording 'Select 1 face-up Spell Card on the field.': its target, bound to it (`bind` one way); the sentences "
                "after say what happens in your Standby Phases (a trigger) and when this card is destroyed",
    },
    # batch s3 (issue #39): 2005 wordings of Spell Cards
    "Dimension Fusion": {
        "cost": "the 2005 text 'Pay 2000 Life Points.' predates ';' for costs; the payment is its cost (R-CHAIN-5)",
    },
    "Enchanting Fitting Room": {
        "cost": "the 2005 text 'Pay 800 Life Points.' predates ';' for costs; the payment is its cost (R-CHAIN-5)",
    },
    "Combination Attack": {
        "text": "old wording 'you can use this effect on 1 monster … Change the Union Monster back to a monster … may attack "
                "again this turn': a Special Summon of the Union (out of its Spell & Trap Zone) and another attack, in words "
                "the audit's verbs do not read",
    },
    "Flint": {
        "target": "old wording 'select 1 monster on the field and equip this card to that monster': the 2005 'select' as the "
                  "effect is activated is a target, as Dimensionhole's",
    },
    "Kaminote Blow": {
        "text": "its whole resolution is a delayed effect ('Destroy the monster(s) that battle with these monsters … this turn, "
                "at the end of each Damage Step': `later` at each such event); the audit reads a delayed effect's text only "
                "beside an operation done at once",
    },
    "Abyssal Designator": {
        "cost": "the 2005 text 'Pay 1000 Life Points. Declare a Type and an Attribute.' predates ';' for costs; the payment "
                "and both declarations are made on activation (R-CHAIN-5; today's text: 'Pay 1000 LP, then declare …; …')",
    },
    "After the Struggle": {
        "text": "its whole resolution is a delayed effect ('… are destroyed during the End Step of the turn': `later` at the End "
                "Phase); the audit reads a delayed effect's text only beside an operation done at once",
    },
    "Different Dimension Gate": {
        "target": "'targeting 1 monster on each side of the field' is 2 targets, 1 of yours and 1 of your opponent's: "
                  "two target groups (`targets:`, one per side)",
    },
    "Dimensionhole": {
        "target": "old wording 'Select 1 monster on your side of the field and remove it from play': the 2005 'select' on "
                  "activation is a target (EDOPro's script, EFFECT_FLAG_CARD_TARGET), and the monster is banished as it resolves",
    },
    "Dimension Distortion": {
        "target": "old wording 'Select 1 removed from play monster and Special Summon it' targets (2005 'select' on activation is a target; "
                  "the OCG text reads '1 of your removed from play monsters')",
    },
    "Double Attack": {
        "cost": "the 2005 text 'Discard 1 Monster Card from your hand to the Graveyard.' predates ';' for costs; the discard is "
                "its cost (R-CHAIN-5)",
        "target": "old wording 'Select 1 monster on your side of the field with a lower Level' targets, after the cost",
    },
    "Delta Attacker": {
        "text": "old wording 'can attack your opponent's Life Points directly during the turn that this card is activated': a "
                "`modify` with direct_attack until the end of the turn, which the cues for direct attacks do not read in that order",
    },
    "3-Hump Lacooda": {
        "cost": "old wording 'Tribute 2 of them to draw 3 cards': the Tribute is its cost (R-TERM-3/4; today's style: 'Tribute 2 of them; draw 3 cards')",
    },
    "A-Team: Trap Disposal Unit": {
        "cost": "old wording 'Tribute this face-up card to negate …': the Tribute is its cost (today's text: 'You can Tribute this card; negate the activation, and if you do, destroy it')",
    },
    "Anti-Aircraft Flower": {
        "cost": "old wording 'By Tributing 1 Insect-Type monster …, inflict 800 …': the Tribute is its cost (R-TERM-3/4)",
    },
    "Arcane Archer of the Forest": {
        "cost": "old wording 'By Tributing 1 Plant-Type monster …, destroy …': the Tribute is its cost (R-TERM-3/4)",
        "target": "old wording 'destroy 1 Spell or Trap Card on the field' targets (today's text: 'You can Tribute 1 Plant monster, "
                  "then target 1 Spell/Trap on the field; destroy that target')",
    },
    "Amazoness Blowpiper": {
        "target": "old wording 'Select 1 face-up monster your opponent controls' targets (today's text: 'Target 1 face-up monster "
                  "your opponent controls; it loses 500 ATK until the end of this turn')",
    },
    "Aqua Spirit": {
        "text": "old wording 'This card can only be Special Summoned by removing from play 1 WATER monster in your Graveyard' "
                "is its Special Summon procedure (as Inferno)",
        "target": "old wording 'change the battle position of 1 of your opponent's face-up Monster Cards' targets (today's text: "
                  "'You can target 1 face-up monster your opponent controls; change its battle position')",
        "optional": "old wording 'During each of your opponent's Standby Phases, you can change …': optional, the comma hides the cue",
    },
    "Aswan Apparition": {
        "optional": "old wording 'If this card inflicts Battle Damage …, you can return …': optional, the comma hides the cue",
    },
    "A Man with Wdjat": {
        "target": "old wording 'select 1 Set card on your opponent's side of the field' targets (today's text: 'Target 1 Set card "
                  "your opponent controls; look at it, then return it to its original position')",
    },
    "Archlord Zerato": {
        "text": "old wording 'This card cannot be Special Summoned except by Tributing 1 face-up \"Warrior of Zera\" … while "
                "\"The Sanctuary in the Sky\" is on the field' is its Special Summon procedure (a condition and a Tribute cost)",
        "cost": "old wording 'by discarding 1 LIGHT Monster Card from your hand to the Graveyard, destroy …': the discard is its cost (R-TERM-4)",
    },
    "Don Turtle": {
        "optional": "old wording 'When this card is Normal Summoned or Flip Summoned, you can Special Summon …': optional (and a "
                    "'When … you can' trigger, timing: when), the comma hides the cue",
    },
    "Weapon Change": {
        "once_per_turn": "'Once during each of your Standby Phases': once per turn, as its player has one Standby Phase a turn "
                         "(condition: phase standby, your_turn)",
    },
    "Spirit of the Pharaoh": {
        "optional": "old wording 'When this card is Special Summoned, you can Special Summon up to 4 …': optional (and a "
                    "'When … you can' trigger, timing: when), the comma hides the cue",
    },
    "Drill Bug": {
        "optional": "old wording 'When this card inflicts Battle Damage …, you can select …': optional (and a 'When … you can' "
                    "trigger, timing: when), the comma hides the cue",
    },
    "Dragon Seeker": {
        "target": "old wording 'destroy 1 face-up Dragon-Type monster on the field' targets (today's text: 'Target 1 face-up "
                  "Dragon monster on the field; destroy it'; EDOPro Dragon Seeker: EFFECT_FLAG_CARD_TARGET)",
    },
    "Desertapir": {
        "target": "old wording 'Flip 1 face-up monster on the field … You cannot select \"Desertapir\"' targets (today's text: "
                  "'Target 1 face-up monster on the field, except \"Desertapir\"; change that target to face-down Defense Position')",
    },
    # batch t2 (Traps, #39)
    "Fairy's Hand Mirror": {
        "target": "'Target another card that would be an appropriate target;' is its target (R-TERM-17); the audit reads the "
                  "sentence's other 'targets' (the opponent's Spell's) as the condition's",
    },
    "Fiend's Hand Mirror": {
        "target": "old wording 'Switch the opponent's Spell Card effect … to another correct target': choosing the new target "
                  "as it is activated is targeting it (R-TERM-17), as Fairy's Hand Mirror's 'Target another card'",
    },
    "Hallowed Life Barrier": {
        "cost": "wording 'Discard 1 card from your hand. This turn, …': the discard is paid as the card is activated, its "
                "cost (R-TERM-4), not part of the effect's resolution",
    },
    "Fruits of Kozaky's Studies": {
        "text": "'Look at the top 3 cards of your Deck and return those cards to the top of the Deck in any order' is one "
                "look with then: reorder (the audit has no cue for 'look at')",
    },
    "Fuh-Rin-Ka-Zan": {
        "text": "'When there are face-up WIND, WATER, FIRE and EARTH monster(s) on the field: Apply 1 of these effects' is an "
                "activation condition (on a state, not an event) and a one_of of the 4 effects",
    },
    "Destruction Punch": {
        "text": "old wording 'If the ATK of an attacking monster … is lower than the DEF of the attacked Defense Position monster, "
                "destroy the attacking monster at the end of the Damage Step': activated as the attack is declared, its "
                "destruction a later after damage calculation (the filter attacking: into_higher_def)",
    },
    "Elemental Burst": {
        "cost": "old wording 'Tribute 1 each of WIND, WATER, FIRE, and EARTH monsters to activate this card': the Tributes "
                "are its cost (R-TERM-3/4)",
    },
    "Deal of Phantom": {
        "text": "old wording 'Select 1 monster face-up on the field. Increase the selected monster's ATK by 100 points for each "
                "monster in your Graveyard': its target and modify (the count is taken by its cost's select, as activated)",
    },
    "Destruction Ring": {
        "target": "old wording 'Destroy 1 face-up monster on your side of the field to inflict 1000 points of damage …' targets "
                  "(today's text: 'Target 1 face-up monster you control; destroy that target, and if you do, inflict 1000 damage "
                  "to both players')",
    },
    "Disappear": {
        "target": "old wording 'Remove from play 1 card from your opponent's Graveyard' targets (today's text: 'Target 1 card in "
                  "your opponent's GY; banish it')",
    },
    "Eatgaboon": {
        "target": "old wording 'If the ATK of a monster summoned by your opponent … the monster is destroyed' targets that monster "
                  "(today's text: 'When your opponent Normal or Flip Summons a monster with 500 or less ATK: Target that monster; "
                  "destroy that target')",
    },
    "House of Adhesive Tape": {
        "target": "old wording 'If the DEF of a monster summoned by your opponent … the monster is destroyed' targets that monster "
                  "(today's text: 'When your opponent Normal or Flip Summons a monster with 500 or less DEF: Target that monster; "
                  "destroy that target')",
    },
    "Dummy Golem": {
        "text": "old wording: its FLIP effect is two sentences, 'FLIP: Your opponent selects 1 monster that they control. Switch "
                "control of the selected monster and this card.' (swap_control with give: self) — the audit gives a FLIP only the first",
        "flip": "old wording: the FLIP's first sentence only says who selects; the second, 'Switch control of the selected monster "
                "and this card', is what its swap_control does",
    },
    "Dreamsprite": {
        "target": "old wording 'select another 1 of your Monster Cards and designate it as the attack's target' targets (EDOPro "
                  "Dreamsprite: EFFECT_FLAG_CARD_TARGET, chosen as the trigger activates before damage calculation)",
    },
    "Desrook Archfiend": {
        "cost": "old wording 'you can send this card from your hand to the Graveyard to Special Summon the \"Terrorking Archfiend\"': "
                "sending itself is the cost (EDOPro Desrook Archfiend: aux.SelfToGraveCost)",
        "optional": "old wording 'When a \"Terrorking Archfiend\" … is destroyed and sent to the Graveyard, you can send …': optional "
                    "(and a 'When … you can' trigger, timing: when), the comma hides the cue",
    },
    "Inferno": {
        "text": "old wording 'This card can only be Special Summoned by removing from play 1 FIRE monster in your Graveyard' "
                "is its Special Summon procedure (today's: 'Must first be Special Summoned (from your hand) by banishing …')",
    },
    # batch b2 (#38)
    "Chopman the Desperate Outlaw": {
        "optional": "old wording 'When this card is Flip Summoned, you can equip …': optional, the comma hides the cue",
        "target": "old wording 'equip 1 Equip Spell Card in your Graveyard' targets (ocgcore's script: CARD_TARGET; today's text: "
                  "'You can target 1 Equip Spell in your GY; equip it to this card')",
    },
    "Coach Goblin": {
        "cost": "old wording 'you can return 1 Normal Monster Card in your hand to the bottom of your Deck … to draw 1 card': "
                "the return is its cost (today's text: 'You can place 1 Normal Monster from your hand on the bottom of the Deck; draw 1 card')",
        "optional": "old wording 'you can return …' after 'While this card is face-up …,': optional, the comma hides the cue",
        "once_per_turn": "'You can only use this effect once per turn.' is a sentence of its own, which the audit reads apart",
    },
    "Cocoon of Evolution": {
        "target": "old wording 'equip this card … to a face-up \"Petit Moth\" on the field' targets the Moth (OCG text: 選択して; "
                  "an equip from the hand chooses its monster on activation, R-CARD-8)",
    },
    "Dark Blade the Dragon Knight": {
        "target": "old wording 'you can select up to 3 Monster Cards from your opponent's Graveyard' targets (OCG text: 3枚まで選択し; "
                  "today's text: 'You can target up to 3 monsters in your opponent's GY; banish those targets')",
        "optional": "old wording 'Each time …, you can select …': optional, the comma hides the cue",
    },
    "Dark Cat with White Tail": {
        "target": "old wording 'Return 2 Monster Cards on your opponent's side of the field and 1 Monster Card on your side' "
                  "targets (OCG text: 選択して; today's text: 'Target 2 monsters your opponent controls and 1 monster you control')",
    },
    "Crass Clown": {
        "target": "old wording 'return 1 monster on your opponent's side of the field' targets (OCG text: 選択して; today's text: "
                  "'Target 1 monster your opponent controls; return that target to the hand')",
    },
    "Crimson Sentry": {
        "cost": "old wording 'Tribute this face-up card to return …': the Tribute is its cost (R-TERM-3/4)",
        "target": "old wording 'return 1 of your monsters destroyed … during this turn' targets (OCG text: 選択して; ocgcore's "
                  "script targets a monster in the GY destroyed by battle this turn)",
    },
    "Larvae Moth": {
        "text": "old wording 'This card can only be Special Summoned by Tributing \"Petit Moth\" on the 2nd of your turns after …' "
                "is its Special Summon procedure (as Great Moth's)",
    },
    "Legendary Flame Lord": {
        "cost": "old wording 'Remove 3 Spell Counters from this card to destroy …': the counters removed are its cost (R-TERM-4)",
    },
    "Lady Ninja Yae": {
        "cost": "old wording 'By discarding 1 WIND monster from your hand to the Graveyard, return …': the discard is its cost (R-TERM-4)",
    },
    "Lady Panther": {
        "cost": "old wording 'Tribute this face-up card to return …': the Tribute is its cost (R-TERM-3/4), as Crimson Sentry",
        "target": "old wording 'return 1 of your monsters destroyed … during this turn' targets, as Crimson Sentry (OCG text: "
                  "選択して; ocgcore's script targets a monster in the GY destroyed by battle this turn)",
    },
    "Dark Sage": {
        "cost": "'Must first be Special Summoned (from your hand or Deck) by Tributing 1 \"Dark Magician\" immediately after "
                "applying the effect of \"Time Wizard\" …' is an optional trigger of the card in the hand or Deck (ocgcore: TRIGGER_O "
                "on Time Wizard's right call) whose cost is the Tribute; the audit pairs it with the text of its other trigger",
        "optional": "its Special Summon after Time Wizard is optional (ocgcore: TRIGGER_O); the audit pairs it with the text of its other trigger",
    },
    "Decayed Commander": {
        "optional": "old wording 'When this card is Normal Summoned successfully, you can Special Summon …': optional, the comma hides the cue",
    },
    "Fairy Guardian": {
        "cost": "old wording 'Tribute this face-up card to return 1 Spell Card …': the Tribute is the cost (R-TERM-4), as the LV "
                "monsters' 'send this face-up card to the Graveyard to Special Summon …' (Ultimate Insect LV1)",
    },
    "Fenrir": {
        "text": "old wording 'This card can only be Special Summoned by removing 2 WATER monsters in your Graveyard from play' "
                "is its Special Summon procedure (as Inferno)",
    },
    "Freezing Beast": {
        "target": "old Union wording 'you can equip it to your \"Burning Beast\" as an Equip Card' targets (today's Unions: "
                  "'Target 1 \"Burning Beast\" you control; equip this card to that target', as Y-Dragon Head's)",
        "once_per_turn": "the one sentence 'Once per turn, … you can equip it …, OR unequip … and Special Summon this card' is a "
                         "Union's two ignitions sharing one use a turn (once_per_turn: card, as Y-Dragon Head's)",
    },
    "Freed the Matchless General": {
        "once_per_turn": "there is one normal draw to replace: one Freed's search a turn, every copy (once_per_turn: name; its 2005 "
                         "text: 'you can add 1 … per turn instead of drawing')",
    },
    "Fushioh Richie": {
        "optional": "old wording 'When this card is flipped face-up, you can Special Summon …': optional, the comma hides the cue "
                    "(as Aqua Spirit)",
    },
    "Gradius' Option": {
        "text": "old wording 'This monster can only be Special Summoned by selecting 1 face-up \"Gradius\" on your side of the field' "
                "is its Special Summon procedure (as The Rock Spirit): its cost `select`s the Gradius",
    },
    "Garuda the Wind Spirit": {
        "text": "old wording 'This card can only be Special Summoned by removing from play 1 WIND monster in your Graveyard' "
                "is its Special Summon procedure (as Inferno)",
        "target": "old wording 'you can select 1 face-up monster your opponent controls, and change its battle position' targets "
                  "(2005 'select' on activation is a target, as Aqua Spirit's)",
        "optional": "old wording 'During your opponent's End Phase, you can select …': optional, the comma hides the cue (as Aqua Spirit)",
    },
    # goat batch b1
    "Avatar of The Pot": {
        "cost": "old wording 'By sending 1 \"Pot of Greed\" from your hand to the Graveyard, draw 3 cards': the sending is its cost "
                "(today's text: 'You can send 1 \"Pot of Greed\" from your hand to the GY; draw 3 cards')",
    },
    "Bite Shoes": {
        "target": "old wording 'Change the battle position of 1 face-up monster on the field' targets (today's text: 'FLIP: "
                  "Target 1 face-up monster on the field; change that target's battle position')",
    },
    "Blade Rabbit": {
        "target": "old wording 'destroy 1 monster on your opponent's side of the field' targets (today's text: 'When this card is "
                  "changed from Attack Position to face-up Defense Position: Target 1 monster your opponent controls; destroy that target')",
    },
    "Catnipped Kitty": {
        "text": "old wording 'you can make the DEF of 1 monster on your opponent's side of the field 0', which the verb cues do not "
                "read: a `modify` with `set_def: 0` that targets (today's text: 'Once per turn: You can target 1 monster your "
                "opponent controls; its DEF becomes 0 until the end of this turn')",
    },
    "Bombardment Beetle": {
        "text": "old wording 'Pick up and see 1 face-down Defense Position Monster Card …. If it is an Effect Monster, destroy it …' "
                "is one FLIP effect that targets, looks and destroys (today's text: 'FLIP: Target 1 face-down Defense Position "
                "monster your opponent controls; look at it, and if it is an Effect Monster, destroy it')",
        "flip": "the FLIP text is split at its first sentence; the scripted FLIP effect is both sentences (see 'text')",
    },
    "Brain Jacker": {
        "target": "old wording 'Equip this card to a monster on your opponent's side of the field' targets (today's text: 'FLIP: "
                  "Target 1 monster your opponent controls; equip this card to that target')",
    },
    "Blast Juggler": {
        "target": "old wording 'to select and destroy 2 face-up monsters' targets (today's text: 'During your Standby Phase: You can "
                  "Tribute this card, then target 2 face-up monsters with 1000 or less ATK; destroy them')",
        "cost": "old wording 'Tribute this face-up card to select and destroy …': the Tribute is its cost (R-TERM-3/4)",
    },
    "Big Eye": {
        "text": "'Look at up to 5 cards from the top of your Deck, then place them on the top of the Deck in any order' is one "
                "`look` with `then: reorder` — the verb cues name no operation there",
        "flip": "its FLIP text is that `look` (see 'text')",
    },
    "Behemoth the King of All Animals": {
        "optional": "old wording 'When this card is Tribute Summoned, you can return …': optional (a 'When … you can' trigger, "
                    "timing: when), the comma hides the cue",
    },
    "Kiryu": {
        "target": "old Union wording 'you can equip it to your \"Dark Blade\" as an Equip Card' targets (today's Unions: "
                  "'Target 1 … you control; equip this card to that target'), as Burning Beast's",
        "once_per_turn": "the 2005 Union sentence 'Once per turn, …, you can equip it …, OR unequip …' is both ignitions, which share "
                         "one limit (`once_per_turn: card`, as every Union's); the audit pairs the equip with the parenthesis after it",
        "cost": "old wording 'you can Tribute this card to allow the equipped monster to attack … directly': the Tribute is its cost "
                "(R-TERM-4), and 'you can' is the ignition itself (an ignition is always the player's choice)",
        "optional": "'you can Tribute this card to allow …' is an ignition: using it at all is the choice, no operation chooses none",
    },
    "Koitsu": {
        "target": "old Union wording 'you can equip it to your \"Aitsu\" as an Equip Card' targets, as Burning Beast's",
        "once_per_turn": "the 2005 Union sentence 'Once per turn, …, you can equip it …, OR unequip …' is both ignitions, which share "
                         "one limit (`once_per_turn: card`, as every Union's); the audit pairs the equip with the parenthesis after it",
    },
    "Des Dendle": {
        "target": "old Union wording 'equip it to your \"Vampire Orchis\"' targets (as Burning Beast's)",
        "once_per_turn": "the 2005 Union sentence 'Once per turn, …, you can equip it …, OR unequip …' is both ignitions, which share "
                         "one limit (`once_per_turn: card`, as every Union's); the audit pairs the equip with the parenthesis after it",
    },
    "Burning Beast": {
        "target": "old wording 'equip it to your \"Freezing Beast\"' targets (today's Union texts: 'Target 1 \"Freezing Beast\" you "
                  "control; equip this card to that target')",
        "once_per_turn": "the 2005 Union sentence 'Once per turn, …, you can equip it …, OR unequip …' is both ignitions, which share "
                         "one limit (`once_per_turn: card`, as every Union's); the audit pairs the equip with the parenthesis after it",
    },    # goat batch c2
    "Inferno Hammer": {
        "target": "old wording 'you can select 1 face-up monster on your opponent's side of the field, and flip it' targets "
                  "(2005 'select' on activation is a target, as Aqua Spirit's)",
        "optional": "old wording 'When this card destroys …, you can select …': optional (a 'When … you can' trigger, timing: "
                    "when), the comma hides the cue",
    },
    "Invitation to a Dark Sleep": {
        "target": "old wording 'When this monster is summoned …, select 1 of your opponent's monsters' targets (2005 'select' on "
                  "activation is a target); the audit reads only the second sentence, 'the selected monster cannot attack'",
    },
    "Jigen Bakudan": {
        "text": "old wording 'FLIP: After this card is flipped, Tribute it during your Standby Phase to destroy …' is a FLIP whose "
                "whole work is a delayed effect (`later` at its controller's next Standby Phase: EDOPro's mandatory trigger, "
                "the Tribute first) — the audit finds the operations inside `later` under no verb cue",
        "flip": "its FLIP text is that delayed effect (see 'text')",
    },
    "Kazejin": {
        "once_per_turn": "'This effect can only be used once while this card is face-up on the field.' is a sentence of its own, "
                         "which the audit reads apart (once_per_turn: while_here)",
    },
    # batch f3: "This effect can only be used once as long as this card remains face-up on the field." (a sentence of its own)
    "Ameba": {
        "once_per_turn": "'This effect can only be used once as long as this card remains face-up on the field.' is a sentence of "
                         "its own, which the audit reads apart (once_per_turn: while_here, as Kazejin's)",
    },
    "Griggle": {
        "once_per_turn": "'This effect can only be used once as long as this card remains face-up on the field.' is a sentence of "
                         "its own, which the audit reads apart (once_per_turn: while_here, as Kazejin's)",
    },
    "Infernalqueen Archfiend": {
        "target": "old wording 'increase the ATK of 1 Archfiend Monster Card' targets it as the Standby Phase trigger is activated "
                  "(EDOPro: a targeting trigger)",
    },
    "Infernal Flame Emperor": {
        "optional": "old wording 'When this card is Tribute Summoned, you can remove from play …': optional (a 'When … you can' "
                    "trigger, timing: when), the comma hides the cue",
    },
    "Invader of the Throne": {
        "target": "old wording 'FLIP: Select 1 monster on your opponent's side of the field and switch control of it with this "
                  "card' targets (2005 'select' on activation is a target; swap_control with give: self, take: target)",
    },
    "Keldo": {
        "text": "old wording 'select 2 cards from your opponent's Graveyard, add them to your opponent's Deck and the Deck is then "
                "shuffled' is a return_to_deck with position: shuffle of 2 targets (today's text: 'Target 2 cards in your "
                "opponent's GY; shuffle those targets into the Deck') — the verb cues read 'add' as adding to the hand",
    },
    # batch c1
    "Guardian Statue": {
        "target": "old wording 'return 1 monster on your opponent's side of the field to its owner's hand': it targets (today's "
                  "text: 'When this card is Flip Summoned: Target 1 monster your opponent controls; return that target to the hand')",
    },
    "Hade-Hane": {
        "target": "old wording 'return up to 3 monsters on the field': it targets (today's text: 'FLIP: Target up to 3 monsters on "
                  "the field; return them to the hand')",
    },
    "Gilasaurus": {
        "optional": "the audit pairs the trigger (its only effect with a Special Summon in `do`) with the first sentence, which is "
                    "the `procedure` (no `do`); the trigger itself is mandatory ('Activate this effect'), the opponent's 'can' is "
                    "the choice of none (`count: \"0-1\"`, `who: opponent`)",
        "text": "the second sentence is the mandatory trigger, which the audit paired with the first (see 'optional')",
    },
    "Great Dezard": {
        "cost": "old wording 'Special Summon 1 \"Fushioh Richie\" … by Tributing this card': the Tribute is the cost (today's "
                "Fushioh Richie: 'by Tributing 1 \"Great Dezard\"', the Summon's price)",
        "text": "'One: As long as this card remains face-up …, negate …' is a continuous effect (the audit reads the count's "
                "'When … the following effects are activated' before it as a trigger); its condition is `battle_wins`",
    },
    "Great Moth": {
        "text": "old wording 'This card can only be Special Summoned by Tributing \"Petit Moth\" on the 4th of your turns after …' "
                "is its Special Summon procedure (as Inferno)",
    },
    "Gray Wing": {
        "cost": "old wording 'Discard 1 card from your hand during your Main Phase 1. This monster can attack twice': the discard is "
                "the cost of the effect (its rulings; EDOPro's script pays it as a cost)",
    },
    # batch c5
    "Mystical Knight of Jackal": {
        "optional": "old wording 'When this card destroys … as a result of battle, you can then return …': optional (a 'When … you "
                    "can' trigger, timing: when), the comma hides the cue",
    },
    "Nubian Guard": {
        "optional": "old wording 'If this card inflicts Battle Damage …, you can return …': optional, the comma hides the cue",
    },
    "Ocean Dragon Lord - Neo-Daedalus": {
        "cost": "old wording 'You can send \"Umi\" you control to the Graveyard to send all cards … to the Graveyard': sending Umi "
                "is its cost (R-TERM-4)",
    },
    "Orca Mega-Fortress of Darkness": {
        "cost": "old wording 'By Tributing 1 \"Torpedo Fish\" …, destroy …': the Tribute is its cost (R-TERM-3, R-TERM-4)",
    },
    "Patrol Robo": {
        "optional": "old wording 'During your Standby Phase, you can look at …': optional, the comma hides the cue",
    },
    "Perfectly Ultimate Great Moth": {
        "text": "'Must first be Special Summoned (from your hand) by Tributing 1 \"Petit Moth\" on your 6th turn or later after it "
                "was equipped with \"Cocoon of Evolution\"' is its Special Summon procedure (its Tribute the cost), as Inferno's",
    },
    "Pitch-Dark Dragon": {
        "target": "old Union wording 'you can equip it to your \"Dark Blade\" as an Equip Card' targets (today's Unions: "
                  "'Target 1 \"Dark Blade\" you control; equip this card to that target', as Y-Dragon Head's)",
        "once_per_turn": "the one sentence 'Once per turn, … you can equip it …, OR unequip … and Special Summon this card' is a "
                         "Union's two ignitions sharing one use a turn (once_per_turn: card, as Y-Dragon Head's)",
    },
    # goat batch c4
    "Man-Thro' Tro'": {
        "cost": "old wording 'By Tributing 1 Normal Monster …, inflict 800 …': the Tribute is its cost (R-TERM-3/4), as Anti-Aircraft Flower",
    },
    "Maryokutai": {
        "cost": "old wording 'Tribute this face-up card to negate …': the Tribute is its cost (R-TERM-3/4), as A-Team: Trap Disposal Unit",
    },
    "Master Monk": {
        "text": "old wording 'This card cannot be Special Summoned except by Tributing 1 \"Monk Fighter\"' is its Special Summon "
                "procedure (a Tribute cost)",
    },
    "Mazera DeVille": {
        "text": "old wording 'This card cannot be Special Summoned except by Tributing 1 face-up \"Warrior of Zera\" … while "
                "\"Pandemonium\" is on the field' is its Special Summon procedure (a condition and a Tribute cost), as Archlord Zerato",
    },
    "Megarock Dragon": {
        "cost": "old wording 'This card cannot be Special Summoned except by removing from play a Rock-Type monster(s) in your "
                "Graveyard' is its Special Summon procedure, whose cost banishes them; the audit pairs the procedure with the "
                "sentence after it (its ATK/DEF, the continuous `atk_per: cost_paid`)",
    },
    "Metallizing Parasite - Lunatite": {
        "target": "old wording 'equip it to a face-up monster on your side of the field' targets (today's Union texts: 'Target 1 "
                  "face-up monster you control; equip this card to that target'), as Burning Beast",
        "once_per_turn": "the 2005 Union sentence 'Once per turn, …, you can equip it …, OR unequip …' is both ignitions, which share "
                         "one limit (`once_per_turn: card`, as every Union's); the audit pairs the equip with the sentence after it",
    },
    "Medusa Worm": {
        "target": "old wording 'destroy 1 monster on your opponent's side of the field' targets (today's text: 'When this card is "
                  "Flip Summoned: Target 1 monster your opponent controls; destroy that target')",
    },
    "Mysterious Guard": {
        "target": "'Target 1 face-up monster …, and if you control a face-up Warrior-Type monster, you can target 1 additional …' is "
                  "two groups (the second `count: \"0-1\"` with `only_if`), which the audit counts as one ('target' twice in one clause)",
    },
    "Mushroom Man #2": {
        "cost": "old wording 'Control of this card is shifted to your opponent by paying 500 Life Points at your own End Phase': "
                "the payment is its cost (R-TERM-4; today's text: 'You can pay 500 LP; your opponent gains control of this card')",
        "optional": "old wording '… by paying 500 Life Points at your own End Phase': its controller chooses to pay (an optional "
                    "trigger, as today's 'You can pay 500 LP')",
    },
    "Mokey Mokey King": {
        "optional": "old wording 'When this card is removed from the field, you can Special Summon …': optional, the comma hides the cue",
        "timing": "'When this card is removed from the field, you can …' is a 'When … you can' trigger; the audit reads the materials "
                  "line before it as the start of its text",
    },
    # batch d1
    "Reaper of the Cards": {
        "target": "old wording 'FLIP: Select 1 Trap Card on the field and destroy it' targets (today's text: 'FLIP: Target 1 Trap "
                  "on the field; destroy that target', as Trap Master's)",
    },
    "Ryu-Kishin Clown": {
        "target": "old wording 'select 1 face-up monster on the field and change its battle position' targets (today's text: "
                  "'When this card is Summoned: Target 1 face-up monster on the field; change that target's battle position')",
    },
    "Pixie Knight": {
        "target": "old wording 'your opponent selects 1 Spell Card from your Graveyard' targets, the opponent choosing (today's "
                  "text: 'your opponent targets 1 Spell in your GY; place that target on the top of your Deck')",
    },
    "Reshef the Dark Being": {
        "target": "old wording 'take control of 1 monster on your opponent's side of the field' targets (OCG: 選択し; today's text: "
                  "'You can discard 1 Spell, then target 1 monster your opponent controls')",
        "cost": "old wording 'by discarding 1 Spell Card from your hand, take control …': the discard is its cost (R-TERM-4)",
    },
    "Sand Gambler": {
        "once_per_turn": "'You can only activate this effect once per turn, during your Main Phase' is its last sentence, which the "
                         "audit reads apart from the coin tosses it limits (an ignition: the Main Phase already)",
    },
    "Sasuke Samurai #2": {
        "cost": "old wording 'you can pay 800 Life Points. If you do this, …': the payment is made as it is activated, its cost",
    },
    "Second Goblin": {
        "target": "old wording 'equip it to your \"Giant Orc\"' targets (as Burning Beast's: today's Union texts 'Target 1 … you "
                  "control; equip this card to that target'); the audit pairs the equip with the 'While equipped' sentence",
        "once_per_turn": "the 2005 Union sentence 'Once per turn, …, you can equip it …, OR unequip …' is both ignitions, which share "
                         "one limit (`once_per_turn: card`, as every Union's); the equipped monster's position change has its own "
                         "(`once_per_turn: true`)",
    },
    "Sanga of the Thunder": {
        "once_per_turn": "'This effect can only be used once while this card is face-up on the field' (its last sentence) is "
                         "`once_per_turn: while_here`",
    },
    # batch d2 (issue #38)
    "Silpheed": {
        "text": "old wording 'This card can only be Special Summoned by removing from play 1 WIND monster in your Graveyard' "
                "is its Special Summon procedure (as Garuda the Wind Spirit)",
    },
    "Skilled White Magician": {
        "cost": "the 3 Spell Counters are a condition of the Tribute; removing them as part of the cost is how the script requires "
                "them (as Skilled Dark Magician)",
    },
    "Spear Cretin": {
        "text": "'FLIP: When this card is sent to the Graveyard after being flipped, …' is no FLIP effect that activates as it "
                "is flipped: the flip only marks it, and its trigger is being sent to the GY (EDOPro official/c58551308.lua: "
                "EVENT_FLIP sets a flag, EVENT_TO_GRAVE is the trigger) — `left_flipped`",
        "flip": "(the same: its only effect is the trigger on being sent to the GY after a flip)",
    },
    "Spirit Ryu": {
        "cost": "old wording 'Discard 1 Dragon-Type monster from your hand to the Graveyard to increase …': the discard 'to' do "
                "something is its cost (EDOPro: SetCost, REASON_COST), as today's texts put it before ';'",
    },
    "Spirit of the Pot of Greed": {
        "text": "'While this card is in face-up Attack Position on the field, if a player activates \"Pot of Greed\", they can "
                "draw 1 more card' reads as a continuous effect; it is a mandatory trigger as Pot of Greed is activated (EDOPro: "
                "EVENT_CHAINING, TRIGGER_F), whose player chooses to draw (one_of who: event_player)",
    },
    "Steel Scorpion": {
        "text": "'A non Machine-Type Monster attacking \"Steel Scorpion\" will be destroyed at the End Phase of your opponent's "
                "2nd turn after the attack' is a trigger after damage calculation (EDOPro: EVENT_BATTLED) whose only operation "
                "is the delayed destruction (`later`, remember: attacker)",
    },
    "Suijin": {
        "once_per_turn": "its next sentence, 'This effect can only be used once while this card is face-up on the field', is "
                         "once_per_turn: while_here",
    },
    # goat batch s2 (spells)
    "Centrifugal Field": {
        "target": "'Its owner targets 1 Fusion Material Monster …; that player Special Summons that target': the text does "
                  "target (the verb 'targets', with the owner as subject, which the cue does not read)",
    },
    "Card Shuffle": {
        "cost": "old wording 'Pay 300 Life Points to use this card's effect.': the payment is its cost, printed before costs "
                "went before ';'",
        "once_per_turn": "said in another sentence: 'You can only use this effect during your own turn, once per turn.'",
    },
    "Checkmate": {
        "cost": "old wording 'Tribute 1 Archfiend monster on your side of the field.': the Tribute is its cost (R-TERM-3/4), "
                "printed before costs went before ';'",
    },
    "Battery Charger": {
        "cost": "old wording 'Pay 500 Life Points.' predates ';' for costs; the payment is its activation cost, kept if the "
                "card is negated (as Cyber-Stein's)",
    },
    "Ancient Telescope": {
        "text": "old wording 'See the top 5 cards of your opponent's Deck', which the verb cues do not read: `look` with "
                "`player: opponent` (shown to its controller only, returned in the same order)",
    },
    "Altar for Tribute": {
        "target": "old wording 'Select 1 monster on your side of the field and send it to the Graveyard': the monster is "
                  "chosen on activation, a target (today's TCG text: 'Target 1 monster you control; send it to the GY')",
    },
    "Anti-Spell": {
        "cost": "old wording 'Remove 2 Spell Counters on your side of the field to negate …': the removal is its cost "
                "(R-TERM-4), printed before costs went before ';' (today's text: 'Remove 2 Spell Counters from your side of "
                "the field; negate the activation of a Spell Card, and if you do, destroy it')",
    },
    "Blast Held by a Tribute": {
        "order": "'Destroy as many face-up Attack Position monsters … as possible, and if you do': the verb before 'and if "
                 "you do' is the destruction ('Attack Position' names the monsters, it changes no position)",
    },
    "Cross Counter": {
        "text": "its one effect doubles this battle's damage to the attacking player (a `modify` with "
                "doubles_damage_to_attacker until damage calculation, which no verb cue reads in 'the Battle Damage … is "
                "doubled') and destroys the attacker in a `later` after damage calculation",
    },
    "Assault on GHQ": {
        "target": "old wording 'Select 1 monster on your side of the field to activate this card. Destroy the selected card': "
                  "the monster is chosen on activation, a target (today's TCG text: 'Target 1 monster you control; destroy it')",
    },
    "Book of Taiyou": {
        "target": "old wording 'Flip 1 face-down monster on the field': the monster is chosen on activation, a target "
                  "(Yugipedia, Book of Taiyou: today's TCG text 'Target 1 face-down monster on the field; change that "
                  "target to face-up Attack Position')",
    },
    # batch h2 (issue #39): 2005 wordings of Spell Cards
    "The Secret of the Bandit": {
        "text": "old wording 'Select 1 face-up monster on the field.' (a target, R-TERM-17) in a sentence of its own, then "
                "'Each time the selected monster inflicts Battle Damage …, your opponent discards 1 random card': the "
                "activation only selects the target and leaves a delayed effect (`later` with `each_time`), whose discard "
                "the verb cues read in the third sentence",
    },
    "Super Rejuvenation": {
        "text": "'During the End Phase of the turn this card was activated, draw …' is one sentence: the activation only "
                "leaves the delayed draw (`later: {at: end_phase}`), which the verb cues read in that sentence",
    },
    "The Puppet Magic of Dark Ruler": {
        "target": "old wording 'Select 1 Fiend-Type monster from your Graveyard.' in a sentence of its own: the Fiend is "
                  "chosen on activation, a target (R-TERM-17), then 'Remove from play … Then Special Summon the selected "
                  "monster' is the resolution",
    },
    # batch t3 (issue #39)
    "Mind Haxorz": {
        "cost": "the 2005 text 'Pay 500 Life Points.' predates ';' for costs; the payment is its cost "
                "(today's text: 'Pay 500 LP; look at your opponent's hand and all Set cards they control')",
    },
    "Ojama Trio": {
        "text": "'Special Summon 3 \"Ojama Tokens\" … to your opponent's field' is the `token` operation with "
                "`player: opponent`, which the cues for 'Special Summon' do not read",
    },
    "Ominous Fortunetelling": {
        "once_per_turn": "'You can use this effect once per turn' ends the card's text, after the call it limits: the audit "
                         "reads it with no sentence",
    },
    "Order to Smash": {
        "text": "'When this card resolves, you can Tribute the selected Normal Monster and destroy 1 or 2 Spell or Trap "
                "Cards' is a choice as it resolves: a `one_of` (Tribute and destroy, or not); the audit pairs texts with "
                "operations, not with choices",
    },
    "Penalty Game!": {
        "text": "its two '●' effects are one activation whose `one_of` offers both; the audit pairs texts with operations, "
                "not with choices",
    },
    "Ray of Hope": {
        "text": "old wording 'Add 2 LIGHT monsters from your Graveyard to your Deck and shuffle it': `return_to_deck` with "
                "`position: shuffle`, which the cue for 'add' does not read",
    },
    "Non Aggression Area": {
        "cost": "the 2005 text 'Discard 1 card from your hand.' predates ';' for costs; the discard is its cost",
        "optional": "'You can only activate this card during your Standby Phase' is its activation timing, no 'you can'",
    },
    "Pitch-Black Power Stone": {
        "target": "the audit pairs the activation ('Activate this card by placing 3 Spell Counters on it': `add_counter`) with the "
                "next sentence, whose verb 'place 1 Spell Counter' it reads; that sentence is effect 2 (a once-per-turn "
                "quick effect that targets, with `if_you_do`)",
        "order": "the audit pairs the activation ('Activate this card by placing 3 Spell Counters on it': `add_counter`) with the "
                "next sentence, whose verb 'place 1 Spell Counter' it reads; that sentence is effect 2 (a once-per-turn "
                "quick effect that targets, with `if_you_do`)",
        "once_per_turn": "the audit pairs the activation ('Activate this card by placing 3 Spell Counters on it': `add_counter`) with the "
                "next sentence, whose verb 'place 1 Spell Counter' it reads; that sentence is effect 2 (a once-per-turn "
                "quick effect that targets, with `if_you_do`)",
    },
    "Magic Drain": {
        "cost": "'They may discard 1 Spell Card to negate this card's effect' is no cost of Magic Drain: the opponent "
                "chooses it as the card resolves (a `one_of` with `who: event_player`)",
    },
    # batch h5 (issue #39)
    "Royal Oppression": {
        "cost": "old wording 'Either player can pay 800 Life Points to negate …': the payment is its cost, printed before costs "
                "went before ';' (ocgcore's c93016201.lua: PayLPCost in its cost function)",
    },
    "Skull Lair": {
        "cost": "old wording 'Remove from play any number of Monster Cards in your Graveyard to destroy 1 face-up monster …': the "
                "banishing is its cost, printed before costs went before ';' (EDOPro's c6733059.lua: REASON_COST)",
    },
    "Dark Spirit of the Silent": {
        "target": "old wording 'select another face-up monster your opponent controls': it targets that monster and the "
                  "attacking one (EDOPro's c93599951.lua: EFFECT_FLAG_CARD_TARGET, both chosen as it is activated)",
    },
    "Battle-Scarred": {
        "text": "old wording 'Select 1 Archfiend monster on your side of the field to activate this card.': the activation "
                "targets it and `bind`s it both ways — the last two sentences ('If this card is removed from the field, destroy "
                "the selected monster. When the selected monster is removed from the field, destroy this card.') are that bind",
    },
}

ACTIVATED = ("activate", "ignition", "trigger", "flip", "quick")

# How a text names each operation (case-insensitive; `Set` is the capitalised game word).
VERBS: dict[str, str] = {
    "destroy": r"\bdestroy",
    "banish": r"\bbanish|\bremoved? from play\b",  # (2005: "remove from play")
    "special_summon": r"\bspecial summon",
    "token": r"\btokens?\b",
    "add_to_hand": r"\badd|\buse it as your hand\b",  # (Graverobber: "You can use it as your hand")
    "return_to_hand": r"\breturns?\b[^.;]*\bhands?\b",
    "return_to_deck": r"\b(?:returns?|put|shuffles?)\b[^.;]*\bdeck\b|\bplace it on top of your deck\b",  # (A Cat of Ill Omen)
    "send_to_gy": r"\bsends?\b|\bsent\b|\btribute",
    "discard": r"\bdiscard",
    "draw": r"\bdraws?\b",
    "mill": r"\bsend the top\b[^.;]*\bdeck\b|\bmill",  # "Send the top 5 cards of your opponent's Deck to the GY" (Needle Worm)
    "damage": r"\bdamage\b(?! step| calculation)|\binflict",
    "gain_lp": r"\bgains? (?:\d+ )?LP\b|\bgain LP\b|\bincrease your Life Points\b",  # (2005: "increase your Life Points by …")
    "pay_lp": r"\bpay",
    "modify": r"\b(?:gains?|loses?) (?:\d+ )?(?:ATK|DEF)\b|cannot (?:attack|change|declare)|second attack|\battack once again\b|"
              r"\boriginal ATK\b|\bscale\b|\bincrease the ATK\b|\b(?:double|halve) the ATK\b|\btreated as [\w-]+-Type\b",  # (2005: "it can attack once again in a row": a second attack;
    # "increase the ATK of this card by 700 points": Emes the Infinity; "treated as Dragon-Type": D. Tribe's `set_type`)
    "change_position": r"\bpositions?\b|\bflip",
    "negate": r"\bnegate",
    "equip": r"\bequip",
    "take_control": r"\bcontrol of\b|\btake control\b",
    "swap_control": r"\b(?:swap|switch) control\b",
    "change_attack_target": r"\battack'?s target\b|\battack target\b|\bdirect attacks? instead\b|\bbecome direct attacks\b",
    "retarget": r"\bnow targets\b|\bto another correct target\b",  # (Fairy's Hand Mirror, Fiend's Hand Mirror)
    "declare": r"\bdeclare",
    "coin": r"\bcoin\b",
    "roll_die": r"\bdie\b",
    "reroll_dice": r"\bre-roll\b",
    "face_up_in_deck": r"\bface-up\b[^.;]*\bdeck\b|\bdeck\b[^.;]*\bface-up\b",
    "add_counter": r"\bplace\b[^.;]*\bcounter",
    "remove_counter": r"\bremove\b[^.;]*\bcounter",
    "detach": r"\bdetach",
    "set_card": r"(?-i:\bSet\b)",
    "excavate": r"\breveals?\b",
    "reveal_until": r"\bexcavate\b|\bpick up cards\b",
    "reveal": r"\breveal|\blook at\b",
    "skip": r"\bskips?\b",
    "protect": r"\bno battle damage\b|\bcannot be destroyed by battle\b|\bdamage\b.*\bbecomes 0\b",
    "no_battle_damage": r"\bno battle damage\b",
    "lock_summons": r"\bcannot summon\b",
    "lock_zones": r"\bcannot be used\b|\bcannot use\b|\bneither player can use\b|\bcannot place a monster\b|\bnumber of cards that each player can have on the field\b",  # Monster Zones made unusable (Ground Collapse, Ojama King, Kaiser Colosseum); a cap on each field (Spatial Collapse)
    "extra_normal_summon": r"\bnormal summon or set\b",
    "traps_from_hand": r"\btrap cards from your hand\b",
    "place": r"\bplace\b",
    "fusion_summon": r"\bfusion summon\b",
    "ritual_summon": r"\britual summon\b",
    "for_this_turn": r"\buntil the end of (?:the end phase of )?(?:this|the next) turn\b|\buntil your opponent's \w+ end phase\b"  # (next_turns: Sonic Jammer; Pikeru's Second Sight)
                     r"|\bduring this turn[.,]|\bduring the turn this card is activated\b"  # (A Feint Plan, Armored Glass)
                     r"|^until the end phase, |\buntil your next turn, ",  # (Reverse Trap: "Until the End Phase, all effects that add or subtract ATK …"; Cold Wave)
    "advance_turn_count": r"\bturn count\b",
    "later": r"\bduring (?:the|your|their|each)\b[^.;]*\bphase\b|\bat the end of (?:this|the) turn\b",
}
VERB_RX = {op: re.compile(rx, re.I) for op, rx in VERBS.items()}

# What the text before ";" does on activation, as a cost operation (R-TERM-4; a Tribute is a
# send_to_gy, R-TERM-3). A declaration there is made on activation too (R-CHAIN-5).
COSTS = {
    "pay_lp": r"\bpay(?:ing)?\b", "discard": r"\bdiscard", "send_to_gy": r"\btribut(?:e|ing)|\bsend", "banish": r"\bbanish",
    "detach": r"\bdetach", "remove_counter": r"\bremove\b.*\bcounter", "destroy": r"\bdestroy", "reveal": r"\breveal",
    "declare": r"\bdeclare\b(?! an attack)",
}

# Texts that an ability keyword of the card says (R-CARD-6): the engine applies them, no effect does.
ABILITY_TEXTS = {
    "spirit": r"^(?:Once per turn, during|During) the End Phase(?: of the turn this card is Normal Summoned or flipped face-up|, "
              r"if this card was Normal Summoned or flipped face-up this turn): Return it to the hand",
    "gemini": r"\bNormal Monster while face-up on the field\b|\byou can Normal Summon it again\b",
}

# How a text names the event a trigger answers (to tell which text an effect is).
EVENTS = {
    "summoned": r"\bsummon", "normal_summoned": r"\bnormal(?: or \w+)? summon", "flip_summoned": r"\bflip summon",
    "special_summoned": r"\bspecial summon", "summon_declared": r"\bwould be summoned", "flipped": r"\bflip",
    "destroyed": r"\bdestroy", "destroyed_by_battle": r"\bdestroy\w* (?:\w+ )*by battle", "destroyed_by_effect": r"\bdestroyed by \w+ card effect",
    "sent_to_gy": r"\bsent\b", "leaves_field": r"\bleaves the field", "battle_damage": r"\bbattle damage",
    "attack_declared": r"\b(?:declares? an )?attacks?\b", "activated": r"\bactivated\b", "standby_phase": r"\bstandby phase",
    "end_phase": r"\bend phase", "battle_phase_end": r"\bend of the battle phase", "changed_to_defense": r"\bdefense position",
    "equipped": r"\bequipped\b", "drawn": r"\bdraw", "damage_calculation": r"\bdamage calculation", "battled": r"\battack(?:ed|s)\b|\bbattle",
}


# How the text of each kind of effect tends to open (a hint when two texts name the same operations).
KIND_HINTS = {
    "quick": r"\(Quick Effect\)", "trigger": r"^(?:When|If|Each time|During|At the end|After|Once per turn, during)\b",
    "ignition": r"^(?:You can|Once per turn:)", "procedure": r"\bSpecial Summon(?:ed)?\b.*\b(?:this card|from your hand)",
    "attack_cost": r"\bdeclare an attack\b",
}


def op_lists(ops: list[OpSpec], later: bool = True):
    """`ops` and every list of operations nested in them (if/else, if_you_do, coin, and — unless
    `later` is False — a delayed effect's `later`)."""
    yield ops
    for op in ops:
        if op.op == "later" and not later:
            continue
        for value in vars(op.params).values():
            if isinstance(value, list) and value and all(isinstance(v, OpSpec) for v in value):
                yield from op_lists(value, later)


def op_names(effect: Effect, later: bool = True) -> set[str]:
    """The names of every operation of the effect, its cost and the lists nested in them."""
    return {op.op for ops in (effect.do, effect.cost) for lst in op_lists(list(ops), later) for op in lst}


def delayed(effect: Effect) -> list[Effect]:
    """The delayed effects (`later`) of an effect, as effects of their own: their text is often a
    sentence of its own ("During the End Phase, …: You can Special Summon this card")."""
    return [Effect.model_construct(kind="later", do=[op, *op.params.do], optional=op.params.optional)
            for ops in op_lists(list(effect.do)) for op in ops if op.op == "later"]


def verbs(text: str) -> list[tuple[int, str]]:
    """(position, operation) for every operation the text names, in reading order."""
    return sorted((m.start(), op) for op, rx in VERB_RX.items() for m in rx.finditer(text))


def nearest_verbs(text: str, last: bool) -> set[str]:
    """The operations named by the first (or last) verb of the text."""
    found = verbs(text)
    if not found:
        return set()
    at = found[-1][0] if last else found[0][0]
    return {op for pos, op in found if pos == at}


def match_score(effect: Effect, part: Part) -> float:
    """How well a text fits an effect: the operations it names (a delayed effect's count for the
    text of its own), its event, whether both target, and a hint from the effect's kind."""
    text = part.text
    if (effect.kind == "flip") != text.startswith("FLIP:"):
        return -1
    ops = op_names(effect, later=effect.kind == "later") - ({"later"} if effect.kind != "later" else set())
    score = sum(1 for op in ops if op in VERB_RX and VERB_RX[op].search(text))
    condition, cost, resolution = split_effect(text)
    score -= 0.25 * len({op for _, op in verbs(f"{cost} {resolution}")} - ops)  # what it names and the effect does not
    if effect.target_groups and TARGET.search(text):
        score += 1
    condition = condition or text
    if effect.when is not None and any(re.search(EVENTS.get(e, "^$"), condition, re.I) for e in effect.when.event):
        score += 1
    if effect.kind in KIND_HINTS and re.search(KIND_HINTS[effect.kind], text, re.I):
        score += 0.5
    return score


def scripted_effects(effects: list[Effect]) -> list[tuple[int, Effect]]:
    """The effects whose text we look for: everything but continuous ones, Exodia's win, and
    activations that only put a card on the field (an empty activation of a Continuous card)."""
    return [(n, e) for n, e in enumerate(effects, 1)
            if e.kind not in ("continuous", "win") and (e.do or e.cost or e.target_groups)]


def best_part(effect: Effect, parts: list[Part], taken: set[int]) -> int | None:
    """The index of the text that fits the effect best (ties: one not taken yet), if any fits."""
    scores = [match_score(effect, p) for p in parts]
    best = max(scores, default=-1)
    if best <= 0:
        return None
    return next((i for i, s in enumerate(scores) if s == best and i not in taken), scores.index(best))


def align(parts: list[Part], effects: list[Effect]) -> tuple[list[tuple[int, Effect, Part | None]], set[int]]:
    """[(effect number, effect, its text)] — a delayed effect with a text of its own comes as an
    effect too — and the indexes of the texts some effect explains."""
    found: list[tuple[int, Effect, Part | None]] = []
    taken: set[int] = set()
    for n, effect in scripted_effects(effects):
        i = best_part(effect, parts, taken)
        found.append((n, effect, None if i is None else parts[i]))
        if i is None:
            continue
        taken.add(i)
        for sub in delayed(effect):
            j = best_part(sub, parts, taken)
            if j is not None and j not in taken:
                taken.add(j)
                found.append((n, sub, parts[j]))
    return found, taken


# ---------------------------------------------------------------------- the cues


def check_target(card, effect: Effect, part: Part) -> list[str]:
    """'target' in the text ↔ `target:`; then what the text says about each group of targets."""
    said = TARGET.search(part.text) is not None
    implied = getattr(card, "subtype", None) == "equip" and effect.kind == "activate" and "equip" in op_names(effect)
    groups = effect.target_groups
    if said != bool(groups) and not implied:
        return ["text says 'target …' and the script has no target:" if said else
                "the script has target: and the text names no target (R-TERM-17)"]
    if not said:
        return []
    phrase = re.split(r"[;(]", part.text[TARGET.search(part.text).start():])[0]
    texts = re.split(r"\band (?=\d)", phrase)
    if len(texts) != len(groups):
        return [f"text names {len(texts)} group(s) of targets, the script has {len(groups)}"]
    problems = []
    for text, group in zip(texts, groups):
        w, c = group.where, group.count
        m = re.search(r"\b(up to )?(\d+)\b", text)
        checks = {
            "how many": m is None or (c.max == int(m.group(2)) and (c.min == (1 if m.group(1) else c.max))),
            "face-up": "face-up" not in text or w.face_up is True,
            "face-down": "face-down" not in text or w.face_up is False,
            "your opponent controls": "your opponent controls" not in text or w.side == "opponent",
            "you control": not re.search(r"(?<!opponent )\byou control\b", text) or w.side == "you",
            "GY": "GY" not in text or (w.zone == ("gy",) and ("your GY" not in text or w.side == "you")),
            "attacking": "attacking" not in text or w.attacking or (w.event and _answers_attack(effect)),
        }
        problems += [f"target '{text.strip()}': the target's filter does not say {what}" for what, ok in checks.items() if not ok]
    return problems


def _answers_attack(effect: Effect) -> bool:
    return effect.when is not None and "attack_declared" in effect.when.event


def check_cost(card, effect: Effect, part: Part) -> list[str]:
    """The text before ";" (after the condition) ↔ `cost:` with the same kinds of operation.
    A Special Summon procedure or an attack cost has no ";": its whole text names the cost."""
    _, cost, _ = split_effect(part.text)
    by = re.search(r"\bactivate this card by (.*)", part.text, re.I)  # "Activate this card by paying 1000 LP."
    if effect.kind not in ACTIVATED:
        cost = part.text
    elif by and not cost:
        cost = by.group(1)
    cost = TARGET.split(cost)[0] if effect.kind in ACTIVATED else cost  # "…, then target 1 monster" is no cost
    said = {op for op, rx in COSTS.items() if re.search(rx, cost, re.I)}
    # a fusion_summon that Tributes the materials (tribute: true) is a Tribute: a send_to_gy (the Hex-Sealed Fusions)
    has = {"send_to_gy" if op.op == "fusion_summon" and getattr(op.params, "tribute", None) else op.op for op in effect.cost}
    if said == has:
        return []
    text = f"'{cost}'" if cost else "no text before ';'"
    return [f"cost: {text} names {sorted(said) or 'no cost'}, the script's cost is {sorted(has) or 'none'}"]


def check_optional(card, effect: Effect, part: Part) -> list[str]:
    """'You can' opening a trigger/FLIP effect (or its header) ↔ `optional: true`; "then you can …"
    in the resolution ↔ an operation that may choose none (count 0-…, or an optional `later`)."""
    problems = []
    _, cost, resolution = split_effect(part.text)
    if effect.kind in ("trigger", "flip", "later"):
        says = re.match(r"you can\b", cost or resolution, re.I) is not None or re.search(r"\byou can activate 1\b", part.header, re.I)
        if bool(says) != effect.optional:
            problems.append("text says 'You can' and the effect is not optional" if says else
                            "the effect is optional and its text has no 'You can' (R-TERM-8)")
    if re.search(r"\b(?:then|and) you can\b", resolution, re.I) and not _may_choose_none(effect):
        problems.append("text says 'then you can …' and no operation may choose none")
    return problems


def _may_choose_none(effect: Effect) -> bool:
    for ops in op_lists(list(effect.do)):
        for op in ops:
            what = getattr(op.params, "what", None)
            if getattr(getattr(what, "choose", None), "count", None) is not None and what.choose.count.min == 0:
                return True
            if getattr(getattr(what, "choose", None), "up_to", None):  # as many as … or fewer, none too (Big Wave Small Wave)
                return True
            if op.op == "later" and op.params.optional:
                return True
    return False


CARRIED = {("negate", "destroy"): "destroy", ("destroy", "banish"): "banish"}  # negate: {destroy: true}, destroy: {banish: true}


def check_order(card, effect: Effect, part: Part) -> list[str]:
    """'X, and if you do, Y' ↔ Y in an if_you_do right after X (or carried by X); 'X, then Y' ↔ X before Y."""
    problems = []
    _, _, resolution = split_effect(part.text)
    for m in re.finditer(r"\b(and if you do|then)\b", resolution, re.I):
        before, after = nearest_verbs(resolution[:m.start()], last=True), nearest_verbs(resolution[m.end():], last=False)
        if not before or not after:
            continue
        words = f"'{m.group(1).lower()}' ({'/'.join(sorted(before))} → {'/'.join(sorted(after))})"
        if m.group(1).lower() == "then":
            if not before & after and any(_comes_first(ops, after, before) for ops in op_lists(list(effect.do))):
                problems.append(f"{words}: the script does {'/'.join(sorted(after))} first")
        elif not any(_depends(ops, before, after) for ops in op_lists(list(effect.do))):
            problems.append(f"{words}: no if_you_do after {'/'.join(sorted(before))} "
                            f"(script: {', '.join(op.op for op in effect.do)})")
    return problems


def _comes_first(ops: list[OpSpec], first: set[str], second: set[str]) -> bool:
    names = [op.op for op in ops]
    a = next((i for i, n in enumerate(names) if n in first), None)
    b = next((i for i, n in enumerate(names) if n in second), None)
    return a is not None and b is not None and a < b


def _depends(ops: list[OpSpec], before: set[str], after: set[str]) -> bool:
    for i, op in enumerate(ops):
        if op.op not in before:
            continue
        carried = next((flag for (x, y), flag in CARRIED.items() if x == op.op and y in after), None)
        if carried and getattr(op.params, carried, False):
            return True
        nxt = ops[i + 1] if i + 1 < len(ops) else None
        if nxt is not None and nxt.op == "if_you_do" and any(o.op in after for lst in op_lists(nxt.params.then) for o in lst):
            return True
    return False


def _use_this_effect_once(text: str, full: str) -> bool:
    """'You can only use this effect of "X" once per turn' right after this effect's text: this effect, every copy
    (Dark Magician of Chaos)."""
    said = re.search(r'\s*You can only use this effect of "[^"]+" once per turn\.', text)
    at = text.find(full.strip())
    return said is not None and at >= 0 and text[at + len(full.strip()):].startswith(said.group(0))


def _followed_by(text: str, full: str, sentence: str) -> bool:
    """Whether the sentence (a regex) comes right after this effect's text in the card text."""
    at = text.find(full.strip())
    return at >= 0 and re.match(sentence, text[at + len(full.strip()):]) is not None


def check_once(card, effect: Effect, part: Part) -> list[str]:
    """'Once per turn' ↔ once_per_turn (name: 'You can only activate 1 "X" per turn', a sentence of
    the card's own; card: 'once per turn, … 1 of these effects'; while_here: 'Once, while this card is …';
    duel: '… once per Duel')."""
    full = part.full
    if re.search(r"\bonce per duel\b", card.text or "", re.I):
        said = "duel"  # "You can only use this effect of "X" once per Duel", a sentence of its own (Twin-Headed Behemoth)
    elif re.search(r"\bonly activate 1\b.*\bper turn\b", card.text or "", re.I) or _use_this_effect_once(card.text or "", full):
        said = "name"
    elif re.search(r"\bonly gain this effect once per turn\b", full, re.I):
        said = False  # no activation limit: the operation gains its effect once per turn (reroll_dice: Dice Re-Roll)
    elif re.search(r"\bonce, while this card is\b", full, re.I):
        said = "while_here"
    elif re.search(r"\bonce per turn\b", full, re.I):
        said = "card" if part.header else True
    elif _followed_by(card.text or "", full, r"\s*This effect can only (?:be used|activate) once per turn\."):
        said = True  # a sentence of its own after the effect (D.D. Survivor)
    else:
        said = False
    if said == effect.once_per_turn:
        return []
    return [f"text says {'once per turn (' + str(said) + ')' if said else 'nothing of once per turn'}, "
            f"the script has once_per_turn: {effect.once_per_turn}"]


def check_timing(card, effect: Effect, part: Part) -> list[str]:
    """An optional 'When …: You can' trigger can miss the timing (R-CHAIN-10): timing: when; an 'If …' one cannot."""
    if effect.kind != "trigger":
        return []
    condition, _, _ = split_effect(part.text)
    condition = re.sub(r"^once per turn,\s*", "", condition or part.text, flags=re.I)
    when = re.match(r"when\b", condition, re.I) is not None
    if effect.optional and when and effect.timing != "when":
        return ["an optional 'When …: You can' trigger without timing: when (it can miss the timing, R-CHAIN-10)"]
    if effect.timing == "when" and not when:
        return ["timing: when on a trigger whose text does not say 'When …'"]
    return []


def check_quick(card, effect: Effect, part: Part) -> list[str]:
    """'(Quick Effect)' or 'during either player's turn' on a monster effect ↔ kind: quick."""
    if effect.kind in ("ignition", "trigger") and re.search(r"\(Quick Effect\)|either player's turn", part.text, re.I):
        return [f"text says it is a Quick Effect and the script's kind is {effect.kind}"]
    return []


def check_gy(card, effect: Effect, part: Part) -> list[str]:
    """'destroyed … and sent to the GY' ↔ the destroyed card must be in the GY (`where: {zone: gy}`):
    a card banished instead (Dimensional Fissure, Bottomless Trap Hole) was destroyed, not sent to the GY."""
    destroyed = {"destroyed", "destroyed_by_battle", "destroyed_by_effect"}
    if effect.when is None or not destroyed & set(effect.when.event):
        return []
    condition = split_effect(part.text)[0] or part.text
    if not re.search(r"\band (?:sent|sends? it) (?:to (?:the|your) GY|there)\b", condition, re.I):
        return []
    where = effect.when.where
    if where is not None and where.zone is not None and "gy" in where.zone:
        return []
    return ["text says '… destroyed and sent to the GY' and the event does not require the GY (when: {where: {zone: gy}})"]


CUES_FOR = {"activated": ("target", "cost", "optional", "order", "once_per_turn", "timing", "quick", "sent_to_gy"),
            "procedure": ("cost",), "attack_cost": ("cost",), "later": ("optional", "order")}
CUES = {"target": check_target, "cost": check_cost, "optional": check_optional, "order": check_order,
        "once_per_turn": check_once, "timing": check_timing, "quick": check_quick,
        "sent_to_gy": check_gy}


def audit(card) -> list[tuple[str, str]]:
    """[(cue, problem)] for one card: each scripted effect against its text, and texts without a script."""
    parts = effect_texts(card.text or "")
    found, explained = align(parts, list(card.effects))
    problems = []
    for n, effect, part in found:
        if part is None:
            problems.append(("text", f"effect {n} ({effect.kind}): no effect text names what it does"))
            continue
        for cue, check in CUES.items():
            if cue in CUES_FOR.get(effect.kind, CUES_FOR["activated"]):
                for problem in check(card, effect, part):
                    problems.append((cue, f"effect {n} ({effect.kind}): {problem} — text: \"{part.text}\""))
    if re.search(r"\bactivate this card from your hand\b", card.text or "", re.I) and not any("hand" in e.from_ for e in card.effects):
        problems.append(("from_hand", "text says 'you can activate this card from your hand' and no effect has from: [hand]"))
    abilities = [ABILITY_TEXTS[a] for a in getattr(card, "abilities", None) or () if a in ABILITY_TEXTS]
    for i, part in enumerate(parts):
        if i not in explained and is_effect_text(part.text) and not any(re.search(rx, part.text) for rx in abilities):
            problems.append(("flip" if part.text.startswith("FLIP:") else "text", f"no scripted effect for the text \"{part.text}\""))
    return problems


_ATTRIBUTE_BULLET = re.compile(r"^●?\s*(?:LIGHT|DARK|EARTH|WATER|FIRE|WIND)\s*:(?![^.;]*:)")
_ATTRIBUTE_HEADER = re.compile(r"\bgets the following effect\(s\) while there is a monster\(s\) with the following Attribute\(s\)")


def is_effect_text(text: str) -> bool:
    """A text that reads as an effect to activate: 'FLIP:', a condition 'When …:', or a cost or a
    target before ';' (a ';' joining two continuous effects, "All … gain 200 ATK; all … lose", is none)."""
    if _ATTRIBUTE_BULLET.match(text) or _ATTRIBUTE_HEADER.search(text):
        return False  # "● EARTH: Negate …": what the monster gets while such a monster is on the field (Element Saurus) — its own effect is read
    _, cost, _ = split_effect(text)
    return text.startswith("FLIP:") or ":" in text or bool(TARGET.search(cost)) or any(re.search(rx, cost, re.I) for rx in COSTS.values())


def _shipped(pool):
    return [c for c in pool if c.effects and c.id not in FIXTURE_PASSCODES]


def test_card_scripts_match_their_text(pool):
    report = []
    for card in _shipped(pool):
        excused = EXCEPTIONS.get(card.name, {})
        report += [f"{card.name}: [{cue}] {problem}" for cue, problem in audit(card) if cue not in excused]
    assert not report, f"{len(report)} script/text mismatch(es):\n" + "\n".join(report)


def test_every_exception_is_still_needed(pool):
    cards = {c.name: c for c in _shipped(pool)}
    stale = []
    for name, cues in EXCEPTIONS.items():
        assert all(len(reason) > 20 for reason in cues.values()), f"{name}: every exception needs a real reason"
        flagged = {cue for cue, _ in audit(cards[name])} if name in cards else set()
        stale += [f"{name}: [{cue}]" for cue in cues if cue not in flagged]
    assert not stale, "exceptions that no longer match a mismatch (remove them): " + ", ".join(stale)


def test_the_splitter_and_the_cues_read_the_text():
    parts = effect_texts('Activate 1 of these effects: Target 1 face-up monster; change it. Or: Tribute 1 monster; draw 1 card. '
                         'Then gain 500 LP.')
    assert [(p.header, p.text) for p in parts] == [("Activate 1 of these effects", "Target 1 face-up monster; change it."),
                                                   ("Activate 1 of these effects", "Tribute 1 monster; draw 1 card. Then gain 500 LP.")]
    union = effect_texts("Once per turn, you can either: Target 1 monster you control; equip this card to that target, OR: "
                         "Unequip this card and Special Summon it. It gains 400 ATK. ● FLIP: Draw 1 card.")
    assert [(p.header, p.text) for p in union] == [
        ("Once per turn, you can either", "Target 1 monster you control; equip this card to that target"),
        ("Once per turn, you can either", "Unequip this card and Special Summon it. It gains 400 ATK."), ("", "FLIP: Draw 1 card.")]
    assert split_effect("When a Spell Card is activated: Discard 1 card; negate the activation.") == \
        ("When a Spell Card is activated", "Discard 1 card", "negate the activation.")
    for text in ("cannot be targeted by card effects", "a Spell Card that targets this card", "destroy that target"):
        assert not TARGET.search(text), text
    for text in ("Target the attacking monster", "by targeting 1 monster in your GY", "You can target up to 2 monsters"):
        assert TARGET.search(text), text
