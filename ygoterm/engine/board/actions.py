"""Moving cards with their rules: where a card really goes (board/replacements.py), what
leaving the field takes with it (materials, equips, a Call of the Haunted pair: R-SUMMON-13,
R-CARD-8/10), destroying, sending, discarding, changing positions, equipping, control.

Every effect, Summon and rule moves cards through these functions; the triggers they signal
are answered by the rules layer (rules/chain.py)."""

from __future__ import annotations

from typing import Iterable

from ...schema.effects import Filter
from ..core.events import Destroyed, Flip, Move, Note, PositionChange, SetCard
from ..core.types import FIELD_ZONE, DestroyedBy, Loc, Pos, Reason
from ..state.card import CardInst
from ..state.duel_state import PILES, DuelState
from .continuous import (Modifier, applies, battle_negated, condition_holds, effects_negated, forced_position, has_flag, monster_sets_forbidden, source_with,
                         sources)
from .filters import matches, select
from .replacements import banished_if_leaving, banished_instead, battle_victim_negated, destination, destroyed_instead


def move(d: DuelState, card: CardInst, dst: Loc, *, seq: int | None = None, face_up: bool = True,
         pos: Pos | None = None, reason: str = "", controller: int | None = None, top: bool = True,
         quiet: bool = False, reveal: bool = False, destroyed: bool = False, as_from: Loc | None = None,
         by: int | None = None, tributer: int | None = None) -> Move:
    """Take `card` from where it is and put it in `dst` (a pile's top unless `top` is False).

    Cards leaving the field go to their owner's piles (R-TERM-5); a Token that leaves the
    field ceases to exist (R-CARD-11); an Extra Deck monster returned to the Deck goes to
    the Extra Deck. `quiet` leaves the Move out of the log when a more specific event
    (Summon, SetCard, Destroyed) tells the same story; `reveal` shows a card added to the
    hand to both players. `as_from`: where the card counts as coming from for triggers (a
    monster whose Summon was negated never reached the field, R-SUMMON-19). `by`: the player whose
    card's effect moves it ("sent from your hand to your Graveyard by an opponent's card effect":
    Elephant Statue of Blessing), None for a cost, a rule or a Summon. `tributer`: the player who Tributes it for a
    Summon, for the log (the opponent's monster by Soul Exchange; its controller is still the one it leaves).
    """
    src = card.loc
    was_face_up = card.face_up  # (a face-up card both players saw: they know it wherever it goes hidden)
    held_by = card.controller  # (the log names who Tributed it, R-TERM-5: it goes to its owner)
    if src == Loc.MZONE:
        card.field_atk = card.atk if card.face_up else card.base_atk
        card.left_zone = card.controller * 10 + card.seq
        card.field_def = card.defense if card.face_up else card.base_def
    # the Level it had as it left a Monster Zone face-up (Insect Imitation: "1 Level higher than the Tributed monster"); 0 once it moves on
    card.field_level = card.level if src == Loc.MZONE and card.face_up else 0
    if src.on_field:
        card.field_counters = sum(card.counters.values())
        if not dst.on_field:
            card.field_since = card.arrived_turn  # (amount turns_on_field: Wave-Motion Cannon)
            card.tributes_used = 0  # how it was Tribute Summoned or Set is forgotten once it leaves (Behemoth revived has 2700 ATK)
            card.cost_paid = 0  # … and what its Summon procedure's cost took (Megarock Dragon)
            card.selected = ()  # … and selected (Gradius' Option)
    pair = card.bound if card.bound is not None and src.on_field else None
    # whether the pair's Spell/Trap still applies (Royal Decree, or Jinzo it revived, negates Call of the Haunted)
    pair_live = pair is not None and not effects_negated(d, card if card.binding else pair)
    banishes_itself = src.on_field and not dst.on_field and dst != Loc.BANISHED and was_face_up and banished_if_leaving(d, card)
    doom = _doom_on_leaving(d, card) if was_face_up and src.on_field and not dst.on_field \
        and "destroys_on_leaving" in d.index.flags else None
    d.take_out(card)
    if card.trap_data is not None and dst != Loc.MZONE:
        _trap_monster_leaves(d, card)
    owner = d.players[card.owner]
    owner.layout += 1
    d.players[held_by].layout += 1
    if banishes_itself:
        dst, face_up, reason, quiet = Loc.BANISHED, True, f"{reason}, banished instead".lstrip(", "), False
    else:
        dst, face_up, reason, quiet = destination(d, card, src, dst, face_up, reason, quiet)
    if src == Loc.SZONE and dst == Loc.MZONE and card.equip_target is not None:
        _unequip(d, card)  # a Union unequipped to be Special Summoned
    leaving = src.on_field and not dst.on_field
    if leaving:
        _release(d, card)
        if was_face_up:
            end_while_this_face_up(d, card)
        if src == Loc.MZONE:
            release_held(d, card)
    if controller is not None:
        card.controller = controller
    elif src == Loc.HAND and not dst.on_field or src == Loc.DECK and dst not in (Loc.HAND, Loc.DECK) and not dst.on_field:
        # a card held in the opponent's hand goes to its owner's piles (R-TERM-5); from the opponent's Deck too, except to
        # the hand of that Deck's player, who holds it then (Parasite Paracide)
        card.controller = card.owner
    card.moves += 1
    d.move_count += 1
    d.players[card.controller].layout += 1
    card.arrived_at = d.move_count
    card.face_up_at = d.batch
    if dst != src or dst.on_field:
        if not (src.on_field and dst.on_field):  # (read off the field: "after this card is flipped, when it is sent to the GY")
            card.left_flipped = src == Loc.MZONE and card.flipped_turn != 0
        card.reset_for_move(on_field=src.on_field and dst.on_field, summoned=src == Loc.HAND and dst == Loc.MZONE)
        card.arrived_turn = d.turn
    if card.tributed and (dst in (Loc.HAND, Loc.DECK) or dst == Loc.MZONE and src not in (Loc.HAND, Loc.MZONE)):
        card.tributed = ()  # (a Tribute Summon comes from the hand: its Tributes were noted just before)
    if dst == Loc.MZONE and src != Loc.MZONE:
        card.summoned_by = ""  # (kept once it leaves the field: "if this card was Special Summoned by …" in the GY, Dark Mimic LV3)
    if dst not in (Loc.GY, Loc.BANISHED, Loc.MZONE, Loc.SZONE):
        card.properly_summoned = False
    # a hand holds what its player was given (Amazoness Chain Master), a Deck what an effect put there (Parasite Paracide)
    holder = d.players[card.controller] if dst in (Loc.HAND, Loc.DECK) else owner
    _put(d, card, holder.pile(PILES[dst]) if dst in PILES else None, dst, seq, face_up, pos, top)
    if d.arrivals:
        arrived(d, card)
    _remember(d, card, dst, face_up, reveal, was_face_up)
    hidden = not face_up and dst in (Loc.MZONE, Loc.SZONE, Loc.BANISHED)
    private = (card.controller if dst == Loc.HAND else card.owner) if (hidden or dst in (Loc.HAND, Loc.DECK, Loc.EXTRA)) and not face_up and not reveal else None
    if src == Loc.HAND and dst == Loc.DECK:
        private = card.owner
    event = Move(card.uid, card.name, card.owner, held_by if leaving else card.controller, src, dst, card.seq, face_up,
                 reason, private, tributer if tributer != held_by else None)
    if not quiet:
        d.emit(event)
    # whose card effect sent it to the GY, as a chain link resolves: not a cost, a Tribute or the hand limit
    if by is None and dst == Loc.GY and d.resolving and d.chain:
        by = d.chain[-1].player  # sent there as a chain link resolves: by that link's card effect (a destruction too)
    by_card = d.chain[-1].card if dst == Loc.GY and d.resolving and d.chain and by == d.chain[-1].player else None
    card.sent_by = by if dst == Loc.GY else None
    if d.index.responders:
        if leaving and as_from is None:
            d.signal("leaves_field", card, card.owner, src=src, how="face_up" if was_face_up else "",  # (Serpentine Princess)
                     by_player=by if by is not None else d.chain[-1].player if d.resolving and d.chain else None)  # (Major Riot)
        if dst == Loc.GY:  # how: a Tribute for a Summon or by a card's effect (R-TERM-3)
            how = "tribute" if reason == Reason.TRIBUTE else "effect_tribute" if reason == Reason.TRIBUTED_BY_EFFECT else ""
            d.signal("sent_to_gy", card, card.owner, src=as_from or src, how=how, by_player=by, by_card=by_card)
        elif dst == Loc.BANISHED and src != Loc.BANISHED:  # how: face_up, from face-up on the field (D.D. Survivor)
            d.signal("banished", card, card.owner, src=as_from or src, how="face_up" if src.on_field and was_face_up else "")
    if leaving:
        _after_leaving(d, card)
        if pair is not None:
            _break_pair(d, card, pair, destroyed, pair_live)
        if doom is not None:  # Pole Position: at once, no chain
            doomed = [c for c in select(d, doom, held_by, card) if c.loc.on_field]
            if doomed:
                destroy(d, doomed, by="effect", source=card, reason=f"{card.name} left the field")
    return event


