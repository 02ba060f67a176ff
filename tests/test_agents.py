"""The agents: the AI is honest, every agent answers every kind of decision, the arena is
reproducible, and decisions name what they are about."""

from __future__ import annotations

import json

import pytest

from ygoterm import paths
from ygoterm.agents import AIAgent, GreedyAgent, RandomAgent, make_agent, observe
from ygoterm.analysis.arena import Arena, Matchup, run, schedule, summarize, wilson
from ygoterm.analysis.fuzz import pool_decks
from ygoterm.engine.core.decision import Kind
from ygoterm.engine.duel.protocol import Duel
from ygoterm.schema.decks import find_deck, load_deck

CLASSIC = ("kaiba-dragons", "joey-warriors")


@pytest.fixture(scope="module")
def decks(pool):
    return {n: load_deck(find_deck(n, paths.deck_dirs()), pool)[0] for n in (*CLASSIC, "yugi-spellcasters")}


def _hidden(d: Duel, viewer: int) -> list[tuple[int, str]]:
    """The identities `viewer` cannot see, by uid."""
    foe = d.players[1 - viewer]
    return [(c.uid, c.name) for c in (*foe.hand, *foe.deck, *d.players[viewer].deck)]


def test_the_ai_answers_the_same_whatever_the_hidden_cards_are(pool, decks):
    """Two duels that look the same to the AI (one is a determinized world of the other: same
    view, same history, other hidden cards) get the same answers from AIs with the same seed, and
    the same "why?" (candidates, values, expected line)."""
    d = Duel.new(pool, (decks[CLASSIC[0]], decks[CLASSIC[1]]), 11)
    players = (RandomAgent(1), RandomAgent(2))
    compared = explained = 0
    for step in range(400):
        decision = d.pending
        if decision is None:
            break
        if decision.kind in (Kind.COMMAND, Kind.BATTLE, Kind.CHAIN) and len(decision.options) > 1 and step % 3 == 0:
            me = decision.player
            other = d.determinize(me, 1000 + step)
            assert other.view(me) == d.view(me)
            assert _hidden(other, me) != _hidden(d, me)  # it is a different duel underneath
            ai, twin = AIAgent("normal", seed=5, budget=240), AIAgent("normal", seed=5, budget=240)
            first = ai.choose(observe(d, me, pool), decision)
            second = twin.choose(observe(other, me, pool), other.pending)
            assert first.key == second.key
            assert ai.last == twin.last  # "why?" too: its values and expected line tell nothing hidden
            compared += 1
            explained += ai.last is not None and bool(ai.last.line)
        d.apply(players[decision.player].choose(None, decision))
    assert compared >= 8 and explained >= 4


def test_greedy_and_easy_read_only_their_observation(pool, decks):
    """The rules-of-thumb agents get no duel at all: an Observation without one still works."""
    d = Duel.new(pool, (decks[CLASSIC[0]], decks[CLASSIC[1]]), 3)
    agents = (GreedyAgent(1), AIAgent("easy", 2))
    while (decision := d.pending) is not None:
        obs = observe(d, decision.player, pool)
        obs.view  # (built now, from the duel)
        obs._duel = None  # type: ignore[assignment]  # (anything reading the real duel fails)
        d.apply(agents[decision.player].choose(obs, decision))
    assert d.outcome is not None


@pytest.mark.parametrize("spec", ["greedy", "ai:easy"])
def test_every_kind_of_decision_gets_a_legal_answer(pool, spec):
    """On random decks of every scripted card (Fusion, Ritual, Synchro, Xyz, Link, Pendulum …)."""
    wanted = {Kind.COMMAND, Kind.BATTLE, Kind.CHAIN, Kind.CARDS, Kind.POSITION, Kind.YESNO, Kind.FIRST}
    decks = pool_decks(pool, 80, 4)
    kinds = set()
    for n in range(40):  # (at least 20 duels, and on until every kind of decision has been met)
        if n >= 20 and wanted <= kinds:
            break
        d = Duel.new(pool, (decks[2 * n], decks[2 * n + 1]), n)
        agents = (make_agent(spec, n), make_agent(spec, n + 1))
        while (decision := d.pending) is not None:
            kinds.add(decision.kind)
            d.apply(agents[decision.player].choose(observe(d, decision.player, pool), decision))  # IllegalChoice would fail it
        assert d.outcome is not None
    assert wanted <= kinds


