"""Charging Units on Terrain (seed 000, the charge rule): "If impossible to reach enemy unit
wholly on terrain feature due to space constraints / Charging unit can end within 1/2" of
terrain feature instead / This results in being in combat with enemy units wholly on that
terrain feature."

The tower: a solid piece 3" x 3" (x 20-23, y 20-23), 4" tall. Blue (one 32 mm model, radius
R = 0.629921") stands on it at (21.5, 21.5): its base spans 20.870-22.130 both ways, wholly on
the tower. Red (one 32 mm model) stands on the ground at (15, 21.5).

Why no charge reaches blue, whatever the roll ("due to space"): on the tower a second 32 mm
base needs its centre within 20.630-22.370 both ways and 2R = 1.260" from blue's centre; the
furthest such place, a corner, is 0.870 * sqrt(2) = 1.230" away - no room. On the ground a
base wholly off the tower is at least 20.870 - 20 = 0.870" (horizontally) from blue's base,
more than 1/2"; half on the 4" tower is refused ("cannot end a move mid-climb"). So the charge
may end within 1/2" of the tower instead: red's centre at x <= 20 - 1/2 - R = 18.870079.
"""

from __future__ import annotations

import pytest

from battlefield.rules.aos4 import onto_terrain
from battlefield.rules.aos4.charge import charge_odds
from battlefield.rules.aos4.rules import RULESET
from battlefield.rules.standing import referee
from battlefield.rulings import Referee
from battlefield.scene.load import load_scene_text

from ._moves import R, codes, play

EDGE = 20 - 0.5 - R                 # red's centre when its base is exactly 1/2" from the tower
TOWER = "  - {id: tower, outline: [[20, 20], [23, 20], [23, 23], [20, 23]], height: 4}\n"
# a wide hill 1" tall (crossed freely, stood on): room all round blue
HILL = "  - {id: hill, outline: [[20, 10], [32, 10], [32, 34], [20, 34]], height: 1}\n"
WEAPONS = "weapons: [{name: Axe, range: 0, attacks: 1}, {name: Bow, range: 12, attacks: 1}]"


def tower_scene(red_x: float = 15, phase: str = "charge", onto: bool = False,
                terrain: str = TOWER, blue: tuple[float, float] = (21.5, 21.5)) -> str:
    extra = "  extra: {charged_onto: {red: tower}}\n" if onto else ""
    flags = "{red: {flags: [charged]}}" if onto and phase != "movement" else "{}"
    return f"""ruleset: aos4
board: {{width: 60, depth: 44}}
terrain:
{terrain}units:
  - {{id: red, side: red, stats: {{move: 5, health: 5, save: 4}}, {WEAPONS},
      models: [{{base: 32, at: [{red_x!r}, 21.5]}}]}}
  - {{id: blue, side: blue, stats: {{move: 5, health: 5, save: 4}}, {WEAPONS},
      models: [{{base: 32, at: [{blue[0]!r}, {blue[1]!r}]}}]}}
state:
  round: 1
  phase: {phase}
  active: red
  acting: red
  clock: {{round: 1, turn: 1, active: red, first: red, phase: {phase}, acting: red,
          over: false, underdog: null}}
  sides:
    red: {{cp: 0, vp: 0, commands: [], spells: [], prayers: []}}
    blue: {{cp: 0, vp: 0, commands: [], spells: [], prayers: []}}
  objectives: {{}}
  units: {flags}
{extra}  dice: 1
"""


DECLARE = {"type": "charge", "unit": "red", "target": "blue"}


def move_to(x: float) -> dict:
    return {"type": "charge", "unit": "red", "path": [[x, 21.5]]}


# A roll of 4 (2 + 2) reaches 18.870079 (3.870" from x 15). Exactly 1/2" from the tower: a
# charge, and red is in combat with blue through the tower (1.340" apart horizontally, unseen:
# the tower's 4" hides blue's model from red's). 0.010" further (x 18.860, 0.510" from the
# tower): ended within 1/2" of neither blue nor the tower - refused, naming the tower.
@pytest.mark.parametrize("x, legal", [(EDGE, True), (EDGE - 0.01, False)])
def test_a_charge_onto_the_tower_ends_within_half_an_inch_of_it(x: float, legal: bool) -> None:
    state, (_, r) = play(tower_scene(), DECLARE, move_to(x), dice=[2, 2])
    if not legal:
        assert codes(r) == ["charge_not_reached"]
        assert "nor within 0.5\" of tower (blue wholly on it" in r["violations"][0]["message"]
        assert "0.51\" from it" in r["violations"][0]["message"]
        return
    assert r["legal"], r["violations"]
    onto = [e for e in r["events"] if e["type"] == "charged-onto-terrain"]
    assert onto == [{"type": "charged-onto-terrain", "unit": "red", "terrain": "tower",
                     "in_combat": ["blue"]}]
    assert state.extra[onto_terrain.ONTO] == {"red": "tower"}
    ref = referee(state)
    red, blue = state.unit_index("red"), state.unit_index("blue")
    assert ref.combat[red] == [blue] and ref.through(red, blue) == 0
    assert not ref.sight.unit_sees(red, blue)          # no ordinary combat: unseen
    assert not Referee(state.scene, state.table).combat[red]


