"""Small blocks scenes for the scenario tests, written as YAML. An infantry block is 4" x 2"
(101.6 x 50.8 mm: a = 1, b = 2), a monster 2" x 2" (a = b = 1)."""

from __future__ import annotations

import json
from typing import Any

import yaml

from battlefield.cli.main import main
from battlefield.rules.actions import Action
from battlefield.rules.trial import run
from battlefield.scene.load import load_scene_text

INFANTRY = [101.6, 50.8]
MONSTER = [50.8, 50.8]
STATS = {"move": 4, "offence": 7, "defence": 4, "power": 5, "toughness": 3, "courage": 10,
         "dice": 2, "range": 0, "points": 500}


def block(uid: str, side: str, x: float, y: float, facing: float, base=INFANTRY,
          **keys: Any) -> dict[str, Any]:
    """One block; base=None leaves the base out (the unit's `type` gives it)."""
    stats = {**STATS, **keys.pop("stats", {})}
    model: dict[str, Any] = {"at": [x, y], "facing": facing}
    if base is not None:
        model["base"] = {"rect": list(base)}
    return {"id": uid, "side": side, "stats": stats, **keys, "models": [model]}


def square(pid: str, x0: float, y0: float, x1: float, y1: float, kind: str = "impassable"
           ) -> dict[str, Any]:
    return {"id": pid, "kind": kind, "height": 2,
            "outline": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}


def scene(*units: dict, terrain: tuple = (), state: dict | None = None,
          zones: bool = True) -> str:
    data: dict[str, Any] = {"ruleset": "blocks", "board": {"width": 48, "depth": 32},
                            "terrain": list(terrain)}
    if zones:
        data["deployment"] = {"red": [[0, 0], [48, 0], [48, 8], [0, 8]],
                              "blue": [[0, 24], [48, 24], [48, 32], [0, 32]]}
    if state:
        data["state"] = state
    data["units"] = list(units)
    return yaml.safe_dump(data, sort_keys=False)


def check(tmp_path, text: str, capsys) -> dict[str, Any]:
    """`battlefield check --json` of the scene."""
    path = tmp_path / "scene.yaml"
    path.write_text(text)
    assert main(["check", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def pair(report: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    return next(p for p in report["pairs"] if p["a"] == a and p["b"] == b)


def attempt(text: str, *actions: dict, dice=(), seed: int = 1):
    return run(load_scene_text(text), [Action.from_dict(a) for a in actions], seed=seed,
               dice=list(dice))


def codes(result: dict) -> list[str]:
    return [v["code"] for v in result["violations"]]


def of_type(result: dict, kind: str) -> list[dict]:
    return [e for e in result["events"] if e["type"] == kind]
