"""A ruleset's own unit and model keys (ruleset.yaml `unit_keys:` / `model_keys:`): the scene
loader allows them, checks their YAML type, keeps them as written, and a position writes them
back; the package reports a bad value at its key path and line through Scene.error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import battlefield.rulesets as rulesets
import battlefield.scene.load as load
from battlefield.errors import InputError
from battlefield.paths import ruleset_dir

KEYS = """
unit_keys:
  traits: {type: list, description: "the unit's traits, e.g. [fearsome]"}
  order: {type: any, description: "a standing order: hold, or {charge: UNIT}"}
model_keys:
  rank: {type: number, description: "the model's rank in the unit"}
"""

SCENE = """ruleset: toy
board: {width: 24, depth: 24}
units:
- id: red-1
  side: red
  traits: [fearsome, stubborn]
  order: {charge: blue-1}
  models:
  - {base: 32, at: [4, 4], rank: 2}
- id: blue-1
  side: blue
  order: hold
  models:
  - {base: 32, at: [20, 20]}
"""


@pytest.fixture
def toy(tmp_path, monkeypatch):
    folder = tmp_path / "toy"
    folder.mkdir()
    text = (ruleset_dir("aos4") / "ruleset.yaml").read_text(encoding="utf-8")
    text = text.replace("id: aos4", "id: toy").replace("\ndemo:", "\n_demo:")
    text = "\n".join(line for line in text.splitlines() if not line.startswith("_demo:"))
    own, models = KEYS.split("model_keys:")           # beside aos4's own unit keys
    text = text.replace("\nunit_keys:\n", own.rstrip() + "\n", 1)
    text = text.replace("\nmodel_keys:\n", "\nmodel_keys:" + models, 1)   # beside aos4's own
    (folder / "ruleset.yaml").write_text(text, encoding="utf-8")
    real_dir, real_names = rulesets.ruleset_dir, load.ruleset_names
    monkeypatch.setattr(rulesets, "ruleset_dir",
                        lambda name: folder if name == "toy" else real_dir(name))
    monkeypatch.setattr(load, "ruleset_names", lambda: [*real_names(), "toy"])
    rulesets.load_ruleset.cache_clear()
    yield folder
    rulesets.load_ruleset.cache_clear()
    shutil.rmtree(folder)


def test_extra_keys_are_kept_as_written(toy: Path):
    scene = load.load_scene_text(SCENE, "toy.yaml")
    red, blue = scene.units
    assert red.extra == {"traits": ["fearsome", "stubborn"], "order": {"charge": "blue-1"}}
    assert blue.extra == {"order": "hold"}
    assert red.models[0].extra == {"rank": 2} and blue.models[0].extra == {}
    assert red.path == ("units", 0) and blue.path == ("units", 1)


def test_a_wrong_type_names_the_key_its_line_and_the_description(toy: Path):
    bad = SCENE.replace("traits: [fearsome, stubborn]", "traits: fearsome")
    with pytest.raises(InputError) as err:
        load.load_scene_text(bad, "toy.yaml")
    assert str(err.value) == ("toy.yaml:6: units[0].traits: must be a list, not 'fearsome' "
                              "(expected the unit's traits, e.g. [fearsome])")


def test_keys_of_other_rulesets_stay_unknown(toy: Path):
    with pytest.raises(InputError, match="unknown key 'traits'"):
        load.load_scene_text(SCENE.replace("ruleset: toy", "ruleset: aos4")
                             .replace("  order: {charge: blue-1}\n", "")
                             .replace("  order: hold\n", "")
                             .replace(", rank: 2", ""), "aos4.yaml")


def test_scene_error_points_at_a_key_path_and_its_line(toy: Path):
    scene = load.load_scene_text(SCENE, "toy.yaml")
    err = scene.error((*scene.units[0].path, "order", "charge"), "no unit 'blue-1' to charge",
                      "an enemy unit's id")
    assert str(err) == ("toy.yaml:7: units[0].order.charge: no unit 'blue-1' to charge "
                        "(expected an enemy unit's id)")
    # a path below any written key takes the nearest line above it
    assert scene.error((*scene.units[1].path, "order", "x"), "m").line == 12


# --- keys every unit may have that a ruleset does not play (ruleset.yaml unplayed_unit_keys) ---
BLOCKS_UNIT = """ruleset: blocks
board: {width: 48, depth: 48}
units:
- id: red-1
  side: red
  type: infantry
  stats: {move: 6, dice: 4}
  WEAPONS
  models:
  - {at: [10, 10], facing: 90}
