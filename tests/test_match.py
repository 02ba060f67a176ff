"""Matches (RULES.md §12, R-MATCH-1…5) and tournament time (§13, R-TIME-1…7): engine and CLI.

Duels are decided on purpose here: a concession is a win for the other player (R-WIN-5), and
a Test Mutual Burn at 2000 LP brings both players to 0 at once, a draw (R-WIN-4, AS-25). The
in-duel steps of the time procedure also have scenarios (tests/scenarios/time/).
"""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from ygoterm.agents.random_agent import RandomAgent
from ygoterm.engine.core.decision import IllegalChoice, Kind
from ygoterm.engine.core.events import TimeProcedure
from ygoterm.engine.match.match import Match, SideDone, duel_seed
from ygoterm.engine.match.replay import load_match
from ygoterm.schema.problems import DataError
from tests.conftest import TEST_CARDS, FakeClock
from ygoterm.schema.rules import DeckRules, DuelRules, MatchRules, Rules, TimeRules

BURN = "Test Mutual Burn"


@pytest.fixture
def burn_decks(make_deck):
    """Decks of Test Mutual Burn: whoever goes first can draw the duel at once (2000 LP)."""
    return make_deck(main={BURN: 40}, name="burn A"), make_deck(main={BURN: 40}, name="burn B")


def burn_rules(**time) -> Rules:
    return Rules(deck=DeckRules(max_copies=40), duel=DuelRules(starting_lp=2000), time=TimeRules(**time))


@pytest.fixture
def side_decks(make_deck):
    """Player 1 has a Side Deck (Mystical Elf ×2, Stardust Dragon, Test Zero); Player 2 has none."""
    a = make_deck(main={"Gemini Elf": 3, "Celtic Guardian": 3}, extra={"Number 39: Utopia": 1},
                  side={"Mystical Elf": 2, "Stardust Dragon": 1, "Test Zero": 1}, size=40, name="sided")
    b = make_deck(main={"Luster Dragon": 3}, size=40, name="plain")
    return a, b


def start_duel(m: Match, first: int = 0) -> None:
    """Answer the go-first decision (the coin toss in duel 1, the loser's choice later) so that `first` goes first."""
    d = m.pending
    assert d.kind == Kind.FIRST
    m.apply("first" if d.player == first else "second")


def win(m: Match, winner: int) -> None:
    """The duel being played ends with `winner` winning (the other concedes, R-WIN-5)."""
    if m.pending.kind == Kind.FIRST and m.stage == "duel":
        start_duel(m)
    m.concede(1 - winner)


def draw(m: Match) -> None:
    """The duel being played ends in a draw: the first player's Test Mutual Burn (R-WIN-4)."""
    if m.pending.kind == Kind.FIRST and m.stage == "duel":
        start_duel(m)
    m.apply(f"activate {BURN}")
    while m.stage == "duel" and m.pending is not None:
        m.apply("pass")
    assert m.score.results[-1] is None


def between(m: Match) -> None:
    """Side-decking done for everyone, and the loser's choice: go first."""
    while m.stage == "between" and m.pending.kind == Kind.SIDE:
        m.apply("done")
    if m.stage == "between":
        m.apply("first")


def play_out(m: Match, seed: int = 1, limit: int = 200_000) -> None:
    agents = (RandomAgent(seed), RandomAgent(seed + 1))
    n = 0
    while m.pending is not None and n < limit:
        m.apply(agents[m.pending.player].choose(None, m.pending))
        n += 1


# ---------------------------------------------------------------------- R-MATCH-1…3


def test_r_match_1_first_to_two_wins_and_the_match_stops(pool, burn_decks):
    m = Match.new(pool, burn_decks, 1, burn_rules())
    win(m, 1)
    between(m)
    win(m, 1)
    assert m.outcome.winner == 1 and m.outcome.rule == "R-MATCH-1" and m.pending is None
    assert m.number == 2 and m.stage == "over"  # no third duel once someone has 2 wins
    with pytest.raises(IllegalChoice):
        m.apply("first")


def test_r_match_2_one_win_two_draws_is_a_match_win_as25(pool, burn_decks):
    m = Match.new(pool, burn_decks, 2, burn_rules())
    win(m, 0)
    between(m)
    draw(m)
    between(m)
    draw(m)
    assert m.outcome.winner == 0 and m.outcome.rule == "R-MATCH-2" and m.outcome.reason == "1 win and 2 draws"


