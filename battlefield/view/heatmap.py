"""Heat maps of a board for `battlefield analyze`: a value per grid cell (how much of the board a
model there sees, how much of a deployment zone sees it) in a colour-blind-safe sequential
palette, with the terrain outlined over it, the zones and objectives, numbered spots, a colour
bar and a caption; and the marches from each zone to each objective drawn on the plain board.

Headless: it draws onto plain Surfaces and needs no display (importing it leaves SDL's video
driver alone, so a window opened later opens on the real display).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from battlefield import palette as pal  # noqa: E402
from battlefield.scene.model import Scene  # noqa: E402
from battlefield.view.drawing import (  # noqa: E402
    dashed,
    disc,
    dotted,
    draw_cells,
    font,
    polyline,
    text_surface,
)
from battlefield.view.labels import Labels, around  # noqa: E402
from battlefield.view.layers import (  # noqa: E402
    Style,
    draw_board,
    draw_objectives,
    draw_rulers,
    draw_terrain,
    fmt_in,
)
from battlefield.view.legend import wrap_text
from battlefield.view.picture import margins, save_image  # noqa: E402
from battlefield.view.transform import ViewTransform  # noqa: E402

# viridis (perceptually uniform, readable with every common colour blindness and in grey).
VIRIDIS: tuple[pal.RGB, ...] = (
    (68, 1, 84), (71, 44, 122), (59, 81, 139), (44, 113, 142), (33, 144, 141),
    (39, 173, 129), (92, 200, 99), (170, 220, 50), (253, 231, 37))
NO_VALUE: pal.RGB = (205, 205, 198)          # cells where no one can stand
PX_PER_INCH = 12.0


def ramp(values: np.ndarray, low: float = 0.0, high: float = 1.0) -> np.ndarray:
    """(..., 3) uint8 colours of values on the viridis ramp from low to high; NaN grey."""
    v = np.asarray(values, dtype=np.float64)
    t = np.clip((v - low) / (high - low if high > low else 1.0), 0.0, 1.0)
    t = np.where(np.isfinite(t), t, 0.0)
    stops = np.asarray(VIRIDIS, dtype=np.float64)
    pos = t * (len(stops) - 1)
    i = np.minimum(pos.astype(int), len(stops) - 2)
    f = (pos - i)[..., None]
    out = stops[i] * (1 - f) + stops[i + 1] * f
    out[~np.isfinite(v)] = NO_VALUE
    return np.round(out).astype(np.uint8)


@dataclass
class Spot:
    """A numbered mark on the map (a hiding spot)."""

    x: float
    y: float
    label: str


def draw_values(surface: pygame.Surface, view: ViewTransform, scene: Scene, values: np.ndarray,
                low: float = 0.0, high: float = 1.0) -> None:
    """The value grid ((ny, nx), row 0 along the bottom edge) over the whole board."""
    draw_cells(surface, ramp(values, low, high), np.full(values.shape, 255),
               pygame.Rect(view.board_rect(scene.width, scene.depth)))


def draw_outlines(surface: pygame.Surface, view: ViewTransform, scene: Scene, style: Style,
                  labels: Labels | None = None) -> None:
    """Terrain over a heat map: impassable pieces drawn solid (no one stands there), the others
    as outlines only (the values under them stay readable): white halo, dark edge; obscuring
    heavier, area dotted. Labelled with id and height."""
    solid = tuple(p for p in scene.terrain if p.kind == "impassable")
    if solid:
        draw_terrain(surface, view, replace(scene, terrain=solid), style)
    lw = style.line
    for piece in sorted(scene.terrain, key=lambda p: p.height):
        pts = view.points(piece.outline)
        if piece.kind != "impassable":
            heavy = piece.kind == "obscuring"
            polyline(surface, pal.HALO, pts, max(4.0, lw * (4.5 if heavy else 3.5)), closed=True)
            if piece.kind == "area":
                polyline(surface, (40, 70, 20), pts, max(1.5, lw * 1.2), closed=True)
                dotted(surface, pal.HALO, pts, spacing=max(6.0, 4 * lw), radius=max(1.2, lw))
            else:
                polyline(surface, (20, 18, 16), pts, max(2.0, lw * (2.6 if heavy else 1.6)),
                         closed=True)
        if labels is not None:
            t = text_surface(f"{piece.id} {fmt_in(piece.height)}", style.small_size, pal.INK)
            xs = [p[0] for p in pts]
            ys = [p[1] for p in pts]
            box = pygame.Rect(round(min(xs)), round(min(ys)), round(max(xs) - min(xs)) + 1,
                              round(max(ys) - min(ys)) + 1)
            w, h = t.get_size()
            labels.add(t, around(box, w, h, 2) + [box.center], priority=1)


def draw_zones(surface: pygame.Surface, view: ViewTransform, scene: Scene, style: Style,
               labels: Labels | None = None) -> None:
    """Deployment zones as dashed outlines in their side's colour, with a label."""
    for side, outline in scene.deployment.items():
        pts = view.points(outline)
        c = style.side(side)
        polyline(surface, pal.HALO, pts, 5, closed=True)
        dashed(surface, pal.darker(c, 0.1), pts, True, dash=12, gap=6, width=3)
        if labels is not None:
            t = text_surface(f"{side} deployment", style.small_size, pal.darker(c, 0.3))
            xs = [p[0] for p in pts]
            ys = [p[1] for p in pts]
            w, h = t.get_size()
            x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
            labels.add(t, [(x0 + 8 + w / 2, y0 + 8 + h / 2), (x0 + 8 + w / 2, y1 - 8 - h / 2),
                           (x1 - 8 - w / 2, y0 + 8 + h / 2), (x1 - 8 - w / 2, y1 - 8 - h / 2)],
                       priority=-1)


