"""Where the SVG's labels go: each label takes the first of its candidate centres that covers
no model and no label already placed (else the least bad one), as the PNG's placer does - here
in inches, with text sizes estimated from the font size (the browser lays the text out)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

Box = tuple[float, float, float, float]        # x0, y0, x1, y1 in SVG inches (y down)
CHAR_WIDTH = 0.56                               # a sans-serif character, in font sizes


def text_width(text: str, size: float, bold: bool = False) -> float:
    """About how wide `text` is at font `size` (inches)."""
    return len(text) * size * (CHAR_WIDTH + (0.04 if bold else 0.0))


def around(box: Box, w: float, h: float, gap: float = 0.15) -> list[tuple[float, float]]:
    """Candidate centres for a w x h label next to box: above, below, right, left, corners."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    up, down = y0 - gap - h / 2, y1 + gap + h / 2
    right, left = x1 + gap + w / 2, x0 - gap - w / 2
    return [(cx, up), (cx, down), (right, cy), (left, cy), (right, up), (left, up),
            (right, down), (left, down), (cx, up - h), (cx, down + h)]


def union(boxes: Sequence[Box]) -> Box:
    a = np.asarray(boxes, dtype=float)
    return (float(a[:, 0].min()), float(a[:, 1].min()), float(a[:, 2].max()),
            float(a[:, 3].max()))


@dataclass
class Label:
    """A label to place: its SVG (a function of its centre), size and candidate centres."""

    draw: object                      # Callable[[float, float], str]
    w: float
    h: float
    candidates: list[tuple[float, float]]
    priority: float = 0.0
    order: int = 0


@dataclass
class Placer:
    bounds: Box
    obstacles: list[Box] = field(default_factory=list)
    items: list[Label] = field(default_factory=list)

    def avoid(self, box: Box) -> None:
        self.obstacles.append(box)

    def avoid_line(self, p: tuple[float, float], q: tuple[float, float], width: float) -> None:
        """Keep labels off the segment p-q (drawn `width` inches wide)."""
        n = max(1, int(np.ceil(np.hypot(q[0] - p[0], q[1] - p[1]) / max(width, 0.2))))
        for k in range(n + 1):
            x = p[0] + (q[0] - p[0]) * k / n
            y = p[1] + (q[1] - p[1]) * k / n
            self.obstacles.append((x - width / 2, y - width / 2, x + width / 2, y + width / 2))

    def add(self, draw, w: float, h: float, candidates: Sequence[tuple[float, float]],
            priority: float = 0.0) -> None:
        if candidates:
            self.items.append(Label(draw, w, h, list(candidates), priority, len(self.items)))

    def place_all(self) -> list[str]:
        """Every label's SVG, placed (higher priority chooses first): each label's candidates
        are costed at once (overlap with labels placed x 4, with obstacles, outside the
        bounds x 8, a little for each rank down the list)."""
        obstacles = np.asarray(self.obstacles, dtype=float).reshape(-1, 4)
        placed = np.zeros((len(self.items), 4))
        bx0, by0, bx1, by1 = self.bounds
        out = []
        for k, item in enumerate(sorted(self.items, key=lambda i: (-i.priority, i.order))):
            c = np.asarray(item.candidates, dtype=float)
            hw, hh = item.w / 2, item.h / 2
            boxes = np.column_stack([c[:, 0] - hw, c[:, 1] - hh, c[:, 0] + hw, c[:, 1] + hh])
            inner = boxes + np.array([0.1, 0.1, -0.1, -0.1])
            rank = np.arange(len(c)) * 0.02
            cost = rank + 4 * _overlap(inner, placed[:k]) + _overlap(inner, obstacles)
            cw = np.clip(np.minimum(boxes[:, 2], bx1) - np.maximum(boxes[:, 0], bx0), 0, None)
            ch = np.clip(np.minimum(boxes[:, 3], by1) - np.maximum(boxes[:, 1], by0), 0, None)
            cost += (item.w * item.h - cw * ch) * 8
            free = np.flatnonzero(cost <= rank + 1e-12)      # the first that costs nothing
            best = int(free[0]) if len(free) else int(np.argmin(cost))
            placed[k] = boxes[best]
            out.append(item.draw(float(c[best, 0]), float(c[best, 1])))
        return out


def _overlap(r: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The area each of the boxes r (n, 4) shares with all of `boxes` (m, 4), summed."""
    if not len(boxes):
        return np.zeros(len(r))
    w = np.minimum(r[:, None, 2], boxes[None, :, 2]) - np.maximum(r[:, None, 0], boxes[None, :, 0])
    h = np.minimum(r[:, None, 3], boxes[None, :, 3]) - np.maximum(r[:, None, 1], boxes[None, :, 1])
    return (np.maximum(w, 0) * np.maximum(h, 0)).sum(axis=1)
