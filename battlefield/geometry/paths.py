"""Paths across the table: how long a given path is for a moving base (climbing counted), and
the shortest legal path to a goal around impassable terrain and other models.

A moving base is treated as a disc of `clearance` radius centred on its path. Terrain taller
than `climb_free` costs its height every time the path climbs onto or off it (area terrain is
walked through, impassable terrain is an obstacle). FLY movers ignore terrain and models.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely

from battlefield.geometry.terrain import Layout

Point = tuple[float, float]
_EPS = 1e-7
_CIRCLE_SIDES = 12


@dataclass(frozen=True)
class PathCost:
    """A path's cost: horizontal length plus vertical distance climbed (and climbed down)."""

    horizontal: float
    vertical: float
    drop_at_end: float = 0.0          # the last step down, which may be a jump (ends the move)

    @property
    def total(self) -> float:
        return self.horizontal + self.vertical

    @property
    def total_if_jumping(self) -> float:
        """Cost when the final drop is a jump down: free, but it ends the move."""
        return self.total - self.drop_at_end


@dataclass
class Terrain:
    """What a mover meets: pieces it must climb (height > climb_free), pieces it cannot enter."""

    layout: Layout
    climb_free: float = 1.0
    landing: float = 0.0                # how far a base may travel after a jump down (its radius)
    climbable: list[int] = field(init=False)
    impassable: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.climbable = [i for i, p in enumerate(self.layout.pieces)
                          if p.kind not in ("area", "impassable") and p.height > self.climb_free]
        self.impassable = [i for i, p in enumerate(self.layout.pieces)
                           if p.kind == "impassable"]

    def ground(self, x: float, y: float) -> float:
        """Height of the climbable ground at a point (0 off every climbable piece)."""
        h = 0.0
        for i in self.climbable:
            if self.layout.polygons[i].covers(shapely.Point(x, y)):
                h = max(h, self.layout.pieces[i].height)
        return h

    def path_cost(self, path: Sequence[Point], fly: bool = False) -> PathCost:
        """Horizontal length and climbing of a path of points (the base's centre)."""
        pts = np.asarray(path, dtype=np.float64)
        horizontal = float(np.hypot(*np.diff(pts, axis=0).T).sum()) if len(pts) > 1 else 0.0
        if fly or not self.climbable or len(pts) < 2:
            return PathCost(horizontal, 0.0)
        line = shapely.LineString(pts)
        # Cut the path where it crosses a climbable outline and read the ground between cuts.
        cuts = {0.0, line.length}
        for i in self.climbable:
            poly = self.layout.polygons[i]
            if not line.intersects(poly):
                continue
            crossing = line.intersection(poly.boundary)
            for g in getattr(crossing, "geoms", [crossing]):
                for c in np.asarray(shapely.get_coordinates(g)):
                    cuts.add(float(line.project(shapely.Point(c))))
        marks = sorted(cuts)
        spans = []
        for s0, s1 in zip(marks[:-1], marks[1:], strict=True):
            if s1 - s0 < _EPS:
                continue
            mid = line.interpolate((s0 + s1) / 2)
            spans.append((s0, self.ground(mid.x, mid.y)))
        vertical, last_drop, prev = 0.0, 0.0, self.ground(*pts[0])
        for s0, h in spans:
            step = h - prev
            if abs(step) > self.climb_free + _EPS:
                vertical += abs(step)
                # A drop can be a jump (free, ends the move) when only the landing follows.
                landing = line.length - s0 <= self.landing + _EPS
                last_drop = -step if step < 0 and landing else 0.0
            elif abs(step) > _EPS:
                last_drop = 0.0
            prev = h
        return PathCost(horizontal, vertical, last_drop)


@dataclass(frozen=True)
class Obstacle:
    """A region a moving base's centre may not enter (already grown by the clearance)."""

    polygon: shapely.Polygon
    name: str


def disc(x: float, y: float, r: float, sides: int = _CIRCLE_SIDES) -> shapely.Polygon:
    """A polygon just enclosing a circle (so a path round it clears the circle)."""
    rr = r / math.cos(math.pi / sides)
    t = np.linspace(0, 2 * math.pi, sides, endpoint=False)
    return shapely.Polygon(np.column_stack([x + rr * np.cos(t), y + rr * np.sin(t)]))


@dataclass
class Route:
    cost: float
    path: list[Point]
    goal: int = -1                       # which goal was reached


