"""Moves in aos4: which path each model takes, and whether the move is legal (seed: movement,
charge, combat; RULES-NOTES).

An action's `path` is where the unit's leader goes; every model follows it with the same
offsets. `paths` gives each model (1-based number) its own path. A path that does not start
where the model stands starts there. Each model's path is measured with climbing (terrain
taller than 1" counts its height wherever any part of the base goes over it, jumping down ends
the move); no model moves through another
model or impassable terrain (FLY ignores both and climbing); no model ends on another; the unit
ends coherent; and each ability adds its own rule about combat ranges.
"""

from __future__ import annotations

import numpy as np
import shapely

from battlefield.geometry.bases import footprint, grown_outline
from battlefield.geometry.paths import Terrain, grown_polygon
from battlefield.geometry.sight import SightModel
from battlefield.geometry.table import Table
from battlefield.rules.actions import Violation
from battlefield.rules.aos4.data import Book, book
from battlefield.rules.moves import (  # noqa: F401
    OVERLAP,
    ModelNames,
    Moves,
    Obstacle,
    about,
    end_problems,
    obstacle,
    planned,
    through,
    v,
)
from battlefield.rules.state import State
from battlefield.rulings import Referee

EPS = 1e-6
SAMPLE = 0.25         # how often a path is checked for moving into combat
JUMP_LANDING = 0.01   # a jump down may go on this far once the base is wholly off the piece


def clearance(t: Table, m: int) -> float:
    return float(min(t.a[m], t.b[m]))


def terrain_for(rules: Book, t: Table, m: int) -> Terrain:
    """What model m climbs: pieces taller than 1" (the book's climb_free) wherever any part of
    its base (its short half-width round the path) goes over them; a jump down lands where the
    base is first wholly off the piece (JUMP_LANDING)."""
    r = clearance(t, m)
    free = rules.climb_free
    return t.layout.memo(("aos4-terrain", free, r),
                         lambda: Terrain(t.layout, free, JUMP_LANDING, r))


def used(rules: Book, t: Table, m: int, path: np.ndarray, fly: bool) -> tuple[float, float]:
    """(inches model m spends along path, of which climbing): a last drop may be a jump."""
    cost = terrain_for(rules, t, m).path_cost(path, fly)
    return min(cost.total, cost.total_if_jumping), cost.vertical


def obstacles(state: State, u: int, m: int, box: tuple[float, float, float, float]
              ) -> tuple[list[shapely.Polygon], list[str]]:
    """Where the centre of unit u's model m may not go near `box` (x0, y0, x1, y1): the bases
    of other units' models and impassable terrain, grown by its clearance; with their names."""
    found = _obstacles(state, u, m, box)
    return [o.shape for o in found], [o.name for o in found]


def _obstacles(state: State, u: int, m: int, box: tuple[float, float, float, float]
               ) -> list[Obstacle]:
    """obstacles() as moves.Obstacle values (each made once per table)."""
    t = state.table
    r = clearance(t, m)
    x0, y0, x1, y1 = box
    grow = t.reach + r
    near = (t.on_table & (t.unit != u) & (t.x + grow >= x0) & (t.x - grow <= x1)
            & (t.y + grow >= y0) & (t.y - grow <= y1))
    grown = t.memo(("aos4-grown", r), dict)       # model or ("piece", k) -> obstacle
    out = []
    for o in np.nonzero(near)[0].tolist():
        found = grown.get(o)
        if found is None:
            found = grown[o] = obstacle(grown_base(t, o, r - OVERLAP),
                                        state.scene.model_names[o], "the model")
        out.append(found)
    for k in t.layout.pieces_with("impassable"):
        found = grown.get(("piece", k))
        if found is None:
            found = grown[("piece", k)] = obstacle(grown_polygon(t.layout.polygons[k], r - OVERLAP),
                                                   t.layout.pieces[k].id, "impassable terrain")
        out.append(found)
    return out


