"""`battlefield schema`: the JSON Schema of scene and map files, written from the loader's own
key lists. Every bundled map and scene validates; the loader and the schema agree on the
bad-input corpus's structural cases (unknown keys, wrong types, missing keys); a ruleset's own
unit and model keys are in its schema."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml

import battlefield.rulesets as rulesets
from battlefield.cli.main import main
from battlefield.errors import InputError
from battlefield.paths import maps_dir, ruleset_dir, ruleset_names
from battlefield.scene.load import load_scene
from battlefield.scene.schema import schema
from battlefield.yamlsource import format_path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "bad_inputs"
EXPECTED = yaml.safe_load((CORPUS / "expected.yaml").read_text("utf-8"))
# The loader's messages about the shape of a file - keys, types, required keys, allowed values
# and bounds - as opposed to the table (off the board, overlapping, crossing, duplicate ids),
# references to other files, YAML syntax and numbers JSON cannot write (inf, nan, 1e400).
STRUCTURAL = re.compile(r"unknown key|missing key|must be a (?!finite)|needs at least|unknown "
                        r"value|unknown base size|unknown oval|an oval base needs|unknown terrain "
                        r"kind|contains '/'|counted from 1|: is -?[\d.]+ \(expected (more|at)")
VALIDATORS: dict = {}


def _validator(kind: str = "scene", ruleset: str | None = None):
    if (kind, ruleset) not in VALIDATORS:
        VALIDATORS[kind, ruleset] = jsonschema.Draft202012Validator(schema(kind, ruleset))
    return VALIDATORS[kind, ruleset]


@pytest.mark.parametrize("kind", ["scene", "map"])
@pytest.mark.parametrize("ruleset", [None, *ruleset_names()])
def test_is_a_draft_2020_12_schema_with_every_key_described(kind, ruleset):
    s = schema(kind, ruleset)
    jsonschema.Draft202012Validator.check_schema(s)
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    described = 0
    for obj in [s, *s["$defs"].values()]:
        for name, prop in obj.get("properties", {}).items():
            assert prop.get("description"), f"{name} has no description"
            described += 1
    assert described > (40 if kind == "scene" else 15)


def _bundled() -> list[Path]:
    return sorted(maps_dir().glob("*.yaml"))


@pytest.mark.parametrize("path", _bundled(), ids=lambda p: p.name)
def test_every_bundled_map_and_scene_validates(path: Path):
    data = yaml.safe_load(path.read_text("utf-8"))
    scene = load_scene(path)
    assert list(_validator().iter_errors(data)) == []
    if scene.ruleset.id in ruleset_names():
        assert list(_validator("scene", scene.ruleset.id).iter_errors(data)) == []
    if not data.get("units"):
        assert list(_validator("map").iter_errors(data)) == []
    else:
        assert list(_validator("map").iter_errors(data)), "a map schema refuses units"


def test_the_good_scene_validates():
    good = yaml.safe_load((Path(__file__).parent / "good.yaml").read_text("utf-8"))
    assert list(_validator().iter_errors(good)) == []


def _structural() -> list[str]:
    """The corpus's structural cases in files PyYAML reads as data (not a YAML-level fault,
    not a fault in another file the scene names)."""
    out = []
    for name, want in EXPECTED.items():
        if not STRUCTURAL.search(want["message"]) or "file" in want:
            continue
        try:
            yaml.safe_load((CORPUS / name).read_text("utf-8"))
        except yaml.YAMLError:
            continue
        out.append(name)
    return sorted(out)


def test_the_structural_cases_are_many():
    assert len(_structural()) >= 35


@pytest.mark.parametrize("name", _structural())
def test_loader_and_schema_agree_on_the_bad_input_corpus(name, monkeypatch):
    monkeypatch.chdir(ROOT)
    with pytest.raises(InputError) as err:
        load_scene(CORPUS / name)
    data = yaml.safe_load((CORPUS / name).read_text("utf-8"))
    named = data.get("ruleset") if isinstance(data, dict) else None
    for ruleset in {None, named if named in ruleset_names() else None}:
        errors = list(_validator("scene", ruleset).iter_errors(data))
        assert errors, f"the schema takes {name}, the loader says: {err.value}"
        paths = {format_path(tuple(e.absolute_path)) for e in errors}
        where = err.value.path
        # the same key, or the mapping that holds the unknown or missing key
        assert any(where == p or where.startswith(p) for p in paths), (where, paths)


def test_the_schema_refuses_what_the_loader_refuses_and_takes_what_it_takes():
    base = yaml.safe_load((Path(__file__).parent / "good.yaml").read_text("utf-8"))
    v = _validator()
    for key, bad in (("facing", "north"), ("z", -1), ("height", 0), ("base", 33),
                     ("base", [61, 35]), ("base", {"oval": [60, 35], "round": 32}),
                     ("speed", 3)):
        data = json.loads(json.dumps(base))
        data["units"][0]["models"][0][key] = bad
        assert list(v.iter_errors(data)), (key, bad)
    data = json.loads(json.dumps(base))
    data["units"][0]["models"][0]["base"] = {"oval": [90, 52]}
    data["units"][0]["keywords"] = ["HERO"]
    assert list(v.iter_errors(data)) == []


KEYS = """
unit_keys:
  traits: {type: list, description: "the unit's traits, e.g. [fearsome]"}
