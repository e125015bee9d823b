"""rules.choices: whether the acting side has anything to decide. It must never call a type
unusable that a player then takes legally (the window would pass that choice away), and it
must say so when a type is offered that no unit may take (aos4's start phase offers
activate-place-of-power to an army with no hero near one)."""

from __future__ import annotations

import pytest

from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.choices import open_choices, passes, usable
from battlefield.rules.deploy import battle_scene
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text

PLAYABLE = [n for n in registry.playable() if registry.get(n).spec.demo]


def new_state(ruleset: str, seed: int = 1):
    text, name = battle_scene(ruleset, None)
    state = Game(registry.get(ruleset), load_scene_text(text, name), seed).new_state()
    while state.pending:     # decided before the first turn (aos4: who goes first)
        state.apply(state.rules.player().choose(state))
    return state


@pytest.mark.parametrize("seed", [1, 7])
@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_every_type_a_player_takes_was_usable(ruleset, seed):
    state = new_state(ruleset, seed)
    players = {side: state.rules.player() for side in state.sides}
    taken = 0
    for _ in range(3000):
        if state.over:
            break
        action = players[state.acting_side].choose(state)
        if not state.pending and action.type not in passes(state):
            assert usable(state, action.type), (state.clock, action)
            taken += 1
        state.apply(action)
    assert state.over and taken > 0


def test_a_type_no_unit_may_take_is_not_a_choice():
    state = new_state("aos4")
    assert state.phase == "start"
    assert "activate-place-of-power" in state.available()
    assert not usable(state, "activate-place-of-power")   # no HERO within 3" of one
    assert open_choices(state) == []
    state.apply(Action("end-phase"))
    state.apply(Action("end-phase"))
    assert state.phase == "hero" and "rally" in state.available()
    assert not usable(state, "rally")       # legal, but no red unit has damage or a model slain


def test_a_rally_that_heals_nothing_is_no_choice():
    """aos4's rally is legal for any unit out of combat, but its points heal damage and bring
    back slain models: with neither, it changes nothing (Ruleset.futile), so the hero phase
    passes by itself; one wound on a unit out of combat makes it a choice again, and so does a
    model slain."""
    state = new_state("aos4")
    while state.phase != "hero":
        state.apply(Action("end-phase"))
    lancers = state.scene.unit_index("red-lancers")
    rally = Action("rally", unit="red-lancers")
    assert state.check(rally) == [] and state.rules.futile(state, rally)
    assert not usable(state, "rally") and "rally" not in open_choices(state)
    state.units[lancers].damage[0] = 1
    assert not state.rules.futile(state, rally) and usable(state, "rally")
    state.units[lancers].damage[0] = 0
    state.units[lancers].alive[4] = False
    assert not state.rules.futile(state, rally) and usable(state, "rally")
    assert not state.rules.futile(state, Action("end-phase"))
