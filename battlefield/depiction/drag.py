"""The depiction of a drag: what the table shows while a unit is in the hand, decided once for
the window and the browser's play and board pages. Made from the engine's answers
(depiction/live.py: the action the drop would be, State.check, the rulings where the unit
would stand, the ruleset's DragNotes):

- what stays put (`still`): the enemies' combat ranges, where the unit stood, how far the
  ability takes it (the reachable area, or the allowance's circle);
- the drop (`overlay`): the unit where it would stand, the ruler along its path with the
  distance used, the sight line to the target and what blocks it, the units the ruleset rings
  with why, its ghosts and marks, the models at fault ringed with their reasons, who would hold
  each objective - every tag placed by the one placer, clear of the table's own labels;
- its words (`words`): the caption lines (distance, legal or why not, the ruleset's notes,
  sight, who it ends in combat with) and the ruler's colour."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from battlefield import palette as pal
from battlefield.depiction import shapes as sh
from battlefield.depiction.labels import LABEL, Box, Placed, Placer, overlapping
from battlefield.depiction.live import Pickup, Ruling, describe, targeted
from battlefield.depiction.metrics import PAGE, Metrics
from battlefield.depiction.table import (
    Depiction,
    Table,
    label_shapes,
    objective_radii,
    pieces_of_state,
)
from battlefield.geometry.bases import RECT


@dataclass
class Words:
    """What the drag says: its caption's lines (with each line's ink), the ruler's colour (a
    palette key), the enemy units it would be in combat with."""

    lines: list[tuple[str, str]]
    ruler: str
    in_combat: list[str]

    @property
    def text(self) -> list[str]:
        return [line for line, _ in self.lines]


def ruler_key(fraction: float) -> str:
    """Green up to 80% of the allowance, amber up to all of it, red beyond."""
    if fraction <= 0.8:
        return "ok"
    return "near" if fraction <= 1.0 + 1e-9 else "over"


def words(state: Any, r: Ruling) -> Words:
    """The caption: every ruling in words (live.describe), then who the unit would be in combat
    with after the drop (its target said so); the ruler is red whenever the drop is illegal,
    else green or amber by how much of the allowance the path uses."""
    near = [state.scene.units[v].id for v in r.check.in_combat_range]
    rules = state.scene.ruleset
    short = " in 3-D" if rules.distance == "3d" else ""
    lines = describe(r)
    if near:
        # where the drop leaves the unit, not a fault (a fault is on the illegal: line): a
        # charge's target among them is what the charge is for
        aim = (state.scene.units[r.target].id if r.target is not None
               and targeted(state, r.action.type) else None)
        lines.append(f'after the drop, in combat (within {rules.combat_range:g}"{short}) with: '
                     + ", ".join(f"{u} (its target)" if u == aim else u for u in near))
    if r.legal is False:
        ruler = "over"
    else:
        ruler = ruler_key(r.fraction) if r.allowed else "measure"
    ink = [("over" if line.startswith("illegal") else "ink-soft"
            if line.startswith("after the drop") else "ink") for line in lines]
    return Words(list(zip(lines, ink, strict=True)), ruler, near)


# --- what stays put during a drag ---------------------------------------------------------------
def still(state: Any, p: Pickup) -> list[sh.Shape]:
    """The enemies' combat ranges, where the unit stood, and where the ability can take it: the
    reachable area (round what is in the way) or the allowance's circle. Kept in the pick-up."""
    kept = p.cache.get("depiction:still")
    if kept is not None:
        return kept
    t = state.table
    out: list[sh.Shape] = []
    rng = state.scene.ruleset.combat_range
    mine = state.side_of(p.unit)
    foes = [int(m) for m in np.nonzero(t.on_table)[0] if state.side_of(int(t.unit[m])) != mine]
    if foes and rng > 0:
        zone = shapely.union_all([t.footprint(m, 24).buffer(rng, 4) for m in foes])
        for g in getattr(zone, "geoms", [zone]):
            if not g.is_empty:
                out.append(sh.line(np.asarray(g.exterior.coords), "combat/l55", 1.3,
                                   closed=True, attrs={"data-drag": "combat-range"}))
    for (x, y), m in zip(p.start, p.models, strict=True):
        out.append(sh.base(x, y, int(t.shape[m]), t.a[m], t.b[m], t.facing[m], "ink-soft", 0.7,
                           attrs={"data-drag": "start"}))
    if p.reach is not None and p.allowed:
        rings, holes = reach_rings(p.reach, p.allowed)
        if rings:
            out.insert(0, sh.area(rings, "ok", 0.24, holes, attrs={"data-drag": "reach"}))
    elif p.allowed:
        out.append(sh.circle((t.x[p.ref], t.y[p.ref]), p.allowed + float(t.reach[p.ref]),
                             "ok/d20", 0.7, attrs={"data-drag": "reach"}))
    p.cache["depiction:still"] = out
    return out