def _trap_monster_set(d: DuelState, card: CardInst, face_up: bool = False) -> None:
    """A Trap Monster turned face-down (Book of Moon) returns to the Spell & Trap Zone it kept taken as a Set Trap Card;
    with its Trap effect negated (Jinzo), face-up there, a Trap Card whose effect is spent (UDE's Individual Card Rulings
    [D-E], Embodiment of Apophis); with no zone kept (a modern duel), to a free one, or to the GY when there is none."""
    side = d.players[card.controller]
    seq = next((s for s, uid in side.held_szones.items() if uid == card.uid), None)
    if seq is None:
        seq = side.free_szone()
    if seq is None:
        move(d, card, Loc.GY, reason="no Spell & Trap Zone to return to")
        return
    del_held = side.held_szones.pop(seq, None)
    assert del_held in (None, card.uid)
    if face_up:
        move(d, card, Loc.SZONE, seq=seq, face_up=True, reason="a Trap Monster whose Trap effect is negated: back in its Spell & Trap Zone")
        card.active = True  # (its activation resolved long ago: a face-up Continuous Trap with nothing left to do)
        return
    move(d, card, Loc.SZONE, seq=seq, face_up=False, reason="a Trap Monster turned face-down: Set in its Spell & Trap Zone")
    card.set_turn = d.turn  # (Set this turn: activated again from the next turn on, R-CARD-9)


def _trap_monster_leaves(d: DuelState, card: CardInst) -> None:
    """A Trap Monster leaving the Monster Zone is its Trap Card again, and frees the Spell & Trap Zone it kept taken."""
    card.back_to_trap()
    for side in d.players:
        for seq, uid in list(side.held_szones.items()):
            if uid == card.uid:
                del side.held_szones[seq]


