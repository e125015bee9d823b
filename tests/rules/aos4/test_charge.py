"""Charge distance and odds, each worked out by hand (32 mm bases: radius 0.629921")."""

import math

import pytest

from battlefield.rules.aos4.charge import charge_odds
from battlefield.rulings import Referee
from battlefield.scene.load import load_scene_text

R = 32 / 25.4 / 2


def referee(terrain: str = "", red_kw: str = "", blue_at=(16, 22), red_at=(10, 22)) -> Referee:
    return Referee(load_scene_text(f"""
ruleset: aos4
board: {{width: 60, depth: 44}}
terrain: [{terrain}]
units:
  - {{id: red, side: red, {red_kw} models: [{{base: 32, at: [{red_at[0]}, {red_at[1]}]}}]}}
  - {{id: blue, side: blue, models: [{{base: 32, at: [{blue_at[0]}, {blue_at[1]}]}}]}}
"""))


def test_open_ground():
    # 6" between centres: 6 - 2r - 1/2 = 4.240157"; 2D6 >= 4.24 means 5+: 30/36.
    o = charge_odds(referee(), 0, 1)
    assert o.needed == pytest.approx(6 - 2 * R - 0.5, abs=1e-6)
    assert o.probability == pytest.approx(30 / 36)
    assert o.probability_reroll == pytest.approx(1 - (6 / 36) ** 2)


def test_round_an_impassable_rock():
    # Rock x 14..16, y 16..28 between (10, 22) and (20, 22). The base's centre keeps r from the
    # rock: tangent from the start to the circle of radius r round corner (14, 28), arc over it,
    # 2" along the top, arc round (16, 28), tangent towards the target until 2r + 1/2 from it.
    rock = "{id: rock, outline: [[14, 16], [16, 16], [16, 28], [14, 28]], height: 4, " \
           "kind: impassable}"
    o = charge_odds(referee(rock, blue_at=(20, 22)), 0, 1)
    d = math.hypot(4, 6)
    tangent = math.sqrt(d * d - R * R)
    arc = R * (math.pi / 2 + math.atan2(6, 4) - math.acos(R / d))
    exact = tangent + arc + 2 + arc + tangent - (2 * R + 0.5)
    assert exact == pytest.approx(15.95558, abs=1e-5)
    assert o.needed == pytest.approx(exact, abs=2e-3)
    assert o.probability == 0.0
    ys = [y for _, y in o.path]
    assert max(ys) > 28 or min(ys) < 16      # round one end of the rock (both are as short)


WALL = "{id: wall, outline: [[12, 0], [12.5, 0], [12.5, 44], [12, 44]], height: 2, " \
       "kind: obstacle}"


def test_climbing_a_wall_counts_up_and_down():
    # 4.240157" of ground plus 2" up and 2" down the wall: 8.240157" -> 9+ on 2D6: 10/36.
    o = charge_odds(referee(WALL), 0, 1)
    assert o.needed == pytest.approx(6 - 2 * R - 0.5 + 4, abs=1e-6)
    assert o.probability == pytest.approx(10 / 36)


def test_fly_ignores_the_wall():
    o = charge_odds(referee(WALL, red_kw="keywords: [FLY],"), 0, 1)
    assert o.needed == pytest.approx(6 - 2 * R - 0.5, abs=1e-6)


def test_no_charge_from_combat():
    o = charge_odds(referee(blue_at=(13, 22)), 0, 1)     # 1.74" apart, visible: in combat
    assert o.needed is None and o.probability == 0.0 and "in combat" in o.reason


def test_already_close_but_hidden_is_not_combat():
    # 2.74" apart behind a 5" wall: not in combat (not visible), but no path reaches a spot
    # within 1/2" that sees the target except round the wall's end - far away.
    tall = "{id: tall, outline: [[11.5, 12], [12.5, 12], [12.5, 32], [11.5, 32]], height: 5, " \
           "kind: obstacle}"
    o = charge_odds(referee(tall, blue_at=(14, 22)), 0, 1)
    assert o.needed is not None and o.needed > 2.74
