"""Terrain pieces and the prepared terrain layout the sight kernel and movement code query.

A piece is an outline polygon extruded to its height, with a kind from RULES-NOTES. The layout
keeps the pieces once as shapely polygons (with an STRtree) and once as flat numpy arrays (edges,
bounding boxes, heights) for the compiled sight-line kernel.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

import numpy as np
import shapely

T = TypeVar("T")

KINDS = ("solid", "obstacle", "area", "obscuring", "impassable", "place-of-power")
DEFAULT_KIND = "solid"
# Kinds a model can stand on top of when its base is wholly on the outline. Area terrain (woods,
# rubble fields) is walked through at ground level; impassable terrain cannot be entered at all.
STANDABLE = frozenset({"solid", "obstacle", "obscuring", "place-of-power"})
# What each kind does in aos4 terms (RULES-NOTES): cover, obscuring, unstable, impassable.
KIND_TRAITS = {
    "solid": frozenset(),
    "obstacle": frozenset({"cover", "unstable"}),
    "area": frozenset({"cover"}),
    "obscuring": frozenset({"cover", "obscuring", "unstable"}),
    "impassable": frozenset({"impassable"}),
    "place-of-power": frozenset({"place-of-power"}),
}


def normalise_kind(kind: str) -> str:
    """'Place of Power', 'place_of_power' and 'place-of-power' all name the same kind."""
    return kind.strip().lower().replace("_", "-").replace(" ", "-")


@dataclass(frozen=True)
class Piece:
    """One terrain piece: id, outline (x, y) points in inches, height in inches, kind."""

    id: str
    outline: tuple[tuple[float, float], ...]
    height: float
    kind: str = DEFAULT_KIND
    fixed: bool = field(default=False, compare=False)   # layout generate keeps it in place
    side: str = field(default="", compare=False)        # a side's own piece (faction terrain)
    reserve: bool = field(default=False, compare=False)  # not set up yet (its outline: a shape)

    @cached_property
    def polygon(self) -> shapely.Polygon:
        return shapely.Polygon(self.outline)

    @property
    def traits(self) -> frozenset[str]:
        return KIND_TRAITS[self.kind]


@dataclass
class Layout:
    """A prepared set of terrain pieces: polygons + STRtree, and flat arrays for the kernel."""

    pieces: tuple[Piece, ...]
    polygons: np.ndarray = field(init=False)
    tree: shapely.STRtree = field(init=False)
    heights: np.ndarray = field(init=False)
    bboxes: np.ndarray = field(init=False)
    edges: np.ndarray = field(init=False)
    edge_start: np.ndarray = field(init=False)
    _with: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False,
                                              default_factory=dict)
    _memo: dict = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.pieces = tuple(self.pieces)
        self.polygons = np.array([p.polygon for p in self.pieces], dtype=object)
        for poly in self.polygons:
            shapely.prepare(poly)
        self.tree = shapely.STRtree(self.polygons)
        self.heights = np.array([p.height for p in self.pieces], dtype=np.float64)
        self.bboxes = (shapely.bounds(self.polygons).astype(np.float64) if len(self.pieces)
                       else np.zeros((0, 4)))
        self.edges, self.edge_start = ring_edges(self.polygons)

    def __len__(self) -> int:
        return len(self.pieces)

    def memo(self, key: Hashable, make: Callable[[], T]) -> T:
        """`make()`, made once for this layout and `key`: for what derives from the terrain
        alone (what a mover climbs, say), kept for every table of the game."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def index(self, piece_id: str) -> int:
        for i, p in enumerate(self.pieces):
            if p.id == piece_id:
                return i
        raise KeyError(piece_id)

    def ground_height(self, footprint: shapely.Geometry) -> float:
        """Height a base stands at: the top of the tallest standable piece it is wholly on."""
        best = 0.0
        for i in self.tree.query(footprint, predicate="within"):
            piece = self.pieces[i]
            if piece.kind in STANDABLE and piece.height > best:
                best = piece.height
        return best

    def pieces_touching(self, geometry: shapely.Geometry) -> list[int]:
        """Indices of pieces whose outline intersects the geometry."""
        return sorted(int(i) for i in self.tree.query(geometry, predicate="intersects"))

    def pieces_with(self, trait: str) -> list[int]:
        found = self._with.get(trait)
        if found is None:
            found = self._with[trait] = tuple(i for i, p in enumerate(self.pieces)
                                              if trait in p.traits)
        return list(found)


def ring_edges(polygons) -> tuple[np.ndarray, np.ndarray]:
    """The edges (x0, y0, x1, y1) of every ring of each polygon, polygon after polygon, and
    where each polygon's start: the crossing number over all of a polygon's rings puts a point
    inside a hole outside."""
    edges, start = [], [0]
    for poly in polygons:
        rings = [poly.exterior, *poly.interiors]
        for ring in rings:
            pts = np.asarray(ring.coords)
            edges.append(np.column_stack([pts[:-1], pts[1:]]))
        start.append(start[-1] + sum(len(r.coords) - 1 for r in rings))
    return (np.concatenate(edges) if edges else np.zeros((0, 4)),
            np.array(start, dtype=np.int64))