def test_the_ai_searches_within_its_budget_and_says_why(pool, decks):
    d = Duel.new(pool, (decks[CLASSIC[0]], decks[CLASSIC[1]]), 8)
    ai, other = AIAgent("normal", 3, budget=400), GreedyAgent(4)
    thoughts = 0
    lines = 0
    while (decision := d.pending) is not None and d.turn < 6:
        if decision.player == 0:
            ai.last = None
            answer = ai.choose(observe(d, 0, pool), decision)
            if ai.last is not None:
                thoughts += 1
                assert ai.last.chosen == answer.label
                assert sum(v for _, _, v in ai.last.candidates) >= 10
                assert ai.last.lines()[0].endswith(answer.label)
                if ai.last.line:  # the line it expected after that answer
                    lines += 1
                    assert "expected" in ai.last.lines()[-1] and len(ai.last.line) <= 6
        else:
            answer = other.choose(observe(d, 1, pool), decision)
        d.apply(answer)
    assert thoughts > 3 and lines > 0


def test_unknown_agents_are_listed():
    with pytest.raises(ValueError, match="choose one of random, greedy, ai:easy, ai:normal, ai:hard"):
        make_agent("ai:expert", 0)
    with pytest.raises(ValueError, match="unknown agent 'wizard'"):
        make_agent("wizard", 0)


def test_the_arena_gives_the_same_results_on_any_number_of_workers(pool):
    files = {n: find_deck(n, paths.deck_dirs()) for n in CLASSIC}
    matchups = [Matchup(("greedy", "random"), CLASSIC)]
    arena = Arena(paths.card_dirs(), [], files, matchups)
    tasks = schedule(matchups, 8, seed=5)
    one = run(arena, tasks, workers=1)
    two = run(arena, tasks, workers=2)
    strip = lambda rs: [(r.number, r.seed, r.a_deck, r.a_first, r.winner, r.turns, r.reason, r.decisions) for r in rs]
    assert strip(one) == strip(two)
    assert {(r.a_deck, r.a_first) for r in one} == {(0, True), (1, True), (0, False), (1, False)}  # seats and decks swap
    summary = summarize(matchups, one)[0]
    assert summary.total.duels == 8 and summary.going_first.duels == 4
    assert summary.total.wins >= 7  # greedy beats random
    # other agents, the same deals and seatings: two runs compare duel by duel
    other = schedule([Matchup(("ai:easy", "greedy"), CLASSIC)], 8, seed=5)
    assert [(t.seed, t.a_deck, t.a_first) for t in other] == [(t.seed, t.a_deck, t.a_first) for t in tasks]
    assert len({t.seed for t in tasks}) == 8


def test_wilson_intervals():
    low, high = wilson(7, 10)
    assert round(low, 3) == 0.397 and round(high, 3) == 0.892
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


def test_decisions_name_their_subject(pool, decks):
    """A position, Tribute, material or trigger question says which card it is about."""
    seen = set()
    for seed in range(30):
        d = Duel.new(pool, (decks["kaiba-dragons" if seed % 2 else "joey-warriors"], decks["yugi-spellcasters"]), seed)
        agent = RandomAgent(seed)
        while (decision := d.pending) is not None:
            if decision.verb in ("position", "tribute", "trigger", "material", "target"):
                assert decision.subject is not None, decision.prompt
                assert d.cards[decision.subject].name in decision.prompt
                seen.add(decision.verb)
                if decision.verb in ("trigger", "target"):
                    effect = d.cards[decision.subject].effects[decision.effect]
                    assert effect.kind in ("trigger", "flip", "activate", "quick", "ignition")
            view = d.view(decision.player)
            for link, real in zip(view.chain, d.chain):
                assert link.effect == real.index
            assert view.summoning == tuple(c.uid for c in d.summoning)
            d.apply(agent.choose(None, decision))
    assert {"position", "tribute", "trigger", "target"} <= seen


