"""The overlays of a battlefield picture - rulings (coherency breaks, combat pairs), what blocks
a measurement and the measurement itself - and draw_scene, which draws every layer in order.
They build on the basic layers and lookups of battlefield.view.layers."""

from __future__ import annotations

import math
from collections.abc import Iterable

import pygame

from battlefield import palette as pal
from battlefield.geometry.bases import RECT
from battlefield.page.words import measure_text
from battlefield.scene.model import ModelSpec, Scene
from battlefield.view.damage_marks import draw_losses
from battlefield.view.drawing import (
    boxed_text,
    disc,
    polyline,
    thick_line,
)
from battlefield.view.labels import Labels, around
from battlefield.view.layers import (
    Style,
    draw_board,
    draw_models,
    draw_objectives,
    draw_terrain,
    find_model,
    model_px,
)
from battlefield.view.transform import ViewTransform


# --- a ruleset's marks ----------------------------------------------------------------------------
def draw_marks(surface: pygame.Surface, view: ViewTransform, style: Style, marks: Iterable
               ) -> None:
    """What a ruleset draws (window.Mark): arrows for orders, dashed paths for routes, heavy
    edges for engaged sides, thin outlines for front arcs; each with its label."""
    lw = style.line
    for mark in marks:
        pts = view.points(mark.points)
        if len(pts) < 2:
            continue
        colour = pal.darker(style.side(mark.side), 0.45) if mark.side else pal.INK
        if mark.kind == "edge":
            thick_line(surface, (255, 255, 255), pts[0], pts[-1], max(6.0, lw * 6))
            thick_line(surface, pal.COMBAT, pts[0], pts[-1], max(4.0, lw * 4))
        elif mark.kind == "outline":    # a labelled one (the unit in the hand) stands out
            if mark.label:
                polyline(surface, colour, pts, max(2.5, lw * 2.5), closed=True)
            else:
                faint = pal.lighter(style.side(mark.side), 0.35) if mark.side else pal.INK_SOFT
                polyline(surface, faint, pts, max(1.0, lw), closed=True)
        elif mark.kind == "path":
            for a, b in zip(pts[:-1], pts[1:], strict=True):
                _dashed(surface, colour, a, b, max(2.0, lw * 2))
            disc(surface, colour, pts[-1], max(3.0, lw * 3))
        else:                                           # arrow
            polyline(surface, colour, pts, max(2.0, lw * 2))
            (ax, ay), (bx, by) = pts[-2], pts[-1]
            ang = math.atan2(by - ay, bx - ax)
            head = max(8.0, lw * 8)
            wing = [(bx - head * math.cos(ang - s), by - head * math.sin(ang - s))
                    for s in (0.45, -0.45)]
            pygame.draw.polygon(surface, colour, [(bx, by), *wing])
        if mark.label:                # halfway along an arrow, at the end of anything else
            s = boxed_text(mark.label, style.small_size, pal.INK, (255, 255, 255), colour, 2)
            if mark.kind == "arrow":
                x, y = ((pts[0][0] + pts[-1][0]) / 2, (pts[0][1] + pts[-1][1]) / 2)
                surface.blit(s, s.get_rect(center=(round(x), round(y))))
            else:
                x, y = pts[-1]
                surface.blit(s, s.get_rect(midbottom=(round(x), round(y) - 6)))


