"""The deployment phase on the play page: what the deploying seat may set up now, each with the
shape to drag. While the seat may `deploy` (a ruleset whose vocabulary has it: aos4), its units
in reserve the engine would take a deploy of (not a manifestation waiting to be summoned), each
with the block its models stand in - rules/deploy.block, the layout the window, the computer and
army import use - centred on the origin and facing the middle of the table from the seat's
territory, and each model's footprint round its place; while its faction terrain comes first
(`deploy-faction-terrain`), the pieces waiting, each as its outline round its centre. The page
draws the shape under the pointer and sends the action the engine checks like any other (a
preview, then the act): nothing here rules."""

from __future__ import annotations

from typing import Any

import shapely

from battlefield.geometry.bases import outline_points
from battlefield.rules.deploy import (
    DEPLOY,
    TERRAIN,
    block,
    deployable,
    facing_from,
    waiting_terrain,
)
from battlefield.rules.state import State

EDGE_POINTS = 24              # points round a round or oval base's drawn footprint


def reserve_offers(state: State, seat: str) -> list[dict[str, Any]]:
    """[{"unit", "label", "regiment", "facing", "block": [[dx, dy], ...], "feet": [[[x, y],
    ...], ...]}] for the seat's units in reserve, or [{"terrain", "label", "feet": [[[x, y],
    ...]]}] for its faction terrain while that comes first; [] when it may set nothing up (not
    its turn to, a decision pending)."""
    if state.over or state.pending or state.acting_side != seat:
        return []
    if TERRAIN in state.available():
        out = []
        for piece in waiting_terrain(state, seat):
            c = shapely.Polygon(piece.outline).centroid
            out.append({"terrain": piece.id, "label": f"{piece.id} (terrain)",
                        "feet": [[[_r(x - c.x), _r(y - c.y)] for x, y in piece.outline]]})
        return out
    if DEPLOY not in state.available():
        return []
    zone = state.scene.deployment.get(seat)
    facing = (facing_from(shapely.Polygon(zone), (state.scene.width / 2, state.scene.depth / 2))
              if zone else 0.0)
    out = []
    for u in deployable(state, seat):
        spec = state.scene.units[u]
        bases = [m.base for m in spec.models]
        places = block(bases, 0.0, 0.0, facing)
        out.append({
            "unit": spec.id, "label": f"{spec.id} ({len(bases)})",
            "regiment": spec.extra.get("regiment"), "facing": _r(facing),
            "block": [[_r(x), _r(y)] for x, y in places],
            "feet": [[[_r(px), _r(py)] for px, py in outline_points(
                b.shape, b.a, b.b, x, y, facing, EDGE_POINTS)] for b, (x, y) in zip(
                    bases, places, strict=True)]})
    return out


def _r(v: float) -> float:
    return round(float(v), 4)


__all__ = ["reserve_offers"]
