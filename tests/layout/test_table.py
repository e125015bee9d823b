"""The candidate table: exact turns, twins by construction, and the geometric constraints."""

import math

import numpy as np
import pytest
import shapely

from battlefield.layout.catalogue import load_catalogue
from battlefield.layout.generate import base_scene, setting_for
from battlefield.layout.table import TURNS, turn_cos_sin


def test_turns_are_the_exact_multiples_of_15_degrees():
    assert turn_cos_sin(0) == (1.0, 0.0)
    assert turn_cos_sin(6) == (0.0, 1.0)
    assert turn_cos_sin(12) == (-1.0, 0.0)
    for t in range(TURNS):
        c, s = turn_cos_sin(t)
        assert c == pytest.approx(math.cos(math.radians(15 * t)), abs=1e-15)
        assert s == pytest.approx(math.sin(math.radians(15 * t)), abs=1e-15)


@pytest.fixture
def setting(small):
    base, pieces = small
    return setting_for(base_scene(str(base), None), load_catalogue(pieces), "half-turn")


def test_the_base_keeps_only_fixed_terrain(setting):
    assert [p.id for p in setting.fixed] == ["pillar"]
    assert setting.gap == pytest.approx(1.26, abs=0.01)     # skirmish: a 32 mm base


def test_a_placement_and_its_twin_turn_half_about_the_centre(setting):
    a, b = setting.outlines((0, 8, 10, 3))
    np.testing.assert_allclose(b, np.column_stack([24 - a[:, 0], 16 - a[:, 1]]), atol=1e-9)


def test_mirror_twins_swap_the_zones(small):
    base, pieces = small
    s = setting_for(base_scene(str(base), None), load_catalogue(pieces), "mirror")
    assert s.mirror_axis == "y"
    a, b = s.outlines((0, 8, 10, 3))
    assert sorted(map(tuple, np.round(b, 6))) == sorted(
        map(tuple, np.round(np.column_stack([a[:, 0], 16 - a[:, 1]]), 6)))


def test_pieces_off_the_board_on_an_objective_or_too_close_are_refused(setting):
    assert setting.fits_alone((0, 8, 12, 0))             # (4, 6): clear
    assert not setting.fits_alone((0, 0, 12, 0))         # (0, 6): half off the board
    assert not setting.fits_alone((0, 10, 16, 0))        # on the west objective (5, 8)
    assert not setting.fits_alone((0, 24, 16, 0))        # on the fixed pillar
    assert setting.clear_of((0, 8, 12, 0), [(0, 16, 12, 0)])         # 6" apart
    assert not setting.clear_of((0, 8, 12, 0), [(0, 12, 12, 0)])     # edges 0" apart
    poly = shapely.Polygon(setting.outlines((0, 8, 12, 0))[0])
    assert poly.area == pytest.approx(4.0)
