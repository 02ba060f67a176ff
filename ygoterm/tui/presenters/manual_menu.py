"""The manual actions the duel screen offers (DESIGN.md §4): a card's, in its Enter menu, and
the command palette's; and why manual actions are on in a duel.

Only what the engine would take now (`Duel.check_manual`); each one taken goes through
`Duel.manual` and the replay. No Textual."""

from __future__ import annotations

from typing import Any

from ...engine import IllegalChoice, Loc, Manual
from .session import PUBLIC, Session


def manual_allowed(duel: Any) -> bool:
    """Manual actions work in a solo test or where the rules switch them on, while a decision is open."""
    return bool((duel.solo or duel.rules.manual_actions) and duel.pending is not None)


def manual_reason(duel: Any) -> str:
    """Why manual actions are on in this duel, for a note and the status line ('' when they
    are off, or in a solo test without cards to play by hand). In a two-player duel it names
    whose deck has cards without scripts, never which cards (the decks stay private)."""
    if not (duel.solo or duel.rules.manual_actions):
        return ""
    unscripted = [c for c in duel.cards.values() if getattr(c.data, "play", "") == "manual"]
    if duel.solo:
        names = sorted({c.name for c in unscripted})
        return (f"Manual actions are on (solo test): cards without scripts (✎), played by hand: {', '.join(names)}. "
                "Enter on a ✎ card offers its manual actions; ctrl+p lists them all.") if names else ""
    owners = sorted({c.owner for c in unscripted})
    if owners:
        whose = " and ".join(f"{duel.names[p]}'s deck" for p in owners)
        return (f"Manual actions are on for this duel: {whose} {'have' if len(owners) > 1 else 'has'} cards without scripts (✎), "
                "played by hand. Enter on a ✎ card offers its manual actions; ctrl+p lists them all.")
    return "Manual actions are on for this duel (the rules switch 'manual_actions'): ctrl+p lists them."


def acting_player(session: Session, card_uid: int | None = None) -> int:
    """Who takes a manual action: the card's controller (its owner off the field), else the
    viewer, else the player deciding."""
    duel = session.duel
    who = session.viewer if session.viewer != PUBLIC else (duel.pending.player if duel.pending else 0)
    card = duel.cards.get(card_uid) if card_uid is not None else None
    if card is not None:
        who = card.controller if card.loc.on_field else card.owner
    return who


def _moves(card: Any) -> list[tuple[str, Manual]]:
    """Where a card without scripts may be put by hand, from where it is."""
    uid = card.uid
    home = "extra" if card.is_extra_deck else "hand"
    moves: list[tuple[str, Manual]] = []
    if card.loc != Loc.MZONE and card.is_monster:
        moves += [("place it in a Monster Zone in Attack Position", Manual("move", uid, to="monster", position="attack")),
                  ("place it in a Monster Zone in Defense Position", Manual("move", uid, to="monster", position="defense")),
                  ("Set it in a Monster Zone (face-down Defense)", Manual("move", uid, to="monster", position="set"))]
    if card.loc != Loc.SZONE and not card.is_monster:
        if getattr(card.data, "subtype", "") == "field":
            moves += [("place it face-up in the Field Zone (activate it by hand)", Manual("move", uid, to="field")),
                      ("Set it in the Field Zone", Manual("move", uid, to="field", position="set"))]
        else:
            moves += [("place it face-up in a Spell & Trap Zone (activate it by hand)", Manual("move", uid, to="spell")),
                      ("Set it in a Spell & Trap Zone", Manual("move", uid, to="spell", position="set"))]
    if card.loc != Loc.GY:
        moves.append(("send it to the GY", Manual("move", uid, to="gy")))
    if card.loc != Loc.BANISHED:
        moves += [("banish it", Manual("move", uid, to="banished")), ("banish it face-down", Manual("move", uid, to="banished-face-down"))]
    if card.loc != Loc.HAND and home == "hand":
        moves.append(("return it to the hand", Manual("move", uid, to="hand")))
    if card.loc != Loc.EXTRA and home == "extra":
        moves.append(("return it to the Extra Deck", Manual("move", uid, to="extra")))
    if home == "hand":
        moves += [("put it on top of the Deck", Manual("move", uid, to="deck-top")),
                  ("put it on the bottom of the Deck", Manual("move", uid, to="deck-bottom"))]
    return moves


