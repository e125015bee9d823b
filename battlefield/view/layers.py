"""The basic layers of a battlefield picture, each drawn onto a given surface through a given
view transform: board (grid, zones, rulers), terrain, objectives, models; with the style and the
lookups they share. The overlays (rulings, a measurement) and draw_scene, which draws them all
then the labels, are in battlefield.view.overlays. `battlefield render` saves them to a PNG; the
interactive view redraws them every frame. Nothing here opens a display."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pygame
import shapely
from shapely.ops import polylabel

from battlefield import palette as pal
from battlefield.depiction.table import Table, fmt_in, objective_radii
from battlefield.geometry.bases import OVAL, RECT, outline_points
from battlefield.page.shapes import find_model
from battlefield.scene.model import ModelSpec, Scene
from battlefield.view.damage_marks import draw_wound_bars
from battlefield.view.depict import WindowMetrics, draw
from battlefield.view.drawing import (
    dashed,
    dotted,
    fill_polygon,
    font,
    polyline,
    ring,
    star_points,
    text_surface,
    thick_line,
)
from battlefield.view.labels import Labels, around
from battlefield.view.transform import ViewTransform

# Draw order: the order draw_scene uses.
LAYERS = ("board", "terrain", "objectives", "combat", "models", "rulings", "measurement",
          "labels")


@dataclass
class Style:
    """Side colours and text sizes for one scene at one scale."""

    sides: dict[str, pal.RGB]
    scale: float = 20.0
    extra: dict[str, pal.RGB] = field(default_factory=dict)

    @classmethod
    def for_scene(cls, scene: Scene, report: dict | None = None, scale: float = 20.0) -> Style:
        sides = list(scene.sides) + list(scene.deployment)
        sides += [scene.tie_side(o) for o in scene.objectives]
        if report:
            sides += [u.get("side") for u in report.get("units", {}).values()]
            for o in report.get("objectives", {}).values():
                sides += [o.get("controlled_by"), o.get("home"), *o.get("totals", {})]
        return cls(pal.side_colours(s for s in sides if s), scale)

    def side(self, side: str | None) -> pal.RGB:
        if not side:
            return pal.NEUTRAL
        c = self.sides.get(side) or self.extra.get(side)
        if c is None:
            c = self.extra[side] = pal.SIDE_ORDER[(len(self.sides) + len(self.extra))
                                                  % len(pal.SIDE_ORDER)]
        return c

    def size(self, k: float, lo: int, hi: int) -> int:
        return int(min(max(round(self.scale * k), lo), hi))

    @property
    def label_size(self) -> int:        # unit ids, terrain, objectives
        return self.size(0.9, 16, 30)

    @property
    def small_size(self) -> int:        # rulers, elevation badges
        return self.size(0.72, 15, 24)

    @property
    def line(self) -> float:            # a standard stroke width in pixels
        return max(1.0, self.scale / 12)




# --- lookups --------------------------------------------------------------------------------------


def model_outline(m: ModelSpec, grow: float = 0.0, n: int = 48) -> Any:
    """A model's base outline in inches, optionally grown outwards by `grow` inches."""
    b = m.base
    return outline_points(b.shape, b.a + grow, b.b + grow, m.x, m.y, m.facing, n)


def model_px(view: ViewTransform, m: ModelSpec, grow_px: float = 0.0) -> list[tuple[float, float]]:
    n = max(24, min(96, int(view.length(max(m.base.a, m.base.b)) * 1.5)))
    return view.points(model_outline(m, grow_px / view.scale, n))


def _bbox(pts: Sequence[tuple[float, float]]) -> pygame.Rect:
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return pygame.Rect(math.floor(min(xs)), math.floor(min(ys)),
                       math.ceil(max(xs) - min(xs)) + 1, math.ceil(max(ys) - min(ys)) + 1)


