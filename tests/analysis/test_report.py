"""`battlefield analyze`: the report, the pictures and the JSON it writes, and its errors."""

from __future__ import annotations

import argparse
import json
import os

import pytest

from battlefield.cli import analyze
from battlefield.errors import BattlefieldError, InputError, UsageError

from ._build import make_map, piece, rect

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

MAP = """\
ruleset: aos4
name: Test field
board: {width: 30, depth: 20}
terrain:
  - {id: ruin, kind: obscuring, height: 5, outline: [[12, 8], [18, 8], [18, 9], [12, 9]]}
  - {id: hill, kind: solid, height: 2.5, outline: [[4, 12], [8, 12], [8, 16], [4, 16]]}
  - {id: rock, kind: impassable, height: 4, outline: [[22, 4], [25, 4], [25, 7], [22, 7]]}
objectives:
  - {id: centre, at: [15, 10]}
  - {id: east, at: [26, 10]}
deployment:
  red: [[0, 0], [30, 0], [30, 4], [0, 4]]
  blue: [[0, 16], [30, 16], [30, 20], [0, 20]]
"""


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="battlefield")
    analyze.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["analyze", *argv])
    return args.run(args)


@pytest.fixture
def map_file(tmp_path):
    path = tmp_path / "field.yaml"
    path.write_text(MAP, encoding="utf-8")
    return path


def test_the_report_pictures_and_json_are_written(map_file, tmp_path, capsys):
    out = tmp_path / "out"
    assert run(str(map_file), "--out", str(out), "--grid", "1") == 0
    text = capsys.readouterr().out
    assert "Test field" in text and "verdict:" in text and "report.md" in text
    names = {p.name for p in out.iterdir()}
    assert names == {"sight.png", "seen-from-red.png", "seen-from-blue.png", "marches.png",
                     "report.md", "analysis.json"}
    import pygame

    for png in out.glob("*.png"):
        w, h = pygame.image.load(str(png)).get_size()
        assert w >= 360 and h >= 240 + 60, png.name     # the board at 12 px/inch, and more
    report = (out / "report.md").read_text(encoding="utf-8")
    assert report.startswith("# Test field: map analysis (aos4)")
    for part in ("**Verdict:", "![How much of the board each place sees](sight.png)",
                 "## Per side", "## Reach", "## Symmetry", "| centre |", "marches.png"):
        assert part in report, part
    data = json.loads((out / "analysis.json").read_text(encoding="utf-8"))
    for key in ("visible_fraction", "sight", "sides", "reach", "fairness", "symmetry", "verdict",
                "files", "grid"):
        assert key in data, key
    assert 0 < data["visible_fraction"] < 1
    assert data["grid"] == {"spacing": 1.0, "cell": [1.0, 1.0], "cells": 600,
                            "standing": 591, "blind": 0}
    assert data["reach"]["red"]["centre"]["inches"] > 0
    assert data["reach"]["red"]["centre"]["path"][-1] == [15, 10]


def test_json_on_stdout(map_file, tmp_path, capsys):
    assert run(str(map_file), "--out", str(tmp_path / "o"), "--grid", "2", "--json",
               "--height", "2", "--move", "7") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["model_height"] == 2.0 and data["move"] == 7.0
    assert data["verdict"]["text"]


def test_two_maps_are_compared_side_by_side(map_file, tmp_path, capsys):
    out = tmp_path / "both"
    assert run(str(map_file), "open", "--ruleset", "aos4", "--grid", "2", "--out", str(out),
               "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert [m["map"] for m in data["maps"]] == ["Test field", "Open field"]
    assert data["comparison"]["maps"] == ["Test field", "Open field"]
    assert data["maps"][1]["visible_fraction"] == 1.0
    assert (out / "compare-sight.png").is_file() and (out / "report.md").is_file()
    assert (out / "test-field" / "sight.png").is_file()
    assert (out / "open-field" / "report.md").is_file()
    assert "| board seen from a cell (mean) |" in (out / "report.md").read_text(encoding="utf-8")


def test_a_bundled_map_by_name(tmp_path, capsys):
    assert run("skirmish", "--grid", "2", "--out", str(tmp_path / "s")) == 0
    text = capsys.readouterr().out
    assert "Skirmish table" in text and "hill" in text and "tower" in text


def test_the_default_folder_is_named_after_the_map(map_file, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run(str(map_file), "--grid", "3") == 0
    assert (tmp_path / "analysis-field" / "report.md").is_file()


@pytest.mark.parametrize("argv, error", [
    (["no-such-map"], InputError),
    (["aos4", "--grid", "0"], UsageError),
    (["aos4", "--grid", "100"], UsageError),
    (["aos4", "--height", "-1"], UsageError),
    (["aos4", "--move", "nan"], UsageError),
    (["aos4", "--ruleset", "chess"], UsageError),
])
def test_bad_arguments_are_one_line_errors(argv, error, tmp_path):
    with pytest.raises(error) as exc:
        run(*argv, "--out", str(tmp_path / "x"))
    assert isinstance(exc.value, BattlefieldError) and "\n" not in str(exc.value)


def test_a_map_without_zones_still_gets_a_report(tmp_path):
    from battlefield.analysis import report
    from battlefield.analysis.survey import survey
    from battlefield.view.survey_pictures import survey_pictures

    s = survey(make_map([piece("wall", rect(29.9, 0, 30.1, 44), 10)]), 4.0)
    files = report.write(s, tmp_path / "r", survey_pictures)
    assert files["sight"] == "sight.png" and "marches" not in files
    text = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    assert "no verdict" in text and "## Per side" not in text
