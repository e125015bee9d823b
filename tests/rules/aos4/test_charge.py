"""Charge distance and odds, each worked out by hand (32 mm bases: radius 0.629921")."""

import math

import pytest

from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.aos4.charge import charge_odds
from battlefield.rules.aos4.rules import RULESET
from battlefield.rules.choices import usable
from battlefield.rules.state import Game
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
    o = charge_odds(RULESET.book, referee(), 0, 1)
    assert o.needed == pytest.approx(6 - 2 * R - 0.5, abs=1e-6)
    assert o.probability == pytest.approx(30 / 36)
    assert o.probability_reroll == pytest.approx(1 - (6 / 36) ** 2)


def test_round_an_impassable_rock():
    # Rock x 14..16, y 16..28 between (10, 22) and (20, 22). The base's centre keeps r from the
    # rock: tangent from the start to the circle of radius r round corner (14, 28), arc over it,
    # 2" along the top, arc round (16, 28), tangent towards the target until 2r + 1/2 from it.
    rock = "{id: rock, outline: [[14, 16], [16, 16], [16, 28], [14, 28]], height: 4, " \
           "kind: impassable}"
    o = charge_odds(RULESET.book, referee(rock, blue_at=(20, 22)), 0, 1)
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
    o = charge_odds(RULESET.book, referee(WALL), 0, 1)
    assert o.needed == pytest.approx(6 - 2 * R - 0.5 + 4, abs=1e-6)
    assert o.probability == pytest.approx(10 / 36)


def test_fly_ignores_the_wall():
    o = charge_odds(RULESET.book, referee(WALL, red_kw="keywords: [FLY],"), 0, 1)
    assert o.needed == pytest.approx(6 - 2 * R - 0.5, abs=1e-6)


def test_no_charge_from_combat():
    # 1.74" apart, visible: in combat
    o = charge_odds(RULESET.book, referee(blue_at=(13, 22)), 0, 1)
    assert o.needed is None and o.probability == 0.0 and "in combat" in o.reason


def test_already_close_but_hidden_is_not_combat():
    # 2.74" apart behind a 5" wall: not in combat (not visible), but no path reaches a spot
    # within 1/2" that sees the target except round the wall's end - far away.
    tall = "{id: tall, outline: [[11.5, 12], [12.5, 12], [12.5, 32], [11.5, 32]], height: 5, " \
           "kind: obstacle}"
    o = charge_odds(RULESET.book, referee(tall, blue_at=(14, 22)), 0, 1)
    assert o.needed is not None and o.needed > 2.74


# --- whole bases (issue 21) --------------------------------------------------------------------
# A 5" tower whose wall runs 0.62" beside the straight line from red (10, 22) to blue (20, 22):
# 0.0099" of a 32 mm base going straight would be over it.
TOWER = "{id: tower, outline: [[13, 22.62], [16, 22.62], [16, 30], [13, 30]], height: 5, " \
        "kind: obstacle}"
PLAY = """
ruleset: aos4
board: {{width: 60, depth: 44}}
terrain: [{terrain}]
units:
  - id: red
    side: red
    stats: {{move: 5, health: 1, save: 4, control: 1}}
    weapons: [{{name: blade, attacks: 2, hit: 3, wound: 3, damage: 1}}]
    models: [{{base: 32, at: [10, 22]}}]
  - id: blue
    side: blue
    stats: {{move: 5, health: 1, save: 4, control: 1}}
    weapons: [{{name: blade, attacks: 2, hit: 3, wound: 3, damage: 1}}]
    models: [{{base: 32, at: [20, 22]}}]
"""


def played_charge(path, dice, terrain: str = TOWER) -> dict:
    from battlefield.rules.actions import Action
    from battlefield.rules.trial import run

    action = {"type": "charge", "unit": "red", "target": "blue",
              "path": [list(p) for p in path]}
    _, (r,) = run(load_scene_text(PLAY.format(terrain=terrain)), [Action.from_dict(action)],
                  seed=1, dice=list(dice))
    return r


def measured(r: dict) -> float:
    """The distance play measured the charge's path at: the roll it needed, or the length it
    refused as longer than 2D6 can roll."""
    for e in r["events"]:
        if e["type"] == "charge-roll":
            return e["needed"]
    (too_far,) = [v for v in r["violations"] if v["code"] == "move_too_far"]
    return too_far["moved"]


