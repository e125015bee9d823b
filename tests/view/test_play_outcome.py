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


def test_the_computers_phase_is_this_phase_not_the_last() -> None:
    """The reported case (aos4): blue's end-phase that closed red's hero phase was listed as
    "computer (blue) this phase" all through red's movement phase."""
    from battlefield.rules.actions import Action
    from battlefield.view.opening import to_phase

    pygame.display.init()
    pygame.font.init()
    try:
        opened = open_game(None, "aos4")
        to_phase(opened.state, "hero")
        scene = PlayScene(opened, SIZE, computer=("blue",))
        st = scene.state
        assert st.phase == "hero" and st.acting_side == "red"
        assert scene.apply(Action("end-phase"))
        for _ in range(5):
            if st.phase != "hero":
                break
            scene.update(0.016)                     # blue, the computer, passes too
            scene.glide = None
        assert st.phase == "movement"
        assert outcome.phase_actions(st, {"blue"}) == []
    finally:
        pygame.display.quit()


def test_a_spell_cast_says_whether_it_was_cast() -> None:
    said = outcome.entry(
        {"action": {"type": "cast", "unit": "blue-evocators", "target": "blue-evocators",
                    "spell": "empower"}},
        [{"type": "cast", "unit": "blue-evocators", "spell": "empower",
          "target": "blue-evocators", "roll": 8, "needed": 6, "cast": True}],
        ruleset=registry.get("openwg"))
    assert said.lines == ["blue-evocators casts empower at blue-evocators: rolled 8 against "
                          "6, cast"]


def test_a_move_in_the_log_says_how_far_as_the_replay_page_does(tmp_path) -> None:
    """The window's log words a move with the distance its unit went ('red-lightkeeper
    normal-move, 4.95"'), by the replay page's own words (page/words.action_title)."""
    from battlefield.page.replay import game_versions
    from battlefield.rules import log
    from battlefield.rules.actions import Action
    from battlefield.view.app import to_phase

    pygame.display.init()
    pygame.font.init()
    opened = open_game(None)
    st = opened.state
    to_phase(st, "movement")
    scene = PlayScene(opened, SIZE)
    scene.apply(Action("normal-move", "red-lightkeeper", path=((31, 9.5), (34.5, 13))))
    assert st.actions[-1].type == "normal-move"
    newest = scene.panel.log_lines(st)[0][0]
    assert newest == 'red-lightkeeper normal-move, 4.95"'
    log.write(tmp_path / "game.jsonl", st, opened.scene_text)
    _, versions = game_versions(log.read(tmp_path / "game.jsonl"))   # the replay page's
    assert versions[-1]["action"] == newest
    pygame.display.quit()