def test_r_match_2_win_loss_draw_is_a_match_draw_as25(pool, burn_decks):
    m = Match.new(pool, burn_decks, 3, burn_rules())
    win(m, 0)
    between(m)
    win(m, 1)
    between(m)
    draw(m)
    assert m.outcome.winner is None and m.outcome.rule == "R-MATCH-2" and m.pending is None


def test_v24_extra_duels_after_one_win_and_two_draws(pool, burn_decks):
    rules = burn_rules().model_copy(update={"match": MatchRules(extra_duels_after_draws=True)})
    m = Match.new(pool, burn_decks, 4, rules)
    win(m, 0)
    between(m)
    draw(m)
    between(m)
    draw(m)
    assert m.outcome is None and m.stage == "between"  # V-24: duelling goes on
    between(m)
    assert m.number == 4
    win(m, 0)
    assert m.outcome.winner == 0 and m.outcome.reason == "2 duel wins"


def test_r_match_3_the_loser_chooses_and_after_a_draw_the_last_chooser_again(pool, burn_decks):
    m = Match.new(pool, burn_decks, 5, burn_rules())
    coin = m.pending.player
    assert m.pending.kind == Kind.FIRST and m.stage == "duel"  # duel 1: the coin toss winner (R-SETUP-3)
    win(m, coin)
    d = m.pending
    assert m.stage == "between" and d.kind == Kind.FIRST and d.player == 1 - coin  # the loser chooses (R-MATCH-3)
    assert "R-MATCH-3" in d.prompt
    with pytest.raises(IllegalChoice) as refused:
        m.apply("third")
    assert refused.value.rule == "R-MATCH-3"
    m.apply("second")
    assert m.duel.first_player == coin and m.duel.record.first == coin
    assert m.choosers[-1] == 1 - coin
    draw(m)
    assert m.pending.kind == Kind.FIRST and m.pending.player == 1 - coin  # after a draw: the last chooser again


def test_a_victory_dragon_win_takes_the_match_at_0_1(pool, burn_decks):
    """R-MATCH-1 / Appendix A: Victory Dragon's lethal direct attack wins the match, even behind."""
    from ygoterm.engine.duel.position import build_position
    from ygoterm.schema.yamlio import load
    from tests.conftest import ROOT

    m = Match.new(pool, burn_decks, 6, burn_rules())
    win(m, 1)  # Player 1 loses duel 1 …
    between(m)
    data, _ = load(ROOT / "tests/scenarios/cards/monsters/victory-dragon-wins-the-match.yaml", max_bytes=1 << 20)
    m.duels[-1] = build_position(pool, data, 0)  # … and duel 2 reaches this position (white-box)
    m._refresh()
    for command in ("summon Victory Dragon", "tribute Luster Dragon, Alexandrite Dragon, Spear Dragon", "battle",
                    "attack Victory Dragon -> direct"):
        m.apply(command)
        while m.stage == "duel" and m.pending is not None and m.pending.kind == Kind.CHAIN:
            m.apply("pass")
    assert m.score.results == [1, 0] and m.score.taken_by == 0
    assert m.outcome.winner == 0 and m.outcome.rule == "R-MATCH-1" and "Victory Dragon" in m.outcome.reason


# ---------------------------------------------------------------------- R-MATCH-4/5: side-decking


def test_r_match_5_no_siding_before_duel_1_and_every_match_starts_registered(pool, side_decks):
    m = Match.new(pool, side_decks, 7)
    assert m.stage == "duel" and m.pending.kind == Kind.FIRST  # straight to duel 1's coin toss
    win(m, 1)
    assert m.pending.kind == Kind.SIDE and m.pending.player == 0
    m.apply("swap Celtic Guardian for Mystical Elf")
    assert m.deck(0).main.count(pool.get("Mystical Elf")) == 1
    again = Match.new(pool, side_decks, 7)  # a new match: the registered lists (R-MATCH-5, R-DECK-9)
    assert again.duel.record.decks == Match.new(pool, side_decks, 7).duel.record.decks
    assert again.deck(0).main.count(pool.get("Mystical Elf")) == 0


