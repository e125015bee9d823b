"""Line of sight (battlefield/geometry/sight/kernel.py and models.py): hand-computed scenes and the
symmetry of single sight lines for random terrain and models."""

import math

import numpy as np
import pytest
import shapely
from hypothesis import given
from hypothesis import strategies as st

from battlefield.geometry.bases import Base
from battlefield.geometry.sight import SightModel
from battlefield.geometry.sight.kernel import CLEAR, first_blocker
from battlefield.geometry.terrain import Piece
from battlefield.rulings import Referee

from .._build import R32, make_scene, make_table, model, props, rect_outline, unit, wall


def visible(scene, a="a/1", b="b/1") -> str:
    return Referee(scene).measure_report(a, b)["visible"]


def duel(terrain=(), a=(10, 10), b=(20, 10), **kw):
    """A red 32 mm model at `a` looking at a blue 32 mm model at `b`."""
    return make_scene([unit("a", "red", model(*a, **kw)), unit("b", "blue", model(*b))], terrain)


WALL_BETWEEN = rect_outline(14.9, 5, 15.1, 15)   # a thin wall across the line a -> b
WALL_ASIDE = rect_outline(14.9, 12, 15.1, 15)    # the same wall moved off to the side


# --- terrain -------------------------------------------------------------------------------
def test_a_4in_wall_between_two_ground_models_blocks_fully():
    s = duel([wall("wall", WALL_BETWEEN, 4)])
    r = Referee(s).measure_report("a/1", "b/1")
    assert r["visible"] == "none"
    assert r["blocked_by"] == ["wall"]
    assert visible(s, "b/1", "a/1") == "none"


def test_a_1in_wall_hides_the_feet_only():
    s = duel([wall("wall", WALL_BETWEEN, 1)])
    assert visible(s) == "partial"
    assert visible(s, "b/1", "a/1") == "partial"


def test_a_wall_as_tall_as_the_models_still_leaves_heads_visible():
    assert visible(duel([wall("wall", WALL_BETWEEN, 1.25)])) == "partial"


def test_a_wall_to_the_side_does_not_block():
    s = duel([wall("wall", WALL_ASIDE, 4)])
    r = Referee(s).measure_report("a/1", "b/1")
    assert r["visible"] == "full"
    assert r["blocked_by"] == []


def test_open_ground_is_full_sight():
    assert visible(duel()) == "full"


HILL = wall("hill", rect_outline(5, 5, 11, 15), 3)
LOW_WALL = wall("wall", rect_outline(14.9, 5, 15.1, 15), 2)


def test_a_model_on_a_3in_hill_sees_over_a_2in_wall():
    # Eye at 3 + 1.25 = 4.25" from x = 10.63; the target's nearest foot at x = 27.37, 0":
    # the line is 4.25 * (1 - 4.47 / 16.74) = 3.11" high over the wall's far side.
    s = duel([HILL, LOW_WALL], a=(10, 10), b=(28, 10))
    assert s.table().z[0] == 3.0
    assert visible(s) == "full"


def test_the_same_model_on_the_ground_does_not_see_over_the_wall():
    s = duel([LOW_WALL], a=(10, 10), b=(28, 10))
    assert s.table().z[0] == 0.0
    assert visible(s) == "none"


def test_a_model_partly_off_the_hill_stands_on_the_ground():
    # Centre 0.3" inside the hill's edge: the base overhangs, so z = 0 and the hill is in its way.
    s = duel([HILL, LOW_WALL], a=(11 - 0.3, 10), b=(28, 10))
    assert s.table().z[0] == 0.0
    assert visible(s) == "none"


def test_an_explicit_elevation_sees_over_the_wall():
    s = duel([LOW_WALL], a=(10, 10), b=(28, 10), z=3)
    assert visible(s) == "full"


def test_a_sliver_of_the_target_past_a_tall_wall_is_partial():
    # A 4" wall whose end is 0.05" short of the models' far side (y = 10 + r): the strips of
    # both bases above y = 10 + r - 0.05 see each other past the wall's end.
    top = 10 + R32 - 0.05
    s = duel([wall("wall", rect_outline(14.5, 2, 15.5, top), 4)])
    assert visible(s) == "partial"
    s = duel([wall("wall", rect_outline(14.5, 2, 15.5, top + 0.1), 4)])
    assert visible(s) == "none"


# --- models --------------------------------------------------------------------------------
def three_in_a_row(middle_unit: str, middle_side: str):
    units = [unit("a", "red", model(10, 10)), unit("b", "blue", model(20, 10))]
    if middle_unit == "a":
        units[0]["models"].append(model(15, 10))
    elif middle_unit == "b":
        units[1]["models"].append(model(15, 10))
    else:
        units.append(unit(middle_unit, middle_side, model(15, 10)))
    return make_scene(units)


@pytest.mark.parametrize(("middle", "side"), [("c", "blue"), ("c", "green"), ("b", "blue")])
def test_an_enemy_model_between_two_others_blocks_partially(middle, side):
    # Same height as both: the heads see over it (lines at exactly its top height graze it),
    # every line to the target's feet passes through it.
    r = Referee(three_in_a_row(middle, side)).measure_report("a/1", "b/1")
    assert r["visible"] == "partial"
    assert r["blocked_by"] == [f"{middle}/{1 if middle == 'c' else 2}"]


