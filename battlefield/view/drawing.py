"""Drawing primitives on a pygame Surface: anti-aliased polygons and thick lines, dashed and
dotted outlines, text with a halo, and a label placer that keeps labels off models and off each
other. Only pygame.font needs initialising; nothing here opens a display."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pygame
import pygame.gfxdraw

from battlefield.palette import HALO, INK

Point = tuple[float, float]

_FONTS: dict[int, pygame.font.Font] = {}


def font(size: int) -> pygame.font.Font:
    """pygame's bundled font at `size` pixels (cached)."""
    size = max(6, int(size))
    f = _FONTS.get(size)
    if f is None:
        if not pygame.font.get_init():
            pygame.font.init()
        f = _FONTS[size] = pygame.font.Font(None, size)
    return f


def _ipts(pts: Sequence[Point]) -> list[tuple[int, int]]:
    return [(round(x), round(y)) for x, y in pts]


def fill_polygon(surface: pygame.Surface, colour: Sequence[int], pts: Sequence[Point]) -> None:
    """A filled polygon with anti-aliased edges; an RGBA colour blends with what is below."""
    if len(pts) < 3:
        return
    ip = _ipts(pts)
    pygame.gfxdraw.filled_polygon(surface, ip, colour)
    pygame.gfxdraw.aapolygon(surface, ip, colour)


def polyline(surface: pygame.Surface, colour: Sequence[int], pts: Sequence[Point],
             width: float = 1, closed: bool = False) -> None:
    """An anti-aliased polyline; thick lines get round joints (use opaque colours)."""
    if len(pts) < 2:
        return
    if width <= 1:
        pygame.draw.aalines(surface, colour, closed, pts)
        return
    seq = list(pts) + ([pts[0]] if closed else [])
    for p, q in zip(seq[:-1], seq[1:], strict=True):
        thick_line(surface, colour, p, q, width, caps=False)
    r = width / 2
    for p in seq:
        disc(surface, colour, p, r)


