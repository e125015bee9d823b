"""Closest distance between two bases, exact for circles and to ~1e-9" for ovals and rectangles.

Every base is a centrally symmetric convex shape, so the signed distance between two of them is
the largest separation over directions u:  sep(u) = u.(cB - cA) - w_A(u) - w_B(u), where w is the
shape's half-width along u (its support function). sep is concave over the unit disc, so a coarse
scan followed by a golden-section search finds the global maximum. Negative = overlap depth.
Compiled with numba (deferred: battlefield.geometry.jit, plain Python until the kernels are
ready); used in vectorised form for whole units and boards.
"""

from __future__ import annotations

import math

import numpy as np
import shapely.ops

from battlefield.geometry.bases import OVAL, RECT, ROUND, footprint
from battlefield.geometry.jit import njit

_SCAN = 48
_GOLDEN_STEPS = 48
_INV_PHI = (math.sqrt(5.0) - 1.0) / 2.0


@njit(cache=True, inline="always")
def half_width(shape: int, a: float, b: float, c: float, s: float, ux: float, uy: float) -> float:
    """Half-width of a base with facing (c, s) = (cos, sin) measured along unit direction u."""
    if shape == ROUND:
        return a
    u1 = ux * c + uy * s
    u2 = -ux * s + uy * c
    if shape == OVAL:
        return math.sqrt(a * a * u1 * u1 + b * b * u2 * u2)
    return a * abs(u1) + b * abs(u2)


@njit(cache=True, inline="always")
def _sep(th, dx, dy, sh1, a1, b1, c1, s1, sh2, a2, b2, c2, s2):
    ux = math.cos(th)
    uy = math.sin(th)
    return (ux * dx + uy * dy - half_width(sh1, a1, b1, c1, s1, ux, uy)
            - half_width(sh2, a2, b2, c2, s2, ux, uy))


@njit(cache=True)
def separation(x1, y1, sh1, a1, b1, c1, s1, x2, y2, sh2, a2, b2, c2, s2):
    """(signed distance, direction angle from base 1 towards base 2) between two bases."""
    dx = x2 - x1
    dy = y2 - y1
    th0 = math.atan2(dy, dx)
    if sh1 == ROUND and sh2 == ROUND:
        return math.sqrt(dx * dx + dy * dy) - a1 - a2, th0
    best = -1e300
    bt = th0
    step = 2.0 * math.pi / _SCAN
    for k in range(_SCAN):
        th = th0 + k * step
        v = _sep(th, dx, dy, sh1, a1, b1, c1, s1, sh2, a2, b2, c2, s2)
        if v > best:
            best = v
            bt = th
    lo = bt - step
    hi = bt + step
    m1 = hi - _INV_PHI * (hi - lo)
    m2 = lo + _INV_PHI * (hi - lo)
    f1 = _sep(m1, dx, dy, sh1, a1, b1, c1, s1, sh2, a2, b2, c2, s2)
    f2 = _sep(m2, dx, dy, sh1, a1, b1, c1, s1, sh2, a2, b2, c2, s2)
    for _ in range(_GOLDEN_STEPS):
        if f1 < f2:
            lo = m1
            m1 = m2
            f1 = f2
            m2 = lo + _INV_PHI * (hi - lo)
            f2 = _sep(m2, dx, dy, sh1, a1, b1, c1, s1, sh2, a2, b2, c2, s2)
        else:
            hi = m2
            m2 = m1
            f2 = f1
            m1 = hi - _INV_PHI * (hi - lo)
            f1 = _sep(m1, dx, dy, sh1, a1, b1, c1, s1, sh2, a2, b2, c2, s2)
    if f1 > best:
        best = f1
        bt = m1
    if f2 > best:
        best = f2
        bt = m2
    return best, bt


@njit(cache=True)
def support_point(shape, a, b, c, s, x, y, ux, uy):
    """The point of a base furthest along unit direction u (for a rectangle side: its middle)."""
    u1 = ux * c + uy * s
    u2 = -ux * s + uy * c
    if shape == ROUND:
        l1 = a * u1
        l2 = a * u2
    elif shape == OVAL:
        n = math.sqrt(a * a * u1 * u1 + b * b * u2 * u2)
        l1 = a * a * u1 / n
        l2 = b * b * u2 / n
    else:
        eps = 1e-9
        l1 = 0.0 if abs(u1) < eps else (a if u1 > 0 else -a)
        l2 = 0.0 if abs(u2) < eps else (b if u2 > 0 else -b)
    return x + l1 * c - l2 * s, y + l1 * s + l2 * c


@njit(cache=True)
def distance_matrix(x, y, sh, a, b, c, s, rows, cols):
    """Horizontal base-to-base distances (never negative) for every (rows[i], cols[j]) pair."""
    out = np.empty((rows.shape[0], cols.shape[0]))
    for i in range(rows.shape[0]):
        p = rows[i]
        for j in range(cols.shape[0]):
            q = cols[j]
            d, _ = separation(x[p], y[p], sh[p], a[p], b[p], c[p], s[p],
                              x[q], y[q], sh[q], a[q], b[q], c[q], s[q])
            out[i, j] = d if d > 0.0 else 0.0
    return out


