"""Moving fighters (RULES-NOTES): a move goes up to Move along any path, climbing counted (the
vertical distance up onto a piece, wherever any part of the base goes over it); stepping down
under 3" is free. A drop of 3" or more is
climbed down (its height counted) when the move allows it, else the fighter jumps and falls:
a D6, on 1-2 it takes D3 damage. Fighters pass friends but not enemy bases, nor impassable
terrain, and end on no other base, on the table.

A disengage: only when engaged, up to 3" (climbing counted), ending more than 1" (3-D) from
every enemy fighter."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely

from battlefield.geometry.paths import Terrain, disc, grown_polygon
from battlefield.rules.actions import Action, Violation
from battlefield.rules.moves import (
    OVERLAP,
    Climb,
    Keep,
    MoveCheck,
    Moves,
    Obstacle,
    Step,
    check_move,
    obstacle,
    planned,
    v,
)
from battlefield.rules.moves import climb as moves_climb
from battlefield.rules.state import State
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


def plan(state: State, u: int, action: Action) -> Moves | Violation:
    if action.paths is not None:
        return v("one_model", "a fighter is one model: give \"path\", not \"paths\"")
    return planned(state, u, action)


def check(state: State, u: int, action: Action, allowed: float, kind: str,
          keep: Sequence[Keep] = ()) -> MoveCheck:
    """A fighter's move or disengage through the one move check (rules.moves.check_move): up
    to `allowed` with climbing (a big drop it cannot climb down is jumped: the step's risk, a
    fall), past no enemy base nor impassable terrain, ending on the table, on no other base and
    not half on a piece of any height; then the ranges it keeps out of."""
    moves = plan(state, u, action)
    if isinstance(moves, Violation):
        return MoveCheck([moves], None, state.table)

    def cost(m: int, path: np.ndarray) -> Step:
        c = climb(state, terrain(state, m), path)
        used, falls = spent(c, allowed)
        return Step(used, c.up, falls)

    m = int(moves.models[0])
    return check_move(state, u, moves, allowed, cost=cost,
                      through=lambda _m, box: _blocking(state, u, m, box),
                      straddle=2e-6, too_far=f"{kind}_too_far", keep=keep)


def check_walk(state: State, u: int, action: Action) -> MoveCheck:
    """A move: up to Move (with the activation's bonus)."""
    return check(state, u, action, allowance(state, u), "move")


def check_disengage(state: State, u: int, action: Action) -> MoveCheck:
    """A disengage: up to 3", ending more than 1" (3-D) from every enemy fighter."""
    g = game(state)
    return check(state, u, action, g.disengage, "disengage",
                 keep=(Keep(g.disengage_clear, three_d=True, code="still_engaged",
                            what="engaged"),))
