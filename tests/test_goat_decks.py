"""The shipped 2005 GOAT-format decks (decks/goat/, issue #40): each loads, is legal under the
`goat` banlist and rules (the check `ygoterm check` makes), plays no manual card, names its
source, and has a lab whose combos are neither impossible nor certain."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ygoterm.analysis.coverage import deck_coverage
from ygoterm.analysis.odds import FIRST_HAND, SECOND_HAND, deck_counts, odds
from ygoterm.schema.decks import load_deck, read_deck_file
from ygoterm.schema.lab import resolve_lab

GOAT_DECKS = Path(__file__).resolve().parent.parent / "decks" / "goat"
FILES = sorted(GOAT_DECKS.glob("*.yaml"))
IDS = [p.stem for p in FILES]
EVENT = re.compile(r"Shonen Jump|SJC|Nationals|Metagame\.com|formatlibrary|Format Library", re.I)


def test_at_least_ten_goat_decks_ship():
    assert len(FILES) >= 10, [p.name for p in FILES]


@pytest.fixture(scope="module")
def goat_pool():
    from ygoterm import paths
    from ygoterm.schema.cardpool import CardPool

    return CardPool.load(paths.card_dirs())


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_loads_and_is_built_for_goat(path, goat_pool):
    deck, problems = load_deck(path, goat_pool)
    assert not problems, problems
    assert deck.banlist == "goat"
    assert deck.rules is not None and deck.rules.format == "goat"
    assert 40 <= len(deck.main) <= 60
    assert len(deck.side) == 15


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_legal_under_goat_as_ygoterm_check_says(path, cli, goat_pool):
    code, out, err = cli("check", path)
    assert code == 0, out + err  # 0: every deck checked is legal (1: illegal, 2: unreadable)
    # the same check without the command: R-DECK-1…8 under the goat rules and banlist
    from ygoterm import paths
    from ygoterm.cli.common import banlist_by_ref
    from ygoterm.schema.validate import check_deck

    deck, _ = load_deck(path, goat_pool)
    banlist = banlist_by_ref(deck.banlist, paths.deck_dirs([]), goat_pool, named_in=path)
    assert banlist.name == "goat"
    assert check_deck(deck, deck.rules.deck, banlist) == []


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_plays_no_manual_card(path, goat_pool):
    deck, _ = load_deck(path, goat_pool)
    assert deck_coverage(deck, "goat").manual == ()


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_names_its_source(path):
    text = path.read_text(encoding="utf-8")
    deck_file = read_deck_file(path)
    url = re.search(r"^# Source: https?://\S+", text, re.M)
    assert url or EVENT.search(deck_file.description or ""), "a '# Source:' URL comment or a description naming the event"
    assert deck_file.description, "a one-line description (archetype and where the list comes from)"


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_lab_has_combos_with_real_odds(path, goat_pool):
    deck_file = read_deck_file(path)
    deck, problems = load_deck(path, goat_pool)
    assert not problems
    assert deck_file.lab is not None, "a lab: section"
    lab = resolve_lab(deck_file, deck, goat_pool)
    counts = deck_counts(deck.main)
    for hand in (FIRST_HAND, SECOND_HAND):
        report = odds(counts, lab, hand)
        real = [o for o in report.combos if 0 < o.fraction < 1]
        assert len(real) >= 2, [(o.name, o.percent) for o in report.combos]
        assert all(0 < o.fraction < 1 for o in report.combos), [(o.name, o.percent) for o in report.combos]
