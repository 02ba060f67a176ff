"""The `ygoterm` command as a user meets it."""

import subprocess
import sys


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


def test_cards_search_lists_the_cards_played_by_hand(cli):
    code, out, _ = cli("cards", "search", "play:manual", "--limit", "500")
    assert code == 0
    assert "Fake Trap" in out and "Dark Hole" not in out  # Dark Hole is scripted
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
    code, out, _ = cli("deck", "import", out.strip())
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
    from ygoterm.engine import ops

    def broken(ctx, params, name):
        raise KeyError("simulated engine bug")
        yield

    monkeypatch.setenv("YGOTERM_HOME", str(tmp_path))
    for name in list(ops.OPERATIONS):
        monkeypatch.setitem(ops.OPERATIONS, name, broken)
    code, _, err = cli("bench", "--decks", "kaiba-dragons", "joey-warriors", "--duels", "20")
    text = " ".join(err.split())
    assert code == 70
    assert "internal error resolving" in text and "simulated engine bug" in text and "Traceback" not in text
    assert "bug in ygoterm" in text and (tmp_path / "bugs" / "bug-1.json").is_file()


def test_open_refuses_a_damaged_save_before_the_screen_opens(cli, tmp_path):
    import json

    from ygoterm import paths
    from ygoterm.engine.duel import Duel
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
