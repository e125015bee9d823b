"""Sight between every pair of standing points on a grid (numba, all threads): how many points
each point sees, and how many points of a few observer groups (deployment zones) see it - the
figures of a whole board's heat maps. Memory grows with the points, never with their pairs: a
pair's answer is added to per-point counters as soon as it is known, then forgotten.

A point is a model's eye (x, y, z). Two points see each other when no terrain piece blocks the
segment between them, by the rule of kernel.terrain_blocks: piece k blocks when the segment
crosses one of its edges below its height, or an end lies inside it below its height. Terrain
only: no models. The answer is exact for the points - every pair that any piece might block gets
the exact edge test (kernel.edges_block) - and the shortcuts only set aside what certainly
cannot block:

- Symmetry: the segment P->Q is the segment Q->P, so each pair is tested once, from the
  lower-numbered point, and the answer holds both ways.
- Blind points: an eye inside a piece below its top is blocked from everything (an end inside),
  so such a point sees nothing and is seen by nothing; found once, never tested.
- Pieces no taller than the lowest eye never block (both ends of every line are above them).
- Per observer, each piece is entered in the angular bins its outline spans as seen from the
  observer (pseudo-angles, widened by a bin each way), with its distance; a line can cross the
  piece only in that wedge and beyond that distance (the piece lies wholly on one side of the
  observer when the observer is outside its box; a piece whose box holds the observer is tested
  for every line). Per target, only the pieces of its bin that are nearer than it and taller than
  the line's lower end get the exact test. The filter is exact whichever end builds the wedges,
  so sight_rows (one observer against all points) gives the all-pairs answers.
- Threads: the rows (a point against every higher-numbered point) are dealt to tasks in turn
  (i = t, t + T, ...) so every task gets a like share of long and short rows and of open and
  cluttered ground; each task has its own counters, so no two threads write the same memory.
  The kernel releases the GIL: a progress callback is called from a watching thread that reads
  the tasks' tallies of pairs done.

The result is kept per layout, points and groups (in memory, and on disk under BATTLEFIELD_CACHE,
default ~/.cache/battlefield; BATTLEFIELD_CACHE=off turns the disk cache off).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np
from numba import njit, prange

from battlefield.geometry.sight.kernel import edges_block, may_be_inside, point_inside
from battlefield.geometry.terrain import Layout

BINS = 1024
_BOX_SLACK = 1e-9
_FORMAT = 2                      # bump when the kernel's answers or the file layout change


@njit(cache=True, inline="always")
def _pseudo_angle(dx, dy):
    """A number in [0, 4) that grows with the direction's angle from +x (counter-clockwise):
    cheaper than atan2 and just as ordered."""
    if dy >= 0.0:
        if dx >= 0.0:
            s = dx + dy
            return dy / s if s > 0.0 else 0.0
        return 1.0 - dx / (dy - dx)
    if dx < 0.0:
        return 2.0 - dy / (-dx - dy)
    return 3.0 + dx / (dx - dy)


@njit(cache=True)
def blind_points(pts, tcand, bboxes, heights, edges, edge_start):
    """True for each point inside a piece below its top: every line from it is blocked."""
    n = pts.shape[0]
    out = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        px, py, pz = pts[i, 0], pts[i, 1], pts[i, 2]
        for c in range(tcand.shape[0]):
            k = tcand[c]
            if pz < heights[k] and may_be_inside(px, py, bboxes[k, 0], bboxes[k, 1],
                                                  bboxes[k, 2], bboxes[k, 3]) \
                    and point_inside(px, py, edges, edge_start[k], edge_start[k + 1]):
                out[i] = True
                break
    return out


@njit(cache=True)
def ground_heights(xy, pieces, bboxes, heights, edges, edge_start):
    """Height of the ground under each point: the top of the tallest of `pieces` (the
    standable ones) that holds it by the kernel's own inside test, else 0."""
    n = xy.shape[0]
    out = np.zeros(n)
    for i in range(n):
        px, py = xy[i, 0], xy[i, 1]
        for c in range(pieces.shape[0]):
            k = pieces[c]
            if heights[k] > out[i] and may_be_inside(px, py, bboxes[k, 0], bboxes[k, 1],
                                                      bboxes[k, 2], bboxes[k, 3]) \
                    and point_inside(px, py, edges, edge_start[k], edge_start[k + 1]):
                out[i] = heights[k]
    return out


