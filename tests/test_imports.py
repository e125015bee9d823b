"""Imports sit at the top of a module (STYLE.md 8: a module reads top to bottom). One inside a
function says why on a comment above its group of imports (or on the `try:` that guards it):
`# here, not at the top: start-up time of the CLI` (every subcommand module is imported for
`battlefield --help`, and what it needs only when it runs waits), an optional dependency, or
pygame kept out of a headless game. tests/test_layers.py checks that no import looks up or
closes a cycle, inside a function or not."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "battlefield"
MARK = "here, not at the top"
# Modules another branch is changing now (the play window's start-up): their function-level
# imports are left for it; none may be added elsewhere.
PENDING: set[str] = set()
_SOFT = re.compile(r"^\s*(from \S+ import|import |#|try:|\)|[\w, ]+,?\)?\s*$)")


def _function_imports(tree: ast.Module) -> list[ast.stmt]:
    out: list[ast.stmt] = []

    def visit(node: ast.AST, in_function: bool, type_checking: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            guarded = type_checking or (isinstance(child, ast.If)
                                        and "TYPE_CHECKING" in ast.unparse(child.test))
            if isinstance(child, (ast.Import, ast.ImportFrom)) and in_function and not guarded:
                out.append(child)
            visit(child, inside, guarded)

    visit(tree, False, False)
    return out


def _says_why(lines: list[str], node: ast.stmt) -> bool:
    """A MARK comment on the import's lines or above it, within its block of imports."""
    if any(MARK in lines[k] for k in range(node.lineno - 1, node.end_lineno or node.lineno)):
        return True
    k = node.lineno - 2
    while k >= 0 and (not lines[k].strip() or _SOFT.match(lines[k])):
        if MARK in lines[k]:
            return True
        k -= 1
    return False


def unexplained() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = str(path.relative_to(PACKAGE))
        if rel in PENDING:
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        found += [f"{rel}:{node.lineno}: {ast.unparse(node)}"
                  for node in _function_imports(ast.parse(text))
                  if not _says_why(lines, node)]
    return found


def test_every_import_inside_a_function_says_why() -> None:
    assert unexplained() == []


def test_the_check_finds_an_import_that_does_not_say_why() -> None:
    quiet = "def f():\n    import json\n\n    return json\n"
    said = "def f():\n    # here, not at the top: start-up time\n    import json\n    return 1\n"
    for text, ok in ((quiet, False), (said, True)):
        node, = _function_imports(ast.parse(text))
        assert _says_why(text.splitlines(), node) is ok
