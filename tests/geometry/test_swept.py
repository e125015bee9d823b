"""A base moved along a segment against other bases (separation.swept_within, Table.swept):
the stretch where they are within a distance, found exactly (the move check's path test)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from battlefield.geometry.bases import Base

from ._build import R32, make_table, props

R32_BASE = Base.round(32)
OVAL = Base.oval(60, 35)
BLOCK = Base.rect(100, 50)


def test_a_round_base_grazing_another_by_a_thousandth() -> None:
    # (10, 20) -> (15, 20) past a base at (12.625, 20 + 2R + 2.999): closest 2.999 at t = 0.525;
    # within 3" from where the centres are sqrt((3 + 2R)^2 - (2.999 + 2R)^2) apart along x.
    t = make_table([(R32_BASE, 10, 20, 0), (R32_BASE, 12.625, 20 + 2 * R32 + 2.999, 0)])
    t_in, t_out, least = t.swept(0, np.array([[10.0, 20.0], [15.0, 20.0]]), np.array([1]), 3.0)
    half = math.sqrt((3 + 2 * R32) ** 2 - (2.999 + 2 * R32) ** 2)
    assert least[0, 0] == pytest.approx(2.999, abs=1e-9)
    assert t_in[0, 0] == pytest.approx((2.625 - half) / 5, abs=1e-9)
    assert t_out[0, 0] == pytest.approx((2.625 + half) / 5, abs=1e-9)
    _, _, far = t.swept(0, np.array([[10.0, 20.0], [15.0, 20.0]]), np.array([1]), 2.998)
    t_none, _, _ = t.swept(0, np.array([[10.0, 20.0], [15.0, 20.0]]), np.array([1]), 2.998)
    assert np.isnan(t_none[0, 0]) and far[0, 0] == pytest.approx(2.999, abs=1e-9)


@props(40)
@given(st.sampled_from([R32_BASE, OVAL, BLOCK]), st.sampled_from([R32_BASE, OVAL, BLOCK]),
       st.floats(0, 180), st.floats(0, 180), st.floats(-4, 4), st.floats(1, 6),
       st.floats(0.5, 4))
def test_the_stretch_matches_dense_samples(mover, other, f1, f2, dy, gap, within) -> None:
    # Along (0, 0) -> (10, dy), against a base at (5, gap + 2): each place inside the found
    # stretch is within `within`, and each dense sample within `within` lies inside it.
    t = make_table([(mover, 0, 0, f1), (other, 5, gap + 2, f2)])
    a, b = np.array([0.0, 0.0]), np.array([10.0, dy])
    t_in, t_out, least = t.swept(0, np.array([a, b]), np.array([1]), within)
    ts = np.linspace(0, 1, 4001)
    pts = a + ts[:, None] * (b - a)
    d = t.distances_from(0, pts[:, 0], pts[:, 1], np.array([1]))[:, 0]
    assert least[0, 0] <= d.min() + 1e-7
    inside = d <= within
    if np.isnan(t_in[0, 0]):
        assert not inside.any()
        return
    assert ts[inside].min() >= t_in[0, 0] - 1e-6 and ts[inside].max() <= t_out[0, 0] + 1e-6
    ends = a + np.array([t_in[0, 0], t_out[0, 0]])[:, None] * (b - a)
    assert (t.distances_from(0, ends[:, 0], ends[:, 1], np.array([1]))[:, 0]
            <= within + 1e-7).all()
