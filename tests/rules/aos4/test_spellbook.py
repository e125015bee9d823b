"""aos4's own unit keys `spells:` and `prayers:`: the scene loader keeps them as written, aos4
reads them (defaults filled in) and refuses a bad one at its key path and line, by every command
alike (registry.checked) and when a battle is set up."""

from __future__ import annotations

import pytest

from battlefield.errors import InputError
from battlefield.rules import registry
from battlefield.rules.aos4 import spellbook
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text
from battlefield.scene.mapfile import scene_yaml

SCENE = """ruleset: aos4
board: {width: 60, depth: 44}
units:
  - id: wizard
    side: red
    stats: {move: 5, health: 5, save: 5, control: 1, power: 1}
    keywords: [HERO, WIZARD]
    spells:
      - SPELL
    models: [{base: 32, at: [10, 22]}]
  - id: foes
    side: blue
    stats: {move: 5, health: 1, save: 4, control: 1}
    models: [{base: 32, at: [20, 22]}]
"""
GOOD = "{id: bolt, casting_value: 7, effect: {mortal: 2}}"


def test_the_loader_keeps_them_as_written_and_aos4_reads_them():
    scene = load_scene_text(SCENE.replace("SPELL", GOOD), "s.yaml")
    wizard = scene.units[0]
    assert wizard.extra["spells"] == [{"id": "bolt", "casting_value": 7,
                                       "effect": {"mortal": 2}}]
    assert spellbook.of(wizard, "spells") == [
        {"id": "bolt", "casting_value": 7, "range": 12.0, "target": "enemy",
         "unlimited": False, "effect": {"mortal": "2"}}]
    assert spellbook.of(wizard, "prayers") == [] and spellbook.of(scene.units[1], "spells") == []


def test_a_scene_with_spells_writes_back_byte_for_byte():
    scene = load_scene_text(SCENE.replace("SPELL", GOOD), "s.yaml")
    once = scene_yaml(scene)
    again = scene_yaml(load_scene_text(once, "s.yaml"))
    assert once == again
    assert "    spells: [{id: bolt, casting_value: 7, effect: {mortal: 2}}]" in once


@pytest.mark.parametrize(("spell", "where", "says"), [
    ("{id: bolt, casting_value: 14, effect: {mortal: 2}}", "spells[0].casting_value",
     "is 14"),
    ("{id: bolt, casting_value: 7, effect: {mortal: 2, heal: 1}}", "spells[0].effect",
     "give exactly one effect"),
    ("{id: bolt, casting_value: 7, effect: {fire: 2}}", "spells[0].effect.fire",
     "unknown key 'fire'"),
    ("{id: bolt, casting_value: 7, target: foe, effect: {mortal: 2}}", "spells[0].target",
     "unknown value 'foe'"),
    ("{id: bolt, effect: {mortal: 2}}", "spells[0]", "missing key 'casting_value'"),
])
def test_a_bad_spell_is_refused_at_its_key_path_and_line(spell, where, says):
    text = SCENE.replace("SPELL", spell)
    scene = load_scene_text(text, "s.yaml")            # the loader checks only its type
    line = text.splitlines().index(f"      - {spell}") + 1
    for check in (lambda: registry.checked(scene), lambda: Game(registry.get("aos4"),
                                                                scene).new_state()):
        with pytest.raises(InputError) as err:
            check()
        assert str(err.value).startswith(f"s.yaml:{line}: units[0].{where}: {says}")


def test_a_spell_that_is_no_list_is_refused_by_the_loader():
    with pytest.raises(InputError, match=r"units\[0\]\.spells: must be a list"):
        load_scene_text(SCENE.replace("      - SPELL", "      fire"), "s.yaml")