def _doom_on_leaving(d: DuelState, card: CardInst) -> Filter | None:
    """The filter of a face-up card's `destroys_on_leaving`, once its activation has resolved and while its effects are not
    negated: what it destroys as it leaves the field (Pole Position)."""
    if not card.active or effects_negated(d, card):
        return None
    for effect in card.continuous:
        if effect.continuous is not None and effect.continuous.destroys_on_leaving is not None:
            return effect.continuous.destroys_on_leaving
    return None


def _release(d: DuelState, card: CardInst) -> None:
    """A card leaving the field goes back to its owner's control; its Xyz Materials go to the
    GY (R-SUMMON-13)."""
    card.controller = card.owner
    card.original_controller = card.held_by = card.brainwashed_from = None
    for material in card.materials:
        material.loc, material.face_up = Loc.GY, True
        d.players[material.owner].gy.append(material)
        d.players[material.owner].layout += 1
    card.materials = []


def _put(d: DuelState, card: CardInst, pile: list[CardInst] | None, dst: Loc, seq: int | None, face_up: bool,
         pos: Pos | None, top: bool) -> None:
    """Put `card` in its zone (`seq`) or on its pile (top or bottom)."""
    card.loc = dst
    card.face_up = face_up
    if dst == Loc.MZONE:
        side = d.players[card.controller]
        assert seq is not None and side.mzone[seq] is None, f"zone {seq} is not free"
        side.mzone[seq] = card
        card.seq = seq
        card.pos = pos or Pos.ATTACK
    elif dst == Loc.SZONE:
        side = d.players[card.controller]
        assert seq is not None and side.szone[seq] is None, f"zone {seq} is not free"
        side.szone[seq] = card
        card.seq = seq
    elif pile is not None:  # (an Xyz Material is kept by its Xyz monster; a Token is gone)
        if top:
            pile.append(card)
        else:
            pile.insert(0, card)
        card.seq = 0


def _remember(d: DuelState, card: CardInst, dst: Loc, face_up: bool, reveal: bool, was_face_up: bool) -> None:
    """Who knows the card where it went: nobody in a Deck; both players when revealed; a card
    both saw face-up is still known when it goes face-down or into a hand."""
    if dst == Loc.DECK:
        d.known[0].discard(card.uid)
        d.known[1].discard(card.uid)
    elif reveal:
        d.reveal([card], (0, 1))
    elif was_face_up and not face_up:
        for viewer in (0, 1):
            if not card.seen_by(viewer):
                d.known[viewer].add(card.uid)


def _after_leaving(d: DuelState, card: CardInst) -> None:
    """R-CARD-8 and bindings: what a card leaving the field takes with it."""
    for equip in list(card.equips):
        equip.equip_target = None
        if equip.loc == Loc.SZONE:
            destroy(d, [equip], by="rule", reason="its equipped monster left the field (R-CARD-8)")
            equip.lost_monster = (card.uid, card.moves, equip.moves)  # (Necklace of Command)
    card.equips = []
    if card.equip_target is not None:
        card.left_equipped = (card.equip_target.uid, card.equip_target.moves)
        _unequip(d, card)
    else:
        card.left_equipped = None  # (it left unequipped: the filter `left_equipped`, Kiryu's `equipped`, read its last leave)


def _break_pair(d: DuelState, card: CardInst, partner: CardInst, destroyed: bool, live: bool) -> None:
    """Call of the Haunted and its monster: the Trap leaving the field destroys the monster
    (Premature Burial: only if it was destroyed); the monster destroyed destroys the Trap. A
    monster that leaves otherwise (Tributed, bounced) leaves the Trap on the field, and a
    negated Trap destroys nothing (R-CARD-10)."""
    card.bound = partner.bound = None
    binder = card if card.binding else partner
    mode, binder.binding = binder.binding, ""
    if not live or not partner.loc.on_field:
        return
    if mode == "follows":  # one way: the card bound leaving destroys the binder, never the reverse (Mask of Dispel)
        if binder is partner:
            destroy(d, [partner], by="effect", source=partner, reason=f"{card.name} left the field")
        return
    if binder is card and (mode in ("leaves", "this_leaves") or destroyed):
        destroy(d, [partner], by="effect", source=card, reason=f"{card.name} left the field")
    elif binder is partner and destroyed and mode != "this_leaves":  # (Ninjitsu Art of Transformation stays)
        destroy(d, [partner], by="effect", source=partner, reason=f"{card.name} was destroyed")


def _unequip(d: DuelState, card: CardInst) -> None:
    monster = card.equip_target
    assert monster is not None
    if card in monster.equips:
        monster.equips.remove(card)
    card.equip_target = None
    if monster.held_by == card.uid and monster.loc == Loc.MZONE:
        # control lasted while this card was equipped (Snatch Steal, Dark Necrofear), not another's: without
        # it the monster is its owner's — unless a control "until the End Phase" applies now (then it goes
        # home in that End Phase: R-TERM-5)
        other = next((e for e in reversed(monster.equips) if e.loc == Loc.SZONE and gives_control(e)), None)
        monster.held_by = None if other is None else other.uid  # (another Snatch Steal still equipped: its control)
        if monster.brainwashed_from is not None:  # (kept home by Remove Brainwashing: the taking effect ended underneath)
            monster.brainwashed_from = None if other is None else other.controller
        home = monster.owner if other is None else other.controller
        if monster.original_controller is not None and monster.control_until == d.turn:
            monster.original_controller = home
        elif monster.controller != home:
            monster.original_controller = home
            return_control(d, monster)


