"""A Move that is dice (`move: 2D6`, as `army import` keeps a random Move): checked against the
most it can roll, rolled as a logged `move roll` when the unit moves, and the unit stays where
it stood when the roll falls short. A Move that is a number rolls nothing."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battlefield.rules.actions import Action
from battlefield.rules.aos4 import rolls
from battlefield.rules.trial import run
from battlefield.scene.load import load_scene_text

BLADE = "{name: blade, attacks: 2, hit: 3, wound: 3, rend: 1, damage: 1}"


def scene(move: str) -> str:
    return f"""
ruleset: aos4
board: {{width: 60, depth: 44}}
objectives: [{{id: centre, at: [30, 22]}}]
units:
  - id: red
    side: red
    stats: {{move: {move}, health: 1, save: 4, control: 1}}
    weapons: [{BLADE}]
    models:
      - {{base: 32, at: [10, 22]}}
      - {{base: 32, at: [10, 23.5]}}
  - id: blue
    side: blue
    stats: {{move: 5, health: 1, save: 4, control: 1}}
    weapons: [{BLADE}]
    models:
      - {{base: 32, at: [50, 22]}}
"""


def attempt(move: str, kind: str, x: float, dice=()):
    return run(load_scene_text(scene(move)), [Action.from_dict(
        {"type": kind, "unit": "red", "path": [[10, 22], [x, 22]]})], seed=1, dice=list(dice))


def test_a_roll_that_reaches_moves_the_unit_and_is_logged():
    state, (r,) = attempt("2D6", "normal-move", 17, dice=[3, 5])
    assert r["legal"], r
    assert r["events"][0] == {"type": "move-roll", "unit": "red", "move": "2D6", "roll": 8}
    assert [(x["for"], x["total"]) for x in r["rolls"]] == [("move roll red", 8)]
    assert state.table.x[0] == pytest.approx(17)


def test_a_roll_that_falls_short_leaves_the_unit_where_it_stood():
    state, (r,) = attempt("2D6", "normal-move", 17, dice=[1, 2])
    assert r["legal"]
    assert [e["type"] for e in r["events"]] == ["move-roll", "move-short"]
    assert state.table.x[0] == pytest.approx(10)


def test_the_check_allows_the_most_the_dice_can_roll():
    _, (r,) = attempt("D6+8", "normal-move", 24.5)
    assert r["violations"][0]["code"] == "move_too_far"
    assert r["violations"][0]["allowed"] == 14


def test_a_run_adds_the_run_roll_to_the_rolled_move():
    state, (r,) = attempt("2D6", "run", 19, dice=[2, 2, 5])
    assert [e["type"] for e in r["events"]][:2] == ["move-roll", "run"]
    assert r["events"][1]["allowed"] == 9
    assert state.table.x[0] == pytest.approx(19)


def test_a_number_move_rolls_nothing():
    _, (r,) = attempt("5", "normal-move", 15)
    assert r["legal"] and r["rolls"] == []


def test_the_distribution_is_exact():
    assert rolls.move_distribution("2D6")[7] == Fraction(1, 6)
    assert rolls.move_chance("D6+8", 12) == Fraction(1, 2)
    assert rolls.likely_move("2D6") == 6
