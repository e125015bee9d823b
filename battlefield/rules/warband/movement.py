"""Moving fighters (RULES-NOTES): a move goes up to Move along any path, climbing counted (the
vertical distance up onto a piece, wherever any part of the base goes over it); stepping down
under 3" is free. A drop of 3" or more is
climbed down (its height counted) when the move allows it, else the fighter jumps and falls:
a D6, on 1-2 it takes D3 damage. Fighters pass friends but not enemy bases, nor impassable
terrain, and end on no other base, on the table.

A disengage: only when engaged, up to 3" (climbing counted), ending more than 1" (3-D) from
every enemy fighter."""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
import shapely

from battlefield.geometry.paths import Terrain, disc, grown_polygon
from battlefield.geometry.table import Table
from battlefield.rules.actions import Action, Violation
from battlefield.rules.moves import (
    OVERLAP,
    Climb,
    Moves,
    Obstacle,
    about,
    end_problems,
    obstacle,
    planned,
    through,
    v,
)
from battlefield.rules.moves import climb as moves_climb
from battlefield.rules.state import State
from battlefield.rules.warband.attacks import engaged_with
from battlefield.rules.warband.data import EPS, fighter, game


def terrain(state: State, m: int) -> Terrain:
    """What fighter m climbs: every piece of height (pieces of kind area are not) wherever any
    part of its base (its short half-width round the path) goes over it."""
    t = state.table
    r = float(min(t.a[m], t.b[m]))
    return t.layout.memo(("warband-terrain", r), lambda: Terrain(t.layout, 1e-6, clearance=r))


def climb(state: State, ter: Terrain, path: np.ndarray) -> Climb:
    """Horizontal length, height climbed, and each drop (a fall: game.yaml fall_drop or
    more)."""
    return moves_climb(ter, path, game(state).fall_drop)


def spent(c: Climb, allowed: float) -> tuple[float, bool]:
    """(inches the path costs, whether the fighter falls): a big drop is climbed down when the
    allowance covers it, else jumped."""
    safe = c.cost(climb_down=True)
    if c.big_drop and safe > allowed + EPS:
        return c.cost(climb_down=False), True
    return safe, False


def allowance(state: State, u: int) -> float:
    """Move, with the activation's bonus (Rush, ...)."""
    return fighter(state, u).move + float(state.units[u].counters.get("move", 0))


@dataclass
class Checked:
    problems: list[Violation]
    after: Table
    used: float
    falls: bool


def _blocking(state: State, u: int, m: int,
              box: tuple[float, float, float, float] | None = None) -> list[Obstacle]:
    """Impassable terrain and enemy bases, grown by the mover's radius (only those near `box`,
    the path's bounds, when given); an enemy base the mover starts against (engaged, in
    contact) does not stop it leaving."""
    t = state.table
    r = float(min(t.a[m], t.b[m]))
    out = list(t.memo(("warband-impassable", r), lambda: [
        obstacle(grown_polygon(t.layout.polygons[k], r - OVERLAP), t.layout.pieces[k].id,
                 "impassable terrain") for k in t.layout.pieces_with("impassable")]))
    side = state.side_of(u)
    start = shapely.Point(float(t.x[m]), float(t.y[m]))
    names = state.scene.model_names
    for o in np.nonzero(t.on_table)[0]:
        w = int(t.unit[o])
        if w == u or state.side_of(w) == side:
            continue
        if abs(float(t.z[o]) - float(t.z[m])) >= min(float(t.height[o]), float(t.height[m])):
            continue                               # at another height: passes over or under
        reach = float(max(t.a[o], t.b[o])) + r
        if box is not None and (t.x[o] + reach < box[0] or t.x[o] - reach > box[2]
                                or t.y[o] + reach < box[1] or t.y[o] - reach > box[3]):
            continue                               # nowhere near the path
        shape = disc(float(t.x[o]), float(t.y[o]), reach - OVERLAP)
        if shape.contains(start):
            continue
        out.append(obstacle(shape, names[int(o)], "the enemy fighter"))
    return out


def check_path(state: State, u: int, moves: Moves, allowed: float, what: str) -> Checked:
    names = state.scene.model_names
    out: list[Violation] = []
    m, path = int(moves.models[0]), moves.paths[0]
    ter = terrain(state, m)
    c = climb(state, ter, path)
    used, falls = spent(c, allowed)
    if used > allowed + EPS:
        climbed = f" (climbing {c.up:.2f}\")" if c.up > EPS else ""
        out.append(v(f"{what}_too_far", f"{names[m]} moves {used:.2f}\"{climbed}, more than "
                                         f"{allowed:g}\"", moved=used, allowed=allowed,
                     **about(state, m)))
    out.extend(through(state, moves, lambda _m, box: _blocking(state, u, m, box)))
    after = moves.placed(state.table)
    out.extend(end_problems(state, moves, after))
    out.extend(straddles(state, m, after))
    return Checked(out, after, used, falls)


def straddles(state: State, m: int, after: Table) -> list[Violation]:
    """A fighter stands on the ground or wholly on a piece's top, never half on a piece that
    has height (area terrain aside)."""
    layout = after.layout
    edge = after.outline(m, 64)
    (x0, y0), (x1, y1) = edge.min(axis=0), edge.max(axis=0)
    foot = None
    for k, p in enumerate(layout.pieces):
        if p.kind in ("area", "impassable") or p.height <= EPS:
            continue
        bx0, by0, bx1, by1 = layout.bboxes[k]
        if bx1 < x0 or bx0 > x1 or by1 < y0 or by0 > y1:
            continue
        foot = foot if foot is not None else shapely.Polygon(edge)
        part = foot.intersection(layout.polygons[k]).area
        if 1e-4 < part < foot.area - 1e-4:
            return [v("straddles_terrain", f"{state.scene.model_names[m]} ends half on {p.id} "
                                           f"({p.height:g}\" tall): a fighter stands on the "
                                           f"ground or wholly on top", **about(state, m))]
    return []


def plan(state: State, u: int, action: Action) -> Moves | Violation:
    if action.paths is not None:
        return v("one_model", "a fighter is one model: give \"path\", not \"paths\"")
    return planned(state, u, action)


def check_move(state: State, u: int, action: Action) -> Checked | Violation:
    moves = plan(state, u, action)
    if isinstance(moves, Violation):
        return moves
    return check_path(state, u, moves, allowance(state, u), "move")


def check_disengage(state: State, u: int, action: Action) -> Checked | Violation:
    moves = plan(state, u, action)
    if isinstance(moves, Violation):
        return moves
    g = game(state)
    checked = check_path(state, u, moves, g.disengage, "disengage")
    after = copy.copy(state)        # a shallow view with the fighter moved: read, never applied
    after.table = checked.after
    near = engaged_with(after, u)
    close = [(w, d) for w, d in near if d <= g.disengage_clear + EPS]
    if close:
        w, d = close[0]
        checked.problems.append(v("still_engaged", f"the disengage ends {d:.2f}\" from "
                                                   f"{state.scene.units[w].id}: it must end "
                                                   f"more than {g.disengage_clear:g}\" from "
                                                   f"every enemy",
                                  distance=d, needed=g.disengage_clear))
    return checked
