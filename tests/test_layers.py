"""The layers of battlefield/ only look down, and no modules import each other (STYLE.md 1).

The import graph is read from the source with `ast`: every `import` and `from ... import` of a
battlefield module, at the top of a file, inside a function or under `if TYPE_CHECKING:` alike
(an import in a function still ties the two modules together, it only runs later; one for
annotations ties them as much for whoever reads or moves them). The annotation imports kept on
purpose - a module below another naming the other's class in its signatures only - are listed
in ANNOTATIONS, each with why; they are the only edges left out, and each must still be there
and still be for annotations only. A `from package import name` counts as an import of the
module package.name when there is one, else of the package.

Checked: no cycle between files, no cycle between the packages of battlefield/ (geometry,
scene, rules, view, analysis, army, cli, and each top-level module as its own), no import that
looks up (geometry importing rules, view, cli or analysis; rules importing view, cli or
analysis) and pygame imported nowhere outside battlefield/view. Run alone:
`pytest -n 0 tests/test_layers.py`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "battlefield"

# Cycles allowed while another branch removes them, each exactly as it is (any other cycle, or
# one of these growing, fails). Empty: the `shape` branch (issue 20) removed the last, the
# engine core and the registry importing each other.
KNOWN_CYCLES: list[frozenset[str]] = []

# Annotation imports (under `if TYPE_CHECKING:`) kept on purpose: the importer sits under the
# module it names at run time (that module imports it), and names its class in signatures only.
_STATE = "State runs these functions on itself (check, apply, restore) or hands itself to them"
ANNOTATIONS: dict[tuple[str, str], str] = {
    ("battlefield.rules.ruleset", "battlefield.rules.state"):
        "a ruleset's hooks are asked about the State that holds the ruleset",
    ("battlefield.rules.ruleset", "battlefield.rules.questions"):
        "Ruleset.odds lists the questions, which play the ruleset to answer",
    ("battlefield.rules.questions", "battlefield.rules.ruleset"):
        "a question is asked of the ruleset that lists it",
    ("battlefield.rules.boundary", "battlefield.rules.state"): _STATE,
    ("battlefield.rules.decisions", "battlefield.rules.state"): _STATE,
    ("battlefield.rules.position", "battlefield.rules.state"): _STATE,
    ("battlefield.rules.summary", "battlefield.rules.state"): _STATE,
    ("battlefield.rules.window", "battlefield.rules.state"):
        "the window's hooks (on the ruleset State holds) are asked about a State",
    ("battlefield.page.overlays", "battlefield.page.svg"):
        "the overlays draw on the Picture svg.py makes and hands them",
    ("battlefield.view.editor_marks", "battlefield.view.editor"):
        "the editor's marks are drawn from the Editor that calls them",
    ("battlefield.server.pages", "battlefield.server.app"):
        "the page handlers are given the Server app.py runs",
    ("battlefield.view.held", "battlefield.view.app"):
        "a unit is held on the PlayScene app.py sets up and hands it",
}

# Which packages a package may not import (the layers: geometry at the bottom, rules above it,
# view / analysis / cli on top).
LOOKS_UP = {
    "geometry": {"rules", "view", "cli", "analysis"},
    "rules": {"view", "cli", "analysis"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _type_checking_only(tree: ast.Module) -> set[int]:
    """ids of the import nodes under `if TYPE_CHECKING:`."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                skip.update(id(n) for n in ast.walk(inner))
    return skip


