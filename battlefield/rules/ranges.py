"""Where a move may and may not go among the enemy: the ranges it keeps out of on the way and
at its end (Keep), where it must arrive (Arrive) and what it may end no further from (a
pile-in) - the parameters of the one move check (rules.moves.check_move) that say what a move
may pass through and end in."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
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
        # the game's combats through terrain counted (Ruleset.combat_links)
        ref = Referee(scene, after, state.rules.combat_links(state))
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


SAMPLE = 0.25         # how often sight is looked at along a stretch of path within range


def _fractions(a: np.ndarray, b: np.ndarray, t0: float, t1: float) -> np.ndarray:
    """Places t0 .. t1 (both in) of segment a->b, at most SAMPLE inches apart."""
    n = max(1, int(np.ceil(float(np.hypot(*(b - a))) * (t1 - t0) / SAMPLE)))
    return np.linspace(t0, t1, n + 1)


class _Sight:
    """Whether the unit sees any model of a foe while model m is at a point of its path (its
    own unit's models do not block): m from there - with the whole unit where it is at that
    moment when it moves as one block (`rigid`) -, and whether the models of the unit that do
    not move already see that foe."""

    def __init__(self, state: State, u: int, moves: Moving) -> None:
        self.t = state.table
        self.own = state.models_of(u)
        self.still = np.setdiff1d(self.own, moves.models)
        self.moves = moves
        self.block = bool(getattr(moves, "rigid", False)) and len(moves.models) > 1

    def sees_from(self, m: int, i: int, f: float, theirs: np.ndarray) -> bool:
        """m at place f of its path's segment i (and, moving as a block, every model at the
        same place of its own path) sees a model of `theirs`."""
        if self.block:
            who = np.asarray(self.moves.models)
            pts = np.array([_at(p, i, f) for p in self.moves.paths])
        else:
            who = np.array([m])
            k = int(np.nonzero(np.asarray(self.moves.models) == m)[0][0])
            pts = _at(self.moves.paths[k], i, f)[None, :]
        moved = self.t.moved(who, pts[:, 0], pts[:, 1], z=self.t.z[who])
        return bool(SightModel(moved)._group_visibility(who, self.own, theirs).any)

    def still_see(self, theirs: np.ndarray) -> bool:
        if not len(self.still):
            return False
        return bool(SightModel(self.t)._group_visibility(self.still, self.own, theirs).any)

    def still_within(self, theirs: np.ndarray, reach: float) -> bool:
        return bool(len(self.still)) and float(self.t.distances(self.still, theirs).min()) \
            <= reach + EPS


def _at(path: np.ndarray, i: int, f: float) -> np.ndarray:
    """The point at place f of segment i of a path (its end when the path is shorter)."""
    if i >= len(path) - 1:
        return np.asarray(path[-1], dtype=np.float64)
    return path[i] + f * (path[i + 1] - path[i])


def _passes(state: State, u: int, moves: Moving, foes: list[int], k: Keep) -> list[Violation]:
    """The first place on a moving model's path within the range of `k`: within `reach` of a
    foe's model, horizontally and exactly (each segment against each base: Table.swept), its
    start left out. With `combat` (and a ruleset whose combat needs sight), the first such
    place where the units see each other - the moving model from there (moving as a block,
    the whole unit where it is then), or the unit's models that do not move - looked at
    along each stretch within range every SAMPLE inches, its ends and closest place in; and,
    where a model that does not move is already within range of a foe it cannot see, the
    first place on the path from which the moving model sees that foe: the unit would be in
    combat through the model that stayed."""
    t = state.table
    names = ModelNames(state)
    sight = _Sight(state, u, moves) if k.combat and _needs_sight(state) else None
    for m, path in zip(moves.models, moves.paths, strict=True):
        m = int(m)
        if len(path) < 2:
            continue
        first: tuple[int, float, int] | None = None       # (segment, place, foe unit)
        for w in foes:
            theirs = state.models_of(w)
            found = _first_within(t, m, path, theirs, k, sight)
            if found is not None and (first is None or found < first[:2]):
                first = (*found, w)
        if first is None:
            continue
        i, f, w = first
        x, y = path[i] + f * (path[i + 1] - path[i])
        foe = state.scene.units[w].id
        return [v(k.code, f"{names[m]} would move into {k.what} with {foe} at "
                          f"({x:.2f}, {y:.2f})", x=float(x), y=float(y),
                  units=(state.scene.units[u].id, foe), models=(names[m],))]
    return []


def _needs_sight(state: State) -> bool:
    return bool(state.scene.ruleset.combat_needs_sight)


def _first_within(t: Table, m: int, path: np.ndarray, theirs: np.ndarray, k: Keep,
                  sight: _Sight | None) -> tuple[int, float] | None:
    """(segment, place on it) of the first point of model m's path within k's range of
    `theirs` (with `sight`: where the units would also see each other); None: nowhere."""
    if sight is not None and sight.still_within(theirs, k.reach):
        for i in range(len(path) - 1):               # in range through a model that stays
            for f in _fractions(path[i], path[i + 1], 0.0, 1.0)[1:]:
                if sight.sees_from(m, i, float(f), theirs):
                    return i, float(f)
        return None
    t_in, t_out, _ = t.swept(m, path, theirs, k.reach + EPS)
    seen = sight is None or sight.still_see(theirs)
    for i in range(len(path) - 1):
        inside = ~np.isnan(t_in[i])
        if i == 0:                                     # its start left out: where it stands
            inside &= ~((t_in[i] <= 0.0) & (t_out[i] <= 0.0))
        if not inside.any():
            continue
        if seen:
            return i, float(t_in[i][inside].min())
        a, b = path[i], path[i + 1]
        places = np.unique(np.concatenate([_fractions(a, b, t0, t1) for t0, t1 in
                                           zip(t_in[i][inside], t_out[i][inside], strict=True)]))
        for f in places:
            if (i == 0 and f <= 0.0) or not _within_at(t, m, a + f * (b - a), theirs, k.reach):
                continue
            if sight is not None and sight.sees_from(m, i, float(f), theirs):
                return i, float(f)
    return None


def _within_at(t: Table, m: int, p: np.ndarray, theirs: np.ndarray, reach: float) -> bool:
    """Model m, put at p, is within reach of a model of `theirs`."""
    d = t.distances_from(m, np.array([p[0]]), np.array([p[1]]), theirs, reach + EPS)
    return bool((d <= reach + EPS).any())


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
    them = " and ".join(state.scene.units[w].id for w in units)
    return [v("pile_in_further", f"{names[m]} ends {y:.2f}\" from {them}, further than "
                                 f"{x:.2f}\"", **about(state, m))
            for m, x, y in zip(moves.models, d0, d1, strict=True) if y > x + EPS]
