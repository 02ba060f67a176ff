"""What an effect does, read from the effect vocabulary (docs/cards.md): no per-card code.

An agent asks `read(effect)` whether activating it hurts the opponent (removes their cards,
burns), helps its player (draws, searches, summons, boosts, heals, protects), stops an attack or
negates something, and whose cards it hits. Public card text is all it reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..schema import effects as fx

REMOVAL = frozenset(("destroy", "banish", "return_to_hand", "return_to_deck", "send_to_gy", "take_control"))
_HELP = frozenset(("draw", "add_to_hand", "special_summon", "fusion_summon", "ritual_summon", "token", "gain_lp", "equip",
                   "protect", "extra_normal_summon", "excavate", "reveal_until", "look"))


@dataclass(frozen=True, slots=True)
class Reading:
    removes_foe: bool = False  # destroys, banishes, bounces, takes control of the opponent's cards
    removes_mine: bool = False  # … of its own player's (Dark Hole hits both)
    burns: bool = False  # damages the opponent's LP
    helps: bool = False  # draws, searches, summons, heals, protects, equips
    boosts: bool = False  # raises ATK/DEF (of its player's monsters)
    weakens: bool = False  # lowers the opponent's monsters' ATK/DEF, or changes their position
    negates: bool = False  # negates an activation, an effect or a Summon
    stops_attack: bool = False  # negates an attack or ends the Battle Phase
    mass: bool = False  # hits every card of a kind, not chosen ones
    shields: bool = False  # its player takes no battle damage this turn (Waboku): an answer to an attack
    binds: bool = False  # equips itself to an opponent's monster (Spellbinding Circle): locks it
    costs_lp: int = 0

    @property
    def useful(self) -> bool:
        return self.removes_foe or self.burns or self.helps or self.boosts or self.weakens or self.negates or self.stops_attack


_CACHE: dict[int, tuple[fx.Effect, Reading]] = {}


def read(effect: fx.Effect) -> Reading:
    found = _CACHE.get(id(effect))
    if found is None or found[0] is not effect:
        found = _CACHE[id(effect)] = (effect, _read(effect))
    return found[1]


def read_activation(effects: tuple[fx.Effect, ...] | list[fx.Effect], index: int) -> Reading:
    """What activating effect `index` of a card does. A Continuous, Field or Equip Spell's
    activation may do nothing by itself: what the card does then is in its continuous effects
    (Rising Air Current: WIND monsters gain 500 ATK), read as boosts or weakens."""
    effect = effects[index]
    reading = read(effect)
    if effect.kind != "activate" or reading.useful:
        return reading
    traits: dict[str, bool] = {}
    for other in effects:
        spec = other.continuous if other.kind == "continuous" else None
        if spec is None:
            continue
        if spec.atk > 0 or spec.def_ > 0 or (spec.atk_factor or 0) > 1:
            traits["boosts"] = True
        elif spec.atk < 0 or spec.def_ < 0:
            traits["weakens"] = True
    return Reading(**traits, costs_lp=reading.costs_lp) if traits else reading


def _read(effect: fx.Effect) -> Reading:
    traits: dict[str, Any] = {}
    sides = [spec.where.side for spec in effect.target_groups]
    for spec in operations(effect.do):
        op, params = spec.op, spec.params
        side, mass = _side(params, sides)
        if op in REMOVAL:
            if side in ("opponent", "any"):
                traits["removes_foe"] = True
            if side in ("you", "any") and mass:
                traits["removes_mine"] = True
            traits["mass"] = traits.get("mass", False) or mass
        elif op in _HELP:
            traits["helps"] = True
            if op == "protect" and getattr(params, "player", "you") in ("you", "each") and params.battle_damage:
                traits["shields"] = True
            elif op == "equip" and params.to in ("target", "targets") and sides[:1] == ["opponent"]:
                traits["binds"] = True
        elif op == "damage" and getattr(params, "player", "opponent") in ("opponent", "each"):
            traits["burns"] = True
        elif op == "modify":
            up = (params.atk or 0) > 0 or (params.def_ or 0) > 0
            if up and side != "opponent":
                traits["boosts"] = True
            elif not up:
                traits["weakens"] = True
        elif op == "change_position" and side in ("opponent", "any"):
            traits["weakens"] = True
        elif op == "negate":
            if params.what == "attack" or params.end_battle_phase:
                traits["stops_attack"] = True
            else:
                traits["negates"] = True
        elif op == "no_battle_damage":
            traits["stops_attack"] = True
    for spec in effect.cost:
        if spec.op == "pay_lp" and isinstance(spec.params.amount, int):
            traits["costs_lp"] = spec.params.amount
    return Reading(**traits)


def operations(ops: Any) -> list[Any]:
    """Every operation, those nested in `if` / `if_you_do` / `later` / `one_of` too."""
    return list(fx.walk_ops(ops))


def _side(params: Any, target_sides: Sequence[fx.Side]) -> tuple[fx.Side, bool]:
    """Whose cards an operation's selection names, and whether it is every such card."""
    what = getattr(params, "what", None)
    if what in ("target", "targets"):
        return (target_sides[0] if target_sides else "any"), False
    if isinstance(what, fx.AllOf):
        return what.all.side, True
    if isinstance(what, fx.ChooseOf):
        return what.choose.where.side, False
    if what in ("self", "equipped"):
        return "you", False
    if what == "event":
        return "opponent", False
    return "any", False