def imports_of(name: str, path: Path, known: Iterable[str], annotations: bool = True
               ) -> set[tuple[str, int]]:
    """(imported name, line) for every import in the file: battlefield modules as module names,
    other top-level names (numpy, pygame, ...) as they are; annotations=False: those under
    `if TYPE_CHECKING:` left out (what runs)."""
    known = set(known)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skip = set() if annotations else _type_checking_only(tree)
    is_package = path.name == "__init__.py"
    found: set[tuple[str, int]] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add((alias.name, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                full = f"{source}.{alias.name}"
                found.add((full if full in known else source, node.lineno))
    return found


@cache
def graph(annotations: bool = True, allowed: bool = False) -> dict[str, dict[str, int]]:
    """module -> {battlefield module it imports: the first line that does}, annotation imports
    counted (annotations=False: only what runs), the ANNOTATIONS kept on purpose left out
    unless `allowed`. Read once."""
    mods = modules()
    out: dict[str, dict[str, int]] = {}
    for name, path in mods.items():
        edges: dict[str, int] = {}
        for target, line in sorted(imports_of(name, path, mods, annotations),
                                   key=lambda t: t[1]):
            if target in mods and target != name and (allowed
                                                      or (name, target) not in ANNOTATIONS):
                edges.setdefault(target, line)
        out[name] = edges
    return out


def cycles(edges: dict[str, Iterable[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop()
                on.discard(w)
                part.add(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(frozenset(part))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def package_of(module: str) -> str:
    """battlefield.geometry.sight.kernel -> geometry; battlefield.rulings -> rulings."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _describe(cycle: frozenset[str], g: dict[str, dict[str, int]]) -> str:
    return "; ".join(f"{a} -> {b} (line {g[a][b]})" for a in sorted(cycle)
                     for b in sorted(g[a]) if b in cycle)


def test_the_graph_sees_function_level_relative_and_annotation_imports():
    g = graph()
    assert "battlefield.geometry.table" in g["battlefield.geometry.objectives"]
    assert "battlefield.rules.state" in g["battlefield.rules.registry"]
    # under `if TYPE_CHECKING:`: counted, and left out only when ANNOTATIONS keeps it
    assert "battlefield.rules.state" in g["battlefield.rules.refusals"]
    assert "battlefield.rules.state" in graph(allowed=True)["battlefield.rules.ruleset"]
    assert "battlefield.rules.state" not in g["battlefield.rules.ruleset"]


def test_no_cycle_between_files():
    g = graph()
    bad = [c for c in cycles(g) if c not in KNOWN_CYCLES]
    assert not bad, "import cycles:\n" + "\n".join(_describe(c, g) for c in bad)


def test_the_annotations_kept_are_there_and_for_annotations_only():
    # An entry of ANNOTATIONS whose import is gone, or that now runs, is taken out of it.
    everything, running = graph(allowed=True), graph(annotations=False, allowed=True)
    gone = [pair for pair in ANNOTATIONS if pair[1] not in everything[pair[0]]]
    runs = [pair for pair in ANNOTATIONS if pair[1] in running[pair[0]]]
    assert not gone, f"no longer imported (remove from ANNOTATIONS): {gone}"
    assert not runs, f"imported to run, not only for annotations: {runs}"


def test_without_the_annotations_kept_every_cycle_would_be_theirs():
    # What ANNOTATIONS leaves out is all that stands between the graph and a cycle: with them
    # the cycles found are exactly the ones they close, and what runs has none at all.
    assert cycles(graph(annotations=False)) == []
    closed = cycles(graph(allowed=True))
    assert all(any(a in c and b in c for a, b in ANNOTATIONS) for c in closed)


def test_the_known_cycles_are_still_there():
    # When the other branch's cycle is gone, KNOWN_CYCLES must lose it (nothing left allowed).
    g = graph()
    found = cycles(g)
    gone = [sorted(c) for c in KNOWN_CYCLES if c not in found]
    assert not gone, f"remove from KNOWN_CYCLES in tests/test_layers.py: {gone}"


def test_no_cycle_between_packages():
    g = graph()
    packages: dict[str, set[str]] = {}
    why: dict[tuple[str, str], str] = {}
    for a, targets in g.items():
        for b, line in targets.items():
            pa, pb = package_of(a), package_of(b)
            if pa != pb:
                packages.setdefault(pa, set()).add(pb)
                why.setdefault((pa, pb), f"{a} -> {b} (line {line})")
    bad = cycles(packages)
    text = ["; ".join(why[(a, b)] for a in sorted(c) for b in sorted(packages.get(a, ()))
                      if b in c) for c in bad]
    assert not bad, "packages that import each other:\n" + "\n".join(text)


def test_no_import_looks_up():
    g = graph()
    bad = [f"{a} -> {b} (line {line})" for a, targets in g.items() for b, line in targets.items()
           if package_of(b) in LOOKS_UP.get(package_of(a), set())]
    assert not bad, "imports that look up a layer:\n" + "\n".join(bad)


def test_pygame_only_in_view():
    mods = modules()
    bad = [f"{name} (line {line})" for name, path in mods.items()
           if not name.startswith("battlefield.view")
           for target, line in imports_of(name, path, mods)
           if target == "pygame" or target.startswith("pygame.")]
    assert not bad, "pygame imported outside battlefield/view:\n" + "\n".join(bad)


@pytest.mark.parametrize(("edges", "expected"), [
    ({"a": ["b"], "b": ["c"], "c": []}, []),
    ({"a": ["b"], "b": ["a"]}, [frozenset({"a", "b"})]),
    ({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}, [frozenset({"a", "b", "c"})]),
])
def test_cycles_are_found(edges, expected):
    assert cycles(edges) == expected
