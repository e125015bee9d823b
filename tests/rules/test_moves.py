"""A move is a pose: turning a unit's formation about its leader (rules/moves.py), worked out by
hand on a two-model unit."""

from __future__ import annotations

import numpy as np
import pytest

from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.moves import planned
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text

SCENE = """\
ruleset: skirmish
board: {width: 36, depth: 36}
units:
- id: red-1
  side: red
  stats: {speed: 6}
  models: [{base: [60, 35], at: [10, 10]}, {base: [60, 35], at: [13, 10]}]
- id: blue-1
  side: blue
  models: [{base: 32, at: [30, 30]}]
"""


def state():
    return Game(registry.get("skirmish"), load_scene_text(SCENE, "s.yaml"), 1).new_state()


def test_a_block_move_that_turns_swings_the_formation_about_the_leader():
    st = state()
    moves = planned(st, 0, Action("move", "red-1", path=((10, 10), (10, 15)), facing=90))
    # The leader ends at (10, 15) facing 90; the second model's offset (3, 0) turns to (0, 3).
    assert np.allclose(moves.ends(), [[10, 15], [10, 18]])
    assert np.allclose(moves.facings, [90, 90])
    assert np.allclose(moves.paths[1], [[13, 10], [13, 15], [10, 18]])   # then the swing
    after = moves.placed(st.table)
    assert after.facing[0] == pytest.approx(90) and after.facing[1] == pytest.approx(90)


def test_per_model_paths_take_the_facing_as_given():
    st = state()
    moves = planned(st, 0, Action("move", "red-1", paths=((2, ((13, 10), (13, 12))),),
                                  facing=45))
    assert moves.facings.tolist() == [45.0]
    assert moves.placed(st.table).facing[1] == pytest.approx(45)


def test_a_legal_move_applies_the_pose():
    st = state()
    # The second model goes 1" and swings 4.24" (3 * sqrt 2): 5.24" of its 6" Speed.
    st.apply(Action("move", "red-1", path=((10, 10), (10, 11)), facing=90))
    assert st.table.facing[0] == pytest.approx(90) and st.table.y[1] == pytest.approx(14)
    assert st.table.x[1] == pytest.approx(10)


def test_the_swing_counts_towards_the_move():
    st = state()
    bad = st.check(Action("move", "red-1", path=((10, 10), (10, 12)), facing=90))
    assert [v.code for v in bad] == ["move_too_far"] and "6.24\"" in bad[0].message


def test_violations_name_their_units_and_models_as_fields():
    """What a refusal is about is data: the window marks the model at fault and try --json
    lists them, without reading the message."""
    st = state()
    # The second model goes 12" with a 6" Speed; then one ends on blue-1's base.
    (far, *_) = st.check(Action("move", "red-1", paths=((2, ((13, 10), (13, 22))),)))
    assert far.code == "move_too_far" and far.models == ("red-1/2",)
    assert far.units == ("red-1",)
    assert far.to_dict()["models"] == ["red-1/2"] and far.to_dict()["units"] == ["red-1"]
    st = state()
    on = [x for x in st.check(Action("move", "red-1", paths=((2, ((13, 10), (29, 29))),)))
          if x.code == "on_another_model"]
    assert on and on[0].models == ("red-1/2", "blue-1/1")
    assert on[0].units == ("red-1", "blue-1")


# half_on_at (what straddling and aos4's charge odds ask) against the plain test it stands for:
# the base's outline as a polygon, its area on the piece strictly between none and all. A
# hexagonal piece 3" tall and a wall; round, oval and square bases, on a grid of places across
# both edges (many within reach of an edge, many clear of every edge: the shortcut's two sides).
PIECES = """\
ruleset: skirmish
board: {width: 36, depth: 36}
terrain:
  - {id: hex, outline: [[10, 10], [14, 8], [18, 10], [18, 14], [14, 16], [10, 14]], height: 3,
     kind: solid}
  - {id: wall, outline: [[24, 4], [24.5, 4], [24.5, 30], [24, 30]], height: 2, kind: obstacle}
units:
- id: red-1
  side: red
  models: [{base: 32, at: [2, 2]}, {base: [60, 35], at: [2, 6], facing: 30},
           {base: {rect: [25, 25]}, at: [2, 10], facing: 45}]
- id: blue-1
  side: blue
  models: [{base: 32, at: [34, 34]}]
"""


def _half_on_by_polygons(t, m: int, x: float, y: float, tall: float) -> int | None:
    import shapely

    from battlefield.geometry.bases import outline_points
    foot = shapely.Polygon(outline_points(int(t.shape[m]), t.a[m], t.b[m], x, y, t.facing[m],
                                          64))
    for k, p in enumerate(t.layout.pieces):
        if p.kind in ("area", "impassable") or p.height < tall:
            continue
        part = foot.intersection(t.layout.polygons[k]).area
        if 1e-4 < part < foot.area - 1e-4:
            return k
    return None


@pytest.mark.parametrize("m", [0, 1, 2])
def test_half_on_at_gives_the_polygons_answer_everywhere(m: int):
    from battlefield.rules.moves import half_on_at
    st = Game(registry.get("skirmish"), load_scene_text(PIECES, "p.yaml"), 1).new_state()
    t = st.table
    answers = set()
    for x in np.arange(7.0, 27.0, 0.37):
        for y in np.arange(5.0, 18.0, 0.41):
            got = half_on_at(t.layout, int(t.shape[m]), float(t.a[m]), float(t.b[m]),
                             float(x), float(y), float(t.facing[m]), float(t.reach[m]), 1.5)
            assert got == _half_on_by_polygons(t, m, float(x), float(y), 1.5), (x, y)
            answers.add(got)
    assert answers == {None, 0, 1}          # off, half on the hex, half on the wall
