"""Verbs that change the rest of the turn or a later one: effects "until the end of this turn", delayed effects, skipped phases, Summon locks, protection, extra Normal Summons, Traps from the hand."""

from __future__ import annotations


from typing import Any

from ....schema import effects as fx
from ....schema.effects import Condition, ContinuousSpec, Effect, Filter
from ...board import actions
from ...board.filters import variant
from ...core.events import Note
from ...core.types import Phase
from ...state.card import CardInst, spec_flags
from ...state.player import FIELD_TOTAL
from ...state.links import Delayed
from ..context import Ctx
from ..registry import OpStep, verb
from ...state.duel_state import DuelState
from dataclasses import dataclass, field as dc_field

from ...core.decision import Kind, Option
from ...core.machine import DONE, Frame, Next


@verb("later")
def op_later(ctx: Ctx, params: fx.Later, name: str) -> None:
    d = ctx.d
    effect = Effect.model_construct(kind="trigger", do=list(params.do), label=f"{ctx.card.name} (delayed)")
    d.delayed.append(Delayed(ctx.card, ctx.player, params.at, params.player, params.count, -1, effect,
                             ctx.card.moves if params.needs_self else None,
                             [(c, c.moves) for c in _remembered(ctx, params.remember)],
                             params.optional, params.upon, _waits_in(d, ctx.player, params.during), bool(params.each_time),
                             params.about, bool(params.keep_moved)))
    whose = {"you": "your ", "opponent": "the opponent's ", "any": "the "}[params.player]
    nth = "next" if params.count == 1 else _ordinal(params.count)
    if params.at == "event":
        d.emit(Note(f"{ctx.card.name}: the rest happens " + ("each time that comes this turn" if params.each_time
                                                              else f"if that comes {'during your next turn' if params.during else 'this turn'}")))
    elif params.at == "after_damage_calculation":
        d.emit(Note(f"{ctx.card.name}: the rest happens after damage calculation"))
    elif params.at == "battle_phase_end":
        d.emit(Note(f"{ctx.card.name}: the rest happens at the end of the Battle Phase"))
    else:
        when = "Draw Phase, before the draw" if params.at == "normal_draw" else params.at.replace('_', ' ').title()
        d.emit(Note(f"{ctx.card.name}: the rest happens during {whose}{nth} {when}"))


def _waits_in(d: DuelState, player: int, during: str | None) -> int:
    """The turn a delayed `at: event` waits in: this one, or its controller's next turn."""
    if during == "your_next_turn":
        return d.turn + (2 if d.turn_player == player else 1)
    return d.turn


def _remembered(ctx: Ctx, remember: str | None) -> list[CardInst]:
    """What `chosen` is inside a delayed effect's `do`."""
    if remember == "affected":
        return list(ctx.affected)
    if remember == "attacker":
        d = ctx.d
        return [d.attack.attacker] if d.attack else []
    return list(ctx.chosen)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


@verb("for_this_turn")
def op_for_this_turn(ctx: Ctx, params: fx.ForThisTurn, name: str) -> None:
    d = ctx.d
    # "until the End Phase" (Sasuke Samurai #2): applies in the phases before it
    until = Condition(phase=("draw", "standby", "main1", "battle", "main2")) if params.until_end_phase else None
    last = d.turn + (params.next_turns or 0)
    if params.opponent_turns:  # the end of the opponent's Nth turn from now (Deck Devastation Virus)
        last = d.turn + 2 * params.opponent_turns - (1 if d.turn_player == ctx.player else 0)
    if params.for_duel:  # "for the rest of this Duel" (Cursed Seal of the Forbidden Spell)
        last = _FOREVER
    for spec in params.continuous:
        spec = _names_fixed(ctx, spec)
        effect = Effect.model_construct(kind="continuous", continuous=spec, condition=until)
        d.floating.append((ctx.card, effect, last))  # (the last turn it applies)
        d.index.continuous_count += 1  # the continuous layer has something to look at now
        d.index.flags |= spec_flags(spec)
    n = last - d.turn
    if params.for_duel:
        d.emit(Note(f"{ctx.card.name}: applies for the rest of the Duel"))
        return
    d.emit(Note(f"{ctx.card.name}: applies until the " + ("End Phase" if params.until_end_phase else "end of this turn" if not n
                                                         else "end of the next turn" if n == 1 else f"end of the {_ordinal(n)} turn from now")))


