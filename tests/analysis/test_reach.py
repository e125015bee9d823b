"""Reach: the shortest legal march from a deployment zone to an objective."""

from __future__ import annotations

import math

import pytest

from battlefield.analysis.reach import contest_range, default_move, marches, turns

from ._build import make_map, piece, rect

ZONES = {"red": rect(0, 0, 60, 6), "blue": rect(0, 38, 60, 44)}
R32 = 32 / 25.4 / 2


def march(scene, side, objective):
    return next(m for m in marches(scene) if m.side == side and m.objective == objective)


def test_on_an_open_board_the_march_is_the_straight_line():
    scene = make_map(objectives=[{"id": "mid", "at": [30, 22]}], deployment=ZONES)
    m = march(scene, "red", "mid")
    assert m.inches == pytest.approx(16.0)
    assert m.path[0] == pytest.approx((30, 6)) and m.path[-1] == pytest.approx((30, 22))
    assert m.contest_inches == pytest.approx(16.0 - contest_range(scene))
    assert march(scene, "blue", "mid").inches == pytest.approx(16.0)


def test_an_impassable_block_makes_the_march_longer_than_the_straight_line():
    block = piece("rock", rect(20, 12, 40, 16), 4, "impassable")
    scene = make_map([block], objectives=[{"id": "mid", "at": [30, 22]}], deployment=ZONES)
    m = march(scene, "red", "mid")
    assert m.inches > 16.0 + 1.0
    # Round a corner of the block, the base's radius clear of it.
    x0 = 20 - R32
    around = math.hypot(30 - x0, 22 - 16) + (16 - 6)
    assert m.inches == pytest.approx(around, rel=0.02)
    assert all(not (20 < x < 40 and 12 < y < 16) for x, y in m.path)
    assert march(scene, "blue", "mid").inches == pytest.approx(16.0)


def test_climbing_counts_by_the_ruleset():
    """A 1.5" wall right across the board: aos4 climbs it (on and off, 3"), skirmish crosses
    walls under 2" freely."""
    wall = piece("wall", rect(0, 12, 60, 13), 1.5, "obstacle")
    obj = [{"id": "mid", "at": [30, 22]}]
    aos4 = make_map([wall], obj, ZONES)
    assert march(aos4, "red", "mid").inches == pytest.approx(16.0 + 3.0)
    skirmish = make_map([wall], obj, ZONES, board=(60, 44), ruleset="skirmish")
    assert march(skirmish, "red", "mid").inches == pytest.approx(16.0)


def test_an_objective_in_the_zone_is_reached_at_once():
    scene = make_map(objectives=[{"id": "home", "at": [30, 3]}], deployment=ZONES)
    m = march(scene, "red", "home")
    assert m.inches == 0.0 and m.to_dict(5.0)["turns"] == 0


def test_turns_and_moves():
    assert turns(0.0, 5) == 0 and turns(5.0, 5) == 1 and turns(5.01, 5) == 2
    assert turns(math.inf, 5) is None
    assert default_move("aos4") == 5.0 and default_move("skirmish") == 6.0
    assert default_move("warband") > 0


def test_no_zones_or_no_objectives_no_marches():
    assert marches(make_map(objectives=[{"id": "mid", "at": [30, 22]}])) == []
    assert marches(make_map(deployment=ZONES)) == []
