"""Sight coverage of a board: from every cell of a grid, how much of the board a model standing
there can see; between the deployment zones; from each zone to each objective; and the best
places to hide.

A model of height h stands at each cell's centre: its eye is h above the ground there (the top
of the tallest standable piece under the centre, else the table). Cells inside impassable
terrain are not standing places and are left out. Sight is the terrain rule of the sight kernel
(RULES-NOTES: a line is blocked where it passes inside an outline below the piece's height),
terrain only, points rather than bases, and exact for the sampled points: every pair of cells
is decided (geometry.sight.grid), none sampled. The pairs are counted, never kept: per cell, how
many cells it sees and how many cells of each deployment zone (and of each zone's enemies) see
it; any other group of observers is decided anew, a few rows at a time.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely

from battlefield.geometry.sight import (
    MAX_GROUPS,
    GridSight,
    Progress,
    all_pairs,
    ground_heights,
    lines_blocked,
)
from battlefield.geometry.terrain import STANDABLE, Layout

DEFAULT_SPACING = 0.5
DEFAULT_HEIGHT = 1.25           # a model on a 25-32 mm base (RULES-NOTES default heights)
HIDING_SPOTS = 5
HIDING_APART = 4.0              # inches between two listed hiding spots
# A point this close to an outline is on it: on top of a standable piece, inside an impassable
# one (a cell centre at 31.75 on an edge through 31.7 is off it only by rounding).
ON_EDGE = 1e-6


@dataclass(frozen=True)
class Grid:
    """Cells covering the board: nx across, ny deep, each sx by sy inches (the requested spacing
    or a little less, so that the cells tile the board exactly). Cell (col, row) has index
    row * nx + col and its centre at ((col + 1/2) sx, (row + 1/2) sy)."""

    width: float
    depth: float
    spacing: float
    nx: int
    ny: int

    @classmethod
    def over(cls, width: float, depth: float, spacing: float) -> Grid:
        if not spacing > 0:
            raise ValueError(f"grid spacing must be positive, not {spacing}")
        nx = max(1, math.ceil(width / spacing - 1e-9))
        ny = max(1, math.ceil(depth / spacing - 1e-9))
        return cls(width, depth, spacing, nx, ny)

    @property
    def sx(self) -> float:
        return self.width / self.nx

    @property
    def sy(self) -> float:
        return self.depth / self.ny

    def __len__(self) -> int:
        return self.nx * self.ny

    def centres(self) -> np.ndarray:
        """(nx * ny, 2) cell centres, row by row from the bottom edge."""
        xs = (np.arange(self.nx) + 0.5) * self.sx
        ys = (np.arange(self.ny) + 0.5) * self.sy
        gx, gy = np.meshgrid(xs, ys)
        return np.column_stack([gx.ravel(), gy.ravel()])


def ground_at(layout: Layout, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Height of the ground under each point: the top of the tallest standable piece that holds
    it (edge included, to within ON_EDGE), else 0. A point the sight kernel's own inside test
    puts inside counts as held too, so no eye is ever found inside the piece it stands on."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    xy = np.ascontiguousarray(np.column_stack([x.ravel(), y.ravel()]))
    standable = np.array([i for i, p in enumerate(layout.pieces) if p.kind in STANDABLE],
                         dtype=np.int64)
    out = ground_heights(xy, standable, layout.bboxes, layout.heights, layout.edges,
                         layout.edge_start)
    for i in standable:
        near = _near_box(layout, int(i), xy[:, 0], xy[:, 1])
        on = near[shapely.dwithin(layout.polygons[i], shapely.points(xy[near]), ON_EDGE)]
        out[on] = np.maximum(out[on], layout.heights[i])
    return out.reshape(x.shape)


def _near_box(layout: Layout, i: int, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Indices of the points within ON_EDGE of piece i's box: the only ones shapely is asked
    about (a Shapely point per cell of a fine grid would cost more than the grid)."""
    x0, y0, x1, y1 = layout.bboxes[i]
    slack = 2 * ON_EDGE
    return np.nonzero((x >= x0 - slack) & (x <= x1 + slack) & (y >= y0 - slack)
                      & (y <= y1 + slack))[0]


