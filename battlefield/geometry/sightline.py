"""The compiled 2.5-D sight-line kernel (numba).

A sight line is a 3-D segment P->Q. Terrain piece k blocks it when the segment is inside k's
outline somewhere at a height below k's height; as z is linear along the segment, it is enough
to test z where the segment crosses the outline's edges and at an end inside (RULES-NOTES).
A model volume (its base from z to z + height) blocks when the segment passes through it; round,
oval and rectangular volumes are convex, so the part of the segment over the base is one interval
found exactly (circle / scaled circle / slab clipping).

Blocker indices: 0..P-1 are terrain pieces, P + m is model m. -1 means the line is clear.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from battlefield.geometry.bases import OVAL, ROUND

CLEAR = -1


@njit(cache=True, inline="always")
def _inside(px, py, edges, e0, e1):
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


@njit(cache=True)
def terrain_blocks(px, py, pz, qx, qy, qz, k, bboxes, heights, edges, edge_start):
    """True when terrain piece k blocks the segment P->Q."""
    h = heights[k]
    if pz >= h and qz >= h:
        return False
    if max(px, qx) < bboxes[k, 0] or min(px, qx) > bboxes[k, 2]:
        return False
    if max(py, qy) < bboxes[k, 1] or min(py, qy) > bboxes[k, 3]:
        return False
    dx = qx - px
    dy = qy - py
    dz = qz - pz
    e0 = edge_start[k]
    e1 = edge_start[k + 1]
    for e in range(e0, e1):
        ax = edges[e, 0]
        ay = edges[e, 1]
        ex = edges[e, 2] - ax
        ey = edges[e, 3] - ay
        den = dx * ey - dy * ex
        if den == 0.0:
            continue
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
    if pz < h and _inside(px, py, edges, e0, e1):
        return True
    if qz < h and _inside(qx, qy, edges, e0, e1):
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
    npieces = heights.shape[0]
    for i in range(mcand.shape[0]):
        m = mcand[i]
        if model_blocks(px, py, pz, qx, qy, qz, m, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi,
                        mreach):
            return npieces + m
    return CLEAR


@njit(cache=True)
def lines_blocked(p, q, tcand, bboxes, heights, edges, edge_start,
                  mcand, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach):
    """First blocker for each line p[i] -> q[i] (arrays of shape (n, 3))."""
    out = np.empty(p.shape[0], dtype=np.int64)
    for i in range(p.shape[0]):
        out[i] = first_blocker(p[i, 0], p[i, 1], p[i, 2], q[i, 0], q[i, 1], q[i, 2],
                               tcand, bboxes, heights, edges, edge_start,
                               mcand, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach)
    return out


NONE, PARTIAL, FULL = 0, 1, 2


@njit(cache=True)
def point_visibility(obs, top, bottom, tcand, bboxes, heights, edges, edge_start,
                     mcand, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach, tally):
    """How much of one target the observer points see: NONE, PARTIAL or FULL.

    obs: the observer's sample points (top surfaces of its volume). top / bottom: the target's
    top-surface and bottom-surface samples. Blockers are ground-up columns (terrain extrusions,
    models standing on the ground or on terrain), so a higher point sees everything a lower one
    at the same place sees: nothing of the target is visible when no top sample is, and the
    target is fully visible when every bottom sample is. tally[k] counts lines blocked by k.
    """
    seen_any = False
    for j in range(top.shape[0]):
        for i in range(obs.shape[0]):
            k = first_blocker(obs[i, 0], obs[i, 1], obs[i, 2], top[j, 0], top[j, 1], top[j, 2],
                              tcand, bboxes, heights, edges, edge_start,
                              mcand, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach)
            if k == CLEAR:
                seen_any = True
                break
            tally[k] += 1
        if seen_any:
            break
    if not seen_any:
        return NONE
    for j in range(bottom.shape[0]):
        seen = False
        for i in range(obs.shape[0]):
            k = first_blocker(obs[i, 0], obs[i, 1], obs[i, 2],
                              bottom[j, 0], bottom[j, 1], bottom[j, 2],
                              tcand, bboxes, heights, edges, edge_start,
                              mcand, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach)
            if k == CLEAR:
                seen = True
                break
            tally[k] += 1
        if not seen:
            return PARTIAL
    return FULL


@njit(cache=True)
def any_line_clear(obs, tgt, tcand, bboxes, heights, edges, edge_start,
                   mcand, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach):
    """True when some observer point sees some target point."""
    for j in range(tgt.shape[0]):
        for i in range(obs.shape[0]):
            k = first_blocker(obs[i, 0], obs[i, 1], obs[i, 2], tgt[j, 0], tgt[j, 1], tgt[j, 2],
                              tcand, bboxes, heights, edges, edge_start,
                              mcand, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach)
            if k == CLEAR:
                return True
    return False
