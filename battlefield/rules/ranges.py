"""Where a move may and may not go among the enemy: the ranges it keeps out of on the way and
at its end (Keep), where it must arrive (Arrive) and what it may end no further from (a
pile-in) - the parameters of the one move check (rules.moves.check_move) that say what a move
may pass through and end in."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from battlefield.geometry.sight import SightModel
from battlefield.geometry.table import Table
from battlefield.rules.actions import Violation
from battlefield.rules.refusals import ModelNames, about, v
from battlefield.rules.state import State
from battlefield.rulings import Referee

EPS = 1e-6


class Moving(Protocol):
    """The models that move and each one's path (rules.moves.Moves)."""

    models: np.ndarray
    paths: list[np.ndarray]


@dataclass(frozen=True)
class Keep:
    """Enemy units whose range a move keeps out of. `reach`: within this of a model of theirs
    (base edge to base edge, horizontally, or at the bases' elevations with `three_d`);
    `combat`: their range is combat as the scene's ruleset rules it (within its combat range
    and, where it says so, visible to each other) instead. `passing`: no point of a moving
    model's path - its end included - may come within it; `ending`: no model may end within
    it, `every` model of the unit (moved or not) or only the moved ones. `foes(state, u)`:
    the enemy units it is about (default: every enemy unit on the table). `code` and `what`
    name it in the violation ("combat", "combat range", "engaged")."""

    reach: float
    passing: bool = False
    ending: bool = True
    every: bool = True
    combat: bool = False
    three_d: bool = False
    foes: Callable[[State, int], Sequence[int]] | None = None
    code: str = "ends_in_combat_range"
    what: str = "combat range"


@dataclass(frozen=True)
class Arrive:
    """Where a move must end: a model of the unit within `within` of a model of one of
    `units` (that it can see from there, with `sight`)."""

    units: tuple[int, ...]
    within: float
    sight: bool = False
    code: str = "not_reached"


def foes_of(state: State, u: int, k: Keep) -> list[int]:
    if k.foes is not None:
        return [w for w in k.foes(state, u) if len(state.models_of(w))]
    return state.enemies(u)


def kept(state: State, u: int, moves: Moving, after: Table, k: Keep) -> list[Violation]:
    """The first place a path comes within the range of `k` (passing), else the closest model
    that ends within it (ending)."""
    foes = foes_of(state, u, k)
    if not foes:
        return []
    if k.passing:
        found = _passes(state, u, moves, foes, k)
        if found:
            return found
    if not k.ending:
        return []
    scene = state.scene
    names = ModelNames(state)
    if k.combat:
        ref = Referee(scene, after)
        for w in foes:
            if ref.in_combat(u, w):
                return [v(k.code, f"{scene.units[u].id} would end in combat with "
                                  f"{scene.units[w].id}",
                          units=(scene.units[u].id, scene.units[w].id))]
        return []
    mine = after.unit_models[u] if k.every else moves.models
    if not len(mine):
        return []
    measure = after.distances_3d if k.three_d else after.distances
    best: tuple[float, int, int, int] | None = None
    for w in foes:
        theirs = after.unit_models[w]
        d = measure(mine, theirs)
        i, j = np.unravel_index(int(np.argmin(d)), d.shape)
        if d[i, j] <= k.reach + EPS and (best is None or d[i, j] < best[0]):
            best = (float(d[i, j]), int(mine[i]), w, int(theirs[j]))
    if best is None:
        return []
    d, m, w, o = best
    return [v(k.code, f"{names[m]} ends {d:.2f}\" from {scene.units[w].id}, within "
                      f"{k.reach:g}\" ({k.what})", distance=d, reach=k.reach,
              **about(state, m, o))]


SAMPLE = 0.25         # how often a path is looked at on its way past enemy ranges


def samples(path: np.ndarray) -> Iterator[tuple[float, float]]:
    """Points every SAMPLE inches or less along a path, its start left out, its end in."""
    for a, b in zip(path[:-1], path[1:], strict=True):
        n = max(1, int(np.ceil(np.hypot(*(b - a)) / SAMPLE)))
        for f in np.linspace(0, 1, n + 1)[1:]:
            yield tuple(a + f * (b - a))


def _passes(state: State, u: int, moves: Moving, foes: list[int], k: Keep) -> list[Violation]:
    """The first point of a moving model's path within the range of `k`: within `reach` of a
    foe's model (horizontally), and with `combat` one the model can see from there."""
    t = state.table
    names = ModelNames(state)
    own = state.models_of(u)
    foe_models = np.concatenate([state.models_of(w) for w in foes])
    for m, path in zip(moves.models, moves.paths, strict=True):
        pts = np.asarray(list(samples(path)), dtype=np.float64).reshape(-1, 2)
        if not len(pts):
            continue
        # Distances from every place along the path at once; sight only where one is close.
        d_all = t.distances_from(int(m), pts[:, 0], pts[:, 1], foe_models, k.reach + EPS)
        for (x, y), d in zip(pts, d_all, strict=True):
            near = foe_models[d <= k.reach + EPS]
            if len(near) == 0:
                continue
            if k.combat:
                moved = t.moved(np.array([m]), np.array([x]), np.array([y]),
                                z=np.array([t.z[m]]))
                if not SightModel(moved)._group_visibility(np.array([m]), own, near).any:
                    continue
            foe = state.scene.units[int(t.unit[near[0]])].id
            return [v(k.code, f"{names[m]} would move into {k.what} with {foe} at "
                              f"({x:.2f}, {y:.2f})", x=x, y=y,
                      units=(state.scene.units[u].id, foe), models=(names[m],))]
    return []


def arrived(state: State, u: int, after: Table, a: Arrive) -> list[Violation]:
    mine = after.unit_models[u]
    sight = SightModel(after) if a.sight else None
    gap, nearest = math.inf, -1
    for w in a.units:
        theirs = after.unit_models[w]
        if not len(mine) or not len(theirs):
            continue
        d = after.distances(mine, theirs)
        if float(d.min()) < gap:
            gap, nearest = float(d.min()), w
        for i, j in zip(*np.nonzero(d <= a.within + EPS), strict=True):
            if sight is None or sight.model_visibility(int(mine[i]), int(theirs[j])).any:
                return []
    scene = state.scene
    them = scene.units[nearest].id if nearest >= 0 else "them"
    seen = " it can see" if a.sight else ""
    return [v(a.code, f"{scene.units[u].id} ends {gap:.2f}\" from {them}, not within "
                      f"{a.within:g}\" of a model{seen}", distance=gap, within=a.within,
              units=(scene.units[u].id, *([them] if nearest >= 0 else [])))]


def no_further(state: State, moves: Moving, after: Table, units: Sequence[int]
                ) -> list[Violation]:
    """Each moved model ends no further from the nearest model of `units` than it started."""
    theirs = np.concatenate([state.models_of(w) for w in units])
    if not len(theirs):
        return []
    d0 = state.table.distances(moves.models, theirs).min(axis=1)
    d1 = after.distances(moves.models, theirs).min(axis=1)
    names = ModelNames(state)
    return [v("pile_in_further", f"{names[m]} ends {y:.2f}\" from the enemy, further than "
                                 f"{x:.2f}\"", **about(state, m))
            for m, x, y in zip(moves.models, d0, d1, strict=True) if y > x + EPS]