def gives_control(card: CardInst) -> bool:
    """An Equip Card whose controller controls the equipped monster while it is equipped (Snatch Steal)."""
    return any(op.op == "take_control" and op.params.until == "while_equipped" for e in card.effects for op in e.do)


def destroy(d: DuelState, cards: Iterable[CardInst], *, by: DestroyedBy, source: CardInst | None = None, reason: str = "",
            to: Loc = Loc.GY, as_from: dict[int, Loc] | None = None) -> None:
    """R-TERM-1: destroyed cards go to their owners' GYs (`to`: banished instead, Bottomless
    Trap Hole). `by`: "battle", "effect" (a card's effect), or "rule" (the game rules: an
    Equip Card whose monster left, R-CARD-8 — "destroyed by a card effect" does not apply).
    Cards destroyed together leave at the same moment: a card that banishes others "instead" still
    applies to those destroyed with it (D.D. Crazy Beast and the monster it destroys by battle
    destroying each other), so where each goes is known before the first moves."""
    cards = list(cards)
    together = {c.uid for c in cards if to == Loc.GY and len(cards) > 1 and "banish_instead" in d.index.flags
                and c.loc.on_field and banished_instead(d, c)}
    # Grave Protector: a monster destroyed by battle is shuffled into the Deck instead (asked before any moves, as `together`)
    # — unless it is banished instead (Banisher of the Light wins: the Netrep rulings of Grave Protector)
    to_deck = {c.uid for c in cards if by == "battle" and to == Loc.GY and "battle_destroyed_to_deck" in d.index.flags
               and c.loc == Loc.MZONE and has_flag(d, c, "battle_destroyed_to_deck")
               and not ("banish_instead" in d.index.flags and banished_instead(d, c))}
    negated = {c.uid for c in cards if by == "battle" and d.attack is not None and "negates_battle_victims" in d.index.flags
               and battle_victim_negated(d, c, d.attack.target if c is d.attack.attacker else d.attack.attacker)} \
        if by == "battle" else set()
    if by == "battle" and ("negates_battle_destroyed" in d.index.flags or d.battle_flags_turn == d.turn):  # Ancient Gear Beast: negated in the GY too
        negated |= {c.uid for c in cards if c.battle_destroyed and battle_negated(d, c)}
    for card in cards:
        if not card.loc.on_field and card.loc not in (Loc.HAND, Loc.DECK):
            continue  # cards in the hand or Deck can be destroyed too (Chain Destruction)
        if by == "effect" and source is not None and card.loc.on_field and "cannot_be_destroyed_by" in d.index.flags \
                and _immune(immune_kinds(d, card), source, card):
            d.emit(Note(f"{card.name} cannot be destroyed by the effect of {source.name}"))
            continue  # Exodia Necross: "cannot be destroyed by Spell/Trap effects"
        if d.shield_counters and by != "rule" and card.loc.on_field \
                and (shield := next((n for n in sorted(d.shield_counters) if card.counters.get(n)), None)) is not None:
            card.counters[shield] -= 1  # "If it would ever be destroyed, remove the counter instead" (Magic Reflector)
            card.battle_destroyed = False
            d.emit(Note(f"{card.name} is not destroyed: 1 {shield} is removed instead ({card.counters[shield]} left)"))
            continue
        if by == "effect" and d.resolving and d.chain and card.uid in d.chain[-1].spared:
            d.emit(Note(f"{card.name} cannot be destroyed by this effect of {d.chain[-1].card.name}"))
            continue  # White Hole: "cannot be destroyed by that \"Dark Hole's\" effect"
        if by != "rule" and card.loc == Loc.MZONE and d.index.continuous_count:
            instead = destroyed_instead(d, card, by)  # a Union: "destroy this card instead"
            if instead is not None:
                card.battle_destroyed = False
                destroy(d, [instead], by="effect", source=instead, reason=f"destroyed instead of {card.name}")
                continue
        d.emit(Destroyed(card.uid, card.name, card.owner, by))
        origin = as_from.get(card.uid) if as_from else None  # (see `move`)
        src = origin or card.loc
        # whose card destroyed it: the other battler's controller, or the effect's controller
        culprit = 1 - card.controller if by == "battle" else source.controller if source is not None else None
        if by == "battle" and d.attack is not None:
            source = d.attack.target if card is d.attack.attacker else d.attack.attacker
        sender = culprit if by == "effect" else None  # ("sent … by a card effect": not by battle or the rules)
        face_down = card.loc.on_field and not card.face_up  # ("When this face-down card is destroyed": Statue of the Wicked)
        if card.uid in together:
            move(d, card, Loc.BANISHED, reason=f"{reason or by}, banished instead", destroyed=True, as_from=origin, by=sender)
        elif card.uid in to_deck:
            move(d, card, Loc.DECK, face_up=False, reason=f"{reason or by}, shuffled into the Deck instead", destroyed=True,
                 as_from=origin, by=sender)
            if card.loc == Loc.DECK:  # (an Extra Deck monster went to the Extra Deck)
                d.shuffle(card.owner)
        else:
            move(d, card, to, reason=reason or by, quiet=to == Loc.GY, destroyed=True, as_from=origin, by=sender)
        if card.uid in negated:
            card.negated_at = card.moves
            d.emit(Note(f"{card.name}'s effects are negated: it was destroyed by battle"))
        if by == "battle":
            card.battle_sent_at = card.moves  # (the filter `sent_by_battle`: until it moves again)
        if by == "battle" and source is not None:
            source.defeated = (*(x for x in source.defeated if x[2] == d.turn), (card, card.moves, d.turn))
            if source.loc == Loc.MZONE and source.face_up:
                source.battle_wins += 1  # (Great Dezard: "destroys the following number of monsters as a result of battle")
        if d.index.responders:  # after the move: a trigger is lost if the card moves again (R-CHAIN-10)
            d.signal("destroyed", card, card.owner, src=src, by_battle=by == "battle", by_player=culprit, by_card=source,
                     how="face_down" if face_down else "")
            if by in ("battle", "effect"):
                d.signal(f"destroyed_by_{by}", card, card.owner, src=src, by_player=culprit, by_card=source)


