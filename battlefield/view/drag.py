"""The drag tool: pick up a unit (Shift: one model) with the left button, see the live rulings
every frame, drop to apply the action through the engine; an illegal drop snaps back and says
why. The rulings come from battlefield.view.live (the engine); this module only draws them."""

from __future__ import annotations

import math
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pygame
import shapely

from battlefield import palette as pal
from battlefield.geometry.bases import RECT, outline_points
from battlefield.rules.actions import Action, IllegalAction
from battlefield.rules.state import State
from battlefield.view import live
from battlefield.view.drawing import boxed_text, circle_points, draw_cells, text_surface
from battlefield.view.labels import Labels
from battlefield.view.overlays import draw_marks
from battlefield.view.table_view import TableView

RULER_OK = pal.GREEN
RULER_NEAR = pal.ORANGE
RULER_OVER = pal.VERMILLION
FAULT = pal.COHERENCY
SETTLE_S = 0.15          # the costly rulings (and a slow engine check) when the cursor rests
FAST_CHECK_S = 0.010     # an engine check quicker than this is asked every frame
SNAP_BUDGET_S = 0.4      # the longest the search for a charge's nearest legal place may take


def ruler_colour(fraction: float) -> pal.RGB:
    """Green up to 80% of the allowance, amber up to all of it, red beyond."""
    if fraction <= 0.8:
        return RULER_OK
    return RULER_NEAR if fraction <= 1.0 + 1e-9 else RULER_OVER


def base_points(view, t, m: int, x: float, y: float, facing: float | None = None
                ) -> list[tuple[float, float]]:
    """Model m's base outline (round, oval or rectangle, as it faces - or turned to `facing`)
    with its centre at x, y."""
    f = t.facing[m] if facing is None else facing
    return view.points(outline_points(int(t.shape[m]), t.a[m], t.b[m], x, y, f, 32))


@dataclass
class Shown:
    """What the drag overlay tells in words and colour for one ruling."""

    caption: list[str]
    ruler: pal.RGB
    in_combat: list[str]


TURN_STEP = 15.0          # degrees a wheel notch or Q / E turns the unit in the hand