# --- board ----------------------------------------------------------------------------------------
def draw_board(surface: pygame.Surface, view: ViewTransform, scene: Scene, style: Style,
               labels: Labels | None = None, rulers: bool = True) -> None:
    """The table: cloth, deployment zones tinted per side, 1" and 6" grid, edge, rulers."""
    W, D = scene.width, scene.depth
    board = view.points([(0, 0), (W, 0), (W, D), (0, D)])
    fill_polygon(surface, pal.BOARD, board)
    for side, outline in scene.deployment.items():
        fill_polygon(surface, pal.with_alpha(style.side(side), 48), view.points(outline))
    rect = pygame.Rect(view.board_rect(W, D))
    if view.scale >= 6:
        for x in range(1, math.ceil(W)):
            if x % 6:
                _vline(surface, pal.GRID_1, view, x, D)
        for y in range(1, math.ceil(D)):
            if y % 6:
                _hline(surface, pal.GRID_1, view, y, W)
    if 6 * view.scale >= 2:                 # closer than 2 px the lines would be a fill
        for x in range(6, math.ceil(W), 6):
            _vline(surface, pal.GRID_6, view, x, D)
        for y in range(6, math.ceil(D), 6):
            _hline(surface, pal.GRID_6, view, y, W)
    for side, outline in scene.deployment.items():
        pts = view.points(outline)
        c = style.side(side)
        dashed(surface, pal.darker(c, 0.1), pts, True, dash=10, gap=6, width=2)
        if labels is not None:
            box = _bbox(pts)
            t = text_surface(f"{side} deployment", style.small_size, pal.darker(c, 0.3))
            w, h = t.get_size()
            inset = 6
            labels.add(t, [(box.left + inset + w / 2, box.top + inset + h / 2),
                           (box.left + inset + w / 2, box.bottom - inset - h / 2),
                           (box.right - inset - w / 2, box.top + inset + h / 2),
                           (box.right - inset - w / 2, box.bottom - inset - h / 2)],
                       priority=-10)
    pygame.draw.rect(surface, pal.BORDER, rect.inflate(2, 2), 2)
    if rulers:
        draw_rulers(surface, view, scene, style)


def _vline(surface: pygame.Surface, colour: pal.RGB, view: ViewTransform, x: float,
           depth: float) -> None:
    (px, top), (_, bottom) = view.px(x, depth), view.px(x, 0)
    pygame.draw.line(surface, colour, (round(px), round(top)), (round(px), round(bottom)))


def _hline(surface: pygame.Surface, colour: pal.RGB, view: ViewTransform, y: float,
           width: float) -> None:
    (left, py), (right, _) = view.px(0, y), view.px(width, y)
    pygame.draw.line(surface, colour, (round(left), round(py)), (round(right), round(py)))


def ruler_step(scale: float, min_px: float = 30) -> int:
    """Inches between ruler numbers so they do not crowd."""
    for step in (1, 2, 3, 6, 12, 24, 48):
        if step * scale >= min_px:
            return step
    step = 96
    while step * scale < min_px:              # a board miles across, drawn small
        step *= 2
    return step


def _ruler_marks(length: float, scale: float, step: int) -> Iterable[int]:
    """The inches a ruler draws something at: every inch when inch ticks show, else the 6"
    ticks (while they are 2 px apart or more), the numbered ones and the end."""
    last = math.floor(length)
    if scale >= 6:
        return range(0, last + 1)
    marks = set(range(0, last + 1, step)) | {last}
    if 6 * scale >= 2:
        marks |= set(range(0, last + 1, 6))
    return sorted(marks)


def draw_rulers(surface: pygame.Surface, view: ViewTransform, scene: Scene, style: Style) -> None:
    """Inch rulers outside the bottom and left edges, numbered from the (0, 0) corner."""
    W, D = scene.width, scene.depth
    size = style.small_size
    step = ruler_step(view.scale, size * 1.6)
    tick = max(3.0, view.scale * 0.2)
    for x in _ruler_marks(W, view.scale, step):
        px, py = view.px(x, 0)
        major = x % 6 == 0 or x == math.floor(W)
        if view.scale >= 6 or major and 6 * view.scale >= 2:
            ln = tick * (2 if major else 1)
            pygame.draw.line(surface, pal.INK_SOFT, (round(px), round(py) + 2),
                             (round(px), round(py + 2 + ln)))
        if x % step == 0 or (x == math.floor(W) and x % step > step / 2):
            _label_plain(surface, str(x), size, (px, py + 4 + tick * 2), "midtop")
    for y in _ruler_marks(D, view.scale, step):
        px, py = view.px(0, y)
        major = y % 6 == 0 or y == math.floor(D)
        if view.scale >= 6 or major and 6 * view.scale >= 2:
            ln = tick * (2 if major else 1)
            pygame.draw.line(surface, pal.INK_SOFT, (round(px) - 3, round(py)),
                             (round(px - 3 - ln), round(py)))
        if y % step == 0 or (y == math.floor(D) and y % step > step / 2):
            _label_plain(surface, str(y), size, (px - 6 - tick * 2, py), "midright")


