"""The `ygoterm` command as a user meets it."""

import subprocess
import sys

import pytest


def test_help_lists_every_command(cli, capsys):
    import pytest

    with pytest.raises(SystemExit) as info:
        from ygoterm.cli import main
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for command in ("check", "cards", "deck", "banlist"):
        assert command in out


def test_check_all_shipped_decks(cli):
    code, out, err = cli("check")
    assert code == 0, out + err
    assert "legal" in out and "illegal" not in out
    assert "Yugi" in out


def test_check_one_deck_prints_a_summary(cli):
    code, out, _ = cli("check", "kaiba-dragons")
    assert code == 0
    assert "40 Main" in out and "Levels" in out


def test_check_unknown_deck_name(cli):
    code, _, err = cli("check", "kaiba-dragon")
    assert code == 2 and "no deck file or deck named 'kaiba-dragon'" in err and "kaiba-dragons" in err


def test_a_usage_error_prints_brackets_as_typed(cli):
    # the message and its hint are text, not markup: "[x]" in a path (or "ygoterm[cluster]" in
    # the hint of a missing Ray) used to vanish
    code, _, err = cli("check", "decks/[x].yaml")
    assert code == 2 and "no deck file or deck named 'decks/[x].yaml'" in err


def test_check_variant_switches(cli, tmp_path):
    deck = tmp_path / "big.yaml"
    names = ["Celtic Guardian", "Mystical Elf", "Giant Soldier of Stone", "Luster Dragon", "Alexandrite Dragon", "Summoned Skull",
             "Blue-Eyes White Dragon", "Dark Magician", "Battle Ox", "Axe Raider", "Feral Imp", "Silver Fang", "Kojikocy",
             "Griffore", "Dark Witch", "Tyhone", "Hitotsu-Me Giant", "Judge Man", "Gemini Elf", "Beaver Warrior", "Armaill",
             "Battle Warrior", "Baby Dragon"]
    deck.write_text("name: Big\nmain:\n" + "".join(f"  {n}: 3\n" for n in names))  # 69 cards
    assert cli("check", deck)[0] == 1
    assert cli("check", deck, "--main-max", "none")[0] == 0
    code, out, _ = cli("check", deck, "--main-max", "none", "--side-exact", "15")
    assert code == 1 and "exactly 15" in " ".join(out.split())


def test_cards_search_with_filters(cli):
    code, out, _ = cli("cards", "search", "dragon", "atk>=2500", "attribute:light")
    assert code == 0
    assert "Blue-Eyes White Dragon" in out and "Luster Dragon" not in out
    code, shell_safe, _ = cli("cards", "search", "dragon", "atk:2500+", "attribute:light")  # (no > for a shell to redirect)
    assert code == 0 and shell_safe == out
    code, out, _ = cli("cards", "search", "dragon", "atk:1900-", "attribute:light")
    assert code == 0 and "│ Blue-Eyes White Dragon" not in out and "│ Mirage Dragon" in out  # (1400 ATK)


def test_cards_search_lists_the_cards_played_by_hand(cli):
    code, out, _ = cli("cards", "search", "play:manual", "--limit", "500")
    assert code == 0
    assert "Bait Doll" in out and "Dark Hole" not in out  # Dark Hole is scripted
    code, out, _ = cli("cards", "search", "play:stats", "dragon", "--limit", "500")
    assert "Blue-Eyes White Dragon" in out and "Alligator's Sword Dragon" not in out


def test_cards_search_unknown_field(cli):
    code, _, err = cli("cards", "search", "colour:red")
    assert code == 2 and "unknown field 'colour'" in err


def test_cards_show(cli):
    code, out, _ = cli("cards", "show", "gemini", "elf")
    assert code == 0
    assert "Gemini Elf" in out and "1900/900" in out and "Passcode" in out


def test_cards_show_suggests(cli):
    code, _, err = cli("cards", "show", "Gemni Elf")
    assert code == 2 and "did you mean 'Gemini Elf'" in err


def test_deck_export_import_round_trip(cli, tmp_path):
    ydk = tmp_path / "kaiba.ydk"
    assert cli("deck", "export", "kaiba-dragons", "-o", ydk)[0] == 0
    yaml_out = tmp_path / "kaiba.yaml"
    assert cli("deck", "import", ydk, "-o", yaml_out)[0] == 0
    assert cli("check", yaml_out)[0] == 0
    code, out, _ = cli("deck", "export", "kaiba-dragons", "--format", "ydke")
    assert code == 0 and out.startswith("ydke://")
    code, out, _ = cli("deck", "import", out.strip(), "-o", "-")
    assert code == 0 and "main:" in out


