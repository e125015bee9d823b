"""A decision of the other side in the window (synthetic events, dummy video driver): the panel
says who decides what, lists the choices as buttons, and a click answers; the computer answers
its own side's decisions."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.rules.battle import player_for  # noqa: E402
from battlefield.view.app import PlayScene, open_game  # noqa: E402

SIZE = (1200, 760)


@pytest.fixture()
def asked():
    """The aos4 demo played by the computer until red's archers shoot and blue must decide."""
    pygame.display.init()
    pygame.font.init()
    opened = open_game(None)
    state, player = opened.state, player_for("aos4")
    state.apply(player.choose(state))        # red takes the first turn (its decision)
    # (a run's move after its roll is red's own decision: the computer answers it)
    while not (state.pending and state.pending[0].side == "blue"):
        state.apply(player.choose(state))
    yield opened
    pygame.display.quit()


def click(scene: PlayScene, name: str) -> None:
    scene.draw(pygame.Surface(SIZE))
    rect = next(r for r, label in scene.panel.buttons if label == name)
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=rect.center))


def test_the_panel_shows_the_decision_and_a_click_answers_it(asked) -> None:
    scene = PlayScene(asked, SIZE)
    (d,) = scene.state.pending
    assert (d.side, d.kind, d.get("attacker"), d.get("target")) == (
        "blue", "all-out-defence", "red-archers", "blue-drake")
    scene.draw(pygame.Surface(SIZE))
    assert [label for _, label in scene.panel.buttons] == ["all-out-defence", "decline"]
    click(scene, "all-out-defence")
    st = scene.state
    assert st.actions[-1].to_dict() == {"type": "all-out-defence", "side": "blue",
                                         "unit": "blue-drake"}
    assert not st.pending and st.acting_side == "red" and st.sides["blue"]["cp"] == 3
    scene.draw(pygame.Surface(SIZE))
    assert "all-out-defence" not in [label for _, label in scene.panel.buttons]


def test_the_computer_answers_its_own_sides_decision(asked) -> None:
    scene = PlayScene(asked, SIZE, computer=("blue",))
    n = len(scene.state.actions)
    scene.update(0.016)
    # +1 save would spare the drake 0.89 damage of the archers' 3.56: less than a point
    assert scene.state.actions[n].to_dict() == {"type": "decline", "side": "blue"}
    assert not scene.state.pending
