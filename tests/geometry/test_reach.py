"""The reach field: costs and routes on small tables whose answers are worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from battlefield.geometry.paths import Terrain
from battlefield.geometry.reach import reach_field
from battlefield.geometry.terrain import Layout, Piece

BOARD = (0.0, 0.0, 30.0, 30.0)


def length(path) -> float:
    return float(sum(math.dist(a, b) for a, b in zip(path[:-1], path[1:], strict=True)))


def test_open_ground_costs_the_straight_distance() -> None:
    f = reach_field((10, 10), 8, [], None, BOARD)
    assert f.cost_at(14, 13) == pytest.approx(5.0)
    assert f.route((14, 13)) == [(10.0, 10.0), (14, 13)]
    # The region for 5" is the disc of radius 5 (to within a cell).
    area = f.within(5).sum() * f.step ** 2
    assert area == pytest.approx(math.pi * 25, rel=0.03)


def test_a_wall_is_walked_round_by_its_corners() -> None:
    wall = shapely.box(12, 5, 13, 15)
    f = reach_field((10, 10), 14, [wall], None, BOARD)
    # By hand: (10,10) -> (12,5) -> (13,5) -> (15,10) = 2 * sqrt(29) + 1 = 11.770" (or the
    # same round the top corners).
    exact = 2 * math.sqrt(29) + 1
    path = f.route((15, 10))
    assert length(path) == pytest.approx(exact, abs=0.01)
    y = 5 if path[1][1] < 10 else 15
    assert path[1] == pytest.approx((12, y), abs=0.01)
    assert path[2] == pytest.approx((13, y), abs=0.01)
    # The field's own figure errs long by at most a few percent, never short.
    assert exact - 1e-9 <= f.cost_at(15, 10) <= exact * 1.04
    # Inside the wall: nowhere.
    assert math.isinf(f.cost_at(12.5, 10))


def test_climbing_counts_the_height_and_going_round_can_be_cheaper() -> None:
    # A 6"-high block: climbing onto and off it costs 12", going round its end costs less.
    block = Piece("block", ((12, 0), (13, 0), (13, 12), (12, 12)), 6.0, "solid")
    ter = Terrain(Layout((block,)), 1.0)
    f = reach_field((10, 10), 14, [], ter, BOARD)
    assert f.segment_cost((10, 10), (15, 10)) == pytest.approx(5 + 12)
    path = f.route((15, 10))
    # Round the corner (12, 12) -> (13, 12): sqrt(8) + 1 + sqrt(8), corners cleared by 0.01".
    assert length(path) == pytest.approx(2 * math.sqrt(8) + 1, abs=0.06)
    assert f.cost_at(15, 10) < 5 + 12
    # A low piece is walked over for free.
    low = Terrain(Layout((Piece("low", block.outline, 1.0, "solid"),)), 1.0)
    assert reach_field((10, 10), 14, [], low, BOARD).cost_at(15, 10) == pytest.approx(5)


def test_the_board_edge_bounds_the_field() -> None:
    f = reach_field((1, 1), 5, [], None, BOARD)
    assert f.x0 >= 0 - 1e-9 and f.y0 >= 0 - 1e-9
    assert f.cost_at(-2, 1) == math.inf
    assert np.isfinite(f.cost).any()