def draw_spots(surface: pygame.Surface, view: ViewTransform, spots: Sequence[Spot],
               labels: Labels | None = None) -> None:
    """Numbered white discs with a dark ring."""
    r = max(7.0, view.scale * 0.6)
    for s in spots:
        c = view.px(s.x, s.y)
        disc(surface, pal.INK, c, r + 2)
        disc(surface, (255, 255, 255), c, r)
        t = font(round(r * 1.6)).render(s.label, True, pal.INK)
        surface.blit(t, t.get_rect(center=(round(c[0]), round(c[1]) + 1)))
        if labels is not None:
            labels.avoid((c[0] - r - 2, c[1] - r - 2, 2 * r + 4, 2 * r + 4))


def draw_colour_bar(surface: pygame.Surface, rect: pygame.Rect, low: float, high: float,
                    label: str, style: Style, percent: bool = True) -> None:
    """A horizontal colour bar with ticks at quarters and its label above."""
    size = style.small_size
    title = font(size + 2).render(label, True, pal.INK)
    surface.blit(title, (rect.x, rect.y))
    bar = pygame.Rect(rect.x, rect.y + title.get_height() + 6, rect.w, max(12, size))
    vals = np.linspace(low, high, bar.w)[None, :].repeat(bar.h, axis=0)
    colours = ramp(vals, low, high)
    surface.blit(pygame.surfarray.make_surface(np.ascontiguousarray(
        colours.transpose(1, 0, 2))), bar)
    pygame.draw.rect(surface, pal.INK, bar, 1)
    f = font(size)
    for k in range(5):
        v = low + (high - low) * k / 4
        x = bar.x + round((bar.w - 1) * k / 4)
        pygame.draw.line(surface, pal.INK, (x, bar.bottom), (x, bar.bottom + 5), 1)
        text = f"{v:.0%}" if percent else f"{v:g}"
        s = f.render(text, True, pal.INK_SOFT)
        r = s.get_rect(midtop=(x, bar.bottom + 7))
        r.clamp_ip(pygame.Rect(rect.x - 20, r.y, rect.w + 40, r.h))
        surface.blit(s, r)


