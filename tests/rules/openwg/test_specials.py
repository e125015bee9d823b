"""Special rules as effects, played with fixed dice: split shooting, a model's own weapon, the
Standfast hold, Throwing Axes and shields at the start of a charge, Frenzy, Empower."""

from __future__ import annotations

import pytest

from battlefield.errors import InputError
from battlefield.rules.openwg import RULESET, attacks
from battlefield.rules.registry import with_ruleset_check

from ._scene import GAP_MELEE, MELEE, R, attempt, load, row, scene, unit

BOW = {"name": "Bow", "type": "ranged", "range": 8, "damage": 1, "precision": 3, "pierce": 0}
STOP = {"type": "stop"}


def test_split_shooting_each_model_at_its_target():
    text = scene(unit("red-1", "red", row(10, 10), weapons=[BOW]),
                 unit("blue-1", "blue", row(6, 16)), unit("blue-2", "blue", row(14, 16)),
                 state={"phase": "ranged"})
    _, results = attempt(text, {"type": "shoot", "unit": "red-1", "weapon": "Bow",
                                "split": {"blue-1": [1], "blue-2": [2, 3]}})
    assert results[0]["legal"], results[0]["violations"]
    shots = [e for e in results[0]["events"] if e["type"] == "shoot"]
    assert [(e["target"], e["attackers"]) for e in shots] == [
        ("blue-1", {"Bow": ["red-1/1"]}), ("blue-2", {"Bow": ["red-1/2", "red-1/3"]})]
    far = scene(unit("red-1", "red", row(10, 10), weapons=[BOW]),
                unit("blue-1", "blue", row(30, 10)), unit("blue-2", "blue", row(10, 16)),
                state={"phase": "ranged"})
    _, results = attempt(far, {"type": "shoot", "unit": "red-1", "weapon": "Bow",
                               "split": {"blue-1": [1], "blue-2": [2, 3]}})
    assert results[0]["violations"][0]["code"] == "no_target_in_range"


def test_a_model_with_its_own_weapon_uses_it_and_the_others_the_units():
    data = unit("red-1", "red", row(10, 10, 2))
    data["models"][0]["weapons"] = [{**MELEE, "name": "Great", "damage": 3}]
    text = scene(data, unit("blue-1", "blue", row(10, 10 + GAP_MELEE, 2)))
    state = _state(text)
    p = attacks.plan(state, 0, 1, "melee")
    assert p.attackers == {"Great": ["red-1/1"], "Blade": ["red-1/2"]}
    assert sorted(g.damage for g in p.groups) == [1, 3]


def test_standfast_holds_for_one_more_armor():
    spear = {"template": "troops", "upgrades": {"standfast": 1}, "models": 10, "health": 1}
    text = scene(unit("red-1", "red", row(5, 5, 10), build=spear),
                 unit("blue-1", "blue", row(5, 40)))
    state, results = attempt(text, {"type": "hold", "unit": "red-1"})
    assert results[0]["legal"] and results[0]["events"][0]["armor"] == 2   # Troops' 1 + 1
    assert attacks.armor(state, 0) == 2


def test_throwing_axes_and_shields_at_the_start_of_a_charge():
    """One Fyreslayer 5" from its target: the axes (precision 3: a 3 hits; a 6 wounds armor 2)
    and the shields' die (a 1 wounds) pool 2 WOUNDS before the charge moves; the axes are
    spent for the battle."""
    specials = [{"effect": "attack_on_charge", "once": "battle",
                 "weapon": {"name": "Throwing Axes", "range": 8, "damage": 1, "precision": 3,
                            "pierce": 0}},
                {"effect": "wounds_nearby", "when": "charge", "within": 8, "dice": 1,
                 "at_most": 1}]
    text = scene(unit("red-1", "red", [(10, 10)], specials=specials),
                 unit("blue-1", "blue", [(10, 10 + 2 * R + 5)]))
    state, results = attempt(text, {"type": "charge", "unit": "red-1", "target": "blue-1",
                                    "path": [[10, 10], [10, 14.5]]}, dice=[3, 6, 1])
    assert results[0]["legal"], results[0]["violations"]
    kinds = [(e["type"], e["wounds"]) for e in results[0]["events"] if "wounds" in e]
    assert kinds == [("charge-attack", 1), ("charge-dice", 1)]
    assert state.units[1].counters["wounds"] == 2 and "axes" in state.units[0].flags


