"""Rulings about a scene (battlefield/rulings.py): distances, sight, combat, coherency and
objectives as the Referee reports them, on small hand-computed scenes."""

import math

import pytest
from geometry._build import R32, make_scene, model, rect_outline, unit, wall

from battlefield.errors import UsageError
from battlefield.rulings import Referee, live_check

GAP_3IN = 3 - 32 / 25.4   # two 32 mm bases 3" apart centre to centre


def referee(units, terrain=(), objectives=(), ruleset="aos4", board=(30, 20)):
    return Referee(make_scene(units, terrain, objectives, ruleset, board))


# --- measure ---------------------------------------------------------------------------------
def test_measure_two_32mm_models_3in_apart():
    ref = referee([unit("a", "red", model(10, 10)), unit("b", "blue", model(13, 10))])
    r = ref.measure_report("a/1", "b/1")
    assert r["distance"] == pytest.approx(1.740157, abs=1e-6)
    assert r["distance"] == pytest.approx(GAP_3IN, abs=1e-6)
    assert r["distance_3d"] == r["distance"]
    assert r["points"]["a"] == pytest.approx([10 + R32, 10, 0], abs=1e-6)
    assert r["points"]["b"] == pytest.approx([13 - R32, 10, 0], abs=1e-6)
    assert r["closest_models"] == ["a/1", "b/1"]
    assert r["visible"] == "full"
    assert r["within_combat_range"] is True
    assert r["in_combat"] is True


def test_measure_units_uses_the_closest_pair():
    ref = referee([unit("a", "red", model(2, 10), model(5, 10)),
                   unit("b", "blue", model(20, 10), model(12, 4))])
    r = ref.measure_report("a", "b")
    assert r["distance"] == pytest.approx(math.hypot(7, 6) - 2 * R32, abs=1e-6)
    assert r["closest_models"] == ["a/2", "b/2"]
    r = ref.measure_report("a/1", "b")
    assert r["closest_models"] == ["a/1", "b/2"]
    assert r["distance"] == pytest.approx(math.hypot(10, 6) - 2 * R32, abs=1e-6)


def test_measure_refuses_bad_references():
    ref = referee([unit("a", "red", model(2, 10)), unit("b", "blue", model(20, 10))])
    for a, b in [("a", "a"), ("a/1", "a/1"), ("a/2", "b"), ("x", "b"), ("a/one", "b")]:
        with pytest.raises(UsageError):
            ref.measure_report(a, b)


def test_3d_distance_from_a_hill():
    hill = wall("hill", rect_outline(5, 5, 11, 15), 3)
    ref = referee([unit("a", "red", model(10, 10)), unit("b", "blue", model(13, 10))], [hill])
    r = ref.measure_report("a/1", "b/1")
    assert r["distance"] == pytest.approx(GAP_3IN, abs=1e-6)
    assert r["distance_3d"] == pytest.approx(math.hypot(GAP_3IN, 3), abs=1e-6)
    assert r["points"]["a"][2] == 3.0 and r["points"]["b"][2] == 0.0


# --- aos4 combat -------------------------------------------------------------------------------
@pytest.mark.parametrize(("gap", "expected"), [(2.0, True), (3.0, True), (3.0 + 1e-3, False),
                                               (5.0, False)])
def test_combat_range_is_3in_base_to_base(gap, expected):
    ref = referee([unit("a", "red", model(10, 10)), unit("b", "blue", model(10 + 2 * R32 + gap,
                                                                         10))])
    assert ref.in_combat(0, 1) is expected
    assert ref.in_combat(1, 0) is expected
    assert ref.combat[0] == ([1] if expected else [])


def test_friends_are_never_in_combat():
    ref = referee([unit("a", "red", model(10, 10)), unit("b", "red", model(12, 10))])
    assert not ref.in_combat(0, 1)


def test_a_wall_that_hides_them_stops_combat():
    # 2" apart, but a 4" wall between hides each completely from the other.
    wall4 = wall("wall", rect_outline(11.5, 5, 12.5, 15), 4)
    ref = referee([unit("a", "red", model(10, 10)), unit("b", "blue", model(14, 10))], [wall4])
    assert ref.table.unit_distance(0, 1) == pytest.approx(4 - 2 * R32)
    assert not ref.sight.unit_sees(0, 1)
    assert not ref.in_combat(0, 1)
    # a 1" wall leaves them visible: in combat
    wall1 = wall("wall", rect_outline(11.5, 5, 12.5, 15), 1)
    ref = referee([unit("a", "red", model(10, 10)), unit("b", "blue", model(14, 10))], [wall1])
    assert ref.in_combat(0, 1)


def test_combat_range_is_horizontal_any_distance_vertically():
    # A model at the edge of a 3" hill, an enemy 2" away at its foot: 3-D 3.6", in combat.
    hill = wall("hill", rect_outline(5, 5, 11, 15), 3)
    x = 11 - R32 - 0.01
    ref = referee([unit("a", "red", model(x, 10)), unit("b", "blue", model(x + 2 * R32 + 2, 10))],
                  [hill])
    p = ref.pair(0, 1)
    assert p.distance == pytest.approx(2.0, abs=1e-9)
    assert p.distance_3d == pytest.approx(math.hypot(2, 3), abs=1e-9)
    assert p.visible != "none"
    assert ref.in_combat(0, 1)


