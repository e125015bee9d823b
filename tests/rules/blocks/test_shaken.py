"""When damage shakes a block (it must check its courage): the seed's "loses its last green or
yellow box or took any damage while in the red"."""

from __future__ import annotations

import pytest

from battlefield.rules.blocks import RULESET
from battlefield.rules.blocks.turns import shakes
from battlefield.scene.model import UnitSpec


def block(bar: list[int]) -> UnitSpec:
    return UnitSpec("b", "red", [], extra={"bar": bar})


@pytest.mark.parametrize("bar, before, after, shaken", [
    ([3, 3, 3], 0, 2, False),      # still green
    ([3, 3, 3], 2, 3, True),       # the last green box
    ([3, 3, 3], 0, 4, True),       # through the green in one go
    ([3, 3, 3], 3, 5, False),      # yellow, one left
    ([3, 3, 3], 5, 6, True),       # the last yellow box: into the red
    ([3, 3, 3], 6, 7, True),       # damage in the red
    ([3, 3, 3], 7, 7, False),      # no damage
    ([1, 1, 1], 0, 1, True),       # a one-box green
    ([1, 3, 3], 1, 3, False),      # yellow only
])
def test_damage_that_shakes_a_block(bar, before, after, shaken):
    assert shakes(block(bar), RULESET.book, before, after) is shaken
