"""The engine's protocol as clients use it: determinism, refusals, views, explanations, replays."""

import json

import pytest

from ygoterm.agents import RandomAgent
from ygoterm.engine.core.decision import IllegalChoice, Kind
from ygoterm.engine.duel.protocol import Duel
from ygoterm.engine.core.events import Draw, SetCard
from ygoterm.engine.core.types import Phase
from ygoterm.engine.match.score import Score as Match
from ygoterm.engine import load_record, replay
from ygoterm.schema.decks import load_deck
from ygoterm.schema.problems import DataError
from ygoterm.schema.rules import Rules, DuelRules
from ygoterm import paths
from ygoterm.schema.decks import find_deck
from ygoterm.schema.cards import FIXTURE_PASSCODES


@pytest.fixture(scope="module")
def decks(pool):
    def get(name):
        return load_deck(find_deck(name, paths.deck_dirs()), pool)[0]
    return get("kaiba-dragons"), get("joey-warriors")


def play(duel, seed, limit=None):
    agents = (RandomAgent(seed), RandomAgent(seed + 1))
    n = 0
    while duel.pending is not None and (limit is None or n < limit):
        duel.apply(agents[duel.pending.player].choose(None, duel.pending))
        n += 1
    return duel


def test_same_seed_and_choices_give_the_same_duel(pool, decks):
    a = play(Duel.new(pool, decks, seed=7), seed=1)
    b = play(Duel.new(pool, decks, seed=7), seed=1)
    assert [e.text(a.names) for e in a.log] == [e.text(b.names) for e in b.log]
    assert a.state_hash() == b.state_hash() and a.outcome == b.outcome


def test_as06_rerun_gives_identical_hands(pool, decks):
    def hands(seed):
        d = Duel.new(pool, decks, seed=seed)
        d.apply("first")
        return [[c.name for c in side.hand] for side in d.players]
    assert hands(7) == hands(7)
    assert hands(7) != hands(8)


def test_opening_and_pending_decision(pool, decks):
    d = Duel.new(pool, decks, seed=7)
    assert d.pending.kind == Kind.FIRST and {o.label for o in d.pending.options} == {"first", "second"}
    d.apply("first")
    first = d.turn_player
    assert d.pending.player == first and d.pending.kind == Kind.COMMAND
    assert len(d.players[first].hand) == 5 and len(d.players[first].deck) == 35
    assert any(o.label == "end" for o in d.pending.options)


def test_illegal_choice_changes_nothing(pool, decks):
    d = play(Duel.new(pool, decks, seed=3), seed=3, limit=12)
    before, log_length, pending = d.state_hash(), len(d.log), d.pending
    for bad in ("summon Nonexistent Card", "not a command", "attack:999:direct", ["a", "b"]):
        with pytest.raises(IllegalChoice):
            d.apply(bad)
    assert d.state_hash() == before and len(d.log) == log_length and d.pending is pending


def test_refusal_carries_the_rule(pool, decks):
    d = Duel.new(pool, decks, seed=7)
    d.apply("first")
    p = d.turn_player
    with pytest.raises(IllegalChoice) as info:
        d.apply("battle")
    assert info.value.rule == "R-SETUP-6"
    monster = next(c for c in d.players[p].hand if c.is_monster and c.level <= 4 and not c.special_summon_only)
    d.apply(f"summon {monster.name}")
    other = next((c for c in d.players[p].hand if c.is_monster), None)
    if other is not None:
        reasons = d.explain(p, other.uid)
        assert any(r.rule == "R-SUMMON-1" and "already Normal Summoned" in r.message for r in reasons)


def test_view_hides_the_other_hand_and_face_down_cards(pool, decks):
    d = play(Duel.new(pool, decks, seed=5), seed=5, limit=40)
    for viewer in (0, 1):
        view = d.view(viewer)
        assert all(c.name is not None for c in view.me.hand)
        assert all(c.name is None for c in view.foe.hand)
        assert view.foe.deck == len(d.players[1 - viewer].deck)
        for slot in (*view.foe.monsters, *view.foe.spells):
            if slot is not None and not slot.face_up:
                assert slot.name is None and slot.atk is None
        secret = {c.name for c in d.players[1 - viewer].hand}
        text = repr(view.foe)
        assert not any(name in text for name in secret - {c.name for c in d.players[1 - viewer].gy})


def test_events_for_redacts_the_opponents_secrets(pool, decks):
    d = play(Duel.new(pool, decks, seed=9), seed=9, limit=60)
    for viewer in (0, 1):
        for event in d.events_for(viewer):
            if isinstance(event, Draw) and event.player != viewer:
                assert event.names is None
            if isinstance(event, SetCard) and event.player != viewer:
                assert event.name is None
    assert any(isinstance(e, Draw) and e.names for e in d.log), "the full log keeps the names"


def test_replay_save_and_load(pool, decks, tmp_path):
    d = play(Duel.new(pool, decks, seed=11), seed=11, limit=80)
    path = tmp_path / "duel.json"
    d.record.save(path)
    again = replay(load_record(path, pool), pool)
    assert again.state_hash() == d.state_hash()
    assert again.pending == d.pending


