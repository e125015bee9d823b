"""When the window draws: only when something changed. The main loop asks a `Frames` for the
next events - at the frame rate while something is under way (a unit in the hand, the computer
to act, an animation), else looking for events 50 times a second and sleeping in between -
and whether to draw: after any event, while busy, or when what the window shows
has changed by itself (its `look`). An idle window then costs next to nothing (the figure
`window_idle_cpu` of benchmarks/run.py)."""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Any

import pygame

FPS = 60
IDLE_POLL_S = 0.02      # an idle window looks for events this often (50 times a second)


def busy(scene: Any) -> bool:
    """Whether the scene has something under way that the next frames carry on: a unit in the
    hand (its costly rulings come once the cursor rests), the computer to act, an animation
    (a scene's own `animating`), a tool waiting on the clock."""
    if getattr(scene, "animating", False):
        return True
    drag = getattr(scene, "drag", None)
    if drag is not None and getattr(drag, "pickup", None) is not None:
        return True
    state = getattr(scene, "state", None)
    computer = getattr(scene, "computer", None)
    if state is not None and computer and not state.over and state.acting_side in computer:
        return True
    return False


def look(scene: Any) -> Hashable:
    """A key of what the scene shows that an update (not an event) can change: the game's
    version and length, the message, the view. Equal keys: nothing to redraw."""
    table = getattr(scene, "table", None)
    panel = getattr(scene, "panel", None)
    state = getattr(scene, "state", None)
    shown = getattr(scene, "shown", None)            # a scene's own key (view.launch)
    return (shown() if callable(shown) else None,
            getattr(table, "version", None), getattr(table, "view", None),
            getattr(table, "heat", None),
            getattr(panel, "message", None), getattr(panel, "scroll", None),
            len(state.events) if state is not None else None,
            getattr(scene, "editor", None) is None, getattr(scene, "done", None))


def coalesced(events: list[pygame.event.Event]) -> list[pygame.event.Event]:
    """The events with each run of pointer motions made one (the last place, the moves
    summed): a busy machine that queued twenty motions rules on the drag once, at the place
    the pointer is now, not twenty times on places it has left."""
    out: list[pygame.event.Event] = []
    for e in events:
        if (e.type == pygame.MOUSEMOTION and out and out[-1].type == pygame.MOUSEMOTION
                and getattr(e, "buttons", None) == getattr(out[-1], "buttons", None)):
            before = out[-1]
            rel = tuple(a + b for a, b in zip(getattr(before, "rel", (0, 0)),
                                              getattr(e, "rel", (0, 0)), strict=True))
            out[-1] = pygame.event.Event(pygame.MOUSEMOTION, {**e.dict, "rel": rel})
            continue
        out.append(e)
    return out


class Frames:
    """The main loop's clock: `events()` waits as long as it may, `due()` says whether to draw
    this time round; `drawn` counts the frames drawn (the tests and the benchmark read it)."""

    def __init__(self, fps: int = FPS, idle_poll_s: float = IDLE_POLL_S) -> None:
        self.fps = fps
        self.idle_poll_s = idle_poll_s
        self.clock = pygame.time.Clock()
        self.busy = True               # the first frame is drawn at once
        self.last: Hashable = None
        self.drawn = 0
        self.dt = 0.0
        self.app: Any = None           # the App whose loop asks (set by App.run)

    def events(self) -> list[pygame.event.Event]:
        """The events since the last call: at the frame rate while busy, else those queued
        now, after a short sleep when there are none."""
        if self.busy:
            self.dt = self.clock.tick(self.fps) / 1000
            return coalesced(pygame.event.get())
        # Polled with a sleep between: SDL's own wait (pygame.event.wait) polls in a busy
        # loop on some video drivers (2% of a core on the dummy one), this 0.4%.
        events = coalesced(pygame.event.get())
        if not events:
            time.sleep(self.idle_poll_s)
        self.dt = self.clock.tick() / 1000
        return events

    def due(self, events: list[pygame.event.Event], busy_now: bool, key: Hashable) -> bool:
        """Whether to draw now: an event came, something is under way, or what the window
        shows changed by itself. Remembers `busy_now` for the next wait."""
        changed = key != self.last
        self.last = key
        draw = bool(events) or self.busy or busy_now or changed
        self.busy = busy_now
        if draw:
            self.drawn += 1
        return draw


__all__ = ["Frames", "busy", "look", "coalesced", "FPS", "IDLE_POLL_S"]
