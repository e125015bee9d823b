"""The board scene of the window: the table as the game stands, with pan (right button or
arrows), zoom (wheel, about the cursor) and fit-to-board (F). What does not change between
frames is cached: the board and terrain per view, the models and rulings per game state."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, replace

import numpy as np
import pygame

from battlefield import palette as pal
from battlefield.analysis.coverage import coverage
from battlefield.depiction.table import Depiction, pieces_of_scene
from battlefield.rules.outcome import losses, unit_wounds
from battlefield.rules.standing import referee, scene_now
from battlefield.rules.state import State
from battlefield.view.damage_marks import Loss, draw_losses, wounds_left
from battlefield.view.depict import placed_rects
from battlefield.view.drawing import draw_cells, text_surface
from battlefield.view.heatmap import ramp
from battlefield.view.layers import (
    Style,
    draw_board,
    draw_models,
    draw_rulers,
    draw_terrain,
)
from battlefield.view.overlays import draw_layers, leaders, table_depiction
from battlefield.view.picture import margins
from battlefield.view.transform import ViewTransform

ZOOM_STEP = 1.15
HEAT_SPACING = 1.0      # inches between the heat map's cells (analyze uses 0.5": finer, slower)
PAN_STEP = 60


class TableView:
    """The board in a rectangle of the window: camera, cached layers, the game drawn."""

    def __init__(self, state: State, rect: pygame.Rect) -> None:
        self.state = state
        self.rect = pygame.Rect(rect)
        self.view = self.fit_view()
        self.version = 0                   # bumped whenever the game changes
        self.panning: tuple[int, int] | None = None
        self._static: tuple[tuple, pygame.Surface] | None = None
        self._units: tuple[tuple, pygame.Surface] | None = None
        self.labels: Placed | None = None           # where the labels of the table went
        self.depiction: Depiction | None = None     # what the units layer drew over the board
        self._report: tuple[int, dict] | None = None
        self.heat = False                  # the sight heat map of the layout over the board
        self._heat: tuple[tuple, np.ndarray] | None = None

    # --- camera -------------------------------------------------------------------------------
    def fit_view(self) -> ViewTransform:
        """The whole board in the rect, with room for the rulers left and below it."""
        s = self.state.scene
        scale = ViewTransform.fit(s.width, s.depth, tuple(self.rect.inflate(-40, -40))).scale
        left, top, right, bottom = margins(Style.for_scene(s, None, scale), s)
        r = self.rect
        inner = (r.x + left, r.y + top, r.width - left - right, r.height - top - bottom)
        return ViewTransform.fit(s.width, s.depth, inner)

    def resize(self, rect: pygame.Rect) -> None:
        """The window changed size: the whole board refitted to it while the view was fitted
        (nothing zoomed or panned since), else the table point at the centre kept there."""
        if self.view == self.fit_view():
            self.rect = pygame.Rect(rect)
            self.fit()
            return
        cx, cy = self.view.table(*self.rect.center)
        self.rect = pygame.Rect(rect)
        v = self.view
        px, py = self.rect.center
        self.view = ViewTransform(v.scale, px - cx * v.scale, py + cy * v.scale)

    def fit(self) -> None:
        self.view = self.fit_view()

    def zoom(self, factor: float, at: tuple[float, float]) -> None:
        v = self.view
        scale = min(max(v.scale * factor, 2.0), 200.0)
        k = scale / v.scale
        self.view = ViewTransform(scale, at[0] - (at[0] - v.ox) * k, at[1] - (at[1] - v.oy) * k)

    def pan(self, dx: float, dy: float) -> None:
        v = self.view
        self.view = ViewTransform(v.scale, v.ox + dx, v.oy + dy)

    def table_at(self, pos: tuple[float, float]) -> tuple[float, float]:
        return self.view.table(*pos)

    def changed(self) -> None:
        """The game changed (an action, undo, redo, load): drop the cached models layer."""
        self.version += 1

    def handle_event(self, e: pygame.event.Event) -> bool:
        """Camera events; True when used."""
        if e.type == pygame.MOUSEWHEEL:
            self.zoom(ZOOM_STEP ** e.y, pygame.mouse.get_pos())
            return True
        if e.type == pygame.MOUSEBUTTONDOWN and e.button == 3 and self.rect.collidepoint(e.pos):
            self.panning = e.pos
            return True
        if e.type == pygame.MOUSEMOTION and self.panning is not None:
            self.pan(e.pos[0] - self.panning[0], e.pos[1] - self.panning[1])
            self.panning = e.pos
            return True
        if e.type == pygame.MOUSEBUTTONUP and e.button == 3 and self.panning is not None:
            self.panning = None
            return True
        if e.type == pygame.KEYDOWN:
            moves = {pygame.K_LEFT: (PAN_STEP, 0), pygame.K_RIGHT: (-PAN_STEP, 0),
                     pygame.K_UP: (0, PAN_STEP), pygame.K_DOWN: (0, -PAN_STEP)}
            if e.key in moves:
                self.pan(*moves[e.key])
                return True
            if e.key == pygame.K_f:
                self.fit()
                return True
            if e.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_MINUS):
                self.zoom(ZOOM_STEP if e.key != pygame.K_MINUS else 1 / ZOOM_STEP,
                          self.rect.center)
                return True
        return False

    # --- layers -------------------------------------------------------------------------------
    @property
    def style(self) -> Style:
        return Style.for_scene(self.state.scene, None, self.view.scale)

    def report(self) -> dict:
        """`battlefield check` of the game as it stands (cached per game version)."""
        if self._report is None or self._report[0] != self.version:
            now = scene_now(self.state)
            self._report = (self.version, referee(self.state, scene=now).check_report())
        return self._report[1]

    def static_layer(self) -> pygame.Surface:
        """Paper, board with grid and rulers, terrain with its labels (cached per view)."""
        key = (self.view, self.rect.size, self.state.scene.terrain, self.heat)
        if self._static is None or self._static[0] != key:
            surf = pygame.Surface(self.rect.size)
            surf.fill(pal.PAPER)
            view = self.local_view()
            scene = self.state.scene
            style = Style.for_scene(scene, None, view.scale)
            draw_board(surf, view, scene, style)       # labelled with the models, below
            draw_terrain(surf, view, scene, style)
            if self.heat:
                self._draw_heat(surf, view)
            self._static = (key, surf)
        return self._static[1]

    def heat_values(self) -> np.ndarray:
        """(ny, nx) share of the board a model standing in each cell sees (`battlefield
        analyze`'s heat map, 1" cells), cached per layout."""
        scene = self.state.scene
        key = (scene.terrain, scene.width, scene.depth)
        if self._heat is None or self._heat[0] != key:
            cov = coverage(scene.layout, scene.width, scene.depth, HEAT_SPACING)
            self._heat = (key, cov.grid_values(cov.fraction))
        return self._heat[1]

    def _draw_heat(self, surf: pygame.Surface, view: ViewTransform) -> None:
        """The heat map, see-through over board and terrain, with the terrain outlined."""
        values = self.heat_values()
        scene = self.state.scene
        rect = pygame.Rect(view.board_rect(scene.width, scene.depth))
        draw_cells(surf, ramp(values), np.where(np.isfinite(values), 170, 0), rect)
        for piece in scene.terrain:
            pygame.draw.polygon(surf, pal.INK, view.points(piece.outline), 2)
        f = text_surface("sight heat map (V): share of the board seen from each point - the "
                         "brighter, the more it sees (yellow: all of it)", 14, pal.INK)
        box = pygame.Surface((f.get_width() + 12, f.get_height() + 6), pygame.SRCALPHA)
        box.fill((255, 255, 255, 220))
        box.blit(f, (6, 3))
        surf.blit(box, (rect.left + 6, rect.bottom - box.get_height() - 6))

    def local_view(self) -> ViewTransform:
        """The view in the coordinates of this scene's own surface (its rect's top-left 0,0)."""
        v = self.view
        return ViewTransform(v.scale, v.ox - self.rect.x, v.oy - self.rect.y)

    def units_layer(self, hidden: int | tuple[int, ...] | None = None, extra=None,
                    only: int | None = None) -> pygame.Surface:
        """The static layer plus objectives, combat, models and rulings; `hidden` leaves one
        unit out (the one in the hand) - or, with `only` (a table model index), only that model
        of it - or several (the computer's moves gliding); `extra(surface, view)` draws more
        before the models."""
        gone = (hidden,) if isinstance(hidden, int) else tuple(hidden or ())
        key = (self.view, self.rect.size, self.version, gone, only, self.heat)
        if self._units is None or self._units[0] != key:
            surf = self.static_layer().copy()
            view = self.local_view()
            scene = scene_now(self.state)
            report = self.report()
            style = Style.for_scene(self.state.scene, report, view.scale)
            units = list(scene.units)
            for u in gone:
                spec = units[u]
                kept, leader = [], 0
                if only is not None:       # scene_now keeps the unit's models in table order
                    alive = sorted(int(m) for m in self.state.models_of(u))
                    for k, (m, i) in enumerate(zip(spec.models, alive, strict=True)):
                        if i != only:
                            leader = len(kept) if k == spec.leader else leader
                            kept.append(m)
                units[u] = replace(spec, models=kept, leader=leader)
                report = _without(report, self.state.scene.units[u].id)
            if gone:
                scene = replace(scene, units=units)
            wounds = unit_wounds(self.state)
            for u in gone:
                wounds.pop(self.state.scene.units[u].id, None)
            left = {uid: f"{w[0]}/{w[1]}" for uid, each in wounds.items()
                    if (w := wounds_left(each))}
            # While a unit is in the hand the drag labels each objective with who would hold
            # it after the drop: its label as things stand is left out, not drawn twice.
            marks = [k for k in self.state.rules.window.marks(self.state) if k.unit not in gone]
            bounds = pygame.Rect(view.board_rect(scene.width, scene.depth)).clip(
                surf.get_rect().inflate(-8, -8))                  # zoomed: in the window
            dep, metrics = table_depiction(view, scene, style, report, None, marks,
                                           pieces_of_scene(scene), left,
                                           objective_labels=not gone, bounds=bounds)
            if extra is not None:
                extra(surf, view)
            draw_layers(surf, view, dep, metrics, ("objectives", "combat"))
            draw_losses(surf, view, self.losses(), style.side, style.line)
            draw_models(surf, view, scene, style, wounds)
            # a unit in the hand: the labels are drawn with the drag's (view.drag), moved
            # aside where the drop would cover them
            draw_layers(surf, view, dep, metrics, ("marks", "rulings", "measurement")
                        + (("labels",) if hidden is None else ()))
            self.depiction = dep
            self.labels = Placed(placed_rects(view, dep.placed), leaders(view, dep.placed))
            self.draw_pinned_rulers(surf, view)
            self._units = (key, surf)
        return self._units[1]

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(self.units_layer(), self.rect.topleft)

    def draw_pinned_rulers(self, surface: pygame.Surface, v: ViewTransform) -> None:
        """Zoomed in, the board's own rulers (left and below it) leave the window: the inch
        rulers are then drawn along the view's left and bottom edges, on a paper strip (on the
        units layer, `v` its own view)."""
        scene, r = self.state.scene, surface.get_rect()
        style = Style.for_scene(scene, None, v.scale)
        left, _, _, bottom = margins(style, scene)
        x0, y0 = v.px(0, 0)
        clip = surface.get_clip()
        if y0 > r.bottom - bottom + 2:          # the bottom ruler is below the window
            strip = pygame.Rect(r.left, r.bottom - bottom, r.width, bottom)
            _paper(surface, strip)
            surface.set_clip(strip)
            draw_rulers(surface, ViewTransform(v.scale, v.ox, strip.top - 2), scene, style)
        if x0 < r.left + left - 2:              # the left ruler is off the window's left
            strip = pygame.Rect(r.left, r.top, left, r.height)
            surface.set_clip(clip)
            _paper(surface, strip)
            surface.set_clip(strip)
            draw_rulers(surface, ViewTransform(v.scale, strip.right + 2, v.oy), scene, style)
        surface.set_clip(clip)

    def losses(self) -> list[Loss]:
        """The models taken off this phase, where they stood (outcome.losses)."""
        t, st = self.state.table, self.state
        off = st.scene.model_offsets()
        return [Loss(float(t.x[m]), float(t.y[m]), float(t.reach[m]),
                     st.scene.units[bisect_right(off, m) - 1].side) for m in losses(st)]


@dataclass
class Placed:
    """Where the table's labels went on its layer (pixels), and their leader lines."""

    placed: list[pygame.Rect]
    leaders: list[tuple[tuple[float, float], tuple[float, float]]]


def _paper(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """A see-through paper strip (what is under it still shows faintly)."""
    strip = pygame.Surface(rect.size, pygame.SRCALPHA)
    strip.fill((*pal.PAPER, 215))
    surface.blit(strip, rect.topleft)


def _without(report: dict, uid: str) -> dict:
    """A check report with one unit's rulings left out (it is being moved)."""
    units = {k: v for k, v in report.get("units", {}).items() if k != uid}
    pairs = [p for p in report.get("pairs", []) if uid not in (p["a"], p["b"])]
    return {**report, "units": units, "pairs": pairs}
