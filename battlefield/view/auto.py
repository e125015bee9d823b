"""What the window does by itself: the steps a side cannot avoid, and the computer's moves shown
as moves.

`forced(state)`: the action the acting side would have to click although it decides nothing -
the ruleset's own pass (its vocabulary's `passes` action) when every other action `available`
offers is one no unit may take now (rules.choices.usable), the one action offered when it
needs nothing (warband's initiative roll), or a pending decision's only answer. The window
applies it by itself (auto-pass, on unless `--no-auto-pass` or the A key turns it off).

`Glide`: the computer's moved models sliding from where they stood to where they ended, along
the action's path or the path the engine's `moved` event gives (the others keep their place in
formation), in MOVE_S; any key or click ends it. Whoever applied the action: a computer unit
moved by the engine after the human's action (blocks' standing orders, carried out when a
phase ends) glides too, and every unit an action moved glides at once. No pygame here beyond
drawing the bases."""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from battlefield.rules.actions import Action
from battlefield.rules.choices import open_choices, passes
from battlefield.rules.moves import leader
from battlefield.rules.state import State

MOVE_S = 0.3          # seconds a computer move takes on the screen


def empty(state: State, offered: list[str]) -> bool:
    """Whether the actions offered leave nothing to decide: all of them the ruleset's pass, or
    only one, which needs nothing (warband's initiative roll)."""
    passing = passes(state)
    if offered and all(a in passing for a in offered):
        return True
    bare = {a.id for a in state.scene.ruleset.actions if not a.fields}
    return len(offered) == 1 and offered[0] in bare


def forced(state: State, open_now: list[str] | None = None) -> Action | None:
    """The action the acting side takes when it has nothing to decide, else None: the only
    answer of a pending decision that has no open one (a move), the ruleset's pass when
    `available` offers nothing else that a unit may take now (or nothing at all, and the
    engine takes the pass), or the one action offered when it needs nothing. `open_now`:
    rules.choices.open_choices of this state, when the caller has it already."""
    if state.over:
        return None
    if state.pending:
        # an open answer (aos4's move after a charge roll, a drag) is a choice too
        d = state.pending[0]
        return d.choices[0] if len(d.choices) == 1 and not d.open else None
    offered = state.available()
    if empty(state, offered):
        return Action(offered[0])
    passing = [a for a in offered if a in passes(state)]
    if passing and not (open_choices(state) if open_now is None else open_now):
        return Action(passing[0])      # the other types offered: no unit may take one now
    if not offered:                    # nothing offered at all: the pass the engine takes
        for a in state.scene.ruleset.actions:
            if a.passes and not state.check(Action(a.id)):
                return Action(a.id)
    return None


def positions(state: State) -> np.ndarray:
    """(n, 2) where every model of the table stands now."""
    t = state.table
    return np.column_stack([np.asarray(t.x, dtype=float), np.asarray(t.y, dtype=float)])