def reach_rings(field: Any, allowed: float) -> tuple[list[np.ndarray], list[bool]]:
    """The reachable cells as outlines (outer rings and holes): each row's runs of cells made
    boxes, the boxes merged."""
    mask = field.within(allowed)
    half = field.step / 2
    boxes = []
    for j, row in enumerate(mask):
        cells = np.flatnonzero(row)
        if not len(cells):
            continue
        breaks = np.flatnonzero(np.diff(cells) > 1)
        starts = np.concatenate([[cells[0]], cells[breaks + 1]])
        ends = np.concatenate([cells[breaks], [cells[-1]]])
        y = field.y0 + j * field.step
        for a, b in zip(starts, ends, strict=True):
            boxes.append(shapely.box(field.x0 + a * field.step - half, y - half,
                                     field.x0 + b * field.step + half, y + half))
    if not boxes:
        return [], []
    shape = shapely.union_all(boxes).simplify(field.step * 0.25)
    rings, holes = [], []
    for g in getattr(shape, "geoms", [shape]):
        if g.is_empty or g.geom_type != "Polygon":
            continue
        rings.append(np.asarray(g.exterior.coords))
        holes.append(False)
        for hole in g.interiors:
            rings.append(np.asarray(hole.coords))
            holes.append(True)
    return rings, holes


# --- the drop --------------------------------------------------------------------------------
FAULT_MOST = 56          # characters of a fault tag (the caption says every reason whole)


def fault_words(model: str, why: list[str]) -> str:
    """A model's fault tag: what is wrong with it, short enough to read beside it - its first
    reason without its own name (the tag is tied to it), and how many more the caption lists
    ('moves through the enemy model blue-hunters/1 (+1 more)')."""
    reasons = list(dict.fromkeys(w.replace(f"{model} ", "", 1) if w.startswith(f"{model} ")
                                 else w for w in why))
    first, more = reasons[0], len(reasons) - 1
    if len(first) > FAULT_MOST:                  # after a word, never mid-word
        cut = first[:FAULT_MOST - 3].rsplit(" ", 1)[0].rstrip(" ,;:(")
        first = cut + "..."
    return first + (f" (+{more} more)" if more else "")


def standing(state: Any, p: Pickup) -> list[tuple[Box, str | None]]:
    """The boxes of the models that stay where they are while `p` is in the hand, with their
    units (what the drag's tags keep off; the same for every place of one pick-up)."""
    moving = {state.scene.model_names[int(m)] for m in p.models}
    return [(piece.box, piece.unit) for piece in pieces_of_state(state)
            if piece.name not in moving]


