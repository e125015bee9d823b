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

import shapely
from shapely.ops import polylabel

from battlefield import palette as pal
from battlefield.geometry import MM_PER_INCH
from battlefield.geometry.bases import OVAL, RECT, ROUND, outline_points
from battlefield.page import overlays
from battlefield.page.labels import Placer, around, text_width, union
from battlefield.page.shapes import (  # noqa: F401 (find_model, base_path: re-exported)
    LABEL,
    LINE,
    SMALL,
    SVG_NS,
    attr,
    base_path,
    find_model,
    hex_colour,
    model_transform,
    num,
)
from battlefield.page.words import fmt_in, measure_text, scene_title
from battlefield.scene.model import ModelSpec, Scene, UnitSpec


def side_colours(scene: Scene, report: dict | None = None) -> dict[str, pal.RGB]:
    """Each side's colour, as the PNG picks them (palette.side_colours, same order)."""
    sides = list(scene.sides) + list(scene.deployment)
    sides += [scene.tie_side(o) for o in scene.objectives]
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


class Picture:
    """One scene's SVG. `colours` are the sides' colours; every layer is a method returning
    SVG text, so a page can take the layers it needs."""

    def __init__(self, scene: Scene, report: dict | None = None, measure: dict | None = None,
                 marks: Iterable = ()) -> None:
        scene = scene.set_up()           # units in reserve: not on the table yet
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
    def svg(self, element_id: str | None = None, standalone: bool = True,
            nonce: str | None = None) -> str:
        """The whole SVG element; standalone adds the XML namespace for an .svg file; `nonce`
        goes on its <style> (a page under a Content-Security-Policy)."""
        body = [self.defs(), self.board(), self.terrain(), self.objectives(),
                overlays.combat(self), self.models(), overlays.marks(self),
                overlays.rulings(self), overlays.measurement(self),
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
        style = f"<style{attr(nonce=nonce)}>{STYLE}</style>"
        return head + f"<title>{escape(title)}</title>" + style + "".join(body) + "</svg>"

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
        home = self.scene.tie_side(o)
        return held, info.get("home", home) if info else home

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

    # --- text --------------------------------------------------------------------------------
    def _text(self, text: str, size: float, colour: Iterable[int], bold: bool = False,
              unit: str | None = None, objective: str | None = None):
        def draw(x: float, y: float) -> str:
            a = attr(class_="label", data_label_for=unit, data_label_objective=objective,
                     x=num(x), y=num(y), font_size=num(size), fill=hex_colour(colour),
                     font_weight="bold" if bold else None)
            return f'<text{a}>{escape(text)}</text>'
        return draw


STYLE = ("text.label{paint-order:stroke;stroke:#fcfcf8;stroke-width:0.14px;"
         "stroke-linejoin:round}text.label,.tag text{text-anchor:middle;"
         "dominant-baseline:central}"
         ".model.raised{filter:drop-shadow(0.12px 0.12px 0.06px rgba(0,0,0,0.45))}")


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
