"""Each imported model carries what the roster gives it: per weapon, as many models of the unit
carry it as the roster's model selections say (read here from the roster XML with the standard
library), a champion its role and its rule as the game system words it, and the scene says it
(`weapons:` on the models that do not carry every weapon)."""

from __future__ import annotations

import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from battlefield.army.entries import Entry
from battlefield.army.loadout import loadout
from battlefield.army.roster import selection
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


def _unit(models: int, champions: int, bearers: int, *categories: str) -> Entry:
    """A unit selection in New Recruit's shape: one model selection of `models` models holding
    its weapon and the Champion and Standard Bearer upgrades (Command Model), each `number` as
    the list says."""
    def role(name: str, n: int) -> str:
        return (f'<selection name="{name}" type="upgrade" number="{n}"><categories>'
                f'<category name="Command Model"/></categories><profiles><profile name="{name}" '
                f'typeName="Ability (Passive)"><characteristics><characteristic name="Effect">'
                f'{name} rule</characteristic></characteristics></profile></profiles>'
                f'</selection>')
    cats = "".join(f'<category name="{c}"/>' for c in categories)
    return selection(ET.fromstring(
        f'<selection name="Orruks" type="unit" number="1"><categories>{cats}</categories>'
        f'<selections><selection name="Orruk" type="model" number="{models}"><selections>'
        f'<selection name="Choppa" type="upgrade" number="{models}"><profiles>'
        f'<profile name="Choppa" typeName="Melee Weapon"/></profiles></selection>'
        f'{role("Champion", champions)}{role("Standard Bearer", bearers)}'
        f'</selections></selection></selections></selection>'))


# (models, Champion upgrades, Standard Bearer upgrades, the unit's keywords) -> the models that
# carry each role, and the roles capped. New Recruit's all-units export of Bonesplitterz
# (Savage Orruks: 10 models, Champion 10) gave every model the champion's role.
ROLE_CASES = [
    ((10, 1, 1, "CHAMPION", "STANDARD BEARER (1/10)"), {"Champion": 1, "Standard Bearer": 1},
     []),
    ((10, 10, 10, "CHAMPION", "STANDARD BEARER (1/10)"), {"Champion": 1, "Standard Bearer": 1},
     ["Champion", "Standard Bearer"]),
    ((20, 2, 2, "CHAMPION", "STANDARD BEARER (1/10)"), {"Champion": 1, "Standard Bearer": 2},
     ["Champion"]),
    ((5, 5, 0, "CHAMPION"), {"Champion": 1}, ["Champion"]),
    ((5, 2, 0), {"Champion": 2}, []),                   # no keyword for the role: as listed
]


@pytest.mark.parametrize(("shape", "carried", "capped"), ROLE_CASES)
def test_a_unit_command_role_goes_to_no_more_models_than_its_keyword_allows(shape, carried,
                                                                           capped):
    models = shape[0]
    got = loadout(_unit(*shape), models, lambda p: {"name": p.name}, str)
    count: dict[str, int] = {}
    for roles in got.command:
        for role in roles:
            count[role] = count.get(role, 0) + 1
    assert count == carried
    assert [m.split(" role;")[0].rsplit(" the ", 1)[1] for m in got.capped] == capped
    assert all(c == ["Choppa"] for c in got.carried)            # every model keeps its weapon
