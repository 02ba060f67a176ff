"""The duel: state, the operations that change it, and the decision protocol (DESIGN.md §2).

    duel = Duel.new(pool, (deck_a, deck_b), seed=42)
    while (d := duel.pending) is not None:
        duel.apply(agent.choose(duel.view(d.player), d))
    duel.outcome

The rules' control flow is a stack of frames (engine/machine.py): records of pending work that
return a `Decision` whenever a player must choose and receive the chosen option(s). `apply`
checks the answer against the pending decision *before* anything changes, so an illegal answer
never corrupts the duel. As the flow is data, `Duel.copy` copies a duel without replaying it.
"""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from ...schema.cards import Card
from ...schema.decks import Deck
from ...schema.rules import Rules
from ..state.card import CardInst
from ..board.continuous import applies, effects_negated, sources, spec_flags, stat
from ..board.filters import matches
from ..rules.commands import match_command, split_selection
from ..core.decision import Decision, DuelOver, IllegalChoice, Kind, Option, Outcome, Refusal
from ..core import machine
from ..core.machine import Frame
from ..core.events import Destroyed, Draw, DuelEnd, Event, Flip, LifePoints, Move, Note, PositionChange, SetCard, Shuffle
from ..state.links import STATE_EVENTS, Signal
from ..state.player import SEPARATE_PENDULUM_ZONES, Player
from ..state.record import ReplayRecord
from ..state import timelimit
from ..state.timelimit import EXTRA_DUEL, EXTRA_TURNS, TimeLimit
from ..core.types import EMZ_LEFT, FIELD_ZONE, TRIBUTED_BY_EFFECT, Loc, Phase, Pos, Step

if TYPE_CHECKING:
    from ...schema.cardpool import CardPool
    from ..rules.manual import Manual

