"""aos4 abilities through `try`'s machinery: each rule's check, then its effect, on small scenes
whose answers are worked out by hand (32 mm bases: radius 0.629921")."""

from __future__ import annotations

import pytest

from battlefield.rules.actions import Action
from battlefield.rules.trial import run
from battlefield.scene.load import load_scene_text

R = 32 / 25.4 / 2
BLADE = "{name: blade, attacks: 2, hit: 3, wound: 3, rend: 1, damage: 1}"
BOW = "{name: bow, range: 18, attacks: 1, hit: 4, wound: 4, damage: 1}"


def scene(extra_units: str = "", terrain: str = "", red_at=(10, 22), blue_at=(20, 22)) -> str:
    return f"""
ruleset: aos4
board: {{width: 60, depth: 44}}
terrain: [{terrain}]
objectives: [{{id: centre, at: [30, 22]}}]
units:
  - id: red
    side: red
    stats: {{move: 5, health: 1, save: 4, control: 1}}
    weapons: [{BOW}, {BLADE}]
    models:
      - {{base: 32, at: [{red_at[0]}, {red_at[1]}]}}
      - {{base: 32, at: [{red_at[0]}, {red_at[1] + 1.5}]}}
  - id: blue
    side: blue
    stats: {{move: 5, health: 1, save: 4, control: 1}}
    weapons: [{BLADE}]
    models:
      - {{base: 32, at: [{blue_at[0]}, {blue_at[1]}]}}
      - {{base: 32, at: [{blue_at[0]}, {blue_at[1] + 1.5}]}}
{extra_units}
"""


def attempt(text: str, *actions: dict, dice=()):
    state, results = run(load_scene_text(text), [Action.from_dict(a) for a in actions],
                         seed=1, dice=list(dice))
    return state, results


def codes(result) -> list[str]:
    return [v["code"] for v in result["violations"]]


def test_normal_move_within_move_characteristic():
    _, (ok, far) = attempt(scene(), {"type": "normal-move", "unit": "red",
                                     "path": [[10, 22], [15, 22]]},
                           {"type": "normal-move", "unit": "red", "path": [[15, 22], [16, 22]]})
    assert ok["legal"]
    assert codes(far) == ["rules_of_one"]


def test_move_too_far_names_the_numbers():
    _, (r,) = attempt(scene(), {"type": "normal-move", "unit": "red",
                                "path": [[10, 22], [15.5, 22]]})
    assert codes(r)[0] == "move_too_far"
    assert r["violations"][0]["moved"] == pytest.approx(5.5)
    assert r["violations"][0]["allowed"] == 5


def test_normal_move_may_not_enter_combat():
    # Blue at x 19.3: ending at x 15 leaves 4.3 - 2r = 3.04" - legal; at x 17 (blue at 20.3,
    # a 5" move) the gap would be 3.3 - 2r = 2.04": into combat.
    _, (ok,) = attempt(scene(blue_at=(19.3, 22)), {"type": "normal-move", "unit": "red",
                                                   "path": [[10, 22], [15, 22]]})
    assert ok["legal"]
    _, (bad,) = attempt(scene(blue_at=(18.3, 22)), {"type": "normal-move", "unit": "red",
                                                    "path": [[10, 22], [15, 22]]})
    assert "moves_into_combat" in codes(bad)


def test_coherency_after_a_move():
    _, (r,) = attempt(scene(), {"type": "normal-move", "unit": "red",
                                "paths": {"1": [[10, 22], [10, 19]]}})
    assert "coherency" in codes(r)


def test_through_models_and_onto_models():
    _, (r,) = attempt(scene(blue_at=(13, 10)), {"type": "normal-move", "unit": "red",
                                                "paths": {"2": [[10, 23.5], [10, 21]]}})
    # Model 2 (10, 23.5) moves to (10, 21) across model 1 (10, 22) of its own unit: a unit's
    # own models are not in its way (only other units' models and impassable terrain are), so
    # nothing is moved through; but it ends 1" from model 1's centre, 2r - 1 = 0.26" onto its
    # base. Both still touch: the unit stays coherent.
    assert codes(r) == ["on_another_model"]


def test_run_uses_the_roll_and_stops_short():
    # Run roll 1: 5 + 1 = 6" allowed, the path is 8": the unit does not move. Roll 4: 9".
    far = scene(blue_at=(40, 22))
    state, (r,) = attempt(far, {"type": "run", "unit": "red",
                                "path": [[10, 22], [18, 22]]}, dice=[1])
    assert r["legal"]
    assert any(e["type"] == "run-short" for e in r["events"])
    assert state.table.x[0] == pytest.approx(10)
    state, (r,) = attempt(far, {"type": "run", "unit": "red",
                                "path": [[10, 22], [18, 22]]}, dice=[4])
    assert any(e["type"] == "moved" for e in r["events"])
    assert state.table.x[0] == pytest.approx(18)


