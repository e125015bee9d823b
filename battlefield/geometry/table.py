"""The table at one moment, as arrays: every model's base, pose, elevation and height, plus the
prepared terrain layout. Measurement and sight questions are asked of a Table.

Models are numbered 0..n-1 in scene order; `unit` gives each model's unit index and
`unit_models[u]` the model indices of unit u.
"""

from __future__ import annotations

import copy
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from typing import TypeVar

import numpy as np
import shapely

from battlefield.geometry.bases import RECT, ROUND, footprint, outline_points
from battlefield.geometry.separation import (
    closest_points,
    distance_matrix,
    distances_from_places,
    swept_within,
    units_within,
)
from battlefield.geometry.terrain import Layout


@dataclass(frozen=True)
class Closest:
    """The closest pair of points between two bases or units, with both distances."""

    distance: float
    distance_3d: float
    a: tuple[float, float, float]
    b: tuple[float, float, float]
    models: tuple[int, int]


T = TypeVar("T")
MEMO_TABLES = 8         # how many tables keep their memos (the most recently asked)
_memos: OrderedDict[int, tuple[Table, dict]] = OrderedDict()
_memo_lock = threading.Lock()
_last: tuple[object, dict] = (None, {})     # the newest of _memos (Table.memo's quick way)
PLACED_KEPT = 20_000    # placed_memo values kept per layout (the most recently asked)


def _set_last(entry: tuple[object, dict]) -> None:
    global _last
    _last = entry


def _frozen(values: np.ndarray, dtype: type) -> np.ndarray:
    """A read-only contiguous view of `values` (a copy only when the type or layout differs):
    a Table never changes once made, so snapshots of a game can share it."""
    if (isinstance(values, np.ndarray) and values.dtype == dtype and not values.flags.writeable
            and values.flags.c_contiguous):
        return values       # already a table's array: kept, so caches keyed on it still hold
    out = np.ascontiguousarray(values, dtype=dtype).view()
    out.setflags(write=False)
    return out


