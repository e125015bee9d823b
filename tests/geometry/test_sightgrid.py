"""The all-pairs sight kernel gives, for every pair of points, the answer of the per-line kernel
(sightline.lines_blocked, terrain only); its cache gives back the same answers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from battlefield.geometry import sightgrid as sg
from battlefield.geometry.sightline import lines_blocked
from battlefield.geometry.terrain import Layout, Piece


def _layout(rng: np.random.Generator, n: int = 12) -> Layout:
    pieces = []
    kinds = ["solid", "obscuring", "area", "obstacle"]
    for k in range(n):
        cx, cy = rng.uniform(2, 28), rng.uniform(2, 18)
        sides = int(rng.integers(3, 8))
        ang = np.sort(rng.uniform(0, 2 * math.pi, sides))
        r = rng.uniform(0.5, 3.0) * rng.uniform(0.5, 1.0, sides)
        pts = tuple((float(cx + a * math.cos(t)), float(cy + a * math.sin(t)))
                    for a, t in zip(r, ang, strict=True))
        pieces.append(Piece(f"p{k}", pts, float(rng.uniform(0.5, 5.0)),
                            kinds[int(rng.integers(len(kinds)))]))
    # An L-shape whose box holds points outside it.
    pieces.append(Piece("ell", ((20, 2), (26, 2), (26, 3), (21, 3), (21, 8), (20, 8)), 4.0))
    return Layout(tuple(p for p in pieces if p.polygon.is_valid))


def _per_line(layout: Layout, pts: np.ndarray) -> np.ndarray:
    n = len(pts)
    ii, jj = np.triu_indices(n, 1)
    z, zi = np.zeros(0), np.zeros(0, dtype=np.int64)
    blocked = lines_blocked(np.ascontiguousarray(pts[ii]), np.ascontiguousarray(pts[jj]),
                            np.arange(len(layout), dtype=np.int64), layout.bboxes,
                            layout.heights, layout.edges, layout.edge_start, zi, z, z, z, z, z, z,
                            zi, z, z, z)
    seen = np.zeros((n, n), dtype=bool)
    seen[ii, jj] = blocked < 0
    return seen | seen.T


def _pairs(result: sg.GridSight) -> np.ndarray:
    n = len(result)
    return np.array([[i != j and result.sees(i, j) for j in range(n)] for i in range(n)])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_pair_as_the_per_line_kernel_says(seed):
    rng = np.random.default_rng(seed)
    layout = _layout(rng)
    # Points anywhere (inside pieces too) at any height, and a grid at one height.
    loose = np.column_stack([rng.uniform(0, 30, 150), rng.uniform(0, 20, 150),
                             rng.uniform(0.2, 6.0, 150)])
    gx, gy = np.meshgrid(np.arange(0.5, 30, 1.5), np.arange(0.5, 20, 1.5))
    grid = np.column_stack([gx.ravel(), gy.ravel(), np.full(gx.size, 1.25)])
    for pts in (loose, grid):
        result = sg.all_pairs(layout, pts, cache=False)
        want = _per_line(layout, pts)
        assert np.array_equal(_pairs(result), want)
        assert np.array_equal(result.counts, want.sum(axis=1))


def test_points_inside_a_piece_below_its_top_are_blind():
    layout = Layout((Piece("wood", ((0, 0), (4, 0), (4, 4), (0, 4)), 3.0, "area"),))
    pts = np.array([[2, 2, 1.0], [2, 2, 6.0], [10, 10, 1.0], [12, 10, 1.0]], dtype=float)
    r = sg.all_pairs(layout, pts, cache=False)
    assert r.blind.tolist() == [True, False, False, False]
    assert r.counts.tolist() == [0, 2, 2, 2]
    assert r.seen_by(np.array([2, 3])).tolist() == [0, 2, 1, 1]


def test_pseudo_angles_grow_with_the_angle():
    t = np.linspace(0, 2 * math.pi, 721)[:-1]
    a = [sg._pseudo_angle(math.cos(x), math.sin(x)) for x in t]
    assert a[0] == 0.0 and all(0 <= v < 4 for v in a)
    assert all(q > p for p, q in zip(a[:-1], a[1:], strict=True))


def test_the_cache_gives_back_the_same_answers(tmp_path, monkeypatch):
    monkeypatch.setenv("BATTLEFIELD_CACHE", str(tmp_path))
    layout = _layout(np.random.default_rng(7))
    gx, gy = np.meshgrid(np.arange(0.5, 30, 2.0), np.arange(0.5, 20, 2.0))
    pts = np.column_stack([gx.ravel(), gy.ravel(), np.full(gx.size, 1.25)])
    first = sg.all_pairs(layout, pts)
    assert len(list(tmp_path.glob("sight-*.npz"))) == 1
    assert sg.all_pairs(layout, pts) is first                     # from memory
    sg._MEMORY.clear()
    again = sg.all_pairs(layout, pts)                             # from disk
    assert again is not first
    assert np.array_equal(again.bits, first.bits) and np.array_equal(again.counts, first.counts)
    moved = pts + [0.0, 0.0, 0.5]                                 # other points: computed anew
    sg.all_pairs(layout, moved)
    assert len(list(tmp_path.glob("sight-*.npz"))) == 2
    monkeypatch.setenv("BATTLEFIELD_CACHE", "off")
    assert sg.cache_dir() is None
