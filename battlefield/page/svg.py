"""The scene from above as SVG, the same picture as `battlefield render`'s PNG: the board with
inches as the viewBox units (x to the right from the left edge, y down from the far edge: a
scene point (x, y) is drawn at (x, depth - y)), terrain shaded by height, bases at their true
shapes, sizes and facing, objectives with their zones and controllers, combat pairs, coherency
breaks, the ruleset's marks and a measurement with its distance and what blocks it.

Tools find things by data attributes, never by drawing order: every model is a
`<g data-model="UNIT/N" data-unit data-side data-x data-y data-facing>` (its centre in the
scene's own inches) whose `transform` alone places it, so a viewer moves models by changing
that attribute; every objective a `<g data-objective="ID" data-controlled-by="SIDE">` ("" when
nobody holds it)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from html import escape
from typing import Any

import numpy as np
import shapely
from shapely.ops import polylabel

from battlefield.geometry import MM_PER_INCH
from battlefield.geometry.bases import OVAL, RECT, ROUND, outline_points
from battlefield.page.labels import Placer, around, text_width, union
from battlefield.page.words import fmt_in, measure_text, scene_title
from battlefield.scene.model import ModelSpec, Scene, UnitSpec
from battlefield.view import palette as pal  # pure colour data (no pygame)

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


def side_colours(scene: Scene, report: dict | None = None) -> dict[str, pal.RGB]:
    """Each side's colour, as the PNG picks them (palette.side_colours, same order)."""
    sides = list(scene.sides) + list(scene.deployment)
    sides += [o.home for o in scene.objectives if o.home]
    sides += [o.controlled_by for o in scene.objectives if o.controlled_by]
    if report:
        sides += [u.get("side") for u in report.get("units", {}).values()]
        for o in report.get("objectives", {}).values():
            sides += [o.get("controlled_by"), o.get("home"), *o.get("totals", {})]
    return pal.side_colours(s for s in sides if s)


def objective_radii(scene: Scene) -> tuple[float, float]:
    """(zone radius, marker radius) in inches: the zone is `range` from the marker's edge."""
    rule = scene.ruleset.objectives
    marker = rule.marker_mm / MM_PER_INCH / 2
    return rule.range + marker, marker


def find_model(scene: Scene, name: str) -> tuple[UnitSpec, ModelSpec] | None:
    """'UNIT/N' (1-based) -> the unit and model, or None."""
    uid, _, n = name.rpartition("/")
    if not uid or not n.isdigit():
        return None
    for u in scene.units:
        if u.id == uid and 1 <= int(n) <= len(u.models):
            return u, u.models[int(n) - 1]
    return None


