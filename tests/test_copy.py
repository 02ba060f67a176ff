"""Copies and determinized worlds: what an AI searching on the real engine relies on."""

import random
from collections import Counter

import pytest

from ygoterm.engine.board import actions
from ygoterm import paths
from ygoterm.agents import RandomAgent
from ygoterm.engine.core import machine
from ygoterm.engine.state.card import CardInst
from ygoterm.engine.core.decision import Kind
from ygoterm.engine.state.determinize import unknown_cards
from ygoterm.engine.duel.protocol import Duel
from ygoterm.engine.core.types import Loc
from ygoterm.schema.decks import find_deck, load_deck


@pytest.fixture(scope="module")
def decks(pool):
    def get(name):
        return load_deck(find_deck(name, paths.deck_dirs()), pool)[0]
    return get("kaiba-dragons"), get("joey-warriors")


def points(pool, decks, seed, every=7):
    """(duel, decision) at every `every`-th decision of a random duel, as it goes."""
    d = Duel.new(pool, decks, seed)
    agents = (RandomAgent(seed), RandomAgent(seed + 1))
    n = 0
    while (decision := d.pending) is not None:
        if n % every == 0:
            yield d, decision
        d.apply(agents[decision.player].choose(None, decision))
        n += 1


def test_a_copy_made_anywhere_plays_on_exactly_like_its_original(pool, decks):
    for seed in (1, 2):
        followers = []
        d = Duel.new(pool, decks, seed)
        agent = RandomAgent(seed)
        n = 0
        while (decision := d.pending) is not None:
            if n % 11 == 0 and len(followers) < 6:
                followers.append(d.copy())
            answer = agent.choose(None, decision)
            d.apply(answer)
            for f in followers:
                f.apply(answer)
                assert f.state_hash() == d.state_hash() and f.pending == d.pending
            n += 1
        for f in followers:
            assert f.outcome == d.outcome and f.log == d.log and f.record.choices == d.record.choices


def test_playing_a_copy_never_changes_the_original(pool, decks):
    for d, _ in points(pool, decks, seed=3, every=13):
        before = (d.state_hash(), len(d.log), [_fields(c) for c in d.cards.values()], list(d.record.choices))
        c = d.copy()
        agent = RandomAgent(5)
        for _ in range(40):
            if c.pending is None:
                break
            c.apply(agent.choose(None, c.pending))
        assert (d.state_hash(), len(d.log), [_fields(x) for x in d.cards.values()], list(d.record.choices)) == before


def _fields(card: CardInst) -> dict[str, object]:
    """Every slot of a card, its containers copied (so a change inside one shows); not its
    option caches, which copies share (a card's options are the same in every copy), nor the
    views it keeps (`seen_as`, worked out again when stale)."""
    values = {name: getattr(card, name) for name in CardInst.__slots__ if name not in ("_duel", "options", "_tagged", "seen_as")}
    return {name: type(v)(v) if isinstance(v, (list, dict)) else v for name, v in values.items()}


def test_a_copy_at_an_open_game_state_is_made_from_data_without_replaying(pool, decks, monkeypatch):
    import ygoterm.engine.duel.replay as replay_module

    monkeypatch.setattr(replay_module, "replay", lambda *a, **k: pytest.fail("copy() replayed the duel"))
    for d, decision in points(pool, decks, seed=4, every=5):
        if decision.kind == Kind.COMMAND and d.turn >= 3:
            assert machine.copyable(d.flow)
            c = d.copy()
            assert c.state_hash() == d.state_hash() and c.pending == d.pending and c.view(0) == d.view(0)
            return
    pytest.fail("no Main Phase command after turn 3")


def test_a_determinized_world_looks_the_same_to_its_viewer(pool, decks):
    checked = 0
    for d, decision in points(pool, decks, seed=6):
        viewer = decision.player
        world = d.determinize(viewer, seed=checked)
        assert world.view(viewer) == d.view(viewer)
        assert world.events_for(viewer) == d.events_for(viewer)
        assert world.pending == d.pending
        for side, real in zip(world.players, d.players):  # same places, same counts
            for pile in ("deck", "hand", "gy", "banished", "extra"):
                assert [c.uid for c in side.pile(pile)] == [c.uid for c in real.pile(pile)]
            assert [c and c.uid for c in side.mzone] == [c and c.uid for c in real.mzone]
        for owner in (0, 1):  # the same cards, only elsewhere
            assert Counter(c.data.id for c in world.cards.values() if c.owner == owner) == \
                Counter(c.data.id for c in d.cards.values() if c.owner == owner)
        checked += 1
    assert checked > 10


