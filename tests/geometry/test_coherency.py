"""Unit coherency (battlefield/geometry/coherency.py), with aos4's numbers: 1/2" horizontally,
1 neighbour (2 in units of 7+), one connected group."""

import math

import numpy as np
import pytest

from battlefield.geometry.bases import Base
from battlefield.geometry.coherency import coherency
from battlefield.rulings import Referee

from ._build import R32, make_scene, make_table, model, unit

STEP = 2 * R32  # centre-to-centre of two touching 32 mm bases


def line_of(n, gap, x0=2.0, y=10.0):
    """n 32 mm models in a row along x, `gap` inches between neighbouring base edges."""
    return [model(x0 + i * (STEP + gap), y) for i in range(n)]


def ring_of(n, gap, cx=15.0, cy=10.0):
    """n 32 mm models around a circle, `gap` inches between neighbouring base edges."""
    chord = STEP + gap
    radius = chord / (2 * math.sin(math.pi / n))
    return [model(cx + radius * math.cos(2 * math.pi * k / n),
                  cy + radius * math.sin(2 * math.pi * k / n)) for k in range(n)]


def aos4_coherency(models, **unit_extra):
    s = make_scene([unit("u", "red", *models, **unit_extra)])
    return Referee(s).coherency(0)


@pytest.mark.parametrize(("gap", "coherent"), [(0.0, True), (0.3, True), (0.5, True),
                                               (0.50001, False), (0.51, False)])
def test_two_32mm_bases_half_an_inch_apart(gap, coherent):
    assert aos4_coherency(line_of(2, gap)).coherent is coherent


def test_a_lone_model_is_coherent():
    assert aos4_coherency([model(5, 5)]).coherent


def test_the_reason_names_the_gap():
    res = aos4_coherency(line_of(2, 0.51))
    assert res.breaks == [0, 1]
    assert res.reasons[0] == ("within 0.5\" of 0 other models, needs 1; "
                              "the nearest model is 0.51\" away")


def test_six_in_a_line_need_one_neighbour_each():
    assert aos4_coherency(line_of(6, 0.4)).coherent


def test_seven_in_a_line_break_at_the_ends():
    # 7+ models: each needs 2 within 1/2"; the two end models have only 1.
    res = aos4_coherency(line_of(7, 0.4))
    assert not res.coherent
    assert res.breaks == [0, 6]
    assert "needs 2" in res.reasons[0] and "2nd nearest" in res.reasons[0]


def test_seven_in_a_ring_have_two_neighbours_each():
    assert aos4_coherency(ring_of(7, 0.4)).coherent
    assert not aos4_coherency(ring_of(7, 0.6)).coherent


def test_two_separate_coherent_pairs_break_one_group():
    pair1 = line_of(2, 0.2, x0=2.0)
    pair2 = line_of(2, 0.2, x0=20.0)
    res = aos4_coherency(pair1 + pair2)
    assert not res.coherent
    assert res.groups == 2
    # the leader (model 1 by default) keeps its group: the other pair is at fault
    assert res.breaks == [2, 3]
    assert "2 separate groups" in res.reasons[2]
    # with the leader in the second pair, the first pair is at fault
    res = aos4_coherency(pair1 + pair2, leader=3)
    assert res.breaks == [0, 1]


def test_the_larger_group_is_kept_without_a_leader():
    b = Base.round(32)
    xs = [0, STEP + 0.2, 2 * (STEP + 0.2), 20, 20 + STEP + 0.2]
    t = make_table([(b, x, 10, 0) for x in xs], unit=[0] * 5)
    res = coherency(t, t.unit_models[0], 0.5, 1, True)
    assert res.groups == 2 and res.breaks == [3, 4]
    # without the one-group rule, two pairs each in coherency are fine
    assert coherency(t, t.unit_models[0], 0.5, 1, False).coherent


def test_coherency_is_horizontal_and_uses_base_shapes():
    # Two models 0.4" apart horizontally, one 5" up on a ledge: still coherent (horizontal).
    b = Base.round(32)
    t = make_table([(b, 0, 0, 0), (b, STEP + 0.4, 0, 0)], z=[0, 5], unit=[0, 0])
    assert coherency(t, np.array([0, 1]), 0.5, 1, True).coherent
    # Ovals side by side: their centres are far apart but their long sides are 0.4" apart.
    o = Base.oval(170, 105)
    t = make_table([(o, 0, 0, 90), (o, 2 * o.b + 0.4, 0, 90)], unit=[0, 0])
    assert coherency(t, np.array([0, 1]), 0.5, 1, True).coherent
    # End to end along their long axes: 0.4" apart is coherent, 0.6" is not.
    t = make_table([(o, 0, 0, 0), (o, 2 * o.a + 0.4, 0, 0)], unit=[0, 0])
    assert coherency(t, np.array([0, 1]), 0.5, 1, True).coherent
    t = make_table([(o, 0, 0, 0), (o, 2 * o.a + 0.6, 0, 0)], unit=[0, 0])
    assert not coherency(t, np.array([0, 1]), 0.5, 1, True).coherent


def test_split_unit_whose_leader_is_gone():
    # Two pairs far apart; the leader (model index 9) is not among the models any more: the
    # larger (here the first) group stays, the other breaks - and nothing fails.
    import numpy as np

    from battlefield.geometry.coherency import coherency
    from battlefield.geometry.table import Table
    from battlefield.geometry.terrain import Layout

    r = 32 / 25.4 / 2
    xs = np.array([0.0, 2 * r + 0.2, 10.0, 10 + 2 * r + 0.2]) + 5
    t = Table(40, 40, Layout(()), xs, np.full(4, 5.0), np.zeros(4), np.zeros(4, dtype=int),
              np.full(4, r), np.full(4, r), np.zeros(4), np.full(4, 1.25), np.zeros(4, dtype=int),
              1)
    res = coherency(t, np.arange(4), 0.5, 1, True, leader=9)
    assert not res.coherent and res.breaks == [2, 3]
