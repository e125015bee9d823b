"""Where a moving base can get to: the cost of reaching every point near its start, around
obstacles (other models' bases and impassable terrain, grown by the mover's clearance) with
climbing counted, and the route there.

The field is a grid (REACH_STEP inches). A cell seen in a straight line from the start gets the
exact cost of that line (its length plus each climbable piece's height every time the line
crosses the outline where the base goes over the piece, as `Terrain.path_cost` counts it); the
others are reached by an any-angle search (Theta*): straight from a neighbour's anchor when
that line is free, else through the neighbour, so a detour round a corner passes within a cell
of it and costs at most a cell or two more than the true shortest path. A route is traced back
through the anchors and pulled straight wherever a straight line is free and no dearer, and its
turns slid onto the corners they go round. The engine still measures and checks the route
exactly: the field only proposes paths and shades where they reach; a jump down (free, ending
the move) is not counted, so the shading errs on the short side.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from numba import njit

from battlefield.geometry.paths import (
    Terrain,
    crossings_cost,
    edge_arrays,
    segment_climb,
    segment_free,
    segments_free,
)

REACH_STEP = 0.2
_NUDGE = (1.41421e-4, 1.73205e-4)
_EPS = 1e-7
# The 16 grid moves: the 8 neighbours and the 8 knight's moves.
_MOVES = np.array([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1),
                   (2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (1, -2), (-1, 2), (-1, -2)],
                  dtype=np.int64)


@njit(cache=True, inline="always")
def _cuts_corner(blocked, i, j, dx, dy):
    """A diagonal or knight's move passes between two cells: both must be open."""
    if dx == 0 or dy == 0:
        return False
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    if abs(dx) == 2:
        return blocked[j, i + sx] or blocked[j + dy, i + sx]
    if abs(dy) == 2:
        return blocked[j + sy, i] or blocked[j + sy, i + dx]
    return blocked[j, i + dx] or blocked[j + dy, i]


