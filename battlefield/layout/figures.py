"""A candidate's figures on a coarse grid, fast enough to try thousands of tables a minute:
the same figures as `analyze` (visible_fraction, each side's hidden_from_enemy and
objective_sight_mean, reach turns) by the same rules, on cells a few times larger, and the march
on a grid rather than by the exact planner.

Sight is analyze's own kernel (geometry.sight.grid.grid_sight_rows: every pair of standing
cells decided exactly, counted per cell and per enemy zone) and objective sight is its line
kernel (geometry.sight.kernel.lines_blocked); this module is the one place the layout search
imports them from. The march is a 16-neighbour Dijkstra over a grid: cells within a mover's
radius of impassable terrain are closed, stepping between cells of different climbed heights
(standable pieces taller than the ruleset's climb_free) costs the difference. Its inches are
read as a change from the exact march on the base map (fixed terrain only), so the grid's own
bias cancels: inches = planner(base) + grid(candidate) - grid(base).

The search grid is coarse and the planner exact, so the winner is checked on analyze's default
grid (layout/check.py) and the search corrects its targets by the difference.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numba
import numpy as np
import shapely
from numba import njit

from battlefield.analysis.coverage import Grid
from battlefield.analysis.reach import (
    MOVER_BASE_MM,
    climb_free_of,
    contest_range,
    default_move,
    marches,
)
from battlefield.analysis.reach import turns as turns_of
from battlefield.geometry import MM_PER_INCH
from battlefield.geometry.sight.grid import BINS, blind_points, grid_sight_rows
from battlefield.geometry.sight.kernel import lines_blocked, may_be_inside, point_inside
from battlefield.geometry.terrain import STANDABLE
from battlefield.layout.table import Placement, Setting

SEARCH_CELLS = 700               # about this many sight cells on the search grid
MODEL_HEIGHT = 1.25              # analyze's default model height
_NEIGHBOURS = np.array([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1),
                        (1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)],
                       dtype=np.int64)


def search_spacing(width: float, depth: float) -> float:
    """A grid of about SEARCH_CELLS cells, its spacing a multiple of 0.25" (at least 0.5")."""
    s = math.sqrt(width * depth / SEARCH_CELLS)
    return max(0.5, round(s * 4) / 4)


def terrain_arrays(outlines: list[np.ndarray], heights: list[float]
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(heights, bboxes, edges, edge_start) as geometry.terrain.Layout keeps them, built from
    simple outlines without shapely."""
    if not outlines:
        return (np.zeros(0), np.zeros((0, 4)), np.zeros((0, 4)), np.zeros(1, dtype=np.int64))
    edges = np.concatenate([np.column_stack([o, np.roll(o, -1, axis=0)]) for o in outlines])
    start = np.zeros(len(outlines) + 1, dtype=np.int64)
    start[1:] = np.cumsum([len(o) for o in outlines])
    boxes = np.array([[o[:, 0].min(), o[:, 1].min(), o[:, 0].max(), o[:, 1].max()]
                      for o in outlines], dtype=np.float64)
    return np.asarray(heights, dtype=np.float64), boxes, np.ascontiguousarray(edges), start


@njit(cache=True)
def _cells(xy, standable, impassable, bboxes, heights, edges, edge_start, clearance, climb_free):
    """Per point: ground height (tallest standable piece holding it), whether it is in an
    impassable piece, whether a mover's centre there is within `clearance` of one (closed),
    and the climbed height (standable pieces taller than climb_free)."""
    n = xy.shape[0]
    ground = np.zeros(n)
    inside = np.zeros(n, dtype=np.bool_)
    closed = np.zeros(n, dtype=np.bool_)
    climb = np.zeros(n)
    c2 = clearance * clearance
    for i in range(n):
        px, py = xy[i, 0], xy[i, 1]
        for k in range(heights.shape[0]):
            x0, y0, x1, y1 = bboxes[k, 0], bboxes[k, 1], bboxes[k, 2], bboxes[k, 3]
            if impassable[k]:
                if px < x0 - clearance or px > x1 + clearance or py < y0 - clearance \
                        or py > y1 + clearance:
                    continue
                if may_be_inside(px, py, x0, y0, x1, y1) and \
                        point_inside(px, py, edges, edge_start[k], edge_start[k + 1]):
                    inside[i] = True
                    closed[i] = True
                    continue
                for e in range(edge_start[k], edge_start[k + 1]):
                    ax, ay, bx, by = edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3]
                    dx, dy = bx - ax, by - ay
                    ll = dx * dx + dy * dy
                    t = 0.0 if ll == 0.0 else ((px - ax) * dx + (py - ay) * dy) / ll
                    t = min(1.0, max(0.0, t))
                    qx, qy = ax + t * dx - px, ay + t * dy - py
                    if qx * qx + qy * qy < c2:
                        closed[i] = True
                        break
            elif standable[k] and may_be_inside(px, py, x0, y0, x1, y1) and \
                    point_inside(px, py, edges, edge_start[k], edge_start[k + 1]):
                h = heights[k]
                if h > ground[i]:
                    ground[i] = h
                if h > climb_free and h > climb[i]:
                    climb[i] = h
    return ground, inside, closed, climb


