"""Distances openwg rules on: base edge to base edge, horizontally (RULES-NOTES: in combat = any
model within 1" of an enemy model, no sight needed; a weapon reaches a unit when the target's
closest model is within its range)."""

from __future__ import annotations

import numpy as np

from battlefield.geometry.separation import signed_distance_matrix
from battlefield.geometry.table import Table
from battlefield.rules.openwg.data import EPS, game
from battlefield.rules.state import State


def between(t: Table, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Edge-to-edge distances (negative: overlapping) from models `rows` to models `cols`."""
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    if not len(rows) or not len(cols):
        return np.full((len(rows), len(cols)), np.inf)
    return signed_distance_matrix(t.x, t.y, t.shape, t.a, t.b, t.cos, t.sin, rows, cols)


def unit_gap(t: Table, u: int, w: int) -> float:
    """The distance between the closest models of units u and w (inf when one is gone)."""
    d = between(t, t.unit_models[u], t.unit_models[w])
    return float(d.min()) if d.size else float("inf")


def enemies_in_combat(state: State, u: int, table: Table | None = None) -> list[int]:
    """The enemy units within combat range of unit u (on `table`, default the state's)."""
    return [w for w, _ in state.enemies_within(u, game(state).combat_range + EPS, table=table)]


def models_within(t: Table, u: int, w: int, reach: float) -> np.ndarray:
    """Unit u's models with a model of unit w within `reach` (a boolean per model of u)."""
    d = between(t, t.unit_models[u], t.unit_models[w])
    if not d.size:
        return np.zeros(len(t.unit_models[u]), dtype=bool)
    return d.min(axis=1) <= reach + EPS
