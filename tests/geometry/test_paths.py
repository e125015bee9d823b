"""Path costs (climbing, jumping down, FLY) and shortest legal paths, worked out by hand."""

import math

import numpy as np
import pytest

from battlefield.geometry.paths import Obstacle, Planner, Terrain, disc
from battlefield.geometry.terrain import Layout, Piece

HILL = Piece("hill", ((20, 5), (25, 5), (25, 15), (20, 15)), 3, "solid")
LOW = Piece("low", ((30, 5), (31, 5), (31, 15), (30, 15)), 1, "obstacle")
WOOD = Piece("wood", ((40, 5), (45, 5), (45, 15), (40, 15)), 3, "area")
ROCK = Piece("rock", ((10, 0), (12, 0), (12, 20), (10, 20)), 4, "impassable")


def terrain(*pieces, landing=0.63):
    return Terrain(Layout(pieces), 1.0, landing=landing)


@pytest.mark.parametrize(("path", "horizontal", "vertical", "drop"), [
    ([(15, 10), (30, 10)], 15, 6, 0),          # over the hill: up 3, down 3
    ([(15, 10), (22, 10)], 7, 3, 0),           # onto the hill
    ([(22, 10), (25.5, 10)], 3.5, 3, 3),       # off it, ending at its foot: may jump
    ([(22, 10), (29, 10)], 7, 3, 0),           # off it and on: a climb down
    ([(28, 10), (33, 10)], 5, 0, 0),           # 1" wall: crossed freely
    ([(38, 10), (47, 10)], 9, 0, 0),           # area terrain: walked through
    ([(15, 10), (18, 10), (18, 12)], 5, 0, 0),  # bends add up
])
def test_path_cost(path, horizontal, vertical, drop):
    c = terrain(HILL, LOW, WOOD).path_cost(path)
    assert c.horizontal == pytest.approx(horizontal)
    assert c.vertical == pytest.approx(vertical)
    assert c.drop_at_end == pytest.approx(drop)
    assert c.total_if_jumping == pytest.approx(horizontal + vertical - drop)


def test_fly_pays_no_climbing():
    assert terrain(HILL).path_cost([(15, 10), (30, 10)], fly=True).total == pytest.approx(15)
    # asked on foot after flying (and the other way): each keeps its own cost
    ter = terrain(HILL)
    assert ter.path_cost([(15, 10), (30, 10)]).total == pytest.approx(21)
    assert ter.path_cost([(15, 10), (30, 10)], fly=True).total == pytest.approx(15)


def test_path_costs_are_kept_per_path_and_let_go_beyond_the_limit(monkeypatch):
    from battlefield.geometry import paths

    monkeypatch.setattr(paths, "COSTS_KEPT", 2)
    ter = terrain(HILL, LOW, WOOD)
    asked = [[(15, 10), (30, 10)], [(15, 10), (22, 10)], [(22, 10), (25.5, 10)],
             [(15, 10), (30, 10)], [(22.0, 10.0), (25.5, 10.0), (25.5, 11.0)]]
    totals = [ter.path_cost(p).total for p in asked]
    assert totals == pytest.approx([21, 10, 6.5, 21, 7.5])
    assert len(ter._costs) <= 2


def _to_point(target, reach):
    def legs(points, origin):
        d = np.hypot(points[:, 0] - target[0], points[:, 1] - target[1])
        go = np.maximum(0.0, d - reach)
        ends = points + (np.asarray(target) - points) * (go / np.maximum(d, 1e-12))[:, None]
        return go[:, None], ends[:, None, :]
    return legs


def test_straight_when_nothing_is_in_the_way():
    p = Planner(terrain(), [], clearance=0.5)
    (route,) = p.shortest([(0, 0)], _to_point((3, 4), 1.0))
    assert route.cost == pytest.approx(4.0)


def test_round_a_model():
    # A disc of radius 1 (after growing by the mover's clearance) on the straight line: the
    # shortest path hugs it: tangent + arc + tangent.
    p = Planner(terrain(), [Obstacle(disc(5, 0, 1.0, 64), "m")], clearance=0.0)
    (route,) = p.shortest([(0, 0)], _to_point((10, 0), 0.0))
    t = math.sqrt(25 - 1)
    arc = 2 * (math.pi / 2 - math.acos(1 / 5))
    assert route.cost == pytest.approx(2 * t + arc, abs=5e-3)


