"""scene_now: the scene as it stands, slain models gone - and a unit with none left still
answers every ruling of `check` (it was an IndexError when it was the scene's last unit)."""

from __future__ import annotations

import numpy as np
import pytest

from battlefield.rules import registry
from battlefield.rules.standing import scene_now
from battlefield.rules.state import Game
from battlefield.rulings import Referee
from battlefield.scene.load import load_scene, resolve_scene_path


@pytest.mark.parametrize("which", [0, -1])
def test_a_unit_with_every_model_slain_is_reported_with_none(which):
    scene = load_scene(resolve_scene_path("demo-warband"))
    state = Game(registry.get(scene.ruleset.id), scene, seed=1).new_state()
    u = which % len(scene.units)
    unit = np.array(state.table.unit)
    unit[state.table.unit_models[u]] = -1
    state.table = state.table._with(unit=unit)
    report = Referee(scene_now(state)).check_report()
    gone = report["units"][scene.units[u].id]
    assert gone["models"] == 0 and gone["coherent"] and gone["coherency_breaks"] == []
    others = [s.id for k, s in enumerate(scene.units) if k != u]
    assert all(report["units"][i]["models"] > 0 for i in others)