@njit(cache=True)
def distances_from_places(x, y, sh, a, b, c, s, reach, m, px, py, cols, cutoff):
    """Base m's distance to each base cols[j] with m's centre put at each (px[i], py[i]);
    exact up to `cutoff`, beyond it a lower bound (still beyond it) from the bases' reaches."""
    out = np.empty((px.shape[0], cols.shape[0]))
    for i in range(px.shape[0]):
        for j in range(cols.shape[0]):
            q = cols[j]
            bound = math.hypot(px[i] - x[q], py[i] - y[q]) - reach[m] - reach[q]
            if bound > cutoff:
                out[i, j] = bound
                continue
            d, _ = separation(px[i], py[i], sh[m], a[m], b[m], c[m], s[m],
                              x[q], y[q], sh[q], a[q], b[q], c[q], s[q])
            out[i, j] = d if d > 0.0 else 0.0
    return out


@njit(cache=True)
def units_within(x, y, sh, a, b, c, s, reach, unit, n_units, cutoff):
    """(n_units, n_units) booleans: some model of unit u is within `cutoff` of some model of
    unit v (base to base, horizontal; slain models, unit -1, left out). A pair of bases whose
    centres are further apart than their reaches plus the cutoff is never measured, and a pair
    of units is measured no further once found close."""
    out = np.zeros((n_units, n_units), dtype=np.bool_)
    n = x.shape[0]
    for p in range(n):
        u = unit[p]
        if u < 0:
            continue
        for q in range(p + 1, n):
            v = unit[q]
            if v < 0 or v == u or out[u, v]:
                continue
            if math.hypot(x[p] - x[q], y[p] - y[q]) - reach[p] - reach[q] > cutoff + 1e-6:
                continue
            d, _ = separation(x[p], y[p], sh[p], a[p], b[p], c[p], s[p],
                              x[q], y[q], sh[q], a[q], b[q], c[q], s[q])
            if (d if d > 0.0 else 0.0) <= cutoff:
                out[u, v] = True
                out[v, u] = True
    return out


@njit(cache=True)
def signed_distance_matrix(x, y, sh, a, b, c, s, rows, cols):
    """As distance_matrix but negative where bases overlap (minus the overlap depth)."""
    out = np.empty((rows.shape[0], cols.shape[0]))
    for i in range(rows.shape[0]):
        p = rows[i]
        for j in range(cols.shape[0]):
            q = cols[j]
            d, _ = separation(x[p], y[p], sh[p], a[p], b[p], c[p], s[p],
                              x[q], y[q], sh[q], a[q], b[q], c[q], s[q])
            out[i, j] = d
    return out


@njit(cache=True)
def point_distances(x, y, sh, a, b, c, s, idx, px, py):
    """Distance from each base idx[i] to the point (px, py): 0 when the point is on the base."""
    out = np.empty(idx.shape[0])
    for i in range(idx.shape[0]):
        p = idx[i]
        d, _ = separation(x[p], y[p], sh[p], a[p], b[p], c[p], s[p], px, py, ROUND, 0.0, 0.0,
                          1.0, 0.0)
        out[i] = d if d > 0.0 else 0.0
    return out


def closest_points(x1, y1, sh1, a1, b1, f1, x2, y2, sh2, a2, b2, f2):
    """(distance, point on base 1, point on base 2) in the horizontal plane; facings in degrees."""
    c1, s1 = math.cos(math.radians(f1)), math.sin(math.radians(f1))
    c2, s2 = math.cos(math.radians(f2)), math.sin(math.radians(f2))
    d, th = separation(x1, y1, sh1, a1, b1, c1, s1, x2, y2, sh2, a2, b2, c2, s2)
    ux, uy = math.cos(th), math.sin(th)
    if sh1 == RECT and sh2 == RECT:
        pa, pb = shapely.ops.nearest_points(footprint(sh1, a1, b1, x1, y1, f1),
                                            footprint(sh2, a2, b2, x2, y2, f2))
        p1, p2 = (pa.x, pa.y), (pb.x, pb.y)
    elif sh2 != RECT:
        p2 = support_point(sh2, a2, b2, c2, s2, x2, y2, -ux, -uy)
        p1 = (p2[0] - d * ux, p2[1] - d * uy)
    else:
        p1 = support_point(sh1, a1, b1, c1, s1, x1, y1, ux, uy)
        p2 = (p1[0] + d * ux, p1[1] + d * uy)
    if d <= 0:
        mid = ((p1[0] + p2[0]) / 2, (p1[1] + p2[1]) / 2)
        return 0.0, mid, mid
    return d, (float(p1[0]), float(p1[1])), (float(p2[0]), float(p2[1]))


