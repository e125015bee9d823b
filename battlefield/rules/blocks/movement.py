"""How a block moves: along a path, its rectangle swept from pose to pose, stopping where it
first touches something (another block, impassable terrain, the table edge); the shortest paths
of charges, marches and routs round impassable terrain and other blocks (geometry.paths).

A block's pose is (x, y, facing). Along each leg of a path it faces the way it goes (orders and
routs) or keeps the facing it had (a move under direct control), and turns in place at the
path's corners; a turn that would overlap something stops it where it is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from battlefield.geometry.bases import RECT, outline_points
from battlefield.geometry.paths import Obstacle, Planner, Terrain
from battlefield.rules.actions import Action
from battlefield.rules.moves import starting_at
from battlefield.rules.state import State

AREA = 1e-4             # overlap (sq in) still counted as touching where a move ends
EXACT = 1e-9            # ... where a block moving on is stopped at contact
EDGES = ("south", "north", "west", "east")
FAR = 1000.0


def heading(p: Sequence[float], q: Sequence[float]) -> float:
    """The facing (degrees) of a leg from p to q."""
    return math.degrees(math.atan2(q[1] - p[1], q[0] - p[0])) % 360.0


def rect(x: float, y: float, facing: float, a: float, b: float) -> shapely.Polygon:
    return shapely.Polygon(outline_points(RECT, a, b, x, y, facing, 4))


def block(state: State, u: int) -> tuple[int, float, float]:
    """(table index, half-depth a, half-frontage b) of unit u's block."""
    m = int(state.models_of(u)[0])
    t = state.table
    return m, float(t.a[m]), float(t.b[m])


def pose(state: State, u: int) -> tuple[float, float, float]:
    m = int(state.models_of(u)[0])
    t = state.table
    return float(t.x[m]), float(t.y[m]), float(t.facing[m])


def board_walls(width: float, depth: float) -> list[shapely.Polygon]:
    """Four slabs just outside the table: touching one is touching the table edge."""
    return [shapely.box(-FAR, -FAR, width + FAR, 0), shapely.box(-FAR, depth, width + FAR,
                                                                 depth + FAR),
            shapely.box(-FAR, -FAR, 0, depth + FAR), shapely.box(width, -FAR, width + FAR,
                                                                 depth + FAR)]


@dataclass
class Ground:
    """What a moving block may not overlap: polygons with names (unit ids, piece ids, edges)."""

    shapes: list[shapely.Polygon]
    names: list[str]

    def overlapping(self, poly: shapely.Geometry, tolerance: float = AREA) -> list[int]:
        """The shapes `poly` overlaps by more than `tolerance` square inches."""
        if not self.shapes:
            return []
        area = shapely.area(shapely.intersection(poly, np.asarray(self.shapes, dtype=object)))
        return [int(i) for i in np.nonzero(area > tolerance)[0]]

    def touching(self, poly: shapely.Geometry, within: float = 0.1) -> list[int]:
        if not self.shapes:
            return []
        d = shapely.distance(poly, np.asarray(self.shapes, dtype=object))
        return [int(i) for i in np.nonzero(d <= within)[0]]


def ground(state: State, u: int, skip: Sequence[int] = (), walls: bool = True) -> Ground:
    """Everything unit u's block may not overlap: the other blocks on the table (but `skip`),
    impassable terrain and (walls) the table's edges."""
    t = state.table
    shapes, names = [], []
    for w, spec in enumerate(state.scene.units):
        if w == u or w in skip or not len(state.models_of(w)):
            continue
        m = int(state.models_of(w)[0])
        shapes.append(rect(float(t.x[m]), float(t.y[m]), float(t.facing[m]), float(t.a[m]),
                           float(t.b[m])))
        names.append(spec.id)
    layout = t.layout
    for k in layout.pieces_with("impassable"):
        shapes.append(layout.polygons[k])
        names.append(layout.pieces[k].id)
    if walls:
        for name, wall in zip(EDGES, board_walls(t.width, t.depth), strict=True):
            shapes.append(wall)
            names.append(f"the {name} table edge")
    return Ground(shapes, names)


@dataclass
class Travel:
    """Where a block went: the poses it passed (x, y, facing), how far its centre moved, and
    what stopped it (names; empty when it went the whole way)."""

    poses: list[tuple[float, float, float]]
    distance: float
    stopped_by: list[str]

    @property
    def end(self) -> tuple[float, float, float]:
        return self.poses[-1]

    def path(self) -> list[list[float]]:
        return [[round(x, 6), round(y, 6)] for x, y, _ in self.poses]