def thick_line(surface: pygame.Surface, colour: Sequence[int], p: Point, q: Point,
               width: float, caps: bool = True) -> None:
    """A line `width` pixels wide drawn as an anti-aliased quad, with round caps."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = math.hypot(dx, dy)
    if n < 1e-9:
        if caps:
            disc(surface, colour, p, width / 2)
        return
    if width <= 1.5:
        pygame.draw.aaline(surface, colour, p, q)
        return
    hx, hy = -dy / n * width / 2, dx / n * width / 2
    fill_polygon(surface, colour, [(p[0] + hx, p[1] + hy), (q[0] + hx, q[1] + hy),
                                   (q[0] - hx, q[1] - hy), (p[0] - hx, p[1] - hy)])
    if caps:
        disc(surface, colour, p, width / 2)
        disc(surface, colour, q, width / 2)


def disc(surface: pygame.Surface, colour: Sequence[int], c: Point, r: float) -> None:
    if r <= 0:
        return
    if len(colour) == 4 and colour[3] < 255:
        pygame.gfxdraw.filled_circle(surface, round(c[0]), round(c[1]), max(1, round(r)), colour)
        return
    pygame.draw.aacircle(surface, colour, c, r)


def ring(surface: pygame.Surface, colour: Sequence[int], c: Point, r: float,
         width: float = 1) -> None:
    if r <= 0:
        return
    pygame.draw.aacircle(surface, colour, c, r, max(1, round(width)))


def draw_cells(surface: pygame.Surface, colours: np.ndarray, alpha: np.ndarray,
               rect: pygame.Rect) -> None:
    """A grid of cells ((ny, nx) colours and alphas, row 0 along the table's bottom edge)
    stretched over the pixel rect, one pixel a cell scaled up (no smoothing)."""
    ny, nx = alpha.shape
    rgba = np.empty((ny, nx, 4), dtype=np.uint8)
    rgba[..., :3] = colours
    rgba[..., 3] = alpha
    cells = pygame.image.frombuffer(rgba[::-1].tobytes(), (nx, ny), "RGBA")
    surface.blit(pygame.transform.scale(cells, rect.size), rect)


def circle_points(c: Point, r: float, n: int | None = None) -> list[Point]:
    n = n or max(24, int(r * 0.8))
    return [(c[0] + r * math.cos(2 * math.pi * k / n), c[1] + r * math.sin(2 * math.pi * k / n))
            for k in range(n)]


def _walk(pts: Sequence[Point], closed: bool) -> tuple[list[tuple[Point, Point, float]], float]:
    seq = list(pts) + ([pts[0]] if closed else [])
    segs, total = [], 0.0
    for p, q in zip(seq[:-1], seq[1:], strict=True):
        d = math.hypot(q[0] - p[0], q[1] - p[1])
        if d > 0:
            segs.append((p, q, d))
            total += d
    return segs, total


def _at(segs: list[tuple[Point, Point, float]], s: float) -> Point:
    for p, q, d in segs:
        if s <= d:
            t = s / d
            return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
        s -= d
    return segs[-1][1]


def dashed(surface: pygame.Surface, colour: Sequence[int], pts: Sequence[Point],
           closed: bool = True, dash: float = 8, gap: float = 5, width: float = 1) -> None:
    """A dashed polyline; the pattern runs on across corners."""
    segs, total = _walk(pts, closed)
    if not segs:
        return
    period = dash + gap
    count = max(1, round(total / period)) if closed else max(1, int(total / period) + 1)
    step = total / count if closed else period
    for k in range(count):
        s0 = k * step
        s1 = min(s0 + dash * (step / period if closed else 1), total)
        run = [_at(segs, s0)]
        acc = 0.0
        for _, q, d in segs:             # keep the corners inside a dash
            acc += d
            if s0 < acc < s1:
                run.append(q)
        run.append(_at(segs, s1))
        if width <= 1:
            pygame.draw.aalines(surface, colour, False, run)
        else:
            polyline(surface, colour, run, width)


def dotted(surface: pygame.Surface, colour: Sequence[int], pts: Sequence[Point],
           closed: bool = True, spacing: float = 6, radius: float = 1.5) -> None:
    segs, total = _walk(pts, closed)
    if not segs:
        return
    n = max(1, round(total / spacing))
    for k in range(n):
        disc(surface, colour, _at(segs, total * k / n), radius)


def star_points(c: Point, r: float, points: int = 5, inner: float = 0.45) -> list[Point]:
    out = []
    for k in range(points * 2):
        rr = r if k % 2 == 0 else r * inner
        th = -math.pi / 2 + k * math.pi / points
        out.append((c[0] + rr * math.cos(th), c[1] + rr * math.sin(th)))
    return out


def text_surface(text: str, size: int, colour: Sequence[int] = INK,
                 halo: Sequence[int] | None = HALO, halo_px: int = 2) -> pygame.Surface:
    """Rendered text, with an outline (halo) so it reads on any background."""
    f = font(size)
    body = f.render(text, True, colour)
    if halo is None:
        return body
    w, h = body.get_size()
    out = pygame.Surface((w + 2 * halo_px, h + 2 * halo_px), pygame.SRCALPHA)
    edge = f.render(text, True, halo)
    for dx in range(-halo_px, halo_px + 1):
        for dy in range(-halo_px, halo_px + 1):
            if dx * dx + dy * dy <= halo_px * halo_px + 1:
                out.blit(edge, (halo_px + dx, halo_px + dy))
    out.blit(body, (halo_px, halo_px))
    return out


def boxed_text(text: str, size: int, colour: Sequence[int] = INK,
               fill: Sequence[int] = HALO, edge: Sequence[int] | None = INK,
               pad: int = 3) -> pygame.Surface:
    """Text on a filled box (a tag)."""
    body = font(size).render(text, True, colour)
    w, h = body.get_size()
    out = pygame.Surface((w + 2 * pad + 2, h + 2 * pad), pygame.SRCALPHA)
    out.fill(fill)
    if edge is not None:
        pygame.draw.rect(out, edge, out.get_rect(), 1)
    out.blit(body, (pad + 1, pad + 1))
    return out


def blit_text(surface: pygame.Surface, text: str, size: int, pos: Point,
              colour: Sequence[int] = INK, halo: Sequence[int] | None = HALO,
              anchor: str = "center") -> pygame.Rect:
    """Draw text with its `anchor` (a pygame Rect attribute: center, midleft, topleft, ...) at
    pos; returns the rectangle drawn."""
    s = text_surface(text, size, colour, halo)
    r = s.get_rect()
    setattr(r, anchor, (round(pos[0]), round(pos[1])))
    surface.blit(s, r)
    return r


def icon_rect(x: float, y: float, w: float, h: float) -> pygame.Rect:
    return pygame.Rect(round(x), round(y), round(w), round(h))


IconFn = Callable[[pygame.Surface, pygame.Rect], None]


