"""Unit coherency: each model within `distance` (horizontally, base edge to base edge) of enough
other models of its unit, and - where the ruleset asks - the unit one connected group."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from battlefield.geometry.table import Table

EPS = 1e-6  # "within X" tolerance: scene coordinates are written to ~6 decimals


@dataclass(frozen=True)
class CoherencyResult:
    coherent: bool
    breaks: list[int] = field(default_factory=list)       # model indices at fault
    reasons: dict[int, str] = field(default_factory=dict)  # model index -> why
    groups: int = 1


def _nth(n: int) -> str:
    return {1: "nearest model", 2: "2nd nearest", 3: "3rd nearest"}.get(n, f"{n}th nearest")


def _groups(adj: np.ndarray) -> list[list[int]]:
    n = len(adj)
    seen = np.zeros(n, dtype=bool)
    groups = []
    for start in range(n):
        if seen[start]:
            continue
        stack, group = [start], []
        seen[start] = True
        while stack:
            i = stack.pop()
            group.append(i)
            for j in np.nonzero(adj[i] & ~seen)[0]:
                seen[j] = True
                stack.append(int(j))
        groups.append(sorted(group))
    return groups


def coherency(table: Table, models: np.ndarray, distance: float, needed: int,
              one_group: bool, leader: int | None = None) -> CoherencyResult:
    """Check one unit. `needed` neighbours per model; `leader` (a model index) keeps its group
    when the unit is split, otherwise the largest group does."""
    models = np.asarray(models, dtype=np.int64)
    n = len(models)
    if n <= 1 or (needed == 0 and not one_group):
        return CoherencyResult(True)
    d = table.distances(models, models)
    adj = d <= distance + EPS
    np.fill_diagonal(adj, False)
    counts = adj.sum(axis=1)
    reasons: dict[int, str] = {}
    for i in np.nonzero(counts < needed)[0]:
        others = np.sort(np.delete(d[i], i))
        gap = others[min(needed, len(others)) - 1] if len(others) else 0.0
        reasons[int(models[i])] = (f"within {distance:g}\" of {int(counts[i])} other model"
                                   f"{'s' if counts[i] != 1 else ''}, needs {needed}; "
                                   f"the {_nth(needed)} is {gap:.2f}\" away")
    groups = _groups(adj)
    if one_group and len(groups) > 1:
        keep = max(groups, key=len)
        where = np.nonzero(models == leader)[0] if leader is not None else []
        if len(where):                       # the leader's group stays (when it still stands)
            for g in groups:
                if int(where[0]) in g:
                    keep = g
        for g in groups:
            if g is keep:
                continue
            for i in g:
                reasons.setdefault(int(models[i]), f"not connected to the rest of the unit "
                                                   f"({len(groups)} separate groups)")
    breaks = sorted(reasons)
    return CoherencyResult(not breaks, breaks, reasons, len(groups))