class Picture:
    """One scene's SVG. `colours` are the sides' colours; every layer is a method returning
    SVG text, so a page can take the layers it needs."""

    def __init__(self, scene: Scene, report: dict | None = None, measure: dict | None = None,
                 marks: Iterable = ()) -> None:
        self.scene, self.report, self.measure = scene, report, measure
        self.marks = tuple(marks)
        self.colours = side_colours(scene, report)
        self.W, self.D = float(scene.width), float(scene.depth)
        self.labels = Placer(bounds=(0.05, 0.05, self.W - 0.05, self.D - 0.05))

    # --- coordinates ---------------------------------------------------------------------
    def p(self, x: float, y: float) -> tuple[float, float]:
        """A scene point in SVG inches (y flipped: the far edge is at the top)."""
        return x, self.D - y

    def path(self, pts: Iterable[Iterable[float]], closed: bool = True) -> str:
        out = []
        for k, (x, y) in enumerate(pts):
            out.append(f"{'M' if k == 0 else 'L'}{num(x)} {num(self.D - y)}")
        return " ".join(out) + (" Z" if closed else "")

    def side(self, side: str | None) -> pal.RGB:
        if not side:
            return pal.NEUTRAL
        c = self.colours.get(side)
        if c is None:
            c = self.colours[side] = pal.SIDE_ORDER[len(self.colours) % len(pal.SIDE_ORDER)]
        return c

    # --- the whole picture ----------------------------------------------------------------
    def svg(self, element_id: str | None = None, standalone: bool = True) -> str:
        """The whole SVG element; standalone adds the XML namespace for an .svg file."""
        body = [self.defs(), self.board(), self.terrain(), self.objectives(), self.combat(),
                self.models(), self.marks_layer(), self.rulings(), self.measurement(),
                f'<g id="labels" class="labels">{"".join(self.labels.place_all())}</g>']
        title = scene_title(self.scene)
        if self.measure:
            title += f" - {self.measure['a']} -> {self.measure['b']}: "
            title += measure_text(self.measure)
        head = (f'<svg xmlns="{SVG_NS}"' + attr(id=element_id, viewBox=f"0 0 {num(self.W)} "
                f"{num(self.D)}", class_="battlefield", data_width=num(self.W),
                data_depth=num(self.D), data_ruleset=self.scene.ruleset.id,
                width=f"{num(self.W * 20)}" if standalone else None,
                height=f"{num(self.D * 20)}" if standalone else None,
                font_family="Helvetica, Arial, sans-serif") + ">")
        return (head + f"<title>{escape(title)}</title>" + STYLE + "".join(body) + "</svg>")

    def defs(self) -> str:
        hatch = hex_colour(pal.darker(pal.terrain_fill(4, "impassable"), 0.55))
        return ('<defs><pattern id="hatch" width="0.4" height="0.4" patternUnits="userSpaceOnUse"'
                ' patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="0.4"'
                f' stroke="{hatch}" stroke-width="0.06"/></pattern></defs>')

    # --- board ------------------------------------------------------------------------------
    def board(self) -> str:
        W, D = self.W, self.D
        out = ['<g id="board">',
               f'<rect x="0" y="0" width="{num(W)}" height="{num(D)}" '
               f'fill="{hex_colour(pal.BOARD)}"/>']
        for side, outline in self.scene.deployment.items():
            out.append(f'<path d="{self.path(outline)}" fill="{hex_colour(self.side(side))}" '
                       f'fill-opacity="0.19" data-deployment="{escape(side)}"/>')
        fine = " ".join(f"M{x} 0V{num(D)}" for x in range(1, math.ceil(W)) if x % 6)
        fine += " " + " ".join(f"M0 {num(D - y)}H{num(W)}" for y in range(1, math.ceil(D))
                               if y % 6)
        coarse = " ".join(f"M{x} 0V{num(D)}" for x in range(6, math.ceil(W), 6))
        coarse += " " + " ".join(f"M0 {num(D - y)}H{num(W)}" for y in range(6, math.ceil(D), 6))
        out.append(f'<path d="{fine}" stroke="{hex_colour(pal.GRID_1)}" stroke-width="0.03"/>')
        out.append(f'<path d="{coarse}" stroke="{hex_colour(pal.GRID_6)}" '
                   f'stroke-width="0.05"/>')
        for side, outline in self.scene.deployment.items():
            c = self.side(side)
            out.append(f'<path d="{self.path(outline)}" fill="none" '
                       f'stroke="{hex_colour(pal.darker(c, 0.1))}" stroke-width="0.1" '
                       f'stroke-dasharray="0.5 0.3"/>')
            xs = [p[0] for p in outline]
            ys = [self.D - p[1] for p in outline]
            text = f"{side} deployment"
            w, h = text_width(text, SMALL), SMALL * 1.2
            x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
            inset = 0.3
            self.labels.add(self._text(text, SMALL, pal.darker(c, 0.3)), w, h,
                            [(x0 + inset + w / 2, y0 + inset + h / 2),
                             (x0 + inset + w / 2, y1 - inset - h / 2),
                             (x1 - inset - w / 2, y0 + inset + h / 2),
                             (x1 - inset - w / 2, y1 - inset - h / 2)], priority=-10)
        out.append(f'<rect x="0" y="0" width="{num(W)}" height="{num(D)}" fill="none" '
                   f'stroke="{hex_colour(pal.BORDER)}" stroke-width="0.1"/>')
        out.append(self.rulers())
        out.append("</g>")
        return "".join(out)

    def rulers(self) -> str:
        """Inch marks along the inside of the bottom and left edges, numbered every few
        inches from the (0, 0) corner (the board fills the viewBox, so they sit inside)."""
        W, D = self.W, self.D
        step = 2 if max(W, D) <= 72 else 6 if max(W, D) <= 200 else 24
        ticks = []
        for x in range(1, math.ceil(W)):
            ln = 0.35 if x % 6 == 0 else 0.18
            ticks.append(f"M{x} {num(D)}v-{ln}")
        for y in range(1, math.ceil(D)):
            ln = 0.35 if y % 6 == 0 else 0.18
            ticks.append(f"M0 {num(D - y)}h{ln}")
        out = [f'<g id="rulers" fill="{hex_colour(pal.INK_SOFT)}" font-size="{SMALL * 0.8}">',
               f'<path d="{" ".join(ticks)}" stroke="{hex_colour(pal.INK_SOFT)}" '
               f'stroke-width="0.04"/>']
        for x in range(step, math.ceil(W), step):
            out.append(f'<text x="{x}" y="{num(D - 0.45)}" text-anchor="middle">{x}</text>')
        for y in range(step, math.ceil(D), step):
            out.append(f'<text x="0.45" y="{num(D - y)}" dominant-baseline="central">{y}</text>')
        out.append("</g>")
        return "".join(out)

    # --- terrain ---------------------------------------------------------------------------
    def terrain(self) -> str:
        """Terrain shaded by height (darker = taller); the kind by its outline: obscuring a
        heavy dark edge, impassable hatched, area translucent with a dotted edge, place of
        power a star."""
        out = ['<g id="terrain">']
        for piece in sorted(self.scene.terrain, key=lambda p: p.height):
            fill = pal.terrain_fill(piece.height, piece.kind)
            edge = hex_colour(pal.darker(fill, 0.45))
            d = self.path(piece.outline)
            a = attr(data_terrain=piece.id, data_kind=piece.kind, data_height=num(piece.height))
            kind = piece.kind
            out.append(f"<g{a}><title>{escape(piece.id)}: {kind}, "
                       f"{escape(fmt_in(piece.height))} tall</title>")
            if kind == "area":
                out.append(f'<path d="{d}" fill="{hex_colour(fill)}" fill-opacity="0.59" '
                           f'stroke="{hex_colour(pal.darker(fill, 0.5))}" stroke-width="0.09" '
                           f'stroke-dasharray="0 0.25" stroke-linecap="round"/>')
            else:
                out.append(f'<path d="{d}" fill="{hex_colour(fill)}"/>')
                if kind == "impassable":
                    out.append(f'<path d="{d}" fill="url(#hatch)"/>')
                stroke, width = {"obscuring": ("#1c1816", 0.14), "obstacle": (edge, LINE)}.get(
                    kind, (edge, LINE * 1.5))
                out.append(f'<path d="{d}" fill="none" stroke="{stroke}" '
                           f'stroke-width="{num(width)}" stroke-linejoin="round"/>')
            anchor = _inner_point(piece.polygon)
            cx, cy = self.p(anchor.x, anchor.y)
            if kind == "place-of-power":
                r = max(0.3, min(0.7, float(piece.polygon.exterior.distance(anchor))))
                star = " ".join(f"{num(x)},{num(y)}" for x, y in _star(cx, cy, r))
                out.append(f'<polygon points="{star}" fill="#fff" stroke="#46286e" '
                           f'stroke-width="0.07"/>')
            out.append("</g>")
            text = f"{piece.id} {fmt_in(piece.height)}"
            w, h = text_width(text, SMALL), SMALL * 1.2
            hw, hh = (w - 0.3) / 2, (h - 0.3) / 2
            fits = piece.polygon.buffer(0.05).contains(
                shapely.box(anchor.x - hw, anchor.y - hh, anchor.x + hw, anchor.y + hh))
            x0, y0, x1, y1 = piece.polygon.bounds
            cands = [(cx, cy)] if fits and kind != "place-of-power" else []
            cands += around((x0, self.D - y1, x1, self.D - y0), w, h, 0.1)
            if not fits:
                cands.append((cx, cy))
            self.labels.add(self._text(text, SMALL, pal.INK), w, h, cands, priority=1)
        out.append("</g>")
        return "".join(out)

    # --- objectives ------------------------------------------------------------------------
    def objective_state(self, oid: str, default: str | None) -> tuple[str | None, str | None]:
        info = (self.report or {}).get("objectives", {}).get(oid, {})
        o = next(o for o in self.scene.objectives if o.id == oid)
        held = info.get("controlled_by", default) if info else default
        return held, info.get("home", o.home) if info else o.home

    def objectives(self) -> str:
        """Each objective's zone (dashed circle, tinted by its controller), its marker and home
        ring, in a <g data-objective data-controlled-by>."""
        zone, marker = objective_radii(self.scene)
        out = ['<g id="objectives">']
        for o in self.scene.objectives:
            held, home = self.objective_state(o.id, o.controlled_by)
            c = self.side(held) if held else pal.NEUTRAL
            cx, cy = self.p(o.x, o.y)
            out.append(f"<g{attr(data_objective=o.id, data_controlled_by=held or '')}"
                       f"{attr(data_x=num(o.x), data_y=num(o.y), data_home=home)}>")
            out.append(f'<circle class="zone" cx="{num(cx)}" cy="{num(cy)}" r="{num(zone)}" '
                       f'fill="{hex_colour(c)}" fill-opacity="{0.16 if held else 0.11}" '
                       f'stroke="{hex_colour(pal.darker(c, 0.15))}" stroke-width="0.075" '
                       f'stroke-dasharray="0.45 0.3"/>')
            mr = marker if marker > 0 else 0.3
            if home:
                hr = mr + 0.15
                out.append(f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(hr)}" fill="none" '
                           f'stroke="{hex_colour(self.side(home))}" stroke-width="0.15"/>')
            face = hex_colour(c if held else (205, 205, 200))
            rim = hex_colour(pal.darker(c, 0.55))
            if marker > 0:
                out.append(f'<circle class="marker" cx="{num(cx)}" cy="{num(cy)}" '
                           f'r="{num(mr - 0.04)}" fill="{face}" stroke="{rim}" '
                           f'stroke-width="0.08"/><circle cx="{num(cx)}" cy="{num(cy)}" '
                           f'r="{num(max(0.08, mr * 0.18))}" fill="{rim}"/>')
            else:
                pts = " ".join(f"{num(px)},{num(py)}" for px, py in (
                    (cx, cy - mr), (cx + mr, cy), (cx, cy + mr), (cx - mr, cy)))
                out.append(f'<polygon class="marker" points="{pts}" fill="{face}" '
                           f'stroke="{rim}" stroke-width="0.06"/>')
            out.append("</g>")
            text = o.id + (f": {held}" if held else "")
            if home and home.lower() not in o.id.lower():
                text += f" ({home} home)"
            colour = pal.darker(c, 0.45) if held else pal.INK
            w, h = text_width(text, SMALL), SMALL * 1.2
            ring = mr + 0.25
            self.labels.add(self._text(text, SMALL, colour, objective=o.id), w, h,
                            [(cx, cy + ring + h / 2), (cx, cy - ring - h / 2),
                             (cx, cy + zone - h / 2 - 0.1), (cx, cy - zone + h / 2 + 0.1),
                             (cx + ring + w / 2, cy), (cx - ring - w / 2, cy)], priority=2)
        out.append("</g>")
        return "".join(out)

    # --- models ----------------------------------------------------------------------------
    def models(self) -> str:
        """True-size bases in side colours, leaders ringed white (in units of more than one
        model), a facing tick on ovals and rectangles (whose front edge is drawn heavier),
        elevated models with a shadow; then each unit's id (with its height when raised)."""
        out = ['<g id="models">']
        for u in self.scene.units:
            boxes = []
            for k, m in enumerate(u.models):
                out.append(self.model(u, k, m.x, m.y, m.facing, m.z))
                x0, y0, x1, y1 = _model_box(m)
                box = (x0, self.D - y1, x1, self.D - y0)
                boxes.append(box)
                self.labels.avoid(box)
            if boxes:
                self.unit_label(u, boxes)
        out.append("</g>")
        return "".join(out)

    def model(self, u: UnitSpec, k: int, x: float, y: float, facing: float, z: float) -> str:
        """One model's <g>: its base drawn about (0, 0) facing +x, placed by its transform."""
        uid, side = escape(u.id, quote=True), escape(u.side, quote=True)
        cls = "model raised" if z > 0 else "model"
        return (f'<g class="{cls}" data-model="{uid}/{k + 1}" data-unit="{uid}" '
                f'data-side="{side}" data-x="{num(x)}" data-y="{num(y)}" '
                f'data-facing="{num(facing)}" data-z="{num(z)}" '
                f'transform="{model_transform(x, self.D - y, facing)}">'
                f"<title>{uid}/{k + 1}</title>{self._base(u, k)}</g>")

    def _base(self, u: UnitSpec, k: int) -> str:
        """The drawing inside a model's <g> (the same for every model alike: kept)."""
        m = u.models[k]
        key = (u.side, m.base, k == u.leader and len(u.models) > 1, len(u.models) > 1)
        cache = self.__dict__.setdefault("_bases", {})
        if key in cache:
            return cache[key]
        colour = self.side(u.side)
        edge = hex_colour(pal.darker(colour, 0.6))
        a, b = m.base.a, m.base.b
        style = f'fill="{hex_colour(colour)}" stroke="{edge}" stroke-width="0.055"'
        if m.base.shape == ROUND:
            parts = [f'<circle class="base" r="{num(a - 0.0275)}" {style}/>']
        elif m.base.shape == OVAL:
            parts = [f'<ellipse class="base" rx="{num(a - 0.0275)}" ry="{num(b - 0.0275)}" '
                     f'{style}/>']
        else:
            parts = [f'<rect class="base" x="{num(-a + 0.0275)}" y="{num(-b + 0.0275)}" '
                     f'width="{num(2 * a - 0.055)}" height="{num(2 * b - 0.055)}" {style}/>']
        if m.base.shape in (OVAL, RECT):
            start = max(0.45 * a, 0.75 * min(a, b)) if len(u.models) > 1 else 0.0
            parts.append(f'<path d="M{num(start)} 0H{num(a - 0.05)}" stroke="{edge}" '
                         f'stroke-width="0.1" stroke-linecap="round"/>')
            if m.base.shape == RECT:
                parts.append(f'<path d="M{num(a - 0.06)} {num(-b + 0.06)}V{num(b - 0.06)}" '
                             f'stroke="{edge}" stroke-width="0.12"/>')
        if key[2]:
            parts.append(f'<circle class="leader" r="{num(min(a, b) * 0.62)}" fill="none" '
                         f'stroke="#fff" stroke-width="0.08"/>')
        cache[key] = "".join(parts)
        return cache[key]

    def unit_label(self, u: UnitSpec, boxes: list[tuple[float, float, float, float]]) -> None:
        """The unit's id beside its main group (with '+2.5"' when it stands raised)."""
        heights = {round(m.z, 2) for m in u.models if m.z > 0}
        text = u.id
        if heights and all(m.z > 0 for m in u.models) and len(heights) == 1:
            text += f" +{fmt_in(heights.pop())}"
        w, h = text_width(text, LABEL, bold=True), LABEL * 1.2
        group = [boxes[k] for k in main_group(u)]
        cands = around(union(group), w, h, 0.12)
        if len(group) < len(boxes):
            cands += around(union(boxes), w, h, 0.12)
        colour = pal.darker(self.side(u.side), 0.35)
        self.labels.add(self._text(text, LABEL, colour, bold=True, unit=u.id), w, h, cands,
                        priority=5)

    # --- overlays --------------------------------------------------------------------------
    def combat_links(self) -> list[tuple[tuple[float, float], tuple[float, float],
                                         tuple[float, float]]]:
        """For each pair of units in combat (once a pair): the SVG centres of its closest
        models and the middle of the gap between their bases."""
        out: list = []
        seen: set[frozenset[str]] = set()
        for pair in (self.report or {}).get("pairs", []):
            key = frozenset((pair["a"], pair["b"]))
            if not pair.get("in_combat") or key in seen:
                continue
            seen.add(key)
            ends = [find_model(self.scene, n) for n in pair.get("closest_models", [])]
            if len(ends) != 2 or ends[0] is None or ends[1] is None:
                continue
            ma, mb = ends[0][1], ends[1][1]
            gap = gap_point(ma, mb)
            out.append((self.p(ma.x, ma.y), self.p(mb.x, mb.y), self.p(*gap)))
        return out

    def combat(self) -> str:
        """A heavy line joining the closest models of each pair of units in combat (under the
        models); rulings() marks the gap with a crossed badge."""
        out = ['<g id="combat">']
        for p, q, _ in self.combat_links():
            d = f"M{num(p[0])} {num(p[1])}L{num(q[0])} {num(q[1])}"
            out.append(f'<path d="{d}" stroke="#fff" stroke-width="0.4" stroke-linecap="round"/>'
                       f'<path d="{d}" stroke="{hex_colour(pal.COMBAT)}" stroke-width="0.25" '
                       f'stroke-linecap="round"/>')
            self.labels.avoid_line(p, q, 0.4)
        out.append("</g>")
        return "".join(out)

    def rulings(self) -> str:
        """From `battlefield check`: a magenta ring round every model out of coherency, and a
        crossed badge between the closest models of each pair of units in combat."""
        out = ['<g id="rulings">']
        for unit in (self.report or {}).get("units", {}).values():
            for name in unit.get("coherency_breaks", []):
                found = find_model(self.scene, name)
                if found is not None:
                    m = found[1]
                    out.append(self.ring(name, m.x, m.y, m.facing, m, 0.15, "coherency",
                                         "#fff", 0.22, hex_colour(pal.COHERENCY), 0.14))
        for _, _, gap in self.combat_links():
            out.append(combat_badge(*gap))
        out.append("</g>")
        return "".join(out)

    def ring(self, name: str, x: float, y: float, facing: float, m: ModelSpec, grow: float,
             what: str, under: str, under_w: float, over: str, over_w: float) -> str:
        """A ring round a model's base (grown by `grow`): white under, colour over."""
        d = base_path(m, grow)
        return (f"<g{attr(data_ruling=what, data_for=name)}"
                f"{attr(transform=model_transform(x, self.D - y, facing))}>"
                f'<path d="{d}" fill="none" stroke="{under}" stroke-width="{num(under_w)}"/>'
                f'<path d="{d}" fill="none" stroke="{over}" stroke-width="{num(over_w)}"/></g>')

    def marks_layer(self) -> str:
        """What a ruleset draws (registry.Mark): arrows for orders, dashed paths for routes,
        heavy edges for engaged sides, thin outlines for front arcs; each with its label."""
        out = ['<g id="marks">']
        for mark in self.marks:
            pts = [self.p(float(x), float(y)) for x, y in np.asarray(mark.points)[:, :2]]
            if len(pts) < 2:
                continue
            colour = hex_colour(pal.darker(self.side(mark.side), 0.45) if mark.side else pal.INK)
            d = "M" + "L".join(f"{num(x)} {num(y)}" for x, y in pts)
            a = attr(data_mark=mark.kind, data_label=mark.label or None)
            if mark.kind == "edge":
                d = f"M{num(pts[0][0])} {num(pts[0][1])}L{num(pts[-1][0])} {num(pts[-1][1])}"
                out.append(f'<g{a}><path d="{d}" stroke="#fff" stroke-width="0.3"/>'
                           f'<path d="{d}" stroke="{hex_colour(pal.COMBAT)}" '
                           f'stroke-width="0.2"/></g>')
            elif mark.kind == "outline":
                faint = (hex_colour(pal.lighter(self.side(mark.side), 0.35)) if mark.side
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

    def measurement(self) -> str:
        """The closest-point line of `battlefield measure` with its distance written on it,
        and what blocks the view outlined in the highlight."""
        m = self.measure
        if not m:
            return '<g id="measurement"></g>'
        out = [f"<g id=\"measurement\"{attr(data_a=m['a'], data_b=m['b'])}"
               f"{attr(data_distance=m['distance'], data_visible=m.get('visible'))}>"]
        pieces = {p.id: p for p in self.scene.terrain}
        for name in m.get("blocked_by", []):
            if name in pieces:
                d = self.path(pieces[name].outline)
                out.append(f'<g data-blocker="{escape(name)}"><path d="{d}" fill="none" '
                           f'stroke="#000" stroke-width="0.35" stroke-linejoin="round"/>'
                           f'<path d="{d}" fill="none" stroke="{hex_colour(pal.HIGHLIGHT)}" '
                           f'stroke-width="0.2" stroke-linejoin="round"/></g>')
                continue
            found = find_model(self.scene, name)
            if found is not None:
                mm = found[1]
                out.append(self.ring(name, mm.x, mm.y, mm.facing, mm, 0.14, "blocker", "#000",
                                     0.22, hex_colour(pal.HIGHLIGHT), 0.12))
        pa, pb = m["points"]["a"], m["points"]["b"]
        p, q = self.p(pa[0], pa[1]), self.p(pb[0], pb[1])
        d = f"M{num(p[0])} {num(p[1])}L{num(q[0])} {num(q[1])}"
        out.append(f'<path d="{d}" stroke="#fff" stroke-width="0.3" stroke-linecap="round"/>'
                   f'<path d="{d}" stroke="{hex_colour(pal.MEASURE)}" stroke-width="0.125" '
                   f'stroke-linecap="round"/>')
        for x, y in (p, q):
            out.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="0.25" fill="#fff"/>'
                       f'<circle cx="{num(x)}" cy="{num(y)}" r="0.175" '
                       f'fill="{hex_colour(pal.MEASURE)}"/>')
        self.labels.avoid_line(p, q, 0.3)
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
        self.labels.add(lambda x, y: tag(text, x, y, size, hex_colour(pal.INK), "distance"),
                        w, h, cands, priority=10)
        out.append("</g>")
        return "".join(out)

    # --- text --------------------------------------------------------------------------------
    def _text(self, text: str, size: float, colour: Iterable[int], bold: bool = False,
              unit: str | None = None, objective: str | None = None):
        def draw(x: float, y: float) -> str:
            a = attr(class_="label", data_label_for=unit, data_label_objective=objective,
                     x=num(x), y=num(y), font_size=num(size), fill=hex_colour(colour),
                     font_weight="bold" if bold else None)
            return f'<text{a}>{escape(text)}</text>'
        return draw