def _dashed(surface: pygame.Surface, colour, a, b, width: float, dash: float = 8.0) -> None:
    n = max(1, int(math.hypot(b[0] - a[0], b[1] - a[1]) // dash))
    for k in range(0, n, 2):
        p = (a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n)
        q = (a[0] + (b[0] - a[0]) * (k + 1) / n, a[1] + (b[1] - a[1]) * (k + 1) / n)
        thick_line(surface, colour, p, q, width)


# --- rulings --------------------------------------------------------------------------------------
def draw_rulings(surface: pygame.Surface, view: ViewTransform, scene: Scene, style: Style,
                 report: dict | None) -> None:
    """From `battlefield check`: a magenta ring round every model out of coherency, and a
    crossed badge between the closest models of each pair of units in combat."""
    if not report:
        return
    lw = style.line
    for unit in report.get("units", {}).values():
        for name in unit.get("coherency_breaks", []):
            found = find_model(scene, name)
            if found is None:
                continue
            m = found[1]
            grow = max(3.0, lw * 3)
            pts = model_px(view, m, grow)
            polyline(surface, (255, 255, 255), pts, max(4.0, lw * 4.5), closed=True)
            polyline(surface, pal.COHERENCY, pts, max(2.5, lw * 2.8), closed=True)
    for _, _, gap in combat_links(view, scene, report):
        r = max(6.0, lw * 6)
        disc(surface, (255, 255, 255), gap, r + 2)
        disc(surface, pal.COMBAT, gap, r)
        d = r * 0.5
        for sx in (-1, 1):
            thick_line(surface, (255, 255, 255), (gap[0] - d, gap[1] - sx * d),
                       (gap[0] + d, gap[1] + sx * d), max(1.8, lw * 1.6))


def combat_links(view: ViewTransform, scene: Scene, report: dict | None
                 ) -> list[tuple[tuple[float, float], tuple[float, float], tuple[float, float]]]:
    """For each pair of units in combat (once per pair): the pixel centres of its closest
    models and the middle of the gap between their bases."""
    out: list = []
    if not report:
        return out
    seen: set[frozenset[str]] = set()
    for pair in report.get("pairs", []):
        if not pair.get("in_combat"):
            continue
        key = frozenset((pair["a"], pair["b"]))
        if key in seen:
            continue
        seen.add(key)
        ends = [find_model(scene, n) for n in pair.get("closest_models", [])]
        if len(ends) != 2 or ends[0] is None or ends[1] is None:
            continue
        ma, mb = ends[0][1], ends[1][1]
        dx, dy = mb.x - ma.x, mb.y - ma.y
        n = math.hypot(dx, dy) or 1.0
        ea = _edge_reach(ma, dx / n, dy / n)
        eb = _edge_reach(mb, -dx / n, -dy / n)
        t = (ea + max(n - ea - eb, 0.0) / 2) / n if n > ea + eb else ea / (ea + eb or 1.0)
        gap = view.px(ma.x + dx * t, ma.y + dy * t)
        out.append((view.px(ma.x, ma.y), view.px(mb.x, mb.y), gap))
    return out


def _edge_reach(m: ModelSpec, ux: float, uy: float) -> float:
    """Distance from a model's centre to its base edge in the direction (ux, uy)."""
    th = math.radians(m.facing)
    c, s = math.cos(th), math.sin(th)
    lx, ly = ux * c + uy * s, -ux * s + uy * c          # direction in the base's frame
    a, b = m.base.a, m.base.b
    if m.base.shape == RECT:
        return min(a / abs(lx) if abs(lx) > 1e-12 else math.inf,
                   b / abs(ly) if abs(ly) > 1e-12 else math.inf)
    return 1.0 / math.sqrt((lx / a) ** 2 + (ly / b) ** 2)


def draw_combat(surface: pygame.Surface, view: ViewTransform, scene: Scene, style: Style,
                report: dict | None) -> None:
    """A heavy line joining the closest models of each pair of units in combat, drawn under the
    models (draw_rulings then marks the gap between them with a crossed badge)."""
    lw = style.line
    for p, q, _ in combat_links(view, scene, report):
        thick_line(surface, (255, 255, 255), p, q, max(8.0, lw * 8))
        thick_line(surface, pal.COMBAT, p, q, max(5.0, lw * 5))


# --- measurement ----------------------------------------------------------------------------------
def draw_blockers(surface: pygame.Surface, view: ViewTransform, scene: Scene, style: Style,
                  blocked_by: Iterable[str]) -> None:
    """Outline each blocking terrain piece and ring each blocking model in the highlight."""
    lw = style.line
    pieces = {p.id: p for p in scene.terrain}
    for name in blocked_by:
        if name in pieces:
            pts = view.points(pieces[name].outline)
            polyline(surface, (0, 0, 0), pts, max(7.0, lw * 7), closed=True)
            polyline(surface, pal.HIGHLIGHT, pts, max(4.0, lw * 4), closed=True)
            continue
        found = find_model(scene, name)
        if found is not None:
            pts = model_px(view, found[1], blocker_ring_grow(style))
            polyline(surface, (0, 0, 0), pts, max(4.5, lw * 4), closed=True)
            polyline(surface, pal.HIGHLIGHT, pts, max(2.5, lw * 2.4), closed=True)


def blocker_ring_grow(style: Style) -> float:
    """How far (pixels) outside a blocking model's base its highlight ring runs."""
    return max(3.0, style.line * 2.5)




def draw_measurement(surface: pygame.Surface, view: ViewTransform, scene: Scene, style: Style,
                     measure: dict | None, labels: Labels | None = None) -> None:
    """The closest-point line of `battlefield measure` with its distance, and its blockers."""
    if not measure:
        return
    lw = style.line
    draw_blockers(surface, view, scene, style, measure.get("blocked_by", []))
    pa, pb = measure["points"]["a"], measure["points"]["b"]
    p, q = view.px(pa[0], pa[1]), view.px(pb[0], pb[1])
    thick_line(surface, (255, 255, 255), p, q, max(6.0, lw * 6))
    thick_line(surface, pal.MEASURE, p, q, max(2.5, lw * 2.5))
    for e in (p, q):
        disc(surface, (255, 255, 255), e, max(5.0, lw * 5))
        disc(surface, pal.MEASURE, e, max(3.5, lw * 3.5))
    if labels is not None:
        labels.avoid_line(p, q, max(6.0, lw * 6))
    t = boxed_text(measure_text(measure), style.label_size, pal.INK, (255, 255, 255), pal.INK, 4)
    w, h = t.get_size()
    mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / n, dx / n
    off = (abs(nx) * w + abs(ny) * h) / 2 + 6
    cands = [(mx + nx * off, my + ny * off), (mx - nx * off, my - ny * off), (mx, my)]
    cands += around(pygame.Rect(round(min(p[0], q[0])), round(min(p[1], q[1])),
                                round(abs(dx)) + 1, round(abs(dy)) + 1), w, h, 6)
    if labels is not None:
        labels.add(t, cands, priority=10)
    else:
        surface.blit(t, t.get_rect(center=(round(cands[0][0]), round(cands[0][1]))))


# --- everything -----------------------------------------------------------------------------------
def draw_scene(surface: pygame.Surface, view: ViewTransform, scene: Scene,
               report: dict | None = None, measure: dict | None = None,
               style: Style | None = None, rulers: bool = True, marks: Iterable = (),
               wounds: dict | None = None, lost: Iterable = ()) -> Labels:
    """All layers in order, then the labels (kept off the models and off each other). Returns
    the label placer, whose `placed` rectangles say where the labels went. `wounds` and `lost`:
    damage on the models and where models were taken off (view.damage_marks)."""
    style = style or Style.for_scene(scene, report, view.scale)
    labels = Labels(bounds=pygame.Rect(view.board_rect(scene.width, scene.depth)).inflate(-2, -2))
    draw_board(surface, view, scene, style, labels, rulers)
    draw_terrain(surface, view, scene, style, labels)
    draw_objectives(surface, view, scene, style, report, labels)
    draw_combat(surface, view, scene, style, report)
    for p, q, _ in combat_links(view, scene, report):
        labels.avoid_line(p, q, max(8.0, style.line * 8))
    draw_losses(surface, view, list(lost), style.side, style.line)
    draw_models(surface, view, scene, style, labels, wounds)
    draw_marks(surface, view, style, marks)
    draw_rulings(surface, view, scene, style, report)
    draw_measurement(surface, view, scene, style, measure, labels)
    labels.draw(surface)
    return labels

