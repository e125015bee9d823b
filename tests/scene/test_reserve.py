"""Units in reserve in a scene file: `reserve: true` and models without `at`; off the table until
set up; refused where it does not fit (an `at` in reserve, a ruleset without deployment), and
described by the schema the same way."""

from __future__ import annotations

import jsonschema
import pytest
import yaml

from battlefield.errors import InputError
from battlefield.scene.load import load_scene_text
from battlefield.scene.schema import schema

STATS = "stats: {move: 5, health: 1, save: 4}, weapons: [{name: Sword}]"


def text(ruleset: str = "aos4", reserve: str = "reserve: true,", models: str = "{base: 32}",
         stats: str = STATS) -> str:
    return f"""ruleset: {ruleset}
board: {{width: 60, depth: 44}}
units:
- {{id: red-a, side: red, {stats}, models: [{{base: 32, at: [10, 3]}}]}}
- {{id: red-b, side: red, {reserve} {stats}, models: [{models}, {{base: 32}}]}}
"""


def test_a_unit_in_reserve_is_off_the_table():
    scene = load_scene_text(text())
    assert scene.units[1].reserve and not scene.units[0].reserve
    t = scene.table()
    assert list(t.unit) == [0, -1, -1]
    assert len(t.unit_models[1]) == 0


@pytest.mark.parametrize("written, message", [
    (text(models="{base: 32, at: [20, 3]}"), "a unit in reserve is not set up yet"),
    (text(reserve="reserve: yes please,"), "is not true or false"),
    (text(reserve=""), "missing key 'at'"),
    (text("skirmish", stats="stats: {}"), "skirmish has no deployment phase"),
])
def test_what_the_loader_refuses(written, message):
    with pytest.raises(InputError) as info:
        load_scene_text(written, "s.yaml")
    assert message in str(info.value) and info.value.line is not None


def test_the_schema_describes_it_as_the_loader_reads_it():
    v = jsonschema.Draft202012Validator(schema("scene"))
    assert not list(v.iter_errors(yaml.safe_load(text())))
    assert list(v.iter_errors(yaml.safe_load(text(models="{base: 32, at: [20, 3]}"))))
    assert list(v.iter_errors(yaml.safe_load(text(reserve=""))))
    skirmish = yaml.safe_load(text("skirmish", stats="stats: {}"))
    assert list(v.iter_errors(skirmish))


@pytest.mark.parametrize("command", [["measure", "S", "red-a", "red-b"],
                                     ["measure", "S", "red-a", "red-b/2"],
                                     ["odds", "S", "--attack", "red-b", "red-a"]])
def test_measuring_a_unit_in_reserve_says_it_is_not_on_the_table(tmp_path, capsys, command):
    from battlefield.cli.main import main

    path = tmp_path / "s.yaml"
    path.write_text(text())
    assert main([str(path) if c == "S" else c for c in command]) == 2
    assert "red-b is in reserve" in capsys.readouterr().err


def test_pictures_draw_only_what_is_set_up():
    scene = load_scene_text(text())
    shown = scene.set_up()
    assert [len(u.models) for u in shown.units] == [1, 0]
    from battlefield.page.svg import Picture

    assert Picture(scene).scene.units[1].models == []