def _tweaks(card: Any) -> list[tuple[str, Manual]]:
    """What a card on the field is most often given by hand: stats, counters, a flip."""
    uid = card.uid
    tweaks: list[tuple[str, Manual]] = []
    if card.loc == Loc.MZONE and card.face_up:
        tweaks += [(f"{amount:+d} {stat.upper()}", Manual(stat, uid, amount=amount)) for stat in ("atk", "def") for amount in (500, -500)]
        tweaks += [(f"change its {stat.upper()} by …", Manual(stat, uid)) for stat in ("atk", "def")]  # (amount asked)
    tweaks.append(("add a counter to it", Manual("counter", uid, name="counter", amount=1)))
    if card.counters.get("counter", 0):
        tweaks.append(("remove a counter from it", Manual("counter", uid, name="counter", amount=-1)))
    tweaks.append((f"flip it {'face-down' if card.face_up else 'face-up'}", Manual("flip", uid)))
    return tweaks


def card_manual_actions(session: Session, uid: int) -> list[tuple[str, Manual]]:
    """The manual actions a card's Enter menu offers: for a card without scripts (✎) of the
    player at the keyboard, where manual actions are allowed; only those the engine would
    take now (`Duel.check_manual`)."""
    duel = session.duel
    card = duel.cards.get(uid)
    if card is None or session.viewer == PUBLIC or not manual_allowed(duel) or getattr(card.data, "play", "") != "manual":
        return []
    who = session.viewer
    if (card.controller if card.loc.on_field else card.owner) != who:
        return []
    moves = (_tweaks(card) if card.loc.on_field else []) + _moves(card)
    if card.loc == Loc.HAND:
        moves.append(("reveal it", Manual("reveal", uid)))
    allowed = []
    for label, action in moves:
        try:
            duel.check_manual(who, action)
        except IllegalChoice:
            continue
        allowed.append((f"✎ manual: {label}", action))
    return allowed


def manual_commands(session: Session, focused_uid: int | None) -> list[tuple[str, Manual]]:
    """The command palette's manual actions: the focused card's (when the acting player's),
    then LP, draw, mill, shuffle and a Token."""
    duel = session.duel
    if not manual_allowed(duel):
        return []
    who = acting_player(session)
    commands: list[tuple[str, Manual]] = []
    card = duel.cards.get(focused_uid) if focused_uid is not None else None
    if card is not None and (card.controller if card.loc.on_field else card.owner) == who:
        for to in ("hand", "gy", "banished", "banished-face-down", "deck-top", "deck-bottom", "monster", "spell"):
            commands.append((f"Move {card.name} to {to.replace('-', ' ')}", Manual("move", card.uid, to=to)))
        commands.append((f"Flip {card.name}", Manual("flip", card.uid)))
        commands.append((f"Add a counter to {card.name}", Manual("counter", card.uid, name="counter", amount=1)))
        commands.append((f"Remove a counter from {card.name}", Manual("counter", card.uid, name="counter", amount=-1)))
        commands.append((f"Reveal {card.name}", Manual("reveal", card.uid)))
        if card.loc == Loc.MZONE and card.face_up:
            for stat in ("atk", "def"):
                for amount in (100, 500, -100, -500):
                    commands.append((f"{amount:+d} {stat.upper()} to {card.name}", Manual(stat, card.uid, amount=amount)))
    for amount in (-1000, -500, -100, 100, 500, 1000):
        commands.append((f"LP {amount:+d} ({duel.names[who]})", Manual("lp", amount=amount)))
    commands.append((f"LP change by … ({duel.names[who]})", Manual("lp")))
    commands += [("Draw 1 card", Manual("draw", amount=1)), ("Mill 1 card (top of Deck to GY)", Manual("mill", amount=1)),
                 ("Shuffle the Deck", Manual("shuffle")), ("Create a Token (0 ATK, Attack)", Manual("token", name="Token"))]
    return [(f"Manual: {label}", action) for label, action in commands]