_FOREVER = 10 ** 9  # the last turn of an effect "for the rest of this Duel"


def _names_fixed(ctx: Ctx, spec: ContinuousSpec) -> ContinuousSpec:
    """The spec with each filter's `name_of` read now: the names of the cards it refers to become its `name` ("Spell Cards
    with that name": Cursed Seal of the Forbidden Spell)."""
    changes: dict[str, Any] = {}
    for key in ("applies_to", "cannot_activate", "negate_effects"):
        where = getattr(spec, key, None)
        if isinstance(where, Filter) and where.name_of is not None:
            found = ctx.cards(where.name_of)
            names = tuple(c.data.name for c in found) if isinstance(found, list) else ()
            changes[key] = variant(where, name=names or ("",), name_of=None)  # (no card: a name no card has)
    return variant(spec, **changes) if changes else spec


@verb("hand_limit")
def op_hand_limit(ctx: Ctx, params: fx.HandLimit, name: str) -> None:
    """Hieroglyph Lithograph: "During the current Duel, your hand size limit becomes 7" (R-PHASE-7)."""
    d = ctx.d
    for p in ctx.players(params.player):
        d.players[p].hand_limit = params.limit
        d.emit(Note(f"{d.names[p]}'s hand size limit is {params.limit} for the rest of the duel"))


@verb("advance_turn_count")
def op_advance_turn_count(ctx: Ctx, params: fx.AdvanceTurnCount, name: str) -> None:
    """Pyro Clock of Destiny: "Move the turn count forward by 1 turn" — the counts of the face-up Spell/Trap Cards that
    count turns move on (Swords of Revealing Light's turns left: over, it is destroyed; the turns counted since a card
    arrived: Cocoon of Evolution, Wave-Motion Cannon); the turn itself continues as normal."""
    d = ctx.d
    n = params.count
    over = []
    for side in d.players:
        for card in side.szone:
            if card is None or not card.face_up:
                continue
            card.arrived_turn -= 2 * n  # (each of its controller's turns since it arrived: one more)
            if card.turns_left:
                card.turns_left = max(0, card.turns_left - n)
                if not card.turns_left:
                    over.append(card)
    d.emit(Note(f"{ctx.card.name}: the turn count moves forward by {n} turn{'s' if n > 1 else ''}"))
    if over:
        actions.destroy(d, over, by="effect", reason="its turns are over")


@verb("lock_activation")
def op_lock_activation(ctx: Ctx, params: fx.LockActivation, name: str) -> Any:
    """"That card cannot be activated this turn" (Fairy of the Spring): refused with R-CARD-13 this turn, Set or not."""
    return LockActivation(ctx, params, name).after(ctx.cards(params.what))


