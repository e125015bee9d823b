"""The SVG primitives the page's own layers share (the board, terrain and bases; everything
over them is the depiction's, page/depict.py): sizes in inches, colours and numbers as SVG
writes them, a model's transform and outline. Pure text: no drawing library (a browser draws)."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

from battlefield.geometry.bases import RECT
from battlefield.inputs import plain_whole
from battlefield.scene.model import ModelSpec, Scene, UnitSpec

LABEL = 0.68          # font sizes in inches: unit ids, terrain and objectives
SMALL = 0.5           # rulers, elevation badges, deployment zones
LINE = 0.05           # a standard stroke (1 px at the PNG's 20 px an inch)
SVG_NS = "http://www.w3.org/2000/svg"


def hex_colour(c: Iterable[int]) -> str:
    r, g, b = tuple(c)[:3]
    return f"#{r:02x}{g:02x}{b:02x}"


def num(v: float) -> str:
    """A coordinate in inches, short: 4 decimals are 2.5 micrometres."""
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def attr(**values: Any) -> str:
    """' key="value" ...' with data_x written data-x; None values left out."""
    return "".join(f' {k.rstrip("_").replace("_", "-")}="{escape(str(v), quote=True)}"'
                   for k, v in values.items() if v is not None)


def find_model(scene: Scene, name: str) -> tuple[UnitSpec, ModelSpec] | None:
    """'UNIT/N' (1-based) -> the unit and model, or None."""
    uid, _, n = name.rpartition("/")
    k = plain_whole(n)
    if not uid or k is None:
        return None
    for u in scene.units:
        if u.id == uid and 1 <= k <= len(u.models):
            return u, u.models[k - 1]
    return None


def model_transform(x: float, svg_y: float, facing: float) -> str:
    """Where a model's <g> puts its base: at (x, svg_y), turned `facing` degrees
    counter-clockwise on the table (clockwise in SVG, whose y points down)."""
    t = f"translate({num(x)} {num(svg_y)})"
    return t + (f" rotate({num(-facing)})" if facing else "")


def base_path(m: ModelSpec, grow: float = 0.0) -> str:
    """A base's outline about (0, 0) facing +x, grown outwards by `grow` inches (SVG path)."""
    a, b = m.base.a + grow, m.base.b + grow
    if m.base.shape == RECT:
        return f"M{num(-a)} {num(-b)}H{num(a)}V{num(b)}H{num(-a)}Z"
    return (f"M{num(a)} 0A{num(a)} {num(b)} 0 1 1 {num(-a)} 0"
            f"A{num(a)} {num(b)} 0 1 1 {num(a)} 0Z")
