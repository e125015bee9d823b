"""The deployment phase at the table: while the acting side may `deploy` (a ruleset whose
vocabulary has that action, aos4), a list of its units in reserve stands at the left of the half
of the table away from that side's territory (in columns when it is long). Press one and drag it
onto the table: its models follow the pointer as a block (the layout army import and the
computer player use: rules/deploy.block), the side's territory is shaded and the lines the
ruleset keeps units behind are drawn (Window.set_up_area: aos4's 9" round enemy territory), and
the drop is checked live by the engine - the bases green when the unit may be set up there, red
with the refusal in words when not. Releasing over the table sets the unit up (the action
`deploy` with one place per model); releasing over the list, or Escape, puts it back. The wheel
or Q / E turn the block. `regiment`: R with a unit in the hand deploys its whole regiment one
unit after another (Deploy Regiment). The list is offered only to a player who plays the
deploying side (`mine`): not while the computer deploys, nor in the other seat's turn of a
server's game (`play --join`), where the server would refuse the drop."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pygame
import shapely
import shapely.affinity

from battlefield import palette as pal
from battlefield.geometry.bases import outline_points
from battlefield.rules.actions import Action, Violation
from battlefield.rules.deploy import DEPLOY, TERRAIN, block, deployable, waiting_terrain
from battlefield.rules.state import State
from battlefield.view.drawing import blit_text, dashed, fill_polygon, font
from battlefield.view.table_view import TableView

ROW_H = 26
LIST_W = 210
OK: pal.RGB = (0x00, 0x9E, 0x73)
BAD: pal.RGB = (0xD5, 0x5E, 0x00)
TURN = 15.0


@dataclass
class Held:
    """The unit in the hand: where the pointer is (table inches), its facing, the places its
    models would take, and what the engine says of them (empty: legal)."""

    unit: int
    at: tuple[float, float] | None = None
    facing: float = 90.0
    places: list[tuple[float, float]] | None = None
    problems: list[Violation] | None = None
    regiment: bool = False
    terrain: str | None = None      # a faction terrain piece in the hand, not a unit


class SetUpTool:
    """The reserve list and the drag of a unit in reserve onto the table."""

    def __init__(self, table: TableView, apply: Callable[[Action], bool],
                 say: Callable[[str], None],
                 mine: Callable[[str], bool] = lambda side: True) -> None:
        self.table = table
        self.apply = apply
        self.say = say
        self.mine = mine            # whether this window's player plays the side
        self.held: Held | None = None

    @property
    def state(self) -> State:
        return self.table.state

    # --- what is offered ------------------------------------------------------------------------
    def active(self) -> bool:
        st = self.state
        return (not st.over and not st.pending and bool({DEPLOY, TERRAIN} & set(st.available()))
                and self.mine(st.acting_side))

    def pieces(self) -> list[Any]:
        """The acting side's faction terrain waiting to be set up, while that comes first."""
        return waiting_terrain(self.state, self.state.acting_side)

    def reserve(self) -> list[int]:
        """The acting side's units in reserve a deploy may set up (rules.deploy.deployable)."""
        return deployable(self.state, self.state.acting_side)

    def rows(self) -> list[tuple[int, pygame.Rect]]:
        """The list's rows: the faction terrain waiting (numbered -1, -2 ...: piece k is -k-1)
        while that comes first, else the units in reserve. The list stands at the left of the
        half of the table away from the acting side's territory (where its units go), in as
        many columns as that half needs."""
        r = self.table.rect
        items = [-k - 1 for k in range(len(self.pieces()))] or self.reserve()
        if not items:
            return []
        per = max(1, (r.height // 2 - 44) // ROW_H)
        used = min(len(items), per)
        top = r.y + 36
        if self._territory_above():
            top = r.bottom - 8 - used * ROW_H
        return [(u, pygame.Rect(r.x + 8 + (k // per) * (LIST_W + 12),
                                top + (k % per) * ROW_H, LIST_W, ROW_H - 4))
                for k, u in enumerate(items)]

    def _territory_above(self) -> bool:
        """Whether the acting side's territory lies in the upper half of the table as shown."""
        zone = self.state.scene.deployment.get(self.state.acting_side)
        if not zone:
            return False
        c = shapely.Polygon(zone).centroid
        return bool(self.table.view.px(c.x, c.y)[1] < self.table.rect.centery)

    def over_list(self, pos: tuple[int, int]) -> bool:
        box = self._box()
        return box is not None and box.collidepoint(pos)

    def _box(self) -> pygame.Rect | None:
        """The list's frame: its title above the first row, round every column."""
        rows = self.rows()
        if not rows:
            return None
        top = rows[0][1].top - 30
        right = max(rect.right for _, rect in rows)
        bottom = max(rect.bottom for _, rect in rows)
        return pygame.Rect(rows[0][1].x - 4, top, right - rows[0][1].x + 8, bottom - top + 4)

    # --- the drag ---------------------------------------------------------------------------------
    def action(self, h: Held) -> Action | None:
        if h.places is None:
            return None
        if h.terrain is not None:
            return Action(TERRAIN, facing=h.facing, options=(("at", tuple(h.places)),
                                                              ("terrain", h.terrain)))
        opts: tuple = (("at", tuple(h.places)),)
        if h.regiment:
            opts = (*opts, ("regiment", True))
        return Action(DEPLOY, unit=self.state.scene.units[h.unit].id, facing=h.facing,
                      options=tuple(sorted(opts)))

    def move_to(self, pos: tuple[float, float]) -> None:
        """The block under the pointer, checked by the engine."""
        h = self.held
        if h is None:
            return
        x, y = self.table.table_at(pos)
        h.at = (x, y)
        if h.terrain is not None:
            h.places = [(round(x, 4), round(y, 4))]
        else:
            bases = [m.base for m in self.state.scene.units[h.unit].models]
            h.places = [(round(px, 4), round(py, 4))
                        for px, py in block(bases, x, y, h.facing)]
        action = self.action(h)
        h.problems = self.state.check(action) if action is not None else None

    def facing_of(self, u: int) -> float:
        """Facing the middle of the board from the side's territory."""
        st = self.state
        pts = st.scene.deployment.get(st.scene.units[u].side)
        if not pts:
            return 90.0
        cx, cy = np.asarray(pts, dtype=float).mean(axis=0)
        return math.degrees(math.atan2(st.scene.depth / 2 - cy, st.scene.width / 2 - cx)) % 360

    def handle_event(self, e: pygame.event.Event) -> bool:
        if not self.active():
            self.held = None
            return False
        h = self.held
        if e.type == pygame.MOUSEBUTTONDOWN and e.button == 1 and h is None:
            for u, rect in self.rows():
                if rect.collidepoint(e.pos) and u < 0:
                    piece = self.pieces()[-u - 1]
                    self.held = Held(u, facing=0.0, terrain=piece.id)
                    self.say(f"{piece.id}: drop it in your territory, more than 3\" from "
                             "objectives and other terrain (wheel or Q / E turns it, Esc: back)")
                    return True
                if rect.collidepoint(e.pos):
                    self.held = Held(u, facing=self.facing_of(u))
                    self.say(f"{self.state.scene.units[u].id}: drop it in your territory "
                             "(wheel or Q / E turns it, R: its whole regiment, Esc: back)")
                    return True
            return False
        if h is None:
            return False
        if e.type == pygame.MOUSEMOTION:
            self.move_to(e.pos)
            return True
        if e.type == pygame.MOUSEWHEEL or (e.type == pygame.KEYDOWN and e.key in (
                pygame.K_q, pygame.K_e)):
            turn = (e.y if e.type == pygame.MOUSEWHEEL else (1 if e.key == pygame.K_q else -1))
            h.facing = (h.facing + TURN * turn) % 360
            if h.at is not None:
                self.move_to(self.table.view.px(*h.at))
            return True
        if e.type == pygame.KEYDOWN and e.key == pygame.K_r:
            h.regiment = not h.regiment
            self.say("Deploy Regiment: its other units follow, without alternating"
                     if h.regiment else "Deploy Unit: this unit alone")
            return True
        if e.type == pygame.KEYDOWN and e.key == pygame.K_ESCAPE:
            self.held = None
            self.say("put back in reserve")
            return True
        if e.type == pygame.MOUSEBUTTONUP and e.button == 1:
            self.held = None
            if self.over_list(e.pos) or not self.table.rect.collidepoint(e.pos):
                self.say("put back in reserve")
                return True
            self.move_to(e.pos)
            action = self.action(h)
            if action is not None:
                self.apply(action)
            return True
        return False

    # --- drawing --------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        if not self.active():
            return
        clip = surface.get_clip()
        surface.set_clip(self.table.rect)
        try:
            if self.held is not None:
                self._area(surface)
                self._held(surface)
            self._list(surface)
        finally:
            surface.set_clip(clip)

    def _list(self, surface: pygame.Surface) -> None:
        st = self.state
        rows = self.rows()
        side = st.acting_side
        colour = pal.side_colours(st.scene.sides).get(side, pal.INK)
        box = self._box()
        if box is None:
            return
        top = box.top
        panel = pygame.Surface(box.size, pygame.SRCALPHA)
        panel.fill((255, 255, 255, 225))
        surface.blit(panel, box.topleft)
        pygame.draw.rect(surface, colour, box, 2)
        pieces = self.pieces()
        title = (f"{side}'s faction terrain: drag it first" if pieces else
                 f"{side} in reserve: drag onto the table")
        blit_text(surface, title, 15, (box.x + 6, top + 13), colour, anchor="midleft")
        small = font(15)
        for u, rect in rows:
            held = self.held is not None and self.held.unit == u
            pygame.draw.rect(surface, pal.lighter(colour, 0.75 if held else 0.88), rect)
            pygame.draw.rect(surface, colour, rect, 1)
            if u < 0:
                name, tail = pieces[-u - 1].id, " (terrain)"
            else:
                spec = st.scene.units[u]
                name, tail = spec.id, f" ({len(spec.models)})"
                reg = spec.extra.get("regiment")
                if reg:
                    tail += f"  [{reg}]"
            text = _fitted(small, name, tail, rect.width - 10)
            surface.blit(small.render(text, True, pal.INK), (rect.x + 6, rect.y + 4))

    def _area(self, surface: pygame.Surface) -> None:
        st = self.state
        h = self.held
        assert h is not None
        side = st.acting_side if h.terrain is not None else st.scene.units[h.unit].side
        area = st.rules.window.set_up_area(st, side)
        v = self.table.view
        colour = pal.side_colours(st.scene.sides).get(side, pal.INK)
        if area.territory is not None and len(area.territory) > 2:
            pts = v.points(area.territory)
            shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            fill_polygon(shade, (*colour, 40), pts)
            surface.blit(shade, (0, 0))
            pygame.draw.polygon(surface, colour, pts, 2)
        for line in area.keep_out if h.terrain is None else ():   # the 9" line: units'
            pts = v.points(line)
            dashed(surface, BAD, pts, True, 10, 6, 2)
            if area.label and pts:          # on the line, nearest the middle of the board
                ring = shapely.LinearRing(line)
                mid = shapely.Point(st.scene.width / 2, st.scene.depth / 2)
                near = ring.interpolate(ring.project(mid))
                blit_text(surface, area.label, 14, v.px(near.x, near.y), BAD,
                          anchor="midbottom")

    def _held(self, surface: pygame.Surface) -> None:
        st = self.state
        h = self.held
        if h is None or h.places is None:
            return
        t = st.table
        v = self.table.view
        ok = not h.problems
        colour = OK if ok else BAD
        if h.terrain is not None:
            piece = next(p for p in st.scene.reserve_terrain if p.id == h.terrain)
            pts = v.points(list(_shaped(piece.outline, h.places[0], h.facing).exterior.coords))
            fill_polygon(surface, pal.lighter(colour, 0.5), pts)
            pygame.draw.polygon(surface, colour, pts, 2)
        first = st.scene.model_offsets()[h.unit] if h.terrain is None else 0
        for k, (x, y) in enumerate(h.places if h.terrain is None else ()):
            m = first + k
            pts = v.points(outline_points(int(t.shape[m]), t.a[m], t.b[m], x, y, h.facing, 32))
            fill_polygon(surface, pal.lighter(colour, 0.5), pts)
            pygame.draw.polygon(surface, colour, pts, 2)
        words = ("set up here" + (" (and its regiment after)" if h.regiment and
                                  h.terrain is None else "")
                 if ok else (h.problems[0].message if h.problems else ""))
        at = v.px(*h.at) if h.at is not None else (0, 0)
        blit_text(surface, words, 16, (at[0], at[1] - 28), colour, anchor="midbottom")


def _shaped(outline: Any, at: tuple[float, float], facing: float) -> shapely.Polygon:
    """A faction terrain piece's outline (its shape) with its centre at `at`, turned by
    `facing` degrees: where the engine would set it up (the action's `at` is its centre)."""
    poly = shapely.Polygon(outline)
    c = poly.centroid
    poly = shapely.affinity.rotate(poly, facing, origin=c) if facing else poly
    return shapely.affinity.translate(poly, at[0] - c.x, at[1] - c.y)


def _fitted(face: pygame.font.Font, name: str, tail: str, width: int) -> str:
    """`name` + `tail` in `width` pixels: the name shortened with an ellipsis when it must be,
    the tail (the model count, the regiment) always whole."""
    if face.size(name + tail)[0] <= width:
        return name + tail
    while len(name) > 4 and face.size(name + "\u2026" + tail)[0] > width:
        name = name[:-1]
    return name + "\u2026" + tail
