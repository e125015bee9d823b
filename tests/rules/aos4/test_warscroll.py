"""A scene's own warscroll abilities (aos4's unit key `abilities:`) and unit-command roles (the
model key `command:`): read with every key present, refused in one line at the key's path and
line when they are not what the shape says, and described by the schema."""

from __future__ import annotations

import jsonschema
import pytest
import yaml

from battlefield.errors import InputError
from battlefield.rules.aos4 import warscroll
from battlefield.rules.registry import checked
from battlefield.scene.load import load_scene_text
from battlefield.scene.schema import schema

SCENE = """ruleset: aos4
board: {width: 60, depth: 44}
units:
  - id: red
    side: red
    stats: {move: 5, health: 2, save: 3, control: 1}
    abilities:
      - name: Stalwart Defenders
        kind: passive
        effect: "Add 3 to this unit's control score while it is contesting an objective wholly
          within friendly territory."
      - name: Righteous Avengers
        kind: activated
        timing: "Once Per Turn (Army), Any Combat Phase"
        declare: Pick this unit.
        effect: Add 1 to wound rolls for this unit's attacks this phase.
        keywords: [core]
        once: turn
      - {name: Lightning Tempest, kind: prayer, value: 5, timing: Your Hero Phase,
         effect: "Inflict D3 mortal damage on that unit."}
    models:
      - {base: 40, at: [10, 10], command: {Champion: "Add 1 to the Attacks characteristic."}}
      - {base: 40, at: [12, 10]}
"""


def test_abilities_are_read_with_every_key():
    unit = checked(load_scene_text(SCENE)).units[0]
    got = warscroll.of(unit)
    assert [a["name"] for a in got] == ["Stalwart Defenders", "Righteous Avengers",
                                        "Lightning Tempest"]
    assert got[0] == {"name": "Stalwart Defenders", "kind": "passive", "timing": None,
                      "declare": None, "effect": got[0]["effect"], "keywords": [],
                      "once": None}
    assert got[1]["once"] == "turn" and got[1]["keywords"] == ["CORE"]
    assert got[2]["value"] == 5
    assert warscroll.commands(unit, 0) == {"Champion": "Add 1 to the Attacks characteristic."}
    assert warscroll.commands(unit, 1) == {}


@pytest.mark.parametrize("old, new, message", [
    ("kind: activated", "kind: reaction",
     "units[0].abilities[1].kind: unknown value 'reaction'"),
    ("once: turn", "once: round", "units[0].abilities[1].once: unknown value 'round'"),
    ("        effect: Add 1 to wound rolls for this unit's attacks this phase.\n", "",
     "units[0].abilities[1]: missing key 'effect'"),
    ("keywords: [core]", "keywords: core", "units[0].abilities[1].keywords"),
    ("declare: Pick this unit.", "declare: [x]", "units[0].abilities[1].declare: must be text"),
    ("value: 5", "value: [5]", "units[0].abilities[2].value: must be a whole number or text"),
    ("command: {Champion: \"Add 1 to the Attacks characteristic.\"}", "command: {Champion: 1.5}",
     None),
    ("command: {Champion: \"Add 1 to the Attacks characteristic.\"}", "command: {}",
     "units[0].models[0].command: names no role"),
    ("command: {Champion: \"Add 1 to the Attacks characteristic.\"}",
     "command: {Champion: [a]}", "units[0].models[0].command.Champion: must be text"),
])
def test_a_bad_ability_is_one_line(old, new, message):
    text = SCENE.replace(old, new)
    assert text != SCENE
    if message is None:                      # a number is taken as the rule's text
        checked(load_scene_text(text, "s.yaml"))
        return
    with pytest.raises(InputError) as err:
        checked(load_scene_text(text, "s.yaml"))
    assert message in str(err.value) and "\n" not in str(err.value)
    assert str(err.value).startswith("s.yaml:")


def test_the_schema_describes_the_shape():
    v = jsonschema.Draft202012Validator(schema("scene", "aos4"))
    data = yaml.safe_load(SCENE)
    assert list(v.iter_errors(data)) == []
    data["units"][0]["abilities"][0]["kind"] = "reaction"
    assert list(v.iter_errors(data))
    props = schema("scene", "aos4")["$defs"]["unit-aos4"]["properties"]["abilities"]
    assert set(props["items"]["properties"]) >= {"name", "kind", "timing", "declare", "effect",
                                                 "keywords", "once"}
