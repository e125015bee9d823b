"""Exact skirmish attack odds (rules/skirmish/odds.py), worked out by hand: 2 attackers of
Strike 1 hitting on 4+ roll 2 dice; each die is a standing hit with p = 1/2, or 1/4 when the
defender's cover saves on 4+ (cover 3: a D6 + 3 >= 7)."""

from __future__ import annotations

import pytest

from battlefield.rules import registry
from battlefield.rules.skirmish.odds import attack_odds
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text


def scene(cover: int, toughness: int = 1, defender_at: float = 16) -> str:
    return f"""\
ruleset: skirmish
board: {{width: 36, depth: 36}}
units:
- id: red-1
  side: red
  stats: {{speed: 6, range: 12, strike: 1, hit: 4, damage: 1, toughness: 1, cover: 0}}
  models: [{{base: 25, at: [10, 10]}}, {{base: 25, at: [11.5, 10]}}]
- id: blue-1
  side: blue
  stats: {{speed: 6, range: 1, strike: 1, hit: 4, damage: 1, toughness: {toughness},
          cover: {cover}}}
  models: [{{base: 25, at: [10, {defender_at}]}}, {{base: 25, at: [11.5, {defender_at}]}},
           {{base: 25, at: [13, {defender_at}]}}]
"""


def odds(text: str) -> dict:
    state = Game(registry.get("skirmish"), load_scene_text(text, "s.yaml"), 1).new_state()
    return attack_odds(state, 0, 1)


def test_two_dice_hitting_on_4():
    o = odds(scene(cover=0))
    assert o["dice"] == 2 and o["hit_on"] == 4 and o["sight"] == "full"
    assert o["distribution"] == pytest.approx({"0": 0.25, "1": 0.5, "2": 0.25})
    assert o["models_slain"] == o["distribution"] and o["expected_damage"] == pytest.approx(1)


def test_cover_saves_on_4():
    o = odds(scene(cover=3))
    assert o["distribution"] == pytest.approx({"0": 0.5625, "1": 0.375, "2": 0.0625})


def test_two_wound_models_fall_to_two_hits():
    o = odds(scene(cover=0, toughness=2))
    assert o["distribution"] == pytest.approx({"0": 0.25, "1": 0.5, "2": 0.25})
    assert o["models_slain"] == pytest.approx({"0": 0.75, "1": 0.25})


def test_out_of_range_is_no_attack():
    o = odds(scene(cover=0, defender_at=30))
    assert o["distribution"] == {"0": 1.0} and "out of" in o["reason"]