def test_the_observers_own_unit_mates_never_block():
    s = three_in_a_row("a", "red")
    ref = Referee(s)
    assert ref.measure_report("a/1", "b/1")["visible"] == "full"
    # ... but the same model blocks the other way, for the enemy looking back at a/1
    assert ref.measure_report("b/1", "a/1")["visible"] == "partial"


def test_a_taller_model_between_blocks_fully():
    s = make_scene([unit("a", "red", model(10, 10)), unit("b", "blue", model(20, 10)),
                    unit("c", "green", model(15, 10, base=130))])
    assert visible(s) == "none"


def test_unit_visibility_per_model():
    # Two blue models: one in the open, one behind a 4" wall. Unit sight is partial, and
    # any model seen is enough for aos4 "visible".
    s = make_scene([unit("a", "red", model(10, 10)),
                    unit("b", "blue", model(12, 3), model(20, 10))],
                   [wall("wall", WALL_BETWEEN, 4)])
    ref = Referee(s)
    sight = ref.sight.unit_visibility(0, 1)
    assert sight.visible == "partial"
    assert sight.models == {1: "full", 2: "none"}
    assert ref.sight.unit_sees(0, 1) and ref.sight.unit_sees(1, 0)
    hidden = make_scene([unit("a", "red", model(10, 10)), unit("b", "blue", model(20, 10))],
                        [wall("wall", WALL_BETWEEN, 4)])
    ref = Referee(hidden)
    assert not ref.sight.unit_sees(0, 1) and not ref.sight.unit_sees(1, 0)


# --- single sight lines ---------------------------------------------------------------------
def line_table():
    box = Piece("box", tuple(map(tuple, rect_outline(4, -1, 6, 1))), 2.0)
    return make_table([(Base.round(32), 10, 0, 0)], pieces=[box], width=20, depth=20)


@pytest.mark.parametrize(("p", "q", "blocker"), [
    ((0, 0, 1), (8, 0, 1), 0),            # through the box below its top
    ((0, 0, 3), (8, 0, 3), CLEAR),        # over it
    ((0, 0, 3), (8, 0, 1), 0),            # descending: 2.5" at x = 4, 2" at x = 6 -> inside
    ((0, 0, 4), (8, 0, 1.5), CLEAR),      # 2.75" at x = 4, 2.125" at x = 6: above the top
    ((5, 0, 1), (5, 0, 3), 0),            # an end inside the box, below its top
    ((5, 0, 2.5), (5, 3, 2.5), CLEAR),    # inside the outline but above the top
    ((0, 3, 0), (8, 3, 0), CLEAR),        # beside it
    ((8, 0, 0.5), (12, 0, 0.5), 1),       # through the model (piece count 1 + model 0)
    ((8, 0, 1.5), (12, 0, 1.5), CLEAR),   # over the model's 1.25" top
    ((8, 0, 0.5), (12, 0, 2.0), 1),       # rising: 1.01" where it meets the base (x = 9.37)
    ((8, 0, 1.0), (12, 0, 2.0), CLEAR),   # rising: 1.34" there, over the top
])
def test_first_blocker(p, q, blocker):
    sm = SightModel(line_table())
    assert sm.line(p, q) == blocker
    assert (sm.line(q, p) == CLEAR) == (blocker == CLEAR)


def test_sight_line_ignores_units_and_models():
    sm = SightModel(line_table())
    assert sm.line((8, 0, 0.5), (12, 0, 0.5), ignore_units=(0,)) == CLEAR
    assert sm.line((8, 0, 0.5), (12, 0, 0.5), ignore_models=(0,)) == CLEAR


BASES = [Base.round(32), Base.round(60), Base.oval(90, 52), Base.rect(100, 50),
         Base.rect(50.8, 50.8)]
# Coordinates get a fixed irrational nudge so that sight lines end *on* a base's side only by
# design (see test_a_line_touching_a_base_is_blocked_both_ways_or_neither), not by accident.
NUDGE = 1e-7 * math.sqrt(2)
xy = st.floats(0, 12, allow_nan=False)


@st.composite
def random_scene(draw):
    pieces = []
    for k in range(draw(st.integers(0, 4))):
        pts = draw(st.lists(st.tuples(xy, xy), min_size=3, max_size=6))
        hull = shapely.convex_hull(shapely.MultiPoint(pts))
        if hull.geom_type != "Polygon" or hull.area < 0.01:
            continue
        coords = tuple(map(tuple, np.asarray(hull.exterior.coords)[:-1]))
        pieces.append(Piece(f"p{k}", coords, draw(st.floats(0.2, 5))))
    n = draw(st.integers(0, 4))
    bases = [(draw(st.sampled_from(BASES)), draw(xy), draw(xy), draw(st.floats(0, 360)))
             for _ in range(n)]
    z = [draw(st.sampled_from([0.0, 0.0, 1.0, draw(st.floats(0, 3))])) for _ in range(n)]
    return make_table(bases, pieces, z=z, width=12, depth=12)


