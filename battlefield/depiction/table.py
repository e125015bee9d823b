"""The table's depiction: what every view draws over the board, terrain and bases - the
objectives (zone, marker, home side), combat links with their badges, coherency rings, the
ruleset's marks, a measurement with what blocks it - and every label (unit ids with their
height badges, terrain names, objective tags, deployment zones, mark tags, the distance) placed
once by depiction/labels.py. In table inches; the window, the SVG and the browser draw it.

A model is a `Piece` (name, unit, side, where it stands, its base), so the same depiction is
made from a scene (render, a board) or from a game as it stands (the window, a game's page)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely.ops import polylabel

from battlefield import palette as pal
from battlefield.depiction import shapes as sh
from battlefield.depiction.labels import Box, Placed, Placer, around, union
from battlefield.depiction.metrics import PAGE, SIZES, Metrics, text_width
from battlefield.geometry import MM_PER_INCH
from battlefield.geometry.bases import RECT, ROUND, outline_points
from battlefield.scene.model import Scene

LAYERS = ("objectives", "combat", "marks", "rulings", "measurement", "labels")
UNDER = ("objectives", "combat")         # drawn before (under) the models


def fmt_in(v: float, digits: int = 2) -> str:
    """Inches as players write them: 4", 1.5", 7.42"."""
    s = f"{v:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{v:.0f}"
    return f'{s}"'


@dataclass(frozen=True)
class Piece:
    """One model on the table: its name (UNIT/N), unit, side, where it stands and its base."""

    name: str
    unit: str
    side: str
    x: float
    y: float
    facing: float
    z: float
    shape: int
    a: float
    b: float
    leader: bool = False

    @property
    def box(self) -> Box:
        """The base's bounding box (inches)."""
        if self.shape == ROUND:
            return self.x - self.a, self.y - self.a, self.x + self.a, self.y + self.a
        p = outline_points(self.shape, self.a, self.b, self.x, self.y, self.facing, 24)
        return (float(p[:, 0].min()), float(p[:, 1].min()), float(p[:, 0].max()),
                float(p[:, 1].max()))

    @property
    def reach(self) -> float:
        return max(self.a, self.b)


def pieces_of_scene(scene: Scene) -> list[Piece]:
    """Every model of the scene, named as `measure` names them (UNIT/N from 1)."""
    out = []
    for u in scene.units:
        for k, m in enumerate(u.models):
            out.append(Piece(f"{u.id}/{k + 1}", u.id, u.side, m.x, m.y, m.facing, m.z,
                             m.base.shape, m.base.a, m.base.b,
                             k == u.leader and len(u.models) > 1))
    return out


def pieces_of_state(state: Any) -> list[Piece]:
    """Every model of a game still on the table, where it stands now (names as the scene
    gives them: a slain model's name is not reused)."""
    scene, t = state.scene, state.table
    names, off = scene.model_names, scene.model_offsets()
    out = []
    for u, spec in enumerate(scene.units):
        for k, m in enumerate(spec.models):
            i = off[u] + k
            if t.unit[i] < 0:
                continue
            out.append(Piece(names[i], spec.id, spec.side, float(t.x[i]), float(t.y[i]),
                             float(t.facing[i]), float(t.z[i]), m.base.shape, m.base.a,
                             m.base.b, k == spec.leader and len(spec.models) > 1))
    return out


@dataclass
class Rulings:
    """What the referee ruled that the table shows: models out of coherency (with why), the
    pairs of units in combat (by their closest models), who holds each objective."""

    breaks: list[str] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)
    combat: list[tuple[str, str, str, str]] = field(default_factory=list)  # unit, unit, a, b
    held: dict[str, str | None] = field(default_factory=dict)

    @classmethod
    def of_report(cls, report: dict | None) -> Rulings | None:
        """From `battlefield check`'s report (Referee.check_report)."""
        if not report:
            return None
        out = cls()
        for u in report.get("units", {}).values():
            out.breaks += u.get("coherency_breaks", [])
            out.reasons.update(u.get("coherency_reasons", {}))
        seen: set[frozenset[str]] = set()
        for p in report.get("pairs", []):
            key = frozenset((p["a"], p["b"]))
            ends = p.get("closest_models", [])
            if p.get("in_combat") and key not in seen and len(ends) == 2:
                seen.add(key)
                out.combat.append((p["a"], p["b"], ends[0], ends[1]))
        out.held = {oid: o.get("controlled_by")
                    for oid, o in report.get("objectives", {}).items()}
        return out


