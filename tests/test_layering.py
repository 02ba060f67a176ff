"""DESIGN.md §1: the engine and the schema never import the UI libraries, and inside the engine
no module imports one above it."""

import subprocess
import sys


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


# ygoterm's packages, bottom → top (docs/architecture.md): a package imports only packages before it.
PACKAGES = ["paths", "schema", "engine", "agents", "analysis", "bugs", "scenarios", "tui", "devtools", "cli", "__main__"]

# The engine's layers, bottom → top, each a package with its modules bottom → top: a module
# imports only modules before it — in an earlier layer, or earlier in its own — whether at
# module level, inside a function or only for types (under TYPE_CHECKING).
ENGINE_LAYERS = {
    "core": ["types", "errors", "decision", "events", "machine"],  # values that know no duel
    "state": ["card", "player", "links", "timelimit", "record", "duel_state", "copying", "determinize"],  # the duel's data
    "board": ["filters", "continuous", "hand_costs", "timing", "labels", "views", "replacements", "actions"],  # what is true now; moving cards
    "effects": ["context", "handlers", "registry", "summons", "checks", "verbs.cards", "verbs.chance", "verbs.control",
                "verbs.life", "verbs.logic", "verbs.monsters", "verbs.moves", "verbs.negation", "verbs.summoning",
                "verbs.turn", "verbs", "resolve"],  # the effect vocabulary at work (verbs: all the families)
    "rules": ["when", "activation", "chain", "windows", "extra_summons", "pendulum", "legality", "commands",
              "time_procedure", "main_phase", "battle", "flow", "manual"],  # the game's flow
    "duel": ["protocol", "position", "replay"],  # the Duel: the decision protocol
    "match": ["score", "siding", "clock", "record", "match", "replay"],  # a match of duels
}


def _engine_rank() -> dict[str, tuple[int, int]]:
    rank = {}
    for i, (layer, modules) in enumerate(ENGINE_LAYERS.items()):
        rank[f"ygoterm.engine.{layer}"] = (i, -1)  # (its package __init__)
        for j, module in enumerate(modules):
            rank[f"ygoterm.engine.{layer}.{module}"] = (i, j)
    return rank


def test_engine_modules_import_only_modules_below_them():
    """Inside the engine, imports point down only: no upward arrow, hence no cycle."""
    from ygoterm.devtools.imports import all_modules, import_graph

    rank = _engine_rank()
    engine = [m for m in all_modules() if m.startswith("ygoterm.engine.")]
    problems = [f"{m} is not in ENGINE_LAYERS" for m in engine if m not in rank]
    for e in import_graph():
        if not e.importer.startswith("ygoterm.engine.") or e.importer not in rank:
            continue
        if e.target == "ygoterm.engine":
            problems.append(f"{e.importer} imports the engine's public API (line {e.line}): import the module itself")
        elif e.target.startswith("ygoterm.engine.") and e.target in rank:
            (li, mi), (lj, mj) = rank[e.importer], rank[e.target]
            package_init = mi == -1 and lj == li  # a layer's __init__ may import its own modules
            if (lj, mj) >= (li, mi) and not package_init:
                problems.append(f"{e.importer} imports {e.target}, which is not below it ({e.kind} import, line {e.line})")
    assert not problems, "\n".join(problems)


def test_packages_import_only_packages_below_them():
    from ygoterm.devtools.imports import import_graph

    def package(module: str) -> str:
        parts = module.split(".")
        return parts[1] if len(parts) > 1 else ""

    rank = {name: i for i, name in enumerate(PACKAGES)}
    problems = []
    for e in import_graph():
        a, b = package(e.importer), package(e.target)
        if a and b and a != b:
            if a not in rank or b not in rank:
                problems.append(f"{e.importer} → {e.target}: a package not in PACKAGES")
            elif rank[b] > rank[a]:
                problems.append(f"{e.importer} imports {e.target} above it ({e.kind} import, line {e.line})")
    assert not problems, "\n".join(problems)


# The TUI's own layers, bottom → top (docs/architecture.md): presenters work out what to show
# without Textual, widgets draw it, screens wire widgets to a presenter and answer keys, the
# app (and the menu flows it starts) opens screens.
TUI_LAYERS = ["presenters", "widgets", "screens", ""]  # ("": the modules of ygoterm.tui itself)


def test_tui_layers_import_only_layers_below_them():
    """Any import kind, across the TUI's layers, points down; and no presenter imports Textual."""
    from ygoterm.devtools.imports import import_graph

    def layer(module: str) -> int:
        parts = module.split(".")
        return TUI_LAYERS.index(parts[2] if len(parts) > 3 else "")

    problems = []
    for e in import_graph():
        if not e.importer.startswith("ygoterm.tui."):
            continue
        if e.target.startswith("ygoterm.tui.") and layer(e.target) > layer(e.importer):
            problems.append(f"{e.importer} imports {e.target} above it ({e.kind} import, line {e.line})")
    assert not problems, "\n".join(problems)


def test_presenters_never_import_textual():
    code = (
        "import sys, pkgutil, importlib, ygoterm.tui.presenters as p\n"
        "for m in pkgutil.iter_modules(p.__path__): importlib.import_module(f'ygoterm.tui.presenters.{m.name}')\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] == 'textual')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "", f"presenters imported: {result.stdout}"


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


def test_the_engine_has_no_import_cycle():
    """What the layers above guarantee, measured the way `python -m ygoterm.devtools.imports` does."""
    from ygoterm.devtools.imports import cycles, import_graph

    assert cycles(import_graph(), "ygoterm.engine") == []


def test_the_public_api_is_declared_once_for_runtime_and_type_checkers():
    """`_EXPORTS` (what loads at run time) and the TYPE_CHECKING block (what mypy sees) name the
    same names, from the same modules."""
    import ast as syntax

    import ygoterm.engine as engine

    tree = syntax.parse(open(engine.__file__, encoding="utf-8").read())
    block = next(n for n in tree.body if isinstance(n, syntax.If) and "TYPE_CHECKING" in syntax.unparse(n.test))
    seen = {}
    for node in block.body:
        assert isinstance(node, syntax.ImportFrom)
        for alias in node.names:
            assert alias.asname == alias.name, f"write `{alias.name} as {alias.name}` (an explicit re-export)"
            seen[alias.name] = "." * node.level + (node.module or "")
    runtime = {name: module for module, names in engine._EXPORTS.items() for name in names}
    runtime.update({name: module.rpartition(".")[0] for name, module in engine._MODULES.items()})
    assert seen == runtime
