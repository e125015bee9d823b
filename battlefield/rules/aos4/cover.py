"""Terrain effects on attacks (RULES-NOTES, aos4): cover and obscuring.

A unit is in cover from an attacker when it is behind or wholly on a piece with the cover trait
(obstacle, obscuring, area): -1 to hit, except for units that charged this turn or have FLY.
"Behind": no straight line from the attacker to the target misses the piece, leaving out the
parts of the piece within the attacker's combat range. An obscuring piece hides a unit behind
or wholly on it from shooting, unless the unit has FLY.
"""

from __future__ import annotations

import numpy as np
import shapely

from battlefield.geometry.table import Table

RING = 8


def _points(table: Table, models: np.ndarray) -> np.ndarray:
    """Each model's centre and RING points round its edge."""
    return np.concatenate([np.vstack([[table.x[m], table.y[m]], table.outline(int(m), RING)])
                           for m in models])


def wholly_on(table: Table, models: np.ndarray, piece: int) -> bool:
    poly = table.layout.polygons[piece]
    return all(poly.covers(table.footprint(int(m), 64)) for m in models)


def behind(table: Table, attackers: np.ndarray, targets: np.ndarray, piece: int,
           combat_range: float) -> bool:
    """Every straight line from the attacking models to the target models crosses the piece,
    leaving out the part of it within the attackers' combat range."""
    poly = table.layout.polygons[piece]
    near = shapely.union_all([table.footprint(int(m), 32) for m in attackers]).buffer(
        combat_range)
    part = poly.difference(near)
    if part.is_empty:
        return False
    a = _points(table, attackers)
    b = _points(table, targets)
    starts = np.repeat(a, len(b), axis=0)
    ends = np.tile(b, (len(a), 1))
    lines = shapely.linestrings(np.stack([starts, ends], axis=1))
    return bool(shapely.intersects(lines, part).all())


def pieces_covering(table: Table, attackers: np.ndarray, targets: np.ndarray, trait: str,
                    combat_range: float) -> list[int]:
    """Pieces with `trait` that the targets are behind or wholly on, seen from the attackers."""
    out = []
    both = np.concatenate([attackers, targets])
    r = table.reach[both]
    x0, y0 = (table.x[both] - r).min(), (table.y[both] - r).min()
    x1, y1 = (table.x[both] + r).max(), (table.y[both] + r).max()
    for k in table.layout.pieces_with(trait):
        bx0, by0, bx1, by1 = table.layout.bboxes[k]
        if bx1 < x0 or bx0 > x1 or by1 < y0 or by0 > y1:
            continue        # no line between the two units comes near it, nor are they on it
        if wholly_on(table, targets, k) or behind(table, attackers, targets, k, combat_range):
            out.append(k)
    return out