def test_pair_reports_the_blocker():
    wall1 = wall("low-wall", rect_outline(14.9, 5, 15.1, 15), 1)
    ref = referee([unit("a", "red", model(10, 10)), unit("b", "blue", model(20, 10))], [wall1])
    p = ref.pair(0, 1)
    assert p.visible == "partial"
    assert p.blocked_by == ["low-wall"]
    assert p.distance == pytest.approx(10 - 2 * R32)


# --- coherency and objectives through the referee ----------------------------------------------
def test_referee_coherency_uses_the_ruleset_numbers():
    step = 2 * R32
    aos = referee([unit("u", "red", model(5, 10), model(5 + step + 0.75, 10))])
    assert not aos.coherency(0).coherent          # aos4: 1/2"
    skirmish = referee([unit("u", "red", model(5, 10), model(5 + step + 0.75, 10))],
                       ruleset="skirmish", board=(36, 36))
    assert skirmish.coherency(0).coherent         # skirmish: 1"


def test_check_report_lists_everything():
    ref = referee([unit("a", "red", model(10, 10), model(10 + 2 * R32 + 0.2, 10),
                        stats={"control": 1}),
                   unit("b", "blue", model(14, 10))],
                  objectives=[{"id": "o", "at": [12, 12]}])
    r = ref.check_report()
    assert r["ruleset"] == "aos4"
    assert r["units"]["a"]["coherent"] is True
    assert r["units"]["a"]["in_combat_with"] == ["b"]
    assert r["units"]["b"]["in_combat_with"] == ["a"]
    assert r["objectives"]["o"]["controlled_by"] == "red"
    assert r["objectives"]["o"]["totals"] == {"red": 2, "blue": 1}
    assert {(p["a"], p["b"]) for p in r["pairs"]} == {("a", "b"), ("b", "a")}


def test_live_check_follows_the_unit():
    ref = referee([unit("a", "red", model(10, 10)), unit("b", "blue", model(12, 10))],
                  objectives=[{"id": "o", "at": [10, 14]}])
    lc = live_check(ref, 0)
    assert lc.distances == {1: pytest.approx(2 - 2 * R32)}
    assert lc.in_combat_range == [1]
    assert lc.objectives == {0: True}
    assert lc.visible == {1: True}
    assert lc.coherency.coherent


# --- skirmish: leader to leader ------------------------------------------------------------------
def test_skirmish_distances_run_leader_to_leader():
    ref = referee([unit("a", "red", model(5, 10), model(12, 10), leader=2),
                   unit("b", "blue", model(15, 10), model(30, 10), leader=2)],
                  ruleset="skirmish", board=(36, 36))
    # the leaders are a/2 at x = 12 and b/2 at x = 30, though a/2 and b/1 are closest
    assert ref.unit_distance(0, 1) == pytest.approx(18 - 2 * R32)
    assert ref.pair(0, 1).closest.models == (1, 3)


def test_skirmish_range_is_3d_when_the_leaders_are_at_different_heights():
    hill = wall("hill", rect_outline(5, 5, 11, 15), 3)
    ref = referee([unit("a", "red", model(8, 10)), unit("b", "blue", model(16, 10))], [hill],
                  ruleset="skirmish", board=(36, 36))
    assert ref.unit_distance(0, 1) == pytest.approx(math.hypot(8 - 2 * R32, 3))


def test_skirmish_a_unit_near_a_partly_blocking_piece_ignores_it():
    low = wall("low-wall", rect_outline(14.9, 5, 15.1, 15), 1)
    far = referee([unit("a", "red", model(10, 10)), unit("b", "blue", model(20, 10))], [low],
                  ruleset="skirmish", board=(36, 36))
    assert far.pair(0, 1).visible == "partial"
    # a's leader within 1" of the wall: a sees past it, b (far away) still sees a partly
    near = referee([unit("a", "red", model(14, 10)), unit("b", "blue", model(20, 10))], [low],
                   ruleset="skirmish", board=(36, 36))
    assert near.pair(0, 1).visible == "full"
    assert near.pair(1, 0).visible == "partial"
    # both within 1": both see fully
    both = referee([unit("a", "red", model(14, 10)), unit("b", "blue", model(16, 10))], [low],
                   ruleset="skirmish", board=(36, 36))
    assert both.pair(0, 1).visible == "full"
    assert both.pair(1, 0).visible == "full"


def test_skirmish_a_piece_that_blocks_completely_is_not_ignored():
    tall = wall("tall-wall", rect_outline(14.9, 5, 15.1, 15), 4)
    ref = referee([unit("a", "red", model(14, 10)), unit("b", "blue", model(16, 10))], [tall],
                  ruleset="skirmish", board=(36, 36))
    assert ref.pair(0, 1).visible == "none"
