"""The benchmark battlefield, generated in code (seeded, deterministic).

A 60"x44" aos4 table with 30 terrain pieces (rectangles, L-shapes and irregular polygons 2-8"
across, heights 0.5-6"), 5 objectives and 510 models: two sides of 25 units, every unit ten
models on 32 mm bases in a 5x2 block, except red's first unit, twenty models in a block four wide
and five deep, which the live-check benchmark drags along a winding path across the board.
Nothing overlaps: pieces keep 0.5" apart and clear of the middle of the path, models keep off
the terrain and off each other, and the other units (packed from the bottom of the board up,
red and blue by turns) keep out of a corridor around the path, so the dragged block fits along
most of it. load_benchmark_scene() reads it through the scene loader, which checks all that.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from battlefield.geometry.bases import Base
from battlefield.geometry.terrain import Piece
from battlefield.rulesets import load_ruleset
from battlefield.scene.model import ModelSpec, Objective, Scene, UnitSpec

WIDTH, DEPTH = 60.0, 44.0
N_PIECES = 30
UNITS_PER_SIDE = 25
BASE = Base.round(32)
RADIUS = BASE.a
PITCH = 2 * RADIUS + 0.15         # centre spacing in a block: 0.15" gaps, coherent
CORRIDOR = 3.45                   # half-width kept free of other units around the drag path
PATH_CLEAR = 2.5                  # terrain keeps this far from the drag path's centre line
OBJECTIVES = ((30, 22), (14, 16), (46, 16), (14, 28), (46, 28))


def _rotate(pts: np.ndarray, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return pts @ np.array([[c, s], [-s, c]])


def _piece_outline(rng: np.random.Generator) -> np.ndarray:
    """A rectangle, an L-shape or an irregular (star-shaped) polygon, 2-8" across, at 0,0."""
    kind = rng.integers(3)
    if kind == 0:
        w, h = rng.uniform(2, 8), rng.uniform(1, 6)
        pts = np.array([[0, 0], [w, 0], [w, h], [0, h]]) - [w / 2, h / 2]
    elif kind == 1:
        w, h = rng.uniform(3, 8), rng.uniform(3, 8)
        t = rng.uniform(0.8, 1.6)
        pts = np.array([[0, 0], [w, 0], [w, t], [t, t], [t, h], [0, h]]) - [w / 2, h / 2]
    else:
        n = int(rng.integers(5, 10))
        ang = np.sort(rng.uniform(0, 2 * math.pi, n))
        r = rng.uniform(1.0, 4.0) * rng.uniform(0.55, 1.0, n)
        pts = np.column_stack([r * np.cos(ang), r * np.sin(ang)])
    return _rotate(pts, rng.uniform(0, math.pi))


def make_terrain(rng: np.random.Generator) -> list[Piece]:
    """30 pieces 0.5" apart, clear of the middle of the drag path."""
    path = shapely.LineString(drag_path(400)[:, :2])
    pieces: list[Piece] = []
    polys: list[shapely.Polygon] = []
    while len(pieces) < N_PIECES:
        local = _piece_outline(rng)
        at = rng.uniform([1, 1], [WIDTH - 1, DEPTH - 1])
        pts = local + at
        poly = shapely.Polygon(pts)
        if not poly.is_valid or poly.area < 1.0:
            continue
        span = max(np.ptp(pts[:, 0]), np.ptp(pts[:, 1]))
        if not 2.0 <= span <= 8.0:
            continue
        if pts.min() < 0.5 or pts[:, 0].max() > WIDTH - 0.5 or pts[:, 1].max() > DEPTH - 0.5:
            continue
        if path.distance(poly) < PATH_CLEAR or any(poly.distance(p) < 0.5 for p in polys):
            continue
        height = round(float(rng.uniform(0.5, 6.0)), 2)
        kind = "obstacle" if height < 1.5 else str(rng.choice(["solid", "obscuring", "area"]))
        polys.append(poly)
        pieces.append(Piece(f"t{len(pieces) + 1:02d}",
                            tuple((round(float(x), 4), round(float(y), 4)) for x, y in pts),
                            height, kind))
    return pieces


def drag_path(n: int) -> np.ndarray:
    """n points (x, y, heading) along the winding path the dragged unit follows."""
    s = np.linspace(0.0, 1.0, n)
    x = 6.0 + 48.0 * s
    y = 22.0 + 9.0 * np.sin(2.0 * math.pi * 1.25 * s)
    dx = np.gradient(x)
    dy = np.gradient(y)
    return np.column_stack([x, y, np.arctan2(dy, dx)])