def _label_plain(surface: pygame.Surface, text: str, size: int, pos: tuple[float, float],
                 anchor: str, colour: pal.RGB = pal.INK_SOFT) -> None:
    s = font(size).render(text, True, colour)
    r = s.get_rect()
    setattr(r, anchor, (round(pos[0]), round(pos[1])))
    surface.blit(s, r)


# --- terrain --------------------------------------------------------------------------------------
def draw_terrain(surface: pygame.Surface, view: ViewTransform, scene: Scene, style: Style,
                 labels: Labels | None = None) -> None:
    """Terrain shaded by height (darker = taller); the kind by its outline: obscuring a heavy
    dark edge, impassable hatched, area translucent with a dotted edge, place of power a star."""
    lw = style.line
    for piece in sorted(scene.terrain, key=lambda p: p.height):
        pts = view.points(piece.outline)
        fill = pal.terrain_fill(piece.height, piece.kind)
        edge = pal.darker(fill, 0.45)
        kind = piece.kind
        if kind == "area":
            fill_polygon(surface, pal.with_alpha(fill, 150), pts)
            dotted(surface, pal.darker(fill, 0.5), pts, spacing=max(5.0, 3 * lw),
                   radius=max(1.3, lw * 0.9))
        else:
            fill_polygon(surface, fill, pts)
            if kind == "impassable":
                _hatch(surface, view, piece.polygon, pal.darker(fill, 0.55), lw)
                polyline(surface, edge, pts, lw * 1.5, closed=True)
            elif kind == "obscuring":
                polyline(surface, (28, 24, 22), pts, max(2.5, lw * 2.5), closed=True)
            elif kind == "obstacle":
                polyline(surface, edge, pts, lw, closed=True)
            else:
                polyline(surface, edge, pts, lw * 1.5, closed=True)
        anchor = _inner_point(piece.polygon)
        centre = view.px(anchor.x, anchor.y)
        if kind == "place-of-power":
            r = max(6.0, min(view.scale * 0.7, _inner_radius(piece.polygon, anchor) * view.scale))
            star = star_points(centre, r)
            fill_polygon(surface, (255, 255, 255), star)
            polyline(surface, (70, 40, 110), star, max(1.5, lw), closed=True)
        if labels is not None:
            label_piece(view, piece, style, labels, pts, anchor)


def label_terrain(view: ViewTransform, scene: Scene, style: Style, labels: Labels) -> None:
    """Only the terrain's labels (the window draws the pieces once per view and labels them
    with the models, in one placement pass)."""
    for piece in scene.terrain:
        label_piece(view, piece, style, labels)


def label_piece(view: ViewTransform, piece: Any, style: Style, labels: Labels,
                pts: list | None = None, anchor: shapely.Point | None = None) -> None:
    """A piece's name and height: inside it when the text fits across it, else beside it."""
    pts = pts if pts is not None else view.points(piece.outline)
    anchor = anchor if anchor is not None else _inner_point(piece.polygon)
    centre = view.px(anchor.x, anchor.y)
    t = text_surface(f"{piece.id} {fmt_in(piece.height)}", style.small_size, pal.INK)
    w, h = t.get_size()
    hw, hh = (w - 6) / 2 / view.scale, (h - 6) / 2 / view.scale
    fits = piece.polygon.buffer(0.05).contains(
        shapely.box(anchor.x - hw, anchor.y - hh, anchor.x + hw, anchor.y + hh))
    cands = [centre] if fits and piece.kind != "place-of-power" else []
    cands += around(_bbox(pts), w, h, 2)
    if not cands[0:1] or not fits:
        cands.append(centre)
    labels.add(t, cands, priority=1, anchor=_bbox(pts))


def _inner_point(poly: shapely.Polygon) -> shapely.Point:
    """The point deepest inside the outline (where a label or symbol fits best)."""
    try:
        return polylabel(poly, tolerance=0.05)
    except Exception:  # noqa: BLE001 - degenerate outlines: fall back
        return poly.representative_point()


def _inner_radius(poly: shapely.Polygon, p: shapely.Point) -> float:
    return float(poly.exterior.distance(p))


