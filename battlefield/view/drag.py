"""The drag tool: pick up a unit (Shift: one model) with the left button, see the live rulings
every frame, drop to apply the action through the engine; an illegal drop snaps back and says
why. The rulings come from battlefield.depiction.live (the engine) and what they look like from
battlefield.depiction.drag (the same depiction the browser's play page draws); this module only
draws it."""

from __future__ import annotations

import math
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pygame

from battlefield import palette as pal
from battlefield.depiction import drag as depicted
from battlefield.depiction import live
from battlefield.depiction.table import Depiction
from battlefield.geometry.bases import outline_points
from battlefield.rules.actions import Action, IllegalAction
from battlefield.rules.state import State
from battlefield.view.checker import HANG_S, Answer, Checker, Key, Request, snapped_ruling
from battlefield.view.depict import WindowMetrics, draw
from battlefield.view.table_view import TableView

RULER_OK = pal.GREEN
RULER_NEAR = pal.ORANGE
RULER_OVER = pal.VERMILLION
FAULT = pal.COHERENCY
SETTLE_S = 0.15          # the costly rulings (and a slow engine check) when the cursor rests
FAST_CHECK_S = 0.010     # an engine check quicker than this is asked every frame
STALE_IN = 0.5           # inches the pointer may be ahead of the ruling shown as current


def ruler_colour(fraction: float) -> pal.RGB:
    """Green up to 80% of the allowance, amber up to all of it, red beyond."""
    return pal.paint(depicted.ruler_key(fraction), {})


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


CAPTION_WIDTH = 64       # characters a caption row holds
REASONS_SHOWN = 3        # rows of an illegal drop's reasons (each model's are on its tag)