def test_at_the_double_costs_a_command_point():
    state, (r,) = attempt(scene(blue_at=(40, 22)), {"type": "run", "unit": "red",
                                                    "command": "at-the-double",
                                                    "path": [[10, 22], [21, 22]]})
    assert r["legal"] and state.sides["red"]["cp"] == 3
    assert not r["rolls"]


def test_charge_needs_the_roll():
    # 10" between centres: path to 1/2" of blue is 10 - 2r - 0.5 = 8.24".
    end = 20 - 2 * R - 0.5 + 0.001
    state, (r,) = attempt(scene(), {"type": "charge", "unit": "red", "target": "blue",
                                    "path": [[10, 22], [end, 22]]}, dice=[4, 4])
    assert r["legal"] and any(e["type"] == "charge-failed" for e in r["events"])
    state, (r,) = attempt(scene(), {"type": "charge", "unit": "red", "target": "blue",
                                    "path": [[10, 22], [end, 22]]}, dice=[5, 4])
    assert any(e["type"] == "charged" for e in r["events"])


def test_forward_to_victory_rerolls_a_failed_charge():
    end = 20 - 2 * R - 0.5 + 0.001
    state, (r,) = attempt(scene(), {"type": "charge", "unit": "red", "target": "blue",
                                    "command": "forward-to-victory",
                                    "path": [[10, 22], [end, 22]]}, dice=[1, 1, 6, 6])
    assert any(e["type"] == "charged" for e in r["events"])
    assert state.sides["red"]["cp"] == 3


def test_charge_must_end_near_the_target():
    _, (r,) = attempt(scene(), {"type": "charge", "unit": "red", "target": "blue",
                                "path": [[10, 22], [15, 22]]})
    assert codes(r) == ["charge_not_reached"]


def test_shooting_rolls_hit_wound_save():
    state, (r,) = attempt(scene(), {"type": "shoot", "unit": "red", "target": "blue"},
                          dice=[6, 6, 6, 6, 1, 1])
    attack = next(e for e in r["events"] if e["type"] == "attack")
    assert attack["attacks"] == 2 and attack["hits"] == 2 and attack["wounds"] == 2
    assert attack["unsaved"] == 2 and attack["damage"] == 2
    slain = next(e for e in r["events"] if e["type"] == "slain")
    assert len(slain["models"]) == 2
    assert not len(state.models_of(1))


def test_cannot_shoot_after_running():
    _, (run_, shoot) = attempt(scene(), {"type": "run", "unit": "red",
                                         "path": [[10, 22], [11, 22]]},
                               {"type": "shoot", "unit": "red", "target": "blue"})
    assert run_["legal"] and codes(shoot) == ["ran_or_retreated"]


def test_obscuring_terrain_stops_shooting():
    ruin = ("{id: ruin, outline: [[18, 20], [22, 20], [22, 25], [18, 25]], height: 0.5, "
            "kind: obscuring}")
    _, (r,) = attempt(scene(terrain=ruin), {"type": "shoot", "unit": "red", "target": "blue"})
    assert codes(r) == ["obscured"]


def test_phase_order_within_a_turn():
    _, (shoot, move) = attempt(scene(), {"type": "shoot", "unit": "red", "target": "blue"},
                               {"type": "normal-move", "unit": "red",
                                "path": [[10, 22], [11, 22]]})
    assert shoot["legal"] and codes(move) == ["phase_passed"]


def test_retreat_takes_mortal_damage_and_leaves_combat_range():
    text = scene(blue_at=(12.5, 22))
    _, (stay,) = attempt(text, {"type": "retreat", "unit": "red",
                                "path": [[10, 22], [9, 22]]})
    assert codes(stay) == ["ends_in_combat_range"]
    state, (r,) = attempt(text, {"type": "retreat", "unit": "red",
                                 "path": [[10, 22], [5.5, 22]]}, dice=[1])
    assert r["legal"]
    assert any(e["type"] == "mortal-damage" for e in r["events"])


def test_fight_in_combat():
    state, (r,) = attempt(scene(blue_at=(11.5, 22)), {"type": "fight", "unit": "red",
                                                       "target": "blue"})
    assert r["legal"]
    assert any(e["type"] == "attack" and e["weapon"] == "blade" for e in r["events"])


def test_unknown_ability_lists_the_valid_ones():
    _, (r,) = attempt(scene(), {"type": "teleport", "unit": "red"})
    assert codes(r) == ["unknown_action"] and "normal-move" in r["violations"][0]["message"]


def test_commands_need_command_points():
    text = scene().replace("units:", "state: {command_points: {red: 0}}\nunits:", 1)
    _, (r,) = attempt(text, {"type": "run", "unit": "red", "command": "at-the-double",
                             "path": [[10, 22], [15, 22]]})
    assert codes(r) == ["command_points"]