def overlay(state: Any, p: Pickup, r: Ruling, metrics: Metrics = PAGE,
            colours: dict[str, pal.RGB] | None = None, avoid: list[Box] | None = None,
            facing: float | None = None, caption: Any = None, bounds: Box | None = None,
            still_there: list[tuple[Box, str | None]] | None = None,
            table_labels: Sequence[Placed] = ()) -> Depiction:
    """Everything the drop shows (layer "drag") with its tags placed (layer "labels"), kept off
    every model where it stands or would stand and off `avoid` (the table's own labels).
    `caption`: a label the renderer measured (the window's box of words) to place with them,
    beside the dropped unit. `still_there`: `standing(state, p)`, when the caller keeps it.
    `table_labels`: the table's own labels where they went (its depiction's `placed`, the unit
    in the hand left out), drawn in layer "labels" under the tags: each stays where it is
    unless the drop covers it (the unit where it would stand, the ruler, the sight line, a tag
    with no free place) - then the one placer moves it aside (`with_table`)."""
    scene, t = state.scene, state.table
    table = Table(scene, [], metrics, dict(colours or {}), bounds)
    shapes: list[sh.Shape] = []
    side = scene.units[p.unit].side
    uid = scene.units[p.unit].id
    line = metrics.line
    for box, owner in (still_there if still_there is not None else standing(state, p)):
        table.placer.obstacles.append(box)
        table.placer.owners.append(owner)
    moving: list[Box] = []           # what the drop puts on the table (no label under it)
    for k, m in enumerate(p.models):
        x, y = r.ends[k]
        table.placer.avoid((x - t.reach[m], y - t.reach[m], x + t.reach[m], y + t.reach[m]), uid)
    moving += table.placer.obstacles[-len(p.models):]
    for box in avoid or ():             # the table's own labels: no tag or leader over them
        table.placer.avoid(box, LABEL)
    _, marker = objective_radii(scene)           # the objectives' markers stay in sight
    reach = (marker if marker > 0 else 0.3) * 1.6
    for o in scene.objectives:
        table.placer.avoid((o.x - reach, o.y - reach, o.x + reach, o.y + reach))
    # Who would hold each objective after the drop.
    zone_r = {o.id: (o.x, o.y) for o in scene.objectives}
    for oid, after in r.objectives.items():
        c = zone_r[oid]
        fill = pal.side_key(after) if after else "tag-face"
        ink = "ink" if pal.luminance(pal.paint(fill, table.colours)) > 0.3 else "halo"
        tag = sh.text((0, 0), f"{oid}: {after or 'nobody'}", "small", ink, box=(fill, "ink"),
                      attrs={"data-drag": "objective", "data-objective-after": oid})
        w, h = metrics.size(tag)
        spot = (c[0] - 0.3, c[1] - 0.3, c[0] + 0.3, c[1] + 0.3)
        table.label(tag, [(c[0], c[1] - 0.5 - h / 2), (c[0], c[1] + 0.5 + h / 2)], 2, spot)
    # The target: the sight line and what blocks it.
    if r.sight is not None:
        a, b = r.sight.closest.a, r.sight.closest.b
        seg = [(a[0], a[1]), (b[0], b[1])]
        vis = {"full": "ok", "partial": "near", "none": "over"}[r.sight.visible]
        shapes += [sh.line(seg, "black", 3.2, attrs={"data-drag": "sight"}),
                   sh.line(seg, vis, 2)]
        n = len(table.placer.obstacles)
        table.placer.avoid_line(seg[0], seg[1], 5 * line)
        moving += table.placer.obstacles[n:]
        pieces = {pc.id: pc for pc in scene.terrain}
        index = {n: i for i, n in enumerate(scene.model_names)}
        for name in r.sight.blocked_by:
            if name in pieces:
                shapes += [sh.line(pieces[name].outline, "black", 4, closed=True,
                                   attrs={"data-blocker": name}),
                           sh.line(pieces[name].outline, "highlight", 2, closed=True)]
            elif name in index:
                m = index[name]
                shapes.append(sh.circle((t.x[m], t.y[m]), float(t.reach[m]), "highlight", 2,
                                        grow=2.5, attrs={"data-blocker": name}))
    # What the ruleset adds: ghosts (a retreat), units it rings with why, its marks.
    for ghost in r.notes.ghosts:
        for m, (x, y) in zip(t.unit_models[ghost.unit], ghost.at, strict=False):
            shapes.append(sh.base(x, y, int(t.shape[m]), t.a[m], t.b[m], t.facing[m],
                                  "ink-soft", 1.3, attrs={"data-drag": "ghost"}))
    for ring in r.notes.rings:
        models = t.unit_models[ring.unit]
        for m in models:
            shapes.append(sh.circle((t.x[m], t.y[m]), float(t.reach[m]), "highlight", 2,
                                    grow=2.5, attrs={"data-ringed": scene.units[ring.unit].id}))
        lead = int(models[0])
        tag = sh.text((0, 0), ring.reason, "small", "ink", box=("highlight", "ink"),
                      attrs={"data-drag": "ring"})
        w, h = metrics.size(tag)
        x, y, rr = float(t.x[lead]), float(t.y[lead]), float(t.reach[lead])
        table.label(tag, [(x, y + rr + 0.3 + h / 2)], 3, (x - rr, y - rr, x + rr, y + rr),
                    scene.units[ring.unit].id)
    if r.notes.marks:
        table.marks(r.notes.marks)
        shapes += table.layers["marks"]
    # The unit where it would stand (turned, when it was turned in the hand).
    turned = facing if len(p.models) == 1 else None
    for k, m in enumerate(p.models):
        x, y = r.ends[k]
        f = float(t.facing[m]) if turned is None else turned
        shapes.append(sh.base(x, y, int(t.shape[m]), t.a[m], t.b[m], f, pal.side_key(side, "/d60"),
                              1.3, fill=pal.side_key(side), attrs={"data-drag": "unit"}))
        if int(t.shape[m]) == RECT:              # a block's front edge, heavier
            c, s_ = np.cos(np.radians(f)), np.sin(np.radians(f))
            a_, b_ = float(t.a[m]), float(t.b[m])
            front = [(x + a_ * c - b_ * s_, y + a_ * s_ + b_ * c),
                     (x + a_ * c + b_ * s_, y + a_ * s_ - b_ * c)]
            shapes.append(sh.line(front, pal.side_key(side, "/d60"), 3.3))
    # The models at fault, ringed, and why (at most three reasons, each said once).
    where = {}
    for m in r.faults:
        k = np.nonzero(p.models == m)[0]
        where[m] = tuple(r.ends[k[0]]) if len(k) else (float(t.x[m]), float(t.y[m]))
        x, y = where[m]
        rr = float(t.reach[m])
        shapes += [sh.circle((x, y), rr, "white", 3.3, grow=3.3, attrs={"data-fault":
                                                                        scene.model_names[m]}),
                   sh.circle((x, y), rr, "coherency", 2, grow=3.3)]
    seen: set[str] = set()
    for m, why in r.faults.items():
        if len(seen) >= 3 or why[0] in seen:
            continue
        said = fault_words(scene.model_names[m], why)
        tag = sh.text((0, 0), said, "small", "white",
                      box=("coherency", "ink"), attrs={"data-drag": "fault"})
        w, h = metrics.size(tag)
        x, y = where[m]
        rr = float(t.reach[m])
        table.label(tag, [(x + rr + 0.4 + w / 2, y + rr + 0.5)], 4,
                    (x - rr, y - rr, x + rr, y + rr), uid)
        seen.add(why[0])
    # The ruler along the reference model's path, with the distance used.
    path = [tuple(q) for q in (r.action.paths[0][1] if p.single else r.action.path)]
    said = words(state, r)
    shapes += [sh.line(path, "white", 4.5, attrs={"data-drag": "ruler"}),
               sh.line(path, said.ruler, 2.5)]
    n = len(table.placer.obstacles)
    for q0, q1 in zip(path, path[1:], strict=False):
        table.placer.avoid_line(q0, q1, 6 * line)
    moving += table.placer.obstacles[n:]
    used = f'{r.used:.2f}"' + (f' / {r.allowed:g}"' if r.allowed else "")
    if r.climbed > 1e-6:
        used += f' (climb {r.climbed:.2f}")'
    tag = sh.text((0, 0), used, "label", "ink", box=("white", said.ruler),
                  attrs={"data-drag": "distance"})
    w, h = metrics.size(tag)
    (ax, ay), (bx, by) = path[-2], path[-1]
    mid = ((ax + bx) / 2, (ay + by) / 2)
    table.label(tag, [(mid[0], mid[1] + 0.4 + h / 2), (mid[0], mid[1] - 0.4 - h / 2)], 5,
                (mid[0] - 0.05, mid[1] - 0.05, mid[0] + 0.05, mid[1] + 0.05))
    # The caption (the window's box of words), beside where the unit would stand.
    if caption is not None:
        w, h = metrics.size(caption)
        k = list(p.models).index(p.ref) if p.ref in p.models else 0
        cx, cy = r.ends[k]
        off = float(t.reach[p.ref]) + 1.2
        near = [(cx + off + w / 2, cy - off - h / 2), (cx - off - w / 2, cy - off - h / 2),
                (cx + off + w / 2, cy + off + h / 2), (cx - off - w / 2, cy + off + h / 2)]
        table.placer.add(caption, w, h, near, 6, (cx - off, cy - off, cx + off, cy + off),
                         tied=False)
    placed, drawn = with_table(table.placer, table_labels, moving)
    return Depiction({"drag": shapes, "labels": drawn}, placed, table.colours)


