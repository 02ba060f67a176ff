"""The effect vocabulary: how a card's YAML says what it does (docs/cards.md).

Every effect has a kind and up to four parts — condition (`when`, `condition`), `cost`,
`target` and the operation (`do`) — in the style of ocgcore's effects and Forge's verbs.
Everything here is validated when the card file loads, so a typo is a `file:line` error and
never a surprise mid-duel. Nothing here is executed: operations are names looked up in the
engine's registry (ygoterm/engine/effects/registry.py), and the rare card that needs code names a Python
handler registered in the package.

`Effect` is defined here; its parts live in three modules, and every name is imported from this
package (`from ygoterm.schema.effects import Filter`):

- `filters`: numbers and ranges, the one filter language (`Filter`), selections (`Selection`)
- `conditions`: events (`When`), conditions, targets, continuous effects
- `operations`: the operations (`OpSpec`, one model per operation, `OPS`, `COST_OPS`, `HANDLER_NAMES`)
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from .conditions import Condition, ContinuousSpec, EventName, TargetSpec, When, _when
from .filters import (Ability, AllOf, Choose, ChooseOf, Copies, CopiesOf, Filter, NumRange, Player, Range, Ref, Selection,
                      Side, Zone, _one_or_many)
from .operations import (COST_OPS, HANDLER_NAMES, OPS, Bind, ChangeAttackTarget, ChangeAttacker, ChangePosition, Coin, Counters, Damage, Declare, Detach,
                         Discard, Draw, Equip, ExchangeLp, Excavate, RevealUntil, OneOf, Choice, Flag, ForThisTurn, FusionSummon, HandLimit, AdvanceTurnCount, LockActivation, LockZones, RevealCompare, Remember, Handler, If, IfYouDo, Later,
                         LifeChange, LockSummons, Look, Mill, Modify, Moves, Negate, NoBattleDamage, OpSpec, Place, Spare,
                         Protect, Retarget, Reveal, RitualSummon, RollDie, Select, SetCard, FaceUpInDeck, Shuffle, TrapMonster, Skip, SpecialSummon, SwapControl,
                         TakeControl, Then, ToEndPhase, BattlePhaseTwice, ThisTurnMoves, RedirectDamage, DiscardDraws, Token, Win, AmountParams, OpName, walk_ops)

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
    # while_here: "Once, while this card is face-up on the field / in your Pendulum Zone" (until the card moves);
    # duel: "You can only use the effect of each X once per Duel" (this card, wherever it goes: Twin-Headed Behemoth)
    once_per_turn: bool | Literal["name", "card", "while_here", "duel"] = False
    # where a monster's effect is used; equip: while it is an Equip Card (a Union's "unequip and Special Summon it")
    # deck: a trigger of a card in the Deck (Dark Sage: "Special Summoned from your hand or Deck … after Time Wizard")
    from_: Annotated[tuple[Literal["field", "hand", "gy", "equip", "banished", "deck", "extra"], ...], BeforeValidator(_one_or_many)] = Field(default=("field",), alias="from")
    # a monster effect used only while its card is face-down in a Monster Zone, activated without flipping it (Mid Shield
    # Gardna's "Negate the activation of a Spell Card that targets this 1 face-down monster")
    face_down: bool | None = None
    pendulum: bool = False  # a Pendulum Effect: used (and applying) only while the card is in a Pendulum Zone, as a Spell's
    damage_step: bool = False  # may be activated in the Damage Step (R-BATTLE-6)
    stays: bool = False  # a Normal Spell/Trap that remains on the field (Swords of Revealing Light)
    lasts_turns: int | None = Field(default=None, ge=1)  # … destroyed in the End Phase of the opponent's Nth turn
    win_when: Annotated[tuple[str, ...], BeforeValidator(_one_or_many)] | None = None  # Exodia: these names in hand
    win_zone: Literal["hand", "field"] = "hand"  # Destiny Board: these names face-up on your field
    # a trigger whose event only arms it: it activates during the next such phase (Sacred Phoenix)
    at: Literal["standby_phase", "end_phase"] | None = None
    at_player: Literal["you", "opponent", "any"] = "any"  # … of whose turn (Vampire Lord: your next Standby Phase)
    # for a procedure: "Special Summoned … to your opponent's side of the field" (Lava Golem: its controller is the opponent)
    summon_to: Literal["opponent"] | None = None
    # for a procedure: "You cannot Normal Summon/Set the turn you Special Summon this card" — not after a Normal Summon/Set
    # this turn, and none after it (Lava Golem)
    no_normal_summon_turn: bool | None = None
    # "This card's activation and effect cannot be negated": no `negate` negates its activation or its effect, no continuous
    # negation (Imperial Order) stops it resolving, and "Spell Cards cannot be activated" (Spell Canceller) does not stop
    # its activation (Spiritualism: the TCG FAQ of the era, Spell Canceller's page)
    cannot_be_negated: bool | None = None
    # who may activate this effect of a face-up card on the field besides its controller: `either` — "Either player can pay
    # 800 Life Points to …" (Royal Oppression), the opponent too; `turn_player` — "The turn player can …" (Fusion Gate),
    # whoever controls the card. The player who activates it is its user: they pay its cost, control the chain link, and
    # "you" in it means them (ocgcore's EFFECT_FLAG_BOTH_SIDE)
    user: Literal["either", "turn_player"] | None = None

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
        if (self.summon_to is not None or self.no_normal_summon_turn) and self.kind != "procedure":
            raise ValueError("'summon_to' and 'no_normal_summon_turn' belong to a Summon procedure (kind: procedure)")
        if self.at is not None and self.kind != "trigger":
            raise ValueError("'at' belongs to a trigger effect: its event arms it for the next Standby or End Phase")
        if self.kind == "attack_cost" and not self.cost:
            raise ValueError("an attack_cost effect needs 'cost: [operations]' (what declaring the attack costs)")
        if self.kind == "win" and not self.win_when:
            raise ValueError("a win effect needs 'win_when: [card names]'")
        if self.user is not None and self.kind not in ("ignition", "quick"):
            raise ValueError("'user' belongs to an ignition or quick effect of a card on the field (what either player may activate)")
        if self.kind in ("ignition", "trigger", "flip", "quick") and not self.do:
            raise ValueError(f"a {self.kind} effect needs 'do: [operations]'")
        for op in self.cost:
            payer = getattr(op.params, "player", "you")
            if payer not in ("you", "controller"):
                raise ValueError(f"the cost '{op.op}' names player '{payer}': a cost is paid by the player who activates (R-TERM-4)")
            if op.op not in COST_OPS and not (op.op == "fusion_summon" and getattr(op.params, "tribute", None)):
                # (a fusion_summon with tribute: true Tributes the materials and Summons nothing: a cost)
                raise ValueError(f"'{op.op}' cannot be a cost; costs are: {', '.join(sorted(COST_OPS))}")
        return self



Token.model_rebuild(_types_namespace={"Effect": Effect})  # a Token's own effects (Cobra Jar)


__all__ = [
    # effects
    "Effect", "EffectKind",
    # filters and selections
    "Ability", "AllOf", "Choose", "ChooseOf", "Copies", "CopiesOf", "Filter", "NumRange", "Player", "Range", "Ref",
    "Selection", "Side", "Zone",
    # events, conditions, targets, continuous effects
    "Condition", "ContinuousSpec", "EventName", "TargetSpec", "When",
    # operations
    "COST_OPS", "HANDLER_NAMES", "OPS", "OpSpec", "Bind", "ChangeAttackTarget", "ChangeAttacker", "ChangePosition", "Coin", "Counters", "Damage", "Declare",
    "Detach", "Discard", "Draw", "Equip", "Excavate", "RevealUntil", "OneOf", "Choice", "Flag", "ForThisTurn", "FusionSummon", "HandLimit", "AdvanceTurnCount", "LockActivation", "LockZones", "RevealCompare", "Remember", "Handler", "If", "IfYouDo",
    "Later", "LifeChange", "LockSummons", "Look", "Mill", "Modify", "Moves", "Negate", "NoBattleDamage", "Place", "Spare",
    "Protect", "Retarget", "Reveal", "RitualSummon", "RollDie", "Select", "SetCard", "FaceUpInDeck", "Shuffle", "TrapMonster", "Skip", "SpecialSummon", "SwapControl",
    "TakeControl", "Then", "ToEndPhase", "BattlePhaseTwice", "ThisTurnMoves", "RedirectDamage", "DiscardDraws", "Token", "Win", "ExchangeLp",
    "AmountParams", "OpName", "walk_ops",
]
