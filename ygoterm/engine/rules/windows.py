"""Response windows (RULES.md §10 Priority): players act in turn until both pass, a chain
started from a window or an open game state, the window after a chain for what it did
(R-CHAIN-9), "you win" cards (R-WIN-3), and the negation window of a Summon (R-SUMMON-19)
before its "when Summoned" triggers.

Each is a frame (engine/core/machine.py); the turn structure in engine/rules/flow.py and the Extra Deck
and Pendulum Summons open them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ..state.card import CardInst
from ..state.duel_state import DuelState
from .activation import activate, priority_ignitions
from .chain import Priority, process_triggers, run_chain
from .when import answerable

from ..core.decision import EndReason, Option, effect_of
from ..core.events import Note, Summon
from ..core.machine import DONE, Frame, Next, Return
from ..core.types import Loc, Phase, Pos, SummonKind
from ..board import actions
from ..board.continuous import effects_negated, source_with
from ..board.filters import matches

# ---------------------------------------------------------------------- priority


def window(d: DuelState, first: int | None = None, passes: int = 0, closing: bool = False,
           triggers: bool = True) -> Frame | tuple[()]:
    """R-PRIO-1/2: players may act, `first` (default: the turn player) first, until both pass
    in succession. The window's result is True if anything was activated.

    Triggers waiting from what just happened form a chain first (R-PRIO-5), unless
    `triggers` is False (inside a Summon's negation window and early Damage Step sub-steps).
    A player with nothing to activate passes by themselves unless their prompt mode is
    "always" (hot-seat privacy: then every window asks, so a prompt reveals nothing). When no
    card in the duel could ever respond and nobody asked for "always", the window is skipped
    without building a frame (`()`: nothing to run, the result is None).

    A `closing` window follows the turn player's moving on (`last_chance`); a chain started in
    it ends it.
    """
    if not d.index.responders and "always" not in d.prompt_modes:
        return ()
    return Window(d.turn_player if first is None else first, passes, closing, triggers)


def last_chance(d: DuelState) -> Frame | tuple[()]:
    """R-PRIO-2: the turn player moves on (to the Battle Phase, Main Phase 2 or the End Phase),
    which is a pass; the opponent may act before the phase or step ends. After a chain there
    the turn player is back in an open game state (the window ends; its result is True)."""
    return window(d, first=1 - d.turn_player, passes=1, closing=True)


def in_last_chance(d: DuelState) -> bool:
    """Whether the innermost response window is the one after the turn player moved on."""
    for frame in reversed(d.flow):
        if isinstance(frame, Priority):
            return isinstance(frame, Window) and frame.closing
    return False


@dataclass
class Window(Priority):
    """A response window (see `window`); its result is True if anything was activated."""

    closing: bool = False  # the turn player moved on: the last chance in this phase or step (R-PRIO-2)
    triggers: bool = True
    acted: bool = False

    def start(self, d: DuelState, _: Any) -> Next:
        if d.index.forcers:
            actions.enforce_positions(d)
        if self.triggers:
            if d.signals:
                return self.then(d, "triggered", process_triggers(d))
            d.last_signals = []  # nothing new happened: "when …" conditions refer to the last action only
        return self.ask_priority(d)

    def triggered(self, d: DuelState, _: Any) -> Next:
        check_card_wins(d)
        if d.end_phase_turn == d.turn:  # a trigger made it the End Phase (Neko Mane King): this phase or step is over
            return Return(True)
        return self.ask_priority(d)

    def prompt(self, d: DuelState) -> str:
        return window_prompt(d)

    def priority_options(self, d: DuelState) -> list[Option]:
        """V-26, GOAT format's "priority": when a Summon or a chain has just resolved in the turn
        player's Main Phase, the turn player may activate a monster's Ignition Effect before the
        opponent may respond (the opponent then answers that activation)."""
        if not d.rules.chain.ignition_priority or self.closing or self.passes or self.p != d.turn_player \
                or d.chain or d.summoning or d.phase not in (Phase.MAIN1, Phase.MAIN2):
            return []
        return priority_ignitions(d, self.p)

    def activated(self, d: DuelState, choice: Option) -> Next:
        self.acted = True
        return self.then(d, "chained", start_chain(d, self.p, choice))

    def chained(self, d: DuelState, _: Any) -> Next:
        if self.closing:
            return self.then(d, "stopped", after_chain(d))
        if d.end_phase_turn == d.turn:  # "it becomes the End Phase" (Neko Mane King): this phase or step is over
            return self.then(d, "stopped", after_chain(d))
        self.passes, self.p = 0, d.turn_player  # R-PRIO-1: after a chain the turn player acts first
        return self.ask_priority(d)

    def stopped(self, d: DuelState, _: Any) -> Next:
        return Return(True)

    def passed(self, d: DuelState) -> Next:
        d.last_signals = []  # both passed: what happened is no longer "the last thing" (R-CHAIN-10)
        return Return(self.acted)


@dataclass
class StartChain(Frame):
    """A player starts a chain: the activation (Chain Link 1), the responses, the resolution."""

    p: int
    uid: int
    index: int

    def start(self, d: DuelState, _: Any) -> Next:
        d.batch += 1
        return self.then(d, "run", activate(d, self.p, d.cards[self.uid], self.index))

    def run(self, d: DuelState, _: Any) -> Next:
        return self.then(d, "resolved", run_chain(d))

    def resolved(self, d: DuelState, _: Any) -> Next:
        check_card_wins(d)
        return DONE


def start_chain(d: DuelState, p: int, choice: Option) -> StartChain:
    assert choice.card is not None
    return StartChain(p, choice.card, effect_of(choice))


@dataclass
class AfterChain(Frame):
    """R-CHAIN-9, R-PRIO-1: what happened while a chain resolved (a Special Summon by Monster
    Reborn, Tokens, a Fusion Summon) is then the last thing that happened, so the turn player and
    then the opponent may start a chain answering it (Bottomless Trap Hole, Torrential Tribute).
    Windows inside a window loop get this from the loop itself; an activation from an open game
    state, or one that ends a "before the phase ends" window, needs it here. The window opens
    only when some card of the duel answers such an event, and then in every prompt mode alike."""

    def start(self, d: DuelState, _: Any) -> Next:
        if d.outcome is None and any(answerable(d, s) for s in d.last_signals):
            return self.then(d, "forget", window(d, triggers=False))
        return self.forget(d, None)

    def forget(self, d: DuelState, _: Any) -> Next:
        d.last_signals = []
        return DONE


def after_chain(d: DuelState) -> AfterChain:
    return AfterChain()


def check_card_wins(d: DuelState) -> None:
    """R-WIN-3: "you win" texts are checked before a new chain starts: all of Exodia in hand,
    Destiny Board and the four Spirit Messages face-up on your field."""
    if not d.index.win_cards:
        return
    winners: dict[int, str] = {}
    for p, side in enumerate(d.players):
        on_field = [c for c in side.szone if c is not None and c.face_up]
        for zone, cards in (("hand", side.hand), ("field", on_field)):
            names = {c.data.deck_name for c in cards}
            for card in cards:
                for effect in card.effects:
                    if effect.kind == "win" and effect.win_zone == zone and effect.win_when and set(effect.win_when) <= names:
                        winners[p] = f"all the cards {card.name}'s text names are {'in hand' if zone == 'hand' else 'on the field'} (R-WIN-3)"
    if len(winners) == 2:
        d.lose([0, 1], EndReason.CARD, "both players met a win condition at once (R-WIN-4)")
    for p, why in winners.items():
        d.win(p, EndReason.CARD, why)
        break


def window_prompt(d: DuelState) -> str:
    where = d.step.title if d.step else d.phase.title
    return f"{where}: respond or pass"


def summon_with_negation_window(d: DuelState, p: int, card: CardInst, zone: int | None, pos: Pos, how: SummonKind, *,
                                properly: bool, by: str = "", controller: int | None = None) -> "SummonTogether":
    """Place a Summoned monster, open the summon-negation window (R-SUMMON-19), and if the
    Summon succeeds, let "when Summoned" triggers and the new-chain window follow (R-CHAIN-8).
    `by`: the name its `summoned_by` takes (its own, for a Summon by its own procedure); `controller`: the field it is
    Summoned to, when not the summoner's (Lava Golem)."""
    return SummonTogether(p, ((card.uid, zone, pos),), how, properly, by, controller=controller)


def summon_together(d: DuelState, p: int, placed: Sequence[tuple[CardInst, int | None, Pos]], how: SummonKind, *, properly: bool) -> "SummonTogether":
    """One Summon of one or more monsters (a Pendulum Summon: R-SUMMON-20, one event and one
    trigger moment)."""
    return SummonTogether(p, tuple((card.uid, zone, pos) for card, zone, pos in placed), how, properly)


@dataclass
class SummonTogether(Frame):
    """Place the Summoned monsters, open the negation window, then their triggers."""

    p: int
    placed: tuple[tuple[int, int | None, Pos], ...]  # (uid, Main Monster Zone or None if already there, position)
    how: SummonKind
    properly: bool
    by: str = ""  # "If Summoned this way" (Gilasaurus: a Special Summon by its own procedure is `summoned_by` its own name)
    origins: dict[int, Loc] = field(default_factory=dict)  # where each came from (a Flip Summon starts on the field)
    controller: int | None = None  # the field they go to, when not the summoner's (Lava Golem)

    def start(self, d: DuelState, _: Any) -> Next:
        p, how = self.p, self.how
        cards = tuple(d.cards[uid] for uid, _, _ in self.placed)
        self.origins = {uid: d.cards[uid].loc for uid, zone, _ in self.placed if zone is not None}
        for card, (_, zone, pos) in zip(cards, self.placed):
            if zone is not None:
                actions.move(d, card, Loc.MZONE, seq=zone, face_up=True, pos=pos, quiet=True, controller=self.controller)
                if self.by:
                    card.summoned_by = self.by
            card.summon_kind = how
            card.summon_turn = d.turn
            if self.properly:
                card.properly_summoned = True
            if how == "flip":
                card.flipped_turn = d.turn  # (a Spirit returns in this End Phase)
            d.emit(Summon(p, card.uid, card.name, how, pos, card.seq))
        d.players[p].summoned_turn = d.turn
        d.summoning, d.summon_negated, d.summoned_from = cards, False, self.origins
        return self.then(d, "summoned", window(d, triggers=False))

    def summoned(self, d: DuelState, _: Any) -> Next:
        cards = [d.cards[uid] for uid, _, _ in self.placed]
        d.summoning, d.summoned_from = (), {}
        if d.summon_negated:
            d.summon_negated = False
            actions.send_to_gy(d, [c for c in cards if c.loc == Loc.MZONE], reason="its Summon was negated", as_from=self.origins)
            return self.then(d, "finish", window(d))
        d.batch += 1
        kind = {"normal": "normal", "tribute": "normal", "gemini": "normal", "flip": "flip"}.get(self.how, "special")
        locker = next((c for c in cards if c.loc == Loc.MZONE and c.face_up and c.is_monster and not effects_negated(d, c)
                       and kind in (c.monster.locks_traps_on_summon or ())), None)
        if locker is not None:
            d.traps_locked_by = locker.name  # (until the chain started now has resolved, or the window closes: `unlock`)
            d.emit(Note(f"{locker.name}: no Trap Card can be activated in answer to its Summon"))
        event = _SUMMON_EVENT.get(self.how, "special_summoned")
        if self.how == "flip" and "destroys_flip_summoned" in d.index.flags:
            _destroy_flip_summoned(d, cards)  # (Goblin Fan: at once, its FLIP never activates)
        for card in cards:
            if card.loc == Loc.MZONE:
                d.signal(event, card, self.p, how=self.how)
                if self.how == "flip":
                    d.signal("flipped", card, self.p)
                    d.signal("changed_to_attack", card, self.p)  # from face-down Defense (Crass Clown; ocgcore: EVENT_CHANGE_POS)
        return self.then(d, "unlock" if locker is not None else "finish", window(d))

    def unlock(self, d: DuelState, _: Any) -> Next:
        d.traps_locked_by = ""
        return DONE


_SUMMON_EVENT = {"normal": "normal_summoned", "tribute": "normal_summoned", "gemini": "normal_summoned", "flip": "flip_summoned"}


def _destroy_flip_summoned(d: DuelState, cards: list[CardInst]) -> None:
    """A face-up card's `destroys_flip_summoned` destroys the Flip Summoned monsters it matches at once, no chain: they
    leave before their Summon is signalled, so their FLIP effects never activate (Goblin Fan)."""
    for card in cards:
        source = source_with(d, "destroys_flip_summoned", lambda source, spec: source.loc.on_field and card.loc == Loc.MZONE
                             and matches(d, card, spec.destroys_flip_summoned, source.controller, source))  # type: ignore[arg-type]
        if source is not None:
            d.emit(Note(f"{source.name}: {card.name} is destroyed as it is Flip Summoned"))
            actions.destroy(d, [card], by="effect", source=source)
