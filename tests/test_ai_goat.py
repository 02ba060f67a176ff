"""The AI on the 2005 (GOAT) format's ideas, tested with positions (issue #40): the plays the
era's decks live on come out of the AI's search over the effect vocabulary — no card is named
in the AI. Each position is a `rules: goat` duel; ai:normal answers the pending decision."""

from __future__ import annotations

from ygoterm.agents import AIAgent, observe
from ygoterm.engine.core.decision import Kind
from ygoterm.engine.duel.position import build_position
from ygoterm.engine.duel.protocol import Duel

from tests.test_agents import _attack_on_a  # (B, the turn player, declares an attack; A answers)

_DECK = [{"card": "Feral Imp", "count": 20}]


def _position(pool, a: dict, b: dict, turn: int = 3, turn_player: str = "A", phase: str = "main1") -> Duel:
    sides = {"A": {"deck": _DECK, **a}, "B": {"deck": _DECK, **b}}
    return build_position(pool, {"name": "ai goat", "rules": "goat", "turn": turn, "turn_player": turn_player,
                                 "phase": phase, **sides}, seed=1)


def _ai(pool, d: Duel, seed: int = 3) -> str:
    return AIAgent("normal", seed).choose(observe(d, d.pending.player, pool), d.pending).label


def _greedy(pool, d: Duel) -> str:
    """The beginner's answer (the yardstick): where it differs, the position is no gift."""
    from ygoterm.agents.policy import Heuristic

    return Heuristic(1, careful=False).choose(observe(d, d.pending.player, pool), d.pending).label


def test_metamorphosis_turns_a_level_1_into_thousand_eyes_restrict(pool):
    """Sinister Serpent (Level 1) and Metamorphosis against a Jinzo: the Level 1 becomes Thousand-Eyes Restrict,
    which takes the Jinzo."""
    d = _position(pool, {"hand": ["Metamorphosis"], "monsters": ["Sinister Serpent"], "extra": ["Thousand-Eyes Restrict"]},
                  {"monsters": ["Jinzo"]})
    assert _ai(pool, d) == "activate Metamorphosis"


def test_nobleman_of_crossout_on_a_face_down_monster(pool):
    d = _position(pool, {"hand": ["Nobleman of Crossout"], "monsters": ["Gemini Elf"]},
                  {"monsters": [{"card": "Magician of Faith", "position": "set"}]})
    assert _ai(pool, d) == "activate Nobleman of Crossout"


def test_scapegoat_answers_an_attack_that_would_hurt(pool):
    """A direct attack by Jinzo at 2000 LP: the Set Scapegoat is activated in answer (four blockers; Jinzo does not
    stop a Quick-Play Spell)."""
    d = _position(pool, {"lp": 2000, "spells": ["Scapegoat"]}, {"monsters": ["Jinzo"]}, turn=4, turn_player="B")
    _attack_on_a(d, "attack Jinzo -> direct")
    assert _ai(pool, d) == "activate Scapegoat"


def test_book_of_moon_stops_the_attacker(pool):
    """Summoned Skull attacks our Gemini Elf: a Set Book of Moon turns the attacker face-down (its attack ends)."""
    d = _position(pool, {"monsters": ["Gemini Elf"], "spells": ["Book of Moon"]}, {"monsters": ["Summoned Skull"]},
                  turn=4, turn_player="B")
    _attack_on_a(d, "attack Summoned Skull -> Gemini Elf")
    assert _ai(pool, d) == "activate Book of Moon"


def test_sakuretsu_armor_is_kept_for_the_attacker_that_matters(pool):
    """Sinister Serpent (300 ATK) attacks our face-down Big Shield Gardna (2600 DEF) first: Sakuretsu Armor waits —
    the wall holds, the card is worth more on the next attacker; when Summoned Skull attacks, it is used."""
    d = _position(pool, {"monsters": [{"card": "Big Shield Gardna", "position": "set"}], "spells": ["Sakuretsu Armor"]},
                  {"monsters": ["Summoned Skull", "Sinister Serpent"]}, turn=4, turn_player="B")
    _attack_on_a(d, "attack Sinister Serpent -> face-down monster")
    assert "activate Sakuretsu Armor" in [o.label for o in d.pending.options]
    assert _ai(pool, d) == "pass"
    while d.pending.kind != Kind.BATTLE or d.pending.player != 1:  # (the Serpent bounces off the wall)
        d.apply("pass" if d.pending.option("pass") else d.pending.options[-1])
    d.apply("attack Summoned Skull -> Big Shield Gardna")
    while d.pending.player != 0:
        d.apply(d.pending.options[-1])
    assert _ai(pool, d) == "activate Sakuretsu Armor"