def caption_rows(lines: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The caption's lines wrapped on words into a box small enough to find a free place by
    the unit: an illegal drop's reasons on at most REASONS_SHOWN rows (the models at fault
    carry theirs on their tags), then how many more there are."""
    rows: list[tuple[str, str]] = []
    for text, key in lines:
        parts = textwrap.wrap(text, CAPTION_WIDTH)
        if text.startswith("illegal: ") and len(parts) > REASONS_SHOWN:
            reasons = text[len("illegal: "):].split("; ")
            kept, shown = [], "illegal:"
            for why in reasons:
                trial = f"{shown} {why};"
                if len(textwrap.wrap(trial, CAPTION_WIDTH)) > REASONS_SHOWN:
                    break
                kept.append(why)
                shown = trial
            more = len(reasons) - len(kept)
            parts = textwrap.wrap("illegal: " + "; ".join(kept or reasons[:1])
                                  + (f" (+{more} more)" if more else ""), CAPTION_WIDTH)
        rows += [(part, key) for part in parts]
    return rows[:12]


class DragTool:
    """Left-button drags on the table: the live-check overlay and the drop."""

    def __init__(self, table: TableView, on_applied: Callable[[list, str], None],
                 say: Callable[[str], None]) -> None:
        self.table = table
        self.on_applied = on_applied
        self.say = say
        # Joined to a server (view/joined.py): a legal drop is sent there, not applied here.
        self.submit: Callable[[Action], None] | None = None
        # Whose seat may drop it: a reason the player may not send the action (another
        # side's to send, State.sender), or None.
        self.not_yours: Callable[[Action], str | None] = lambda action: None
        # A drop with Shift held: the action handed over for more targets (view/volley.py);
        # True when it was taken.
        self.hold: Callable[[Action], bool] = lambda action: False
        self.wanted: str | None = None          # ability chosen with the phase bar
        self.pickup: live.Pickup | None = None
        self.grab = np.zeros(2)                 # cursor - reference model, in inches
        self.to: tuple[float, float] | None = None
        self.target: int | None = None
        self.facing: float | None = None        # turned in the hand (wheel, Q / E)
        self.ruling: live.Ruling | None = None
        self.moved_at = 0.0
        self.at: tuple[int, int] | None = None  # the pointer where the ruling in hand was made
        self.check_cost = 0.0                   # seconds the last engine check took
        self.snaps: dict[tuple, tuple[float, float] | None] = {}   # this pick-up's snaps
        # The engine's slow rulings, worked out off the main thread (view/checker.py).
        self.checker: Checker | None = None
        self._layer_key = None
        self.depiction: Depiction | None = None  # the overlay drawn last (depiction.drag)

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
            self.drop(e.pos, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
                      or bool(getattr(e, "shift", False)))
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
        self.rule_now()

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
        self.at = pos
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
        if self.checker is not None:
            self.checker.close()
        self.checker = Checker(self.state, u, m if p.single else None, p.ability,
                               self.table.version)
        # The quick rulings at once, the engine's verdict from the worker: the first check
        # warms caches (a stall of its own), and its cost says whether the next ones may be
        # asked on the frame.
        self.check_cost = math.inf
        self.rule_now()
        return True

    def move(self, pos: tuple[int, int]) -> None:
        """The cursor moved with a unit in the hand: the rulings at the new place."""
        self.at = pos
        x, y = self.table.table_at(pos)
        self.to = (x - float(self.grab[0]), y - float(self.grab[1]))
        hit = live.unit_at(self.state, x, y, slack=0.3)
        mine = self.state.side_of(self.pickup.unit)
        self.target = hit[0] if hit is not None and self.state.side_of(hit[0]) != mine else None
        if self.target is None and live.targeted(self.state, self.pickup.ability):
            # A charge or pile-in is dropped next to its target, not on it.
            self.target = live.nearest_enemy(self.state, self.pickup, self.to)
        self.moved_at = time.perf_counter()
        self.rule_now()

    def key(self) -> Key:
        """The place the unit is held at: where, the enemy under the cursor, its facing."""
        assert self.to is not None
        return (self.to, self.target, self.facing)

    def rule_now(self) -> None:
        """The rulings at the place held now: the engine's check on this frame when it is
        quicker than a frame can spare (FAST_CHECK_S), else the quick rulings now and the
        engine's verdict from the worker when it is ready."""
        if self.check_cost < FAST_CHECK_S:
            self.update_ruling(engine=True, detail=False)
            return
        self.update_ruling(engine=False, detail=False)
        if self.checker is not None:
            self.checker.ask(Request(self.key(), False))

    def update(self, dt: float) -> None:
        """Each frame: the worker's answer taken when it is for the place held now (one for a
        place the pointer has left is dropped: the latest request wins); a resting cursor
        asks the worker for the engine's check if the frames skipped it, then for the costly
        rulings and the snap. Nothing slow runs here: the frames go on meanwhile."""
        c = self.checker
        if self.pickup is None or c is None or self.ruling is None:
            return
        if c.version != self.table.version:        # the game changed under the hand
            c.close()
            p = self.pickup
            c = self.checker = Checker(self.state, p.unit,
                                       p.ref if p.single else None, p.ability,
                                       self.table.version)
        done = c.answer()
        if done is not None:
            self.take(done)
        r = self.ruling
        rest = time.perf_counter() - self.moved_at >= SETTLE_S
        if not r.checked:
            c.ask(Request(self.key(), rest))
        elif rest and not r.detailed:
            c.ask(Request(self.key(), True))

    def take(self, done: Answer) -> None:
        """The worker's answer: its cost says whether checks may be asked on the frame; its
        ruling is shown only when made for the place held now (and is no less than what is
        shown)."""
        if not done.request.detail:
            self.check_cost = done.cost
        if done.request.key != self.key():
            return
        if done.request.detail and done.snapped is not None:
            self.snaps[done.request.key] = done.snapped
        r = self.ruling
        if r is None or not r.checked or (done.request.detail and not r.detailed):
            self.ruling = done.ruling

    def settle(self, timeout: float = HANG_S) -> None:
        """Wait for the worker's rulings of the place held now, resting (the tests; what a
        cursor left still gets within a few frames)."""
        self.moved_at = -math.inf
        for _ in range(3):
            self.update(0.0)
            if self.ruling is None or (self.ruling.checked and self.ruling.detailed) \
                    or self.checker is None:
                return
            done = self.checker.wait(timeout)
            if done is not None:
                self.take(done)

    def behind(self) -> bool:
        """Whether the pointer has moved since the ruling in hand was made (a motion waits in
        the queue: a busy machine): its verdict is then not the place the pointer is at."""
        if self.pickup is None or self.at is None or not pygame.event.peek(pygame.MOUSEMOTION):
            return False
        now = pygame.mouse.get_pos()
        return math.dist(now, self.at) / self.table.view.scale > STALE_IN

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
                                        self.facing)
        to = self.snaps[key]
        if to is None:
            return
        self.ruling = snapped_ruling(self.state, self.pickup, r, self.to, to, self.target,
                                     self.facing)

    def drop(self, pos: tuple[int, int], shift: bool = False) -> None:
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
        if shift and self.hold(action):          # more targets to list before it is sent
            self.pickup = None
            self.let_go()
            self.ruling = None
            return
        refused = self.not_yours(action)
        if refused is not None:
            self.cancel("snapped back: " + refused)
            return
        if self.submit is not None:
            bad = self.state.check(action)
            if bad:
                self.cancel("snapped back: " + "; ".join(live.reasons(bad)))
                return
            self.pickup = None
            self.let_go()
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
        self.let_go()
        self.ruling = None
        self.on_applied(self.state.dice.log[before:],
                        f"{action.type} {uid}: {live.outcome(events)}")

    def let_go(self) -> None:
        """The unit is out of the hand: its worker ends."""
        if self.checker is not None:
            self.checker.close()
            self.checker = None

    def cancel(self, why: str) -> None:
        self.pickup = None
        self.let_go()
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
        """What stays put during a drag (depiction.drag.still): the enemy's combat ranges,
        where the unit stood, how far the ability could take it at most."""
        style = self.table.style
        draw(surf, view, depicted.still(self.state, self.pickup),
             WindowMetrics(style, view.scale, style.sides))

    def shown(self) -> Shown:
        """What the overlay tells of the ruling in hand, as values (the tests compare them with
        State.check and apply): the caption, the ruler's colour, who it would be in combat with.
        The ruler is red whenever the drop is illegal (whichever model or rule is at fault),
        else green or amber by how much of the allowance the path uses."""
        said = depicted.words(self.state, self.ruling)
        return Shown(said.text, pal.paint(said.ruler, {}), said.in_combat)

    def caption(self) -> list[tuple[str, str]]:
        """The caption's lines (text, ink) of the ruling in hand (depiction.drag.words), or,
        when the pointer has moved on since it was made (behind), its distance line and
        "checking...": a verdict of a place the pointer has left is never shown as current."""
        said = depicted.words(self.state, self.ruling).lines
        if self.behind():
            return [*said[:1 if self.ruling.allowed else 0], ("checking...", "ink")]
        return said

    def _overlay(self, surface: pygame.Surface) -> None:
        """The drag's depiction (depiction.drag.overlay) over the table, its tags placed clear
        of the bases and of the table's own labels - drawn here with them, moved aside where
        the drop would cover them - with the caption box beside the unit."""
        st, p, r = self.state, self.pickup, self.ruling
        tv = self.table
        view = tv.view
        style = tv.style
        metrics = WindowMetrics(style, view.scale, style.sides)
        rows = caption_rows(self.caption())
        caption = {"k": "caption", "lines": rows} if rows else None
        # on the board (not over its rulers), inside the view
        r0 = pygame.Rect(view.board_rect(st.scene.width, st.scene.depth)).clip(
            tv.rect.inflate(-4, -4))
        (bx0, by1), (bx1, by0) = view.table(r0.left, r0.top), view.table(r0.right, r0.bottom)
        # the table's own labels (left off its layer while a unit is in the hand) stay put
        # unless the drop would cover them: then they move aside
        table_labels = tv.depiction.placed if tv.depiction is not None else []
        dep = depicted.overlay(st, p, r, metrics, style.sides, None, self.facing, caption,
                               (bx0, by0, bx1, by1), table_labels=table_labels)
        self.depiction = dep          # what the overlay drew (every label where it went)
        draw(surface, view, dep.layers["drag"], metrics)
        draw(surface, view, dep.layers["labels"], metrics)