def travel(start: tuple[float, float, float], legs: Sequence[tuple[float, float, float]],
           a: float, b: float, budget: float, where: Ground) -> Travel:
    """Move a block from `start` through the poses `legs` (each leg: go to (x, y) facing f;
    it turns to f first, in place) until `budget` inches are spent or it touches something."""
    x, y, f = start
    poses = [start]
    spent = 0.0
    for nx, ny, nf in legs:
        if abs((nf - f + 180.0) % 360.0 - 180.0) > 1e-9:
            hit = where.overlapping(rect(x, y, nf, a, b))
            if hit:
                return Travel(poses, spent, [where.names[i] for i in hit])
            f = nf
            poses.append((x, y, f))
        length = math.hypot(nx - x, ny - y)
        if length <= 1e-12:
            continue
        room = min(length, budget - spent)
        if room <= 1e-12:
            return Travel(poses, spent, [])
        go, hit = _leg((x, y), (nx, ny), f, a, b, room, where)
        spent += go
        x, y = x + (nx - x) * go / length, y + (ny - y) * go / length
        poses.append((x, y, f))
        if hit:
            touched = where.touching(rect(x, y, f, a, b), 1e-3)
            return Travel(poses, spent, [where.names[i] for i in touched or hit])
        if room < length - 1e-12:
            return Travel(poses, spent, [])
    return Travel(poses, spent, [])


def _corners(x: float, y: float, f: float, a: float, b: float) -> np.ndarray:
    th = math.radians(f)
    c, s = math.cos(th), math.sin(th)
    local = np.array([[a, b], [a, -b], [-a, -b], [-a, b]])
    return np.column_stack([x + local[:, 0] * c - local[:, 1] * s,
                            y + local[:, 0] * s + local[:, 1] * c])


def _leg(p: tuple[float, float], q: tuple[float, float], f: float, a: float, b: float,
         room: float, where: Ground) -> tuple[float, list[int]]:
    """How far (up to `room`) a block facing f gets from p towards q before its swept
    rectangle overlaps something, and what it met (empty: it went `room`)."""
    length = math.hypot(q[0] - p[0], q[1] - p[1])
    ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
    start = _corners(p[0], p[1], f, a, b)

    def swept(s: float) -> shapely.Geometry:
        return shapely.convex_hull(shapely.multipoints(np.vstack([start, start + [ux * s,
                                                                                  uy * s]])))

    hit = where.overlapping(swept(room))
    if not hit:
        return room, []
    lo, hi = 0.0, room                  # lo: free, hi: overlaps (stop at contact, exactly)
    while hi - lo > 1e-9:
        mid = (lo + hi) / 2
        if where.overlapping(swept(mid), EXACT):
            hi = mid
        else:
            lo = mid
    return lo, hit


def trip(state: State, u: int, action: Action) -> tuple[Travel, float]:
    """Unit u's block along a move's path (under direct control: it keeps its facing, turned
    to the action's `facing` at the end), stopping where it first touches something; and the
    path's length."""
    x, y, f = pose(state, u)
    m, a, b = block(state, u)
    pts = starting_at(state.table, m, np.asarray(action.path, dtype=np.float64))
    length = float(np.hypot(*np.diff(pts, axis=0).T).sum())
    legs = [(float(p[0]), float(p[1]), f) for p in pts[1:]]
    if action.facing is not None:
        legs.append((float(pts[-1][0]), float(pts[-1][1]), float(action.facing)))
    return travel((x, y, f), legs, a, b, length + 1e-9, ground(state, u)), length


def straight(state: State, u: int, distance: float, backwards: bool = False) -> Travel:
    """advance (ahead) or withdraw (back, keeping its facing) up to `distance`."""
    m, a, b = block(state, u)
    x, y, f = pose(state, u)
    sign = -1.0 if backwards else 1.0
    th = math.radians(f)
    to = (x + sign * distance * math.cos(th), y + sign * distance * math.sin(th), f)
    return travel((x, y, f), [to], a, b, distance, ground(state, u))


def facing_legs(points: Sequence[Sequence[float]], last: float | None = None
                ) -> list[tuple[float, float, float]]:
    """Legs that face the way they go; the final facing `last` once there (if given)."""
    legs = []
    for p, q in zip(points[:-1], points[1:], strict=True):
        if math.hypot(q[0] - p[0], q[1] - p[1]) > 1e-9:
            legs.append((float(q[0]), float(q[1]), heading(p, q)))
    if last is not None and points:
        q = points[-1]
        legs.append((float(q[0]), float(q[1]), float(last) % 360.0))
    return legs


# --- shortest paths -------------------------------------------------------------------------------
def planner(state: State, u: int, avoid: Sequence[int], clearance: float) -> Planner:
    """Shortest paths for unit u's block centre round impassable terrain and the blocks of
    `avoid`, keeping `clearance` (its half-diagonal) from them. A block already touching one
    of them is not kept from it (it starts inside the grown outline)."""
    t = state.table
    x, y, _ = pose(state, u)
    obstacles = []
    for w in avoid:
        if not len(state.models_of(w)):
            continue
        m = int(state.models_of(w)[0])
        grown = rect(float(t.x[m]), float(t.y[m]), float(t.facing[m]), float(t.a[m]),
                     float(t.b[m])).buffer(clearance, join_style="mitre")
        if grown.contains(shapely.Point(x, y)):
            continue
        obstacles.append(Obstacle(grown, state.scene.units[w].id))
    terrain = Terrain(t.layout, climb_free=math.inf)
    return Planner(terrain, obstacles, clearance)


