"""Cover and obscuring (battlefield/rules/aos4/cover.py): the fast answers - remembered per
table, lines tried against the whole piece before the combat range is cut out - are the
straightforward rule's answers on many placements of the demo battle's units."""

from __future__ import annotations

import numpy as np
import shapely

from battlefield.rules.aos4 import cover
from battlefield.rules.deploy import battle_scene
from battlefield.scene.load import load_scene_text


def reference_behind(table, attackers, targets, piece, combat_range) -> bool:
    """The rule as written: every line from an attacker's point to a target's point crosses
    what is left of the piece outside the attackers' combat range."""
    poly = table.layout.polygons[piece]
    near = shapely.union_all([table.footprint(int(m), 32) for m in attackers]).buffer(
        combat_range)
    part = poly.difference(near)
    if part.is_empty:
        return False
    a, b = cover._points(table, attackers), cover._points(table, targets)
    lines = shapely.linestrings(np.stack([np.repeat(a, len(b), axis=0),
                                          np.tile(b, (len(a), 1))], axis=1))
    return bool(shapely.intersects(lines, part).all())


def reference_covering(table, attackers, targets, trait, combat_range) -> list[int]:
    return [k for k in table.layout.pieces_with(trait)
            if all(table.layout.polygons[k].covers(table.footprint(int(m), 64))
                   for m in targets)
            or reference_behind(table, attackers, targets, k, combat_range)]


def test_fast_cover_answers_are_the_rules_answers():
    text, name = battle_scene("aos4", None)
    scene = load_scene_text(text, name)
    start = scene.table()
    rng = np.random.default_rng(7)
    n = len(start)
    seen = {"cover": 0, "obscuring": 0}
    for _ in range(6):
        # Every unit shifted by a random step: new lines of sight across the terrain.
        shift = rng.uniform(-8, 8, size=(start.n_units, 2))[start.unit]
        x = np.clip(start.x + shift[:, 0], 1, start.width - 1)
        y = np.clip(start.y + shift[:, 1], 1, start.depth - 1)
        t = start.moved(np.arange(n), x, y)
        for u, v in rng.permutation([(u, v) for u in range(t.n_units) for v in range(t.n_units)
                                     if scene.units[u].side != scene.units[v].side])[:8]:
            a, b = t.unit_models[u], t.unit_models[v]
            for trait in ("cover", "obscuring"):
                want = reference_covering(t, a, b, trait, 3.0)
                assert cover.pieces_covering(t, a, b, trait, 3.0) == want
                seen[trait] += bool(want)
    assert seen["cover"] and seen["obscuring"]      # both kinds of answer were tried
