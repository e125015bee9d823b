"""The scene as a game stands: every model where it is now, the objectives as held now (what
the window, `render` of a position and the pages draw)."""

from __future__ import annotations

from dataclasses import replace

from battlefield.geometry.table import Table
from battlefield.rules.state import State
from battlefield.rulings import Referee
from battlefield.scene.model import Scene


def referee(state: State, table: Table | None = None, scene: Scene | None = None) -> Referee:
    """The rulings of the game as it stands (or of its models at the places in `table`; of
    `scene`, a scene_now of it), counting the combats through terrain it has made
    (Ruleset.combat_links): what "in combat" means wherever a game asks it."""
    return Referee(scene if scene is not None else state.scene,
                   table if table is not None else (None if scene is not None else state.table),
                   state.rules.combat_links(state))


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


def scene_referee(scene: Scene) -> Referee:
    """The rulings of a scene file: of a whole position (its `state:` as `try --out` writes
    it) with the combats through terrain its game made counted, as the game counts them."""
    # here, not at the top: the registry imports every ruleset
    from battlefield.rules.position import is_position
    from battlefield.rules.registry import find
    from battlefield.rules.state import Game

    start = scene.extra.get("state")
    ruleset = find(scene.ruleset.id)
    if not isinstance(start, dict) or not is_position(start) or ruleset is None \
            or not scene.units:
        return Referee(scene)
    return Referee(scene, links=ruleset.combat_links(Game(ruleset, scene).new_state()))
