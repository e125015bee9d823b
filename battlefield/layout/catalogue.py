"""The piece catalogue: the terrain pieces a generated table is made of. Each entry is an
outline about its own origin (the point the lattice places), a height, a kind in the ruleset's
terms (geometry.terrain.KINDS) and how many of it the table holds at least and at most.

rulesets/NAME/pieces.yaml (declared in ruleset.yaml `layout: {pieces: ...}`) is the default;
`layout generate --pieces FILE` reads another. Unknown keys are an error naming the valid ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import shapely

from battlefield.errors import InputError
from battlefield.geometry.terrain import KINDS, normalise_kind
from battlefield.yamlsource import Reader

PIECE_KEYS = ["id", "outline", "height", "kind", "min", "max"]


@dataclass(frozen=True)
class PieceType:
    """One entry of the catalogue: outline (n, 2) about the origin, in inches."""

    id: str
    outline: tuple[tuple[float, float], ...]
    height: float
    kind: str
    min: int
    max: int

    @property
    def points(self) -> np.ndarray:
        return np.asarray(self.outline, dtype=np.float64)

    @property
    def radius(self) -> float:
        """How far the outline reaches from its origin."""
        return float(np.hypot(*self.points.T).max())


@dataclass(frozen=True)
class Catalogue:
    file: str
    types: tuple[PieceType, ...]

    def __len__(self) -> int:
        return len(self.types)


def load_catalogue(file: str | Path) -> Catalogue:
    """Read and check a catalogue file: `pieces: [{id, outline, height, kind, min, max}, ...]`
    (or the list alone). kind defaults to solid, min to 0, max to min or 2."""
    path = Path(file)
    if not path.is_file():
        raise InputError(str(file), "", None, "no such piece catalogue",
                         "a YAML file of pieces: [{id, outline, height, kind, min, max}]")
    r = Reader.open(path)
    if isinstance(r.data, list):                 # a bare list of pieces is the catalogue too
        items, where = r.data, ()
    else:
        top = r.mapping((), r.data, ["pieces"], ["description"])
        items, where = top["pieces"], ("pieces",)
    types, ids = [], set()
    for i, item in enumerate(r.sequence(where, items, 1)):
        p = (*where, i)
        d = r.mapping(p, item, ["id", "outline", "height"], ["kind", "min", "max"])
        pid = r.string((*p, "id"), d["id"])
        if pid in ids:
            raise r.error((*p, "id"), f"duplicate piece id '{pid}'", "a unique id")
        ids.add(pid)
        pts = r.sequence((*p, "outline"), d["outline"], 3, "at least 3 [x, y] points")
        outline = tuple(r.point((*p, "outline", k), q) for k, q in enumerate(pts))
        poly = shapely.Polygon(outline)
        if not poly.is_valid or poly.area <= 1e-9:
            raise r.error((*p, "outline"), "the outline is not a simple polygon",
                          "points in order around the piece, edges not crossing")
        kind = normalise_kind(r.string((*p, "kind"), d.get("kind", "solid")))
        if kind not in KINDS:
            raise r.error((*p, "kind"), f"unknown terrain kind '{d['kind']}'",
                          "one of " + ", ".join(KINDS))
        low = r.number((*p, "min"), d.get("min", 0), 0, integer=True)
        high = r.number((*p, "max"), d.get("max", max(low, 2)), 0, integer=True)
        if high < low:
            raise r.error((*p, "max"), f"is {high}, less than min {low}", f"at least {low}")
        types.append(PieceType(pid, outline, r.number((*p, "height"), d["height"], 0,
                                                      strict_min=True), kind, low, high))
    return Catalogue(str(path), tuple(types))