@njit(cache=True)
def _sift_down(heap_d, heap_i, j, size):
    """Restore the min-heap (distances heap_d, cells heap_i) below position j."""
    while True:
        c = 2 * j + 1
        if c >= size:
            return
        if c + 1 < size and heap_d[c + 1] < heap_d[c]:
            c += 1
        if heap_d[c] >= heap_d[j]:
            return
        heap_d[c], heap_d[j] = heap_d[j], heap_d[c]
        heap_i[c], heap_i[j] = heap_i[j], heap_i[c]
        j = c


@njit(cache=True)
def _march(nx, ny, step, closed, climb, sources, neighbours):
    """Shortest march from any source cell to every cell (16 neighbours, a binary heap)."""
    n = nx * ny
    dist = np.full(n, np.inf)
    done = np.zeros(n, dtype=np.bool_)
    heap_d = np.empty(n * 17 + sources.shape[0])
    heap_i = np.empty(n * 17 + sources.shape[0], dtype=np.int64)
    size = 0
    for s in sources:
        if closed[s]:
            continue
        dist[s] = 0.0
        heap_d[size] = 0.0
        heap_i[size] = s
        size += 1
    # heapify
    for start in range(size // 2 - 1, -1, -1):
        _sift_down(heap_d, heap_i, start, size)
    lengths = np.empty(neighbours.shape[0])
    for k in range(neighbours.shape[0]):
        lengths[k] = step * math.sqrt(neighbours[k, 0] ** 2 + neighbours[k, 1] ** 2)
    while size > 0:
        d = heap_d[0]
        u = heap_i[0]
        size -= 1
        heap_d[0] = heap_d[size]
        heap_i[0] = heap_i[size]
        _sift_down(heap_d, heap_i, 0, size)
        if done[u]:
            continue
        done[u] = True
        ux, uy = u % nx, u // nx
        for k in range(neighbours.shape[0]):
            vx, vy = ux + neighbours[k, 0], uy + neighbours[k, 1]
            if vx < 0 or vy < 0 or vx >= nx or vy >= ny:
                continue
            v = vy * nx + vx
            if closed[v] or done[v]:
                continue
            nd = d + lengths[k] + abs(climb[v] - climb[u])
            if nd < dist[v]:
                dist[v] = nd
                j = size
                heap_d[j] = nd
                heap_i[j] = v
                size += 1
                while j > 0:
                    p = (j - 1) // 2
                    if heap_d[p] > heap_d[j]:
                        heap_d[p], heap_d[j] = heap_d[j], heap_d[p]
                        heap_i[p], heap_i[j] = heap_i[j], heap_i[p]
                        j = p
                    else:
                        break
    return dist


def _inside_zone(xy: np.ndarray, outline) -> np.ndarray:
    return shapely.intersects_xy(shapely.Polygon(outline), xy[:, 0], xy[:, 1])


class Evaluator:
    """Figures of candidates of one setting on the search grid (spacing inches)."""

    def __init__(self, setting: Setting, spacing: float | None = None,
                 move: float | None = None) -> None:
        scene = setting.scene
        self.setting = setting
        self.sides = list(scene.deployment)
        self.spacing = spacing or search_spacing(scene.width, scene.depth)
        self.grid = Grid.over(scene.width, scene.depth, self.spacing)
        self.xy = np.ascontiguousarray(self.grid.centres())
        self.zone_of = {s: _inside_zone(self.xy, z) for s, z in scene.deployment.items()}
        self.objectives = np.array([[o.x, o.y] for o in scene.objectives],
                                   dtype=np.float64).reshape(-1, 2)
        self.move = default_move(scene.ruleset.id) if move is None else move
        self.climb_free = climb_free_of(scene)
        self.clearance = MOVER_BASE_MM / MM_PER_INCH / 2
        self.contest = contest_range(scene)
        # the march grid: 1" on a large board, 0.5" on a small one
        self.rstep = 1.0 if min(scene.width, scene.depth) >= 30 else 0.5
        self.rgrid = Grid.over(scene.width, scene.depth, self.rstep)
        self.rxy = np.ascontiguousarray(self.rgrid.centres())
        self.rzone = {s: np.nonzero(_inside_zone(self.rxy, z))[0].astype(np.int64)
                      for s, z in scene.deployment.items()}
        self.robj = [self._cell_of(x, y) for x, y in self.objectives]
        fixed = setting.fixed
        self.fixed_outlines = [np.asarray(p.outline, dtype=np.float64) for p in fixed]
        self.fixed_heights = [p.height for p in fixed]
        self.fixed_kinds = [p.kind for p in fixed]
        # the exact march on the base (fixed terrain only), and the grid's own on it

        base = replace(scene, terrain=tuple(fixed), units=[])
        base.__dict__.pop("layout", None)
        exact = {(m.side, m.objective): m.inches for m in marches(base)}
        self.base_inches = {s: [exact.get((s, o.id), math.inf) for o in scene.objectives]
                            for s in self.sides}
        self.base_grid = self._march_grid([], [], [])
        self.threads = numba.get_num_threads()

    def _cell_of(self, x: float, y: float) -> int:
        g = self.rgrid
        cx = min(g.nx - 1, max(0, int(x / g.sx)))
        cy = min(g.ny - 1, max(0, int(y / g.sy)))
        return cy * g.nx + cx

    # --- the pieces of a candidate ---------------------------------------------------------
    def terrain(self, placements: tuple[Placement, ...]):
        outs, hs, kinds = list(self.fixed_outlines), list(self.fixed_heights), \
            list(self.fixed_kinds)
        types = self.setting.catalogue.types
        for p in placements:
            pt = types[p[0]]
            for o in self.setting.outlines(p):
                outs.append(o)
                hs.append(pt.height)
                kinds.append(pt.kind)
        return outs, hs, kinds

    def _march_grid(self, outs, hs, kinds) -> dict[str, list[float]] | None:
        """Per side, the grid march to each objective (None: some objective unreachable)."""
        heights, boxes, edges, start = terrain_arrays(outs, hs)
        standable = np.array([k in STANDABLE for k in kinds], dtype=np.bool_)
        impassable = np.array([k == "impassable" for k in kinds], dtype=np.bool_)
        _, _, closed, climb = _cells(self.rxy, standable, impassable, boxes, heights, edges,
                                     start, self.clearance, self.climb_free)
        out: dict[str, list[float]] = {}
        nx, ny = self.rgrid.nx, self.rgrid.ny
        for s in self.sides:
            dist = _march(nx, ny, self.rstep, closed, climb, self.rzone[s], _NEIGHBOURS)
            row = []
            for c in self.robj:
                cx, cy = c % nx, c // nx
                best = dist[c]
                if not math.isfinite(best):      # the marker's cell is closed (a piece
                    for dy in (-1, 0, 1):        # beside it): the best open neighbour
                        for dx in (-1, 0, 1):
                            x, y = cx + dx, cy + dy
                            if 0 <= x < nx and 0 <= y < ny:
                                best = min(best, dist[y * nx + x]
                                           + self.rstep * math.hypot(dx, dy))
                if not math.isfinite(best):
                    return None
                row.append(best)
            out[s] = row
        return out

    # --- the figures -----------------------------------------------------------------------
    def figures(self, placements: tuple[Placement, ...]) -> dict | None:
        """visible, and per side hidden, objective and reach; None when an objective cannot
        be reached from a zone."""
        outs, hs, kinds = self.terrain(placements)
        marchs = self._march_grid(outs, hs, kinds)
        if marchs is None:
            return None
        heights, boxes, edges, start = terrain_arrays(outs, hs)
        standable = np.array([k in STANDABLE for k in kinds], dtype=np.bool_)
        impassable = np.array([k == "impassable" for k in kinds], dtype=np.bool_)
        ground, inside, _, _ = _cells(self.xy, standable, impassable, boxes, heights, edges,
                                      start, 0.0, math.inf)
        stand = np.nonzero(~inside)[0]
        pts = np.ascontiguousarray(np.column_stack([self.xy[stand],
                                                    ground[stand] + MODEL_HEIGHT]))
        n = len(pts)
        zones = {s: np.nonzero(self.zone_of[s][stand])[0] for s in self.sides}
        member = np.zeros(n, dtype=np.int64)
        for g, s in enumerate(self.sides):          # group g: the enemies of side g
            enemy = np.zeros(n, dtype=bool)
            for o in self.sides:
                if o != s:
                    enemy[zones[o]] = True
            enemy[zones[s]] = False
            member[enemy] |= np.int64(1) << np.int64(g)
        tcand = candidates_of(heights, float(pts[:, 2].min()) if n else 0.0)
        blind = blind_points(pts, tcand, boxes, heights, edges, start)
        tasks = 2 * self.threads
        tally = np.zeros((tasks, n), dtype=np.int32)
        by = np.zeros((tasks, len(self.sides), n), dtype=np.int32)
        done = np.zeros(tasks, dtype=np.int64)
        grid_sight_rows(pts, tcand, boxes, heights, edges, start, blind, member, 0, n, BINS,
                        tally, by, done)
        counts = tally.sum(axis=0)
        by_sum = by.sum(axis=0)
        out: dict = {"visible": float(counts.mean() / max(n - 1, 1)) if n else 0.0,
                     "hidden": {}, "objective": {}, "reach": {}}
        for g, s in enumerate(self.sides):
            own = zones[s]
            out["hidden"][s] = float((by_sum[g][own] == 0).mean()) if len(own) else None
        obj_eyes = self._objective_eyes(standable, boxes, heights, edges, start)
        every = np.arange(len(heights), dtype=np.int64)
        z, zi = np.zeros(0), np.zeros(0, dtype=np.int64)
        for s in self.sides:
            own = zones[s]
            if not len(obj_eyes) or not len(own):
                out["objective"][s] = None
                continue
            p = np.ascontiguousarray(np.repeat(pts[own], len(obj_eyes), axis=0))
            q = np.ascontiguousarray(np.tile(obj_eyes, (len(own), 1)))
            blocked = lines_blocked(p, q, every, boxes, heights, edges, start,
                                    zi, z, z, z, z, z, z, zi, z, z, z)
            seen = (blocked < 0).reshape(len(own), len(obj_eyes)).mean(axis=0)
            out["objective"][s] = float(seen.mean())
        for s in self.sides:
            if not len(self.objectives):
                out["reach"][s] = None
                continue
            t = [turns_of(max(0.0, b + g - g0), self.move) for b, g, g0 in
                 zip(self.base_inches[s], marchs[s], self.base_grid[s], strict=True)]
            out["reach"][s] = None if None in t else float(np.mean(t))
        return out

    def _objective_eyes(self, standable, boxes, heights, edges, start) -> np.ndarray:
        if not len(self.objectives):
            return np.zeros((0, 3))
        g, _, _, _ = _cells(np.ascontiguousarray(self.objectives), standable,
                            np.zeros(len(heights), dtype=np.bool_), boxes, heights, edges,
                            start, 0.0, math.inf)
        return np.ascontiguousarray(np.column_stack([self.objectives, g + MODEL_HEIGHT]))


def candidates_of(heights: np.ndarray, lowest_eye: float) -> np.ndarray:
    """The pieces that may block a line between eyes no lower than lowest_eye."""
    return np.nonzero(heights > lowest_eye)[0].astype(np.int64)