def test_soul_exchange_lends_the_opponents_monster_for_a_monarch(pool):
    """Soul Control's combo (issue #40): no monster of ours, Soul Exchange and Thestalos the Firestorm Monarch in hand,
    a Jinzo across — Soul Exchange on the Jinzo, then Thestalos Tributing it (and its discard). The AI passed the turn:
    its play-outs valued a Tribute Summon only with monsters of ours, so Soul Exchange looked like a card thrown away."""
    from ygoterm.agents.policy import Heuristic

    d = _position(pool, {"hand": ["Soul Exchange", "Thestalos the Firestorm Monarch", "Mystical Space Typhoon"]},
                  {"monsters": ["Jinzo"], "hand": ["Pot of Greed", "Feral Imp"]})
    ai = AIAgent("normal", 3)
    while d.pending is not None and d.turn == 3:
        if d.pending.player == 0:
            d.apply(ai.choose(observe(d, 0, pool), d.pending))
        else:
            d.apply("pass" if d.pending.option("pass") else d.pending.options[-1])
    assert [c.name for c in d.players[0].mzone if c] == ["Thestalos the Firestorm Monarch"]
    assert len(d.players[1].gy) == 2 and "Jinzo" in [c.name for c in d.players[1].gy]  # (and Thestalos's discard)

    lent = _position(pool, {"hand": ["Soul Exchange", "Thestalos the Firestorm Monarch"]}, {"monsters": ["Jinzo"]})
    lent.apply("activate Soul Exchange")
    while lent.pending.kind != Kind.COMMAND or lent.pending.player != 0:
        lent.apply(lent.pending.options[0] if lent.pending.player == 0 else "pass")
    assert lent.view(0).lent == lent.view(1).lent != ()  # (public: the target was)
    assert Heuristic(1, careful=True).choose(observe(lent, 0, pool), lent.pending).label == "summon Thestalos the Firestorm Monarch"


def test_the_beginner_misses_what_the_ai_sees(pool):
    """The yardstick: greedy spends Sakuretsu Armor on the first attacker and keeps Scapegoat through a direct
    attack at 2000 LP — the positions above are not ones any agent answers right."""
    d = _position(pool, {"monsters": [{"card": "Big Shield Gardna", "position": "set"}], "spells": ["Sakuretsu Armor"]},
                  {"monsters": ["Summoned Skull", "Sinister Serpent"]}, turn=4, turn_player="B")
    _attack_on_a(d, "attack Sinister Serpent -> face-down monster")
    d2 = _position(pool, {"lp": 2000, "spells": ["Scapegoat"]}, {"monsters": ["Jinzo"]}, turn=4, turn_player="B")
    _attack_on_a(d2, "attack Jinzo -> direct")
    assert (_greedy(pool, d), _greedy(pool, d2)) == ("activate Sakuretsu Armor", "pass")


def test_tribe_infecting_virus_declares_the_type_the_opponent_has(pool):
    """Tribe-Infecting Virus against a Warrior (D.D. Assailant), beside our own Spellcaster: the AI declares Warrior
    (theirs, not ours) — and so does ai:easy; the beginner declares any Type (a duel as a user saw the AI discard a
    card to declare Spellcaster with no Spellcaster anywhere)."""
    from ygoterm.agents.policy import Heuristic

    d = _position(pool, {"hand": ["Feral Imp"], "monsters": ["Tribe-Infecting Virus", "Magician of Faith"]},
                  {"monsters": ["D.D. Assailant"]})
    d.apply("activate Tribe-Infecting Virus")
    while d.pending.kind != Kind.DECLARE:  # (the discard, its cost)
        d.apply(d.pending.options[0])
    assert _ai(pool, d) == "Warrior"
    assert Heuristic(1, careful=True).choose(observe(d, 0, pool), d.pending).label == "Warrior"
    beginner = {Heuristic(seed, careful=False).choose(observe(d, 0, pool), d.pending).label for seed in range(6)}
    assert len(beginner) > 1  # (any Type: the yardstick is no gift)