point = st.tuples(xy, xy, st.floats(0, 6)).map(lambda p: (p[0] + NUDGE, p[1] - NUDGE,
                                                         p[2] + NUDGE))


@props(150)
@given(random_scene(), st.lists(st.tuples(point, point), min_size=1, max_size=8))
def test_a_line_blocked_one_way_is_blocked_the_other_way(table, lines):
    lay = table.layout
    tc = np.arange(len(lay), dtype=np.int64)
    mc = np.arange(len(table), dtype=np.int64)
    arrays = (lay.bboxes, lay.heights, lay.edges, lay.edge_start, mc, table.x, table.y,
              table.cos, table.sin, table.a, table.b, table.shape, table.z,
              table.z + table.height, table.reach)
    for p, q in lines:
        forward = first_blocker(*p, *q, tc, *arrays)
        back = first_blocker(*q, *p, tc, *arrays)
        assert (forward == CLEAR) == (back == CLEAR), (p, q, forward, back)


# --- known sight bugs -----------------------------------------------------------------------
def test_a_line_touching_a_base_is_blocked_both_ways_or_neither():
    # A 2" x 2" block at (1.5, 0.5) facing 90 (x from 0.5 to 2.5); the line starts on its
    # right side at (2.5, 0.5), 2" up (inside the block's 0..2.5" height), and leaves it.
    t = make_table([(Base.rect(50.8, 50.8), 1.5, 0.5, 90.0)], width=10, depth=10)
    sm = SightModel(t)
    p, q = (2.5, 0.5, 2.0), (3.5, 2.5, 4.0)
    assert (sm.line(p, q) == CLEAR) == (sm.line(q, p) == CLEAR)


def test_sight_passes_under_a_raised_model():
    # A 130 mm model raised 1" over open ground (z 1..5) between two 1.25" models 10" apart:
    # every line crosses it halfway, at the mean of its ends' heights. Lines whose ends average
    # under 1" pass beneath it, and every point of the target is the end of such a line (its
    # top, 1.25", seen from the observer's feet: 0.625" at the middle) -> full.
    s = make_scene([unit("a", "red", model(10, 10)),
                    unit("c", "green", model(15, 10, base=130, z=1.0, height=4)),
                    unit("b", "blue", model(20, 10))])
    assert visible(s) == "full"
    # Raised only 0.5": the target's top (1.25") is hidden from every observer point (the
    # lowest line to it is 0.625" high at the middle); its feet are seen from the observer's
    # feet under the model -> partial.
    s = make_scene([unit("a", "red", model(10, 10)),
                    unit("c", "green", model(15, 10, base=130, z=0.5, height=4)),
                    unit("b", "blue", model(20, 10))])
    assert visible(s) == "partial"
    assert Referee(s).sight.unit_sees(0, 2)


def test_sight_kept_across_tables_follows_a_blocker_moved_into_the_line():
    # Sight between two models is kept while they and the models that may block stand alike:
    # a model stepping into the line, or out of it again, is seen at once.
    s = make_scene([unit("a", "red", model(10, 10)), unit("b", "blue", model(20, 10)),
                    unit("c", "green", model(4, 4, base=130))])
    t = s.table()
    assert SightModel(t).model_visibility(0, 1).visible == "full"
    far = t.moved(np.array([2]), np.array([25.0]), np.array([4.0]))
    assert SightModel(far).model_visibility(0, 1).visible == "full"
    between = far.moved(np.array([2]), np.array([15.0]), np.array([10.0]))
    assert SightModel(between).model_visibility(0, 1).visible == "none"
    assert SightModel(between.removed(np.array([2]))).model_visibility(0, 1).visible == "full"
    assert SightModel(between).model_visibility(0, 1, models_block=False).visible == "full"


def test_one_targets_candidates_are_the_general_candidates():
    # model_visibility finds its candidates in one pass (box_candidates); they are the same
    # pieces and models as _candidates_each finds, slain models and unit-mates left out.
    from battlefield.geometry.sight.kernel import box_candidates

    spots = [(x, y) for x in (2.0, 6.0, 11.0, 15.0, 19.0, 26.0) for y in (3.0, 10.0)]
    units = [unit(f"u{k}", ("red", "blue")[k % 2],
                  *[model(*spots[3 * k + i]) for i in range(3)])
             for k in range(4)]
    s = make_scene(units, [wall("w1", rect_outline(8, 8, 9, 12), 3),
                           wall("w2", rect_outline(22, 2, 23, 6), 3)])
    t = s.table().removed(np.array([4]))
    sight = SightModel(t)
    for i in np.nonzero(t.unit >= 0)[0]:
        for j in range(len(t)):
            own = t.unit_models[int(t.unit[i])]
            (tc,), (mc,) = sight._candidates_each(own, np.array([i]), np.array([j]))
            fast = box_candidates(t.x, t.y, t.reach, t.unit, t.layout.bboxes, int(t.unit[i]), j)
            assert tc.tolist() == fast[0].tolist() and mc.tolist() == fast[1].tolist()
