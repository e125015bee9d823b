"""Where the computer player sets its units up in the deployment phase: each unit in reserve as
a compact block (rules/deploy.py lays it out as the import does), wholly within its territory
and more than 9" from the enemy's, as close to the middle of the board as there is room - melee
units first, so that they stand in front and the shooters behind them; a regiment's units one
after another when one is being deployed. Every place is checked by the engine before it is
taken (the player offers a few per unit)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import islice

import numpy as np
import shapely

from battlefield.geometry.bases import footprint
from battlefield.rules.actions import Action
from battlefield.rules.aos4 import deployment, faction_terrain
from battlefield.rules.aos4.data import book
from battlefield.rules.deploy import spots
from battlefield.rules.state import State

TRIES = 4            # places offered per unit, nearest the middle first


def _shoots(state: State, u: int) -> bool:
    return any(w.get("range") for w in state.scene.units[u].weapons)


def deploy_actions(state: State) -> Iterator[Action]:
    """The acting side's deploy actions, in the order it would like them: its faction
    terrain first while it has some waiting (at the back of its territory)."""
    side = state.clock["acting"]
    if faction_terrain.step(state):
        for piece in faction_terrain.waiting(state, side):
            for x, y in islice(faction_terrain.spots(state, piece), TRIES):
                yield Action(faction_terrain.TERRAIN, options=(
                    ("at", ((round(x, 4), round(y, 4)),)), ("terrain", piece.id)))
        return
    mine = deployment.reserves(state, side, state.clock["regiment"])
    zone_pts = state.scene.deployment.get(side)
    if not mine or not zone_pts:
        return
    scene, t = state.scene, state.table
    zone = shapely.Polygon(zone_pts).buffer(-1e-6)
    foes = [shapely.Polygon(p) for s, p in scene.deployment.items() if s != side]
    enemy = shapely.union_all(foes) if foes else None
    centre = shapely.Point(scene.width / 2, scene.depth / 2)
    facing = math.degrees(math.atan2(centre.y - zone.centroid.y, centre.x - zone.centroid.x))
    placed = [footprint(int(t.shape[m]), t.a[m], t.b[m], t.x[m], t.y[m], t.facing[m], 32)
              for m in np.nonzero(t.on_table)[0]]
    blocked = [t.layout.polygons[k] for k, p in enumerate(t.layout.pieces)
               if p.kind == "impassable"]
    edges = [t.layout.polygons[k].boundary for k, p in enumerate(t.layout.pieces)
             if p.kind not in ("area", "impassable") and p.height > book(state).climb_free]
    gap = book(state).core.deployment.enemy_territory
    for u in sorted(mine, key=lambda w: _shoots(state, w)):        # melee units in front
        spec = scene.units[u]
        bases = [m.base for m in spec.models]
        each = bases if len({(b.shape, b.a, b.b) for b in bases}) > 1 else None
        for pos in islice(spots(zone, enemy, gap, bases[0], len(bases), facing, placed,
                                blocked, edges, centre, each), TRIES):
            yield Action(deployment.DEPLOY, unit=spec.id, facing=facing,
                         options=(("at", tuple((round(x, 4), round(y, 4)) for x, y in pos)),))
