"""Saves of earlier versions still open: the card digest a save records must not change when
the card schema gains a field (a data-format promise, docs/data.md "Saves and settings")."""

from pathlib import Path

from ygoterm.engine.state.record import pool_digest
from ygoterm.schema.cardpool import CardPool

V1_CARDS = Path(__file__).parent / "data" / "digest-v1"
# what efb89ea (the last version before the schema grew `goat` and `atk_within_lp`) recorded
V1_DIGEST = "6f525d50774bd0fd"


def test_the_digest_of_cards_defined_before_new_schema_fields_is_unchanged():
    pool = CardPool.load([V1_CARDS], use_cache=False)
    cards = list(pool)
    assert len(cards) == 25
    assert pool_digest(cards) == V1_DIGEST, (
        "the card schema gained a field: add its name to _LATER_FIELDS in engine/state/record.py "
        "so that saves made before it still open")
