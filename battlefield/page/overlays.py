"""The overlays of the SVG picture - combat pairs, coherency breaks, the ruleset's marks, a
measurement and what blocks it - each a function of the Picture (battlefield.page.svg) that
returns its layer as SVG text, as battlefield.view.overlays draws them on the PNG."""

from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING

import numpy as np

from battlefield import palette as pal
from battlefield.page.labels import around, text_width
from battlefield.page.shapes import (
    LABEL,
    LINE,
    SMALL,
    attr,
    base_path,
    combat_badge,
    find_model,
    gap_point,
    hex_colour,
    model_transform,
    num,
    tag,
)
from battlefield.page.words import measure_text
from battlefield.scene.model import ModelSpec

if TYPE_CHECKING:
    from battlefield.page.svg import Picture


def combat_links(pic: Picture) -> list[tuple[tuple[float, float], tuple[float, float],
                                     tuple[float, float]]]:
    """For each pair of units in combat (once a pair): the SVG centres of its closest
    models and the middle of the gap between their bases."""
    out: list = []
    seen: set[frozenset[str]] = set()
    for pair in (pic.report or {}).get("pairs", []):
        key = frozenset((pair["a"], pair["b"]))
        if not pair.get("in_combat") or key in seen:
            continue
        seen.add(key)
        ends = [find_model(pic.scene, n) for n in pair.get("closest_models", [])]
        if len(ends) != 2 or ends[0] is None or ends[1] is None:
            continue
        ma, mb = ends[0][1], ends[1][1]
        gap = gap_point(ma, mb)
        out.append((pic.p(ma.x, ma.y), pic.p(mb.x, mb.y), pic.p(*gap)))
    return out


def combat(pic: Picture) -> str:
    """A heavy line joining the closest models of each pair of units in combat (under the
    models); rulings() marks the gap with a crossed badge."""
    out = ['<g id="combat">']
    for p, q, _ in combat_links(pic):
        d = f"M{num(p[0])} {num(p[1])}L{num(q[0])} {num(q[1])}"
        out.append(f'<path d="{d}" stroke="#fff" stroke-width="0.4" stroke-linecap="round"/>'
                   f'<path d="{d}" stroke="{hex_colour(pal.COMBAT)}" stroke-width="0.25" '
                   f'stroke-linecap="round"/>')
        pic.labels.avoid_line(p, q, 0.4)
    out.append("</g>")
    return "".join(out)


def rulings(pic: Picture) -> str:
    """From `battlefield check`: a magenta ring round every model out of coherency, and a
    crossed badge between the closest models of each pair of units in combat."""
    out = ['<g id="rulings">']
    for unit in (pic.report or {}).get("units", {}).values():
        for name in unit.get("coherency_breaks", []):
            found = find_model(pic.scene, name)
            if found is not None:
                m = found[1]
                out.append(ring(pic, name, m.x, m.y, m.facing, m, 0.15, "coherency",
                                "#fff", 0.22, hex_colour(pal.COHERENCY), 0.14))
    for _, _, gap in combat_links(pic):
        out.append(combat_badge(*gap))
    out.append("</g>")
    return "".join(out)


def ring(pic: Picture, name: str, x: float, y: float, facing: float, m: ModelSpec, grow: float,
         what: str, under: str, under_w: float, over: str, over_w: float) -> str:
    """A ring round a model's base (grown by `grow`): white under, colour over."""
    d = base_path(m, grow)
    return (f"<g{attr(data_ruling=what, data_for=name)}"
            f"{attr(transform=model_transform(x, pic.D - y, facing))}>"
            f'<path d="{d}" fill="none" stroke="{under}" stroke-width="{num(under_w)}"/>'
            f'<path d="{d}" fill="none" stroke="{over}" stroke-width="{num(over_w)}"/></g>')


