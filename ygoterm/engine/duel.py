"""The duel: state, the operations that change it, and the decision protocol (DESIGN.md §2).

    duel = Duel.new(pool, (deck_a, deck_b), seed=42)
    while (d := duel.pending) is not None:
        duel.apply(agent.choose(duel.view(d.player), d))
    duel.outcome

The rules' control flow is a Python generator (`flow.run`) that yields a `Decision` whenever a
player must choose and receives the chosen option(s). `apply` checks the answer against the
pending decision *before* anything changes, so an illegal answer never corrupts the duel.
A generator cannot be copied, so copies are made by replay (`Duel.copy`); docs/engine.md
records that trade-off and its measured cost.
"""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING, Any, Generator, Iterable, Sequence

from ..schema.cards import Card
from ..schema.decks import Deck
from ..schema.rules import Rules
from .card import CardInst
from .commands import match_command, split_selection
from .decision import Decision, DuelOver, IllegalChoice, Kind, Option, Outcome, Refusal
from .events import DuelEnd, Event, LifePoints, Move, Shuffle, Draw
from .player import Player
from .types import EMZ_LEFT, FIELD_ZONE, Loc, Phase, Pos, Step

if TYPE_CHECKING:
    from ..schema.cardpool import CardPool
    from .replay import ReplayRecord

Flow = Generator[Decision, Any, Any]
Answer = Option | str | Sequence[Option | str]
DEFAULT_NAMES = ("Player 1", "Player 2")


