"""Line of sight between models and units (2.5-D, RULES-NOTES).

Models are volumes (base x height); sight lines run from points of the observer's volume to points
of the target's volume, blocked by terrain extrusions and by other models' volumes (never by the
observer's own unit or the target model itself). A target is seen "full" when every point of it
is seen from some observer point, "none" when no point is, "partial" otherwise.

Sampling: points every SPACING inches around each base's edge (slightly inset), an inner ring and
the centre, on the top surface (observer, and target for "none") and the bottom surface (target,
for "full"). All blockers are ground-up columns, so higher points see at least what lower ones
at the same place see; those surfaces are the decisive ones.

Unit visibility (unit_sees, asked for every enemy unit while a unit is dragged) goes to
units.groups_see, which sets aside the lines a tall piece certainly blocks before testing
the rest: the same answer as testing every line, a hundred times faster on a crowded table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from battlefield.geometry.bases import OVAL, ROUND
from battlefield.geometry.sight.kernel import box_candidates, first_blocker, place_points
from battlefield.geometry.sight.shadow import FULL, NONE, PARTIAL, point_visibility
from battlefield.geometry.sight.units import groups_see
from battlefield.geometry.table import Table

SPACING = 0.1
LEVEL = 0.25  # vertical spacing of samples where lines may pass under a raised model
INSET = 0.01
STATUS = {NONE: "none", PARTIAL: "partial", FULL: "full"}


def _ring(shape: int, a: float, b: float, scale: float, spacing: float) -> np.ndarray:
    """Local (x, y) points around a base edge scaled by `scale`, about `spacing` apart."""
    a, b = a * scale, b * scale
    if shape == ROUND or shape == OVAL:
        h = ((a - b) / (a + b)) ** 2
        perimeter = math.pi * (a + b) * (1 + 3 * h / (10 + math.sqrt(4 - 3 * h)))
        n = max(12, math.ceil(perimeter / spacing))
        t = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
        return np.column_stack([a * np.cos(t), b * np.sin(t)])
    corners = np.array([[a, -b], [a, b], [-a, b], [-a, -b], [a, -b]])
    pts = []
    for p, q in zip(corners[:-1], corners[1:], strict=True):
        n = max(3, math.ceil(np.hypot(*(q - p)) / spacing))
        t = np.linspace(0.0, 1.0, n, endpoint=False)[:, None]
        pts.append(p + t * (q - p))
    return np.concatenate(pts)


def _local_points(shape: int, a: float, b: float, spacing: float, interior: bool) -> np.ndarray:
    """A base's sample points in its own frame: centre, the edge ring (slightly inset) and,
    with `interior`, an inner ring at half size. Cached: every base of a size has the same."""
    key = (shape, a, b, spacing, interior)
    local = _LOCAL.get(key)
    if local is None:
        inset = max(0.0, 1.0 - INSET / min(a, b))
        parts = [np.zeros((1, 2)), _ring(shape, a, b, inset, spacing)]
        if interior:
            parts.append(_ring(shape, a, b, 0.5, spacing * 2))
        local = np.ascontiguousarray(np.concatenate(parts))
        local.setflags(write=False)
        if len(_LOCAL) > 256:
            _LOCAL.clear()
        _LOCAL[key] = local
    return local


_LOCAL: dict[tuple, np.ndarray] = {}


def surface_points(table: Table, m: int, spacing: float = SPACING,
                   interior: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(top, bottom) sample points of model m's volume, centre first, as (n, 3) arrays."""
    local = _local_points(int(table.shape[m]), float(table.a[m]), float(table.b[m]), spacing,
                          interior)
    c, s = table.cos[m], table.sin[m]
    x = local[:, 0] * c - local[:, 1] * s + table.x[m]
    y = local[:, 0] * s + local[:, 1] * c + table.y[m]
    z0 = table.z[m]
    top = np.column_stack([x, y, np.full(len(x), z0 + table.height[m])])
    bottom = np.column_stack([x, y, np.full(len(x), z0)])
    return top, bottom


def _rings(layout) -> tuple[np.ndarray, np.ndarray]:
    """(ring_start, piece_ring) for the kernel's outline walks: ring r is edges
    ring_start[r]:ring_start[r + 1]; piece k has rings piece_ring[k]:piece_ring[k + 1]."""
    hit = _RINGS.get(id(layout))
    if hit is not None and hit[0] is layout.edges:
        return hit[1]
    sizes, per_piece = [], []
    for poly in layout.polygons:
        rings = [poly.exterior, *poly.interiors]
        sizes += [len(r.coords) - 1 for r in rings]
        per_piece.append(len(rings))
    ring_start = np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)]).astype(np.int64)
    piece_ring = np.concatenate([[0], np.cumsum(per_piece, dtype=np.int64)]).astype(np.int64)
    if len(_RINGS) > 16:
        _RINGS.clear()
    _RINGS[id(layout)] = (layout.edges, (ring_start, piece_ring))
    return ring_start, piece_ring


