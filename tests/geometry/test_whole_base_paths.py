"""Paths are for whole bases (issue 21): a base climbs a piece wherever any part of it goes over
the piece, not only where its centre does, and goes round a piece by the piece's outline grown
by its radius. Every number is worked out by hand; 32 mm bases: R = 0.629921".

The scene: a 5" tower (x 20..25, y 10..15), a 1" wall (x 20..25, y 20..21) and a long 5" wall
(x 40..41, y 2..42), measured as aos4 does (pieces over 1" are climbed, up and down).
"""

import math

import numpy as np
import pytest

from battlefield.geometry.paths import GRAZE, Planner, Terrain
from battlefield.geometry.reach import reach_field
from battlefield.geometry.terrain import Layout, Piece

R = 32 / 25.4 / 2
TOWER = Piece("tower", ((20, 10), (25, 10), (25, 15), (20, 15)), 5, "solid")
LOW = Piece("low", ((20, 20), (25, 20), (25, 21), (20, 21)), 1, "obstacle")
LONG = Piece("long", ((40, 2), (41, 2), (41, 42), (40, 42)), 5, "solid")
LANDING = 0.01


def terrain(clearance: float = R) -> Terrain:
    return Terrain(Layout((TOWER, LOW, LONG)), 1.0, LANDING, clearance)


@pytest.mark.parametrize(("path", "horizontal", "vertical", "drop"), [
    # The centre passes 0.62" beside the tower: 0.0099" of the base goes over it: up 5, down 5.
    ([(10, 15.62), (35, 15.62)], 25, 10, 0),
    # 0.6" beside: 0.03" over it: the same.
    ([(10, 15.6), (35, 15.6)], 25, 10, 0),
    # 0.64" beside: the base clears it by 0.01": nothing climbed.
    ([(10, 15.64), (35, 15.64)], 25, 0, 0),
    # Touching (R beside, or over it by less than GRAZE): not over it.
    ([(10, 15 + R), (35, 15 + R)], 25, 0, 0),
    ([(10, 15 + R - GRAZE / 2), (35, 15 + R - GRAZE / 2)], 25, 0, 0),
    # Over the 1" wall with the whole base: 1" is crossed freely.
    ([(10, 20.5), (35, 20.5)], 25, 0, 0),
    # Grazing the 1" wall: nothing either.
    ([(10, 21.62), (35, 21.62)], 25, 0, 0),
    # Onto the tower, the base's edge just over its wall: up 5 and still on it at the end.
    ([(10, 12.5), (19.5, 12.5)], 9.5, 5, 0),
    # From wholly on the tower to wholly off it and on: 5 down, climbed (the path goes on).
    ([(22.5, 12.5), (30, 12.5)], 7.5, 5, 0),
    # Off it, ending where the base is first wholly off (25 + R): the drop may be a jump.
    ([(22.5, 12.5), (25 + R, 12.5)], 2.5 + R, 5, 5),
    # A base standing against the tower's wall walks away: it was never over it.
    ([(25 + R, 12.5), (30, 12.5)], 5 - R, 0, 0),
])
def test_a_base_climbs_wherever_any_part_of_it_goes_over_a_piece(path, horizontal, vertical,
                                                                  drop):
    c = terrain().path_cost(path)
    assert c.horizontal == pytest.approx(horizontal)
    assert c.vertical == pytest.approx(vertical)
    assert c.drop_at_end == pytest.approx(drop)


def test_a_point_mover_is_measured_by_its_centre():
    # Clearance 0 (a point): 0.62" beside the tower is clear of it, as a centre line is.
    assert terrain(0.0).path_cost([(10, 15.62), (35, 15.62)]).vertical == 0.0


def _to_point(target: tuple[float, float]):
    def legs(points: np.ndarray, origin: np.ndarray):
        d = np.hypot(points[:, 0] - target[0], points[:, 1] - target[1])
        return d[:, None], np.broadcast_to(np.asarray(target, dtype=np.float64),
                                           (len(points), 1, 2)).copy()
    return legs