# The hill is 12" x 24", 1" tall, blue in its middle at (26, 22): a charge of 26 - 15 - 2R -
# 1/2 = 9.240" ends within 1/2" of blue (room all round), so reaching blue is not impossible
# "due to space" - a roll of 4 that only reaches the hill's edge fails at once (no charge of
# 4" or less ends within 1/2" of blue), and a path to the hill's edge is no charge at all.
def test_a_roll_too_short_is_not_want_of_space() -> None:
    scene = tower_scene(terrain=HILL, blue=(26, 21.5))
    _, (r,) = play(scene, DECLARE, dice=[2, 2])
    assert r["events"][-1]["type"] == "charge-failed", r["events"]
    assert "the shortest needs 9.24\"" in r["events"][-1]["failed"]
    _, (r,) = play(scene, {**DECLARE, "path": [[EDGE, 21.5]]}, dice=[6, 6])
    assert codes(r) == ["charge_not_reached"]
    assert "nor within" not in r["violations"][0]["message"]


# odds --charge: the shortest charge onto the tower is 3.870" (x 15 to 18.870); 2D6 of 4 or
# more: 33/36. Play takes the odds' own path with that roll.
def test_the_odds_of_a_charge_onto_terrain_and_play_agree() -> None:
    text = tower_scene()
    o = charge_odds(RULESET.book, Referee(load_scene_text(text)), 0, 1)
    assert o.onto == 0
    assert o.needed == pytest.approx(EDGE - 15, abs=2e-3)
    assert o.probability == pytest.approx(33 / 36)
    _, (_, r) = play(text, DECLARE, {"type": "charge", "unit": "red",
                                     "path": [list(o.path[-1])]}, dice=[2, 2])
    assert r["legal"], r["violations"]
    # a roll of 3 (1 + 2) reaches neither blue nor the tower: the charge fails at once
    _, (r,) = play(text, DECLARE, dice=[1, 2])
    assert [e["type"] for e in r["events"]][-1] == "charge-failed"


# In combat through the tower, in the combat phase: red fights blue (its Axe at blue 1.340"
# away horizontally, within 3", though unseen): 1 attack, hit 6, wound 6, save 1 -> 1 damage.
# Blue, in combat with red, then fights back the same way.
def test_the_units_fight_each_other_through_the_tower() -> None:
    text = tower_scene(EDGE, phase="combat", onto=True)
    _, (r, b) = play(text, {"type": "fight", "unit": "red", "target": "blue"},
                     {"type": "fight", "unit": "blue", "target": "red", "side": "blue"},
                     dice=[6, 6, 1, 6, 6, 1])
    assert r["legal"] and b["legal"], (r["violations"], b["violations"])
    hits = [(e["attacker"], e["target"], e["models"], e["damage"]) for x in (r, b)
            for e in x["events"] if e["type"] == "attack"]
    assert hits == [("red", "blue", 1, 1), ("blue", "red", 1, 1)]


# Red's next movement phase, still within 1/2" of the tower: in combat, so no normal move and
# no shooting (its Bow has no Shoot in Combat); a retreat to x 14 (blue's base 6.24" away) is
# out of combat, and red's combat through the tower ends with it.
def test_in_combat_through_the_tower_rules_moving_and_shooting() -> None:
    text = tower_scene(EDGE, phase="movement", onto=True)
    _, (r,) = play(text, {"type": "normal-move", "unit": "red", "path": [[14, 21.5]]})
    assert codes(r) == ["in_combat"]
    _, (r,) = play(text, {"type": "shoot", "unit": "red", "target": "blue"})
    assert "in_combat" in codes(r)
    state, (r,) = play(text, {"type": "retreat", "unit": "red", "path": [[14, 21.5]]},
                       dice=[1])
    assert r["legal"], r["violations"]
    assert {"type": "left-terrain-combat", "unit": "red", "terrain": "tower"} in r["events"]
    assert onto_terrain.ONTO not in state.extra
    assert not referee(state).combat[state.unit_index("red")]


