"""warband's normal player plays for the objectives (rules/warband/normal.py): a fighter far
from every enemy Rushes towards the nearest objective its side does not hold and walks there,
a fighter its side needs on an objective stays, and the easy player marches on the enemy."""

from __future__ import annotations

import math

from battlefield.rules import registry
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text

from ._scene import fighter, scene

NORTH = {"id": "north", "at": [15, 19.5]}


def _state(text: str):
    return Game(registry.get("warband"), load_scene_text(text), 1).new_state()


def _own_choice(state, player):
    """The player's first action with a fighter (who goes first said before it)."""
    action = player.choose(state)
    while action.unit is None:
        state.apply(action)
        action = player.choose(state)
    return action


def _far_apart(**extra) -> str:
    return scene(fighter("red-a", "red", 3, 12, move=4, **extra),
                 fighter("blue-a", "blue", 27, 3), objectives=(NORTH,))


def test_normal_rushes_then_walks_to_the_objective_not_the_enemy():
    state = _state(_far_apart())
    player = registry.get("warband").player("normal")
    first = _own_choice(state, player)
    assert first.type == "rush" and not state.check(first)
    state.apply(first)
    move = player.choose(state)
    assert move.type == "move" and not state.check(move)
    start, end = move.path[0], move.path[-1]
    gained = math.dist(start, NORTH["at"]) - math.dist(end, NORTH["at"])
    assert gained > 4.5                            # Move 4, +1 for the Rush
    easy = _own_choice(_state(_far_apart()), registry.get("warband").player("easy"))
    assert easy.type == "move"
    assert math.dist(easy.path[-1], (27, 3)) < math.dist(easy.path[0], (27, 3))


def test_its_own_farther_leap_before_the_rush():
    leap = [{"id": "leap", "name": "Leap", "cost": "double", "effects": {"move": 2}}]
    state = _state(_far_apart(abilities=leap))
    first = _own_choice(state, registry.get("warband").player("normal"))
    assert first.type == "leap" and not state.check(first)


def test_a_fighter_its_side_needs_on_an_objective_stays():
    text = scene(fighter("red-a", "red", 15, 18.5), fighter("blue-a", "blue", 27, 3),
                 objectives=(NORTH,))
    state = _state(text)
    action = _own_choice(state, registry.get("warband").player("normal"))
    assert action.type == "wait" and action.unit == "red-a" and not state.check(action)
