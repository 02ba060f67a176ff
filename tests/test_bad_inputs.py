"""The corpus of broken files under tests/data/bad: every one gets `file:line` messages, a
non-zero exit and no traceback, and nothing in any file is executed."""

import re
import subprocess
import sys
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
    "deck-misspelled-card.yaml": ("unknown card 'Celtic Guardain' [R-DECK-8]  (did you mean 'Celtic Guardian'?)", 1),
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
}


def command_for(path: Path) -> list[str]:
    if path.name.startswith("cards-"):
        return ["--cards", str(path), "check", "yugi-spellcasters"]
    if path.suffix == ".ydk":
        return ["deck", "import", str(path)]
    return ["check", str(path)]


def test_corpus_is_complete():
    files = sorted(p.name for p in BAD.iterdir())
    assert len(files) >= 25
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
