"""Small warband scenes for the scenario tests, written as YAML and played through `try`'s
machinery (battlefield.rules.trial.run). 25 mm bases: radius 0.492126", so two fighters whose
centres are 2R + d apart stand d" apart."""

from __future__ import annotations

from typing import Any

import yaml

from battlefield.rules.actions import Action
from battlefield.rules.trial import run
from battlefield.scene.load import load_scene_text

R = 25 / 25.4 / 2
BLADE = {"name": "Blade", "type": "melee", "range": 1, "attacks": 3, "strength": 4,
         "damage": 1, "crit": 3}
BOW = {"name": "Bow", "type": "ranged", "range": 12, "attacks": 2, "strength": 3,
       "damage": 1, "crit": 2}
# Red: 4 singles and a [double] of 6s; blue: 2 singles and a [quad] of 5s; red has the initiative.
DICE = {"red": [1, 2, 3, 4, 6, 6], "blue": [5, 5, 5, 5, 2, 3]}


def fighter(uid: str, side: str, x: float, y: float, *weapons: dict, z: float | None = None,
            move: float = 4, defense: int = 4, wounds: int = 10, **extra: Any
            ) -> dict[str, Any]:
    model: dict[str, Any] = {"base": 25, "at": [float(x), float(y)]}
    if z is not None:
        model["z"] = z
    return {"id": uid, "side": side, "stats": {"move": move, "defense": defense,
                                               "wounds": wounds},
            "weapons": list(weapons or [BLADE]), **extra, "models": [model]}


def piece(pid: str, x0: float, y0: float, x1: float, y1: float, height: float,
          kind: str = "solid") -> dict[str, Any]:
    return {"id": pid, "outline": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], "height": height,
            "kind": kind}


def scene(*units: dict, terrain: tuple = (), objectives: tuple = (),
          state: dict | None = None) -> str:
    data: dict[str, Any] = {"ruleset": "warband", "board": {"width": 30, "depth": 22},
                            "terrain": list(terrain), "objectives": list(objectives)}
    data["state"] = {"initiative": DICE} if state is None else state
    data["units"] = list(units)
    return yaml.safe_dump(data, sort_keys=False)


def attempt(text: str, *actions: dict, dice=(), seed: int = 1):
    return run(load_scene_text(text), [Action.from_dict(a) for a in actions], seed=seed,
               dice=list(dice))


def codes(result: dict) -> list[str]:
    return [v["code"] for v in result["violations"]]


def message(result: dict) -> str:
    return "; ".join(f"{v['code']}: {v['message']}" for v in result["violations"])


def of_type(result: dict, kind: str) -> list[dict]:
    return [e for e in result["events"] if e["type"] == kind]