# The combat lasts while blue stands wholly on the tower: blue moved half off it (centre x
# 20.5: its base spans 19.870-21.130) is in combat with red no more.
def test_the_combat_ends_when_the_enemy_is_no_longer_wholly_on_the_piece() -> None:
    state = play(tower_scene(EDGE, phase="combat", onto=True))[0]
    red, blue = state.unit_index("red"), state.unit_index("blue")
    assert referee(state).combat[red] == [blue]
    m = state.models_of(blue)
    state.table = state.table.moved(m, m * 0 + 20.5, m * 0 + 21.5)
    ref = referee(state)
    assert not ref.wholly_on(blue, 0) and ref.through(red, blue) is None


# A wall 4" tall: a block x 20-26.2, y 20-22.4 that blue's four models fill (centres x 21.2,
# 22.47, 23.74, 25.01, y 21.2: 0.01" apart, 0.57" from every side of the block: a base beside
# one needs its centre 1.26" from blue's, at most 0.64" along the row and 0.57" across - no
# room), and an arm x 26.2-34, y 20-21, 1" deep: no base stands on it. From the ground blue is
# more than 1/2" away (0.57"). Red (Move 12), linked, stands at (22.47, 19.07), 0.3" from the
# wall. A retreat to (33, 19.07) ends 33 - 25.01 - 2R = 6.73" from blue (out of every combat
# range) but 0.3" from the arm, within 1/2" of the wall: still in combat through it - refused
# (a retreat "cannot end that move within an enemy unit's combat range": it ends out of
# combat). To (33, 18.5), 0.87" from the arm: out of combat, legal.
WALL = ("  - {id: tower, outline: [[20, 20], [34, 20], [34, 21], [26.2, 21], [26.2, 22.4], "
        "[20, 22.4]], height: 4}\n")


@pytest.mark.parametrize("y, legal", [(19.07, False), (18.5, True)])
def test_a_retreat_ends_out_of_combat_through_terrain(y: float, legal: bool) -> None:
    text = tower_scene(22.47, phase="movement", onto=True, terrain=WALL).replace(
        "move: 5, health: 5", "move: 12, health: 5", 1).replace("at: [22.47, 21.5]",
                                                                "at: [22.47, 19.07]")
    blue = ", ".join(f"{{base: 32, at: [{x}, 21.2]}}" for x in (21.2, 22.47, 23.74, 25.01))
    text = text.replace("models: [{base: 32, at: [21.5, 21.5]}]", f"models: [{blue}]")
    state = play(text)[0]
    red, foe = state.unit_index("red"), state.unit_index("blue")
    assert onto_terrain.unreachable(state, red, foe)
    assert referee(state).through(red, foe) == 0
    _, (r,) = play(text, {"type": "retreat", "unit": "red", "path": [[33, y]]}, dice=[1])
    if legal:
        assert r["legal"], r["violations"]
    else:
        assert codes(r) == ["ends_in_combat"]
        assert "through tower" in r["violations"][0]["message"]


# A position naming a piece (or a unit) the scene has not: one line naming the key path.
@pytest.mark.parametrize("onto, said", [("{red: towr}", "charged_onto.red: no terrain piece "
                                                        "'towr' (expected one of tower)"),
                                        ("{redd: tower}", "charged_onto.redd: no unit 'redd'")])
def test_a_bad_charged_onto_in_a_position_is_refused_in_one_line(onto: str, said: str) -> None:
    from battlefield.errors import InputError

    text = tower_scene(EDGE, phase="combat", onto=True).replace("{red: tower}", onto)
    with pytest.raises(InputError) as e:
        play(text)
    assert said in str(e.value) and "\n" not in str(e.value)


# The markers: the replay and play pages' combat pairs, the window's check report (the game as
# it stands) and `check` of the position try --out writes all show red and blue in combat,
# through the tower.
def test_the_pages_the_window_and_check_mark_the_combat_through_the_tower() -> None:
    import yaml

    from battlefield.page.replay import rulings
    from battlefield.rules.standing import scene_now, scene_referee
    from battlefield.rules.trial import scene_after

    state = play(tower_scene(EDGE, phase="combat", onto=True))[0]
    assert rulings(state)["combat"] == [["red", "blue", "red/1", "blue/1"]]
    report = referee(state, scene=scene_now(state)).check_report()
    assert report["units"]["red"]["in_combat_with"] == ["blue"]
    assert [p.get("through") for p in report["pairs"]] == ["tower", "tower"]
    again = load_scene_text(yaml.safe_dump(scene_after(state), sort_keys=False))
    assert scene_referee(again).check_report()["units"]["blue"]["in_combat_with"] == ["red"]
    assert not Referee(again).check_report()["units"]["blue"]["in_combat_with"]
