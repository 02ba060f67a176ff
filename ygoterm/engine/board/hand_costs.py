"""An LP cost the rules add to every card played from the hand (the continuous key `hand_play_lp_cost`: Chain Energy's
"Each player must pay 500 Life Points per card to Normal Summon, Special Summon, Set or activate cards from his/her
respective hand").

One check and one payment for every path that plays a card from the hand — a Normal Summon/Set, a Spell/Trap Set and
a Summon procedure (rules/main_phase.py, offered by rules/legality.py), an activation from the hand (rules/activation.py,
a trigger's in rules/chain.py through `cost_payable`), a Special Summon by an effect (effects/verbs/summoning.py).
A duel none of whose cards has the key answers at once (`CardIndex.flags`)."""

from __future__ import annotations

from ...schema.effects import Effect
from ..core.decision import Refusal
from ..core.events import Note
from ..core.types import Loc
from ..state.card import CardInst
from ..state.duel_state import DuelState
from .continuous import sources, spell_lp_costs_waived

KEY = "hand_play_lp_cost"


def hand_play_lp(d: DuelState, p: int) -> int:
    """The LP `p` pays per card played from their hand now: the sum over the face-up cards with the key (2 Chain Energy,
    1000 LP) — 0 in a duel without one."""
    if KEY not in d.index.flags:
        return 0
    return sum(effect.continuous.hand_play_lp_cost or 0 for source, effect in sources(d)
               if effect.continuous is not None and source.loc.on_field)


def applies(d: DuelState, card: CardInst) -> bool:
    """Whether playing `card` may cost LP now: it is in a hand, in a duel whose cards have the key (cheap)."""
    return card.loc == Loc.HAND and KEY in d.index.flags


def _own_lp_cost(d: DuelState, p: int, card: CardInst, effect: Effect | None) -> int:
    """The fixed LP the effect's own cost asks on top (Premature Burial's 800), unless Spell Economics waives it."""
    if effect is None:
        return 0
    own = sum(op.params.amount for op in effect.cost if op.op == "pay_lp" and isinstance(op.params.amount, int))
    if own and effect.kind == "activate" and card.is_spell and spell_lp_costs_waived(d, p) is not None:
        return 0
    return own


def hand_play_refusal(d: DuelState, p: int, card: CardInst, action: str, effect: Effect | None = None) -> Refusal | None:
    """Why `p` cannot play `card` from their hand for lack of LP (None: they can, or it costs nothing): R-CHAIN-5 — a cost
    that cannot be paid is not paid, so the action is not taken (R-WIN-1: a payment may bring LP to 0, never below)."""
    if not applies(d, card):
        return None
    cost = hand_play_lp(d, p)
    if not cost:
        return None
    need = cost + _own_lp_cost(d, p, card, effect)
    if d.players[p].lp >= need:
        return None
    return Refusal(action, "R-CHAIN-5", f"{_payers(d)}: {cost} LP to play a card from your hand"
                   + (f" ({need} with its own cost)" if need > cost else "") + f", and you have {d.players[p].lp}")


def hand_play_short(d: DuelState, p: int) -> bool:
    """Whether `p`'s LP do not cover the cost of playing any card from their hand (options are left out at once)."""
    if KEY not in d.index.flags:
        return False
    cost = hand_play_lp(d, p)
    return bool(cost) and d.players[p].lp < cost


def pay_hand_play(d: DuelState, p: int, card: CardInst) -> bool:
    """`p` pays the LP for playing `card` from their hand, if it costs any; False (nothing paid) when their LP do not
    cover it — the card is then not played (an effect's Special Summon from the hand leaves it there)."""
    if not applies(d, card):
        return True
    cost = hand_play_lp(d, p)
    if not cost:
        return True
    if d.players[p].lp < cost:
        d.emit(Note(f"{d.names[p]} cannot pay {cost} LP ({_payers(d)}) for {card.name}"))
        return False
    d.emit(Note(f"{d.names[p]} pays {cost} LP ({_payers(d)}) to play {card.name} from the hand"))
    d.change_lp(p, -cost, "cost")
    return True


def _payers(d: DuelState) -> str:
    names = sorted({source.name for source, effect in sources(d) if effect.continuous is not None
                    and effect.continuous.hand_play_lp_cost and source.loc.on_field})
    return ", ".join(names)
