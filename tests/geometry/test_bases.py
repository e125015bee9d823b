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
    _tangents,
    footprint,
    grown_outline,
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


# --- the grown outline (what charge and move paths go round) ------------------------------------
# grown_outline(base, r) is the polygon of `sides` tangent lines to the base grown by r: it holds
# every point within r of the base, and no point further than the tangent polygon's corners.
# For a circle of radius R the polygon is the regular n-gon circumscribing it: area
# n R^2 tan(pi/n), corners R / cos(pi/n) from the centre.


def _ngon_area(radius: float, n: int) -> float:
    return n * radius ** 2 * math.tan(math.pi / n)


@pytest.mark.parametrize("r", [0.0, 0.5, 1.0])
def test_a_32mm_base_grown_by_r_is_the_circle_of_radius_16mm_plus_r(r):
    b = Base.round(32)
    big = 16 / 25.4 + r                          # 0.6299" + r
    poly = grown_outline(b.shape, b.a, b.b, 10.0, 20.0, 0.0, r)
    assert poly.is_valid and len(poly.exterior.coords) == 24 + 1
    # pi (16/25.4 + r)^2 <= area <= the circumscribed 24-gon's, 1.15 % more
    assert math.pi * big ** 2 <= poly.area <= _ngon_area(big, 24) * (1 + 1e-12)
    assert poly.area == pytest.approx(_ngon_area(big, 24), rel=1e-12)
    assert poly.centroid.x == pytest.approx(10.0) and poly.centroid.y == pytest.approx(20.0)
    corners = np.asarray(poly.exterior.coords)[:-1] - [10.0, 20.0]
    np.testing.assert_allclose(np.hypot(*corners.T), big / math.cos(math.pi / 24), rtol=1e-12)


def test_a_32mm_base_grown_by_half_an_inch_covers_four_square_inches():
    b = Base.round(32)
    poly = grown_outline(b.shape, b.a, b.b, 0.0, 0.0, 0.0, 0.5)
    assert math.pi * (16 / 25.4 + 0.5) ** 2 == pytest.approx(4.0109, abs=1e-4)
    assert 4.01 < poly.area < 4.06


@pytest.mark.parametrize("facing", [0.0, 30.0, 90.0, 137.0])
@pytest.mark.parametrize("r", [0.25, 1.0])
def test_a_rectangle_grows_as_the_rounded_rectangle_that_encloses_it(facing, r):
    # Base.rect(4" frontage, 2" deep): a = 1, b = 2. The grown shape is the rounded rectangle
    # w h + 2 r (w + h) + pi r^2, and the tangent polygon encloses it. When the sides face
    # tangent directions (facing a multiple of 15 degrees) it adds only a little at the four
    # rounded corners: each a quarter of the circumscribed 24-gon of radius r less the circle.
    b = Base.rect(4 * 25.4, 2 * 25.4)
    assert (b.a, b.b) == pytest.approx((1.0, 2.0))
    w, h = 4.0, 2.0
    rounded = w * h + 2 * r * (w + h) + math.pi * r ** 2
    poly = grown_outline(b.shape, b.a, b.b, 3.0, -2.0, facing, r)
    assert poly.is_valid
    assert poly.area >= rounded
    if facing % 15 == 0:
        assert poly.area == pytest.approx(rounded + _ngon_area(r, 24) - math.pi * r ** 2,
                                          rel=1e-12)
    exact = footprint(b.shape, b.a, b.b, 3.0, -2.0, facing).buffer(r, quad_segs=64)
    assert poly.buffer(1e-9).contains(exact)
    # Every corner of the base is still r clear of the polygon's edge.
    base = shapely.Polygon(outline_points(b.shape, b.a, b.b, 3.0, -2.0, facing))
    assert poly.exterior.distance(base) == pytest.approx(r, abs=1e-9)


