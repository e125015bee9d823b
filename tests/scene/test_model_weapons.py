"""A model names the weapons it carries (aos4's model key `weapons:`, ExtraKey.names): the loader
keeps them, refuses a name the unit does not have in one line (with the closest name), the
schema describes them and a scene written back keeps them."""

from __future__ import annotations

import jsonschema
import pytest
import yaml

from battlefield.cli.main import main
from battlefield.errors import InputError
from battlefield.scene.load import load_scene_text
from battlefield.scene.mapfile import scene_yaml
from battlefield.scene.schema import schema

CHAMPION = "Add 1 to the Attacks characteristic of weapons used by champions in this unit."
SCENE = f"""ruleset: aos4
board: {{width: 60, depth: 44}}
units:
  - id: liberators
    side: red
    stats: {{move: 5, health: 2, save: 3, control: 1}}
    weapons:
      - {{name: Warhammer, attacks: 2, hit: 3, wound: 3, rend: 1, damage: 1}}
      - {{name: Grandhammer, attacks: 2, hit: 3, wound: 3, rend: 1, damage: 2}}
    models:
      - {{base: 40, at: [10, 10], weapons: [Warhammer], command: {{Champion: "{CHAMPION}"}}}}
      - {{base: 40, at: [12, 10], weapons: [Grandhammer]}}
      - {{base: 40, at: [14, 10]}}
"""


def test_each_model_keeps_the_weapons_it_names():
    unit = load_scene_text(SCENE).units[0]
    assert unit.models[0].extra["weapons"] == ["Warhammer"]
    assert [w["name"] for w in unit.model_weapons(1)] == ["Grandhammer"]
    assert [w["name"] for w in unit.model_weapons(2)] == ["Warhammer", "Grandhammer"]
    assert unit.models[0].extra["command"]["Champion"].startswith("Add 1 to the Attacks")


@pytest.mark.parametrize("named, message", [
    ("[Grandhamer]", "units[0].models[1].weapons[0]: 'Grandhamer' is not one of the unit's "
                     "weapons; did you mean Grandhammer? (expected Warhammer, Grandhammer)"),
    ("[Sword]", "units[0].models[1].weapons[0]: 'Sword' is not one of the unit's weapons "
                "(expected Warhammer, Grandhammer)"),
    ("[Warhammer, Warhammer]", "units[0].models[1].weapons[1]: 'Warhammer' is named twice"),
    ("[{name: Warhammer}]", "units[0].models[1].weapons[0]: must be a weapon's name"),
    ("Warhammer", "units[0].models[1].weapons: must be a list"),
])
def test_a_bad_name_is_one_line_naming_it(named, message):
    text = SCENE.replace("weapons: [Grandhammer]", f"weapons: {named}")
    with pytest.raises(InputError) as err:
        load_scene_text(text, "s.yaml")
    assert message in str(err.value) and "\n" not in str(err.value)
    assert str(err.value).startswith("s.yaml:12: ")


def test_validate_refuses_it_with_exit_2(tmp_path, capsys):
    f = tmp_path / "s.yaml"
    f.write_text(SCENE.replace("weapons: [Grandhammer]", "weapons: [Grandhamer]"))
    assert main(["validate", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "did you mean Grandhammer?" in err


def test_other_rulesets_do_not_take_the_key():
    warband = """ruleset: warband
board: {width: 48, depth: 48}
units:
  - id: a
    side: red
    weapons: [{name: Sword}]
    models: [{base: 25, at: [10, 10], weapons: [Sword]}]
"""
    with pytest.raises(InputError, match="unknown key 'weapons'"):
        load_scene_text(warband, "s.yaml")


def test_the_schema_describes_them():
    s = schema("scene", "aos4")
    model = s["$defs"]["model-aos4"]["properties"]
    assert model["weapons"]["type"] == "array" and "carries" in model["weapons"]["description"]
    assert model["command"]["type"] == "object"
    v = jsonschema.Draft202012Validator(s)
    assert list(v.iter_errors(yaml.safe_load(SCENE))) == []
    bad = yaml.safe_load(SCENE)
    bad["units"][0]["models"][0]["command"] = {"Champion": 1}
    assert list(v.iter_errors(bad))


def test_a_scene_written_back_keeps_them():
    again = load_scene_text(scene_yaml(load_scene_text(SCENE)))
    assert [m.extra.get("weapons") for m in again.units[0].models] == [
        ["Warhammer"], ["Grandhammer"], None]
    assert "Champion" in again.units[0].models[0].extra["command"]
