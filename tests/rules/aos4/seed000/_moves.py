"""Scenes and plays shared by the moves scenario tests (i32b)."""

from __future__ import annotations

from typing import Any

from battlefield.rules.actions import Action
from battlefield.rules.state import State
from battlefield.rules.trial import run
from battlefield.scene.load import load_scene_text

R = 32 / 25.4 / 2            # a 32 mm base's radius in inches
GAP = 2 * R                  # centre gap minus edge gap of two 32 mm bases


def unit(uid: str, side: str, *at: tuple[float, float], move: str | float = 5,
         health: int = 1) -> str:
    models = ", ".join(f"{{base: 32, at: [{x!r}, {y!r}]}}" for x, y in at)
    return (f"  - {{id: {uid}, side: {side}, stats: {{move: {move}, health: {health}, "
            f"save: 4}}, weapons: [{{name: Bow, range: 30, attacks: 1}}], "
            f"models: [{models}]}}\n")


def scene(units: str, terrain: str = "") -> str:
    return ("ruleset: aos4\nboard: {width: 60, depth: 44}\n"
            + (f"terrain:\n{terrain}" if terrain else "") + "units:\n" + units)


def play(text: str, *actions: dict[str, Any], dice: list[int] | None = None
         ) -> tuple[State, list[dict[str, Any]]]:
    return run(load_scene_text(text), [Action.from_dict(a) for a in actions], seed=1,
               dice=dice)


def codes(result: dict[str, Any]) -> list[str]:
    return [x["code"] for x in result["violations"]]


def at(state: State, model: str) -> tuple[float, float]:
    m = state.scene.model_names.index(model)
    return float(state.table.x[m]), float(state.table.y[m])