def test_what_the_viewer_knows_stays_and_what_it_cannot_see_is_resampled(pool, decks):
    d = Duel.new(pool, decks, seed=8)
    play = RandomAgent(8)
    while d.turn < 4 and d.pending is not None:
        d.apply(play.choose(None, d.pending))
    viewer, foe = 0, 1
    # a card of the opponent's seen face-up and returned to the hand stays known to the viewer
    returned = d.players[foe].deck[-1]
    actions.move(d, returned, Loc.GY, reason="test")
    actions.move(d, returned, Loc.HAND, face_up=False, reason="returned to hand")
    assert returned.uid in d.known[viewer] and returned.uid not in {c.uid for c in unknown_cards(d, viewer)}
    worlds = [d.determinize(viewer, seed) for seed in range(8)]
    for world in worlds:
        assert [c.name for c in world.players[viewer].hand] == [c.name for c in d.players[viewer].hand]
        assert world.cards[returned.uid].name == returned.name
        for seq, card in enumerate(d.players[foe].mzone):
            if card is not None and not card.face_up:
                assert world.players[foe].mzone[seq].is_monster  # a face-down monster stays a monster
    hidden = [c.uid for c in d.players[foe].hand if c.uid != returned.uid] + [c.uid for c in d.players[viewer].deck]
    assert len({tuple(w.cards[u].name for u in hidden) for w in worlds}) == len(worlds)  # other seeds, other worlds
    assert d.determinize(viewer, 3).state_hash() == d.determinize(viewer, 3).state_hash()  # and the same seed, the same


def test_a_normal_set_monster_is_dealt_only_what_its_tributes_allow(pool, decks):
    """R-SUMMON-2 is public: a monster Normal Set without a Tribute is of Level 4 or lower, one
    Set with a Tribute of Level 5 or 6 — a world never deals Blue-Eyes face-down on turn 1."""
    d = Duel.new(pool, decks, seed=12)
    me = d.pending.player  # wins the coin toss and goes first
    side = d.players[me]
    low = next(c for c in side.deck if c.is_monster and c.level <= 4 and not c.data.needs_proper_summon)
    high = next(c for c in side.deck if c.is_monster and c.level in (5, 6) and not c.data.needs_proper_summon)
    actions.move(d, low, Loc.HAND, face_up=False, reason="test")  # (drawn: the opponent does not see them)
    actions.move(d, high, Loc.HAND, face_up=False, reason="test")
    d.apply("first")
    d.apply(next(o for o in d.pending.options if o.verb == "set" and o.card == low.uid))
    assert low.set_with == 0 and not low.face_up
    worlds = [d.determinize(1 - me, seed) for seed in range(30)]
    assert {w.cards[low.uid].level <= 4 for w in worlds} == {True}
    assert len({w.cards[low.uid].name for w in worlds}) > 3  # still unknown: many monsters fit
    # the next turn of the same player: Set with a Tribute, Level 5 or 6
    while not (d.turn == 3 and d.pending.kind == Kind.COMMAND):
        d.apply(next((o for o in d.pending.options if o.verb in ("end", "pass", "main2")), d.pending.options[0]))
    d.apply(next(o for o in d.pending.options if o.verb == "set" and o.card == high.uid))
    d.apply([o for o in d.pending.options if o.card == low.uid])
    assert high.set_with == 1
    levels = {d.determinize(1 - me, seed).cards[high.uid].level for seed in range(30)}
    assert levels <= {5, 6}