REFRESH = Option("refresh", "refresh")  # sent into the flow after a manual action: ask again
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
        if rules.zones.separate_pendulum or rules.ruleset == "mr3":  # V-06
            for side in self.players:
                side.pendulum_zones = SEPARATE_PENDULUM_ZONES
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
        self.win_cards = False  # does any card of this duel say "you win" (R-WIN-3)?
        self.listens: set[str] = set()  # events "When …" activations of this duel's cards answer (chain.answerable)
        self.tagged_options: dict[tuple[str, str], Option] = {}  # options with '@' tags, reused
        # chains and effects (engine/chain.py)
        self.chain: list[Any] = []  # ChainLinks, CL1 first
        self.signals: list[Any] = []  # what happened since triggers were last collected
        self.last_signals: list[Any] = []  # the last action's events ("when …" activations answer them)
        self.batch = 0  # events of one action share a batch number (R-CHAIN-10)
        self.resolving = False
        self.summoning: tuple[CardInst, ...] = ()  # the monsters of a Summon in its negation window (R-SUMMON-19)
        self.summoned_from: dict[int, Loc] = {}  # … and where each came from (if its Summon is negated it never reached the field)
        self.summon_negated = False
        self.trigger_cards: list[CardInst] = []  # cards with trigger or FLIP effects
        self.trigger_events: set[str] = set()  # the events they wait for ("flipped" for FLIP effects)
        self.field_sources: tuple[tuple[int, int], list[CardInst]] | None = None  # continuous._continuous_on_field
        self.continuous_count = 0  # cards with continuous effects (0: skip the continuous layer)
        self.flags: set[str] = set()  # what this duel's continuous effects may ever set (continuous.spec_flags)
        self.negators: list[CardInst] = []  # cards that can negate other cards' effects
        self.forcers: list[CardInst] = []  # cards that keep monsters in a position (Level Limit - Area B)
        self.delayed: list[Any] = []  # links.Delayed: effects waiting for a later Standby/End Phase
        self.floating: list[tuple[CardInst, Any, int]] = []  # (card, continuous Effect, turn): "until the end of this turn"
        self.match_claim: int | None = None  # Victory Dragon's direct attack: a win now takes the match
        self.first_given: int | None = None  # a match's later duel: who goes first was chosen before it (R-MATCH-3)
        self.time_limit: TimeLimit | None = None  # tournament time called (engine/timelimit.py, R-TIME-2…6)
        self.declared: tuple[str, str] | None = None  # the last declaration ("type", "Dragon")
        self.solo = False  # solo testing: manual actions always allowed (DESIGN.md §4)
        self.end_battle = False  # an effect ends the Battle Phase after this attack
        self.move_count = 0  # moves so far: a card that arrived after an event cannot answer it
        self.attack_options: dict[tuple[int, int | None, bool], Option] = {}  # built once per pairing
        self.record: ReplayRecord | None = None
        self.attack: Any = None  # the attack in progress (links.AttackState) or None
        # uids of cards each player knows although they are hidden from them now: seen face-up or
        # revealed before going to a hand or face-down (engine/determinize.py keeps them); a
        # shuffled Deck is unknown again
        self.known: tuple[set[int], set[int]] = (set(), set())
        self.idle = False  # an open game state: the turn player's Main Phase / Battle Step command
        self._stack: list[Frame] = []  # the flow: pending work, innermost last (engine/machine.py)
        self._uids: list[int] = []

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, pool: "CardPool", decks: tuple[Deck, Deck], seed: int, rules: Rules | None = None,
            names: tuple[str, str] = DEFAULT_NAMES, *, solo: bool = False, first: int | None = None,
            time_limit: TimeLimit | None = None) -> "Duel":
        """A fresh duel: coin toss, shuffles and opening hands happen as the flow starts.
        `solo`: one person tests a deck, so manual actions are always allowed. `first`: the
        player who goes first, already chosen (a match's later duel, R-MATCH-3): no coin toss.
        `time_limit`: a duel limited from its start (the extra duel of R-TIME-6)."""
        from ..rules import flow

        duel = cls(rules or Rules(), seed, names)
        duel.solo = solo
        duel.first_given = first
        duel.record = ReplayRecord.for_decks(pool, decks, seed, duel.rules, names)
        duel.record.solo = solo
        duel.record.first = first
        if time_limit is not None:
            duel.time_limit = time_limit
            duel.record.time_limit = time_limit.entry
            timelimit.called(duel, time_limit)
        duel.deal_uids(sum(len(d.main) + len(d.extra) for d in decks))
        for p, deck in enumerate(decks):
            duel._deal(p, deck.main, Loc.DECK)
            duel._deal(p, deck.extra, Loc.EXTRA)
        duel._start(flow.Run())
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
            self.players[player].layout += 1
            self.cards[card.uid] = card
            self._register(card)
            self.players[player].pile(_PILES[loc]).append(card) if loc in _PILES else None
            made.append(card)
        return made

    def _register(self, card: CardInst) -> None:
        card.duel = self
        if card.is_pendulum:
            self.players[card.owner].has_pendulums = True
        if card.effects:
            self.responders = True
            if card.wins:
                self.win_cards = True
            for _, effect, *_ in card.chosen:
                if effect.when is not None:
                    self.listens.update(e for e in effect.when.event if e not in STATE_EVENTS)
            if card.triggers:
                self.trigger_cards.append(card)
                for _, effect in card.triggers:
                    self.trigger_events.update(("flipped",) if effect.kind == "flip" else effect.when.event)  # type: ignore[union-attr]
            if card.continuous:
                self.continuous_count += 1
                for effect in card.continuous:
                    self.flags |= spec_flags(effect.continuous)
                if card.negates:
                    self.negators.append(card)
                if card.forces_position:
                    self.forcers.append(card)

    def relist(self) -> None:
        """Rebuild which cards have triggers and which negate or force positions, after cards
        swapped identities (engine/determinize.py). What depends on the cards as a whole —
        counts, the events they answer — is the same for any permutation of the same cards."""
        cards = self.cards.values()
        self.trigger_cards = [c for c in cards if c.triggers]
        self.negators = [c for c in cards if c.continuous and c.negates]
        self.forcers = [c for c in cards if c.continuous and c.forces_position]
        self.field_sources = None
        for side in self.players:
            side.memo = {None: side.layout}

    def per_layout(self, p: int, key: Any, compute: Callable[..., Any], *args: Any) -> Any:
        """`compute(*args)`, kept until a card enters or leaves player `p`'s hand, field, piles
        or control (or cards change identity, `relist`): for answers that depend only on where
        `p`'s cards are, such as which of them could be activated from there, asked at every
        window. (`args` rather than a closure: most calls find the answer kept.)"""
        side = self.players[p]
        memo = side.memo
        if memo[None] == side.layout:
            found = memo.get(key, _MISSING)
            if found is not _MISSING:
                return found
        else:
            memo.clear()
            memo[None] = side.layout
        found = memo[key] = compute(*args)
        return found

    def _start(self, flow: Frame) -> None:
        self._stack = [flow]
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
                raise IllegalChoice(decision.rule or _SELECT_RULES.get(decision.verb, "PROTOCOL"), f"{decision.verb or 'select'} {want}, not {len(chosen)}")
            if decision.sets and frozenset(o.key for o in chosen) not in decision.sets:
                refusal = self._selection_refusal(tuple(chosen))
                if refusal is not None:
                    raise IllegalChoice(refusal.rule, f"{refusal.action}: {refusal.message}")
                raise IllegalChoice("PROTOCOL", "those cannot be chosen together")
            return tuple(chosen)
        if not isinstance(answer, (str, Option)):
            if len(answer) != 1:
                raise IllegalChoice("PROTOCOL", "choose exactly one option")
            answer = answer[0]
        return self._match(decision, answer)

    def _selection_refusal(self, chosen: tuple[Option, ...]) -> Refusal | None:
        """Why a selection outside the pending decision's `sets` is refused: the asking frame says
        (its `selection_refusal` method), or None."""
        check = getattr(self._stack[-1], "selection_refusal", None) if self._stack else None
        return check(self, chosen) if check is not None else None

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
        try:
            self.pending = machine.advance(self, self._stack, value)
        except DuelOver:
            self.pending = None
        if self.pending is None:
            machine.close(self._stack)

    def concede(self, player: int) -> list[Event]:
        """R-WIN-5: a player may concede at any time; it counts as a loss."""
        if self.outcome is not None:
            raise IllegalChoice("R-WIN-5", "the duel is already over")
        start = len(self.log)
        if self.record is not None:
            self.record.choices.append(f"!concede:{player}")
        machine.close(self._stack)
        self.pending = None
        self._end(1 - player, "concession", f"{self.names[player]} conceded")
        return self.log[start:]

    def check_manual(self, player: int, action: "Manual") -> None:
        """Raise IllegalChoice if `player` may not take this manual action now (a client lists
        only the actions that pass)."""
        from ..rules.manual import check

        check(self, player, action)

    def manual(self, player: int, action: "Manual") -> list[Event]:
        """A manual action (DESIGN.md §4) between answers: allowed in solo testing or with the
        `manual_actions` rules switch, at an open moment (a command or response decision)."""
        from ..rules.manual import check, perform

        if self.outcome is not None or self.pending is None:
            raise IllegalChoice("R-WIN-1", "the duel is over")
        if self.pending.kind not in (Kind.COMMAND, Kind.BATTLE, Kind.CHAIN):
            raise IllegalChoice("MANUAL", "finish the current choice first; manual actions wait for a command or response prompt")
        check(self, player, action)
        start = len(self.log)
        if self.record is not None:
            self.record.choices.append(f"!manual:{player}:{action.to_json()}")
        try:
            perform(self, player, action)
        except DuelOver:
            machine.close(self._stack)
            self.pending = None
            return self.log[start:]
        self._advance(REFRESH)  # the open decision is asked again with what changed
        return self.log[start:]

    def call_time(self, extra_turns: int | None = None, equal_lp: str | None = None) -> list[Event]:
        """R-TIME-2: time is called now. The current turn (turn 1 before the first begins) is
        played to its end, then `extra_turns` more (default: the rules' time procedure), then
        LP decide (R-TIME-3/4). Stored in the replay where it happened."""
        settings = self.rules.time
        turn = max(self.turn, 1)
        extra = settings.extra_turns if extra_turns is None else extra_turns
        return self.set_time_limit(TimeLimit(EXTRA_TURNS, turn, turn + extra, equal_lp or settings.equal_lp))

    def limit_turns(self, turns: int, equal_lp: str = "sudden_death") -> list[Event]:
        """R-TIME-6: this duel lasts `turns` turns, then the higher LP wins (equal: sudden death)."""
        return self.set_time_limit(TimeLimit(EXTRA_DUEL, 0, turns, equal_lp))

    def set_time_limit(self, limit: TimeLimit) -> list[Event]:
        if self.outcome is not None or self.pending is None:
            raise IllegalChoice("R-TIME-2", "the duel is over")
        if self.time_limit is not None:
            raise IllegalChoice("R-TIME-2", "time has already been called in this duel")
        start = len(self.log)
        if self.record is not None:
            self.record.choices.append(limit.entry)
        self.time_limit = limit
        timelimit.called(self, limit)
        return self.log[start:]

    @property
    def priority_passes(self) -> int:
        """In a response window (a `chain` decision pending): how many players passed in
        succession just before this question — 0, or 1 when one more pass ends the window (or
        resolves the chain). A hot-seat client that asks both players one shared question per
        window reads it to answer "pass" for both, and no further (R-PRIO-1)."""
        pending = self.pending
        if pending is None or pending.kind != Kind.CHAIN or not self._stack:
            return 0
        return getattr(self._stack[-1], "passes", 0)

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
        from ..board.views import make_view
        from ..rules.windows import in_last_chance

        return make_view(self, player, in_last_chance(self))

    def explain(self, player: int, uid: int) -> list[Refusal]:
        """Why each action on card `uid` is unavailable to `player` now (with rule IDs)."""
        from ..rules.legality import explain

        return explain(self, player, self.cards[uid])

    def copy(self) -> "Duel":
        """An independent duel at the same pending decision: applying answers to one never
        changes the other. The flow is data, so this copies it (engine/copying.py); a flow that
        holds a generator (`machine.GenFrame`: a handler or test written as one) cannot be
        copied (TypeError)."""
        if not machine.copyable(self._stack):
            raise TypeError("this duel's flow holds a generator (machine.GenFrame), which cannot be copied")
        from ..state.copying import copy_duel

        return copy_duel(self)

    def determinize(self, viewer: int, seed: int) -> "Duel":
        """A copy in which every card `viewer` cannot identify is resampled from what it could
        be (engine/determinize.py): the same view for `viewer`, another hidden world."""
        from ..state.determinize import determinize

        return determinize(self, viewer, seed)

    # ------------------------------------------------------------------ helpers for the flow

    def emit(self, event: Event) -> Event:
        self.log.append(event)
        return event

    def ask(self, player: int, kind: Kind, options: Sequence[Option], prompt: str, *,
            lo: int = 1, hi: int = 1, verb: str = "", sets: tuple[frozenset[str], ...] = (), rule: str = "",
            subject: int | None = None, effect: int | None = None) -> Decision:
        return Decision(player, kind, tuple(options), prompt, lo, hi, verb, kind in _MULTI, sets, rule, subject, effect)

    def stat(self, card: CardInst, which: str) -> int:
        """A card's current ATK or DEF ("atk"/"def") with every continuous effect applied."""
        return stat(self, card, which)

    def opponent(self, player: int) -> int:
        return 1 - player

    def card(self, uid: int) -> CardInst:
        return self.cards[uid]

    # ------------------------------------------------------------------ state changes

    def move(self, card: CardInst, dst: Loc, *, seq: int | None = None, face_up: bool = True,
             pos: Pos | None = None, reason: str = "", controller: int | None = None, top: bool = True,
             quiet: bool = False, reveal: bool = False, destroyed: bool = False, as_from: Loc | None = None) -> Move:
        """Take `card` from where it is and put it in `dst` (a pile's top unless `top` is False).

        Cards leaving the field go to their owner's piles (R-TERM-5); a Token that leaves the
        field ceases to exist (R-CARD-11); an Extra Deck monster returned to the Deck goes to
        the Extra Deck. `quiet` leaves the Move out of the log when a more specific event
        (Summon, SetCard, Destroyed) tells the same story; `reveal` shows a card added to the
        hand to both players. `as_from`: where the card counts as coming from for triggers (a
        monster whose Summon was negated never reached the field, R-SUMMON-19).
        """
        src = card.loc
        was_face_up = card.face_up  # (a face-up card both players saw: they know it wherever it goes hidden)
        held_by = card.controller  # (the log names who Tributed it, R-TERM-5: it goes to its owner)
        if src == Loc.MZONE:
            card.field_atk = card.atk if card.face_up else card.base_atk
        pair = card.bound if card.bound is not None and src.on_field else None
        # whether the pair's Spell/Trap still applies (Royal Decree, or Jinzo it revived, negates Call of the Haunted)
        pair_live = pair is not None and not effects_negated(self, card if card.binding else pair)
        self._remove(card)
        owner = self.players[card.owner]
        owner.layout += 1
        self.players[held_by].layout += 1
        if card.is_token and dst != Loc.MZONE:
            dst = Loc.GONE
        if dst in (Loc.DECK, Loc.HAND) and card.is_monster and card.monster.is_extra_deck:
            dst, face_up = Loc.EXTRA, False  # an Extra Deck monster never goes to the hand or Deck (R-DECK-7)
        if dst == Loc.GY and self.continuous_count and _banished_instead(self, card):
            dst, reason, quiet = Loc.BANISHED, f"{reason}, banished instead", False
        elif dst == Loc.GY and src.on_field and card.is_pendulum:  # R-SUMMON-15: a replacement, never the GY
            dst, face_up, quiet = Loc.EXTRA, True, False
            reason = f"{reason}, to the Extra Deck face-up instead of the GY (R-SUMMON-15)".lstrip(", ")
        if src == Loc.SZONE and dst == Loc.MZONE and card.equip_target is not None:
            self._unequip(card)  # a Union unequipped to be Special Summoned
        leaving = src.on_field and not dst.on_field
        if leaving:
            card.controller = card.owner
            card.original_controller = card.held_by = None
            for material in card.materials:  # R-SUMMON-13: materials go to the GY when it leaves
                material.loc, material.face_up = Loc.GY, True
                self.players[material.owner].gy.append(material)
                self.players[material.owner].layout += 1
            card.materials = []
        if controller is not None:
            card.controller = controller
        card.moves += 1
        self.move_count += 1
        self.players[card.controller].layout += 1
        card.arrived_at = self.move_count
        if dst != src or dst.on_field:
            card.reset_for_move(on_field=src.on_field and dst.on_field)
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
        elif dst not in (Loc.GONE, Loc.MATERIAL):  # an Xyz Material is kept by its Xyz monster
            pile = owner.pile(_PILES[dst])
            if top:
                pile.append(card)
            else:
                pile.insert(0, card)
            card.seq = 0
        if dst == Loc.DECK:
            self.known[0].discard(card.uid)
            self.known[1].discard(card.uid)
        elif reveal:
            self.reveal([card], (0, 1))
        elif was_face_up and not face_up:
            for viewer in (0, 1):
                if not card.seen_by(viewer):
                    self.known[viewer].add(card.uid)
        hidden = not face_up and dst in (Loc.MZONE, Loc.SZONE, Loc.BANISHED)
        private = card.owner if (hidden or dst in (Loc.HAND, Loc.DECK, Loc.EXTRA)) and not face_up and not reveal else None
        if src == Loc.HAND and dst == Loc.DECK:
            private = card.owner
        event = Move(card.uid, card.name, card.owner, held_by if leaving else card.controller, src, dst, card.seq, face_up,
                     reason, private)
        if not quiet:
            self.emit(event)
        if self.responders:
            if leaving and as_from is None:
                self.signal("leaves_field", card, card.owner, src=src)
            if dst == Loc.GY:  # how: a Tribute for a Summon or by a card's effect (R-TERM-3)
                how = {"tribute": "tribute", TRIBUTED_BY_EFFECT: "effect_tribute"}.get(reason, "")
                self.signal("sent_to_gy", card, card.owner, src=as_from or src, how=how)
        if leaving:
            self._after_leaving(card)
            if pair is not None:
                self._break_pair(card, pair, destroyed, pair_live)
        return event

    def _after_leaving(self, card: CardInst) -> None:
        """R-CARD-8 and bindings: what a card leaving the field takes with it."""
        for equip in list(card.equips):
            equip.equip_target = None
            if equip.loc == Loc.SZONE:
                self.destroy([equip], by="rule", reason="its equipped monster left the field (R-CARD-8)")
        card.equips = []
        if card.equip_target is not None:
            self._unequip(card)

    def _break_pair(self, card: CardInst, partner: CardInst, destroyed: bool, live: bool) -> None:
        """Call of the Haunted and its monster: the Trap leaving the field destroys the monster
        (Premature Burial: only if it was destroyed); the monster destroyed destroys the Trap. A
        monster that leaves otherwise (Tributed, bounced) leaves the Trap on the field, and a
        negated Trap destroys nothing (R-CARD-10)."""
        card.bound = partner.bound = None
        binder = card if card.binding else partner
        mode, binder.binding = binder.binding, ""
        if not live or not partner.loc.on_field:
            return
        if binder is card and (mode == "leaves" or destroyed):
            self.destroy([partner], by="effect", source=card, reason=f"{card.name} left the field")
        elif binder is partner and destroyed:
            self.destroy([partner], by="effect", source=partner, reason=f"{card.name} was destroyed")

    def _unequip(self, card: CardInst) -> None:
        monster = card.equip_target
        assert monster is not None
        if card in monster.equips:
            monster.equips.remove(card)
        card.equip_target = None
        if monster.held_by == card.uid and monster.original_controller is not None and monster.loc == Loc.MZONE:
            self.return_control(monster)  # control lasted while this card was equipped (Snatch Steal, Dark Necrofear), not another


    def signal(self, event: str, card: CardInst | None, player: int, *, how: str = "", src: Loc | None = None,
               by_battle: bool = False, by_player: int | None = None, by_card: CardInst | None = None) -> None:
        """Record something triggers may answer (only when some card of the duel has effects)."""
        if self.responders:
            self.signals.append(Signal(event, card, player, how, src, self.batch, card.moves if card else 0, by_battle,
                                       self.move_count, by_player, by_card))

    def spell_zone_for(self, p: int, card: CardInst) -> int:
        """The zone a Spell/Trap from `p`'s hand goes to (R-ZONE-2); a Field Spell takes the Field
        Zone and sends the Field Spell already there to the GY (R-ZONE-3: it is not destroyed)."""
        side = self.players[p]
        if card.is_field_spell:
            old = side.szone[FIELD_ZONE]
            if old is not None:
                self.move(old, Loc.GY, reason="replaced Field Spell")
            return FIELD_ZONE
        zone = side.free_szone()
        assert zone is not None, "legality checks a free zone first"
        return zone

    def set_spell_trap(self, p: int, card: CardInst) -> None:
        """R-ZONE-2/3: Set face-down; a Field Spell replaces the old one, which goes to the GY."""
        zone = self.spell_zone_for(p, card)
        self.move(card, Loc.SZONE, seq=zone, face_up=False, quiet=True)
        card.set_turn = self.turn
        self.emit(SetCard(p, card.uid, card.name, Loc.SZONE, zone))

    def destroy(self, cards: Iterable[CardInst], *, by: str, source: CardInst | None = None, reason: str = "",
                to: Loc = Loc.GY, as_from: dict[int, Loc] | None = None) -> None:
        """R-TERM-1: destroyed cards go to their owners' GYs (`to`: banished instead, Bottomless
        Trap Hole). `by`: "battle", "effect" (a card's effect), or "rule" (the game rules: an
        Equip Card whose monster left, R-CARD-8 — "destroyed by a card effect" does not apply)."""
        for card in list(cards):
            if not card.loc.on_field and card.loc not in (Loc.HAND, Loc.DECK):
                continue  # cards in the hand or Deck can be destroyed too (Chain Destruction)
            if by != "rule" and card.loc == Loc.MZONE and self.continuous_count:
                instead = destroyed_instead(self, card)  # a Union: "destroy this card instead"
                if instead is not None:
                    card.battle_destroyed = False
                    self.destroy([instead], by="effect", source=instead, reason=f"destroyed instead of {card.name}")
                    continue
            self.emit(Destroyed(card.uid, card.name, card.owner, by))
            origin = as_from.get(card.uid) if as_from else None  # (see `move`)
            src = origin or card.loc
            # whose card destroyed it: the other battler's controller, or the effect's controller
            culprit = 1 - card.controller if by == "battle" else source.controller if source is not None else None
            if by == "battle" and self.attack is not None:
                source = self.attack.target if card is self.attack.attacker else self.attack.attacker
            self.move(card, to, reason=by if not reason else reason, quiet=to == Loc.GY, destroyed=True, as_from=origin)
            if by == "battle" and source is not None:
                source.defeated = (*(x for x in source.defeated if x[2] == self.turn), (card, card.moves, self.turn))
            if self.responders:  # after the move: a trigger is lost if the card moves again (R-CHAIN-10)
                self.signal("destroyed", card, card.owner, src=src, by_battle=by == "battle", by_player=culprit, by_card=source)
                if by in ("battle", "effect"):
                    self.signal(f"destroyed_by_{by}", card, card.owner, src=src, by_player=culprit, by_card=source)

    def send_to_gy(self, cards: Iterable[CardInst], *, reason: str, as_from: dict[int, Loc] | None = None) -> None:
        for card in list(cards):
            self.move(card, Loc.GY, reason=reason, as_from=as_from.get(card.uid) if as_from else None)

    def discard(self, cards: Iterable[CardInst], *, cost: bool = False) -> None:
        """R-TERM-13: from the hand to the GY; one discard event is one trigger moment (R-TERM-12)."""
        for card in list(cards):
            if card.loc == Loc.HAND:
                self.move(card, Loc.GY, reason="discard")
                self.signal("discarded", card, card.owner)

    def set_position(self, card: CardInst, to: str, *, flip_effects: bool = True) -> None:
        """An effect changes a monster's battle position (face-down Defense by Book of Moon …)."""
        old = card.pos
        if to == "toggle":
            new = Pos.DEFENSE if old == Pos.ATTACK else Pos.ATTACK
        elif to == "face_up":
            new = Pos.DEFENSE if old == Pos.FACEDOWN_DEFENSE else Pos.ATTACK if old == Pos.FACEDOWN_ATTACK else old
        else:
            new = {"attack": Pos.ATTACK, "defense": Pos.DEFENSE, "facedown": Pos.FACEDOWN_DEFENSE}[to]
        if card.is_link and new != Pos.ATTACK:
            return  # R-SUMMON-16: Link monsters are always face-up Attack Position
        if card.is_token and not new.face_up:
            return  # R-CARD-11: Tokens are always face-up
        if new == old:
            return
        was_face_up = card.face_up
        card.pos = new
        card.face_up = new.face_up
        if not was_face_up and card.face_up:
            card.flipped_turn = self.turn
            self.emit(Flip(card.uid, card.name, new))
            if flip_effects:  # (Ceasefire flips without them)
                self.signal("flipped", card, card.controller)
        else:
            self.emit(PositionChange(card.uid, card.name if card.face_up else None, old, new))
            if old == Pos.ATTACK and new == Pos.DEFENSE:
                self.signal("changed_to_defense", card, card.controller)
        if was_face_up and not card.face_up:
            self.reveal([card], (0, 1))  # both saw it before it turned face-down
            card.pos_changed_turn = self.turn  # R-SUMMON-4: no Flip Summon this turn
            card.counters = {}  # R-CARD-12
            card.modifiers = []
            card.gemini_active = False  # a Gemini is a Normal Monster again (R-CARD-6)
            for equip in list(card.equips):  # R-CARD-8
                self.destroy([equip], by="rule", reason="its equipped monster turned face-down (R-CARD-8)")

    def equip(self, equip: CardInst, monster: CardInst) -> None:
        if equip.equip_target is not None and equip in equip.equip_target.equips:
            equip.equip_target.equips.remove(equip)
        equip.equip_target = monster
        monster.equips.append(equip)
        equip.active = True
        self.emit(Note(f"{equip.name} is equipped to {monster.name}"))
        self.signal("equipped", monster, monster.controller)  # about the monster (Gearfried the Iron Knight)

    def make_token(self, player: int, spec: Any) -> CardInst:
        """A Token (R-CARD-11): a Normal Monster that is not a card and ceases to exist off the field."""
        from ...schema.cards import Monster

        data = Monster(id=990_000_000 + len(self.cards), name=spec.name, kind="monster", frame="token",
                       attribute=spec.attribute, type=spec.type, level=spec.level, atk=spec.atk, **{"def": spec.def_})
        card = CardInst(max(self.cards, default=0) + 1, data, player)
        card.no_tribute = spec.no_tribute
        card.loc = Loc.GONE
        self.cards[card.uid] = card
        self._register(card)
        return card

    def take_control(self, card: CardInst, player: int, *, until_end_phase: bool) -> None:
        """Move an opponent's monster to `player`'s field; it returns at the End Phase if so said."""
        side = self.players[player]
        zone = side.free_mzone()
        if zone is None:
            return
        original = card.controller
        self.players[original].mzone[card.seq] = None
        side.mzone[zone] = card
        card.seq, card.controller = zone, player
        side.layout += 1
        self.players[original].layout += 1
        card.original_controller = original if until_end_phase else None
        card.control_until = self.turn if until_end_phase else 0
        card.moves += 1
        self.emit(Note(f"{self.names[player]} takes control of {card.name}" + (" until the End Phase" if until_end_phase else "")))

    def return_control(self, card: CardInst) -> None:
        """R-TERM-5: a monster whose control was taken goes back to its controller's field."""
        owner = card.original_controller
        assert owner is not None
        zone = self.players[owner].free_mzone()
        if zone is None:
            card.original_controller = card.held_by = None
            self.send_to_gy([card], reason="no zone to return to")
            return
        self.players[card.controller].mzone[card.seq] = None
        self.players[owner].mzone[zone] = card
        self.players[card.controller].layout += 1
        self.players[owner].layout += 1
        card.seq, card.controller, card.original_controller, card.held_by = zone, owner, None, None
        card.moves += 1
        self.emit(Note(f"{card.name} returns to {self.names[owner]}'s control"))

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
        """R-TERM-16: shuffle with the duel's seeded RNG. Nobody knows the order any more."""
        deck = self.players[player].deck
        self.rng.shuffle(deck)
        if self.known[0] or self.known[1]:
            uids = {c.uid for c in deck}
            self.known[0].difference_update(uids)
            self.known[1].difference_update(uids)
        self.emit(Shuffle(player))

    def reveal(self, cards: Iterable[CardInst], players: Iterable[int]) -> None:
        """`players` now know these cards, wherever they go until a Deck is shuffled
        (a revealed search, a look at the Deck or at a hand)."""
        for p in players:
            self.known[p].update(c.uid for c in cards)

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
            side.layout += 1
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
        if self.time_limit is not None and self.time_limit.sudden_death:
            timelimit.lp_changed(self)  # R-TIME-4: compared at the moment of the change

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

    def decide(self, winner: int | None, reason: str, detail: str) -> None:
        """End the duel now with this result (None: a draw), e.g. by the time procedure."""
        self._end(winner, reason, detail)
        raise DuelOver()

    def _end(self, winner: int | None, reason: str, detail: str) -> None:
        takes_match = winner is not None and winner == self.match_claim
        if takes_match:
            detail = f"{detail}; this win takes the match (Victory Dragon)".lstrip("; ")
        self.outcome = Outcome(winner, reason, detail, takes_match)
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
        tag = {Loc.GY: "GY", Loc.BANISHED: "BAN", Loc.DECK: "DECK", Loc.EXTRA: "EX"}.get(loc)
        if tag is None:
            return loc.name
        pile = self.players[card.owner].pile(_PILES[loc])
        return f"{tag}{len(pile) - pile.index(card)}" if loc == Loc.DECK else f"{tag}{pile.index(card) + 1}"

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
        if self.time_limit is not None:
            parts.append(self.time_limit)
        pending = self.pending
        if pending is not None:
            parts.append((pending.player, pending.kind.value, tuple(o.key for o in pending.options)))
        return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


