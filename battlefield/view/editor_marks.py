"""What the map editor draws over the table: deployment zones in their sides' colours, the
selected piece, zone or objective with its corner handles, the piece or corner in the hand where
it would land, a one-line tool strip of the keys and a tag naming what is selected."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import shapely

from battlefield import palette as pal
from battlefield.scene.model import Scene
from battlefield.view.drawing import dashed, fill_polygon, font, polyline, ring
from battlefield.view.layers import Style, objective_radii

if TYPE_CHECKING:
    from battlefield.view.editor import Editor, Selection

STRIP_TITLE = "EDIT MAP"
STRIP_SIZES = (18, 16, 14, 12)
HANDLE = 5                          # half the side of a corner handle, in pixels
# The editor's keys and what each does (the strip, and the side panel in edit mode).
SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("drag", "move"),
    ("drag a corner", "reshape"),
    ("R/Shift+R", "turn 15 deg"),
    ("]/[", "size 10%"),
    ("PgUp/PgDn", "height 0.5\""),
    ("K", "kind"),
    ("N", "new piece"),
    ("O", "objective"),
    ("Del", "delete"),
    ("Ctrl+S", "save"),
    ("Ctrl+Z", "undo"),
)
PIECE_KEYS = "R/Shift+R turn   ]/[ size   PgUp/PgDn height   K kind   Del delete"


def draw_marks(editor: Editor, surface: pygame.Surface) -> None:
    """Everything the editor adds, clipped to the table's rectangle."""
    tv = editor.table
    clip = surface.get_clip()
    surface.set_clip(tv.rect)
    scene = editor.scene
    result = editor.dragged(preview=True)
    if isinstance(result, tuple):
        scene = result[0]
    style = Style.for_scene(scene, None, tv.view.scale)
    draw_zones(surface, editor, scene, style)
    if editor.held is not None and isinstance(result, tuple):
        draw_ghost(surface, editor, scene, editor.held.what)
    if editor.selected is not None:
        near = draw_selection(surface, editor, scene, editor.selected)
        if near is not None:
            draw_tag(surface, tv.rect, near, editor.describe(),
                     PIECE_KEYS if editor.selected[0] == "piece" else None)
    draw_strip(surface, tv.rect)
    surface.set_clip(clip)


def draw_zones(surface: pygame.Surface, editor: Editor, scene: Scene, style: Style) -> None:
    """Each deployment zone's outline, dashed in its side's colour."""
    view = editor.table.view
    for side, zone in scene.deployment.items():
        dashed(surface, pal.darker(style.side(side), 0.1), view.points(zone), True, dash=12,
               gap=6, width=3)


def draw_ghost(surface: pygame.Surface, editor: Editor, scene: Scene, what: Selection) -> None:
    """The piece in the hand where it would land, translucent."""
    kind, key = what
    if kind != "piece":
        return
    piece = next(p for p in scene.terrain if p.id == key)
    fill = pal.terrain_fill(piece.height, piece.kind)
    fill_polygon(surface, pal.with_alpha(fill, 150), editor.table.view.points(piece.outline))


