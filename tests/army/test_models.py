"""Each imported model carries what the roster gives it: per weapon, as many models of the unit
carry it as the roster's model selections say (read here from the roster XML with the standard
library), a champion its role and its rule as the game system words it, and the scene says it
(`weapons:` on the models that do not carry every weapon)."""

from __future__ import annotations

import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from battlefield.cli.main import main
from battlefield.scene.load import load_scene

from .conftest import DATA

ROS = "{http://www.battlescribe.net/schema/rosterSchema}"
WEAPONS = ("Melee Weapon", "Ranged Weapon")
ROSTERS = ["stormcast.ros", "fyreslayers.rosz", "fyreslayers-19.ros", "lists/sylvaneth.ros",
           "lists/gloomspite-gitz.ros", "lists/beasts-of-chaos.ros"]


def _root(path: Path) -> ET.Element:
    if path.suffix == ".rosz":
        with zipfile.ZipFile(path) as z:
            return ET.fromstring(z.read(z.namelist()[0]))
    return ET.parse(path).getroot()


def _weapons(sel: ET.Element) -> set[str]:
    return {p.get("name") for p in sel.iter(ROS + "profile") if p.get("typeName") in WEAPONS}


def carried_in_roster(path: Path) -> dict[str, dict[str, int]]:
    """Unit name -> weapon -> how many of its models carry it, as the roster's model
    selections say (a unit without model selections is one model with all its weapons)."""
    out: dict[str, dict[str, int]] = {}
    for unit in _root(path).iter(ROS + "selection"):
        if unit.get("type") != "unit":
            continue
        models = [s for s in unit.iter(ROS + "selection") if s.get("type") == "model"]
        count: dict[str, int] = {}
        for m in models or [unit]:
            for w in _weapons(m):
                count[w] = count.get(w, 0) + int(m.get("number", "1"))
        out[unit.get("name")] = count
    return out


@pytest.mark.parametrize("name", ROSTERS)
def test_each_weapon_is_carried_by_the_models_the_roster_gives_it(name, tmp_path, capsys,
                                                                   bsdata):
    out = tmp_path / "s.yaml"
    assert main(["army", "import", str(DATA / name), "-o", str(out), "--catalogues",
                 str(bsdata)]) == 0
    capsys.readouterr()
    scene = load_scene(out)
    want = carried_in_roster(DATA / name)
    checked = 0
    for unit in scene.units:
        if unit.name not in want:
            continue
        got: dict[str, int] = {}
        for k in range(len(unit.models)):
            for w in {w["name"] for w in unit.model_weapons(k)}:
                got[w] = got.get(w, 0) + 1
        assert got == {w: n for w, n in want[unit.name].items() if w in got}, unit.name
        checked += 1
    assert checked >= 2


def test_the_champion_carries_its_role_and_rule(tmp_path, capsys):
    out = tmp_path / "s.yaml"
    assert main(["army", "import", str(DATA / "stormcast.ros"), "-o", str(out)]) == 0
    capsys.readouterr()
    unit = next(u for u in load_scene(out).units if u.id == "red-liberators")
    roles = [m.extra.get("command") for m in unit.models]
    assert roles[0] == {"Champion": "Add 1 to the Attacks characteristic of weapons used by "
                                    "champions in this unit."}
    assert roles[1:] == [None] * 4
    assert [m.extra.get("weapons") for m in unit.models] == [["Warhammer"]] * 4 + [
        ["Grandhammer"]]
    assert "Champion" not in [a["name"] for a in unit.extra["abilities"]]


def test_models_that_carry_every_weapon_name_none(tmp_path, capsys):
    out = tmp_path / "s.yaml"
    assert main(["army", "import", str(DATA / "stormcast.ros"), "-o", str(out)]) == 0
    capsys.readouterr()
    prosecutors = next(u for u in load_scene(out).units if u.id == "red-prosecutors")
    assert all("weapons" not in m.extra for m in prosecutors.models)
    assert len(prosecutors.model_weapons(0)) == len(prosecutors.weapons) == 2
