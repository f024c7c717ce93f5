"""The pages' scripts are ES modules: each page names its entry module (``type="module"``),
every other module is imported, and the import graph is the only dependency graph: the
imports resolve to modules that exist and export the names imported, there is no cycle,
nothing is shared through globals, and only ``state.js`` changes the table's state."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import handfoot

STATIC = Path(handfoot.__file__).resolve().parent / "server" / "static"
PAGES = {"index.html": "main.js", "events.html": "events.js",  # each page's entry module
         "me.html": "me.js", "leaderboard.html": "leaderboard.js"}

SCRIPT_TAG = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.DOTALL | re.IGNORECASE)
PRELOAD = re.compile(r'<link rel="modulepreload" href="/static/([\w.-]+\.js)">')
COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.DOTALL)
IMPORT = re.compile(r"\bimport\s*(?:([\w$]+)\s*,?\s*)?(?:\{([^}]*)\}|\*\s+as\s+[\w$]+)?\s*"
                    r"(?:from\s*)?[\"']([^\"']+)[\"']")
DYNAMIC_IMPORT = re.compile(r"\bimport\s*\(")
EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|const|let|var|class)\s+([\w$]+)",
                    re.MULTILINE)
GLOBAL_WRITE = re.compile(r"(?<![\w$.])(?:window|globalThis|self)\s*(?:\.\s*[\w$]+|\[[^\]]+\])"
                          r"\s*(?:=(?!=)|\+=|-=|\|\|=|\?\?=)")
HANDLER_ATTRIBUTE = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.IGNORECASE)
# the table's state changed outside state.js: a field assigned, or a set of it changed
STATE_WRITE = re.compile(r"(?<![\w$.])table\.[\w$]+(?:\s*(?:=(?!=)|\+=|-=|\+\+|--)"
                         r"|\.(?:add|delete|clear|push|splice)\()")


def modules() -> dict[str, str]:
    """Every script's source, comments left out."""
    out = {p.name: COMMENTS.sub("", p.read_text()) for p in sorted(STATIC.glob("*.js"))}
    assert len(out) > 10, "no scripts read"
    return out


def imports(source: str) -> list[tuple[str, list[str]]]:
    """The modules a source imports, each with the names it takes from it."""
    found = []
    for default, names, spec in IMPORT.findall(source):
        taken = [n.split(" as ")[0].strip() for n in names.split(",") if n.strip()]
        found.append((spec, taken + (["default"] if default else [])))
    return found


def graph() -> dict[str, list[str]]:
    """Each module's imports, checked: relative, to a module that exists, of names it exports."""
    sources = modules()
    edges: dict[str, list[str]] = {}
    for name, source in sources.items():
        edges[name] = []
        for spec, taken in imports(source):
            assert spec.startswith("./") and spec.endswith(".js"), \
                f"{name} imports {spec!r}: a page has no import map, so only ./file.js"
            target = spec[2:]
            assert target in sources, f"{name} imports {spec}, which does not exist"
            exported = set(EXPORT.findall(sources[target]))
            missing = [n for n in taken if n not in exported]
            assert not missing, \
                f"{name} imports {missing} from {target}, which does not export them"
            edges[name].append(target)
    return edges


def reachable(edges: dict[str, list[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(edges[name])
    return seen


def test_each_page_loads_one_entry_module_and_no_classic_script() -> None:
    for page, entry in PAGES.items():
        html = (STATIC / page).read_text()
        tags = SCRIPT_TAG.findall(html)
        assert tags, f"{page} loads no script"
        for attrs, body in tags:
            assert re.search(r'\btype="module"', attrs), \
                f"{page}: a classic script: <script{attrs}>"
            assert not body.strip(), f"{page}: an inline script"
        named = [re.search(r'src="/static/([\w.-]+\.js)"', a) for a, _ in tags]
        assert [m.group(1) for m in named if m] == [entry]
        assert not HANDLER_ATTRIBUTE.search(html), f"{page}: an inline on...= handler"


def test_every_import_resolves_to_an_export_of_a_module_that_exists() -> None:
    edges = graph()
    assert sum(len(v) for v in edges.values()) > 20, "no imports found"
    assert not any(DYNAMIC_IMPORT.search(s) for s in modules().values())


def test_the_imports_have_no_cycle() -> None:
    edges = graph()
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        assert name not in path, \
            f"a cycle of imports: {' -> '.join([*path[path.index(name):], name])}"
        if name in done:
            return
        for target in edges[name]:
            visit(target, [*path, name])
        done.add(name)

    for name in edges:
        visit(name, [])


def test_every_module_is_used_and_the_table_page_fetches_them_at_once() -> None:
    """Each module is reached from a page's entry module; the table page names every
    module of its graph as a modulepreload, so that they load in parallel, not one
    level of imports after another."""
    edges = graph()
    used = set().union(*(reachable(edges, entry) for entry in PAGES.values()))
    assert used == set(edges), f"modules no page loads: {set(edges) - used}"
    preloaded = PRELOAD.findall((STATIC / "index.html").read_text())
    assert sorted(preloaded) == sorted(reachable(edges, PAGES["index.html"]))
    assert "events.js" not in reachable(edges, "main.js")


def test_no_module_shares_through_globals_or_writes_html_handlers() -> None:
    for name, source in modules().items():
        hit = GLOBAL_WRITE.search(source)
        assert hit is None, f"{name} assigns to a global: {hit.group(0)!r}"
        assert not HANDLER_ATTRIBUTE.search(source), f"{name} writes an on...= attribute"
        assert "use strict" not in source, f"{name}: modules are strict already"


def test_only_state_js_changes_the_tables_state() -> None:
    sources = modules()
    assert STATE_WRITE.search(sources["state.js"]), "the check finds no change even in state.js"
    for name, source in sources.items():
        if name == "state.js" or "./state.js" not in source:
            continue
        hit = STATE_WRITE.search(source)
        assert hit is None, f"{name} changes the table's state itself: {hit.group(0)!r}"


def test_every_module_is_type_checked_by_editors() -> None:
    for p in sorted(STATIC.glob("*.js")):
        assert p.read_text().startswith("// @ts-check\n"), \
            f"{p.name} does not start with // @ts-check"


def test_the_checks_find_what_they_look_for() -> None:
    """The patterns above match what they are meant to refuse."""
    assert GLOBAL_WRITE.search("window.hf = hf;")
    assert GLOBAL_WRITE.search("globalThis['x'] = 1")
    assert not GLOBAL_WRITE.search("if (window.matchMedia) x = 1; a == window.b")
    assert STATE_WRITE.search("table.focus = 3;") and STATE_WRITE.search("table.selected.clear()")
    assert not STATE_WRITE.search("if (table.focus === 3) s.table = 1;")
    assert HANDLER_ATTRIBUTE.search('<button onclick="go()">')
    assert imports('import { a, b as c } from "./x.js";\nimport "./y.js";') == [
        ("./x.js", ["a", "b"]), ("./y.js", [])]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_every_module_parses_as_a_module() -> None:
    for p in sorted(STATIC.glob("*.js")):
        done = subprocess.run(["node", "--input-type=module", "--check"], input=p.read_bytes(),
                              capture_output=True, timeout=60)
        assert done.returncode == 0, f"{p.name}: {done.stderr.decode()}"
