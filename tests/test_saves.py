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


def test_files_written_atomically_keep_their_permissions_and_new_ones_get_the_usual(tmp_path):
    """A file written whole through a temporary file: a new one is readable as any new file is
    (not the temporary file's 0600 — a results file or deck hidden from other users), and an
    existing one keeps its own permissions."""
    import os
    import stat

    from ygoterm.schema.yamlio import write_atomically

    old = os.umask(0o022)
    try:
        new = tmp_path / "results.csv"
        write_atomically(new, "a\n")
        assert stat.S_IMODE(new.stat().st_mode) == 0o644
        private = tmp_path / "settings.json"
        private.write_text("{}")
        private.chmod(0o600)
        write_atomically(private, "{\"x\": 1}")
        assert stat.S_IMODE(private.stat().st_mode) == 0o600 and private.read_text() == "{\"x\": 1}"
        assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    finally:
        os.umask(old)
