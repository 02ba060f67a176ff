"""What one player may see of a duel (R-TERM-6): public zones, their own secrets, counts.

Clients — the TUI, AIs — read views, never the duel's internals, so hidden information
cannot leak by accident. A hidden card appears as a `CardView` with no name and no stats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from ..core.types import Loc, Phase, Pos, Step

if TYPE_CHECKING:  # (type-only: a client that reads views must not load the whole engine, tests/test_cold_start.py)
    from ..state.card import CardInst
    from ..state.duel_state import DuelState


class CardView(NamedTuple):
    """One card as one viewer sees it. A named tuple, not a frozen dataclass: just as immutable,
    and five times quicker to make (a frozen dataclass sets each field through
    `object.__setattr__`), which matters to an AI that builds a view at every decision of
    thousands of play-outs."""

    uid: int
    name: str | None  # None: hidden from this viewer
    owner: int
    controller: int
    loc: Loc
    seq: int
    face_up: bool
    pos: Pos | None = None  # monsters on the field
    atk: int | None = None
    defense: int | None = None
    base_atk: int | None = None
    base_def: int | None = None
    counters: tuple[tuple[str, int], ...] = ()
    materials: int = 0
    scale: int | None = None  # a Pendulum card in a Pendulum Zone: its Scale now (R-SUMMON-14)
    # a monster in a Monster Zone or the hand whose Level, Type or Attribute an effect changed: what it is now (else None)
    level: int | None = None
    type: str | None = None
    attribute: str | None = None

    @property
    def hidden(self) -> bool:
        return self.name is None


@dataclass(frozen=True, slots=True)
class SideView:
    player: int
    name: str
    lp: int
    hand: tuple[CardView, ...]
    deck: int
    extra: tuple[CardView, ...]
    gy: tuple[CardView, ...]
    banished: tuple[CardView, ...]
    monsters: tuple[CardView | None, ...]  # 5 Main Monster Zones + the two EMZs
    spells: tuple[CardView | None, ...]  # 5 Spell & Trap Zones, the Field Zone, 2 separate Pendulum Zones (V-06 only)


@dataclass(frozen=True, slots=True)
class LinkView:
    """A chain link as anyone may see it (activations are public)."""

    number: int
    player: int
    card: int
    name: str
    speed: int
    targets: tuple[str, ...]
    effect: int = 0  # which of the card's effects (its index): a card may have several
    target_uids: tuple[int, ...] = ()  # the cards it targets (targets are public, R-CHAIN-2)


@dataclass(frozen=True, slots=True)
class DuelView:
    viewer: int
    turn: int
    turn_player: int
    phase: Phase
    step: Step
    sides: tuple[SideView, SideView]
    attacker: int | None
    attack_target: int | None
    deciding: int | None
    outcome: str | None
    chain: tuple[LinkView, ...] = ()
    summoning: tuple[int, ...] = ()  # uids of the monsters whose Summon is being declared (its negation window, R-SUMMON-19)
    closing: bool = False  # the turn player moved on: this response window is the last chance in the phase or step (R-PRIO-2)
    # uids of the monsters their controller's opponent may Tribute this turn as if they controlled them (Soul Exchange's
    # target: public, as every target is)
    lent: tuple[int, ...] = ()

    @property
    def me(self) -> SideView:
        return self.sides[self.viewer]

    @property
    def foe(self) -> SideView:
        return self.sides[1 - self.viewer]


def card_view(card: CardInst, viewer: int) -> CardView:
    loc = card.loc
    if not card.seen_by(viewer):
        return CardView(card.uid, None, card.owner, card.controller, loc, card.seq, card.face_up,
                        card.pos if loc == Loc.MZONE else None)
    counters = tuple(sorted(card.counters.items())) if card.counters else ()
    if loc == Loc.MZONE and card.is_monster:
        level, type_, attribute = _changes(card) if card.face_up else (None, None, None)
        return CardView(card.uid, card.name, card.owner, card.controller, loc, card.seq, card.face_up, card.pos,
                        card.atk, card.defense, card.base_atk, card.base_def, counters, len(card.materials),
                        level=level, type=type_, attribute=attribute)
    if loc == Loc.HAND and card.is_monster and card.base_level and card.level != card.base_level:
        return CardView(card.uid, card.name, card.owner, card.controller, loc, card.seq, card.face_up, counters=counters,
                        level=card.level)  # (Cost Down, A Legendary Ocean)
    if loc == Loc.SZONE:
        return CardView(card.uid, card.name, card.owner, card.controller, loc, card.seq, card.face_up,
                        counters=counters, scale=card.scale if card.in_pendulum_zone else None)
    return CardView(card.uid, card.name, card.owner, card.controller, loc, card.seq, card.face_up, counters=counters)


def _changes(card: CardInst) -> tuple[int | None, str | None, str | None]:
    """A face-up monster's Level, Type and Attribute where an effect changed them (None: as printed)."""
    level = card.level if card.base_level else 0
    d = card.duel
    type_ = d.changed_word(card, "set_type")
    attribute = d.changed_word(card, "set_attribute")
    if type_ is None and card.modifiers:
        type_ = next((m.type for m in reversed(card.modifiers) if m.type is not None), None)
    if attribute is None and card.modifiers:
        attribute = next((m.attribute for m in reversed(card.modifiers) if m.attribute is not None), None)
    data = card.monster
    return (level if level != card.base_level else None, type_ if type_ != data.type else None,
            attribute if attribute != data.attribute else None)


