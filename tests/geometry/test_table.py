"""The table as arrays: elevations, 3-D distances, closest pairs, moving models
(battlefield/geometry/table.py)."""

import math

import numpy as np
import pytest

from battlefield.geometry.bases import Base
from battlefield.geometry.terrain import Piece

from ._build import R32, make_scene, make_table, model, rect_outline, unit, wall

HILL = wall("hill", rect_outline(5, 5, 11, 15), 3)


def test_elevation_defaults_to_the_top_of_a_hill_the_base_is_wholly_on():
    s = make_scene([unit("a", "red", model(8, 10), model(11 - R32 - 0.01, 10),
                         model(11 - R32 + 0.01, 12), model(20, 10))], [HILL])
    t = s.table()
    # wholly on; on, 0.01" from the edge; overhanging the edge by 0.01"; on the open ground
    np.testing.assert_allclose(t.z, [3, 3, 0, 0])
    np.testing.assert_allclose(t.height, 1.25)
    assert t.top(0) == 4.25


def test_given_elevation_and_height_are_kept():
    s = make_scene([unit("a", "red", model(8, 10, z=1.5, height=2), model(20, 10, z=2))],
                   [HILL])
    t = s.table()
    np.testing.assert_allclose(t.z, [1.5, 2])
    np.testing.assert_allclose(t.height, [2, 1.25])


def test_3d_distance_is_the_hypotenuse_of_horizontal_and_vertical():
    # One model on the 3" hill (its base edge at x = 8 + r), one on the ground at x = 20.
    s = make_scene([unit("a", "red", model(8, 10)), unit("b", "blue", model(20, 10))], [HILL])
    t = s.table()
    horizontal = 12 - 2 * R32
    assert t.distances([0], [1])[0, 0] == pytest.approx(horizontal, abs=1e-12)
    assert t.distances_3d([0], [1])[0, 0] == pytest.approx(math.hypot(horizontal, 3), abs=1e-12)
    c = t.closest(0, 1)
    assert c.distance == pytest.approx(horizontal, abs=1e-12)
    assert c.distance_3d == pytest.approx(math.hypot(horizontal, 3), abs=1e-12)
    assert c.a == pytest.approx((8 + R32, 10, 3))
    assert c.b == pytest.approx((20 - R32, 10, 0))
    assert c.models == (0, 1)


@pytest.mark.parametrize(("dz", "h"), [(0, 2.0), (1.25, 0.0), (3, 4), (0.5, 1e-3)])
def test_3d_distance_table(dz, h):
    b = Base.round(32)
    t = make_table([(b, 0, 0, 0), (b, h + 2 * R32, 0, 0)], z=[0, dz])
    assert t.distances_3d([0], [1])[0, 0] == pytest.approx(math.hypot(h, dz), abs=1e-12)
    assert t.distances_3d([1], [0])[0, 0] == pytest.approx(math.hypot(h, dz), abs=1e-12)


def test_units_closest_pair_and_unit_distance():
    b = Base.round(32)
    t = make_table([(b, 0, 0, 0), (b, 2, 0, 0), (b, 10, 0, 0), (b, 6, 0, 0)],
                   unit=[0, 0, 1, 1], z=[0, 0, 0, 4])
    assert [list(m) for m in t.unit_models] == [[0, 1], [2, 3]]
    assert t.unit_distance(0, 1) == pytest.approx(4 - 2 * R32)
    c = t.closest_between(t.unit_models[0], t.unit_models[1])
    assert c.models == (1, 3)
    assert c.distance == pytest.approx(4 - 2 * R32)
    # the smallest 3-D distance is to the model on the ground, 8" away, not the one 4" up
    assert c.distance_3d == pytest.approx(min(math.hypot(4 - 2 * R32, 4), 8 - 2 * R32))


def test_closest_points_between_two_blocks():
    blk = Base.rect(100, 50)
    t = make_table([(blk, 0, 0, 0), (blk, 5, 1, 0)])
    c = t.closest(0, 1)
    assert c.distance == pytest.approx(5 - 50 / 25.4, abs=1e-9)
    assert c.a[0] == pytest.approx(25 / 25.4)
    assert c.b[0] == pytest.approx(5 - 25 / 25.4)
    assert c.a[1] == pytest.approx(c.b[1])