def _kind_word(card: CardInst) -> str:
    return "monster" if card.is_monster else "spell" if card.is_spell else "trap"


def _immune(kinds: set[str], source: CardInst, card: CardInst) -> bool:
    """Exodia Necross: the kind of the destroying card; Pandemonium Watchbear: whose card it is ("opponent")."""
    return _kind_word(source) in kinds or ("opponent" in kinds and source.controller != card.controller)


def immune_kinds(d: DuelState, card: CardInst) -> set[str]:
    """The kinds of cards whose effects cannot destroy `card` (a continuous `cannot_be_destroyed_by` that applies to it)."""
    kinds: set[str] = set()
    for source, effect in sources(d):
        spec = effect.continuous
        if spec is not None and spec.cannot_be_destroyed_by and applies(d, source, spec, card):
            kinds.update(spec.cannot_be_destroyed_by)
    return kinds


def send_to_gy(d: DuelState, cards: Iterable[CardInst], *, reason: str, as_from: dict[int, Loc] | None = None,
               by: int | None = None) -> None:
    for card in list(cards):
        move(d, card, Loc.GY, reason=reason, as_from=as_from.get(card.uid) if as_from else None, by=by)


def discard(d: DuelState, cards: Iterable[CardInst], *, cost: bool = False, by: int | None = None) -> None:
    """R-TERM-13: from the hand to the GY; one discard event is one trigger moment (R-TERM-12).
    `by`: the player whose card's effect makes it discard (None: a cost, the hand limit)."""
    for card in list(cards):
        if card.loc == Loc.HAND:
            move(d, card, Loc.GY, reason=Reason.DISCARD, by=by)
            d.signal("discarded", card, card.owner, by_player=by)


def end_while_this_face_up(d: DuelState, source: CardInst) -> None:
    """`source` leaves the field or turns face-down: the changes its effects made "as long as this
    card is face-up on the field" end for good (Castle of Dark Illusions' Zombies)."""
    for side in d.players:
        for monster in side.mzone:
            if monster is not None and monster.modifiers and any(_ends_with(m, source) for m in monster.modifiers):
                monster.modifiers = [m for m in monster.modifiers if not _ends_with(m, source)]


def _ends_with(m: Modifier, source: CardInst) -> bool:
    """A change that ends as `source` leaves the field or turns face-down (Castle of Dark Illusions; Weapon Change's
    `ends_with_this`)."""
    return m.source == source.uid and (m.until == "while_this_face_up" or "ends_with_this" in m.flags)


def set_position(d: DuelState, card: CardInst, to: str, *, flip_effects: bool = True) -> None:
    """An effect changes a monster's battle position (face-down Defense by Book of Moon …)."""
    old = card.pos
    if to == "toggle":
        new = Pos.DEFENSE if old == Pos.ATTACK else Pos.ATTACK
    elif to == "face_up":
        new = Pos.DEFENSE if old == Pos.FACEDOWN_DEFENSE else Pos.ATTACK if old == Pos.FACEDOWN_ATTACK else old
    else:
        new = {"attack": Pos.ATTACK, "defense": Pos.DEFENSE, "facedown": Pos.FACEDOWN_DEFENSE,
               "facedown_same": Pos.FACEDOWN_ATTACK if old.is_attack else Pos.FACEDOWN_DEFENSE}[to]
    if card.is_link and new != Pos.ATTACK:
        return  # R-SUMMON-16: Link monsters are always face-up Attack Position
    if card.is_token and not new.face_up:
        return  # R-CARD-11: Tokens are always face-up
    if not new.face_up and card.face_up and d.index.continuous_count and monster_sets_forbidden(d) is not None:
        return  # Light of Intervention: "Monster Cards cannot be … flipped face-down"
    if new == old:
        return
    if card.trap_data is not None and not new.face_up:
        _trap_monster_set(d, card)  # (Embodiment of Apophis turned face-down: back to its Spell & Trap Zone)
        return
    was_face_up = card.face_up
    card.pos = new
    card.face_up = new.face_up
    if not was_face_up and card.face_up:
        card.flipped_turn = d.turn
        card.face_up_at = d.batch
        d.emit(Flip(card.uid, card.name, new))
        if flip_effects:  # (Ceasefire flips without them)
            d.signal("flipped", card, card.controller)
    else:
        # (turned face-down, it is named still: everyone saw it face-up — "Kycoo the Ghost Destroyer changed to …")
        d.emit(PositionChange(card.uid, card.name if card.face_up or was_face_up else None, old, new))
        if old == Pos.ATTACK and new == Pos.DEFENSE:
            d.signal("changed_to_defense", card, card.controller)
    if new == Pos.ATTACK and old in (Pos.DEFENSE, Pos.FACEDOWN_DEFENSE):
        d.signal("changed_to_attack", card, card.controller)  # from Defense Position, face-up or face-down (Crass Clown)
    if was_face_up and not card.face_up:
        end_while_this_face_up(d, card)
        if card.used_turn:  # "once as long as this card remains face-up on the field" counts anew (Ameba, Kazejin)
            card.used_turn = {i: t for i, t in card.used_turn.items() if i < 0 or card.effects[i].once_per_turn != "while_here"}
        d.reveal([card], (0, 1))  # both saw it before it turned face-down
        # (a change by an effect is not the monster's position change for the turn: R-SUMMON-4/5)
        card.counters = {}  # R-CARD-12
        card.battle_wins = 0
        card.modifiers = []
        card.gemini_active = False  # a Gemini is a Normal Monster again (R-CARD-6)
        if card.held_by is not None:  # control while an Equip Card is equipped (Snatch Steal) is not lost with it:
            card.held_by = None  # turned face-down, the monster stays where it is
        release_held(d, card)
        if card.bound is not None:  # no longer the monster a Continuous/Equip card's lasting effect applies to
            partner = card.bound  # (Call of the Haunted, Premature Burial: OCG Perfect Rulebook 2017 pp. 168-169)
            card.bound = partner.bound = None
            card.binding = partner.binding = ""
        for equip in list(card.equips):  # R-CARD-8
            destroy(d, [equip], by="rule", reason="its equipped monster turned face-down (R-CARD-8)")


