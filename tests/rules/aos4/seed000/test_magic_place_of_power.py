"""Activate Place of Power (seed 000, abilities: activate-place-of-power) - "Pick a friendly HERO
within 3" of any Places of Power to use this ability. Roll a dice. On a 1, inflict D3 mortal
damage on that HERO. On a 2+, if that HERO is a WIZARD or PRIEST, add 1 to casting rolls or
chanting rolls for that HERO this turn. If that HERO is not a WIZARD or PRIEST, they can use the
'Unbind' or 'Banish Manifestation' ability this turn as if they had WIZARD (1)." Distances are
horizontal, base edge to the piece's outline, exact."""

from __future__ import annotations

import math

import pytest

from .magic_scenes import GAP, R, codes, event, kinds, play

POP = {"type": "activate-place-of-power", "unit": "hero"}


def scene(edge_x: float = 13.0 + R, keywords: str = "[HERO]", z: float = 0.0,
          corner: tuple[float, float] | None = None) -> str:
    """Red's turn. blue's hero at (10, 10); the place of power a 4" square whose west edge is
    at `edge_x` (or whose south-west corner is `corner`); the hero on a hill `z` tall."""
    x0, y0 = corner if corner else (edge_x, 8.0)
    hill = (f"\n  - {{id: hill, outline: [[8, 8], [12, 8], [12, 12], [8, 12]], height: {z}}}"
            if z else "")
    return f"""
ruleset: aos4
board: {{width: 60, depth: 44}}
state: {{active: red}}
terrain:
  - {{id: pop, outline: [[{x0}, {y0}], [{x0 + 4}, {y0}], [{x0 + 4}, {y0 + 4}], [{x0}, {y0 + 4}]],
     height: 0, kind: place-of-power}}{hill}
units:
  - id: hero
    side: blue
    keywords: {keywords}
    stats: {{move: 5, health: 5, save: 4}}
    models: [{{base: 32, at: [10, 10]}}]
  - id: red-wiz
    side: red
    keywords: [HERO, WIZARD]
    stats: {{move: 5, health: 5, save: 4}}
    spells: [{{id: bolt, casting_value: 7, range: 18, effect: {{mortal: D3}}}}]
    models: [{{base: 32, at: [30, 10]}}]
  - id: blue-tgt
    side: blue
    stats: {{move: 5, health: 5, save: 4}}
    models: [{{base: 32, at: [30, {10 + 6 + GAP}]}}]
"""


@pytest.mark.parametrize(("edge_x", "z", "legal"), [
    (13.0 + R, 0.0, True),             # base edge 3.000" from the piece: within 3"
    (13.01 + R, 0.0, False),           # 3.010": not within
    (13.0 + R, 4.0, True),             # on a 4" hill, 3" horizontally: within
])
def test_within_3_inches(edge_x, z, legal):
    _, (r,) = play(scene(edge_x, z=z), POP, dice=(4,))
    assert r["legal"] is legal, r["violations"]
    if not legal:
        assert codes(r) == ["no_place_of_power"] and "3.01\" away" in \
            r["violations"][0]["message"]


def test_measured_exactly_in_every_direction():
    # The piece's corner 2.999" from the base edge at 5.625 degrees (midway between two corners
    # of a 32-gon, which lies r(1 - cos 5.625deg) = 0.003" inside the circle there): within.
    d = R + 2.999
    corner = (10 + d * math.cos(math.radians(5.625)), 10 + d * math.sin(math.radians(5.625)))
    _, (r,) = play(scene(corner=corner), POP, dice=(4,))
    assert r["legal"], r["violations"]
    d = R + 3.001
    corner = (10 + d * math.cos(math.radians(5.625)), 10 + d * math.sin(math.radians(5.625)))
    _, (r,) = play(scene(corner=corner), POP, dice=(4,))
    assert codes(r) == ["no_place_of_power"]


def test_a_hero_that_is_neither_wizard_nor_priest_unbinds_as_wizard_1():
    # blue hero activates (4: a 2+), then red casts bolt 4+4 = 8 in its hero phase: blue is
    # asked, the hero may unbind, 5+4 = 9 > 8 unbinds. Not "+1 to casting".
    state, (pop, cast, u) = play(scene(), POP, {"type": "bolt", "unit": "red-wiz",
                                                "target": "blue-tgt"},
                                 {"type": "unbind", "side": "blue", "unit": "hero"},
                                 dice=(4, 4, 4, 5, 4))
    assert event(pop, "place-of-power")["effect"] == \
        "can unbind this turn as if it had WIZARD (1)"
    assert event(cast, "decision")["answers"] == ["unbind", "decline"]
    assert event(u, "unbind")["unbound"] and not state.units[2].damage.any()


def test_without_activating_a_hero_cannot_unbind():
    _, (cast,) = play(scene(), {"type": "bolt", "unit": "red-wiz", "target": "blue-tgt"},
                      dice=(4, 4, 2))
    assert "decision" not in kinds(cast)


def test_a_wizard_adds_1_to_casting_and_a_1_hurts():
    text = scene(keywords="[HERO, WIZARD]").replace("active: red", "active: blue").replace(
        "    models: [{base: 32, at: [10, 10]}]",
        "    spells: [{id: spark, casting_value: 8, range: 30, effect: {mortal: 1}}]\n"
        "    models: [{base: 32, at: [10, 10]}]", 1)
    state, (pop, cast) = play(text, POP, {"type": "spark", "unit": "hero", "target": "red-wiz"},
                              dice=(2, 3, 4))
    # 2: a 2+, +1 to casting: 3+4 = 7, +1 = 8 >= 8, cast.
    assert event(pop, "place-of-power")["effect"] == "+1 to casting and chanting rolls this turn"
    assert event(cast, "cast")["roll"] == 8 and event(cast, "cast")["result"] == "cast"
    state, (pop,) = play(scene(), POP, dice=(1, 2))      # a 1: D3 = 2 mortal damage
    assert int(state.units[0].damage.sum()) == 2 and "wizard-1" not in state.units[0].flags
