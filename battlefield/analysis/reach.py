"""Reach: how far each side must march from its deployment zone to each objective, along the
shortest legal path (around impassable terrain, climbing counted), in inches and in turns of the
ruleset's move.

The mover is a model on a 32 mm base (the commonest infantry base): its centre keeps its radius
clear of impassable terrain. Climbing follows the ruleset (RULES-NOTES): aos4 counts the height
of every piece taller than 1" climbed onto or off; skirmish crosses pieces under 2" freely.
The path starts at the point of the zone nearest the objective along the legal route (any point
of the zone may start) and ends on the objective's centre; `contest` is the same march stopped
as soon as the base is in range to contest the objective.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely

from battlefield.geometry import MM_PER_INCH
from battlefield.geometry.paths import Planner, Terrain
from battlefield.rules.deploy import armies
from battlefield.rulesets import load_ruleset
from battlefield.scene.model import Objective, Scene

MOVER_BASE_MM = 32.0
DEFAULT_CLIMB_FREE = 1.0      # without a ruleset's word: climbing counts above 1"
FALLBACK_MOVE = 6.0


def climb_free_of(scene: Scene) -> float:
    """Heights above this count as climbing: the ruleset's `analysis.climb_free`, else 1"."""
    a = scene.ruleset.analysis
    return a.climb_threshold if a is not None else DEFAULT_CLIMB_FREE


def default_move(ruleset: str) -> float:
    """Inches a typical unit moves in a turn: the ruleset's `analysis.move`, else the median
    move of its demo armies, else 6"."""
    a = load_ruleset(ruleset).analysis
    if a is not None:
        return a.move
    try:
        moves = [float(u["stats"]["move"]) for _, units in armies(ruleset) for u in units
                 if isinstance(u.get("stats"), dict)
                 and isinstance(u["stats"].get("move"), (int, float))]
    except Exception:  # noqa: BLE001 - no demo armies for this ruleset: use the fallback
        moves = []
    return float(np.median(moves)) if moves else FALLBACK_MOVE


def turns(inches: float, move: float) -> int | None:
    """Moves needed to cover a distance (0 for none; None when unreachable)."""
    if not math.isfinite(inches):
        return None
    return 0 if inches <= 1e-9 else math.ceil(inches / move - 1e-9)


@dataclass(frozen=True)
class March:
    """The shortest legal path from a zone to an objective."""

    side: str
    objective: str
    inches: float                        # to the objective's centre (inf: no legal path)
    contest_inches: float                # until the base is in range to contest it
    path: tuple[tuple[float, float], ...]

    def to_dict(self, move: float) -> dict:
        ok = math.isfinite(self.inches)
        return {"inches": round(self.inches, 3) if ok else None,
                "turns": turns(self.inches, move),
                "contest_inches": round(self.contest_inches, 3) if ok else None,
                "contest_turns": turns(self.contest_inches, move),
                "path": [[round(x, 3), round(y, 3)] for x, y in self.path]}


def contest_range(scene: Scene) -> float:
    """How far from an objective's centre a mover's centre may stop and still contest it: the
    ruleset's range from the marker's edge (aos4) or the centre (skirmish), plus the base's
    radius."""
    rule = scene.ruleset.objectives
    marker = rule.marker_mm / MM_PER_INCH / 2
    return rule.range + marker + MOVER_BASE_MM / MM_PER_INCH / 2


def marches(scene: Scene, climb_free: float | None = None) -> list[March]:
    """For each deployment zone and each objective, the shortest legal march."""
    if not scene.deployment or not scene.objectives:
        return []
    free = climb_free_of(scene) if climb_free is None else climb_free
    clearance = MOVER_BASE_MM / MM_PER_INCH / 2
    planner = Planner(Terrain(scene.layout, free, landing=clearance), [], clearance)
    reach = contest_range(scene)
    out = []
    for side, outline in scene.deployment.items():
        zone = shapely.Polygon(outline)
        shapely.prepare(zone)
        for obj in scene.objectives:
            out.append(_march(planner, side, zone, obj, reach))
    return out


def _march(planner: Planner, side: str, zone: shapely.Polygon, obj: Objective,
           reach: float) -> March:
    """The route is found backwards, from the objective to the zone (climbing costs the same
    both ways), then reversed."""
    start = (float(obj.x), float(obj.y))
    if zone.intersects(shapely.Point(start)):
        return March(side, obj.id, 0.0, 0.0, (start,))

    def goal_legs(points: np.ndarray, origin: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        pts = shapely.points(points)
        remaining = shapely.distance(pts, zone)
        ends = np.asarray(points, dtype=np.float64).copy()
        away = remaining > 0
        if away.any():
            lines = shapely.shortest_line(pts[away], zone)
            ends[away] = shapely.get_coordinates(lines).reshape(-1, 2, 2)[:, 1]
        return remaining[:, None], ends[:, None, :]

    route = planner.shortest([start], goal_legs)[0]
    if not math.isfinite(route.cost):
        return March(side, obj.id, math.inf, math.inf, ())
    path = tuple(route.path[::-1])
    return March(side, obj.id, route.cost, _short_of(planner, path, reach), path)


def _short_of(planner: Planner, path: tuple[tuple[float, float], ...], reach: float) -> float:
    """Cost of the path cut where it first comes within `reach` of its end."""
    end = np.asarray(path[-1])
    total = 0.0
    for p, q in zip(path[:-1], path[1:], strict=True):
        a, b = np.asarray(p), np.asarray(q)
        if np.hypot(*(a - end)) <= reach:
            return total
        d = b - a
        # Where along this leg the distance to the end first drops to `reach`.
        f = a - end
        qa, qb, qc = d @ d, 2 * (f @ d), f @ f - reach * reach
        disc = qb * qb - 4 * qa * qc
        if qa > 0 and disc >= 0:
            t = (-qb - math.sqrt(disc)) / (2 * qa)
            if 0.0 <= t <= 1.0:
                return total + planner.leg_cost(p, tuple(a + t * d))
        total += planner.leg_cost(p, q)
    return total