def marks(pic: Picture) -> str:
    """What a ruleset draws (window.Mark): arrows for orders, dashed paths for routes,
    heavy edges for engaged sides, thin outlines for front arcs; each with its label."""
    out = ['<g id="marks">']
    for mark in pic.marks:
        pts = [pic.p(float(x), float(y)) for x, y in np.asarray(mark.points)[:, :2]]
        if len(pts) < 2:
            continue
        colour = hex_colour(pal.darker(pic.side(mark.side), 0.45) if mark.side else pal.INK)
        d = "M" + "L".join(f"{num(x)} {num(y)}" for x, y in pts)
        a = attr(data_mark=mark.kind, data_label=mark.label or None)
        if mark.kind == "edge":
            d = f"M{num(pts[0][0])} {num(pts[0][1])}L{num(pts[-1][0])} {num(pts[-1][1])}"
            out.append(f'<g{a}><path d="{d}" stroke="#fff" stroke-width="0.3"/>'
                       f'<path d="{d}" stroke="{hex_colour(pal.COMBAT)}" '
                       f'stroke-width="0.2"/></g>')
        elif mark.kind == "outline":
            faint = (hex_colour(pal.lighter(pic.side(mark.side), 0.35)) if mark.side
                     else hex_colour(pal.INK_SOFT))
            stroke, w = (colour, 0.125) if mark.label else (faint, LINE)
            out.append(f'<path{a} d="{d} Z" fill="none" stroke="{stroke}" '
                       f'stroke-width="{w}"/>')
        elif mark.kind == "path":
            ex, ey = pts[-1]
            out.append(f'<g{a}><path d="{d}" fill="none" stroke="{colour}" '
                       f'stroke-width="0.1" stroke-dasharray="0.4 0.4"/>'
                       f'<circle cx="{num(ex)}" cy="{num(ey)}" r="0.15" fill="{colour}"/></g>')
        else:
            (ax, ay), (bx, by) = pts[-2], pts[-1]
            ang = math.atan2(by - ay, bx - ax)
            wing = " ".join(f"{num(bx - 0.4 * math.cos(ang - s))},"
                            f"{num(by - 0.4 * math.sin(ang - s))}" for s in (0.45, -0.45))
            out.append(f'<g{a}><path d="{d}" fill="none" stroke="{colour}" '
                       f'stroke-width="0.1" stroke-linejoin="round"/>'
                       f'<polygon points="{num(bx)},{num(by)} {wing}" fill="{colour}"/></g>')
        if mark.label:
            if mark.kind == "arrow":
                x, y = (pts[0][0] + pts[-1][0]) / 2, (pts[0][1] + pts[-1][1]) / 2
            else:
                x, y = pts[-1][0], pts[-1][1] - 0.6
            out.append(tag(mark.label, x, y, SMALL, colour))
    out.append("</g>")
    return "".join(out)


def measurement(pic: Picture) -> str:
    """The closest-point line of `battlefield measure` with its distance written on it,
    and what blocks the view outlined in the highlight."""
    m = pic.measure
    if not m:
        return '<g id="measurement"></g>'
    out = [f"<g id=\"measurement\"{attr(data_a=m['a'], data_b=m['b'])}"
           f"{attr(data_distance=m['distance'], data_visible=m.get('visible'))}>"]
    pieces = {p.id: p for p in pic.scene.terrain}
    for name in m.get("blocked_by", []):
        if name in pieces:
            d = pic.path(pieces[name].outline)
            out.append(f'<g data-blocker="{escape(name)}"><path d="{d}" fill="none" '
                       f'stroke="#000" stroke-width="0.35" stroke-linejoin="round"/>'
                       f'<path d="{d}" fill="none" stroke="{hex_colour(pal.HIGHLIGHT)}" '
                       f'stroke-width="0.2" stroke-linejoin="round"/></g>')
            continue
        found = find_model(pic.scene, name)
        if found is not None:
            mm = found[1]
            out.append(ring(pic, name, mm.x, mm.y, mm.facing, mm, 0.14, "blocker", "#000",
                            0.22, hex_colour(pal.HIGHLIGHT), 0.12))
    pa, pb = m["points"]["a"], m["points"]["b"]
    p, q = pic.p(pa[0], pa[1]), pic.p(pb[0], pb[1])
    d = f"M{num(p[0])} {num(p[1])}L{num(q[0])} {num(q[1])}"
    out.append(f'<path d="{d}" stroke="#fff" stroke-width="0.3" stroke-linecap="round"/>'
               f'<path d="{d}" stroke="{hex_colour(pal.MEASURE)}" stroke-width="0.125" '
               f'stroke-linecap="round"/>')
    for x, y in (p, q):
        out.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="0.25" fill="#fff"/>'
                   f'<circle cx="{num(x)}" cy="{num(y)}" r="0.175" '
                   f'fill="{hex_colour(pal.MEASURE)}"/>')
    pic.labels.avoid_line(p, q, 0.3)
    text = measure_text(m)
    size = LABEL
    w, h = text_width(text, size) + 0.4, size * 1.5
    mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / n, dx / n
    off = (abs(nx) * w + abs(ny) * h) / 2 + 0.3
    cands = [(mx + nx * off, my + ny * off), (mx - nx * off, my - ny * off), (mx, my)]
    cands += around((min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]), max(p[1], q[1])),
                    w, h, 0.3)
    pic.labels.add(lambda x, y: tag(text, x, y, size, hex_colour(pal.INK), "distance"),
                    w, h, cands, priority=10)
    out.append("</g>")
    return "".join(out)
