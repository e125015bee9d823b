"""A candidate table: placements of catalogue pieces on a 0.5" lattice with 15-degree turns,
twinned by the table's symmetry, and the constraints every candidate keeps.

A placement is (type, ix, iy, turn): the piece's origin at (ix / 2, iy / 2) inches, turned
turn * 15 degrees counter-clockwise. With half-turn or mirror symmetry each placement puts two
pieces on the table, the second its image under the symmetry, so a candidate is symmetric by
construction; with none, one. Constraints: every outline inside the board, off every objective
marker, and at least `gap` (the ruleset's largest base) from every other piece, fixed ones
included. Reachability is the figures' business (figures.py): it needs the march.

Rotations use exact sines and cosines of multiples of 15 degrees (built from square roots,
which IEEE 754 rounds the same everywhere), so an outline is the same bits on any machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import shapely

from battlefield.geometry import MM_PER_INCH
from battlefield.geometry.terrain import Piece
from battlefield.layout.catalogue import Catalogue, PieceType
from battlefield.rulesets import load_ruleset
from battlefield.scene.load import load_scene
from battlefield.scene.model import Scene

LATTICE = 0.5                    # inches between lattice points
TURNS = 24                       # 15-degree steps in a full turn
SYMMETRIES = ("half-turn", "mirror", "none")
MIN_MARKER = 0.5                 # inches kept clear of an objective's centre at least
_R6, _R2, _R3 = math.sqrt(6.0), math.sqrt(2.0), math.sqrt(3.0)
# cos of 0, 15, ..., 90 degrees, exactly as IEEE rounds these expressions.
_COS_Q = (1.0, (_R6 + _R2) / 4, _R3 / 2, _R2 / 2, 0.5, (_R6 - _R2) / 4, 0.0)


def turn_cos_sin(turn: int) -> tuple[float, float]:
    """cos and sin of turn * 15 degrees from the exact quarter-turn table."""
    t = turn % TURNS
    quarter, k = divmod(t, 6)
    c, s = _COS_Q[k], _COS_Q[6 - k]
    for _ in range(quarter):
        c, s = -s, c
    return c, s


Placement = tuple[int, int, int, int]          # (type, ix, iy, turn)


@dataclass
class Setting:
    """Everything fixed while a table is searched: the board, objectives, zones and fixed
    terrain of the base map, the catalogue, the symmetry and the gaps."""

    scene: Scene                                 # the base: board, zones, objectives, ruleset
    catalogue: Catalogue
    symmetry: str
    gap: float                                   # inches between two pieces
    marker: float                                # inches from an objective's centre
    fixed: tuple[Piece, ...]
    mirror_axis: str = "y"                       # mirror: across y = depth/2 or x = width/2
    _shapes: dict = field(default_factory=dict, repr=False)

    @property
    def width(self) -> float:
        return self.scene.width

    @property
    def depth(self) -> float:
        return self.scene.depth

    @property
    def copies(self) -> int:
        """Pieces one placement puts on the table."""
        return 1 if self.symmetry == "none" else 2

    def placements_allowed(self, t: int) -> tuple[int, int]:
        """The fewest and most placements of type t (its min/max counted in pieces)."""
        pt = self.catalogue.types[t]
        return -(-pt.min // self.copies), pt.max // self.copies

    def twin(self, pts: np.ndarray) -> np.ndarray:
        """Points under the table's symmetry."""
        out = pts.copy()
        if self.symmetry == "half-turn":
            out[:, 0] = self.width - pts[:, 0]
            out[:, 1] = self.depth - pts[:, 1]
        elif self.mirror_axis == "y":
            out[:, 1] = self.depth - pts[:, 1]
            out = out[::-1].copy()               # keep the ring's turning direction
        else:
            out[:, 0] = self.width - pts[:, 0]
            out = out[::-1].copy()
        return out

    def outlines(self, p: Placement) -> list[np.ndarray]:
        """The outlines one placement puts on the table (itself, then its twin)."""
        return self.shapes(p)[0]

    def shapes(self, p: Placement) -> tuple[list[np.ndarray], list[shapely.Polygon]]:
        hit = self._shapes.get(p)
        if hit is None:
            t, ix, iy, turn = p
            c, s = turn_cos_sin(turn)
            local = self.catalogue.types[t].points
            pts = np.column_stack([local[:, 0] * c - local[:, 1] * s + ix * LATTICE,
                                   local[:, 0] * s + local[:, 1] * c + iy * LATTICE])
            pts = np.round(pts, 3) + 0.0          # as the map file writes them (no -0.0)
            outs = [pts] if self.symmetry == "none" else [pts, np.round(self.twin(pts), 3) + 0.0]
            hit = self._shapes[p] = (outs, [shapely.Polygon(o) for o in outs])
        return hit

    # --- constraints -----------------------------------------------------------------------
    def fits_alone(self, p: Placement) -> bool:
        """Inside the board, off the objectives, clear of the fixed pieces and of its twin."""
        outs, polys = self.shapes(p)
        for o in outs:
            if (o[:, 0].min() < -1e-9 or o[:, 1].min() < -1e-9
                    or o[:, 0].max() > self.width + 1e-9 or o[:, 1].max() > self.depth + 1e-9):
                return False
        if self.scene.objectives:
            pts = shapely.points([(ob.x, ob.y) for ob in self.scene.objectives])
            for poly in polys:
                if shapely.distance(poly, pts).min() < self.marker:
                    return False
        if len(polys) == 2 and shapely.distance(polys[0], polys[1]) < self.gap:
            return False
        if self.fixed:
            fixed = [f.polygon for f in self.fixed]
            for poly in polys:
                if shapely.distance(poly, fixed).min() < self.gap:
                    return False
        return True

    def clear_of(self, p: Placement, others: list[Placement]) -> bool:
        """At least the gap from every piece of the other placements."""
        if not others:
            return True
        mine = self.shapes(p)[1]
        theirs = [poly for q in others for poly in self.shapes(q)[1]]
        d = shapely.distance(np.array(mine, dtype=object)[:, None],
                             np.array(theirs, dtype=object)[None, :])
        return bool(d.min() >= self.gap)

    def feasible(self, placements: tuple[Placement, ...]) -> bool:
        """Every constraint but reachability, for a whole candidate."""
        return all(self.fits_alone(p) and self.clear_of(p, list(placements[i + 1:]))
                   for i, p in enumerate(placements))

    # --- the pieces of a candidate ---------------------------------------------------------
    def pieces(self, placements: tuple[Placement, ...]) -> list[Piece]:
        """The fixed pieces, then the candidate's, with ids TYPE-N in a canonical order."""
        out = list(self.fixed)
        used = {f.id for f in self.fixed}
        count: dict[int, int] = {}
        for p in sorted(placements):
            pt: PieceType = self.catalogue.types[p[0]]
            for o in self.outlines(p):
                n = count.get(p[0], 0) + 1
                count[p[0]] = n
                pid = f"{pt.id}-{n}"
                while pid in used:
                    pid += "x"
                used.add(pid)
                out.append(Piece(pid, tuple((float(x), float(y)) for x, y in o), pt.height,
                                 pt.kind))
        return out


