"""The computer player: fortifies when ahead, commits morale sensibly (nothing when nothing is at
stake, never below its reserve), and its whole battles end with a result and replay."""

from __future__ import annotations

from battlefield.rules.actions import Action
from battlefield.rules.log import rules_for
from battlefield.rules.skirmish.player import RESERVE, SkirmishPlayer, commitment
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text

from ._scene import ARCHERS, scene, unit

OBJECTIVES = [{"id": "west", "at": [5, 18]}, {"id": "east", "at": [30, 18]}]


def state_of(text: str):
    return Game(rules_for("skirmish"), load_scene_text(text), 1).new_state()


def test_it_fortifies_when_it_controls_more_objectives():
    st = state_of(scene(unit("a", "red", (5, 18)), unit("x", "blue", (20, 30)),
                        objectives=OBJECTIVES))
    assert SkirmishPlayer().choose(st) == Action("fortify")
    st.apply(Action("fortify"))
    assert SkirmishPlayer().choose(st) == Action("end-turn")


def test_it_commits_nothing_when_nothing_is_at_stake_and_keeps_a_reserve():
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS), unit("x", "blue", (5, 16)),
                 objectives=OBJECTIVES)
    st = state_of(text)
    assert commitment(st, "red", 0, 1, 0.2) == 0
    on = scene(unit("a", "red", (5, 16.5), kind=ARCHERS), unit("x", "blue", (5, 19.5)),
               objectives=OBJECTIVES)
    st = state_of(on)
    assert commitment(st, "red", 0, 1, 2.0) == 1      # level on tokens: at most one behind
    st.sides["blue"]["morale"] = 9
    assert commitment(st, "red", 0, 1, 2.0) == 2      # ahead: both units on objectives, a big stake
    st.sides["blue"]["morale"] = 12
    st.sides["red"]["morale"] = RESERVE + 1
    assert commitment(st, "red", 0, 1, 2.0) == 0      # not more than one behind blue's 12
    st.sides["blue"]["morale"] = RESERVE
    assert commitment(st, "red", 0, 1, 2.0) == 1      # never below the reserve


def test_it_skirmishes_a_target_in_range_and_sight():
    st = state_of(scene(unit("a", "red", (5, 10), (6.2, 10), (7.4, 10), kind=ARCHERS),
                        unit("x", "blue", (5, 16)), objectives=OBJECTIVES))
    action = SkirmishPlayer().choose(st)
    assert action.type == "skirmish" and action.target == "x"
    assert not st.check(action)


def test_it_moves_towards_an_objective_without_triggering_pot_shots():
    st = state_of(scene(unit("a", "red", (18, 6)), unit("x", "blue", (30, 34)),
                        objectives=[{"id": "mid", "at": [18, 18]}]))
    action = SkirmishPlayer().choose(st)
    assert action.type == "move"
    events = st.apply(action)
    assert not [e for e in events if e["type"] == "pot-shots"]
    assert st.table.y[0] > 11
