"""The navigation check of computer battles: whether the players got their units out of their
deployment zones and onto the objectives, so that a table's verdict measures the table and
not bots lost behind a wall. A unit has left its zone once the centre of one of its models
has stood outside it; it has reached an objective once one of its models has stood within an
objective's control range (the ruleset's `objectives:` range, from the marker's edge), at
any moment of the battle."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import shapely

from battlefield.geometry import MM_PER_INCH
from battlefield.geometry.objectives import models_in_zone
from battlefield.rules.actions import Action
from battlefield.rules.state import State


class Tracker:
    """Watches one battle (as `rules.battle.play`'s on_action) and says, per deployment zone,
    how many units stood there at the start, how many never left it and how many never reached
    an objective. `zones`: {side: the name of the zone it deployed in, as the map names it};
    the zone's outline is the scene's deployment zone of that side (the zone it stands in)."""

    def __init__(self, state: State, zones: Mapping[str, str]) -> None:
        scene = state.scene
        shapes = {side: shapely.Polygon(pts) for side, pts in scene.deployment.items()}
        for shape in shapes.values():
            shapely.prepare(shape)
        self.shape_of = [shapes.get(u.side) for u in scene.units]
        self.zone_of = [zones.get(u.side) if shapes.get(u.side) is not None else None
                        for u in scene.units]
        rule = scene.ruleset.objectives
        self.reach = rule.range + rule.marker_mm / MM_PER_INCH / 2
        self.objectives = [(o.x, o.y) for o in scene.objectives]
        n = len(scene.units)
        self.left = np.zeros(n, dtype=bool)
        self.reached = np.zeros(n, dtype=bool)
        self._table = None
        self.see(state)

    def see(self, state: State, action: Action | None = None) -> None:
        """Look at the table as it stands (only when a model has moved or been removed)."""
        t = state.table
        if t is self._table:
            return
        self._table = t
        for u, shape in enumerate(self.shape_of):
            mine = t.unit_models[u]
            if shape is None or not len(mine) or self.left[u]:
                continue
            inside = shapely.contains_xy(shape, t.x[mine], t.y[mine])
            if not bool(np.all(inside)):
                self.left[u] = True
        if not self.objectives:
            return
        near = np.zeros(len(t), dtype=bool)
        for x, y in self.objectives:
            near |= models_in_zone(t, x, y, self.reach)
        units = t.unit[near]
        self.reached[units[units >= 0]] = True

    def report(self) -> dict[str, dict[str, Any]]:
        """{zone: {"units", "never_left_zone", "never_reached_objective"}} as counts (the
        last None when the table has no objectives)."""
        out: dict[str, dict[str, Any]] = {}
        for u, zone in enumerate(self.zone_of):
            if zone is None:
                continue
            row = out.setdefault(zone, {"units": 0, "never_left_zone": 0,
                                        "never_reached_objective": 0 if self.objectives
                                        else None})
            row["units"] += 1
            row["never_left_zone"] += int(not self.left[u])
            if self.objectives:
                row["never_reached_objective"] += int(not self.reached[u])
        return out


def shares(counts: list[dict[str, dict[str, Any]]]) -> dict[str, dict[str, float | None]]:
    """Battles' counts (Tracker.report) summed into shares per zone: {ZONE:
    {"never_left_zone", "never_reached_objective"}}, 0..1 (None: no objectives)."""
    total: dict[str, dict[str, Any]] = {}
    for c in counts:
        for zone, row in c.items():
            t = total.setdefault(zone, {"units": 0, "never_left_zone": 0,
                                        "never_reached_objective": 0})
            t["units"] += row["units"]
            t["never_left_zone"] += row["never_left_zone"]
            if row["never_reached_objective"] is None:
                t["never_reached_objective"] = None
            elif t["never_reached_objective"] is not None:
                t["never_reached_objective"] += row["never_reached_objective"]
    out: dict[str, dict[str, float | None]] = {}
    for zone in sorted(total):
        t = total[zone]
        n = t["units"]
        out[zone] = {
            "never_left_zone": round(t["never_left_zone"] / n, 4) if n else 0.0,
            "never_reached_objective": (None if t["never_reached_objective"] is None
                                        else round(t["never_reached_objective"] / n, 4)
                                        if n else 0.0)}
    return out
