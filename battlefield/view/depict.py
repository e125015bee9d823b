"""The window's renderer of a depiction (battlefield/depiction): the same shapes and placed
labels the SVG pages write, drawn on a pygame Surface through a view transform. Line units are
`Style.line` pixels; texts are rendered with the window's font (WindowMetrics measures them for
the placer, so a label goes where its own pixels fit)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import pygame

from battlefield import palette as pal
from battlefield.depiction.shapes import Shape
from battlefield.geometry.bases import outline_points
from battlefield.view.drawing import (
    boxed_text,
    circle_points,
    dashed,
    disc,
    fill_polygon,
    polyline,
    star_points,
    text_surface,
    thick_line,
)
from battlefield.view.transform import ViewTransform

if TYPE_CHECKING:
    from battlefield.view.layers import Style


class WindowMetrics:
    """Text sizes for the placer, in table inches at the view's scale, from the surfaces the
    window blits (kept, so measuring and drawing render each label once)."""

    def __init__(self, style: Style, scale: float, colours: dict[str, pal.RGB]) -> None:
        self.style, self.scale, self.colours = style, scale, colours
        self.line = style.line / scale              # inches in a line unit
        self.gap = 3.0 / scale
        self._surfaces: dict[tuple, pygame.Surface] = {}

    def colour(self, key: str) -> pal.RGB:
        return pal.paint(key, self.colours)

    def surface(self, s: Shape) -> pygame.Surface:
        if s["k"] == "caption":
            key: tuple = ("caption", *(tuple(line) for line in s["lines"]))
        else:
            key = (s["t"], s["r"], s["f"], s.get("b"), tuple(s.get("box") or ()),
                   s.get("badge"), s.get("halo", True))
        out = self._surfaces.get(key)
        if out is None:
            out = self._surfaces[key] = self._render(s)
        return out

    def _render(self, s: Shape) -> pygame.Surface:
        if s["k"] == "caption":              # the drag's words: a box of lines
            rows = [text_surface(text, self.style.small_size, self.colour(key))
                    for text, key in s["lines"]]
            box = pygame.Surface((max(r.get_width() for r in rows) + 20,
                                  sum(r.get_height() for r in rows) + 12), pygame.SRCALPHA)
            box.fill((255, 255, 255, 215))
            y = 6
            for r in rows:
                box.blit(r, (10, y))
                y += r.get_height()
            return box
        size = self.style.label_size if s["r"] == "label" else self.style.small_size
        ink = self.colour(s["f"])
        if s.get("box"):
            fill, edge = (self.colour(k) for k in s["box"])
            body = boxed_text(s["t"], size, ink, fill, edge, pad=3 if s["r"] == "label" else 2)
        else:
            body = text_surface(s["t"], size, ink, pal.HALO if s.get("halo", True) else None)
        if not s.get("badge"):
            return body
        badge = boxed_text(s["badge"], self.style.small_size, pal.INK, (255, 255, 255), ink,
                           pad=2)
        w = body.get_width() + 3 + badge.get_width()
        h = max(body.get_height(), badge.get_height())
        out = pygame.Surface((w, h), pygame.SRCALPHA)
        out.blit(body, (0, (h - body.get_height()) // 2))
        out.blit(badge, (body.get_width() + 3, (h - badge.get_height()) // 2))
        return out

    def size(self, s: Shape) -> tuple[float, float]:
        w, h = self.surface(s).get_size()
        return w / self.scale, h / self.scale


class Painter:
    """Draws shapes on a surface through `view` (table inches to pixels)."""

    def __init__(self, surface: pygame.Surface, view: ViewTransform, metrics: WindowMetrics
                 ) -> None:
        self.surface, self.view, self.m = surface, view, metrics
        self.lw = metrics.style.line

    def c(self, key: str) -> pal.RGB:
        return self.m.colour(key)

    def shapes(self, shapes: Iterable[Shape]) -> None:
        for s in shapes:
            self.shape(s)

    def shape(self, s: Shape) -> None:
        getattr(self, "_" + s["k"])(s)

    def _group(self, s: Shape) -> None:
        self.shapes(s["g"])

    def _stroke(self, s: Shape, pts: list[tuple[float, float]], closed: bool) -> None:
        if "s" not in s:
            return
        colour, width = self.c(s["s"]), max(1.0, s["w"] * self.lw)
        if "d" in s:
            on, off = (max(1.0, d * self.lw) for d in s["d"][:2])
            dashed(self.surface, colour, pts, closed, dash=on, gap=off, width=width)
        elif len(pts) == 2 and not closed:
            thick_line(self.surface, colour, pts[0], pts[1], width, caps=s.get("cap") == "round")
        else:
            polyline(self.surface, colour, pts, width, closed)

    def _fill(self, s: Shape, pts: list[tuple[float, float]]) -> None:
        if "f" in s and len(pts) > 2:
            colour: Any = self.c(s["f"])
            if s.get("o", 1) < 1:
                colour = pal.with_alpha(colour, round(255 * s["o"]))
            fill_polygon(self.surface, colour, pts)

    def _line(self, s: Shape) -> None:
        pts = self.view.points(s["p"])
        if s.get("z"):
            self._fill(s, pts)
        self._stroke(s, pts, bool(s.get("z")))

    def _circle(self, s: Shape) -> None:
        c = self.view.px(*s["c"])
        r = self.view.length(s["r"]) + s.get("rl", 0) * self.lw
        n = max(32, min(256, int(r * 0.6)))
        pts = circle_points(c, r, n)
        self._fill(s, pts)
        self._stroke(s, pts, True)

    def _base(self, s: Shape) -> None:
        grow = s.get("g", 0) * self.lw / self.view.scale
        a, b = s["ab"]
        n = max(24, min(96, int(self.view.length(max(a, b)) * 1.5)))
        pts = self.view.points(outline_points(s["sh"], a + grow, b + grow, s["c"][0], s["c"][1],
                                              s.get("t", 0.0), n))
        self._fill(s, pts)
        self._stroke(s, pts, True)

    def _dot(self, s: Shape) -> None:
        disc(self.surface, self.c(s["f"]), self.view.px(*s["c"]), s["rl"] * self.lw)

    def _glyph(self, s: Shape) -> None:
        cx, cy = self.view.px(*s["c"])
        r = s["rl"] * self.lw
        if s["g"] == "cross":
            width = max(1.0, s.get("w", 1) * self.lw)
            for k in (-1, 1):
                thick_line(self.surface, self.c(s["s"]), (cx - r, cy - k * r), (cx + r, cy + k * r),
                           width)
            return
        if s["g"] == "arrowhead":
            ang = -math.radians(s.get("t", 0.0))
            pts = [(cx, cy)] + [(cx - r * math.cos(ang - k), cy - r * math.sin(ang - k))
                                for k in (0.45, -0.45)]
        else:
            pts = star_points((cx, cy), r)
        if "f" in s:
            pygame.draw.polygon(self.surface, self.c(s["f"]), pts)
        self._stroke(s, pts, True)

    def _area(self, s: Shape) -> None:
        """Filled rings with their holes (even-odd), see-through: drawn on a layer first."""
        layer = pygame.Surface(self.surface.get_size(), pygame.SRCALPHA)
        colour = self.c(s["f"])
        for k, ring in enumerate(s["rings"]):
            pts = self.view.points(ring)
            if len(pts) > 2:
                hole = s.get("holes") and s["holes"][k]
                pygame.draw.polygon(layer, (0, 0, 0, 0) if hole else (*colour, 255), pts)
        layer.set_alpha(round(255 * s.get("o", 1)))
        self.surface.blit(layer, (0, 0))

    def _caption(self, s: Shape) -> None:
        self._text(s)

    def _text(self, s: Shape) -> None:
        t = self.m.surface(s)
        x, y = self.view.px(*s["c"])
        self.surface.blit(t, t.get_rect(center=(round(x), round(y))))


def draw(surface: pygame.Surface, view: ViewTransform, shapes: Iterable[Shape],
         metrics: WindowMetrics) -> None:
    """Draw `shapes` (a depiction's layer) on `surface`."""
    Painter(surface, view, metrics).shapes(shapes)


def placed_rects(view: ViewTransform, placed: Iterable[Any]) -> list[pygame.Rect]:
    """Where the labels went, as pixel rectangles (depiction.labels.Placed boxes)."""
    out = []
    for p in placed:
        x0, y0, x1, y1 = p.box
        (px0, py0), (px1, py1) = view.px(x0, y1), view.px(x1, y0)
        out.append(pygame.Rect(round(px0), round(py0), round(px1 - px0), round(py1 - py0)))
    return out


__all__ = ["WindowMetrics", "Painter", "draw", "placed_rects"]
