"""Table inches to screen pixels: a scale and the pixel where the table's (0, 0) corner lies.

The table's y axis points up (away from the player at the bottom edge); the screen's points down,
so y is flipped: (0, 0) is the board's bottom-left corner.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ViewTransform:
    scale: float        # pixels per inch
    ox: float           # pixel x of table x = 0
    oy: float           # pixel y of table y = 0 (the bottom edge)

    @classmethod
    def for_board(cls, width: float, depth: float, scale: float, left: float = 0.0,
                  top: float = 0.0) -> ViewTransform:
        """The board drawn with its top-left corner at pixel (left, top)."""
        return cls(scale, left, top + depth * scale)

    @classmethod
    def fit(cls, width: float, depth: float, rect: tuple[float, float, float, float]
            ) -> ViewTransform:
        """The largest view showing the whole board centred in rect (x, y, w, h)."""
        x, y, w, h = rect
        scale = min(w / width, h / depth)
        return cls.for_board(width, depth, scale, x + (w - width * scale) / 2,
                             y + (h - depth * scale) / 2)

    def px(self, x: float, y: float) -> tuple[float, float]:
        return (self.ox + x * self.scale, self.oy - y * self.scale)

    def points(self, pts: Iterable[Iterable[float]]) -> list[tuple[float, float]]:
        arr = np.asarray(list(pts) if not isinstance(pts, np.ndarray) else pts, dtype=float)
        if arr.size == 0:
            return []
        xs = self.ox + arr[:, 0] * self.scale
        ys = self.oy - arr[:, 1] * self.scale
        return list(zip(xs.tolist(), ys.tolist(), strict=True))

    def length(self, inches: float) -> float:
        return inches * self.scale

    def table(self, px: float, py: float) -> tuple[float, float]:
        """The table point under a pixel (for picking in an interactive view)."""
        return ((px - self.ox) / self.scale, (self.oy - py) / self.scale)

    def board_rect(self, width: float, depth: float) -> tuple[int, int, int, int]:
        """The board's pixel rectangle (x, y, w, h)."""
        x0, y0 = self.px(0, depth)
        return (round(x0), round(y0), round(width * self.scale), round(depth * self.scale))
