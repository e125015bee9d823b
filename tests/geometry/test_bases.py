"""Base shapes, sizes, default heights and outlines (battlefield/geometry/bases.py)."""

import math

import numpy as np
import pytest
import shapely

from battlefield.geometry import MM_PER_INCH
from battlefield.geometry.bases import (
    OVAL,
    OVAL_SIZES_MM,
    RECT,
    ROUND,
    ROUND_SIZES_MM,
    Base,
    footprint,
    outline_points,
)


def test_round_base_half_extents_are_the_radius_in_inches():
    b = Base.round(32)
    assert b.shape == ROUND
    assert b.a == b.b == pytest.approx(16 / 25.4, abs=1e-12)
    assert b.reach == b.a
    assert b.label == "32 mm"
    assert Base.round(28.5).label == "28.5 mm"


def test_oval_long_axis_is_a_along_the_facing():
    b = Base.oval(60, 35)
    assert b.shape == OVAL
    assert b.a == pytest.approx(30 / MM_PER_INCH)
    assert b.b == pytest.approx(17.5 / MM_PER_INCH)
    assert b.reach == b.a
    assert b.label == "60x35 mm oval"


def test_rect_depth_along_the_facing_frontage_across():
    b = Base.rect(100, 50)  # frontage 100 mm, depth 50 mm
    assert b.shape == RECT
    assert b.a == pytest.approx(25 / MM_PER_INCH)
    assert b.b == pytest.approx(50 / MM_PER_INCH)
    assert b.reach == pytest.approx(math.hypot(25, 50) / MM_PER_INCH)
    assert b.label == "100 x 50 mm rect"


@pytest.mark.parametrize(("mm", "height"), [
    (25, 1.25), (28.5, 1.25), (32, 1.25), (40, 1.5), (50, 2.5), (60, 2.5),
    (80, 4.0), (90, 4.0), (100, 4.0), (130, 4.0), (160, 4.0),
])
def test_round_default_heights(mm, height):
    assert Base.round(mm).default_height() == height


@pytest.mark.parametrize(("size", "height"), [
    ((60, 35), 2.5), ((75, 42), 2.5), ((90, 52), 4.0), ((105, 70), 4.0), ((120, 92), 4.0),
    ((170, 105), 4.0),
])
def test_oval_default_heights(size, height):
    assert Base.oval(*size).default_height() == height


@pytest.mark.parametrize(("size", "height"), [
    ((101.6, 50.8), 2.5), ((100, 25), 1.25), ((160, 40), 1.5), ((101.6, 101.6), 4.0),
])
def test_rect_default_height_follows_the_smaller_side(size, height):
    assert Base.rect(*size).default_height() == height


def test_size_tables_cover_the_common_bases():
    assert set(ROUND_SIZES_MM) >= {25, 28.5, 32, 40, 50, 60, 80, 90, 100, 130, 160}
    assert set(OVAL_SIZES_MM) >= {(60, 35), (75, 42), (90, 52), (105, 70), (120, 92),
                                  (170, 105)}


def test_oval_outline_points_lie_on_the_rotated_ellipse():
    b = Base.oval(90, 52)
    pts = outline_points(b.shape, b.a, b.b, 5.0, 7.0, 30.0, n=64)
    assert pts.shape == (64, 2)
    th = math.radians(30)
    d = pts - [5.0, 7.0]
    u = d[:, 0] * math.cos(th) + d[:, 1] * math.sin(th)
    v = -d[:, 0] * math.sin(th) + d[:, 1] * math.cos(th)
    np.testing.assert_allclose((u / b.a) ** 2 + (v / b.b) ** 2, 1.0, atol=1e-12)
    # The first point is the front of the base: straight along the facing.
    np.testing.assert_allclose(pts[0], [5 + b.a * math.cos(th), 7 + b.a * math.sin(th)])


def test_rect_outline_is_its_four_corners_counter_clockwise():
    b = Base.rect(50.8, 25.4)  # 2" frontage, 1" deep
    pts = outline_points(b.shape, b.a, b.b, 0.0, 0.0, 90.0)
    # Facing +y: the front edge is y = +0.5, the frontage runs along x.
    np.testing.assert_allclose(sorted(map(tuple, np.round(pts, 12))),
                               sorted([(-1, 0.5), (1, 0.5), (-1, -0.5), (1, -0.5)]), atol=1e-12)
    assert shapely.Polygon(pts).exterior.is_ccw


@pytest.mark.parametrize("base", [Base.round(40), Base.oval(120, 92), Base.rect(100, 50)])
def test_footprint_area_and_centre(base):
    poly = footprint(base.shape, base.a, base.b, 3.0, 4.0, 75.0, n=512)
    expected = 4 * base.a * base.b if base.shape == RECT else math.pi * base.a * base.b
    assert poly.is_valid
    assert poly.area == pytest.approx(expected, rel=1e-4)
    assert poly.centroid.x == pytest.approx(3.0)
    assert poly.centroid.y == pytest.approx(4.0)
