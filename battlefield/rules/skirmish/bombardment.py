"""Bombardment (seed: Artillery Upgrade): a commanded action that places the unit's one token
more than 10" from the unit (placing it again moves it). The token supports friendly attacks on
enemies within 6" of it and lets its unit take pot shots at enemies that move overextended within
6" of it; it is removed when its unit moves, attacks in a skirmish or is destroyed.

Tokens live in the state's side resources - sides[SIDE]["bombardment"] = {unit id: [x, y]} - so
snapshots, the log and replays carry them."""

from __future__ import annotations

from typing import Any

import numpy as np

from battlefield.geometry.separation import point_distances
from battlefield.rules.skirmish.data import EPS, game, istat
from battlefield.rules.state import State

Event = dict[str, Any]


def tokens(state: State, side: str) -> dict[str, list[float]]:
    return state.sides[side].setdefault("bombardment", {})


def token_of(state: State, u: int) -> tuple[float, float] | None:
    spec = state.scene.units[u]
    at = tokens(state, spec.side).get(spec.id)
    return None if at is None else (float(at[0]), float(at[1]))


def place(state: State, u: int, at: tuple[float, float]) -> list[Event]:
    spec = state.scene.units[u]
    moved = spec.id in tokens(state, spec.side)
    tokens(state, spec.side)[spec.id] = [float(at[0]), float(at[1])]
    return [{"type": "bombardment-token", "unit": spec.id, "at": [float(at[0]), float(at[1])],
             **({"moved": True} if moved else {})}]


def remove(state: State, u: int, why: str) -> list[Event]:
    spec = state.scene.units[u]
    if tokens(state, spec.side).pop(spec.id, None) is None:
        return []
    return [{"type": "bombardment-token-removed", "unit": spec.id, "because": why}]


def distance_to(state: State, u: int, at: tuple[float, float], table=None) -> float:
    """From the closest base of unit u to a point (0 when the point is under a base)."""
    t = table if table is not None else state.table
    models = t.unit_models[u]
    if not len(models):
        return float("inf")
    d = point_distances(t.x, t.y, t.shape, t.a, t.b, t.cos, t.sin,
                        np.asarray(models, dtype=np.int64), float(at[0]), float(at[1]))
    return float(d.min())


def support(state: State, attacker: int, defender: int) -> tuple[int, list[str]]:
    """+2 (+4 from a unit of Strike 2 or more) for each friendly token within 6" of the
    defender."""
    g = game(state)
    side = state.scene.units[attacker].side
    total, sources = 0, []
    for uid, at in sorted(tokens(state, side).items()):
        owner = state.scene.unit_index(uid)
        if not len(state.models_of(owner)):
            continue
        if distance_to(state, defender, (at[0], at[1])) <= g.bombardment_reach + EPS:
            total += (g.bombardment_strong if istat(state, owner, "strike") >= g.strong_strike
                      else g.bombardment)
            sources.append(uid)
    return total, sources