def test_r_match_4_side_deck_exchanges_and_their_refusals(pool, side_decks):
    m = Match.new(pool, side_decks, 8)
    win(m, 1)
    d = m.pending
    assert d.kind == Kind.SIDE and d.player == 0 and d.options[0].key == "done"
    labels = {o.label for o in d.options}
    assert "swap Celtic Guardian for Mystical Elf" in labels
    assert "swap Number 39: Utopia for Stardust Dragon" in labels  # Extra for Extra
    assert not any(label.endswith("for Stardust Dragon") and "Utopia" not in label for label in labels)
    refusals = {
        "swap Celtic Guardian, Gemini Elf for Mystical Elf": "R-MATCH-4",  # the sizes would change
        "swap Celtic Guardian for Gemini Elf": "R-DECK-4",  # a 4th copy (Gemini Elf is not in the Side Deck)
        "swap Celtic Guardian for Stardust Dragon": "R-DECK-7",  # an Extra Deck card into the Main Deck
        "swap Number 39: Utopia for Test Zero": "R-DECK-7",  # a Main Deck card into the Extra Deck
        "swap Man-Eater Bug for Mystical Elf": "R-MATCH-4",  # not in this deck
        "swap Celtic Guardian for Pot of Greed": "R-MATCH-4",  # not in the Side Deck
    }
    for command, rule in refusals.items():
        with pytest.raises(IllegalChoice) as refused:
            m.apply(command)
        assert refused.value.rule == rule, (command, refused.value)
        assert m.pending is d  # nothing changed
    m.apply("swap Celtic Guardian, Celtic Guardian for Mystical Elf, Mystical Elf")
    m.apply("swap:84013237:44508094")  # Utopia out, Stardust Dragon in (passcodes)
    deck = m.deck(0)
    assert (len(deck.main), len(deck.extra), len(deck.side)) == (40, 1, 4)  # sizes never change (R-MATCH-4)
    assert [c.name for c in deck.extra] == ["Stardust Dragon"]
    assert any(o.key == "reset" for o in m.pending.options)
    m.apply("done")
    done = [e for e in m.log if isinstance(e, SideDone)][-1]
    assert done.out == ("Celtic Guardian", "Celtic Guardian", "Number 39: Utopia")
    assert m.pending.kind == Kind.FIRST  # Player 2 has no Side Deck: no siding (R-MATCH-4)
    m.apply("first")
    saved = m.duel.record.decks[0]
    assert saved["extra"] == [pool.get("Stardust Dragon").id] and len(saved["side"]) == 4
    win(m, 0)
    m.apply("reset")  # back to the registered lists
    assert m.deck(0).main == side_decks[0].main and m.deck(0).extra == side_decks[0].extra


def test_a_deck_without_a_side_deck_skips_siding(pool, burn_decks):
    m = Match.new(pool, burn_decks, 9, burn_rules())
    win(m, 0)
    assert m.stage == "between" and m.pending.kind == Kind.FIRST and m.between[-1] == []


# ---------------------------------------------------------------------- R-TIME


def test_time_rules_classic2005_is_fixed_and_custom_is_free():
    with pytest.raises(ValidationError):
        TimeRules(extra_turns=2)  # V-25: classic2005 is R-TIME-2…7 as written
    custom = TimeRules(procedure="custom", extra_turns=2, equal_lp="draw", level_wins="draw", match_minutes=50)
    assert custom.extra_turns == 2 and TimeRules(match_minutes=0).procedure == "classic2005"


def test_r_time_1_turn_and_break_warnings_are_notices_only(pool, burn_decks):
    clock = FakeClock()
    m = Match.new(pool, burn_decks, 10, burn_rules(), tournament=True, clock=clock)
    start_duel(m)
    clock.advance(3.5)
    status = m.clock_status()
    assert status.turn_warning and status.remaining == pytest.approx(36.5 * 60) and not status.called
    assert m.duel.players[0].lp == 2000 and m.outcome is None  # no penalty
    m.concede(0)
    clock.advance(4)
    status = m.clock_status()
    assert status.break_warning and not status.turn_warning and m.stage == "between"
    assert "break" in status.text()