class LockActivation(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        for card in cards:
            card.activation_locked = d.turn
            d.emit(Note(f"{card.name} cannot be activated this turn"))


@verb("to_end_phase")
def op_to_end_phase(ctx: Ctx, params: fx.ToEndPhase, name: str) -> None:
    """Neko Mane King: the turn goes on to its End Phase (rules/flow.py, main_phase.py, battle.py read end_phase_turn)."""
    ctx.d.end_phase_turn = ctx.d.turn
    ctx.d.emit(Note(f"{ctx.card.name}: it becomes the End Phase of this turn"))


@verb("battle_phase_twice")
def op_battle_phase_twice(ctx: Ctx, params: fx.BattlePhaseTwice, name: str) -> None:
    """Weather Report: a second Battle Phase this turn, or the player's next turn when it is the opponent's (rules/flow.py,
    legality.battle_now read `second_battle_turn`)."""
    d = ctx.d
    turn = d.turn if d.turn_player == ctx.player else d.turn + 1
    d.players[ctx.player].second_battle_turn = turn
    d.emit(Note(f"{ctx.card.name}: {d.names[ctx.player]} can conduct the Battle Phase twice "
                + ("this turn" if turn == d.turn else "in their next turn")))


@verb("discard_draws")
def op_discard_draws(ctx: Ctx, params: fx.DiscardDraws, name: str) -> None:
    """Muko: the link this one answers discards what it draws (effects/verbs/cards.py: op_draw)."""
    if ctx.link.answers is not None:
        ctx.link.answers.draws_discarded_by = ctx.player
        ctx.d.emit(Note(f"{ctx.card.name}: the cards {ctx.link.answers.card.name} draws will be discarded"))


@verb("lock_summons")
def op_lock_summons(ctx: Ctx, params: fx.LockSummons, name: str) -> None:
    d = ctx.d
    p = ctx.player if params.player == "you" else 1 - ctx.player
    d.players[p].summon_lock_turn = d.turn
    if params.sets:
        d.players[p].set_lock_turn = d.turn
    d.emit(Note(f"{d.names[p]} cannot Summon{' or Set' if params.sets else ''} monsters for the rest of this turn"))


@verb("skip")
def op_skip(ctx: Ctx, params: fx.Skip, name: str) -> None:
    player = ctx.player if params.player == "you" else 1 - ctx.player
    if params.this_turn and params.phase == "battle":  # Soul Exchange: no Battle Phase this turn
        ctx.d.players[player].battle_lock_turn = ctx.d.turn
        ctx.d.emit(Note(f"{ctx.d.names[player]} cannot conduct their Battle Phase this turn"))
        return
    d = ctx.d
    # the turn player's Main Phase 1 or Battle Phase still ahead this turn is their next one: skipped this turn (Frozen
    # Soul in the opponent's Standby Phase or Main Phase 1); any other from their next turn on (R-PHASE-8)
    this_turn = player == d.turn_player and params.phase in _AHEAD and _AHEAD[params.phase] > d.phase
    ctx.d.players[player].skip[params.phase] = d.turn - 1 if this_turn else d.turn
    ctx.d.players[player].skips_left[params.phase] = params.count
    phase = _PHASE_NAMES[params.phase]  # ("Main Phase 1", not "Main Phase 1 Phase": Timeater)
    ctx.d.emit(Note(f"{ctx.d.names[player]} skips their next {phase}" if params.count == 1
                    else f"{ctx.d.names[player]} skips their next {params.count} {phase.replace('Phase', 'Phases')}"))


_AHEAD = {"main1": Phase.MAIN1, "battle": Phase.BATTLE}
_PHASE_NAMES = {"draw": "Draw Phase", "standby": "Standby Phase", "main1": "Main Phase 1", "battle": "Battle Phase",
                "main2": "Main Phase 2", "turn": "turn"}


@verb("protect")
def op_protect(ctx: Ctx, params: fx.Protect, name: str) -> None:
    d = ctx.d
    for p in ctx.players(params.player):
        if params.battle_damage:
            d.players[p].no_battle_damage_turn = d.turn
        if params.battle_destruction:
            d.players[p].battle_immune_turn = d.turn
        if params.effect_damage is not None:
            d.players[p].no_effect_damage_turn = d.turn
            d.players[p].no_effect_damage_any = params.effect_damage == "any"
    d.emit(Note(f"{ctx.card.name}: protection until the end of the turn"))


@verb("no_battle_damage")
def op_no_battle_damage(ctx: Ctx, params: fx.NoBattleDamage, name: str) -> None:
    attack = ctx.d.attack
    if attack is not None:
        attack.no_damage.update(ctx.players(params.player))


@verb("traps_from_hand", "extra_normal_summon", "replace_draw", "reroll_dice")
def op_flag(ctx: Ctx, params: fx.Flag, name: str) -> None:
    d = ctx.d
    p = ctx.player if params.player == "you" else 1 - ctx.player
    if name == "traps_from_hand":
        d.players[p].traps_from_hand_turn = d.turn
        d.emit(Note(f"{d.names[p]} may activate Traps from the hand this turn"))
    elif name == "reroll_dice":  # "You can only gain this effect once per turn" (Dice Re-Roll)
        if d.players[p].reroll[0] != d.turn:
            d.players[p].reroll = (d.turn, True)
            d.emit(Note(f"{d.names[p]} may have one roll of a die re-rolled this turn"))
    elif name == "replace_draw":
        d.players[p].draw_replaced_turn = d.turn
        d.emit(Note(f"{d.names[p]} does not conduct the normal draw this turn"))
    else:
        d.players[p].normal_summon_turn = 0
        d.emit(Note(f"{d.names[p]} may Normal Summon or Set again this turn"))


@verb("lock_zones")
def op_lock_zones(ctx: Ctx, params: fx.LockZones, name: str) -> Any:
    """Main Monster Zones made unusable (R-ZONE-1): chosen ones while this card stays face-up where it is (Ground
    Collapse, Ojama King), or the zones the cards the operation before moved left (Dimensionhole)."""
    d = ctx.d
    if params.of == "affected":
        for card in ctx.affected:
            if card.left_zone < 0 or card.loc.on_field or not card.face_up:
                continue
            p, seq = divmod(card.left_zone, 10)
            d.players[p].zone_locks.append((seq, card, card.moves))
            d.players[p].layout += 1
            d.emit(Note(f"{d.names[p]}'s Monster Zone {seq + 1} cannot be used while {card.name} is away"))
        return None
    if not (ctx.card.loc.on_field and ctx.card.face_up):
        return None
    if params.field_total is not None:  # Spatial Collapse: a cap on all the cards of each player's field
        for p in {"you": (ctx.player,), "opponent": (1 - ctx.player,), "any": (ctx.player, 1 - ctx.player)}[params.side]:
            d.players[p].zone_locks.append((FIELD_TOTAL - params.field_total, ctx.card, ctx.card.moves))
            d.players[p].layout += 1
            d.emit(Note(f"{d.names[p]} can have only {params.field_total} cards on their field ({ctx.card.name})"))
        return None
    if params.cap:
        d.players[1 - ctx.player].zone_locks.append((-1, ctx.card, ctx.card.moves))
        d.players[1 - ctx.player].layout += 1  # (what `Duel.per_layout` kept — the Fusions one can Summon — is worked out again)
        d.emit(Note(f"{d.names[1 - ctx.player]} cannot place a monster while they control as many as {d.names[ctx.player]} "
                    f"({ctx.card.name})"))
        return None
    return LockZones(ctx, params)


@dataclass
class LockZones(Frame):
    """Its controller chooses the zones one at a time (`up_to`: or stops)."""

    ctx: Ctx
    params: fx.LockZones
    chosen: list[int] = dc_field(default_factory=list)  # player * 10 + zone

    def start(self, d: DuelState, _: Any) -> Next:
        ctx, params = self.ctx, self.params
        if len(self.chosen) >= params.count:
            return self.done(d)
        sides = {"you": (ctx.player,), "opponent": (1 - ctx.player,), "any": (1 - ctx.player, ctx.player)}[params.side]  # (the opponent's first)
        options = [Option(f"zone:{p * 10 + seq}", f"{'your' if p == ctx.player else 'opponent'} M{seq + 1}", zone=p * 10 + seq)
                   for p in sides for seq in d.players[p].open_mzones() if p * 10 + seq not in self.chosen]
        if not options:
            return self.done(d)
        if params.up_to:
            options.append(Option("zone:done", "done"))
        return self.ask("picked", d.ask(ctx.player, Kind.ZONE, options, f"{ctx.card.name}: choose a Monster Zone that cannot be used "
                                        f"({len(self.chosen) + 1} of {'up to ' if params.up_to else ''}{params.count})",
                                        subject=ctx.card.uid))

    def picked(self, d: DuelState, answer: Option) -> Next:
        if answer.zone is None:
            return self.done(d)
        self.chosen.append(answer.zone)
        return self.start(d, None)

    def done(self, d: DuelState) -> Next:
        card = self.ctx.card
        for zone in self.chosen:
            p, seq = divmod(zone, 10)
            d.players[p].zone_locks.append((seq, card, card.moves))
            d.players[p].layout += 1
            d.emit(Note(f"{d.names[p]}'s Monster Zone {seq + 1} cannot be used while {card.name} is face-up"))
        return DONE


@verb("remember")
def op_remember(ctx: Ctx, params: fx.Remember, name: str) -> Any:
    """This card keeps those cards in mind while each stays where it is (the selection `remembered`: Different Dimension Gate)."""
    return Remember(ctx, params, name).after(ctx.cards(params.what))


class Remember(OpStep):
    def act(self, d: DuelState, cards: list[CardInst]) -> None:
        self.ctx.card.remembered = tuple((c.uid, c.moves) for c in cards)
