"""How big a label is, for the placer: each renderer measures its own text (the window with its
pygame font at its zoom, the pages with the width table below, what a browser's Helvetica or
Arial - Liberation Sans on Debian - lays out). Sizes are in table inches."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

# Helvetica's advance widths (its AFM, 1/1000 of the font size) for printable ASCII; Arial and
# Liberation Sans share them. Other characters count as a digit.
_WIDTHS = (
    "278 278 355 556 556 889 667 191 333 333 389 584 278 333 278 278 556 556 556 556 556 556 "
    "556 556 556 556 278 278 584 584 584 556 1015 667 667 722 722 667 611 778 722 278 500 667 "
    "556 833 722 778 667 778 722 667 611 722 667 944 667 667 611 278 278 278 469 556 333 556 "
    "556 500 556 556 278 556 556 222 222 500 222 833 556 556 556 556 333 500 278 556 500 722 "
    "500 500 500 334 260 334 584")
WIDTHS = {chr(32 + k): int(w) / 1000 for k, w in enumerate(_WIDTHS.split())}
BOLD = 1.08                   # Helvetica-Bold is about this much wider

# The pages' font sizes in inches, by role: unit ids, terrain and objectives; the rest.
SIZES = {"label": 0.68, "small": 0.5}
LINE = 0.05                   # the pages' line unit: 1 px at the PNG's 20 px an inch


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide `text` is at font `size` (inches), in Helvetica."""
    return sum(WIDTHS.get(c, 0.556) for c in text) * size * (BOLD if bold else 1.0)


class Metrics(Protocol):
    """What the placer asks of a renderer."""

    line: float               # inches in a line unit
    gap: float                # inches between a label and what it names

    def size(self, shape: dict[str, Any]) -> tuple[float, float]: ...


@dataclass(frozen=True)
class PageMetrics:
    """The SVG pages' (and the browser's) text: SIZES, Helvetica's widths."""

    line: float = LINE
    gap: float = 0.12

    def font(self, role: str) -> float:
        return SIZES.get(role, SIZES["small"])

    def size(self, shape: dict[str, Any]) -> tuple[float, float]:
        size = self.font(shape["r"])
        w = text_width(shape["t"], size, bool(shape.get("b")))
        h = size * 1.2
        if shape.get("box"):
            w, h = w + 0.4, size * 1.5
        if shape.get("badge"):
            small = self.font("small")
            w += 0.15 + text_width(shape["badge"], small) + 0.3
            h = max(h, small * 1.5)
        return w, h


PAGE = PageMetrics()

__all__ = ["Metrics", "PageMetrics", "PAGE", "SIZES", "LINE", "text_width"]