def largest_base(ruleset: str) -> float:
    """The longest side of the largest base in the ruleset's demo battle, in inches (1.26", a
    32 mm base, when there is none to look at)."""
    rs = load_ruleset(ruleset)
    path = rs.demo_path
    best = 32.0 / MM_PER_INCH
    if path is None:
        return best
    for u in load_scene(path).units:
        for m in u.models:
            best = max(best, 2 * m.base.a, 2 * m.base.b)
    return round(best, 3)


def mirror_axis(scene: Scene) -> str:
    """The mirror that swaps the deployment zones: across y = depth/2 (zones at the near and far
    edges) or x = width/2 (zones at the left and right)."""
    zones = list(scene.deployment.values())
    if len(zones) == 2:
        a = np.asarray(zones[0], dtype=np.float64)
        b = shapely.Polygon(zones[1])
        flip_x = a.copy()
        flip_x[:, 0] = scene.width - a[:, 0]
        flip_y = a.copy()
        flip_y[:, 1] = scene.depth - a[:, 1]
        dx = shapely.hausdorff_distance(shapely.Polygon(flip_x), b)
        dy = shapely.hausdorff_distance(shapely.Polygon(flip_y), b)
        if dx < dy:
            return "x"
    return "y"


def marker_radius(scene: Scene) -> float:
    """How far a piece keeps from an objective's centre: the marker's radius, at least 0.5"."""
    return max(scene.ruleset.objectives.marker_mm / MM_PER_INCH / 2, MIN_MARKER)
