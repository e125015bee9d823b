"""Paths across the table: how long a given path is for a moving base (climbing counted), and
the shortest legal path to a goal around impassable terrain and other models.

A moving base is treated as a disc of `clearance` radius centred on its path, and paths are for
whole bases: terrain taller than `climb_free` costs its height every time the base climbs onto
or off it, and the base is on a piece wherever any part of it is over the piece (its centre
within the piece's outline grown by the clearance), not only where its centre is. Area terrain
is walked through, impassable terrain is an obstacle. FLY movers ignore terrain and models.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely
from numba import njit

from battlefield.geometry.sight.kernel import point_inside
from battlefield.geometry.terrain import Layout, ring_edges

Point = tuple[float, float]
_EPS = 1e-7
_CIRCLE_SIDES = 32
COSTS_KEPT = 50_000     # path costs a Terrain keeps
CORNER_CLEARANCE = 0.01  # how far outside a climbable piece's corner a path turns
_ARC_SEGMENTS = 24     # per quarter circle where an outline is grown round a corner
GRAZE = 0.001          # a base over a piece's outline by less than this only touches it
_ROUND_SEGMENTS = 3    # per quarter circle of the outline a path goes round a piece by


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


def climbed_outline(poly: shapely.Polygon, clearance: float) -> shapely.Polygon:
    """Where the centre of a base of radius `clearance` has part of the base over the piece:
    the outline grown by the clearance, less GRAZE (a base touching a piece is not over it).
    The outline itself for a point mover (clearance 0)."""
    r = clearance - GRAZE
    return poly.buffer(r, quad_segs=_ARC_SEGMENTS) if r > 0 else poly


def way_round(poly: shapely.Polygon, clearance: float) -> shapely.Polygon:
    """The outline a base of radius `clearance` goes round a piece by without climbing it: a
    polygon enclosing the grown outline (its chords clear the arcs) pushed out by
    CORNER_CLEARANCE, so that a path through its corners, written to a few decimals, still
    passes clear. Its corners are where a path turns round the piece."""
    if clearance > 0:
        poly = poly.buffer(clearance / math.cos(math.pi / (4 * _ROUND_SEGMENTS)),
                           quad_segs=_ROUND_SEGMENTS)
    return poly.buffer(CORNER_CLEARANCE, join_style="mitre")


@dataclass
class Terrain:
    """What a mover meets: pieces it must climb (height > climb_free), pieces it cannot enter.
    `clearance` is the mover's half-width: wherever a base of that radius along the path is
    over a piece it climbs it (0: a point, measured by its centre alone)."""

    layout: Layout
    climb_free: float = 1.0
    landing: float = 0.0                # how far a base may travel after a jump down
    clearance: float = 0.0
    climbable: list[int] = field(init=False)
    impassable: list[int] = field(init=False)
    climb_polygons: list[shapely.Polygon] = field(init=False)   # climbed_outline of each

    def __post_init__(self) -> None:
        self.climbable = [i for i, p in enumerate(self.layout.pieces)
                          if p.kind not in ("area", "impassable") and p.height > self.climb_free]
        self.impassable = [i for i, p in enumerate(self.layout.pieces)
                           if p.kind == "impassable"]
        self.climb_polygons = [climbed_outline(self.layout.polygons[i], self.clearance)
                               for i in self.climbable]
        self._climb_polys = np.array(self.climb_polygons, dtype=object).reshape(-1)
        for poly in self._climb_polys:
            shapely.prepare(poly)
        self._climb_boxes = (shapely.bounds(self._climb_polys).astype(np.float64).reshape(-1, 4)
                             if self.climbable else np.zeros((0, 4)))
        self.climb_heights = np.asarray([self.layout.pieces[i].height for i in self.climbable],
                                        dtype=np.float64)
        self._costs: dict[tuple[bytes, tuple[int, ...]], PathCost] = {}

    def round_outline(self, j: int) -> shapely.Polygon:
        """way_round of the j-th climbable piece for this mover."""
        return way_round(self.layout.polygons[self.climbable[j]], self.clearance)

    def climbs_near(self, pts: np.ndarray) -> bool:
        """Some climbable piece's box meets the box of the points (else a path through them
        is all on the ground: no climbing, no drops)."""
        (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
        bb = self._climb_boxes
        return bool(((bb[:, 0] <= x1) & (bb[:, 2] >= x0) & (bb[:, 1] <= y1)
                     & (bb[:, 3] >= y0)).any())

    def ground(self, x: float, y: float) -> float:
        """Height of the climbable ground under a base centred at a point: the tallest
        climbable piece any part of the base is over (0 off every one)."""
        on = shapely.intersects_xy(self._climb_polys, x, y)     # the point is on (covered)
        return float(self.climb_heights[on].max()) if on.any() else 0.0

    def profile(self, line: shapely.LineString) -> list[tuple[float, float]]:
        """The ground along a path: (distance along it, height) for each stretch between the
        places where it crosses a climbable outline."""
        cuts = {0.0, line.length}
        for i in np.nonzero(shapely.intersects(line, self._climb_polys))[0]:
            poly = self._climb_polys[i]
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
        return spans

    def path_cost(self, path: Sequence[Point], fly: bool = False) -> PathCost:
        """Horizontal length and climbing of a path of points (the base's centre). Each
        path's cost is worked out once (COSTS_KEPT are kept): a player's candidate move and
        the check of it ask the same paths."""
        pts = np.asarray(path, dtype=np.float64)
        horizontal = float(np.hypot(*np.diff(pts, axis=0).T).sum()) if len(pts) > 1 else 0.0
        if fly or not self.climbable or len(pts) < 2:
            return PathCost(horizontal, 0.0)
        if not self.climbs_near(pts):
            return PathCost(horizontal, 0.0)
        key = (np.ascontiguousarray(pts).tobytes(), pts.shape)
        cost = self._costs.get(key)
        if cost is None:
            if len(self._costs) >= COSTS_KEPT:
                self._costs.clear()
            cost = self._costs[key] = self._climbing(pts, horizontal)
        return cost

    def _climbing(self, pts: np.ndarray, horizontal: float) -> PathCost:
        line = shapely.LineString(pts)
        spans = self.profile(line)
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


@njit(cache=True, inline="always")
def _orient(ax, ay, bx, by, cx, cy):
    v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    return 0 if v == 0.0 else (1 if v > 0.0 else -1)


@njit(cache=True, inline="always")
def _on(ax, ay, bx, by, cx, cy):
    return min(ax, bx) <= cx <= max(ax, bx) and min(ay, by) <= cy <= max(ay, by)


@njit(cache=True, inline="always")
def _meet(ax, ay, bx, by, cx, cy, dx, dy):
    """Segments AB and CD share a point (touching counts)."""
    o1 = _orient(ax, ay, bx, by, cx, cy)
    o2 = _orient(ax, ay, bx, by, dx, dy)
    o3 = _orient(cx, cy, dx, dy, ax, ay)
    o4 = _orient(cx, cy, dx, dy, bx, by)
    if o1 != o2 and o3 != o4:
        return True
    return ((o1 == 0 and _on(ax, ay, bx, by, cx, cy)) or (o2 == 0 and _on(ax, ay, bx, by, dx, dy))
            or (o3 == 0 and _on(cx, cy, dx, dy, ax, ay))
            or (o4 == 0 and _on(cx, cy, dx, dy, bx, by)))


@njit(cache=True, inline="always")
def segment_free(ax, ay, bx, by, edges, estart, bbox):
    """The segment AB meets none of the polygons (edges[estart[k]:estart[k+1]], bounding
    boxes bbox[k]): no edge touched and not lying inside one."""
    lo_x, hi_x = min(ax, bx), max(ax, bx)
    lo_y, hi_y = min(ay, by), max(ay, by)
    for k in range(bbox.shape[0]):
        if hi_x < bbox[k, 0] or lo_x > bbox[k, 2] or hi_y < bbox[k, 1] or lo_y > bbox[k, 3]:
            continue
        e0, e1 = estart[k], estart[k + 1]
        if point_inside(ax, ay, edges, e0, e1):
            return False
        for e in range(e0, e1):
            if _meet(ax, ay, bx, by, edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3]):
                return False
    return True


@njit(cache=True)
def segments_free(starts, ends, edges, estart, bbox):
    """For each segment, True when it meets none of the polygons (see segment_free)."""
    n = starts.shape[0]
    out = np.ones(n, dtype=np.bool_)
    for i in range(n):
        out[i] = segment_free(starts[i, 0], starts[i, 1], ends[i, 0], ends[i, 1], edges,
                              estart, bbox)
    return out


@njit(cache=True)
def segments_all_meet(starts, ends, edges, estart, bbox):
    """True when every segment meets (touches or enters) one of the polygons - the closed
    regions of part_edges: each part's rings together, holes left out."""
    for i in range(starts.shape[0]):
        if segment_free(starts[i, 0], starts[i, 1], ends[i, 0], ends[i, 1], edges, estart,
                        bbox):
            return False
    return True


def part_edges(geometry: shapely.Geometry) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(edges, start, boxes) of every polygon part of `geometry` (terrain.ring_edges: all its
    rings), as segment_free and segments_all_meet read them."""
    parts = [g for g in getattr(geometry, "geoms", [geometry])
             if isinstance(g, shapely.Polygon) and not g.is_empty]
    edges, start = ring_edges(parts)
    bbox = (np.asarray([g.bounds for g in parts], dtype=np.float64) if parts
            else np.zeros((0, 4)))
    return edges, start, bbox


@njit(cache=True, inline="always")
def segment_climb(ax, ay, bx, by, edges, estart, bbox, heights):
    """The sum over pieces of height x the number of times AB crosses the piece's outline
    (climbing onto it or off it)."""
    lo_x, hi_x = min(ax, bx), max(ax, bx)
    lo_y, hi_y = min(ay, by), max(ay, by)
    total = 0.0
    for k in range(bbox.shape[0]):
        if hi_x < bbox[k, 0] or lo_x > bbox[k, 2] or hi_y < bbox[k, 1] or lo_y > bbox[k, 3]:
            continue
        count = 0
        for e in range(estart[k], estart[k + 1]):
            cx, cy, dx, dy = edges[e, 0], edges[e, 1], edges[e, 2], edges[e, 3]
            o1 = _orient(ax, ay, bx, by, cx, cy)
            o2 = _orient(ax, ay, bx, by, dx, dy)
            o3 = _orient(cx, cy, dx, dy, ax, ay)
            o4 = _orient(cx, cy, dx, dy, bx, by)
            # A proper crossing; an edge's start on the segment counts once (at a corner).
            if o3 != o4 and o3 != 0 and o4 != 0 and o1 != o2 and o2 != 0:
                count += 1
        total += count * heights[k]
    return total


@njit(cache=True)
def crossings_cost(starts, ends, edges, estart, bbox, heights):
    """For each segment, its climbing (see segment_climb)."""
    n = starts.shape[0]
    out = np.zeros(n)
    for i in range(n):
        out[i] = segment_climb(starts[i, 0], starts[i, 1], ends[i, 0], ends[i, 1], edges,
                               estart, bbox, heights)
    return out


def edge_arrays(polys: Sequence[shapely.Polygon]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The polygons' outlines (every part's exterior) as the path kernels read them: (edges
    as rows x0, y0, x1, y1; where each polygon's edges start in them, and the end; each
    polygon's bounding box)."""
    edges, start = [], [0]
    for poly in polys:
        for g in getattr(poly, "geoms", [poly]):
            pts = np.asarray(g.exterior.coords)
            edges.append(np.column_stack([pts[:-1], pts[1:]]))
        start.append(start[-1] + sum(len(g.exterior.coords) - 1
                                     for g in getattr(poly, "geoms", [poly])))
    bbox = (np.asarray([p.bounds for p in polys], dtype=np.float64) if polys
            else np.zeros((0, 4)))
    return (np.concatenate(edges) if edges else np.zeros((0, 4)),
            np.asarray(start, dtype=np.int64), bbox)


@dataclass
class Route:
    cost: float
    path: list[Point]
    goal: int = -1                       # which goal was reached
    start: int = -1                      # which start it came from


class Planner:
    """Shortest paths among fixed obstacles, with climbing costs, on a visibility graph: the
    nodes are the corners of the grown obstacles (and of climbable pieces) inside `region`."""

    def __init__(self, terrain: Terrain, obstacles: Sequence[Obstacle], clearance: float,
                 fly: bool = False, region: tuple[float, float, float, float] | None = None
                 ) -> None:
        self.terrain = terrain
        self.fly = fly
        self.clearance = clearance
        self.region = region
        hard = [] if fly else [o for o in obstacles if _meets(o.polygon, region)]
        if not fly:
            for i in terrain.impassable:
                poly = grown_polygon(terrain.layout.polygons[i], clearance)
                if _meets(poly, region):
                    hard.append(Obstacle(poly, terrain.layout.pieces[i].id))
        self.hard = hard
        prepared = [_prepared(o) for o in hard]
        self._blockers = [p[0] for p in prepared]
        self.tree = shapely.STRtree(self._blockers) if hard else None
        self._hard = edge_arrays(self._blockers)
        # Each node's neighbours along its outline: a path turning round an obstacle or a
        # climbable piece at one of its corners does so tangent to it (see _tangent_pairs).
        nodes: list[Point] = []
        sides: list[np.ndarray] = []
        for _, corners, beside in prepared:
            nodes.extend(corners)
            sides.extend(beside)
        # The climbable pieces near the region, each as the outline its mover's centre climbs
        # it at (grown by the clearance: the whole base counts).
        near = [] if fly else [j for j, poly in enumerate(terrain.climb_polygons)
                               if _meets(poly, region)]
        self.climbable = [terrain.climbable[j] for j in near]
        polys = [terrain.climb_polygons[j] for j in near]
        self._climb = (*edge_arrays(polys), terrain.climb_heights[near])
        for j in near:
            # The corners of the way round each piece, to go round it rather than climb it.
            _ring_nodes(terrain.round_outline(j), nodes, sides)
        inside = self._inside(np.asarray(nodes, dtype=np.float64).reshape(-1, 2))
        self.nodes = [p for p, bad in zip(nodes, inside, strict=True) if not bad]
        self._sides = np.asarray([q for q, bad in zip(sides, inside, strict=True) if not bad],
                                 dtype=np.float64).reshape(-1, 4)

    def keep(self, useful: Callable[[np.ndarray], np.ndarray]) -> None:
        """Keep only the nodes (an (n, 2) array) for which useful(...) is True: a caller that
        knows a lower bound on the paths through a node leaves out nodes no wanted path uses."""
        if self.nodes:
            mask = useful(np.asarray(self.nodes, dtype=np.float64))
            self.nodes = [p for p, ok in zip(self.nodes, mask, strict=True) if ok]
            self._sides = self._sides[np.asarray(mask, dtype=bool)]

    def _inside(self, pts: np.ndarray) -> np.ndarray:
        if self.tree is None or len(pts) == 0:
            return np.zeros(len(pts), dtype=bool)
        hit, _ = self.tree.query(shapely.points(pts), predicate="intersects")
        out = np.zeros(len(pts), dtype=bool)
        out[hit] = True
        return out

    def inside_obstacle(self, p: Point) -> bool:
        return bool(self._inside(np.asarray([p], dtype=np.float64))[0])

    def free(self, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """Which straight segments starts[i] -> ends[i] touch no obstacle."""
        if self.tree is None or len(starts) == 0:
            return np.ones(len(starts), dtype=bool)
        return segments_free(np.ascontiguousarray(starts, dtype=np.float64),
                             np.ascontiguousarray(ends, dtype=np.float64), *self._hard)

    def climb(self, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """Climbing cost of straight segments: a piece's height each time one crosses its
        outline (onto it or off it)."""
        if not self.climbable or len(starts) == 0:
            return np.zeros(len(starts))
        return crossings_cost(np.ascontiguousarray(starts, dtype=np.float64),
                              np.ascontiguousarray(ends, dtype=np.float64), *self._climb)

    def leg_cost(self, p: Point, q: Point) -> float:
        a, b = np.asarray([p], dtype=np.float64), np.asarray([q], dtype=np.float64)
        return float(np.hypot(*(b - a)[0]) + self.climb(a, b)[0])

    def shortest(self, starts: Sequence[Point], goal_legs) -> list[Route]:
        """The best route to each goal from any start. `goal_legs(points, origin)` gives, for
        each point (and the start it was reached from), a (n, G) array of the straight
        distance still to cover to each goal (inf: none) and an (n, G, 2) array of where that
        last leg ends."""
        pts = np.asarray([*starts, *self.nodes], dtype=np.float64).reshape(-1, 2)
        n, k = len(pts), len(starts)
        sides = np.vstack([np.full((k, 4), np.nan), self._sides])
        ii, jj = _tangent_pairs(pts, sides)
        ok = self.free(pts[ii], pts[jj])
        ii, jj = ii[ok], jj[ok]
        w = np.hypot(*(pts[jj] - pts[ii]).T) + self.climb(pts[ii], pts[jj])
        cost = np.full((n, n), math.inf)
        cost[ii, jj] = w
        cost[jj, ii] = w
        cost[:k, :k] = math.inf               # never route through another start
        dist = np.full(n, math.inf)
        dist[:k] = 0.0
        prev = np.full(n, -1, dtype=np.int64)
        origin = np.full(n, -1, dtype=np.int64)
        origin[:k] = np.arange(k)
        done = np.zeros(n, dtype=bool)
        for _ in range(n):
            live = np.where(done, math.inf, dist)
            i = int(np.argmin(live))
            if not math.isfinite(live[i]):
                break
            done[i] = True
            better = dist[i] + cost[i] < dist
            better &= ~done
            dist[better] = dist[i] + cost[i][better]
            prev[better] = i
            origin[better] = origin[i]
        reach = np.nonzero(np.isfinite(dist))[0]
        remaining, ends = goal_legs(pts[reach], origin[reach])
        goals = remaining.shape[1]
        routes = []
        for g in range(goals):
            r = remaining[:, g]
            cand = np.nonzero(np.isfinite(r))[0]
            if len(cand) == 0:
                routes.append(Route(math.inf, [], g))
                continue
            a = pts[reach[cand]]
            b = ends[cand, g]
            moving = r[cand] > _EPS
            legal = ~moving | self.free(a, b)
            total = dist[reach[cand]] + np.where(moving, r[cand] + self.climb(a, b), 0.0)
            total = np.where(legal, total, math.inf)
            best = int(np.argmin(total))
            if not math.isfinite(total[best]):
                routes.append(Route(math.inf, [], g))
                continue
            node = int(reach[cand[best]])
            path = self._trace(prev, pts, node)
            if moving[best]:
                path.append((float(b[best, 0]), float(b[best, 1])))
            routes.append(Route(float(total[best]), path, g, int(origin[node])))
        return routes

    @staticmethod
    def _trace(prev: np.ndarray, pts: np.ndarray, i: int) -> list[Point]:
        out = []
        while i >= 0:
            out.append((float(pts[i, 0]), float(pts[i, 1])))
            i = int(prev[i])
        return out[::-1]


@njit(cache=True, inline="always")
def _tangent_at(vx, vy, px, py, sides, i):
    """The leg from corner i (at v) to p leaves it tangent to its outline: the corner's
    neighbours (sides[i]) on the same side of the line; always, for a node with no outline."""
    if math.isnan(sides[i, 0]):
        return True
    dx, dy = px - vx, py - vy
    oa = dx * (sides[i, 1] - vy) - dy * (sides[i, 0] - vx)
    ob = dx * (sides[i, 3] - vy) - dy * (sides[i, 2] - vx)
    return oa * ob >= -1e-12


@njit(cache=True)
def _tangent_pairs(pts, sides):
    """Every pair (i < j) of points whose leg leaves each end that is a corner of a way round
    a piece tangent to it. A shortest path turns round an outline only so: a leg that cuts
    into a corner's angle is always beaten by one that cuts the corner, so it is left out of
    the search (most legs at the many corners of a rounded outline)."""
    n = pts.shape[0]
    ii = np.empty(n * (n - 1) // 2, dtype=np.int64)
    jj = np.empty(n * (n - 1) // 2, dtype=np.int64)
    c = 0
    for i in range(n):
        for j in range(i + 1, n):
            if (_tangent_at(pts[i, 0], pts[i, 1], pts[j, 0], pts[j, 1], sides, i)
                    and _tangent_at(pts[j, 0], pts[j, 1], pts[i, 0], pts[i, 1], sides, j)):
                ii[c] = i
                jj[c] = j
                c += 1
    return ii[:c], jj[:c]


def _meets(poly: shapely.Geometry, region: tuple[float, float, float, float] | None) -> bool:
    if region is None:
        return True
    x0, y0, x1, y1 = poly.bounds
    return not (x1 < region[0] or x0 > region[2] or y1 < region[1] or y0 > region[3])


def grown_polygon(poly: shapely.Polygon, r: float) -> shapely.Polygon:
    """The region a base of radius r cannot enter: the outline grown by r, corners rounded and
    pushed out just enough that the chords between arc points clear the corner."""
    return poly.buffer(r / math.cos(math.pi / (4 * _ARC_SEGMENTS)), quad_segs=_ARC_SEGMENTS)


_PREPARED: OrderedDict[int, tuple] = OrderedDict()
_PREPARED_KEPT = 4096         # obstacles whose planning shapes are kept (the most recently asked)
_prepared_lock = threading.Lock()


def _prepared(o: Obstacle) -> tuple[shapely.Geometry, list[Point], list[np.ndarray]]:
    """An obstacle's blocker (shrunk a hair), its corners and each corner's neighbours (of
    the outline grown a hair), made once per obstacle: the obstacles of one table (each
    model's grown base) meet every planner made on it - each charge's odds makes one."""
    with _prepared_lock:
        got = _PREPARED.get(id(o))
        if got is not None and got[0] is o:
            _PREPARED.move_to_end(id(o))
            return got[1:]
    nodes: list[Point] = []
    sides: list[np.ndarray] = []
    _ring_nodes(o.polygon.buffer(_EPS * 100, join_style="mitre"), nodes, sides)
    made = (o, o.polygon.buffer(-_EPS * 10), nodes, sides)
    with _prepared_lock:
        _PREPARED[id(o)] = made
        if len(_PREPARED) > _PREPARED_KEPT:
            _PREPARED.popitem(last=False)
    return made[1:]


def _ring_nodes(poly: shapely.Geometry, nodes: list[Point], sides: list[np.ndarray]) -> None:
    """Add the corners of each part's exterior to `nodes` and, for each, its two neighbours
    along the ring (x0, y0, x1, y1) to `sides`."""
    for g in getattr(poly, "geoms", [poly]):
        if g.is_empty:
            continue
        ring = np.asarray(g.exterior.coords, dtype=np.float64)[:-1]
        nodes.extend((float(x), float(y)) for x, y in ring)
        sides.extend(np.column_stack([np.roll(ring, 1, axis=0), np.roll(ring, -1, axis=0)]))