def check_paths(state: State, u: int, moves: Moves, allowed: float | None, fly: bool
                ) -> tuple[list[Violation], Table]:
    """Length, models and impassable terrain in the way, and where the models end."""
    t = state.table
    out = too_far(state, moves, allowed, fly) if allowed is not None else []
    if not fly:
        out.extend(_through(state, u, moves))
    after = moves.placed(t)
    out.extend(_where_they_end(state, u, moves, after))
    return out, after


def too_far(state: State, moves: Moves, allowed: float, fly: bool) -> list[Violation]:
    """The models whose paths are longer than `allowed` (climbing counted, FLY: not)."""
    t = state.table
    names = ModelNames(state)
    out: list[Violation] = []
    for m, path in zip(moves.models, moves.paths, strict=True):
        spent, vertical = used(book(state), t, m, path, fly)
        if spent > allowed + EPS:
            climb = f" (climbing {vertical:.2f}\")" if vertical else ""
            out.append(v("move_too_far", f"{names[m]} moves {spent:.2f}\"{climb}, more "
                                         f"than {allowed:g}\"", moved=spent, allowed=allowed,
                         **about(state, m)))
    return out


def _through(state: State, u: int, moves: Moves) -> list[Violation]:
    """Other units' models and impassable terrain may not be moved through."""
    return through(state, moves, lambda m, box: _obstacles(state, u, m, box))


def _where_they_end(state: State, u: int, moves: Moves, after: Table) -> list[Violation]:
    names = ModelNames(state)
    out = end_problems(state, moves, after)
    coh = Referee(state.scene, after).coherency(u)
    if not coh.coherent:
        why = "; ".join(f"{names[m]} {r}" for m, r in coh.reasons.items())
        out.append(v("coherency", f"the unit ends out of coherency: {why}",
                     **about(state, *coh.reasons)))
    return out


def grown_base(t: Table, o: int, r: float, sides: int = 64) -> shapely.Polygon:
    """Where the centre of a base of clearance r cannot go: model o's true base grown by r, as
    a polygon just enclosing it (path planning uses fewer sides: a little more room, so that a
    planned path always passes this check)."""
    return grown_outline(int(t.shape[o]), t.a[o], t.b[o], t.x[o], t.y[o], t.facing[o], r,
                         sides)


def into_combat(state: State, u: int, moves: Moves, rng: float) -> list[Violation]:
    """A model that comes within combat range of a visible enemy anywhere on its path."""
    t = state.table
    names = ModelNames(state)
    own = state.models_of(u)
    foes = state.enemies(u)
    if not foes:
        return []
    foe_models = np.concatenate([state.models_of(w) for w in foes])
    for m, path in zip(moves.models, moves.paths, strict=True):
        pts = np.asarray(list(_samples(path)), dtype=np.float64).reshape(-1, 2)
        if not len(pts):
            continue
        # Distances from every place along the path at once; sight only where one is close.
        d_all = t.distances_from(int(m), pts[:, 0], pts[:, 1], foe_models, rng + EPS)
        for (x, y), d in zip(pts, d_all, strict=True):
            near = foe_models[d <= rng + EPS]
            if len(near) == 0:
                continue
            moved = t.moved(np.array([m]), np.array([x]), np.array([y]), z=np.array([t.z[m]]))
            seen = SightModel(moved)._group_visibility(np.array([m]), own, near)
            if seen.any:
                foe = state.scene.units[int(t.unit[near[0]])].id
                return [v("moves_into_combat", f"{names[m]} would move into combat with {foe} "
                                               f"at ({x:.2f}, {y:.2f})", x=x, y=y,
                          units=(state.scene.units[u].id, foe), models=(names[m],))]
    return []


def _samples(path: np.ndarray):
    for a, b in zip(path[:-1], path[1:], strict=True):
        n = max(1, int(np.ceil(np.hypot(*(b - a)) / SAMPLE)))
        for f in np.linspace(0, 1, n + 1)[1:]:
            yield tuple(a + f * (b - a))


def shapes_at(t: Table, m: int, x: float, y: float) -> shapely.Polygon:
    return footprint(int(t.shape[m]), t.a[m], t.b[m], x, y, t.facing[m], 64)