@njit(cache=True)
def _wedges(px, py, tcand, bboxes, edges, edge_start, nbins, bin_n, bin_k, near2, always):
    """Enter each candidate piece in the bins of its wedge as seen from (px, py), or in
    `always` when its box holds the point. Returns how many are in `always`."""
    for b in range(nbins):
        bin_n[b] = 0
    na = 0
    per = nbins / 4.0
    nt = tcand.shape[0]
    for c in range(nt):
        k = tcand[c]
        ddx = max(bboxes[k, 0] - px, 0.0, px - bboxes[k, 2])
        ddy = max(bboxes[k, 1] - py, 0.0, py - bboxes[k, 3])
        near2[c] = (ddx * ddx + ddy * ddy) * (1.0 - 1e-9)
    # Nearest pieces first: they cover the most of the view, so a blocked line stops soonest.
    for c in np.argsort(near2[:nt]):
        k = tcand[c]
        x0, y0, x1, y1 = bboxes[k, 0], bboxes[k, 1], bboxes[k, 2], bboxes[k, 3]
        if (x0 - _BOX_SLACK <= px <= x1 + _BOX_SLACK
                and y0 - _BOX_SLACK <= py <= y1 + _BOX_SLACK):
            near2[c] = 0.0
            always[na] = c
            na += 1
            continue
        mid = _pseudo_angle(0.5 * (x0 + x1) - px, 0.5 * (y0 + y1) - py)
        lo = 0.0
        hi = 0.0
        for e in range(edge_start[k], edge_start[k + 1]):
            d = _pseudo_angle(edges[e, 0] - px, edges[e, 1] - py) - mid
            if d < -2.0:
                d += 4.0
            elif d >= 2.0:
                d -= 4.0
            lo = min(lo, d)
            hi = max(hi, d)
        b0 = int(np.floor((mid + lo) * per)) - 1
        b1 = int(np.floor((mid + hi) * per)) + 1
        if b1 - b0 >= nbins:
            b1 = b0 + nbins - 1
        for b in range(b0, b1 + 1):
            bb = b % nbins
            bin_k[bb, bin_n[bb]] = c
            bin_n[bb] += 1
    return na


@njit(cache=True, inline="always")
def _bin(dx, dy, per, nbins):
    b = int(_pseudo_angle(dx, dy) * per)
    return nbins - 1 if b >= nbins else b


@njit(cache=True, inline="always")
def _clear(px, py, pz, dx, dy, dz, low, b, d2, na, always, bin_n, bin_k, near2, hint, tcand,
           heights, edges, edge_start):
    """True when no candidate piece blocks the segment p -> p + d (low: its lower end's z),
    given the observer's wedges (_wedges) and the target's bin b and squared distance d2.
    hint[b]: the piece of bin b that blocked the last line there (-1: none), tried first -
    neighbouring targets hide behind the same piece - and kept up to date. The order the
    candidates are tried in never changes the answer."""
    c = hint[b]
    if c >= 0 and d2 >= near2[c]:
        k = tcand[c]
        h = heights[k]
        if low < h and edges_block(px, py, pz, dx, dy, dz, h, edges, edge_start[k],
                                    edge_start[k + 1]):
            return False
    for a in range(na):
        k = tcand[always[a]]
        h = heights[k]
        if low < h and edges_block(px, py, pz, dx, dy, dz, h, edges, edge_start[k],
                                    edge_start[k + 1]):
            return False
    tried = hint[b]
    for s in range(bin_n[b]):
        c = bin_k[b, s]
        if c != tried and d2 >= near2[c]:
            k = tcand[c]
            h = heights[k]
            if low < h and edges_block(px, py, pz, dx, dy, dz, h, edges, edge_start[k],
                                        edge_start[k + 1]):
                hint[b] = c
                return False
    return True


