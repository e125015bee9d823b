"""The window's scene stack and main loop: the top scene gets the events, every scene is drawn
bottom up; a scene pushes another (`push`), leaves (`done`) or hands its place to another
(`replace`: view.launch's board gives way to the game once it is ready). Frames are drawn only
when something changed (view.frames)."""

from __future__ import annotations

from typing import Any

import pygame

from battlefield.view.frames import Frames, busy, look

SIZE = (1600, 1000)


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


__all__ = ["App", "SIZE"]