def test_a_base_grazing_a_tower_climbs_it_in_play():
    # Straight at 0.62" from the tower: 8.240157" of ground, and the base goes over the
    # tower: 5" up and 5" down: 18.240157", more than 2D6 can roll.
    end = 20 - 2 * R - 0.5
    r = played_charge([(10, 22), (end, 22)], [6, 6])
    assert not r["legal"]
    assert "moves 18.24\" (climbing 10.00\"), more than 12\"" in r["violations"][0]["message"]
    assert measured(r) == pytest.approx(end - 10 + 10, abs=1e-6)


def test_the_charge_odds_step_round_a_tower_and_play_agrees():
    # Going round: the path turns 0.01" outside a polygon enclosing the tower's wall grown by
    # R (15 deg arcs): 0.04" off the straight line, a few ten-thousandths longer than 8.240157".
    o = charge_odds(RULESET.book, referee(TOWER, blue_at=(20, 22)), 0, 1)
    straight = 10 - 2 * R - 0.5
    assert straight < o.needed < straight + 1e-3
    assert min(y for _, y in o.path) < 22 - 0.03
    assert o.probability == pytest.approx(10 / 36)         # 8.24" needs 9+ on 2D6
    # Play measures the odds' own path the same: the roll needed is the distance needed.
    r = played_charge(o.path, [4, 5])
    assert r["legal"], r["violations"]
    assert measured(r) == pytest.approx(o.needed, abs=1e-6)
    assert any(e["type"] == "charged" for e in r["events"])


def test_the_charge_odds_climb_when_round_is_dearer_and_play_agrees():
    # The 2" wall across the table (x 12..12.5): whole bases climb it as centres did, 4" more
    # (12.24", beyond 2D6: play refuses the path at the same length).
    o = charge_odds(RULESET.book, referee(WALL, blue_at=(20, 22)), 0, 1)
    r = played_charge(o.path, [6, 6], terrain=WALL)
    assert measured(r) == pytest.approx(o.needed, abs=1e-6)
    assert o.needed == pytest.approx(10 - 2 * R - 0.5 + 4, abs=1e-6)


def _charge_phase(scene_text: str):
    state = Game(registry.get("aos4"), load_scene_text(scene_text), 1).new_state()
    state.apply(Action("go-first", side="red"))       # red, set up first, takes the first turn
    while state.phase != "charge":
        state.apply(Action("end-phase"))
    return state


def _two(terrain: str = "", blue_at=(16, 22)) -> str:
    return f"""
ruleset: aos4
board: {{width: 60, depth: 44}}
terrain: [{terrain}]
units:
  - {{id: red, side: red, stats: {{move: 5, health: 1, save: 4, control: 1}},
     weapons: [{{name: blade, attacks: 1, hit: 4, wound: 4, damage: 1}}],
     models: [{{base: 32, at: [10, 22]}}]}}
  - {{id: blue, side: blue, stats: {{move: 5, health: 1, save: 4, control: 1}},
     weapons: [{{name: blade, attacks: 1, hit: 4, wound: 4, damage: 1}}],
     models: [{{base: 32, at: [{blue_at[0]}, {blue_at[1]}]}}]}}
"""


def test_a_charge_given_no_path_says_whether_any_roll_can_reach():
    """Asked with no path (the window asks so, to know a charge phase has nothing to decide):
    6" apart in the open needs 4.24" (test_open_ground): a legal declaration (the seed's order:
    the roll first, then the move answers it); 30"
    apart no roll reaches (the gap); round the rock of test_round_an_impassable_rock the
    straight gap is 10 - 2r = 8.74" but the shortest legal path needs 15.96": no path of 12"
    or less ends in reach. A path given is ruled by the path, as always."""
    near = _charge_phase(_two())
    assert near.check(Action("charge", unit="red", target="blue")) == []
    assert usable(near, "charge")
    far = _charge_phase(_two(blue_at=(40, 22)))
    [bad] = far.check(Action("charge", unit="red", target="blue"))
    assert bad.code == "out_of_charge_range" and "no charge roll reaches it" in bad.message
    assert not usable(far, "charge")
    rock = "{id: rock, outline: [[14, 16], [16, 16], [16, 28], [14, 28]], height: 4, " \
           "kind: impassable}"
    round_it = _charge_phase(_two(rock, blue_at=(20, 22)))
    [bad] = round_it.check(Action("charge", unit="red", target="blue"))
    assert bad.code == "out_of_charge_range"
    assert "no legal path of 12\" or less ends within 1/2\" of a visible model" in bad.message
    assert not usable(round_it, "charge")
    given = far.check(Action("charge", unit="red", target="blue", path=[[10, 22], [22, 22]]))
    assert "out_of_charge_range" not in {x.code for x in given}
