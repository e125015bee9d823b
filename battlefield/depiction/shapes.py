"""The vocabulary of a depiction: a handful of shapes as plain JSON-able dicts, in table inches
(x to the right, y up the table), coloured by palette keys (battlefield/palette.py `paint`).
Widths and the sizes of decorations are in *line units*: the standard stroke of the renderer
(0.05" in the SVG, `Style.line` pixels in the window), so a ring or a badge keeps its weight at
every zoom. Each shape is {"k": KIND, ...}:

- line:   "p" [[x, y], ...], "s" stroke key, "w" width, "d" dash [on, off] (line units),
          "z" closed, "f" fill key, "o" fill opacity, "cap" "round"
- circle: "c" [x, y], "r" radius in inches, "rl" more radius in line units, stroke/fill/dash
- base:   a model's outline: "c" [x, y], "sh" 0 round | 1 oval | 2 rect, "ab" [a, b] (half
          sizes, inches), "t" facing (degrees, counter-clockwise), "g" grown by line units
- dot:    "c" [x, y], "rl" radius in line units, "f" fill key
- glyph:  "c" [x, y], "g" cross | arrowhead | star, "rl" size in line units, "t" angle
          (degrees, counter-clockwise), stroke/fill
- area:   "rings" [[[x, y], ...], ...] (outer rings and holes, even-odd; "holes" says which
          are holes), "f", "o"
- text:   "c" [x, y] its centre, "t" text, "r" role (label | small), "f" ink key, "b" bold,
          "box" [fill key, edge key] or absent (a tag), "halo" bool, "badge" boxed text after it
- group:  "g" [shapes], "id" the layer's id or absent, "a" {data-* attributes}

`a` (attributes) may sit on any shape: what the SVG writes as data-* on its element, so tools
and tests find things by their meaning (data-ruling, data-mark, data-label-for ...)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

Shape = dict[str, Any]
Point = tuple[float, float]


def r4(v: float) -> float:
    """A coordinate kept to 4 decimals (2.5 micrometres): short JSON, stable output."""
    out = round(float(v), 4)
    return 0.0 if out == 0 else out


def pts(points: Iterable[Iterable[float]]) -> list[list[float]]:
    return [[r4(p[0]), r4(p[1])] for p in points]


def _paint(out: Shape, stroke: str | None, width: float, fill: str | None,
           opacity: float | None, dash: Sequence[float] | None, attrs: dict | None) -> Shape:
    if stroke is not None and width > 0:
        out["s"], out["w"] = stroke, r4(width)
    if fill is not None:
        out["f"] = fill
        if opacity is not None and opacity < 1:
            out["o"] = r4(opacity)
    if dash:
        out["d"] = [r4(d) for d in dash]
    if attrs:
        out["a"] = {k: str(v) for k, v in attrs.items() if v is not None}
    return out


def line(points: Iterable[Iterable[float]], stroke: str | None = None, width: float = 1.0, *,
         closed: bool = False, fill: str | None = None, opacity: float | None = None,
         dash: Sequence[float] | None = None, cap: str | None = None,
         attrs: dict | None = None) -> Shape:
    out: Shape = {"k": "line", "p": pts(points)}
    if closed:
        out["z"] = True
    if cap:
        out["cap"] = cap
    return _paint(out, stroke, width, fill, opacity, dash, attrs)


def circle(centre: Iterable[float], r: float, stroke: str | None = None, width: float = 1.0, *,
           grow: float = 0.0, fill: str | None = None, opacity: float | None = None,
           dash: Sequence[float] | None = None, attrs: dict | None = None) -> Shape:
    c = list(centre)
    out: Shape = {"k": "circle", "c": [r4(c[0]), r4(c[1])], "r": r4(r)}
    if grow:
        out["rl"] = r4(grow)
    return _paint(out, stroke, width, fill, opacity, dash, attrs)


def base(x: float, y: float, shape: int, a: float, b: float, facing: float,
         stroke: str | None = None, width: float = 1.0, *, grow: float = 0.0,
         fill: str | None = None, opacity: float | None = None, attrs: dict | None = None
         ) -> Shape:
    out: Shape = {"k": "base", "c": [r4(x), r4(y)], "sh": int(shape), "ab": [r4(a), r4(b)]}
    if facing:
        out["t"] = r4(facing)
    if grow:
        out["g"] = r4(grow)
    return _paint(out, stroke, width, fill, opacity, None, attrs)


def dot(centre: Iterable[float], r_lines: float, fill: str, attrs: dict | None = None) -> Shape:
    c = list(centre)
    return _paint({"k": "dot", "c": [r4(c[0]), r4(c[1])], "rl": r4(r_lines)}, None, 0, fill,
                  None, None, attrs)


def glyph(kind: str, centre: Iterable[float], size: float, *, angle: float = 0.0,
          stroke: str | None = None, width: float = 1.0, fill: str | None = None,
          attrs: dict | None = None) -> Shape:
    c = list(centre)
    out: Shape = {"k": "glyph", "g": kind, "c": [r4(c[0]), r4(c[1])], "rl": r4(size)}
    if angle:
        out["t"] = r4(angle)
    return _paint(out, stroke, width, fill, None, None, attrs)


def area(rings: Iterable[Iterable[Iterable[float]]], fill: str, opacity: float = 1.0,
         holes: Sequence[bool] | None = None, attrs: dict | None = None) -> Shape:
    out: Shape = {"k": "area", "rings": [pts(r) for r in rings]}
    if holes is not None and any(holes):
        out["holes"] = [bool(h) for h in holes]
    return _paint(out, None, 0, fill, opacity, None, attrs)


def text(centre: Iterable[float], words: str, role: str, ink: str, *, bold: bool = False,
         box: tuple[str, str] | None = None, halo: bool = True, badge: str | None = None,
         attrs: dict | None = None) -> Shape:
    c = list(centre)
    out: Shape = {"k": "text", "c": [r4(c[0]), r4(c[1])], "t": words, "r": role, "f": ink}
    if bold:
        out["b"] = True
    if box is not None:
        out["box"] = list(box)
    if not halo:
        out["halo"] = False
    if badge:
        out["badge"] = badge
    if attrs:
        out["a"] = {k: str(v) for k, v in attrs.items() if v is not None}
    return out


def group(children: list[Shape], layer: str | None = None, attrs: dict | None = None
          ) -> Shape:
    out: Shape = {"k": "group", "g": children}
    if layer:
        out["id"] = layer
    if attrs:
        out["a"] = {k: str(v) for k, v in attrs.items() if v is not None}
    return out


def keys(shapes: Iterable[Shape]) -> set[str]:
    """Every palette key the shapes use (to resolve them once for a page)."""
    out: set[str] = set()
    for s in shapes:
        for k in ("s", "f"):
            if k in s:
                out.add(s[k])
        if "box" in s:
            out.update(s["box"])
        if s["k"] == "group":
            out |= keys(s["g"])
    return out


__all__ = ["Shape", "Point", "area", "base", "circle", "dot", "glyph", "group", "keys", "line",
           "pts", "r4", "text"]