def test_frenzy_fights_twice():
    breakers = {"template": "breakers", "upgrades": {"frenzy": 1}, "models": 3, "health": 4}
    text = scene(unit("red-1", "red", row(10, 10), build=breakers),
                 unit("blue-1", "blue", row(10, 10 + GAP_MELEE)), state={"phase": "melee"})
    fight = {"type": "fight", "unit": "red-1", "target": "blue-1"}
    _, results = attempt(text, fight, STOP, fight, fight)
    assert [r["legal"] for r in results] == [True, True, True, False]
    assert results[-1]["violations"][0]["code"] == "fought_this_round"


def test_empower_rerolls_the_saves_of_the_targets_hits_until_the_next_leadership():
    wizard = [{"effect": "wizard", "spell": "empower", "cast": 6, "range": 12,
               "min_models": 2,
               "grants": {"effect": "reroll", "roll": "armor", "faces": "saves", "when": "any"}}]
    text = scene(unit("red-1", "red", row(10, 10), specials=wizard),
                 unit("blue-1", "blue", row(10, 10 + GAP_MELEE)),
                 state={"phase": "leadership"})
    state, results = attempt(text, {"type": "cast", "unit": "red-1", "spell": "empower",
                                    "target": "red-1"}, dice=[3, 3])
    assert results[0]["legal"] and results[0]["events"][0]["cast"] is True
    p = attacks.plan(state, 0, 1, "melee")
    assert p.groups[0].wound_faces == frozenset({1, 2})        # armor 2: 1s and 2s saved
    _, failed = attempt(text, {"type": "cast", "unit": "red-1", "spell": "empower",
                               "target": "red-1"}, dice=[2, 3])
    assert failed[0]["events"][0]["cast"] is False


def _state(text: str):
    from battlefield.rules.openwg import RULESET
    from battlefield.rules.state import Game

    return Game(RULESET, load(text)).new_state()


def test_a_fight_split_between_two_units_in_combat():
    text = scene(unit("red-1", "red", row(10, 10)),
                 unit("blue-1", "blue", [(10, 10 + GAP_MELEE)]),
                 unit("blue-2", "blue", [(12.4, 10 + GAP_MELEE)]), state={"phase": "melee"})
    _, results = attempt(text, {"type": "fight", "unit": "red-1",
                                "split": {"blue-1": [1], "blue-2": [3]}})
    assert results[0]["legal"], results[0]["violations"]
    fights = [(e["target"], e["attackers"]) for e in results[0]["events"] if e["type"] == "fight"]
    assert fights == [("blue-1", {"Blade": ["red-1/1"]}), ("blue-2", {"Blade": ["red-1/3"]})]
    _, results = attempt(text, {"type": "fight", "unit": "red-1",
                                "split": {"blue-1": [3]}})
    assert results[0]["violations"][0]["code"] == "no_target_in_range"


@pytest.mark.parametrize("weapon, said", [
    ({"name": "Blade", "type": "melee"}, "Blade: the weapon has no range, damage, precision"),
    ({"name": "Blade", "range": 1, "damage": 1, "precision": 3}, "the weapon has no type"),
])
def test_a_weapon_without_what_openwg_needs_is_named(weapon, said):
    """Not a Precision of 0 (a weapon that never hits) or a melee weapon nobody called one."""
    with pytest.raises(InputError, match=said):
        RULESET.check_scene(load(scene(unit("a", "red", row(10, 10), weapons=[weapon]))))


def test_pierce_left_out_is_assumed_and_shown():
    blade = {k: v for k, v in MELEE.items() if k != "pierce"}
    text = scene(unit("a", "red", row(10, 10), weapons=[blade]),
                 unit("b", "blue", row(10, 30)))
    report = with_ruleset_check(load(text), {"units": {}, "pairs": []})
    assert report["units"]["a"]["assumed"] == "Blade: pierce 0"


@pytest.mark.parametrize("weapon", ["Throwing Axes", {"name": "Axes", "range": 8}])
def test_a_specials_weapon_is_checked_when_the_scene_is_read(weapon):
    """attack_on_charge's weapon was read only at a charge (a text: AttributeError there)."""
    special = {"effect": "attack_on_charge", "once": "battle", "weapon": weapon}
    with pytest.raises(InputError, match="specials"):
        RULESET.check_scene(load(scene(unit("a", "red", row(10, 10), specials=[special]))))


@pytest.mark.parametrize("effect", [["armor"], {"armor": 1}, None, 7])
def test_a_special_whose_effect_is_no_name_is_one_line(effect):
    """{effect: [armor]} was a TypeError (an unhashable list looked up among the effects)."""
    with pytest.raises(InputError, match="unknown special"):
        RULESET.check_scene(load(scene(unit("a", "red", row(10, 10),
                                            specials=[{"effect": effect}]))))
