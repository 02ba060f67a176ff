"""The shipped pool's scripts: every scripted card has a scenario; decks hold scripted cards only."""

from pathlib import Path

from ygoterm import paths
from ygoterm.schema.decks import deck_paths, load_deck, unscripted_cards
from ygoterm.schema.effects import HANDLER_NAMES
from ygoterm.schema.cards import FIXTURE_PASSCODES

SCENARIOS = Path(__file__).parent / "scenarios"


def test_every_scripted_card_has_a_scenario(pool):
    text = "\n".join(p.read_text() for p in SCENARIOS.rglob("*.yaml"))
    missing = sorted(c.name for c in pool if c.id not in FIXTURE_PASSCODES and c.scripted and c.name not in text)
    assert not missing, f"scripted cards without a scenario: {missing}"


def test_shipped_decks_hold_only_scripted_cards(pool):
    """Side Decks too: the AI refuses a deck with a card it cannot play, sided in or not."""
    for path in deck_paths(paths.deck_dirs()):
        deck, _ = load_deck(path, pool)
        manual = unscripted_cards(deck)  # (each card as its deck's format plays it: a GOAT deck's 2005 versions)
        assert not manual, f"{path.name}: cards without scripts: {manual}"


def test_at_least_150_scripted_cards(pool):
    assert sum(1 for c in pool if c.id not in FIXTURE_PASSCODES and c.scripted) >= 150


def test_handler_names_match_the_registry():
    from ygoterm.engine.effects.handlers import HANDLERS

    assert set(HANDLERS) == set(HANDLER_NAMES)