@njit(cache=True)
def _spread(cost, parent, blocked, step, moves, x0, y0, sx, sy, limit,
            edges, estart, bbox, cedges, cstart, cbox, heights):
    """Any-angle Dijkstra (Theta*) over the grid from the cells already costed (straight from
    the start), out to `limit` inches: a cell is reached straight from its neighbour's own
    anchor when that line is free and no dearer (climbing counted), else through the
    neighbour."""
    ny, nx = cost.shape
    heap = [(0.0, np.int64(0))]
    heap.pop()
    for j in range(ny):
        for i in range(nx):
            if math.isfinite(cost[j, i]):
                heap.append((cost[j, i], np.int64(j * nx + i)))
    heapq.heapify(heap)
    lengths = np.sqrt((moves[:, 0] ** 2 + moves[:, 1] ** 2).astype(np.float64)) * step
    while heap:
        c, k = heapq.heappop(heap)
        if c > limit:
            break                        # every cell left costs more than anyone may move
        j, i = k // nx, k % nx
        if c > cost[j, i]:
            continue
        p = parent[j, i]
        if p < 0:
            px, py, pc = sx, sy, 0.0
        else:
            px, py, pc = x0 + (p % nx) * step, y0 + (p // nx) * step, cost[p // nx, p % nx]
        for d in range(moves.shape[0]):
            i2, j2 = i + moves[d, 0], j + moves[d, 1]
            if i2 < 0 or j2 < 0 or i2 >= nx or j2 >= ny or blocked[j2, i2]:
                continue
            if _cuts_corner(blocked, i, j, moves[d, 0], moves[d, 1]):
                continue
            qx, qy = x0 + i2 * step, y0 + j2 * step
            cx, cy = x0 + i * step, y0 + j * step
            c2 = c + lengths[d] + segment_climb(cx, cy, qx, qy, cedges, cstart, cbox, heights)
            via = k
            if segment_free(px, py, qx, qy, edges, estart, bbox):
                straight = pc + math.hypot(qx - px, qy - py) + segment_climb(
                    px, py, qx, qy, cedges, cstart, cbox, heights)
                if straight <= c2:
                    c2, via = straight, p
            if c2 < cost[j2, i2] - 1e-12:
                cost[j2, i2] = c2
                parent[j2, i2] = via
                heapq.heappush(heap, (c2, np.int64(j2 * nx + i2)))
    return cost, parent


@dataclass
class ReachField:
    """The cost of getting to each cell of a grid from `start` (inf: not at all)."""

    start: tuple[float, float]
    x0: float
    y0: float
    step: float
    cost: np.ndarray                   # (ny, nx) inches, climbing counted
    parent: np.ndarray                 # (ny, nx) flat index of the previous cell, -1: the start
    edges: tuple[np.ndarray, np.ndarray, np.ndarray]     # the grown obstacles, for segments
    climb: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]   # climbable outlines
    corners: np.ndarray                # (k, 2) the obstacles' corners, just outside them

    def cell(self, x: float, y: float) -> tuple[int, int] | None:
        i = int(round((x - self.x0) / self.step))
        j = int(round((y - self.y0) / self.step))
        ny, nx = self.cost.shape
        return (j, i) if 0 <= i < nx and 0 <= j < ny else None

    def centre(self, j: int, i: int) -> tuple[float, float]:
        return (self.x0 + i * self.step, self.y0 + j * self.step)

    def cost_at(self, x: float, y: float) -> float:
        """The cost of getting to the point: the straight line when it is free and cheapest,
        else the nearest cell's cost and the step from its centre."""
        c = self.cell(x, y)
        if c is None or not math.isfinite(self.cost[c]):
            return math.inf
        cx, cy = self.centre(*c)
        return min(self.segment_cost(self.start, (x, y)),
                   float(self.cost[c]) + math.hypot(x - cx, y - cy))

    def within(self, budget: float) -> np.ndarray:
        """(ny, nx) mask of the cells reachable for `budget` inches."""
        return self.cost <= budget + _EPS

    def segment_cost(self, a: Sequence[float], b: Sequence[float], free: bool = True) -> float:
        """A straight leg's cost (length + climbing); inf when it meets an obstacle (unless
        `free` is False: the cost as if nothing were in the way)."""
        p = np.asarray([a], dtype=np.float64)
        q = np.asarray([b], dtype=np.float64)
        if free and len(self.edges[2]) and not segments_free(p, q, *self.edges)[0]:
            return math.inf
        climbed = crossings_cost(p, q, *self.climb)[0] if len(self.climb[2]) else 0.0
        return float(np.hypot(*(q - p)[0]) + climbed)

    def route(self, to: tuple[float, float]) -> list[tuple[float, float]]:
        """A path from the start to `to`: straight when that line is free and no dearer than
        the way round (climbing counted), else through the grid, pulled straight where it can
        be. [start, to] when `to` is off the field or out of reach."""
        straight = self.segment_cost(self.start, to)
        c = self.cell(*to)
        if c is None or not math.isfinite(self.cost[c]) or straight <= self.cost[c] + 1e-6:
            return [self.start, to]
        nx = self.cost.shape[1]
        chain = [to]
        k = int(self.parent[c])
        while k >= 0:
            chain.append(self.centre(k // nx, k % nx))
            k = int(self.parent[k // nx, k % nx])
        chain.append(self.start)
        chain.reverse()
        return self._tightened(self._pulled(chain))

    def _tightened(self, path: list[tuple[float, float]]) -> list[tuple[float, float]]:
        """The pulled path with each turn slid onto the obstacle corner it goes round."""
        for _ in range(4):
            if not _tighten_once(self, path):
                break
            path = self._pulled(path)
        return path

    def _pulled(self, chain: list[tuple[float, float]]) -> list[tuple[float, float]]:
        """Skip the grid's corners wherever a straight leg is free and no dearer."""
        run = np.concatenate([[0.0], np.cumsum([self.segment_cost(a, b, False) for a, b
                                                in zip(chain[:-1], chain[1:], strict=True)])])
        out = [chain[0]]
        i = 0
        while i < len(chain) - 1:
            j = len(chain) - 1
            while j > i + 1 and self.segment_cost(chain[i], chain[j]) > run[j] - run[i] + 1e-6:
                j -= 1
            out.append(chain[j])
            i = j
        return out


def _tighten_once(field: ReachField, path: list[tuple[float, float]]) -> bool:
    """Move each turn of the path onto the obstacle corner nearby that shortens it most."""
    better = False
    reach = 3 * field.step
    for k in range(1, len(path) - 1):
        a, v, b = path[k - 1], path[k], path[k + 1]
        best = field.segment_cost(a, v) + field.segment_cost(v, b)
        near = field.corners[np.hypot(field.corners[:, 0] - v[0],
                                      field.corners[:, 1] - v[1]) <= reach]
        for c in near:
            cand = (float(c[0]), float(c[1]))
            cost = field.segment_cost(a, cand) + field.segment_cost(cand, b)
            if cost < best - 1e-9:
                best, path[k], better = cost, cand, True
    return better


def reach_field(start: tuple[float, float], radius: float, obstacles: Sequence[shapely.Geometry],
                terrain: Terrain | None, bounds: tuple[float, float, float, float],
                step: float = REACH_STEP) -> ReachField:
    """The field of a base whose centre starts at `start`, out to `radius` inches, within the
    board `bounds` (x0, y0, x1, y1). `obstacles` are where the centre may not go (already grown
    by the base's clearance); `terrain` gives the climbing (None: nothing is climbed, FLY)."""
    sx, sy = start
    x0 = max(bounds[0], sx - radius)
    y0 = max(bounds[1], sy - radius)
    x1 = min(bounds[2], sx + radius)
    y1 = min(bounds[3], sy + radius)
    # The grid is aligned on the start, nudged off it by a hair so that no cell centre lies
    # exactly on an outline drawn in round inches (a step through such a point would not be
    # seen crossing it).
    ax, ay = sx + _NUDGE[0], sy + _NUDGE[1]
    i0 = math.ceil((x0 - ax) / step)
    j0 = math.ceil((y0 - ay) / step)
    nx = max(1, math.floor((x1 - ax) / step) - i0 + 1)
    ny = max(1, math.floor((y1 - ay) / step) - j0 + 1)
    gx0, gy0 = ax + i0 * step, ay + j0 * step
    xs = gx0 + step * np.arange(nx)
    ys = gy0 + step * np.arange(ny)
    gx, gy = np.meshgrid(xs, ys)
    near = [o for o in obstacles if o.distance(shapely.Point(start)) <= radius]
    blocked = np.zeros(gx.shape, dtype=bool)
    if near:
        blocked = shapely.intersects_xy(shapely.union_all(near), gx, gy)
    blocked |= (gx < bounds[0]) | (gx > bounds[2]) | (gy < bounds[1]) | (gy > bounds[3])
    # Each climbable piece as the outline the base's centre climbs it at (the whole base
    # counts: Terrain's clearance), and the way round it.
    climb_polys = list(terrain.climb_polygons) if terrain is not None else []
    heights = list(terrain.climb_heights) if terrain is not None else []
    round_polys = ([terrain.round_outline(j) for j in range(len(climb_polys))]
                   if terrain is not None else [])
    edges = edge_arrays(near)
    climb = (*edge_arrays(climb_polys), np.asarray(heights, dtype=np.float64))
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    origin = np.broadcast_to(np.asarray(start, dtype=np.float64), pts.shape).copy()
    free = (segments_free(origin, pts, *edges) if near else np.ones(len(pts), dtype=bool))
    straight = np.hypot(pts[:, 0] - sx, pts[:, 1] - sy)
    if climb_polys:
        straight = straight + crossings_cost(origin, pts, *climb)
    cost = np.where(free & ~blocked.ravel(), straight, math.inf).reshape(gx.shape)
    parent = np.full(gx.shape, -1, dtype=np.int64)
    cost, parent = _spread(cost, parent, blocked, step, _MOVES, gx0, gy0,
                           float(sx), float(sy), float(radius), *edges, *climb)
    outset = [o.buffer(1e-4, join_style="mitre") for o in near]
    outset += round_polys
    corners = [np.asarray(g.exterior.coords)[:-1] for o in outset
               for g in getattr(o, "geoms", [o])]
    corners_a = np.concatenate(corners) if corners else np.zeros((0, 2))
    return ReachField((float(sx), float(sy)), gx0, gy0, step, cost, parent, edges, climb,
                      corners_a)


__all__ = ["ReachField", "reach_field", "REACH_STEP"]
