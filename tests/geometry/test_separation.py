"""Closest distances between bases (battlefield/geometry/separation.py): hand-computed cases and
properties against a high-resolution shapely reference."""

import math

import numpy as np
import pytest
import shapely
from hypothesis import assume, given
from hypothesis import strategies as st

from battlefield.geometry import MM_PER_INCH
from battlefield.geometry.bases import RECT, ROUND, Base, footprint
from battlefield.geometry.separation import (
    closest_points,
    distance_matrix,
    point_distances,
    separation,
    signed_distance_matrix,
)

from ._build import R32, make_table, props

INCH = 1 / MM_PER_INCH
PROPS = props(60)


def sep(b1: Base, x1, y1, f1, b2: Base, x2, y2, f2) -> float:
    t1, t2 = math.radians(f1), math.radians(f2)
    d, _ = separation(float(x1), float(y1), b1.shape, b1.a, b1.b, math.cos(t1), math.sin(t1),
                      float(x2), float(y2), b2.shape, b2.a, b2.b, math.cos(t2), math.sin(t2))
    return d


def dist(b1, x1, y1, f1, b2, x2, y2, f2) -> float:
    return max(0.0, sep(b1, x1, y1, f1, b2, x2, y2, f2))


def reference_polygon(b: Base, x, y, f) -> shapely.Geometry:
    """A fine shapely shape for the base: a buffered point for circles, a 4096-gon for ovals."""
    if b.shape == ROUND:
        return shapely.Point(x, y).buffer(b.a, quad_segs=1024)
    return footprint(b.shape, b.a, b.b, x, y, f, n=4096)


def reference(b1, x1, y1, f1, b2, x2, y2, f2) -> float:
    return shapely.distance(reference_polygon(b1, x1, y1, f1), reference_polygon(b2, x2, y2, f2))


# --- hand-computed cases --------------------------------------------------------------------
# Each row: base 1 at the origin (facing f1), base 2 at (x, y) facing f2, expected distance.
SQ2 = Base.rect(2 * 25.4, 2 * 25.4)  # a 2" x 2" square block: half-extents 1"
BLOCK = Base.rect(100, 50)           # 100 mm frontage (across), 50 mm deep (along the facing)
OVAL = Base.oval(60, 35)
R32_BASE = Base.round(32)

HAND = [
    # two 32 mm bases 3" apart centre to centre: 3 - 32/25.4
    ("32mm 3in apart", R32_BASE, 0, R32_BASE, 3, 0, 0, 3 - 32 / 25.4),
    ("32mm on a diagonal", R32_BASE, 0, R32_BASE, 3, 4, 0, 5 - 32 / 25.4),
    ("25mm vs 160mm", Base.round(25), 0, Base.round(160), 0, -6, 0, 6 - (12.5 + 80) * INCH),
    # oval 60x35 facing along x: its long half-axis (30 mm) faces the round base on the x axis
    ("oval facing 0", OVAL, 0, R32_BASE, 5, 0, 0, 5 - (30 + 16) * INCH),
    # turned 90 degrees, its short half-axis (17.5 mm) faces it
    ("oval facing 90", OVAL, 90, R32_BASE, 5, 0, 0, 5 - (17.5 + 16) * INCH),
    ("oval facing 180", OVAL, 180, R32_BASE, 5, 0, 0, 5 - (30 + 16) * INCH),
    ("oval facing 270", OVAL, 270, R32_BASE, -5, 0, 0, 5 - (17.5 + 16) * INCH),
    ("oval facing 90, base on y", OVAL, 90, R32_BASE, 0, 5, 0, 5 - (30 + 16) * INCH),
    # rectangles edge to edge: both facing +x, 50 mm deep along x -> 25 mm half-depth each
    ("blocks back to front", BLOCK, 0, BLOCK, 5, 0, 0, 5 - 50 * INCH),
    # side by side along y: 100 mm frontage -> 50 mm half-frontage each
    ("blocks side by side", BLOCK, 0, BLOCK, 0, 6, 0, 6 - 100 * INCH),
    # offset so only the corners face each other: hypot of the two gaps
    ("blocks corner to corner", BLOCK, 0, BLOCK, 4, 6, 0,
     math.hypot(4 - 50 * INCH, 6 - 100 * INCH)),
    # the same blocks, the second one turned 90 degrees: its frontage now runs along x
    ("block turned 90", BLOCK, 0, BLOCK, 5, 0, 90, 5 - 25 * INCH - 50 * INCH),
    # a square turned 45 degrees puts a corner (sqrt 2 out) against the other's flat side
    ("square corner to edge", SQ2, 45, SQ2, 5, 0, 0, 5 - 1 - math.sqrt(2)),
    # edge of a square against a round base
    ("square vs round", SQ2, 0, R32_BASE, 3, 0.5, 0, 3 - 1 - R32),
    # corner of a square against a round base sitting on its diagonal
    ("square corner vs round", SQ2, 0, R32_BASE, 3, 3, 0, math.hypot(2, 2) - R32),
]