@njit(cache=True)
def separations_from(px, py, sh, a, b, c, s, x, y, tsh, ta, tb, tc, ts, targets):
    """Signed distance and direction from a base (shape sh, a, b, facing c, s) placed at each
    point (px[i], py[i]) to each target base: two (len(px), len(targets)) arrays."""
    n = px.shape[0]
    k = targets.shape[0]
    d = np.empty((n, k))
    th = np.empty((n, k))
    for i in range(n):
        for j in range(k):
            q = targets[j]
            d[i, j], th[i, j] = separation(px[i], py[i], sh, a, b, c, s, x[q], y[q], tsh[q],
                                           ta[q], tb[q], tc[q], ts[q])
    return d, th


_SWEEP_STEPS = 64


@njit(cache=True, inline="always")
def _swept(t, ax, ay, bx, by, x, y, sh, a, b, c, s, m, q):
    """The signed distance from base m, its centre at the point t of segment a->b, to base q."""
    d, _ = separation(ax + t * (bx - ax), ay + t * (by - ay), sh[m], a[m], b[m], c[m], s[m],
                      x[q], y[q], sh[q], a[q], b[q], c[q], s[q])
    return d


@njit(cache=True, inline="always")
def _edge(lo, hi, entering, ax, ay, bx, by, x, y, sh, a, b, c, s, m, q, within):
    """Where along the path, between lo and hi, the swept base crosses `within` of base q: the
    first t within when `entering` (outside at lo, within at hi), else the last t within
    (within at lo, outside at hi); bisected _SWEEP_STEPS times."""
    for _ in range(_SWEEP_STEPS):
        mid = 0.5 * (lo + hi)
        if (_swept(mid, ax, ay, bx, by, x, y, sh, a, b, c, s, m, q) <= within) == entering:
            hi = mid
        else:
            lo = mid
    return hi if entering else lo


@njit(cache=True)
def swept_within(x, y, sh, a, b, c, s, reach, m, ax, ay, bx, by, cols, within):
    """Base m (facing kept) moved along each segment (ax[i], ay[i]) -> (bx[i], by[i]), against
    each base cols[j]: (t_in, t_out, least), each (len(ax), len(cols)): the stretch [t_in,
    t_out] of the segment (0 at its start, 1 at its end) where the bases are within `within`
    of each other (NaN: nowhere), and their least distance on it (exact; beyond `within`, a
    lower bound). The signed distance between two convex bases, one moved along a line, is
    convex in how far it has moved (a maximum of functions linear in it), so the closest
    place is found by golden section and where the stretch begins and ends by bisection."""
    n = ax.shape[0]
    k = cols.shape[0]
    t_in = np.full((n, k), np.nan)
    t_out = np.full((n, k), np.nan)
    least = np.empty((n, k))
    for i in range(n):
        dx = bx[i] - ax[i]
        dy = by[i] - ay[i]
        run = dx * dx + dy * dy
        for j in range(k):
            q = cols[j]
            tc = 0.0
            if run > 0.0:
                tc = min(1.0, max(0.0, ((x[q] - ax[i]) * dx + (y[q] - ay[i]) * dy) / run))
            bound = (math.hypot(ax[i] + tc * dx - x[q], ay[i] + tc * dy - y[q])
                     - reach[m] - reach[q])
            if bound > within:
                least[i, j] = bound
                continue
            tm = tc
            if not (sh[m] == ROUND and sh[q] == ROUND) and run > 0.0:
                lo, hi = 0.0, 1.0
                for _ in range(_SWEEP_STEPS):
                    m1 = hi - _INV_PHI * (hi - lo)
                    m2 = lo + _INV_PHI * (hi - lo)
                    if (_swept(m1, ax[i], ay[i], bx[i], by[i], x, y, sh, a, b, c, s, m, q)
                            <= _swept(m2, ax[i], ay[i], bx[i], by[i], x, y, sh, a, b, c, s,
                                      m, q)):
                        hi = m2
                    else:
                        lo = m1
                tm = 0.5 * (lo + hi)
            fm = _swept(tm, ax[i], ay[i], bx[i], by[i], x, y, sh, a, b, c, s, m, q)
            least[i, j] = fm
            if fm > within:
                continue
            if _swept(0.0, ax[i], ay[i], bx[i], by[i], x, y, sh, a, b, c, s, m, q) <= within:
                t_in[i, j] = 0.0
            else:
                t_in[i, j] = _edge(0.0, tm, True, ax[i], ay[i], bx[i], by[i], x, y, sh, a, b, c,
                                   s, m, q, within)
            if _swept(1.0, ax[i], ay[i], bx[i], by[i], x, y, sh, a, b, c, s, m, q) <= within:
                t_out[i, j] = 1.0
            else:
                t_out[i, j] = _edge(tm, 1.0, False, ax[i], ay[i], bx[i], by[i], x, y, sh, a, b,
                                    c, s, m, q, within)
    return t_in, t_out, least