@njit(cache=True, parallel=True, nogil=True)
def grid_sight_rows(pts, tcand, bboxes, heights, edges, edge_start, blind, member, start, stop,
                    nbins, tally, by, done):
    """Add the pairs (i, j) with start <= i < stop and i < j that see each other to the counters:
    tally[t, p] += 1 for both points, by[t, g, p] += 1 when the other point is in group g
    (member[p]: bit g set when point p is in group g). t is the task (tally.shape[0] of them);
    done[t] counts the pairs task t has decided (for a progress bar reading it meanwhile).
    tcand: the pieces that may block (taller than the lowest eye); blind: blind_points()."""
    n = pts.shape[0]
    tasks = tally.shape[0]
    ngroups = by.shape[1]
    nt = tcand.shape[0]
    per = nbins / 4.0
    for t in prange(tasks):
        bin_n = np.zeros(nbins, dtype=np.int64)
        bin_k = np.empty((nbins, max(nt, 1)), dtype=np.int64)
        near2 = np.zeros(max(nt, 1))
        always = np.empty(max(nt, 1), dtype=np.int64)
        hint = np.empty(nbins, dtype=np.int64)
        mine = tally[t]
        theirs = by[t]
        for i in range(start + t, stop, tasks):
            if blind[i]:
                done[t] += n - 1 - i
                continue
            px, py, pz = pts[i, 0], pts[i, 1], pts[i, 2]
            na = _wedges(px, py, tcand, bboxes, edges, edge_start, nbins, bin_n, bin_k, near2,
                         always)
            hint[:] = -1
            gi = member[i]
            seen = 0
            for j in range(i + 1, n):
                if blind[j]:
                    continue
                qz = pts[j, 2]
                dx = pts[j, 0] - px
                dy = pts[j, 1] - py
                if _clear(px, py, pz, dx, dy, qz - pz, min(pz, qz), _bin(dx, dy, per, nbins),
                          dx * dx + dy * dy, na, always, bin_n, bin_k, near2, hint, tcand,
                          heights, edges, edge_start):
                    seen += 1
                    mine[j] += 1
                    gj = member[j]
                    if gi != 0 or gj != 0:
                        for g in range(ngroups):
                            if (gi >> g) & 1:
                                theirs[g, j] += 1
                            if (gj >> g) & 1:
                                theirs[g, i] += 1
            mine[i] += seen
            done[t] += n - 1 - i


@njit(cache=True, parallel=True)
def sight_rows(pts, tcand, bboxes, heights, edges, edge_start, blind, observers, tasks, nbins):
    """out[a, j]: whether observers[a] and point j see each other (never a point itself, never a
    blind point), each pair decided as grid_sight_rows decides it: from its lower-numbered
    point, with the observer's wedges."""
    n = pts.shape[0]
    m = observers.shape[0]
    out = np.zeros((m, n), dtype=np.bool_)
    nt = tcand.shape[0]
    per = nbins / 4.0
    for t in prange(tasks):
        bin_n = np.zeros(nbins, dtype=np.int64)
        bin_k = np.empty((nbins, max(nt, 1)), dtype=np.int64)
        near2 = np.zeros(max(nt, 1))
        always = np.empty(max(nt, 1), dtype=np.int64)
        hint = np.empty(nbins, dtype=np.int64)
        for a in range(t, m, tasks):
            o = observers[a]
            if blind[o]:
                continue
            ox, oy, oz = pts[o, 0], pts[o, 1], pts[o, 2]
            na = _wedges(ox, oy, tcand, bboxes, edges, edge_start, nbins, bin_n, bin_k, near2,
                         always)
            hint[:] = -1
            row = out[a]
            for j in range(n):
                if j == o or blind[j]:
                    continue
                qx, qy, qz = pts[j, 0], pts[j, 1], pts[j, 2]
                ex = qx - ox                       # from the observer: its wedges
                ey = qy - oy
                b = _bin(ex, ey, per, nbins)
                if j > o:
                    row[j] = _clear(ox, oy, oz, ex, ey, qz - oz, min(oz, qz), b,
                                    ex * ex + ey * ey, na, always, bin_n, bin_k, near2, hint,
                                    tcand, heights, edges, edge_start)
                else:                              # the pair's own direction: from j
                    row[j] = _clear(qx, qy, qz, ox - qx, oy - qy, oz - qz, min(oz, qz), b,
                                    ex * ex + ey * ey, na, always, bin_n, bin_k, near2, hint,
                                    tcand, heights, edges, edge_start)
    return out


