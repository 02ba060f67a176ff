"""Auto response prompts ask only when a response could matter (presenters/prompting.py): the
AI's turn with a quick card held asks at its Summon, its attacks and its End Phase, never at a
bare phase change; s stops the asking in solo too; the hot-seat table asks from public
information only, and a Summon's two windows are one question."""

from __future__ import annotations

from ygoterm.engine import Kind, build_position
from ygoterm.tui.presenters.session import Seat, Session

DECK = ["Giant Soldier of Stone", "Silver Fang", "Feral Imp", "Luster Dragon", "Mystical Elf"]


def _position(b_hand, a_spells=("Castle Walls",), a_hand=("Mystical Space Typhoon",), phase="draw"):
    return {"name": "auto", "turn": 4, "turn_player": "B", "phase": phase,
            "A": {"hand": list(a_hand), "monsters": ["Celtic Guardian"], "spells": list(a_spells), "deck": DECK},
            "B": {"hand": list(b_hand), "monsters": ["Luster Dragon"], "deck": DECK}}


def _asked_in_turn(pool, position, prompt="auto", opponent=None):
    """Play the turn player's (B's) turn with `opponent` (moves by label, else ends each phase),
    answering A's response windows "pass"; returns the prompts A was asked."""
    duel = build_position(pool, position, seed=1)
    session = Session.start(duel, pool, (Seat("Ann", "human", prompt), Seat("Bob", "human", "auto")), hot_seat=False, autosave=False)
    plan = list(opponent or [])
    asked = []
    while (d := session.duel.pending) is not None and session.duel.turn == 4:
        if d.player == 0:
            assert d.kind == Kind.CHAIN
            asked.append(d.prompt)
            session.answer("pass")
            continue
        _follow(session, d, plan)
    return asked


def _follow(session, d, plan):
    """Answer `d` with the plan's next move (a label) if it is an option, else move on: pass,
    end the phase, decline; a selection takes the first cards it needs."""
    wanted = next((o for o in d.options if plan and o.label == plan[0]), None)
    if wanted is not None:
        plan.pop(0)
        session.answer(wanted)
    else:
        session.answer(next(o for o in d.options if o.key in ("pass", "end", "main2", "no")) if d.kind != Kind.CARDS
                       else d.options[: d.min])


def test_auto_asks_at_the_summon_the_attack_and_the_end_phase_only(pool):
    asked = _asked_in_turn(pool, _position(["Vorse Raider"]), opponent=["summon Vorse Raider", "battle",
                                                                      "attack Luster Dragon -> Celtic Guardian"])
    always = _asked_in_turn(pool, _position(["Vorse Raider"]), "always", opponent=["summon Vorse Raider", "battle",
                                                                                "attack Luster Dragon -> Celtic Guardian"])
    assert asked == ["Main Phase 1: respond or pass",  # the Summon, once it succeeded (MST cannot answer its negation window)
                     "Battle Step: respond or pass",  # the attack's declaration (the defender: not its Damage Step)
                     "Battle Step: respond or pass",  # after it: Celtic Guardian was destroyed (Call of the Haunted now?)
                     "End Phase: respond or pass"]  # the opponent's End Phase
    assert len(always) >= 2 * len(asked)
    assert not any(p.startswith(("Draw Phase", "Standby Phase", "Damage Step")) for p in asked)


def test_auto_asks_when_a_cards_own_condition_names_what_happened(pool):
    """In the window after a Summon, with nothing else new since the player was last asked: a Set
    Trap Hole ("When your opponent Summons …") is worth asking, a Castle Walls alone is not."""
    from ygoterm.tui.presenters.prompting import worth_asking

    for spells, worth in ((("Trap Hole",), True), (("Castle Walls",), False)):
        duel = build_position(pool, _position(["Vorse Raider"], a_spells=spells, phase="main1"), seed=1)
        duel.apply("summon Vorse Raider")
        while duel.pending.player != 0:
            duel.apply("pass")
        d = duel.pending
        assert d.kind == Kind.CHAIN and not duel.view(0).summoning  # the window after it succeeded
        assert worth_asking(duel, d, since=len(duel.log)) is worth


def test_auto_asks_nothing_when_nothing_can_respond(pool):
    """(The engine's own "auto": no card to activate, no question at all.)"""
    assert _asked_in_turn(pool, _position(["Vorse Raider"], a_spells=(), a_hand=()), opponent=["summon Vorse Raider"]) == []


def test_s_stops_the_asking_in_solo_until_something_happens(pool):
    duel = build_position(pool, _position(["Vorse Raider"], phase="standby"), seed=1)
    session = Session.start(duel, pool, (Seat("Ann", "human", "always"), Seat("Bob", "human", "auto")), hot_seat=False, autosave=False)
    assert session.duel.pending.player == 0 and session.duel.pending.kind == Kind.CHAIN  # (Bob had nothing: passed)
    session.skip_windows()  # s
    session.answer("pass")
    d = session.duel.pending
    assert d.player == 1 and d.kind == Kind.COMMAND  # Ann's "always" windows went by until Bob's move
    session.answer("summon Vorse Raider")
    assert session.duel.pending.player == 0 and "respond" in session.duel.pending.prompt  # something happened: asked again


def test_the_hot_seat_table_asks_once_per_summon_and_never_at_a_bare_phase(pool):
    duel = build_position(pool, _position(["Vorse Raider"], phase="draw"), seed=1)
    session = Session.start(duel, pool, (Seat("Ann", "human", "always"), Seat("Bob", "human", "always")), hot_seat=True, autosave=False)
    shared = []
    plan = ["summon Vorse Raider"]
    while (d := session.duel.pending) is not None and session.duel.turn == 4:
        if session.is_shared_prompt():
            shared.append(d.prompt)
            session.continue_window()
            continue
        _follow(session, d, plan)
    assert shared == ["Main Phase 1: respond or pass", "End Phase: respond or pass"]
