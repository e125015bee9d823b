"""Model bases: round, oval and rectangular footprints, their sizes, default heights and outlines.

A base is stored as a shape code and two half-extents in inches: `a` along the model's facing and
`b` across it. Round: a == b == radius. Oval: a = half the long axis (along the facing), b = half
the short axis. Rectangle (`blocks`): a = half the depth (front edge faces along the facing),
b = half the frontage. All three are centrally symmetric convex shapes, which the distance code
relies on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import shapely

from battlefield.geometry import MM_PER_INCH

ROUND, OVAL, RECT = 0, 1, 2
SHAPE_NAMES = {ROUND: "round", OVAL: "oval", RECT: "rect"}

ROUND_SIZES_MM: tuple[float, ...] = (25, 28.5, 32, 40, 50, 60, 80, 90, 100, 130, 160)
OVAL_SIZES_MM: tuple[tuple[float, float], ...] = (
    (60, 35), (75, 42), (90, 52), (105, 70), (120, 92), (170, 105),
)


@dataclass(frozen=True)
class Base:
    """A base shape and size. `mm` keeps the size as written (diameter, or two sides)."""

    shape: int
    a: float
    b: float
    mm: tuple[float, ...]

    @classmethod
    def round(cls, diameter_mm: float) -> Base:
        r = diameter_mm / MM_PER_INCH / 2
        return cls(ROUND, r, r, (float(diameter_mm),))

    @classmethod
    def oval(cls, long_mm: float, short_mm: float) -> Base:
        return cls(OVAL, long_mm / MM_PER_INCH / 2, short_mm / MM_PER_INCH / 2,
                   (float(long_mm), float(short_mm)))

    @classmethod
    def rect(cls, frontage_mm: float, depth_mm: float) -> Base:
        return cls(RECT, depth_mm / MM_PER_INCH / 2, frontage_mm / MM_PER_INCH / 2,
                   (float(frontage_mm), float(depth_mm)))

    @property
    def label(self) -> str:
        if self.shape == ROUND:
            return f"{_fmt(self.mm[0])} mm"
        sep = "x" if self.shape == OVAL else " x "
        kind = "oval" if self.shape == OVAL else "rect"
        return f"{_fmt(self.mm[0])}{sep}{_fmt(self.mm[1])} mm {kind}"

    @property
    def reach(self) -> float:
        """Largest distance from the centre to any point of the base (inches)."""
        return math.hypot(self.a, self.b) if self.shape == RECT else max(self.a, self.b)

    def default_height(self) -> float:
        """Model height by base size (RULES-NOTES): <=32 mm 1.25", <=40 mm 1.5", <=60 mm and
        ovals up to 75 mm 2.5", larger 4"."""
        size = max(self.mm)
        if self.shape == ROUND:
            if size <= 32:
                return 1.25
            if size <= 40:
                return 1.5
            return 2.5 if size <= 60 else 4.0
        if self.shape == OVAL:
            return 2.5 if size <= 75 else 4.0
        # A block's height follows its smaller side, the size of one model in it.
        small = min(self.mm)
        if small <= 32:
            return 1.25
        if small <= 40:
            return 1.5
        return 2.5 if small <= 60 else 4.0


def _fmt(v: float) -> str:
    return f"{v:g}"


def outline_points(shape: int, a: float, b: float, x: float, y: float, facing_deg: float,
                   n: int = 64) -> np.ndarray:
    """Points around a base's edge, counter-clockwise, as an (n, 2) array (rect: its 4 corners)."""
    th = math.radians(facing_deg)
    c, s = math.cos(th), math.sin(th)
    rot = np.array([[c, -s], [s, c]])
    return _local_outline(int(shape), float(a), float(b), int(n)) @ rot.T + np.array([x, y])


def _local_outline_of(shape: int, a: float, b: float, n: int) -> np.ndarray:
    """outline_points of a base centred at the origin, facing 0 (kept: bases repeat)."""
    if shape == RECT:
        local = np.array([[a, -b], [a, b], [-a, b], [-a, -b]])
    else:
        t = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
        local = np.column_stack([a * np.cos(t), b * np.sin(t)])
    local.setflags(write=False)
    return local


# The caches of this module are applied as calls, not as decorators: mutmut, the project's
# mutation testing (benchmarks/mutation.py), leaves decorated functions unmutated.
_local_outline = lru_cache(maxsize=256)(_local_outline_of)


def footprint(shape: int, a: float, b: float, x: float, y: float, facing_deg: float,
              n: int = 256) -> shapely.Polygon:
    """The base as a polygon (ellipses as a fine n-gon circumscribing-free inscribed polygon).
    Kept for the last few thousand places asked: a model that did not move keeps its
    footprint from one table to the next (a Shapely polygon never changes)."""
    return _footprint(int(shape), float(a), float(b), float(x), float(y), float(facing_deg),
                      int(n))


def _footprint_of(shape: int, a: float, b: float, x: float, y: float, facing_deg: float,
                  n: int) -> shapely.Polygon:
    return shapely.Polygon(outline_points(shape, a, b, x, y, facing_deg, n))


_footprint = lru_cache(maxsize=4096)(_footprint_of)


def grown_outline(shape: int, a: float, b: float, x: float, y: float, facing_deg: float,
                  r: float, sides: int = 24) -> shapely.Polygon:
    """A polygon just enclosing the base grown by r (every point within r of the base): the
    tangent lines of the grown shape in `sides` directions, so it encloses it exactly, with at
    most rho * (1/cos(pi/sides) - 1) to spare, rho the grown shape's largest radius of
    curvature (R + r round, a^2/b + r oval); a rectangle whose sides do not face one of the
    directions leaves more off its flat sides (tests/geometry/test_bases.py)."""
    ux, uy, h, ux2, uy2, det = _tangents(int(shape), float(a), float(b), float(facing_deg),
                                         int(sides))
    d = ux * x + uy * y + h + r
    # Corner k: where tangent lines k and k+1 meet.
    d2 = np.roll(d, -1)
    px = (d * uy2 - uy * d2) / det
    py = (ux * d2 - d * ux2) / det
    return shapely.Polygon(np.column_stack([px, py]))


def _tangents_of(shape: int, a: float, b: float, facing_deg: float, sides: int
                 ) -> tuple[np.ndarray, ...]:
    """grown_outline's tangent directions and the base's extent along each (kept: they depend
    only on the base and its facing)."""
    th = math.radians(facing_deg)
    c, s = math.cos(th), math.sin(th)
    t = np.linspace(0.0, 2 * math.pi, sides, endpoint=False)
    ux, uy = np.cos(t), np.sin(t)
    u1 = ux * c + uy * s
    u2 = -ux * s + uy * c
    if shape == ROUND:
        h = np.full(sides, a)
    elif shape == OVAL:
        h = np.sqrt((a * u1) ** 2 + (b * u2) ** 2)
    else:
        h = a * np.abs(u1) + b * np.abs(u2)
    ux2, uy2 = np.roll(ux, -1), np.roll(uy, -1)
    det = ux * uy2 - uy * ux2
    out = (ux, uy, h, ux2, uy2, det)
    for arr in out:
        arr.setflags(write=False)
    return out


_tangents = lru_cache(maxsize=1024)(_tangents_of)