model_keys:
  rank: {type: number, description: "the model's rank in the unit"}
"""


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """aos4 under another name, with a unit key and a model key of its own."""
    folder = tmp_path / "toy"
    folder.mkdir()
    text = (ruleset_dir("aos4") / "ruleset.yaml").read_text(encoding="utf-8")
    text = text.replace("id: aos4", "id: toy")
    text = "\n".join(line for line in text.splitlines() if not line.startswith("demo:"))
    own, models = KEYS.split("model_keys:")           # beside aos4's own unit keys
    text = text.replace("\nunit_keys:\n", own.rstrip() + "\n", 1)
    text = text.replace("\nmodel_keys:\n", "\nmodel_keys:" + models, 1)   # beside aos4's own
    (folder / "ruleset.yaml").write_text(text, encoding="utf-8")
    real_dir = rulesets.ruleset_dir
    monkeypatch.setattr(rulesets, "ruleset_dir",
                        lambda name: folder if name == "toy" else real_dir(name))
    rulesets.load_ruleset.cache_clear()
    yield folder
    rulesets.load_ruleset.cache_clear()
    shutil.rmtree(folder)


def test_a_rulesets_own_keys_are_in_its_schema(toy):
    s = schema("scene", "toy")
    unit, model = s["$defs"]["unit-toy"], s["$defs"]["model-toy"]
    assert unit["properties"]["traits"] == {"type": "array",
                                            "description": "the unit's traits, e.g. [fearsome]"}
    assert model["properties"]["rank"]["type"] == "number"
    v = jsonschema.Draft202012Validator(s)
    scene = {"ruleset": "toy", "board": {"width": 24, "depth": 24}, "units": [
        {"id": "a", "side": "red", "traits": ["fearsome"],
         "models": [{"base": 32, "at": [4, 4], "rank": 2}]}]}
    assert list(v.iter_errors(scene)) == []
    scene["units"][0]["traits"] = "fearsome"
    assert [e.message for e in v.iter_errors(scene)] == ["'fearsome' is not of type 'array'"]
    assert "traits" not in schema("scene", "aos4")["$defs"]["unit-aos4"]["properties"]


def test_the_command_prints_the_schema(capsys):
    assert main(["schema", "map"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert "units" not in s["properties"] and s["properties"]["terrain"]["description"]
    assert main(["schema", "--ruleset", "nope"]) == 2
    assert "unknown ruleset 'nope'" in capsys.readouterr().err
