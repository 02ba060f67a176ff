"""Ceremonial Bell (continuous `shows_hands`): while it is face-up in a Monster Zone, each player's
view shows the other's hand; a Set Bell shows nothing (tests/scenarios/goat/b2/ceremonial-bell.yaml)."""

from pathlib import Path

from ygoterm.scenarios import PoolCache, prepare, run

SCENARIO = Path(__file__).parent / "scenarios" / "goat" / "b2" / "ceremonial-bell.yaml"


def _hands(duel, viewer):
    view = duel.view(viewer)
    return [[c.name for c in side.hand] for side in view.sides]


def test_a_set_bell_shows_no_hand():
    _, duel, _ = prepare(SCENARIO, PoolCache())
    assert _hands(duel, 0)[1] == [None, None]
    assert _hands(duel, 1)[0] == [None, None]


def test_a_face_up_bell_shows_both_hands():
    result = run(SCENARIO, PoolCache())
    assert not result.failures, result.failures
    duel = result.duel
    assert _hands(duel, 0)[1] == ["Mirror Force", "Sangan"]
    assert _hands(duel, 1)[0] == ["Pot of Greed"]


MIND_ON_AIR = Path(__file__).parent / "scenarios" / "goat" / "c4" / "mind-on-air.yaml"


def test_a_set_mind_on_air_shows_no_hand():
    _, duel, _ = prepare(MIND_ON_AIR, PoolCache())
    assert _hands(duel, 0)[1] == [None, None]


def test_a_face_up_mind_on_air_shows_only_the_opponents_hand():
    result = run(MIND_ON_AIR, PoolCache())
    assert not result.failures, result.failures
    duel = result.duel
    assert _hands(duel, 0)[1] == ["Mirror Force", "Sangan"]  # its controller sees the opponent's hand
    assert _hands(duel, 1)[0] == [None]  # … and keeps its own hidden (Pot of Greed)


RESPECT_PLAY = Path(__file__).parent / "scenarios" / "goat" / "t4" / "respect-play.yaml"


def test_a_set_respect_play_shows_no_hand():
    _, duel, _ = prepare(RESPECT_PLAY, PoolCache())
    assert _hands(duel, 1)[0] == [None]


def test_respect_play_shows_only_the_turn_players_hand():
    result = run(RESPECT_PLAY, PoolCache())
    assert not result.failures, result.failures
    duel = result.duel
    assert _hands(duel, 1)[0] == ["Pot of Greed"]  # A's turn: A shows their hand
    assert _hands(duel, 0)[1] == [None, None]  # … and B keeps theirs hidden


EYE_OF_TRUTH = Path(__file__).parent / "scenarios" / "goat" / "t4" / "the-eye-of-truth.yaml"


def test_the_eye_of_truth_shows_only_the_opponents_hand():
    _, duel, _ = prepare(EYE_OF_TRUTH, PoolCache())
    assert _hands(duel, 0)[1] == ["Pot of Greed", "Celtic Guardian"]  # a face-up Trap shows it, from its Spell & Trap Zone
    assert _hands(duel, 1)[0] == [None]  # its controller's hand stays hidden


CONVULSION = Path(__file__).parent / "scenarios" / "goat" / "h3" / "convulsion-of-nature.yaml"


def test_an_upside_down_deck_shows_its_top_card_only():
    """Convulsion of Nature: each Deck's top card is face-up and known; the cards under it stay hidden, so a
    determinized world (the AI's) deals them again — an AI never reads the rest of a Deck's order."""
    from ygoterm.engine.state.determinize import unknown_cards

    _, duel, _ = prepare(CONVULSION, PoolCache())
    duel.apply(next(o for o in duel.pending.options if o.label == "activate Convulsion of Nature"))
    while duel.pending is not None and duel.pending.player == 1:  # the opponent passes on the chain
        duel.apply(next(o for o in duel.pending.options if o.key == "pass"))
    assert duel.decks_upside_down
    for viewer, side in ((0, duel.players[1]), (1, duel.players[0])):
        top, rest = side.deck[-1], side.deck[:-1]
        hidden = {c.uid for c in unknown_cards(duel, viewer)}
        assert top.face_up and top.uid not in hidden
        assert rest and all(c.uid in hidden for c in rest)
