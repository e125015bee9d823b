"""The bundled maps and demo scenes in maps/: they load, the boards are laid out as documented,
and the demo armies are coherent and show the situations they are meant to show."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import shapely
from shapely import affinity

from battlefield.scene.load import load_scene

MAPS = Path(__file__).resolve().parents[2] / "maps"
FILES = sorted(MAPS.glob("*.yaml"))
DEMOS = ["demo.yaml", "demo-skirmish.yaml"]


def _load(name: str):
    return load_scene(MAPS / name)


def test_the_bundled_files_are_there():
    names = {p.name for p in FILES}
    assert {"aos4.yaml", "skirmish.yaml", "open.yaml", *DEMOS} <= names


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_bundled_file_loads(path):
    scene = load_scene(path)
    assert scene.width > 0 and scene.depth > 0


# --- maps ------------------------------------------------------------------------------------
def test_aos4_map_layout():
    s = _load("aos4.yaml")
    assert s.ruleset.id == "aos4"
    assert (s.width, s.depth) == (60, 44)
    assert len(s.objectives) == 5
    assert set(s.deployment) == {"red", "blue"}
    assert shapely.Polygon(s.deployment["red"]).bounds == (0, 0, 60, 12)
    assert shapely.Polygon(s.deployment["blue"]).bounds == (0, 32, 60, 44)
    assert 10 <= len(s.terrain) <= 12
    kinds = {p.kind for p in s.terrain}
    assert kinds == {"solid", "obstacle", "area", "obscuring", "impassable", "place-of-power"}
    assert any(p.kind == "obscuring" and 4 <= p.height <= 6 for p in s.terrain)
    assert any(p.kind == "solid" and 2 <= p.height <= 3 for p in s.terrain)
    assert all(1 <= p.height <= 1.5 for p in s.terrain if p.kind == "obstacle")
    assert [p.kind for p in s.terrain].count("impassable") == 1
    assert [p.kind for p in s.terrain].count("place-of-power") == 1


def test_aos4_map_is_point_symmetric_and_keeps_objectives_clear():
    s = _load("aos4.yaml")
    cx, cy = s.width / 2, s.depth / 2
    polys = [p.polygon for p in s.terrain]
    for p in s.terrain:
        turned = affinity.rotate(p.polygon, 180, origin=(cx, cy))
        assert min(turned.symmetric_difference(q).area for q in polys) < 1e-6, p.id
        for o in s.objectives:
            assert p.polygon.distance(shapely.Point(o.x, o.y)) >= 3, (p.id, o.id)
    points = {(o.x, o.y) for o in s.objectives}
    assert (cx, cy) in points
    assert {(s.width - x, s.depth - y) for x, y in points} == points


def test_open_map_is_aos4_without_terrain():
    s, a = _load("open.yaml"), _load("aos4.yaml")
    assert s.terrain == ()
    assert (s.width, s.depth) == (a.width, a.depth)
    assert [(o.id, o.x, o.y) for o in s.objectives] == [(o.id, o.x, o.y) for o in a.objectives]
    assert s.deployment == a.deployment


def test_skirmish_map_layout():
    s = _load("skirmish.yaml")
    assert s.ruleset.id == "skirmish"
    assert (s.width, s.depth) == (36, 36)
    assert shapely.Polygon(s.deployment["red"]).bounds == (0, 0, 36, 8)
    assert shapely.Polygon(s.deployment["blue"]).bounds == (0, 28, 36, 36)
    homes = {s.tie_side(o): o for o in s.objectives if s.tie_side(o)}
    assert set(homes) == {"red", "blue"}
    assert shapely.Polygon(s.deployment["red"]).contains(shapely.Point(homes["red"].x,
                                                                       homes["red"].y))
    assert shapely.Polygon(s.deployment["blue"]).contains(shapely.Point(homes["blue"].x,
                                                                        homes["blue"].y))
    field = [o for o in s.objectives if not s.tie_side(o)]
    assert len(field) == 3 and all(8 < o.y < 28 for o in field)
    assert 6 <= len(s.terrain) <= 8
    heights = {p.height for p in s.terrain}
    assert 2.5 in heights and 5 in heights
    for p in s.terrain:
        for o in s.objectives:
            assert p.polygon.distance(shapely.Point(o.x, o.y)) >= 2, (p.id, o.id)


# --- demo scenes -----------------------------------------------------------------------------
def _coherent(table, models: np.ndarray, distance: float, needed: int) -> bool:
    if len(models) == 1:
        return True
    d = table.distances(models, models)
    np.fill_diagonal(d, np.inf)
    near = d <= distance
    if near.sum(axis=1).min() < needed:
        return False
    seen, stack = {0}, [0]
    while stack:
        for j in np.nonzero(near[stack.pop()])[0]:
            if int(j) not in seen:
                seen.add(int(j))
                stack.append(int(j))
    return len(seen) == len(models)


@pytest.mark.parametrize("name, distance", [("demo.yaml", 0.5), ("demo-skirmish.yaml", 1.0)])
def test_demo_units_are_coherent(name, distance):
    s = _load(name)
    t = s.table()
    for ui, u in enumerate(s.units):
        models = t.unit_models[ui]
        needed = 2 if name == "demo.yaml" and len(models) >= 7 else 1
        assert _coherent(t, models, distance, needed), u.id
        # and kept at least 0.05" apart (no touching bases that could round into overlaps)
        if len(models) > 1:
            d = t.distances(models, models)
            np.fill_diagonal(d, np.inf)
            assert d.min() >= 0.05, u.id


def test_demo_armies():
    s = _load("demo.yaml")
    assert s.ruleset.id == "aos4"
    assert len(s.terrain) == len(_load("aos4.yaml").terrain)
    assert set(s.sides) == {"red", "blue"}
    for side in ("red", "blue"):
        units = [u for u in s.units if u.side == side]
        assert 5 <= len(units) <= 6
        assert all(u.id.startswith(side + "-") for u in units)
        for u in units:
            st = u.stats
            assert 4 <= st["move"] <= 12 and 1 <= st["health"] <= 12, u.id
            assert 3 <= st["save"] <= 6 and 1 <= st["control"] <= 5, u.id
            assert u.weapons, u.id
        assert any(u.has("HERO") and u.has("WIZARD") and u.stats.get("power") == 1
                   for u in units)
        assert any(u.has("HERO") and u.has("PRIEST") for u in units)
        assert any(5 <= len(u.models) <= 10 and any("range" in w for w in u.weapons)
                   for u in units)
        assert any(len(u.models) == 10 and all(m.base.mm == (32.0,) for m in u.models)
                   and not any("range" in w for w in u.weapons) for u in units)
        monsters = [u for u in units if u.has("MONSTER") and u.has("FLY")]
        assert monsters and all(len(u.models) == 1 for u in monsters)
        assert monsters[0].models[0].base.mm in ((105.0, 70.0), (120.0, 92.0), (100.0,))


def test_demo_situations():
    from battlefield.geometry.sight import SightModel

    s = _load("demo.yaml")
    t = s.table()
    sight = SightModel(t)
    u = s.unit_index
    # in combat: within 3" and visible to each other
    assert t.unit_distance(u("red-blades"), u("blue-drake")) <= 3
    assert sight.unit_sees(u("red-blades"), u("blue-drake"))
    # hidden behind the tall obscuring ruins
    assert not sight.unit_sees(u("red-archers"), u("blue-seer"))
    assert not sight.unit_sees(u("blue-wardens"), u("red-pyromancer"))
    # on top of the hill: every archer wholly on hill-s, standing at its height
    hill = next(p for p in s.terrain if p.id == "hill-s")
    for m in t.unit_models[u("red-archers")]:
        assert hill.polygon.contains(t.footprint(int(m), 64))
        assert t.z[m] == pytest.approx(hill.height)
    # the south-east objective is contested by both sides (base edge within 3" of the marker)
    obj = next(o for o in s.objectives if o.id == "south-east")
    marker = shapely.Point(obj.x, obj.y).buffer(40 / 25.4 / 2)
    sides = {s.units[int(t.unit[m])].side for m in range(len(t))
             if marker.distance(t.footprint(m, 64)) <= 3}
    assert sides == {"red", "blue"}


def test_demo_units_deploy_in_their_zones_except_the_forward_ones():
    s = _load("demo.yaml")
    t = s.table()
    forward = {"red-blades", "blue-drake"}
    for ui, unit in enumerate(s.units):
        zone = shapely.Polygon(s.deployment[unit.side])
        inside = all(zone.contains(t.footprint(int(m), 64)) for m in t.unit_models[ui])
        assert inside != (unit.id in forward), unit.id


def test_skirmish_demo_forces():
    s = _load("demo-skirmish.yaml")
    assert s.ruleset.id == "skirmish"
    need = {"speed", "range", "strike", "hit", "damage", "toughness", "cover", "initiative",
            "melee"}
    for side in ("red", "blue"):
        units = [u for u in s.units if u.side == side]
        assert 4 <= len(units) <= 5
        kinds = {k for u in units for k in u.keywords}
        assert {"INFANTRY", "ARCHERS", "HEAVY", "ARTILLERY"} <= kinds
        for unit in units:
            assert need <= set(unit.stats), unit.id
            assert 0 <= unit.leader < len(unit.models)
            assert all(m.base.mm in ((25.0,), (32.0,)) for m in unit.models), unit.id
