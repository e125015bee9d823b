"""The panel's message is the news: what the newest action that did something came to,
credited to the side that caused it - a pass that follows by itself (the computer's, or
auto-pass) does not put 'end-phase: done' in its place; the "what now" box says where the
game is."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.rules.actions import Action  # noqa: E402
from battlefield.view.app import PlayScene, open_game, to_phase  # noqa: E402

pytestmark = pytest.mark.usefixtures("display")


def test_a_shot_stays_the_news_while_the_phases_pass_by_themselves() -> None:
    opened = open_game(None, "aos4")
    to_phase(opened.state, "shooting")
    scene = PlayScene(opened, (1200, 760), computer=("blue",))
    scene.glide_s = 0.0
    st = scene.state
    scene.apply(Action("shoot", unit="red-archers", target="blue-drake"))
    for _ in range(40):                     # blue answers; the steps with nothing pass
        if st.phase not in ("shooting", "charge") or (
                st.acting_side == "red" and scene.forced() is None):
            break
        scene.update(0.016)
    assert st.phase != "shooting" and len(st.actions) > 3
    msg = scene.panel.message
    assert msg.startswith("red-archers shoot -> blue-drake (blue answered all-out-defence")
    assert "blue-drake: " in msg and "damage" in msg
    scene.draw(pygame.Surface((1200, 760)))
    assert scene.panel.now_line.startswith(f"red's {st.phase} phase")


def test_without_news_a_pass_by_itself_says_why() -> None:
    scene = PlayScene(open_game(None, "aos4"), (1000, 700), computer=("blue",))
    scene.update(0.016)
    assert scene.panel.message.startswith("red's start phase passed by itself: nothing to "
                                          "decide (activate-place-of-power: ")
