"""Moves in openwg (seed: Action Phase; RULES-NOTES openwg): each model up to its Move (`move`),
twice its Move (`run`, `retreat`, `charge`; a charge in a straight line and one model's
hornblower adds to it) or 3" (the fight's adjust). Paths may not cross enemy bases nor
impassable terrain; bases may not overlap at the end, and the unit ends coherent (every model
within 1" of another) unless it was not coherent before a move of the whole unit. Terrain does
not slow a move (the seed has no climbing)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely

from battlefield.geometry.table import Table
from battlefield.rules.actions import Action, Violation
from battlefield.rules.moves import (
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
from battlefield.rules.openwg.data import EPS, game
from battlefield.rules.openwg.profiles import profiles
from battlefield.rules.state import State
from battlefield.rulings import Referee

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


@dataclass
class Checked:
    problems: list[Violation]
    after: Table
    moves: Moves | None = None
    longest: float = 0.0


def _coherent(state: State, u: int, table: Table) -> tuple[bool, str, list[int]]:
    """(coherent, why not, the models out of it)."""
    coh = Referee(state.scene, table).coherency(u)
    names = ModelNames(state)
    return (coh.coherent, "; ".join(f"{names[m]} {r}" for m, r in coh.reasons.items()),
            list(coh.reasons))


def check_move(state: State, u: int, action: Action, kind: str) -> Checked:
    """How far, how (straight for a charge), through what, where the models end."""
    moves = planned(state, u, action)
    if isinstance(moves, Violation):
        return Checked([moves], state.table)
    names = ModelNames(state)
    first = state.scene.model_offsets()[u]
    out: list[Violation] = []
    worst: tuple[float, Violation] | None = None
    longest = 0.0
    for m, path in zip(moves.models, moves.paths, strict=True):
        used = length(path)
        longest = max(longest, used)
        most = allowance(state, u, int(m) - first, kind)
        if used > most + EPS and (worst is None or used > worst[0]):
            worst = (used, v("move_too_far", f"{names[m]} moves {used:.2f}\", more than "
                                             f"{most:g}\"", moved=used, allowed=most,
                             **about(state, m)))
        if kind == "charge" and len(path) > 2:
            d = path[-1] - path[0]
            n = float(np.hypot(*d))
            q = path - path[0]
            off = (np.abs(d[0] * q[:, 1] - d[1] * q[:, 0]) / n if n > EPS
                   else np.hypot(*q.T))
            if float(off.max()) > 0.01:
                out.append(v("charge_not_straight", f"{names[m]} does not charge in a straight "
                                                    f"line (strays {float(off.max()):.2f}\")",
                             off=float(off.max()), **about(state, m)))
    if worst is not None:
        out.insert(0, worst[1])
    out.extend(through(state, moves, _near(state, u)))
    after = moves.placed(state.table)
    out.extend(end_problems(state, moves, after))
    if len(state.models_of(u)) > 1:
        ok, why, apart = _coherent(state, u, after)
        if not ok and not (moves.rigid and not _coherent(state, u, state.table)[0]):
            out.append(v("coherency", f"the unit ends out of coherency: {why}",
                         **about(state, *apart)))
    return Checked(out, after, moves, longest)