STYLE = ("<style>text.label,.tag text{paint-order:stroke;stroke:#fcfcf8;stroke-width:0.14px;"
         "stroke-linejoin:round;text-anchor:middle;dominant-baseline:central}"
         ".model.raised{filter:drop-shadow(0.12px 0.12px 0.06px rgba(0,0,0,0.45))}</style>")


def tag(text: str, x: float, y: float, size: float, edge: str, role: str | None = None) -> str:
    """Text on a white box centred at (x, y) (the measured distance, a mark's label)."""
    w, h = text_width(text, size) + 0.4, size * 1.5
    return (f"<g{attr(class_='tag', data_role=role)}>"
            f'<rect x="{num(x - w / 2)}" y="{num(y - h / 2)}" width="{num(w)}" '
            f'height="{num(h)}" fill="#fff" stroke="{edge}" stroke-width="0.05" rx="0.05"/>'
            f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" fill="{edge}" '
            f'style="stroke:none">{escape(text)}</text></g>')


def combat_badge(x: float, y: float) -> str:
    """The crossed badge at the gap between two units in combat."""
    d = 0.15
    return (f'<g data-ruling="combat"><circle cx="{num(x)}" cy="{num(y)}" r="0.4" fill="#fff"/>'
            f'<circle cx="{num(x)}" cy="{num(y)}" r="0.3" fill="{hex_colour(pal.COMBAT)}"/>'
            f'<path d="M{num(x - d)} {num(y - d)}L{num(x + d)} {num(y + d)}M{num(x - d)} '
            f'{num(y + d)}L{num(x + d)} {num(y - d)}" stroke="#fff" stroke-width="0.08"/></g>')


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