# --- the sight of a whole board, kept per layout --------------------------------------------------
MAX_GROUPS = 62                  # observer groups counted on the way (bits of an int64)
Progress = Callable[[int, int], None]      # (pairs done, pairs in all)


@dataclass(frozen=True)
class GridSight:
    """Sight between every pair of a grid's standing points, as counts per point.

    points: (n, 3) eyes; counts[i]: how many other points point i sees; blind: points inside a
    piece below its top; groups: the observer groups counted on the way (sorted point indices)
    and group_counts[g, i]: how many points of groups[g] see point i."""

    points: np.ndarray
    counts: np.ndarray
    blind: np.ndarray
    groups: tuple[np.ndarray, ...] = ()
    group_counts: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    layout: Layout | None = field(default=None, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.points)

    @property
    def fraction(self) -> np.ndarray:
        """The share of the other points each point sees (1.0 on an open board)."""
        n = len(self.points)
        return self.counts / max(n - 1, 1)

    def rows(self, observers: np.ndarray) -> np.ndarray:
        """(len(observers), n): which points each observer sees (itself never), decided anew:
        len(observers) x n sight lines."""
        observers = np.ascontiguousarray(observers, dtype=np.int64)
        if self.layout is None:
            raise ValueError("this GridSight has no layout to decide new sight lines with")
        lay = self.layout
        tcand = candidates(lay, float(self.points[:, 2].min())) if len(self.points) else \
            np.zeros(0, dtype=np.int64)
        return sight_rows(self.points, tcand, lay.bboxes, lay.heights, lay.edges,
                          lay.edge_start, self.blind, observers, 4 * numba.get_num_threads(),
                          BINS)

    def sees(self, i: int, j: int) -> bool:
        return i != j and bool(self.rows(np.array([i]))[0, j])

    def seen_by(self, observers: np.ndarray) -> np.ndarray:
        """For each point, how many of the observer points see it (an observer does not count
        itself): a group counted on the way, else decided anew a few rows at a time."""
        observers = np.asarray(observers, dtype=np.int64)
        key = np.unique(observers)
        for g, members in enumerate(self.groups):
            if len(members) == len(key) and np.array_equal(members, key):
                return self.group_counts[g].copy()
        n = len(self.points)
        out = np.zeros(n, dtype=np.int64)
        step = max(1, (1 << 24) // max(n, 1))            # at most 16 MB of answers at a time
        for a in range(0, len(key), step):
            out += self.rows(key[a:a + step]).sum(axis=0)
        return out


_MEMORY: OrderedDict[str, GridSight] = OrderedDict()
_MEMORY_SIZE = 4


def candidates(layout: Layout, lowest_eye: float) -> np.ndarray:
    """The pieces that may block a line between eyes no lower than lowest_eye."""
    return np.nonzero(layout.heights > lowest_eye)[0].astype(np.int64)


def cache_key(layout: Layout, points: np.ndarray, groups: Sequence[np.ndarray] = ()) -> str:
    """A digest of everything the answer depends on: the terrain arrays, the points and the
    observer groups."""
    h = hashlib.sha256()
    h.update(f"sightgrid-{_FORMAT}-{BINS}".encode())
    for a in (layout.edges, layout.edge_start, layout.heights, layout.bboxes, points, *groups):
        a = np.ascontiguousarray(a)
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:32]


def cache_dir() -> Path | None:
    """Where results are kept on disk: $BATTLEFIELD_CACHE (off: nowhere), else
    ~/.cache/battlefield."""
    env = os.environ.get("BATTLEFIELD_CACHE")
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "no", "none") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "battlefield"


