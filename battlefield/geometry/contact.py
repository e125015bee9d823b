"""Contact between bases as a rank-and-flank game needs it: which side of a rectangular base a
point (another base's centre) lies on, whether two bases are engaged, and a base's front arc.

A base's frame: `u` along its facing (its front is +u), `v` across it, positive to its left
(counter-clockwise from the facing, as the model faces). A rectangle has half-depth `a` (along
u) and half-frontage `b` (along v). Its four sides are the quadrants cut by its two diagonals:
front (u/a >= |v|/b, u > 0), rear (-u/a >= |v|/b), left (v > 0) and right (v < 0); a point on
a diagonal belongs to the front or rear side. The front arc is the region ahead of the front
edge between the two lines from the front corners at 45 degrees outward (90 degrees in all).
"""

from __future__ import annotations

import math

import numpy as np

from battlefield.geometry.separation import signed_distance_matrix
from battlefield.geometry.table import Table

SIDES = ("front", "left", "right", "rear")
ENGAGED = 0.1              # edges within this many inches are in contact (RULES-NOTES, blocks)


def local(x: float, y: float, facing_deg: float, px, py) -> tuple[np.ndarray, np.ndarray]:
    """Points (px, py) in the frame of a base at (x, y) facing `facing_deg`: (u, v) arrays."""
    th = math.radians(facing_deg)
    c, s = math.cos(th), math.sin(th)
    dx, dy = np.asarray(px, dtype=np.float64) - x, np.asarray(py, dtype=np.float64) - y
    return dx * c + dy * s, -dx * s + dy * c


def sides_of(x: float, y: float, facing_deg: float, a: float, b: float, px, py) -> np.ndarray:
    """For each point, the side of the rectangle (centre, facing, half-depth a, half-frontage
    b) it lies on: an array of 'front', 'left', 'right' or 'rear' (the centre itself: front)."""
    u, v = local(x, y, facing_deg, np.atleast_1d(px), np.atleast_1d(py))
    along, across = u / a, np.abs(v) / b
    out = np.where(v > 0, "left", "right").astype("<U5")
    out[(along >= across) & (u >= 0)] = "front"
    out[(-along >= across) & (u < 0)] = "rear"
    return out


def side_of(table: Table, of: int, m: int) -> str:
    """Which side of model `of`'s base model m's centre lies on (by `of`'s diagonals)."""
    return str(sides_of(float(table.x[of]), float(table.y[of]), float(table.facing[of]),
                        float(table.a[of]), float(table.b[of]), table.x[m], table.y[m])[0])


def in_front_arc(x: float, y: float, facing_deg: float, a: float, b: float, px, py
                 ) -> np.ndarray:
    """For each point: ahead of the front edge and within the 45-degree lines from the front
    corners (edges count)."""
    u, v = local(x, y, facing_deg, px, py)
    ahead = u - a
    return (ahead >= -1e-9) & (np.abs(v) <= b + ahead + 1e-9)


def gaps(table: Table, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Edge-to-edge distances (negative: overlap) between the bases of rows and cols."""
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    t = table
    return signed_distance_matrix(t.x, t.y, t.shape, t.a, t.b, t.cos, t.sin, rows, cols)


def engaged(table: Table, i: int, j: int, within: float = ENGAGED) -> bool:
    """Whether the bases of models i and j are in contact: edges within `within` inches."""
    return bool(gaps(table, np.array([i]), np.array([j]))[0, 0] <= within)


def engaged_sides(table: Table, of: int, others: np.ndarray, within: float = ENGAGED
                  ) -> dict[int, str]:
    """The models of `others` in contact with model `of`'s base, each with the side of `of` it
    engages (the quadrant that holds its centre)."""
    others = np.asarray(others, dtype=np.int64)
    if not len(others):
        return {}
    d = gaps(table, np.array([of]), others)[0]
    near = others[d <= within]
    if not len(near):
        return {}
    sides = sides_of(float(table.x[of]), float(table.y[of]), float(table.facing[of]),
                     float(table.a[of]), float(table.b[of]), table.x[near], table.y[near])
    return {int(m): str(s) for m, s in zip(near, sides, strict=True)}


__all__ = ["SIDES", "ENGAGED", "local", "sides_of", "side_of", "in_front_arc", "gaps",
           "engaged", "engaged_sides"]
