"""The scene the activated-ability tests share: red (models at `red`) carrying one ability from
the data, blue (models at `blue`); every model a 32 mm base, an Axe in hand, Health `health`."""

from __future__ import annotations

from collections import deque
from typing import Any

import yaml

from battlefield.rules.actions import Action
from battlefield.rules.trial import advance, start
from battlefield.scene.load import load_scene_text

AXE = {"name": "Axe", "range": 0, "attacks": 2, "hit": 4, "wound": 4, "rend": 0, "damage": 1}


def one_ability_scene(name: str, ability: tuple[str, Any, str], red: list[tuple[float, float]],
                      blue: list[tuple[float, float]], health: int = 3) -> str:
    """The scene's text; `ability` is (timing, declare, effect) as the data words them."""
    timing, declare, effect = ability
    unit = {"move": 5, "health": health, "save": 4, "control": 1}
    return yaml.safe_dump({"ruleset": "aos4", "board": {"width": 60, "depth": 44}, "units": [
        {"id": "red", "side": "red", "stats": unit, "weapons": [AXE],
         "abilities": [{"name": name, "kind": "activated", "timing": timing,
                        "declare": declare, "effect": effect}],
         "models": [{"base": 32, "at": list(p)} for p in red]},
        {"id": "blue", "side": "blue", "stats": unit, "weapons": [AXE],
         "models": [{"base": 32, "at": list(p)} for p in blue]}]})


def declared_in(text: str, action: Action, dice=()) -> Any:
    """The game of `text` brought to where `action` (red's ability) may be declared, the dice
    to come fixed: its state."""
    state = start(load_scene_text(text), [action], 1, [])
    advance(state, action)
    state.dice.fixed = deque(dice)
    return state
