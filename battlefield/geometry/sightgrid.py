"""Sight between every pair of standing points on a grid (numba, two threads): which points see
which, for heat maps of a whole board.

A point is a model's eye (x, y, z). Two points see each other when no terrain piece blocks the
segment between them, by the rule of sightline.terrain_blocks: piece k blocks when the segment
crosses one of its edges below its height, or an end lies inside it below its height. Terrain
only: no models. The answer is exact for the points - every pair that any piece might block gets
the exact edge test (sightline._edges_block) - and the shortcuts only set aside what certainly
cannot block:

- Symmetry: the segment P->Q is the segment Q->P, so each pair is tested once (i < j, from the
  lower-numbered point) and the answer holds both ways.
- Blind points: an eye inside a piece below its top is blocked from everything (an end inside),
  so such a point sees nothing and is seen by nothing; found once, never tested.
- Pieces no taller than the lowest eye never block (both ends of every line are above them).
- Per observer, each piece is entered in the angular bins its outline spans as seen from the
  observer (pseudo-angles, widened by a bin each way), with its distance; a line can cross the
  piece only in that wedge and beyond that distance (the piece lies wholly on one side of the
  observer when the observer is outside its box; a piece whose box holds the observer is tested
  for every line). Per target, only the pieces of its bin that are nearer than it and taller than
  the line's lower end get the exact test.
- Threads: observers are dealt to tasks in turn (i = t, t + T, ...) so every task gets a like share
  of long and short rows and of open and cluttered ground; each task owns its observers' rows of
  the bit matrix and its own counters, so no two threads write the same memory.

The result is kept per layout and grid (in memory, and on disk under BATTLEFIELD_CACHE, default
~/.cache/battlefield; BATTLEFIELD_CACHE=off turns the disk cache off).
"""

from __future__ import annotations

import hashlib
import os
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
from numba import njit, prange

from battlefield.geometry.sightline import _edges_block, _inside, _may_be_inside
from battlefield.geometry.terrain import Layout

BINS = 1024
_BOX_SLACK = 1e-9
_FORMAT = 1                      # bump when the kernel's answers or the file layout change


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
            if pz < heights[k] and _may_be_inside(px, py, bboxes[k, 0], bboxes[k, 1],
                                                  bboxes[k, 2], bboxes[k, 3]) \
                    and _inside(px, py, edges, edge_start[k], edge_start[k + 1]):
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
            if heights[k] > out[i] and _may_be_inside(px, py, bboxes[k, 0], bboxes[k, 1],
                                                      bboxes[k, 2], bboxes[k, 3]) \
                    and _inside(px, py, edges, edge_start[k], edge_start[k + 1]):
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


@njit(cache=True, parallel=True)
def grid_sight(pts, tcand, bboxes, heights, edges, edge_start, blind, tasks, nbins):
    """Which pairs of points see each other.

    Returns (bits, counts): bits[i, j >> 6] has bit j & 63 set when i < j and the two points see
    each other (the upper triangle only: look pairs up with the lower index first); counts[i] is
    how many other points point i sees. tcand: the pieces that may block (taller than the lowest
    eye); blind: blind_points()."""
    n = pts.shape[0]
    words = (n + 63) >> 6
    bits = np.zeros((n, words), dtype=np.uint64)
    tally = np.zeros((tasks, n), dtype=np.int64)
    nt = tcand.shape[0]
    per = nbins / 4.0
    for t in prange(tasks):
        bin_n = np.zeros(nbins, dtype=np.int64)
        bin_k = np.empty((nbins, max(nt, 1)), dtype=np.int64)
        near2 = np.zeros(max(nt, 1))
        always = np.empty(max(nt, 1), dtype=np.int64)
        mine = tally[t]
        for i in range(t, n, tasks):
            if blind[i]:
                continue
            px, py, pz = pts[i, 0], pts[i, 1], pts[i, 2]
            na = _wedges(px, py, tcand, bboxes, edges, edge_start, nbins, bin_n, bin_k, near2,
                         always)
            row = bits[i]
            seen = 0
            for j in range(i + 1, n):
                if blind[j]:
                    continue
                qx, qy, qz = pts[j, 0], pts[j, 1], pts[j, 2]
                dx = qx - px
                dy = qy - py
                dz = qz - pz
                low = min(pz, qz)
                blocked = False
                for a in range(na):
                    k = tcand[always[a]]
                    h = heights[k]
                    if low < h and _edges_block(px, py, pz, dx, dy, dz, h, edges,
                                                edge_start[k], edge_start[k + 1]):
                        blocked = True
                        break
                if not blocked:
                    b = int(_pseudo_angle(dx, dy) * per)
                    if b >= nbins:
                        b = nbins - 1
                    d2 = dx * dx + dy * dy
                    for s in range(bin_n[b]):
                        c = bin_k[b, s]
                        if d2 >= near2[c]:
                            k = tcand[c]
                            h = heights[k]
                            if low < h and _edges_block(px, py, pz, dx, dy, dz, h, edges,
                                                        edge_start[k], edge_start[k + 1]):
                                blocked = True
                                break
                if not blocked:
                    row[j >> 6] |= np.uint64(1) << np.uint64(j & 63)
                    seen += 1
                    mine[j] += 1
            mine[i] += seen
    counts = np.zeros(n, dtype=np.int64)
    for t in range(tasks):
        counts += tally[t]
    return bits, counts