def block(cols: int, rows: int, x: float, y: float, heading: float) -> np.ndarray:
    """Model centres of a cols-wide, rows-deep block centred at (x, y), its front along heading
    (rows run along the heading, columns across it)."""
    i, j = np.meshgrid(np.arange(rows) - (rows - 1) / 2, np.arange(cols) - (cols - 1) / 2,
                       indexing="ij")
    local = np.column_stack([i.ravel() * PITCH, j.ravel() * PITCH])
    c, s = math.cos(heading), math.sin(heading)
    return local @ np.array([[c, s], [-s, c]]) + [x, y]


class _Placer:
    """Keeps models off the terrain, off each other and inside the board."""

    def __init__(self, pieces: list[Piece]) -> None:
        self.terrain = shapely.union_all([p.polygon for p in pieces])
        shapely.prepare(self.terrain)
        self.centres = np.zeros((0, 2))

    def free(self, xy: np.ndarray, margin: float = 0.05) -> bool:
        r = RADIUS + margin
        if (xy[:, 0] < r).any() or (xy[:, 0] > WIDTH - r).any():
            return False
        if (xy[:, 1] < r).any() or (xy[:, 1] > DEPTH - r).any():
            return False
        if (shapely.distance(self.terrain, shapely.points(xy)) < r).any():
            return False
        if len(self.centres):
            d = np.hypot(xy[:, None, 0] - self.centres[None, :, 0],
                         xy[:, None, 1] - self.centres[None, :, 1])
            if (d < 2 * RADIUS + margin).any():
                return False
        return True

    def add(self, xy: np.ndarray) -> None:
        self.centres = np.concatenate([self.centres, xy])


def make_scene(seed: int = 1) -> Scene:
    """The benchmark scene. Unit 0 (red, 20 models) stands at the start of drag_path()."""
    rng = np.random.default_rng(seed)
    pieces = make_terrain(rng)
    placer = _Placer(pieces)
    path = drag_path(400)
    corridor = shapely.LineString(path[:, :2]).buffer(CORRIDOR)
    shapely.prepare(corridor)
    units: list[UnitSpec] = []
    dragged = None
    for x, y, heading in path:
        xy = block(4, 5, x, y, heading)
        if placer.free(xy):
            dragged = xy
            break
    assert dragged is not None, "no free place for the dragged unit"
    placer.add(dragged)
    units.append(_unit("red-01", "red", dragged))
    _pack_units(rng, pieces, corridor, placer, units)
    return Scene(file="<benchmark>", ruleset=load_ruleset("aos4"), width=WIDTH, depth=DEPTH,
                 terrain=tuple(pieces),
                 objectives=[Objective(f"o{k + 1}", float(x), float(y))
                             for k, (x, y) in enumerate(OBJECTIVES)],
                 units=units, name="benchmark")