def _hatch(surface: pygame.Surface, view: ViewTransform, poly: shapely.Polygon,
           colour: pal.RGB, lw: float) -> None:
    """45-degree hatching clipped to the outline, about every 7 pixels."""
    gap = max(7.0, view.scale * 0.45) / view.scale
    x0, y0, x1, y1 = poly.bounds
    span = (x1 - x0) + (y1 - y0)
    k = 0
    while k * gap <= span:
        c = x0 - (y1 - y0) + k * gap
        line = shapely.LineString([(c, y0), (c + (y1 - y0), y1)])
        cut = poly.intersection(line)
        for g in getattr(cut, "geoms", [cut]):
            if g.geom_type == "LineString" and not g.is_empty:
                p, q = view.points(list(g.coords)[:1] + list(g.coords)[-1:])
                thick_line(surface, colour, p, q, max(1.0, lw * 0.9), caps=False)
        k += 1


# --- objectives -----------------------------------------------------------------------------------
def draw_objectives(surface: pygame.Surface, view: ViewTransform, scene: Scene, style: Style,
                    report: dict | None = None, labels: Labels | None = None) -> None:
    """Each objective as the depiction draws it (depiction/table.py: its zone tinted by who
    holds it, a hollow marker with a cross, the home side's ring); its tag placed by `labels`
    (pixels) when given."""
    held = {oid: o.get("controlled_by") for oid, o in (report or {}).get("objectives", {})
            .items()} or None
    metrics = WindowMetrics(style, view.scale, style.sides)
    t = Table(scene, [], metrics, style.sides)
    t.objectives(held, labels is not None)
    draw(surface, view, t.layers["objectives"], metrics)
    if labels is None:
        return
    for want in t.placer.wants:
        x0, y0, x1, y1 = want.anchor
        (ax, ay), (bx, by) = view.px(x0, y1), view.px(x1, y0)
        labels.avoid((ax, ay, bx - ax, by - ay))
        labels.add(metrics.surface(want.item), view.points(want.near), priority=2,
                   anchor=(ax, ay, bx - ax, by - ay))


# --- models ---------------------------------------------------------------------------------------
def draw_models(surface: pygame.Surface, view: ViewTransform, scene: Scene, style: Style,
                wounds: dict | None = None) -> list[pygame.Rect]:
    """True-size bases in side colours, leaders ringed white (in units of more than one model),
    a facing tick on ovals and rectangles (whose front edge is also drawn heavier), elevated
    models with a shadow. `wounds` (unit id -> (damage, health) per model,
    outcome.unit_wounds): a bar on each damaged model (returned). The units' ids and heights
    are labels of the depiction (depiction/table.py)."""
    lw = style.line
    for u in scene.units:
        colour = style.side(u.side)
        edge = pal.darker(colour, 0.6)
        for k, m in enumerate(u.models):
            pts = model_px(view, m)
            if m.z > 0:
                off = min(2 + m.z * view.scale * 0.08, view.scale * 0.4)
                fill_polygon(surface, (0, 0, 0, 70), [(x + off, y + off) for x, y in pts])
            fill_polygon(surface, colour, pts)
            polyline(surface, edge, pts, max(1.0, lw * 1.1), closed=True)
            c = view.px(m.x, m.y)
            a_px, b_px = view.length(m.base.a), view.length(m.base.b)
            if m.base.shape in (OVAL, RECT):
                th = math.radians(m.facing)
                d = (math.cos(th), -math.sin(th))
                start = max(0.45 * a_px, 0.75 * min(a_px, b_px)) if len(u.models) > 1 else 0.0
                p = (c[0] + d[0] * start, c[1] + d[1] * start)
                q = (c[0] + d[0] * a_px, c[1] + d[1] * a_px)
                thick_line(surface, edge, p, q, max(2.0, lw * 2))
                if m.base.shape == RECT:      # the front edge, heavier
                    thick_line(surface, edge, pts[0], pts[1], max(2.5, lw * 2.5))
            if k == u.leader and len(u.models) > 1:
                rr = min(a_px, b_px) * 0.62
                ring(surface, (255, 255, 255), c, rr, max(2, round(lw * 1.6)))
    if not wounds:
        return []
    return draw_wound_bars(surface, view, scene, style.side, wounds, lw)


# The overlays and draw_scene live in battlefield.view.overlays, which builds on this module.

__all__ = [
    "LAYERS", "Style", "ViewTransform", "draw_board", "draw_rulers", "draw_terrain",
    "draw_objectives", "draw_models", "find_model", "objective_radii", "fmt_in",
    "label_terrain", "label_piece",
]