def all_pairs(layout: Layout, points: np.ndarray, cache: bool = True,
              threads: int | None = None, groups: Sequence[np.ndarray] = (),
              progress: Progress | None = None) -> GridSight:
    """Sight between every pair of `points` ((n, 3) eyes) over the layout's terrain, counted per
    point and per observer group (up to MAX_GROUPS arrays of point indices), from the cache
    when this layout, these points and groups were seen before."""
    points = np.ascontiguousarray(points, dtype=np.float64)
    groups = tuple(np.unique(np.asarray(g, dtype=np.int64)) for g in groups)
    if len(groups) > MAX_GROUPS:
        raise ValueError(f"{len(groups)} observer groups: at most {MAX_GROUPS}")
    key = cache_key(layout, points, groups) if cache else ""
    if cache:
        hit = _MEMORY.get(key)
        if hit is not None:
            _MEMORY.move_to_end(key)
            return hit
        hit = _load(key, layout, points, groups)
        if hit is not None:
            _remember(key, hit)
            return hit
    result = _compute(layout, points, groups, threads, progress)
    if cache:
        _remember(key, result)
        _save(key, result)
    return result


def pairs(n: int) -> int:
    """Pairs of n points (each tested once)."""
    return n * (n - 1) // 2


def _compute(layout: Layout, points: np.ndarray, groups: tuple[np.ndarray, ...],
             threads: int | None, progress: Progress | None) -> GridSight:
    n = len(points)
    g = len(groups)
    if n == 0:
        return GridSight(points, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool), groups,
                         np.zeros((g, 0), dtype=np.int64), layout)
    tcand = candidates(layout, float(points[:, 2].min()))
    blind = blind_points(points, tcand, layout.bboxes, layout.heights, layout.edges,
                         layout.edge_start)
    member = np.zeros(n, dtype=np.int64)
    for k, members in enumerate(groups):
        member[members] |= np.int64(1) << np.int64(k)
    before = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    try:
        tasks = 4 * numba.get_num_threads()
        tally = np.zeros((tasks, n), dtype=np.int32)
        by = np.zeros((tasks, g, n), dtype=np.int32)
        done = np.zeros(tasks, dtype=np.int64)
        args = (points, tcand, layout.bboxes, layout.heights, layout.edges, layout.edge_start,
                blind, member, 0, n, BINS, tally, by, done)
        if progress is None:
            grid_sight_rows(*args)
        else:
            _watched(args, done, pairs(n), progress)
    finally:
        numba.set_num_threads(before)
    counts = tally.sum(axis=0, dtype=np.int64)
    group_counts = by.sum(axis=0, dtype=np.int64)
    return GridSight(points, counts, blind, groups, group_counts, layout)


def _watched(args: tuple, done: np.ndarray, total: int, progress: Progress,
             every: float = 0.25) -> None:
    """grid_sight_rows(*args) on a worker thread (it releases the GIL), telling `progress` the
    pairs done every `every` seconds and once at the end."""
    failed: list[BaseException] = []
    threads = numba.get_num_threads()            # numba's thread count is per calling thread

    def work() -> None:
        try:
            numba.set_num_threads(threads)
            grid_sight_rows(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            failed.append(exc)

    worker = threading.Thread(target=work, name="sightgrid", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(every)
        if worker.is_alive():
            progress(min(int(done.sum()), total), total)
    if failed:
        raise failed[0]
    progress(total, total)


def _remember(key: str, result: GridSight) -> None:
    _MEMORY[key] = result
    _MEMORY.move_to_end(key)
    while len(_MEMORY) > _MEMORY_SIZE:
        _MEMORY.popitem(last=False)


def _load(key: str, layout: Layout, points: np.ndarray,
          groups: tuple[np.ndarray, ...]) -> GridSight | None:
    folder = cache_dir()
    if folder is None:
        return None
    path = folder / f"sight-{key}.npz"
    try:
        with np.load(path) as data:
            counts, blind, by = data["counts"], data["blind"], data["group_counts"]
    except (OSError, KeyError, ValueError):
        return None
    n = len(points)
    if counts.shape != (n,) or blind.shape != (n,) or by.shape != (len(groups), n):
        return None
    return GridSight(points, counts, blind, groups, by, layout)


def _save(key: str, result: GridSight) -> None:
    folder = cache_dir()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f"sight-{key}.{os.getpid()}.tmp.npz"
        np.savez_compressed(tmp, counts=result.counts, blind=result.blind,
                            group_counts=result.group_counts)
        tmp.replace(folder / f"sight-{key}.npz")
    except OSError:
        pass                   # a cache that cannot be written is no cache, not an error