def test_import_never_overwrites(cli, tmp_path):
    target = tmp_path / "exists.yaml"
    target.write_text("keep me")
    code, _, err = cli("deck", "export", "kaiba-dragons", "-o", target)
    assert code == 2 and "already exists" in err and target.read_text() == "keep me"


def test_banlist_export_import(cli, tmp_path):
    conf = tmp_path / "lflist.conf"
    assert cli("banlist", "export", "classic", "-o", conf)[0] == 0
    code, out, _ = cli("banlist", "import", conf)
    assert code == 0 and "forbidden:" in out


def test_python_dash_m_works():
    result = subprocess.run([sys.executable, "-m", "ygoterm", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "check" in result.stdout


def test_an_effect_bug_exits_70_with_a_replay_for_the_report(cli, monkeypatch, tmp_path):
    from ygoterm.engine.effects import registry

    def broken(ctx, params, name):
        raise KeyError("simulated engine bug")
        yield

    monkeypatch.setenv("YGOTERM_HOME", str(tmp_path))
    for name in list(registry.VERBS):
        monkeypatch.setitem(registry.VERBS, name, broken)
    code, _, err = cli("bench", "--decks", "kaiba-dragons", "joey-warriors", "--duels", "20")
    text = " ".join(err.split())
    assert code == 70
    assert "internal error resolving" in text and "simulated engine bug" in text and "Traceback" not in text
    assert "bug in ygoterm" in text and (tmp_path / "bugs" / "bug-1.json").is_file()


def test_open_refuses_a_damaged_save_before_the_screen_opens(cli, tmp_path):
    import json

    from ygoterm import paths
    from ygoterm.engine.duel.protocol import Duel
    from ygoterm.schema.cardpool import CardPool
    from ygoterm.schema.decks import find_deck, load_deck

    pool = CardPool.load(paths.card_dirs())
    deck = load_deck(find_deck("vanilla-beatdown", paths.deck_dirs()), pool)[0]
    duel = Duel.new(pool, (deck, deck), seed=5)
    for _ in range(12):
        duel.apply(duel.pending.options[0])
    save = tmp_path / "mine.json"
    duel.record.save(save)
    data = json.loads(save.read_text())

    save.write_text(save.read_text()[:200])
    code, _, err = cli("open", save)
    assert code == 2 and "mine.json" in err and "Traceback" not in err

    data["choices"][5] = "summon:99999"
    save.write_text(json.dumps(data))
    code, _, err = cli("open", save)
    assert code == 2 and "mine.json" in err and "summon:99999" in " ".join(err.split())
    assert cli("open", tmp_path / "nothing.json")[0] == 2


def test_arena_reports_win_rates_with_intervals(cli):
    code, out, err = cli("arena", "kaiba-dragons", "joey-warriors", "--agents", "greedy", "random", "--duels", "4", "--workers", "1")
    assert code == 0, err
    assert "greedy vs random · kaiba-dragons vs joey-warriors — 4 duels" in out
    assert "score" in out and "going first" in out and "going second" in out and "mean turns" in out


def test_arena_and_solo_name_the_valid_agents(cli):
    code, _, err = cli("arena", "kaiba-dragons", "--agents", "ai:genius")
    assert code == 2 and "unknown agent 'ai:genius': choose one of random, greedy, ai:easy, ai:normal, ai:hard" in err
    code, _, err = cli("solo", "kaiba-dragons", "--opponent", "ai:expert")
    assert code == 2 and "unknown AI level 'expert'" in err and "ai:hard" in err
    code, _, err = cli("arena", "kaiba-dragons", "--duels", "2", "--out", "results.txt")
    assert code == 2 and "write .json or .csv" in err


def test_arena_writes_every_duel(cli, tmp_path):
    target = tmp_path / "results.json"
    code, out, err = cli("arena", "vanilla-beatdown", "--agents", "greedy", "--duels", "2", "--workers", "1", "--out", target)
    assert code == 0, err
    import json

    rows = json.loads(target.read_text())
    assert [r["number"] for r in rows] == [0, 1] and {"seed", "winner", "deck_a", "agent_a"} <= set(rows[0])


# ---------------------------------------------------------------- issue 13: the CLI as the menu

KAIBA = "kaiba-dragons"


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A user data dir of the test's own (decks/, saves/, settings.json)."""
    folder = tmp_path / "home"
    monkeypatch.setenv("YGOTERM_HOME", str(folder))
    return folder


def _shipped_deck_text(name: str = KAIBA) -> str:
    from ygoterm import paths

    return (paths.shipped("decks") / f"{name}.yaml").read_text()


def _save(path, seed=5):
    from ygoterm import paths
    from ygoterm.engine.duel.protocol import Duel
    from ygoterm.schema.cardpool import CardPool
    from ygoterm.schema.decks import find_deck, load_deck

    pool = CardPool.load(paths.card_dirs())
    deck = load_deck(find_deck("vanilla-beatdown", paths.deck_dirs()), pool)[0]
    duel = Duel.new(pool, (deck, deck), seed=seed)
    duel.apply(duel.pending.options[0])
    path.parent.mkdir(parents=True, exist_ok=True)
    duel.record.save(path)
    return path


def test_open_finds_a_save_by_name(cli, home, started):
    save = _save(home / "saves" / "Kaiba game.json", seed=7)
    _save(home / "saves" / "other.json", seed=5)
    for ref in ("Kaiba game", "kaiba game.json", "KAIBA GAME", save):  # a path still works
        code, _, err = cli("open", ref)
        assert code == 0, err
        assert started["screen"].session.duel.record.seed == 7
    _save(home / "saves" / "autosave.json", seed=9)
    assert cli("open", "autosave")[0] == 0 and started["screen"].session.duel.record.seed == 9


def test_open_unknown_name_lists_the_saves_nearest_first(cli, home):
    for name in ("zebra", "kaiba-game", "joey-game"):
        (home / "saves").mkdir(parents=True, exist_ok=True)
        (home / "saves" / f"{name}.json").write_text("{}")
    code, _, err = cli("open", "kaiba-gam")
    text = " ".join(err.split())
    assert code == 2 and "Traceback" not in err
    assert "no save file or save named 'kaiba-gam'" in text
    assert f"saves in {home / 'saves'}: kaiba-game, joey-game, zebra" in text


def test_open_with_no_saves_says_how_to_make_one(cli, home):
    code, _, err = cli("open", "anything")
    assert code == 2 and "there are no saves" in " ".join(err.split()) and "Traceback" not in err


def test_deck_import_adds_the_deck_to_your_decks_folder(cli, home, tmp_path):
    ydk = tmp_path / "goat.ydk"
    assert cli("deck", "export", KAIBA, "-o", ydk)[0] == 0
    code, out, err = cli("deck", "import", ydk)
    target = home / "decks" / "goat.yaml"
    assert code == 0 and out == "" and target.is_file()
    assert str(target) in " ".join(err.split())
    assert cli("check", "goat")[0] == 0  # found by name, like any deck
    target.write_text(target.read_text() + "# my notes\n")

    code, _, err = cli("deck", "import", ydk)  # again: refused, the file is kept
    text = " ".join(err.split())
    assert code == 2 and "already has a deck file" in text and "--name" in text and "--force" in text
    assert "# my notes" in target.read_text()
    assert cli("deck", "import", ydk, "--force")[0] == 0 and "# my notes" not in target.read_text()
    assert cli("deck", "import", ydk, "--name", "Goat Two")[0] == 0 and (home / "decks" / "goat-two.yaml").is_file()
    assert not list((home / "decks").glob(".*"))  # no temporary files left behind


def test_deck_import_never_hides_another_deck_of_that_name(cli, home, tmp_path):
    ydk = tmp_path / f"{KAIBA}.ydk"
    assert cli("deck", "export", KAIBA, "-o", ydk)[0] == 0
    code, _, err = cli("deck", "import", ydk, "--force")
    assert code == 2 and f"a deck named '{KAIBA}' already exists" in " ".join(err.split()) and "--name" in err
    assert not (home / "decks").exists()


def test_deck_import_prints_or_writes_elsewhere_with_o(cli, home, tmp_path):
    code, link, _ = cli("deck", "export", KAIBA, "--format", "ydke")
    code, out, _ = cli("deck", "import", link.strip(), "-o", "-")
    assert code == 0 and out.startswith("name: Imported deck") and not (home / "decks").exists()
    target = tmp_path / "mine.yaml"
    assert cli("deck", "import", link.strip(), "-o", target)[0] == 0 and "name: mine" in target.read_text()
    code, _, err = cli("deck", "import", link.strip(), "-o", target)
    assert code == 2 and "already exists" in err


def _forbidden_deck(tmp_path):
    """Kaiba's Dragons (banlist: classic) plus a Forbidden Dark Hole."""
    deck = tmp_path / "bad.yaml"
    deck.write_text(_shipped_deck_text().replace("main:\n", "main:\n  Dark Hole: 1\n", 1))
    return deck


def test_duel_and_solo_refuse_an_illegal_deck_as_the_menu_does(cli, home, tmp_path, started):
    from ygoterm import paths
    from ygoterm.schema.cardpool import CardPool
    from ygoterm.tui.presenters.decks import survey_decks

    deck = _forbidden_deck(tmp_path)
    pool = CardPool.load(paths.card_dirs())
    menu = next(e for e in survey_decks(pool, paths.deck_dirs([tmp_path])) if e.path == deck)
    assert not menu.legal
    for args in (("duel", "--p1", deck, "--p2", "joey-warriors"), ("duel", "--p1", KAIBA, "--p2", deck),
                 ("solo", deck), ("solo", KAIBA, "--opponent", deck), ("solo", KAIBA, "--opponent", "ai", "--ai-deck", deck)):
        code, _, err = cli(*args)
        text = " ".join(err.split())
        assert code == 2 and "Traceback" not in err and "screen" not in started, args
        for problem in menu.problems:  # the menu's very lines
            assert " ".join(str(problem).split()) in text
        assert "R-DECK-5" in text and "bad.yaml" in text and "--allow-illegal" in text


def test_allow_illegal_plays_the_deck_and_its_saves_open_again(cli, home, tmp_path, started):
    from ygoterm.engine import load_duel

    deck = tmp_path / "short.yaml"
    deck.write_text(_shipped_deck_text().replace("Blue-Eyes White Dragon: 3", "Blue-Eyes White Dragon: 2"))  # 39 cards
    assert cli("solo", deck)[0] == 2
    code, _, err = cli("solo", deck, "--allow-illegal", "--seed", "3")
    assert code == 0, err
    session = started["screen"].session
    assert len(session.duel.record.decks[0]["main"]) == 39
    assert any("R-DECK-1" in note and "--allow-illegal" in note for note in started["notes"])
    session.duel.record.save(tmp_path / "s.json")
    assert load_duel(tmp_path / "s.json", started["app"].pool).record.seed == 3  # the save keeps the rules it was played under


def test_allow_illegal_cannot_play_a_card_in_the_wrong_deck(cli, home, tmp_path, started):
    deck = tmp_path / "wrong.yaml"
    deck.write_text(_shipped_deck_text().replace("main:\n", "main:\n  Stardust Dragon: 1\n", 1))
    code, _, err = cli("duel", "--p1", deck, "--p2", KAIBA, "--allow-illegal")
    assert code == 2 and "R-DECK-7" in err and "screen" not in started


def _settings(home, lp):
    import json

    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text(json.dumps({"names": ["Ann", "Bob"], "prompts": ["always", "always"], "starting_lp": lp}))
    return home / "settings.json"


def _help(*args) -> str:
    import contextlib
    import io

    from ygoterm.cli import main

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), pytest.raises(SystemExit):
        main([*args, "--help"])
    return " ".join(buffer.getvalue().split())


def test_help_shows_a_default_and_the_settings_file_it_comes_from(home):
    assert "(default: 8000)" in _help("duel")
    settings = _settings(home, 4000)
    for command in ("duel", "solo"):
        assert f"default: 4000, from your settings file {settings}" in _help(command)


def test_a_flag_wins_over_a_setting_and_a_setting_is_never_silent(cli, home, started):
    settings = _settings(home, 4000)
    assert cli("duel", "--p1", KAIBA, "--p2", KAIBA, "--lp", "8000")[0] == 0
    assert started["screen"].session.duel.record.rules.duel.starting_lp == 8000 and not started["notes"]
    assert started["app"].settings.starting_lp == 4000 and '"starting_lp": 4000' in settings.read_text()  # settings untouched
    assert cli("solo", KAIBA)[0] == 0
    assert started["screen"].session.duel.record.rules.duel.starting_lp == 4000
    assert any("4000" in note and str(settings) in note and "--lp" in note for note in started["notes"])


def test_every_command_help_has_a_description_and_says_its_defaults():
    import argparse

    from ygoterm.cli import build_parser

    def parsers(parser, path=()):
        yield path, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    yield from parsers(child, (*path, name))

    checked = 0
    for path, parser in parsers(build_parser()):
        if not path:
            continue
        assert parser.description, f"ygoterm {' '.join(path)} --help has no description"
        text = " ".join(parser.format_help().split())
        for action in parser._actions:
            default = action.default
            if action.option_strings and action.nargs != 0 and default is not None and default is not False \
                    and default != argparse.SUPPRESS:
                assert "default" in " ".join((action.help or "").split()) or f"default: {default}" in text or "(default" in text, \
                    f"ygoterm {' '.join(path)} {action.option_strings[0]}: its default {default!r} is not shown"
                checked += 1
    assert checked > 15