def test_the_shortest_path_goes_round_the_grown_outline_when_that_is_cheaper():
    # Through the tower's middle (10, 12.5) -> (35, 12.5): straight, 25 + 5 up + 5 down = 35.
    # Round its top: the tangent from the start to the circle of radius R round corner
    # (20, 15), the arc over the corner, 5" along y = 15 + R, the arc round (25, 15) and the
    # tangent down: d = hypot(10, 2.5), 2 sqrt(d^2 - R^2) + 5 + 2 R (atan(2.5/10) + asin(R/d))
    # = 25.96267". The search turns at the corners of a polygon enclosing those arcs, pushed
    # out 0.01": 0.014" longer, never inside.
    ter = terrain()
    assert ter.path_cost([(10, 12.5), (35, 12.5)]).total == pytest.approx(35)
    d = math.hypot(10, 2.5)
    exact = 2 * math.sqrt(d * d - R * R) + 5 + 2 * R * (math.atan2(2.5, 10) + math.asin(R / d))
    assert exact == pytest.approx(25.96267, abs=1e-5)
    (route,) = Planner(ter, [], R).shortest([(10, 12.5)], _to_point((35, 12.5)))
    assert exact - 1e-9 <= route.cost <= exact + 0.02
    # Play measures the route as the search did: all on the ground, the same length.
    cost = ter.path_cost(route.path)
    assert cost.vertical == 0.0 and cost.total == pytest.approx(route.cost)


def test_a_path_that_grazes_a_piece_steps_round_it():
    # 0.62" beside the tower: climbing it costs 35; stepping 0.04" further out costs
    # 2 hypot(10, 0.0421) - 20 = 0.00015" more than 25 (the turn at the enclosing polygon's
    # corner, 15 + R / cos(15 deg) + 0.01 = 15.6621).
    ter = terrain()
    (route,) = Planner(ter, [], R).shortest([(10, 15.62)], _to_point((35, 15.62)))
    assert route.cost == pytest.approx(25.00015, abs=1e-4)
    assert max(y for _, y in route.path) > 15 + R
    assert ter.path_cost(route.path).vertical == 0.0


def test_climbing_is_chosen_when_going_round_is_dearer():
    # The long wall (40" long, 5" tall) across (30, 22) -> (50, 22): 20 + 10 climbing = 30;
    # round its end would be over 2 hypot(10, 20.6) = 45.8.
    ter = terrain()
    (route,) = Planner(ter, [], R).shortest([(30, 22)], _to_point((50, 22)))
    assert route.cost == pytest.approx(30)
    assert ter.path_cost(route.path).total == pytest.approx(30)


def test_the_reach_field_climbs_and_goes_round_as_play_measures():
    # The play window's shading and its routes use the same outlines: the straight line
    # 0.62" beside the tower costs what path_cost says (35), and the field's cheapest way
    # there goes round (about 25, within a cell or two).
    ter = terrain()
    field = reach_field((10, 15.62), 30, [], ter, (0, 0, 60, 44))
    assert field.segment_cost((10, 15.62), (35, 15.62)) == pytest.approx(
        ter.path_cost([(10, 15.62), (35, 15.62)]).total)
    assert 25 <= field.cost_at(35, 15.62) <= 25.5
    path = field.route((35, 15.62))
    assert ter.path_cost(path).vertical == 0.0


def test_leaving_out_legs_that_cut_into_a_corner_changes_no_shortest_path(monkeypatch):
    # The search keeps only legs tangent to the way round a piece at its corners; with every
    # leg kept it finds the same costs (here from 12 starts round the tower and the long wall).
    from battlefield.geometry import paths

    ter = terrain()
    starts = [(10 + 3 * i, 4 + 3.5 * (i % 4)) for i in range(12)]
    goal = _to_point((47, 21))
    pruned = [r.cost for s in starts for r in Planner(ter, [], R).shortest([s], goal)]

    def every_pair(pts, sides):
        return np.triu_indices(len(pts), 1)

    monkeypatch.setattr(paths, "_tangent_pairs", every_pair)
    full = [r.cost for s in starts for r in Planner(ter, [], R).shortest([s], goal)]
    assert pruned == pytest.approx(full, abs=1e-9)
