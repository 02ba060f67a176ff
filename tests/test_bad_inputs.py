"""The corpus of broken files under tests/data/bad: every one gets `file:line` messages, a
non-zero exit and no traceback, and nothing in any file is executed."""

import html
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

BAD = Path(__file__).parent / "data" / "bad"

# file → (what is said, exit code). Deck rule violations exit 1; unreadable input exits 2.
EXPECT = {
    "deck-malformed-yaml.yaml": ("YAML syntax error", 2),
    "deck-tab-indent.yaml": ("indent with spaces, not tabs", 2),
    "deck-count-not-number.yaml": ("the count of 'Gemini Elf' must be a whole number, not 'three'", 2),
    "deck-unknown-key.yaml": ("unknown field 'mian'  (did you mean 'main'?)", 2),
    "deck-unknown-card.yaml": ("unknown card 'Blue Eyes Ultimate Dragon Knight' [R-DECK-8]  (did you mean 'Blue-Eyes Ultimate Dragon'", 1),
    "deck-misspelled-card.yaml": ("unknown card 'Celtic Guardain' [R-DECK-8]  (did you mean 'Celtic Guardian'", 1),
    "deck-39-main.yaml": ("Main Deck has 39 cards; it needs 40 to 60 [R-DECK-1]  (add 1 more)", 1),
    "deck-61-main.yaml": ("Main Deck has 61 cards; it needs 40 to 60 [R-DECK-1]  (remove 1)", 1),
    "deck-16-extra.yaml": ("Extra Deck has 16 cards; the most is 15 [R-DECK-2]", 1),
    "deck-16-side.yaml": ("Side Deck has 16 cards; the most is 15 [R-DECK-3]", 1),
    "deck-4-copies-main-side.yaml": ("'Gemini Elf': 4 copies (max 3) across Main, Extra and Side [R-DECK-4]", 1),
    "deck-extra-monster-in-main.yaml": ("'Stardust Dragon' is a Synchro monster and belongs in the Extra Deck", 1),
    "deck-main-monster-in-extra.yaml": ("'Gemini Elf' is not a Fusion, Synchro, Xyz or Link monster and cannot go in the Extra Deck", 1),
    "deck-bad-passcode.yaml": ("unknown card passcode 12345678 [R-DECK-8]", 1),
    "deck-negative-count.yaml": ("-2 copies of 'Gemini Elf' is not a possible count", 2),
    "deck-huge-count.yaml": ("1000000000 copies of 'Gemini Elf' is not a possible count", 2),
    "deck-not-a-mapping.yaml": ("a deck file must be a mapping", 2),
    "deck-scalar.yaml": ("a deck file must be a mapping", 2),
    "deck-python-tag.yaml": ("tags such as !!python/... are not allowed", 2),
    "deck-duplicate-key.yaml": ("duplicate key", 2),
    "deck-unknown-banlist.yaml": ("unknown banlist 'clasic' [R-DECK-5]  (did you mean 'classic'?)", 1),
    "deck-empty.yaml": ("the deck file is empty", 2),
    "deck-main-wrong-type.yaml": ("'main' must be a mapping of 'Card Name: count' or a list of card names", 2),
    "deck-alias-bomb.yaml": ("an alias bomb", 2),
    "deck-binary.yaml": ("this is a binary file, not YAML text", 2),
    "deck-latin1.yaml": ("not UTF-8 text (byte 0xe9)", 2),
    "deck-very-large.yaml": ("the limit for this kind of file is", 2),
    "cards-bad-kind.yaml": ("unknown kind 'monstr'", 2),
    "cards-missing-fields.yaml": ("required field 'type' is missing", 2),
    "cards-unknown-key.yaml": ("unknown field 'txt'  (did you mean 'text'?)", 2),
    "cards-duplicate-id.yaml": ("duplicate id 89631139: already used by 'Blue-Eyes White Dragon' at cards/", 2),
    "cards-bad-values.yaml": ("'PURPLE' is not a known Attribute", 2),
    "cards-not-a-list.yaml": ("a card file must be a list of cards", 2),
    "deck-ydk-garbage.ydk": ("expected a passcode (digits), found 'Blue-Eyes White Dragon'", 2),
    "deck-ydk-unknown.ydk": ("unknown passcode 11112222", 1),
    # values the YAML library used to raise on, Unicode digits, other encodings, many problems
    "cards-impossible-date.yaml": ("must be a whole number or '?', not '2005-02-30'", 2),
    "cards-huge-int.yaml": ("this number has 5,000 characters", 2),
    "cards-infinite-atk.yaml": ("must be a whole number or '?', not inf", 2),
    "cards-unicode-digit-id.yaml": ("expected a whole number, found '9910000²'", 2),
    "cards-utf16.yaml": ("this is UTF-16 text, not UTF-8", 2),
    "cards-many-duplicates.yaml": ("more problems in this file are not shown", 2),
    "deck-huge-count-digits.yaml": ("this number has 5,000 characters", 2),
    "deck-unicode-digit-count.yaml": ("the count of 'Gemini Elf' must be a whole number, not '³'", 2),
    "deck-utf16.yaml": ("this is UTF-16 text, not UTF-8", 2),
    "deck-impossible-date.yaml": ("the count of 'Gemini Elf' must be a whole number, not '2005-02-30'", 2),
    # banlists: YGOPro lflist.conf and YAML
    "banlist-count-99.conf": ("99 is not a limit", 2),
    "banlist-unicode-digit.conf": ("expected 'PASSCODE COUNT --comment', found '8963113² 1 --Blue-Eyes'", 2),
    "banlist-garbage.conf": ("expected 'PASSCODE COUNT --comment', found 'this is not a banlist'", 2),
    "banlist-impossible-date.yaml": ("date  Input should be a valid date", 2),
    "banlist-huge-int.yaml": ("this number has 5,000 characters", 2),
    # .ydk imports are checked like deck files
    "deck-ydk-200-copies.ydk": ("'Blue-Eyes White Dragon': 200 copies (max 3)", 1),
    "deck-ydk-no-cards.ydk": ("Main Deck has 0 cards; it needs 40 to 60 [R-DECK-1]", 1),
    "deck-ydk-extra-in-main.ydk": ("'Stardust Dragon' is a Synchro monster and belongs in the Extra Deck", 1),
    "deck-ydk-unicode-digit.ydk": ("expected a passcode (digits), found '8963113²'", 2),
    # scenario positions a duel could never be in, paths outside, hostile nesting
    "scenario-monster-in-spells.yaml": ("Gemini Elf is a monster: put it under 'monsters'", 2),
    "scenario-synchro-in-hand.yaml": ("Stardust Dragon is an Extra Deck monster: it cannot be in the hand (R-DECK-7)", 2),
    "scenario-spell-in-monsters.yaml": ("Dark Hole is not a monster", 2),
    "scenario-trap-in-field.yaml": ("Trap Hole is not a Field Spell", 2),
    "scenario-six-monsters.yaml": ("no free Monster Zone for Celtic Guardian", 2),
    "scenario-cards-outside.yaml": ("/etc: outside the folders a scenario may read", 2),
    "scenario-impossible-date.yaml": ("turn  expected a whole number, found '2005-02-30'", 2),
    "scenario-deep-flow.yaml": ("YAML nesting is deeper than 500 levels", 2),
    # saves: damaged, truncated, edited
    "save-deck-200.json": ("deck 'Vanilla Beatdown' could not start a duel: Main Deck has 200 cards", 2),
    "save-deck-empty.json": ("could not start a duel: Main Deck has 0 cards", 2),
    "save-one-deck.json": ("a save holds the decks of 2 players, not 1", 2),
    "save-side-unknown.json": ("the save uses card not in the card pool: 99999999", 2),
    "save-bad-concession.json": ("recorded answer '!concede:x' is not a recorded answer", 2),
    "save-answer-garbage.json": ("recorded answer 'zzz' is not legal here", 2),
    "save-version-0.json": ("version  must be at least 1, found 0", 2),
    "save-position-bad-zone.json": ("position.A.monsters[0].zone  must be at most 7, found 9", 2),
    "save-deck-not-a-list.json": ("decks[0].main  expected a list, found 'Gemini Elf'", 2),
    "save-seats-unknown.json": ("meta.seats[1]  'robot' is not allowed here", 2),
    "save-truncated.json": ("the file is truncated (was the save interrupted?)", 2),
    "save-not-json.json": ("not a valid save", 2),
    "save-not-a-save.json": ("not a ygoterm save file", 2),
    # issue #36: what raised (exit 1, a traceback) or was accepted without a word
    "import-wrong-types.json": ("'typeline' must be a list, not a number", 2),
    "import-huge-passcode.json": ("this number has 5,000 characters", 2),
    "import-passcode-string.json": ("the card has no id (id: '444444", 2),
    "deck-ydk-huge-passcode.ydk": ("this passcode has 5,000 digits", 2),
    "banlist-huge-passcode.conf": ("this passcode has 5,000 digits", 2),
    "banlist-huge-count.conf": ("111111111111… (5,000 digits) is not a limit", 2),
    "save-huge-seed.json": ("this number has 5,000 characters", 2),
    "save-huge-passcode.json": ("this number has 5,000 characters", 2),
    "save-passcode-too-big.json": ("decks[0].main[0] must be at most 999999999, found 12345678901", 2),
    "save-deep.json": ("JSON nesting is deeper than 500 levels", 2),
    "save-utf16-bom.json": ("this is UTF-16 text, not UTF-8", 2),
    "save-utf16-no-bom.json": ("this is UTF-16 text, not UTF-8", 2),
    "save-forged-forced-answer.json": ("recorded answer '=attack:47:direct' is not the only answer here", 2),
    "save-forged-attack.json": ("recorded answer 'attack Gemini Elf -> direct' is not legal here", 2),
    "save-manual-deep.json": ("recorded manual action is not possible here: its JSON is nested too deeply", 2),
    "scenario-materials-non-xyz.yaml": ("Gemini Elf is not an Xyz monster: only an Xyz monster has Xyz Materials (R-ZONE-10)", 2),
}