def arrived(d: DuelState, card: CardInst) -> None:
    """A card that comes to match the filter of a turn-long `modify` with `later_arrivals` gets its change too (Cost Down:
    "all monsters in your hand" — those added to the hand later this turn as well; the EDOPro script and the OCG ruling)."""
    for player, where, source, mod, turn in d.arrivals:
        if turn == d.turn and matches(d, card, where, player, source) and not any(m is mod for m in card.modifiers):
            card.modifiers.append(mod)


def equip(d: DuelState, equip: CardInst, monster: CardInst, by: int = 0) -> None:
    """`by`: the uid of the card whose effect equips it (a Union by its own effect or by Union Rider's)."""
    if equip.equip_target is not None and equip in equip.equip_target.equips:
        equip.equip_target.equips.remove(equip)
    equip.equip_target = monster
    equip.equipped_by = by
    monster.equips.append(equip)
    equip.active = True
    d.emit(Note(f"{equip.name} is equipped to {monster.name}"))
    d.signal("equipped", monster, monster.controller)  # about the monster (Gearfried the Iron Knight)
    d.signal("equips", equip, equip.controller)  # about the Equip Card (Morale Boost)


def release_held(d: DuelState, holder: CardInst) -> None:
    """The monsters `holder` took control of "while this card is face-up on the field" (the
    Charmers) go back once it leaves the field or turns face-down."""
    for side in d.players:
        for monster in side.mzone:
            if monster is not None and monster.held_by == holder.uid and monster is not holder and monster.equip_target is None:
                monster.held_by = None
                if monster.original_controller is None:
                    monster.original_controller = monster.owner
                return_control(d, monster)


def return_control(d: DuelState, card: CardInst) -> None:
    """R-TERM-5: a monster whose control was taken goes back to its controller's field (an Equip
    Card's control that still applies stays: Snatch Steal's, after Change of Heart's has ended)."""
    owner = card.original_controller
    assert owner is not None
    card.brainwashed_from = None  # (the taking effect ended: nothing to give back once Remove Brainwashing leaves)
    if owner == card.controller:
        card.original_controller = None
        return
    zone = d.players[owner].free_mzone()
    if zone is None:
        card.original_controller = card.held_by = None
        send_to_gy(d, [card], reason="no zone to return to")
        return
    d.players[card.controller].mzone[card.seq] = None
    d.players[owner].mzone[zone] = card
    d.players[card.controller].layout += 1
    d.players[owner].layout += 1
    before = card.controller
    card.seq, card.controller, card.original_controller = zone, owner, None
    card.moves += 1
    d.emit(Note(f"{card.name} returns to {d.names[owner]}'s control"))
    d.signal("control_changed", card, before)


def spell_zone_for(d: DuelState, p: int, card: CardInst) -> int:
    """The zone a Spell/Trap from `p`'s hand goes to (R-ZONE-2); a Field Spell takes the Field
    Zone and sends the Field Spell already there to the GY (R-ZONE-3: it is not destroyed)."""
    side = d.players[p]
    if card.is_field_spell:
        old = side.szone[FIELD_ZONE]
        if old is not None:
            move(d, old, Loc.GY, reason="replaced Field Spell")
        return FIELD_ZONE
    zone = side.free_szone()
    assert zone is not None, "legality checks a free zone first"
    return zone


def set_spell_trap(d: DuelState, p: int, card: CardInst) -> None:
    """R-ZONE-2/3: Set face-down; a Field Spell replaces the old one, which goes to the GY."""
    zone = spell_zone_for(d, p, card)
    move(d, card, Loc.SZONE, seq=zone, face_up=False, quiet=True)
    card.set_turn = d.turn
    d.emit(SetCard(p, card.uid, card.name, Loc.SZONE, zone))
    if d.signals:  # nothing answers a Set, but it happened after what waits to be answered: "the last thing" (R-CHAIN-10)
        d.signal("set", card, p)


