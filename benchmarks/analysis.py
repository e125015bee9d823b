"""Map-analysis figures for benchmarks/run.py.

- heatmap_05_s: wall time of the all-cells sight map (battlefield analyze's heat map) of the
  benchmark board (60"x44", 30 terrain pieces; benchmarks/scene.py) on the 0.5" grid: 120 x 88 =
  10,560 cells, every ordered pair of cells a sight line (111 million), for a 1.25" model;
  best of several runs, the per-layout cache off, after numba has compiled. Target <= 5 s on
  the 2-core machine (both cores used). heatmap_05_cached_s: the same map asked again (the
  per-layout cache). Quick mode: the 2" grid, one run (heatmap_05_grid says which grid).
- Reference: the per-line kernel (sight.kernel.lines_blocked, every piece a candidate) on every
  line from a sample of cells (every 50th) to every cell must give the same answers
  (heatmap_checked_lines of them); the run fails loudly on a difference.
"""

from __future__ import annotations

import os
import time

import numba
import numpy as np

from battlefield.analysis.coverage import coverage
from battlefield.geometry.sight import lines_blocked
from battlefield.scene.model import Scene
from benchmarks.scene import make_scene

TARGET_S = 5.0
HEIGHT = 1.25


def _reference(layout, points: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """(len(rows), n) sight of each sampled point to every point, line by line."""
    n = len(points)
    z, zi = np.zeros(0), np.zeros(0, dtype=np.int64)
    tc = np.arange(len(layout), dtype=np.int64)
    out = np.zeros((len(rows), n), dtype=bool)
    for r, i in enumerate(rows):
        # Each pair from its lower-numbered point, as the grid kernel tests it.
        lo = np.minimum(i, np.arange(n))
        hi = np.maximum(i, np.arange(n))
        blocked = lines_blocked(np.ascontiguousarray(points[lo]), np.ascontiguousarray(points[hi]),
                                tc, layout.bboxes, layout.heights, layout.edges,
                                layout.edge_start, zi, z, z, z, z, z, z, zi, z, z, z)
        out[r] = blocked < 0
        out[r, i] = False
    return out


def bench_heatmap(quick: bool = False, scene: Scene | None = None) -> dict:
    scene = scene if scene is not None else make_scene(1)
    layout = scene.layout
    spacing = 2.0 if quick else 0.5
    saved = os.environ.get("BATTLEFIELD_CACHE")
    os.environ["BATTLEFIELD_CACHE"] = "off"          # memory cache only; nothing on disk
    try:
        coverage(layout, scene.width, scene.depth, 6.0, HEIGHT, cache=False)   # compile
        times = []
        for _ in range(1 if quick else 3):
            t0 = time.perf_counter()
            cov = coverage(layout, scene.width, scene.depth, spacing, HEIGHT, cache=False)
            times.append(time.perf_counter() - t0)
        coverage(layout, scene.width, scene.depth, spacing, HEIGHT, cache=True)
        t0 = time.perf_counter()
        again = coverage(layout, scene.width, scene.depth, spacing, HEIGHT, cache=True)
        cached = time.perf_counter() - t0
    finally:
        if saved is None:
            os.environ.pop("BATTLEFIELD_CACHE", None)
        else:
            os.environ["BATTLEFIELD_CACHE"] = saved
    assert np.array_equal(again.sight.counts, cov.sight.counts)
    n = len(cov)
    rows = np.arange(0, n, 50 if not quick else 7)
    ref = _reference(layout, cov.points, rows)
    fast = _rows(cov, rows)
    wrong = int((ref != fast).sum())
    if wrong:
        raise AssertionError(f"heat map: {wrong} of {ref.size} sampled lines differ from "
                             "the per-line kernel")
    if not np.array_equal(ref.sum(axis=1), cov.sight.counts[rows]):
        raise AssertionError("heat map: a cell's count differs from its sight lines")
    best = min(times)
    return {"heatmap_05_s": round(best, 3),
            "heatmap_05_grid": spacing,
            "heatmap_05_cells": n,
            "heatmap_05_lines": n * (n - 1),
            "heatmap_05_lines_per_s": round(n * (n - 1) / best),
            "heatmap_05_threads": numba.get_num_threads(),
            "heatmap_05_cached_s": round(cached, 4),
            "heatmap_05_visible_fraction": round(cov.visible_fraction, 4),
            "heatmap_checked_lines": int(ref.size),
            "heatmap_target_s": TARGET_S}


def _rows(cov, rows: np.ndarray) -> np.ndarray:
    """The grid kernel's answers for the sampled rows (sight.grid decides them as the all-pairs
    pass does: each pair from its lower-numbered point)."""
    return cov.sight.rows(rows)