def enemy_turn(text: str) -> str:
    return text.replace("units:", "state: {active: blue}\nunits:", 1)


def test_redeploy_in_the_enemy_movement_phase():
    text = enemy_turn(scene(blue_at=(40, 22)))
    state, (r,) = attempt(text, {"type": "redeploy", "unit": "red",
                                 "path": [[10, 22], [12, 22]]}, dice=[3])
    assert r["legal"] and state.table.x[0] == pytest.approx(12)
    assert state.sides["red"]["cp"] == 3
    _, (r,) = attempt(text, {"type": "redeploy", "unit": "red", "path": [[10, 22], [15, 22]]},
                      dice=[3])
    assert any(e["type"] == "redeploy-short" for e in r["events"])


def test_covering_fire_at_the_closest_target_minus_one():
    extra = """  - {id: blue-far, side: blue, stats: {move: 5, save: 4, health: 1},
     models: [{base: 32, at: [24, 22]}]}"""
    text = enemy_turn(scene(extra_units=extra))
    _, (far,) = attempt(text, {"type": "covering-fire", "unit": "red", "target": "blue-far"})
    assert [v["code"] for v in far["violations"]] == ["not_closest"]
    # Hit rolls of 4 miss at -1 (4+ to hit): no wounds.
    _, (r,) = attempt(text, {"type": "covering-fire", "unit": "red"}, dice=[4, 4])
    attack = next(e for e in r["events"] if e["type"] == "attack")
    assert attack["target"] == "blue" and attack["hits"] == 0


def test_counter_charge_costs_two():
    end = 20 - 2 * R - 0.5 + 0.001
    text = enemy_turn(scene())
    state, (r,) = attempt(text, {"type": "counter-charge", "unit": "red", "target": "blue",
                                 "path": [[10, 22], [end, 22]]}, dice=[6, 6])
    assert any(e["type"] == "charged" for e in r["events"])
    assert state.sides["red"]["cp"] == 2


def test_pile_in_no_further_and_stays_in_combat():
    text = scene(blue_at=(13, 22))           # 1.74" apart, in combat
    _, (back,) = attempt(text, {"type": "fight", "unit": "red", "target": "blue",
                                "path": [[10, 22], [9, 22]]})
    assert "pile_in_further" in [v["code"] for v in back["violations"]]
    state, (r,) = attempt(text, {"type": "fight", "unit": "red", "target": "blue",
                                 "path": [[10, 22], [11, 22]]})
    assert r["legal"] and state.table.x[0] == pytest.approx(11)


def test_strike_first_fights_first():
    # blue has STRIKE-FIRST: red (the active side) cannot pick its unit before blue's fights.
    text = scene(blue_at=(13, 22)).replace(
        "id: blue\n    side: blue\n", "id: blue\n    side: blue\n    keywords: [STRIKE-FIRST]\n", 1)
    state, (r, b) = attempt(text, {"type": "fight", "unit": "red", "target": "blue"},
                            {"type": "fight", "unit": "blue", "target": "red"})
    assert not r["legal"]
    assert b["legal"]


def test_rally_heals_and_needs_to_be_out_of_combat():
    _, (r,) = attempt(scene(blue_at=(13, 22)), {"type": "rally", "unit": "red"})
    assert [v["code"] for v in r["violations"]] == ["in_combat"]
    state, (r,) = attempt(scene(), {"type": "rally", "unit": "red"}, dice=[4, 4, 1, 1, 1, 1])
    rally = next(e for e in r["events"] if e["type"] == "rally")
    assert r["legal"] and rally["rolls"] == [4, 4, 1, 1, 1, 1]
    assert state.sides["red"]["cp"] == 3


def test_power_through_needs_a_charge():
    _, (r,) = attempt(scene(), {"type": "power-through", "unit": "red", "target": "blue"})
    assert [v["code"] for v in r["violations"]] == ["not_charged"]


def test_place_of_power_needs_a_hero_within_three_inches():
    pop = "{id: stone, outline: [[12, 20], [13, 20], [13, 21], [12, 21]], height: 0.5, " \
          "kind: place-of-power}"
    _, (r,) = attempt(scene(terrain=pop), {"type": "activate-place-of-power", "unit": "red"})
    assert [v["code"] for v in r["violations"]] == ["not_a_hero"]
    text = scene(terrain=pop).replace("    weapons: [{name: bow", "    keywords: [HERO]\n"
                                      "    weapons: [{name: bow", 1)
    state, (r,) = attempt(text, {"type": "activate-place-of-power", "unit": "red"}, dice=[5])
    # Neither WIZARD nor PRIEST: it unbinds this turn as if it had WIZARD (1), no +1 to cast.
    assert r["legal"] and state.units[0].flags == {"wizard-1"}
