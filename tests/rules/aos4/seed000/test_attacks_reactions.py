"""Seed 000's charge and the commands around attacks: charge, counter-charge, forward-to-victory,
covering-fire, all-out-attack, all-out-defence; and combat range at different heights. Each
scene small, the dice fixed, the answer worked out by hand in the comment, quoting the seed."""

from __future__ import annotations

import pytest

from .test_attacks import attempt, codes, scene, unit

BOW = "{name: Bow, range: 20, attacks: 1, hit: 4, wound: 2}"
SWORD = "{name: Sword, attacks: 1, hit: 2, wound: 2}"


# --- covering fire -------------------------------------------------------------------------
# red (Bow range 20, hit 4+) in blue's shooting phase; blue-near at gap 6.740, blue-far 10.740.
# Seed: "pick the closest enemy unit (to that unit) that can be picked as the target of
# shooting attacks"; "You must subtract 1 from the hit rolls for those attacks".
#  - blue-far: REFUSED (not_closest).
#  - hit die 4: 4 - 1 = 3 < 4 misses; die 5: 5 - 1 = 4 hits.
#  - Covering Fire is an ATTACK ability: blue is asked for All-out Defence ("Reaction:
#    Opponent declared an ATTACK ability"); with it, save die 3 + 1 = 4 against Save 4 saves.
#  - with "command": "all-out-attack": red would use two commands this phase ("each unit can
#    only use 1 command in each phase"): REFUSED.
CF = scene(unit("red", "red", [(10, 10)], BOW, save=4)
           + unit("blue-near", "blue", [(10, 18)], SWORD, save=4)
           + unit("blue-far", "blue", [(22, 10)], SWORD, save=4))


@pytest.mark.parametrize("die, hits", [(4, 0), (5, 1)])
def test_covering_fire_shoots_the_closest_at_minus_one(die, hits):
    _, (r,) = attempt(CF, {"type": "covering-fire", "unit": "red", "target": "blue-near",
                           "all_out_defence": False}, dice=[die, 6, 1])
    (e,) = [e for e in r["events"] if e["type"] == "attack"]
    assert e["hits"] == hits
    _, (r,) = attempt(CF, {"type": "covering-fire", "unit": "red", "target": "blue-far"})
    assert codes(r) == ["not_closest"]


@pytest.mark.parametrize("defend, unsaved", [(True, 0), (False, 1)])
def test_covering_fire_is_answered_with_all_out_defence(defend, unsaved):
    _, (r,) = attempt(CF, {"type": "covering-fire", "unit": "red", "target": "blue-near",
                           "all_out_defence": defend}, dice=[5, 6, 3])
    asked = [e for e in r["events"] if e["type"] == "decision"]
    assert [d["kind"] for d in asked] == ["all-out-defence"] and asked[0]["side"] == "blue"
    (e,) = [e for e in r["events"] if e["type"] == "attack"]
    assert e["unsaved"] == unsaved


def test_covering_fire_with_all_out_attack_is_two_commands_of_one_unit():
    _, (r,) = attempt(CF, {"type": "covering-fire", "unit": "red", "target": "blue-near",
                           "command": "all-out-attack"})
    assert codes(r) == ["unit_command_used"]


# --- All-out Attack and All-out Defence on a shot -------------------------------------------
# red shoots blue-near (hit 4+). Seed (All-out Attack): "Add 1 to hit rolls for attacks made as
# part of that ATTACK ability": die 3 + 1 = 4 hits, 1 CP. Given twice: "each command can only be
# used 1 time by each army in each phase" -> REFUSED, nothing paid.
@pytest.mark.parametrize("command, hits", [(None, 0), ("all-out-attack", 1)])
def test_all_out_attack_adds_one_to_hit(command, hits):
    state, (r,) = attempt(CF, {"type": "shoot", "unit": "red", "target": "blue-near",
                               "all_out_defence": False,
                               **({"command": command} if command else {})}, dice=[3, 6, 1])
    (e,) = [e for e in r["events"] if e["type"] == "attack"]
    assert e["hits"] == hits
    paid = [e for e in r["events"] if e["type"] == "command"]
    assert len(paid) == (1 if command else 0)


def test_the_same_command_twice_in_one_action_is_refused():
    _, (r,) = attempt(CF, {"type": "shoot", "unit": "red", "target": "blue-near",
                           "command": ["all-out-attack", "all-out-attack"]})
    assert codes(r) == ["command_twice"]


# Seed (All-out Defence): "Add 1 to save rolls for that unit in this phase". Save 4, die 3:
# 3 + 1 = 4 saves with it, fails without.
@pytest.mark.parametrize("defend, unsaved", [(True, 0), (False, 1)])
def test_all_out_defence_adds_one_to_save(defend, unsaved):
    _, (r,) = attempt(CF, {"type": "shoot", "unit": "red", "target": "blue-near",
                           "all_out_defence": defend}, dice=[6, 6, 3])
    (e,) = [e for e in r["events"] if e["type"] == "attack"]
    assert e["unsaved"] == unsaved


