"""A unit set up again by its own ability (aos4): "Remove this unit from the battlefield and set
it up again on the battlefield more than 9\" from all enemy units". The player gives the
places, one [x, y] for each of the unit's models on the table, in the ability's action:
`{"type": "ability", "unit": ID, "ability": NAME, "at": [[x, y], ...]}`. They are checked as a
deploy's are (placing.set_up_problems: on the board, on no other model, out of impassable
terrain, not half on a piece taller than the free climb, in coherency; no territory) and
against what the text asks: each model more than N" from every enemy model (base to base).
The set-up happens when the effect does (after its roll, if it has one); the unit is marked
`set-up` for the turn. The computer player moves the unit as a block to the nearest place to
the enemy the text allows (places_for).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import placing
from battlefield.rules.refusals import v
from battlefield.rules.state import State

Event = dict[str, Any]
SET_UP = "set_up"          # the effect: {"set_up": {"away": N}, "who": self}
FLAG = "set-up"            # a unit's flag: it was set up this turn
WHERE = ("away",)          # what a set-up may ask: more than N" from all enemy units
EPS = 1e-6


def places_needed(state: State, u: int) -> int:
    return len(state.models_of(u))


def check(state: State, u: int, e: Mapping[str, Any], action: Action) -> list[Violation]:
    """Why the places the action gives for unit u's set-up are not ones the effect allows."""
    spec = state.scene.units[u]
    at = placing.places(action)
    n = places_needed(state, u)
    if at is None:
        return [v("no_places", f"{_words(e)}: give \"at\", a place [x, y] for each of "
                               f"{spec.id}'s {n} models", choose="at")]
    if len(at) != n:
        return [v("places", f"{len(at)} places for {spec.id}'s {n} models: one [x, y] each",
                  given=len(at), needed=n, units=[spec.id])]
    models = state.models_of(u)
    out = placing.set_up_problems(state, u, at, None, models)
    if out:
        return out
    _, probe = placing.placed(state, u, at, None, models)
    t = probe.table
    names = state.scene.model_names
    where = e[SET_UP]
    if "away" in where:
        enemies = [int(m) for w, s in enumerate(state.scene.units) if s.side != spec.side
                   for m in state.models_of(w)]
        if enemies:
            d = t.distances(models, np.asarray(enemies, dtype=np.int64))
            i, j = np.unravel_index(int(np.argmin(d)), d.shape)
            if d[i, j] <= where["away"] + EPS:
                m, x = int(models[i]), enemies[j]
                return [v("too_close", f"{names[m]} would be {d[i, j]:.2f}\" from "
                                       f"{names[x]}: more than {where['away']}\" from all "
                                       f"enemy units", distance=float(d[i, j]),
                          needed=where["away"], models=[names[m], names[x]])]
    return []


def play(state: State, u: int, name: str, action: Action) -> list[Event]:
    """Unit u's models set up at the action's places (checked already)."""
    models = state.models_of(u)
    at = placing.places(action)
    assert at is not None and len(at) == len(models)
    _, probe = placing.placed(state, u, at, None, models)
    state.table = probe.table
    state.units[u].flags.add(FLAG)
    names = state.scene.model_names
    return [{"type": "set-up", "unit": state.scene.units[u].id, "ability": name,
             "models": [names[int(m)] for m in models],
             "at": [[round(float(x), 3), round(float(y), 3)] for x, y in at]}]


def _words(e: Mapping[str, Any]) -> str:
    where = e[SET_UP]
    return f"set up again more than {where['away']}\" from all enemy units"


# --- where the computer player sets the unit up ---
STEP = 2.0          # the grid of centres it tries, in inches
TRIES = 40          # the most places it checks in full


def places_for(state: State, u: int, e: Mapping[str, Any]) -> list[list[float]] | None:
    """Places for unit u's set-up the check accepts, or None: the unit's formation moved as a
    block to the nearest centre to the closest enemy model that leaves every model more than
    the distance the text asks from all enemy units (on a grid of STEP inches, the first of
    TRIES candidates that passes)."""
    t = state.table
    models = state.models_of(u)
    if not len(models):
        return None
    xy = np.stack([t.x[models], t.y[models]], axis=1)
    shape = xy - xy.mean(axis=0)
    r = np.asarray(t.reach)[models]
    w, h = state.scene.width, state.scene.depth
    side = state.scene.units[u].side
    enemies = np.asarray([int(m) for x, s in enumerate(state.scene.units) if s.side != side
                          for m in state.models_of(x)], dtype=np.int64)
    gx, gy = np.meshgrid(np.arange(STEP, w, STEP), np.arange(STEP, h, STEP))
    centres = np.stack([gx.ravel(), gy.ravel()], axis=1)
    spots = centres[:, None, :] + shape[None, :, :]                 # (centre, model, xy)
    inside = ((spots[..., 0] - r >= 0) & (spots[..., 0] + r <= w)
              & (spots[..., 1] - r >= 0) & (spots[..., 1] + r <= h)).all(axis=1)
    where = e[SET_UP]
    nearest = np.zeros(len(centres))
    if len(enemies):
        ex, ey, er = t.x[enemies], t.y[enemies], np.asarray(t.reach)[enemies]
        gap = (np.hypot(spots[..., 0, None] - ex, spots[..., 1, None] - ey)
               - r[None, :, None] - er).min(axis=(1, 2))            # a lower bound per centre
        inside &= gap > where.get("away", 0) + 0.5
        nearest = gap
    order = [int(i) for i in np.argsort(nearest, kind="stable") if inside[i]][:TRIES]
    for i in order:
        at = [[round(float(x), 3), round(float(y), 3)] for x, y in spots[i]]
        if not check(state, u, e, Action("ability", state.scene.units[u].id,
                                          options=(("at", tuple(map(tuple, at))),))):
            return at
    return None
