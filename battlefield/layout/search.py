"""The search: simulated annealing with parallel tempering over candidate tables.

Why annealing with parallel tempering rather than a genetic algorithm: a table's figures are
global (one piece moved changes what half the board sees), and every candidate must keep the
constraints (inside the board, gaps between pieces, off the objectives, reachable). Small moves
- shift a piece (and its twin) by a few lattice steps, turn it 15 degrees, add, remove or swap
pieces - keep a feasible table feasible and cost one evaluation each, so every evaluation moves
the search. A genetic algorithm's crossover of two tables mostly makes overlapping, infeasible
children, and it needs a population of evaluations per generation; at ~10 ms an evaluation a
minute buys a few thousand, which a handful of tempered chains use better. The hot chains
wander over the whole board and pass good tables down to the cold ones by exchange, which
keeps the cold chain from freezing in the first valley it finds.

Deterministic: one seeded numpy Generator (PCG64) drives every choice, in a fixed order; the
figures are exact counts; nothing depends on dict or set order or on the clock - unless a time
cap stops the search, and then the result depends on the machine's speed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from battlefield.layout import targets as tg
from battlefield.layout.figures import Evaluator
from battlefield.layout.table import LATTICE, TURNS, Placement, Setting

REPLICAS = 4
T_COLD, T_HOT = 0.002, 0.08           # temperatures of the coldest and hottest chains
GOAL = 0.012                          # the coarse search stops when every row is this close
MOVES = ("shift", "jump", "turn", "add", "remove", "swap")
MOVE_WEIGHTS = np.array([0.40, 0.12, 0.18, 0.10, 0.08, 0.12])
PLACE_TRIES = 400


class CannotPlace(Exception):
    """The catalogue's minimum counts do not fit on the board with the gaps."""


@dataclass
class Chain:
    placements: tuple[Placement, ...]
    figures: dict
    energy: float


@dataclass
class Outcome:
    best: Chain
    chains: list[Chain]
    sweeps: int
    evaluations: int
    interrupted: bool = False
    timed_out: bool = False
    history: list[float] = field(default_factory=list)


def corrected(figures: dict, offsets: dict) -> dict:
    """Figures with the coarse grid's known differences from the fine one added."""
    out: dict = {"visible": figures["visible"] + offsets.get("visible", 0.0)}
    for key in tg.SIDE_FIGURES:
        out[key] = {s: (None if v is None else v + offsets.get(key, {}).get(s, 0.0))
                    for s, v in figures[key].items()}
    return out


def energy(figures: dict, targets: tg.Targets, offsets: dict) -> tuple[float, bool]:
    """The score of corrected figures, and whether every row is within GOAL."""
    rows = tg.rows(corrected(figures, offsets), targets)
    return tg.score(rows), all(r["distance"] <= GOAL for r in rows)