def _pack_units(rng: np.random.Generator, pieces: list[Piece], corridor: shapely.Geometry,
                placer: _Placer, units: list[UnitSpec]) -> None:
    """The other units: 5x2 blocks (along x or along y) packed bottom-up on a raster of free
    model centres (a random one of the lowest free places each time), sides alternating."""
    g = 0.05
    xs = np.arange(0.0, WIDTH + g / 2, g)
    ys = np.arange(0.0, DEPTH + g / 2, g)
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    margin = 0.06
    keep_off = shapely.union_all([p.polygon for p in pieces]).buffer(RADIUS + margin)
    bad = shapely.contains_xy(keep_off, gx, gy) | shapely.contains_xy(corridor, gx, gy)
    bad |= (gx < RADIUS + margin) | (gx > WIDTH - RADIUS - margin)
    bad |= (gy < RADIUS + margin) | (gy > DEPTH - RADIUS - margin)
    ring = int(math.ceil((2 * RADIUS + margin) / g))
    di, dj = np.meshgrid(np.arange(-ring, ring + 1), np.arange(-ring, ring + 1), indexing="ij")
    disc = np.hypot(di, dj) * g < 2 * RADIUS + margin

    def mark(xy: np.ndarray) -> None:
        for x, y in xy:
            i, j = int(round(x / g)), int(round(y / g))
            i0, j0 = max(0, i - ring), max(0, j - ring)
            i1, j1 = min(len(xs), i + ring + 1), min(len(ys), j + ring + 1)
            bad[i0:i1, j0:j1] |= disc[i0 - i + ring:i1 - i + ring, j0 - j + ring:j1 - j + ring]

    for xy in placer.centres:
        mark([xy])
    count = {"red": 1, "blue": 0}
    shapes = [(2, 5, 0.0), (2, 5, math.pi / 2)]
    while len(units) < 2 * UNITS_PER_SIDE:
        best = None
        for cols, rows, heading in shapes:
            offsets = block(cols, rows, 0.0, 0.0, heading)
            cells = np.round(offsets / g).astype(int)
            lo = -cells.min(axis=0)
            hi = cells.max(axis=0)
            ok = np.ones((len(xs) - lo[0] - hi[0], len(ys) - lo[1] - hi[1]), dtype=bool)
            for ci, cj in cells:
                ok &= ~bad[lo[0] + ci:len(xs) - hi[0] + ci, lo[1] + cj:len(ys) - hi[1] + cj]
            if not ok.any():
                continue
            ii, jj = np.nonzero(ok)
            # Lowest first, then leftmost (bottom-left packing).
            k = int(np.lexsort((ii, jj))[0])
            top = (jj[k] + lo[1] - cells[:, 1].min()) * g
            cand = (float(top), int(ii[k]), (ii[k] + lo[0]) * g, (jj[k] + lo[1]) * g, cols,
                    rows, heading)
            if best is None or cand[:2] < best[:2]:
                best = cand
        if best is None:
            raise RuntimeError(f"could not place the units ({len(units)} placed)")
        _, _, x, y, cols, rows, heading = best
        xy = block(cols, rows, x, y, heading)
        side = "blue" if count["blue"] < count["red"] else "red"
        count[side] += 1
        placer.add(xy)
        mark(xy)
        units.append(_unit(f"{side}-{count[side]:02d}", side, xy))


def _unit(uid: str, side: str, xy: np.ndarray) -> UnitSpec:
    models = [ModelSpec(BASE, float(x), float(y), 0.0, 0.0, BASE.default_height())
              for x, y in xy]
    return UnitSpec(uid, side, models, stats={"move": 5, "health": 1, "save": 4, "control": 1})


def drag_positions(scene: Scene, n: int = 100, samples: int = 1000) -> list[np.ndarray]:
    """Up to n places (model centres) for unit 0 along drag_path, evenly spread over the free
    ones: a place whose block would overlap terrain or another unit's model is skipped."""
    placer = _Placer(list(scene.terrain))
    others = np.array([(m.x, m.y) for u in scene.units[1:] for m in u.models])
    placer.add(others)
    free = []
    for x, y, heading in drag_path(samples):
        xy = block(4, 5, x, y, heading)
        if placer.free(xy):
            free.append(xy)
    if len(free) <= n:
        return free
    pick = np.linspace(0, len(free) - 1, n).round().astype(int)
    return [free[i] for i in pick]


def random_lines(n: int, seed: int = 11) -> tuple[np.ndarray, np.ndarray]:
    """n random sight lines: endpoints anywhere on the board at heights 0-5"."""
    rng = np.random.default_rng(seed)
    lo, hi = [0.0, 0.0, 0.0], [WIDTH, DEPTH, 5.0]
    return rng.uniform(lo, hi, (n, 3)), rng.uniform(lo, hi, (n, 3))


def scene_yaml(scene: Scene) -> str:
    """The scene as a scene file (load_scene_text reads it back and checks it)."""
    lines = [f"ruleset: {scene.ruleset.id}", f"name: {scene.name}",
             f"board: {{width: {scene.width:g}, depth: {scene.depth:g}}}", "terrain:"]
    for p in scene.terrain:
        pts = ", ".join(f"[{x:g}, {y:g}]" for x, y in p.outline)
        lines.append(f"  - {{id: {p.id}, kind: {p.kind}, height: {p.height:g}, "
                     f"outline: [{pts}]}}")
    lines.append("objectives:")
    lines += [f"  - {{id: {o.id}, at: [{o.x:g}, {o.y:g}]}}" for o in scene.objectives]
    lines.append("units:")
    for u in scene.units:
        lines += [f"  - id: {u.id}", f"    side: {u.side}", "    models:"]
        lines += [f"      - {{base: 32, at: [{m.x:.4f}, {m.y:.4f}]}}" for m in u.models]
    return "\n".join(lines) + "\n"


def load_benchmark_scene(seed: int = 1) -> Scene:
    """The benchmark scene written out and read back through the scene loader (which checks
    it: nothing overlaps, everything on the board)."""
    from battlefield.scene.load import load_scene_text

    return load_scene_text(scene_yaml(make_scene(seed)), "<benchmark>")