@dataclass
class Table:
    """The table at one moment. Never changed in place: `moved`, `removed` and `restored`
    give new tables (the arrays are read-only)."""

    width: float
    depth: float
    layout: Layout
    x: np.ndarray
    y: np.ndarray
    facing: np.ndarray
    shape: np.ndarray
    a: np.ndarray
    b: np.ndarray
    z: np.ndarray
    height: np.ndarray
    unit: np.ndarray
    n_units: int
    cos: np.ndarray = field(init=False)
    sin: np.ndarray = field(init=False)
    reach: np.ndarray = field(init=False)
    unit_models: list[np.ndarray] = field(init=False)
    _poses: np.ndarray | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._poses = None
        for name in ("x", "y", "facing", "a", "b", "z", "height"):
            setattr(self, name, _frozen(getattr(self, name), np.float64))
        self.shape = _frozen(self.shape, np.int64)
        self.unit = _frozen(self.unit, np.int64)
        self._turned()
        self.reach = _frozen(np.where(self.shape == RECT, np.hypot(self.a, self.b),
                                      np.maximum(self.a, self.b)), np.float64)
        self._grouped()

    def _turned(self) -> None:
        rad = np.radians(self.facing)
        # Exact 0 at 90/180/270 degrees, so bases square to the table test exactly both ways.
        self.cos = _frozen(np.where(np.abs(np.cos(rad)) < 1e-12, 0.0, np.cos(rad)), np.float64)
        self.sin = _frozen(np.where(np.abs(np.sin(rad)) < 1e-12, 0.0, np.sin(rad)), np.float64)

    def _grouped(self) -> None:
        order = np.argsort(self.unit, kind="stable")
        bounds = np.searchsorted(self.unit[order], np.arange(self.n_units + 1))
        # Slain models (unit -1) sort first and fall outside every unit's range.
        order.setflags(write=False)
        self.unit_models = [order[bounds[u]:bounds[u + 1]] for u in range(self.n_units)]

    def _with(self, **arrays: np.ndarray) -> Table:
        """A copy with some of x, y, facing, z and unit replaced: what derives from the others
        is shared, worked out again only where it changes."""
        new = copy.copy(self)
        new._poses = None
        for name, values in arrays.items():
            setattr(new, name, _frozen(values, np.int64 if name == "unit" else np.float64))
        if "facing" in arrays:
            new._turned()
        if "unit" in arrays:
            new._grouped()
        return new

    def __len__(self) -> int:
        return len(self.x)

    def memo(self, key: Hashable, make: Callable[[], T]) -> T:
        """`make()`, made once for this table and `key` (a table never changes, so neither
        does anything derived from it alone). The memos of the last MEMO_TABLES tables asked
        are kept, so a game's undo history does not keep them all."""
        last = _last                    # the table asked last (most asked: read without a lock)
        if last[0] is self and key in last[1]:
            return last[1][key]
        with _memo_lock:
            entry = _memos.get(id(self))
            if entry is None or entry[0] is not self:
                entry = _memos[id(self)] = (self, {})
                if len(_memos) > MEMO_TABLES:
                    _memos.popitem(last=False)
            else:
                _memos.move_to_end(id(self))
            _set_last(entry)
            values = entry[1]
            if key in values:
                return values[key]
        value = make()
        with _memo_lock:
            return values.setdefault(key, value)

    def placement(self, models: np.ndarray) -> bytes:
        """All that a question about these models alone can depend on: which models, where
        each stands (x, y, z, facing), its base and height, and its unit (-1: slain). Equal
        bytes in two tables of one game: the models stand alike in both."""
        if self._poses is None:
            self._poses = np.ascontiguousarray(np.column_stack(
                [self.x, self.y, self.z, self.facing, self.a, self.b, self.height,
                 self.shape, self.unit]), dtype=np.float64)
        m = np.asarray(models, dtype=np.int64)
        return m.tobytes() + self._poses[m].tobytes()

    def placed_memo(self, key: Hashable, models: np.ndarray, make: Callable[[], T]) -> T:
        """`make()`, made once for `key` and the placement of `models`, for values that
        depend on those models and the terrain alone. Unlike memo() it outlives the table:
        a later table of the game where these models stand alike (others moved or were
        slain) finds it. The PLACED_KEPT values last asked are kept, with the layout (every
        table of a game shares it, and it goes with the game's scene)."""
        full = (key, self.placement(models))
        with _memo_lock:
            values = self.layout.memo("placed-memo", OrderedDict)
            if full in values:
                values.move_to_end(full)
                return values[full]
        value = make()
        with _memo_lock:
            values[full] = value
            if len(values) > PLACED_KEPT:
                values.popitem(last=False)
            return value

    # --- moving -----------------------------------------------------------------------------
    def moved(self, models: np.ndarray, x: np.ndarray, y: np.ndarray,
              facing: np.ndarray | None = None, z: np.ndarray | None = None) -> Table:
        """A copy with some models at new places. Without z, each stands on the ground or on
        the top of the solid piece it is wholly on."""
        nx, ny, nf, nz = self.x.copy(), self.y.copy(), self.facing.copy(), self.z.copy()
        nx[models] = x
        ny[models] = y
        if facing is not None:
            nf[models] = facing
        if z is not None:
            nz[models] = z
        else:
            bb = self.layout.bboxes
            moving = np.atleast_1d(models)
            nz[moving] = 0.0
            # A base wholly on a piece has its centre inside the piece's box: only those bases
            # are tested against the pieces.
            mx, my = nx[moving][:, None], ny[moving][:, None]
            inside = ((bb[:, 0] <= mx) & (mx <= bb[:, 2]) & (bb[:, 1] <= my)
                      & (my <= bb[:, 3])).any(axis=1)
            for m in moving[inside]:
                m = int(m)
                nz[m] = self.layout.ground_height(footprint(
                    int(self.shape[m]), self.a[m], self.b[m], nx[m], ny[m], nf[m], 32))
        return self._with(x=nx, y=ny, facing=nf, z=nz) if facing is not None \
            else self._with(x=nx, y=ny, z=nz)

    def removed(self, models: np.ndarray) -> Table:
        """A copy with some models taken off the table (slain): they keep their place in the
        arrays with unit -1, so they count for nothing and block nothing."""
        unit = self.unit.copy()
        unit[np.asarray(models, dtype=np.int64)] = -1
        return self._with(unit=unit)

    def restored(self, models: np.ndarray, units: np.ndarray) -> Table:
        """A copy with slain models back in their units."""
        unit = self.unit.copy()
        unit[np.asarray(models, dtype=np.int64)] = units
        return self._with(unit=unit)

    @property
    def on_table(self) -> np.ndarray:
        """Which models are on the table (not slain)."""
        return self.unit >= 0

    # --- shapes ------------------------------------------------------------------------------
    def footprint(self, m: int, n: int = 256) -> shapely.Polygon:
        return footprint(int(self.shape[m]), self.a[m], self.b[m], self.x[m], self.y[m],
                         self.facing[m], n)

    def outline(self, m: int, n: int = 64) -> np.ndarray:
        return outline_points(int(self.shape[m]), self.a[m], self.b[m], self.x[m], self.y[m],
                              self.facing[m], n)

    def top(self, m: int) -> float:
        return float(self.z[m] + self.height[m])

    # --- distances ---------------------------------------------------------------------------
    def distances(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """Horizontal closest-base distances, a (len(rows), len(cols)) matrix."""
        return distance_matrix(self.x, self.y, self.shape, self.a, self.b, self.cos, self.sin,
                               np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64))

    def distances_from(self, m: int, xs: np.ndarray, ys: np.ndarray, cols: np.ndarray,
                       cutoff: float = math.inf) -> np.ndarray:
        """Model m's horizontal distance to each of cols were it at each place (xs[i], ys[i])
        (facing kept): a (len(xs), len(cols)) matrix, without moving anything. Distances
        beyond `cutoff` may be given as a lower bound that is itself beyond it."""
        return distances_from_places(
            self.x, self.y, self.shape, self.a, self.b, self.cos, self.sin, self.reach, int(m),
            np.asarray(xs, dtype=np.float64), np.asarray(ys, dtype=np.float64),
            np.asarray(cols, dtype=np.int64), float(cutoff))

    def swept(self, m: int, path: np.ndarray, cols: np.ndarray, within: float
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Model m moved along `path` (its facing kept) against each of cols: for each
        segment and col, (t_in, t_out, least): the stretch of the segment (0 its start, 1 its
        end; NaN: none) where the bases are within `within` of each other, exactly, and their
        least distance on it (separation.swept_within)."""
        pts = np.asarray(path, dtype=np.float64)
        return swept_within(self.x, self.y, self.shape, self.a, self.b, self.cos, self.sin,
                            self.reach, int(m), np.ascontiguousarray(pts[:-1, 0]),
                            np.ascontiguousarray(pts[:-1, 1]), np.ascontiguousarray(pts[1:, 0]),
                            np.ascontiguousarray(pts[1:, 1]), np.asarray(cols, dtype=np.int64),
                            float(within))

    def distances_3d(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """3-D distances between the bases at their elevations: both bases are horizontal, so
        the closest points differ in height by exactly the difference in elevation."""
        h = self.distances(rows, cols)
        dz = self.z[np.asarray(rows)][:, None] - self.z[np.asarray(cols)][None, :]
        return np.hypot(h, dz)

    def closest(self, i: int, j: int) -> Closest:
        """Closest points between the bases of models i and j."""
        d, p, q = closest_points(self.x[i], self.y[i], int(self.shape[i]), self.a[i], self.b[i],
                                 self.facing[i], self.x[j], self.y[j], int(self.shape[j]),
                                 self.a[j], self.b[j], self.facing[j])
        d3 = math.hypot(d, self.z[i] - self.z[j])
        return Closest(d, d3, (p[0], p[1], float(self.z[i])), (q[0], q[1], float(self.z[j])),
                       (int(i), int(j)))

    def closest_between(self, rows: np.ndarray, cols: np.ndarray) -> Closest:
        """The closest pair of models between two groups (horizontal), with the smallest 3-D
        distance between the groups (which may belong to another pair) as distance_3d."""
        rows = np.asarray(rows, dtype=np.int64)
        cols = np.asarray(cols, dtype=np.int64)
        h = self.distances(rows, cols)
        i, j = np.unravel_index(int(np.argmin(h)), h.shape)
        best = self.closest(int(rows[i]), int(cols[j]))
        d3 = np.hypot(h, self.z[rows][:, None] - self.z[cols][None, :])
        return replace(best, distance=float(h[i, j]), distance_3d=float(d3.min()))

    def units_within(self, reach: float) -> np.ndarray:
        """(n_units, n_units) booleans: the two units have models within `reach` of each
        other (horizontally, base to base), worked out once per table and reach in one pass
        that skips the models too far apart to be."""
        return self.memo(("units-within", float(reach)), lambda: units_within(
            self.x, self.y, self.shape, self.a, self.b, self.cos, self.sin, self.reach,
            self.unit, self.n_units, float(reach)))

    def unit_distance(self, u: int, v: int) -> float:
        return float(self.distances(self.unit_models[u], self.unit_models[v]).min())

    def piece_distance(self, m: int, k: int) -> float:
        """Horizontal distance from model m's base to terrain piece k's outline (0 when they
        touch or overlap): exact for a round base (its centre's distance less the radius),
        within 0.000001" for ovals and rectangles (their outline as a 4096-gon inside them)."""
        poly = self.layout.polygons[k]
        if int(self.shape[m]) == ROUND:
            d = float(poly.distance(shapely.Point(float(self.x[m]), float(self.y[m]))))
            return max(0.0, d - float(self.a[m]))
        return float(poly.distance(self.footprint(m, 4096)))
