"""The window asks the engine whose action it is (State.sender): a player's action that is a
computer side's to send is refused and changes nothing; the computer side's own goes through."""

from __future__ import annotations

from battlefield.rules.actions import Action
from battlefield.view.app import PlayScene, open_game


def test_an_action_that_is_the_computer_sides_is_refused():
    scene = PlayScene(open_game("demo-skirmish", None, 1), computer=("blue",))
    state = scene.state
    assert state.acting_side == "red" and scene.apply(Action("end-turn"))
    assert state.acting_side == "blue"
    before = len(state.actions)
    assert scene.apply(Action("end-turn")) is False
    assert len(state.actions) == before and "the computer plays blue" in scene.panel.message
    assert scene.apply(Action("end-turn"), computer=True)
    assert state.acting_side == "red"