def test_the_arena_on_a_local_ray_gives_the_same_results(pool):
    """The same duels as Ray tasks (a local Ray with 2 CPUs): the same results, in order."""
    pytest.importorskip("ray")
    from ygoterm.analysis.arena import run_on_ray

    files = {n: find_deck(n, paths.deck_dirs()) for n in CLASSIC}
    matchups = [Matchup(("greedy", "ai:easy"), CLASSIC)]
    arena = Arena(paths.card_dirs(), [], files, matchups)
    tasks = schedule(matchups, 10, seed=9)
    strip = lambda rs: [(r.number, r.seed, r.a_deck, r.a_first, r.winner, r.turns, r.reason, r.decisions) for r in rs]
    assert strip(run_on_ray(arena, tasks, "local", 2)) == strip(run(arena, tasks, workers=1))


def test_any_arena_duel_plays_again_alone(cli, pool, tmp_path):
    """--replay MATCHUP:DUEL plays one duel of an arena alone: the same result as in the run,
    everything that happened, and with --save a replay that loads to the same end."""
    from ygoterm.engine import load_duel

    args = ["arena", "kaiba-dragons", "joey-warriors", "yugi-spellcasters", "--agents", "ai:easy", "greedy", "--seed", "3"]
    code, output, errors = cli(*args, "--duels", "3", "--workers", "1", "--out", tmp_path / "r.json")
    assert code == 0, output + errors
    duel = json.loads((tmp_path / "r.json").read_text())[-1]  # matchup 2, duel 2
    code, output, errors = cli(*args, "--replay", f"{duel['matchup']}:{duel['number']}", "--save", tmp_path / "d.json")
    assert code == 0, output + errors
    winner = "A (ai:easy) won" if duel["winner"] == "A" else "B (greedy) won"
    assert f"{winner} on turn {duel['turns']} ({duel['reason']}), {duel['decisions']} decisions" in " ".join(output.split())
    assert "Player 1 drew" in output and "— Turn 2:" in output  # the whole log, hands included
    replayed = load_duel(tmp_path / "d.json", pool)
    assert replayed.turn == duel["turns"] and replayed.outcome is not None
    for wrong, message in (("7", "make 3 matchups"), ("5:0", "matchups 0–2 only"), ("x", "DUEL or MATCHUP:DUEL")):
        code, output, errors = cli(*args, "--replay", wrong)
        assert code == 2 and message in " ".join((output + errors).split()), wrong


def test_an_unreachable_ray_cluster_is_a_clear_error(cli):
    pytest.importorskip("ray")  # (installed by .ci/run; without it, the test below)
    code, _, err = cli("arena", "kaiba-dragons", "--agents", "random", "--duels", "2", "--ray", "127.0.0.1:9")
    assert code == 2 and "cannot reach the Ray cluster at 127.0.0.1:9" in err


def test_the_arena_on_ray_without_ray_installed_says_how_to_install_it(cli):
    try:
        import ray  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("Ray is installed")
    code, _, err = cli("arena", "kaiba-dragons", "--agents", "random", "--duels", "2", "--ray", "127.0.0.1:9")
    assert code == 2 and "Ray is not installed" in err and "pip install 'ygoterm[cluster]'" in err


def test_bench_ai_reports_cpu_time_per_searched_decision(cli):
    code, output, errors = cli("bench", "--ai", "normal", "--duels", "1", "--decks", "vanilla-beatdown", "vanilla-beatdown")
    assert code == 0, output + errors
    assert "searched decisions" in output and "p95" in output and "play-outs" in output
    code, output, errors = cli("bench", "--ai", "expert")
    assert code == 2 and "easy, normal, hard" in output + errors


