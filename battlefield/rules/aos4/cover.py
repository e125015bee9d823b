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

from battlefield.geometry.paths import part_edges, segments_all_meet
from battlefield.geometry.table import Table

RING = 8


def _points(table: Table, models: np.ndarray) -> np.ndarray:
    """Each model's centre and RING points round its edge (made once per table)."""
    def make() -> np.ndarray:
        return np.concatenate([np.vstack([[table.x[m], table.y[m]], table.outline(int(m), RING)])
                               for m in models])

    return table.memo(("aos4-cover-points", models.tobytes()), make)


def wholly_on(table: Table, models: np.ndarray, piece: int) -> bool:
    poly = table.layout.polygons[piece]
    x0, y0, x1, y1 = table.layout.bboxes[piece]
    xs, ys = table.x[models], table.y[models]
    if ((xs < x0) | (xs > x1) | (ys < y0) | (ys > y1)).any():
        return False        # a base whose centre is off the piece's box is not wholly on it
    return all(poly.covers(table.footprint(int(m), 64)) for m in models)


def _lines(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every line from a point of `a` to a point of `b`: (starts, ends)."""
    return np.repeat(a, len(b), axis=0), np.tile(b, (len(a), 1))


def _near(table: Table, attackers: np.ndarray, combat_range: float) -> shapely.Geometry:
    """The attackers' bases grown by the combat range (made once per table)."""
    return table.memo(("aos4-cover-near", attackers.tobytes(), combat_range),
                      lambda: shapely.union_all([table.footprint(int(m), 32)
                                                 for m in attackers]).buffer(combat_range))


def behind(table: Table, attackers: np.ndarray, targets: np.ndarray, piece: int,
           combat_range: float) -> bool:
    """Every straight line from the attacking models to the target models crosses the piece,
    leaving out the part of it within the attackers' combat range."""
    layout = table.layout
    poly = layout.polygons[piece]
    e0, e1 = layout.edge_start[piece], layout.edge_start[piece + 1]
    whole = (layout.edges[e0:e1], np.array([0, e1 - e0], dtype=np.int64),
             layout.bboxes[piece:piece + 1])
    a = _points(table, attackers)
    b = _points(table, targets)
    # What is left of the piece lies within it: a line missing the whole piece misses it too.
    # Centre to centre first (one line in 81), then every line.
    if not segments_all_meet(*_lines(a[::RING + 1], b[::RING + 1]), *whole):
        return False
    lines = _lines(a, b)
    if not segments_all_meet(*lines, *whole):
        return False
    part = table.memo(("aos4-cover-part", piece, attackers.tobytes(), combat_range),
                      lambda: part_edges(poly.difference(_near(table, attackers,
                                                                combat_range))))
    if not len(part[2]):
        return False
    return bool(segments_all_meet(*lines, *part))


def covering(table: Table, attackers: np.ndarray, targets: np.ndarray, piece: int,
             combat_range: float) -> bool:
    """The targets are wholly on the piece or behind it, seen from the attackers (asked once
    per placement of those models: the same question comes for each trait, from the player
    and from the check, and again after every attack that left these models standing where
    they stood - it depends on them and the terrain alone)."""
    both = np.concatenate([attackers, targets]).astype(np.int64)
    key = ("aos4-cover", len(attackers), piece, combat_range)
    return table.placed_memo(key, both, lambda: wholly_on(table, targets, piece)
                             or behind(table, attackers, targets, piece, combat_range))


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
        if covering(table, attackers, targets, k, combat_range):
            out.append(k)
    return out