def route_to(state: State, u: int, goal: tuple[float, float], avoid: Sequence[int]
             ) -> list[tuple[float, float]] | None:
    """The shortest path of unit u's centre to a point, or None when there is none: keeping
    its half-diagonal clear of impassable terrain and the blocks of `avoid`, or - when it
    stands closer than that to a piece - half its frontage, then half its depth."""
    _, a, b = block(state, u)
    x, y, _ = pose(state, u)
    gx, gy = goal

    def legs(pts: np.ndarray, origin: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        d = np.hypot(pts[:, 0] - gx, pts[:, 1] - gy)[:, None]
        ends = np.broadcast_to(np.array([gx, gy]), (len(pts), 1, 2))
        return d, ends

    for r in (math.hypot(a, b), b, min(a, b)):
        if straight_clear(state, (x, y), goal, avoid, r):
            return [(x, y), (gx, gy)]
        found = planner(state, u, avoid, r).shortest([(x, y)], legs)[0]
        if math.isfinite(found.cost):
            return [tuple(p) for p in found.path]
    return None


def straight_clear(state: State, p: tuple[float, float], q: tuple[float, float],
                   avoid: Sequence[int], clearance: float) -> bool:
    """The straight line p-q keeps `clearance` from impassable terrain and the blocks of
    `avoid` (those it starts touching aside): the shortest path when it is clear."""
    corridor = shapely.LineString([p, q]).buffer(clearance)
    start = shapely.Point(p)
    t = state.table
    if any(t.layout.polygons[k].intersects(corridor)
           for k in t.layout.pieces_with("impassable")):
        return False
    for w in avoid:
        if len(state.models_of(w)):
            m = int(state.models_of(w)[0])
            shape = rect(float(t.x[m]), float(t.y[m]), float(t.facing[m]), float(t.a[m]),
                         float(t.b[m]))
            if shape.intersects(corridor) and shape.distance(start) > clearance:
                return False
    return True


def edge_goal(edge: str, width: float, depth: float, px: np.ndarray, py: np.ndarray, a: float
              ) -> tuple[np.ndarray, np.ndarray]:
    """Straight distance from centres (px, py) to where a block of half-depth a, facing the
    edge, touches it, and that point."""
    if edge == "south":
        return np.maximum(py - a, 0.0), np.stack([px, np.minimum(py, a)], axis=-1)
    if edge == "north":
        return (np.maximum(depth - a - py, 0.0),
                np.stack([px, np.maximum(py, depth - a)], axis=-1))
    if edge == "west":
        return np.maximum(px - a, 0.0), np.stack([np.minimum(px, a), py], axis=-1)
    return (np.maximum(width - a - px, 0.0),
            np.stack([np.maximum(px, width - a), py], axis=-1))


EDGE_FACING = {"south": 270.0, "north": 90.0, "west": 180.0, "east": 0.0}


@dataclass
class Rout:
    edge: str
    distance: float
    path: list[tuple[float, float]]


def rout_route(state: State, u: int, edge: str) -> Rout | None:
    """The shortest route by which routing unit u reaches its table edge, round impassable
    terrain and enemy blocks: its centre keeps its half-diagonal clear of them (room to turn
    anywhere on the way) and the route ends where its front, facing the edge, touches it. None
    when there is no way."""
    _, a, b = block(state, u)
    side = state.side_of(u)
    foes = [w for w, s in enumerate(state.scene.units) if s.side != side]
    plan = planner(state, u, foes, math.hypot(a, b))
    x, y, _ = pose(state, u)
    t = state.table

    def legs(pts: np.ndarray, origin: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        d, ends = edge_goal(edge, t.width, t.depth, pts[:, 0], pts[:, 1], a)
        return d[:, None], ends[:, None, :]

    r = plan.shortest([(x, y)], legs)[0]
    if not math.isfinite(r.cost):
        return None
    return Rout(edge, float(r.cost), [(float(p[0]), float(p[1])) for p in r.path])


def nearest_edge(width: float, depth: float, x: float, y: float) -> str:
    d = {"south": y, "north": depth - y, "west": x, "east": width - x}
    return min(EDGES, key=lambda e: (d[e], EDGES.index(e)))


def zone_edge(zone: Sequence[Sequence[float]], width: float, depth: float) -> str | None:
    """The table edge a deployment zone touches (the one it touches along most, if several)."""
    poly = shapely.Polygon(zone)
    walls = board_walls(width, depth)
    touch = [float(shapely.intersection(poly.boundary, w.boundary).length) for w in walls]
    best = int(np.argmax(touch))
    return EDGES[best] if touch[best] > 1e-9 else None
