"""Small skirmish scenes for the scenario tests, written as YAML and played through `try`'s
machinery (battlefield.rules.trial.run). 25 mm bases: radius 0.492126"."""

from __future__ import annotations

from typing import Any

import yaml

from battlefield.rules.actions import Action
from battlefield.rules.trial import run
from battlefield.scene.load import load_scene_text

R = 25 / 25.4 / 2
INFANTRY = {"speed": 6, "range": 1, "strike": 1, "hit": 4, "damage": 1, "toughness": 1,
            "cover": 0, "initiative": 1, "melee": 1}
ARCHERS = {**INFANTRY, "speed": 5, "range": 12, "melee": 0}
ARTILLERY = {**INFANTRY, "speed": 3, "range": 30, "strike": 3, "hit": 5, "melee": 0}


def unit(uid: str, side: str, *at: tuple[float, float], kind: dict | None = None,
         leader: int = 1, keywords: tuple[str, ...] = (), base: float = 25,
         **stats: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": uid, "side": side,
                           "stats": {**(kind or INFANTRY), **stats},
                           "models": [{"base": base, "at": [float(x), float(y)]} for x, y in at]}
    if leader != 1:
        out["leader"] = leader
    if keywords:
        out["keywords"] = list(keywords)
    return out


def piece(pid: str, x0: float, y0: float, x1: float, y1: float, height: float,
          kind: str = "solid") -> dict[str, Any]:
    return {"id": pid, "outline": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], "height": height,
            "kind": kind}


def scene(*units: dict, terrain: tuple = (), objectives: tuple = (), state: dict | None = None,
          board: float = 36) -> str:
    data: dict[str, Any] = {"ruleset": "skirmish", "board": {"width": board, "depth": board},
                            "terrain": list(terrain), "objectives": list(objectives)}
    if state:
        data["state"] = state
    data["units"] = list(units)
    return yaml.safe_dump(data, sort_keys=False)


def attempt(text: str, *actions: dict, dice=(), seed: int = 1):
    return run(load_scene_text(text), [Action.from_dict(a) for a in actions], seed=seed,
               dice=list(dice))


def codes(result: dict) -> list[str]:
    return [v["code"] for v in result["violations"]]


def of_type(result: dict, kind: str) -> list[dict]:
    return [e for e in result["events"] if e["type"] == kind]


def where(state, unit_id: str, n: int = 1) -> tuple[float, float, float]:
    """Where model n (1-based) of a unit stands now: (x, y, z)."""
    m = state.scene.model_offsets()[state.unit_index(unit_id)] + n - 1
    t = state.table
    return float(t.x[m]), float(t.y[m]), float(t.z[m])
