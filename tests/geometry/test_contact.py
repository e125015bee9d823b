"""Contact between rectangular bases (geometry/contact.py): sides by the diagonals, the front
arc, engagement within 0.1". Each answer worked out by hand on a 4" x 2" block at (10, 10)
facing 90 degrees (its front faces +y, its left is -x)."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

from battlefield.geometry.contact import engaged, engaged_sides, in_front_arc, side_of, sides_of
from battlefield.scene.load import load_scene_text

BLOCK = (10.0, 10.0, 90.0, 1.0, 2.0)      # x, y, facing, half-depth, half-frontage


@pytest.mark.parametrize(("point", "side"), [
    ((10, 14), "front"), ((10, 6), "rear"), ((6, 10), "left"), ((14, 10), "right"),
    ((12, 11), "front"),          # on the front-right diagonal: the front side
    ((12.1, 11), "right"),        # just past it
    ((7.9, 9), "left"),           # past the rear-left diagonal
    ((8, 9), "rear"),             # on it
])
def test_sides_by_the_diagonals(point, side):
    assert sides_of(*BLOCK, np.array([point[0]]), np.array([point[1]]))[0] == side


@pytest.mark.parametrize(("point", "inside"), [
    ((10, 11), True),             # on the front edge
    ((13.5, 12.5), True),         # on the 45-degree line from the front-right corner
    ((13.6, 12.5), False),
    ((10, 10.5), False),          # behind the front edge
    ((6.5, 12.5), True), ((6.4, 12.5), False),
])
def test_the_front_arc(point, inside):
    assert bool(in_front_arc(*BLOCK, np.array([point[0]]), np.array([point[1]]))[0]) is inside


def blocks(second: str) -> object:
    text = textwrap.dedent(f"""\
        ruleset: blocks
        board: {{width: 48, depth: 32}}
        units:
        - id: red-1
          side: red
          models: [{{base: {{rect: [101.6, 50.8]}}, at: [10, 10], facing: 90}}]
        - id: blue-1
          side: blue
          models: [{second}]
        """)
    return load_scene_text(text, "blocks.yaml").table()


def test_front_to_front_within_a_tenth_is_engaged_on_the_front():
    t = blocks("{base: {rect: [101.6, 50.8]}, at: [10, 12.05], facing: 270}")
    assert engaged(t, 0, 1) and engaged_sides(t, 0, np.array([1])) == {1: "front"}
    assert side_of(t, 1, 0) == "front"


def test_a_fifth_of_an_inch_apart_is_not_engaged():
    t = blocks("{base: {rect: [101.6, 50.8]}, at: [10, 12.2], facing: 270}")
    assert not engaged(t, 0, 1) and engaged_sides(t, 0, np.array([1])) == {}


def test_a_block_against_the_right_flank():
    # Facing +x, its rear edge at x = 13.05 - 1 = 12.05: 0.05" from red's right edge (x = 12).
    t = blocks("{base: {rect: [101.6, 50.8]}, at: [13.05, 10], facing: 0}")
    assert engaged_sides(t, 0, np.array([1])) == {1: "right"}
    assert side_of(t, 1, 0) == "rear"          # red's centre is behind blue
