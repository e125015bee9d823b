"""Pot shots (seed: Pot Shots, Overextended, Bombardment; RULES-NOTES): which enemy units a
move lets take a free attack, found along the whole path.

- A move that passes within 1" of an enemy unit - any model of the mover, at any point of its
  path (the start included), to any model of the enemy - triggers pot shots from that unit.
- An overextended move that passes within an enemy unit's Range - that enemy's leader to the
  mover's leader, measured the enemy's way (3-D across elevation; a melee unit horizontally while
  the leaders are under 2" apart in height) - triggers pot shots from it.
- An overextended move that passes within 6" of an enemy artillery unit's bombardment token
  triggers pot shots from that artillery unit.

A unit makes pot shots at most once per turn, and not after it retreated this turn (a retreated
unit may not attack). Retreats never trigger pot shots. Pot shots are attacks where only 6s hit:
no morale, no support, no retreat and no counterattack.

Paths are sampled every 0.05" plus, on every straight leg, the point nearest each enemy base's
centre (exact for round bases); the leader's elevation along the path is the ground it would
stand on there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from battlefield.geometry.bases import footprint
from battlefield.geometry.separation import separations_from
from battlefield.rules.skirmish import attacks, bombardment
from battlefield.rules.skirmish.data import EPS, game, is_melee, leader, stat
from battlefield.rules.skirmish.movement import Moves
from battlefield.rules.state import State

Event = dict[str, Any]
STEP = 0.05
WITHIN = "within 1\""
IN_RANGE = "overextended, in range"
BOMBARDED = "overextended, near bombardment token"


@dataclass(frozen=True)
class Trigger:
    by: int                    # the enemy unit that may take pot shots
    reason: str
    along: float               # how far along the path (inches) it was first triggered
    closest: float             # the closest approach that triggered it

    def to_dict(self, state: State) -> dict[str, Any]:
        return {"by": state.scene.units[self.by].id, "reason": self.reason,
                "along": round(self.along, 6), "closest": round(self.closest, 6)}


def samples(path: np.ndarray, centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points along a path (every STEP, plus the nearest point to each centre on each leg) and
    their distances along it."""
    pts, along = [np.asarray(path[:1], dtype=np.float64)], [np.zeros(1)]
    done = 0.0
    for a, b in zip(path[:-1], path[1:], strict=True):
        d = b - a
        length = float(np.hypot(*d))
        if length < 1e-12:
            continue
        n = max(1, int(math.ceil(length / STEP)))
        ts = np.linspace(0.0, 1.0, n + 1)[1:]
        if len(centres):
            proj = np.clip(((centres - a) @ d) / (length * length), 0.0, 1.0)
            ts = np.unique(np.concatenate([ts, proj]))
        pts.append(a + ts[:, None] * d)
        along.append(done + ts * length)
        done += length
    return np.concatenate(pts), np.concatenate(along)


def _ground(state: State, m: int, pts: np.ndarray) -> np.ndarray:
    """The elevation a base of model m would stand at at each point."""
    t = state.table
    lay = t.layout
    z = np.zeros(len(pts))
    standing = [i for i, p in enumerate(lay.pieces)
                if p.kind not in ("area", "impassable") and p.height > 0]
    if not standing or not len(pts):
        return z
    feet = np.array([footprint(int(t.shape[m]), t.a[m], t.b[m], float(x), float(y),
                               t.facing[m], 32) for x, y in pts], dtype=object)
    for i in standing:
        on = shapely.within(feet, lay.polygons[i])
        z = np.where(on, np.maximum(z, lay.pieces[i].height), z)
    return z


def may_take(state: State, w: int) -> bool:
    us = state.units[w]
    return bool(len(state.models_of(w))) and not us.flags & {"pot-shots", "retreated"}


