"""Abilities that return slain models (activated.py with allocation.place_returned, Rally's way
of setting a returned model up): pinned on real warscroll texts (checked against the
catalogues); a returned model stands where it fell when it may, else beside a standing model."""

from __future__ import annotations

from collections import deque

from battlefield.rules.actions import Action
from battlefield.rules.aos4 import abilities_play, effects

from ._one_ability import declared_in, one_ability_scene
from .test_effects import _in_data

ABILITIES = {
    "Skeleton Legion": ("End of Any Turn", None, "You can return D3 slain models to this unit."),
    "The Thinning Veil": ("End of Any Turn", None, "If this unit is in combat, you can return D3 "
                          "slain models to this unit."),
    "Elathain's Lurelight": ("End of Any Turn", None, "Roll a D3. On a 2+, return a number of "
                             "slain models to this unit equal to the roll."),
}


def declared(name: str, slain: int, dice=()):
    text = one_ability_scene(name, ABILITIES[name], [(10 + 1.4 * k, 10) for k in range(4)],
                             [(30, 30)], health=1)
    action = Action("ability", "red", options=(("ability", name),))
    state = declared_in(text, action)
    first = state.scene.model_offsets()[0]
    state.slay(0, [first + 1 + k for k in range(slain)])
    state.dice.fixed = deque(dice)
    return state, action


def test_read_and_played_whole():
    for name, (timing, declare, effect) in ABILITIES.items():
        a = {"name": name, "kind": "activated", "timing": timing, "declare": declare,
             "effect": effect}
        assert abilities_play.played(a) is not None, name
    r = effects.read({"name": "x", "kind": "activated", "timing": "End of Any Turn",
                      "declare": None, "effect": ABILITIES["Elathain's Lurelight"][2]})
    assert r is not None and list(r.effects) == [
        {"return": "ROLL", "who": {"unit": "self"},
         "on": {"roll": "D3", "dice": 1, "at_least": 2}}]


def test_d3_slain_models_return_where_they_fell():
    state, action = declared("Skeleton Legion", slain=3, dice=[2])
    x0 = state.table.x.copy()
    assert state.check(action) == []
    events = state.apply(action)
    assert events[1] == {"type": "returned", "unit": "red", "ability": "Skeleton Legion",
                         "models": ["red/2", "red/3"]}
    assert len(state.models_of(0)) == 3 and (state.table.x == x0).all()
    assert not state.dice.fixed


def test_as_many_as_the_roll_and_no_more_than_were_slain():
    state, action = declared("Elathain's Lurelight", slain=1, dice=[3])
    state.apply(action)
    assert len(state.models_of(0)) == 4
    state, action = declared("Elathain's Lurelight", slain=2, dice=[1])
    state.apply(action)
    assert len(state.models_of(0)) == 2


def test_only_if_this_unit_is_in_combat():
    state, action = declared("The Thinning Veil", slain=2)
    assert state.apply(action)[1]["effect"] == "no effect: its condition does not hold"
    assert len(state.models_of(0)) == 2


def test_the_computer_returns_models_only_when_some_are_slain():
    state, action = declared("Skeleton Legion", slain=0)
    assert action not in abilities_play.offers(state)
    state, action = declared("Skeleton Legion", slain=1)
    assert action in abilities_play.offers(state)


def test_every_quoted_text_is_in_the_data(bsdata):
    raw, text = _in_data(bsdata)
    for name, (_, _, effect) in ABILITIES.items():
        xml = name.replace("'", "&apos;")
        assert f'name="{xml}"' in raw or f'name="{name}"' in raw, name
        assert " ".join(effect.split()) in text, name