@pytest.mark.parametrize(("name", "b1", "f1", "b2", "x", "y", "f2", "expected"), HAND,
                         ids=[h[0] for h in HAND])
def test_hand_computed_distances(name, b1, f1, b2, x, y, f2, expected):
    assert dist(b1, 0, 0, f1, b2, x, y, f2) == pytest.approx(expected, abs=1e-9)
    # ... and the same from the other base
    assert dist(b2, x, y, f2, b1, 0, 0, f1) == pytest.approx(expected, abs=1e-9)


def test_two_32mm_bases_3in_apart_is_1_740157():
    assert dist(R32_BASE, 10, 10, 0, R32_BASE, 13, 10, 0) == pytest.approx(1.7401574803149606,
                                                                           abs=1e-12)


def test_touching_and_overlapping_bases():
    # Touching: exactly 0. Overlapping: 0 from distance_matrix, minus the depth signed.
    t = make_table([(R32_BASE, 0, 0, 0), (R32_BASE, 2 * R32, 0, 0), (R32_BASE, 0, R32, 0)])
    idx = np.arange(3)
    d = t.distances(idx, idx)
    assert d[0, 1] == pytest.approx(0.0, abs=1e-12)
    assert d[0, 2] == 0.0
    s = signed_distance_matrix(t.x, t.y, t.shape, t.a, t.b, t.cos, t.sin, idx, idx)
    assert s[0, 2] == pytest.approx(-R32, abs=1e-12)
    assert (d >= 0).all()


def test_point_distances_from_a_base_edge_to_a_point():
    t = make_table([(R32_BASE, 0, 0, 0), (OVAL, 10, 0, 90), (BLOCK, 20, 0, 0)])
    d = point_distances(t.x, t.y, t.shape, t.a, t.b, t.cos, t.sin, np.arange(3, dtype=np.int64),
                        0.0, 5.0)
    assert d[0] == pytest.approx(5 - R32, abs=1e-12)
    ref = shapely.distance(reference_polygon(OVAL, 10, 0, 90), shapely.Point(0, 5))
    assert d[1] == pytest.approx(ref, abs=1e-5)
    assert d[2] == pytest.approx(math.hypot(20 - 25 * INCH, 5 - 50 * INCH), abs=1e-9)
    inside = point_distances(t.x, t.y, t.shape, t.a, t.b, t.cos, t.sin,
                             np.arange(3, dtype=np.int64), 10.0, 0.5)
    assert inside[1] == 0.0


@pytest.mark.parametrize(("b1", "f1", "b2", "x", "y", "f2"), [
    (R32_BASE, 0, R32_BASE, 3, 1, 0),
    (OVAL, 30, R32_BASE, 4, 1, 0),
    (R32_BASE, 0, OVAL, 4, 1, 60),
    (BLOCK, 0, R32_BASE, 1, 3, 0),       # round base beside the block's side, off its middle
    (R32_BASE, 0, BLOCK, 1, 3, 0),
    (BLOCK, 0, BLOCK, 4, 6, 0),          # corner to corner
    (BLOCK, 0, BLOCK, 0.5, 6, 0),        # overlapping edges facing each other
    (SQ2, 45, BLOCK, 5, 1, 10),
])
def test_closest_points_lie_on_the_bases_and_are_the_distance_apart(b1, f1, b2, x, y, f2):
    d, p, q = closest_points(0.0, 0.0, b1.shape, b1.a, b1.b, f1, x, y, b2.shape, b2.a, b2.b, f2)
    assert d == pytest.approx(reference(b1, 0, 0, f1, b2, x, y, f2), abs=1e-5)
    assert math.dist(p, q) == pytest.approx(d, abs=1e-9)
    assert reference_polygon(b1, 0, 0, f1).exterior.distance(shapely.Point(p)) < 1e-5
    assert reference_polygon(b2, x, y, f2).exterior.distance(shapely.Point(q)) < 1e-5


def test_closest_points_of_overlapping_bases_meet():
    d, p, q = closest_points(0.0, 0.0, ROUND, R32, R32, 0, 0.5, 0, ROUND, R32, R32, 0)
    assert d == 0.0
    assert p == q


