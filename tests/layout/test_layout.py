"""The package's layout: the folders show the layers, and no module imports one that
imports it back (imports inside functions included), nor a private name of another."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "handfoot"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str) -> list[tuple[str, str, int]]:
    """(module imported, name taken from it or "", line) for every import in ``name``,
    at any depth of the module (inside functions too), resolved to handfoot's modules."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, str, int]] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, "", node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            for a in node.names:
                sub = f"{base}.{a.name}"
                found.append((sub, "", node.lineno) if sub in MODULES
                             else (base, a.name, node.lineno))
    return [(m, n, line) for m, n, line in found if m in MODULES]


GRAPH = {name: sorted({m for m, _, _ in imports(name)} - {name}) for name in MODULES}


def cycles() -> list[list[str]]:
    """Each cycle of the import graph, found by a depth-first search (Tarjan's strongly
    connected components of more than one module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in GRAPH:
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_one_that_imports_it_back() -> None:
    assert cycles() == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    GRAPH["handfoot.cards"].append("handfoot.actions")  # actions imports cards
    try:
        assert ["handfoot.actions", "handfoot.cards"] in cycles()
    finally:
        GRAPH["handfoot.cards"].remove("handfoot.actions")


def test_no_private_name_is_imported_from_another_module() -> None:
    private = [f"{name}:{line} takes {m}.{n}" for name in MODULES
               for m, n, line in imports(name)
               if n.startswith("_") and not n.startswith("__") and m != name]
    assert private == []


@pytest.mark.parametrize(("folder", "most"), [("", 10), ("server", 14)])
def test_few_modules_lie_flat_at_the_top_of_a_folder(folder: str, most: int) -> None:
    flat = sorted(p.name for p in (PACKAGE / folder).glob("*.py"))
    assert len(flat) <= most, flat


def test_the_lower_layers_never_import_the_higher() -> None:
    """cards, actions and rules, then the engine, then the game: each imports only from
    the layers below it (and itself)."""
    order = ["handfoot.cards", "handfoot.actions", "handfoot.rules", "handfoot.engine",
             "handfoot.game", "handfoot.bots", "handfoot.arena"]

    def layer(module: str) -> int | None:
        for i, prefix in reversed(list(enumerate(order))):
            if module == prefix or module.startswith(prefix + "."):
                return i
        return None

    upward = [f"{name} imports {m}" for name in MODULES if (here := layer(name)) is not None
              for m in GRAPH[name] if (there := layer(m)) is not None and there > here]
    assert upward == []
