"""Each model attacks with its own weapons (a model's `weapons:`), in play and in odds."""

from __future__ import annotations

import pytest

from battlefield.rules.aos4 import attacks as seq
from battlefield.rules.aos4.odds import attack_odds
from battlefield.rules.aos4.weapons import carries, weapon_from, weapons_of_model
from battlefield.rulings import Referee
from battlefield.scene.load import load_scene_text

from .test_abilities import attempt

BOW = "{name: Bow, range: 18, attacks: 1, hit: 4, wound: 4, damage: 1}"
PISTOL = "{name: Pistol, range: 10, attacks: 2, hit: 3, wound: 3, damage: 1}"


def scene(red_models: str, red_weapons: str = f"[{BOW}, {PISTOL}]",
          blue_keywords: str = "[INFANTRY]") -> str:
    return f"""
ruleset: aos4
board: {{width: 60, depth: 44}}
units:
  - id: red
    side: red
    stats: {{move: 5, health: 1, save: 4, control: 1}}
    weapons: {red_weapons}
    models: {red_models}
  - id: blue
    side: blue
    stats: {{move: 5, health: 1, save: 4, control: 1}}
    keywords: {blue_keywords}
    models: [{{base: 32, at: [20, 22]}}, {{base: 32, at: [20, 23.5]}}]
"""


CHAMPION = ("[{base: 32, at: [12, 22], weapons: [Pistol]}, "
            "{base: 32, at: [12, 23.5], weapons: [Bow]}, {base: 32, at: [12, 25]}]")


# --- each model its own weapons -------------------------------------------------------------
def test_a_model_carries_what_it_names_or_all():
    unit = load_scene_text(scene(CHAMPION)).units[0]
    assert [carries(unit, k, "Pistol") for k in range(3)] == [True, False, True]
    assert [w.name for w in weapons_of_model(unit, 1)] == ["Bow"]
    assert [w.name for w in weapons_of_model(unit, 2)] == ["Bow", "Pistol"]
    assert [w["name"] for w in unit.model_weapons(0)] == ["Pistol"]


def test_odds_count_only_the_models_that_carry_each_weapon():
    o = attack_odds(Referee(load_scene_text(scene(CHAMPION))), 0, 1)
    assert o.attackers == {"Bow": ["red/2", "red/3"], "Pistol": ["red/1", "red/3"]}
    bow = seq.volley_dist(weapon_from({"name": "Bow", "range": 18}), 2, 4, seq.Modifiers())
    pistol = seq.volley_dist(weapon_from({"name": "Pistol", "range": 10, "attacks": 2,
                                          "hit": 3, "wound": 3}), 2, 4, seq.Modifiers())
    whole = seq.capped(seq._conv(bow, pistol), 2)
    assert o.expected_damage == pytest.approx(seq.mean(whole))


def test_in_play_each_weapon_is_rolled_by_its_carriers():
    # Bow: 2 carriers, 1 attack each; Pistol: 2 carriers, 2 attacks each.
    _, (r,) = attempt(scene(CHAMPION), {"type": "shoot", "unit": "red", "target": "blue",
                                        "all_out_defence": False},
                      dice=[1, 1, 1, 1, 1, 1])
    volleys = {e["weapon"]: (e["models"], e["attacks"]) for e in r["events"]
               if e["type"] == "attack"}
    assert volleys == {"Bow": (2, 2), "Pistol": (2, 4)}


def test_a_scene_without_model_weapons_attacks_with_everything():
    plain = "[{base: 32, at: [12, 22]}, {base: 32, at: [12, 23.5]}, {base: 32, at: [12, 25]}]"
    o = attack_odds(Referee(load_scene_text(scene(plain))), 0, 1)
    assert o.attackers == {"Bow": ["red/1", "red/2", "red/3"],
                           "Pistol": ["red/1", "red/2", "red/3"]}