class Search:
    def __init__(self, setting: Setting, evaluator: Evaluator, targets: tg.Targets,
                 rng: np.random.Generator) -> None:
        self.setting, self.ev, self.targets, self.rng = setting, evaluator, targets, rng
        self.nx = int(round(setting.width / LATTICE))
        self.ny = int(round(setting.depth / LATTICE))
        self.ntypes = len(setting.catalogue)
        self.evaluations = 0

    # --- candidates ------------------------------------------------------------------------
    def _random_placement(self, t: int, others: list[Placement]) -> Placement | None:
        s = self.setting
        for _ in range(PLACE_TRIES):
            p = (t, int(self.rng.integers(0, self.nx + 1)), int(self.rng.integers(0, self.ny + 1)),
                 int(self.rng.integers(0, TURNS)))
            if s.fits_alone(p) and s.clear_of(p, others):
                return p
        return None

    def start(self) -> tuple[Placement, ...]:
        """A feasible, reachable table: each type between its min and the middle of its range."""
        for _ in range(20):
            placed: list[Placement] = []
            for t in range(self.ntypes):
                lo, hi = self.setting.placements_allowed(t)
                for k in range((lo + max(lo, hi)) // 2):
                    p = self._random_placement(t, placed)
                    if p is None:
                        if k < lo:
                            break
                        continue
                    placed.append(p)
            counts = self._counts(tuple(placed))
            if all(counts[t] >= self.setting.placements_allowed(t)[0]
                   for t in range(self.ntypes)):
                cand = tuple(placed)
                if self.ev.figures(cand) is not None:
                    return cand
        raise CannotPlace("the catalogue's minimum pieces do not fit on this board with a "
                          f"{self.setting.gap:g}\" gap between pieces and every objective "
                          "reachable")

    def _counts(self, placements: tuple[Placement, ...]) -> list[int]:
        c = [0] * self.ntypes
        for p in placements:
            c[p[0]] += 1
        return c

    def propose(self, cur: tuple[Placement, ...]) -> tuple[Placement, ...] | None:
        """A neighbour of the candidate that keeps the geometric constraints, or None."""
        s, rng = self.setting, self.rng
        move = MOVES[int(rng.choice(len(MOVES), p=MOVE_WEIGHTS / MOVE_WEIGHTS.sum()))]
        counts = self._counts(cur)
        cur_l = list(cur)
        if move == "add":
            can = [t for t in range(self.ntypes) if counts[t] < s.placements_allowed(t)[1]]
            if not can:
                return None
            t = can[int(rng.integers(len(can)))]
            p = (t, int(rng.integers(0, self.nx + 1)), int(rng.integers(0, self.ny + 1)),
                 int(rng.integers(0, TURNS)))
            return tuple(cur_l + [p]) if s.fits_alone(p) and s.clear_of(p, cur_l) else None
        if not cur_l:
            return None
        if move == "remove":
            can = [i for i, p in enumerate(cur_l) if counts[p[0]] > s.placements_allowed(p[0])[0]]
            if not can:
                return None
            i = can[int(rng.integers(len(can)))]
            return tuple(cur_l[:i] + cur_l[i + 1:])
        if move == "swap":
            if len(cur_l) < 2:
                return None
            i, j = (int(v) for v in rng.choice(len(cur_l), 2, replace=False))
            a, b = cur_l[i], cur_l[j]
            if a[0] == b[0]:
                return None
            na, nb = (a[0], b[1], b[2], a[3]), (b[0], a[1], a[2], b[3])
            rest = [p for k, p in enumerate(cur_l) if k not in (i, j)]
            if not (s.fits_alone(na) and s.fits_alone(nb) and s.clear_of(na, rest + [nb])
                    and s.clear_of(nb, rest)):
                return None
            cur_l[i], cur_l[j] = na, nb
            return tuple(cur_l)
        i = int(rng.integers(len(cur_l)))
        t, ix, iy, turn = cur_l[i]
        if move == "shift":
            reach = 1 + int(rng.integers(0, 8))
            p = (t, ix + int(rng.integers(-reach, reach + 1)),
                 iy + int(rng.integers(-reach, reach + 1)), turn)
        elif move == "jump":
            p = (t, int(rng.integers(0, self.nx + 1)), int(rng.integers(0, self.ny + 1)), turn)
        else:
            p = (t, ix, iy, (turn + int(rng.choice([-2, -1, 1, 2]))) % TURNS)
        if p == cur_l[i]:
            return None
        rest = cur_l[:i] + cur_l[i + 1:]
        if not (s.fits_alone(p) and s.clear_of(p, rest)):
            return None
        cur_l[i] = p
        return tuple(cur_l)

    # --- the tempered chains ---------------------------------------------------------------
    def run(self, sweeps: int, offsets: dict, chains: list[Chain] | None = None,
            deadline: float | None = None,
            progress: Callable[[int, int, float], None] | None = None) -> Outcome:
        """Up to `sweeps` sweeps (one proposal per chain, then exchanges between neighbouring
        temperatures); stops early when the best table is within GOAL of every target."""
        temps = np.geomspace(T_COLD, T_HOT, REPLICAS)
        if chains is None:
            chains = []
            for _ in range(REPLICAS):
                p = self.start()
                chains.append(self._chain(p, offsets))
        else:                               # new offsets: the same tables, rescored
            chains = [Chain(c.placements, c.figures, energy(c.figures, self.targets, offsets)[0])
                      for c in chains]
        best = min(chains, key=lambda c: c.energy)
        out = Outcome(best, chains, 0, 0)
        if energy(best.figures, self.targets, offsets)[1]:
            return out
        try:
            for sweep in range(sweeps):
                for r in range(REPLICAS):
                    cand = self.propose(chains[r].placements)
                    if cand is None:
                        continue
                    figs = self.ev.figures(cand)
                    self.evaluations += 1
                    out.evaluations += 1
                    if figs is None:
                        continue
                    e, _ = energy(figs, self.targets, offsets)
                    d = e - chains[r].energy
                    u = float(self.rng.random())
                    if d <= 0 or u < math.exp(-d / temps[r]):
                        chains[r] = Chain(cand, figs, e)
                        if e < best.energy:
                            best = chains[r]
                for r in range(sweep % 2, REPLICAS - 1, 2):
                    a, b = chains[r], chains[r + 1]
                    x = (a.energy - b.energy) * (1 / temps[r] - 1 / temps[r + 1])
                    if x >= 0 or float(self.rng.random()) < math.exp(x):
                        chains[r], chains[r + 1] = b, a
                out.sweeps = sweep + 1
                out.history.append(best.energy)
                if progress:
                    progress(sweep + 1, sweeps, best.energy)
                if energy(best.figures, self.targets, offsets)[1]:
                    break
                if deadline is not None and time.monotonic() > deadline:
                    out.timed_out = True
                    break
        except KeyboardInterrupt:
            out.interrupted = True
        out.best, out.chains = best, chains
        return out

    def _chain(self, placements: tuple[Placement, ...], offsets: dict) -> Chain:
        figs = self.ev.figures(placements)
        assert figs is not None             # start() gives reachable tables only
        return Chain(placements, figs, energy(figs, self.targets, offsets)[0])
