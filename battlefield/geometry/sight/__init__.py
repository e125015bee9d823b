"""Line of sight: one subsystem in five modules, each importing only public names of the others.

    models.py   Sight / SightModel: what a model or unit sees of another (full, partial,
                none, and what blocks), the sample points of a model's volume. Plain Python
                and numpy over a Table; every line test is compiled code from the modules below.
    units.py    groups_see: does any point of one unit see any point of another, with the
                lines tall terrain certainly blocks set aside first (piece_cuts).
    shadow.py   point_visibility: how much of one target a group of points sees, with the
                tally of what blocks the rest.
    grid.py     sight between every pair of points of a grid, on all threads (map analysis),
                with its cache on disk.
    kernel.py   THE KERNEL: the compiled (numba) per-line test every module above builds on -
                a segment against terrain outlines (point_inside, edges_block,
                terrain_blocks) and model volumes (model_blocks), the per-line filter
                (piece_mask, ends_inside) and the loops over many lines (lines_blocked,
                fan_to, any_line_clear).

Import direction inside the package: models -> units, shadow -> kernel; grid -> kernel. Every
numba function is compiled with cache=True; its cached copy sits in this package's
__pycache__ (tests/conftest.py looks there to see whether tests/warm.py has run).
"""

from battlefield.geometry.sight.grid import (
    MAX_GROUPS,
    GridSight,
    Progress,
    all_pairs,
    ground_heights,
)
from battlefield.geometry.sight.kernel import (
    CLEAR,
    any_line_clear,
    first_blocker,
    lines_blocked,
)
from battlefield.geometry.sight.models import STATUS, Sight, SightModel, surface_points
from battlefield.geometry.sight.shadow import FULL, NONE, PARTIAL

__all__ = [
    "CLEAR", "FULL", "MAX_GROUPS", "NONE", "PARTIAL", "STATUS",
    "GridSight", "Progress", "Sight", "SightModel",
    "all_pairs", "any_line_clear", "first_blocker", "ground_heights", "lines_blocked",
    "surface_points",
]