def test_r_time_2_time_called_in_the_middle_of_the_opponents_turn(pool, make_deck):
    decks = make_deck(size=40, name="a"), make_deck(main={"Gemini Elf": 3}, size=40, name="b")
    clock = FakeClock()
    m = Match.new(pool, decks, 11, tournament=True, clock=clock)
    agents = (RandomAgent(3), RandomAgent(4))
    while m.duel.turn < 2:
        m.apply(agents[m.pending.player].choose(None, m.pending))
    for _ in range(2):  # into the second player's turn 2 …
        m.apply(agents[m.pending.player].choose(None, m.pending))
    assert m.duel.turn == 2
    their_opponent = 1 - m.duel.turn_player
    clock.advance(41)
    m.tick()
    limit = m.duel.time_limit
    assert (limit.called_turn, limit.last_turn) == (2, 5) and m.time_called == {"duel": 1, "turn": 2}
    assert m.duel.turn == 2 and m.outcome is None  # the current turn goes on (R-TIME-2)
    play_out(m)
    extra = [e for e in m.duel.log if isinstance(e, TimeProcedure) and e.step == "extra_turn"]
    assert [e.turn for e in extra][:1] == [3] and m.names[their_opponent] in extra[0].message  # the opponent's turn first
    assert m.duel.outcome.reason == "time" or m.duel.turn <= 5 or m.duel.time_limit.sudden_death
    assert m.outcome.rule in ("R-TIME-5", "R-TIME-6")


def test_r_time_5_after_the_timed_duel_the_player_with_more_wins_takes_the_match(pool, burn_decks):
    m = Match.new(pool, burn_decks, 12, burn_rules(), tournament=True)
    win(m, 0)
    between(m)
    m.call_time()
    assert m.outcome is None and m.duel.time_limit is not None
    draw(m)
    assert m.outcome.winner == 0 and m.outcome.rule == "R-TIME-5" and m.score.text() == "1–0 (1 draw)"


def test_r_time_5_and_6_level_wins_mean_an_extra_duel_of_4_turns_from_8000(pool, make_deck):
    decks = make_deck(size=40, name="a"), make_deck(size=40, name="b")
    m = Match.new(pool, decks, 13, Rules(duel=DuelRules(starting_lp=4000)), tournament=True)
    win(m, 0)
    between(m)
    m.call_time()
    win(m, 1)  # 1–1 when the timed duel ends
    assert m.outcome is None and m.pending.kind == Kind.FIRST and "extra duel" in m.pending.prompt
    m.apply("first")
    extra = m.duel
    assert extra.players[0].lp == 8000 and extra.time_limit.kind == "extra_duel" and extra.time_limit.last_turn == 4
    agent = RandomAgent(7)
    while m.pending is not None:  # nobody acts in turns 1-4: equal LP after turn 4, then sudden death
        d = m.pending
        if m.duel.turn <= 4:
            m.apply(d.option("end") or d.option("pass") or (list(d.options[:d.min]) if d.multi else d.options[0]))
        else:
            m.apply(agent.choose(None, d))
    steps = [e.step for e in extra.log if isinstance(e, TimeProcedure)]
    assert steps[:5] == ["called", "extra_turn", "extra_turn", "extra_turn", "extra_turn"] and "sudden_death" in steps
    assert extra.outcome.reason == "time" and "sudden death" in extra.outcome.detail
    assert m.outcome.rule == "R-TIME-6" and m.outcome.winner == extra.outcome.winner


def test_r_time_7_time_runs_out_between_duels_at_1_0(pool, side_decks):
    clock = FakeClock()
    m = Match.new(pool, side_decks, 14, tournament=True, clock=clock)
    win(m, 1)
    assert m.pending.kind == Kind.SIDE
    m.apply("swap Celtic Guardian for Mystical Elf")
    clock.advance(45)
    m.tick()
    assert m.outcome.winner == 1 and m.outcome.rule == "R-TIME-7" and m.time_called == {"between": 1}
    assert m.between[-1][-1] == "!time"


def test_r_time_6_time_runs_out_between_duels_at_1_1(pool, burn_decks):
    clock = FakeClock()
    m = Match.new(pool, burn_decks, 15, burn_rules(), tournament=True, clock=clock)
    win(m, 0)
    between(m)
    win(m, 1)
    clock.advance(40)
    m.tick()
    assert m.outcome is None and m.pending.kind == Kind.FIRST and "extra duel" in m.pending.prompt
    assert m.clock_status().stage == "extra duel"
    m.apply("second")
    assert m.duel.time_limit.kind == "extra_duel" and m.duel.players[0].lp == 8000  # R-TIME-6: from 8000 LP
    draw_or_win = m.pending
    assert draw_or_win is not None
    m.concede(0)
    assert m.outcome.winner == 1 and m.outcome.rule == "R-TIME-6"