def triggers(state: State, u: int, moves: Moves, overextended: bool,
             exclude: tuple[int, ...] = ()) -> list[Trigger]:
    """The enemy units the move lets take pot shots, in the order the path reaches them."""
    g = game(state)
    t = state.table
    foes = [w for w in state.enemies(u) if w not in exclude and may_take(state, w)]
    if not foes:
        return []
    found: dict[int, Trigger] = {}
    targets = np.concatenate([t.unit_models[w] for w in foes]).astype(np.int64)
    owner = np.concatenate([np.full(len(t.unit_models[w]), w) for w in foes])
    centres = np.column_stack([t.x[targets], t.y[targets]])
    tok = {w: bombardment.token_of(state, w) for w in foes} if overextended else {}
    tok = {w: at for w, at in tok.items() if at is not None}
    lead = leader(state, u)
    for m, path in zip(moves.models, moves.paths, strict=True):
        if len(path) < 2 or float(np.hypot(*np.diff(path, axis=0).T).sum()) < EPS:
            continue
        extra = centres
        if int(m) == lead and overextended:
            extra = np.vstack([centres, [[t.x[leader(state, w)], t.y[leader(state, w)]]
                                         for w in foes]])
        if tok:
            extra = np.vstack([extra, np.array(list(tok.values()))])
        pts, along = samples(path, extra)
        d, _ = separations_from(pts[:, 0], pts[:, 1], int(t.shape[m]), t.a[m], t.b[m],
                                t.cos[m], t.sin[m], t.x, t.y, t.shape, t.a, t.b, t.cos, t.sin,
                                targets)
        d = np.maximum(d, 0.0)
        for w in foes:
            near = d[:, owner == w].min(axis=1)
            hit = np.nonzero(near <= g.pot_shot_within + EPS)[0]
            if len(hit):
                _note(found, Trigger(w, WITHIN, float(along[hit[0]]), float(near.min())))
        if overextended and int(m) == lead:
            _in_range(state, u, m, pts, along, foes, found)
        for w, at in tok.items():
            gap = np.maximum(separations_from(pts[:, 0], pts[:, 1], int(t.shape[m]), t.a[m],
                                              t.b[m], t.cos[m], t.sin[m],
                                              np.array([at[0]]), np.array([at[1]]),
                                              np.array([0]), np.zeros(1), np.zeros(1),
                                              np.ones(1), np.zeros(1),
                                              np.array([0], dtype=np.int64))[0][:, 0], 0.0)
            hit = np.nonzero(gap <= g.bombardment_reach + EPS)[0]
            if len(hit):
                _note(found, Trigger(w, BOMBARDED, float(along[hit[0]]), float(gap.min())))
    return sorted(found.values(), key=lambda x: (x.along, x.by))


def _note(found: dict[int, Trigger], trig: Trigger) -> None:
    old = found.get(trig.by)
    if old is None or trig.along < old.along - 1e-9:
        found[trig.by] = trig


def _in_range(state: State, u: int, m: int, pts: np.ndarray, along: np.ndarray,
              foes: list[int], found: dict[int, Trigger]) -> None:
    """Overextended: the mover's leader within each enemy's Range of that enemy's leader."""
    g = game(state)
    t = state.table
    z = None
    for w in foes:
        j = leader(state, w)
        h, _ = separations_from(pts[:, 0], pts[:, 1], int(t.shape[m]), t.a[m], t.b[m],
                                t.cos[m], t.sin[m], t.x, t.y, t.shape, t.a, t.b, t.cos, t.sin,
                                np.array([j], dtype=np.int64))
        h = np.maximum(h[:, 0], 0.0)
        rng = stat(state, w, "range")
        close = h <= rng + EPS
        if not close.any():
            continue
        if z is None:
            z = _ground(state, m, pts)
        dz = np.abs(z - t.z[j])
        measure = np.where(is_melee(state, w) & (dz < g.melee_vertical - EPS), h,
                           np.hypot(h, dz))
        hit = np.nonzero(measure <= rng + EPS)[0]
        if len(hit):
            _note(found, Trigger(w, IN_RANGE, float(along[hit[0]]), float(measure.min())))


def take(state: State, u: int, trigs: list[Trigger]) -> list[Event]:
    """Each triggered unit takes its pot shots at unit u (until u is destroyed)."""
    events: list[Event] = []
    for trig in trigs:
        if not len(state.models_of(u)):
            break
        if not may_take(state, trig.by):
            continue
        state.units[trig.by].flags.add("pot-shots")
        a = attacks.prepare(state, trig.by, u, with_support=False, pot_shots=True)
        a.notes["reason"] = trig.reason
        events.extend(attacks.resolve(state, a))
    return events