# --- charge, counter-charge, forward to victory ---------------------------------------------
# charge.yaml of the audit. red from (9.240157,10) to (16.240157,10): a 7.000" path ending
# 0.500" from blue. Seed: "make a charge roll of 2D6 ... move a distance up to the value of the
# charge roll ... must end that move within 1/2" of a visible enemy unit".
#  - dice 3,4 = 7: charged; 3,3 = 6: fails, red stays.
#  - to (16.23,10): 0.510" from blue -> REFUSED (charge_not_reached).
#  - red2 names blue2 (15" away) but ends 0.500" from blue3 (visible): it has charged (N6: the
#    seed's Charge names no target); ending 0.510" from blue3 -> REFUSED.
CHARGE = scene(unit("red", "red", [(9.240157, 10)], SWORD, save=4)
               + unit("blue", "blue", [(18, 10)], save=4)
               + unit("red2", "red", [(7, 30)], SWORD, save=4)
               + unit("blue2", "blue", [(25, 30)], save=4)
               + unit("blue3", "blue", [(14, 30)], save=4))


@pytest.mark.parametrize("who, target, end, dice, outcome", [
    ("red", "blue", (16.240157, 10), [3, 4], "charged"),
    ("red", "blue", (16.240157, 10), [3, 3], "charge-failed"),
    ("red", "blue", (16.23, 10), [6, 6], "charge_not_reached"),
    ("red2", "blue2", (12.240157, 30), [3, 4], "charged"),
    ("red2", "blue2", (12.23, 30), [6, 6], "charge_not_reached"),
])
def test_charge_ends_within_half_an_inch_of_any_visible_enemy(who, target, end, dice, outcome):
    _, (r,) = attempt(CHARGE, {"type": "charge", "unit": who, "target": target,
                               "path": [list(end)]}, dice=dice)
    if outcome.startswith("charge_"):
        assert codes(r) == [outcome]
    else:
        assert outcome in [e["type"] for e in r["events"]]


# Seed (Forward to Victory): "You can re-roll the charge roll" (1 CP, paid only when used):
# needs 7, dice 3,3 then 4,4 -> re-rolled to 8: charged, 1 CP; dice 3,4 -> no re-roll, no CP.
@pytest.mark.parametrize("dice, paid", [([3, 3, 4, 4], 1), ([3, 4], 0)])
def test_forward_to_victory_rerolls_a_short_charge(dice, paid):
    _, (r,) = attempt(CHARGE, {"type": "charge", "unit": "red", "target": "blue",
                               "path": [[16.240157, 10]], "command": "forward-to-victory"},
                      dice=dice)
    kinds = [e["type"] for e in r["events"]]
    assert "charged" in kinds
    assert len([e for e in r["events"] if e["type"] == "command"]) == paid


# Seed (Counter-charge, enemy charge phase, 2 CP): "That unit can use a CHARGE ability as if it
# were your charge phase": red2 in blue's charge phase ends 0.500" from blue3 -> charged, 2 CP.
def test_counter_charge_is_a_charge_in_the_enemy_charge_phase():
    state, (r,) = attempt(CHARGE, {"type": "counter-charge", "unit": "red2", "target": "blue3",
                                   "path": [[12.240157, 30]]}, dice=[3, 4])
    assert r["legal"], r["violations"]
    assert state.clock["active"] == "blue"
    (paid,) = [e for e in r["events"] if e["type"] == "command"]
    assert paid["cost"] == 2 and "charged" in [e["type"] for e in r["events"]]


# --- combat range at different heights ------------------------------------------------------
# blue stands on a 2"-tall block; red on the ground. Combat range: "3" horizontally from its base
# and any distance vertically": at a horizontal edge gap of 3.000 red is in combat and fights;
# at 3.010 it is not (and did not charge): REFUSED.
HEIGHT = """ruleset: aos4
board: {width: 60, depth: 44}
terrain:
  - {id: block, outline: [[18, 8], [20.3, 8], [20.3, 12], [18, 12]], height: 2, kind: solid}
units:
"""


@pytest.mark.parametrize("x, legal", [(15.370157, True), (15.36, False)])
def test_a_fight_reaches_a_unit_above_within_three_inches_horizontally(x, legal):
    text = (HEIGHT + unit("red", "red", [(x, 10)], SWORD, save=4)
            + unit("blue", "blue", [(19.63, 10)], save=4))
    _, results = attempt(text, {"type": "fight", "unit": "red", "target": "blue",
                                "all_out_defence": False}, dice=[6, 6, 6])
    (r,) = results
    assert r["legal"] == legal, r["violations"]
    if not legal:
        assert codes(r) == ["not_in_combat"]