def test_custom_procedure_level_wins_are_a_match_draw(pool, burn_decks):
    m = Match.new(pool, burn_decks, 16, burn_rules(procedure="custom", level_wins="draw"), tournament=True)
    win(m, 0)
    between(m)
    win(m, 1)
    m.call_time()
    assert m.outcome.winner is None and m.outcome.rule == "R-TIME-6"


def test_time_is_called_only_in_tournament_mode(pool, burn_decks):
    m = Match.new(pool, burn_decks, 17, burn_rules())
    with pytest.raises(IllegalChoice) as refused:
        m.call_time()
    assert refused.value.rule == "R-TIME-1"


# ---------------------------------------------------------------------- saves, determinism, the CLI


def _sided_timed_match(pool, side_decks) -> Match:
    clock = FakeClock()
    m = Match.new(pool, side_decks, 18, tournament=True, clock=clock)
    win(m, 1)
    m.apply("swap Celtic Guardian for Mystical Elf")
    m.apply("done")
    m.apply("second")
    agents = (RandomAgent(5), RandomAgent(6))
    for _ in range(60):
        m.apply(agents[m.pending.player].choose(None, m.pending))
    clock.advance(50)
    play_out(m, seed=5)
    return m


def test_a_saved_match_replays_to_the_same_record(pool, side_decks, tmp_path):
    m = _sided_timed_match(pool, side_decks)
    assert m.outcome is not None and m.time_called is not None and m.time_called.get("duel") == 2
    path = tmp_path / "match.json"
    m.record.save(path)
    again = load_match(path, pool)
    assert again.record.to_json() == m.record.to_json()
    assert again.outcome == m.outcome and [d.state_hash() for d in again.duels] == [d.state_hash() for d in m.duels]
    # determinism: the same decks, seed and answers give the same match, byte for byte
    assert _sided_timed_match(pool, side_decks).record.to_json() == m.record.to_json()
    assert m.duels[1].record.seed == duel_seed(18, 2)


def test_an_unfinished_match_save_resumes_where_it_was(pool, side_decks, tmp_path):
    m = Match.new(pool, side_decks, 19)
    win(m, 1)
    m.apply("swap Celtic Guardian for Mystical Elf")
    path = tmp_path / "half.json"
    m.record.save(path)
    again = load_match(path, pool)
    assert again.pending == m.pending and again.deck(0).main == m.deck(0).main


def _corrupt(tmp_path, pool, side_decks):
    m = Match.new(pool, side_decks, 20)
    win(m, 1)
    m.apply("swap Celtic Guardian for Mystical Elf")
    m.apply("done")
    m.apply("first")
    path = tmp_path / "good.json"
    m.record.save(path)
    return json.loads(path.read_text())


@pytest.mark.parametrize("damage, message", [
    (lambda data: json.dumps(data, indent=1)[:300], "not a valid save"),
    (lambda data: json.dumps({**data, "format": "ygoterm-replay"}), "not a ygoterm match save file"),
    (lambda data: json.dumps({**data, "digest": "0" * 16}), "card definitions changed"),
    (lambda data: json.dumps({**data, "between": [["0:swap:1:2", "0:done"]]}), "not legal here"),
    (lambda data: json.dumps({**data, "duels": [data["duels"][0], {**data["duels"][1], "seed": 5}]}), "not the duel this match starts"),
    (lambda data: json.dumps({**data, "between": [["0:launch"]]}), "is not an answer between duels"),
    (lambda data: json.dumps({**data, "results": [{"winner": 1, "reason": "LP", "turns": 9}]}), "replays as"),
    (lambda data: json.dumps({**data, "duels": [{**data["duels"][0], "choices": ["!time:nonsense"]}, data["duels"][1]]}), "is not a recorded answer"),
])
def test_a_corrupt_match_save_is_a_clear_error_exit_2(cli, pool, side_decks, tmp_path, damage, message):
    data = _corrupt(tmp_path, pool, side_decks)
    path = tmp_path / "bad.json"
    path.write_text(damage(data))
    with pytest.raises(DataError):
        load_match(path, pool)
    code, out, err = cli("--cards", TEST_CARDS, "match", "--replay", path)
    text = " ".join(err.split())
    assert code == 2 and "bad.json" in text and message in text and "Traceback" not in text + out