def test_moving_a_model_updates_its_elevation():
    hill = Piece("hill", tuple(map(tuple, rect_outline(5, 5, 11, 15))), 3.0)
    b = Base.round(32)
    t = make_table([(b, 20, 10, 0), (b, 25, 10, 0)], pieces=[hill])
    up = t.moved(np.array([0]), np.array([8.0]), np.array([10.0]))
    assert up.z[0] == 3.0 and up.x[0] == 8.0
    assert t.z[0] == 0.0 and t.x[0] == 20.0          # the original table is unchanged
    half_off = up.moved(np.array([0]), np.array([11.0]), np.array([10.0]))
    assert half_off.z[0] == 0.0
    lifted = t.moved(np.array([1]), np.array([24.0]), np.array([10.0]), facing=np.array([90.0]),
                     z=np.array([2.0]))
    assert lifted.z[1] == 2.0
    assert lifted.sin[1] == pytest.approx(1.0)
    assert lifted.distances([0], [1])[0, 0] == pytest.approx(4 - 2 * R32)


def test_footprint_and_outline_follow_the_pose():
    oval = Base.oval(60, 35)
    t = make_table([(oval, 10, 10, 90)])
    fp = t.footprint(0)
    minx, miny, maxx, maxy = fp.bounds
    assert maxy - miny == pytest.approx(60 / 25.4, abs=1e-3)
    assert maxx - minx == pytest.approx(35 / 25.4, abs=1e-3)
    assert t.outline(0, 16).shape == (16, 2)
    assert t.reach[0] == pytest.approx(30 / 25.4)


def test_distances_from_places_match_moving_the_model() -> None:
    from battlefield.geometry.bases import OVAL, ROUND
    from battlefield.geometry.table import Table
    from battlefield.geometry.terrain import Layout

    t = Table(width=30, depth=30, layout=Layout(()), x=np.array([5.0, 10.0, 14.0]),
              y=np.array([5.0, 5.0, 9.0]), facing=np.array([30.0, 0.0, 90.0]),
              shape=np.array([OVAL, ROUND, OVAL]), a=np.array([1.5, 0.5, 2.0]),
              b=np.array([0.8, 0.5, 1.0]), z=np.zeros(3), height=np.ones(3),
              unit=np.array([0, 1, 2]), n_units=3)
    places = np.array([[6.0, 6.0], [9.0, 7.5], [12.0, 12.0]])
    got = t.distances_from(0, places[:, 0], places[:, 1], np.array([1, 2]))
    for (x, y), row in zip(places, got, strict=True):
        moved = t.moved(np.array([0]), np.array([x]), np.array([y]))
        assert row == pytest.approx(moved.distances(np.array([0]), np.array([1, 2]))[0])
    # Never less than the centre gap minus both bases' reaches.
    assert got[1, 0] >= math.hypot(1.0, 2.5) - 1.5 - 0.5 - 1e-9


def test_distances_from_places_beyond_the_cutoff_stay_beyond_it() -> None:
    from battlefield.geometry.bases import ROUND
    from battlefield.geometry.table import Table
    from battlefield.geometry.terrain import Layout

    t = Table(width=30, depth=30, layout=Layout(()), x=np.array([1.0, 20.0]),
              y=np.array([1.0, 1.0]), facing=np.zeros(2), shape=np.array([ROUND, ROUND]),
              a=np.array([0.5, 0.5]), b=np.array([0.5, 0.5]), z=np.zeros(2),
              height=np.ones(2), unit=np.array([0, 1]), n_units=2)
    d = t.distances_from(0, np.array([10.0, 18.0]), np.array([1.0, 1.0]), np.array([1]), 3.0)
    assert d[0, 0] > 3.0                       # 9" away: a bound, beyond the cutoff
    assert d[1, 0] == pytest.approx(1.0)       # 2" between centres, two 0.5" bases: exact


def test_a_table_never_changes_in_place():
    """Moving or removing models gives a new table; the arrays cannot be written, so game
    snapshots may share a table."""
    t = make_scene([unit("a", "red", model(8, 10)), unit("b", "blue", model(20, 10))],
                   [HILL]).table()
    x0 = t.x.copy()
    with pytest.raises(ValueError):
        t.x[0] = 99.0
    with pytest.raises(ValueError):
        t.unit_models[0][0] = 5
    moved = t.moved(np.array([0]), np.array([3.0]), np.array([4.0]))
    gone = t.removed(np.array([1]))
    assert moved is not t and gone is not t
    assert np.array_equal(t.x, x0) and t.unit[1] >= 0
    assert moved.x[0] == 3.0 and gone.unit[1] == -1


def test_a_table_memo_is_made_once_per_table_and_key():
    s = make_scene([unit("a", "red", model(8, 10)), unit("b", "blue", model(20, 10))], [HILL])
    t = s.table()
    calls = []
    assert t.memo("k", lambda: calls.append(1) or 5) == 5
    assert t.memo("k", lambda: calls.append(1) or 6) == 5 and calls == [1]
    moved = t.moved(np.array([0]), np.array([9.0]), np.array([10.0]))
    assert moved.memo("k", lambda: 7) == 7 and t.memo("k", lambda: 8) == 5


