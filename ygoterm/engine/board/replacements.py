"""Where a card really goes: the rules' redirections and the replacement effects that say
"instead" (R-TERM-22), worked out as a step of its own before a card is put anywhere.

- a Token that leaves the field ceases to exist (R-CARD-11);
- an Extra Deck monster never goes to the hand or the Deck: it returns to the Extra Deck (R-DECK-7);
- a card going to the GY is banished instead while Dimensional Fissure (or the like) applies;
- a Pendulum monster leaving the field for the GY goes to the Extra Deck face-up (R-SUMMON-15);
- a monster about to be destroyed may have another card destroyed instead (a Union equipped to it).
"""

from __future__ import annotations

from typing import NamedTuple

from ..core.types import Loc
from ..state.card import CardInst
from ..state.duel_state import DuelState
from .continuous import applies, effects_negated, sources
from .filters import matches


class Destination(NamedTuple):
    """Where a moving card ends up, face-up or not, and how the log tells it (`quiet`: a more
    specific event tells the move; a replaced move is always logged)."""

    loc: Loc
    face_up: bool
    reason: str
    quiet: bool


def destination(d: DuelState, card: CardInst, src: Loc, dst: Loc, face_up: bool, reason: str, quiet: bool) -> Destination:
    """Where `card`, taken out of `src` on its way to `dst`, really goes. (Asked after the card
    left its place: a card that says "instead" does not apply to its own move.)"""
    if card.is_token and dst != Loc.MZONE:
        return Destination(Loc.GONE, face_up, reason, quiet)
    if dst in (Loc.DECK, Loc.HAND) and card.is_monster and card.monster.is_extra_deck:
        return Destination(Loc.EXTRA, False, reason, quiet)
    if dst == Loc.GY and d.index.continuous_count and banished_instead(d, card):
        return Destination(Loc.BANISHED, face_up, f"{reason}, banished instead", False)
    if dst == Loc.GY and src.on_field and card.is_pendulum:
        return Destination(Loc.EXTRA, True, f"{reason}, to the Extra Deck face-up instead of the GY (R-SUMMON-15)".lstrip(", "), False)
    return Destination(dst, face_up, reason, quiet)


def banished_instead(d: DuelState, card: CardInst) -> bool:
    """Dimensional Fissure and the like: a card going to the GY is banished instead (never the card
    that says so: it does not apply to its own move)."""
    for source, effect in sources(d):
        spec = effect.continuous
        if spec is not None and spec.banish_instead is not None and source is not card \
                and matches(d, card, spec.banish_instead, source.controller, source):
            return True
    return False


def banished_if_leaving(d: DuelState, card: CardInst) -> bool:
    """"If this face-up card would leave the field, banish it instead" (Dark Magician of Chaos): asked
    while the card is still face-up on the field, its effects not negated."""
    if not card.continuous or not card.face_up or effects_negated(d, card):
        return False
    return any(e.continuous is not None and e.continuous.banish_if_leaves for e in card.continuous)


def battle_victim_negated(d: DuelState, card: CardInst, destroyer: CardInst | None) -> bool:
    """Whether a face-up card negates the effects of `card`, destroyed by battle with `destroyer`
    (Dark Ruler Ha Des: "monsters destroyed by battle with Fiend-Type monsters you control")."""
    if destroyer is None:
        return False
    for source, effect in sources(d):
        spec = effect.continuous
        if spec is not None and spec.negates_battle_victims is not None and destroyer.controller == source.controller \
                and card.controller != source.controller and matches(d, destroyer, spec.negates_battle_victims, source.controller, source):
            return True
    return False


def destroyed_instead(d: DuelState, card: CardInst, by: str = "effect") -> CardInst | None:
    """The face-up card destroyed in place of monster `card` (a Union equipped to it), if any;
    one that replaces only a destruction by battle (`destroyed_instead: battle`) when `by` is "battle"."""
    for source, effect in sources(d):
        spec = effect.continuous
        if spec is not None and spec.destroyed_instead and (spec.destroyed_instead is True or by == "battle") \
                and source is not card and source.loc.on_field \
                and applies(d, source, spec, card):
            return source
    return None