def test_a_set_card_the_opponent_removes_is_used_in_answer(pool):
    """Mystical Space Typhoon on our Set Castle Walls: the careful AI chains it rather than lose it
    (the chain link's targets are public: `LinkView.target_uids`)."""
    from ygoterm.agents.board import option_reading, threatened
    from ygoterm.agents.policy import Heuristic

    decks = {n: load_deck(find_deck(n, paths.deck_dirs()), pool)[0] for n in ("joey-warriors", "yugi-spellcasters", "mai-harpies")}
    policy, seen = Heuristic(1, careful=True), 0
    for seed in range(40):
        names = list(decks)
        d = Duel.new(pool, (decks[names[seed % 3]], decks[names[(seed + 1) % 3]]), seed)
        agents = (RandomAgent(seed), RandomAgent(seed + 1))
        while (decision := d.pending) is not None and seen < 3:
            if decision.kind == Kind.CHAIN:
                obs = observe(d, decision.player, pool)
                at_risk = threatened(obs)
                usable = [o for o in decision.options if o.verb == "activate" and o.card in at_risk
                          and option_reading(obs, o).useful]
                if usable:
                    assert all(d.cards[o.card].face_up is False for o in usable)
                    assert policy.choose(obs, decision).verb == "activate"
                    seen += 1
            d.apply(agents[decision.player].choose(None, decision))
    assert seen >= 1


# ---------------------------------------------------------------------- the careful heuristic's plays

_DECK = [{"card": "Feral Imp", "count": 20}]  # (a Deck far from running out: no deck-out pressure)


def _position(pool, turn: int, a: dict, b: dict | None = None, turn_player: str = "A", phase: str = "main1") -> Duel:
    from ygoterm.engine.duel.position import build_position

    sides = {"A": {"deck": _DECK, **a}, "B": {"deck": _DECK, **(b or {})}}
    return build_position(pool, {"name": "agent test", "turn": turn, "turn_player": turn_player, "phase": phase, **sides}, seed=1)


def _answers(pool, d: Duel) -> tuple[str, str]:
    """What the careful heuristic (ai:easy) and the beginner (greedy) answer to the pending decision."""
    from ygoterm.agents.policy import Heuristic

    obs = observe(d, d.pending.player, pool)
    return Heuristic(1, careful=True).choose(obs, d.pending).label, Heuristic(1, careful=False).choose(obs, d.pending).label


@pytest.mark.parametrize("why, turn, a, b, careful, beginner", [
    ("a Tribute Summon never gives a monster for a weaker one",
     3, {"hand": ["Judge Man"], "monsters": ["Blue-Eyes White Dragon"]}, {}, "battle", "summon Judge Man"),
    ("a Summon by the monster's own procedure comes first: it keeps the Normal Summon",
     3, {"hand": ["Cyber Dragon", "Vorse Raider"]}, {"monsters": ["Luster Dragon"]}, "special summon Cyber Dragon", "summon Vorse Raider"),
    ("a wall is Set, not Summoned in Attack Position with 100 ATK",
     1, {"hand": ["Big Shield Gardna"]}, {}, "set Big Shield Gardna", "summon Big Shield Gardna"),
    ("a monster that loses to the opponent's best and wins nothing now goes to Defense Position",
     3, {"monsters": ["Gemini Elf"]}, {"monsters": ["Blue-Eyes White Dragon"]}, "switch Gemini Elf to defense", "battle"),
    ("a targeted removal with nothing of the opponent's to target is kept (not fired at our own Field Spell)",
     3, {"hand": ["Mystical Space Typhoon"], "field": {"card": "Mountain", "face_down": False}}, {"monsters": ["Luster Dragon"]},
     "end", "activate Mystical Space Typhoon"),
    ("mass removal that costs us more than the opponent waits, and Waboku waits for an attack",
     3, {"hand": ["Heavy Storm"], "spells": ["Trap Hole", "Waboku"]}, {"spells": ["Mirror Force"]}, "end", "activate Heavy Storm"),
    ("mass removal that costs only the opponent is used",
     3, {"hand": ["Heavy Storm"]}, {"spells": ["Mirror Force", "Trap Hole"]}, "activate Heavy Storm", "activate Heavy Storm"),
])
def test_the_careful_heuristic_plays_the_board(pool, why, turn, a, b, careful, beginner):
    """Positions where ai:easy must make the right play, read from the effect vocabulary (no card
    is named in the heuristic), and what the beginner does instead (greedy: kept as it was)."""
    assert _answers(pool, _position(pool, turn, a, b)) == (careful, beginner), why


