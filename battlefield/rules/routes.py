"""Routes for the computer players: the shortest way for a unit's leader to a goal round the
terrain - impassable pieces grown by the leader's clearance, climbing priced as the ruleset
prices it (the Terrain of Ruleset.move_ground) - and the moves along it that the ruleset's
allowance lets the unit make, the furthest first, each for State.check to judge.

Models are left out of the route (they move, and the check knows where each stands); terrain
is fixed, so each mover's planner (geometry.paths.Planner: a visibility graph of the corners it
turns round) is built once per layout and kept there. A wall with a gap is walked round through
the gap, not slid along."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np
import shapely

from battlefield.geometry.paths import Planner, Terrain
from battlefield.rules.actions import Action
from battlefield.rules.moves import leader
from battlefield.rules.state import State

Point = tuple[float, float]
CUTS = (1.0, 0.75, 0.5, 0.25)        # of the move, when the whole is refused
EPS = 1e-6
ROUTES_KEPT = 4096                   # routes kept per planner
SIMPLIFY = 0.005                     # inches a route's corners may be thinned out by
_SEARCH = 24                         # halvings when a route is cut at an allowance


def planner(state: State, u: int, m: int) -> Planner | None:
    """The route planner of model m of unit u (its clearance, its climbing), made once per
    layout; None for a mover terrain does not stop (FLY)."""
    t = state.table
    x, y = float(t.x[m]), float(t.y[m])
    _, terrain = state.rules.move_ground(state, u, m, (x, y, x, y))
    r = float(min(t.a[m], t.b[m]))
    if terrain is None:
        if not t.layout.pieces_with("impassable"):
            return None
        key = ("route-planner", r, None)
        return t.layout.memo(key, lambda: Planner(Terrain(t.layout, math.inf, 0.0, r), [], r))
    key = ("route-planner", r, (terrain.climb_free, terrain.landing, terrain.clearance))
    return t.layout.memo(key, lambda: Planner(terrain, [], r))


def route(state: State, u: int, goal: Point) -> list[Point]:
    """The shortest route of unit u's leader to `goal` round the terrain (a straight line when
    nothing is in the way, or when no route leaves where it stands)."""
    t = state.table
    m = leader(state, u)
    start = (float(t.x[m]), float(t.y[m]))
    p = planner(state, u, m)
    if p is None:
        return [start, (float(goal[0]), float(goal[1]))]
    # Kept with the planner's layout, by where the leader stands and the goal: the unit's
    # route asked again after other units moved is the same route.
    kept: OrderedDict = t.layout.memo(("routes", id(p)), OrderedDict)
    key = (round(start[0], 4), round(start[1], 4), round(goal[0], 4), round(goal[1], 4))
    if key in kept:
        kept.move_to_end(key)
        return kept[key]

    def legs(pts: np.ndarray, origin: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        d = np.hypot(pts[:, 0] - goal[0], pts[:, 1] - goal[1])[:, None]
        return d, np.broadcast_to(np.array(goal, dtype=np.float64), (len(pts), 1, 2))

    def find() -> list[Point]:
        found = p.shortest([start], legs)[0]
        if not math.isfinite(found.cost):       # it stands where no route starts: straight on
            return [start, (float(goal[0]), float(goal[1]))]
        return simplified([start, *found.path[1:]])

    kept[key] = found = find()
    if len(kept) > ROUTES_KEPT:
        kept.popitem(last=False)
    return found


def simplified(path: Sequence[Point], tolerance: float = SIMPLIFY) -> list[Point]:
    """The route with the many corners of a rounded outline it goes round thinned out (none
    moved further than `tolerance` off it: less than the overlap the move checks allow)."""
    if len(path) < 3:
        return [tuple(map(float, p)) for p in path]
    line = shapely.simplify(shapely.LineString(path), tolerance, preserve_topology=False)
    return [(float(x), float(y)) for x, y in shapely.get_coordinates(line)]


def length(path: Sequence[Point]) -> float:
    pts = np.asarray(path, dtype=np.float64)
    return float(np.hypot(*np.diff(pts, axis=0).T).sum()) if len(pts) > 1 else 0.0


def prefix(path: Sequence[Point], distance: float) -> list[Point]:
    """The first `distance` inches of a path (the whole when it is shorter)."""
    out = [tuple(map(float, path[0]))]
    left = distance
    for a, b in zip(path[:-1], path[1:], strict=True):
        leg = math.hypot(b[0] - a[0], b[1] - a[1])
        if leg >= left:
            f = left / leg if leg > 0 else 0.0
            out.append((a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f))
            return [(round(x, 4), round(y, 4)) for x, y in out]
        out.append((float(b[0]), float(b[1])))
        left -= leg
    return [(round(x, 4), round(y, 4)) for x, y in out]


def cut(state: State, u: int, path: Sequence[Point], allowance: float) -> list[Point]:
    """The longest first part of the leader's path the allowance pays for, by the ruleset's
    own measure (Ruleset.move_cost: climbing counted)."""
    m = leader(state, u)
    whole = length(path)
    if whole <= EPS:
        return list(path)

    def cost(d: float) -> float:
        return state.rules.move_cost(state, u, m, np.asarray(prefix(path, d)))[0]

    if cost(whole) <= allowance + EPS:
        return prefix(path, whole)
    lo, hi = 0.0, min(whole, allowance)
    if cost(hi) <= allowance + EPS:
        lo, hi = hi, whole
    for _ in range(_SEARCH):
        mid = (lo + hi) / 2
        if cost(mid) <= allowance + EPS:
            lo = mid
        else:
            hi = mid
        if hi - lo < 0.01:
            break
    return prefix(path, lo)


def toward(state: State, u: int, kind: str, goal: Point, allowance: float | None = None,
           stop: float = 0.0, cuts: Sequence[float] = CUTS) -> list[Action]:
    """Moves of type `kind` for unit u along its route to `goal`: as far as the allowance
    (default: the ruleset's for `kind`) takes it but no nearer than `stop` inches to the goal,
    then shorter cuts of that - the furthest first, none refused here (State.check judges)."""
    path = route(state, u, goal)
    if len(path) < 2:
        return []
    allowance = state.rules.move_allowance(state, u, kind) if allowance is None else allowance
    if not allowance or allowance <= 0:
        return []
    whole = length(path)
    path = prefix(path, max(0.0, whole - stop))
    far = cut(state, u, path, float(allowance))
    reach = length(far)
    if reach <= 0.05:
        return []
    unit = state.scene.units[u].id
    out, seen = [], set()
    for f in cuts:
        pts = prefix(far, reach * f) if f < 1.0 else far
        key = tuple(pts[-1])
        if length(pts) <= 0.05 or key in seen:
            continue
        seen.add(key)
        out.append(Action(kind, unit=unit, path=tuple(pts)))
    return out


__all__ = ["cut", "length", "planner", "prefix", "route", "toward"]
