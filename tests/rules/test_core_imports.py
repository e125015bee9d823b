"""The engine's core sits under the registry: its modules import one another and the layers
below (geometry, scene), never the registry, the commands' helpers or a ruleset."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).parents[2] / "battlefield" / "rules"
CORE = ("actions", "boundary", "chance", "damage", "datafile", "decisions", "dice", "handlers",
        "questions", "ranges", "refusals", "rounds", "steps", "window",
        "moves", "odds", "position", "result", "ruleset", "snapshots", "state", "summary")


def imported(path: Path) -> set[str]:
    """Every battlefield module a file imports, at its top or inside a function."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return {m for m in out if m.startswith("battlefield.")}


def test_the_core_imports_only_the_core_and_the_layers_below() -> None:
    bad = {}
    for name in CORE:
        found = {m for m in imported(RULES / f"{name}.py")
                 if m.startswith(("battlefield.rules.", "battlefield.view", "battlefield.cli",
                                  "battlefield.analysis"))
                 and m.split(".")[2] not in CORE}
        if found:
            bad[name] = sorted(found)
    assert bad == {}


def test_position_only_writes_and_restores() -> None:
    """What a person reads of a position (its summary) lives beside it, not in it."""
    text = (RULES / "position.py").read_text(encoding="utf-8")
    assert "def summary" not in text and "def summary_line" not in text
