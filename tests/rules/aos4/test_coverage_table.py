"""aos4's coverage table (rulesets/aos4/coverage/*.yaml): the README holds exactly what
`battlefield rulesets aos4 --coverage` prints, and every row names a module and a test that
exist."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from battlefield.cli.main import main
from battlefield.paths import ruleset_dir
from battlefield.rules import registry
from battlefield.rules.coverage import in_readme

ROOT = Path(__file__).resolve().parents[3]
ROWS = registry.get("aos4").coverage


def test_the_readme_table_is_the_commands_output(capsys):
    assert main(["rulesets", "aos4", "--coverage"]) == 0
    printed = capsys.readouterr().out.strip()
    readme = (ruleset_dir("aos4") / "README.md").read_text(encoding="utf-8")
    assert in_readme(readme) == printed, "run: battlefield rulesets aos4 --coverage and " \
                                         "paste it between the coverage markers"


def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, (ast.FunctionDef,
                                                        ast.AsyncFunctionDef))
            and n.name.startswith("test")}


@pytest.mark.parametrize("row", ROWS, ids=[f"{r.section}:{r.id}" for r in ROWS])
def test_every_rows_module_and_test_exist(row):
    assert (ROOT / row.module).is_file(), f"{row.id}: no module {row.module}"
    file, _, name = row.test.partition("::")
    assert (ROOT / file).is_file(), f"{row.id}: no test file {file}"
    assert name in _tests_in(ROOT / file), f"{row.id}: no test {name} in {file}"
