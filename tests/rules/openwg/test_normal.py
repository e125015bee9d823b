"""openwg's normal player plays for the objectives (rules/openwg/normal.py): a unit far from
every enemy goes towards the nearest objective its side does not hold, round the terrain in
the way, and a unit its side needs on an objective stays there; easy marches on the enemy."""

from __future__ import annotations

import math

from battlefield.rules import registry
from battlefield.rules.state import Game

from ._scene import load, row, scene, unit

OBJECTIVES = ({"id": "west", "at": [8, 24]}, {"id": "east", "at": [40, 24]})


def _first(level: str, text: str):
    rules = registry.get("openwg")
    state = Game(rules, load(text), 1).new_state()
    return state, rules.player(level).choose(state)


def _near(point, obj) -> float:
    return math.dist(point, obj["at"])


def test_normal_goes_for_the_nearest_objective_not_the_enemy():
    text = scene(unit("red-a", "red", row(8, 6)), unit("blue-a", "blue", row(38, 44)),
                 objectives=OBJECTIVES)
    state, action = _first("normal", text)
    assert action.type in ("move", "run") and not state.check(action)
    start, end = action.path[0], action.path[-1]
    assert _near(end, OBJECTIVES[0]) < _near(start, OBJECTIVES[0]) - 4
    _, easy = _first("easy", text)
    assert easy.type == "move"
    assert _near(easy.path[-1], OBJECTIVES[0]) > _near(end, OBJECTIVES[0])


def test_a_unit_its_side_needs_on_an_objective_stays():
    text = scene(unit("red-a", "red", row(7, 24)), unit("blue-a", "blue", row(38, 44)),
                 objectives=OBJECTIVES[:1])
    _, action = _first("normal", text)
    assert action.type in ("stop", "hold")


def test_normal_walks_round_an_impassable_piece_in_the_way():
    # one model: a route is the leader's, and models beside it may clip a corner it turns
    text = scene(unit("red-a", "red", row(7, 10, n=1)), unit("blue-a", "blue", row(38, 44)),
                 objectives=OBJECTIVES[:1])
    text += ("terrain:\n  - {id: rock, kind: impassable, height: 4, "
             "outline: [[2, 14], [14, 14], [14, 16], [2, 16]]}\n")
    state, action = _first("normal", text)
    assert action.type in ("move", "run") and not state.check(action)
    assert len(action.path) > 2                   # it turns round a corner of the rock