def test_kept_pile_views_equal_fresh_ones(pool, decks):
    """Views of cards in hands and piles are kept on the card until it changes (an AI builds a
    view at every play-out decision): they must always equal a view made afresh, in copies and
    determinized worlds too."""
    from ygoterm.engine.board.views import card_view

    checked = 0
    for d, decision in points(pool, decks, seed=14, every=3):
        for duel in (d, d.copy(), d.determinize(decision.player, checked)):
            for viewer in (0, 1):
                view = duel.view(viewer)
                for side, seen in zip(duel.players, view.sides):
                    for pile in ("hand", "extra", "gy", "banished"):
                        assert getattr(seen, pile) == tuple(card_view(c, viewer) for c in side.pile(pile))
        checked += 1
    assert checked > 20


def test_a_shuffled_deck_is_unknown_again(pool, decks):
    d = Duel.new(pool, decks, seed=9)
    d.apply("first")
    card = d.players[1].hand[0]
    actions.move(d, card, Loc.GY, reason="test")
    actions.move(d, card, Loc.DECK, face_up=False, reason="returned to Deck")
    d.shuffle(1)
    assert card.uid not in d.known[0] and card.uid in {c.uid for c in unknown_cards(d, 0)}


def test_determinized_worlds_play_to_their_end(pool, decks):
    rng = random.Random(10)
    for d, decision in points(pool, decks, seed=10, every=25):
        world = d.determinize(decision.player, rng.randrange(1000))
        agent = RandomAgent(rng.randrange(1000))
        while world.pending is not None:
            world.apply(agent.choose(None, world.pending))
        assert world.outcome is not None and world.record is None
        assert d.outcome is None  # the original is untouched


def test_fuzz_with_copies_finds_nothing(cli):
    code, output, errors = cli("fuzz", "--duels", "3", "--seed", "2", "--copies", "--decks", "kaiba-dragons", "joey-warriors")
    assert code == 0, output + errors
    assert "copies played out as their originals" in output and "All invariants held." in output


def test_bench_copy_reports_latency_by_turn(cli):
    code, output, errors = cli("bench", "--copy", "--duels", "2", "--decks", "kaiba-dragons", "joey-warriors")
    assert code == 0, output + errors
    assert "determinize" in output and "turn  3" in output


def test_bench_against_an_unknown_revision_says_so(cli):
    code, output, errors = cli("bench", "--against", "no-such-revision-xyz")
    assert code == 2
    assert "no-such-revision-xyz" in errors


def test_undo_restores_each_earlier_decision_from_snapshots_then_by_replay(pool, decks, monkeypatch):
    from ygoterm.tui.presenters import session as session_module
    from ygoterm.tui.presenters.session import Seat, Session

    monkeypatch.setattr(session_module, "MAX_SNAPSHOTS", 4)
    session = Session.start(Duel.new(pool, decks, 21), pool, (Seat("Ann"), Seat("Bob")), hot_seat=True, autosave=False)
    agent = RandomAgent(21)
    states = []
    while len(states) < 12 and session.duel.pending is not None:
        if not session.duel.pending.options or len(session.duel.pending.options) > 1:
            states.append((session.duel.state_hash(), session.duel.view(0), list(session.duel.record.choices)))
        session.answer(agent.choose(None, session.duel.pending))
    assert len(session.snapshots) == 4
    for state in reversed(states):
        assert session.undo()
        assert (session.duel.state_hash(), session.duel.view(0), list(session.duel.record.choices)) == state
    assert not session.undo()


def test_a_flow_holding_a_generator_is_refused_a_copy_in_words(pool, monkeypatch):
    from ygoterm.engine.effects import registry
    from ygoterm.engine.core.decision import Option
    from ygoterm.engine.duel.position import build_position

    def asks(ctx, params, name):  # an operation written as a generator (a handler might be)
        yield ctx.d.ask(ctx.player, Kind.YESNO, (Option("yes", "yes"), Option("no", "no")), "Really draw?")

    monkeypatch.setitem(registry.VERBS, "draw", asks)
    d = build_position(pool, {"name": "gen", "turn": 3, "A": {"hand": ["Pot of Greed"], "deck": [{"card": "Feral Imp", "count": 5}]}}, seed=1)
    d.apply("activate Pot of Greed")
    while d.pending.kind == Kind.CHAIN:
        d.apply("pass")
    assert d.pending.prompt == "Really draw?"
    with pytest.raises(TypeError, match="generator"):
        d.copy()
