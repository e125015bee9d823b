"""The SVG primitives the page's layers share: sizes in inches, colours and numbers as SVG
writes them, a model's transform and outline, the tag and the combat badge. Pure text: no
drawing library (a browser draws)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from html import escape
from typing import Any

from battlefield import palette as pal
from battlefield.geometry.bases import RECT
from battlefield.inputs import plain_whole
from battlefield.page.labels import text_width
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


def gap_point(ma: ModelSpec, mb: ModelSpec) -> tuple[float, float]:
    """The middle of the gap between two bases along the line of their centres."""
    dx, dy = mb.x - ma.x, mb.y - ma.y
    n = math.hypot(dx, dy) or 1.0
    ea = _edge_reach(ma, dx / n, dy / n)
    eb = _edge_reach(mb, -dx / n, -dy / n)
    t = (ea + max(n - ea - eb, 0.0) / 2) / n if n > ea + eb else ea / (ea + eb or 1.0)
    return ma.x + dx * t, ma.y + dy * t


def _edge_reach(m: ModelSpec, ux: float, uy: float) -> float:
    th = math.radians(m.facing)
    c, s = math.cos(th), math.sin(th)
    lx, ly = ux * c + uy * s, -ux * s + uy * c
    a, b = m.base.a, m.base.b
    if m.base.shape == RECT:
        return min(a / abs(lx) if abs(lx) > 1e-12 else math.inf,
                   b / abs(ly) if abs(ly) > 1e-12 else math.inf)
    return 1.0 / math.sqrt((lx / a) ** 2 + (ly / b) ** 2)


def tag(text: str, x: float, y: float, size: float, edge: str, role: str | None = None) -> str:
    """Text on a white box centred at (x, y) (the measured distance, a mark's label)."""
    w, h = text_width(text, size) + 0.4, size * 1.5
    return (f"<g{attr(class_='tag', data_role=role)}>"
            f'<rect x="{num(x - w / 2)}" y="{num(y - h / 2)}" width="{num(w)}" '
            f'height="{num(h)}" fill="#fff" stroke="{edge}" stroke-width="0.05" rx="0.05"/>'
            f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" fill="{edge}" '
            f'stroke="none">{escape(text)}</text></g>')


def combat_badge(x: float, y: float) -> str:
    """The crossed badge at the gap between two units in combat."""
    d = 0.15
    return (f'<g data-ruling="combat"><circle cx="{num(x)}" cy="{num(y)}" r="0.4" fill="#fff"/>'
            f'<circle cx="{num(x)}" cy="{num(y)}" r="0.3" fill="{hex_colour(pal.COMBAT)}"/>'
            f'<path d="M{num(x - d)} {num(y - d)}L{num(x + d)} {num(y + d)}M{num(x - d)} '
            f'{num(y + d)}L{num(x + d)} {num(y - d)}" stroke="#fff" stroke-width="0.08"/></g>')
