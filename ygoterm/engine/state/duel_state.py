"""The duel's state: everything a copy must carry, and the primitive changes that need no rule.

`DuelState` holds the rule state (cards, players, turn, phase, chain, the flow's frames, the
RNG, the log, the replay record) beside two typed objects that are not rule state:

- `CardIndex` (`d.index`): what this duel's cards can ever do, indexed so that the hot paths
  can skip whole layers (no card responds → no response windows; no continuous effect → no
  continuous layer), and memos of option objects. All of it can be rebuilt from the cards.
- `DuelSettings` (`d.settings`): how the people at the table play — prompt modes, solo
  testing. They change what a person is asked, never what the duel is (replays ignore them).

The primitive changes here are bookkeeping (emit an event, draw, change LP, end the duel,
shuffle, remember who saw what). Moving cards with their rules — replacement effects, what
leaving the field takes with it — is `board/actions.py`; the decision protocol is
`duel/protocol.py` (`Duel`, a subclass). Rule modules type their duel as `DuelState`.
"""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from ...schema.cards import Card, Monster
from ...schema.rules import Rules
from ..core.decision import Decision, DecisionVerb, DuelOver, EndReason, Kind, Option, Outcome, PromptMode
from ..core.events import Draw, DuelEnd, Event, LifePoints, Note, PhaseChange, Shuffle
from ..core.machine import Frame
from ..core.types import EMZ_LEFT, FIELD_ZONE, Loc, LpChangeKind, Phase, Step
from .card import CardInst, spec_flags
from .links import STATE_EVENTS, AttackState, ChainLink, Delayed, Signal
from .player import SEPARATE_PENDULUM_ZONES, Player
from .record import ReplayRecord
from .timelimit import TimeLimit

if TYPE_CHECKING:
    from ...schema.effects import Effect, Token

DEFAULT_NAMES = ("Player 1", "Player 2")
PILES = {Loc.DECK: "deck", Loc.HAND: "hand", Loc.GY: "gy", Loc.BANISHED: "banished", Loc.EXTRA: "extra"}


class CardIndex:
    """What the duel's cards can ever do, kept so the hot paths can skip what nothing uses, and
    memos of options. Rebuilt from the cards (`DuelState.relist` after identities change)."""

    __slots__ = ("responders", "win_cards", "listens", "trigger_cards", "trigger_events", "continuous_count", "flags",
                 "negators", "forcers", "field_sources", "tagged_options", "attack_options")

    def __init__(self) -> None:
        self.responders = False  # can any card of this duel ever act in a response window?
        self.win_cards = False  # does any card of this duel say "you win" (R-WIN-3)?
        self.listens: set[str] = set()  # events "When …" activations of this duel's cards answer (rules/when.py: answerable)
        self.trigger_cards: list[CardInst] = []  # cards with trigger or FLIP effects
        self.trigger_events: set[str] = set()  # the events they wait for ("flipped" for FLIP effects)
        # sources the continuous layer must look at: cards with continuous effects and effects
        # applied "until the end of this turn" (0: skip the continuous layer)
        self.continuous_count = 0
        self.flags: set[str] = set()  # what this duel's continuous effects may ever set (card.spec_flags)
        self.negators: list[CardInst] = []  # cards that can negate other cards' effects
        self.forcers: list[CardInst] = []  # cards that keep monsters in a position (Level Limit - Area B)
        self.field_sources: tuple[tuple[int, int], list[CardInst]] | None = None  # continuous._continuous_on_field
        self.tagged_options: dict[tuple[str, str], Option] = {}  # options with '@' tags, reused
        self.attack_options: dict[tuple[int, int | None, bool], Option] = {}  # built once per pairing


class DuelSettings:
    """How the people at the table play; never part of the duel's state (replays ignore it)."""

    __slots__ = ("prompt_modes", "solo")

    def __init__(self) -> None:
        # per player: "always" asks at every response window even with only "pass" (hot-seat
        # privacy); "auto" passes by itself when there is nothing to activate
        self.prompt_modes: list[PromptMode] = ["auto", "auto"]
        self.solo = False  # solo testing: manual actions always allowed (DESIGN.md §4)


