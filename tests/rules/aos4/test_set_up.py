"""Abilities that set a unit up again (rules/aos4/set_up.py), and the conditions an effect
states that the engine decides as it plays it (activated.conditions_hold): pinned on real
warscroll texts (checked against the catalogues), declared with the places the player gives,
checked like a deploy's and against the distance the text asks."""

from __future__ import annotations

import pytest

from battlefield.rules.actions import Action
from battlefield.rules.aos4 import abilities_play, activated, effects
from battlefield.rules.aos4.player import Aos4Player

from ._one_ability import declared_in, one_ability_scene
from .test_effects import _in_data

# (name, timing, declare, effect) as the data has them
ABILITIES = {
    "Shadow Leap": ("Your Movement Phase", None, "Remove this unit from the battlefield and set "
                    "it up again on the battlefield more than 9\" from all enemy units."),
    "Nimbus of Power": ("Once Per Turn (Army), Your Movement Phase", None, "If this unit is not "
                        "in combat, remove it from the battlefield and set it up again on the "
                        "battlefield more than 9\" from all enemy units."),
    "Coven Guard": ("Once Per Turn (Army), Any Combat Phase", None, "If this unit did not charge "
                    "this turn, add 1 to wound rolls for this unit's attacks for the rest of the "
                    "turn."),
    "Steady Aim": ("Once Per Turn (Army), Your Shooting Phase", None, "If this unit has not "
                   "used a MOVE ability this turn and was not set up this turn, add 1 to hit "
                   "rolls for this unit's shooting attacks for the rest of the turn."),
}
FAR = [[40.0, 30.0], [41.4, 30.0]]          # far from blue (at y 11.4 and 40 across)


def scene(name: str, blue_at: float = 11.4) -> str:
    return one_ability_scene(name, ABILITIES[name], [(10, 10), (11.4, 10)],
                             [(10, blue_at), (11.4, blue_at)])


def declared(name: str, at=None, blue_at: float = 11.4, dice=()):
    options = (("ability", name),) + ((("at", tuple(map(tuple, at))),) if at else ())
    action = Action("ability", "red", options=options)
    return declared_in(scene(name, blue_at), action, dice), action


def test_read_and_played_whole():
    for name, (timing, declare, effect) in ABILITIES.items():
        a = {"name": name, "kind": "activated", "timing": timing, "declare": declare,
             "effect": effect}
        assert abilities_play.played(a) is not None, name
    r = effects.read({"name": "Nimbus of Power", "kind": "activated",
                      "timing": ABILITIES["Nimbus of Power"][0], "declare": None,
                      "effect": ABILITIES["Nimbus of Power"][2]})
    assert r is not None and list(r.effects) == [
        {"set_up": {"away": 9}, "who": {"unit": "self"}, "if": [{"in_combat": False}]}]


def test_set_up_again_where_the_player_says():
    state, action = declared("Shadow Leap", FAR, blue_at=30.0)
    assert state.check(action) == []
    events = state.apply(action)
    assert events[1] == {"type": "set-up", "unit": "red", "ability": "Shadow Leap",
                         "models": ["red/1", "red/2"], "at": FAR}
    m = state.models_of(0)
    assert [[float(state.table.x[i]), float(state.table.y[i])] for i in m] == FAR
    assert "set-up" in state.units[0].flags


@pytest.mark.parametrize("at, code", [
    (None, "no_places"),
    ([[40.0, 30.0]], "places"),
    ([[10.0, 20.0], [11.4, 20.0]], "too_close"),          # 7.34" from blue: more than 9" asked
    ([[40.0, 30.0], [50.0, 30.0]], "coherency"),
    ([[10.0, 11.4], [11.4, 11.4]], "overlap"),            # on blue's models
])
def test_the_places_are_checked(at, code):
    state, action = declared("Shadow Leap", at)
    got = [v.code for v in state.check(action)]
    assert got and (got[0] == code or code == "overlap" and got[0] != "too_close"), got
    before = state.table.x.copy()
    if got:
        assert (state.table.x == before).all()


def test_more_than_the_distance_the_text_asks():
    # 9.04" base to base from blue (1.26" bases 10.3" apart): far enough; 8.84": not
    state, action = declared("Shadow Leap", [[10.0, 21.7], [11.4, 21.7]])
    assert state.check(action) == []
    state, action = declared("Shadow Leap", [[10.0, 21.5], [11.4, 21.5]])
    assert [v.code for v in state.check(action)] == ["too_close"]


def test_a_condition_of_the_effect_is_decided_when_it_is_played():
    # red is in combat with blue: Nimbus of Power does nothing, and asks for no places
    state, action = declared("Nimbus of Power")
    assert state.check(action) == []
    events = state.apply(action)
    assert events[1]["effect"] == "no effect: its condition does not hold"
    # out of combat it sets the unit up
    state, action = declared("Nimbus of Power", FAR, blue_at=30.0)
    assert state.check(action) == []
    assert state.apply(action)[1]["type"] == "set-up"


def test_a_modifier_if_this_unit_did_not_charge():
    state, action = declared("Coven Guard")
    assert state.check(action) == []
    state.apply(action)
    assert state.units[0].counters.get("buff_wound") == 1
    state, action = declared("Coven Guard")
    state.units[0].flags.add("charged")
    state.apply(action)
    assert "buff_wound" not in state.units[0].counters


@pytest.mark.parametrize("flag, buff", [(None, 1), ("moved", None), ("charged", None),
                                        ("set-up", None)])
def test_if_this_unit_has_not_used_a_move_ability_and_was_not_set_up(flag, buff):
    state, action = declared("Steady Aim", blue_at=30.0)
    if flag:
        state.units[0].flags.add(flag)
    assert state.check(action) == []
    state.apply(action)
    assert state.units[0].counters.get("buff_hit_ranged") == buff


def test_the_computer_sets_it_up_where_the_check_allows():
    state, _ = declared("Shadow Leap", blue_at=30.0)
    offered = [a for a in abilities_play.offers(state) if a.option("ability") == "Shadow Leap"]
    assert len(offered) == 1 and state.check(offered[0]) == []
    assert Aos4Player().choose(state) is not None
    state.apply(offered[0])
    t = state.table
    red, blue = state.models_of(0), state.models_of(1)
    assert t.distances(red, blue).min() > 9


def test_a_set_up_in_the_deployment_phase_is_not_played():
    r = effects.read({"name": "Independent Operative", "kind": "activated",
                      "timing": "Once Per Battle (Army), Deployment Phase", "declare": None,
                      "effect": "Remove this unit from the battlefield and set it up again on "
                                "the battlefield more than 9\" from all enemy units."})
    assert r is not None and not activated.playable(r)


def test_every_quoted_text_is_in_the_data(bsdata):
    raw, text = _in_data(bsdata)
    for name, (_, _, effect) in ABILITIES.items():
        assert f'name="{name}"' in raw, name
        assert " ".join(effect.split()) in text, name
