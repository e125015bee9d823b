"""What the window does by itself (view/auto.py, PlayScene.update): against the computer a
whole game needs no click that decides nothing - the computer's turns run by themselves and a
step in which the human side may only pass passes by itself (the ruleset's own `passes` action
from `available`); with auto-pass off those steps wait for the player; the computer's moves
glide along their paths and land where the engine put them."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from battlefield.rules import registry  # noqa: E402
from battlefield.rules.actions import Action  # noqa: E402
from battlefield.rules.choices import open_choices  # noqa: E402
from battlefield.view import auto  # noqa: E402
from battlefield.view.app import PlayScene, open_game  # noqa: E402

RULESETS = registry.playable()


pytestmark = pytest.mark.usefixtures("display")


def play_against_the_computer(ruleset: str, auto_pass: bool = True, limit: int = 600,
                              human: int = 0) -> tuple[PlayScene, dict]:
    """A game through the play scene: the computer plays the second side, the human's
    decisions come from a computer player standing in for them (as clicks: scene.apply).
    Counts the human's clicks, those made when the pass was the one legal choice (everything
    else offered was a type no unit of theirs may take now: clicks that decide nothing), the
    steps passed by themselves and the computer moves that glided."""
    opened = open_game(None, ruleset)
    human, other = opened.state.scene.sides[human], opened.state.scene.sides[1 - human]
    scene = PlayScene(opened, (1000, 700), computer=(other,))
    scene.auto_pass = auto_pass
    st = scene.state
    stand_in = st.rules.player()
    n = {"clicks": 0, "empty_clicks": 0, "auto": 0, "glides": 0}
    for _ in range(limit):
        if st.over:
            break
        before = len(st.actions)
        waiting = st.acting_side == human
        scene.update(0.016)
        if scene.glide is not None:
            n["glides"] += 1
            scene.glide.finish()
            continue
        if waiting and len(st.actions) > before:
            n["auto"] += 1
            continue
        if st.acting_side != human or st.over or scene.forced() is not None:
            continue                    # the next update acts: nobody clicks
        action = stand_in.choose(st)
        n["clicks"] += 1
        if (len(st.pending[0].choices) == 1 and not st.pending[0].open if st.pending
                else auto.empty(st, st.available()) or not open_choices(st)):
            n["empty_clicks"] += 1      # the pass, or types no unit may take, all it had
        assert scene.apply(action)
    return scene, n


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("human", [0, 1])
def test_a_game_against_the_computer_needs_no_click_that_decides_nothing(ruleset, human):
    scene, n = play_against_the_computer(ruleset, human=human)
    assert scene.state.over, n
    assert n["empty_clicks"] == 0, n
    assert n["clicks"] > 0 and n["glides"] > 0, n
    computer_side = scene.state.scene.sides[1 - human]
    assert any(e.side == computer_side for e in scene.panel.entries(scene.state))


def test_steps_with_nothing_to_decide_pass_by_themselves_and_are_logged():
    # openwg: once the human's units have all acted, each phase's `stop` is all it may do
    scene, n = play_against_the_computer("openwg")
    assert n["auto"] > 0
    human = scene.state.scene.sides[0]
    stops = [e for e in scene.panel.entries(scene.state) if e.side == human
             and e.action.startswith("stop")]
    assert len(stops) >= n["auto"]       # each is in the game log as the side's stop


def test_with_auto_pass_off_they_wait_for_the_player():
    scene, n = play_against_the_computer("openwg", auto_pass=False)
    assert n["auto"] == 0 and n["empty_clicks"] > 0, n


def test_the_a_key_toggles_auto_pass():
    scene = PlayScene(open_game(None, "aos4"), (1000, 700))
    assert scene.auto_pass
    scene.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0))
    assert not scene.auto_pass and "auto-pass off" in scene.panel.message
    assert scene.forced() is None


def test_forced_is_the_rulesets_pass_from_available():
    st = open_game(None, "aos4").state
    offered = st.available()
    step = auto.forced(st)
    if step is None:
        assert any(a not in auto.passes(st) for a in offered)
    else:
        assert step == Action(step.type) and step.type in auto.passes(st)
    assert auto.passes(st) == {"end-phase"}


def test_a_glide_follows_the_path_and_lands_where_the_engine_put_the_models():
    scene, _ = play_against_the_computer("warband", limit=40)
    st = scene.state
    path = np.array([[0.0, 0.0], [3.0, 0.0], [3.0, 4.0]])
    g = auto.Glide(0, np.array([0, 1]), np.array([[0.0, 0.0], [1.0, 1.0]]),
                   np.array([[3.0, 4.0], [4.0, 5.0]]), path, 0, 0.0)
    assert np.allclose(g.at(0.0), g.start) and np.allclose(g.at(1.0), g.end)
    assert np.allclose(g.at(3 / 7)[0], [3.0, 0.0])          # at the corner, 3 of 7 inches
    assert st.actions                                        # the game went on meanwhile


def test_blocks_moved_by_their_standing_orders_glide_together_along_the_engines_paths():
    """blocks' computer gives orders and ends the phase; the engine moves its blocks: every
    block it moved glides at once, along its `moved` event's path, and lands where it stands."""
    opened = open_game(None, "blocks")
    scene = PlayScene(opened, (1000, 700), computer=tuple(opened.state.scene.sides))
    st = scene.state
    for _ in range(200):
        side = st.acting_side
        scene.update(0.016)
        if scene.glide is not None and len(scene.glide.units) > 1:
            break
        if scene.glide is not None:
            scene.glide.finish()
    g = scene.glide
    assert g is not None and len(g.units) > 1 and st.actions[-1].type == "end-phase"
    last = max(k for k, e in enumerate(st.events) if e["type"] == "action")
    trails = {e["unit"]: e["path"] for e in st.events[last:] if e["type"] == "moved"}
    now = auto.positions(st)
    for part in (g, *g.others):
        assert np.allclose(part.at(1.0), now[part.models])          # lands where it stands
        assert np.allclose(part.path, trails[st.scene.units[part.unit].id])
        assert len(part.path) >= 2 and st.side_of(part.unit) == side
    surf = pygame.Surface((1000, 700))
    scene.draw(surf)                                  # drawn mid-glide, every block


