"""A list too big for its territory imports whole: the units that find no room are written in
reserve (`reserve: true`, models without a place) and set up in the deployment phase; the
import's regiments go into the scene as the unit key `regiment`; what is written validates, and
a unit whose place the loader would refuse goes into reserve instead of stopping the import."""

from __future__ import annotations

import copy
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
import shapely

from battlefield.army.writer import Army, checked_scene, place_army, settled, write_scene
from battlefield.cli.main import main
from battlefield.rules import registry
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene

from .conftest import DATA

NS = "{http://www.battlescribe.net/schema/catalogueSchema}"
ROSTER_NS = "{http://www.battlescribe.net/schema/rosterSchema}"


def big_list(tmp_path: Path, units: int = 60) -> Path:
    """gloomspite-gitz.ros with its regiments copied until the list has `units` units (the
    first regiment's three and the second's two, faction terrain among them, again and again)."""
    tree = ET.parse(DATA / "lists" / "gloomspite-gitz.ros")
    root = tree.getroot()
    ns = root.tag[:-len("roster")]
    outer = next(f for f in root.iter(ns + "forces") if f.find(ns + "force") is not None
                 and f.find(ns + "force").get("name") == "Regiment")
    regiments = list(outer)
    count = sum(1 for f in regiments for s in f.iter(ns + "selection")
                if s.get("type") == "unit")
    k = 0
    while count < units:
        extra = copy.deepcopy(regiments[k % len(regiments)])
        sel = [s for s in extra.iter(ns + "selection") if s.get("type") == "unit"]
        outer.append(extra)
        count += len(sel)
        k += 1
    out = tmp_path / "big.ros"
    tree.write(out, xml_declaration=True, encoding="utf-8")
    return out


@pytest.mark.parametrize("deploy", [True, False])
def test_a_60_unit_list_imports_whole_with_the_overflow_in_reserve(bsdata, tmp_path, capsys,
                                                                  deploy):
    roster = big_list(tmp_path)
    out = tmp_path / "big.yaml"
    args = ["army", "import", str(roster), "-o", str(out), "--catalogues", str(bsdata)]
    assert main(args + (["--deploy"] if deploy else [])) == 0, capsys.readouterr().err
    said = capsys.readouterr().out
    scene = load_scene(out)
    reserve = [u for u in scene.units if u.reserve]
    placed = [u for u in scene.units if not u.reserve]
    # The roster's units less its faction terrain (a piece each): all in the scene.
    pieces = [p for p in (*scene.terrain, *scene.reserve_terrain) if "loonshrine" in p.id]
    assert len(scene.units) + len(pieces) >= 60
    # Faction terrain: set up with --deploy; else waiting in reserve for Deploy Faction Terrain.
    assert pieces and all(p.side == "red" and p.reserve is not deploy for p in pieces)
    assert reserve and placed, "the territory holds some units, not all"
    assert f"{len(reserve)} in reserve" in said
    red = shapely.Polygon(scene.deployment["red"]).buffer(1e-6)
    for u in placed:
        assert all(m.placed and red.contains(shapely.Point(m.x, m.y)) for m in u.models)
    for u in reserve:
        assert not any(m.placed for m in u.models)
    text = out.read_text()
    assert "reserve: true" in text
    checked_scene(text, str(out))              # as validate reads it (one side: no battle)
    # Every unit keeps its regiment: 12 regiments of 5 units, numbered in the list's order.
    regiments = {u.extra.get("regiment") for u in scene.units}
    assert {"red-regiment-1", "red-regiment-24"} <= regiments


def test_the_import_s_regiments_and_a_game_that_starts_in_deployment(bsdata, tmp_path, capsys):
    """Two lists, one --into the other: a battle whose units are partly in reserve begins with
    the deployment phase."""
    red = tmp_path / "red.yaml"
    both = tmp_path / "both.yaml"
    assert main(["army", "import", str(big_list(tmp_path, 30)), "-o", str(red),
                 "--catalogues", str(bsdata), "--deploy"]) == 0
    assert main(["army", "import", str(DATA / "lists" / "sylvaneth.ros"), "-o", str(both),
                 "--catalogues", str(bsdata), "--deploy", "--side", "blue", "--into",
                 str(red)]) == 0
    capsys.readouterr()
    scene = load_scene(both)
    state = Game(registry.find("aos4"), scene).new_state()
    assert state.phase == "deployment" and state.acting_side == "red"
    assert "deploy" in state.available()


