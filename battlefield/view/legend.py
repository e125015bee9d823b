"""The caption bar under the board: what the scene is, who is who, what the symbols mean, what
the referee ruled, and the measurement in words."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pygame

from battlefield import palette as pal
from battlefield.depiction.legend import (
    legend,
    measure_caption,  # noqa: F401 (re-exported)
)
from battlefield.scene.model import Scene
from battlefield.view.drawing import (
    boxed_text,
    dashed,
    disc,
    dotted,
    fill_polygon,
    font,
    polyline,
    ring,
    star_points,
    thick_line,
)
from battlefield.view.layers import Style, fmt_in

Icon = Callable[[pygame.Surface, pygame.Rect], None]


@dataclass
class _Op:
    kind: str                     # "text" | "icon" | "rule"
    x: float
    y: float
    text: str = ""
    size: int = 16
    colour: pal.RGB = pal.INK
    icon: Icon | None = None
    w: float = 0
    h: float = 0


def legend_sizes(style: Style) -> tuple[int, int]:
    """(text size, title size) in the legend."""
    body = style.size(0.85, 16, 26)
    return body, body + 6




def scene_title(scene: Scene) -> str:
    name = scene.name or Path(scene.file).stem or "scene"
    rs = scene.ruleset
    ruleset = rs.name if rs.id.lower() in rs.name.lower() else f"{rs.name} ({rs.id})"
    return f"{name}  |  {ruleset}  |  {fmt_in(scene.width)} x {fmt_in(scene.depth)} board"


def wrap_text(text: str, size: int, width: float) -> list[str]:
    """Words of `text` in lines no wider than `width` pixels at font `size`."""
    f = font(size)
    lines, line = [], ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if f.size(trial)[0] <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


# --- icons ------------------------------------------------------------------------------------
def _swatch(colour: pal.RGB) -> Icon:
    def draw(s: pygame.Surface, r: pygame.Rect) -> None:
        c = r.center
        rr = r.h * 0.42
        disc(s, pal.darker(colour, 0.6), c, rr)
        disc(s, colour, c, rr - 1.5)
    return draw


def _leader(s: pygame.Surface, r: pygame.Rect) -> None:
    rr = r.h * 0.45
    disc(s, pal.darker(pal.NEUTRAL, 0.5), r.center, rr)
    disc(s, pal.NEUTRAL, r.center, rr - 1.5)
    ring(s, (255, 255, 255), r.center, rr * 0.62, 2)


def _facing(s: pygame.Surface, r: pygame.Rect) -> None:
    cx, cy = r.center
    a, b = r.w * 0.42, r.h * 0.34
    pts = [(cx + a * math.cos(t * math.pi / 16), cy + b * math.sin(t * math.pi / 16))
           for t in range(32)]
    edge = pal.darker(pal.NEUTRAL, 0.5)
    fill_polygon(s, pal.NEUTRAL, pts)
    polyline(s, edge, pts, 1.2, closed=True)
    thick_line(s, edge, (cx + a * 0.45, cy), (cx + a, cy), 2.5)


def _coherency(s: pygame.Surface, r: pygame.Rect) -> None:
    rr = r.h * 0.32
    disc(s, pal.NEUTRAL, r.center, rr)
    ring(s, pal.COHERENCY, r.center, rr + 4, 3)


def _wound_bar(s: pygame.Surface, r: pygame.Rect) -> None:
    bar = pygame.Rect(r.x, r.centery - 3, r.w, 7)
    pygame.draw.rect(s, (90, 90, 90), bar)
    pygame.draw.rect(s, pal.GREEN, pygame.Rect(bar.x, bar.y, round(bar.w * 0.6), bar.h))
    pygame.draw.rect(s, pal.INK, bar, 1)


def _slain(s: pygame.Surface, r: pygame.Rect) -> None:
    c, d = r.center, min(r.w, r.h) * 0.35
    pygame.draw.circle(s, pal.INK_SOFT, c, round(d * 1.5), 1)
    pygame.draw.line(s, pal.INK, (c[0] - d, c[1] - d), (c[0] + d, c[1] + d), 3)
    pygame.draw.line(s, pal.INK, (c[0] - d, c[1] + d), (c[0] + d, c[1] - d), 3)


def _combat(s: pygame.Surface, r: pygame.Rect) -> None:
    p, q = (r.left + 4, r.centery), (r.right - 4, r.centery)
    thick_line(s, (255, 255, 255), p, q, 7)
    thick_line(s, pal.COMBAT, p, q, 4)
    c = r.center
    disc(s, (255, 255, 255), c, 8)
    disc(s, pal.COMBAT, c, 6.5)
    for sx in (-1, 1):
        thick_line(s, (255, 255, 255), (c[0] - 3, c[1] - sx * 3), (c[0] + 3, c[1] + sx * 3), 1.8)


def _measure(s: pygame.Surface, r: pygame.Rect) -> None:
    p, q = (r.left + 5, r.centery), (r.right - 5, r.centery)
    thick_line(s, pal.MEASURE, p, q, 2.5)
    for e in (p, q):
        disc(s, (255, 255, 255), e, 5)
        disc(s, pal.MEASURE, e, 3.5)


def _objective(marker: bool) -> Icon:
    """The zone, dashed, and the marker as the depiction draws it: hollow with a cross through
    it (a point objective: a hollow diamond) - nothing like a base."""
    def draw(s: pygame.Surface, r: pygame.Rect) -> None:
        c = r.center
        zr = r.h * 0.48
        pts = [(c[0] + zr * math.cos(k * math.pi / 12), c[1] + zr * math.sin(k * math.pi / 12))
               for k in range(24)]
        fill_polygon(s, pal.with_alpha(pal.NEUTRAL, 40), pts)
        dashed(s, pal.darker(pal.NEUTRAL, 0.15), pts, True, dash=4, gap=3, width=1.5)
        d = zr * 0.42
        ink = pal.INK_SOFT
        if marker:
            ring(s, ink, c, d, 2)
        else:
            polyline(s, ink, [(c[0], c[1] - d), (c[0] + d, c[1]), (c[0], c[1] + d),
                              (c[0] - d, c[1])], 1.5, closed=True)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            thick_line(s, ink, (c[0] + dx * d * 0.45, c[1] + dy * d * 0.45),
                       (c[0] + dx * d * 1.6, c[1] + dy * d * 1.6), 1.5, caps=False)
    return draw


def _terrain(kind: str) -> Icon:
    def draw(s: pygame.Surface, r: pygame.Rect) -> None:
        box = r.inflate(-4, -4)
        pts = [box.topleft, box.topright, box.bottomright, box.bottomleft]
        fill = pal.terrain_fill(3, kind)
        if kind == "area":
            fill_polygon(s, pal.with_alpha(fill, 150), pts)
            dotted(s, pal.darker(fill, 0.5), pts, spacing=5, radius=1.3)
            return
        fill_polygon(s, fill, pts)
        if kind == "impassable":
            clip = s.get_clip()
            s.set_clip(box)
            for k in range(-box.h, box.w, 6):
                pygame.draw.aaline(s, pal.darker(fill, 0.55), (box.left + k, box.bottom),
                                   (box.left + k + box.h, box.top))
            s.set_clip(clip)
            polyline(s, pal.darker(fill, 0.45), pts, 1.5, closed=True)
        elif kind == "obscuring":
            polyline(s, (28, 24, 22), pts, 3, closed=True)
        elif kind == "place-of-power":
            polyline(s, pal.darker(fill, 0.45), pts, 1.5, closed=True)
            star = star_points(box.center, box.h * 0.5)
            fill_polygon(s, (255, 255, 255), star)
            polyline(s, (70, 40, 110), star, 1.2, closed=True)
        else:
            polyline(s, pal.darker(fill, 0.45), pts, 1.5, closed=True)
    return draw


def _heights(s: pygame.Surface, r: pygame.Rect) -> None:
    w = r.w / 3
    for k, h in enumerate((1, 3, 6)):
        box = pygame.Rect(round(r.left + k * w), r.top + 3, math.ceil(w), r.h - 6)
        pygame.draw.rect(s, pal.terrain_fill(h, "solid"), box)
    pygame.draw.rect(s, pal.darker(pal.terrain_fill(3, "solid"), 0.45),
                     pygame.Rect(r.left, r.top + 3, r.w, r.h - 6), 1)


def _blocker(s: pygame.Surface, r: pygame.Rect) -> None:
    box = r.inflate(-8, -8)
    pts = [box.topleft, box.topright, box.bottomright, box.bottomleft]
    fill_polygon(s, pal.terrain_fill(4, "obscuring"), pts)
    polyline(s, (0, 0, 0), pts, 6, closed=True)
    polyline(s, pal.HIGHLIGHT, pts, 3.5, closed=True)


def _elevation(size: int) -> Icon:
    def draw(s: pygame.Surface, r: pygame.Rect) -> None:
        t = boxed_text('+2"', size, pal.INK, (255, 255, 255), pal.INK_SOFT, pad=2)
        s.blit(t, t.get_rect(center=r.center))
    return draw


def _icon(key: str, style: Style, body: int) -> Icon:
    """The caption bar's icon for a legend entry's key (depiction/legend.py)."""
    if key.startswith("side:"):
        return _swatch(style.side(key[5:]))
    if key.startswith("terrain:"):
        return _terrain(key[8:])
    if key in ("objective", "objective-point"):
        return _objective(key == "objective")
    if key == "height":
        return _elevation(body - 2)
    return {"leader": _leader, "facing": _facing, "coherency": _coherency,
            "wound-bar": _wound_bar, "slain": _slain, "combat": _combat, "measure": _measure,
            "blocker": _blocker, "heights": _heights}[key]


# --- layout -----------------------------------------------------------------------------------
def _layout(scene: Scene, report: dict | None, measure: dict | None, style: Style,
            width: float, damage: tuple[bool, bool] = (False, False)
            ) -> tuple[list[_Op], float]:
    body, title = legend_sizes(style)
    pad = max(10.0, body * 0.6)
    gap_x = body * 1.2
    line_h = font(body).get_linesize() + 4
    ops: list[_Op] = []
    y = pad
    x0, x1 = pad, width - pad

    def text_block(text: str, size: int, colour: pal.RGB = pal.INK) -> None:
        nonlocal y
        for line in wrap_text(text, size, x1 - x0):
            ops.append(_Op("text", x0, y, line, size, colour))
            y += font(size).get_linesize() + 2
        y += 2

    def chips(items: list[tuple[Icon, str]], lead: str = "") -> None:
        nonlocal y
        x = x0
        icon_h = body
        icon_w = round(body * 1.8)
        if lead:
            ops.append(_Op("text", x, y, lead, body, pal.INK_SOFT))
            x += font(body).size(lead)[0] + body * 0.6
        indent = x
        for icon, label in items:
            w = icon_w + 6 + font(body).size(label)[0]
            if x + w > x1 and x > indent:
                x = indent
                y += line_h
            ops.append(_Op("icon", x, y + (line_h - 4 - icon_h) / 2 - 1, icon=icon, w=icon_w,
                           h=icon_h))
            ops.append(_Op("text", x + icon_w + 6, y, label, body))
            x += w + gap_x
        y += line_h

    text_block(scene_title(scene), title)
    if scene.description:
        text_block(scene.description, body, pal.INK_SOFT)
    entries = legend(scene, report, measure, damage)
    for head, items in entries.rows:
        chips([(_icon(key, style, body), words) for key, words in items], head)
    for line in entries.rulings:
        text_block(line, body)
    if entries.caption:
        y += 2
        ops.append(_Op("rule", x0, y, w=x1 - x0))
        y += 6
        text_block(entries.caption, title)
    return ops, y + pad - 2


def legend_height(scene: Scene, report: dict | None, measure: dict | None, style: Style,
                  width: float, damage: tuple[bool, bool] = (False, False)) -> int:
    return math.ceil(_layout(scene, report, measure, style, width, damage)[1])


def draw_legend(surface: pygame.Surface, rect: pygame.Rect | tuple[int, int, int, int],
                scene: Scene, report: dict | None, measure: dict | None, style: Style,
                damage: tuple[bool, bool] = (False, False)) -> None:
    """The caption bar in rect: title, sides, symbol key, rulings and the measurement;
    `damage`: (wound bars drawn, slain models marked), keyed when so."""
    rect = pygame.Rect(rect)
    pygame.draw.rect(surface, pal.PAPER, rect)
    pygame.draw.line(surface, pal.GRID_6, rect.topleft, rect.topright, 1)
    ops, _ = _layout(scene, report, measure, style, rect.w, damage)
    for op in ops:
        x, y = rect.x + op.x, rect.y + op.y
        if op.kind == "text":
            s = font(op.size).render(op.text, True, op.colour)
            surface.blit(s, (round(x), round(y)))
        elif op.kind == "icon" and op.icon is not None:
            op.icon(surface, pygame.Rect(round(x), round(y), round(op.w), round(op.h)))
        elif op.kind == "rule":
            pygame.draw.line(surface, pal.GRID_6, (round(x), round(y)),
                             (round(x + op.w), round(y)), 1)
