"""The big-board sight map for benchmarks/run.py, run in a process of its own so that its peak
memory is its own: `python benchmarks/heatmap_big.py [--spacing 0.5]` prints JSON.

- heatmap_120x88_s: wall time of the all-cells sight map (battlefield analyze's heat map, with
  the two deployment zones counted as observers as analyze does) of a 120"x88" board - the
  benchmark board's 30 pieces laid four times, 2 x 2 (120 pieces) - on the 0.5" grid: 240 x 176
  = 42,240 cells, 1.78 billion sight lines, for a 1.25" model; one run, the cache off, after
  numba has compiled (or loaded) its kernels. Target <= 30 s on the 2-core machine.
  heatmap_120x88_cpu_s: the CPU time of the same (both cores' seconds added): on a machine
  shared with other work the wall time grows, this does not.
- heatmap_120x88_peak_mb: the peak resident memory (ru_maxrss) of that whole process - Python,
  numpy, numba's kernels, the board and the map - measured by the process itself at its end.
  Target <= 2048 MB. Before the counters it was the pairs: 42,240^2 bits, 223 MB on this board,
  growing with the square of the cells.
- Check: the counts equal the per-line kernel's answers on a sample of cells (every 500th).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from battlefield.analysis.coverage import coverage
from battlefield.geometry.terrain import Layout, Piece
from benchmarks.analysis import HEIGHT, _reference
from benchmarks.scene import DEPTH, WIDTH, make_terrain

TARGET_S = 30.0
TARGET_MB = 2048.0
TILES = 2                                   # the 60"x44" terrain laid 2 x 2


def big_layout() -> tuple[Layout, float, float, dict]:
    """The 120"x88" board's terrain and its two 12"-deep deployment zones."""
    base = make_terrain(np.random.default_rng(1))
    pieces = []
    for i in range(TILES):
        for j in range(TILES):
            dx, dy = i * WIDTH, j * DEPTH
            pieces += [Piece(f"{p.id}-{i}{j}", tuple((x + dx, y + dy) for x, y in p.outline),
                             p.height, p.kind) for p in base]
    w, d = TILES * WIDTH, TILES * DEPTH
    zones = {"red": [[0, 0], [w, 0], [w, 12], [0, 12]],
             "blue": [[0, d - 12], [w, d - 12], [w, d], [0, d]]}
    return Layout(tuple(pieces)), w, d, zones


def measure(spacing: float) -> dict:
    os.environ["BATTLEFIELD_CACHE"] = "off"
    layout, w, d, zones = big_layout()
    coverage(layout, w, d, 12.0, HEIGHT, cache=False, zones=zones)       # compile / load
    t0, c0 = time.perf_counter(), time.process_time()
    cov = coverage(layout, w, d, spacing, HEIGHT, cache=False, zones=zones)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    n = len(cov)
    rows = np.arange(0, n, 500)
    ref = _reference(layout, cov.points, rows)
    if not np.array_equal(ref.sum(axis=1), cov.sight.counts[rows]):
        raise AssertionError("big heat map: a cell's count differs from its sight lines")
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss         # kB on Linux
    return {"heatmap_120x88_s": round(seconds, 3),
            "heatmap_120x88_cpu_s": round(cpu, 3),
            "heatmap_120x88_peak_mb": round(peak_kb / 1024, 1),
            "heatmap_120x88_grid": spacing,
            "heatmap_120x88_cells": n,
            "heatmap_120x88_lines": n * (n - 1),
            "heatmap_120x88_pieces": len(layout),
            "heatmap_120x88_visible_fraction": round(cov.visible_fraction, 4),
            "heatmap_120x88_checked_cells": len(rows),
            "heatmap_120x88_memory": "peak RSS of the benchmark's own subprocess (ru_maxrss)",
            "heatmap_120x88_target_s": TARGET_S,
            "heatmap_120x88_target_mb": TARGET_MB}


def bench_heatmap_big(quick: bool = False) -> dict:
    """Runs this file in a fresh process (the peak memory is that process's alone)."""
    import subprocess

    spacing = 4.0 if quick else 0.5
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--spacing",
                          str(spacing)], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise AssertionError(f"heatmap_big.py failed:\n{out.stderr}")
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spacing", type=float, default=0.5)
    args = ap.parse_args(argv)
    print(json.dumps(measure(args.spacing)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
