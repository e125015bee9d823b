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
from battlefield.rules.battle import player_for  # noqa: E402
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
    opened = open_game(None, "aos4")
    opened.state.apply(Action("go-first", side="red"))      # red decides who goes first
    scene = PlayScene(opened, (1000, 700), computer=("blue",))
    scene.update(0.016)
    assert scene.panel.message.startswith("red's start phase passed by itself: nothing to "
                                          "decide (activate-place-of-power: ")


def _until_red_decides(scene: PlayScene, most: int = 60) -> None:
    st = scene.state
    for _ in range(most):
        if st.over or (st.acting_side == "red" and scene.forced() is None):
            return
        scene.update(0.016)
        scene.glide = None


def test_several_passes_by_themselves_the_message_names_the_newest() -> None:
    """openwg: red's phases with nothing to decide pass one after another; the message is
    the newest of them, not the oldest."""
    scene = PlayScene(open_game(None, "openwg"), (1200, 760), computer=("blue",))
    scene.glide_s = 0.0
    st = scene.state
    _until_red_decides(scene)
    assert scene.apply(Action("stop", side="red")) if st.check(Action("stop", side="red")) \
        == [] else scene.apply(Action("stop"))
    _until_red_decides(scene)
    mine = [(n, p) for n, p in scene.panel.by_itself.items() if p]
    assert len(mine) >= 2, "no phases passed by themselves"
    newest = max(mine)[1]
    assert f"{newest} phase passed by itself" in scene.panel.message


def test_while_the_computer_plays_the_box_says_so_without_instructions() -> None:
    opened = open_game(None, "aos4")
    to_phase(opened.state, "hero")
    scene = PlayScene(opened, (1200, 760), computer=("blue",))
    scene.apply(Action("end-phase"))
    st = scene.state
    assert st.acting_side == "blue" and st.phase == "hero"
    line = scene.now_line()
    assert line.startswith("the computer is playing blue in red's hero phase: wait")
    assert "click" not in line.split(":", 1)[1].replace("click shows", "")


@pytest.mark.parametrize(("ruleset", "phase", "passes", "start"), [
    ("aos4", "hero", 1, "red's hero phase, blue to act:"),     # whose phase, then who acts
    ("aos4", "movement", 0, "red's movement phase: drag a unit"),
    ("skirmish", None, 0, "red's turn: drag a unit to move"),
])
def test_what_now_names_whose_phase_it_is(ruleset, phase, passes, start) -> None:
    opened = open_game(None, ruleset)
    st = opened.state
    if phase:
        to_phase(st, phase)
    elif st.pending:
        st.apply(st.pending[0].choices[0])
    for _ in range(passes):
        st.apply(Action("end-phase"))
    scene = PlayScene(opened, (1200, 760))
    line = scene.now_line()
    assert line.startswith(start), line
    assert "reserve list" not in line          # skirmish has none: bombard is no set-up


def test_the_what_now_box_wraps_on_words_and_fits() -> None:
    """The reported cuts ('...at tack for th...', 'commit N spends N of your m...'): the box
    grows to the text, wraps between words, and a text too long for it ends after a word."""
    from battlefield.view.drawing import font

    scene = PlayScene(open_game(None, "skirmish"), (1200, 760))
    small = font(16)
    words = ("blue decides commit (red-scouts skirmish -> blue-scouts): commit N spends N of "
             "your morale tokens on the attack for the advantage; end-turn when done").split()
    scene.panel.now_line = " ".join(words)
    lines = scene.panel.now_lines(small)
    assert " ".join(lines).split() == words                    # all of it, whole words
    assert all(small.size(line)[0] <= scene.panel.rect.width - 24 for line in lines)
    scene.panel.now_line = " ".join(words * 4)
    lines = scene.panel.now_lines(small)
    assert len(lines) == 6 and lines[-1].endswith("...")
    assert lines[-1][:-3].split()[-1] in words                 # cut after a whole word
    scene.draw(pygame.Surface((1200, 760)))


def test_while_the_computer_plays_the_panel_shows_no_buttons_but_a_line() -> None:
    """The computer's side acting with nothing put to the human: no button to press (a click
    on end-phase would be refused), a line saying the computer is playing instead."""
    opened = open_game(None, "aos4")
    to_phase(opened.state, "hero")
    scene = PlayScene(opened, (1200, 760), computer=("blue",))
    surface = pygame.Surface((1200, 760))
    scene.draw(surface)
    assert "end-phase" in [label for _, label in scene.panel.buttons]     # red's: the human's
    scene.apply(Action("end-phase"))
    assert scene.state.acting_side == "blue" and not scene.state.pending
    scene.draw(surface)
    assert scene.panel.buttons == [] and scene.panel.answers == {}
    assert scene.panel.computers(scene.state, Action("end-phase"))
    assert scene.panel.computer_acting(scene.state) == "blue"


def test_a_decision_put_to_the_human_keeps_its_buttons_during_the_computers_turn() -> None:
    """red (the computer) shoots in its turn and blue, the human, is asked all-out-defence:
    its answers are buttons though the turn is the computer's."""
    opened = open_game(None, "aos4")
    st, player = opened.state, player_for("aos4")
    while not (st.pending and st.pending[0].side == "blue"):
        st.apply(player.choose(st))
    assert st.active == "red"
    scene = PlayScene(opened, (1200, 760), computer=("red",))
    scene.draw(pygame.Surface((1200, 760)))
    assert scene.panel.computer_acting(st) is None
    assert [label for _, label in scene.panel.buttons] == ["all-out-defence", "decline"]


def test_a_joined_window_words_a_move_as_the_log_does() -> None:
    """A seat of a server's game (view.joined.heard) says the newest action with the distance
    its unit went, as the game log and the replay page word it."""
    from battlefield.rules.outcome import game_log
    from battlefield.view.joined import heard

    opened = open_game(None, "aos4")
    to_phase(opened.state, "movement")
    st = opened.state
    lead = st.scene.units[st.scene.unit_index("red-lancers")].models[0]
    x, y = lead.x, lead.y
    move = Action("normal-move", unit="red-lancers", path=((x, y), (x, y + 3)))
    st.apply(move)
    said = heard({"by": "red", "action": move.to_dict()}, game_log(st))
    import re

    assert re.fullmatch(r'red-lancers normal-move, \d+(\.\d+)?": done', said), said
