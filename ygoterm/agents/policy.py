"""Rule-of-thumb answers to every kind of decision, from what a player may see.

`Heuristic` is the greedy baseline (`agents/greedy.py`), the easy AI and the AI's rollout policy
(`agents/ai.py`). It reads only an `Observation`: the player's view, the decision and public
card text; what cards do comes from the effect vocabulary (`agents/reading.py`), what the board
holds from `agents/board.py`. A beginner's
rules: summon the strongest monster, attack only what it beats, fire a Trap at an attack or a
Summon, remove the biggest threat, draw and search when it can.
"""

from __future__ import annotations

import random
from typing import Sequence

from ..engine import CardView, Decision, Kind, Option, Pos
from ..schema.cards import Monster
from .board import (attack_hurts, beats_something, can_attack_now, card_worth, declaration_worth, effect_kind, foe_target,
                    lethal, losing_battle, mass_balance, num, option_reading, pressed, strongest_foe, targets_monsters,
                    temporary, threatened, tribute_cost, tributes, tributes_stronger, useful_effect)
from .observation import Answer, Observation
from .reading import Reading, read


class Heuristic:
    """`careful`: also weigh what an activation does before using it (the easy AI); without it,
    the beginner activates whatever removes, draws or summons."""

    def __init__(self, seed: int = 0, careful: bool = True) -> None:
        self.rng = random.Random(seed)
        self.careful = careful
        self.triggered: dict[tuple[int, int | None], int] = {}  # (turn, card) → optional triggers said yes to

    def choose(self, obs: Observation | None, decision: Decision | None = None) -> Answer:
        if obs is None:  # (between a match's duels: nothing to observe)
            assert decision is not None, "a decision outside a duel comes with the decision"
            return self.unobserved(decision)
        d = decision or obs.decision
        kind = d.kind
        if len(d.options) == 1 and not d.multi:
            return d.options[0]
        if kind == Kind.COMMAND:
            return self.command(obs, d)
        if kind == Kind.BATTLE:
            return self.battle(obs, d)
        if kind == Kind.CHAIN:
            return self.respond(obs, d)
        if kind == Kind.CARDS:
            return self.cards(obs, d)
        if kind == Kind.POSITION:
            return self.position(obs, d)
        if kind == Kind.YESNO:
            return self.yes_no(obs, d)
        if kind == Kind.FIRST:
            return d.option("first") or d.options[0]
        if kind == Kind.ORDER:
            return list(d.options)
        if kind == Kind.DECLARE:
            return self.declare(d, obs)
        return d.options[0]  # ZONE, OPTION: the first is as good as any

    def yes_no(self, obs: Observation, d: Decision) -> Option:
        """Yes — but an optional trigger of the same card said yes to 3 times this turn is an
        endless loop (Archfiend of Gilfer re-equipping itself to Gearfried the Iron Knight, which
        destroys it): a player stops it by declining."""
        yes = d.option("yes")
        if yes is None:
            return d.options[0]
        if d.verb == "trigger":
            key = (obs.view.turn, d.subject)
            if self.triggered.get(key, 0) >= 3:
                return d.option("no") or yes
            self.triggered[key] = self.triggered.get(key, 0) + 1
        return yes

    def unobserved(self, d: Decision) -> Answer:
        """A decision outside a duel (between a match's duels: going first, side-decking), answered
        as `choose` answers it; the kinds that read the field cannot be asked without a duel."""
        kind = d.kind
        if len(d.options) == 1 and not d.multi:
            return d.options[0]
        if kind in (Kind.COMMAND, Kind.BATTLE, Kind.CHAIN, Kind.CARDS, Kind.POSITION):
            raise ValueError(f"a {kind.name} decision needs an observation of the duel")
        if kind == Kind.YESNO:
            return d.option("yes") or d.options[0]
        if kind == Kind.FIRST:
            return d.option("first") or d.options[0]
        if kind == Kind.ORDER:
            return list(d.options)
        if kind == Kind.DECLARE:
            return self.declare(d)
        return d.options[0]  # SIDE, ZONE, OPTION: the first is as good as any

    # -------------------------------------------------------------- the open game state

    def command(self, obs: Observation, d: Decision) -> Option:
        battle = d.option("battle")
        if self.careful and battle is not None and lethal(obs):
            return battle  # nothing first that could cost an attacker (a Tribute, a Set in Defense)
        best, best_score = None, 0.0
        for option in d.options:
            score = self.command_value(obs, option)
            if score > best_score:
                best, best_score = option, score
        if best is not None:
            return best
        if self.should_battle(obs) and battle is not None:
            return battle
        return d.option("end") or d.options[-1]

    def command_value(self, obs: Observation, option: Option) -> float:
        """How much this move is worth now (0 or less: do not)."""
        verb = option.verb
        if self.careful:
            value = self.board_value(obs, option)
            if value is not None:
                return value
        if verb == "activate" or verb == "special":
            return self.activation_value(obs, option, open_state=True)
        if verb == "pendulum":
            return 6.0
        if verb in ("summon", "set"):
            data = obs.definition(option.card)
            if not isinstance(data, Monster):  # a Spell or Trap Set from the hand
                return 1.5 if self.worth_setting(obs, option) else 0.0
            atk = num(data.atk)
            deff = num(data.def_)
            level = data.level or 0
            foe_best = self.foe_best_attack(obs)
            if verb == "summon":
                if "flip" in data.abilities:
                    return 0.0
                value = 3.0 + atk / 1000 + (1.0 if level >= 5 else 0.0)
                return value if atk >= foe_best or atk >= 1900 else 0.5
            # Set: a monster that cannot fight the opponent's, or a FLIP monster
            value = 2.5 + deff / 1000 + (1.0 if "flip" in data.abilities else 0.0)
            return value if atk < foe_best or "flip" in data.abilities else 0.4
        if verb == "flip":
            return self.flip_value(obs, option)
        if verb == "switch":
            card = obs.card(option.card)
            if card is None or card.atk is None:
                return 0.0
            to_attack = card.pos != Pos.ATTACK
            foe = self.foe_best_attack(obs)
            if to_attack:
                return 1.2 if card.atk > foe else 0.0
            return 1.0 if card.atk < foe and (card.defense or 0) >= card.atk else 0.0
        if verb == "gemini":
            return 2.0
        return 0.0

    # -------------------------------------------------------------- the careful player's board

    def board_value(self, obs: Observation, option: Option) -> float | None:
        """The careful player's value of a Summon, Set, Summon procedure or position change
        (None: the move is not one of those, or a Spell or Trap Set)."""
        verb = option.verb
        if verb in ("summon", "set"):
            data = obs.definition(option.card)
            return self.summon_value(obs, option, data) if isinstance(data, Monster) else None
        if verb == "special" and effect_kind(obs, option) == "procedure":
            data = obs.definition(option.card)
            if isinstance(data, Monster):  # a Summon by its own procedure: a monster for free, the Normal Summon kept
                return 6.0 + num(data.atk) / 1000
        if verb == "switch":
            return self.switch_value(obs, option)
        return None

    def summon_value(self, obs: Observation, option: Option, data: Monster) -> float:
        """Summon face-up what survives the opponent's best attacker, wins a fight this turn or
        has an effect to use; Set the rest (walls, FLIP monsters). A Tribute Summon pays for its
        monster with the cheapest monsters of ours (R-SUMMON-2): what they are worth is taken off,
        unless the new monster beats a threat nothing of ours beats."""
        atk, deff = num(data.atk), num(data.def_)
        need = tributes(data)
        cost = tribute_cost(obs, need, option.card)
        if cost is None or (need and tributes_stronger(obs, need, option.card, atk)):
            return 0.0  # too few to Tribute, or a monster given for a weaker one
        flip = "flip" in data.abilities
        threat = self.foe_best_attack(obs)
        strike = can_attack_now(obs) and beats_something(obs, atk)
        effect = useful_effect(obs, data)
        fights = (atk >= threat and (atk >= deff or atk >= 1600)) or strike or effect
        if option.verb == "summon":
            if flip:
                return 0.0
            if not fights:
                return 0.5
            value = 3.0 + atk / 1000 + (0.5 if effect else 0.0)
            if need:
                ours = max((m.atk or 0 for m in obs.view.me.monsters if m is not None and m.face_up and m.pos == Pos.ATTACK), default=0)
                breaks = atk > threat > 0 and ours <= threat
                value += 1.0 - cost + (2.0 if breaks else 0.0)
            return max(value, 0.0)
        if need:
            return 0.0  # a Tribute Set hides a monster that wanted to fight
        value = 2.5 + deff / 1000 + (1.0 if flip else 0.0)
        return value if flip or not fights else 0.4

    def switch_value(self, obs: Observation, option: Option) -> float:
        """To Attack Position to win a fight this turn; to Defense Position when the monster
        loses to the opponent's best attacker and has nothing to win now (no battle damage then)."""
        card = obs.card(option.card)
        if card is None or card.atk is None:
            return 0.0
        threat = self.foe_best_attack(obs)
        strike = can_attack_now(obs) and beats_something(obs, card.atk)
        if card.pos != Pos.ATTACK:
            return 1.2 if strike and card.atk >= threat else 0.0
        return 1.0 if card.atk < threat and not strike else 0.0

    def flip_value(self, obs: Observation, option: Option) -> float:
        """A Flip Summon puts the monster in Attack Position (R-SUMMON-4): worth it for a FLIP
        effect, or for a monster that then wins its fights. The beginner flips whatever it Set."""
        card = obs.card(option.card)
        if card is None:
            return 0.0
        atk = card.atk or 0
        foe = self.foe_best_attack(obs)
        if not self.careful:
            return 2.0 if atk >= foe else 0.8
        data = obs.definition(option.card)
        if isinstance(data, Monster) and "flip" in data.abilities:
            return 2.5
        open_field = not any(m is not None for m in obs.view.foe.monsters)
        if atk > foe or (open_field and atk >= 1000 and obs.view.phase.name == "MAIN1"):
            return 2.0
        return 0.0

    def worth_setting(self, obs: Observation, option: Option) -> bool:
        data = obs.definition(option.card)
        if data is None:
            return False
        effects = [e for e in data.effects if e.kind in ("activate", "quick")]
        # Traps wait Set; a Spell is Set only to be used as a response (a Quick-Play answering something)
        return data.kind == "trap" or any(e.when is not None for e in effects)

    def should_battle(self, obs: Observation) -> bool:
        mine = [m for m in obs.view.me.monsters if m is not None and m.pos == Pos.ATTACK and m.atk]
        return bool(mine)

    # -------------------------------------------------------------- activations

    def activation_value(self, obs: Observation, option: Option, *, open_state: bool) -> float:
        r = option_reading(obs, option)
        if r is None:
            return 2.0 if option.verb == "special" else 0.0
        view = obs.view
        foe_cards = sum(1 for c in (*view.foe.monsters, *view.foe.spells) if c is not None)
        foe_monsters = sum(1 for c in view.foe.monsters if c is not None)
        my_monsters = sum(1 for c in view.me.monsters if c is not None)
        if r.costs_lp and view.me.lp <= r.costs_lp:
            return 0.0
        if (r.helps or r.boosts) and not (r.removes_foe or r.burns) and my_monsters == 0 and targets_monsters(obs, option):
            return 0.0  # an Equip or boost with no monster of ours to take it
        value = 0.0
        if self.careful and not self.worth_now(obs, option, r, open_state):
            return 0.0
        if r.removes_foe:
            if foe_cards == 0:
                return 0.0
            if r.removes_mine and self.careful:
                value += 2.0 * mass_balance(obs, option)  # Dark Hole, Heavy Storm: only when the opponent loses more
            else:
                value += 4.0 + (foe_monsters if r.mass else 0)
        if r.helps:
            value += 3.5
        if r.burns:
            value += 2.0
        if r.boosts:
            value += 1.5 if (my_monsters and (not open_state or not self.careful or view.phase.name.startswith("MAIN"))) else 0.0
        if r.weakens:
            value += 2.0 if foe_monsters else 0.0
        if r.negates or r.stops_attack:
            value += 3.0 if not open_state else 0.0
        if self.careful and open_state and (r.negates or r.stops_attack) and not (r.removes_foe or r.helps):
            return 0.0  # an answer kept for when it is needed
        return value

    def worth_now(self, obs: Observation, option: Option, r: Reading, open_state: bool) -> bool:
        """The careful player's checks before an activation: a removal that targets must have an
        opponent's card to target (Mystical Space Typhoon is not fired at our own Field Spell);
        a boost that lasts the turn only (Rush Recklessly, Castle Walls) waits for a battle, and
        protection from battle damage (Waboku) for an attack."""
        if r.removes_foe and not r.mass and not (r.helps or r.burns) and not foe_target(obs, option):
            return False
        if open_state and r.boosts and not (r.removes_foe or r.helps or r.burns) and temporary(obs, option):
            return False
        if open_state and r.shields:
            return False  # Waboku answers an attack
        return True

    # -------------------------------------------------------------- battle

    def battle(self, obs: Observation, d: Decision) -> Option:
        best, best_score = None, 0.0
        for option in d.options:
            if option.verb == "activate":
                score = self.activation_value(obs, option, open_state=True) - 1.0
            elif option.verb == "attack":
                score = self.attack_value(obs, option)
            else:
                continue
            if score > best_score:
                best, best_score = option, score
        return best or d.option("main2") or d.options[-1]

    def attack_value(self, obs: Observation, option: Option) -> float:
        attacker = obs.card(option.card)
        if attacker is None or attacker.atk is None:
            return 0.0
        if option.target is None:
            return 5.0 + attacker.atk / 1000  # a direct attack
        if option.target < 0:  # the opponent chooses the target (Patrician of Darkness): the worst one for us
            foes = [m for m in obs.view.foe.monsters if m is not None]
            return min((self.attack_value(obs, option._replace(target=m.uid)) for m in foes), default=0.0)
        target = obs.card(option.target)
        if target is None:
            return 0.0
        if not target.face_up:
            bold = 1000 if self.careful and pressed(obs) else 1600
            return 1.0 + attacker.atk / 2000 if attacker.atk >= bold else 0.0
        spare = -attacker.atk / 100000 if self.careful else 0.0  # the careful player sends the weakest attacker that wins
        if target.pos == Pos.ATTACK:
            if attacker.atk > (target.atk or 0):
                return 4.0 + (target.atk or 0) / 1000 + spare
            return 0.0
        if attacker.atk > (target.defense or 0):
            return 3.0 + (target.atk or 0) / 2000 + spare
        return 0.0

    def foe_best_attack(self, obs: Observation) -> int:
        """The opponent's strongest attacker as far as we know (a face-down monster: UNKNOWN_DEF).
        A careful player about to deck out first (`pressed`) plays as if nothing threatens: a
        board of Set walls facing a stronger one would otherwise wait for a loss by deck-out."""
        if self.careful and pressed(obs):
            return 0
        return strongest_foe(obs)

    # -------------------------------------------------------------- responses

    def respond(self, obs: Observation, d: Decision) -> Option:
        """Use an answer when it answers something: an attack on us, a Summon, an activation of
        the opponent; keep it otherwise."""
        view = obs.view
        opponent_acting = view.turn_player != obs.player or bool(view.chain and view.chain[-1].player != obs.player)
        attacker = obs.card(view.attacker)
        foe_attacker = attacker if attacker is not None and attacker.controller != obs.player else None  # an attack on us
        at_risk = threatened(obs) if self.careful else frozenset()
        answered = self.careful and bool(view.chain) and view.chain[-1].player == obs.player  # our own link is the answer
        best, best_score = None, 0.0
        for option in d.options:
            if option.verb != "activate":
                continue
            r = option_reading(obs, option)
            if r is None or (answered and (r.removes_foe or r.stops_attack or r.negates)):
                continue  # (Mirror Force is not chained to our own Sakuretsu Armor: one answer per attack)
            score = 0.0
            if option.card in at_risk and r.useful:
                score = 3.0  # used in answer rather than lost to the opponent's removal
            if self.careful and r.boosts and losing_battle(obs):
                score = max(score, 3.5)  # a combat trick: our monster in this battle loses without it
            if self.careful and foe_attacker is not None and attack_hurts(obs, foe_attacker) and (r.shields or r.weakens or r.binds):
                score = max(score, 4.5 if r.shields else 4.0)  # Waboku, Mask of Weakness, Spellbinding Circle
            if r.stops_attack and foe_attacker is not None:
                if self.careful and not attack_hurts(obs, foe_attacker):
                    continue  # kept for an attack that would cost something
                score = 5.0 + (foe_attacker.atk or 0) / 1000
            elif r.negates and (view.chain and view.chain[-1].player != obs.player or view.summoning):
                score = 4.0
            elif r.removes_foe and (foe_attacker is not None or view.summoning or opponent_acting) and not (r.removes_mine and self.careful):
                score = 4.5 + (self.removal_reach(obs, option, r, foe_attacker) if self.careful else 0.0)
            elif r.removes_foe and r.removes_mine and self.careful and (foe_attacker is not None or view.summoning or opponent_acting) \
                    and mass_balance(obs, option) > 1.0:
                score = 4.5  # Torrential Tribute: when the opponent loses more
            elif r.removes_foe and view.turn_player != obs.player and view.phase.name == "END":
                score = 2.0  # a Set removal card used before it is lost
            elif r.helps and view.phase.name == "END" and view.turn_player != obs.player:
                score = 2.0
            if score > best_score:
                best, best_score = option, score
        return best or d.option("pass") or d.options[-1]

    def removal_reach(self, obs: Observation, option: Option, r: Reading, foe_attacker: CardView | None) -> float:
        """A small preference among removal answers: the one that takes more (Mirror Force on two
        attackers before Sakuretsu Armor on one); on a tie the narrow card goes first and the
        card that hits every monster of a kind is kept for a bigger board. `foe_attacker`: the
        opponent's monster attacking us, if any."""
        if r.mass:
            return 0.1 * max(0.0, mass_balance(obs, option)) - 0.05
        worth = card_worth(obs, foe_attacker.uid) if foe_attacker is not None else max(
            (card_worth(obs, c.uid) for c in (*obs.view.foe.monsters, *obs.view.foe.spells) if c is not None), default=0.0)
        return 0.1 * worth

    # -------------------------------------------------------------- selections

    def cards(self, obs: Observation, d: Decision) -> Sequence[Option]:
        if d.sets:
            return self._best_set(obs, d)
        count = max(d.min, min(d.max, len(d.options))) if d.verb in ("pendulum",) else d.min or 1
        return self.ranked_cards(obs, d)[:count]

    def ranked_cards(self, obs: Observation, d: Decision) -> list[Option]:
        """A selection's options, the one to pick first first."""
        options = list(d.options)
        if d.verb in ("tribute", "discard", "material", "cost"):  # the least valuable first; an opponent's lent one first
            lent = obs.view.lent  # (Soul Exchange: Tributing their best monster is the point)
            return sorted(options, key=lambda o: (0, -card_worth(obs, o.card)) if o.card in lent else (1, card_worth(obs, o.card)))
        if d.verb == "target":
            return self.rank_targets(obs, d, options)
        return sorted(options, key=lambda o: -card_worth(obs, o.card))  # add, special summon, fusion, pendulum, look …

    def _best_set(self, obs: Observation, d: Decision) -> Sequence[Option]:
        by_key = {o.key: o for o in d.options}
        best = min(d.sets, key=lambda keys: (sum(card_worth(obs, by_key[k].card) for k in keys), sorted(keys)))
        return [by_key[k] for k in sorted(best)]

    def rank_targets(self, obs: Observation, d: Decision, options: list[Option]) -> list[Option]:
        """Harmful effects aim at the opponent's strongest cards, helpful ones at your own."""
        harmful = True
        if d.subject is not None and d.effect is not None:
            data = obs.definition(d.subject)
            if data is not None and d.effect < len(data.effects):
                r = read(data.effects[d.effect])
                harmful = r.removes_foe or r.weakens or not (r.boosts or r.helps)
        def key(o: Option) -> tuple[int, float]:
            card = obs.card(o.card)
            mine = card is not None and card.controller == obs.player
            worth = card_worth(obs, o.card)
            if harmful:
                return (1 if mine else 0, -worth)
            return (0 if mine else 1, -worth)
        return sorted(options, key=key)

    def position(self, obs: Observation, d: Decision) -> Option:
        data = obs.definition(d.subject)
        if isinstance(data, Monster) and num(data.atk) < self.foe_best_attack(obs) and num(data.def_) > num(data.atk):
            return d.option("defense") or d.option("facedown") or d.options[0]
        return d.option("attack") or d.options[0]

    def declare(self, d: Decision, obs: Observation | None = None) -> Option:
        """A careful player declares what hits the opponent's cards most and their own least (Tribe-Infecting Virus:
        the Type of the opponent's monsters, not one nobody has) when declaring for their own card's effect; the
        beginner, or a declaration for the opponent's effect, any word."""
        subject = obs.card(d.subject) if obs is not None and d.subject is not None else None
        if self.careful and obs is not None and subject is not None and subject.controller == obs.player:
            worth = declaration_worth(obs, [o.label for o in d.options])
            best = max(d.options, key=lambda o: worth[o.label])
            if worth[best.label] > 0:
                return best
        return d.options[self.rng.randrange(len(d.options))]


