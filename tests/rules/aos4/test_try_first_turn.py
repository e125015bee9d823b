"""`try` opens the battle where the window and the play page open it when the first action
is the first-turn decision's answer (it said "not_asked" before: try started at red's turn)."""

from __future__ import annotations

import pytest

from battlefield.rules.actions import Action
from battlefield.rules.trial import run
from battlefield.scene.load import load_scene, resolve_scene_path


def _demo():
    return load_scene(resolve_scene_path("demo"))         # as `battlefield try demo` reads it


@pytest.mark.parametrize(("answer", "first"), [("go-first", "red"), ("go-second", "blue")])
def test_the_first_turn_answered_through_try(answer, first) -> None:
    state, results = run(_demo(), [Action(answer, side="red")])
    assert results[0]["legal"], results[0]["violations"]
    assert state.clock["active"] == first and not state.pending


def test_another_first_action_starts_at_its_turn() -> None:
    state, results = run(_demo(), [Action("end-phase")])
    assert results[0]["legal"] and state.clock["active"] == "red"
