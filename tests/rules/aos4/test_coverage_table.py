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


SEED = ROOT.parent / "shared" / "seeds" / "000_07d36a3aa1d90cbd.txt"


def test_every_ability_and_rule_section_of_seed_000_has_one_row():
    """The seed's 22 abilities and 10 rule sections, each once (by its list: "charge" is in
    both), whatever file of coverage/ holds it."""
    import yaml

    seed = yaml.safe_load(SEED.read_text(encoding="utf-8")) if SEED.is_file() else {
        "abilities": [], "rules": []}
    if not seed["abilities"]:
        pytest.skip(f"the seed is not at {SEED}")
    want = sorted([("abilities", a["id"]) for a in seed["abilities"]]
                  + [("rules", r["id"]) for r in seed["rules"]])
    have = sorted((r.section, r.id) for r in ROWS)
    assert have == want and len(want) == 32


def test_the_json_carries_the_coverage_at_the_top_and_under_its_name(capsys):
    import json

    assert main(["rulesets", "aos4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["coverage"] == out["aos4"]["coverage"] and len(out["coverage"]) == 32
    assert all({"id", "status", "note"} <= set(r) for r in out["coverage"])
    assert {r["status"] for r in out["coverage"]} <= {"played", "refused", "decided"}
