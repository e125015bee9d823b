"""Objective control (battlefield/geometry/objectives.py): aos4's control sums on 40 mm markers,
skirmish's model counts with home objectives, and the warband-style fighter count."""

import math

import numpy as np
import pytest

from battlefield.geometry import MM_PER_INCH
from battlefield.geometry.bases import Base
from battlefield.geometry.objectives import control, models_in_zone
from battlefield.rulings import Referee

from ._build import R32, make_scene, make_table, model, unit

OBJ = (15.0, 10.0)
AOS_ZONE = 3 + 20 / MM_PER_INCH   # base edge within 3" of the 40 mm marker's edge


def at_edge_distance(d, angle_deg=180.0, r=R32, centre=OBJ):
    """Centre of a base of radius r whose edge is d inches from `centre`, in direction angle."""
    th = math.radians(angle_deg)
    return centre[0] + (d + r) * math.cos(th), centre[1] + (d + r) * math.sin(th)


def aos4(units, objective_extra=None):
    obj = {"id": "o", "at": list(OBJ), **(objective_extra or {})}
    return Referee(make_scene(units, objectives=[obj])).objective(0)


# --- aos4: control sums ----------------------------------------------------------------------
@pytest.mark.parametrize("angle", [180.0, 0.0, 90.0, 37.0, 241.5])
@pytest.mark.parametrize(("extra", "contests"), [(0.0, True), (-0.5, True), (1e-3, False),
                                                 (0.1, False)])
def test_a_32mm_model_contests_with_its_edge_3in_plus_20mm_from_the_centre(angle, extra,
                                                                          contests):
    x, y = at_edge_distance(AOS_ZONE + extra, angle)
    c = aos4([unit("r", "red", model(x, y), stats={"control": 1})])
    assert (c.controlled_by == "red") is contests
    assert c.models == ([0] if contests else [])
    assert c.totals == ({"red": 1} if contests else {})


def test_an_oval_contests_by_its_edge_not_its_centre():
    # A 170x105 oval with its long axis pointing at the marker: the centre is 3.35" further out.
    o = Base.oval(170, 105)
    x, y = at_edge_distance(AOS_ZONE - 1e-4, r=o.a)
    c = aos4([unit("r", "red", model(x, y, base=[170, 105], facing=0))])
    assert c.controlled_by == "red"
    # Turned side-on, its near edge is only 2.07" from its centre: now it is out of range.
    c = aos4([unit("r", "red", model(x, y, base=[170, 105], facing=90))])
    assert c.controlled_by is None


def test_control_sums_per_side():
    # red: 3 models with Control 2 in range (+1 out of range) = 6; blue: 5 models Control 1 = 5
    red = [model(*at_edge_distance(2.5, a)) for a in (150, 180, 210)] + [model(2, 2)]
    blue = [model(*at_edge_distance(2.5, a)) for a in (-60, -30, 0, 30, 60)]
    c = aos4([unit("r", "red", *red, stats={"control": 2}),
              unit("b", "blue", *blue, stats={"control": 1})])
    assert c.totals == {"red": 6, "blue": 5}
    assert c.controlled_by == "red"
    assert c.units == {"red": [0], "blue": [1]}
    assert len(c.models) == 8


def test_control_sums_over_several_units_of_a_side():
    c = aos4([unit("r1", "red", model(*at_edge_distance(1, 180)), stats={"control": 2}),
              unit("r2", "red", model(*at_edge_distance(1, 90)), stats={"control": 1}),
              unit("b", "blue", model(*at_edge_distance(1, 0)), stats={"control": 2})])
    assert c.totals == {"red": 3, "blue": 2}
    assert c.controlled_by == "red"


def tie_units():
    return [unit("r", "red", model(*at_edge_distance(1, 180)), stats={"control": 2}),
            unit("b", "blue", model(*at_edge_distance(1, 0)), model(*at_edge_distance(1, 90)),
                 stats={"control": 1})]


def test_a_tie_controls_nothing():
    c = aos4(tie_units())
    assert c.totals == {"red": 2, "blue": 2}
    assert c.controlled_by is None


@pytest.mark.parametrize("held", ["red", "blue"])
def test_a_tie_keeps_the_side_that_held_it(held):
    assert aos4(tie_units(), {"controlled_by": held}).controlled_by == held


def test_a_strictly_higher_sum_takes_it_from_the_holder():
    units = tie_units()
    units[0]["stats"] = {"control": 3}
    assert aos4(units, {"controlled_by": "blue"}).controlled_by == "red"


