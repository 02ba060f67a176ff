"""Manual actions (DESIGN.md §4): what a player does by hand beside the automated rules.

Move one of your cards anywhere, change your LP, add or remove counters, change a face-up
monster's ATK or DEF, create a Token, draw, mill, shuffle, reveal, flip, banish face-down. Always allowed in solo testing; in a
two-player duel only with the `manual_actions` rules switch. Every manual action is logged as
manual, recorded in the replay, and triggers nothing.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from ..core.decision import IllegalChoice
from ..core.events import Note
from ..core.types import FIELD_ZONE, Loc, Pos, Reason
from ..board import actions
from ..state.card import CardInst
from ..state.duel_state import DuelState
from ...schema.jsonio import bounded_int

DESTINATIONS = ("hand", "deck-top", "deck-bottom", "gy", "banished", "banished-face-down", "extra",
                "monster", "spell", "field")
KINDS = ("move", "lp", "counter", "atk", "def", "token", "draw", "mill", "shuffle", "reveal", "flip")


@dataclass(frozen=True)
class Manual:
    """One manual action. `kind` picks which of the other fields matter:

    move (card, to, position), lp (amount: +gain/−loss), counter (card, name, amount),
    atk / def (card, amount: a change that lasts while it stays face-up on the field), token (name, amount = ATK, position), draw / mill (amount), shuffle, reveal (card), flip (card).
    """

    kind: str
    card: int | None = None
    to: str | None = None
    position: str | None = None  # for monsters: attack, defense, set
    amount: int = 0
    name: str | None = None

    def to_json(self) -> str:
        return json.dumps({k: v for k, v in asdict(self).items() if v not in (None, 0) or k == "kind"}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "Manual":
        """The action a save's `!manual:P:{…}` entry holds; ValueError or TypeError for text that
        is not one (a hand-edited save may nest thousands of levels or hold huge numbers)."""
        try:
            return cls(**json.loads(text, parse_int=bounded_int))
        except RecursionError:
            raise ValueError("its JSON is nested too deeply") from None

    def describe(self, d: DuelState, hidden: bool = False) -> str:
        """The log line's action; `hidden`: without the card's name (the opponent may not know it)."""
        card = d.cards.get(self.card) if self.card is not None else None
        what = "a card" if hidden else card.name if card else ""
        return {"move": f"move {what} to {self.to}", "lp": f"LP {self.amount:+d}", "counter": f"{self.amount:+d} {self.name} on {what}",
                "atk": f"{self.amount:+d} ATK to {what}", "def": f"{self.amount:+d} DEF to {what}",
                "token": f"create {self.name}", "draw": f"draw {self.amount}", "mill": f"mill {self.amount}",
                "shuffle": "shuffle the Deck", "reveal": f"reveal {what}", "flip": f"flip {what}"}.get(self.kind, self.kind)


def check(d: DuelState, player: int, action: Manual) -> None:
    """Raise IllegalChoice if `player` may not take this manual action now."""
    if not (d.solo or d.rules.manual_actions):
        raise IllegalChoice("MANUAL", "manual actions are off in this duel (turn on the rules switch 'manual_actions')")
    if action.kind not in KINDS:
        raise IllegalChoice("MANUAL", f"unknown manual action '{action.kind}'; one of: {', '.join(KINDS)}")
    if action.kind in ("move", "counter", "atk", "def", "reveal", "flip"):
        card = d.cards.get(action.card) if action.card is not None else None
        if card is None or card.loc == Loc.GONE:
            raise IllegalChoice("MANUAL", "no such card")
        mine = card.controller == player if card.loc.on_field or card.loc == Loc.HAND else card.owner == player
        if not mine:
            raise IllegalChoice("MANUAL", f"{card.name} is not yours to move (R-TERM-5)")
    if action.kind in ("atk", "def"):
        card = _subject(d, action)
        if card.loc != Loc.MZONE or not card.face_up:
            raise IllegalChoice("MANUAL", f"only a face-up monster on the field has {action.kind.upper()} to change")
    if action.kind == "move":
        if action.to not in DESTINATIONS:
            raise IllegalChoice("MANUAL", f"move to one of: {', '.join(DESTINATIONS)}")
        side = d.players[player]
        if action.to == "monster" and side.free_mzone() is None:
            raise IllegalChoice("R-ZONE-1", "all 5 Main Monster Zones are occupied")
        if action.to == "spell" and side.free_szone() is None:
            raise IllegalChoice("R-ZONE-2", "all 5 Spell & Trap Zones are occupied")
        if action.to == "field" and side.szone[FIELD_ZONE] is not None:
            raise IllegalChoice("R-ZONE-3", "the Field Zone is occupied")
    if action.kind == "token" and d.players[player].free_mzone() is None:
        raise IllegalChoice("R-ZONE-1", "all 5 Main Monster Zones are occupied")


def perform(d: DuelState, player: int, action: Manual) -> None:
    """Carry out a checked manual action (logged as manual, no triggers). The log line names the
    card only if the opponent could see it before or can see it after (a hand card moved to the
    Deck, a Set card given a counter … stay "a card" to them: R-TERM-6); its owner sees the name."""
    names = d.names
    subject = d.cards.get(action.card) if action.card is not None else None
    seen_before = subject is None or subject.seen_by(1 - player) or action.kind == "reveal"
    at = len(d.log)
    try:
        _perform(d, player, action)
    finally:
        if seen_before or subject is None or subject.seen_by(1 - player):
            note = Note(f"{names[player]} (manual): {action.describe(d)}")
        else:
            note = Note(f"{names[player]} (manual): {action.describe(d, hidden=True)}", private_to=player, secret=subject.name)
        d.log.insert(at, note)  # (before what the action did)


def _perform(d: DuelState, player: int, action: Manual) -> None:
    names = d.names
    side = d.players[player]
    responders, d.index.responders = d.index.responders, False  # manual actions trigger nothing
    try:
        if action.kind == "move":
            card = _subject(d, action)
            to = action.to
            if to == "monster":
                pos = {"defense": Pos.DEFENSE, "set": Pos.FACEDOWN_DEFENSE}.get(action.position or "", Pos.ATTACK)
                actions.move(d, card, Loc.MZONE, seq=side.free_mzone(), face_up=pos.face_up, pos=pos, controller=player, reason=Reason.MANUAL)
            elif to in ("spell", "field"):
                seq = FIELD_ZONE if to == "field" else side.free_szone()
                actions.move(d, card, Loc.SZONE, seq=seq, face_up=action.position != "set", controller=player, reason=Reason.MANUAL)
                card.active = card.face_up
            else:
                loc = {"hand": Loc.HAND, "deck-top": Loc.DECK, "deck-bottom": Loc.DECK, "gy": Loc.GY, "banished": Loc.BANISHED,
                       "banished-face-down": Loc.BANISHED, "extra": Loc.EXTRA}[to]  # type: ignore[index]
                face_up = loc in (Loc.GY, Loc.BANISHED) and to != "banished-face-down"
                actions.move(d, card, loc, face_up=face_up, top=to != "deck-bottom", reason=Reason.MANUAL)
        elif action.kind == "lp":
            d.change_lp(player, max(action.amount, -side.lp), "manual")
        elif action.kind == "counter":
            card = _subject(d, action)
            have = card.counters.get(action.name or "counter", 0)
            card.counters[action.name or "counter"] = max(0, have + action.amount)
        elif action.kind in ("atk", "def"):
            from ..board.continuous import Modifier

            card = _subject(d, action)
            atk, defense = (action.amount, 0) if action.kind == "atk" else (0, action.amount)
            card.modifiers = [*card.modifiers, Modifier(atk, defense, None, "while_face_up", d.turn, card.uid)]
        elif action.kind == "token":
            from ...schema.effects import Token

            token = d.make_token(player, Token(name=action.name or "Token", atk=max(0, action.amount)))
            pos = Pos.DEFENSE if action.position == "defense" else Pos.ATTACK
            actions.move(d, token, Loc.MZONE, seq=side.free_mzone(), face_up=True, pos=pos, controller=player, reason=Reason.MANUAL)
        elif action.kind == "draw":
            d.draw(player, max(1, action.amount))
        elif action.kind == "mill":
            for card in side.deck[-max(1, action.amount):][::-1]:
                actions.move(d, card, Loc.GY, reason=Reason.MANUAL)
        elif action.kind == "shuffle":
            d.shuffle(player)
        elif action.kind == "reveal":
            card = _subject(d, action)
            d.reveal([card], (0, 1))
            d.emit(Note(f"{names[player]} reveals {card.name}"))
        elif action.kind == "flip":
            card = _subject(d, action)
            if card.loc == Loc.MZONE:
                actions.set_position(d, card, "face_up" if not card.face_up else "facedown")
            else:
                card.face_up = not card.face_up
    finally:
        d.index.responders = responders


def _subject(d: DuelState, action: Manual) -> CardInst:
    """The card a checked manual action is about (`check` made sure there is one)."""
    assert action.card is not None, f"manual action {action.kind!r} names no card"
    return d.cards[action.card]
