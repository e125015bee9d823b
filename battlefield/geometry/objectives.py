"""Objective zones and who controls each objective, parametrised by the ruleset's rule:

- control-sum (aos4): a model contests a 40 mm marker when its base edge is within `range` of the
  marker's edge; each side sums the Control of its contesting models; strictly more gains
  control, which is kept (sticky) until the other side gains it.
- model-count (skirmish): a unit is on the objective when any of its models is within `range` of
  the centre point; each side counts ALL models of its units on it; more models controls; a tie
  controls nothing, except a home objective, which its home side controls on a tie (0-0 too).
- fighters-within (warband and others): each side counts its models within `range` of the centre.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from battlefield.geometry import MM_PER_INCH
from battlefield.geometry.separation import point_distances
from battlefield.geometry.table import Table

EPS = 1e-6  # "within X" tolerance: scene coordinates are written to ~6 decimals


@dataclass(frozen=True)
class Control:
    controlled_by: str | None
    totals: dict[str, float] = field(default_factory=dict)    # side -> control / model count
    units: dict[str, list[int]] = field(default_factory=dict)  # side -> unit indices on it
    models: list[int] = field(default_factory=list)            # contesting model indices


def models_in_zone(table: Table, x: float, y: float, zone: float) -> np.ndarray:
    """Boolean per model: base edge within `zone` inches of the point (x, y)."""
    idx = np.arange(len(table), dtype=np.int64)
    d = point_distances(table.x, table.y, table.shape, table.a, table.b, table.cos, table.sin,
                        idx, float(x), float(y))
    return d <= zone + EPS


def control(table: Table, x: float, y: float, rule: str, range_: float, marker_mm: float,
            unit_sides: list[str], unit_control: list[float], home: str | None = None,
            held_by: str | None = None, sticky: bool = False, alive: np.ndarray | None = None,
            unit_bonus: list[float] | None = None) -> Control:
    """Who controls the objective at (x, y). `unit_control` is the Control characteristic of
    each unit's models (aos4); `held_by` is who controlled it before (for sticky rules);
    `unit_bonus` what is added to each unit's control score (aos4's abilities: a score never
    below 0)."""
    zone = range_ + marker_mm / MM_PER_INCH / 2
    inside = models_in_zone(table, x, y, zone)
    if alive is not None:
        inside &= alive
    totals: dict[str, float] = {}
    units: dict[str, list[int]] = {}
    inside &= table.unit >= 0        # slain models hold nothing
    on = sorted({int(table.unit[m]) for m in np.nonzero(inside)[0]})
    for u in on:
        side = unit_sides[u]
        units.setdefault(side, []).append(u)
        if rule == "control-sum":
            n = int(inside[table.unit_models[u]].sum())
            score = n * unit_control[u]
            if unit_bonus is not None:
                score = max(0.0, score + unit_bonus[u])
            totals[side] = totals.get(side, 0) + score
        elif rule == "model-count":
            members = table.unit_models[u]
            n = int(alive[members].sum()) if alive is not None else len(members)
            totals[side] = totals.get(side, 0) + n
        else:
            totals[side] = totals.get(side, 0) + int(inside[table.unit_models[u]].sum())
    best = max(totals.values(), default=0)
    leaders = [s for s, v in totals.items() if v == best and v > 0]
    if len(leaders) == 1:
        winner: str | None = leaders[0]
    elif home is not None and (not totals or home in leaders or best == 0):
        winner = home
    else:
        winner = None
    if winner is None and sticky:
        winner = held_by
    return Control(winner, totals, units, [int(m) for m in np.nonzero(inside)[0]])