def test_nobody_near_keeps_the_holder():
    assert aos4([unit("r", "red", model(2, 2))], {"controlled_by": "blue"}).controlled_by == "blue"
    assert aos4([unit("r", "red", model(2, 2))]).controlled_by is None


# --- skirmish: model counts ------------------------------------------------------------------
def skirmish(units, home=None):
    obj = {"id": "o", "at": list(OBJ), **({"home": home} if home else {})}
    s = make_scene(units, objectives=[obj], ruleset="skirmish", board=(36, 36))
    return Referee(s).objective(0)


def far_models(n, y=30.0):
    return [model(3 + 2 * i, y) for i in range(n)]


def test_one_model_within_2in_of_the_centre_counts_the_whole_unit():
    # red: 1 of its 4 models within 2" (edge to the centre point) -> 4; blue: 3 models, all on
    c = skirmish([unit("r", "red", model(*at_edge_distance(2 - 1e-4)), *far_models(3)),
                  unit("b", "blue", *[model(*at_edge_distance(1.5, a)) for a in (-45, 0, 45)])])
    assert c.totals == {"red": 4, "blue": 3}
    assert c.controlled_by == "red"


def test_skirmish_range_is_2in_to_the_centre_point():
    assert skirmish([unit("r", "red", model(*at_edge_distance(2.001)))]).controlled_by is None
    assert skirmish([unit("r", "red", model(*at_edge_distance(1.999)))]).controlled_by == "red"


def test_a_field_objective_tie_controls_nothing():
    c = skirmish([unit("r", "red", model(*at_edge_distance(1, 180)), *far_models(1)),
                  unit("b", "blue", model(*at_edge_distance(1, 0)), *far_models(1, y=34))])
    assert c.totals == {"red": 2, "blue": 2}
    assert c.controlled_by is None


def test_a_home_objective_goes_to_its_side_on_a_tie():
    c = skirmish([unit("r", "red", model(*at_edge_distance(1, 180)), *far_models(1)),
                  unit("b", "blue", model(*at_edge_distance(1, 0)), *far_models(1, y=34))],
                 home="blue")
    assert c.controlled_by == "blue"


def test_a_home_objective_goes_to_its_side_at_0_0():
    c = skirmish([unit("r", "red", *far_models(2)), unit("b", "blue", *far_models(2, y=34))],
                 home="red")
    assert c.totals == {}
    assert c.controlled_by == "red"


def test_a_home_objective_is_lost_to_more_models():
    c = skirmish([unit("r", "red", model(*at_edge_distance(1, 180)), *far_models(2)),
                  unit("b", "blue", model(*at_edge_distance(1, 0)), *far_models(1, y=34))],
                 home="blue")
    assert c.totals == {"red": 3, "blue": 2}
    assert c.controlled_by == "red"


# --- the geometry function directly -----------------------------------------------------------
def test_fighters_within_counts_only_models_in_range():
    b = Base.round(32)
    t = make_table([(b, 0, 3 + R32 - 0.01, 0), (b, 0, -(3 + R32 + 0.01), 0), (b, 1, 1, 0)],
                   unit=[0, 0, 1])
    zone = models_in_zone(t, 0.0, 0.0, 3.0)
    assert list(zone) == [True, False, True]
    c = control(t, 0.0, 0.0, "fighters-within", 3.0, 0.0, ["red", "blue"], [1.0, 1.0],
                held_by="red", sticky=True)
    assert c.totals == {"red": 1, "blue": 1}
    assert c.controlled_by == "red"           # tied; sticky keeps the holder
    c = control(t, 0.0, 0.0, "fighters-within", 3.0, 0.0, ["red", "blue"], [1.0, 1.0])
    assert c.controlled_by is None


def test_dead_models_do_not_count():
    b = Base.round(32)
    t = make_table([(b, 0, 1, 0), (b, 0, 20, 0), (b, 1, -1, 0)], unit=[0, 0, 1])
    alive = np.array([True, False, True])
    c = control(t, 0.0, 0.0, "model-count", 2.0, 0.0, ["red", "blue"], [1.0, 1.0], alive=alive)
    assert c.totals == {"red": 1, "blue": 1}
    c = control(t, 0.0, 0.0, "model-count", 2.0, 0.0, ["red", "blue"], [1.0, 1.0])
    assert c.totals == {"red": 2, "blue": 1}
