"""The all-pairs sight kernel gives, for every pair of points, the answer of the per-line kernel
(sight.kernel.lines_blocked, terrain only): the counts per point, the counts per observer group, the
rows decided anew; rows done in parts; its cache gives back the same answers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from battlefield.geometry.sight import grid as sg
from battlefield.geometry.sight.kernel import lines_blocked
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
    return result.rows(np.arange(len(result)))


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
        n = len(pts)
        groups = [np.arange(0, n, 3), np.arange(n // 2, n), rng.choice(n, 20, replace=False)]
        result = sg.all_pairs(layout, pts, cache=False, groups=groups)
        want = _per_line(layout, pts)
        assert np.array_equal(_pairs(result), want)
        assert np.array_equal(result.counts, want.sum(axis=1))
        for g in groups:
            # Counted on the way, and decided anew for a group it did not count.
            assert np.array_equal(result.seen_by(g), want[g].sum(axis=0))
            assert np.array_equal(result.seen_by(g[:-1]), want[g[:-1]].sum(axis=0))


def test_rows_done_in_parts_add_up_to_the_whole_and_progress_is_told():
    """The counters are added to, never replaced: rows done in two calls give the one-call
    counts. A progress callback hears the pairs done, ending with all of them."""
    rng = np.random.default_rng(4)
    layout = _layout(rng)
    gx, gy = np.meshgrid(np.arange(0.5, 30, 1.0), np.arange(0.5, 20, 1.0))
    pts = np.column_stack([gx.ravel(), gy.ravel(), np.full(gx.size, 1.25)])
    n = len(pts)
    zone = np.arange(60)
    steps: list[tuple[int, int]] = []
    whole = sg.all_pairs(layout, pts, cache=False, groups=[zone],
                         progress=lambda done, total: steps.append((done, total)))
    assert steps[-1] == (sg.pairs(n), sg.pairs(n))
    assert [d for d, _ in steps] == sorted(d for d, _ in steps)
    tcand = sg.candidates(layout, 1.25)
    blind = sg.blind_points(pts, tcand, layout.bboxes, layout.heights, layout.edges,
                            layout.edge_start)
    member = np.zeros(n, dtype=np.int64)
    member[zone] = 1
    tally = np.zeros((3, n), dtype=np.int32)
    by = np.zeros((3, 1, n), dtype=np.int32)
    done = np.zeros(3, dtype=np.int64)
    for start, stop in ((0, n // 3), (n // 3, n)):
        sg.grid_sight_rows(pts, tcand, layout.bboxes, layout.heights, layout.edges,
                           layout.edge_start, blind, member, start, stop, sg.BINS, tally, by,
                           done)
    assert done.sum() == sg.pairs(n)
    assert np.array_equal(tally.sum(axis=0), whole.counts)
    assert np.array_equal(by.sum(axis=0), whole.group_counts)


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
    first = sg.all_pairs(layout, pts, groups=[np.arange(10)])
    assert len(list(tmp_path.glob("sight-*.npz"))) == 1
    assert sg.all_pairs(layout, pts, groups=[np.arange(10)]) is first          # from memory
    sg._MEMORY.clear()
    again = sg.all_pairs(layout, pts, groups=[np.arange(10)])                  # from disk
    assert again is not first
    assert np.array_equal(again.counts, first.counts)
    assert np.array_equal(again.group_counts, first.group_counts)
    assert again.seen_by(np.arange(10)).tolist() == first.seen_by(np.arange(10)).tolist()
    sg.all_pairs(layout, pts, groups=[np.arange(11)])            # other groups: anew
    assert len(list(tmp_path.glob("sight-*.npz"))) == 2
    moved = pts + [0.0, 0.0, 0.5]                                 # other points: computed anew
    sg.all_pairs(layout, moved)
    assert len(list(tmp_path.glob("sight-*.npz"))) == 3
    monkeypatch.setenv("BATTLEFIELD_CACHE", "off")
    assert sg.cache_dir() is None