def test_copy_is_independent(pool, decks):
    d = play(Duel.new(pool, decks, seed=12), seed=12, limit=30)
    c = d.copy()
    assert c.state_hash() == d.state_hash()
    play(c, seed=99)
    assert c.outcome is not None and d.outcome is None


@pytest.mark.parametrize("damage", ["truncate", "garbage", "digest", "card", "choice"])
def test_corrupt_saves_are_refused(pool, decks, tmp_path, damage):
    d = play(Duel.new(pool, decks, seed=13), seed=13, limit=50)
    path = tmp_path / "save.json"
    d.record.save(path)
    text = path.read_text()
    data = json.loads(text)
    if damage == "truncate":
        path.write_text(text[: len(text) // 2])
    elif damage == "garbage":
        path.write_bytes(b"\x00\x01binary")
    elif damage == "digest":
        data["digest"] = "0" * 16
        path.write_text(json.dumps(data))
    elif damage == "card":
        data["decks"][0]["main"][0] = 11111111
        path.write_text(json.dumps(data))
    else:
        data["choices"][3] = "summon:99999"
        path.write_text(json.dumps(data))
    with pytest.raises(DataError) as info:
        replay(load_record(path, pool), pool)
    assert str(info.value)


def test_concede(pool, decks):
    d = Duel.new(pool, decks, seed=1)
    d.apply("first")
    d.concede(0)
    assert d.pending is None and d.outcome.winner == 1 and d.outcome.reason == "concession"
    assert replay(d.record, pool).outcome == d.outcome


def test_starting_lp_variant(pool, decks):
    d = Duel.new(pool, decks, seed=1, rules=Rules(duel=DuelRules(starting_lp=2000)))
    assert [p.lp for p in d.players] == [2000, 2000]


def test_always_prompt_mode_asks_at_every_window_without_changing_replays(pool, decks):
    d = Duel.new(pool, decks, seed=21)
    d.set_prompt_mode(0, "always")
    d.set_prompt_mode(1, "always")
    chain_prompts = 0
    agents = (RandomAgent(1), RandomAgent(2))
    for _ in range(150):
        if d.pending is None:
            break
        chain_prompts += d.pending.kind == Kind.CHAIN
        d.apply(agents[d.pending.player].choose(None, d.pending))
    assert chain_prompts > 20
    from ygoterm.engine.duel.protocol import forced

    while d.pending is not None and forced(d.pending):  # stop at a real decision, as "auto" would
        d.apply(d.pending.options[0])
    again = replay(d.record, pool)  # replayed in "auto" mode: the same duel
    assert again.state_hash() == d.state_hash()


def test_as25_match_records():
    m = Match()
    for result in (0, None, None):
        m.record(result, chooser=0)
    assert m.over and m.winner == 0  # 1 win + 2 draws is a match win (R-MATCH-2)
    m = Match()
    for result in (0, 1, None):
        m.record(result, chooser=0)
    assert m.over and m.winner is None
    m = Match()
    m.record(0, chooser=1)  # B lost duel 1 …
    assert m.next_chooser() == 1  # … so B chooses for duel 2 (R-MATCH-3)
    m.record(None, chooser=1)
    assert m.next_chooser() == 1  # after a draw, the last chooser chooses again


def test_fuzz_300_random_duels_keep_every_invariant(pool):
    from ygoterm.analysis.fuzz import fuzz
    from ygoterm.schema.decks import deck_paths

    decks = [load_deck(p, pool)[0] for p in deck_paths(paths.deck_dirs())]
    report = fuzz(pool, decks, duels=300, seed=2026)
    assert report.violation is None, str(report.violation)
    assert report.duels == 300 and sum(report.wins) + report.draws == 300


def test_fuzz_reaches_every_scripted_card_without_breaking_an_invariant(pool):
    from ygoterm.analysis.fuzz import covering, fuzz, pool_decks

    decks = pool_decks(pool, max(12, covering(pool)), seed=7)
    scripted = {c.name for c in pool if c.scripted and c.id not in FIXTURE_PASSCODES}
    used = {c.name for d in decks for c in d.main + d.extra}
    assert used == scripted  # every script takes part
    report = fuzz(pool, decks, duels=80, seed=7)
    assert report.violation is None, str(report.violation)
    assert report.duels == 80


def test_fuzz_and_bench_commands(cli):
    code, out, _ = cli("fuzz", "--duels", "3", "--seed", "1")
    assert code == 0 and "All invariants held" in out
    code, out, _ = cli("bench", "--duels", "3")
    assert code == 0 and "duels/s" in out and "decisions per duel" in out and "p99" in out


def test_manual_actions_are_logged_replayed_and_off_by_default(pool, decks):
    from ygoterm.engine.rules.manual import Manual

    d = Duel.new(pool, decks, seed=4)
    d.apply("first")
    p = d.turn_player
    card = d.players[p].hand[0]
    with pytest.raises(IllegalChoice) as info:
        d.manual(p, Manual("move", card.uid, to="gy"))
    assert info.value.rule == "MANUAL" and "manual_actions" in info.value.message

    d = Duel.new(pool, decks, seed=4, solo=True)
    d.apply("first")
    p = d.turn_player
    card = d.players[p].hand[0]
    d.manual(p, Manual("move", card.uid, to="gy"))
    d.manual(p, Manual("lp", amount=-500))
    d.manual(p, Manual("token", name="Sheep Token", position="defense"))
    d.manual(p, Manual("draw", amount=2))
    assert card in d.players[p].gy and d.players[p].lp == 7500
    assert any(c.name == "Sheep Token" for c in d.players[p].monsters())
    assert len(d.players[p].hand) == 6
    assert "(manual)" in d.log[-1].text(d.names) or any("(manual)" in e.text(d.names) for e in d.log[-6:])
    assert all(o.card != card.uid for o in d.pending.options), "the open decision was asked again"
    with pytest.raises(IllegalChoice):
        d.manual(p, Manual("move", d.players[1 - p].hand[0].uid, to="gy"))  # not yours (R-TERM-5)
    again = replay(d.record, pool)
    assert again.state_hash() == d.state_hash()


def test_effect_error_carries_the_card_and_the_replay(pool, decks, monkeypatch):
    from ygoterm.engine.effects import registry
    from ygoterm.engine import EffectError
    from ygoterm.engine.duel.position import build_position

    data = {"name": "bug", "turn": 3, "A": {"hand": ["Pot of Greed"], "deck": [{"card": "Feral Imp", "count": 5}]}}
    d = build_position(pool, data, seed=1)

    def broken(ctx, params, name):
        raise KeyError("simulated engine bug")
        yield

    monkeypatch.setitem(registry.VERBS, "draw", broken)
    with pytest.raises(EffectError) as info:
        d.apply("activate Pot of Greed")
    assert info.value.card == "Pot of Greed" and "simulated engine bug" in str(info.value)
    assert '"choices"' in info.value.record_json


def test_the_view_says_when_a_window_is_the_last_chance_after_moving_on(pool):
    """R-PRIO-2: moving on to the Battle Phase is the turn player's pass, and the opponent's
    window then is the last chance in Main Phase 1 (`DuelView.closing`); the Summon's windows
    before it are not, nor is the response window inside a chain started there. After that
    chain the turn player is back in Main Phase 1; moving on again opens a last chance again."""
    from ygoterm.engine.duel.position import build_position

    duel = build_position(pool, {"name": "windows", "turn": 3, "A": {"hand": ["Gemini Elf"]},
                                 "B": {"spells": ["Waboku", "Waboku"]}}, seed=1)
    duel.set_prompt_mode(0, "always")
    duel.apply("summon Gemini Elf")
    seen = []
    while not (duel.pending.player == 0 and duel.pending.kind == Kind.COMMAND):
        seen.append(duel.view(duel.pending.player).closing)
        duel.apply("pass")
    assert seen and not any(seen)  # (the Summon's negation window and the one after it)
    duel.apply("battle")
    assert duel.pending.player == 1 and duel.view(1).closing and duel.view(0).closing  # (public: both see it)
    duel.apply("activate Waboku")
    assert duel.pending.player == 0 and duel.pending.kind == Kind.CHAIN and not duel.view(0).closing  # (a chain link's window)
    while duel.pending.kind != Kind.COMMAND:
        duel.apply("pass")
    assert duel.phase == Phase.MAIN1 and duel.pending.player == 0 and not duel.view(0).closing
    duel.apply("battle")
    assert duel.pending.player == 1 and duel.view(1).closing


def test_declaring_a_card_name_offers_the_pool_not_the_opponents_deck(pool):
    """Mind Crush's "declare 1 card name": the options are every name of the pool, the same
    whatever the opponent's Deck holds — naming only the duel's cards would show it."""
    from ygoterm.engine.duel.position import build_position

    def declared_options(opponent_deck: list[str]) -> list[str]:
        data = {"name": "declare", "A": {"hand": ["Gemini Elf"], "spells": ["Mind Crush"]},
                "B": {"hand": ["Feral Imp"], "deck": opponent_deck}, "turn": 3, "turn_player": "B"}
        duel = build_position(pool, data, seed=1)
        duel.apply(next(o for o in duel.pending.options if o.label == "end"))
        while duel.pending.kind != Kind.DECLARE:
            labels = [o.label for o in duel.pending.options]
            duel.apply(next(o for o in duel.pending.options if o.label == ("activate Mind Crush" if "activate Mind Crush" in labels else "pass")))
        return [o.label for o in duel.pending.options]

    with_imp, with_dragon = declared_options(["Feral Imp"]), declared_options(["Blue-Eyes White Dragon"])
    assert with_imp == with_dragon
    assert {"Feral Imp", "Blue-Eyes White Dragon", "Dark Magician"} <= set(with_imp)
    assert len(with_imp) == len(pool.names())
