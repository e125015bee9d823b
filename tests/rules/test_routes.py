"""Routes for the computer players (rules/routes.py): round a wall through its gap rather than
along it, cut where the ruleset's allowance runs out, climbing priced by the ruleset."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import shapely

from battlefield.rules import registry, routes
from battlefield.rules.actions import Action
from battlefield.rules.deploy import battles
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text

WALLED = str(Path(__file__).resolve().parents[2] / "benchmarks" / "maps" / "walled.yaml")


@pytest.fixture(scope="module")
def walled():
    text, name, _ = battles("aos4", WALLED)[0]
    state = Game(registry.get("aos4"), load_scene_text(text, name), 1).new_state()
    while state.phase != "movement":
        # the first-turn decision (red goes first) and the passes before red's movement phase
        state.apply(state.pending[0].choices[0] if state.pending else Action("end-phase"))
    return state


def test_a_route_goes_through_the_gap_and_clear_of_the_wall(walled):
    walls = shapely.union_all([walled.table.layout.polygons[k]
                               for k in walled.table.layout.pieces_with("impassable")])
    for u, spec in enumerate(walled.scene.units):
        if spec.side != "red":
            continue
        path = routes.route(walled, u, (14.0, 17.0))
        line = shapely.LineString(path)
        assert path[-1] == (14.0, 17.0)
        assert line.distance(walls) > 0.2                      # round it, not through it
        crossing = line.intersection(shapely.LineString([(0, 13.5), (60, 13.5)]))
        assert 26 < crossing.x < 34                            # through the 8" gap


def test_moves_are_cut_at_the_allowance_and_the_first_is_the_furthest(walled):
    u = next(i for i, s in enumerate(walled.scene.units) if s.id == "red-lightkeeper")
    moves = routes.toward(walled, u, "normal-move", (14.0, 17.0), stop=1.0)
    allowed = walled.rules.move_allowance(walled, u, "normal-move")
    lengths = [routes.length(a.path) for a in moves]
    assert lengths == sorted(lengths, reverse=True)
    assert lengths[0] == pytest.approx(allowed, abs=0.05)
    assert not walled.check(moves[0])


def test_a_prefix_and_a_cut():
    path = [(0.0, 0.0), (3.0, 0.0), (3.0, 4.0)]
    assert routes.prefix(path, 5.0) == [(0.0, 0.0), (3.0, 0.0), (3.0, 2.0)]
    assert routes.prefix(path, 99.0) == path
    assert routes.length(path) == pytest.approx(7.0)
    assert math.isclose(routes.length(routes.simplified(path)), 7.0)