def _caption(lines: Sequence[str], style: Style, width: int) -> list[tuple[str, int]]:
    body = style.small_size + 1
    out: list[tuple[str, int]] = []
    for k, text in enumerate(lines):
        size = body + 5 if k == 0 else body
        out.extend((w, size) for w in wrap_text(text, size, width))
    return out


def _draw_caption(surface: pygame.Surface, x: int, y: int, rows: list[tuple[str, int]]) -> int:
    for text, size in rows:
        s = font(size).render(text, True, pal.INK)
        surface.blit(s, (x, y))
        y += s.get_height() + 3
    return y


class _Frame:
    """A picture's layout: the board at px_per_inch with its ruler margins, at least 560 px
    wide, and the caption wrapped to that width below it."""

    def __init__(self, scene: Scene, caption: Sequence[str], px_per_inch: float) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.style = Style.for_scene(scene, None, px_per_inch)
        self.left, top, right, bottom = margins(self.style, scene)
        bw, bh = round(scene.width * px_per_inch), round(scene.depth * px_per_inch)
        self.width = max(self.left + bw + right, 560)
        self.view = ViewTransform.for_board(scene.width, scene.depth, px_per_inch, self.left,
                                            top)
        self.rows = _caption(caption, self.style, self.width - 2 * self.left)
        self.under = top + bh + bottom               # the first pixel row under the rulers

    def surface(self, between: int) -> pygame.Surface:
        """The paper: board, `between` pixels of whatever goes there, the caption."""
        cap_h = sum(font(s).get_linesize() + 3 for _, s in self.rows)
        surface = pygame.Surface((self.width, self.under + between + cap_h + 12))
        surface.fill(pal.PAPER)
        return surface


def heatmap_picture(scene: Scene, values: np.ndarray, caption: Sequence[str], bar_label: str,
                    spots: Sequence[Spot] = (), low: float = 0.0, high: float = 1.0,
                    px_per_inch: float = PX_PER_INCH) -> pygame.Surface:
    """The whole picture: board with the value grid, terrain outlines, zones, objectives and
    spots; under it the colour bar and the caption (first line a title)."""
    f = _Frame(scene, caption, px_per_inch)
    style, view, left, rows = f.style, f.view, f.left, f.rows
    text_w = f.width - 2 * left
    bar_h = style.small_size * 3 + 34
    surface = f.surface(8 + bar_h + 10)
    draw_board(surface, view, scene, style, None, rulers=True)
    draw_values(surface, view, scene, values, low, high)
    labels = Labels(bounds=pygame.Rect(view.board_rect(scene.width, scene.depth)).inflate(-2, -2))
    draw_outlines(surface, view, scene, style, labels)
    draw_zones(surface, view, scene, style, labels)
    draw_objectives(surface, view, scene, style, None, labels)
    draw_spots(surface, view, spots, labels)
    labels.draw(surface)
    pygame.draw.rect(surface, pal.BORDER, pygame.Rect(view.board_rect(scene.width, scene.depth))
                     .inflate(2, 2), 2)
    y = f.under + 8
    draw_colour_bar(surface, pygame.Rect(left, y, min(text_w, 420), bar_h), low, high,
                    bar_label, style)
    _draw_caption(surface, left, y + bar_h + 10, rows)
    return surface


# --- marches ------------------------------------------------------------------------------------
@dataclass
class Route:
    """A path drawn in a side's colour, labelled at its end."""

    side: str
    path: Sequence[tuple[float, float]]
    label: str


