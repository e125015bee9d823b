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

from battlefield import palette as pal
from battlefield.depiction.palette import full_palette
from battlefield.depiction.table import (
    Depiction,
    Rulings,
    depict,
    inner_point,
    objective_radii,
    pieces_of_scene,
)
from battlefield.depiction.table import side_colours as _side_colours
from battlefield.geometry.bases import OVAL, RECT, ROUND
from battlefield.page.depict import STYLE as LABEL_STYLE
from battlefield.page.depict import layers_svg
from battlefield.page.shapes import (  # noqa: F401 (find_model, base_path: re-exported)
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
from battlefield.scene.model import Scene, UnitSpec


def side_colours(scene: Scene, report: dict | None = None) -> dict[str, pal.RGB]:
    """Each side's colour, as the PNG picks them (palette.side_colours, same order)."""
    return _side_colours(scene, report)


class Picture:
    """One scene's SVG. `colours` are the sides' colours; the board, terrain and bases are
    drawn here, everything over them (objectives, rulings, marks, the measurement, every
    label) is the depiction's (battlefield/depiction/table.py), written by page/depict.py."""

    def __init__(self, scene: Scene, report: dict | None = None, measure: dict | None = None,
                 marks: Iterable = (), layers: dict | None = None) -> None:
        self.reserved = [u for u in scene.units if u.reserve]   # drawn hidden (models())
        scene = scene.set_up()           # units in reserve: not on the table yet
        self.scene, self.report, self.measure = scene, report, measure
        self.marks = tuple(marks)
        self.colours = side_colours(scene, report)
        self.W, self.D = float(scene.width), float(scene.depth)
        self._depiction: Depiction | None = None
        self.layers = layers                 # a game page's: its first version's overlay

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

    def depiction(self) -> Depiction:
        """What is drawn over the board and bases (made once)."""
        if self._depiction is None:
            self._depiction = depict(self.scene, pieces_of_scene(self.scene),
                                     Rulings.of_report(self.report), self.measure, self.marks,
                                     colours=self.colours)
        return self._depiction

    # --- the whole picture ----------------------------------------------------------------
    def svg(self, element_id: str | None = None, standalone: bool = True,
            nonce: str | None = None) -> str:
        """The whole SVG element; standalone adds the XML namespace and its own stylesheet for
        an .svg file (a page's stylesheet, page.css, has the same rules); `nonce` goes on that
        <style> (a page under a Content-Security-Policy)."""
        dep = self.depiction() if self.layers is None else Depiction(
            {"measurement": [], **self.layers}, [], self.colours)
        layers = layers_svg(dep.layers, ("objectives", "combat", "marks", "rulings",
                                         "measurement", "labels"), self.D,
                            full_palette(self.colours) | dep.palette())
        body = [self.defs(), self.board(), self.terrain(), layers["objectives"],
                layers["combat"], self.models(), layers["marks"], layers["rulings"],
                layers["measurement"], layers["labels"]]
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
        style = f"<style{attr(nonce=nonce)}>{LABEL_STYLE}</style>" if standalone else ""
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
            anchor = inner_point(piece.polygon)
            cx, cy = self.p(anchor.x, anchor.y)
            if kind == "place-of-power":
                r = max(0.3, min(0.7, float(piece.polygon.exterior.distance(anchor))))
                star = " ".join(f"{num(x)},{num(y)}" for x, y in _star(cx, cy, r))
                out.append(f'<polygon points="{star}" fill="#fff" stroke="#46286e" '
                           f'stroke-width="0.07"/>')
            out.append("</g>")
        out.append("</g>")
        return "".join(out)

    def terrain_inner(self) -> str:
        """The terrain group's contents (a version's `terrain`: the pieces set up since)."""
        whole = self.terrain()
        return whole[len('<g id="terrain">'):-len("</g>")]

    # --- models ----------------------------------------------------------------------------
    def models(self) -> str:
        """True-size bases in side colours, leaders ringed white (in units of more than one
        model), a facing tick on ovals and rectangles (whose front edge is drawn heavier),
        elevated models with a shadow (their heights are on the unit's label). A unit in
        reserve (not set up yet) is drawn hidden, off the table (`display="none"`,
        `data-slain`, as a page shows a model not on the table): a game page shows it where
        a later version sets it up."""
        out = ['<g id="models">']
        reserved = {u.id: u for u in self.reserved}
        for u in self.scene.units:
            if u.id in reserved:
                whole = reserved[u.id]
                out += [self.model(whole, k, 0.0, 0.0, 0.0, 0.0, hidden=True)
                        for k in range(len(whole.models))]
                continue
            for k, m in enumerate(u.models):
                out.append(self.model(u, k, m.x, m.y, m.facing, m.z))
        out.append("</g>")
        return "".join(out)

    def model(self, u: UnitSpec, k: int, x: float, y: float, facing: float, z: float,
              hidden: bool = False) -> str:
        """One model's <g>: its base drawn about (0, 0) facing +x, placed by its transform;
        `hidden`: not on the table (a unit in reserve)."""
        uid, side = escape(u.id, quote=True), escape(u.side, quote=True)
        cls = "model raised" if z > 0 else "model"
        off = ' display="none" data-slain="true"' if hidden else ""
        return (f'<g class="{cls}" data-model="{uid}/{k + 1}" data-unit="{uid}" '
                f'data-side="{side}" data-x="{num(x)}" data-y="{num(y)}" '
                f'data-facing="{num(facing)}" data-z="{num(z)}"{off} '
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
           "side_colours", "find_model", "objective_radii"]
