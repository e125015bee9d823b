"""The position in one line (rules/summary.py), as `try` prints it after its actions."""

from __future__ import annotations

from battlefield.paths import find_map
from battlefield.rules import registry
from battlefield.rules.state import Game
from battlefield.rules.summary import summary_line
from battlefield.scene.load import load_scene


def _demo(name: str):
    ruleset = registry.get(name)
    return Game(ruleset, load_scene(find_map(ruleset.spec.demo)), 1).new_state()


def test_each_sides_resources_follow_whose_move_it_is():
    assert summary_line(_demo("openwg")) == \
        "position: round 1, red's movement phase, red to act; red vp 0; blue vp 0"


def test_sides_that_keep_nothing_are_left_out():
    # A ruleset whose sides have no resources (a duel: nothing but the units) ends the line
    # with who acts, not with "; red ; blue ".
    state = _demo("openwg")
    state.sides = {"red": {}, "blue": {"vp": 2, "cards": []}}
    assert summary_line(state) == "position: round 1, red's movement phase, red to act; blue vp 2"
    state.sides = {"red": {}, "blue": {}}
    assert summary_line(state) == "position: round 1, red's movement phase, red to act"