def enforce_positions(d: DuelState) -> None:
    """Monsters a position-forcing card covers change position at once; this is not an
    activated effect, so it starts no chain (R-CARD-10)."""
    for side in d.players:
        for card in side.mzone:
            if card is not None and card.pos == Pos.ATTACK and forced_position(d, card) is not None:
                set_position(d, card, "defense")
            elif card is not None and card.face_up and card.pos == Pos.DEFENSE and forced_position(d, card, "attack") is not None:
                set_position(d, card, "attack")  # a face-up Defense monster only: a Set one is not flipped (Insect Princess)
    if "destroyed_unless" in d.index.flags:  # Exodia Necross: "destroy this card unless all 5 … are in your GY"
        for source, effect in list(sources(d)):
            spec = effect.continuous
            # a monster, or a face-up Spell/Trap whose activation has resolved ("Destroy this card if there is no Archfiend
            # card on your side of the field": Falling Down)
            here = source.loc == Loc.MZONE or (source.loc == Loc.SZONE and source.face_up and source.active)
            if spec is not None and spec.destroyed_unless is not None and here \
                    and not condition_holds(d, source, spec.destroyed_unless):
                destroy(d, [source], by="effect", source=source, reason="its own effect: its condition no longer holds")
    if "decks_upside_down" in d.index.flags:
        _turn_decks(d)
    if "trap_monster" in d.index.flags:  # a Trap Monster whose Trap effect is negated (Jinzo) returns to its Spell & Trap Zone
        for card in [c for side in d.players for c in side.mzone if c is not None and c.trap_data is not None]:
            if card.face_up and effects_negated(d, card):
                _trap_monster_set(d, card, face_up=True)
    if "destroys_same_names" in d.index.flags:
        _destroy_same_names(d)
    if "only_one" in d.index.flags:
        _destroy_second_copies(d)
    if "one_type_per_player" in d.index.flags:
        _one_type_per_player(d)
    if "control_to_owners" in d.index.flags:
        _control_to_owners(d)
    if "destroyed_in_defense" not in d.index.flags:
        return
    doomed = [card for side in d.players for card in side.mzone  # Berserk Gorilla: "if this card is in face-up Defense Position, destroy this card"
              if card is not None and card.face_up and card.pos == Pos.DEFENSE and has_flag(d, card, "destroyed_in_defense")]
    for card in doomed:
        destroy(d, [card], by="effect", source=card, reason="its own effect: it is in face-up Defense Position")


def _control_to_owners(d: DuelState) -> None:
    """Remove Brainwashing: while it applies, each monster on the field is its owner's — moved there at once (no chain),
    its taker remembered; once it no longer applies, a monster whose taking effect still lasts goes back to its taker
    (`return_control` and `_unequip` forget the taker when that effect ends)."""
    active = source_with(d, "control_to_owners", lambda source, spec: True) is not None
    monsters = [c for side in d.players for c in side.mzone if c is not None and c.seq < 5]
    for card in monsters:
        if active and card.controller != card.owner and d.players[card.owner].free_mzone() is not None:
            card.brainwashed_from = card.controller
            _shift_control(d, card, card.owner)
        elif not active and card.brainwashed_from is not None:
            taker, card.brainwashed_from = card.brainwashed_from, None
            if taker != card.controller and d.players[taker].free_mzone() is not None:
                _shift_control(d, card, taker)


def _shift_control(d: DuelState, card: CardInst, to: int) -> None:
    """Move a monster to `to`'s field without ending the effect that gave its control (Remove Brainwashing)."""
    zone = d.players[to].free_mzone()
    assert zone is not None
    before = card.controller
    d.players[before].mzone[card.seq] = None
    d.players[to].mzone[zone] = card
    d.players[before].layout += 1
    d.players[to].layout += 1
    card.seq, card.controller = zone, to
    card.moves += 1
    d.emit(Note(f"{card.name} goes to {d.names[to]}'s control"))
    d.signal("control_changed", card, before)


def _one_type_per_player(d: DuelState) -> None:
    """Rivalry of Warlords: a player who controls face-up monsters of 2 or more Types anyway (a Set one flipped face-up,
    one given by a change of control) keeps the Type that was face-up on their side first; the others go to the GY at
    once, by the rules (no chain, R-CARD-13)."""
    if source_with(d, "one_type_per_player", lambda source, spec: True) is None:
        return
    for side in d.players:
        up = [c for c in side.mzone if c is not None and c.face_up]
        if len({c.monster.type for c in up}) < 2:
            continue
        keep = min(up, key=lambda c: (c.face_up_at, c.arrived_at)).monster.type
        send_to_gy(d, [c for c in up if c.monster.type != keep],
                   reason="each player can only have 1 Type of monster on the field (R-CARD-13)")
def destroy_drawn(d: DuelState, cards: list[CardInst], p: int) -> None:
    """Player `p` drew `cards`: those an opponent's card's `destroys_drawn` matches are shown and destroyed at once
    (Deck Devastation Virus, for the turns it lasts); a card turned face-up in the Deck meets its fate (Grave Lure); an
    opponent's `shows_drawn` shows them to its controller first (Pikeru's Second Sight)."""
    if d.deck_marks:
        _drawn_face_up(d, cards, p)
    if "shows_drawn" in d.index.flags:
        for card in cards:
            shower = source_with(d, "shows_drawn", lambda source, _: source.controller != p and card.loc == Loc.HAND)
            if shower is not None:
                d.reveal([card], (shower.controller,))
                d.emit(Note(f"{shower.name}: {d.names[p]} shows the card they drew to {d.names[shower.controller]}",
                            private_to=shower.controller, secret=card.name))
    if "destroys_drawn" not in d.index.flags:
        return
    for card in cards:
        source = source_with(d, "destroys_drawn", lambda source, spec: source.controller != p and card.loc == Loc.HAND
                             and matches(d, card, spec.destroys_drawn, source.controller, source))  # type: ignore[arg-type]
        if source is not None:
            d.reveal([card], (0, 1))
            d.emit(Note(f"{source.name}: {d.names[p]} drew {card.name}, which is destroyed"))
            destroy(d, [card], by="effect", source=source)


