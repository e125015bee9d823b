"""Edits of a scene's map as pure functions: each returns a new Scene (built with
dataclasses.replace) or a problem in words, and never changes the scene it was given.

Outlines are moved, turned and scaled here and rounded to the 3 decimals a map file keeps, so what
the editor shows is what it saves. Models that stand on terrain get their height above the
table again (as the loader derives it) whenever the terrain changes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace

import shapely

from battlefield.geometry.bases import RECT, outline_points
from battlefield.geometry.terrain import KINDS, Layout, Piece
from battlefield.scene.model import Objective, Scene

Point = tuple[float, float]
Outline = tuple[Point, ...]
DIGITS = 3
HEIGHT_STEP = 0.5
EDGE = 1e-6


def rounded(outline: Iterable[Iterable[float]]) -> Outline:
    """Points rounded to the map file's 3 decimals (and -0.0 made 0.0)."""
    return tuple((round(float(x), DIGITS) + 0.0, round(float(y), DIGITS) + 0.0)
                 for x, y in outline)


def centroid(outline: Outline) -> Point:
    c = shapely.Polygon(outline).centroid
    return (float(c.x), float(c.y))


def translated(outline: Outline, dx: float, dy: float) -> Outline:
    return rounded((x + dx, y + dy) for x, y in outline)


def rotated(outline: Outline, degrees: float, about: Point | None = None) -> Outline:
    """Turned counter-clockwise (table axes: y up) by `degrees` about a point (the centroid)."""
    cx, cy = about if about is not None else centroid(outline)
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return rounded((cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c)
                   for x, y in outline)


def scaled(outline: Outline, factor: float, about: Point | None = None) -> Outline:
    """Grown (factor > 1) or shrunk about a point (the centroid)."""
    cx, cy = about if about is not None else centroid(outline)
    return rounded((cx + (x - cx) * factor, cy + (y - cy) * factor) for x, y in outline)


def square(centre: Point, side: float) -> Outline:
    h = side / 2
    x, y = centre
    return rounded([(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)])


def clamp(p: Point, width: float, depth: float) -> Point:
    """The nearest point on the board."""
    return (round(min(max(p[0], 0.0), width), DIGITS) + 0.0,
            round(min(max(p[1], 0.0), depth), DIGITS) + 0.0)


def kept_on_board(outline: Outline, dx: float, dy: float, width: float, depth: float
                  ) -> tuple[float, float]:
    """The shift (dx, dy), shortened on each axis so that the outline stays on the board."""
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    dx = min(max(dx, -min(xs)), width - max(xs))
    dy = min(max(dy, -min(ys)), depth - max(ys))
    return dx, dy


def next_height(height: float, up: bool) -> float:
    """The next 0.5" step above or below (1.2 -> 1.5 up, 1.0 down); never below 0.5"."""
    steps = height / HEIGHT_STEP
    k = math.floor(steps + 1e-9) + 1 if up else math.ceil(steps - 1e-9) - 1
    return max(HEIGHT_STEP, k * HEIGHT_STEP)


def next_kind(kind: str) -> str:
    return KINDS[(KINDS.index(kind) + 1) % len(KINDS)] if kind in KINDS else KINDS[0]


def fresh_id(prefix: str, taken: Iterable[str]) -> str:
    """`prefix-1`, `prefix-2`, ...: the first not taken."""
    used = set(taken)
    k = 1
    while f"{prefix}-{k}" in used:
        k += 1
    return f"{prefix}-{k}"


# --- checks -------------------------------------------------------------------------------------
def outline_problem(outline: Outline, width: float, depth: float, what: str) -> str | None:
    """Why the outline cannot be used (too few points, not simple, off the board), or None."""
    if len(outline) < 3:
        return f"{what} needs at least 3 points"
    for x, y in outline:
        if not (-EDGE <= x <= width + EDGE and -EDGE <= y <= depth + EDGE):
            return f"{what} would leave the {width:g}\" x {depth:g}\" board at ({x:g}, {y:g})"
    poly = shapely.Polygon(outline)
    if not poly.is_valid or poly.area <= 1e-9:
        return f"{what} would not be a simple polygon (edges cross or it has no area)"
    return None


def piece_problem(piece: Piece, width: float, depth: float) -> str | None:
    if piece.height <= 0:
        return f"{piece.id}: the height must be positive"
    if piece.kind not in KINDS:
        return f"{piece.id}: unknown kind '{piece.kind}'"
    return outline_problem(piece.outline, width, depth, piece.id)


# --- new scenes ---------------------------------------------------------------------------------
def settled(scene: Scene) -> Scene:
    """Models the file did not give a z stand on the top of what is under them now."""
    layout = Layout(scene.terrain)
    units = []
    for u in scene.units:
        models = []
        for m in u.models:
            if not m.z_given:
                b = m.base
                foot = shapely.Polygon(outline_points(b.shape, b.a, b.b, m.x, m.y, m.facing,
                                                      4 if b.shape == RECT else 64))
                z = layout.ground_height(foot)
                m = m if z == m.z else replace(m, z=z)
            models.append(m)
        units.append(u if all(a is b for a, b in zip(models, u.models, strict=True))
                     else replace(u, models=models))
    out = replace(scene, units=units)
    out.__dict__["layout"] = layout
    return out


def _put(items: list, item) -> list:
    """The list with the item of the same id replaced, or the item added at the end."""
    ids = [i.id for i in items]
    if item.id in ids:
        items[ids.index(item.id)] = item
    else:
        items.append(item)
    return items


def with_piece(scene: Scene, piece: Piece, settle: bool = True) -> Scene:
    """The piece replaced (same id) or added at the end; `settle=False` leaves the models'
    heights as they were (a quick preview)."""
    out = replace(scene, terrain=tuple(_put(list(scene.terrain), piece)))
    return settled(out) if settle else out


def without_piece(scene: Scene, piece_id: str) -> Scene:
    return settled(replace(scene, terrain=tuple(p for p in scene.terrain if p.id != piece_id)))


def with_objective(scene: Scene, objective: Objective) -> Scene:
    return replace(scene, objectives=_put(list(scene.objectives), objective))


def without_objective(scene: Scene, objective_id: str) -> Scene:
    return replace(scene, objectives=[o for o in scene.objectives if o.id != objective_id])


def with_zone(scene: Scene, side: str, outline: Outline) -> Scene:
    return replace(scene, deployment={**scene.deployment, side: rounded(outline)})


def find_piece(scene: Scene, piece_id: str) -> Piece:
    return next(p for p in scene.terrain if p.id == piece_id)


def find_objective(scene: Scene, objective_id: str) -> Objective:
    return next(o for o in scene.objectives if o.id == objective_id)
