"""Small builders for geometry tests: scenes from Python data, tables straight from arrays."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence

import numpy as np
from hypothesis import HealthCheck, settings

from battlefield.geometry import MM_PER_INCH
from battlefield.geometry.bases import Base
from battlefield.geometry.table import Table
from battlefield.geometry.terrain import Layout, Piece
from battlefield.scene.load import load_scene_text
from battlefield.scene.model import Scene

R32 = 32 / MM_PER_INCH / 2
"""Radius of a 32 mm base in inches."""

# BATTLEFIELD_EXAMPLES=20 runs every property 20 times as many examples (a soak, not for CI).
SCALE = max(1, int(os.environ.get("BATTLEFIELD_EXAMPLES", "1")))


def props(examples: int) -> settings:
    """Hypothesis settings for a geometry property: modest by default, no deadline (numba
    compiles on the first call)."""
    return settings(max_examples=examples * SCALE, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def rect_outline(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def model(x: float, y: float, base: object = 32, **extra: object) -> dict:
    return {"base": base, "at": [x, y], **extra}


def unit(uid: str, side: str, *models: dict, **extra: object) -> dict:
    return {"id": uid, "side": side, "models": list(models), **extra}


def wall(pid: str, outline: list[list[float]], height: float, kind: str = "solid") -> dict:
    return {"id": pid, "outline": outline, "height": height, "kind": kind}


def make_scene(units: Sequence[dict], terrain: Sequence[dict] = (),
               objectives: Sequence[dict] = (), ruleset: str = "aos4",
               board: tuple[float, float] = (30, 20)) -> Scene:
    """A scene from Python data (JSON is YAML, so it goes through the real loader)."""
    data = {"ruleset": ruleset, "board": {"width": board[0], "depth": board[1]},
            "terrain": list(terrain), "objectives": list(objectives), "units": list(units)}
    return load_scene_text(json.dumps(data))


def make_table(bases: Sequence[tuple[Base, float, float, float]],
               pieces: Sequence[Piece] = (), z: Sequence[float] | None = None,
               height: Sequence[float] | None = None, unit: Sequence[int] | None = None,
               width: float = 60.0, depth: float = 44.0) -> Table:
    """A Table from (base, x, y, facing) tuples; each model its own unit unless `unit` says."""
    n = len(bases)
    units = np.arange(n) if unit is None else np.asarray(unit)
    return Table(
        width=width, depth=depth, layout=Layout(tuple(pieces)),
        x=np.array([b[1] for b in bases], dtype=float),
        y=np.array([b[2] for b in bases], dtype=float),
        facing=np.array([b[3] for b in bases], dtype=float),
        shape=np.array([b[0].shape for b in bases], dtype=np.int64),
        a=np.array([b[0].a for b in bases], dtype=float),
        b=np.array([b[0].b for b in bases], dtype=float),
        z=np.zeros(n) if z is None else np.asarray(z, dtype=float),
        height=(np.array([b[0].default_height() for b in bases]) if height is None
                else np.asarray(height, dtype=float)),
        unit=units, n_units=int(units.max()) + 1 if n else 0,
    )