def _drawn_face_up(d: DuelState, cards: list[CardInst], p: int) -> None:
    """"When your opponent draws the face-up card, immediately send it to the Graveyard" (op face_up_in_deck): at once, no
    chain; a mark is forgotten once its card has left the Deck some other way."""
    for card in cards:
        mark = d.deck_marks.pop(card.uid, None)
        if mark is not None and mark[0] == card.moves and card.loc == Loc.HAND and mark[1] == "send_to_gy":
            d.reveal([card], (0, 1))
            d.emit(Note(f"{mark[2]}: {d.names[p]} drew the face-up {card.name}, which is sent to the GY"))
            move(d, card, Loc.GY, reason=Reason.EFFECT, by=mark[3])
        elif mark is not None and mark[0] == card.moves and card.loc == Loc.HAND and mark[1] == "trigger":
            d.reveal([card], (0, 1))
            d.emit(Note(f"{d.names[p]} drew the face-up {card.name}"))
            d.signal("drawn_face_up", card, p)  # (its trigger in the hand answers: Pharaoh's Treasure)
    for uid, mark in list(d.deck_marks.items()):
        card = d.cards[uid]
        if card.loc != Loc.DECK or card.moves != mark[0]:
            del d.deck_marks[uid]


def _turn_decks(d: DuelState) -> None:
    """"Both players must turn their respective Decks upside down" (continuous decks_upside_down: Convulsion of Nature): as
    the first such card applies, each Deck is turned over — its bottom card becomes the top one, face-up, known to both
    players; as the last stops applying, they are turned back. Not an activated effect: no chain (R-CARD-10)."""
    upside_down = source_with(d, "decks_upside_down", lambda source, spec: True) is not None
    if upside_down != d.decks_upside_down:
        d.decks_upside_down = upside_down
        for p, side in enumerate(d.players):
            side.deck.reverse()
            side.layout += 1
            d.emit(Note(f"{d.names[p]}'s Deck is turned {'upside down' if upside_down else 'back face-down'}"))
    if upside_down or d.deck_marks:
        # only each Deck's top card shows: the cards under it stay unknown (a card turned face-up in a Deck by its own
        # effect, Grave Lure's, shows wherever it is) — an AI must not read the whole Deck's order
        for side in d.players:
            for i, card in enumerate(side.deck):
                card.face_up = (upside_down and i == len(side.deck) - 1) or d.deck_marks.get(card.uid, (-1,))[0] == card.moves
    if upside_down:
        d.reveal([side.deck[-1] for side in d.players if side.deck], (0, 1))


def _destroy_second_copies(d: DuelState) -> None:
    """"You can only control 1 face-up \"Gravekeeper's Chief\"" (`only_one`): a player who controls 2 anyway — a Set
    one flipped face-up by an attack or an effect, one given by Creature Swap — keeps the one that was theirs and
    face-up first; the others are destroyed at once, by the rules (no chain, R-CARD-13)."""
    for side in d.players:
        by_name: dict[str, list[CardInst]] = {}
        for card in side.mzone:
            mode = getattr(card.data, "only_one", None) if card is not None else None
            if card is not None and mode is not None and (mode == "any" or card.face_up):
                by_name.setdefault(card.name, []).append(card)
        for cards in by_name.values():
            if len(cards) > 1:
                cards.sort(key=lambda c: (c.controller != c.owner, c.face_up_at, c.arrived_at))
                destroy(d, cards[1:], by="rule", reason=f"its controller can only control 1 \"{cards[0].name}\" (R-CARD-13)")


def _destroy_same_names(d: DuelState) -> None:
    """Kotodama: while it applies, face-up monsters that share a name with another face-up monster are destroyed — those
    that became face-up last; when all of them became face-up at the same moment, all of them; and all of them when
    several were already face-up as Kotodama itself became face-up (the OCG ruling). Not an activated effect: no chain
    (R-CARD-10)."""
    source = next((s for s, e in sources(d) if e.continuous is not None and e.continuous.destroys_same_names
                   and s.loc == Loc.MZONE), None)
    if source is None:
        return
    by_name: dict[str, list[CardInst]] = {}
    for side in d.players:
        for card in side.mzone:
            if card is not None and card.face_up:
                by_name.setdefault(card.name, []).append(card)
    doomed: list[CardInst] = []
    for cards in by_name.values():
        if len(cards) < 2:
            continue
        if sum(1 for c in cards if c.face_up_at <= source.face_up_at) > 1:
            doomed += cards  # (already there together as Kotodama arrived)
            continue
        first = min(c.face_up_at for c in cards)
        old = [c for c in cards if c.face_up_at == first]
        doomed += cards if len(old) > 1 else [c for c in cards if c.face_up_at != first]
    if doomed:
        destroy(d, doomed, by="effect", source=source, reason=f"{source.name}: face-up monsters with the same name")