_RINGS: dict[int, tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]] = {}


def _same_base(table: Table, models: np.ndarray) -> tuple[int, float, float] | None:
    """(shape, a, b) when all the models have the same base, else None."""
    shape, a, b = table.shape[models], table.a[models], table.b[models]
    if len(models) and (shape == shape[0]).all() and (a == a[0]).all() and (b == b[0]).all():
        return int(shape[0]), float(a[0]), float(b[0])
    return None


def _unit_base(table: Table, u: int) -> tuple[int, float, float] | None:
    """_same_base of unit u. Moving models keeps a table's base arrays, so the answers are kept
    for as long as they are the same arrays."""
    arrays = (table.shape, table.a, table.b, table.unit)
    hit = _BASES.get(id(table.a))
    if hit is None or not all(x is y for x, y in zip(hit[0], arrays, strict=True)):
        if len(_BASES) > 16:
            _BASES.clear()
        hit = _BASES[id(table.a)] = (arrays, {})
    if u not in hit[1]:
        hit[1][u] = _same_base(table, table.unit_models[u])
    return hit[1][u]


_BASES: dict[int, tuple[tuple[np.ndarray, ...], dict]] = {}


@dataclass
class Sight:
    """How much of a target (model or unit) an observer sees, and what blocks the rest."""

    visible: str
    blocked_by: list[int] = field(default_factory=list)  # blocker indices, most lines first
    models: dict[int, str] = field(default_factory=dict)  # target model -> its own status

    @property
    def any(self) -> bool:
        return self.visible != "none"


