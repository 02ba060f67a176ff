"""The import graph of the ygoterm package: every import, at module level, inside functions and
under `if TYPE_CHECKING:`, resolved to the module it names. `tests/test_layering.py` checks the
layers with it; run it to see the largest cycles:

    python -m ygoterm.devtools.imports [--under ygoterm.engine] [--top 5]
"""

from __future__ import annotations

import argparse
import ast
from dataclasses import dataclass
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parent.parent  # …/ygoterm


@dataclass(frozen=True)
class Import:
    """One import statement's target: `importer` imports `target` at `line`; `kind` is "module"
    (runs at import time), "function" (runs when the function is called) or "type" (only under
    TYPE_CHECKING)."""

    importer: str
    target: str
    line: int
    kind: str


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE_ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE_ROOT.rglob("*.py"))}


def _resolve(importer: str, is_package: bool, level: int, module: str | None, name: str | None,
             known: dict[str, Path]) -> str | None:
    """The ygoterm module an import names, or None for imports from outside ygoterm."""
    if level:
        base = importer.split(".") if is_package else importer.split(".")[:-1]
        base = base[: len(base) - (level - 1)]
        target = ".".join(base + ([module] if module else []))
    else:
        target = module or ""
    if not target.startswith("ygoterm"):
        return None
    if name is not None and f"{target}.{name}" in known:
        return f"{target}.{name}"  # `from pkg import submodule`
    while target and target not in known:  # `from pkg.mod import name` → pkg.mod
        target = target.rpartition(".")[0]
    return target or None


def imports_of(name: str, path: Path, known: dict[str, Path]) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    found: list[Import] = []

    def visit(node: ast.AST, kind: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for inner in child.body:
                    visit_one(inner, "type")
                for inner in child.orelse:
                    visit_one(inner, kind)
                continue
            visit_one(child, kind)

    def visit_one(child: ast.AST, kind: str) -> None:
        if isinstance(child, ast.ImportFrom):
            for alias in child.names:
                target = _resolve(name, is_package, child.level, child.module, alias.name, known)
                if target is not None and target != name:
                    found.append(Import(name, target, child.lineno, kind))
        elif isinstance(child, ast.Import):
            for alias in child.names:
                target = _resolve(name, is_package, 0, alias.name, None, known)
                if target is not None and target != name:
                    found.append(Import(name, target, child.lineno, kind))
        inner_kind = "function" if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and kind == "module" else kind
        visit(child, inner_kind)

    visit(tree, "module")
    return found


def import_graph() -> list[Import]:
    known = all_modules()
    edges: list[Import] = []
    for name, path in known.items():
        edges.extend(imports_of(name, path, known))
    return edges


def cycles(edges: list[Import], under: str) -> list[list[str]]:
    """Strongly connected components of more than one module among the modules under `under`
    (package `__init__` modules left out: a package that re-exports its modules is not a
    cycle), largest first."""
    nodes = {e.importer for e in edges} | {e.target for e in edges}
    inside = {n for n in nodes if (n == under or n.startswith(under + ".")) and not _is_package(n)}
    succ: dict[str, set[str]] = {n: set() for n in inside}
    for e in edges:
        if e.importer in inside and e.target in inside:
            succ[e.importer].add(e.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def strong(v: str) -> None:  # Tarjan's algorithm
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(succ[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    import sys

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(inside):
        if v not in index:
            strong(v)
    return sorted(found, key=lambda c: (-len(c), c))


def _is_package(name: str) -> bool:
    return (PACKAGE_ROOT.parent / Path(*name.split(".")) / "__init__.py").exists()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Cycles in ygoterm's import graph (module, function and type-only imports).")
    parser.add_argument("--under", default="ygoterm.engine", help="the package to look inside (default: ygoterm.engine)")
    parser.add_argument("--top", type=int, default=5, help="how many cycles to list (default: 5)")
    args = parser.parse_args(argv)
    found = cycles(import_graph(), args.under)
    print(f"{len(found)} cycle(s) under {args.under}; largest: {len(found[0]) if found else 0} modules")
    for component in found[: args.top]:
        print(f"  {len(component)}: {' '.join(m.removeprefix(args.under + '.') for m in component)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
