"""DESIGN.md §1: the engine and the schema never import the UI libraries, and inside the engine
no module imports one above it."""

import ast
import subprocess
import sys
from pathlib import Path


def test_engine_and_schema_never_import_textual_or_rich():
    code = (
        "import sys\n"
        "import ygoterm.schema, ygoterm.schema.cardpool, ygoterm.schema.decks, ygoterm.schema.validate\n"
        "import ygoterm.schema.interop, ygoterm.schema.banlist, ygoterm.schema.query\n"
        "import ygoterm.engine, ygoterm.engine.duel.protocol, ygoterm.engine.rules.flow, ygoterm.engine.duel.replay\n"
        "import ygoterm.agents\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "", f"engine/schema imported: {result.stdout}"


# The engine's inner layers, bottom → top (docs/design.md "Layers"): a module imports only
# modules earlier in this list, function-level imports included (not those under TYPE_CHECKING).
LAYERS = [
    "types", "errors", "decision", "events", "machine", "handlers",  # values, the bug report, the frame machine
    "card", "player",  # cards and sides
    "labels", "timing", "timelimit", "links",  # option labels, "may I act now", tournament time in a duel, chains and battles
    "filters", "continuous", "views", "manual",  # what cards are, what applies now, what a player sees
    "summons", "ops", "chain", "windows",  # effects: Special Summons, operations, chains, response windows
    "extra_summons", "pendulum", "legality", "commands",  # the player's Extra Deck/Pendulum Summons, legality, commands
    "flow",  # turns, phases, battle
    "copying", "determinize", "record", "duel",  # the Duel facade last (record: the save format)
    "position", "replays",  # built on Duel
    "score", "siding", "clock", "match_record", "match", "match_replay",  # a match of duels (score, side-decking, time)
]


def _engine_imports(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, module) of every `from .x import …` / `from . import x` outside `if TYPE_CHECKING:`."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:  # (an `else:` branch runs)
                    visit_one(other)
                continue
            visit_one(child)

    def visit_one(child: ast.AST) -> None:
        if isinstance(child, ast.ImportFrom) and child.level == 1:
            names = [child.module.split(".")[0]] if child.module else [a.name for a in child.names]
            found.extend((child.lineno, n) for n in names)
        visit(child)

    visit(tree)
    return found


def test_engine_modules_import_only_modules_below_them():
    engine = Path(__file__).resolve().parent.parent / "ygoterm" / "engine"
    rank = {name: i for i, name in enumerate(LAYERS)}
    modules = sorted(p for p in engine.glob("*.py") if p.stem != "__init__")
    problems = [f"{p.stem} is not in LAYERS" for p in modules if p.stem not in rank]
    for p in modules:
        if p.stem not in rank:
            continue
        for line, name in _engine_imports(ast.parse(p.read_text(encoding="utf-8"))):
            if name not in rank:
                problems.append(f"{p.stem} imports {name}, which is not in LAYERS (line {line})")
            elif rank[name] >= rank[p.stem]:
                where = "itself" if name == p.stem else f"{name}, which is above it"
                problems.append(f"{p.stem} imports {where} (line {line})")
    assert not problems, "\n".join(problems)


CLIENTS = ("ygoterm.tui", "ygoterm.agents", "ygoterm.analysis", "ygoterm.cli", "ygoterm.devtools",
           "ygoterm.scenarios", "ygoterm.bugs")


def test_clients_use_only_the_engines_public_api():
    """The TUI, the agents, the analysis tools, the CLI and the scenario runner import the engine
    only through `ygoterm.engine` (its __init__ lists the public names), at any depth."""
    from ygoterm.devtools.imports import import_graph

    problems = [f"{e.importer} imports {e.target} (line {e.line}): import it from ygoterm.engine"
                for e in import_graph()
                if e.importer.startswith(CLIENTS) and e.target.startswith("ygoterm.engine.")]
    assert not problems, "\n".join(problems)


def test_the_public_api_names_resolve():
    import ygoterm.engine as engine

    missing = [name for name in engine.__all__ if getattr(engine, name, None) is None]
    assert not missing, missing
