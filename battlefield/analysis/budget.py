"""What a board's sight map will cost, told before it starts: cells, sight lines, seconds and
memory; whether that is within the budget `battlefield analyze` keeps to unless forced; and the
finest grid that is.

The figures are estimates from the grid alone (every cell counted as standing), with rates
measured on this project's 2-core benchmark machine and rounded down: the time grows with the
square of the cells (every pair of cells is a sight line, decided once for both directions),
the memory with the cells (per-cell counters, points and pictures; the pairs are never kept).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba

from battlefield.analysis.coverage import Grid

BUDGET_SECONDS = 600.0          # ten minutes
BUDGET_MB = 2048.0
# Pairs of cells decided per second by one thread. The benchmark boards (30 pieces on 60"x44",
# 120 on 120"x88") decide 10-20 million; cluttered boards fewer.
PAIRS_PER_SECOND = 6e6
BASE_MB = 350.0                 # Python with numpy, numba's kernels, shapely and pygame loaded
BYTES_PER_CELL = 600            # grid, points, counters per thread and group, pictures
# The finest grid analyze takes: a quarter of a millimetre, finer than anything a base or a
# piece of terrain is measured in (a finer one's cells do not fit in a number).
FINEST = 0.01
# Grid spacings offered when the asked one does not fit, finest first.
NICE = (0.05, 0.1, 0.2, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0,
        12.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 60.0, 80.0, 100.0, 150.0, 200.0, 250.0,
        500.0, 1000.0)


def threads() -> int:
    """The threads the sight kernel runs on."""
    return max(1, numba.get_num_threads())


@dataclass(frozen=True)
class Estimate:
    """The cost of the sight maps of `boards` boards of width x depth on a grid of `spacing`."""

    width: float
    depth: float
    spacing: float
    cells: int
    lines: int                  # ordered sight lines: cells x (cells - 1), per board
    seconds: float
    megabytes: float
    boards: int = 1

    def within(self, seconds: float | None = None, megabytes: float | None = None) -> bool:
        """Whether the cost is within the budget (default: BUDGET_SECONDS and BUDGET_MB)."""
        return (self.seconds <= (BUDGET_SECONDS if seconds is None else seconds)
                and self.megabytes <= (BUDGET_MB if megabytes is None else megabytes))

    def text(self) -> str:
        """'10,560 cells and 111,503,040 sight lines: about 5 s and 356 MB'."""
        per = " a board" if self.boards > 1 else ""
        return (f"{self.cells:,} cells and {self.lines:,} sight lines{per}: about "
                f"{duration(self.seconds)} and {size(self.megabytes)}")


def estimate(width: float, depth: float, spacing: float, boards: int = 1,
             workers: int | None = None) -> Estimate:
    """The cost of the sight map of a width x depth board (or of `boards` such boards, one after
    the other) on a grid of `spacing` inches, computed on `workers` threads."""
    grid = Grid.over(width, depth, spacing)
    n = grid.nx * grid.ny                         # len() stops at the largest index
    pairs = n * (n - 1) // 2
    rate = PAIRS_PER_SECOND * (workers or threads())
    return Estimate(width, depth, spacing, n, 2 * pairs, boards * pairs / rate,
                    BASE_MB + n * BYTES_PER_CELL / 2**20, boards)


def fitting_grid(width: float, depth: float, spacing: float, boards: int = 1,
                 seconds: float | None = None, megabytes: float | None = None,
                 workers: int | None = None) -> float:
    """The finest grid, no finer than `spacing`, whose sight map fits the budget: one of NICE
    when one fits, else a grid of one cell."""
    for s in NICE:
        if s >= spacing and estimate(width, depth, s, boards, workers).within(seconds,
                                                                               megabytes):
            return s
    return float(math.ceil(max(width, depth)))


def refusal(e: Estimate, fits: float) -> str:
    """The one line `analyze` says when the estimate is over the budget."""
    seconds, megabytes = BUDGET_SECONDS, BUDGET_MB
    return (f"a {e.spacing:g}\" grid on a {e.width:g}\" x {e.depth:g}\" board is {e.text()}, "
            f"over the budget of {duration(seconds)} and {size(megabytes)}; --grid {fits:g} "
            f"fits (or add --force to run it anyway)")


def duration(seconds: float) -> str:
    """3 s, 4 min, 2.5 h, 12 days, 3,000 years."""
    if seconds < 90:
        return f"{max(seconds, 1):.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    if seconds < 2 * 365 * 86400:
        return f"{seconds / 86400:,.0f} days"
    return f"{seconds / (365 * 86400):,.0f} years"


def size(megabytes: float) -> str:
    return f"{megabytes:,.0f} MB" if megabytes < 1024 else f"{megabytes / 1024:,.1f} GB"