# --- properties -----------------------------------------------------------------------------
ROUNDS = [Base.round(mm) for mm in (25, 32, 60, 160)]
OVALS = [Base.oval(60, 35), Base.oval(105, 70), Base.oval(170, 105)]
RECTS = [Base.rect(100, 50), Base.rect(20, 200), Base.rect(50.8, 50.8)]
ANY_BASE = st.sampled_from(ROUNDS + OVALS + RECTS)
coord = st.floats(-8, 8, allow_nan=False)
facing = st.floats(0, 360, allow_nan=False, exclude_max=True)
pose = st.tuples(coord, coord, facing)


@PROPS
@given(ANY_BASE, pose, ANY_BASE, pose)
def test_distance_is_symmetric_and_never_negative(b1, p1, b2, p2):
    d12 = dist(b1, *p1, b2, *p2)
    d21 = dist(b2, *p2, b1, *p1)
    assert d12 >= 0.0
    assert d12 == pytest.approx(d21, abs=1e-9)
    t = make_table([(b1, *p1), (b2, *p2)])
    m = t.distances(np.arange(2), np.arange(2))
    assert (m >= 0).all()
    assert m[0, 1] == pytest.approx(m[1, 0], abs=1e-9)
    assert m[0, 1] == pytest.approx(d12, abs=1e-12)


@PROPS
@given(st.sampled_from(ROUNDS), pose, st.sampled_from(ROUNDS), pose)
def test_circle_distance_is_exact(b1, p1, b2, p2):
    expected = math.hypot(p2[0] - p1[0], p2[1] - p1[1]) - b1.a - b2.a
    assert sep(b1, *p1, b2, *p2) == pytest.approx(expected, abs=1e-9)
    assert dist(b1, *p1, b2, *p2) == pytest.approx(max(0.0, expected), abs=1e-9)


@props(80)
@given(st.sampled_from(OVALS + RECTS), pose, ANY_BASE, pose)
def test_ovals_and_rects_match_a_fine_shapely_reference(b1, p1, b2, p2):
    d = dist(b1, *p1, b2, *p2)
    ref = reference(b1, *p1, b2, *p2)
    assert d == pytest.approx(ref, abs=1e-3)
    assert dist(b2, *p2, b1, *p1) == pytest.approx(ref, abs=1e-3)


@PROPS
@given(ANY_BASE, pose, ANY_BASE, pose, st.floats(0.001, 6))
def test_moving_straight_away_never_brings_a_model_closer(b1, p1, b2, p2, step):
    dx, dy = p2[0] - p1[0], p2[1] - p1[1]
    n = math.hypot(dx, dy)
    assume(n > 1e-6)
    before = dist(b1, *p1, b2, *p2)
    x2, y2 = p2[0] + step * dx / n, p2[1] + step * dy / n
    after = dist(b1, *p1, b2, x2, y2, p2[2])
    assert after >= before - 1e-9


@PROPS
@given(st.sampled_from(OVALS + RECTS), pose, st.tuples(coord, coord))
def test_point_distance_matches_shapely(b, p, q):
    t = make_table([(b, *p)])
    d = point_distances(t.x, t.y, t.shape, t.a, t.b, t.cos, t.sin, np.zeros(1, dtype=np.int64),
                        float(q[0]), float(q[1]))[0]
    ref = shapely.distance(reference_polygon(b, *p), shapely.Point(q))
    assert d == pytest.approx(ref, abs=1e-3)


@PROPS
@given(ANY_BASE, pose, ANY_BASE, pose)
def test_closest_points_are_on_the_bases(b1, p1, b2, p2):
    d, p, q = closest_points(p1[0], p1[1], b1.shape, b1.a, b1.b, p1[2],
                             p2[0], p2[1], b2.shape, b2.a, b2.b, p2[2])
    assume(d > 0)
    assert math.dist(p, q) == pytest.approx(d, abs=1e-6)
    for b, pp, pt in ((b1, p1, p), (b2, p2, q)):
        assert reference_polygon(b, *pp).exterior.distance(shapely.Point(pt)) < 1e-3


def test_distance_matrix_rows_and_columns():
    bases = [(R32_BASE, 0, 0, 0), (R32_BASE, 3, 0, 0), (OVAL, 0, 6, 0), (BLOCK, 8, 8, 45)]
    t = make_table(bases)
    rows, cols = np.array([0, 2], dtype=np.int64), np.array([1, 3], dtype=np.int64)
    m = distance_matrix(t.x, t.y, t.shape, t.a, t.b, t.cos, t.sin, rows, cols)
    assert m.shape == (2, 2)
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            assert m[i, j] == pytest.approx(dist(bases[r][0], *bases[r][1:],
                                                 bases[c][0], *bases[c][1:]), abs=1e-12)
    assert RECT in t.shape