@dataclass
class Glide:
    """The standing models of one unit moving from `start` to `end` (rows of `models`; those
    that stay have both equal), the reference model `ref` (a row) along `path`; begun at
    `t0`. `others`: the other units the same action moved, gliding alongside (on this one's
    clock)."""

    unit: int
    models: np.ndarray
    start: np.ndarray
    end: np.ndarray
    path: np.ndarray                  # (k, 2) the reference model's path, start to end
    ref: int
    t0: float
    seconds: float = MOVE_S
    others: tuple[Glide, ...] = ()

    @classmethod
    def of(cls, state: State, action: Action, before: np.ndarray, seconds: float = MOVE_S,
           events: Sequence[Mapping[str, Any]] = (), sides: Collection[str] | None = None
           ) -> Glide | None:
        """The glide of what `action` (just applied, giving `events`) moved, from the places
        `before`: every unit with a model moved (of `sides` only, when given), each along
        the action's path when it is the unit's, else its `moved` event's path, else
        straight; None when nothing moved."""
        t = state.table
        now = positions(state)
        on = np.asarray(t.on_table, dtype=bool)
        moved = np.nonzero(on & (np.hypot(*(now - before).T) > 1e-6))[0]
        every = sorted({int(t.unit[m]) for m in moved})
        units = [u for u in every if sides is None or state.side_of(u) in sides]
        if not units:
            return None
        trails = {e["unit"]: e["path"] for e in events
                  if e.get("type") == "moved" and len(e.get("path") or ()) >= 2}
        t0 = time.perf_counter()
        # the action's own path is its unit's: the one it names, or the one unit it moved
        glides = [cls._one(state, u, action if every == [u]
                           or action.unit == state.scene.units[u].id else None,
                           trails.get(state.scene.units[u].id), before, now, t0, seconds)
                  for u in units]
        return replace(glides[0], others=tuple(glides[1:]))

    @classmethod
    def _one(cls, state: State, u: int, action: Action | None, trail: Any,
             before: np.ndarray, now: np.ndarray, t0: float, seconds: float) -> Glide:
        """Unit u's glide: along `action`'s path (the action that moved it), else `trail`
        (its moved event's path: its leader's), else straight."""
        moved = np.array(sorted(int(m) for m in state.models_of(u)), dtype=np.int64)
        path = None
        ref = 0
        lead = leader(state, u)
        if action is not None and action.path:
            if lead in moved:
                ref = int(np.nonzero(moved == lead)[0][0])
                path = np.asarray(action.path, dtype=float)
        elif action is not None and action.paths and len(action.paths) == 1:
            n, p = action.paths[0]
            m = state.scene.model_offsets()[u] + int(n) - 1
            if m in moved:
                ref = int(np.nonzero(moved == m)[0][0])
                path = np.asarray(p, dtype=float)
        elif trail is not None and lead in moved:
            ref = int(np.nonzero(moved == lead)[0][0])
            path = np.asarray([p[:2] for p in trail], dtype=float)
        start, end = before[moved], now[moved]
        if path is None or len(path) < 2:
            path = np.array([start[ref], end[ref]])
        return cls(u, moved, start, end, path, ref, t0, seconds)

    @property
    def units(self) -> tuple[int, ...]:
        """The units gliding: this one and the others."""
        return (self.unit, *(g.unit for g in self.others))

    def placed(self, f: float) -> list[tuple[np.ndarray, np.ndarray]]:
        """(models, where they are) of every unit gliding, at fraction f of the move."""
        return [(g.models, g.at(f)) for g in (self, *self.others)]

    def fraction(self, now: float | None = None) -> float:
        now = time.perf_counter() if now is None else now
        return min(1.0, max(0.0, (now - self.t0) / self.seconds)) if self.seconds > 0 else 1.0

    @property
    def done(self) -> bool:
        return self.fraction() >= 1.0

    def finish(self) -> None:
        self.t0 = -1e9

    def at(self, f: float) -> np.ndarray:
        """(n, 2) where the models are at fraction f of the move: the reference model at f of
        its path's length, the others at its offset blended from where they stood to where
        they end (so they land exactly where the engine put them)."""
        seg = np.hypot(*np.diff(self.path, axis=0).T)
        total = float(seg.sum())
        if total <= 1e-9:
            point = self.path[-1]
        else:
            want = f * total
            k = int(np.searchsorted(np.cumsum(seg), want, side="left"))
            k = min(k, len(seg) - 1)
            before = float(np.cumsum(seg)[k - 1]) if k else 0.0
            w = (want - before) / seg[k] if seg[k] > 0 else 1.0
            point = self.path[k] + w * (self.path[k + 1] - self.path[k])
        offset0 = self.start - self.start[self.ref]
        offset1 = self.end - self.end[self.ref]
        drift = (self.end[self.ref] - self.path[-1]) * f + (self.start[self.ref] - self.path[0]
                                                            ) * (1 - f)
        return point + drift + offset0 * (1 - f) + offset1 * f


__all__ = ["MOVE_S", "Glide", "empty", "forced", "passes", "positions"]