def with_table(placer: Placer, labels: Sequence[Placed], moving: Sequence[Box]
               ) -> tuple[list[Placed], list[sh.Shape]]:
    """The placer's labels (the drag's tags) placed with the table's own `labels`: each of
    these stays where it was, an obstacle to the tags, unless `moving` (what the drop puts on
    the table) covers it or a tag with no free place does - then it is placed again as it was
    first (its old place first of all, else beside it, else further out on a leader line).
    Returns every label where it went (the table's that stayed, then those placed now: the
    tags and the table's labels moved) and their shapes."""
    start = placer.mark()
    boxes = [q.box for q in labels]
    moved = overlapping(boxes, moving, placer.pad)
    while True:
        placer.back_to(start)
        again: list[Any] = []
        for q, m in zip(labels, moved, strict=True):
            if m and q.want is not None:
                again.append(dict(q.item))
                placer.again(q, again[-1])
            else:
                placer.avoid(q.box, LABEL)
                if q.leader is not None:
                    placer.avoid_line(q.leader[0], q.leader[1], placer.pad * 2)
        placed = placer.place()
        mine = {id(item) for item in again}
        tags = [q.box for q in placed if id(q.item) not in mine]
        covered = overlapping(boxes, tags) & ~moved
        if not covered.any():
            break
        moved |= covered                # a tag left no free place covers it: it moves aside
    stay = [q for q, m in zip(labels, moved, strict=True) if not m or q.want is None]
    return stay + placed, label_shapes(stay) + label_shapes(placed)


__all__ = ["Words", "fault_words", "overlay", "reach_rings", "ruler_key", "standing", "still",
           "with_table", "words"]
