"""A survey of one map for one ruleset: sight coverage, reach and fairness, as figures (JSON-ready)
and the arrays the pictures are drawn from.

Per side (deployment zone), against the enemy (the other zone, or all the others):
- sees_board: the mean share of the board a model in the zone sees;
- hidden_from_enemy: the share of the zone no cell of the enemy zone sees (safe deployment);
- objective_sight: per objective, the share of the zone that sees a model standing on it;
- reach: per objective, the shortest legal march from the zone (reach.py).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from battlefield.analysis import fairness
from battlefield.analysis.coverage import DEFAULT_HEIGHT, DEFAULT_SPACING, Coverage, coverage
from battlefield.analysis.reach import March, contest_range, default_move, marches
from battlefield.analysis.symmetry import symmetry
from battlefield.geometry.sight import Progress
from battlefield.scene.model import Scene


@dataclass
class Survey:
    scene: Scene
    coverage: Coverage
    move: float
    marches: list[March]
    seen_from: dict[str, np.ndarray]          # per side: share of its zone that sees each point
    figures: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.scene.name or Path(self.scene.file).stem

    @property
    def sides(self) -> list[str]:
        return list(self.scene.deployment)


def survey(scene: Scene, spacing: float = DEFAULT_SPACING, height: float = DEFAULT_HEIGHT,
           move: float | None = None, cache: bool = True,
           progress: Progress | None = None) -> Survey:
    """Everything the analysis says about one map (progress: hears the sight map's pairs)."""
    t0 = time.perf_counter()
    cov = coverage(scene.layout, scene.width, scene.depth, spacing, height, cache=cache,
                   zones=scene.deployment, progress=progress)
    t_sight = time.perf_counter() - t0
    move = default_move(scene.ruleset.id) if move is None else move
    if not move > 0:
        raise ValueError(f"move must be positive, not {move}")
    zones = {s: cov.zone(s, outline) for s, outline in scene.deployment.items()}
    seen_from = {s: cov.seen_from(idx) for s, idx in zones.items()}
    t1 = time.perf_counter()
    routes = marches(scene)
    t_reach = time.perf_counter() - t1
    s = Survey(scene, cov, move, routes, seen_from)
    s.figures = _figures(s, zones)
    s.figures["seconds"] = {"sight": round(t_sight, 3), "reach": round(t_reach, 3),
                            "total": round(time.perf_counter() - t0, 3)}
    return s


def _r(v: float, digits: int = 4) -> float | None:
    return round(float(v), digits) if math.isfinite(v) else None


def _figures(s: Survey, zones: dict[str, np.ndarray]) -> dict:
    scene, cov = s.scene, s.coverage
    frac = cov.fraction
    g = cov.grid
    out: dict = {
        "map": s.name, "file": str(scene.file), "ruleset": scene.ruleset.id,
        "board": {"width": scene.width, "depth": scene.depth},
        "grid": {"spacing": g.spacing, "cell": [round(g.sx, 6), round(g.sy, 6)],
                 "cells": len(g), "standing": len(cov), "blind": int(cov.sight.blind.sum())},
        "model_height": cov.height,
        "move": s.move,
        "visible_fraction": _r(cov.visible_fraction, 6),
    }
    sight: dict = {
        "visible_fraction": out["visible_fraction"],
        "least": _r(frac.min()) if len(frac) else None,
        "most": _r(frac.max()) if len(frac) else None,
        "hiding_spots": cov.hiding_spots(frac),
        "zone_to_zone": {},
    }
    sides = list(zones)
    for i, a in enumerate(sides):
        for b in sides[i + 1:]:
            sight["zone_to_zone"][f"{a}|{b}"] = _r(cov.pairs_seen(zones[a], zones[b]))
    out["sight"] = sight
    by_side: dict = {}
    reach: dict = {}
    routes = {(m.side, m.objective): m for m in s.marches}
    for side in sides:
        own = zones[side]
        enemy = cov.enemy(side)
        seen_by_enemy = cov.seen_from(enemy) if len(enemy) else np.zeros(len(cov))
        obj_sight = {o.id: _r(cov.point_seen_from(own, o.x, o.y)) for o in scene.objectives}
        reach[side] = {o.id: routes[(side, o.id)].to_dict(s.move)
                       for o in scene.objectives if (side, o.id) in routes}
        inches = [r["inches"] for r in reach[side].values()]
        finite = [v for v in inches if v is not None]
        contest = [r["contest_turns"] for r in reach[side].values()]
        by_side[side] = {
            "zone_cells": len(own),
            "sees_board": _r(frac[own].mean()) if len(own) else None,
            "hidden_from_enemy": (_r(float((seen_by_enemy[own] == 0).mean()))
                                  if len(own) and len(enemy) else None),
            "objective_sight": obj_sight,
            "objective_sight_mean": (_r(float(np.mean(list(obj_sight.values()))))
                                     if obj_sight else None),
            "reach_mean": _r(float(np.mean(finite)), 3) if finite and len(finite) == len(inches)
            else None,
            "reach_nearest": _r(min(finite), 3) if finite else None,
            "contest_turns_total": (int(sum(contest)) if contest and None not in contest
                                    else None),
            "hiding_spots": cov.hiding_spots(seen_by_enemy, among=own, count=3),
        }
    out["sides"] = by_side
    out["reach"] = reach
    out["contest_range"] = round(contest_range(scene), 3)
    out["symmetry"] = symmetry(scene)
    out["fairness"] = fairness.side_table(out)
    out["verdict"] = fairness.verdict(out)
    return out
