"""Side-decking between the duels of a match (R-MATCH-4/5): one-for-one exchanges, each checked.

An exchange takes cards out of the Main or Extra Deck and puts Side Deck cards in their
places, pair by pair: the i-th card in takes the section the i-th card out left. It is refused,
with the rule it breaks, when the numbers differ (R-MATCH-4: the Side Deck size never changes),
when the resulting deck breaks a deck rule it did not break before (R-DECK-1…7: a 4th copy, a
Synchro monster in the Main Deck …), or when a card brought in is not in the Side Deck. The
swap options of a side-deck decision are exactly the single exchanges this allows, so the
options, `apply` and the refusals cannot disagree.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Callable

from ...schema.cards import Card
from ...schema.decks import Deck
from ...schema.rules import DeckRules
from ...schema.validate import check_deck, wrong_deck
from ..core.decision import Option, Refusal

DONE = Option("done", "done", verb="done")
RESET = Option("reset", "reset to the registered deck", verb="reset")
_SWAP = re.compile(r"swap (.+?) for (.+)", re.IGNORECASE)


def key(outs: list[Card], ins: list[Card]) -> str:
    """The answer key of an exchange: "swap:OUT,OUT:IN,IN" (passcodes, paired in order)."""
    return f"swap:{','.join(str(c.id) for c in outs)}:{','.join(str(c.id) for c in ins)}"


def label(outs: list[Card], ins: list[Card]) -> str:
    return f"swap {', '.join(c.name for c in outs)} for {', '.join(c.name for c in ins)}"


def exchange(deck: Deck, outs: list[Card], ins: list[Card]) -> Deck:
    """The deck after the exchange (no checks: see `refusal`). A card in takes the place of the
    card it replaces, so the lists keep their order."""
    main, extra, side = list(deck.main), list(deck.extra), list(deck.side)
    for out, card in zip(outs, ins):
        section = main if _index(main, out) is not None else extra
        section[_index(section, out)] = card  # type: ignore[index]
        at = _index(side, card)
        if at is not None:
            side[at] = out
        else:
            side.append(out)  # (not in the Side Deck: `refusal` refuses it; kept so the result can be judged)
    return Deck(deck.name, main, extra, side, deck.banlist, deck.source)


def refusal(deck: Deck, outs: list[Card], ins: list[Card], rules: DeckRules) -> Refusal | None:
    """Why this exchange may not be made, or None (R-MATCH-4, R-DECK-1…7)."""
    action = label(outs, ins) if outs or ins else "swap"
    if not outs and not ins:
        return Refusal(action, "R-MATCH-4", "name the cards to take out and the Side Deck cards to put in")
    if len(outs) != len(ins):
        return Refusal(action, "R-MATCH-4", f"exchanges are one for one: {len(outs)} out, {len(ins)} in (the Side Deck size never changes)")
    have = Counter(c.id for c in (*deck.main, *deck.extra))
    for passcode, count in Counter(c.id for c in outs).items():
        if have[passcode] < count:
            name = next(c.name for c in outs if c.id == passcode)
            return Refusal(action, "R-MATCH-4", f"'{name}' is not in your Main or Extra Deck" + (f" {count} times" if have[passcode] else ""))
    spare = Counter(c.id for c in deck.side)
    if all(spare[card] >= n for card, n in Counter(c.id for c in ins).items()):
        # the same cards in other sections: sizes, copies and the banlist cannot change, only
        # where each card stands (R-DECK-7) — the fast path for the options of every decision
        extra_ids = {c.id for c in deck.extra}
        for out, into in zip(outs, ins):
            wrong = wrong_deck(into, "extra" if out.id in extra_ids else "main")
            if wrong is not None:
                message, _, rule = wrong
                return Refusal(action, rule, message)
        return None
    after = exchange(deck, outs, ins)
    before = {(p.rule, p.message) for p in check_deck(deck, rules)}  # (a deck played with --allow-illegal)
    for problem in check_deck(after, rules):
        if (problem.rule, problem.message) not in before:
            return Refusal(action, problem.rule or "R-MATCH-4", problem.message)
    for passcode, count in Counter(c.id for c in ins).items():
        if spare[passcode] < count:
            name = next(c.name for c in ins if c.id == passcode)
            return Refusal(action, "R-MATCH-4", f"'{name}' is not in your Side Deck" + (f" {count} times" if spare[passcode] else ""))
    return None


def swap_options(deck: Deck, registered: Deck, rules: DeckRules) -> list[Option]:
    """The answers of a side-deck decision: done, reset (when the deck differs from the
    registered one), and every legal single swap of a Main/Extra card for a Side card."""
    options = [DONE]
    if _contents(deck) != _contents(registered):
        options.append(RESET)
    outs = list({c.id: c for c in (*deck.main, *deck.extra)}.values())
    ins = list({c.id: c for c in deck.side}.values())
    for card in ins:
        for out in outs:
            if out.id != card.id and refusal(deck, [out], [card], rules) is None:
                options.append(Option(key([out], [card]), label([out], [card]), verb="swap"))
    return options


def reset_exchange(deck: Deck, registered: Deck) -> tuple[list[Card], list[Card]]:
    """The one-for-one exchange that brings `deck` back to `registered`'s sections."""
    outs, ins = [], []
    for section in ("main", "extra"):
        now, want = Counter(c.id for c in deck.section(section)), Counter(c.id for c in registered.section(section))
        cards = {c.id: c for c in (*deck.all_cards,)}
        for card, n in (now - want).items():
            outs += [cards[card]] * n
        for card, n in (want - now).items():
            ins += [cards[card]] * n
    return outs, ins


def parse(deck: Deck, text: str, lookup: Callable[[str | int], Card | None]) -> tuple[list[Card], list[Card]] | None:
    """A typed exchange: "swap NAME[, NAME…] for NAME[, NAME…]" (names or passcodes), or a key
    "swap:ID,ID:ID,ID". `lookup(ref)` finds a card of the pool. None: not an exchange at all."""
    text = " ".join(text.split())
    if text.startswith("swap:"):
        parts = text.split(":")
        if len(parts) != 3:
            return None
        try:
            refs: list[list[str | int]] = [[int(x) for x in part.split(",") if x] for part in parts[1:]]
        except ValueError:
            return None
    else:
        m = _SWAP.fullmatch(text)
        if m is None:
            return None
        refs = [[x.strip() for x in m[i].split(",") if x.strip()] for i in (1, 2)]
    cards: list[list[Card]] = []
    for group in refs:
        found: list[Card] = []
        for ref in group:
            card = lookup(ref)
            if card is None:
                return None
            found.append(card)
        cards.append(found)
    return cards[0], cards[1]


def net_change(before: Deck, after: Deck) -> tuple[list[str], list[str]]:
    """What left and what joined the Main and Extra Decks (names, sorted), for the record."""
    was = Counter(c.name for c in (*before.main, *before.extra))
    now = Counter(c.name for c in (*after.main, *after.extra))
    return sorted((was - now).elements()), sorted((now - was).elements())


def _contents(deck: Deck) -> tuple[Counter[int], Counter[int]]:
    return Counter(c.id for c in deck.main), Counter(c.id for c in deck.extra)


def _index(cards: list[Card], card: Card) -> int | None:
    for i, c in enumerate(cards):
        if c.id == card.id:
            return i
    return None