def marches_picture(scene: Scene, routes: Sequence[Route], caption: Sequence[str],
                    px_per_inch: float = PX_PER_INCH) -> pygame.Surface:
    """The board as `battlefield render` draws it (without models), with each route."""
    f = _Frame(scene, caption, px_per_inch)
    style, view, rows = f.style, f.view, f.rows
    surface = f.surface(10)
    labels = Labels(bounds=pygame.Rect(view.board_rect(scene.width, scene.depth)).inflate(-2, -2))
    draw_board(surface, view, scene, style, labels, rulers=False)
    draw_terrain(surface, view, scene, style, labels)
    draw_objectives(surface, view, scene, style, None, labels)
    lw = max(2.5, style.line * 2.5)
    sides = list(dict.fromkeys(r.side for r in routes))
    # Each side's routes shifted a little sideways, so that two sides' routes along the same
    # line show both colours.
    shift = {s: (k - (len(sides) - 1) / 2) * (lw + 1) for k, s in enumerate(sides)}
    drawn = []
    for r in routes:
        pts = _offset(view.points(r.path), shift[r.side])
        drawn.append(pts)
        if len(pts) < 2:
            continue
        c = style.side(r.side)
        polyline(surface, (255, 255, 255), pts, lw + 3)
        polyline(surface, c, pts, lw)
        disc(surface, c, pts[0], lw * 1.4)
        for p, q in zip(pts[:-1], pts[1:], strict=True):
            labels.avoid_line(p, q, lw + 3)
    for r, pts in zip(routes, drawn, strict=True):
        if len(pts) < 2:
            continue
        c = style.side(r.side)
        t = text_surface(r.label, style.small_size, pal.darker(c, 0.35))
        w, h = t.get_size()
        mid = _along(pts, 0.45)
        end = pts[-1]
        cands = [(mid[0] + w / 2 + 6, mid[1]), (mid[0] - w / 2 - 6, mid[1]),
                 (end[0], end[1] + h), (end[0], end[1] - h)]
        labels.add(t, cands, priority=4)
    labels.draw(surface)
    draw_rulers(surface, view, scene, style)
    _draw_caption(surface, f.left, f.under + 10, rows)
    return surface


def _offset(pts: list[tuple[float, float]], d: float) -> list[tuple[float, float]]:
    """The polyline moved d pixels across its overall line (start to end), the same way for
    routes along one line whichever way they run."""
    if len(pts) < 2 or d == 0:
        return pts
    dx, dy = pts[-1][0] - pts[0][0], pts[-1][1] - pts[0][1]
    n = math.hypot(dx, dy)
    if n == 0:
        return pts
    if dx < 0 or (dx == 0 and dy > 0):
        dx, dy = -dx, -dy
    ox, oy = dy / n * d, -dx / n * d
    return [(x + ox, y + oy) for x, y in pts]


def _along(pts: Sequence[tuple[float, float]], f: float) -> tuple[float, float]:
    """The point a share f of the way along a polyline."""
    lengths = [math.dist(p, q) for p, q in zip(pts[:-1], pts[1:], strict=True)]
    goal = sum(lengths) * f
    for (p, q), d in zip(zip(pts[:-1], pts[1:], strict=True), lengths, strict=True):
        if goal <= d and d > 0:
            t = goal / d
            return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
        goal -= d
    return pts[-1]


def side_by_side(pictures: Sequence[pygame.Surface], gap: int = 24) -> pygame.Surface:
    """Pictures next to each other, tops aligned, on paper."""
    w = sum(p.get_width() for p in pictures) + gap * (len(pictures) - 1)
    h = max(p.get_height() for p in pictures)
    out = pygame.Surface((w, h))
    out.fill(pal.PAPER)
    x = 0
    for p in pictures:
        out.blit(p, (x, 0))
        x += p.get_width() + gap
    return out


def save(surface: pygame.Surface, path: str) -> None:
    save_image(surface, path)


__all__ = ["ramp", "Spot", "Route", "heatmap_picture", "marches_picture", "side_by_side",
           "draw_values", "draw_outlines", "draw_zones", "draw_spots", "draw_colour_bar", "save"]
