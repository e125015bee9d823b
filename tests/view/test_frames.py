"""The window draws only when something changed (view/frames.py): after an event, while a
unit is in the hand or the computer is to act, or when what it shows changed by itself; the
real main loop at rest draws its first frame and then nothing."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import time  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.view.app import App, PlayScene, hold, open_game  # noqa: E402
from battlefield.view.frames import Frames, busy, look  # noqa: E402

SIZE = (1000, 700)


@pytest.fixture()
def scene():
    """The demo at rest: its start phase, which passes by itself (no red HERO near a place of
    power), passed."""
    pygame.display.init()
    pygame.font.init()
    scene = PlayScene(open_game(None), SIZE)
    while scene.forced() is not None:
        scene.update(0.016)
    yield scene
    pygame.display.quit()


def test_due_only_when_something_changed(scene):
    f = Frames()
    assert f.due([], busy(scene), look(scene))            # the first frame
    assert not f.due([], busy(scene), look(scene))        # at rest
    assert f.due([pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(1, 1),
                                     buttons=(0, 0, 0))], busy(scene), look(scene))
    assert not f.due([], busy(scene), look(scene))
    scene.say("something new")                            # changed by an update, no event
    assert f.due([], busy(scene), look(scene))
    assert not f.due([], busy(scene), look(scene))
    assert f.drawn == 3


def test_busy_while_a_unit_is_in_the_hand_or_the_computer_acts(scene):
    assert not busy(scene)
    from battlefield.view.app import to_phase

    to_phase(scene.state, "movement")
    hold(scene, scene.state.scene.units[0].id, None)
    assert busy(scene)
    scene.drag.cancel("")
    assert not busy(scene)
    scene.computer = {scene.state.acting_side}
    assert busy(scene)


def test_the_main_loop_at_rest_draws_once():
    pygame.display.init()
    pygame.font.init()

    class Stop(Frames):
        """Quits 1 s after the first frame; notes the frames drawn by half time."""

        t0: float | None = None
        by_half: int | None = None

        def events(self):
            if self.t0 is None and self.drawn:
                self.t0 = time.perf_counter()
            if self.t0 is not None and self.by_half is None \
                    and time.perf_counter() - self.t0 > 0.5:
                self.by_half = self.drawn
            if self.t0 is not None and time.perf_counter() - self.t0 > 1.0:
                return [pygame.event.Event(pygame.QUIT)]
            return super().events()

    frames = Stop()
    scene = PlayScene(open_game(None), SIZE)
    while (step := scene.forced()) is not None:     # the steps that pass by themselves, so
        scene.apply(step)                            # the window opens at rest
    App(scene, SIZE).run(frames)
    pygame.display.quit()
    # the first frame, perhaps one more for the window's own opening events, then none
    assert frames.by_half is not None and frames.by_half <= 3
    assert frames.drawn == frames.by_half
