"""The scene as a game stands: every model where it is now, the objectives as held now (what
the window, `render` of a position and the pages draw)."""

from __future__ import annotations

from dataclasses import replace

from battlefield.rules.state import State
from battlefield.scene.model import Scene


def scene_now(state: State, keep_slain: bool = False) -> Scene:
    """The scene with every model where it stands now (slain ones gone unless keep_slain, which
    keeps 'UNIT/N' names pointing at the same models) and objectives as held now."""
    scene, t = state.scene, state.table
    off = scene.model_offsets()
    units = []
    for u, spec in enumerate(scene.units):
        models, leader = [], 0
        for k, m in enumerate(spec.models):
            i = off[u] + k
            if t.unit[i] < 0 and not keep_slain:
                continue
            if k == spec.leader:
                leader = len(models)
            models.append(m if t.unit[i] < 0 and not m.placed else      # still in reserve
                          replace(m, x=float(t.x[i]), y=float(t.y[i]), z=float(t.z[i]),
                                  facing=float(t.facing[i]), placed=True))
        units.append(replace(spec, models=models, leader=leader))
    objectives = [replace(o, controlled_by=state.objectives.get(o.id, o.controlled_by))
                  for o in scene.objectives]
    return replace(scene, units=units, objectives=objectives)
