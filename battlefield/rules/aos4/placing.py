"""A unit set up at the places a player gives, one [x, y] per model (aos4): what a deploy and an
ability that sets a unit up again share - the places read from the action's `at`, the probe with
the models there, and why they cannot stand there: on the board, on no other model, out of
impassable terrain, not half on a piece taller than the height climbed freely, and in
coherency (deployment.py adds its territories; set_up.py the distance from the enemy).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4.data import book
from battlefield.rules.moves import Moves, end_problems, straddling
from battlefield.rules.refusals import v
from battlefield.rules.standing import referee
from battlefield.rules.state import State

EPS = 1e-6
Also = Callable[[State, int, np.ndarray], list[Violation]]


def places(action: Action) -> list[tuple[float, float]] | None:
    at = action.option("at")
    return None if at is None else [(float(x), float(y)) for x, y in at]


def placed(state: State, u: int, at: list[tuple[float, float]], facing: float | None,
           models: np.ndarray | None = None) -> tuple[Moves, State]:
    """The unit's models (`models`, table indices: by default its first len(at)) at `at` (each
    keeping its facing unless `facing` is given), and a probe: a copy of the state with them
    set up there."""
    if models is None:
        first = state.scene.model_offsets()[u]
        models = np.arange(first, first + len(at), dtype=np.int64)
    models = np.asarray(models, dtype=np.int64)
    xy = np.asarray(at, dtype=np.float64).reshape(-1, 2)
    faces = np.full(len(at), float(facing)) if facing is not None else None
    moves = Moves(models, [p.reshape(1, 2) for p in xy], rigid=False, facings=faces)
    probe = state.snapshot()
    probe.table = state.table.moved(models, xy[:, 0], xy[:, 1], facing=faces).restored(
        models, np.full(len(at), u, dtype=np.int64))
    return moves, probe


def set_up_problems(state: State, u: int, at: list[tuple[float, float]],
                    facing: float | None = None, models: np.ndarray | None = None,
                    also: Also | None = None) -> list[Violation]:
    """Why unit u cannot be set up with its models (`models`, as `placed` takes them) at `at`
    (empty: it can); `also`: what else the set-up must keep to, asked of the probe before
    coherency (a deploy's territories; an ability's set-up checks where itself)."""
    moves, probe = placed(state, u, at, facing, models)
    after = probe.table
    out = end_problems(probe, moves, after)
    out += straddling(probe, moves, after, book(state).climb_free + EPS)
    if out:
        return out
    out = also(probe, u, moves.models) if also is not None else []
    if out:
        return out
    coh = referee(state, after).coherency(u)
    if not coh.coherent:
        names = state.scene.model_names
        why = "; ".join(f"{names[m]} {r}" for m, r in coh.reasons.items())
        return [v("coherency", f"the unit is set up out of coherency: {why}",
                  units=[state.scene.units[u].id],
                  models=[names[m] for m in coh.reasons])]
    return []
