"""Options as a player reads them: cards offered by name (a face-down card stays unnamed),
and equal labels told apart with '@' location tags (two Celtic Guardians)."""

from __future__ import annotations


from ..state.card import CardInst
from ..state.duel_state import DuelState
from ..core.decision import Option
from ..core.types import Loc

def card_options(d: DuelState, cards: list[CardInst], viewer: int, look: bool = False) -> list[Option]:
    options = []
    for c in cards:
        name = c.name if (look or c.face_up or c.controller == viewer and c.loc.on_field or c.loc in (Loc.GY,)
                          or (c.owner == viewer and c.loc in (Loc.DECK, Loc.EXTRA, Loc.BANISHED))
                          or (c.controller == viewer and c.loc == Loc.HAND)) else "face-down card"  # (a hand's holder)
        options.append(Option(f"card:{c.uid}", name, c.uid))
    return unique_labels(d, options)


def unique_labels(d: DuelState, options: list[Option]) -> list[Option]:
    """Tell apart options whose labels are equal (two Celtic Guardians) with '@' location tags."""
    if len({o[1] for o in options}) == len(options):  # o[1]: the label (fast path, no repeats)
        return options
    seen: set[str] = set()
    repeated: set[str] = set()
    for o in options:
        (repeated if o.label in seen else seen).add(o.label)
    tagged = d.index.tagged_options
    out = []
    for o in options:
        if o.label in repeated:
            key = (o.key, _tags(d, o))
            o = tagged.get(key) or tagged.setdefault(key, o._replace(label=f"{o.label}@{key[1]}"))
        out.append(o)
    return out


def _tags(d: DuelState, option: Option) -> str:
    if option.target is None or option.target < 0:  # (< 0: a target the opponent chooses, Patrician of Darkness)
        return d.where(d.cards[option.card]) if option.card is not None else ""
    attacker = d.where(d.cards[option.card]) if option.card is not None else ""
    return f"{attacker}->{d.where(d.cards[option.target])}"