def objective_radii(scene: Scene) -> tuple[float, float]:
    """(zone radius, marker radius) in inches: the zone is `range` from the marker's edge."""
    rule = scene.ruleset.objectives
    marker = rule.marker_mm / MM_PER_INCH / 2
    return rule.range + marker, marker


def side_colours(scene: Scene, report: dict | None = None,
                 more: Iterable[str | None] = ()) -> dict[str, pal.RGB]:
    """Each side's colour in the order every picture picks them (palette.side_colours)."""
    sides = list(scene.sides) + list(scene.deployment)
    sides += [scene.tie_side(o) for o in scene.objectives]
    sides += [o.controlled_by for o in scene.objectives if o.controlled_by]
    if report:
        sides += [u.get("side") for u in report.get("units", {}).values()]
        for o in report.get("objectives", {}).values():
            sides += [o.get("controlled_by"), o.get("home"), *o.get("totals", {})]
    sides += list(more)
    return pal.side_colours(s for s in sides if s)


@dataclass
class Depiction:
    """The layers (LAYERS) of shapes, where each label went, and the sides' colours."""

    layers: dict[str, list[sh.Shape]]
    placed: list[Placed]
    colours: dict[str, pal.RGB]

    def palette(self, *more: Iterable[sh.Shape]) -> dict[str, str]:
        """Every palette key the layers use, as the colour a browser writes (#rrggbb)."""
        used = set()
        for shapes in [*self.layers.values(), *more]:
            used |= sh.keys(shapes)
        return {k: pal.hex_of(pal.paint(k, self.colours)) for k in sorted(used)}

    def to_json(self) -> dict[str, Any]:
        return {"layers": self.layers, "palette": self.palette()}


