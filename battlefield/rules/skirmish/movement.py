"""Moves in skirmish (seed: Movement; RULES-NOTES): up to Speed along any path, curves included
(a path of points: where the unit's leader goes, the others keep formation; or one path per
model). Units move through other units but no base may overlap another at the end; impassable
terrain and the board edge stop them.

Terrain heights: pieces under 2" are crossed freely (horizontal distance only); climbing onto a
piece of 2" or more spends the vertical distance, wherever any part of a base goes over it.
Moving down is free, but dropping 4" or more that way is dangerous terrain (a D6 per model that
drops, 1 = 1 damage) - unless the mover climbs down, spending the drop from its move (done
whenever the move allows, or never with "jump": true). Retreats always take the danger.

Also here: the retreat's path (exactly 5" directly away, or as close to that line as terrain
allows) and a charge's path (a full move that brings the leaders within 1").
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from battlefield.geometry.paths import Terrain, grown_polygon
from battlefield.geometry.table import Table
from battlefield.rules.moves import (  # noqa: F401 - skirmish's names for them
    OVERLAP,
    Climb,
    Cost,
    MoveCheck,
    Moves,
    Obstacle,
    Step,
    about,
    check_move,
    obstacle,
    planned,
    starting_at,
    translated,
    v,
)
from battlefield.rules.moves import climb as moves_climb
from battlefield.rules.skirmish.data import EPS, game, leader, stat
from battlefield.rules.state import State

CHARGE_GAPS = (0.5, 0.9, 0.1)             # how far short of contact a charge stops (leaders)
CHARGE_TURNS = (0, 15, -15, 30, -30, 45, -45, 60, -60, 75, -75, 90, -90, 120, -120, 150, -150,
                180)


def terrain(state: State, m: int) -> Terrain:
    """What model m climbs: pieces of 2" or more (Terrain climbs what is taller than
    climb_free) wherever any part of its base (its short half-width round the path) goes over
    them."""
    t = state.table
    r = float(min(t.a[m], t.b[m]))
    free = game(state).climb_free - 1e-6
    return t.layout.memo(("skirmish-terrain", free, r),
                         lambda: Terrain(t.layout, free, clearance=r))


# --- measuring ---------------------------------------------------------------------------------
def climb(state: State, ter: Terrain, path: np.ndarray) -> Climb:
    """Horizontal length, height climbed onto pieces of 2" or more, and each drop off one
    (a dangerous drop: game.yaml dangerous_drop or more)."""
    return moves_climb(ter, path, game(state).dangerous_drop)


def spent(c: Climb, allowed: float | None, jump: bool = False) -> float:
    """Inches a path costs: dangerous drops are climbed down (safe, and dearer) when the
    allowance covers that and the mover does not choose to jump; else they are jumped."""
    safe = c.cost(climb_down=True)
    if c.big_drop and not jump and (allowed is None or safe <= allowed + EPS):
        return safe
    return c.cost(climb_down=False)


def allowance(state: State, u: int, overextended: bool) -> float:
    speed = stat(state, u, "speed")
    return speed * game(state).overextended_speed if overextended else speed


def check(state: State, u: int, moves: Moves, allowed: float | None, jump: bool = False
          ) -> MoveCheck:
    """A skirmish move through the one move check (rules.moves.check_move): its length with
    climbing (a dangerous drop jumped is the step's risk), impassable terrain crossed (models
    move through other models here), where the models end (not half on a piece of 2" or more)
    and the unit ending coherent, or - moving as a block - no less coherent than before."""
    g = game(state)
    return check_move(state, u, moves, allowed, cost=cost(state, allowed, jump),
                      through=lambda m, box: _impassable(state.table, m),
                      straddle=g.climb_free - 1e-6, coherency="kept")


def cost(state: State, allowed: float | None, jump: bool = False) -> Cost:
    """What a skirmish path costs: spent() with climbing; a dangerous drop that is jumped
    rather than climbed down is the step's risk."""
    def step(m: int, path: np.ndarray) -> Step:
        c = climb(state, terrain(state, m), path)
        used = spent(c, allowed, jump)
        return Step(used, c.up, c.big_drop and used < c.cost(climb_down=True) - EPS)
    return step


def too_far(state: State, u: int, moves: Moves, allowed: float | None) -> bool:
    """Whether a model goes further than `allowed` (asked alone by a player choosing a move:
    the first thing the check refuses)."""
    c = cost(state, allowed)
    return allowed is not None and any(c(int(m), p).spent > allowed + EPS
                                       for m, p in zip(moves.models, moves.paths, strict=True))


def impassable(t: Table, m: int) -> list[shapely.Polygon]:
    """Where model m's centre may not go: impassable terrain grown by its clearance (models
    move through other models in this ruleset)."""
    return [o.shape for o in _impassable(t, m)]


def _impassable(t: Table, m: int) -> list[Obstacle]:
    r = float(min(t.a[m], t.b[m]))
    return list(t.memo(("skirmish-impassable", r), lambda: [
        obstacle(grown_polygon(t.layout.polygons[k], r - OVERLAP), t.layout.pieces[k].id,
                 "impassable terrain") for k in t.layout.pieces_with("impassable")]))


# --- retreats ----------------------------------------------------------------------------------
def away(state: State, u: int, w: int) -> np.ndarray:
    """The unit vector from unit w's leader to unit u's leader (directly away from w)."""
    t = state.table
    i, j = leader(state, u), leader(state, w)
    d = np.array([t.x[i] - t.x[j], t.y[i] - t.y[j]])
    n = float(np.hypot(*d))
    if n < EPS:
        mine, theirs = state.models_of(u), state.models_of(w)
        d = np.array([t.x[mine].mean() - t.x[theirs].mean(),
                      t.y[mine].mean() - t.y[theirs].mean()])
        n = float(np.hypot(*d))
    return d / n if n > EPS else np.array([0.0, 1.0])


def retreat_turns(state: State) -> list[float]:
    """0, then +-step, +-2 step ... up to the largest turn: the straightest first."""
    g = game(state)
    out = [0.0]
    k = 1
    while k * g.retreat_turn_step <= g.retreat_max_turn + EPS:
        out.extend([k * g.retreat_turn_step, -k * g.retreat_turn_step])
        k += 1
    return out


def retreat_plan(state: State, u: int, w: int) -> tuple[Moves, MoveCheck, float] | None:
    """Every model of u moves exactly 5" directly away from w in a straight line, or - where
    terrain or models are in the way - along the line nearest to it that is clear. A retreat
    never climbs onto a piece of 2" or more. None when no line up to 90 degrees off is clear."""
    g = game(state)
    base = away(state, u, w)
    for turn in retreat_turns(state):
        a = math.radians(turn)
        d = np.array([base[0] * math.cos(a) - base[1] * math.sin(a),
                      base[0] * math.sin(a) + base[1] * math.cos(a)])
        moves = translated(state, u, np.array([[0.0, 0.0], d * g.retreat_distance]))
        if any(climb(state, terrain(state, int(m)), p).up > EPS
               for m, p in zip(moves.models, moves.paths, strict=True)):
            continue
        checked = check(state, u, moves, None, jump=True)
        if not checked.problems:
            return moves, checked, turn
    return None


# --- charges -----------------------------------------------------------------------------------
def leader_gap(state: State, t: Table, i: int, j: int, melee: bool) -> float:
    """Leader base to leader base: 3-D, or horizontal for melee units within 2" of height."""
    h = t.memo(("leader-gap", i, j), lambda: float(t.distances(np.array([i]),
                                                              np.array([j]))[0, 0]))
    dz = float(t.z[i] - t.z[j])
    if melee and abs(dz) < game(state).melee_vertical - EPS:
        return h
    return math.hypot(h, dz)


def charge_plan(state: State, u: int, w: int) -> tuple[Moves, MoveCheck] | None:
    """A full move (up to Speed) straight to a place where u's leader is within 1" of w's
    leader: the nearest such place that is legal, else None."""
    g = game(state)
    t = state.table
    i, j = leader(state, u), leader(state, w)
    speed = stat(state, u, "speed")
    back = np.array([t.x[i] - t.x[j], t.y[i] - t.y[j]])
    n = float(np.hypot(*back))
    back = back / n if n > EPS else np.array([0.0, -1.0])
    start = np.array([t.x[i], t.y[i]])
    spots = []
    for gap in CHARGE_GAPS:
        reach = float(t.reach[i] + t.reach[j]) + gap
        for turn in CHARGE_TURNS:
            a = math.radians(turn)
            d = np.array([back[0] * math.cos(a) - back[1] * math.sin(a),
                          back[0] * math.sin(a) + back[1] * math.cos(a)])
            end = np.array([t.x[j], t.y[j]]) + d * reach
            spots.append((float(np.hypot(*(end - start))), gap, turn, end))
    spots.sort(key=lambda s: (round(s[0], 6), CHARGE_GAPS.index(s[1]), abs(s[2]), s[2]))
    for length, _, _, end in spots:
        if length > speed + EPS:
            break
        moves = translated(state, u, np.array([[0.0, 0.0], end - start]))
        checked = check(state, u, moves, speed)
        if checked.problems:
            continue
        if leader_gap(state, checked.after, i, j, True) <= g.charge_within + EPS:
            return moves, checked
    return None