def test_round_impassable_terrain_and_climbing_when_cheaper():
    # The rock cannot be crossed: round its end. A low 3" hill in the way is cheaper to climb
    # (6" of climbing) than to walk round when the detour is longer.
    p = Planner(terrain(ROCK), [], clearance=0.5)
    (route,) = p.shortest([(5, 10)], _to_point((17, 10), 0.0))
    assert route.cost > 12 and max(y for _, y in route.path) > 20
    hill = Piece("hill", ((14, -50), (16, -50), (16, 60), (14, 60)), 3, "solid")
    p = Planner(Terrain(Layout((hill,)), 1.0), [], clearance=0.5, region=(0, 0, 30, 20))
    (route,) = p.shortest([(5, 10)], _to_point((20, 10), 0.0))
    assert route.cost == pytest.approx(15 + 6)


def test_paths_no_climbable_piece_comes_near_cost_their_length_the_same_as_measured():
    """The shortcut for paths far from every climbable piece gives what measuring the ground
    along them gives, bit for bit."""
    ter = terrain(HILL, LOW, WOOD)
    rng = np.random.default_rng(3)
    for _ in range(200):
        path = rng.uniform((0, 0), (50, 20), size=(int(rng.integers(2, 5)), 2))
        fast = ter.path_cost(path)
        ter.climbs_near = lambda pts: True          # force the measured way  # noqa: B023
        slow = ter.path_cost(path)
        del ter.climbs_near
        assert fast == slow


def test_segments_meet_a_polygon_with_a_hole_and_a_multipolygon_as_shapely_says():
    import shapely

    from battlefield.geometry.paths import part_edges, segments_all_meet

    ring = shapely.Polygon([(2, 2), (10, 2), (10, 10), (2, 10)], [[(4, 4), (8, 4), (8, 8),
                                                                    (4, 8)]])
    multi = shapely.MultiPolygon([shapely.box(0, 0, 1, 1), shapely.box(5, 5, 6, 7)])
    rng = np.random.default_rng(7)
    for shape in (ring, multi):
        edges = part_edges(shape)
        starts = rng.uniform(-1, 12, (400, 2))
        ends = rng.uniform(-1, 12, (400, 2))
        for s, e in zip(starts, ends, strict=True):
            want = bool(shapely.intersects(shapely.LineString([s, e]), shape))
            assert segments_all_meet(s[None], e[None], *edges) == want, (s, e)
    # a segment wholly inside the hole meets nothing; one touching a corner meets
    hole = part_edges(ring)
    assert not segments_all_meet(np.array([[5.0, 5.0]]), np.array([[7.0, 7.0]]), *hole)
    assert segments_all_meet(np.array([[0.0, 0.0]]), np.array([[2.0, 2.0]]), *hole)
    assert not segments_all_meet(np.zeros((1, 2)), np.ones((1, 2)), *part_edges(
        shapely.Polygon()))


@pytest.mark.parametrize("seed", range(6))
def test_only_legs_tangent_at_their_corners_are_searched_and_the_routes_stay_shortest(seed):
    """A shortest path turns round an obstacle's corner tangent to it: leaving the other legs
    out of the search (most of the legs between a rounded outline's corners) finds routes as
    short as searching every leg."""
    rng = np.random.default_rng(seed)
    obstacles = [Obstacle(disc(float(x), float(y), float(r), 24), f"o{k}")
                 for k, (x, y, r) in enumerate(zip(rng.uniform(8, 40, 5), rng.uniform(4, 26, 5),
                                                   rng.uniform(0.8, 3, 5), strict=True))]
    planner = Planner(terrain(HILL, ROCK), obstacles, 0.5)
    goal = (46.0, float(rng.uniform(2, 28)))

    def legs(pts, origin):
        d = np.hypot(pts[:, 0] - goal[0], pts[:, 1] - goal[1])[:, None]
        return d, np.broadcast_to(np.array(goal), (len(pts), 1, 2))

    start = (2.0, float(rng.uniform(2, 28)))
    pruned = planner.shortest([start], legs)[0]
    planner._sides = np.full_like(planner._sides, np.nan)      # every leg searched
    every = planner.shortest([start], legs)[0]
    assert math.isfinite(pruned.cost) and pruned.cost == pytest.approx(every.cost, abs=1e-9)