class Planner:
    """Shortest paths for one mover among fixed obstacles, with climbing costs."""

    def __init__(self, terrain: Terrain, obstacles: Sequence[Obstacle], clearance: float,
                 fly: bool = False) -> None:
        self.terrain = terrain
        self.fly = fly
        self.clearance = clearance
        hard = [] if fly else list(obstacles)
        if not fly:
            for i in terrain.impassable:
                poly = terrain.layout.polygons[i].buffer(clearance, join_style="mitre",
                                                         mitre_limit=2.0)
                hard.append(Obstacle(poly, terrain.layout.pieces[i].id))
        self.hard = hard
        self._blockers = [o.polygon.buffer(-_EPS * 10) for o in hard]
        self.tree = shapely.STRtree(self._blockers) if hard else None
        nodes: list[Point] = []
        for o in hard:
            nodes.extend(_corners(o.polygon.buffer(_EPS * 100, join_style="mitre")))
        if not fly:
            for i in terrain.climbable:
                grown = terrain.layout.polygons[i].buffer(clearance + _EPS * 100,
                                                          join_style="mitre", mitre_limit=2.0)
                nodes.extend(_corners(grown))
        self.nodes = [p for p in nodes if not self.inside_obstacle(p)]

    def inside_obstacle(self, p: Point) -> bool:
        if self.tree is None:
            return False
        hits = self.tree.query(shapely.Point(p), predicate="intersects")
        return len(hits) > 0

    def free(self, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """Which straight segments starts[i] -> ends[i] touch no obstacle."""
        ok = np.ones(len(starts), dtype=bool)
        if self.tree is None or len(starts) == 0:
            return ok
        lines = shapely.linestrings(np.stack([starts, ends], axis=1))
        hit, _ = self.tree.query(lines, predicate="intersects")
        ok[hit] = False
        return ok

    def leg_cost(self, p: Point, q: Point) -> float:
        return self.terrain.path_cost([p, q], self.fly).total

    def shortest(self, start: Point, goal_cost, goal_target, goals: int = 1,
                 limit: float = math.inf) -> list[Route]:
        """Shortest routes from start. For each reachable node n, `goal_cost(n)` gives for each
        goal the straight distance still to cover (inf when unreachable) and `goal_target(n, g)`
        the point where that last straight leg ends. Returns the best route per goal."""
        pts = [start, *self.nodes]
        n = len(pts)
        arr = np.asarray(pts, dtype=np.float64)
        dist = np.full(n, math.inf)
        prev = np.full(n, -1, dtype=np.int64)
        dist[0] = 0.0
        heap = [(0.0, 0)]
        done = np.zeros(n, dtype=bool)
        best = [Route(math.inf, [], g) for g in range(goals)]
        while heap:
            d, i = heapq.heappop(heap)
            if done[i] or d > limit:
                continue
            done[i] = True
            p = pts[i]
            remaining = goal_cost(p)
            for g in range(goals):
                r = remaining[g]
                if not math.isfinite(r) or d + r >= best[g].cost:
                    continue
                end = goal_target(p, g)
                if r <= _EPS or self.free(arr[[i]], np.asarray([end]))[0]:
                    extra = r + (self.leg_cost(p, end) - math.dist(p, end)) if r > _EPS else 0.0
                    if d + extra < best[g].cost:
                        best[g] = Route(d + extra, [*self._trace(prev, pts, i), end], g)
            todo = np.nonzero(~done)[0]
            if len(todo) == 0:
                break
            ok = self.free(np.repeat(arr[[i]], len(todo), axis=0), arr[todo])
            for j in todo[ok]:
                nd = d + self.leg_cost(p, pts[j])
                if nd < dist[j]:
                    dist[j] = nd
                    prev[j] = i
                    heapq.heappush(heap, (nd, int(j)))
        return best

    def _trace(self, prev: np.ndarray, pts: list[Point], i: int) -> list[Point]:
        out = []
        while i >= 0:
            out.append(pts[i])
            i = int(prev[i])
        return out[::-1]


def _corners(poly: shapely.Geometry) -> list[Point]:
    out: list[Point] = []
    for g in getattr(poly, "geoms", [poly]):
        if g.is_empty:
            continue
        out.extend((float(x), float(y)) for x, y in np.asarray(g.exterior.coords)[:-1])
    return out
