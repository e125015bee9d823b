"""The window's size: what fits the desktop it opens on (a 1400x900 laptop screen included),
1600x1000 at most; `--size` wins."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.cli.main import main  # noqa: E402
from battlefield.view import stack  # noqa: E402
from battlefield.view.stack import FRAME, SIZE, SMALLEST, fitting_size, window_size  # noqa: E402


@pytest.mark.parametrize(("desktops", "size"), [
    ([(1400, 900)], (1400 - FRAME[0], 900 - FRAME[1])),      # a laptop: frame and bar fit too
    ([(1920, 1080)], (1600, 1080 - FRAME[1])),              # 1600 wide at most
    ([(1280, 1024), (3840, 2160)], (1280 - FRAME[0], 1024 - FRAME[1])),  # the first one
    ([(2560, 1440)], SIZE),                                  # 1600x1000 at most
    ([(600, 380)], SMALLEST),                                # never below what the panel needs
    ([], SIZE),                                              # no desktop known
    ([(0, 0)], SIZE),
])
def test_the_window_fits_the_desktop(desktops, size) -> None:
    w, h = fitting_size(desktops)
    assert (w, h) == size
    if desktops and min(desktops[0]) > 0 and min(desktops[0]) >= max(SMALLEST):
        assert w + FRAME[0] <= desktops[0][0] and h + FRAME[1] <= desktops[0][1]


def test_size_asked_wins_and_none_asks_the_desktop(monkeypatch) -> None:
    pygame.display.init()
    assert window_size((900, 700)) == (900, 700)
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(1400, 900)])
    assert window_size(None) == (1360, 790)


def test_play_without_size_opens_at_the_desktops_size(monkeypatch, capsys) -> None:
    """`battlefield play` with no --size hands the window no size (it asks the desktop once the
    display is open); --size WxH is passed as it is."""
    asked = []

    def window(scene, ruleset, seed, size, setup):
        asked.append(size)

    monkeypatch.setattr("battlefield.view.launch.window", window)
    monkeypatch.setattr("battlefield.cli.play.display_missing", lambda: None)
    assert main(["play"]) == 0
    assert main(["play", "--size", "1200x800"]) == 0
    assert asked == [None, (1200, 800)]
    assert stack.SIZE == (1600, 1000)
