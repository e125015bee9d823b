"""Label placement, one pass for everything a picture or the window labels (unit ids, terrain
names, objective tags, height badges, measurements): labels are placed after everything else
is drawn, the highest priority first; each takes the first of its candidate places - its own
near ones, then rings further out round its anchor - that overlaps no model, no line it must
keep off and no label already placed (else the least bad place). A label set away from its
anchor is tied to it by a leader line. Only pygame.font is needed; nothing opens a display."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain

import pygame

from battlefield.palette import HALO, INK
from battlefield.view.drawing import text_surface

Point = tuple[float, float]
LEADER = (70, 70, 66)           # the leader line's ink
# Further places tried round the anchor: 16 directions at these many label heights beyond the
# near ring (farther places cost more, so a near free place always wins).
DIRECTIONS = 16
STEPS = (0.9, 2.0, 3.4, 5.2, 7.5, 10.5)
_UNIT = [(math.cos(2 * math.pi * k / DIRECTIONS - math.pi / 2),
          math.sin(2 * math.pi * k / DIRECTIONS - math.pi / 2)) for k in range(DIRECTIONS)]
GOOD_ENOUGH = 0.03      # a place whose models and lines cover under 3% of the label is taken


@dataclass
class _Label:
    surface: pygame.Surface
    candidates: list[Point]
    priority: float
    order: int
    anchor: pygame.Rect | None = None


@dataclass
class Labels:
    """The label placer: `add` labels (with their candidate centres and, for leader lines and
    places further out, the rectangle they name), `avoid` what they must not cover, then
    `draw` places and draws them all."""

    bounds: pygame.Rect | None = None
    obstacles: list[pygame.Rect] = field(default_factory=list)
    placed: list[pygame.Rect] = field(default_factory=list)
    leaders: list[tuple[Point, Point]] = field(default_factory=list)
    _items: list[_Label] = field(default_factory=list)

    def avoid(self, rect: pygame.Rect | tuple[float, float, float, float]) -> None:
        self.obstacles.append(pygame.Rect(rect))

    def avoid_line(self, p: Point, q: Point, width: float) -> None:
        """Keep labels off the segment p-q (drawn `width` pixels wide)."""
        n = max(1, math.ceil(math.hypot(q[0] - p[0], q[1] - p[1]) / max(width, 4.0)))
        for k in range(n + 1):
            x = p[0] + (q[0] - p[0]) * k / n
            y = p[1] + (q[1] - p[1]) * k / n
            self.obstacles.append(pygame.Rect(round(x - width / 2), round(y - width / 2),
                                              math.ceil(width), math.ceil(width)))

    def add(self, surface: pygame.Surface, candidates: Sequence[Point], priority: float = 0,
            anchor: pygame.Rect | tuple[float, float, float, float] | None = None) -> None:
        """Place `surface` (a rendered label) centred on one of `candidates`; higher priority
        labels choose first. With `anchor` (what the label names) places further out are
        tried too, and a label set away from it gets a leader line."""
        if candidates:
            self._items.append(_Label(surface, list(candidates), priority, len(self._items),
                                      None if anchor is None else pygame.Rect(anchor)))

    def text(self, text: str, size: int, candidates: Sequence[Point], colour: Sequence[int] = INK,
             halo: Sequence[int] | None = HALO, priority: float = 0) -> None:
        self.add(text_surface(text, size, colour, halo), candidates, priority)

    def _cost(self, r: pygame.Rect) -> float:
        """How much the label at r covers: other labels (4 a pixel), models and lines to keep
        clear (1), the outside of the bounds (8)."""
        inner = r.inflate(-4, -4)
        cost = 0.0
        for k in inner.collidelistall(self.placed):
            c = inner.clip(self.placed[k])
            cost += c.w * c.h * 4
        for k in inner.collidelistall(self.obstacles):
            c = inner.clip(self.obstacles[k])
            cost += c.w * c.h
        if self.bounds is not None and not self.bounds.contains(r):
            c = r.clip(self.bounds)
            cost += (r.w * r.h - c.w * c.h) * 8
        return cost

    def _further(self, item: _Label) -> Iterator[Point]:
        """Rings of places round the anchor, nearest first (made as they are asked for)."""
        a = item.anchor
        if a is None:
            return
        w, h = item.surface.get_size()
        rx, ry = a.w / 2 + w / 2 + 3, a.h / 2 + h / 2 + 3   # out of the anchor and the label
        for step in STEPS:
            for dx, dy in _UNIT:
                reach = min(rx / abs(dx) if abs(dx) > 1e-9 else math.inf,
                            ry / abs(dy) if abs(dy) > 1e-9 else math.inf)
                d = reach + step * h
                yield a.centerx + dx * d, a.centery + dy * d

    def place(self, item: _Label) -> pygame.Rect:
        """The label's rectangle: the first free place (or one whose models and lines cover
        little of it, no label at all), else the least covered (each place further down the
        list costs a little more, so ties go to the nearer)."""
        best, best_cost = None, math.inf
        w, h = item.surface.get_size()
        enough = w * h * GOOD_ENOUGH
        for rank, (x, y) in enumerate(chain(item.candidates, self._further(item))):
            r = item.surface.get_rect(center=(round(x), round(y)))
            cost = self._cost(r)
            if cost <= enough:
                best = r
                break
            cost += rank * 2
            if cost < best_cost:
                best, best_cost = r, cost
        assert best is not None
        self.placed.append(best)
        if item.anchor is not None and not best.colliderect(item.anchor.inflate(10, 10)):
            self.leaders.append(_leader(item.anchor, best))
        return best

    def draw(self, surface: pygame.Surface) -> None:
        """Place every label added, highest priority first, and draw them with their leaders
        (under the labels)."""
        spots = [(item, self.place(item))
                 for item in sorted(self._items, key=lambda i: (-i.priority, i.order))]
        for p, q in self.leaders:
            pygame.draw.aaline(surface, LEADER, p, q)
            pygame.draw.circle(surface, LEADER, (round(p[0]), round(p[1])), 2)
        for item, r in spots:
            surface.blit(item.surface, r)
        self._items.clear()
        self.leaders = []


def _leader(anchor: pygame.Rect, label: pygame.Rect) -> tuple[Point, Point]:
    """From the anchor's edge to the label's, along the line between their centres."""
    return _edge(anchor, label.center), _edge(label, anchor.center)


def _edge(r: pygame.Rect, toward: Point) -> Point:
    """Where the segment from r's centre toward a point leaves r."""
    cx, cy = r.center
    dx, dy = toward[0] - cx, toward[1] - cy
    if abs(dx) < 1e-9 and abs(dy) < 1e-9:
        return float(cx), float(cy)
    sx = (r.w / 2) / abs(dx) if abs(dx) > 1e-9 else math.inf
    sy = (r.h / 2) / abs(dy) if abs(dy) > 1e-9 else math.inf
    s = min(sx, sy, 1.0)
    return cx + dx * s, cy + dy * s


def around(rect: pygame.Rect | tuple[float, float, float, float], w: float, h: float,
           gap: float = 3) -> list[Point]:
    """Candidate centres for a w x h label next to rect: above, below, right, left, corners."""
    r = pygame.Rect(rect)
    cx, cy = r.centerx, r.centery
    up, down = r.top - gap - h / 2, r.bottom + gap + h / 2
    right, left = r.right + gap + w / 2, r.left - gap - w / 2
    return [(cx, up), (cx, down), (right, cy), (left, cy), (right, up), (left, up),
            (right, down), (left, down), (cx, up - h), (cx, down + h)]


__all__ = ["Labels", "around", "LEADER"]
