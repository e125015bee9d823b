"""The navigation check (analysis/navigation.py): per deployment zone, the units that never
left it and never reached an objective, watched over a battle's tables."""

from __future__ import annotations

import numpy as np

from battlefield.analysis.navigation import Tracker, shares
from battlefield.rules import registry
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text

STATS = "{speed: 6, range: 1, strike: 1, hit: 4, damage: 1, toughness: 1, cover: 1, " \
        "initiative: 3, melee: 1}"
SCENE = f"""
ruleset: skirmish
board: {{width: 36, depth: 36}}
objectives: [{{id: middle, at: [18, 18]}}]
deployment:
  red: [[0, 0], [36, 0], [36, 8], [0, 8]]
  blue: [[0, 28], [36, 28], [36, 36], [0, 36]]
units:
  - {{id: red-a, side: red, stats: {STATS}, models: [{{base: 25, at: [5, 4]}}]}}
  - {{id: red-b, side: red, stats: {STATS}, models: [{{base: 25, at: [30, 4]}}]}}
  - {{id: blue-a, side: blue, stats: {STATS}, models: [{{base: 25, at: [5, 32]}}]}}
"""


def test_units_that_leave_and_reach_are_counted_once_and_for_good():
    state = Game(registry.get("skirmish"), load_scene_text(SCENE, "nav"), 1).new_state()
    t = Tracker(state, {"red": "red", "blue": "blue"})
    assert t.report() == {"red": {"units": 2, "never_left_zone": 2, "never_reached_objective": 2},
                          "blue": {"units": 1, "never_left_zone": 1,
                                   "never_reached_objective": 1}}
    m = int(state.models_of(0)[0])
    state.table = state.table.moved(np.array([m]), np.array([18.0]), np.array([17.0]))
    t.see(state)
    back = state.table.moved(np.array([m]), np.array([5.0]), np.array([4.0]))
    state.table = back
    t.see(state)                          # back home: it has left and reached all the same
    assert t.report()["red"] == {"units": 2, "never_left_zone": 1, "never_reached_objective": 1}


def test_zones_are_named_as_the_map_names_them_when_swapped():
    """Red standing in the map's blue zone is counted under "blue" (its outline is the one
    the scene gives red)."""
    state = Game(registry.get("skirmish"), load_scene_text(SCENE, "nav"), 1).new_state()
    t = Tracker(state, {"red": "blue", "blue": "red"})
    assert t.report()["blue"]["units"] == 2 and t.report()["red"]["units"] == 1


def test_shares_over_battles():
    one = {"red": {"units": 4, "never_left_zone": 1, "never_reached_objective": 2}}
    two = {"red": {"units": 4, "never_left_zone": 0, "never_reached_objective": 4}}
    assert shares([one, two]) == {"red": {"never_left_zone": 0.125,
                                          "never_reached_objective": 0.75}}
    none = {"red": {"units": 2, "never_left_zone": 2, "never_reached_objective": None}}
    assert shares([none])["red"]["never_reached_objective"] is None