"""


@pytest.mark.parametrize(("ruleset", "key", "value"), [
    ("blocks", "weapons", "[{name: Spear, range: 1}]"),
    ("blocks", "spells", "[{id: fire}]"),
    ("skirmish", "weapons", "[{name: Bow, range: 18}]"),
    ("openwg", "prayers", "[{id: hymn}]"),
    ("warband", "spells", "[{id: fire}]"),
])
def test_a_key_the_ruleset_does_not_play_is_refused_at_its_line(ruleset, key, value):
    text = BLOCKS_UNIT.replace("ruleset: blocks", f"ruleset: {ruleset}").replace(
        "WEAPONS", f"{key}: {value}")
    if ruleset != "blocks":
        text = text.replace("  type: infantry\n", "").replace("{at: [10, 10], facing: 90}",
                                                             "{base: 32, at: [10, 10]}")
    with pytest.raises(InputError) as err:
        load.load_scene_text(text, "scene.yaml")
    line = text.splitlines().index(f"  {key}: {value}") + 1
    assert str(err.value).startswith(f"scene.yaml:{line}: units[0].{key}: {ruleset} does not "
                                     f"play '{key}'")


def test_the_schema_does_not_offer_a_key_the_ruleset_does_not_play():
    from battlefield.scene.schema import schema

    blocks = schema("scene", "blocks")["$defs"]["unit-blocks"]["properties"]
    aos4 = schema("scene", "aos4")["$defs"]["unit-aos4"]["properties"]
    assert "weapons" not in blocks and "traits" in blocks
    assert {"weapons", "spells", "prayers"} <= set(aos4)


# --- a ruleset's own objective keys (ruleset.yaml objective_keys; skirmish's `home:`) ---------
SKIRMISH_MAP = """ruleset: RULESET
board: {width: 36, depth: 36}
terrain: []
objectives:
  - {id: home-red, at: [18, 4], home: red}
  - {id: field, at: [18, 18], home: null, controlled_by: blue}
"""


def test_an_objective_key_is_kept_and_written_back_byte_for_byte():
    from battlefield.scene.mapfile import map_yaml, scene_yaml

    scene = load.load_scene_text(SKIRMISH_MAP.replace("RULESET", "skirmish"), "m.yaml")
    home, field = scene.objectives
    assert home.extra == {"home": "red"} and field.extra == {}      # null: as if left out
    assert scene.tie_side(home) == "red" and scene.tie_side(field) is None
    text = scene_yaml(scene)
    assert "  - {id: home-red, at: [18, 4], home: red}" in text
    assert "  - {id: field, at: [18, 18], controlled_by: blue}" in text
    assert scene_yaml(load.load_scene_text(text, "m.yaml")) == text
    assert "home: red" in map_yaml(scene)


def test_an_objective_key_another_ruleset_does_not_declare_is_refused():
    with pytest.raises(InputError) as err:
        load.load_scene_text(SKIRMISH_MAP.replace("RULESET", "aos4"), "m.yaml")
    assert str(err.value).startswith("m.yaml:5: objectives[0].home: unknown key 'home'")


def test_a_tie_goes_to_the_side_the_declared_key_names():
    from battlefield.rulings import Referee

    text = SKIRMISH_MAP.replace("RULESET", "skirmish")
    scene = load.load_scene_text(text, "m.yaml")
    assert Referee(scene).objective(0).controlled_by == "red"       # 0-0: its home side
    plain = load.load_scene_text(text.replace(", home: red", ""), "m.yaml")
    assert Referee(plain).objective(0).controlled_by is None


def test_tie_to_must_name_a_declared_text_objective_key(toy: Path):
    path = toy / "ruleset.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    sticky: true\n", "    sticky: true\n    tie_to: home\n"),
                    encoding="utf-8")
    rulesets.load_ruleset.cache_clear()
    with pytest.raises(InputError, match=r"geometry\.objectives\.tie_to: unknown value 'home'"):
        rulesets.load_ruleset("toy")