class Duel:
    """A duel between players 0 and 1. Create it with `Duel.new` (or `scenario.build`)."""

    def __init__(self, rules: Rules, seed: int, names: tuple[str, str] = DEFAULT_NAMES) -> None:
        self.rules = rules
        self.seed = seed
        self.names = names
        self.rng = random.Random(seed)
        self.players = (Player(0, rules.duel.starting_lp), Player(1, rules.duel.starting_lp))
        self.cards: dict[int, CardInst] = {}
        self.turn = 0
        self.turn_player = 0
        self.first_player = 0
        self.phase = Phase.DRAW
        self.step = Step.NONE
        self.log: list[Event] = []
        self.outcome: Outcome | None = None
        self.pending: Decision | None = None
        self.prompt_modes = ["auto", "auto"]  # "always": ask at every window even with only "pass"
        self.responders = False  # can any card of this duel ever act in a response window?
        self.tagged_options: dict[tuple[str, str], Option] = {}  # options with '@' tags, reused
        self.attack_options: dict[tuple[int, int | None, bool], Option] = {}  # built once per pairing
        self.record: ReplayRecord | None = None
        self.attack: Any = None  # the attack in progress (flow.AttackState) or None
        self.idle = False  # an open game state: the turn player's Main Phase / Battle Step command
        self._flow: Flow | None = None
        self._uids: list[int] = []

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, pool: "CardPool", decks: tuple[Deck, Deck], seed: int, rules: Rules | None = None,
            names: tuple[str, str] = DEFAULT_NAMES) -> "Duel":
        """A fresh duel: coin toss, shuffles and opening hands happen as the flow starts."""
        from . import flow
        from .replay import ReplayRecord

        duel = cls(rules or Rules(), seed, names)
        duel.record = ReplayRecord.for_decks(pool, decks, seed, duel.rules, names)
        duel.deal_uids(sum(len(d.main) + len(d.extra) for d in decks))
        for p, deck in enumerate(decks):
            duel._deal(p, deck.main, Loc.DECK)
            duel._deal(p, deck.extra, Loc.EXTRA)
        duel._start(flow.run(duel))
        return duel

    def deal_uids(self, count: int) -> None:
        """Hand out card uids in a seeded random order: a hidden card's uid must not reveal its
        place in a (possibly public) decklist."""
        uids = list(range(1, count + 1))
        random.Random(f"uids:{self.seed}").shuffle(uids)
        self._uids = uids

    def _deal(self, player: int, cards: Iterable[Card], loc: Loc) -> list[CardInst]:
        """Create card instances for `player` in `loc` (in order, bottom → top for piles)."""
        made = []
        for data in cards:
            card = CardInst(self._uids.pop() if self._uids else max(self.cards, default=0) + 1, data, player)
            card.loc = loc
            card.face_up = loc not in (Loc.DECK, Loc.EXTRA, Loc.HAND)
            self.cards[card.uid] = card
            self.players[player].pile(_PILES[loc]).append(card) if loc in _PILES else None
            made.append(card)
        return made

    def _start(self, flow: Flow) -> None:
        self._flow = flow
        self._advance(None)

    # ------------------------------------------------------------------ the protocol

    def apply(self, answer: Answer) -> list[Event]:
        """Answer the pending decision; return the events it caused.

        `answer` is an Option of the pending decision, its key or its label (a typed command);
        for CARDS/ORDER decisions, a sequence of them. Anything else raises IllegalChoice and
        leaves the duel exactly as it was.
        """
        decision = self.pending
        if decision is None:
            raise IllegalChoice("R-WIN-1", "the duel is over")
        chosen = self._validate(decision, answer)
        if self.record is not None:
            entry = ",".join(o.key for o in chosen) if decision.multi else chosen.key
            self.record.choices.append("=" + entry if forced(decision) else entry)
        start = len(self.log)
        self._advance(chosen)
        return self.log[start:]

    def _validate(self, decision: Decision, answer: Answer) -> Any:
        if decision.multi:
            if isinstance(answer, Option):
                answer = [answer]
            elif isinstance(answer, str):
                answer = [answer] if decision.option(answer) else split_selection(decision, answer)
            chosen = [self._match(decision, a) for a in answer]
            if len({o.key for o in chosen}) != len(chosen):
                raise IllegalChoice("PROTOCOL", "the same option was chosen twice")
            if decision.kind == Kind.ORDER and len(chosen) != len(decision.options):
                raise IllegalChoice("R-PRIO-5", f"order all {len(decision.options)} effects")
            if not decision.min <= len(chosen) <= decision.max:
                want = str(decision.min) if decision.min == decision.max else f"{decision.min} to {decision.max}"
                raise IllegalChoice(_SELECT_RULES.get(decision.verb, "PROTOCOL"), f"{decision.verb or 'select'} {want}, not {len(chosen)}")
            return tuple(chosen)
        if not isinstance(answer, (str, Option)):
            if len(answer) != 1:
                raise IllegalChoice("PROTOCOL", "choose exactly one option")
            answer = answer[0]
        return self._match(decision, answer)

    def _match(self, decision: Decision, answer: Option | str) -> Option:
        if isinstance(answer, Option):
            for o in decision.options:
                if o is answer:
                    return o
            answer = answer.key
        for o in decision.options:
            if o.key == answer:
                return o
        return match_command(self, decision, answer)

    def _advance(self, value: Any) -> None:
        """Run the flow until it asks the next question (or the duel ends)."""
        assert self._flow is not None
        try:
            self.pending = self._flow.send(value)
        except DuelOver:
            self.pending = None
        except StopIteration:
            self.pending = None
        if self.pending is None:
            self._flow = None

    def concede(self, player: int) -> list[Event]:
        """R-WIN-5: a player may concede at any time; it counts as a loss."""
        if self.outcome is not None:
            raise IllegalChoice("R-WIN-5", "the duel is already over")
        start = len(self.log)
        if self.record is not None:
            self.record.choices.append(f"!concede:{player}")
        if self._flow is not None:
            self._flow.close()
        self._flow = None
        self.pending = None
        self._end(1 - player, "concession", f"{self.names[player]} conceded")
        return self.log[start:]

    def set_prompt_mode(self, player: int, mode: str) -> None:
        """'always': every response window asks, even with only "pass" (hot-seat privacy);
        'auto': windows with nothing to activate pass by themselves. Replays are unaffected."""
        if mode not in ("auto", "always"):
            raise ValueError(f"prompt mode must be 'auto' or 'always', not {mode!r}")
        self.prompt_modes[player] = mode

    def events_for(self, player: int, events: Iterable[Event] | None = None) -> list[Event]:
        """The log (or the given events) as `player` may see it."""
        return [e.for_player(player) for e in (self.log if events is None else events)]

    def view(self, player: int):
        """What `player` may see (DESIGN.md §2 "hidden information is a view")."""
        from .views import make_view

        return make_view(self, player)

    def explain(self, player: int, uid: int) -> list[Refusal]:
        """Why each action on card `uid` is unavailable to `player` now (with rule IDs)."""
        from .legality import explain

        return explain(self, player, self.cards[uid])

    def copy(self) -> "Duel":
        """An independent copy, made by replaying this duel's record (see docs/engine.md)."""
        from .replay import replay

        assert self.record is not None
        copy = replay(self.record, self.record.pool)
        copy.prompt_modes = list(self.prompt_modes)
        return copy

    # ------------------------------------------------------------------ helpers for the flow

    def emit(self, event: Event) -> Event:
        self.log.append(event)
        return event

    def ask(self, player: int, kind: Kind, options: Sequence[Option], prompt: str, *,
            lo: int = 1, hi: int = 1, verb: str = "") -> Decision:
        return Decision(player, kind, tuple(options), prompt, lo, hi, verb, kind in _MULTI)

    def opponent(self, player: int) -> int:
        return 1 - player

    def card(self, uid: int) -> CardInst:
        return self.cards[uid]

    # ------------------------------------------------------------------ state changes

    def move(self, card: CardInst, dst: Loc, *, seq: int | None = None, face_up: bool = True,
             pos: Pos | None = None, reason: str = "", controller: int | None = None, top: bool = True,
             quiet: bool = False) -> Move:
        """Take `card` from where it is and put it in `dst` (a pile's top unless `top` is False).

        Cards leaving the field go to their owner's piles (R-TERM-5); a Token that leaves the
        field ceases to exist (R-CARD-11). `quiet` leaves the Move out of the log when a more
        specific event (Summon, SetCard, Destroyed) tells the same story.
        """
        src = card.loc
        self._remove(card)
        owner = self.players[card.owner]
        if card.is_token and dst != Loc.MZONE:
            dst = Loc.GONE
        if src.on_field and not dst.on_field:
            card.controller = card.owner
            for material in card.materials:  # R-SUMMON-13: materials go to the GY when it leaves
                self._remove(material)
                material.loc, material.face_up = Loc.GY, True
                self.players[material.owner].gy.append(material)
            card.materials = []
        if controller is not None:
            card.controller = controller
        if dst != src or dst.on_field:
            card.reset_for_move()
            card.arrived_turn = self.turn
        if dst not in (Loc.GY, Loc.BANISHED, Loc.MZONE, Loc.SZONE):
            card.properly_summoned = False
        card.loc = dst
        card.face_up = face_up
        if dst == Loc.MZONE:
            side = self.players[card.controller]
            assert seq is not None and side.mzone[seq] is None, f"zone {seq} is not free"
            side.mzone[seq] = card
            card.seq = seq
            card.pos = pos or Pos.ATTACK
        elif dst == Loc.SZONE:
            side = self.players[card.controller]
            assert seq is not None and side.szone[seq] is None, f"zone {seq} is not free"
            side.szone[seq] = card
            card.seq = seq
        elif dst != Loc.GONE:
            pile = owner.pile(_PILES[dst])
            if top:
                pile.append(card)
            else:
                pile.insert(0, card)
            card.seq = 0
        hidden = not face_up and dst in (Loc.MZONE, Loc.SZONE, Loc.BANISHED)
        private = card.owner if (hidden or dst in (Loc.HAND, Loc.DECK, Loc.EXTRA)) and not face_up else None
        if src == Loc.HAND and dst == Loc.DECK:
            private = card.owner
        event = Move(card.uid, card.name, card.owner, card.controller, src, dst, card.seq, face_up, reason, private)
        if not quiet:
            self.emit(event)
        return event

    def _remove(self, card: CardInst) -> None:
        loc = card.loc
        if loc == Loc.MZONE:
            self.players[card.controller].mzone[card.seq] = None
        elif loc == Loc.SZONE:
            self.players[card.controller].szone[card.seq] = None
        elif loc == Loc.MATERIAL:
            for other in self.cards.values():
                if card in other.materials:
                    other.materials.remove(card)
                    break
        elif loc in _PILES:
            pile = self.players[card.owner].pile(_PILES[loc])
            if pile and pile[-1] is card:
                pile.pop()
            else:
                pile.remove(card)

    def shuffle(self, player: int) -> None:
        """R-TERM-16: shuffle with the duel's seeded RNG."""
        self.rng.shuffle(self.players[player].deck)
        self.emit(Shuffle(player))

    def draw(self, player: int, count: int = 1) -> list[CardInst]:
        """Draw `count` cards; a player who must draw from an empty Deck loses (R-WIN-2)."""
        side = self.players[player]
        drawn: list[CardInst] = []
        for _ in range(count):
            if not side.deck:
                if drawn:
                    self.emit(Draw(player, tuple(c.uid for c in drawn), tuple(c.name for c in drawn)))
                self.lose([player], "deck-out", f"{self.names[player]} had to draw from an empty Deck (R-WIN-2)")
            card = side.deck.pop()
            card.loc = Loc.HAND
            card.face_up = False
            card.arrived_turn = self.turn
            card.properly_summoned = False
            side.hand.append(card)
            drawn.append(card)
        if drawn:
            self.emit(Draw(player, tuple(c.uid for c in drawn), tuple(c.name for c in drawn)))
        return drawn

    def change_lp(self, player: int, delta: int, kind: str) -> None:
        """Apply an LP change (floored at 0, R-BATTLE-10) and end the duel at 0 LP (R-WIN-1)."""
        self.change_lps({player: delta}, kind)

    def change_lps(self, deltas: dict[int, int], kind: str) -> None:
        """Several LP changes at one moment: both players at 0 together is a draw (R-WIN-4)."""
        for player, delta in deltas.items():
            if delta == 0:
                continue
            side = self.players[player]
            side.lp = max(0, side.lp + delta)
            self.emit(LifePoints(player, delta, side.lp, kind))
        zero = [p for p in (0, 1) if self.players[p].lp == 0]
        if zero:
            self.lose(zero, "LP", "LP reached 0 (R-WIN-1)")

    def lose(self, players: list[int], reason: str, detail: str) -> None:
        """End the duel now: one loser → the other wins; both → a draw (R-WIN-4)."""
        if len(players) == 2:
            self._end(None, reason, f"both players lost at once: {detail} (R-WIN-4)")
        else:
            self._end(1 - players[0], reason, detail)
        raise DuelOver()

    def win(self, player: int, reason: str, detail: str) -> None:
        self._end(player, reason, detail)
        raise DuelOver()

    def _end(self, winner: int | None, reason: str, detail: str) -> None:
        self.outcome = Outcome(winner, reason, detail)
        self.emit(DuelEnd(winner, reason, detail))

    # ------------------------------------------------------------------ queries

    def monster_count(self, player: int) -> int:
        return sum(1 for c in self.players[player].mzone if c is not None)

    def emz_free(self, seq: int) -> bool:
        return self.players[0].mzone[seq] is None and self.players[1].mzone[seq] is None

    def uses_emz(self, player: int) -> bool:
        side = self.players[player]
        return side.mzone[EMZ_LEFT] is not None or side.mzone[EMZ_LEFT + 1] is not None

    def where(self, card: CardInst) -> str:
        """A short location tag used to tell identical names apart: H2, M3, S1, F, GY …"""
        loc = card.loc
        if loc == Loc.HAND:
            return f"H{self.players[card.owner].hand.index(card) + 1}"
        if loc == Loc.MZONE:
            return f"M{card.seq + 1}" if card.seq < 5 else f"EMZ{card.seq - 4}"
        if loc == Loc.SZONE:
            return "F" if card.seq == FIELD_ZONE else f"S{card.seq + 1}"
        return {Loc.GY: "GY", Loc.BANISHED: "BAN", Loc.DECK: "DECK", Loc.EXTRA: "EX"}.get(loc, loc.name)

    def state_hash(self) -> str:
        """A digest of everything that decides the rest of the duel (replays must reproduce it)."""
        parts: list[Any] = [self.turn, self.turn_player, int(self.phase), int(self.step), self.rng.getstate()[1][:4],
                            self.outcome and (self.outcome.winner, self.outcome.reason)]
        for side in self.players:
            parts.append((side.lp, side.normal_summon_turn))
            for pile in (side.deck, side.hand, side.gy, side.banished, side.extra):
                parts.append(tuple((c.uid, c.face_up) for c in pile))
            for zone in (side.mzone, side.szone):
                parts.append(tuple(None if c is None else (c.uid, int(c.pos), c.face_up, c.attacks, c.pos_changed_turn,
                                                           tuple(m.uid for m in c.materials)) for c in zone))
        pending = self.pending
        if pending is not None:
            parts.append((pending.player, pending.kind.value, tuple(o.key for o in pending.options)))
        return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


_MULTI = (Kind.CARDS, Kind.ORDER)
_PILES = {Loc.DECK: "deck", Loc.HAND: "hand", Loc.GY: "gy", Loc.BANISHED: "banished", Loc.EXTRA: "extra"}
_SELECT_RULES = {"tribute": "R-SUMMON-2", "discard": "R-PHASE-7"}


def forced(decision: Decision) -> bool:
    """A decision with only one possible answer (clients may answer it by themselves)."""
    n = len(decision.options)
    if not decision.multi:
        return n == 1
    if decision.kind == Kind.ORDER:
        return n <= 1
    return decision.min == decision.max == n
