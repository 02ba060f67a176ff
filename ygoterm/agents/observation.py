"""What a player may know when they decide: the honest interface between a duel and an agent.

An agent never holds the duel. It gets an `Observation`: its player's view (`Duel.view`), the
decision, the card pool (public card text) and `world(seed)` — a determinized copy of the duel
(`Duel.determinize`) in which every card the player cannot identify has been dealt again from
what it could be. An AI searches on worlds; what it reads of one is its own knowledge plus a
guess, never the real hidden cards (tests/test_agents.py proves it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Protocol, Sequence

from ..engine import CardView, Decision, DuelView, Option

if TYPE_CHECKING:
    from ..engine import Duel
    from ..schema.cardpool import CardPool
    from ..schema.cards import Card

# what an agent answers: one option, or several (a selection, an order). The engine also takes
# text (its `Answer`); agents answer with the decision's own options.
Answer = Option | Sequence[Option]


class Agent(Protocol):
    """What answers a decision without a person (`make_agent` builds one from its name). `obs` is
    None for a decision outside a duel (between a match's duels: going first, side-decking),
    which has no duel to observe and is answered from the decision alone."""

    def choose(self, obs: Observation | None, decision: Decision) -> Answer: ...


class Observation:
    """What `player` knows when deciding. The view is built when first read: a play-out asks
    many decisions that need no view (one legal answer, a forced pass), and building a view
    is the costliest part of observing."""

    __slots__ = ("player", "decision", "pool", "_duel", "_view")

    def __init__(self, player: int, decision: Decision, pool: "CardPool | None", duel: "Duel",
                 view: DuelView | None = None) -> None:
        self.player = player
        self.decision = decision
        self.pool = pool
        self._duel = duel
        self._view = view

    @property
    def view(self) -> DuelView:
        """The player's `Duel.view`."""
        if self._view is None:
            self._view = self._duel.view(self.player)
        return self._view

    def world(self, seed: int) -> "Duel":
        """A possible duel as this player sees it: same view, hidden cards dealt by `seed`."""
        return self._duel.determinize(self.player, seed)

    def mentions(self, answers: "Iterable[Answer]", subject: int | None = None) -> set[tuple[int, str]]:
        """The cards these answers' labels (and the question's prompt, for its subject) name, as
        (uid, name): only names the texts this player was shown already hold."""
        return mentions(self._duel, answers, subject)

    def card(self, uid: int | None) -> CardView | None:
        """The card `uid` as this player sees it (None: not in view, or no card)."""
        if uid is None:
            return None
        return _cards_of(self.view).get(uid)

    def definition(self, uid: int | None) -> "Card | None":
        """The printed card behind a card this player can see (public card text)."""
        seen = self.card(uid)
        if seen is None or seen.name is None or self.pool is None:
            return None
        return self.pool.named(seen.name)


def mentions(duel: "Duel", answers: "Iterable[Answer]", subject: int | None = None) -> set[tuple[int, str]]:
    """The cards some answers of `duel`'s pending question name in their labels (and its subject
    in the prompt), as (uid, name): what a "why?" must hide from a viewer who may not see them."""
    pending = duel.pending
    said: list[tuple[int | None, str]] = [(subject, pending.prompt if pending is not None else "")]
    for answer in answers:
        for o in (answer,) if isinstance(answer, Option) else answer:
            said += [(o.card, o.label), (o.target if o.target is None or o.target >= 0 else None, o.label)]
    return {(uid, name) for uid, text in said if uid is not None and (name := duel.cards[uid].name) in text}


def observe(duel: "Duel", player: int, pool: "CardPool | None" = None) -> Observation:
    """The observation of `player`, who must decide now."""
    decision = duel.pending
    assert decision is not None and decision.player == player, "only the deciding player observes a decision"
    return Observation(player, decision, pool, duel)


_VIEW_CARDS: dict[int, tuple[DuelView, dict[int, CardView]]] = {}


def _cards_of(view: DuelView) -> dict[int, CardView]:
    """Every card of a view by uid (built once per view)."""
    found = _VIEW_CARDS.get(id(view))
    if found is None or found[0] is not view:
        cards: dict[int, CardView] = {}
        for side in view.sides:
            for pile in (side.hand, side.extra, side.gy, side.banished, side.monsters, side.spells):
                for c in pile:
                    if c is not None:
                        cards[c.uid] = c
        if len(_VIEW_CARDS) > 64:
            _VIEW_CARDS.clear()
        found = _VIEW_CARDS[id(view)] = (view, cards)
    return found[1]
