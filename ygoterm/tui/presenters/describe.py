"""What the duel screen says about cards and decisions, from what its viewer may see.

Pure functions of the session and its view: whose card an option concerns and where it is,
what the status line says is being decided, which cards the board marks. No Textual."""

from __future__ import annotations

from collections.abc import Sequence

from ...engine import EMZ_LEFT, FIELD_ZONE, CardView, DuelView, Kind, Loc, Option, Pos
from .session import Session
from .tags import PLACE_TAG

BOARD_KINDS = (Kind.COMMAND, Kind.BATTLE)  # your move: answered from the board (keys, c, a), never a waiting prompt


def card_in_view(view: DuelView, uid: int) -> CardView | None:
    """Card `uid` as the view shows it (None: not on the board or in a pile)."""
    for side in view.sides:
        for pile in (side.monsters, side.spells, side.hand, side.gy, side.banished, side.extra):
            for card in pile:
                if card is not None and card.uid == uid:
                    return card
    return None


def place(card: CardView, names: Sequence[str], number: int | None = None) -> str:
    """Whose card and where, as the viewer sees it: "Player 2's M3", "Player 1's hand"; `number`: which card of a
    hand or pile it is, counted as the engine's '@' tag counts ("Player 1's hand, card 6")."""
    if card.loc == Loc.MZONE:
        where = f"M{card.seq + 1}" if card.seq < EMZ_LEFT else f"EMZ{card.seq - EMZ_LEFT + 1}"
    elif card.loc == Loc.SZONE:
        where = "Field Zone" if card.seq == FIELD_ZONE else f"S{card.seq + 1}"
    else:
        where = {Loc.HAND: "hand", Loc.GY: "GY", Loc.BANISHED: "banished", Loc.EXTRA: "Extra Deck"}.get(card.loc, card.loc.name.lower())
        if number is not None:
            where += f", card {number}"
    return f"{names[card.controller]}'s {where}"



def describe_option(view: DuelView, names: Sequence[str], option: Option) -> str:
    """Whose card an option concerns, where it is and its stats, for prompt lists: "Player 2's
    M3 · 1400/1200 ATK". An option that names a target too (an attack) says whose details
    they are and where the target is: "attacker: Player 1's M1 · 1900/1200 ATK · target:
    Player 2's M2" (only the target's place: the label already names it as far as the viewer
    may know it). Only what the viewer may see (the view)."""
    card = card_in_view(view, option.card) if option.card is not None else None
    tag = PLACE_TAG.search(option.label) if option.target is None else None
    if card is None:
        # a card in the Deck (a search): its tag counts from the top, which nobody may know — the copies are alike
        return "from the Deck" if tag is not None and tag.group(1) == "DECK" else ""
    parts = [place(card, names, int(tag.group(2)) if tag and tag.group(2) and card.loc not in (Loc.MZONE, Loc.SZONE) else None)]
    if card.loc == Loc.MZONE and card.atk is not None:
        parts.append(f"{card.atk}/{card.defense} {'DEF' if card.pos in (Pos.DEFENSE, Pos.FACEDOWN_DEFENSE) else 'ATK'}")
    elif card.hidden:
        parts.append("face-down")
    if option.target is None or option.target < 0:
        return " · ".join(parts)
    parts[0] = f"{'attacker' if option.verb == 'attack' else 'card'}: {parts[0]}"
    target = card_in_view(view, option.target)
    if target is not None:
        parts.append(f"target: {place(target, names)}")
    return " · ".join(parts)


def option_card(session: Session, option: Option) -> CardView | None:
    """The card an option concerns as the viewer sees it; a card only the question shows (a
    Deck search) when the option names it."""
    uid = option.card
    if uid is None:
        return None
    card = card_in_view(session.view(), uid)
    if card is None:
        real = session.duel.cards.get(uid)
        if real is not None and real.name in option.label:
            card = CardView(uid, real.name, real.owner, real.controller, real.loc, real.seq, True)
    return card


def deciding_text(session: Session, left_open: object) -> str:
    """The status line's account of what is being decided (the phase and step it names already
    are cut from the prompt); `left_open` is a decision the player stepped back from."""
    d = session.pending
    duel = session.duel
    names = duel.names
    if duel.outcome is not None:
        return duel.outcome.text(names)
    if d is None:
        return ""
    again = " (c to answer)" if d is left_open else ""
    if session.hot_seat and session.is_shared_prompt():
        return "anyone responding?" + again
    if d.player != session.viewer and session.hot_seat:
        return f"{names[d.player]} to decide"
    prompt = d.prompt
    for where in (duel.step.title if duel.step else None, duel.phase.title):
        if where and prompt.startswith(where + ": "):
            prompt = prompt[len(where) + 2:]
    return f"{names[d.player]}{again}: {prompt}"


def actionable(session: Session) -> set[int]:
    """The cards the viewer may act on from the board now (their options in a command)."""
    d = session.pending
    if d is None or d.player != session.viewer or d.kind not in BOARD_KINDS:
        return set()
    return {o.card for o in d.options if o.card is not None}


def board_marks(session: Session, view: DuelView, picked: int | None) -> dict[int, str]:
    """What the board marks: the attacker and its target during a battle (public), and the
    cards the viewer's own open question offers ("option"; the highlighted one "picked")."""
    marks: dict[int, str] = {}
    d = session.pending
    if d is not None and d.player == session.viewer and d.kind not in BOARD_KINDS:
        marks.update((o.card, "option") for o in d.options if o.card is not None)
        if picked is not None and picked in marks:
            marks[picked] = "picked"
    if view.attacker is not None:
        marks[view.attacker] = "attacker"
    if view.attack_target is not None:
        marks[view.attack_target] = "target"
    return marks


_HIDDEN_AT = {Loc.HAND: "a card in hand", Loc.MZONE: "a Set card", Loc.SZONE: "a Set card", Loc.EXTRA: "an Extra Deck card"}


def hidden_as(view: DuelView, uid: int) -> str | None:
    """How the viewer of `view` calls card `uid` when they may not see it ("a card in hand", "a
    Set card", "a card of the Deck"); None when they may: the AI's "why?" names only those."""
    card = card_in_view(view, uid)
    if card is None:
        return "a card of the Deck"  # (neither on the board nor in a pile the view shows)
    return None if card.name is not None else _HIDDEN_AT.get(card.loc, "a hidden card")


def why_lines(session: Session) -> list[str] | None:
    """The AI's last searched move as the screen's viewer may read it: its own hidden cards as
    the viewer sees them, each move of its expected line with whose it is (R-TERM-6). Once the
    duel is over, with every name. None before its first search."""
    thoughts = [seat.agent.last for seat in session.seats if getattr(seat.agent, "last", None) is not None]
    if not thoughts:
        return None
    duel = session.duel
    view = duel.view(session.viewer)
    names = [side.name for side in view.sides]
    if duel.outcome is not None:
        return thoughts[0].lines(seats=names)
    return thoughts[0].lines(lambda uid: hidden_as(view, uid), names)
