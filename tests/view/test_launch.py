"""The window's first seconds (view/launch.py): the board is drawn before numba is imported,
the game takes its place once the kernels are ready, and bad input is refused before the window
opens."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FIRST = """
import sys, time
import pygame
from battlefield.view.frames import Frames
from battlefield.view.launch import Launch, window
from battlefield.view.opening import Setup

class Watch(Frames):
    first = None          # (top scene's type, numba imported) at the first frame drawn
    ready = None

    def due(self, events, busy_now, key):
        draw = super().due(events, busy_now, key)
        top = self.app.stack[-1]
        if draw and self.first is None:
            self.first = (type(top).__name__, 'numba' in sys.modules)
        if draw and not isinstance(top, Launch):
            self.ready = type(top).__name__
        return draw

    def events(self):
        if self.ready is not None:
            return [pygame.event.Event(pygame.QUIT)]
        return super().events()

w = Watch()
window(None, None, 1, (1000, 700), Setup({computer}), w)
print(w.first[0], w.first[1], w.ready)
"""


def run(script: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, env=env)


@pytest.mark.parametrize("computer", ["()", "('blue',)"])
def test_the_board_comes_before_numba_and_the_game_after(computer):
    out = run(FIRST.replace("{computer}", computer))
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split()[-3:] == ["Launch", "False", "PlayScene"]


def test_bad_input_is_refused_before_the_window_opens(tmp_path):
    out = subprocess.run([sys.executable, "-m", "battlefield", "play", "--computer", "green"],
                         capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert out.returncode == 2
    assert "--computer green: no such side" in out.stderr and "Traceback" not in out.stderr


def test_an_error_while_preparing_is_raised_in_the_main_loop():
    """What the thread met (a scene the ruleset refuses, say) ends the window as one line."""
    import time

    from battlefield.errors import UsageError
    from battlefield.scene.load import load_scene, resolve_scene_path
    from battlefield.view.launch import Launch

    def refuse():
        raise UsageError("demo: refused")

    launch = Launch(load_scene(resolve_scene_path("demo")), "demo", (1000, 700), refuse,
                    lambda result, size: None)
    launch.drawn = True
    launch.update(0.0)                  # starts the thread
    launch.thread.join(30)
    with pytest.raises(UsageError, match="demo: refused"):
        launch.update(0.0)
    assert launch.replace is None and time.perf_counter() >= launch.started
