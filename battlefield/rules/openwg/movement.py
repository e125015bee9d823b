"""Moves in openwg (seed: Action Phase; RULES-NOTES openwg): each model up to its Move (`move`),
twice its Move (`run`, `retreat`, `charge`; a charge in a straight line and one model's
hornblower adds to it) or 3" (the fight's adjust). Paths may not cross enemy bases nor
impassable terrain; bases may not overlap at the end, and the unit ends coherent (every model
within 1" of another) unless it was not coherent before a move of the whole unit. Terrain does
not slow a move (the seed has no climbing)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely

from battlefield.rules.actions import Action
from battlefield.rules.moves import (
    OVERLAP,
    Arrive,
    Keep,
    MoveCheck,
    Obstacle,
    Step,
    check_move,
    obstacle,
)
from battlefield.rules.openwg.data import game
from battlefield.rules.openwg.profiles import profiles
from battlefield.rules.state import State

DOUBLE = ("run", "retreat", "charge")


def allowance(state: State, u: int, k: int, kind: str) -> float:
    """How far model k (0-based in unit u) may go with a move of `kind`."""
    prof = profiles(state)[u]
    move = prof.stat("move", k)
    if kind == "adjust":
        return game(state).adjust
    if kind in DOUBLE:
        move *= game(state).run_multiplier
    if kind == "charge":
        move += sum(float(e.get("add", 0)) for e in prof.effects("charge_move"))
    return move


def unit_allowance(state: State, u: int, kind: str) -> float:
    """The shortest allowance among the unit's models (what a whole-unit drag may use)."""
    first = state.scene.model_offsets()[u]
    return min(allowance(state, u, int(m) - first, kind) for m in state.models_of(u))


def length(path: np.ndarray) -> float:
    return float(np.hypot(*np.diff(path, axis=0).T).sum()) if len(path) > 1 else 0.0


def _enemy_bases(state: State, u: int, m: int) -> list[Obstacle]:
    t = state.table
    side = state.side_of(u)
    r = float(t.reach[m])

    def make() -> list[Obstacle]:
        names = state.scene.model_names
        out = []
        for w in range(t.n_units):
            if state.side_of(w) == side:
                continue
            for e in t.unit_models[w]:
                shape = shapely.Point(t.x[e], t.y[e]).buffer(float(t.reach[e]) + r - OVERLAP, 24)
                out.append(obstacle(shape, names[e], "the enemy model"))
        for k in t.layout.pieces_with("impassable"):
            out.append(obstacle(t.layout.polygons[k].buffer(r - OVERLAP),
                                t.layout.pieces[k].id, "impassable terrain"))
        return out

    return t.memo(("openwg-blocks", side, round(r, 6)), make)


def _near(state: State, u: int):
    def near(m: int, box: tuple[float, float, float, float]) -> list[Obstacle]:
        x0, y0, x1, y1 = box
        out = []
        for o in _enemy_bases(state, u, m):
            bx0, by0, bx1, by1 = o.shape.bounds
            if bx1 >= x0 and bx0 <= x1 and by1 >= y0 and by0 <= y1:
                out.append(o)
        return out
    return near


def check(state: State, u: int, action: Action, kind: str, keep: Sequence[Keep] = (),
          arrive: Arrive | None = None) -> MoveCheck:
    """A move of `kind` through the one move check (rules.moves.check_move): each model up to
    its allowance, a charge in a straight line, no path through enemy bases or impassable
    terrain, where the models end, the unit coherent (or, moved as a block, no less coherent
    than it was), then the ranges it keeps out of and where it must arrive."""
    first = state.scene.model_offsets()[u]
    return check_move(state, u, action, lambda m: allowance(state, u, m - first, kind),
                      cost=lambda m, path: Step(length(path)), straight=kind == "charge",
                      through=_near(state, u),
                      coherency="kept" if len(state.models_of(u)) > 1 else None,
                      keep=keep, arrive=arrive)