def _attack_on_a(d: Duel, attack: str) -> None:
    """Player B (the turn player, in Main Phase 1) declares `attack`; the duel then waits for
    player A's answer to it."""
    d.apply("battle")
    while d.pending.player == 0 or d.pending.kind != Kind.BATTLE:
        d.apply("pass")
    d.apply(attack)
    while d.pending.player != 0:
        d.apply(d.pending.options[-1])


def test_waboku_answers_an_attack_that_would_cost_something(pool):
    """The opponent's Blue-Eyes attacks directly: the careful player protects itself with Waboku
    (`Reading.shields`); the beginner kept Waboku for the End Phase."""
    d = _position(pool, 4, {"spells": ["Waboku"]}, {"monsters": ["Blue-Eyes White Dragon"]}, turn_player="B")
    _attack_on_a(d, "attack Blue-Eyes White Dragon -> direct")
    assert _answers(pool, d) == ("activate Waboku", "pass")


def test_the_ai_keeps_its_cards_when_nothing_asks_for_them(pool):
    """The opponent's Draw and Standby Phases, nothing happening: ai:normal does not fire its Set
    combat trick (Reinforcements) or Call of the Haunted into the opponent's stronger monsters —
    a search there found those plays worth it only because its play-outs' opponent fears a boost
    that lasts one turn. (Before the rule, this position fired both at the Draw Phase.)"""
    d = _position(pool, 4, {"monsters": ["D.D. Warrior Lady"], "spells": ["Reinforcements", "Call of the Haunted"],
                            "gy": ["Garoozis"]},
                  {"monsters": ["Blue-Eyes White Dragon", "Luster Dragon"], "hand": ["Feral Imp"]}, turn_player="B", phase="draw")
    ai, windows = AIAgent("normal", 3), 0
    while d.phase.name in ("DRAW", "STANDBY"):
        decision = d.pending
        if decision.player == 0:
            assert "activate Reinforcements" in [o.label for o in decision.options]
            assert ai.choose(observe(d, 0, pool), decision).verb == "pass"
            windows += 1
        d.apply("pass" if decision.option("pass") else decision.options[-1])
    assert windows >= 2 and [c.name for c in d.players[0].szone if c is not None] == ["Reinforcements", "Call of the Haunted"]


def test_one_trap_answers_an_attack_and_the_wider_one_first(pool):
    """Two opponent's attackers, Luster Dragon attacking: the careful player answers with Mirror
    Force (both attackers) rather than Sakuretsu Armor (one), and does not chain Sakuretsu Armor
    to its own Mirror Force (in duels it fired both at one attack); the beginner fires the first."""
    d = _position(pool, 4, {"spells": ["Sakuretsu Armor", "Mirror Force"]},
                  {"monsters": ["Luster Dragon", "Alexandrite Dragon"]}, turn_player="B")
    _attack_on_a(d, "attack Luster Dragon -> direct")
    assert _answers(pool, d) == ("activate Mirror Force", "activate Sakuretsu Armor")
    d.apply("activate Mirror Force")
    while d.pending.player != 0:
        d.apply(d.pending.options[-1])
    assert d.pending.kind == Kind.CHAIN and "activate Sakuretsu Armor" in [o.label for o in d.pending.options]
    assert _answers(pool, d)[0] == "pass"


def test_the_evaluation_is_the_same_position_seen_from_the_other_side(pool, decks):
    """evaluate(d, 0) == -evaluate(d, 1) everywhere in a duel (its terms are one side's minus the
    other's), and a decided duel is worth ±WIN."""
    from ygoterm.agents.evaluate import WIN, evaluate

    duel = Duel.new(pool, (decks["kaiba-dragons"], decks["joey-warriors"]), 5)
    agent = RandomAgent(5)
    while duel.pending is not None:
        assert evaluate(duel, 0) == pytest.approx(-evaluate(duel, 1))
        duel.apply(agent.choose(None, duel.pending))
    winner = duel.outcome.winner
    assert winner is not None and evaluate(duel, winner) == WIN and evaluate(duel, 1 - winner) == -WIN


