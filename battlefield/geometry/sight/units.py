"""Unit-to-unit sight, fast: lines that tall terrain certainly blocks are set aside before the
exact kernel (battlefield.geometry.sight.kernel) tests the rest.

A piece taller than every point of two models whose outline crosses the whole corridor between
them cuts every line (piece_cuts); observer points that such pieces shut off from a whole target
are skipped, and so is each single line inside a piece's shadow. Margins keep every shortcut
clear of rounding; `groups_see` answers exactly what testing every line would.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from battlefield.geometry.sight.kernel import (
    CLEAR,
    edge_flags,
    edges_block_flagged,
    ends_inside,
    fan_to,
    models_first,
    piece_mask,
    prepare_pieces,
)
from battlefield.geometry.sight.shadow import SHADOW_MARGIN

# --- certain blocking: a piece whose outline cuts every line between two discs -------------------
# For unit visibility most of the work is proving that nothing of one model is visible from
# another. A piece taller than every point of both does it when its outline runs across the whole
# corridor between the two discs holding their sample points: every segment from one disc to the
# other then crosses one of its edges, where the segment is below the piece's top (RULES-NOTES:
# blocked). The corridor is the region between the discs' two outer common tangents; the outline
# must enter it over one tangent and leave it over the other without leaving it in between, and
# stay clear of both discs along the way (CUT_MARGIN keeps everything clear of rounding).
CUT_MARGIN = 1e-6


@njit(cache=True)
def _ring_cuts(edges, r0, r1, w1x, w1y, k1, w2x, w2y, k2, ax, ay, ux, uy, ulo, uhi):
    """True when the closed ring edges[r0:r1] has a run of edges inside the corridor
    {w1.X >= k1, w2.X >= k2} from one side to the other, with axial coordinate (X - a).u
    between ulo and uhi all along."""
    n = r1 - r0
    start = -1
    for e in range(r0, r1):
        x = edges[e, 0]
        y = edges[e, 1]
        if w1x * x + w1y * y - k1 < 0.0 or w2x * x + w2y * y - k2 < 0.0:
            start = e - r0
            break
    if start < 0:
        return False
    in_run = False
    entry = 0
    ok = False
    for step in range(n):
        e = r0 + (start + step) % n
        x0 = edges[e, 0]
        y0 = edges[e, 1]
        x1 = edges[e, 2]
        y1 = edges[e, 3]
        f10 = w1x * x0 + w1y * y0 - k1
        f11 = w1x * x1 + w1y * y1 - k1
        f20 = w2x * x0 + w2y * y0 - k2
        f21 = w2x * x1 + w2y * y1 - k2
        if (f10 < 0.0 and f11 < 0.0) or (f20 < 0.0 and f21 < 0.0):
            in_run = False
            continue
        tin = 0.0
        tout = 1.0
        pin = 0
        pout = 0
        if f10 < 0.0:
            tin = f10 / (f10 - f11)
            pin = 1
        elif f11 < 0.0:
            tout = f10 / (f10 - f11)
            pout = 1
        if f20 < 0.0:
            t = f20 / (f20 - f21)
            if t > tin or pin == 0:
                tin = max(tin, t)
                pin = 2
        elif f21 < 0.0:
            t = f20 / (f20 - f21)
            if t < tout or pout == 0:
                tout = min(tout, t)
                pout = 2
        if tin > tout:
            in_run = False
            continue
        if pin != 0:
            in_run = True
            entry = pin
            ok = True
        if not in_run:
            continue
        dx = x1 - x0
        dy = y1 - y0
        ua = (x0 + tin * dx - ax) * ux + (y0 + tin * dy - ay) * uy
        ub = (x0 + tout * dx - ax) * ux + (y0 + tout * dy - ay) * uy
        if ua < ulo or ua > uhi or ub < ulo or ub > uhi:
            ok = False
        if pout != 0:
            if ok and pout != entry:
                return True
            in_run = False
    return False


@njit(cache=True)
def piece_cuts(k, ax, ay, ra, bx, by, rb, edges, ring_start, piece_ring):
    """True when the outline of piece k crosses the whole corridor between the discs
    (a, ra) and (b, rb), so that every segment from one disc to the other crosses its edges.
    ring_start[r] is the first edge of ring r; piece k has rings piece_ring[k]..[k + 1] - 1."""
    ux = bx - ax
    uy = by - ay
    d = math.sqrt(ux * ux + uy * uy)
    ra += CUT_MARGIN
    rb += CUT_MARGIN
    if d <= ra + rb + 2.0 * CUT_MARGIN:
        return False
    ux /= d
    uy /= d
    nx = -uy
    ny = ux
    s = (rb - ra) / d
    c = math.sqrt(max(0.0, 1.0 - s * s))
    # The outer tangents: w.X = k with w.a - k = ra and w.b - k = rb, both discs on the + side.
    w1x = s * ux + c * nx
    w1y = s * uy + c * ny
    w2x = s * ux - c * nx
    w2y = s * uy - c * ny
    k1 = w1x * ax + w1y * ay - ra
    k2 = w2x * ax + w2y * ay - ra
    ulo = ra + CUT_MARGIN
    uhi = d - rb - CUT_MARGIN
    for r in range(piece_ring[k], piece_ring[k + 1]):
        if _ring_cuts(edges, ring_start[r], ring_start[r + 1], w1x, w1y, k1, w2x, w2y, k2,
                      ax, ay, ux, uy, ulo, uhi):
            return True
    return False


@njit(cache=True)
def _discs(pts, start):
    """Per group of points pts[start[i]:start[i + 1]] (its first point the centre): centre x,
    centre y, radius holding every point (with a little room), lowest and highest z."""
    n = start.shape[0] - 1
    out = np.empty((n, 5))
    for i in range(n):
        s0 = start[i]
        cx = pts[s0, 0]
        cy = pts[s0, 1]
        r2 = 0.0
        zlo = np.inf
        zhi = -np.inf
        for s in range(s0, start[i + 1]):
            dx = pts[s, 0] - cx
            dy = pts[s, 1] - cy
            r2 = max(r2, dx * dx + dy * dy)
            zlo = min(zlo, pts[s, 2])
            zhi = max(zhi, pts[s, 2])
        out[i, 0] = cx
        out[i, 1] = cy
        out[i, 2] = math.sqrt(r2) * (1.0 + 1e-9) + 1e-9
        out[i, 3] = zlo
        out[i, 4] = zhi
    return out


@njit(cache=True, inline="always")
def _pair_box(a, b):
    """The box round two disc rows (x, y, radius, lowest z) of _discs, and their lower z."""
    return (min(a[0] - a[2], b[0] - b[2]), min(a[1] - a[2], b[1] - b[2]),
            max(a[0] + a[2], b[0] + b[2]), max(a[1] + a[2], b[1] + b[2]), min(a[3], b[3]))


@njit(cache=True)
def _pair_pieces(a, b, tcand, bboxes, heights, out):
    """Pieces of tcand that may block lines between disc rows a and b (of _discs): taller than
    the lower of their lowest points, box meeting both discs' box. Fills out; returns the count.
    """
    x0, y0, x1, y1, zlo = _pair_box(a, b)
    n = 0
    for i in range(tcand.shape[0]):
        k = tcand[i]
        if (heights[k] > zlo and bboxes[k, 0] <= x1 and bboxes[k, 2] >= x0
                and bboxes[k, 1] <= y1 and bboxes[k, 3] >= y0):
            out[n] = k
            n += 1
    return n


@njit(cache=True)
def _pair_models(a, b, mcand, skip, mx, my, mzhi, mreach, out):
    """Models of mcand (but `skip`) that may block lines between disc rows a and b."""
    x0, y0, x1, y1, zlo = _pair_box(a, b)
    n = 0
    for i in range(mcand.shape[0]):
        m = mcand[i]
        r = mreach[m]
        if (m != skip and mzhi[m] > zlo and mx[m] - r <= x1 and mx[m] + r >= x0
                and my[m] - r <= y1 and my[m] + r >= y0):
            out[n] = m
            n += 1
    return n


@njit(cache=True)
def _cut_by(a, b, pieces, n, heights, edges, ring_start, piece_ring):
    """True when one of pieces[:n], taller than every point of both discs, cuts them apart."""
    ztop = max(a[4], b[4]) + 1e-9
    for i in range(n):
        k = pieces[i]
        if heights[k] > ztop and piece_cuts(k, a[0], a[1], a[2], b[0], b[1], b[2], edges,
                                            ring_start, piece_ring):
            return True
    return False


@njit(cache=True)
def _shadows(sx, sy, fx, fy, dmax, pieces, n, heights, ztop, edges, edge_start, lo, hi, reach):
    """The shadows cast from point S by the tall pieces wholly in front of it (along the unit
    direction f): a line from S whose slope (lateral over forward, relative to f) is strictly
    between lo[e] and hi[e] and which is longer than sqrt(reach[e]) passes through the inside of
    piece e (the outline is connected, so its slopes seen from S fill the range of its vertices'
    slopes, and none of it is further than its furthest vertex), below its top. The shadows of
    pieces nearer than dmax come first; returns (number of shadows, number of those)."""
    m = 0
    near = 0
    d2 = dmax * dmax
    for i in range(n):
        k = pieces[i]
        if heights[k] <= ztop:
            continue
        smin = np.inf
        smax = -np.inf
        rmax = 0.0
        ok = True
        for e in range(edge_start[k], edge_start[k + 1]):
            vx = edges[e, 0] - sx
            vy = edges[e, 1] - sy
            dot = vx * fx + vy * fy
            if dot <= 1e-9:
                ok = False
                break
            sl = (fx * vy - fy * vx) / dot
            smin = min(smin, sl)
            smax = max(smax, sl)
            rmax = max(rmax, vx * vx + vy * vy)
        if not ok:
            continue
        a = smin + SHADOW_MARGIN * (1.0 + abs(smin))
        b = smax - SHADOW_MARGIN * (1.0 + abs(smax))
        if a >= b:
            continue
        r = rmax * (1.0 + 1e-9) + 1e-9
        at = m
        if r < d2:
            # Keep the near ones first: move the first far one to the end.
            if near < m:
                lo[m] = lo[near]
                hi[m] = hi[near]
                reach[m] = reach[near]
            at = near
            near += 1
        lo[at] = a
        hi[at] = b
        reach[at] = r
        m += 1
    return m, near


@njit(cache=True)
def _covers(lo, hi, n, half):
    """True when the union of the open intervals (lo[e], hi[e]) covers [-half, half]."""
    at = -half
    while True:
        best = at
        for e in range(n):
            if lo[e] < at and hi[e] > best:
                best = hi[e]
        if best == at:
            return False
        if best > half:
            return True
        at = best


@njit(cache=True)
def _pair_clear(obs, s0, s1, tgt, t0, t1, disc, tcand, soa, mask, flags, heights, edges,
                edge_start, ring_start, piece_ring, mcand, npieces, mx, my, mc, ms, ma, mb,
                mshape, mzlo, mzhi, mreach, ztop, lo, hi, reach, point):
    """True when a line obs[s] -> tgt[t] (s in s0..s1-1, t in t0..t1-1) is clear of tcand and
    mcand. disc: the target points' disc (_discs row); ztop: above every point. An observer
    point that tall pieces certainly cut off from the whole disc (shadows that cover it, or an
    outline across the corridor) is skipped, and so is each line in a shadow (_shadows)."""
    n = tcand.shape[0]
    nm = mcand.shape[0]
    cx, cy, rad = disc[0], disc[1], disc[2]
    for s in range(s0, s1):
        px, py, pz = obs[s, 0], obs[s, 1], obs[s, 2]
        fx = cx - px
        fy = cy - py
        dc = math.sqrt(fx * fx + fy * fy)
        nshadow = 0
        if dc > rad:
            fx /= dc
            fy /= dc
            nshadow, near = _shadows(px, py, fx, fy, dc - rad, tcand, n, heights, ztop, edges,
                                     edge_start, lo, hi, reach)
            if near and _covers(lo, hi, near, rad / math.sqrt(dc * dc - rad * rad)):
                continue
            point[0] = px
            point[1] = py
            point[2] = 0.0
            point[3] = pz
            point[4] = pz
            if _cut_by(point, disc, tcand, n, heights, edges, ring_start, piece_ring):
                continue
        for t in range(t0, t1):
            qx, qy, qz = tgt[t, 0], tgt[t, 1], tgt[t, 2]
            dx, dy, dz = qx - px, qy - py, qz - pz
            if nshadow:
                dot = dx * fx + dy * fy
                if dot > 0.0:
                    slope = (fx * dy - fy * dx) / dot
                    dd = dx * dx + dy * dy
                    shadowed = False
                    for e in range(nshadow):
                        if lo[e] < slope < hi[e] and dd > reach[e]:
                            shadowed = True
                            break
                    if shadowed:
                        continue
            piece_mask(px, py, pz, qx, qy, qz, soa, mask)
            k = CLEAR
            for i in range(n):
                if mask[i]:
                    c = tcand[i]
                    h = soa[0, i]
                    e0, e1 = edge_start[c], edge_start[c + 1]
                    if (edges_block_flagged(px, py, pz, dx, dy, dz, h, edges, e0, e1, flags)
                            or ends_inside(px, py, pz, qx, qy, qz, h, soa, i, edges, e0, e1)):
                        k = c
                        break
            if k == CLEAR and nm:
                k = models_first(px, py, pz, qx, qy, qz, mcand, -1, npieces, mx, my, mc, ms,
                                  ma, mb, mshape, mzlo, mzhi, mreach)
            if k == CLEAR:
                return True
    return False


@njit(cache=True)
def groups_see(obs, ostart, omodels, tgt, tstart, tmodels, bboxes, heights, edges, edge_start,
               ring_start, piece_ring, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach):
    """True when some observer point sees some target point: the sight lines are every
    obs[ostart[i]:ostart[i + 1]] (observer model omodels[i]) to every tgt[tstart[j]:...]
    (target model tmodels[j]), each point group's first point at its model's centre. Every
    terrain piece blocks, and every model but the observers and the target model itself.

    The same answer as testing every line, found faster: model pairs that a tall piece
    certainly cuts apart (piece_cuts) are set aside, the others' centre lines tried; then a few
    lines of each remaining pair; then all of them, but for lines that tall pieces in front of
    the observer point certainly shadow (_shadows)."""
    no = omodels.shape[0]
    nt = tmodels.shape[0]
    od = _discs(obs, ostart)
    td = _discs(tgt, tstart)
    # Candidates for the whole question: pieces and models taller than the lowest point, near
    # the box around everything, observers left out.
    x0 = np.inf
    y0 = np.inf
    x1 = -np.inf
    y1 = -np.inf
    zlo = np.inf
    for d in (od, td):
        for i in range(d.shape[0]):
            x0 = min(x0, d[i, 0] - d[i, 2])
            y0 = min(y0, d[i, 1] - d[i, 2])
            x1 = max(x1, d[i, 0] + d[i, 2])
            y1 = max(y1, d[i, 1] + d[i, 2])
            zlo = min(zlo, d[i, 3])
    npieces = heights.shape[0]
    tc = np.empty(npieces, dtype=np.int64)
    ntc = 0
    for k in range(npieces):
        if (heights[k] > zlo and bboxes[k, 0] <= x1 and bboxes[k, 2] >= x0
                and bboxes[k, 1] <= y1 and bboxes[k, 3] >= y0):
            tc[ntc] = k
            ntc += 1
    tc = tc[:ntc]
    nmodels = mx.shape[0]
    own = np.zeros(nmodels, dtype=np.bool_)
    for i in range(no):
        own[omodels[i]] = True
    mcand = np.empty(nmodels, dtype=np.int64)
    nmc = 0
    for m in range(nmodels):
        r = mreach[m]
        if (not own[m] and mzhi[m] > zlo and mx[m] - r <= x1 and mx[m] + r >= x0
                and my[m] - r <= y1 and my[m] + r >= y0):
            mcand[nmc] = m
            nmc += 1
    mcand = mcand[:nmc]
    soa = prepare_pieces(tc, bboxes, heights)
    mask = np.empty(ntc, dtype=np.bool_)
    flags = edge_flags(edge_start)

    lo = np.empty(ntc)
    hi = np.empty(ntc)
    reach = np.empty(ntc)

    # 1. Model pairs: set aside those a tall piece cuts apart, try the others' centre lines.
    pieces = np.empty(ntc, dtype=np.int64)
    open_pairs = np.empty(no * nt, dtype=np.int64)
    sidx = np.empty(max(no, ostart[no]), dtype=np.int64)
    tally = np.zeros(0, dtype=np.int64)
    nopen = 0
    for j in range(nt):
        ns = 0
        for i in range(no):
            n = _pair_pieces(od[i], td[j], tc, bboxes, heights, pieces)
            if not _cut_by(od[i], td[j], pieces, n, heights, edges, ring_start, piece_ring):
                sidx[ns] = ostart[i]
                ns += 1
                open_pairs[nopen] = j * no + i
                nopen += 1
        q0 = tstart[j]
        if ns and fan_to(obs, sidx, ns, tgt[q0, 0], tgt[q0, 1], tgt[q0, 2], tc, soa, mask,
                          flags, edges, edge_start, mcand, tmodels[j], npieces, mx, my, mc, ms,
                          ma, mb, mshape, mzlo, mzhi, mreach, tally, False) >= 0:
            return True
    if nopen == 0:
        return False
    # 2. A spread of lines of each open pair.
    for o in range(nopen):
        j = open_pairs[o] // no
        i = open_pairs[o] % no
        s0 = ostart[i]
        s1 = ostart[i + 1]
        t0 = tstart[j]
        t1 = tstart[j + 1]
        si = max(1, (s1 - s0) // 3)
        ti = max(1, (t1 - t0) // 3)
        ns = 0
        for s in range(s0 + si // 2, s1, si):
            sidx[ns] = s
            ns += 1
        for t in range(t0 + ti // 2, t1, ti):
            if fan_to(obs, sidx, ns, tgt[t, 0], tgt[t, 1], tgt[t, 2], tc, soa, mask, flags,
                       edges, edge_start, mcand, tmodels[j], npieces, mx, my, mc, ms, ma, mb,
                       mshape, mzlo, mzhi, mreach, tally, False) >= 0:
                return True
    # 3. Every line of each open pair, with the pair's own candidates, except those that tall
    # pieces in front of the observer point certainly shadow (_shadows).
    pm = np.empty(nmc, dtype=np.int64)
    point = np.zeros(5)
    for o in range(nopen):
        j = open_pairs[o] // no
        i = open_pairs[o] % no
        n = _pair_pieces(od[i], td[j], tc, bboxes, heights, pieces)
        ptc = pieces[:n].copy()
        psoa = prepare_pieces(ptc, bboxes, heights)
        pmask = np.empty(n, dtype=np.bool_)
        nm = _pair_models(od[i], td[j], mcand, tmodels[j], mx, my, mzhi, mreach, pm)
        pmc = pm[:nm]
        ztop = max(od[i, 4], td[j, 4]) + 1e-9
        if _pair_clear(obs, ostart[i], ostart[i + 1], tgt, tstart[j], tstart[j + 1], td[j], ptc,
                       psoa, pmask, flags, heights, edges, edge_start, ring_start, piece_ring,
                       pmc, npieces, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach, ztop,
                       lo, hi, reach, point):
            return True
    return False