# --- the depiction of the table --------------------------------------------------------------
@dataclass
class Table:
    """Builds one depiction: `depict()` with what the view shows."""

    scene: Scene
    pieces: list[Piece]
    metrics: Metrics = PAGE
    colours: dict[str, pal.RGB] = field(default_factory=dict)
    bounds: Box | None = None

    def __post_init__(self) -> None:
        s = self.scene
        if not self.colours:
            self.colours = side_colours(s)
        inset = self.metrics.line
        pad = self.metrics.line * 1.2
        # A label's near place stands clear of what it names by more than the label's own
        # margin, or its margin touches its own model and every near place counts as covered
        # (the window's thick lines at a small zoom: each label went out on a leader line).
        self.gap = max(self.metrics.gap, pad * 1.5)
        self.placer = Placer(bounds=self.bounds or (inset, inset, s.width - inset,
                                                    s.depth - inset),
                             gap=self.gap, pad=pad, up=1.0)
        self.layers: dict[str, list[sh.Shape]] = {k: [] for k in LAYERS}

    def label(self, shape: sh.Shape, near: Sequence[tuple[float, float]], priority: float,
              anchor: Box | None = None, owner: str | None = None) -> None:
        w, h = self.metrics.size(shape)
        shape["wh"] = [sh.r4(w), sh.r4(h)]
        if shape.get("badge"):          # the badge's box, as the pages draw it
            shape["bw"] = sh.r4(text_width(shape["badge"], SIZES["small"]) + 0.3)
        self.placer.add(shape, w, h, near, priority, anchor, owner)

    # --- pieces ------------------------------------------------------------------------------
    def models(self, unit_text: dict[str, str] | None = None, labelled: bool = True) -> None:
        """Every base kept clear; each unit's id beside its main group (with its height badge,
        and `unit_text`'s words after the id, e.g. the wounds left)."""
        by_unit: dict[str, list[Piece]] = {}
        for p in self.pieces:
            self.placer.avoid(p.box, p.unit)
            by_unit.setdefault(p.unit, []).append(p)
        if not labelled:
            return
        for uid, ps in by_unit.items():
            self.unit_label(uid, ps, (unit_text or {}).get(uid))

    def unit_label(self, uid: str, ps: list[Piece], more: str | None) -> None:
        side = ps[0].side
        heights = {round(p.z, 2) for p in ps if p.z > 0}
        raised = [p for p in ps if p.z > 0]
        badge = None
        if len(heights) == 1 and len(raised) == len(ps):
            badge = f"+{fmt_in(next(iter(heights)))}"
        elif len(raised) > 1:
            lo, hi = min(heights), max(heights)
            badge = f"+{fmt_in(lo)}" + (f"-{fmt_in(hi)}" if hi > lo else "") + f" x{len(raised)}"
        elif raised:                    # one of several raised: a badge by that model
            p = raised[0]
            tag = sh.text((0, 0), f"+{fmt_in(p.z)}", "small", "ink", box=("white",
                          pal.side_key(side, "/d60")), attrs={"data-height-of": p.name})
            w, h = self.metrics.size(tag)
            x0, y0, x1, y1 = p.box
            self.label(tag, [(x1 + w / 2, y1 + h / 2), (x0 - w / 2, y1 + h / 2),
                             *around(p.box, w, h, self.gap)], 3, p.box, uid)
        words = uid + (f" {more}" if more else "")
        shape = sh.text((0, 0), words, "label", pal.side_key(side, "/d35"), bold=True,
                        badge=badge, attrs={"data-label-for": uid})
        w, h = self.metrics.size(shape)
        main = main_group(ps)
        group = union([p.box for p in main])
        near = around(group, w, h, self.gap)
        if len(main) < len(ps):
            near += around(union([p.box for p in ps]), w, h, self.gap)
        self.label(shape, near, 5, group, uid)

    # --- board ---------------------------------------------------------------------------------
    def deployment(self) -> None:
        """Each deployment zone's name in a corner of it."""
        for side, outline in self.scene.deployment.items():
            xs = [p[0] for p in outline]
            ys = [p[1] for p in outline]
            shape = sh.text((0, 0), f"{side} deployment", "small", pal.side_key(side, "/d30"))
            w, h = self.metrics.size(shape)
            x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
            i = 0.3
            self.label(shape, [(x0 + i + w / 2, y1 - i - h / 2), (x0 + i + w / 2, y0 + i + h / 2),
                               (x1 - i - w / 2, y1 - i - h / 2), (x1 - i - w / 2, y0 + i + h / 2)],
                       -10)

    def terrain(self) -> None:
        """Each piece's name and height: inside it when the text fits across it, else
        beside it (tied by a leader line when set away)."""
        for piece in self.scene.terrain:
            shape = sh.text((0, 0), f"{piece.id} {fmt_in(piece.height)}", "small", "ink",
                            attrs={"data-label-terrain": piece.id})
            w, h = self.metrics.size(shape)
            anchor = inner_point(piece.polygon)
            hw, hh = w / 2 - self.metrics.line * 3, h / 2 - self.metrics.line * 3
            fits = grown(piece.polygon).contains(
                shapely.box(anchor.x - hw, anchor.y - hh, anchor.x + hw, anchor.y + hh))
            box = tuple(float(v) for v in piece.polygon.bounds)
            near = [(anchor.x, anchor.y)] if fits and piece.kind != "place-of-power" else []
            near += around(box, w, h, self.gap)  # type: ignore[arg-type]
            self.label(shape, near, 1, box)  # type: ignore[arg-type]

    # --- objectives ----------------------------------------------------------------------------
    def objectives(self, held: dict[str, str | None] | None = None,
                   labelled: bool = True) -> None:
        """Each objective: its zone (dashed, tinted by who holds it), its marker - a hollow
        ring with a cross through it, unlike any base - the home side's dashed ring, and its
        tag ("centre: red")."""
        zone, marker = objective_radii(self.scene)
        out = self.layers["objectives"]
        for o in self.scene.objectives:
            h = (held or {}).get(o.id, o.controlled_by) if held is not None else o.controlled_by
            home = self.scene.tie_side(o)
            c = (o.x, o.y)
            tint = pal.side_key(h)
            mr = marker if marker > 0 else 0.3
            parts = [
                sh.circle(c, zone, pal.side_key(h, "/d15"), 1.5, fill=tint,
                          opacity=0.16 if h else 0.11, dash=(9, 6), attrs={"class": "zone"}),
            ]
            if home:
                parts.append(sh.circle(c, mr, pal.side_key(home), 2, grow=3.5, dash=(2.5, 2)))
            ink = pal.side_key(h, "/d45") if h else "ink-soft"
            arms = [((c[0] + dx * mr * 0.45, c[1] + dy * mr * 0.45),
                     (c[0] + dx * mr * 1.6, c[1] + dy * mr * 1.6))
                    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            ring = ([sh.circle(c, mr, "white", 4.5), sh.circle(c, mr, ink, 2.2)] if marker > 0
                    else [sh.line(_diamond(c, mr), "white", 4, closed=True),
                          sh.line(_diamond(c, mr), ink, 2, closed=True)])
            parts += [*(sh.line(arm, "white", 4) for arm in arms), *ring,
                      *(sh.line(arm, ink, 2) for arm in arms)]
            if h:
                parts.append(sh.dot(c, 2.2, pal.side_key(h)))
            out.append(sh.group(parts, attrs={
                "data-objective": o.id, "data-controlled-by": h or "", "data-x": sh.r4(o.x),
                "data-y": sh.r4(o.y), "data-home": home}))
            reach = mr * 1.6
            box = (c[0] - reach, c[1] - reach, c[0] + reach, c[1] + reach)
            self.placer.avoid(box)
            if not labelled:
                continue
            words = o.id + (f": {h}" if h else "")
            if home and home.lower() not in o.id.lower():
                words += f" ({home} home)"
            shape = sh.text((0, 0), words, "small", pal.side_key(h, "/d45") if h else "ink",
                            attrs={"data-label-objective": o.id})
            w, hh = self.metrics.size(shape)
            g = self.gap
            self.label(shape, [(c[0], c[1] - reach - g - hh / 2), (c[0], c[1] + reach + g + hh / 2),
                               (c[0], c[1] - zone + hh / 2 + g), (c[0], c[1] + zone - hh / 2 - g),
                               (c[0] + reach + g + w / 2, c[1]), (c[0] - reach - g - w / 2, c[1])],
                       2, box)

    # --- rulings -------------------------------------------------------------------------------
    def rulings(self, rulings: Rulings | None) -> None:
        """A heavy line joining the closest models of each pair of units in combat (under the
        models) with a crossed badge at the gap between them; a magenta ring round every
        model out of coherency."""
        if rulings is None:
            return
        where = {p.name: p for p in self.pieces}
        line = self.metrics.line
        for ua, ub, na, nb in rulings.combat:
            a, b = where.get(na), where.get(nb)
            if a is None or b is None:
                continue
            seg = [(a.x, a.y), (b.x, b.y)]
            self.layers["combat"] += [sh.line(seg, "white", 8, cap="round"),
                                      sh.line(seg, "combat", 5, cap="round")]
            self.placer.avoid_line(seg[0], seg[1], 8 * line)
            gap = gap_point(a, b)
            self.layers["rulings"].append(sh.group([
                sh.dot(gap, 8, "white"), sh.dot(gap, 6, "combat"),
                sh.glyph("cross", gap, 3, stroke="white", width=1.6)],
                attrs={"data-ruling": "combat", "data-a": ua, "data-b": ub}))
        for name in rulings.breaks:
            p = where.get(name)
            if p is not None:
                self.layers["rulings"].append(ring(p, "coherency", "white", 4.5, "coherency",
                                                   2.8, 3.0))

    # --- the ruleset's marks -------------------------------------------------------------------
    def marks(self, marks: Iterable[Any]) -> None:
        """What a ruleset draws (window.Mark): arrows for orders, dashed paths for routes,
        heavy edges for engaged sides, thin outlines for front arcs; each label placed as a
        tag by where the mark points."""
        out = self.layers["marks"]
        unit_ids = [u.id for u in self.scene.units]
        for mark in marks:
            p = [(float(x), float(y)) for x, y in np.asarray(mark.points)[:, :2]]
            if len(p) < 2:
                continue
            ink = pal.side_key(mark.side, "/d45") if mark.side else "ink"
            a = {"data-mark": mark.kind, "data-label": mark.label or None}
            if mark.kind == "edge":
                seg = [p[0], p[-1]]
                out.append(sh.group([sh.line(seg, "white", 6), sh.line(seg, "combat", 4)],
                                    attrs=a))
            elif mark.kind == "outline":
                faint = pal.side_key(mark.side, "/l35") if mark.side else "ink-soft"
                out.append(sh.line(p, ink if mark.label else faint, 2.5 if mark.label else 1,
                                   closed=True, attrs=a))
            elif mark.kind == "path":
                out.append(sh.group([sh.line(p, ink, 2, dash=(8, 8)), sh.dot(p[-1], 3, ink)],
                                    attrs=a))
            else:
                ang = math.degrees(math.atan2(p[-1][1] - p[-2][1], p[-1][0] - p[-2][0]))
                out.append(sh.group([sh.line(p, ink, 2), sh.glyph("arrowhead", p[-1], 8,
                                                                  angle=ang, fill=ink)], attrs=a))
            if mark.label:
                # an arrow's tag a third of the way along it, by the unit whose order it is
                # (two arrows to one foe, or head on, keep their tags apart)
                at = (_along(p, 1 / 3) if mark.kind == "arrow" else p[-1])
                owner = (unit_ids[mark.unit] if isinstance(mark.unit, int)
                         and 0 <= mark.unit < len(unit_ids) else None)
                tag = sh.text((0, 0), mark.label, "small", "ink", box=("white", ink),
                              attrs={"data-mark-label": mark.kind, "data-mark-unit": owner})
                w, h = self.metrics.size(tag)
                spot = (at[0] - 0.05, at[1] - 0.05, at[0] + 0.05, at[1] + 0.05)
                near = [at] if mark.kind == "arrow" else [(at[0], at[1] + 0.25 + h / 2)]
                self.label(tag, near + around(spot, w, h, self.gap), 4, spot, owner)

    # --- a measurement -------------------------------------------------------------------------
    def measurement(self, m: dict | None) -> None:
        """The closest-point line of `battlefield measure` with its distance on a tag, and
        what blocks the view outlined in the highlight."""
        if not m:
            return
        parts: list[sh.Shape] = []
        pieces = {p.id: p for p in self.scene.terrain}
        where = {p.name: p for p in self.pieces}
        for name in m.get("blocked_by", []):
            if name in pieces:
                outline = pieces[name].outline
                parts.append(sh.group([sh.line(outline, "black", 7, closed=True),
                                       sh.line(outline, "highlight", 4, closed=True)],
                                      attrs={"data-blocker": name}))
            elif name in where:
                parts.append(ring(where[name], "blocker", "black", 4.5, "highlight", 2.5, 2.8))
        pa, pb = m["points"]["a"], m["points"]["b"]
        seg = [(pa[0], pa[1]), (pb[0], pb[1])]
        parts += [sh.line(seg, "white", 6, cap="round"), sh.line(seg, "measure", 2.5, cap="round")]
        for e in seg:
            parts += [sh.dot(e, 5, "white"), sh.dot(e, 3.5, "measure")]
        self.layers["measurement"].append(sh.group(parts, "measurement", {
            "data-a": m["a"], "data-b": m["b"], "data-distance": m["distance"],
            "data-visible": m.get("visible")}))
        line = self.metrics.line
        self.placer.avoid_line(seg[0], seg[1], 6 * line)
        tag = sh.text((0, 0), measure_text(m), "label", "ink", box=("white", "ink"),
                      attrs={"data-role": "distance"})
        w, h = self.metrics.size(tag)
        (px, py), (qx, qy) = seg
        mx, my = (px + qx) / 2, (py + qy) / 2
        n = math.hypot(qx - px, qy - py) or 1.0
        nx, ny = -(qy - py) / n, (qx - px) / n
        off = (abs(nx) * w + abs(ny) * h) / 2 + 6 * line
        near = [(mx + nx * off, my + ny * off), (mx - nx * off, my - ny * off), (mx, my)]
        near += around((min(px, qx), min(py, qy), max(px, qx), max(py, qy)), w, h, 6 * line)
        self.label(tag, near, 10, (mx - 0.05, my - 0.05, mx + 0.05, my + 0.05))

    # --- all of it -----------------------------------------------------------------------------
    def placed(self, avoid: Iterable[Box] = ()) -> Depiction:
        """Place the labels (kept off `avoid` too) and give the depiction."""
        for box in avoid:
            self.placer.avoid(box)
        placed = self.placer.place()
        self.layers["labels"] += label_shapes(placed)
        return Depiction(self.layers, placed, self.colours)


def label_shapes(placed: Sequence[Placed]) -> list[sh.Shape]:
    """The labels where they went (each item's centre set), their leader lines under them."""
    out = []
    for p in placed:
        p.item["c"] = [sh.r4(p.centre[0]), sh.r4(p.centre[1])]
        if p.leader is not None:
            out.append(sh.group([sh.line(p.leader, "leader-line", 1.2),
                                 sh.dot(p.leader[0], 2, "leader-line")],
                                attrs={"data-leader": p.item.get("a", {}).get(
                                    "data-label-for", "")}))
    return out + [p.item for p in placed]


def depict(scene: Scene, pieces: list[Piece] | None = None, rulings: Rulings | None = None,
           measure: dict | None = None, marks: Iterable[Any] = (), metrics: Metrics = PAGE,
           colours: dict[str, pal.RGB] | None = None, held: dict[str, str | None] | None = None,
           unit_text: dict[str, str] | None = None, labels: bool = True,
           avoid: Iterable[Box] = (), bounds: Box | None = None) -> Depiction:
    """The whole depiction of the table: `pieces` where the models stand (the scene's by
    default), the referee's `rulings`, a `measure` report, the ruleset's `marks`, who holds
    each objective (`held`; else the rulings' or the scene's), words after units' ids."""
    t = Table(scene, pieces if pieces is not None else pieces_of_scene(scene), metrics,
              dict(colours or {}), bounds)
    if held is None and rulings is not None and rulings.held:
        held = rulings.held
    t.deployment() if labels else None
    t.terrain() if labels else None
    t.objectives(held, labels)
    t.rulings(rulings)
    t.models(unit_text, labels)
    t.marks(marks)
    t.measurement(measure)
    return t.placed(avoid)


# --- helpers ---------------------------------------------------------------------------------
def _along(points: Sequence[tuple[float, float]], share: float) -> tuple[float, float]:
    """The point `share` of the way along a polyline."""
    q = shapely.LineString(points).interpolate(share, normalized=True)
    return float(q.x), float(q.y)


def ring(p: Piece, what: str, under: str, under_w: float, over: str, over_w: float,
         grow: float) -> sh.Shape:
    """A ring round a model's base (grown by `grow` line units): `under` then `over`."""
    return sh.group([sh.base(p.x, p.y, p.shape, p.a, p.b, p.facing, under, under_w, grow=grow),
                     sh.base(p.x, p.y, p.shape, p.a, p.b, p.facing, over, over_w, grow=grow)],
                    attrs={"data-ruling": what, "data-for": p.name})


def main_group(ps: list[Piece], gap: float = 2.0) -> list[Piece]:
    """A unit's models reachable from its leader in steps of at most `gap` inches between
    bases (where its label belongs, away from stragglers)."""
    lead = next((k for k, p in enumerate(ps) if p.leader), 0)
    group, todo = {lead}, [lead]
    while todo:
        i = todo.pop()
        a = ps[i]
        for j, b in enumerate(ps):
            if j not in group and math.hypot(a.x - b.x, a.y - b.y) - a.reach - b.reach <= gap:
                group.add(j)
                todo.append(j)
    return [ps[k] for k in sorted(group)]


def gap_point(a: Piece, b: Piece) -> tuple[float, float]:
    """The middle of the gap between two bases along the line of their centres."""
    dx, dy = b.x - a.x, b.y - a.y
    n = math.hypot(dx, dy) or 1.0
    ea = _edge_reach(a, dx / n, dy / n)
    eb = _edge_reach(b, -dx / n, -dy / n)
    t = (ea + max(n - ea - eb, 0.0) / 2) / n if n > ea + eb else ea / (ea + eb or 1.0)
    return a.x + dx * t, a.y + dy * t


def _edge_reach(p: Piece, ux: float, uy: float) -> float:
    th = math.radians(p.facing)
    c, s = math.cos(th), math.sin(th)
    lx, ly = ux * c + uy * s, -ux * s + uy * c
    if p.shape == RECT:
        return min(p.a / abs(lx) if abs(lx) > 1e-12 else math.inf,
                   p.b / abs(ly) if abs(ly) > 1e-12 else math.inf)
    return 1.0 / math.sqrt((lx / p.a) ** 2 + (ly / p.b) ** 2)


_INNER: dict[int, tuple[shapely.Polygon, shapely.Point]] = {}
_GROWN: dict[int, tuple[shapely.Polygon, shapely.Geometry]] = {}


def grown(poly: shapely.Polygon) -> shapely.Geometry:
    """The outline grown by 0.05" (a label fits in a piece when inside it), kept as
    inner_point keeps its answers."""
    kept = _GROWN.get(id(poly))
    if kept is not None and kept[0] is poly:
        return kept[1]
    if len(_GROWN) > 4096:
        _GROWN.clear()
    out = poly.buffer(0.05)
    shapely.prepare(out)
    _GROWN[id(poly)] = (poly, out)
    return out


def inner_point(poly: shapely.Polygon) -> shapely.Point:
    """The point deepest inside an outline (where a label or symbol fits best); kept for the
    outlines asked about again (a game's pages ask once a version)."""
    kept = _INNER.get(id(poly))
    if kept is not None and kept[0] is poly:
        return kept[1]
    try:
        point = polylabel(poly, tolerance=0.05)
    except Exception:  # noqa: BLE001 - degenerate outlines: fall back
        point = poly.representative_point()
    if len(_INNER) > 4096:
        _INNER.clear()
    _INNER[id(poly)] = (poly, point)
    return point


def _diamond(c: tuple[float, float], r: float) -> list[tuple[float, float]]:
    return [(c[0], c[1] + r), (c[0] + r, c[1]), (c[0], c[1] - r), (c[0] - r, c[1])]


def measure_text(measure: dict) -> str:
    """'7.42"' or '7.42" (3-D 7.6")'."""
    d, d3 = float(measure["distance"]), float(measure.get("distance_3d", measure["distance"]))
    text = f'{d:.2f}"'
    if abs(d3 - d) >= 0.005:
        text += f' (3-D {d3:.2f}")'
    return text


__all__ = ["Depiction", "LAYERS", "Piece", "Rulings", "Table", "UNDER", "depict", "label_shapes",
           "gap_point", "main_group", "objective_radii", "pieces_of_scene", "pieces_of_state",
           "side_colours", "inner_point", "fmt_in", "measure_text"]