class SightModel:
    """Sight questions about one Table, with the kernel's arrays prepared once."""

    def __init__(self, table: Table) -> None:
        self.table = table
        lay = table.layout
        self._t = (lay.bboxes, lay.heights, lay.edges, lay.edge_start)
        # A slain model's volume is empty: no kernel counts it as a blocker.
        gone = table.unit < 0
        self._zlo = np.where(gone, np.inf, table.z)
        self._zhi = np.where(gone, -np.inf, table.z + table.height)
        self._m = (table.x, table.y, table.cos, table.sin, table.a, table.b, table.shape,
                   self._zlo, self._zhi, table.reach)
        self._points: dict[tuple[int, bool], tuple[np.ndarray, np.ndarray]] = {}
        self._units: dict[tuple[int, bool], tuple[np.ndarray, np.ndarray]] = {}
        self._rings = _rings(lay)
        self._floating = self._raised_over_nothing()

    def _raised_over_nothing(self) -> np.ndarray:
        """Models whose volume starts above what they stand on (a flying stand, a model given
        an elevation over open ground). Sight lines can pass beneath them, so the shortcut
        "higher points see more" does not hold where one of them may block."""
        t = self.table
        out = np.zeros(len(t), dtype=bool)
        for m in np.nonzero(t.z > 1e-9)[0]:
            out[m] = t.placed_memo("raised", np.array([m]), lambda m=m: bool(
                t.z[m] > t.layout.ground_height(t.footprint(int(m), 32)) + 1e-9))
        return out

    def _levels(self, m: int, points: np.ndarray) -> np.ndarray:
        """The same (x, y) samples at every level of model m's volume, about LEVEL apart."""
        t = self.table
        n = max(2, int(np.ceil(t.height[m] / LEVEL)) + 1)
        zs = t.z[m] + t.height[m] * np.linspace(1.0, 0.0, n)
        return np.concatenate([np.column_stack([points[:, :2], np.full(len(points), z)])
                               for z in zs])

    # --- candidates ------------------------------------------------------------------------
    def _region(self, models: np.ndarray) -> np.ndarray:
        t = self.table
        r = t.reach[models]
        return np.array([(t.x[models] - r).min(), (t.y[models] - r).min(),
                         (t.x[models] + r).max(), (t.y[models] + r).max()])

    def candidates(self, observers: np.ndarray, targets: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
        """Terrain pieces and models that could block lines between the two groups: those
        whose bounding boxes meet the box around both. The observers are never candidates."""
        both = np.concatenate([observers, targets])
        x0, y0, x1, y1 = self._region(both)
        bb = self.table.layout.bboxes
        tc = np.nonzero((bb[:, 0] <= x1) & (bb[:, 2] >= x0) & (bb[:, 1] <= y1)
                        & (bb[:, 3] >= y0))[0].astype(np.int64)
        t = self.table
        near = ((t.x - t.reach <= x1) & (t.x + t.reach >= x0) & (t.y - t.reach <= y1)
                & (t.y + t.reach >= y0))
        near[observers] = False
        near &= t.unit >= 0          # slain models block nothing
        return tc, np.nonzero(near)[0].astype(np.int64)

    def points(self, m: int, interior: bool = True) -> tuple[np.ndarray, np.ndarray]:
        key = (int(m), interior)
        if key not in self._points:
            self._points[key] = surface_points(self.table, int(m), interior=interior)
        return self._points[key]

    def _observer_points(self, observers: np.ndarray) -> np.ndarray:
        # The observer's own volume never blocks, so a clear line from an inner point of its
        # flat top also runs clear from where it leaves the top's edge: the edge ring suffices.
        return np.concatenate([self.points(int(m), interior=False)[0] for m in observers])

    # --- questions ---------------------------------------------------------------------------
    def line(self, p: tuple[float, float, float], q: tuple[float, float, float],
             ignore_units: tuple[int, ...] = (), ignore_models: tuple[int, ...] = ()) -> int:
        """First blocker of one sight line (-1 when clear), ignoring the given units/models."""
        t = self.table
        keep = np.ones(len(t), dtype=bool)
        for u in ignore_units:
            keep[t.unit_models[u]] = False
        keep[list(ignore_models)] = False
        mc = np.nonzero(keep)[0].astype(np.int64)
        tc = np.arange(len(t.layout), dtype=np.int64)
        return int(first_blocker(*p, *q, tc, *self._t, mc, *self._m))

    def model_sees_points(self, observers: np.ndarray, target: int,
                          tally: np.ndarray | None = None) -> int:
        """NONE / PARTIAL / FULL for one target model seen from a group of observer models."""
        tc, mc = self.candidates(observers, np.array([target]))
        mc = mc[mc != target]
        top, bottom = self.points(target)
        if tally is None:
            tally = np.zeros(len(self.table.layout) + len(self.table), dtype=np.int64)
        return int(point_visibility(self._observer_points(observers), top, bottom, tc, *self._t,
                                    mc, *self._m, tally))

    def model_visibility(self, observer: int, target: int, ignore_pieces: tuple[int, ...] = (),
                         only_pieces: tuple[int, ...] | None = None,
                         models_block: bool = True) -> Sight:
        """How much of model `target` model `observer` sees (its unit-mates never block).
        `ignore_pieces` leaves pieces out; `only_pieces` tests just those pieces."""
        t = self.table
        own = t.unit_models[int(t.unit[observer])]
        observers, targets = np.array([observer]), np.array([target])
        tc, mc = box_candidates(t.x, t.y, t.reach, t.unit, t.layout.bboxes,
                                 int(t.unit[observer]), int(target))
        each = ([tc], [mc])
        # The answer depends on the two models, the terrain and the models that may block
        # (its unit-mates never do): kept across tables while those stand alike.
        deps = np.concatenate([observers, targets, each[1][0]]) if models_block \
            else np.concatenate([observers, targets])
        key = ("model-visibility", tuple(ignore_pieces), only_pieces and tuple(only_pieces),
               models_block)
        return t.placed_memo(key, deps, lambda: self._group_visibility(
            observers, own, targets, ignore_pieces, only_pieces, models_block, each=each))

    def unit_visibility(self, u: int, v: int) -> Sight:
        """How much of unit v unit u sees: "full" when every model of v is fully seen by some
        model of u, "none" when no model of v is seen at all, "partial" otherwise."""
        t = self.table
        return self._group_visibility(t.unit_models[u], t.unit_models[u], t.unit_models[v],
                                      unit_points=(self._unit_points(u, True)[0],
                                                   self._unit_points(v, False)))

    def _group_visibility(self, observers: np.ndarray, own: np.ndarray,
                          targets: np.ndarray, ignore_pieces: tuple[int, ...] = (),
                          only_pieces: tuple[int, ...] | None = None,
                          models_block: bool = True,
                          unit_points: tuple[np.ndarray, tuple[np.ndarray, np.ndarray]] | None
                          = None,
                          each: tuple[list[np.ndarray], list[np.ndarray]] | None = None
                          ) -> Sight:
        """`unit_points`: the observers' points and the targets' top points with where each
        model's start (_unit_points), when they are whole units: the same points, placed at
        once. `each`: _candidates_each(own, observers, targets), when already worked out."""
        t = self.table
        tally = np.zeros(len(t.layout) + len(t), dtype=np.int64)
        statuses = {}
        plain = self._observer_points(observers) if unit_points is None else unit_points[0]
        levels = None
        if each is None:
            each = self._candidates_each(own, observers, targets)
        for i, (target, tc, mc) in enumerate(zip(targets, *each, strict=True)):
            mc = mc[mc != target] if models_block else mc[:0]
            if only_pieces is not None:
                tc = tc[np.isin(tc, only_pieces)]
            if ignore_pieces:
                tc = tc[~np.isin(tc, ignore_pieces)]
            if unit_points is None:
                top, bottom = self.points(int(target))
            else:
                tpts, tstart = unit_points[1]
                top = tpts[tstart[i]:tstart[i + 1]]
                bottom = top.copy()
                bottom[:, 2] = t.z[target]
            obs = plain
            if self._floating[mc].any():
                # Lines may pass under a raised model: every level of both volumes counts.
                top = bottom = self._levels(int(target), top)
                if levels is None:
                    levels = np.concatenate([self._levels(int(m), self.points(int(m), False)[0])
                                             for m in observers])
                obs = levels
            statuses[int(target)] = STATUS[int(point_visibility(
                obs, top, bottom, tc, *self._t, mc, *self._m, tally))]
        values = set(statuses.values())
        visible = values.pop() if len(values) == 1 else "partial"
        if visible not in ("none", "full"):
            visible = "partial"
        blocked = [int(k) for k in np.argsort(-tally, kind="stable") if tally[k] > 0]
        return Sight(visible, blocked, statuses)

    def _candidates_each(self, own: np.ndarray, observers: np.ndarray, targets: np.ndarray
                         ) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """candidates(own, observers + [target]) for each target, the boxes worked out at once:
        (terrain candidates, model candidates) per target."""
        t = self.table
        both = np.concatenate([own, observers])
        r, tr = t.reach[both], t.reach[targets]
        x0 = np.minimum((t.x[both] - r).min(), t.x[targets] - tr)[:, None]
        y0 = np.minimum((t.y[both] - r).min(), t.y[targets] - tr)[:, None]
        x1 = np.maximum((t.x[both] + r).max(), t.x[targets] + tr)[:, None]
        y1 = np.maximum((t.y[both] + r).max(), t.y[targets] + tr)[:, None]
        bb = t.layout.bboxes
        terrain = ((bb[:, 0] <= x1) & (bb[:, 2] >= x0) & (bb[:, 1] <= y1) & (bb[:, 3] >= y0))
        near = ((t.x - t.reach <= x1) & (t.x + t.reach >= x0) & (t.y - t.reach <= y1)
                & (t.y + t.reach >= y0))
        near[:, own] = False
        near &= t.unit >= 0          # slain models block nothing
        return ([np.nonzero(row)[0].astype(np.int64) for row in terrain],
                [np.nonzero(row)[0].astype(np.int64) for row in near])

    def _unit_points(self, u: int, observer: bool) -> tuple[np.ndarray, np.ndarray]:
        """The top sample points of unit u's models, model after model, and where each model's
        start: an observer's are its centre and edge ring (see _observer_points), a target's all
        of points(m)."""
        key = (u, observer)
        hit = self._units.get(key)
        if hit is None:
            hit = self._units[key] = self._group_points(self.table.unit_models[u],
                                                        _unit_base(self.table, u), observer)
        return hit

    def _group_points(self, models: np.ndarray, base: tuple[int, float, float] | None,
                      observer: bool) -> tuple[np.ndarray, np.ndarray]:
        t = self.table
        interior = not observer
        if base is not None:
            local = _local_points(*base, SPACING, interior)
            pts = place_points(local, models, t.x, t.y, t.cos, t.sin, self._zhi)
            start = np.arange(len(models) + 1, dtype=np.int64) * len(local)
            return pts, start
        parts = [self.points(int(m), interior)[0] for m in models]
        start = np.concatenate([[0], np.cumsum([len(p) for p in parts])]).astype(np.int64)
        return np.concatenate(parts), start

    def unit_sees(self, u: int, v: int) -> bool:
        """True when any model of unit u sees any point of any model of unit v (aos4 visible):
        a sight line from a top point of u's volumes (centre and edge ring) to a top point of
        v's clear of terrain and of every model outside u and the target model itself.
        Symmetric: the same top-surface lines are tested whichever unit looks."""
        t = self.table
        obs = t.unit_models[u]
        tgts = t.unit_models[v]
        if self._floating.any():
            _, mc = self.candidates(obs, tgts)
            if self._floating[mc].any():
                return self.unit_visibility(u, v).visible != "none"
        opts, ostart = self._unit_points(u, True)
        tpts, tstart = self._unit_points(v, False)
        return bool(groups_see(opts, ostart, obs, tpts, tstart, tgts, *self._t, *self._rings,
                               *self._m))

    def blocker_name(self, k: int, model_names: list[str]) -> str:
        n = len(self.table.layout)
        return self.table.layout.pieces[k].id if k < n else model_names[k - n]
