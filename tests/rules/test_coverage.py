"""The coverage table's machinery (rules/coverage.py): rows read from a ruleset's coverage/*.yaml,
checked as data, printed as markdown; `battlefield rulesets NAME --json` / `--coverage`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from battlefield.cli.main import main
from battlefield.errors import InputError
from battlefield.rules.coverage import in_readme, markdown, read_rows

ROW = """- id: {id}
  section: {section}
  status: played
  note: it is played
  module: battlefield/rules/x.py
  test: tests/x.py::test_x
"""


def folder(tmp_path: Path, **files: str) -> Path:
    d = tmp_path / "coverage"
    d.mkdir()
    for name, text in files.items():
        (d / f"{name}.yaml").write_text(text, encoding="utf-8")
    return d


def test_rows_of_every_file_in_name_order(tmp_path):
    d = folder(tmp_path, b=ROW.format(id="fight", section="abilities"),
               a=ROW.format(id="hero", section="rules") + ROW.format(id="charge",
                                                                     section="abilities"),
               empty="")
    rows = read_rows(d)
    assert [(r.id, r.section) for r in rows] == [("hero", "rules"), ("charge", "abilities"),
                                                 ("fight", "abilities")]
    table = markdown(rows).splitlines()
    assert table[0] == "| id | seed list | status | note | module | test |"
    assert [line.split(" | ")[0] for line in table[2:]] == ["| `charge`", "| `fight`",
                                                             "| `hero`"]
    assert read_rows(tmp_path / "none") == ()


def test_the_same_id_in_a_section_twice_is_an_error_at_its_line(tmp_path):
    # "charge" is both an ability and a rule section of seed 000: once in each is fine.
    d = folder(tmp_path, a=ROW.format(id="charge", section="abilities"),
               b=ROW.format(id="charge", section="rules") + ROW.format(id="charge",
                                                                       section="abilities"))
    with pytest.raises(InputError) as err:
        read_rows(d)
    text = str(err.value)
    assert "b.yaml" in text and "has a row already (in a.yaml)" in text and ":7" in text


def test_a_bad_status_names_the_file_and_the_choices(tmp_path):
    d = folder(tmp_path, a=ROW.format(id="fight", section="abilities").replace("played",
                                                                               "maybe"))
    with pytest.raises(InputError, match="played, refused, decided"):
        read_rows(d)


def test_a_cell_never_breaks_the_table(tmp_path):
    d = folder(tmp_path, a=ROW.format(id="x", section="rules").replace("it is played",
                                                                       "'a | b'"))
    assert "a \\| b" in markdown(read_rows(d))


def test_the_readme_block():
    assert in_readme("a\n<!-- coverage -->\n| t |\n<!-- /coverage -->\nb") == "| t |"
    assert in_readme("no table") is None


def test_rulesets_json_and_coverage(capsys):
    assert main(["rulesets", "aos4", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["aos4"]["coverage"]
    assert rows and all({"id", "status", "note", "section", "module", "test"} <= set(r)
                        for r in rows)
    assert all(r["status"] in ("played", "refused", "decided") for r in rows)
    assert main(["rulesets", "aos4", "--coverage"]) == 0
    assert capsys.readouterr().out.startswith("| id | seed list | status |")
    assert main(["rulesets", "skirmish", "--coverage"]) == 2
    assert "skirmish has no coverage table" in capsys.readouterr().err
