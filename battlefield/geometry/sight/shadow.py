"""How much of one target a group of observer points sees - none, partial or full - and what
blocks the rest (point_visibility), with the compiled per-line test of kernel.py.

The shortcut that makes it fast never changes an answer or a tally: per observer point, the
first piece that may block any line to the target is found once (_settled); when that piece is
tall and shuts the point off from the whole target (HOLDS), or from the part of it in its shadow
(SHADES), the lines it certainly blocks are counted for it untested. Each observer point tests
only the models near its lines to the target (_near_models).
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
    models_first,
    piece_mask,
    prepare_pieces,
)

NONE, PARTIAL, FULL = 0, 1, 2


# What a tall piece does to the lines from one observer point to a whole target (_shadow).
HOLDS, SHADES, MISSES, UNSURE = 1, 2, 0, -1


@njit(cache=True)
def _settled(obs, top, bottom, tcand, soa, heights, edges, edge_start, piece, kind, shade):
    """Per observer point s, the first piece that may block one of the lines to the target
    points (taller than the lowest end, box meeting the box round obs[s] and the target's
    disc, met by some line: _shadow), piece[s] (-1 when none), and what it does (kind[s]):
    HOLDS when it blocks every line, SHADES when it blocks the lines in its shadow (shade[s]:
    direction x, y, the shadow's slopes lo, hi and the squared length the lines must pass),
    else UNSURE. Of the pieces before it the line filter (piece_mask) drops the ones beside
    the box and the exact test clears the ones the lines pass beside, so for a line it
    blocks, the exact test would name it first too; no model is reached."""
    n = tcand.shape[0]
    cx = top[0, 0]
    cy = top[0, 1]
    r2 = 0.0
    zlo = np.inf
    zhi = -np.inf
    for pts in (top, bottom):
        for j in range(pts.shape[0]):
            dx = pts[j, 0] - cx
            dy = pts[j, 1] - cy
            r2 = max(r2, dx * dx + dy * dy)
            zlo = min(zlo, pts[j, 2])
            zhi = max(zhi, pts[j, 2])
    rad = math.sqrt(r2) * (1.0 + 1e-9) + 1e-9
    for s in range(obs.shape[0]):
        piece[s] = CLEAR
        kind[s] = UNSURE
        px, py, pz = obs[s, 0], obs[s, 1], obs[s, 2]
        fx = cx - px
        fy = cy - py
        dc = math.sqrt(fx * fx + fy * fy)
        if dc <= rad:
            continue
        fx /= dc
        fy /= dc
        low = min(pz, zlo)
        x0 = min(px, cx - rad)
        y0 = min(py, cy - rad)
        x1 = max(px, cx + rad)
        y1 = max(py, cy + rad)
        for i in range(n):
            if not (low < soa[0, i] and x1 >= soa[1, i] and x0 <= soa[3, i]
                    and y1 >= soa[2, i] and y0 <= soa[4, i]):
                continue                      # blocks none of the lines: the filter drops it
            k = tcand[i]
            what, lo, hi, reach = _shadow(px, py, fx, fy, dc, rad, heights[k],
                                          max(pz, zhi) + 1e-9, edges, edge_start[k],
                                          edge_start[k + 1])
            if what == MISSES:
                continue
            piece[s] = k
            kind[s] = what
            shade[s, 0] = fx
            shade[s, 1] = fy
            shade[s, 2] = lo
            shade[s, 3] = hi
            shade[s, 4] = reach
            break


# Slopes (relative to the direction to the target) inside a piece's shadow by this much at least.
SHADOW_MARGIN = 1e-9


@njit(cache=True, inline="always")
def _shadow(px, py, fx, fy, dc, rad, h, ztop, edges, e0, e1):
    """What a piece (outline edges[e0:e1], height h) does to the lines from P to a disc
    (radius rad, its centre dc away along the unit direction f), and its shadow (lo, hi,
    reach): a line from P with a slope (lateral over forward, relative to f) strictly between
    lo and hi and longer than sqrt(reach) passes through its inside below its top, when it is
    taller than ztop and wholly in front of P (the reasoning of units._shadows). HOLDS
    when the whole disc is in the shadow, SHADES when it is tall and in front, MISSES when
    the disc's slopes lie wholly outside its vertices' (no line meets it), else UNSURE."""
    smin = np.inf
    smax = -np.inf
    rmax = 0.0
    for e in range(e0, e1):
        vx = edges[e, 0] - px
        vy = edges[e, 1] - py
        dot = vx * fx + vy * fy
        if dot <= 1e-9:
            return UNSURE, 0.0, 0.0, 0.0
        sl = (fx * vy - fy * vx) / dot
        smin = min(smin, sl)
        smax = max(smax, sl)
        rmax = max(rmax, vx * vx + vy * vy)
    half = rad / math.sqrt(dc * dc - rad * rad)
    if (smax + SHADOW_MARGIN * (1.0 + abs(smax)) < -half
            or smin - SHADOW_MARGIN * (1.0 + abs(smin)) > half):
        return MISSES, 0.0, 0.0, 0.0
    if h <= ztop:
        return UNSURE, 0.0, 0.0, 0.0
    lo = smin + SHADOW_MARGIN * (1.0 + abs(smin))
    hi = smax - SHADOW_MARGIN * (1.0 + abs(smax))
    reach = rmax * (1.0 + 1e-9) + 1e-9
    near = dc - rad
    if lo < -half and hi > half and reach < near * near:
        return HOLDS, lo, hi, reach
    return SHADES, lo, hi, reach


@njit(cache=True)
def _fan_settled(obs, piece, kind, shade, qx, qy, qz, tcand, soa, mask, flags, edges,
                 edge_start, mcand, npieces, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach,
                 tally, near, nnear, cx, cy, rad):
    """fan_to over every observer point, counting: a line that the first piece that may
    block it (_settled) certainly blocks is counted for it without a test. The models tested
    for observer point s are near[s, :nnear[s]] (_near_models, made when first needed)."""
    nt = tcand.shape[0]
    nm = mcand.shape[0]
    for s in range(obs.shape[0]):
        k = piece[s]
        if kind[s] == HOLDS:
            tally[k] += 1
            continue
        px, py, pz = obs[s, 0], obs[s, 1], obs[s, 2]
        dx, dy, dz = qx - px, qy - py, qz - pz
        if kind[s] == SHADES:
            fx = shade[s, 0]
            fy = shade[s, 1]
            dot = dx * fx + dy * fy
            if (dot > 0.0 and shade[s, 2] < (fx * dy - fy * dx) / dot < shade[s, 3]
                    and dx * dx + dy * dy > shade[s, 4]):
                tally[k] += 1
                continue
        piece_mask(px, py, pz, qx, qy, qz, soa, mask)
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
            if nnear[s] < 0:
                nnear[s] = _near_models(px, py, cx, cy, rad, mcand, mx, my, mreach, near[s])
            k = models_first(px, py, pz, qx, qy, qz, near[s, :nnear[s]], -1, npieces, mx, my,
                              mc, ms, ma, mb, mshape, mzlo, mzhi, mreach)
        if k == CLEAR:
            return s
        tally[k] += 1
    return -1


@njit(cache=True, inline="always")
def _near_models(px, py, cx, cy, rad, mcand, mx, my, mreach, out):
    """The models of mcand, in their order, that may block a line from (px, py) to a target
    point within `rad` of (cx, cy): a line to such a point stays within rad of the segment
    to the centre, so a model farther than its reach + rad from that segment blocks none of
    them (model_blocks rejects it too). Written to `out`; returns how many."""
    dx = cx - px
    dy = cy - py
    ll = dx * dx + dy * dy
    n = 0
    for i in range(mcand.shape[0]):
        m = mcand[i]
        if ll > 0.0:
            tt = min(1.0, max(0.0, ((mx[m] - px) * dx + (my[m] - py) * dy) / ll))
        else:
            tt = 0.0
        ox = px + tt * dx - mx[m]
        oy = py + tt * dy - my[m]
        r = (mreach[m] + rad) * (1.0 + 1e-9) + 1e-9
        if ox * ox + oy * oy <= r * r:
            out[n] = m
            n += 1
    return n


@njit(cache=True)
def point_visibility(obs, top, bottom, tcand, bboxes, heights, edges, edge_start,
                     mcand, mx, my, mc, ms, ma, mb, mshape, mzlo, mzhi, mreach, tally):
    """How much of one target the observer points see: NONE, PARTIAL or FULL.

    obs: the observer's sample points (top surfaces of its volume). top / bottom: the target's
    top-surface and bottom-surface samples, the first top one at its centre. Blockers are
    ground-up columns (terrain extrusions, models standing on the ground or on terrain), so a
    higher point sees everything a lower one at the same place sees: nothing of the target is
    visible when no top sample is, and the target is fully visible when every bottom sample is.
    tally[k] counts lines blocked by k (their first blocker), the same counts as testing each
    line: the lines that the first piece that may block them certainly blocks (_settled: a
    tall piece that shuts an observer point off from the whole target, or from part of it)
    are counted for it untested.
    """
    soa = prepare_pieces(tcand, bboxes, heights)
    mask = np.empty(tcand.shape[0], dtype=np.bool_)
    flags = edge_flags(edge_start)
    npieces = heights.shape[0]
    n = obs.shape[0]
    piece = np.empty(n, dtype=np.int64)
    kind = np.empty(n, dtype=np.int64)
    shade = np.empty((n, 5))
    _settled(obs, top, bottom, tcand, soa, heights, edges, edge_start, piece, kind, shade)
    # Each observer point tests only the models near its lines to the target (_near_models).
    cx, cy = top[0, 0], top[0, 1]
    rad = 0.0
    for pts in (top, bottom):
        for j in range(pts.shape[0]):
            rad = max(rad, math.hypot(pts[j, 0] - cx, pts[j, 1] - cy))
    near = np.empty((n, mcand.shape[0]), dtype=np.int64)
    nnear = np.full(n, -1, dtype=np.int64)
    seen_any = False
    for j in range(top.shape[0]):
        if _fan_settled(obs, piece, kind, shade, top[j, 0], top[j, 1], top[j, 2], tcand, soa,
                        mask, flags, edges, edge_start, mcand, npieces, mx, my, mc, ms, ma, mb,
                        mshape, mzlo, mzhi, mreach, tally, near, nnear, cx, cy, rad) >= 0:
            seen_any = True
            break
    if not seen_any:
        return NONE
    for j in range(bottom.shape[0]):
        if _fan_settled(obs, piece, kind, shade, bottom[j, 0], bottom[j, 1], bottom[j, 2],
                        tcand, soa, mask, flags, edges, edge_start, mcand, npieces, mx, my, mc, ms,
                        ma, mb, mshape, mzlo, mzhi, mreach, tally, near, nnear, cx, cy,
                        rad) < 0:
            return PARTIAL
    return FULL