class DuelState:
    """A duel's state between players 0 and 1. Clients use its subclass `Duel`."""

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
        self.index = CardIndex()
        self.settings = DuelSettings()
        # chains and effects (rules/chain.py)
        self.chain: list[ChainLink] = []  # CL1 first
        self.signals: list[Signal] = []  # what happened since triggers were last collected
        self.last_signals: list[Signal] = []  # the last action's events ("when …" activations answer them)
        self.batch = 0  # events of one action share a batch number (R-CHAIN-10)
        self.new_moment = False  # "…, then …": the next thing that happens starts a new batch (effects/verbs/logic.py)
        self.resolving = False
        self.summoning: tuple[CardInst, ...] = ()  # the monsters of a Summon in its negation window (R-SUMMON-19)
        self.summoned_from: dict[int, Loc] = {}  # … and where each came from (if its Summon is negated it never reached the field)
        self.summon_negated = False
        self.traps_locked_by = ""  # the monster whose Summon no Trap Card may answer, until that window's chain ends (Creeping Doom Manta)
        # uid → (its moves then, what happens as it is drawn, the card that did it, its controller): a card turned face-up in its Deck
        # (op face_up_in_deck: Grave Lure)
        self.deck_marks: dict[int, tuple[int, str, str, int]] = {}
        self.decks_upside_down = False  # both Decks are turned upside down (continuous decks_upside_down: Convulsion of Nature)
        self.delayed: list[Delayed] = []  # effects waiting for a later Standby/End Phase
        self.floating: list[tuple[CardInst, Effect, int]] = []  # (card, continuous Effect, last turn): "until the end of this turn" (Sonic Jammer: the next)
        # (player, filter, source card, continuous.Modifier, turn): a `modify` with `later_arrivals` — a card that comes to
        # match the filter later this turn gets the same change (Cost Down: a monster added to the hand afterwards)
        self.arrivals: list[tuple[int, Any, CardInst, Any, int]] = []
        self.match_claim: int | None = None  # Victory Dragon's direct attack: a win now takes the match
        self.first_given: int | None = None  # a match's later duel: who goes first was chosen before it (R-MATCH-3)
        self.time_limit: TimeLimit | None = None  # tournament time called (state/timelimit.py, R-TIME-2…6)
        self.declared: tuple[str, str] | None = None  # the last declaration ("type", "Dragon")
        self.declarations: tuple[tuple[str, str], ...] = ()
        # counters that are removed instead of their card being destroyed (`add_counter` with `shield`: Magic Reflector)
        self.shield_counters: frozenset[str] = frozenset()
        # the last turn a resolved effect gave a monster a battle flag the hot paths read only then (`modify` with
        # sole_attacker, must_attack, negates_battle_destroyed: Diffusion Wave-Motion)
        self.battle_flags_turn = 0  # … and every one of the resolving link's, one per kind
        self.end_battle = False  # an effect ends the Battle Phase after this attack
        self.end_phase_turn = 0  # "it becomes the End Phase of this turn" (op to_end_phase): that turn's number
        self.move_count = 0  # moves so far: a card that arrived after an event cannot answer it
        self.card_names: frozenset[str] = frozenset()  # the pool's names: what may be declared (op declare, what: card)
        self.card_kind: Callable[[str], str | None] = lambda name: None  # the pool's kind of a name (CardPool.kind_of)
        self.record: ReplayRecord | None = None
        self.attack: AttackState | None = None  # the attack in progress
        # uids of cards each player knows although they are hidden from them now: seen face-up or
        # revealed before going to a hand or face-down (state/determinize.py keeps them); a
        # shuffled Deck is unknown again
        self.known: tuple[set[int], set[int]] = (set(), set())
        self.idle = False  # an open game state: the turn player's Main Phase / Battle Step command
        self.flow: list[Frame] = []  # the flow: pending work, innermost last (core/machine.py)
        self.uids: list[int] = []  # card uids still to deal (`deal_uids`)

    # ------------------------------------------------------------------ client settings

    @property
    def solo(self) -> bool:
        """Solo testing: manual actions always allowed (DESIGN.md §4). A setting (`settings`)."""
        return self.settings.solo

    @solo.setter
    def solo(self, value: bool) -> None:
        self.settings.solo = value

    @property
    def prompt_modes(self) -> list[PromptMode]:
        """Per player, "auto" or "always" (`DuelSettings`); set with `Duel.set_prompt_mode`."""
        return self.settings.prompt_modes

    # ------------------------------------------------------------------ the cards

    def deal_uids(self, count: int) -> None:
        """Hand out card uids in a seeded random order: a hidden card's uid must not reveal its
        place in a (possibly public) decklist."""
        uids = list(range(1, count + 1))
        random.Random(f"uids:{self.seed}").shuffle(uids)
        self.uids = uids

    def deal(self, player: int, cards: Iterable[Card], loc: Loc) -> list[CardInst]:
        """Create card instances for `player` in `loc` (in order, bottom → top for piles). Each
        card plays as its version of the duel's format (`rules.format`: a `goat` duel plays the
        2005 text of a card whose errata changed it, schema/cards.py)."""
        made = []
        fmt = self.rules.format
        for data in cards:
            if fmt != "modern":
                data = data.in_format(fmt)
            card = CardInst(self.uids.pop() if self.uids else max(self.cards, default=0) + 1, data, player)
            card.loc = loc
            card.face_up = loc not in (Loc.DECK, Loc.EXTRA, Loc.HAND)
            self.players[player].layout += 1
            self.cards[card.uid] = card
            self.register(card)
            self.players[player].pile(PILES[loc]).append(card) if loc in PILES else None
            made.append(card)
        return made

    def register(self, card: CardInst) -> None:
        card.duel = self
        if card.is_pendulum:
            self.players[card.owner].has_pendulums = True
        if card.effects:
            self.index.responders = True
            if card.wins:
                self.index.win_cards = True
            for _, effect, *_ in card.chosen:
                if effect.when is not None:
                    self.index.listens.update(e for e in effect.when.event if e not in STATE_EVENTS)
            if any(e.kind == "procedure" and "deck" in e.from_ for e in card.effects):
                self.index.flags.add("deck_procedure")  # (activation candidates look in the Deck then: Metalzoa)
            if any(e.user is not None for e in card.effects):
                self.index.flags.add("shared_effects")  # (activation candidates look at the opponent's field then: Royal Oppression)
            if card.triggers:
                self.index.trigger_cards.append(card)
                for _, effect in card.triggers:
                    self.index.trigger_events.update(("flipped",) if effect.kind == "flip" else effect.when.event)  # type: ignore[union-attr]
            if card.continuous:
                self.index.continuous_count += 1
                for effect in card.continuous:
                    self.index.flags |= spec_flags(effect.continuous)
                if card.negates:
                    self.index.negators.append(card)
                if card.forces_position:
                    self.index.forcers.append(card)
        if getattr(card.data, "only_one", None) is not None:  # "You can only control 1 …": checked with the positions
            self.index.flags.add("only_one")
            if not card.continuous:
                self.index.forcers.append(card)
        if card.is_trap and card.makes_trap_monster:  # (a Trap Monster negated as a Trap returns to its zone: Embodiment of Apophis)
            self.index.flags.add("trap_monster")
            self.index.forcers.append(card)

    def relist(self) -> None:
        """Rebuild which cards have triggers and which negate or force positions, after cards
        swapped identities (engine/state/determinize.py). What depends on the cards as a whole —
        counts, the events they answer — is the same for any permutation of the same cards."""
        cards = self.cards.values()
        self.index.trigger_cards = [c for c in cards if c.triggers]
        self.index.negators = [c for c in cards if c.continuous and c.negates]
        self.index.forcers = [c for c in cards if ((c.continuous or getattr(c.data, "only_one", None)) and c.forces_position)
                              or (c.is_trap or c.trap_data is not None) and c.makes_trap_monster]
        self.index.field_sources = None
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

    def make_token(self, player: int, spec: Token) -> CardInst:
        """A Token (R-CARD-11): a Normal Monster that is not a card and ceases to exist off the field."""
        data = Monster(id=990_000_000 + len(self.cards), name=spec.name, kind="monster", frame="token",
                       attribute=spec.attribute, type=spec.type, level=spec.level, atk=spec.atk, **{"def": spec.def_},
                       effects=spec.effects or ())
        card = CardInst(max(self.cards, default=0) + 1, data, player)
        card.no_tribute = spec.no_tribute
        card.loc = Loc.GONE
        self.cards[card.uid] = card
        self.register(card)
        return card

    # ------------------------------------------------------------------ primitives

    def set_phase(self, phase: Phase, step: Step = Step.NONE) -> None:
        """A new phase (and step) begins: what happens from now on is a new moment (R-CHAIN-10)."""
        self.phase, self.step = phase, step
        self.batch += 1
        self.emit(PhaseChange(self.turn, self.turn_player, phase, step))

    def set_step(self, step: Step) -> None:
        self.step = step
        self.emit(PhaseChange(self.turn, self.turn_player, self.phase, step))

    def emit(self, event: Event) -> Event:
        self.log.append(event)
        return event

    def ask(self, player: int, kind: Kind, options: Sequence[Option], prompt: str, *,
            lo: int = 1, hi: int = 1, verb: DecisionVerb = "", sets: tuple[frozenset[str], ...] = (), rule: str = "",
            subject: int | None = None, effect: int | None = None) -> Decision:
        return Decision(player, kind, tuple(options), prompt, lo, hi, verb, kind in _MULTI, sets, rule, subject, effect)

    def stat(self, card: CardInst, which: str) -> int:
        """A card's current ATK or DEF ("atk"/"def") with every continuous effect applied: the
        continuous layer (board/continuous.py) works it out, so `Duel` overrides this."""
        raise NotImplementedError

    def arrived(self, card: CardInst) -> None:
        """A card came to the hand without a move (a draw): a turn-long `later_arrivals` change may apply (`Duel` does it)."""

    def level_of(self, card: CardInst) -> int:
        """A card's current Level (the continuous layer works it out: `Duel` overrides this)."""
        raise NotImplementedError

    def changed_word(self, card: CardInst, key: str) -> str | None:
        """The Type or Attribute a continuous effect gives `card` (`Duel` overrides this)."""
        return None

    def hands_shown(self) -> bool:
        """Whether both players must show their hands (Ceremonial Bell): the continuous layer
        (board/continuous.py) knows, so `Duel` overrides this."""
        return False

    def hand_shown(self, player: int) -> bool:
        """Whether `player` must show their hand (Ceremonial Bell, or the opponent's Mind on Air): `Duel` overrides this."""
        return False

    def opponent(self, player: int) -> int:
        return 1 - player

    def card(self, uid: int) -> CardInst:
        return self.cards[uid]

    def card_of(self, option: Option) -> CardInst:
        """The card an option of a card choice names (every such option names one)."""
        assert option.card is not None, f"option {option.key!r} names no card"
        return self.cards[option.card]

    def signal(self, event: str, card: CardInst | None, player: int, *, how: str = "", src: Loc | None = None,
               by_battle: bool = False, by_player: int | None = None, by_card: CardInst | None = None) -> None:
        """Record something triggers may answer (only when some card of the duel has effects)."""
        if self.new_moment:
            self.new_moment = False
            self.batch += 1
        if self.index.responders:
            self.signals.append(Signal(event, card, player, how, src, self.batch, card.moves if card else 0, by_battle,
                                       self.move_count, by_player, by_card))

    def take_out(self, card: CardInst) -> None:
        """Take `card` out of its zone or pile (the first half of a move, board/actions.py)."""
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
        elif loc in PILES:  # (a hand may hold a card of the opponent's: its controller's hand, Amazoness Chain Master;
            # a Deck too: Parasite Paracide put into the opponent's Deck)
            pile = self.players[card.controller if loc in (Loc.HAND, Loc.DECK) else card.owner].pile(PILES[loc])
            if pile and pile[-1] is card:
                pile.pop()
            else:
                pile.remove(card)

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
        self.signal("control_changed", card, original)  # about the player who lost it: their trigger (Ameba)

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
                self.lose([player], EndReason.DECK_OUT, f"{self.names[player]} had to draw from an empty Deck (R-WIN-2)")
            card = side.deck.pop()
            card.loc = Loc.HAND
            card.face_up = False
            card.arrived_turn = self.turn
            card.properly_summoned = False
            side.hand.append(card)
            drawn.append(card)
            side.layout += 1
            if self.arrivals:
                self.arrived(card)  # (Cost Down: a monster drawn afterwards is lowered too)
        if drawn:
            self.emit(Draw(player, tuple(c.uid for c in drawn), tuple(c.name for c in drawn)))
        return drawn

    def change_lp(self, player: int, delta: int, kind: LpChangeKind) -> None:
        """Apply an LP change (floored at 0, R-BATTLE-10) and end the duel at 0 LP (R-WIN-1)."""
        self.change_lps({player: delta}, kind)

    def change_lps(self, deltas: dict[int, int], kind: LpChangeKind) -> None:
        """Several LP changes at one moment: both players at 0 together is a draw (R-WIN-4)."""
        for player, delta in deltas.items():
            if delta == 0:
                continue
            side = self.players[player]
            before = side.lp
            side.lp = max(0, side.lp + delta)
            if kind == "cost" and before > side.lp:  # "the total Life Points you paid during your last turn"
                side.lp_paid[self.turn] = side.lp_paid.get(self.turn, 0) + before - side.lp
            self.emit(LifePoints(player, delta, side.lp, kind))
            if delta > 0:
                self.signal("lp_gained", None, player)  # "each time you gain LP" (Fire Princess)
        zero = [p for p in (0, 1) if self.players[p].lp == 0]
        if zero:
            self.lose(zero, EndReason.LP, "LP reached 0 (R-WIN-1)")
        if self.time_limit is not None and self.time_limit.sudden_death:
            self._sudden_death()  # R-TIME-4: compared at the moment of the change

    def _sudden_death(self) -> None:
        """R-TIME-4: in sudden death, an LP change that leaves the totals unequal ends the duel at
        once — LP compared at that moment, so a cost decides before its effect resolves."""
        a, b = self.players[0].lp, self.players[1].lp
        if a != b:
            self.decide(0 if a > b else 1, EndReason.TIME, f"sudden death: the first LP change left {max(a, b)} vs {min(a, b)} (R-TIME-4)")

    def lose(self, players: list[int], reason: EndReason, detail: str) -> None:
        """End the duel now: one loser → the other wins; both → a draw (R-WIN-4)."""
        if len(players) == 2:
            self._end(None, reason, f"both players lost at once: {detail} (R-WIN-4)")
        else:
            self._end(1 - players[0], reason, detail)
        raise DuelOver()

    def win(self, player: int, reason: EndReason, detail: str) -> None:
        self._end(player, reason, detail)
        raise DuelOver()

    def decide(self, winner: int | None, reason: EndReason, detail: str) -> None:
        """End the duel now with this result (None: a draw), e.g. by the time procedure."""
        self._end(winner, reason, detail)
        raise DuelOver()

    def _end(self, winner: int | None, reason: EndReason, detail: str) -> None:
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
            return f"H{self.players[card.controller].hand.index(card) + 1}"
        if loc == Loc.MZONE:
            return f"M{card.seq + 1}" if card.seq < 5 else f"EMZ{card.seq - 4}"
        if loc == Loc.SZONE:
            return "F" if card.seq == FIELD_ZONE else f"S{card.seq + 1}"
        tag = {Loc.GY: "GY", Loc.BANISHED: "BAN", Loc.DECK: "DECK", Loc.EXTRA: "EX"}.get(loc)
        if tag is None:
            return loc.name
        pile = self.players[card.owner].pile(PILES[loc])
        return f"{tag}{len(pile) - pile.index(card)}" if loc == Loc.DECK else f"{tag}{pile.index(card) + 1}"

    def state_hash(self) -> str:
        """A digest of everything that decides the rest of the duel (replays must reproduce it)."""
        parts: list[Any] = [self.turn, self.turn_player, int(self.phase), int(self.step), self.rng.getstate()[1][:4],
                            self.outcome and (self.outcome.winner, str(self.outcome.reason))]  # (str: the hash of saves before the enum)
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


_MULTI = (Kind.CARDS, Kind.ORDER)
_MISSING = object()  # (per_layout: not worked out yet)
