"""Chains and triggers (RULES.md §9 Chains, §10 Priority).

`run_chain` lets players respond (R-CHAIN-3/4), resolves last-in-first-out (R-CHAIN-1/6),
sends spent cards to the GY together (R-CHAIN-7) and then handles the triggers its events
caused as a new chain (R-CHAIN-9, R-PRIO-5 SEGOC: `process_triggers`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ...schema.effects import Effect, walk_ops
from ..state.card import CardInst, leaves_after_resolving, persists_on_field
from ..board.continuous import applies, condition_holds, effects_negated, gy_unguarded, has_flag, sources
from ..core.decision import PASS, Kind, Option, effect_of
from ..core.events import ChainResolves, Negated, Note
from ..board.labels import unique_labels
from ..state.links import ChainLink, Delayed, Signal, _Pending
from ..state.duel_state import DuelState
from ..core.machine import DONE, Frame, Next
from ..effects.checks import cost_payable, possible
from ..effects.context import level_below_of
from ..effects.resolve import resolve_link
from ..core.types import Loc, Step
from ..board import actions, hand_costs
from .activation import activate, activation_options, targets_missing, used_this_turn
from .when import SUMMON_EVENTS, activation_kind, signal_matches


def run_chain(d: DuelState, first: int | None = None) -> "RunChain":
    """Responses (the other player first, R-CHAIN-4), then LIFO resolution and cleanup."""
    return RunChain(1 - d.chain[-1].player if first is None else first)


@dataclass
class Priority(Frame):
    """R-PRIO-1, R-CHAIN-4: the players may act in turn, `p` first, until both pass in
    succession. A player with nothing to activate passes by themselves unless their prompt mode
    is "always" (hot-seat privacy: then every window asks, so a prompt reveals nothing).
    A subclass says what the question is (`prompt`), what an activation starts (`activated`)
    and what follows when both have passed (`passed`)."""

    p: int  # who may act now
    passes: int = 0

    def ask_priority(self, d: DuelState, _: Any = None) -> Next:
        while self.passes < 2:
            p = self.p
            options = activation_options(d, p, open_state=False) + self.priority_options(d)
            if options or d.prompt_modes[p] == "always":
                return self.ask("answered", d.ask(p, Kind.CHAIN, (*options, PASS), self.prompt(d)))
            self.passes += 1
            self.p = 1 - p
        return self.passed(d)

    def answered(self, d: DuelState, choice: Option) -> Next:
        if choice.key == "pass":
            self.passes += 1
            self.p = 1 - self.p
        elif choice.key != "refresh":  # (a manual action: ask again)
            return self.activated(d, choice)
        return self.ask_priority(d)

    def prompt(self, d: DuelState) -> str:
        raise NotImplementedError

    def priority_options(self, d: DuelState) -> list[Option]:
        """What the player asked now may activate besides responses (a Window adds GOAT
        format's priority Ignition Effects)."""
        return []

    def activated(self, d: DuelState, choice: Option) -> Next:
        raise NotImplementedError

    def passed(self, d: DuelState) -> Next:
        raise NotImplementedError


@dataclass
class RunChain(Priority):
    """The responses to a chain; then it resolves."""

    def start(self, d: DuelState, _: Any) -> Next:
        return self.ask_priority(d)

    def prompt(self, d: DuelState) -> str:
        return f"Chain Link {len(d.chain)} ({d.chain[-1].card.name}): respond or pass"

    def activated(self, d: DuelState, choice: Option) -> Next:
        assert choice.card is not None
        return self.then(d, "responded", activate(d, self.p, d.card_of(choice), effect_of(choice)))

    def responded(self, d: DuelState, _: Any) -> Next:
        self.passes, self.p = 0, 1 - self.p
        return self.ask_priority(d)

    def passed(self, d: DuelState) -> Next:
        return self.then(d, "finish", ResolveChain())


@dataclass
class ResolveChain(Frame):
    """R-CHAIN-6/7: the links resolve last first; spent cards go to the GY together."""

    spent: list[CardInst] = field(default_factory=list)
    negated: list[CardInst] = field(default_factory=list)
    link: ChainLink | None = None  # the link resolving now
    reaped: list[tuple[CardInst, int]] = field(default_factory=list)  # targets destroyed once the chain has resolved

    def start(self, d: DuelState, _: Any) -> Next:
        d.resolving = True
        while d.chain:
            link = self.link = d.chain[-1]
            d.batch += 1
            d.emit(ChainResolves(link.number, link.player, link.card.uid, link.card.name))
            d.signal("resolved", link.card, link.player, how="negated" if link.negated else activation_kind(link.card, link.effect))
            # it happens after what came before: a "When … you can" trigger of a cost or of an earlier link misses its
            # timing (R-CHAIN-10); "when that Spell Card resolves" answers it (Blast Magician), not when negated
            if link.was_spell_trap_card:
                self.spent.append(link.card)
                if not link.negated and link.index >= 0:
                    link.card.activated_as = (link.index, link.card.moves)  # the condition activated_as (7 Completed)
            if link.negated:
                d.emit(Note(f"Chain Link {link.number} ({link.card.name}) was negated and does nothing"))
                if link.was_spell_trap_card:
                    self.negated.append(link.card)
            elif _stopped(d, link):
                d.emit(Note(f"Chain Link {link.number} ({link.card.name}) applies nothing: the card is no longer face-up on the field (R-CHAIN-6)"))
            elif not link.effect.cannot_be_negated and (link.effect_negated or (link.card.loc.on_field and link.card.face_up
                                                                                 and effects_negated(d, link.card))):
                d.emit(Negated(link.card.uid, link.card.name, "effect"))
            elif (roller := _rolled_away(d, link)) is not None:
                d.emit(Negated(link.card.uid, link.card.name, "effect"))
                if link.card.loc.on_field:
                    actions.destroy(d, [link.card], by="effect", source=roller, reason=f"{roller.name}'s die negated its effect")
            elif _gy_negated(d, link) or _gy_guarded(d, link):
                d.emit(Negated(link.card.uid, link.card.name, "effect"))
            elif (link.card.is_spell or link.card.is_trap or link.card.is_monster) and (blocked := _spell_blocked(d, link)):
                d.emit(Negated(link.card.uid, link.card.name, "effect"))
                if blocked == "destroy":
                    kind = "Spells" if link.card.is_spell else "Traps"
                    actions.destroy(d, [link.card], by="effect", reason=f"it targeted a monster that negates such {kind}")
            else:
                return self.then(d, "resolved", resolve_link(d, link))
            if not link.negated:
                self.reap(d, link)
            d.chain.pop()
        return self.cleanup(d)

    def resolved(self, d: DuelState, _: Any) -> Next:
        link = self.link
        assert link is not None
        card = link.card
        if link.was_spell_trap_card and card.loc == Loc.SZONE and card.face_up and not card.active \
                and not leaves_after_resolving(card):
            _now_applies(card)  # a Continuous card applies from its own resolution on (Royal Decree as CL2)
        self.reap(d, link)
        d.chain.pop()
        return self.start(d, None)

    def reap(self, d: DuelState, link: ChainLink) -> None:
        """Spirit Reaper: a monster destroyed after an effect that targets it resolves (its
        effect negated or not); the target of an Equip or Continuous card, after the chain."""
        if "destroyed_when_targeted" not in d.index.flags or not link.targets:
            return
        found = [(t, moves) for t, moves in zip(link.targets, link.target_moves) if has_flag(d, t, "destroyed_when_targeted")]
        if link.was_spell_trap_card and persists_on_field(link.card):
            self.reaped += found
        else:
            _destroy_targeted(d, found)

    def cleanup(self, d: DuelState) -> Next:
        d.resolving = False
        d.traps_locked_by = ""  # (Creeping Doom Manta: no Trap Card until the chain started after its Summon has resolved)
        self.link = None
        _destroy_targeted(d, self.reaped)
        # R-CHAIN-7: spent Normal/Quick-Play Spells and Normal/Counter Traps go to the GY together.
        for card in self.spent:
            if card.loc == Loc.SZONE and card.face_up and (leaves_after_resolving(card) or card in self.negated):
                actions.move(d, card, Loc.GY, reason="resolved" if card not in self.negated else "its activation was negated")
            elif card.loc == Loc.SZONE and card.face_up and not card.active:
                _now_applies(card)  # a Continuous/Field/Equip card whose effect was negated: it is there from now
        d.batch += 1
        if d.attack is not None and d.step == Step.BATTLE:
            d.attack.fresh = False  # a chain resolved: the attack declaration is no longer the last thing (R-CHAIN-10)
        if d.index.forcers:
            actions.enforce_positions(d)
        return self.then(d, "finish", process_triggers(d))


def _now_applies(card: CardInst) -> None:
    """A Continuous, Field or Equip card (or one that stays) applies once its activation resolves."""
    card.active = True
    card.turns_left = next((e.lasts_turns for e in card.effects if e.lasts_turns), 0)


def _spell_blocked(d: DuelState, link: ChainLink) -> str:
    """Ryu Senshi: a Spell whose targets include it has its effect negated, and is destroyed
    ("destroy"); Silent Swordsman LV3: the opponent's Spell has its effect negated ("negate"), Gora
    Turtle of Illusion: the opponent's Spell or Trap;
    Fiend Skull Dragon: a Trap that targets it is negated and destroyed ("destroy"); Chaos Command
    Magician: a monster's effect that targets it and no other card is negated ("negate")."""
    if not d.index.continuous_count or not link.targets:
        return ""
    shown = [t for t in link.targets if t.loc == Loc.MZONE and t.face_up]
    if link.card.is_monster and not link.effect.pendulum:  # (a Pendulum Effect is a Spell's)
        alone = len(link.targets) == 1 and "negates_monsters_targeting_it_alone" in d.index.flags
        return "negate" if alone and shown and has_flag(d, shown[0], "negates_monsters_targeting_it_alone") else ""
    if link.card.is_trap:
        if any(has_flag(d, t, "negates_traps_targeting") for t in shown):
            return "destroy"
        return "negate" if any(t.controller != link.player and has_flag(d, t, "negates_opponent_traps_targeting")
                               for t in shown) else ""
    if not link.card.is_spell:
        return ""
    if "negates_spells_targeting_once" in d.index.flags and _negated_once(d, shown):
        return "negate"
    if any(has_flag(d, t, "negates_spells_targeting") for t in shown):
        return "destroy"
    if any(t.controller != link.player and has_flag(d, t, "negates_opponent_spells_targeting") for t in shown):
        return "negate"
    return ""


def _negated_once(d: DuelState, shown: list[CardInst]) -> bool:
    """Rare Metalmorph: the first card whose `negates_spells_targeting_once` protects one of the targets, and has not
    negated a Spell since it arrived, negates this one (its own effect index in `used_turn`, forgotten as it moves)."""
    for source, effect in sources(d):
        spec = effect.continuous
        if spec is None or not spec.negates_spells_targeting_once or effect not in source.effects:
            continue
        index = source.effects.index(effect)
        if index in source.used_turn or not any(applies(d, source, spec, t) for t in shown):
            continue
        source.used_turn[index] = d.turn
        d.emit(Note(f"{source.name}: it negates a Spell that targets {', '.join(t.name for t in shown)} (once)"))
        return True
    return False


def _gy_negated(d: DuelState, link: ChainLink) -> bool:
    """The End of Anubis: an effect that targets a card in the GY, or that was activated in the GY, is negated."""
    if "negates_gy_effects" not in d.index.flags:
        return False
    in_gy = any(t.loc == Loc.GY and t.moves == moves for t, moves in zip(link.targets, link.target_moves))
    if not in_gy and not (link.card.loc == Loc.GY and "gy" in link.effect.from_ and link.field_moves < 0):
        return False
    return any(effect.continuous is not None and effect.continuous.negates_gy_effects for _, effect in sources(d))


_GY_MOVES = ("add_to_hand", "return_to_hand", "return_to_deck", "special_summon", "banish", "equip")


def _gy_guarded(d: DuelState, link: ChainLink) -> bool:
    """Necrovalley (`guards_gy`): an effect that would move a card in a GY, other than its own card, to another place —
    one of its moving operations acts on its targets in a GY, or on cards it chooses (or takes all) from a GY."""
    if "guards_gy" not in d.index.flags:
        return False
    guarded = [not gy_unguarded(d, 0), not gy_unguarded(d, 1)]  # (Gravekeeper's Chief: its controller's GY is not)
    moving = False
    for op in walk_ops(link.effect.do):
        if op.op not in _GY_MOVES:
            continue
        what = getattr(op.params, "what", None)
        if what in ("target", "targets", "first_target", "second_target"):
            if any(t.loc == Loc.GY and t.moves == moves and t is not link.card and guarded[t.owner]
                   for t, moves in zip(link.targets, link.target_moves)):
                moving = True
        elif what is not None and not isinstance(what, str):
            where = getattr(what, "all", None) or getattr(getattr(what, "choose", None), "where", None)
            if where is not None and where.zone is not None and "gy" in where.zone:
                sides = {"you": [link.player], "opponent": [1 - link.player]}.get(where.side, [0, 1])
                moving = any(guarded[q] for q in sides)
        if moving:
            break
    return moving and any(effect.continuous is not None and effect.continuous.guards_gy and source.loc.on_field
                          for source, effect in sources(d))


def _rolled_away(d: DuelState, link: ChainLink) -> CardInst | None:
    """The Archfiends (Darkbishop, Desrook …): as an opponent's effect that targets a face-up monster one
    protects resolves, a die is rolled for each such monster (R-TERM-7; not a chain link); on one of its
    numbers the effect is negated. The Archfiend whose roll negated it, if one did."""
    if "negates_targeting_on_roll" not in d.index.flags:
        return None
    for t, moves in zip(link.targets, link.target_moves):
        if t.loc != Loc.MZONE or not t.face_up or t.moves != moves or t.controller == link.player:
            continue
        for source, effect in sources(d):
            spec = effect.continuous
            if spec is None or not spec.negates_targeting_on_roll or source.controller == link.player \
                    or not applies(d, source, spec, t):
                continue
            roll = d.rng.randint(1, 6)
            d.emit(Note(f"{source.name}: {link.card.name} targets {t.name}; the die shows {roll}"))
            if roll in spec.negates_targeting_on_roll:
                return source
    return None


def _destroy_targeted(d: DuelState, found: list[tuple[CardInst, int]]) -> None:
    """Destroy the targeted monsters still face-up on the field. (Their `moves` may have changed:
    a change of control counts as one, and Change of Heart's target is destroyed once it is taken.)"""
    doomed = [t for t, _ in found if t.loc == Loc.MZONE and t.face_up]
    if doomed:
        actions.destroy(d, doomed, by="effect", reason="an effect targeted it")


def _stopped(d: DuelState, link: ChainLink) -> bool:
    """R-CHAIN-6: a Continuous, Field or Equip card no longer face-up on the field applies nothing —
    its activation, or an effect it activated there (Snatch Steal's Standby Phase effect after the
    card was destroyed in answer: Official rulebook p. 29, OCG Perfect Rulebook 2017 pp. 124-125)."""
    card = link.card
    if link.field_moves >= 0:
        return card.moves != link.field_moves or not (card.loc == Loc.SZONE and card.face_up)
    return link.was_spell_trap_card and persists_on_field(card) and not (card.loc == Loc.SZONE and card.face_up)


def process_triggers(d: DuelState) -> "ProcessTriggers | tuple[()]":
    """R-PRIO-5 (SEGOC): triggers from what just happened form the next chain. When no card of
    the duel has a trigger for any of it and no delayed effect waits, what happened is only
    the last thing that happened (as ProcessTriggers would leave it), and no frame is needed."""
    if d.signals and not d.delayed and _happened(d.signals).isdisjoint(d.index.trigger_events):
        d.last_signals, d.signals = d.signals, []
    if not d.signals:
        return ()
    return ProcessTriggers()


@dataclass
class ProcessTriggers(Frame):
    """R-PRIO-5 (SEGOC): each group of simultaneous triggers — the turn player's mandatory,
    the opponent's mandatory, then the optional ones — is asked and ordered, then they form
    the next chain; triggers of that chain's resolution follow, until nothing is left."""

    groups: list[list[_Pending]] = field(default_factory=list)
    chosen: list[_Pending] = field(default_factory=list)  # of the group being asked
    ordered: list[_Pending] = field(default_factory=list)  # the new chain, in order
    asked: int = 0  # triggers of the group asked so far
    started: bool = False
    # R-PRIO-6: the opponent's Standby/End Phase effects, waiting for the turn player's to be done
    opponents_phase: list[_Pending] = field(default_factory=list)

    def start(self, d: DuelState, _: Any) -> Next:
        while d.signals or self.opponents_phase:
            if d.signals:
                signals, d.signals = d.signals, []
                d.last_signals = signals
                found = self._turn_players_phase_first(d, _collect(d, signals, max(s.batch for s in signals)))
            else:
                found, self.opponents_phase = self.opponents_phase, []
            if not found:
                continue
            tp = d.turn_player
            if d.rules.chain.legacy_trigger_order:
                self.groups = [found]  # V-23: the turn player orders every simultaneous trigger
            else:
                self.groups = [[t for t in found if t.player == who and t.mandatory == mandatory]
                               for mandatory in (True, False) for who in (tp, 1 - tp)]
            self.ordered, self.chosen, self.asked = [], [], 0
            return self.ask_group(d, None)
        return DONE

    def _turn_players_phase_first(self, d: DuelState, found: list[_Pending]) -> list[_Pending]:
        """R-PRIO-6: when both players have Standby or End Phase effects, the turn player's are
        resolved first (with what their resolution triggers), then the opponent's."""
        tp = d.turn_player
        phase = [t for t in found if t.signal.event in ("standby_phase", "end_phase")]
        if not any(t.player == tp for t in phase):
            return found
        later = [t for t in phase if t.player != tp]
        self.opponents_phase.extend(later)
        return [t for t in found if not any(t is u for u in later)] if later else found

    def ask_group(self, d: DuelState, _: Any) -> Next:
        while self.groups:
            group = self.groups[0]
            while self.asked < len(group):
                t = group[self.asked]
                self.asked += 1
                if t.mandatory:
                    self.chosen.append(t)
                    continue
                if not _able(d, t):  # R-TERM-17, R-CHAIN-5: an optional trigger that could not be activated is not offered
                    continue
                if _shares_once(t, self.chosen):  # "activate 1 of these effects": another of them was chosen
                    continue
                effect = t.effect or t.card.effects[t.index]
                label = f" ({effect.label})" if effect.label else ""
                return self.ask("answered", d.ask(t.player, Kind.YESNO, (Option("yes", "yes"), Option("no", "no")),
                                                  f"Activate {t.card.name}'s effect{label}?", verb="trigger", subject=t.card.uid,
                                                  effect=t.index if t.index >= 0 else None))
            chosen = self.chosen
            if len(chosen) > 1 and len({(t.card.uid, t.index) for t in chosen}) > 1:  # (one effect twice: nothing to order)
                orderer = d.turn_player if d.rules.chain.legacy_trigger_order else chosen[0].player
                twice = {t.card.uid for t in chosen if sum(1 for u in chosen if u.card is t.card and u.index != t.index) > 0}
                # the same effect again for another moment reads "Card (2)", so that each option can be named
                options = [Option(key, (_trigger_label(t) if t.card.uid in twice else t.card.name)
                                  + (f" ({key.rsplit(':', 1)[1]})" if key.count(":") == 3 else ""), t.card.uid, effect=t.index)
                           for key, t in zip(_order_keys(chosen), chosen)]
                return self.ask("order", d.ask(orderer, Kind.ORDER, unique_labels(d, options), "Order these effects (first = lower chain link)",
                                               lo=len(chosen), hi=len(chosen), verb="order"))
            self.next_group(chosen)
        self.started = False
        return self.activate_next(d, None)

    def answered(self, d: DuelState, answer: Option) -> Next:
        if answer.key == "yes":
            self.chosen.append(self.groups[0][self.asked - 1])
        return self.ask_group(d, None)

    def order(self, d: DuelState, answer: tuple[Option, ...]) -> Next:
        by_key = dict(zip(_order_keys(self.chosen), self.chosen))
        self.next_group([by_key[o.key] for o in answer])
        return self.ask_group(d, None)

    def next_group(self, chosen: list[_Pending]) -> None:
        self.ordered.extend(chosen)
        self.groups.pop(0)
        self.chosen, self.asked = [], 0

    def activate_next(self, d: DuelState, _: Any) -> Next:
        while self.ordered:
            t = self.ordered[0]
            if not _still_able(d, t):
                self.ordered.pop(0)
                continue
            return self.then(d, "activated", activate(d, t.player, t.card, t.index, t.signal, effect=t.effect))
        if self.started:
            return self.then(d, "start", run_chain(d))
        return self.start(d, None)

    def activated(self, d: DuelState, link: ChainLink) -> Next:
        link.chosen = self.ordered.pop(0).remembered
        self.started = True
        return self.activate_next(d, None)


def _order_keys(chosen: list[_Pending]) -> list[str]:
    """The option keys of triggers to order: `trigger:UID:INDEX`, and `…:2`, `…:3` for the same
    effect activating again for another moment of the same chain (Fire Princess)."""
    seen: dict[str, int] = {}
    keys = []
    for t in chosen:
        key = f"trigger:{t.card.uid}:{t.index}"
        seen[key] = seen.get(key, 0) + 1
        keys.append(key if seen[key] == 1 else f"{key}:{seen[key]}")
    return keys


def _trigger_label(t: _Pending) -> str:
    """'Card (label)' or 'Card #2' for one of several triggers of the same card."""
    effect = t.effect or t.card.effects[t.index]
    return f"{t.card.name} ({effect.label})" if effect.label else f"{t.card.name} #{t.index + 1}"


def _collect(d: DuelState, signals: list[Signal], last_batch: int) -> list[_Pending]:
    found: list[_Pending] = _due_delayed(d, signals) if d.delayed else []
    seen: set[tuple[int, int]] = set()
    happened = _happened(signals)  # (a trigger waiting for none of these is skipped at once)
    for card in d.index.trigger_cards:
        for index, effect in card.triggers:
            if (card.uid, index) in seen:
                continue
            if "flipped" not in happened if effect.kind == "flip" else happened.isdisjoint(effect.when.event):  # type: ignore[union-attr]
                continue
            fired: set[int] = set()  # the moments (batches) it answered: once each (R-PRIO-5)
            for s in signals:
                if s.batch in fired or not _trigger_fires(d, card, effect, s, last_batch):
                    continue
                seen.add((card.uid, index))
                if effect.at is not None:  # the event only arms it (Sacred Phoenix of Nephthys)
                    d.delayed.append(Delayed(card, card.controller if card.loc.on_field else card.owner, effect.at,
                                             effect.at_player, 1, index, effect, card.moves, optional=effect.optional))
                    break
                # "each time you gain Life Points" twice in one chain (Dian Keto, then Gift of The Mystical Elf): it
                # activates once for each (Fire Princess); events of one moment are one event
                # "When the control of this face-up card shifts to your opponent": the player who lost it activates it (Ameba)
                player = s.player if s.event == "control_changed" and s.card is card else card.controller
                found.append(_Pending(card, index, _with_players(d, card, effect, s, signals, last_batch), not effect.optional,
                                      player))
                fired.add(s.batch)
    return found


def _with_players(d: DuelState, card: CardInst, effect: Effect, s: Signal, signals: list[Signal], last_batch: int) -> Signal:
    """The signal a trigger answers, with the other players whose cards the same moment's events
    it answers are about (`player: event_player` then names each: Criosphinx, when monsters of both
    players return to the hand at once — one trigger, each of them discards)."""
    together = tuple(t.card for t in signals if t.batch == s.batch and t.card is not None and t.card is not s.card
                     and _trigger_fires(d, card, effect, t, last_batch))
    if together:
        s = replace(s, together=together)
    if not any(getattr(op.params, "player", None) == "event_player" for op in walk_ops(effect.do)):
        return s
    others = tuple(sorted({t.player for t in signals if t.batch == s.batch and t.player != s.player
                           and _trigger_fires(d, card, effect, t, last_batch)}))
    return replace(s, players=others) if others else s


def _happened(signals: list[Signal]) -> set[str]:
    """The events the signals say happened, with those they imply ("summoned", "destroyed_by_battle")."""
    happened = {s.event for s in signals}
    if happened & SUMMON_EVENTS:
        happened.add("summoned")
    if "destroyed" in happened and any(s.event == "destroyed" and s.by_battle for s in signals):
        happened.add("destroyed_by_battle")
    return happened


def _related(rec_: Delayed, s: Signal) -> bool:
    """A delayed `at: event` whose `upon` relates the event's card to the remembered ones: `level_below_of: chosen`
    (with `level_below_by`) — "a monster that is 1 Level lower than the selected monster" (Dora of Fate)."""
    where = rec_.when.where
    if where is None or where.level_below_of is None:
        return True
    others = [c for c, moves in rec_.remembered if rec_.keep_moved or c.moves == moves]
    return s.card is not None and bool(level_below_of([s.card], others, where.level_below_by))


def _due_delayed(d: DuelState, signals: list[Signal]) -> list[_Pending]:
    """Delayed effects whose Standby or End Phase (or Draw Phase, before the normal draw) has come."""
    found: list[_Pending] = []
    for rec in [r for r in d.delayed if r.when is not None and r.turn < d.turn]:
        d.delayed.remove(rec)  # "only during this turn" (Last Will): lost at its end
    for s in signals:
        if s.event not in ("standby_phase", "end_phase", "normal_draw", "after_damage_calculation", "battle_phase_end"):
            for rec in [r for r in d.delayed if r.when is not None and r.turn == d.turn and signal_matches(d, r.player, r.card, r.when, s)
                        and (r.about is None or any(c is s.card and (r.about == "remembered" or c.moves == moves) for c, moves in r.remembered))
                        and _related(rec_=r, s=s)]:
                if not rec.each_time:
                    d.delayed.remove(rec)  # the first such event this turn, once
                index = -1 - len(found)
                found.append(_Pending(rec.card, index, s, not rec.optional, rec.player, effect=rec.effect,
                                      remembered=[c for c, moves in rec.remembered if rec.keep_moved or c.moves == moves]))
            continue
        for rec in [r for r in d.delayed if r.when is None and r.due(s)]:
            d.delayed.remove(rec)
            if rec.card_moves is not None and rec.card.moves != rec.card_moves:
                d.emit(Note(f"{rec.card.name}'s delayed effect does not apply: the card has moved since"))
                continue
            index = rec.index if rec.index >= 0 else -1 - len(found)  # distinct keys when ordering
            pending = _Pending(rec.card, index, Signal(s.event, None, s.player, batch=s.batch), not rec.optional, rec.player,
                               effect=rec.effect if index < 0 else None,
                               remembered=[c for c, moves in rec.remembered if c.moves == moves])
            found.append(pending)
    return found


def _trigger_fires(d: DuelState, card: CardInst, effect: Effect, s: Signal, last_batch: int) -> bool:
    if effect.kind == "flip":
        if s.event != "flipped" or s.card is not card:
            return False
    else:
        assert effect.when is not None
        owner = card.controller if card.loc.on_field else card.owner
        if not signal_matches(d, owner, card, effect.when, s, default="self"):
            return False
    if s.card is card and card.moves != s.moves:
        return False  # R-CHAIN-10: it changed location before the trigger could activate
    about_itself = s.card is card and (effect.kind == "flip" or effect.when is None or effect.when.subject in (None, "self"))
    if about_itself and s.event == "damage_step_end" and not _trigger_place_ok(card, effect):
        return False  # destroyed by that battle: "at the end of the Damage Step" only if its effect works from the GY (Getsu Fuhma)
    if not about_itself and (not _trigger_place_ok(card, effect) or card.arrived_at > s.at):
        # it must already have been where its effect works when the event happened; so must a
        # card whose trigger is about any card, even when it is the one (Solemn Wishes drawn
        # into the hand does not count its own draw, R-CARD-10)
        return False
    if effect.optional and effect.timing == "when" and s.batch != last_batch:
        return False  # R-CHAIN-10: "When … you can" misses the timing
    if effect.once_per_turn and used_this_turn(d, card.controller, card, card.effects.index(effect)):
        return False
    if card.loc == Loc.SZONE and not (card.face_up and card.active):
        return False  # a Continuous Spell/Trap's triggers work once it is face-up and active
    if card.loc.on_field and card.face_up and effects_negated(d, card):
        return False
    if card.negated_at == card.moves:
        return False  # its effects are negated where it is now (destroyed by battle with Ancient Gear Beast, or with a Fiend of Dark Ruler Ha Des)
    if effect.condition is not None and not condition_holds(d, card, effect.condition):
        return False
    if effect.cost or hand_costs.applies(d, card):  # (Chain Energy: a trigger from the hand pays LP too)
        if not cost_payable(d, card.controller if card.loc.on_field else card.owner, card, effect):
            return False  # R-CHAIN-5: an effect whose cost cannot be paid is not activated
    return True


def _trigger_place_ok(card: CardInst, effect: Effect) -> bool:
    """A trigger about another card works from where its text says (default: face-up on the field)."""
    if card.loc.on_field:
        if not card.face_up:
            return False
        if not card.is_monster:
            return "field" in effect.from_
        if card.in_pendulum_zone:  # only its Pendulum Effects (R-ZONE-4)
            return effect.pendulum
        if card.loc == Loc.SZONE:  # an Equip Card: only what works while equipped (a Union) by its own effect
            return "equip" in effect.from_ and not card.union_equipped_by_other
        return "field" in effect.from_ and not effect.pendulum
    return {Loc.HAND: "hand", Loc.GY: "gy", Loc.BANISHED: "banished", Loc.DECK: "deck", Loc.EXTRA: "extra"}.get(card.loc, "") in effect.from_


def _able(d: DuelState, t: _Pending) -> bool:
    """Whether an optional trigger could be put on the chain now: a legal target for each target
    group (R-TERM-17), a payable cost (R-CHAIN-5), and something for it to do — "Special Summon 1
    Silent Swordsman LV5 from your hand or Deck" with none there is not offered (R-CHAIN-6)."""
    effect = t.effect or t.card.effects[t.index]
    if targets_missing(d, t.player, t.card, effect, t.signal, one=True):
        return False
    if (effect.cost or hand_costs.applies(d, t.card)) and not cost_payable(d, t.player, t.card, effect):
        return False
    events = [t.signal.card] if t.signal is not None and t.signal.card is not None else None  # (as its chain link will read them)
    return possible(d, t.player, t.card, effect, events) is None


def _shares_once(t: _Pending, chosen: list[_Pending]) -> bool:
    """Whether a trigger marked `once_per_turn: card` shares that limit with a trigger of the same
    card already chosen for this chain ("you can activate 1 of these effects": Dark Scorpion - Chick
    the Yellow's two triggers on the same battle damage)."""
    effect = t.effect or t.card.effects[t.index]
    return effect.once_per_turn == "card" and any(
        u.card is t.card and (u.effect or u.card.effects[u.index]).once_per_turn == "card" for u in chosen)


def _still_able(d: DuelState, t: _Pending) -> bool:
    """Whether a trigger can still be put on the chain now that the triggers before it have been
    (their costs paid, their targets chosen): it needs a legal target and a payable cost (R-CHAIN-5),
    and its once-per-turn limit must not have been used by one of them."""
    effect = t.effect or t.card.effects[t.index]
    if t.index >= 0 and effect.once_per_turn and t.effect is None and used_this_turn(d, t.player, t.card, t.index):
        d.emit(Note(f"{t.card.name}'s effect was already used this turn: it is not activated"))
        return False
    if targets_missing(d, t.player, t.card, effect, t.signal, one=True):
        d.emit(Note(f"{t.card.name}'s effect has no legal target and does not activate"))
        return False
    if (effect.cost or hand_costs.applies(d, t.card)) and not cost_payable(d, t.player, t.card, effect):
        d.emit(Note(f"{t.card.name}'s cost can no longer be paid: it is not activated"))
        return False
    return True
