"""Everything over the board, terrain and bases as the depiction decides it
(battlefield/depiction/table.py: objectives, combat links, coherency rings, the ruleset's marks,
a measurement, every label placed once), drawn by the window's renderer (view/depict.py); and
draw_scene, which draws every layer in order."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import pygame

from battlefield.depiction.labels import Placed
from battlefield.depiction.table import (
    LAYERS,
    Depiction,
    Piece,
    Rulings,
    Table,
    depict,
    gap_point,
    pieces_of_scene,
)
from battlefield.scene.model import Scene
from battlefield.view.damage_marks import draw_losses, wounds_left
from battlefield.view.depict import WindowMetrics, draw, placed_rects
from battlefield.view.layers import Style, draw_board, draw_models, draw_terrain
from battlefield.view.transform import ViewTransform


@dataclass
class Drawn:
    """What draw_scene drew: the depiction and where its labels went (pixels)."""

    depiction: Depiction
    placed: list[pygame.Rect] = field(default_factory=list)
    leaders: list[tuple[tuple[float, float], tuple[float, float]]] = field(default_factory=list)


def table_depiction(view: ViewTransform, scene: Scene, style: Style, report: dict | None = None,
                    measure: dict | None = None, marks: Iterable = (),
                    pieces: list[Piece] | None = None, unit_text: dict[str, str] | None = None,
                    labels: bool = True, objective_labels: bool = True,
                    bounds: pygame.Rect | None = None) -> tuple[Depiction, WindowMetrics]:
    """The depiction of the table as this view shows it (its labels measured in the window's
    font at this zoom, kept inside `bounds`: the board by default)."""
    metrics = WindowMetrics(style, view.scale, style.sides)
    r = pygame.Rect(bounds if bounds is not None else view.board_rect(scene.width, scene.depth))
    x0, y1 = view.table(r.left, r.top)
    x1, y0 = view.table(r.right, r.bottom)
    t = Table(scene, pieces if pieces is not None else pieces_of_scene(scene), metrics,
              style.sides, (x0, y0, x1, y1))
    rulings = Rulings.of_report(report)
    if labels:
        t.deployment()
        t.terrain()
    t.objectives(rulings.held if rulings is not None and rulings.held else None,
                 labels and objective_labels)
    t.rulings(rulings)
    t.models(unit_text, labels)
    t.marks(marks)
    t.measurement(measure)
    return t.placed(), metrics


def draw_layers(surface: pygame.Surface, view: ViewTransform, dep: Depiction,
                metrics: WindowMetrics, names: Iterable[str]) -> None:
    for name in names:
        draw(surface, view, dep.layers[name], metrics)


def draw_scene(surface: pygame.Surface, view: ViewTransform, scene: Scene,
               report: dict | None = None, measure: dict | None = None,
               style: Style | None = None, rulers: bool = True, marks: Iterable = (),
               wounds: dict | None = None, lost: Iterable = ()) -> Drawn:
    """All layers in order: board, terrain, the depiction under the models (objectives,
    combat links), where models were taken off, the bases, the depiction over them (marks,
    rulings, the measurement, the labels). Returns where the labels went. `wounds` and `lost`:
    damage on the models and where models were taken off (view.damage_marks)."""
    style = style or Style.for_scene(scene, report, view.scale)
    left = {uid: f"{w[0]}/{w[1]}" for uid, each in (wounds or {}).items()
            if (w := wounds_left(each))}
    dep, metrics = table_depiction(view, scene, style, report, measure, marks,
                                   unit_text=left,
                                   bounds=pygame.Rect(view.board_rect(scene.width, scene.depth))
                                   .inflate(-2, -2))
    draw_board(surface, view, scene, style, None, rulers)
    draw_terrain(surface, view, scene, style)
    draw_layers(surface, view, dep, metrics, ("objectives", "combat"))
    draw_losses(surface, view, list(lost), style.side, style.line)
    draw_models(surface, view, scene, style, wounds)
    draw_layers(surface, view, dep, metrics, LAYERS[2:])
    return Drawn(dep, placed_rects(view, dep.placed), leaders(view, dep.placed))


def leaders(view: ViewTransform, placed: Iterable[Placed]
            ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The leader lines drawn, in pixels (anchor end first)."""
    return [(view.px(*p.leader[0]), view.px(*p.leader[1])) for p in placed
            if p.leader is not None]


def combat_links(view: ViewTransform, scene: Scene, report: dict | None
                 ) -> list[tuple[tuple[float, float], tuple[float, float], tuple[float, float]]]:
    """For each pair of units in combat (once a pair): the pixel centres of its closest models
    and the middle of the gap between their bases (as the depiction draws them)."""
    rulings = Rulings.of_report(report)
    where = {p.name: p for p in pieces_of_scene(scene)}
    out = []
    for _, _, na, nb in (rulings.combat if rulings else []):
        a, b = where.get(na), where.get(nb)
        if a is not None and b is not None:
            out.append((view.px(a.x, a.y), view.px(b.x, b.y), view.px(*gap_point(a, b))))
    return out


def draw_marks(surface: pygame.Surface, view: ViewTransform, style: Style, marks: Iterable,
               scene: Scene | None = None) -> None:
    """What a ruleset draws (window.Mark), as the depiction draws it; their tags where the
    marks point (a scene's placer places them with the rest of its labels)."""
    if scene is None:
        return
    metrics = WindowMetrics(style, view.scale, style.sides)
    t = Table(scene, [], metrics, style.sides)
    t.marks(marks)
    dep = t.placed()
    draw_layers(surface, view, dep, metrics, ("marks", "labels"))


def draw_measurement(surface: pygame.Surface, view: ViewTransform, scene: Scene, style: Style,
                     measure: dict | None) -> None:
    """The closest-point line of `battlefield measure` with its distance, and its blockers."""
    if not measure:
        return
    metrics = WindowMetrics(style, view.scale, style.sides)
    t = Table(scene, pieces_of_scene(scene), metrics, style.sides)
    t.models(None, False)
    t.measurement(measure)
    dep = t.placed()
    draw_layers(surface, view, dep, metrics, ("measurement", "labels"))


__all__ = ["Drawn", "combat_links", "draw_layers", "draw_marks", "draw_measurement",
           "draw_scene", "leaders", "table_depiction", "depict"]
