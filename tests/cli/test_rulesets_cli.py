"""`battlefield rulesets`: what each ruleset answers, from the registry and ruleset.yaml; every
action example in the data is a real action on the ruleset's demo battle."""

from __future__ import annotations

import json

import pytest

from battlefield.cli.main import main
from battlefield.paths import ruleset_names
from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.deploy import battle_scene
from battlefield.rulesets import load_ruleset
from battlefield.scene.load import load_scene_text


def test_lists_every_ruleset_with_what_it_answers(capsys):
    assert main(["rulesets", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sorted(data) == ruleset_names()
    assert data["aos4"]["playable"] and data["aos4"]["odds"] == ["charge", "attack", "move"]
    assert data["skirmish"]["odds"] == ["attack"] and data["skirmish"]["demo"] == "demo-skirmish"
    assert data["openwg"]["playable"] and data["openwg"]["odds"] == ["attack", "morale"]
    assert data["blocks"]["playable"] and data["blocks"]["odds"] == ["attack", "courage"]
    assert data["warband"]["playable"] and data["warband"]["odds"] == ["attack"]
    assert all(data[name]["playable"] and data[name]["actions"]
               for name in registry.playable())


def test_an_unknown_ruleset_is_one_line(capsys):
    assert main(["rulesets", "nope"]) == 2
    err = capsys.readouterr().err
    assert "unknown ruleset 'nope'" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("name", registry.playable())
def test_every_example_is_an_action_on_the_demo_battle(name):
    rs = load_ruleset(name)
    scene = load_scene_text(*battle_scene(name, None))
    ids = {u.id for u in scene.units}
    assert rs.actions, f"{name} lists no actions"
    for doc in rs.actions:
        a = Action.from_dict(doc.example)
        assert a.type == doc.id
        assert a.unit is None or a.unit in ids, (doc.id, a.unit)
        assert all(t in ids for t in a.targets), (doc.id, a.targets)


@pytest.mark.parametrize("name", registry.playable())
def test_the_drag_actions_are_moves(name):
    for doc in load_ruleset(name).actions:
        if doc.drag:
            assert any("path" in f for f in doc.fields), doc.id
        if doc.targeted:
            assert doc.drag and "target" in doc.fields, doc.id


@pytest.mark.parametrize("args", [
    ["demo-warband", "--attack", "red-warlord", "blue-nope"],
    ["demo-openwg", "--attack", "red-nope", "blue-spearhead"],
    ["demo-openwg", "--morale", "red-nope", "--slain", "2"],
    ["demo-blocks", "--attack", "red-spears", "blue-nope"],
    ["demo-blocks", "--courage", "red-nope"],
    ["demo-skirmish", "--attack", "red-nope", "blue-scouts"],
    ["demo", "--attack", "red-archers", "blue-nope"],
])
def test_odds_on_an_unknown_unit_is_one_line_naming_the_units(args, capsys):
    assert main(["odds", *args]) == 2
    err = capsys.readouterr().err
    assert "no unit '" in err and "(units: " in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


WARBAND_NO_CRIT = """ruleset: warband
map: demo-warband
units:
- id: red-a
  side: red
  stats: {move: 5, defense: 4, wounds: 10}
  weapons: [{name: Blade, type: melee, range: 1, attacks: 3, strength: 4, damage: 2}]
  models: [{base: 32, at: [10, 10]}]
"""


@pytest.mark.parametrize("command", [["check"], ["render", "-o", "x.png"], ["validate"],
                                     ["measure", "red-a", "red-a"]])
def test_every_command_refuses_what_the_ruleset_refuses(command, tmp_path, capsys):
    """A weapon without crit is YAML the loader takes but warband cannot play: check and render
    refuse it as odds and try do, at its key and line."""
    scene = tmp_path / "bad.yaml"
    scene.write_text(WARBAND_NO_CRIT, encoding="utf-8")
    name, *rest = command
    args = [name, str(scene), *rest] if name != "render" else [name, str(scene), "-o",
                                                              str(tmp_path / "x.png")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "bad.yaml:7: units[0].weapons[0]: weapon 'Blade' has no crit" in err
    assert "Traceback" not in err