def test_a_rectangle_is_not_grown_as_an_ellipse():
    # The ellipse with the rectangle's half sides misses its corners: the grown outline of a
    # 2" x 4" block by a hair must still hold the corner (1, 2) and (1, -2).
    b = Base.rect(4 * 25.4, 2 * 25.4)
    poly = grown_outline(b.shape, b.a, b.b, 0.0, 0.0, 0.0, 0.01)
    for corner in [(1.0, 2.0), (1.0, -2.0), (-1.0, 2.0), (-1.0, -2.0)]:
        assert poly.contains(shapely.Point(corner))
    assert poly.area >= 8.0 + 2 * 0.01 * 6


@pytest.mark.parametrize("facing", [0.0, 60.0])
def test_an_oval_grown_by_r_holds_every_point_within_r_of_it(facing):
    b = Base.oval(90, 52)
    r = 0.75
    poly = grown_outline(b.shape, b.a, b.b, -4.0, 6.0, facing, r)
    exact = footprint(b.shape, b.a, b.b, -4.0, 6.0, facing, n=1024).buffer(r, quad_segs=64)
    assert poly.buffer(1e-9).contains(exact)
    # ... with at most rho (1 / cos(pi / 24) - 1) to spare, rho the grown oval's largest
    # radius of curvature (a^2 / b + r, at the ends of its short axis).
    spare = (b.a ** 2 / b.b + r) * (1 / math.cos(math.pi / 24) - 1)
    assert exact.buffer(spare + 1e-6).contains(poly)
    assert poly.area < exact.area * 1.02


def test_more_sides_fit_closer():
    b = Base.round(40)
    coarse = grown_outline(b.shape, b.a, b.b, 0.0, 0.0, 0.0, 1.0, sides=8)
    fine = grown_outline(b.shape, b.a, b.b, 0.0, 0.0, 0.0, 1.0, sides=96)
    big = 20 / 25.4 + 1.0
    assert len(coarse.exterior.coords) == 9 and len(fine.exterior.coords) == 97
    assert coarse.area == pytest.approx(_ngon_area(big, 8), rel=1e-12)
    assert fine.area == pytest.approx(_ngon_area(big, 96), rel=1e-12)


def test_tangent_lines_of_a_round_base_touch_its_circle():
    # _tangents(ROUND, R, R, facing, n): direction k at angle 2 pi k / n, the base's extent R
    # along every one; the line u . p = u . c + R + r touches the circle of radius R + r round c
    # at c + (R + r) u.
    R, n = 0.5, 12
    ux, uy, h, ux2, uy2, det = _tangents(ROUND, R, R, 33.0, n)
    t = 2 * math.pi * np.arange(n) / n
    np.testing.assert_allclose(ux, np.cos(t), atol=1e-15)
    np.testing.assert_allclose(uy, np.sin(t), atol=1e-15)
    np.testing.assert_allclose(h, R)
    np.testing.assert_allclose(ux2, np.roll(np.cos(t), -1), atol=1e-15)
    np.testing.assert_allclose(uy2, np.roll(np.sin(t), -1), atol=1e-15)
    np.testing.assert_allclose(det, math.sin(2 * math.pi / n))
    c, r = np.array([2.0, -1.0]), 0.25
    touch = c + (R + r) * np.column_stack([ux, uy])
    np.testing.assert_allclose(touch @ np.array([[1.0], [0.0]]) * ux[:, None]
                               + touch @ np.array([[0.0], [1.0]]) * uy[:, None],
                               (ux * c[0] + uy * c[1] + h + r)[:, None])
    # The grown outline's edge k runs through the touching point k, square to direction k.
    poly = grown_outline(ROUND, R, R, c[0], c[1], 33.0, r, sides=n)
    assert all(poly.exterior.distance(shapely.Point(p)) < 1e-12 for p in touch)