def command_for(path: Path) -> list[str]:
    if path.name.startswith("cards-"):
        return ["--cards", str(path), "check", "yugi-spellcasters"]
    if path.name.startswith("import-"):  # (YGOPRODeck card data; refused before anything is written)
        return ["cards", "import", str(path), "--into", str(Path(tempfile.gettempdir()) / f"ygoterm-bad-import-{os.getpid()}")]
    if path.suffix == ".ydk":
        return ["deck", "import", str(path), "-o", "-"]  # (printed: not added to the shared test home)
    if path.suffix == ".conf":
        return ["banlist", "import", str(path)]
    if path.name.startswith("banlist-"):
        return ["check", "--banlist", str(path), "yugi-spellcasters"]
    if path.name.startswith("scenario-"):
        return ["scenario", "check", str(path)]
    if path.name.startswith("save-"):
        return ["open", str(path)]  # refused before the TUI would start
    return ["check", str(path)]


def test_corpus_is_complete():
    files = sorted(p.name for p in BAD.iterdir())
    assert len(files) >= 70
    assert sorted(EXPECT) == files, "every bad file needs an expectation"


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_bad_file_gets_a_clear_error(cli, name):
    message, code = EXPECT[name]
    path = BAD / name
    exit_code, out, err = cli(*command_for(path))
    text = " ".join((out + err).split())
    assert exit_code == code, text
    assert re.search(re.escape(name) + r":\d+:\d+", text), f"no file:line:col in: {text}"
    assert " ".join(message.split()) in text
    assert "Traceback" not in text