def pile_card_view(card: CardInst, viewer: int) -> CardView:
    """`card_view` of a card in a hand or pile, kept on the card until it changes: such a view
    depends only on the card's place, identity, counters and whether the viewer sees it — not on
    continuous effects, which change stats on the field only. An AI builds a view at every
    decision of its play-outs; most of a view is Extra Decks and Graveyards that did not move."""
    key = (card.moves, card.seq, card.face_up, card.name, card.controller, card.seen_by(viewer),
           tuple(sorted(card.counters.items())) if card.counters else (),
           card.level if card.loc == Loc.HAND and card.base_level else 0)  # (a Level changed in the hand: Cost Down)
    memo = card.seen_as[viewer]
    if memo is not None and memo[0] == key:
        seen: CardView = memo[1]
        return seen
    view = card_view(card, viewer)
    card.seen_as = ((key, view), card.seen_as[1]) if viewer == 0 else (card.seen_as[0], (key, view))
    return view


def make_view(d: DuelState, viewer: int, closing: bool = False) -> DuelView:
    """What `viewer` sees; `closing`: the innermost response window is the last chance (windows.in_last_chance)."""
    sides = []
    pile = pile_card_view
    for side in d.players:  # (list comprehensions, not generators: an AI builds a view at most decisions of its play-outs)
        sides.append(SideView(
            side.index, d.names[side.index], side.lp,
            tuple([pile(c, viewer) for c in side.hand]),
            len(side.deck),
            tuple([pile(c, viewer) for c in side.extra]),
            tuple([pile(c, viewer) for c in side.gy]),
            tuple([pile(c, viewer) for c in side.banished]),
            tuple([None if c is None else card_view(c, viewer) for c in side.mzone]),
            tuple([None if c is None else card_view(c, viewer) for c in side.szone]),
        ))
    attack = d.attack
    chain = tuple(LinkView(link.number, link.player, link.card.uid, link.card.name, link.speed,
                           tuple(t.name if (t.face_up or t.controller == viewer) else "a face-down card" for t in link.targets),
                           link.index, tuple(t.uid for t in link.targets))
                  for link in d.chain)
    from .continuous import has_flag  # (here: the continuous layer loads the card schema, which the menu must not wait for, tests/test_cold_start.py)
    lent = tuple([c.uid for side in d.players for c in side.mzone if c is not None and has_flag(d, c, "tributable_by_opponent")])
    return DuelView(viewer, d.turn, d.turn_player, d.phase, d.step, (sides[0], sides[1]),
                    attack.attacker.uid if attack else None,
                    attack.target.uid if attack and attack.target else None,
                    d.pending.player if d.pending else None,
                    d.outcome.text(d.names) if d.outcome else None, chain, tuple(c.uid for c in d.summoning),
                    closing, lent)
