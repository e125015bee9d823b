"""The panel says what happened (dummy video driver): after an attack the message gives the
outcome (damage, models slain, wounds left) and the game log the action, its outcome and then
its dice; the log scrolls with Page Up / Home (and the wheel over the panel); the computer's
actions this phase are listed."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.rules import outcome, registry  # noqa: E402
from battlefield.view.app import PlayScene, open_game  # noqa: E402

SIZE = (1400, 900)


@pytest.fixture()
def scene():
    pygame.display.init()
    pygame.font.init()
    yield PlayScene(open_game(None, "skirmish", 3), SIZE, computer=("blue",))
    pygame.display.quit()


def play_until_hurt(scene: PlayScene) -> list:
    """Red (a person here, played by the computer player through the window's apply) and blue
    (the window's computer) until an action hurts a unit; that action's events."""
    red = registry.get("skirmish").player()
    for _ in range(300):
        st = scene.state
        if st.acting_side in scene.computer:
            scene.update(0.016)
        else:
            assert scene.apply(red.choose(st))
        events = outcome.last_events(scene.state)
        found, _, _ = outcome.effects(events, scene.state.rules)
        if any(h.damage for h in found.values()):
            return events
    raise AssertionError("nothing was hurt in 300 actions")


def test_the_message_and_the_log_say_the_outcome_then_the_dice(scene):
    events = play_until_hurt(scene)
    lines = outcome.outcome(events, scene.state)
    hurt = lines[0].split(":")[0]
    assert hurt in scene.panel.message and "damage" in scene.panel.message
    scene.draw(pygame.Surface(SIZE))
    newest = scene.panel.entries(scene.state)[-1]
    assert newest.lines == lines
    assert newest.lines.index(lines[0]) < max(k for k, x in enumerate(newest.lines)
                                              if "hitting on" in x)   # outcome, then dice
    assert "wounds left" in lines[0] or "none left" in lines[0]


def test_the_log_scrolls_and_the_computer_actions_are_listed(scene):
    play_until_hurt(scene)
    surf = pygame.Surface(SIZE)
    scene.draw(surf)
    assert scene.panel.scroll == 0
    scene.panel.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_PAGEUP, mod=0))
    scene.draw(surf)
    assert scene.panel.scroll == 10
    scene.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_HOME, mod=0))
    assert scene.panel.scroll == 0
    blue = [en for en in outcome.game_log(scene.state) if en.side == "blue"]
    assert blue, "the computer did nothing"
    now = outcome.phase_actions(scene.state, {"blue"})
    assert all(en.side == "blue" for en in now)
