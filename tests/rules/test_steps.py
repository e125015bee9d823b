"""A computer player's step towards a goal (rules/steps.py), the one every player uses: the
places to try, best first, and the first the rules allow."""

from __future__ import annotations

import math

import pytest

from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.state import Game
from battlefield.rules.steps import first_legal, heading, places
from battlefield.scene.load import load_scene


def test_the_longest_step_straight_at_the_goal_comes_first():
    start = (0.0, 0.0)
    toward = heading(start, (0.0, 10.0))
    assert toward == pytest.approx(math.pi / 2)
    got = list(places(start, toward, [4.0, 2.0], [0, 90, -90]))
    want = [(0, 4), (-4, 0), (4, 0), (0, 2), (-2, 0), (2, 0)]
    assert [pytest.approx(p, abs=1e-12) for p in want] == got


def test_turns_first_tries_every_length_of_a_turn_before_the_next_turn():
    got = list(places((1.0, 1.0), 0.0, [3.0, 1.0], [0, 180], turns_first=True))
    want = [(4, 1), (2, 1), (-2, 1), (0, 1)]
    assert [pytest.approx(p, abs=1e-12) for p in want] == got


def test_the_first_legal_step_is_taken():
    skirmish = registry.get("skirmish")
    state = Game(skirmish, load_scene(skirmish.spec.demo_path), 1).new_state()
    too_far = Action("move", "red-scouts", path=((8, 16.2), (8, 40)))
    fine = Action("move", "red-scouts", path=((8, 16.2), (9, 17)))
    assert first_legal(state, [too_far, fine]) is fine
    assert first_legal(state, [too_far]) is None
