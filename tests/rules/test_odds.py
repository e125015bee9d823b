"""Exact odds from the dice definitions."""

import pytest

from battlefield.rules.odds import at_least, distribution, mean, with_reroll


@pytest.mark.parametrize(("needed", "p"), [
    (2, 36 / 36), (3, 35 / 36), (7, 21 / 36), (8, 15 / 36), (12, 1 / 36), (13, 0.0),
    (0, 1.0),
])
def test_two_d6_at_least(needed, p):
    assert at_least("2D6", needed) == pytest.approx(p)


def test_reroll():
    p = at_least("2D6", 8)
    assert with_reroll(p) == pytest.approx(1 - (1 - 15 / 36) ** 2)


def test_distribution_and_mean():
    d = distribution("D3+1")
    assert d == pytest.approx({2: 1 / 3, 3: 1 / 3, 4: 1 / 3})
    assert mean(distribution("2D6")) == pytest.approx(7)
    assert sum(distribution("3D6").values()) == pytest.approx(1)
