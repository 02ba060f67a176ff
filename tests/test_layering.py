"""DESIGN.md §1: the engine and the schema never import the UI libraries."""

import subprocess
import sys


def test_engine_and_schema_never_import_textual_or_rich():
    code = (
        "import sys\n"
        "import ygoterm.schema, ygoterm.schema.cardpool, ygoterm.schema.decks, ygoterm.schema.validate\n"
        "import ygoterm.schema.interop, ygoterm.schema.banlist, ygoterm.schema.query\n"
        "import ygoterm.engine, ygoterm.engine.duel, ygoterm.engine.flow, ygoterm.engine.replay\n"
        "import ygoterm.agents\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "", f"engine/schema imported: {result.stdout}"
