"""The window's scene stack and main loop: the top scene gets the events, every scene is drawn
bottom up; a scene pushes another (`push`), leaves (`done`) or hands its place to another
(`replace`: view.launch's board gives way to the game once it is ready). Frames are drawn only
when something changed (view.frames)."""

from __future__ import annotations

from typing import Any

import pygame

from battlefield.view.frames import Frames, busy, look

SIZE = (1600, 1000)          # the window at most, and a screenshot's size unless told
SMALLEST = (640, 400)        # the side panel and the board need this much
FRAME = (40, 110)            # left for the window's frame and title bar and a task bar


def fitting_size(desktops: list[tuple[int, int]], most: tuple[int, int] = SIZE
                 ) -> tuple[int, int]:
    """The window's size on these desktops (the first is where it opens): SIZE at most, and
    small enough that the window with its frame and a task bar fits the screen (a 1400x900
    laptop: 1360x790) - never below SMALLEST. No desktop known: SIZE."""
    if not desktops or min(desktops[0]) <= 0:
        return most
    w, h = desktops[0]
    return (max(SMALLEST[0], min(most[0], w - FRAME[0])),
            max(SMALLEST[1], min(most[1], h - FRAME[1])))


def window_size(asked: tuple[int, int] | None) -> tuple[int, int]:
    """`asked` (--size) when given, else the size that fits this desktop (the display is
    initialised)."""
    if asked is not None:
        return asked
    try:
        desktops = [tuple(d) for d in pygame.display.get_desktop_sizes()]
    except pygame.error:
        desktops = []
    return fitting_size(desktops)  # type: ignore[arg-type]


class App:
    """The scene stack and the main loop."""

    def __init__(self, first: Any, size: tuple[int, int] = SIZE) -> None:
        self.stack = [first]
        self.size = size

    def handle_event(self, e: pygame.event.Event) -> None:
        top = self.stack[-1]
        top.handle_event(e)
        pushed = getattr(top, "push", None)
        if pushed is not None:
            top.push = None
            self.stack.append(pushed)
        if getattr(top, "done", False) and len(self.stack) > 1:
            self.stack.pop()

    def update(self, dt: float) -> None:
        top = self.stack[-1]
        top.update(dt)
        successor = getattr(top, "replace", None)
        if successor is not None:
            self.stack[-1] = successor

    def draw(self, surface: pygame.Surface) -> None:
        for s in self.stack:
            s.draw(surface)

    def run(self, frames: Frames | None = None) -> None:
        """The main loop: it draws only when something changed (view.frames), so an idle
        window sleeps between looks at the event queue."""
        screen = pygame.display.set_mode(self.size, pygame.RESIZABLE)
        pygame.display.set_caption("battlefield play")
        self.frames = frames = frames or Frames()
        frames.app = self
        while True:
            events = frames.events()
            for e in events:
                if e.type == pygame.QUIT:
                    return
                self.handle_event(e)
            self.update(frames.dt)
            top = self.stack[-1]
            if frames.due(events, any(busy(s) for s in self.stack),
                          (len(self.stack), id(top), look(top))):
                self.draw(screen)
                pygame.display.flip()


__all__ = ["App", "SIZE", "SMALLEST", "fitting_size", "window_size"]
