"""The compiled 2.5-D sight-line kernel (numba).

A sight line is a 3-D segment P->Q. Terrain piece k blocks it when the segment is inside k's
outline somewhere at a height below k's height; as z is linear along the segment, it is enough
to test z where the segment crosses the outline's edges and at an end inside (RULES-NOTES).
A model volume (its base from z to z + height) blocks when the segment passes through it; round,
oval and rectangular volumes are convex, so the part of the segment over the base is one interval
found exactly (circle / scaled circle / slab clipping).

Blocker indices: 0..P-1 are terrain pieces, P + m is model m. -1 means the line is clear.

Speed (benchmarks/run.py) never changes an answer:
- Loops over many lines lay the candidate pieces out once (prepare_pieces); per line a
  vectorised filter drops the pieces that certainly cannot block (too low, box beside the
  segment or wholly on one side of its line; with slack far above rounding), and a branch-free
  pass flags the edges the segment may cross; only those get the exact test, in candidate order,
  so the first blocker is the same one.
- groups_see (unit visibility) first sets aside what is certainly blocked: pairs of models that
  the outline of a piece taller than all their points cuts apart (piece_cuts), observer points
  that such pieces shut off from a whole target model, and lines in the shadow of such a piece
  (_shadows). Everything else gets the exact test. Certain means robustly so: margins keep every
  shortcut clear of rounding.
- point_visibility (shadow.py: none / partial / full of one target, with the tally of what
  blocks) counts the lines in a tall piece's shadow untested the same way.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from battlefield.geometry.bases import OVAL, ROUND

CLEAR = -1


@njit(cache=True, inline="always")
def point_inside(px, py, edges, e0, e1):
    """Crossing-number point-in-polygon over edges[e0:e1] (all rings of one piece)."""
    inside = False
    for e in range(e0, e1):
        ax = edges[e, 0]
        ay = edges[e, 1]
        bx = edges[e, 2]
        by = edges[e, 3]
        if (ay > py) != (by > py):
            xc = ax + (py - ay) * (bx - ax) / (by - ay)
            if px < xc:
                inside = not inside
    return inside


@njit(cache=True, inline="always")
def may_be_inside(px, py, x0, y0, x1, y1):
    """False when point_inside(px, py, ...) of a piece with this box is certainly False: no edge
    straddles py when py is outside [y0, y1), and when px is beyond the box (with room for the
    rounding of the crossings) every straddling edge toggles the same way, an even number of
    times."""
    return y0 <= py < y1 and x0 - 1e-9 <= px <= x1 + 1e-9


# Slack on the cheap rejection tests, so that rounding never rejects what the exact test (the
# same arithmetic as always) would accept.
SLACK = 1e-12


@njit(cache=True, inline="always")
def _box_missed(px, py, dx, dy, x0, y0, x1, y1):
    """True when the segment P->P+d certainly misses the box [x0, x1] x [y0, y1]: the box lies
    wholly on one side of the segment's line (the segment's own extent is tested separately)."""
    cx = 0.5 * (x0 + x1) - px
    cy = 0.5 * (y0 + y1) - py
    a = cx * dy
    b = cy * dx
    lim = 0.5 * (x1 - x0) * abs(dy) + 0.5 * (y1 - y0) * abs(dx)
    return abs(a - b) > lim + SLACK * (lim + abs(a) + abs(b)) + 1e-300


@njit(cache=True, inline="always")
def edges_block(px, py, pz, dx, dy, dz, h, edges, e0, e1):
    """True when the segment crosses one of edges[e0:e1] where its z is below h. A cheap
    division-free test (with slack) rejects most edges; the rest get the exact test."""
    for e in range(e0, e1):
        ax = edges[e, 0]
        ay = edges[e, 1]
        ex = edges[e, 2] - ax
        ey = edges[e, 3] - ay
        den = dx * ey - dy * ex
        wx = ax - px
        wy = ay - py
        tn = wx * ey - wy * ex
        if den > 0.0:
            lim = den * (1.0 + SLACK)
            if tn < 0.0 or tn > lim:
                continue
            un = wx * dy - wy * dx
            if un < 0.0 or un > lim:
                continue
        elif den < 0.0:
            lim = den * (1.0 + SLACK)
            if tn > 0.0 or tn < lim:
                continue
            un = wx * dy - wy * dx
            if un > 0.0 or un < lim:
                continue
        else:
            continue
        t = tn / den
        if t < 0.0 or t > 1.0:
            continue
        u = un / den
        if u < 0.0 or u > 1.0:
            continue
        if pz + t * dz < h:
            return True
    return False


@njit(cache=True, inline="always")
def edges_block_flagged(px, py, pz, dx, dy, dz, h, edges, e0, e1, flags):
    """edges_block for many lines: first a branch-free pass flags the edges the segment may
    cross (a division-free test with slack, so it never leaves out an edge the exact test
    accepts), then the flagged ones get the exact test. flags: scratch, >= e1 - e0 long."""
    any_flag = False
    for e in range(e0, e1):
        ax = edges[e, 0]
        ay = edges[e, 1]
        ex = edges[e, 2] - ax
        ey = edges[e, 3] - ay
        den = dx * ey - dy * ex
        wx = ax - px
        wy = ay - py
        tn = wx * ey - wy * ex
        un = wx * dy - wy * dx
        lim = abs(den) * (1.0 + SLACK)
        f = ((den != 0.0) & (tn * den >= 0.0) & (un * den >= 0.0) & (abs(tn) <= lim)
             & (abs(un) <= lim))
        flags[e - e0] = f
        any_flag |= f
    if not any_flag:
        return False
    for e in range(e0, e1):
        if flags[e - e0]:
            ax = edges[e, 0]
            ay = edges[e, 1]
            ex = edges[e, 2] - ax
            ey = edges[e, 3] - ay
            den = dx * ey - dy * ex
            wx = ax - px
            wy = ay - py
            t = (wx * ey - wy * ex) / den
            if t < 0.0 or t > 1.0:
                continue
            u = (wx * dy - wy * dx) / den
            if u < 0.0 or u > 1.0:
                continue
            if pz + t * dz < h:
                return True
    return False


@njit(cache=True)
def terrain_blocks(px, py, pz, qx, qy, qz, k, bboxes, heights, edges, edge_start):
    """True when terrain piece k blocks the segment P->Q."""
    h = heights[k]
    if pz >= h and qz >= h:
        return False
    x0 = bboxes[k, 0]
    y0 = bboxes[k, 1]
    x1 = bboxes[k, 2]
    y1 = bboxes[k, 3]
    if max(px, qx) < x0 or min(px, qx) > x1:
        return False
    if max(py, qy) < y0 or min(py, qy) > y1:
        return False
    dx = qx - px
    dy = qy - py
    if _box_missed(px, py, dx, dy, x0, y0, x1, y1):
        return False
    e0 = edge_start[k]
    e1 = edge_start[k + 1]
    if edges_block(px, py, pz, dx, dy, qz - pz, h, edges, e0, e1):
        return True
    if pz < h and may_be_inside(px, py, x0, y0, x1, y1) and point_inside(px, py, edges, e0, e1):
        return True
    if qz < h and may_be_inside(qx, qy, x0, y0, x1, y1) and point_inside(qx, qy, edges, e0, e1):
        return True
    return False


@njit(cache=True)
def model_blocks(px, py, pz, qx, qy, qz, m, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach):
    """True when the volume of model m blocks the segment P->Q."""
    cx = mx[m]
    cy = my[m]
    # Cheap reject: distance from the base's centre to the segment beyond the base's reach.
    dx = qx - px
    dy = qy - py
    ll = dx * dx + dy * dy
    if ll > 0.0:
        tt = ((cx - px) * dx + (cy - py) * dy) / ll
        tt = min(1.0, max(0.0, tt))
    else:
        tt = 0.0
    ox = px + tt * dx - cx
    oy = py + tt * dy - cy
    r = mreach[m]
    if ox * ox + oy * oy > r * r:
        return False
    # Segment in the base's own frame.
    c = mc[m]
    s = ms[m]
    lx = (px - cx) * c + (py - cy) * s
    ly = -(px - cx) * s + (py - cy) * c
    ldx = dx * c + dy * s
    ldy = -dx * s + dy * c
    t0 = 0.0
    t1 = 1.0
    shape = mshape[m]
    if shape == ROUND or shape == OVAL:
        ia = 1.0 / ma[m]
        ib = 1.0 / mb[m]
        ux = lx * ia
        uy = ly * ib
        vx = ldx * ia
        vy = ldy * ib
        qa = vx * vx + vy * vy
        qb = 2.0 * (ux * vx + uy * vy)
        qc = ux * ux + uy * uy - 1.0
        if qa == 0.0:
            if qc > 0.0:
                return False
        else:
            disc = qb * qb - 4.0 * qa * qc
            if disc <= 0.0:
                return False
            sq = math.sqrt(disc)
            t0 = max(0.0, (-qb - sq) / (2.0 * qa))
            t1 = min(1.0, (-qb + sq) / (2.0 * qa))
    else:
        half = (ma[m], mb[m])
        start = (lx, ly)
        delta = (ldx, ldy)
        for axis in range(2):
            d = delta[axis]
            o = start[axis]
            hw = half[axis]
            if d == 0.0:
                if o < -hw or o > hw:
                    return False
            else:
                ta = (-hw - o) / d
                tb = (hw - o) / d
                if ta > tb:
                    ta, tb = tb, ta
                t0 = max(t0, ta)
                t1 = min(t1, tb)
    if t0 >= t1:
        return False
    dz = qz - pz
    za = pz + t0 * dz
    zb = pz + t1 * dz
    zmin = min(za, zb)
    zmax = max(za, zb)
    return zmin < mzhi[m] and zmax >= mzlo[m]


@njit(cache=True, inline="always")
def models_first(px, py, pz, qx, qy, qz, mcand, skip, npieces, mx, my, mc, ms, ma, mb, mshape,
                  mzlo, mzhi, mreach):
    """P + m for the first model m of mcand (other than `skip`) that blocks P->Q, else -1."""
    for i in range(mcand.shape[0]):
        m = mcand[i]
        if m != skip and model_blocks(px, py, pz, qx, qy, qz, m, mx, my, mc, ms, ma, mb, mshape,
                                      mzlo, mzhi, mreach):
            return npieces + m
    return CLEAR


@njit(cache=True)
def first_blocker(px, py, pz, qx, qy, qz, tcand, bboxes, heights, edges, edge_start,
                  mcand, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach):
    """Index of the first terrain piece (k) or model (P + m) that blocks P->Q; -1 when clear.

    Only terrain pieces in tcand and models in mcand are tested: callers pass the candidates
    near the lines (and leave out the observer's unit and the target model)."""
    for i in range(tcand.shape[0]):
        k = tcand[i]
        if terrain_blocks(px, py, pz, qx, qy, qz, k, bboxes, heights, edges, edge_start):
            return k
    return models_first(px, py, pz, qx, qy, qz, mcand, -1, heights.shape[0], mx, my, mc, ms,
                         ma, mb, mshape, mzlo, mzhi, mreach)


# --- many lines against the same candidates ------------------------------------------------------
# The per-line test (mask, then pieces in order, then models) is written out in each loop below
# on purpose: as a shared numba function, even with inline="always", the kernel measured 3.3M
# lines/s against 8M written out (benchmarks/run.py, 2026-11-21).
# The candidate pieces' heights and boxes are laid out once as rows of one array, so that the
# cheap per-line filter over all of them is a straight (vectorised) loop; only the pieces it lets
# through get the exact edge test, in candidate order, so the first blocker is the same one.

@njit(cache=True)
def prepare_pieces(tcand, bboxes, heights):
    """Rows: height, x0, y0, x1, y1, centre x, centre y, half width, half depth of each
    candidate piece (columns in tcand order)."""
    n = tcand.shape[0]
    soa = np.empty((9, n))
    for i in range(n):
        k = tcand[i]
        soa[0, i] = heights[k]
        soa[1, i] = bboxes[k, 0]
        soa[2, i] = bboxes[k, 1]
        soa[3, i] = bboxes[k, 2]
        soa[4, i] = bboxes[k, 3]
        soa[5, i] = 0.5 * (bboxes[k, 0] + bboxes[k, 2])
        soa[6, i] = 0.5 * (bboxes[k, 1] + bboxes[k, 3])
        soa[7, i] = 0.5 * (bboxes[k, 2] - bboxes[k, 0])
        soa[8, i] = 0.5 * (bboxes[k, 3] - bboxes[k, 1])
    return soa


@njit(cache=True)
def edge_flags(edge_start):
    """The edge-flag scratch of the line loops: as long as the most edges of any piece."""
    most = 0
    for k in range(edge_start.shape[0] - 1):
        most = max(most, edge_start[k + 1] - edge_start[k])
    return np.empty(most, dtype=np.bool_)


@njit(cache=True, fastmath=True)
def piece_mask(px, py, pz, qx, qy, qz, soa, mask):
    """mask[i] = False when candidate i certainly cannot block P->Q: no taller than the line's
    lower end, its box beside the segment's box, or its box wholly on one side of the segment's
    line. The last test keeps a slack far above any rounding, so fast maths cannot change an
    answer: the exact test decides every piece let through."""
    lo = min(pz, qz)
    xmin = min(px, qx)
    xmax = max(px, qx)
    ymin = min(py, qy)
    ymax = max(py, qy)
    dx = qx - px
    dy = qy - py
    adx = abs(dx)
    ady = abs(dy)
    c0 = px * dy - py * dx
    ac0 = abs(c0)
    h = soa[0]
    x0 = soa[1]
    y0 = soa[2]
    x1 = soa[3]
    y1 = soa[4]
    cx = soa[5]
    cy = soa[6]
    hx = soa[7]
    hy = soa[8]
    for i in range(mask.shape[0]):
        a = cx[i] * dy
        b = cy[i] * dx
        lim = hx[i] * ady + hy[i] * adx
        mask[i] = ((lo < h[i]) & (xmax >= x0[i]) & (xmin <= x1[i]) & (ymax >= y0[i])
                   & (ymin <= y1[i])
                   & (abs(a - b - c0) <= lim + SLACK * (lim + abs(a) + abs(b) + ac0) + 1e-300))


@njit(cache=True, inline="always")
def ends_inside(px, py, pz, qx, qy, qz, h, soa, i, edges, e0, e1):
    """True when an end of P->Q below h is inside candidate i (outline edges[e0:e1])."""
    x0 = soa[1, i]
    y0 = soa[2, i]
    x1 = soa[3, i]
    y1 = soa[4, i]
    if pz < h and may_be_inside(px, py, x0, y0, x1, y1) and point_inside(px, py, edges, e0, e1):
        return True
    return qz < h and may_be_inside(qx, qy, x0, y0, x1, y1) and point_inside(qx, qy, edges, e0, e1)


# WHERE THE LOOPS ARE NOT SHARED. The per-line test below is written out in full in each of the
# four loops that run it: lines_blocked and fan_to here, shadow._fan_settled and
# units._pair_clear. A call per line, even to an inlined function, costs more than the test.
# Its parts are shared (piece_mask, edges_block_flagged, ends_inside, models_first: all
# inline="always"); the loop over the masked pieces is not. Measured again on 2026-11-25 with
# that loop as one shared @njit(inline="always") function (first_masked_piece, returning the
# piece or CLEAR, with or without an early return) used by lines_blocked: los_lines_per_s
# 2.2-3.4M against 5.9-9.3M written out (benchmarks/run.py's bench_los, three runs each).
#
#     piece_mask(px, py, pz, qx, qy, qz, soa, mask)
#     first piece i of the mask (in tcand order) whose edges the line crosses below its top
#     (edges_block_flagged) or with an end below its top inside it (ends_inside) -> tcand[i]
#     else, with models to test, models_first

@njit(cache=True)
def lines_blocked(p, q, tcand, bboxes, heights, edges, edge_start,
                  mcand, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach):
    """First blocker for each line p[i] -> q[i] (arrays of shape (n, 3))."""
    soa = prepare_pieces(tcand, bboxes, heights)
    mask = np.empty(tcand.shape[0], dtype=np.bool_)
    flags = edge_flags(edge_start)
    npieces = heights.shape[0]
    nt = tcand.shape[0]
    nm = mcand.shape[0]
    out = np.empty(p.shape[0], dtype=np.int64)
    for j in range(p.shape[0]):
        px, py, pz, qx, qy, qz = p[j, 0], p[j, 1], p[j, 2], q[j, 0], q[j, 1], q[j, 2]
        piece_mask(px, py, pz, qx, qy, qz, soa, mask)
        dx, dy, dz = qx - px, qy - py, qz - pz
        k = CLEAR
        for i in range(nt):
            if mask[i]:
                c = tcand[i]
                h = soa[0, i]
                e0, e1 = edge_start[c], edge_start[c + 1]
                if (edges_block_flagged(px, py, pz, dx, dy, dz, h, edges, e0, e1, flags)
                        or ends_inside(px, py, pz, qx, qy, qz, h, soa, i, edges, e0, e1)):
                    k = c
                    break
        if k == CLEAR and nm:
            k = models_first(px, py, pz, qx, qy, qz, mcand, -1, npieces, mx, my, mc, ms, ma,
                              mb, mshape, mzlo, mzhi, mreach)
        out[j] = k
    return out


@njit(cache=True)
def fan_to(obs, sidx, ns, qx, qy, qz, tcand, soa, mask, flags, edges, edge_start, mcand, skip,
            npieces, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach, tally, count):
    """The first l < ns whose line obs[sidx[l]] -> Q is clear, else -1; with `count`,
    tally[k] += 1 for each line before it, k its first blocker. Model `skip` never blocks."""
    nt = tcand.shape[0]
    nm = mcand.shape[0]
    for l in range(ns):
        s = sidx[l]
        px, py, pz = obs[s, 0], obs[s, 1], obs[s, 2]
        piece_mask(px, py, pz, qx, qy, qz, soa, mask)
        dx, dy, dz = qx - px, qy - py, qz - pz
        k = CLEAR
        for i in range(nt):
            if mask[i]:
                c = tcand[i]
                h = soa[0, i]
                e0, e1 = edge_start[c], edge_start[c + 1]
                if (edges_block_flagged(px, py, pz, dx, dy, dz, h, edges, e0, e1, flags)
                        or ends_inside(px, py, pz, qx, qy, qz, h, soa, i, edges, e0, e1)):
                    k = c
                    break
        if k == CLEAR and nm:
            k = models_first(px, py, pz, qx, qy, qz, mcand, skip, npieces, mx, my, mc, ms, ma,
                              mb, mshape, mzlo, mzhi, mreach)
        if k == CLEAR:
            return l
        if count:
            tally[k] += 1
    return -1


@njit(cache=True)
def any_line_clear(obs, tgt, tcand, bboxes, heights, edges, edge_start,
                   mcand, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach):
    """True when some observer point sees some target point."""
    soa = prepare_pieces(tcand, bboxes, heights)
    mask = np.empty(tcand.shape[0], dtype=np.bool_)
    flags = edge_flags(edge_start)
    npieces = heights.shape[0]
    tally = np.zeros(0, dtype=np.int64)
    every = np.arange(obs.shape[0])
    for j in range(tgt.shape[0]):
        if fan_to(obs, every, obs.shape[0], tgt[j, 0], tgt[j, 1], tgt[j, 2], tcand, soa, mask,
                   flags, edges, edge_start, mcand, -1, npieces, mx, my, mc, ms, ma, mb, mshape,
                   mzlo, mzhi, mreach, tally, False) >= 0:
            return True
    return False


# --- the sample points and candidates of models.Sight -------------------------------------------

@njit(cache=True)
def place_points(local, models, x, y, cos, sin, z):
    """The points `local` (in a base's frame) of each of `models`, at height z[m]: the same
    arithmetic as models.surface_points."""
    k = local.shape[0]
    out = np.empty((models.shape[0] * k, 3))
    for i in range(models.shape[0]):
        m = models[i]
        c = cos[m]
        s = sin[m]
        for j in range(k):
            out[i * k + j, 0] = local[j, 0] * c - local[j, 1] * s + x[m]
            out[i * k + j, 1] = local[j, 0] * s + local[j, 1] * c + y[m]
            out[i * k + j, 2] = z[m]
    return out


@njit(cache=True)
def box_candidates(x, y, reach, unit, bboxes, own_unit, target):
    """models.SightModel._candidates_each for one target and the observer's whole unit
    (own_unit): the pieces and models (not of own_unit, not slain) whose boxes meet the box
    round the unit and the target - the same comparisons, in one pass."""
    x0 = np.inf
    y0 = np.inf
    x1 = -np.inf
    y1 = -np.inf
    for m in range(x.shape[0]):
        if unit[m] == own_unit:
            x0 = min(x0, x[m] - reach[m])
            y0 = min(y0, y[m] - reach[m])
            x1 = max(x1, x[m] + reach[m])
            y1 = max(y1, y[m] + reach[m])
    x0 = min(x0, x[target] - reach[target])
    y0 = min(y0, y[target] - reach[target])
    x1 = max(x1, x[target] + reach[target])
    y1 = max(y1, y[target] + reach[target])
    tc = np.empty(bboxes.shape[0], dtype=np.int64)
    nt = 0
    for k in range(bboxes.shape[0]):
        if (bboxes[k, 0] <= x1 and bboxes[k, 2] >= x0 and bboxes[k, 1] <= y1
                and bboxes[k, 3] >= y0):
            tc[nt] = k
            nt += 1
    mc = np.empty(x.shape[0], dtype=np.int64)
    nm = 0
    for m in range(x.shape[0]):
        if (unit[m] >= 0 and unit[m] != own_unit and x[m] - reach[m] <= x1
                and x[m] + reach[m] >= x0 and y[m] - reach[m] <= y1 and y[m] + reach[m] >= y0):
            mc[nm] = m
            nm += 1
    return tc[:nt], mc[:nm]
