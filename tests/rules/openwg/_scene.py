"""Small openwg scenes for the scenario tables, written as YAML and played through `try`'s
machinery. 25 mm bases: radius 0.492126"; models in a row 1.2" apart are coherent."""

from __future__ import annotations

from typing import Any

import yaml

from battlefield.rules.actions import Action
from battlefield.rules.trial import run
from battlefield.scene.load import load_scene_text

R = 25 / 25.4 / 2
GAP_MELEE = 2 * R + 0.5            # centres of two 25 mm bases 0.5" apart
STATS = {"move": 5, "bravery": 7, "armor": 2, "health": 1}
MELEE = {"name": "Blade", "type": "melee", "range": 1, "damage": 1, "precision": 3, "pierce": 0}


def row(x: float, y: float, n: int = 3, step: float = 1.2) -> list[tuple[float, float]]:
    return [(x + k * step, y) for k in range(n)]


def unit(uid: str, side: str, at: list[tuple[float, float]], stats: dict | None = None,
         weapons: list[dict] | None = None, specials: list[dict] | None = None,
         **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": uid, "side": side}
    if "build" not in extra:
        out["stats"] = {**STATS, **(stats or {})}
        out["weapons"] = weapons if weapons is not None else [MELEE]
    if specials:
        out["specials"] = specials
    out.update(extra)
    out["models"] = [{"base": 25, "at": [float(x), float(y)]} for x, y in at]
    return out


def scene(*units: dict, state: dict | None = None, board: float = 48,
          objectives: tuple = ()) -> str:
    data: dict[str, Any] = {"ruleset": "openwg", "board": {"width": board, "depth": board},
                            "objectives": list(objectives)}
    if state:
        data["state"] = state
    data["units"] = list(units)
    return yaml.safe_dump(data, sort_keys=False)


def load(text: str):
    return load_scene_text(text, "scene.yaml")


def attempt(text: str, *actions: dict, dice=(), seed: int = 1):
    return run(load(text), [Action.from_dict(a) for a in actions], seed, list(dice))
