"""A Retreat or a Normal Move an ability gives (rules/aos4/ability_moves.py), and "If this unit
is in combat, roll a dice. On a 3+, ..." (a condition of using the ability at all): pinned on
real warscroll texts (checked against the catalogues), declared with the move's path."""

from __future__ import annotations

import pytest

from battlefield.rules.actions import Action
from battlefield.rules.aos4 import abilities_play, effects

from ._one_ability import declared_in, one_ability_scene
from .test_effects import _in_data

ABILITIES = {
    "Fleet of Hoof": ("Once Per Turn (Army), Any Combat Phase", None, "If this unit is in "
                      "combat, roll a dice. On a 3+, this unit can immediately use the 'Retreat' "
                      "ability as if it were your movement phase without any mortal damage being "
                      "inflicted on it."),
    "Ashigaroth's Hunger": ("Once Per Turn (Army), Any Combat Phase", None, "If this unit "
                            "charged this turn, roll a dice. On a 3+, this unit has STRIKE-FIRST "
                            "for the rest of the turn."),
}
AWAY = ((10.0, 10.0), (10.0, 5.5))          # 4.5" down: 4.64" from blue, out of its range


def declared(name: str, path=None, dice=(), blue_at: float = 11.4):
    text = one_ability_scene(name, ABILITIES[name], [(10, 10), (11.4, 10)],
                             [(10, blue_at), (11.4, blue_at)])
    action = Action("ability", "red", path=path, options=(("ability", name),))
    return declared_in(text, action, dice), action


def test_read_whole():
    r = effects.read({"name": "Fleet of Hoof", "kind": "activated",
                      "timing": ABILITIES["Fleet of Hoof"][0], "declare": None,
                      "effect": ABILITIES["Fleet of Hoof"][2]})
    assert r is not None and list(r.conditions) == [{"in_combat": True}]
    assert list(r.effects) == [{"use": "retreat", "who": {"unit": "self"}, "no_mortal": True,
                                "on": {"roll": "D6", "dice": 1, "at_least": 3}}]
    for name, (timing, declare, effect) in ABILITIES.items():
        assert abilities_play.played({"name": name, "kind": "activated", "timing": timing,
                                      "declare": declare, "effect": effect}) is not None


def test_a_retreat_without_mortal_damage_on_a_3_plus():
    state, action = declared("Fleet of Hoof", AWAY, dice=[3])
    assert state.check(action) == []
    events = state.apply(action)
    assert not any(e["type"] == "mortal-damage" for e in events)
    assert state.table.y[state.models_of(0)].tolist() == [5.5, 5.5]
    assert {"moved", "retreated"} <= state.units[0].flags
    assert not state.dice.fixed


def test_on_a_2_it_stays():
    state, action = declared("Fleet of Hoof", AWAY, dice=[2])
    state.apply(action)
    assert state.table.y[state.models_of(0)].tolist() == [10.0, 10.0]
    assert "retreated" not in state.units[0].flags


@pytest.mark.parametrize("path, blue_at, code", [
    (None, 11.4, "no_path"),
    (((10.0, 10.0), (10.0, 9.0)), 11.4, "ends_in_combat_range"),
    (AWAY, 30.0, "not_in_combat"),                # the ability's condition: in combat
])
def test_the_move_is_checked_as_a_retreat(path, blue_at, code):
    state, action = declared("Fleet of Hoof", path, blue_at=blue_at)
    assert [v.code for v in state.check(action)][:1] == [code]


def test_if_this_unit_charged_roll_a_dice():
    state, action = declared("Ashigaroth's Hunger", dice=[3])
    assert [v.code for v in state.check(action)] == ["not_charged"]
    state.units[0].flags.add("charged")
    state.apply(action)
    assert "strike-first" in state.units[0].flags


def test_the_computer_is_not_offered_a_move_it_has_no_path_for():
    state, _ = declared("Fleet of Hoof")
    assert not abilities_play.offers(state)


def test_every_quoted_text_is_in_the_data(bsdata):
    raw, text = _in_data(bsdata)
    for name, (_, _, effect) in ABILITIES.items():
        xml = name.replace("'", "&apos;")
        assert f'name="{xml}"' in raw or f'name="{name}"' in raw, name
        assert " ".join(effect.split()) in text, name
