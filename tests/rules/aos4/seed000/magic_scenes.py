"""Small scenes for the seed 000 scenario tests of the magic, commands and rounds part: one 32 mm
model a unit unless a test says otherwise (radius 0.629921", so an edge gap is the centre gap
less 1.259843"), and the helpers that play actions on them with fixed dice."""

from __future__ import annotations

from typing import Any

from battlefield.rules.actions import Action
from battlefield.rules.state import State
from battlefield.rules.trial import run
from battlefield.scene.load import load_scene_text

R = 0.629921          # a 32 mm base's radius
GAP = 2 * R           # two 32 mm bases: edge gap = centre gap - GAP


def play(scene: str, *actions: dict[str, Any], dice: tuple[int, ...] = (), seed: int = 1
         ) -> tuple[State, list[dict[str, Any]]]:
    """`battlefield try` on the scene: each action at the moment it belongs to."""
    return run(load_scene_text(scene), [Action.from_dict(a) for a in actions], seed=seed,
               dice=list(dice))


def kinds(result: dict[str, Any]) -> list[str]:
    return [e["type"] for e in result["events"]]


def codes(result: dict[str, Any]) -> list[str]:
    return [v["code"] for v in result["violations"]]


def event(result: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(e for e in result["events"] if e["type"] == kind)