def test_the_logistic_fit_finds_the_weights_that_made_the_wins():
    """Synthetic positions whose wins follow known coefficients: the fit finds them again."""
    import math
    import random

    from ygoterm.devtools.fit_evaluation import logistic_fit

    rng = random.Random(3)
    truth = (0.3, 1.5, -0.8)
    xs, ys = [], []
    for _ in range(6000):
        x = [1.0, rng.uniform(-2, 2), rng.uniform(-2, 2)]
        xs.append(x)
        ys.append(rng.random() < 1 / (1 + math.exp(-sum(a * b for a, b in zip(truth, x)))))
    fitted = logistic_fit(xs, ys)
    assert fitted == pytest.approx(truth, abs=0.12)


def test_fitted_weights_keep_life_points_and_scale_each_group():
    from ygoterm.agents.evaluate import WEIGHTS
    from ygoterm.devtools.fit_evaluation import GROUPS, fitted_weights

    weights = fitted_weights([2.0, 4.0, 2.0, 6.0, 1.0])  # (life points ×2: the others are halved against them)
    assert weights[:2] == WEIGHTS[:2]
    assert weights[GROUPS["monsters"][0]] == round(WEIGHTS[GROUPS["monsters"][0]] * 2, 2)
    assert weights[GROUPS["hand"][0]] == WEIGHTS[GROUPS["hand"][0]]
    assert weights[GROUPS["spells & traps"][0]] == round(WEIGHTS[GROUPS["spells & traps"][0]] * 3, 2)
    assert weights[GROUPS["open lethal"][0]] == round(WEIGHTS[GROUPS["open lethal"][0]] / 2, 2)
    assert weights[10] == WEIGHTS[10]  # (the Deck's term belongs to no group)


def test_self_play_positions_say_who_won_from_the_turn_players_side(pool, decks):
    """Each turn start is one position of the turn player's; their `won` flags follow the
    duel's winner, and the same task gives the same positions."""
    from ygoterm.devtools.fit_evaluation import SelfPlay

    job, pair = SelfPlay([], []), [decks["kaiba-dragons"], decks["joey-warriors"]]
    positions = job.play((pool, pair), (11, 0, 1))
    assert positions == job.play((pool, pair), (11, 0, 1)) and len(positions) >= 4
    assert {p.won for p in positions} == {True, False}
    firsts = positions[0::2], positions[1::2]  # (turns alternate between the players)
    assert all(p.won == firsts[0][0].won and (p.deck, p.other) == (firsts[0][0].deck, firsts[0][0].other) for p in firsts[0])
    assert all(p.won != firsts[0][0].won for p in firsts[1])


def test_search_also_weighs_which_card_to_pick(pool):
    """Monster Reborn with two monsters in the Graveyards: the searching AI plays out each target
    (its "why?" lists them, the rules of thumb's pick first); ai:easy takes the rules of thumb's."""
    from ygoterm.agents.ai import _label
    from ygoterm.agents.policy import Heuristic

    d = _position(pool, 3, {"hand": ["Monster Reborn"], "gy": ["Gemini Elf"]}, {"gy": ["Luster Dragon"]})
    d.apply(next(o for o in d.pending.options if o.label == "activate Monster Reborn"))
    decision = d.pending
    assert decision.kind == Kind.CARDS and decision.verb == "target"
    obs = observe(d, decision.player, pool)
    easy, normal = AIAgent("easy", 1), AIAgent("normal", 1, budget=300)
    easy.choose(obs, decision)
    assert easy.last is None
    normal.choose(obs, decision)
    labels = [label for label, _, _ in normal.last.candidates]
    assert sorted(labels) == sorted(o.label for o in decision.options) and len(labels) == 2
    assert labels[0] == _label(Heuristic(1, careful=True).choose(obs, decision))