def test_cli_match_auto_tournament_time_0_prints_the_time_procedure(cli, tmp_path):
    args = ("match", "--p1", "vanilla-beatdown", "--p2", "vanilla-beatdown", "--seed", "3", "--auto", "random", "random",
            "--tournament", "--time", "0")
    code, out, _ = cli(*args, "--save", tmp_path / "m.json")
    text = " ".join(out.split())
    assert code == 0, out
    assert "Match time is up during duel 1" in text and "Extra turn 1 of 3" in text and "(R-TIME-2)" in text
    assert "wins the match" in text or "match is a draw" in text
    assert "chooses to go" in text
    code2, out2, _ = cli(*args)
    assert code2 == 0 and out2 == out[:out.index("match save:")]  # the same match again (no save line)
    code, replayed, _ = cli("match", "--replay", tmp_path / "m.json")
    assert code == 0 and "verified: 1 duel replays to the saved record" in " ".join(replayed.split())
    assert replayed.split("\n")[1:4] == out.split("\n")[1:4]


def test_cli_match_without_auto_opens_the_match_in_the_tui(cli, monkeypatch, tmp_path):
    """`ygoterm match` without --auto opens the match screen (hot-seat, or --opponent ai:LEVEL),
    and `ygoterm open` resumes a saved match."""
    from ygoterm.cli import menu
    from ygoterm.tui.app import YgoApp

    monkeypatch.setenv("YGOTERM_HOME", str(tmp_path / "home"))
    seen: dict = {}
    monkeypatch.setattr(YgoApp, "notify", lambda app, message, **kw: None)

    def run(app):
        seen["screen"] = app.start(app)
        return 0

    monkeypatch.setattr(menu, "run_app", run)
    code, _, err = cli("match", "--p1", "vanilla-beatdown", "--p2", "vanilla-beatdown", "--seed", "3", "--tournament", "--time", "5")
    assert code == 0, err
    match = seen["screen"].run.match
    assert type(seen["screen"]).__name__ == "MatchDuelScreen" and match.tournament and match.rules.time.match_minutes == 5
    assert seen["screen"].run.hot_seat and match.seed == 3
    code, _, err = cli("match", "--p1", "vanilla-beatdown", "--p2", "vanilla-beatdown", "--opponent", "ai:easy")
    assert code == 0, err
    assert [s.kind for s in seen["screen"].run.seats] == ["human", "ai:easy"] and not seen["screen"].run.hot_seat
    saved = tmp_path / "m.json"
    match.record.save(saved)
    code, _, err = cli("open", saved)
    assert code == 0, err
    assert seen["screen"].run.match.record.to_json() == match.record.to_json() and seen["screen"].run.match.tournament
    code, _, err = cli("match", "--p1", "vanilla-beatdown", "--p2", "vanilla-beatdown", "--opponent", "ai:wizard")
    assert code == 2 and "ai:easy" in err
    code, _, err = cli("match", "--p1", "vanilla-beatdown")
    assert code == 2
    code, _, err = cli("match", "--p1", "vanilla-beatdown", "--p2", "vanilla-beatdown", "--time", "5", "--auto", "random", "random")
    assert code == 2 and "--tournament" in err


def test_a_match_of_goat_decks_is_played_under_the_goat_rules(cli, monkeypatch, tmp_path):
    """Decks built for 2005 (`rules: goat`) play their match under those rules, as their duels do:
    the match (in the TUI and with --auto) took the default rules — an Extra Monster Zone on the
    board, no draw for the first player (seen playing Zombie against the AI's Chaos)."""
    from ygoterm.cli import menu
    from ygoterm.tui.app import YgoApp

    monkeypatch.setenv("YGOTERM_HOME", str(tmp_path / "home"))
    seen: dict = {}
    monkeypatch.setattr(YgoApp, "notify", lambda app, message, **kw: None)
    monkeypatch.setattr(menu, "run_app", lambda app: seen.update(screen=app.start(app)) or 0)
    code, _, err = cli("match", "--p1", "goat/zombie", "--p2", "goat/chaos-control", "--seed", "3", "--opponent", "ai:easy")
    assert code == 0, err
    rules = seen["screen"].run.match.duel.rules
    assert (rules.format, rules.ruleset, rules.duel.first_turn_draw) == ("goat", "mr3", True)

    code, out, err = cli("match", "--p1", "goat/zombie", "--p2", "goat/burn", "--seed", "3", "--auto", "random", "random",
                         "--save", tmp_path / "m.json")
    assert code == 0, err
    saved = json.loads((tmp_path / "m.json").read_text())
    assert saved["rules"]["format"] == "goat" and saved["rules"]["ruleset"] == "mr3"