def test_a_computer_unit_moved_by_the_humans_answer_glides_too():
    """warband: the human's reaction lets the computer's move go on - the computer's fighter
    glides although the human applied the action; the human's own moves never glide."""
    opened = open_game(None, "warband", 1)
    scene = PlayScene(opened, (1000, 700), computer=("blue",))
    st = scene.state
    stand_in = st.rules.player()
    seen = None
    for _ in range(400):
        if st.over:
            break
        scene.update(0.016)
        if scene.glide is not None:
            scene.glide.finish()
            continue
        if st.acting_side != "red" or scene.forced() is not None:
            continue
        assert scene.apply(stand_in.choose(st))
        if scene.glide is not None:
            seen = scene.glide
            assert {st.side_of(u) for u in seen.units} == {"blue"}, st.actions[-1]
            break
    assert seen is not None and st.actions[-1].type == "react"


def test_a_key_or_a_click_ends_a_glide_and_then_the_window_rests():
    opened = open_game(None, "warband")
    scene = PlayScene(opened, (1000, 700), computer=tuple(opened.state.scene.sides))
    for _ in range(200):
        scene.update(0.016)
        if scene.glide is not None:
            break
    assert scene.glide is not None and scene.animating
    surf = pygame.Surface((1000, 700))
    scene.draw(surf)                                  # drawn mid-glide
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(10, 10)))
    assert scene.glide.done
    scene.computer = set()                            # nobody acts by itself any more
    scene.update(0.016)
    assert scene.glide is None


def test_a_phase_whose_offered_types_no_unit_may_take_passes_by_itself():
    # aos4's start phase offers activate-place-of-power; no red HERO stands within 3" of one
    scene = PlayScene(open_game(None, "aos4"), (1000, 700), computer=("blue",))
    st = scene.state
    assert scene.forced() is None        # red decides who goes first: a choice, not forced
    scene.apply(Action("go-first", side="red"))
    assert st.phase == "start" and "activate-place-of-power" in st.available()
    assert scene.forced() == Action("end-phase")
    scene.update(0.016)
    assert st.actions[1].type == "end-phase" and "passed by itself" in scene.panel.message
    scene.update(0.016)                  # the computer's own end-phase
    log = " ".join(text for text, _, _ in scene.panel.log_lines(st))     # wrapped lines
    assert log == ("blue end-phase red end-phase by itself (start phase: nothing to decide) "
                   "red go-first")          # whose pass, newest first
    assert len(scene.panel.entries(st)) == len(st.actions)    # an entry is an action
    scene.apply(Action("end-phase"))                           # red leaves the hero phase
    assert scene.panel.log_lines(st)[0][0] == "red end-phase (hero phase)"


def test_undo_forgets_which_steps_passed_by_themselves():
    scene = PlayScene(open_game(None, "aos4"), (1000, 700), computer=("blue",))
    scene.apply(Action("go-first", side="red"))
    for _ in range(3):
        scene.update(0.016)                  # red's start passed, blue's, into the hero phase
    assert scene.state.phase == "hero" and scene.panel.by_itself == {1: "start"}
    scene.undo()                             # back to the start, red to decide who goes first
    assert len(scene.state.actions) == 0 and scene.panel.by_itself == {}
    assert scene.state.pending


def test_a_screenshot_of_the_computers_turn_holds_only_a_last_move_half_way(tmp_path):
    from battlefield.view.launch import play

    moved = play("openwg", None, computer=("red",), screenshot=str(tmp_path / "a.png"),
                 size=(1000, 700))
    # the normal player runs towards an objective: a run glides as a move does
    assert moved.state.actions[-1].type in ("move", "run") and moved.glide is not None
    assert abs(moved.glide.fraction() - 0.5) < 0.01
    # blue's moves, then its stop and the steps red passes by itself: played on to red's
    # decision, nothing held (the last action is no move)
    on = play("demo-openwg", None, computer=("blue",), screenshot=str(tmp_path / "b.png"),
              size=(1000, 700), clicks=("stop",))
    st = on.state
    assert on.glide is None and st.acting_side == "red" and on.forced() is None
    assert st.actions[-1].type != "move" and st.round == 2


def test_the_computer_plays_at_the_level_asked(display):
    """play --level: the table's computer side is made at that level (here the random legal
    player), seeded from the game's seed, and its choices are legal."""
    from battlefield.view.app import table_scene
    from battlefield.view.opening import Setup

    opened = open_game(None, "skirmish")
    scene = table_scene(Setup(("red",), level="random"), opened, (1000, 700))
    st = scene.state
    for _ in range(20):
        if st.acting_side != "red" or st.over:
            break
        scene.update(0.016)
        if scene.glide is not None:
            scene.glide.finish()
    assert type(scene.players["red"]).__name__ == "RandomPlayer" and st.actions