def test_nothing_in_a_file_is_executed(cli):
    marker = Path("/tmp/ygoterm-pwned")
    marker.unlink(missing_ok=True)
    cli("check", BAD / "deck-python-tag.yaml")
    assert not marker.exists()


@pytest.mark.parametrize("name", ["deck-binary.yaml", "deck-alias-bomb.yaml", "cards-bad-values.yaml"])
def test_real_process_exits_non_zero_without_traceback(name):
    path = BAD / name
    result = subprocess.run([sys.executable, "-m", "ygoterm", *command_for(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr + result.stdout
    assert name in result.stderr + result.stdout


@pytest.mark.parametrize("kind", ["cards", "deck", "scenario"])
@pytest.mark.parametrize("nesting", ["[" * 50_000 + "]" * 50_000, "- " * 50_000 + "x"], ids=["brackets", "dashes"])
def test_deep_nesting_is_refused_not_a_crash(tmp_path, kind, nesting):
    """50,000 levels crashed the YAML library's C code (a segfault, exit 139): refused before it."""
    path = tmp_path / f"deep-{kind}.yaml"
    path.write_text(("name: x\nA: " if kind == "scenario" else "") + nesting + "\n")
    command = {"cards": ["--cards", str(path), "check", "yugi-spellcasters"], "deck": ["check", str(path)],
               "scenario": ["scenario", "check", str(path)]}[kind]
    result = subprocess.run([sys.executable, "-m", "ygoterm", *command], capture_output=True, text=True, timeout=120)
    said = result.stdout + result.stderr
    assert result.returncode == 2 and "Traceback" not in said, said[:500]
    assert "YAML nesting is deeper than 500 levels" in said or "YAML syntax error" in said  # (after 'A: ' dashes are not YAML)
    assert re.search(re.escape(path.name) + r":\d+:\d+", said)


def test_a_huge_card_file_is_refused_at_once(cli, tmp_path):
    path = tmp_path / "huge.yaml"
    with path.open("wb") as out:
        out.truncate(50 * 1024 * 1024)  # (sparse: nothing is written)
    code, out, err = cli("--cards", path, "check", "yugi-spellcasters")
    assert code == 2 and "a card file may hold at most" in out + err


def test_bad_ydke_links_get_clear_errors(cli):
    import base64
    import struct

    def link(*parts):
        return "ydke://" + "".join(base64.b64encode(struct.pack(f"<{len(p)}I", *p)).decode() + "!" for p in parts)

    code, out, err = cli("deck", "import", link([89631139] * 200, [], []), "-o", "-")
    assert code == 1 and "200 copies (max 3)" in out + err and "ydke link:1:1" in " ".join((out + err).split())
    code, out, err = cli("deck", "import", link([], [], []), "-o", "-")
    assert code == 1 and "Main Deck has 0 cards" in out + err
    code, out, err = cli("deck", "import", "ydke://%%%!!!", "-o", "-")
    assert code == 2 and "not valid base64" in out + err


def test_a_deck_may_not_point_its_banlist_outside_the_allowed_folders(cli, tmp_path, monkeypatch):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.yaml").write_text("name: secret\nforbidden: [Gemini Elf]\n")
    decks = tmp_path / "decks"
    decks.mkdir()
    deck = (Path(__file__).parent.parent / "decks" / "yugi-spellcasters.yaml").read_text()
    (decks / "d.yaml").write_text(deck.replace("banlist: classic", f"banlist: {outside / 'secret.yaml'}"))
    monkeypatch.chdir(decks)
    code, out, err = cli("check", decks / "d.yaml")
    text = " ".join((out + err).split())
    assert code == 1 and "unknown banlist" in text and "d.yaml:" in text


def test_a_scenario_with_xyz_materials_plays(cli, tmp_path):
    """The documented `materials:` key used to crash every scenario that used it."""
    path = tmp_path / "utopia.yaml"
    path.write_text("name: materials\ncovers: [R-SUMMON-13]\nturn: 3\nA:\n"
                    "  monsters: [{card: 'Number 39: Utopia', materials: [Gemini Elf, Celtic Guardian]}]\n"
                    "expect:\n  A: {monsters: ['Number 39: Utopia']}\n")
    code, out, err = cli("scenario", "check", path)
    assert code == 0, out + err


@pytest.mark.parametrize("text, said", [
    ('{"names": 5}', "names"),
    ('{"starting_lp": 1234}', "starting_lp"),
    ('{"prompts": ["sometimes", "auto"]}', "prompts"),
    ("[1, 2]", "expected a mapping"),
    ('{"names": ["a",', "not valid JSON"),
    ("\xff\xfe", "settings.json"),
])
def test_a_malformed_settings_file_is_reported_and_the_defaults_used(tmp_path, monkeypatch, text, said):
    from ygoterm.tui.presenters.settings import Settings

    monkeypatch.setenv("YGOTERM_HOME", str(tmp_path))
    (tmp_path / "settings.json").write_bytes(text.encode("latin-1"))
    settings = Settings.load()
    assert settings.names == ["Player 1", "Player 2"] and settings.starting_lp == 8000
    assert said in settings.problem and "settings.json" in settings.problem
    settings.rules()  # a duel can start with them


def test_save_names_stay_in_the_saves_folder(tmp_path):
    from ygoterm.tui.presenters.session import save_file_name

    for name in ("../../x", "/etc/passwd", "a/b", "..", "", " .hidden"):
        assert "/" not in save_file_name(name) and not save_file_name(name).startswith(".")


# -- issue #36: no traceback on any file ----------------------------------------------------------

def test_card_data_json_of_the_wrong_types_names_each_card_and_its_line(cli, tmp_path):
    """YGOPRODeck JSON with a number for a list (it raised TypeError), a string for a number, a
    list for a name, null everywhere and absurd values: every card said, at its line."""
    code, out, err = cli("cards", "import", BAD / "import-wrong-types.json", "--into", tmp_path / "cards")
    said = " ".join((out + err).split())
    assert code == 2 and "Traceback" not in said and not (tmp_path / "cards").exists()
    for line, message in ((14, "data[0] (id 40000001).typeline 'typeline' must be a list, not a number"),
                          (22, "data[1] (id 40000002).atk 'Probe Dragon' has ATK 'lots'"),
                          (28, "data[2] the card has no name ('name' is a list)"),
                          (43, "data[3] the card has no id"),
                          (61, "'Probe Dragon' has ATK 1000000000000000000000000000000"),
                          (75, "'Probe Dragon' has level -5"),
                          (99, "'linkmarkers' must be a list, not a number")):
        assert re.search(rf"import-wrong-types\.json:{line}:\d+ [^:]*{re.escape(message)}", said), (line, message, said)


def test_card_data_json_in_utf16_with_a_byte_order_mark_is_read(cli, tmp_path):
    """(Windows PowerShell's Out-File writes it so: it said "neither an SQLite database nor JSON")"""
    card = {"id": 40000001, "name": "Probe Dragon", "type": "Normal Monster", "frameType": "normal", "desc": "A test card.",
            "atk": 1000, "def": 1000, "level": 4, "race": "Dragon", "attribute": "LIGHT"}
    path = tmp_path / "cards.json"
    path.write_bytes(json.dumps({"data": [card]}).encode("utf-16"))
    code, out, err = cli("cards", "import", path, "--into", tmp_path / "cards")
    assert code == 0 and "imported 1 card" in out, out + err


def _forged(save: dict, index: int, answer: str) -> dict:
    forged = json.loads(json.dumps(save))
    forged["choices"][index] = answer
    return forged


def test_a_forged_answer_is_refused_wherever_a_save_is_opened(cli, pool, tmp_path):
    """An answer marked '=' (one the duel gave itself) was skipped when it did not fit, so an
    edited save opened in the TUI: refused by `open`, by the TUI's Resume and Saved duels
    (`saved_screen`), and in a match save by `match --replay`."""
    from ygoterm.engine import Match
    from ygoterm.schema.decks import find_deck, load_deck
    from ygoterm.schema.problems import DataError
    from ygoterm.tui.app import YgoApp

    path = BAD / "save-forged-forced-answer.json"
    code, out, err = cli("open", path)
    assert code == 2 and "save-forged-forced-answer.json:202:" in out + err and "Traceback" not in out + err
    app = YgoApp(pool, [])
    with pytest.raises(DataError, match="is not the only answer here"):
        app.saved_screen(path)
    deck = load_deck(find_deck("vanilla-beatdown", [Path(__file__).parent.parent / "decks"]), pool)[0]
    match = Match.new(pool, (deck, deck), 5)
    while len(match.record.duels[0].choices) < 12:
        match.apply(match.pending.options[0])
    data = json.loads(match.record.to_json())
    entries = data["duels"][0]["choices"]
    index = next(i for i, entry in enumerate(entries) if not entry.startswith("="))
    data["duels"][0] = _forged(data["duels"][0], index, "=attack:1:direct")
    (tmp_path / "match.json").write_text(json.dumps(data, indent=1))
    code, out, err = cli("match", "--replay", tmp_path / "match.json")
    said = " ".join((out + err).split())
    assert code == 2 and "Traceback" not in said, said
    assert re.search(rf"match\.json:\d+:\d+ duels\[0\]\.choices\[{index}\] recorded answer '=attack:1:direct' is not the only answer", said), said


def test_xyz_materials_under_a_monster_that_is_not_xyz_are_refused(cli, tmp_path):
    path = tmp_path / "materials.yaml"
    path.write_text("name: materials\ncovers: [R-ZONE-10]\nA:\n  monsters:\n    - Celtic Guardian\n"
                    "    - {card: Gemini Elf, materials: [Celtic Guardian]}\n"
                    "  spells:\n    - {card: Dark Hole, materials: [Mystical Elf]}\n")
    code, out, err = cli("scenario", "check", path)
    said = " ".join((out + err).split())
    assert code == 2 and "Traceback" not in said
    assert "materials.yaml:6:" in said and "A.monsters.1.materials Gemini Elf is not an Xyz monster" in said
    assert "materials.yaml:8:" in said and "A.spells.0.materials Dark Hole is not an Xyz monster" in said


async def test_a_settings_file_that_is_a_folder_is_told_and_the_app_starts(pool, tmp_path, monkeypatch):
    from ygoterm.tui.app import YgoApp
    from ygoterm.tui.presenters.settings import Settings
    from ygoterm.tui.screens.menu import MenuScreen

    monkeypatch.setenv("YGOTERM_HOME", str(tmp_path))
    (tmp_path / "settings.json").mkdir()
    settings = Settings.load()
    assert settings.names == ["Player 1", "Player 2"] and settings.starting_lp == 8000
    assert "settings.json" in settings.problem and "is a folder" in settings.problem
    app = YgoApp(pool, [])
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        told = [str(n.message) for n in app._notifications]
        assert any("settings.json" in note and "is a folder" in note and "Using the default settings" in note for note in told), told


# what a file may hold to retitle the terminal (OSC 0), clear it (CSI 2J), or colour it (the C1 CSI)
HOSTILE = ("Ann\x1b]0;PWNED\x07", "Bob\x1b[2J\x9b31m")


def test_printable_writes_control_characters_out():
    from ygoterm.schema.printable import printable

    assert printable("a\x1b[2J\tb\nc\x9b\x7f\x00") == "a\\x1b[2J\tb\nc\\x9b\\x7f\\x00"
    assert printable(printable("\x1b")) == "\\x1b"


def test_names_and_card_texts_from_files_reach_the_terminal_escaped(cli, pool, tmp_path):
    """`match --replay` printed a save's player names raw, `cards show` an imported card's text:
    their control characters are written out, whatever the output."""
    from ygoterm.engine import Match
    from ygoterm.schema.decks import find_deck, load_deck

    deck = load_deck(find_deck("vanilla-beatdown", [Path(__file__).parent.parent / "decks"]), pool)[0]
    match = Match.new(pool, (deck, deck), 5, names=HOSTILE)
    while len(match.record.duels[0].choices) < 12:
        match.apply(match.pending.options[0])
    match.record.save(tmp_path / "match.json")
    code, out, err = cli("match", "--replay", tmp_path / "match.json")
    assert code == 0, out + err
    assert not set("\x1b\x07\x9b") & set(out + err)
    assert "Ann\\x1b]0;PWNED" in out and "Bob\\x1b[2J\\x9b31m" in out

    card = {"id": 40000001, "name": "Probe\x1b]0;PWNED\x07 Dragon", "type": "Normal Monster", "frameType": "normal",
            "desc": "Clears\x1b[2J the screen\x9b31m", "atk": 1000, "def": 1000, "level": 4, "race": "Dragon", "attribute": "LIGHT"}
    (tmp_path / "cards.json").write_text(json.dumps({"data": [card]}))
    code, out, err = cli("cards", "import", tmp_path / "cards.json", "--into", tmp_path / "imported")
    assert code == 0, out + err
    assert "\x1b" in (tmp_path / "imported" / "cards-000.yaml").read_text(encoding="utf-8").encode().decode("unicode_escape")  # (the file: faithful)
    code, out, err = cli("--cards", tmp_path / "imported", "cards", "show", "40000001")
    assert code == 0, out + err
    assert not set("\x1b\x07\x9b") & set(out + err)
    assert "Probe\\x1b]0;PWNED" in out and "Clears\\x1b[2J the screen\\x9b31m" in out


async def test_the_tui_draws_control_characters_from_a_save_escaped(pool, tmp_path, monkeypatch):
    """Textual strips BEL, BS, VT, FF and CR only: an ESC in a saved player's name reached the
    terminal. Now it is drawn as '\\x1b'."""
    from ygoterm.engine import Duel
    from ygoterm.schema.decks import find_deck, load_deck
    from ygoterm.tui.app import YgoApp

    monkeypatch.setenv("YGOTERM_HOME", str(tmp_path / "home"))
    deck = load_deck(find_deck("vanilla-beatdown", [Path(__file__).parent.parent / "decks"]), pool)[0]
    duel = Duel.new(pool, (deck, deck), 5, names=HOSTILE)
    duel.apply(duel.pending.options[0])
    assert duel.record is not None
    duel.record.save(tmp_path / "hostile.json")
    app = YgoApp(pool, [], start=lambda app: app.saved_screen(tmp_path / "hostile.json"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        svg = app.export_screenshot()
    shown = html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")
    assert not set("\x1b\x07\x9b") & set(svg + shown)
    assert "Bob\\x1b[2J\\x9b31m: press Enter" in shown, shown  # (hot-seat: the curtain before Bob decides)


class _NotRay:
    """A TCP server on localhost that is not Ray: it says nothing, or answers as HTTP/1 does."""

    def __init__(self, answer: bytes) -> None:
        import socket
        import threading

        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.answer, self.held = answer, []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.held.append(conn)
            if self.answer:
                conn.recv(1024)
                conn.sendall(self.answer)

    def close(self) -> None:
        self.server.close()
        for conn in self.held:
            conn.close()


@pytest.mark.parametrize("answer, said", [
    (b"", "does not answer as a Ray cluster does (no reply in 4 s)"),
    (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", "is not a Ray cluster: it answered 'HTTP/1.1 400 Bad Request'"),
], ids=["silent", "http"])
def test_arena_on_a_server_that_is_not_ray_fails_within_seconds(cli, answer, said):
    """ray.init waited 150 s and more, printing nothing, on a server that accepts and says nothing."""
    import time

    pytest.importorskip("ray")
    server = _NotRay(answer)
    try:
        start = time.monotonic()
        code, out, err = cli("arena", "kaiba-dragons", "--agents", "random", "--duels", "2", "--ray", f"127.0.0.1:{server.port}")
        took = time.monotonic() - start
    finally:
        server.close()
    text = " ".join((out + err).split())
    assert code == 2 and said in text and "Traceback" not in text, text
    assert took < 10, f"{took:.1f} s"
