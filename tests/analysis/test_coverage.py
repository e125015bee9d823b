"""Sight coverage on boards whose answer is known: an open board sees everything, a tall wall
cuts the board's sight in two, a hill makes hiding spots, woods hide whoever is inside."""

from __future__ import annotations

import numpy as np
import pytest

from battlefield.analysis.coverage import Grid, coverage

from ._build import make_map, piece, rect


def cover(scene, spacing=2.0, height=1.25):
    return coverage(scene.layout, scene.width, scene.depth, spacing, height)


def test_the_grid_tiles_the_board():
    g = Grid.over(60, 44, 0.5)
    assert (g.nx, g.ny, len(g)) == (120, 88, 10560)
    c = g.centres()
    assert c[0].tolist() == [0.25, 0.25] and c[-1].tolist() == [59.75, 43.75]
    odd = Grid.over(10, 7, 2.0)                 # 7 / 2 is not whole: cells a little smaller
    assert (odd.nx, odd.ny) == (5, 4) and odd.sy == pytest.approx(1.75)


def test_an_open_board_sees_everything():
    cov = cover(make_map())
    assert len(cov) == 30 * 22
    assert cov.visible_fraction == 1.0
    assert cov.fraction.min() == 1.0


@pytest.mark.parametrize("x", [30.0, 20.0])
def test_a_tall_wall_across_the_board_cuts_sight_in_two(x):
    """Cells on one side see exactly the other cells on their side: with a centred wall on the
    2" grid (330 cells a side), each sees 329 of the 659 others."""
    wall = piece("wall", rect(x - 0.1, 0, x + 0.1, 44), 10)
    cov = cover(make_map([wall]))
    n = len(cov)
    left = int(np.sum(cov.points[:, 0] < x))
    right = n - left
    expected = (left * (left - 1) + right * (right - 1)) / (n * (n - 1))
    assert cov.visible_fraction == pytest.approx(expected, abs=1e-12)
    if x == 30.0:
        assert left == right == 330
        assert cov.visible_fraction == pytest.approx(329 / 659, abs=1e-12)
        assert set(cov.sight.counts.tolist()) == {329}


def test_a_wall_shorter_than_the_eyes_blocks_nothing():
    wall = piece("wall", rect(29.9, 0, 30.1, 44), 1.2, "obstacle")
    assert cover(make_map([wall]), height=1.25).visible_fraction == 1.0
    assert cover(make_map([wall]), height=1.0).visible_fraction < 0.51


def test_a_hill_makes_hiding_spots_and_a_view_from_the_top():
    hill = piece("hill", rect(28, 20, 32, 24), 4)
    cov = cover(make_map([hill]), spacing=1.0)
    spots = cov.hiding_spots(cov.fraction)
    assert spots and spots[0]["seen"] < cov.visible_fraction < 1.0
    # The best hiding spots hug the hill.
    for s in spots[:2]:
        x, y = s["at"]
        assert 26.5 <= x <= 33.5 and 18.5 <= y <= 25.5, s
    top = cov.inside(rect(28, 20, 32, 24))
    assert len(top) == 16 and np.allclose(cov.points[top, 2], 4 + 1.25)
    assert cov.fraction[top].mean() > cov.visible_fraction
    # On an open board there is nowhere to hide.
    open_board = cover(make_map(), spacing=1.0)
    assert open_board.hiding_spots(open_board.fraction) == []


def test_a_model_inside_woods_sees_nothing_and_is_seen_by_nobody():
    wood = piece("wood", rect(10, 10, 16, 16), 3, "area")
    cov = cover(make_map([wood]))
    inside = cov.inside(rect(10, 10, 16, 16))
    assert len(inside) == 9
    assert cov.sight.blind[inside].all()
    assert (cov.fraction[inside] == 0).all()
    spot = cov.hiding_spots(cov.fraction)[0]
    assert spot["seen"] == 0.0 and spot["in"] == "wood"


def test_no_one_stands_in_impassable_terrain():
    rock = piece("rock", rect(10, 10, 16, 16), 3, "impassable")
    cov = cover(make_map([rock]))
    assert len(cov) == 660 - 9
    values = cov.grid_values(cov.fraction)
    assert np.isnan(values).sum() == 9 and values.shape == (22, 30)


def test_zones_and_objectives_across_a_wall():
    wall = piece("wall", rect(29.9, 0, 30.1, 44), 10)
    zones = {"red": rect(0, 0, 12, 44), "blue": rect(48, 0, 60, 44),
             "green": rect(14, 0, 26, 44)}
    scene = make_map([wall], deployment=zones)
    cov = cover(scene)
    red, blue, green = (cov.zone(s, zones[s]) for s in ("red", "blue", "green"))
    assert cov.pairs_seen(red, blue) == 0.0
    assert cov.pairs_seen(red, green) == 1.0
    assert cov.pairs_seen(red, red) == 1.0
    assert cov.point_seen_from(red, 20, 22) == 1.0
    assert cov.point_seen_from(red, 40, 22) == 0.0
    seen = cov.seen_from(blue)
    assert seen[red].max() == 0.0 and seen[blue].min() == 1.0
