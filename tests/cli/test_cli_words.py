"""What the command line says to a newcomer: a bundled scene named as typed, plurals, options
that do nothing refused, help examples that work outside the checkout."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from battlefield.cli.main import build_parser, main
from battlefield.paths import map_names

ONE = """ruleset: aos4
board: {width: 30, depth: 22}
terrain:
  - {id: rock, kind: impassable, height: 4, outline: [[10, 10], [12, 10], [12, 12], [10, 12]]}
objectives:
  - {id: centre, at: [15, 16]}
units:
  - id: red-1
    side: red
    stats: {move: 6, health: 1, save: 4}
    models:
      - {base: 32, at: [4, 4]}
  - id: blue-1
    side: blue
    stats: {move: 6, health: 1, save: 4}
    models:
      - {base: 32, at: [26, 20]}
"""


def test_an_error_in_a_bundled_scene_names_it_as_typed(capsys) -> None:
    assert main(["measure", "demo", "nosuch", "red-lancers"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("battlefield measure: demo: no unit 'nosuch'"), err
    assert "demo.yaml" not in err and "\n" not in err


def test_one_piece_and_one_objective_are_singular(tmp_path: Path, capsys) -> None:
    scene = tmp_path / "one.yaml"
    scene.write_text(ONE)
    assert main(["check", str(scene)]) == 0
    out = capsys.readouterr().out
    assert "1 terrain piece)" in out and "pieces" not in out.splitlines()[0]
    assert main(["validate", str(scene)]) == 0
    out = capsys.readouterr().out
    assert "1 objective," in out and "2 units," in out and "2 models)" in out, out


def test_an_option_the_question_does_not_read_is_refused(capsys) -> None:
    assert main(["odds", "demo", "--charge", "red-lancers", "blue-riders", "--slain", "2"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("battlefield odds: --slain: not used by aos4's --charge (it takes no "
                   "options)"), err


@pytest.mark.parametrize("command", ["check", "points", "render", "validate", "layout"])
def test_help_examples_name_no_file_of_the_checkout(command: str) -> None:
    sub = build_parser()._subparsers._group_actions[0].choices[command]
    text = sub.format_help()
    if command == "layout":
        text += "".join(p.format_help() for p in
                        sub._subparsers._group_actions[0].choices.values())
    assert not re.search(r"\b(maps|tests|assets)/", text), text


def test_top_level_and_analyze_help_list_every_bundled_scene() -> None:
    parser = build_parser()
    top = re.sub(r"\s+", " ", parser.format_help())
    analyze = re.sub(r"\s+", "", parser._subparsers._group_actions[0].choices["analyze"]
                     .format_help())
    for name in map_names():
        assert f" {name}," in top or f" {name} " in top, name
        assert name in analyze, name