def test_only_the_last_few_tables_keep_their_memos():
    from battlefield.geometry import table as table_module

    s = make_scene([unit("a", "red", model(8, 10))], [HILL])
    first = s.table()
    first.memo("k", lambda: 1)
    for _ in range(table_module.MEMO_TABLES):
        s.table().memo("k", lambda: 2)
    assert first.memo("k", lambda: 3) == 3          # made again: it had been let go


# --- placed_memo: kept across tables while the models it depends on stand alike -----------------
def test_a_placed_memo_outlives_moves_of_other_models():
    s = make_scene([unit("a", "red", model(8, 10), model(20, 10))], [HILL])
    t = s.table()
    assert t.placed_memo("k", np.array([0]), lambda: 1) == 1
    other_moved = t.moved(np.array([1]), np.array([30.0]), np.array([10.0]))
    assert other_moved.placed_memo("k", np.array([0]), lambda: 2) == 1
    slain_elsewhere = other_moved.removed(np.array([1]))
    assert slain_elsewhere.placed_memo("k", np.array([0]), lambda: 3) == 1


def test_a_placed_memo_is_made_again_when_its_models_move_turn_or_are_slain():
    s = make_scene([unit("a", "red", model(20, 17), model(25, 17))], [HILL])
    t = s.table()
    t.placed_memo("k", np.array([0, 1]), lambda: "first")
    turned = t.moved(np.array([1]), np.array([25.0]), np.array([17.0]), facing=np.array([90.0]))
    assert turned.placed_memo("k", np.array([0, 1]), lambda: "turned") == "turned"
    moved = t.moved(np.array([0]), np.array([20.5]), np.array([17.0]))
    assert moved.placed_memo("k", np.array([0, 1]), lambda: "moved") == "moved"
    # up onto the hill: same x, y as a model placed there by hand, but another elevation
    raised = t.moved(np.array([0]), np.array([20.0]), np.array([17.0]), z=np.array([1.0]))
    assert raised.placed_memo("k", np.array([0, 1]), lambda: "raised") == "raised"
    slain = t.removed(np.array([1]))
    assert slain.placed_memo("k", np.array([0, 1]), lambda: "slain") == "slain"
    # back where they were: the first value again, and another key is its own
    back = moved.moved(np.array([0]), np.array([20.0]), np.array([17.0]))
    assert back.placed_memo("k", np.array([0, 1]), lambda: "again") == "first"
    assert back.placed_memo("other", np.array([0, 1]), lambda: "other") == "other"


def test_a_placed_memo_keeps_only_the_last_values_asked(monkeypatch):
    from battlefield.geometry import table as table_module

    monkeypatch.setattr(table_module, "PLACED_KEPT", 3)
    t = make_scene([unit("a", "red", model(8, 10))], [HILL]).table()
    for k in range(4):
        t.placed_memo(k, np.array([0]), lambda k=k: k)
    assert t.placed_memo(0, np.array([0]), lambda: "made again") == "made again"
    assert t.placed_memo(3, np.array([0]), lambda: "kept") == 3


@pytest.mark.parametrize("seed", range(5))
def test_units_within_is_every_pair_measured(seed) -> None:
    """Table.units_within (one pass, far bases skipped) says what measuring every pair of
    units' models says, slain models (unit -1) left out."""
    from battlefield.geometry.bases import OVAL, RECT, ROUND
    from battlefield.geometry.table import Table
    from battlefield.geometry.terrain import Layout

    rng = np.random.default_rng(seed)
    n, units = 40, 8
    unit_of = rng.integers(-1, units, n)
    unit_of[:units] = np.arange(units)                 # every unit has a model
    t = Table(width=40, depth=40, layout=Layout(()), x=rng.uniform(0, 40, n),
              y=rng.uniform(0, 40, n), facing=rng.uniform(-180, 180, n),
              shape=rng.choice([ROUND, OVAL, RECT], n), a=rng.uniform(0.4, 2.0, n),
              b=rng.uniform(0.4, 1.2, n), z=np.zeros(n), height=np.ones(n),
              unit=unit_of, n_units=units)
    for reach in (0.5, 3.0, 6.0):
        got = t.units_within(reach)
        for u in range(units):
            for v in range(units):
                want = u != v and t.unit_distance(u, v) <= reach
                assert got[u, v] == want, (u, v, reach)
