"""A weapon a real list gives a ranged and a melee profile of one name (Beasts of Chaos
Centigors' Gutpiercer Spear: an 8" throw and a melee spear, one upgrade): the import writes
both, and odds for that weapon by name are the odds of the profile the attack uses - the
melee one in combat, the ranged one out of it - never both rolled as one attack."""

from __future__ import annotations

import json

import pytest

from battlefield.cli.main import main

# the two profiles as `army import` writes the upgrade (ranged first, as the list gives them)
THROW = "{name: Gutpiercer Spear, range: 8, attacks: 1, hit: 4, wound: 3, rend: 1, damage: 1}"
STAB = "{name: Gutpiercer Spear, attacks: 3, hit: 4, wound: 3, rend: 1, damage: 1}"


def scene(tmp_path, blue_x: float, first: str = THROW, second: str = STAB):
    path = tmp_path / "centigors.yaml"
    path.write_text(f"""
ruleset: aos4
board: {{width: 60, depth: 44}}
units:
  - id: red-centigors
    side: red
    stats: {{move: 10, health: 2, save: 5, control: 1}}
    weapons: [{first}, {second}]
    models: [{{base: 32, at: [12, 22]}}, {{base: 32, at: [12, 23.5]}}]
  - id: blue
    side: blue
    stats: {{move: 5, health: 1, save: 4, control: 1}}
    models: [{{base: 32, at: [{blue_x}, 22]}}, {{base: 32, at: [{blue_x}, 23.5]}}]
""")
    return path


def odds(path, capsys, *more: str) -> dict:
    capsys.readouterr()
    assert main(["odds", str(path), "--attack", "red-centigors", "blue", "--json", *more]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("order", ["ranged first", "melee first"])
@pytest.mark.parametrize("blue_x, kind", [(13.5, "combat"), (17, "shooting")])
def test_odds_by_name_are_the_profile_the_attack_uses(tmp_path, capsys, order, blue_x, kind):
    first, second = (THROW, STAB) if order == "ranged first" else (STAB, THROW)
    path = scene(tmp_path, blue_x, first, second)
    plain = odds(path, capsys)
    named = odds(path, capsys, "--weapon", "Gutpiercer Spear")
    assert plain["kind"] == named["kind"] == kind
    assert named["expected_damage"] == pytest.approx(plain["expected_damage"])
    assert named["distribution"] == plain["distribution"]
    assert named["attackers"] == {"Gutpiercer Spear": ["red-centigors/1", "red-centigors/2"]}
    assert not named.get("reason")


def test_in_combat_shooting_by_name_asks_the_ranged_profile(tmp_path, capsys):
    named = odds(scene(tmp_path, 13.5), capsys, "--weapon", "Gutpiercer Spear", "--shooting")
    assert named["kind"] == "shooting"
    assert named["expected_damage"] == 0
    assert "cannot shoot" in named["reason"]