def _model_box(m: ModelSpec) -> tuple[float, float, float, float]:
    """The base's bounding box in scene inches."""
    if m.base.shape == ROUND:
        return m.x - m.base.a, m.y - m.base.a, m.x + m.base.a, m.y + m.base.a
    pts = outline_points(m.base.shape, m.base.a, m.base.b, m.x, m.y, m.facing, 24)
    return (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()),
            float(pts[:, 1].max()))


def main_group(u: UnitSpec, gap: float = 2.0) -> list[int]:
    """The unit's models reachable from its leader in steps of at most `gap` inches between
    bases (where its label belongs, away from stragglers)."""
    lead = min(max(u.leader, 0), len(u.models) - 1)
    group, todo = {lead}, [lead]
    while todo:
        i = todo.pop()
        mi = u.models[i]
        for j, mj in enumerate(u.models):
            if j not in group and (math.hypot(mi.x - mj.x, mi.y - mj.y) - mi.base.reach
                                   - mj.base.reach) <= gap:
                group.add(j)
                todo.append(j)
    return sorted(group)


def _inner_point(poly: shapely.Polygon) -> shapely.Point:
    try:
        return polylabel(poly, tolerance=0.05)
    except Exception:  # noqa: BLE001 - degenerate outlines: fall back
        return poly.representative_point()


def _star(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45
          ) -> list[tuple[float, float]]:
    out = []
    for k in range(points * 2):
        rr = r if k % 2 == 0 else r * inner
        th = -math.pi / 2 + k * math.pi / points
        out.append((cx + rr * math.cos(th), cy + rr * math.sin(th)))
    return out


def scene_svg(scene: Scene, report: dict | None = None, measure: dict | None = None,
              marks: Iterable = (), element_id: str | None = None,
              standalone: bool = True) -> str:
    """The scene as one SVG element (see Picture)."""
    return Picture(scene, report, measure, marks).svg(element_id, standalone)


__all__ = ["Picture", "scene_svg", "model_transform", "base_path", "hex_colour",
           "side_colours", "find_model"]