@pytest.mark.parametrize("facing", [0.0, 90.0])
def test_tangent_extents_of_a_rectangle_and_an_oval(facing):
    # Support function along direction u (angle t, facing f): rect a |cos(t-f)| + b |sin(t-f)|,
    # oval sqrt((a cos(t-f))^2 + (b sin(t-f))^2). With 8 directions, 45 degrees apart:
    a, b = 1.0, 2.0
    t = np.radians(np.arange(8) * 45.0 - facing)
    _, _, h_rect, *_ = _tangents(RECT, a, b, facing, 8)
    _, _, h_oval, *_ = _tangents(OVAL, a, b, facing, 8)
    np.testing.assert_allclose(h_rect, a * np.abs(np.cos(t)) + b * np.abs(np.sin(t)), atol=1e-12)
    np.testing.assert_allclose(h_oval, np.hypot(a * np.cos(t), b * np.sin(t)), atol=1e-12)
    # Along the facing the extent is a (half the depth), across it b, at 45 degrees of a
    # rectangle (a + b) / sqrt 2, of the oval sqrt((a^2 + b^2) / 2).
    k = int(facing // 45)
    assert h_rect[k] == pytest.approx(a) and h_oval[k] == pytest.approx(a)
    assert h_rect[(k + 2) % 8] == pytest.approx(b) and h_oval[(k + 2) % 8] == pytest.approx(b)
    assert h_rect[(k + 1) % 8] == pytest.approx((a + b) / math.sqrt(2))
    assert h_oval[(k + 1) % 8] == pytest.approx(math.sqrt((a * a + b * b) / 2))


def test_the_kept_arrays_cannot_be_changed():
    # _tangents and the local outlines are kept (lru_cache) and shared: read-only.
    for arr in _tangents(OVAL, 1.0, 0.5, 10.0, 24):
        assert not arr.flags.writeable
    pts = outline_points(ROUND, 1.0, 1.0, 0.0, 0.0, 0.0, n=16)
    assert pts.shape == (16, 2)
    from battlefield.geometry.bases import _local_outline
    assert not _local_outline(ROUND, 1.0, 1.0, 16).flags.writeable


def test_footprints_of_a_model_that_did_not_move_are_kept():
    b = Base.round(32)
    assert footprint(b.shape, b.a, b.b, 1.0, 2.0, 0.0) is footprint(b.shape, b.a, b.b, 1.0, 2.0,
                                                                     0.0)
    assert len(footprint(b.shape, b.a, b.b, 1.0, 2.0, 0.0, n=40).exterior.coords) == 41


# --- the edges of each table (mutation testing found them unpinned) ------------------------------
@pytest.mark.parametrize(("mm", "height"), [(32.5, 1.5), (33, 1.5), (40.5, 2.5), (61, 4.0)])
def test_round_heights_change_just_past_each_size(mm, height):
    assert Base.round(mm).default_height() == height


def test_an_oval_just_past_75mm_is_tall():
    assert Base.oval(75, 42).default_height() == 2.5
    assert Base.oval(76, 42).default_height() == 4.0


@pytest.mark.parametrize(("size", "height"), [
    ((100, 32), 1.25), ((100, 33), 1.5), ((100, 40), 1.5), ((100, 41), 2.5), ((100, 60), 2.5),
    ((100, 61), 4.0),
])
def test_rect_heights_change_just_past_each_smaller_side(size, height):
    assert Base.rect(*size).default_height() == height


def test_outline_points_go_once_round_without_repeating_the_first():
    b = Base.round(50)
    pts = outline_points(b.shape, b.a, b.b, 0.0, 0.0, 0.0)       # 64 points by default
    assert pts.shape == (64, 2)
    angles = np.arctan2(pts[:, 1], pts[:, 0]) % (2 * math.pi)
    np.testing.assert_allclose(angles, 2 * math.pi * np.arange(64) / 64, atol=1e-12)
    poly = footprint(b.shape, b.a, b.b, 0.0, 0.0, 0.0)           # 256 corners by default
    assert len(poly.exterior.coords) == 256 + 1
    assert poly.area == pytest.approx(0.5 * 256 * b.a ** 2 * math.sin(2 * math.pi / 256))