@njit(cache=True, inline="always")
def _sees(bits, i, j):
    if i > j:
        i, j = j, i
    return (bits[i, j >> 6] >> np.uint64(j & 63)) & np.uint64(1) != 0


@njit(cache=True)
def seen_by(bits, observers):
    """For each point, how many of `observers` see it (an observer does not count itself)."""
    n = bits.shape[0]
    out = np.zeros(n, dtype=np.int64)
    for a in range(observers.shape[0]):
        i = observers[a]
        for j in range(n):
            if j != i and _sees(bits, i, j):
                out[j] += 1
    return out


# --- the sight of a whole board, kept per layout --------------------------------------------------
@dataclass(frozen=True)
class GridSight:
    """Sight between every pair of a grid's standing points.

    points: (n, 3) eyes; counts[i]: how many other points point i sees; bits: the pairs (see
    grid_sight); blind: points inside a piece below its top."""

    points: np.ndarray
    bits: np.ndarray
    counts: np.ndarray
    blind: np.ndarray

    def __len__(self) -> int:
        return len(self.points)

    @property
    def fraction(self) -> np.ndarray:
        """The share of the other points each point sees (1.0 on an open board)."""
        n = len(self.points)
        return self.counts / max(n - 1, 1)

    def sees(self, i: int, j: int) -> bool:
        return bool(_sees(self.bits, int(i), int(j)))

    def seen_by(self, observers: np.ndarray) -> np.ndarray:
        """For each point, how many of the observer points see it."""
        return seen_by(self.bits, np.ascontiguousarray(observers, dtype=np.int64))


_MEMORY: OrderedDict[str, GridSight] = OrderedDict()
_MEMORY_SIZE = 4


def candidates(layout: Layout, lowest_eye: float) -> np.ndarray:
    """The pieces that may block a line between eyes no lower than lowest_eye."""
    return np.nonzero(layout.heights > lowest_eye)[0].astype(np.int64)


def cache_key(layout: Layout, points: np.ndarray) -> str:
    """A digest of everything the answer depends on: the terrain arrays and the points."""
    h = hashlib.sha256()
    h.update(f"sightgrid-{_FORMAT}-{BINS}".encode())
    for a in (layout.edges, layout.edge_start, layout.heights, layout.bboxes, points):
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
              threads: int | None = None) -> GridSight:
    """Sight between every pair of `points` ((n, 3) eyes) over the layout's terrain, from the
    cache when this layout and these points were seen before."""
    points = np.ascontiguousarray(points, dtype=np.float64)
    key = cache_key(layout, points) if cache else ""
    if cache:
        hit = _MEMORY.get(key)
        if hit is not None:
            _MEMORY.move_to_end(key)
            return hit
        hit = _load(key, points)
        if hit is not None:
            _remember(key, hit)
            return hit
    result = _compute(layout, points, threads)
    if cache:
        _remember(key, result)
        _save(key, result)
    return result


def _compute(layout: Layout, points: np.ndarray, threads: int | None) -> GridSight:
    n = len(points)
    if n == 0:
        return GridSight(points, np.zeros((0, 0), dtype=np.uint64), np.zeros(0, dtype=np.int64),
                         np.zeros(0, dtype=bool))
    tcand = candidates(layout, float(points[:, 2].min()))
    blind = blind_points(points, tcand, layout.bboxes, layout.heights, layout.edges,
                         layout.edge_start)
    before = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    try:
        tasks = 4 * numba.get_num_threads()
        bits, counts = grid_sight(points, tcand, layout.bboxes, layout.heights, layout.edges,
                                  layout.edge_start, blind, tasks, BINS)
    finally:
        numba.set_num_threads(before)
    return GridSight(points, bits, counts, blind)


def _remember(key: str, result: GridSight) -> None:
    _MEMORY[key] = result
    _MEMORY.move_to_end(key)
    while len(_MEMORY) > _MEMORY_SIZE:
        _MEMORY.popitem(last=False)


def _load(key: str, points: np.ndarray) -> GridSight | None:
    folder = cache_dir()
    if folder is None:
        return None
    path = folder / f"sight-{key}.npz"
    try:
        with np.load(path) as data:
            bits, counts, blind = data["bits"], data["counts"], data["blind"]
    except (OSError, KeyError, ValueError):
        return None
    n = len(points)
    if bits.shape != (n, (n + 63) >> 6) or counts.shape != (n,) or blind.shape != (n,):
        return None
    return GridSight(points, bits, counts, blind)


def _save(key: str, result: GridSight) -> None:
    folder = cache_dir()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f"sight-{key}.{os.getpid()}.tmp.npz"
        np.savez_compressed(tmp, bits=result.bits, counts=result.counts, blind=result.blind)
        tmp.replace(folder / f"sight-{key}.npz")
    except OSError:
        pass                   # a cache that cannot be written is no cache, not an error
