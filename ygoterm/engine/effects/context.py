"""The selection language at resolution: what an operation knows (`Ctx`: the duel, the chain
link, the card, who controls the effect, what it chose) and how a selection names cards —
words such as `self`, `target`, `event`, `chosen` (docs/cards.md), `all:` filters and
`choose:` questions (`Choose`, a frame that asks). Targets are checked again as the link
resolves (R-CHAIN-6)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...schema import effects as fx
from ...schema.effects import Effect
from ..board.continuous import SHIELDS, has_flag, unaffected_by_opponent_monster, unaffected_by_spell
from ..board.filters import hidden_face_down, level_total_reachable, matches, select, union_partners, variant
from ..board.labels import card_options
from ..core.decision import DecisionVerb, Kind, Option
from ..core.machine import Frame, Next, Return
from ..core.types import Loc
from ..state.card import CardInst
from ..state.copying import copied_by_slots
from ..state.duel_state import DuelState
from ..state.links import ChainLink


@copied_by_slots
@dataclass(slots=True)
class Ctx:
    """What an operation knows: the duel, the chain link, who controls the effect.

    Frames of pending operations hold it, so it is copied with them (`copied_by_slots`: its
    duel is remapped to the copy, its cards and link to the copy's)."""

    d: DuelState
    link: ChainLink
    player: int
    card: CardInst
    effect: Effect
    chosen: list[CardInst] = field(default_factory=list)
    cost: bool = False
    discarded: dict[int, int] = field(default_factory=dict)  # player → cards this effect made them discard
    others: list[CardInst] = field(default_factory=list)  # chosen before a choice `among: chosen`, not picked by it
    done: bool = True  # whether the last operation did what it says ("…, and if you do, …": op if_you_do)
    affected: list[CardInst] = field(default_factory=list)  # the cards the last moving operation moved
    atk_lost: int = 0  # the ATK the last `modify` took from the monsters it changed (the amount atk_lost: Riryoku)
    from_top: list[CardInst] = field(default_factory=list)  # revealed from the top of a Deck (reveal_until): taken from there, the Deck was not searched (R-ZONE-7)

    @property
    def by(self) -> int | None:
        """Whose card's effect moves the cards this operation moves (for "sent … by an opponent's card
        effect": Elephant Statue of Blessing); None while paying a cost, which is no effect (R-TERM-4)."""
        return None if self.cost else self.player

    def players(self, who: fx.Player) -> list[int]:
        p = self.player
        return {"you": [p], "opponent": [1 - p], "each": [p, 1 - p], "owner": [self.card.owner],
                "controller": [self.card.controller],
                "event_player": [self.link.signal.player, *self.link.signal.players] if self.link.signal else [1 - p],
                "destroyer": [self.link.signal.by if self.link.signal and self.link.signal.by is not None else 1 - p],
                "roll_loser": [self.link.roll_loser] if self.link.roll_loser is not None else []}[who]

    def targets(self) -> list[CardInst]:
        """R-CHAIN-6: the targets that were still valid when the link began to resolve and have
        not moved since (a target flipped face-up by this effect is still its target)."""
        if self.link.resolving_targets is None:
            return valid_targets(self.d, self.link)
        return [c for c, moves in self.link.resolving_targets if c.moves == moves]

    def event_cards(self) -> list[CardInst]:
        return self.link.event_cards

    def cards(self, selection: fx.Ref | fx.AllOf | fx.ChooseOf | fx.CopiesOf | None, *, verb: DecisionVerb = "select") -> "list[CardInst] | Frame":
        """The cards a selection names; when it says `choose` and a player must answer, a
        `Choose` frame whose result is the chosen cards. A Spell Card's effect leaves out the
        monsters it cannot affect (`unaffected_by_spells`: Horus the Black Flame Dragon LV6)."""
        found = self._cards(selection, verb=verb)
        if isinstance(found, list) and found and self.spell_effect():
            found = [c for c in found if not unaffected_by_spell(self.d, c, self.player)]
        if isinstance(found, list) and found and self.monster_effect():
            found = [c for c in found if not unaffected_by_opponent_monster(self.d, c, self.player)]
        return found

    def monster_effect(self) -> bool:
        """Whether this is a monster's effect (not paying its cost) on a duel where some monster may be unaffected by the
        opponent's monster effects (Lone Wolf)."""
        return "unaffected_by_opponent_monsters" in self.d.index.flags and not self.cost and self.card.is_monster

    def spell_effect(self) -> bool:
        """Whether this is a Spell Card's effect (not paying its cost) on a duel where some monster may be unaffected by it."""
        return not self.cost and self.card.is_spell and bool(self.d.index.flags & SHIELDS)

    def _cards(self, selection: fx.Ref | fx.AllOf | fx.ChooseOf | fx.CopiesOf | None, *, verb: DecisionVerb = "select") -> "list[CardInst] | Frame":
        d = self.d
        if isinstance(selection, str):
            if selection == "self":
                return [self.card]
            if selection in ("target", "targets"):
                return self.targets()
            if selection in ("first_target", "second_target"):  # one target group by its place (Mysterious Guard)
                group, valid = (0 if selection == "first_target" else 1), self.targets()
                return [c for c, g in zip(self.link.targets, self.link.target_groups) if g == group and c in valid]
            if selection == "event":
                return self.event_cards()
            if selection == "equipped":
                if self.card.equip_target is None and self.card.left_equipped is not None and not self.card.loc.on_field:
                    monster, moves = d.cards[self.card.left_equipped[0]], self.card.left_equipped[1]
                    return [monster] if monster.moves == moves else []  # the one it was equipped to as it left (Kiryu)
                return [self.card.equip_target] if self.card.equip_target else []
            if selection == "lost_equipped":  # destroyed because its monster left the field (R-CARD-8): that monster (Nitro Unit)
                lost = self.card.lost_monster
                if lost is None or lost[2] != self.card.moves or self.card.loc.on_field:
                    return []
                monster = d.cards[lost[0]]
                return [monster] if monster.moves == lost[1] else []
            if selection == "bound":
                return [self.card.bound] if self.card.bound else []
            if selection == "chosen":
                return list(self.chosen)
            if selection == "chain_card":
                return [self.link.answers.card] if self.link.answers else []
            if selection == "chain_targets":  # that link's targets still where they were ("the targeted monster": Dramatic Rescue)
                link = self.link.answers
                return [c for c, moves in zip(link.targets, link.target_moves) if c.moves == moves] if link else []
            if selection == "attacker":
                return [d.attack.attacker] if d.attack else []
            if selection == "attack_target":
                return [d.attack.target] if d.attack and d.attack.target else []
            if selection == "others":
                return list(self.others)
            if selection == "affected":
                return list(self.affected)
            if selection == "equips":
                return list(self.card.equips)
            if selection == "remembered":  # what its `remember` kept, not moved since (Different Dimension Gate)
                return [c for uid, moves in self.card.remembered if (c := d.cards[uid]).moves == moves]
            if selection == "tributes":  # the monsters Tributed for its Tribute Summon, not moved since (Guardian Tryce)
                return [c for uid, moves in self.card.tributed if (c := d.cards[uid]).moves == moves]
            if selection == "defeated":
                return [c for c, moves, turn in self.card.defeated if turn == d.turn and c.moves == moves and c.loc == Loc.GY]
            if selection == "battling":  # the other monster in this card's battle
                a = d.attack
                if a is None or a.target is None or self.card not in (a.attacker, a.target):
                    return []
                return [a.target if self.card is a.attacker else a.attacker]
            return []
        if isinstance(selection, fx.AllOf):
            return self.related(selection.all, select(d, selection.all, self.player, self.card, self.link.event_group or self.event_cards()))
        if isinstance(selection, fx.ChooseOf):
            spec = selection.choose
            if spec.among == "chosen":
                candidates = [c for c in self.chosen if matches(d, c, spec.where, self.player, self.card)]
            else:
                candidates = select(d, spec.where, self.player, self.card, self.link.event_group or self.event_cards())
            candidates = self.related(spec.where, candidates)
            if verb == "tribute":  # R-TERM-3: a monster that cannot be Tributed is no cost (Mind Control)
                candidates = [c for c in candidates if not has_flag(d, c, "cannot_be_tributed")] + tributable_foes(
                    d, self.player, spec.where, self.card, candidates)
            if self.spell_effect():
                candidates = [c for c in candidates if not unaffected_by_spell(d, c, self.player)]
            if self.monster_effect():
                candidates = [c for c in candidates if not unaffected_by_opponent_monster(d, c, self.player)]
            if spec.pick is not None and candidates:
                candidates = _extreme(d, candidates, spec.pick)
            if spec.level_total is not None:  # whose Levels total exactly that card's Level (The Puppet Magic of Dark Ruler)
                need = next((c.level for c in self.reference(spec.level_total) if c.is_monster and c.monster.level is not None), 0)
                candidates = [c for c in candidates if c.is_monster and c.monster.level is not None]
                if not level_total_reachable([c.level for c in candidates], need):
                    return self.picked([], False)
                return ChooseLevels(self.player if spec.who == "you" else 1 - self.player, candidates, need, verb,
                                    f"{self.card.name}: {verb}", self)
            if spec.how_many:  # "any number of": the player declares how many first (Skull Lair)
                return ChooseHowMany(self.player if spec.who == "you" else 1 - self.player, candidates, verb,
                                     f"{self.card.name}: {verb}", self)
            lo = 1 if spec.count.min is None else spec.count.min  # "0-1": you may choose none
            hi = spec.count.max
            if spec.count_heads:  # Gatling Dragon: as many as the coins showed heads
                lo = hi = self.link.heads
            if spec.count_as is not None:  # Infernal Flame Emperor: as many as the monsters it banished
                lo = hi = len(self.reference(spec.count_as))
                if spec.up_to:  # up to that many (Big Wave Small Wave)
                    lo = 0
            if spec.keep is not None:  # Bubble Crash: all but 5 of them
                lo = hi = max(0, len(candidates) - spec.keep)
            if spec.leave_as_many_as is not None:  # Pineapple Blast: so that as many remain as there are of those
                lo = hi = max(0, len(candidates) - len(select(d, spec.leave_as_many_as, self.player, self.card)))
            if spec.who == "each":  # each player among their own, you first (Major Riot)
                per = self.reference(spec.count_as) if spec.count_as is not None else None
                return ChooseEach(candidates, lo, hi, per, verb, f"{self.card.name}: {verb}", self)
            if spec.distinct_names and not spec.random:  # one at a time, none of a name already chosen (Mustering)
                return ChooseDistinct(self.player if spec.who == "you" else 1 - self.player, candidates, lo, hi, verb,
                                      f"{self.card.name}: {verb}", ctx=self)
            chosen = choose(d, self.player if spec.who == "you" else 1 - self.player, candidates,
                            lo, hi, verb, f"{self.card.name}: {verb}", random=spec.random, look=spec.look)
            if isinstance(chosen, Choose):  # asked: the answer becomes `chosen` when it comes
                chosen.ctx, chosen.among_chosen = self, spec.among == "chosen"
                return chosen
            return self.picked(chosen, spec.among == "chosen")
        if isinstance(selection, fx.CopiesOf):
            copies_of = selection.copies
            originals = self.cards(copies_of.of)  # (a reference, never a choice: a list)
            assert isinstance(originals, list)
            copies: list[CardInst] = []
            for original in originals:
                where = fx.Filter(zone=copies_of.zone, name=(original.data.name,), side="any" if copies_of.side == "each" else "you")
                copies += [c for c in select(d, where, original.controller) if c is not original and c not in copies]
            return copies
        return []

    def related(self, where: fx.Filter, cards: list[CardInst]) -> list[CardInst]:
        """The filter keys that relate a card to one the effect selected before: `in_selection`, `same_level_as`
        (Metamorphosis: a Fusion Monster of the Tributed monster's Level) and `named_in_text_of`
        (Level Up!: a monster the sent monster's text names)."""
        if where.in_selection is not None:  # among the cards of that selection (Hiro's Shadow Scout: the cards just drawn)
            among = self.reference(where.in_selection)
            cards = [c for c in cards if c in among]
        if where.same_level_as is not None:
            # (a monster Tributed or sent from the field: the Level it had there — Demotion's, Cost Down's)
            levels = {(c.field_level or c.level) + (where.level_offset or 0) for c in self.reference(where.same_level_as) if c.is_monster}
            cards = [c for c in cards if c.is_monster and c.monster.level is not None and c.level in levels]
        if where.other_type_than is not None:
            types = {c.monster.type for c in self.reference(where.other_type_than) if c.is_monster}
            cards = [c for c in cards if c.is_monster and c.monster.type not in types]
        if where.named_in_text_of is not None:
            cards = named_in_text_of(cards, self.reference(where.named_in_text_of))
        if where.atk_at_most_of is not None:
            cards = atk_at_most_of(cards, self.reference(where.atk_at_most_of))
        if where.level_at_most_of is not None:  # (Ninjitsu Art of Transformation: the Tributed monster's Level + 3)
            most = max(((c.field_level or c.level) for c in self.reference(where.level_at_most_of)
                        if c.is_monster and c.monster.level is not None), default=None)
            cards = [] if most is None else [c for c in cards if c.is_monster and c.monster.level is not None
                                             and c.level <= most + (where.level_offset or 0)]
        if where.level_below_of is not None:
            cards = level_below_of(cards, self.reference(where.level_below_of), where.level_below_by)
        if where.union_partner_of is not None:  # (Formation Union: "an appropriate monster" of the chosen Union)
            unions = self.reference(where.union_partner_of)
            cards = [c for c in cards if any(c in union_partners(self.d, u, [c]) for u in unions)]
        if where.def_at_most_atk_of is not None:  # (Burst Breath: the ATK the Tributed monster had on the field)
            most = max((o.field_atk if not o.loc.on_field else o.atk for o in self.reference(where.def_at_most_atk_of)
                        if o.is_monster), default=None)
            cards = [] if most is None else [c for c in cards if c.is_monster and c.defense <= most]
        if where.equipped_to is not None:  # an Equip Card equipped to that card (Combination Attack: the Union on its target)
            holders = self.reference(where.equipped_to)
            cards = [c for c in cards if c.equip_target is not None and c.equip_target in holders]
        if where.fusion_material_of is not None:
            cards = fusion_material_of(self.d, cards, self.cards_including_moved(where.fusion_material_of))
        return cards

    def cards_including_moved(self, ref: fx.Ref) -> list[CardInst]:
        """The cards a reference names — `target` even once the targets have moved (De-Fusion reads its Fusion Monster's
        materials after returning it)."""
        if ref == "target":
            return list(self.link.targets)
        return self.reference(ref)

    def reference(self, ref: fx.Ref) -> list[CardInst]:
        """The cards a reference names (a reference never asks: a list)."""
        found = self.cards(ref)
        assert isinstance(found, list)
        return found

    def picked(self, chosen: list[CardInst], among_chosen: bool) -> list[CardInst]:
        """What a `choose` selection chose is the effect's `chosen` from now on."""
        self.others = [c for c in self.chosen if c not in chosen] if among_chosen else []
        self.chosen = chosen
        return chosen


def named_in_text_of(cards: list[CardInst], others: list[CardInst]) -> list[CardInst]:
    """The cards whose name the text of one of `others` lists in quotes — a Fusion Monster's materials too (Level Up!:
    "a monster listed in the sent monster's text"; Centrifugal Field: "1 Fusion Material Monster … listed on that Fusion
    Monster")."""
    texts = [f'{o.data.text or ""} {m.text if (m := getattr(o.data, "materials", None)) is not None else ""}' for o in others]
    return [c for c in cards if any(f'"{c.data.name}"' in text for text in texts)]


def fusion_material_of(d: Any, cards: list[CardInst], fusions: list[CardInst]) -> list[CardInst]:
    """The cards of `cards` that were Fusion Materials of the last Fusion Summon of one of `fusions`, while every one
    of those materials is in the GY, not moved since ("if all the Fusion Materials that were used for its Fusion Summon
    are in your GY": De-Fusion)."""
    used = {entry for fusion in fusions if fusion.fused_from and all(
        (m := d.cards[uid]).moves == moves and m.loc == Loc.GY for uid, moves in fusion.fused_from) for entry in fusion.fused_from}
    return [c for c in cards if (c.uid, c.moves) in used]


def atk_at_most_of(cards: list[CardInst], others: list[CardInst]) -> list[CardInst]:
    """The monsters of `cards` whose ATK is at most the ATK of one of `others` (a monster in the
    hand or GY has its printed ATK): Armed Dragon LV5/LV7's "ATK less than or equal to the sent
    monster's ATK"."""
    most = max((c.atk for c in others if c.is_monster), default=None)
    return [] if most is None else [c for c in cards if c.is_monster and c.atk <= most]


def level_below_of(cards: list[CardInst], others: list[CardInst], by: int | None = None) -> list[CardInst]:
    """The monsters of `cards` whose Level is lower than the Level of one of `others`: Vampire Genesis' "with a Level
    less than the discarded Zombie-Type monster's"; `by`: exactly that many lower (Dora of Fate: 1)."""
    if by is not None:
        levels = {c.level - by for c in others if c.is_monster and c.monster.level is not None}
        return [c for c in cards if c.is_monster and c.monster.level is not None and c.level in levels]
    most = max((c.level for c in others if c.is_monster and c.monster.level is not None), default=None)
    return [] if most is None else [c for c in cards if c.is_monster and c.monster.level is not None and c.level < most]


def _extreme(d: DuelState, candidates: list[CardInst], pick: str) -> list[CardInst]:
    """The candidates with the lowest or highest ATK or DEF ("lowest_atk", "highest_def" …), or the one nearest the bottom
    of its pile ("bottom": the GY's first card is its bottom — Question)."""
    if pick == "bottom":
        return [min(candidates, key=lambda c: _pile_index(d, c))]

    def stat(card: CardInst) -> int:
        return card.atk if pick.endswith("atk") else card.defense

    best = (min if pick.startswith("lowest") else max)(stat(c) for c in candidates)
    return [c for c in candidates if stat(c) == best]


def _pile_index(d: DuelState, card: CardInst) -> int:
    """Where the card is in its pile, from the bottom (GY, banishment, Deck: the list's order)."""
    side = d.players[card.owner]
    pile = {Loc.GY: side.gy, Loc.BANISHED: side.banished, Loc.DECK: side.deck}.get(card.loc)
    return pile.index(card) if pile is not None and card in pile else 0


def choose(d: DuelState, player: int, candidates: list[CardInst], lo: int, hi: int | None, verb: DecisionVerb, prompt: str,
           random: bool = False, look: bool = False) -> "list[CardInst] | Choose":
    """Let `player` choose lo..hi of `candidates` (all of them when there are no more): the
    chosen cards when there is nothing to ask, else a `Choose` frame that asks; with `look`
    the chooser sees the hidden ones' names."""
    if not candidates:
        return []
    hi = len(candidates) if hi is None else min(hi, len(candidates))
    lo = min(lo, hi)
    if random:
        return d.rng.sample(candidates, hi)
    if lo == hi == len(candidates) and verb not in ("discard", "tribute"):
        _searched(d, player, candidates)
        return list(candidates)
    if hi == 0:
        return []
    return Choose(player, candidates, lo, hi, verb, prompt, look)


def _searched(d: DuelState, player: int, cards: list[CardInst]) -> None:
    """Cards chosen from a Deck are known to the chooser (they searched it) until they move on: a question still to come
    about them (the position of a monster Special Summoned from the Deck: Insect Imitation) names those very cards."""
    if any(c.loc == Loc.DECK for c in cards):
        d.reveal([c for c in cards if c.loc == Loc.DECK], (player,))


@dataclass
class Choose(Frame):
    """Ask `player` to choose lo..hi of `candidates`; the result is the chosen cards. For a
    selection of an operation (`Ctx.cards`), they also become its context's `chosen`."""

    player: int
    candidates: list[CardInst]
    lo: int
    hi: int
    verb: DecisionVerb
    prompt: str
    look: bool = False
    ctx: Ctx | None = None
    among_chosen: bool = False  # a choice `among: chosen` (the others are remembered)

    def start(self, d: DuelState, _: Any) -> Next:
        lo, hi = self.lo, self.hi
        if self.look:  # the chooser sees them (a look at the opponent's hand) and remembers
            d.reveal(self.candidates, (self.player,))
        return self.ask("chosen", d.ask(self.player, Kind.CARDS, card_options(d, self.candidates, self.player, self.look),
                                        f"{self.prompt} ({lo if lo == hi else f'{lo}-{hi}'})", lo=lo, hi=hi, verb=self.verb,
                                        subject=self.ctx.card.uid if self.ctx else None,
                                        effect=self.ctx.link.index if self.ctx and self.ctx.link.index >= 0 else None))

    def chosen(self, d: DuelState, answer: tuple[Option, ...]) -> Next:
        chosen = [d.card_of(o) for o in answer]
        _searched(d, player=self.player, cards=chosen)
        if self.ctx is not None:
            self.ctx.picked(chosen, self.among_chosen)
        return Return(chosen)


@dataclass
class ChooseLevels(Frame):
    """Ask `player` to choose, one at a time, cards of `candidates` whose Levels total exactly `need` (each choice leaves a
    total that can still be made); the result is the chosen cards, the context's `chosen` too."""

    player: int
    candidates: list[CardInst]
    need: int
    verb: DecisionVerb
    prompt: str
    ctx: Ctx
    picked: list[CardInst] = field(default_factory=list)

    def start(self, d: DuelState, _: Any) -> Next:
        left_to_make = self.need - sum(c.level for c in self.picked)
        left = [c for c in self.candidates if c not in self.picked]
        options = [c for c in left if c.level == left_to_make or c.level < left_to_make and level_total_reachable(
            [x.level for x in left if x is not c], left_to_make - c.level)]
        if left_to_make <= 0 or not options:
            self.ctx.picked(list(self.picked), False)
            return Return(list(self.picked))
        return self.ask("chosen", d.ask(self.player, Kind.CARDS, card_options(d, options, self.player),
                                        f"{self.prompt}: Levels so far {self.need - left_to_make} of {self.need}", verb=self.verb,
                                        subject=self.ctx.card.uid,
                                        effect=self.ctx.link.index if self.ctx.link.index >= 0 else None))

    def chosen(self, d: DuelState, answer: tuple[Option, ...]) -> Next:
        self.picked.append(d.card_of(answer[0]))
        return self.start(d, None)


@dataclass
class ChooseHowMany(Frame):
    """"Remove from play any number of …": `player` declares how many of `candidates` (only a number that leaves a card for
    the effect's filter with `level_is_removed` — its target's, or a card it chooses on resolution: a Level on the field),
    the chain link keeps it (`removed`), then chooses that many; the result becomes the context's `chosen` (Skull Lair)."""

    player: int
    candidates: list[CardInst]
    verb: DecisionVerb
    prompt: str
    ctx: Ctx

    def start(self, d: DuelState, _: Any) -> Next:
        numbers = list(range(1, len(self.candidates) + 1))
        effect = self.ctx.effect  # the filter of its target, or of a card its operations choose on resolution
        limits = [g.where for g in effect.target_groups if g.where.level_is_removed is not None] + [
            op.params.what.choose.where for op in effect.do if isinstance(getattr(op.params, "what", None), fx.ChooseOf)
            and op.params.what.choose.where.level_is_removed is not None]
        if limits:
            found = select(d, variant(limits[0], level_is_removed=None), self.ctx.player, self.ctx.card)
            levels = {c.level for c in found if c.is_monster and c.monster.level is not None}
            numbers = [n for n in numbers if n in levels]
        if not numbers:
            return Return(self.ctx.picked([], False))
        return self.ask("said", d.ask(self.player, Kind.DECLARE, [Option(f"declare:{n}", str(n)) for n in numbers],
                                      f"{self.prompt}: how many?", verb="declare", subject=self.ctx.card.uid))

    def said(self, d: DuelState, answer: Option) -> Next:
        count = int(answer.label)
        self.ctx.link.removed = count
        chosen = choose(d, self.player, self.candidates, count, count, self.verb, self.prompt)
        if isinstance(chosen, Choose):
            chosen.ctx = self.ctx
        return self.follow(d, "took", chosen)

    def took(self, d: DuelState, chosen: list[CardInst]) -> Next:
        return Return(self.ctx.picked(chosen, False))


@dataclass
class ChooseDistinct(Frame):
    """`player` chooses lo..hi of `candidates` one at a time, never two with the same name (`distinct_names`: Mustering
    of the Dark Scorpions' "only 1 copy of each"); the result becomes the context's `chosen`."""

    player: int
    candidates: list[CardInst]
    lo: int
    hi: int | None
    verb: DecisionVerb
    prompt: str
    ctx: Ctx
    chosen_: list[CardInst] = field(default_factory=list)

    def start(self, d: DuelState, _: Any) -> Next:
        names = {c.data.name for c in self.chosen_}
        left = [c for c in self.candidates if c not in self.chosen_ and c.data.name not in names]
        if not left or (self.hi is not None and len(self.chosen_) >= self.hi):
            return Return(self.ctx.picked(self.chosen_, False))
        least = 1 if len(self.chosen_) < self.lo else 0
        return self.ask("took", d.ask(self.player, Kind.CARDS, card_options(d, left, self.player),
                                      f"{self.prompt} ({len(self.chosen_)} so far)", lo=least, hi=1, verb=self.verb,
                                      subject=self.ctx.card.uid))

    def took(self, d: DuelState, answer: tuple[Option, ...]) -> Next:
        if not answer:
            return Return(self.ctx.picked(self.chosen_, False))
        self.chosen_.append(d.card_of(answer[0]))
        return self.start(d, None)


@dataclass
class ChooseEach(Frame):
    """Each player, the effect's player first, chooses among the `candidates` they control (hold): lo..hi, or with `per`
    (a `count_as` selection) exactly as many as the cards of it they own, as far as they can (Major Riot); all of them
    become the context's `chosen`."""

    candidates: list[CardInst]
    lo: int
    hi: int | None
    per: list[CardInst] | None
    verb: DecisionVerb
    prompt: str
    ctx: Ctx
    i: int = 0
    chosen_: list[CardInst] = field(default_factory=list)

    def start(self, d: DuelState, _: Any) -> Next:
        if self.i == 2:
            return Return(self.ctx.picked(self.chosen_, False))
        q = self.ctx.player if self.i == 0 else 1 - self.ctx.player
        self.i += 1
        mine = [c for c in self.candidates if c.controller == q]
        lo, hi = self.lo, self.hi
        if self.per is not None:
            lo = hi = sum(1 for c in self.per if c.owner == q)
        out = choose(d, q, mine, lo, hi, self.verb, self.prompt)
        if isinstance(out, Choose):
            out.ctx = self.ctx  # (the question names the effect)
        return self.follow(d, "took", out)

    def took(self, d: DuelState, chosen: list[CardInst]) -> Next:
        self.chosen_ += chosen
        return self.start(d, None)


def tributable_foes(d: DuelState, p: int, where: fx.Filter, card: CardInst, have: list[CardInst]) -> list[CardInst]:
    """The opponent's monsters `p` may Tribute as if they controlled them (Soul Exchange), for a Tribute cost of `p`'s that
    takes monsters of its own side matching `where`."""
    if where.side != "you":
        return []
    return [c for c in d.players[1 - p].mzone if c is not None and c not in have and has_flag(d, c, "tributable_by_opponent")
            and matches(d, c, where.model_copy(update={"side": "any"}), p, card)]


def valid_targets(d: DuelState, link: ChainLink) -> list[CardInst]:
    """R-CHAIN-6: targets that are still where they were and still fit the target's filter. A
    target that is "that monster" of the activation condition (`event: true`) must still be
    what the condition describes (Trap Hole: "a monster with 1000 or more ATK" — not once it is
    face-down or its ATK has dropped: OCG Perfect Rulebook 2017 pp. 126-127)."""
    groups = link.effect.target_groups
    when = link.effect.when
    described = when.where if when is not None else None
    out = []
    for card, moves, group in zip(link.targets, link.target_moves, link.target_groups):
        if card.moves != moves:
            continue
        where = groups[group].where
        if not matches(d, card, where, link.player, link.card, _signal_cards(link)):
            continue
        if where.atk_at_most_of == "chosen" and not atk_at_most_of([card], link.chosen):
            continue
        if where.level_below_of == "chosen" and not level_below_of([card], link.chosen):
            continue
        if where.named_in_text_of == "event" and not named_in_text_of([card], link.event_cards):
            continue
        if where.event and described is not None and card.loc.on_field:
            if not matches(d, card, described, link.player, link.card) or (not card.face_up and hidden_face_down(described)):
                continue
        out.append(card)
    return out


def _signal_cards(link: ChainLink) -> list[CardInst]:
    return link.event_cards
