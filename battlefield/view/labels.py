"""The window's label placing in pixels (the drag overlay's tags, the heat map's pictures): the
one placer of every picture (battlefield/depiction/labels.py) given pygame surfaces and
rectangles. Labels go on after everything else is drawn, highest priority first; each takes the
first free place among its own and rings further out round what it names, and a label set away
from it - or nearer another unit's model - is tied to it by a leader line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pygame

from battlefield.depiction.labels import Placer
from battlefield.depiction.labels import around as _around
from battlefield.palette import HALO, INK
from battlefield.view.drawing import text_surface

Point = tuple[float, float]
LEADER = (70, 70, 66)           # the leader line's ink


def _box(r: pygame.Rect) -> tuple[float, float, float, float]:
    return float(r.left), float(r.top), float(r.right), float(r.bottom)


@dataclass
class Labels:
    """`add` labels (with their candidate centres and, for leader lines and places further
    out, the rectangle they name), `avoid` what they must not cover, then `draw` places and
    draws them all; `placed` says where they went."""

    bounds: pygame.Rect | None = None
    placed: list[pygame.Rect] = field(default_factory=list)
    leaders: list[tuple[Point, Point]] = field(default_factory=list)
    placer: Placer = field(init=False)

    def __post_init__(self) -> None:
        self.placer = Placer(bounds=_box(self.bounds) if self.bounds is not None else None,
                             gap=3.0, pad=2.0, up=-1.0)

    @property
    def obstacles(self) -> list[tuple[float, float, float, float]]:
        return self.placer.obstacles

    def avoid(self, rect: pygame.Rect | tuple[float, float, float, float],
              owner: str | None = None) -> None:
        self.placer.avoid(_box(pygame.Rect(rect)), owner)

    def avoid_line(self, p: Point, q: Point, width: float) -> None:
        """Keep labels off the segment p-q (drawn `width` pixels wide)."""
        self.placer.avoid_line(p, q, max(width, 4.0))

    def add(self, surface: pygame.Surface, candidates: Sequence[Point], priority: float = 0,
            anchor: pygame.Rect | tuple[float, float, float, float] | None = None,
            owner: str | None = None) -> None:
        """Place `surface` (a rendered label) centred on one of `candidates`; higher priority
        labels choose first. With `anchor` (what the label names) places further out are
        tried too, and a label set away from it gets a leader line."""
        w, h = surface.get_size()
        self.placer.add(surface, w, h, candidates, priority,
                        None if anchor is None else _box(pygame.Rect(anchor)), owner)

    def text(self, text: str, size: int, candidates: Sequence[Point], colour: Sequence[int] = INK,
             halo: Sequence[int] | None = HALO, priority: float = 0) -> None:
        self.add(text_surface(text, size, colour, halo), candidates, priority)

    def draw(self, surface: pygame.Surface) -> None:
        """Place every label added and draw them with their leaders (under the labels)."""
        spots = self.placer.place()
        self.placer.wants.clear()
        self.leaders = [p.leader for p in spots if p.leader is not None]
        for p, q in self.leaders:
            pygame.draw.aaline(surface, LEADER, p, q)
            pygame.draw.circle(surface, LEADER, (round(p[0]), round(p[1])), 2)
        for spot in spots:
            x0, y0, x1, y1 = spot.box
            r = pygame.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0))
            self.placed.append(r)
            surface.blit(spot.item, r)


def around(rect: pygame.Rect | tuple[float, float, float, float], w: float, h: float,
           gap: float = 3) -> list[Point]:
    """Candidate centres for a w x h label next to rect: above, below, right, left, corners."""
    return _around(_box(pygame.Rect(rect)), w, h, gap, up=-1.0)


__all__ = ["Labels", "around", "LEADER"]