def impassable_at(layout: Layout, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """True for points in (or on the edge of) an impassable piece."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    out = np.zeros(x.shape, dtype=bool)
    flat, fx, fy = out.reshape(-1), x.reshape(-1), y.reshape(-1)
    for i in layout.pieces_with("impassable"):
        near = _near_box(layout, int(i), fx, fy)
        flat[near[shapely.dwithin(layout.polygons[i], shapely.points(fx[near], fy[near]),
                                  ON_EDGE)]] = True
    return out


@dataclass
class Coverage:
    """Sight between all standing cells of a board's grid.

    cells: the grid index of each standing cell (point k is cell cells[k]); points: their eyes;
    sight: how many cells each cell sees, and how many of each zone (and its enemies) see it."""

    grid: Grid
    height: float
    layout: Layout
    cells: np.ndarray
    points: np.ndarray
    sight: GridSight
    _zones: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.cells)

    @property
    def fraction(self) -> np.ndarray:
        """Per standing cell: the share of the other standing cells it sees."""
        return self.sight.fraction

    @property
    def visible_fraction(self) -> float:
        """The board-wide mean of `fraction` (1.0 on an open board)."""
        return float(self.fraction.mean()) if len(self) else 0.0

    def grid_values(self, per_point: np.ndarray) -> np.ndarray:
        """A (ny, nx) array of per-point values, NaN where no one can stand."""
        out = np.full(len(self.grid), np.nan)
        out[self.cells] = per_point
        return out.reshape(self.grid.ny, self.grid.nx)

    def inside(self, outline) -> np.ndarray:
        """Indices of the points whose cell centre is in (or on) the outline."""
        return points_inside(self.points, outline)

    def zone(self, side: str, outline) -> np.ndarray:
        """The points of a deployment zone (kept by side)."""
        hit = self._zones.get(side)
        if hit is None:
            hit = self._zones[side] = self.inside(outline)
        return hit

    def enemy(self, side: str) -> np.ndarray:
        """The points of the other zones that are not in this side's zone."""
        return enemy_points(self._zones, side)

    def seen_from(self, observers: np.ndarray) -> np.ndarray:
        """Per point, the share of `observers` that see it (0 with no observers)."""
        if len(observers) == 0:
            return np.zeros(len(self))
        counts = self.sight.seen_by(observers)
        # An observer does not count itself, so its own share is out of one fewer.
        whole = np.full(len(self), float(len(observers)))
        whole[observers] -= 1
        return np.divide(counts, whole, out=np.zeros(len(self)), where=whole > 0)

    def pairs_seen(self, a: np.ndarray, b: np.ndarray) -> float:
        """The share of pairs (one point of a, one of b) that see each other."""
        if len(a) == 0 or len(b) == 0:
            return 0.0
        counts = self.sight.seen_by(a)[b]
        both = np.intersect1d(a, b).size       # a point never pairs with itself
        total = len(a) * len(b) - both
        return float(counts.sum() / total) if total else 0.0

    def eye_at(self, x: float, y: float) -> np.ndarray:
        """The eye of a model of this height standing at (x, y)."""
        z = float(ground_at(self.layout, np.array([x]), np.array([y]))[0])
        return np.array([x, y, z + self.height])

    def point_seen_from(self, observers: np.ndarray, x: float, y: float) -> float:
        """The share of `observers` that see a model standing at (x, y) (an objective)."""
        if len(observers) == 0:
            return 0.0
        obs = self.points[observers]
        target = np.repeat(self.eye_at(x, y)[None, :], len(obs), axis=0)
        lay = self.layout
        z, zi = np.zeros(0), np.zeros(0, dtype=np.int64)
        blocked = lines_blocked(np.ascontiguousarray(obs), target,
                                np.arange(len(lay), dtype=np.int64), lay.bboxes, lay.heights,
                                lay.edges, lay.edge_start, zi, z, z, z, z, z, z, zi, z, z, z)
        return float((blocked < 0).mean())

    def hiding_spots(self, values: np.ndarray, among: np.ndarray | None = None,
                     count: int = HIDING_SPOTS, apart: float = HIDING_APART) -> list[dict]:
        """The places where `values` (the share of the observers that see each point) is lowest
        and below 1, at least `apart` inches from each other and at most one in each piece of
        terrain, optionally only among some points."""
        idx = np.arange(len(self)) if among is None else np.asarray(among)
        idx = idx[values[idx] < 1.0 - 1e-12]          # seen by all: no hiding there
        if len(idx) == 0:
            return []
        order = idx[np.lexsort((idx, values[idx]))]
        picked: list[int] = []
        pieces: set[str] = set()
        for k in order:
            p = self.points[k]
            if any(math.hypot(p[0] - self.points[q, 0], p[1] - self.points[q, 1]) < apart
                   for q in picked):
                continue
            piece = self.piece_at(float(p[0]), float(p[1]))
            if piece is not None and piece in pieces:
                continue                        # one spot per piece: the best of it
            picked.append(int(k))
            if piece is not None:
                pieces.add(piece)
            if len(picked) == count:
                break
        out = []
        for k in picked:
            x, y, z = (float(v) for v in self.points[k])
            spot = {"at": [round(x, 3), round(y, 3)], "seen": round(float(values[k]), 4)}
            piece = self.piece_at(x, y)
            if piece is not None:
                spot["in"] = piece
            if z - self.height > 1e-9:
                spot["z"] = round(z - self.height, 3)
            out.append(spot)
        return out

    def piece_at(self, x: float, y: float) -> str | None:
        """The id of the tallest piece whose outline holds the point, if any."""
        best, h = None, -1.0
        for i in self.layout.tree.query(shapely.Point(x, y), predicate="intersects"):
            piece = self.layout.pieces[int(i)]
            if piece.height > h:
                best, h = piece.id, piece.height
        return best


def points_inside(points: np.ndarray, outline) -> np.ndarray:
    """Indices of the points whose (x, y) is in (or on) the outline."""
    poly = outline if isinstance(outline, shapely.Geometry) else shapely.Polygon(outline)
    return np.nonzero(shapely.intersects_xy(poly, points[:, 0], points[:, 1]))[0]


def enemy_points(zones: Mapping[str, np.ndarray], side: str) -> np.ndarray:
    """The points of the zones other than `side`'s that are not in `side`'s zone."""
    others = [idx for s, idx in zones.items() if s != side]
    own = zones.get(side, np.zeros(0, dtype=np.int64))
    return np.setdiff1d(np.concatenate(others or [np.zeros(0, dtype=np.int64)]), own)


def coverage(layout: Layout, width: float, depth: float, spacing: float = DEFAULT_SPACING,
             height: float = DEFAULT_HEIGHT, cache: bool = True,
             zones: Mapping[str, Any] | None = None,
             progress: Progress | None = None) -> Coverage:
    """Sight between every pair of standing cells of the board's grid, counted per cell, and per
    deployment zone (zones: side -> outline) and each zone's enemies as observers."""
    if not height > 0:
        raise ValueError(f"model height must be positive, not {height}")
    grid = Grid.over(width, depth, spacing)
    centres = grid.centres()
    standing = ~impassable_at(layout, centres[:, 0], centres[:, 1])
    cells = np.nonzero(standing)[0]
    xy = centres[cells]
    z = ground_at(layout, xy[:, 0], xy[:, 1]) + height
    points = np.ascontiguousarray(np.column_stack([xy, z]))
    del centres, standing, xy, z
    found = {side: points_inside(points, outline) for side, outline in (zones or {}).items()}
    groups: list[np.ndarray] = []
    for side, idx in found.items():
        for g in (idx, enemy_points(found, side)):
            if len(g) and not any(np.array_equal(g, h) for h in groups):
                groups.append(g)
    sight = all_pairs(layout, points, cache=cache, groups=groups[:MAX_GROUPS],
                      progress=progress)
    return Coverage(grid, height, layout, cells, points, sight, found)
