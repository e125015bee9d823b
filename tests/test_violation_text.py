"""No code decides anything by reading a violation's text (issue 20): a Violation carries its
code, its numbers and the units and models it is about as fields, and those are what the window,
`try --json`, the server and the pages read. Checked with `ast` over battlefield/: no regular
expression is applied to a `.message`, and no `... in X.message` test looks for a word in one."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "battlefield"
REGEX = {"search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split"}


def _is_message(node: ast.AST) -> bool:
    """`X.message` of something other than `self` (the panel's own line is not a violation)."""
    return (isinstance(node, ast.Attribute) and node.attr == "message"
            and not (isinstance(node.value, ast.Name) and node.value.id == "self"))


def _reads_message(node: ast.AST) -> bool:
    return any(_is_message(n) for n in ast.walk(node))


def text_reads(tree: ast.AST) -> list[int]:
    """Lines where a regular expression reads a `.message`, or `in` looks inside one."""
    out = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in REGEX and any(_reads_message(a) for a in node.args)):
            out.append(node.lineno)
        elif (isinstance(node, ast.Compare)
              and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)
              and any(_is_message(c) for c in node.comparators)):
            out.append(node.lineno)
    return out


def test_the_check_finds_both_kinds_of_reading():
    tree = ast.parse('import re\nre.search(r"(\\w+)/1", v.message)\nok = "target" in v.message\n'
                     'fine = v.code == "no_target"\nmine = "illegal" in self.message\n')
    assert text_reads(tree) == [2, 3]


def test_no_code_reads_a_violations_text():
    bad = [f"{p.relative_to(PACKAGE.parent)}:{line}" for p in sorted(PACKAGE.rglob("*.py"))
           for line in text_reads(ast.parse(p.read_text(encoding="utf-8")))]
    assert not bad, "a violation's text read to decide (read its code, units or models):\n" \
        + "\n".join(bad)
