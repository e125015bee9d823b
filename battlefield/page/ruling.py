"""`battlefield render SCENE -o FILE.svg | FILE.html`: a ruling as one file. The SVG is the
PNG's picture in inches; the HTML page holds that SVG with the scene's name and ruleset, a
legend, and hover details (a model's unit, its profile line and its distance to the measured
target)."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from pathlib import Path

import numpy as np

from battlefield.files import write_text
from battlefield.page.html import document
from battlefield.page.legend import heading_html, legend_html
from battlefield.page.svg import Picture, hex_colour
from battlefield.page.words import measure_caption, profile_line, scene_title
from battlefield.rulings import Referee
from battlefield.scene.model import Scene

FORMATS = (".svg", ".html", ".htm")


def hover_data(scene: Scene, measure: dict | None) -> dict:
    """What the page shows on hover: each unit's name, side and profile line; each
    model's distance to the measured target (B of --measure), the ruleset's distance."""
    units = {u.id: {"name": u.name or u.id, "side": u.side, "profile": profile_line(u),
                    "models": len(u.models)} for u in scene.units}
    out: dict = {"units": units}
    if measure:
        referee = Referee(scene)
        t = referee.table
        u, m = referee.resolve(measure["b"])
        target = np.array([m]) if m is not None else t.unit_models[u]
        rows = np.arange(len(t))
        d = (t.distances_3d(rows, target) if scene.ruleset.distance == "3d"
             else t.distances(rows, target)).min(axis=1)
        out["target"] = measure["b"]
        out["distances"] = {name: round(float(v), 2)
                            for name, v in zip(referee.names, d, strict=True)}
    return out


def ruling_html(scene: Scene, report: dict | None, measure: dict | None,
                marks: Iterable = ()) -> str:
    """The whole page: heading, the SVG, the legend, the hover details."""
    picture = Picture(scene, report, measure, marks)
    svg = picture.svg("board", standalone=False)
    caption = (f'<p class="measure-line">{escape(measure_caption(measure))}</p>'
               if measure else "")
    body = (f'<main><header>{heading_html(scene)}{caption}</header>'
            f'<div class="table-wrap">{svg}</div>'
            f"{legend_html(scene, report, measure, picture.colours)}</main>"
            '<div id="tip" class="tip" hidden></div>')
    data = {"kind": "ruling", "scene": scene_title(scene), "depth": scene.depth,
            "colours": {s: hex_colour(c) for s, c in picture.colours.items()},
            "objectives": {oid: {"controlled_by": o.get("controlled_by"),
                                 "totals": o.get("totals", {})}
                           for oid, o in (report or {}).get("objectives", {}).items()},
            **hover_data(scene, measure)}
    return document(scene_title(scene), body, data, "ruling")


def write_ruling(scene: Scene, report: dict | None, measure: dict | None, path: str | Path,
                 marks: Iterable = ()) -> None:
    """Write the ruling as .svg or .html (the extension chooses)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".svg":
        text = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                + Picture(scene, report, measure, marks).svg("board") + "\n")
    else:
        text = ruling_html(scene, report, measure, marks)
    write_text(path, text)