class DragTool:
    """Left-button drags on the table: the live-check overlay and the drop."""

    def __init__(self, table: TableView, on_applied: Callable[[list, str], None],
                 say: Callable[[str], None]) -> None:
        self.table = table
        self.on_applied = on_applied
        self.say = say
        # Joined to a server (view/joined.py): a legal drop is sent there, not applied here.
        self.submit: Callable[[Action], None] | None = None
        self.wanted: str | None = None          # ability chosen with the phase bar
        self.pickup: live.Pickup | None = None
        self.grab = np.zeros(2)                 # cursor - reference model, in inches
        self.to: tuple[float, float] | None = None
        self.target: int | None = None
        self.facing: float | None = None        # turned in the hand (wheel, Q / E)
        self.ruling: live.Ruling | None = None
        self.moved_at = 0.0
        self.check_cost = 0.0                   # seconds the last engine check took
        self.snaps: dict[tuple, tuple[float, float] | None] = {}   # this pick-up's snaps
        self._layer_key = None

    @property
    def state(self) -> State:
        return self.table.state

    # --- events -------------------------------------------------------------------------------
    def handle_event(self, e: pygame.event.Event) -> bool:
        if e.type == pygame.MOUSEBUTTONDOWN and e.button == 1:
            return self.press(e.pos, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
                              or bool(getattr(e, "shift", False)))
        if e.type == pygame.MOUSEMOTION and self.pickup is not None:
            self.move(e.pos)
            return True
        if e.type == pygame.MOUSEBUTTONUP and e.button == 1 and self.pickup is not None:
            self.drop(e.pos)
            return True
        if e.type == pygame.KEYDOWN and e.key == pygame.K_ESCAPE and self.pickup is not None:
            self.cancel("put back")
            return True
        if self.pickup is not None and (e.type == pygame.MOUSEWHEEL or (
                e.type == pygame.KEYDOWN and e.key in (pygame.K_q, pygame.K_e))):
            steps = e.y if e.type == pygame.MOUSEWHEEL else (1 if e.key == pygame.K_q else -1)
            self.turn(steps * TURN_STEP)
            return True
        return False

    def turn(self, degrees: float) -> None:
        """Turn the unit in the hand (counter-clockwise positive): the drop will face so."""
        t = self.state.table
        now = float(t.facing[self.pickup.ref]) if self.facing is None else self.facing
        self.facing = (now + degrees) % 360.0
        self.moved_at = time.perf_counter()
        self.update_ruling(engine=True)

    def press(self, pos: tuple[int, int], one_model: bool = False) -> bool:
        if not self.table.rect.collidepoint(pos):
            return False
        x, y = self.table.table_at(pos)
        hit = live.unit_at(self.state, x, y)
        if hit is None and not one_model:       # between a unit's bases: the whole unit
            hit = live.unit_between(self.state, x, y)
        if hit is None:
            return False
        u, m = hit
        p = live.pick_up(self.state, u, m if one_model else None, self.wanted)
        if p is None:
            uid = self.state.scene.units[u].id
            self.say(f"{uid} cannot be moved now ({self.state.acting_side} is acting in the "
                     f"{self.state.phase or 'turn'} phase)")
            return True
        t = self.state.table
        self.pickup = p
        self.snaps = {}
        self.grab = np.array([x - t.x[p.ref], y - t.y[p.ref]])
        self.to = (float(t.x[p.ref]), float(t.y[p.ref]))
        self.target = None
        self.facing = None
        self.ruling = None
        self.moved_at = time.perf_counter()
        self.update_ruling(engine=True)
        self.check_cost = 0.0        # the first check warms caches: judge by the next ones
        return True

    def move(self, pos: tuple[int, int]) -> None:
        """The cursor moved with a unit in the hand: the rulings at the new place."""
        x, y = self.table.table_at(pos)
        self.to = (x - float(self.grab[0]), y - float(self.grab[1]))
        hit = live.unit_at(self.state, x, y, slack=0.3)
        mine = self.state.side_of(self.pickup.unit)
        self.target = hit[0] if hit is not None and self.state.side_of(hit[0]) != mine else None
        if self.target is None and live.targeted(self.state, self.pickup.ability):
            # A charge or pile-in is dropped next to its target, not on it.
            self.target = live.nearest_enemy(self.state, self.pickup, self.to)
        self.moved_at = time.perf_counter()
        self.update_ruling(engine=self.check_cost < FAST_CHECK_S, detail=False)

    def update(self, dt: float) -> None:
        """A resting cursor gets the costly rulings, and the engine's check if the frames
        skipped it."""
        r = self.ruling
        if (self.pickup is not None and r is not None and not (r.checked and r.detailed)
                and time.perf_counter() - self.moved_at >= SETTLE_S):
            self.update_ruling(engine=True, detail=True)

    def update_ruling(self, engine: bool, detail: bool | None = None) -> None:
        start = time.perf_counter()
        self.ruling = live.rule(self.state, self.pickup, self.to, self.target, engine=engine,
                                detail=detail, facing=self.facing)
        if engine and detail is False:
            # what a frame's ruling costs with the engine's check: asked every frame if cheap
            self.check_cost = time.perf_counter() - start
        if engine and detail is not False:
            self.snap()

    def snap(self) -> None:
        """An illegal targeted drop (a charge a hair onto its target's base, or just short of
        contact) is shown - and dropped - at the nearest legal place within an inch, and says
        so; the ruling is the snapped place's, so what is shown is what the drop does."""
        r = self.ruling
        if r is None or r.legal is not False or self.target is None:
            return
        key = (self.to, self.target, self.facing)
        if key not in self.snaps:       # the drop finds what the resting cursor found
            self.snaps[key] = live.snap(self.state, self.pickup, self.to, self.target,
                                        self.facing, budget=SNAP_BUDGET_S)
        to = self.snaps[key]
        if to is None:
            return
        moved = math.dist(to, self.to)
        self.ruling = live.rule(self.state, self.pickup, to, self.target, engine=True,
                                detail=True, facing=self.facing)
        why = "; ".join(live.reasons(r.violations))
        self.ruling.notes.lines.insert(0, f'snapped {moved:.2f}" to the nearest legal place '
                                          f'(where dropped: {why})')

    def drop(self, pos: tuple[int, int]) -> None:
        self.move(pos)
        if not self.ruling.checked:
            self.update_ruling(engine=True, detail=False)
        if self.ruling.legal is False:
            self.snap()                 # the nearest legal place, as the resting cursor shows
        p, action = self.pickup, self.ruling.action
        if abs(self.ruling.used) < 1e-9 and self.facing is None:
            # A click, nothing moved: what the ruleset makes of it (aos4: fight where it
            # stands), or why the unit is put back.
            clicked = self.state.rules.window.drop_in_place(self.state, p.unit, p.ability,
                                                            self.target)
            if isinstance(clicked, str):
                self.cancel(clicked)
                return
            action = clicked
        if self.submit is not None:
            bad = self.state.check(action)
            if bad:
                self.cancel("snapped back: " + "; ".join(live.reasons(bad)))
                return
            self.pickup = None
            self.ruling = None
            self.submit(action)
            return
        before = len(self.state.dice.log)
        try:
            events = self.state.apply(action)
        except IllegalAction as exc:
            self.cancel("snapped back: " + "; ".join(live.reasons(exc.violations)))
            return
        uid = self.state.scene.units[p.unit].id
        self.pickup = None
        self.ruling = None
        self.on_applied(self.state.dice.log[before:],
                        f"{action.type} {uid}: {live.outcome(events)}")

    def cancel(self, why: str) -> None:
        self.pickup = None
        self.ruling = None
        if why:
            self.say(why)

    # --- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        """The table with the unit in the hand left out, then the live overlay."""
        p, r = self.pickup, self.ruling
        if p is None or r is None:
            self.table.draw(surface)
            return
        tv = self.table
        layer = tv.units_layer(hidden=p.unit, extra=self._static_marks,
                               only=p.ref if p.single else None)
        surface.blit(layer, tv.rect.topleft)
        clip = surface.get_clip()
        surface.set_clip(tv.rect)
        try:
            self._overlay(surface)
        finally:
            surface.set_clip(clip)

    def _static_marks(self, surf: pygame.Surface, view) -> None:
        """What stays put during a drag: the enemy's combat ranges, where the unit stood, how
        far the ability could take it at most."""
        st, p = self.state, self.pickup
        t = st.table
        rng = st.scene.ruleset.combat_range
        mine = st.side_of(p.unit)
        foes = [int(m) for m in np.nonzero(t.on_table)[0] if st.side_of(int(t.unit[m])) != mine]
        if foes and rng > 0:
            zone = shapely.union_all([t.footprint(m, 24).buffer(rng, 4) for m in foes])
            for g in getattr(zone, "geoms", [zone]):
                pts = view.points(np.asarray(g.exterior.coords))
                if len(pts) > 2:
                    pygame.draw.polygon(surf, pal.lighter(pal.COMBAT, 0.55), pts, 2)
        for x, y, m in zip(p.start[:, 0], p.start[:, 1], p.models, strict=True):
            pygame.draw.polygon(surf, pal.INK_SOFT, base_points(view, t, int(m), x, y), 1)
        if p.reach is not None:
            self._reach(surf, view, p.reach, p.allowed)
        elif p.allowed:
            c = view.px(t.x[p.ref], t.y[p.ref])
            pts = circle_points(c, view.length(p.allowed + t.reach[p.ref]), 96)
            pygame.draw.lines(surf, pal.darker(RULER_OK, 0.2), True, pts, 1)

    @staticmethod
    def _reach(surf: pygame.Surface, view, field, allowed: float) -> None:
        """Shade the cells the reference model can reach: one pixel a cell, scaled up."""
        mask = field.within(allowed)
        ny, nx = mask.shape
        w = max(1, round(nx * view.length(field.step)))
        h = max(1, round(ny * view.length(field.step)))
        half = field.step / 2
        left, top = view.px(field.x0 - half, field.y0 + (ny - 1) * field.step + half)
        draw_cells(surf, np.array(RULER_OK, dtype=np.uint8), np.where(mask, 60, 0),
                   pygame.Rect(round(left), round(top), w, h))

    def shown(self) -> Shown:
        """What the overlay tells of the ruling in hand, as values (the tests compare them with
        State.check and apply): the caption, the ruler's colour, who it would be in combat with.
        The ruler is red whenever the drop is illegal (whichever model or rule is at fault),
        else green or amber by how much of the allowance the path uses."""
        st, r = self.state, self.ruling
        near = [st.scene.units[v].id for v in r.check.in_combat_range]
        rules = st.scene.ruleset
        # how Referee.in_combat measures: closest points of the bases, in 3-D for warband
        short = " in 3-D" if rules.distance == "3d" else ""
        lines = live.describe(r)
        if near:
            # where the drop leaves the unit, not a fault (a fault is on the illegal: line):
            # a charge's target among them is what the charge is for
            aim = st.scene.units[r.target].id if r.target is not None and live.targeted(
                st, r.action.type) else None
            lines.append(f'after the drop, in combat (within {rules.combat_range:g}"{short}) '
                         f'with: ' + ", ".join(f"{u} (its target)" if u == aim else u
                                               for u in near))
        if r.legal is False:
            ruler = RULER_OVER
        else:
            ruler = ruler_colour(r.fraction) if r.allowed else pal.MEASURE
        return Shown(lines, ruler, near)

    def _overlay(self, surface: pygame.Surface) -> None:
        st, p, r = self.state, self.pickup, self.ruling
        shown = self.shown()
        tv = self.table
        view = tv.view
        t = st.table
        style = tv.style
        colour = style.side(st.side_of(p.unit))
        edge = pal.darker(colour, 0.6)
        # Every tag below is placed in one pass, clear of the bases and of each other.
        labels = Labels(bounds=tv.rect.inflate(-4, -4))
        on = np.nonzero(t.on_table)[0]
        labels.obstacles += _discs(view, t.x[on], t.y[on], t.reach[on])
        labels.obstacles += _discs(view, r.ends[:, 0], r.ends[:, 1], t.reach[p.models])
        for placed in (tv.labels.placed if tv.labels is not None else ()):
            labels.avoid(placed.move(tv.rect.topleft))      # the table's own labels
        # Objective control after the drop.
        for o in st.scene.objectives:
            after = r.objectives.get(o.id)
            c = view.px(o.x, o.y)
            tag = f"{o.id}: {after or 'nobody'}"
            fill = style.side(after) if after else (235, 235, 230)
            s = boxed_text(tag, style.small_size, pal.text_on(fill), fill, pal.INK, 2)
            h = s.get_height()
            labels.add(s, [(c[0], c[1] + 10 + h / 2), (c[0], c[1] - 10 - h / 2)], priority=2,
                       anchor=(c[0] - 6, c[1] - 6, 12, 12))
        # The target: sight line, blockers, skirmish retreat ghost and pot-shot triggers.
        if r.sight is not None:
            a, b = r.sight.closest.a, r.sight.closest.b
            vis = {"full": RULER_OK, "partial": RULER_NEAR, "none": RULER_OVER}[r.sight.visible]
            pygame.draw.line(surface, (0, 0, 0), view.px(a[0], a[1]), view.px(b[0], b[1]), 5)
            pygame.draw.line(surface, vis, view.px(a[0], a[1]), view.px(b[0], b[1]), 3)
            labels.avoid_line(view.px(a[0], a[1]), view.px(b[0], b[1]), 8)
            self._blockers(surface, r.sight.blocked_by)
        for ghost in r.notes.ghosts:
            for m, (x, y) in zip(t.unit_models[ghost.unit], ghost.at, strict=False):
                pygame.draw.polygon(surface, pal.INK_SOFT, base_points(view, t, int(m), x, y), 2)
        for ring in r.notes.rings:
            for m in t.unit_models[ring.unit]:
                pygame.draw.circle(surface, pal.HIGHLIGHT, view.px(t.x[m], t.y[m]),
                                   view.length(t.reach[m]) + 4, 3)
            lead = t.unit_models[ring.unit][0]
            s = boxed_text(ring.reason, style.small_size, pal.INK,
                           pal.HIGHLIGHT, pal.INK, 2)
            above = view.px(t.x[lead], t.y[lead] + t.reach[lead] + 0.3)
            labels.add(s, [(above[0], above[1] - s.get_height() / 2)], priority=3,
                       anchor=_disc(view, t.x[lead], t.y[lead], t.reach[lead]))
        draw_marks(surface, view, style, r.notes.marks)
        # The ghost: the unit where it would stand (turned, when it was turned in the hand).
        turned = self.facing if len(p.models) == 1 else None
        for k, m in enumerate(p.models):
            pts = base_points(view, t, int(m), *r.ends[k], turned)
            pygame.draw.polygon(surface, colour, pts)
            pygame.draw.polygon(surface, edge, pts, 2)
            if int(t.shape[m]) == RECT:        # a block's front edge, heavier
                pygame.draw.line(surface, edge, pts[0], pts[1], 5)
        for m in r.faults:
            k = np.nonzero(p.models == m)[0]
            x, y = (r.ends[k[0]] if len(k) else (t.x[m], t.y[m]))
            c = view.px(x, y)
            pygame.draw.circle(surface, (255, 255, 255), c, view.length(t.reach[m]) + 5, 5)
            pygame.draw.circle(surface, FAULT, c, view.length(t.reach[m]) + 5, 3)
        seen: set[str] = set()
        for m, why in r.faults.items():
            if len(seen) >= 3 or why[0] in seen:
                continue
            k = np.nonzero(p.models == m)[0]
            x, y = (r.ends[k[0]] if len(k) else (t.x[m], t.y[m]))
            # every reason this model is at fault (a charge through an outcrop: moves
            # through it and ends in it), not only the first
            tag = "; ".join(dict.fromkeys(why))
            s = boxed_text(tag if len(tag) <= 90 else tag[:88] + "...", style.small_size,
                           (255, 255, 255), FAULT, pal.INK, 2)
            c = view.px(x, y)
            rr = view.length(t.reach[m])
            labels.add(s, [(c[0] + rr + 8 + s.get_width() / 2, c[1] - rr - 12)], priority=4,
                       anchor=_disc(view, x, y, t.reach[m]))
            seen.add(why[0])
        # The ruler along the path of the reference model.
        path = r.action.paths[0][1] if p.single else r.action.path
        pts = view.points(path)
        a, b = pts[-2], pts[-1]
        rc = shown.ruler
        pygame.draw.lines(surface, (255, 255, 255), False, pts, 7)
        pygame.draw.lines(surface, rc, False, pts, 4)
        for q0, q1 in zip(pts, pts[1:], strict=False):
            labels.avoid_line(q0, q1, 10)
        label = f'{r.used:.2f}"' + (f' / {r.allowed:g}"' if r.allowed else "")
        if r.climbed > 1e-6:
            label += f' (climb {r.climbed:.2f}")'
        s = boxed_text(label, style.label_size, pal.INK, (255, 255, 255), rc, 3)
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        labels.add(s, [(mid[0], mid[1] - 8 - s.get_height() / 2),
                       (mid[0], mid[1] + 8 + s.get_height() / 2)], priority=5,
                   anchor=(mid[0] - 2, mid[1] - 2, 4, 4))
        # The caption: every ruling in words, beside the cursor clear of the bases.
        lines = shown.caption
        # long lines (every reason of an illegal drop) wrap instead of being cut short
        rows = [text_surface(part, style.small_size,
                             RULER_OVER if text.startswith("illegal") else
                             pal.INK_SOFT if text.startswith("after the drop") else pal.INK)
                for text in lines for part in textwrap.wrap(text, 90)][:14]
        if rows:
            box = pygame.Surface((max(s.get_width() for s in rows) + 20,
                                  sum(s.get_height() for s in rows) + 12), pygame.SRCALPHA)
            box.fill((255, 255, 255, 215))
            y = 6
            for s in rows:
                box.blit(s, (10, y))
                y += s.get_height()
            w, h = box.get_size()
            cx, cy = view.px(*r.ends[list(p.models).index(p.ref)]) if p.ref in p.models \
                else b
            off = view.length(t.reach[p.ref]) + 24
            labels.add(box, [(cx + off + w / 2, cy + off + h / 2),
                             (cx - off - w / 2, cy + off + h / 2),
                             (cx + off + w / 2, cy - off - h / 2),
                             (cx - off - w / 2, cy - off - h / 2)], priority=6,
                       anchor=(cx - off, cy - off, 2 * off, 2 * off))
        labels.draw(surface)

    def _blockers(self, surface: pygame.Surface, names: list[str]) -> None:
        st = self.state
        view = self.table.view
        pieces = {pc.id: pc for pc in st.scene.terrain}
        index = {n: i for i, n in enumerate(st.scene.model_names)}
        t = st.table
        for name in names:
            if name in pieces:
                pts = view.points(pieces[name].outline)
                pygame.draw.polygon(surface, (0, 0, 0), pts, 6)
                pygame.draw.polygon(surface, pal.HIGHLIGHT, pts, 3)
            elif name in index:
                m = index[name]
                c = view.px(t.x[m], t.y[m])
                pygame.draw.circle(surface, pal.HIGHLIGHT, c, view.length(t.reach[m]) + 4, 3)


def _disc(view, x: float, y: float, reach: float) -> pygame.Rect:
    """The square round a base of that reach on the screen (what tags keep off)."""
    c, r = view.px(float(x), float(y)), view.length(float(reach))
    return pygame.Rect(round(c[0] - r), round(c[1] - r), round(2 * r), round(2 * r))


def _discs(view, x: np.ndarray, y: np.ndarray, reach: np.ndarray) -> list[pygame.Rect]:
    """_disc for many bases at once."""
    r = np.asarray(reach, dtype=np.float64) * view.scale
    cx = view.ox + np.asarray(x, dtype=np.float64) * view.scale
    cy = view.oy - np.asarray(y, dtype=np.float64) * view.scale
    box = np.rint(np.column_stack([cx - r, cy - r, 2 * r, 2 * r])).astype(np.int64).tolist()
    return [pygame.Rect(b) for b in box]
