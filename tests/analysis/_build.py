"""Small maps for the analysis tests, built from Python data through the real loader."""

from __future__ import annotations

import json
from collections.abc import Sequence

from battlefield.scene.load import load_scene_text
from battlefield.scene.model import Scene


def rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def piece(pid: str, outline: list[list[float]], height: float, kind: str = "solid") -> dict:
    return {"id": pid, "outline": outline, "height": height, "kind": kind}


def make_map(terrain: Sequence[dict] = (), objectives: Sequence[dict] = (),
             deployment: dict | None = None, board: tuple[float, float] = (60, 44),
             ruleset: str = "aos4", name: str = "test map") -> Scene:
    """A map (no units) through the real loader."""
    data = {"ruleset": ruleset, "name": name, "board": {"width": board[0], "depth": board[1]},
            "terrain": list(terrain), "objectives": list(objectives)}
    if deployment:
        data["deployment"] = deployment
    return load_scene_text(json.dumps(data), name)
