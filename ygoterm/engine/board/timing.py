"""When a player may act at all: their own Main Phase in an open game state (R-PRIO-7), and
no effect stopping them Summoning this turn. Legality, the chain and the Extra Deck and
Pendulum Summons all start from these checks."""

from __future__ import annotations


from ..core.decision import Refusal
from ..core.types import Phase
from ..state.card import CardInst
from .continuous import source_with
from ..state.duel_state import DuelState

def open_main(d: DuelState, p: int, action: str) -> Refusal | None:
    """R-PRIO-7: Main Phase actions need your own Main Phase with an open game state."""
    if d.outcome is not None:
        return Refusal(action, "R-WIN-1", "the duel is over")
    if d.turn_player != p:
        return Refusal(action, "R-PRIO-7", "only in your own turn")
    if d.phase not in (Phase.MAIN1, Phase.MAIN2):
        rule = "R-PHASE-5" if d.phase == Phase.BATTLE else "R-PHASE-4"
        return Refusal(action, rule, f"only in your Main Phase (now: {d.phase.title})")
    if not d.idle:
        return Refusal(action, "R-PRIO-7", "only in an open game state (empty chain, your priority)")
    return None


def summon_locked(d: DuelState, p: int, action: str, setting: bool = False, card: CardInst | None = None) -> Refusal | None:
    """An effect stopped `p` Summoning (or Setting) monsters this turn (Scapegoat, Dark Magic Curtain),
    or a face-up card forbids that kind of Summon (The Last Warrior from Another Planet)."""
    side = d.players[p]
    if (side.set_lock_turn if setting else side.summon_lock_turn) == d.turn:
        return Refusal(action, "R-CARD-13", f"a card's effect stops you {'Setting' if setting else 'Summoning'} monsters this turn")
    if not setting and "cannot_summon" in d.index.flags:  # (the kind is worked out only where it matters)
        kind = "flip" if action == "Flip Summon" else "normal" if action in ("Normal Summon", "Gemini Summon") else "special"
        blocker = summon_forbidden(d, kind)
        if blocker is not None:
            return Refusal(action, "R-CARD-13", f"{blocker.name} forbids {kind.title()} Summons")
    if not setting and card is not None and (blocker := summon_excluded(d, p, card)) is not None:
        return Refusal(action, "R-CARD-13", f"{blocker.name} lets you Summon no monster but those it names")
    return None


def summon_excluded(d: DuelState, p: int, card: CardInst) -> CardInst | None:
    """The face-up card of `p`'s whose continuous effect lets `p` Summon only some monsters, `card` not one of them
    (`summon_only`: Jam Breeding Machine's Slime Tokens)."""
    if "summon_only" not in d.index.flags:
        return None
    from .filters import matches
    return source_with(d, "summon_only", lambda source, spec: source.controller == p
                       and not matches(d, card, spec.summon_only, p, source))  # type: ignore[arg-type]


def summon_forbidden(d: DuelState, kind: str) -> CardInst | None:
    """The face-up card whose continuous effect forbids every player that kind of Summon
    (`cannot_summon`: normal, flip, special), if any."""
    return source_with(d, "cannot_summon", lambda _, spec: kind in spec.cannot_summon)  # type: ignore[operator]  # (set: source_with checked the key)