def test_reserve_leaves_every_unit_to_the_deployment_phase(bsdata, tmp_path, capsys):
    """--reserve: no unit set up (the faction terrain waits too); the battle of two such lists
    begins with deployment, red first, and the computer deploys every unit of both sides the
    rules allow before round 1's first turn. --reserve with --deploy is a usage error."""
    red = tmp_path / "red.yaml"
    both = tmp_path / "both.yaml"
    assert main(["army", "import", str(DATA / "lists" / "gloomspite-gitz.ros"), "-o", str(red),
                 "--catalogues", str(bsdata), "--reserve"]) == 0
    assert "all in reserve" in capsys.readouterr().out
    assert main(["army", "import", str(DATA / "lists" / "sylvaneth.ros"), "-o", str(both),
                 "--catalogues", str(bsdata), "--reserve", "--side", "blue", "--into",
                 str(red)]) == 0
    capsys.readouterr()
    scene = load_scene(both)
    assert scene.units and all(u.reserve and not any(m.placed for m in u.models)
                               for u in scene.units)
    assert {u.side for u in scene.units} == {"red", "blue"}
    assert all(p.reserve for p in scene.reserve_terrain) and scene.reserve_terrain
    state = Game(registry.find("aos4"), scene).new_state()
    assert state.phase == "deployment" and state.acting_side == "red"
    from battlefield.rules.battle import player_for

    players = {s: player_for("aos4", seed=3) for s in ("red", "blue")}
    for _ in range(400):
        if state.phase != "deployment":
            break
        action = players[state.acting_side].choose(state)
        assert state.check(action) == [], action
        state.apply(action)
    assert state.phase != "deployment" and state.round == 1
    deployed = [u for u in range(len(scene.units)) if not state.in_reserve(u)]
    assert len(deployed) >= len(scene.units) // 2
    with pytest.raises(SystemExit) as exc:
        main(["army", "import", str(DATA / "lists" / "sylvaneth.ros"), "-o", str(both),
              "--reserve", "--deploy"])
    assert exc.value.code == 2
    assert "not allowed with" in capsys.readouterr().err


def test_a_unit_the_loader_refuses_where_it_stands_goes_into_reserve(tmp_path):
    """A unit set up over a model the scene already has (as a written scene battlefield then
    refused, issue 33's Sylvaneth list): settled() puts it in reserve and says so."""
    into = tmp_path / "into.yaml"
    into.write_text("ruleset: aos4\nmap: aos4\nunits: []\n")
    army = Army("two", templates=[
        {"id": "a", "name": "A", "stats": {"move": 5, "health": 1, "save": 4},
         "weapons": [{"name": "Sword"}], "models": 2, "base": 32},
        {"id": "b", "name": "B", "stats": {"move": 5, "health": 1, "save": 4},
         "weapons": [{"name": "Sword"}], "models": 1, "base": 32}],
        bases=[[32, 32], [32]], models=[[{}, {}], [{}]])
    got = place_army(army, tmp_path / "s.yaml", "red", str(into), deploy=True)
    a, b = got.scene["units"]
    b["models"][0]["at"] = list(a["models"][0]["at"])        # b stands on a: refused
    from battlefield.army import writer
    got.text = writer._dumped(got.header, got.scene)
    write_scene(got, tmp_path / "s.yaml", "red", True)
    scene = load_scene(tmp_path / "s.yaml")
    assert [u.id for u in scene.units if u.reserve] == ["red-b"]
    assert any("red-b" in w and "reserve" in w for w in got.warnings)
    assert settled(got, "again").units[1].reserve


def test_faction_terrain_keeps_3_inches_from_the_objective_marker(tmp_path):
    """N20, seed: "more than 3" from all objectives": measured to the 40 mm marker's edge,
    3 + 0.787402" from its centre. Red's territory is a strip y 0..4.2; objectives stand at
    y 7.5 every 8" from x 2. A 100 mm piece (radius 1.968504") in the strip's corner, centred
    (2, 2), is 7.5 - 2 - 1.9685 = 3.53" from the centre of the objective at (2, 7.5): more than
    3" from its centre, but only 2.74" from its marker - refused; the piece goes elsewhere."""
    from battlefield.army import writer
    from battlefield.scene.load import load_scene_text

    objectives = ", ".join(f"{{id: o{k}, at: [{2 + 8 * k}, 7.5]}}" for k in range(8))
    scene = load_scene_text(f"""ruleset: aos4
board: {{width: 60, depth: 44}}
objectives: [{objectives}]
deployment:
  red: [[0, 0], [60, 0], [60, 4.2], [0, 4.2]]
  blue: [[0, 40], [60, 40], [60, 44], [0, 44]]
""")
    warnings: list[str] = []
    piece = writer._place_terrain({"id": "shrine", "name": "Shrine"}, [100], "red",
                                  scene.deployment["red"], scene, [], set(), warnings)
    assert piece is not None, warnings
    foot = shapely.Polygon(piece["outline"])
    marker = 40 / 25.4 / 2
    for o in scene.objectives:
        assert foot.distance(shapely.Point(o.x, o.y)) > 3 + marker, (o.id, piece["outline"][:2])