def draw_selection(surface: pygame.Surface, editor: Editor, scene: Scene,
                   what: Selection) -> pygame.Rect | None:
    """A yellow edge with a black rim and square handles on the corners (a yellow ring round an
    objective); the pixel box of what is selected."""
    view = editor.table.view
    kind, key = what
    if kind == "objective":
        o = next((o for o in scene.objectives if o.id == key), None)
        if o is None:
            return None
        r = max(10.0, view.length(objective_radii(scene)[1]) + 6)
        c = view.px(o.x, o.y)
        ring(surface, pal.INK, c, r + 2, 6)
        ring(surface, pal.HIGHLIGHT, c, r + 1, 3)
        return pygame.Rect(round(c[0] - r - 2), round(c[1] - r - 2), round(2 * r + 4),
                           round(2 * r + 4))
    outline = (next((p.outline for p in scene.terrain if p.id == key), None) if kind == "piece"
               else scene.deployment.get(key))
    if outline is None:
        return None
    pts = view.points(outline)
    polyline(surface, pal.INK, pts, 5, closed=True)
    polyline(surface, pal.HIGHLIGHT, pts, 2.5, closed=True)
    for x, y in pts:
        box = pygame.Rect(round(x) - HANDLE, round(y) - HANDLE, 2 * HANDLE + 1, 2 * HANDLE + 1)
        pygame.draw.rect(surface, pal.HALO, box)
        pygame.draw.rect(surface, pal.INK, box, 2)
    if kind == "piece":
        c = shapely.Polygon(outline).centroid
        cx, cy = view.px(c.x, c.y)
        pygame.draw.line(surface, pal.INK, (cx - 6, cy), (cx + 6, cy), 2)
        pygame.draw.line(surface, pal.INK, (cx, cy - 6), (cx, cy + 6), 2)
    xs, ys = [x for x, _ in pts], [y for _, y in pts]
    return pygame.Rect(round(min(xs)), round(min(ys)), round(max(xs) - min(xs)),
                       round(max(ys) - min(ys))).inflate(2 * HANDLE, 2 * HANDLE)


def draw_tag(surface: pygame.Surface, rect: pygame.Rect, near: pygame.Rect, text: str,
             keys: str | None) -> None:
    """What is selected (and for a piece the keys that change it) on a yellow tag below the
    selection, or above it when there is no room below; kept inside the table's rectangle."""
    lines = [font(16).render(text, True, pal.INK)]
    if keys:
        lines.append(font(14).render(keys, True, pal.INK))
    w = max(t.get_width() for t in lines) + 10
    h = sum(t.get_height() for t in lines) + 6 + 2 * (len(lines) - 1)
    tag = pygame.Surface((w, h), pygame.SRCALPHA)
    tag.fill(pal.with_alpha(pal.HIGHLIGHT, 235))
    pygame.draw.rect(tag, pal.INK, tag.get_rect(), 1)
    y = 3
    for t in lines:
        tag.blit(t, (5, y))
        y += t.get_height() + 2
    box = tag.get_rect(midtop=(near.centerx, near.bottom + 4))
    if box.bottom > rect.bottom:
        box.midbottom = (near.centerx, near.top - 4)
    box.clamp_ip(rect.inflate(-4, -4))
    if box.top < rect.top + strip_height():
        box.top = rect.top + strip_height() + 2
    surface.blit(tag, box)


def strip_height() -> int:
    return font(STRIP_SIZES[0]).get_linesize() + 8


def strip_parts(size: int) -> list[pygame.Surface]:
    """The title, then each key (blue) with what it does."""
    f = font(size)
    parts = [f.render(STRIP_TITLE, True, pal.INK)]
    for key, what in SHORTCUTS:
        k, w = f.render(key, True, pal.BLUE), f.render(" " + what, True, pal.INK)
        part = pygame.Surface((k.get_width() + w.get_width(), k.get_height()), pygame.SRCALPHA)
        part.blit(k, (0, 0))
        part.blit(w, (k.get_width(), 0))
        parts.append(part)
    return parts


def draw_strip(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """The keys on one line across the top of the table, in the largest font that fits (the
    last keys left out when even the smallest does not)."""
    room = rect.width - 16
    for size in STRIP_SIZES:
        parts, gap = strip_parts(size), size
        if sum(p.get_width() for p in parts) + gap * (len(parts) - 1) <= room:
            break
    while len(parts) > 1 and sum(p.get_width() for p in parts) + gap * (len(parts) - 1) > room:
        parts.pop()
    band = pygame.Rect(rect.left, rect.top, rect.width, strip_height())
    shade = pygame.Surface(band.size, pygame.SRCALPHA)
    shade.fill(pal.with_alpha(pal.PAPER, 220))
    surface.blit(shade, band.topleft)
    pygame.draw.line(surface, pal.INK_SOFT, band.bottomleft, band.bottomright, 1)
    x = band.left + 8
    for p in parts:
        surface.blit(p, p.get_rect(midleft=(x, band.centery)))
        x += p.get_width() + gap