def destroyed_instead(d: Duel, card: CardInst) -> CardInst | None:
    """The face-up card destroyed in place of monster `card` (a Union equipped to it), if any."""
    for source, effect in sources(d):
        spec = effect.continuous
        if spec is not None and spec.destroyed_instead and source is not card and source.loc.on_field \
                and applies(d, source, spec, card):
            return source
    return None


def _banished_instead(d: Duel, card: CardInst) -> bool:
    """Dimensional Fissure and the like: a card going to the GY is banished instead."""
    for source, effect in sources(d):
        spec = effect.continuous
        if spec is not None and spec.banish_instead is not None and matches(d, card, spec.banish_instead, source.controller, source):
            return True
    return False


_MULTI = (Kind.CARDS, Kind.ORDER)
_PILES = {Loc.DECK: "deck", Loc.HAND: "hand", Loc.GY: "gy", Loc.BANISHED: "banished", Loc.EXTRA: "extra"}
_MISSING = object()  # (per_layout: not worked out yet)
_SELECT_RULES = {"tribute": "R-SUMMON-2", "discard": "R-TERM-13"}


def forced(decision: Decision) -> bool:
    """A decision with only one possible answer (clients may answer it by themselves)."""
    n = len(decision.options)
    if not decision.multi:
        return n == 1
    if decision.kind == Kind.ORDER:
        return n <= 1
    return decision.min == decision.max == n
