"""The warband scenario table: small scenes whose rulings are worked out by hand (the numbers
in each case's comment), played through try's machinery. 25 mm bases, R = 0.492126"."""

from __future__ import annotations

import math

import pytest

from battlefield.rules.warband.initiative import split
from battlefield.rulings import Referee
from battlefield.scene.load import load_scene_text

from ._scene import BLADE, BOW, R, attempt, codes, fighter, message, of_type, piece, scene

# --- engagement across heights: within 1" in 3-D ------------------------------------------------
# A stands on a piece (x 10-20, y 0-5) at (15, 4); B on the ground at (15, 5 + R): the bases are
# 1 - R = 0.5079" apart horizontally and `height` apart vertically.
GAP = 1 - R


@pytest.mark.parametrize("height, engaged", [
    (0.8, True),        # sqrt(0.5079^2 + 0.8^2) = 0.948 <= 1
    (1.5, False),       # sqrt(0.5079^2 + 1.5^2) = 1.584
    (3.0, False),       # 3.043: a fighter on a 3" ledge is not engaged with one below it
])
def test_engagement_is_within_1_inch_in_3d(height, engaged):
    text = scene(fighter("a", "red", 15, 4), fighter("b", "blue", 15, 5 + R),
                 terrain=(piece("ledge", 10, 0, 20, 5, height),))
    report = Referee(load_scene_text(text)).check_report()
    pair = next(p for p in report["pairs"] if p["a"] == "a")
    assert pair["distance"] == pytest.approx(math.hypot(GAP, height), abs=1e-4)
    assert pair["in_combat"] is engaged
    assert report["combat"]["means"].startswith("within 1\" in 3-D")


@pytest.mark.parametrize("gap, engaged", [(0.9, True), (1.0, True), (1.1, False)])
def test_engagement_on_the_ground(gap, engaged):
    text = scene(fighter("a", "red", 10, 10), fighter("b", "blue", 10 + 2 * R + gap, 10))
    pair = Referee(load_scene_text(text)).check_report()["pairs"][0]
    assert pair["in_combat"] is engaged


# --- moving and disengaging ----------------------------------------------------------------------
def engaged_pair(gap: float = 0.5, terrain: tuple = ()) -> str:
    return scene(fighter("red-1", "red", 10, 10), fighter("blue-1", "blue", 10 + 2 * R + gap, 10),
                 terrain=terrain)


@pytest.mark.parametrize("action, gap, terrain, code, text", [
    # engaged (0.84" apart): it may not move
    ({"type": "move", "unit": "red-1", "path": [[10, 10], [8, 10]]}, 0.84, (), "engaged",
     "engaged: 0.84\" from blue-1"),
    # 3.2" is more than disengage's 3"
    ({"type": "disengage", "unit": "red-1", "path": [[10, 10], [6.8, 10]]}, 0.5, (),
     "disengage_too_far", "moves 3.20\", more than 3\""),
    # 0.4" back from 0.5": it ends 0.9" away, not more than 1"
    ({"type": "disengage", "unit": "red-1", "path": [[10, 10], [9.6, 10]]}, 0.5, (),
     "still_engaged", "ends 0.90\" from blue-1"),
    # 2.5" across the ground and 1" up onto a box: 3.5"
    ({"type": "disengage", "unit": "red-1", "path": [[10, 10], [7.5, 10]]}, 0.5,
     (piece("box", 0, 0, 8.9, 22, 1),), "disengage_too_far", "moves 3.50\" (climbing 1.00\")"),
    # 1.5" apart: not engaged, so no disengage
    ({"type": "disengage", "unit": "red-1", "path": [[10, 10], [8, 10]]}, 1.5, (),
     "not_engaged", "is not within 1\" of an enemy"),
])
def test_move_and_disengage_refusals(action, gap, terrain, code, text):
    r = attempt(engaged_pair(gap, terrain), action)[1][0]
    assert codes(r) == [code] and text in message(r)


def test_a_disengage_of_3_inches_ending_clear_is_legal():
    state, (r,) = attempt(engaged_pair(0.5), {"type": "disengage", "unit": "red-1",
                                              "path": [[10, 10], [7.5, 10]]})
    assert r["legal"] and of_type(r, "disengaged")[0]["distance"] == pytest.approx(2.5)


def test_a_move_counts_climbing():
    # 2.5" to the box's edge, 1.5" up, 0.5" on top: 4.5" of a Move of 4
    text = scene(fighter("red-1", "red", 5, 10), fighter("blue-1", "blue", 25, 10),
                 terrain=(piece("box", 7.5, 0, 12, 22, 1.5),))
    _, (r,) = attempt(text, {"type": "move", "unit": "red-1", "path": [[5, 10], [8, 10]]})
    assert codes(r) == ["move_too_far"] and "4.50\" (climbing 1.50\")" in message(r)


@pytest.mark.parametrize(("beside", "legal"), [(0.48, False), (0.5, True)])
def test_a_base_climbs_a_piece_any_part_of_it_goes_over(beside, legal):
    # Whole bases (issue 21): the centre passes `beside` inches from a 1.5" crate on a 4"
    # path; at 0.48" 0.012" of the 25 mm base (R = 0.492") goes over it: 4 + 1.5 up = 5.5"
    # of a Move of 4 (stepping down 1.5" is free); at 0.5" it clears the crate.
    text = scene(fighter("red-1", "red", 5, 10), fighter("blue-1", "blue", 25, 10),
                 terrain=(piece("crate", 6, 10 + beside, 7, 14, 1.5),))
    _, (r,) = attempt(text, {"type": "move", "unit": "red-1", "path": [[5, 10], [9, 10]]})
    if legal:
        assert r["legal"], message(r)
    else:
        assert codes(r) == ["move_too_far"] and "5.50\" (climbing 1.50\")" in message(r)


# --- opportunistic strikes and reaction_used -----------------------------------------------------
def test_every_engaged_enemy_may_strike_once_at_a_disengage():
    text = scene(fighter("red-1", "red", 10, 10),
                 fighter("blue-1", "blue", 10 + 2 * R + 0.5, 10),
                 fighter("blue-2", "blue", 10, 10 + 2 * R + 0.5))
    state, results = attempt(
        text, {"type": "disengage", "unit": "red-1", "path": [[10, 10], [7, 10]]},
        {"type": "react", "unit": "blue-1", "reaction": "opportunistic-strike"},
        {"type": "react", "unit": "blue-1", "reaction": "opportunistic-strike"},
        {"type": "react", "unit": "blue-2", "reaction": "opportunistic-strike"},
        dice=[4, 3])
    first, again, second = results[1:]
    strike = of_type(first, "opportunistic-strike")[0]
    assert (strike["roll"], strike["damage"]) == (4, 1)          # 4+: Blade's damage 1
    assert codes(again) == ["reaction_used"]
    assert of_type(second, "opportunistic-strike")[0]["damage"] == 0   # a 3
    assert of_type(second, "disengaged")
    assert state.sides["blue"]["singles"] == 0                   # 2 singles spent
    assert int(state.units[0].damage[0]) == 1


def test_the_target_may_dodge_or_counter_but_not_both():
    text = engaged_pair(0.5)
    # Dodge: Defense 5 against Strength 4, hit on 5+; 6, 5, 4 = a critical (3) and a hit (1).
    _, results = attempt(text, {"type": "attack", "unit": "red-1", "target": "blue-1",
                                "weapon": "Blade",
                                "reaction": {"unit": "blue-1", "type": "dodge"}},
                         dice=[6, 5, 4])
    attack = of_type(results[0], "attack")[0]
    assert (attack["hit_on"], attack["damage"]) == (5, 4)
    assert not of_type(results[0], "counter")                   # one reaction per action
    # No dodge: 4+ -> 3 + 1 + 1 = 5; the counter has 3 - 1 = 2 attacks: 4 and 6 -> 1 + 3.
    _, results = attempt(text, {"type": "attack", "unit": "red-1", "target": "blue-1",
                                "weapon": "Blade"},
                         {"type": "no-reaction"},
                         {"type": "react", "unit": "blue-1", "reaction": "counter"},
                         dice=[6, 5, 4, 4, 6])
    assert of_type(results[1], "attack")[0]["damage"] == 5
    counter = of_type(results[2], "counter")[0]
    assert (counter["attacks"], counter["damage"]) == (2, 4)


# --- the attack odds ------------------------------------------------------------------------------
def odds(text: str, a: str = "red-1", b: str = "blue-1", weapon: str | None = None) -> dict:
    from battlefield.rules.registry import get

    q = get("warband").question("attack")
    return q.answer(get("warband"), load_scene_text(text), (a, b), {"weapon": weapon})


@pytest.mark.parametrize("defense, attacks_, hit_on, expected, p0", [
    # per die: 4+ hits (1), a 6 is critical (3): 2/6 * 1 + 1/6 * 3 = 5/6; three dice 2.5
    (4, 3, 4, 2.5, 1 / 8),
    # Strength 4 above Defense 3: 3+ -> 3/6 * 1 + 1/6 * 3 = 1 a die
    (3, 3, 3, 3.0, 1 / 27),
    # Strength 4 below Defense 5: 5+ -> 1/6 + 3/6 = 2/3 a die
    (5, 3, 5, 2.0, (4 / 6) ** 3),
])
def test_attack_odds_strength_against_defense(defense, attacks_, hit_on, expected, p0):
    text = scene(fighter("red-1", "red", 10, 10),
                 fighter("blue-1", "blue", 10 + 2 * R + 0.5, 10, defense=defense))
    d = odds(text)
    assert d["hit_on"] == hit_on and d["attacks"] == attacks_
    assert d["expected_damage"] == pytest.approx(expected)
    assert d["distribution"]["0"] == pytest.approx(p0)
    assert sum(d["distribution"].values()) == pytest.approx(1)
    assert d["attackers"] == {"Blade": ["red-1/1"]}


def test_attack_odds_count_rampage_and_dodge():
    """Blue Rampages (Defense 4 - 1 = 3 until the round ends): red's Blade then hits on 3+
    (3.0 expected); if blue dodges, Defense 4 again: 4+ (2.5)."""
    from battlefield.rules.trial import scene_after

    text = scene(fighter("red-1", "red", 10, 10),
                 fighter("blue-1", "blue", 10 + 2 * R + 0.5, 10),
                 fighter("red-2", "red", 2, 2), state={"initiative": {
                     "red": [1, 2, 3, 4, 6, 6], "blue": [5, 5, 5, 5, 2, 3]}})
    state, results = attempt(text, {"type": "first", "side": "blue"},
                             {"type": "rampage", "unit": "blue-1", "value": 5})
    assert all(r["legal"] for r in results)
    import yaml

    d = odds(yaml.safe_dump(scene_after(state), sort_keys=False))
    assert d["defense"] == 3 and d["hit_on"] == 3
    assert d["expected_damage"] == pytest.approx(3.0)
    assert d["if_dodged"]["hit_on"] == 4
    assert d["if_dodged"]["expected_damage"] == pytest.approx(2.5)


def test_ranged_attacks_need_range_and_sight():
    wall = piece("wall", 14, 0, 15, 22, 5, "obscuring")
    text = scene(fighter("red-1", "red", 10, 10, BOW, BLADE), fighter("blue-1", "blue", 20, 10),
                 terrain=(wall,))
    d = odds(text, weapon="Bow")
    assert d["expected_damage"] == 0 and "cannot see" in d["reason"]
    far = scene(fighter("red-1", "red", 2, 10, BOW), fighter("blue-1", "blue", 20, 10))
    assert "beyond Bow's range of 12\"" in odds(far)["reason"]
    # Bow, 2 dice, Strength 3 against Defense 4: 5+; per die 1/6 * 1 + 1/6 * 2 = 1/2
    near = scene(fighter("red-1", "red", 10, 10, BOW), fighter("blue-1", "blue", 20, 10))
    assert odds(near)["expected_damage"] == pytest.approx(1.0)


# --- the dice -------------------------------------------------------------------------------------
@pytest.mark.parametrize("dice, singles, combos", [
    ([1, 2, 3, 4, 6, 6], 4, [("double", 6)]),
    ([5, 5, 5, 5, 2, 3], 2, [("quad", 5)]),
    ([5, 5, 5, 5, 5, 5], 0, [("quad", 5)]),
    ([1, 1, 2, 2, 2, 3], 1, [("double", 1), ("triple", 2)]),
    ([1, 2, 3, 4, 5, 6], 6, []),
])
def test_singles_and_ability_dice(dice, singles, combos):
    n, found = split(dice)
    assert n == singles and found == [f"[{size}] {value}" for size, value in combos]


def test_the_scene_roll_gives_the_initiative_to_more_singles():
    state, (r,) = attempt(engaged_pair(), {"type": "first", "side": "red"})
    assert r["legal"] and state.clock["initiative"] == "red"
    assert state.sides["red"]["singles"] == 4 and state.sides["blue"]["singles"] == 2
    assert state.sides["blue"]["ability_dice"] == ["[quad] 5"]
    _, (r,) = attempt(engaged_pair(), {"type": "first", "side": "blue", "unit": "blue-1"})
    assert codes(r) == ["unknown_key"]


def test_tied_singles_roll_off_rerolling_ties():
    text = scene(fighter("red-1", "red", 5, 5), fighter("blue-1", "blue", 25, 5),
                 state={"initiative": {"red": [1, 2, 3, 4, 5, 5], "blue": [1, 2, 3, 4, 6, 6]}})
    state, (r,) = attempt(text, {"type": "initiative"}, dice=[3, 3, 2, 5])
    assert [e["rolls"] for e in of_type(r, "roll-off")] == [{"red": 3, "blue": 3},
                                                              {"red": 2, "blue": 5}]
    assert state.clock["initiative"] == "blue"


@pytest.mark.parametrize("ability, value, code, text", [
    ("rampage", None, "no_ability_dice", "needs a [quad], red has [double] 6"),
    ("respite", 6, "no_ability_dice", "needs a [triple], red has [double] 6"),
    ("rush", 5, "no_ability_dice", "needs a [double] of value 5, red has [double] 6"),
])
def test_abilities_need_ability_dice(ability, value, code, text):
    a = {"type": ability, "unit": "red-1", **({"value": value} if value else {})}
    r = attempt(engaged_pair(1.5), a)[1][0]
    assert codes(r) == [code] and text in message(r)


def test_a_bigger_combination_pays_and_is_discarded_whole():
    # blue's [quad] of 5s pays Rush (a [double]): value 5, the quad is gone
    state, results = attempt(engaged_pair(1.5), {"type": "first", "side": "blue"},
                             {"type": "rush", "unit": "blue-1", "value": 5},
                             {"type": "move", "unit": "blue-1",
                              "path": [[17.48, 10]]})
    assert [r["legal"] for r in results] == [True, True, True]   # Move 4 + 1
    assert of_type(results[1], "ability")[0]["paid"] == "[quad] 5"
    assert state.sides["blue"]["ability_dice"] == []


# --- activations ----------------------------------------------------------------------------------
def three(**extra) -> str:
    return scene(fighter("red-1", "red", 5, 10, **extra), fighter("red-2", "red", 5, 14),
                 fighter("blue-1", "blue", 25, 10), fighter("blue-2", "blue", 25, 14))


MOVE_R1 = {"type": "move", "unit": "red-1", "path": [[5, 10], [6, 10]]}


def move(uid: str, x: float, y: float, to: float) -> dict:
    return {"type": "move", "unit": uid, "path": [[x, y], [to, y]]}


def test_two_actions_then_the_other_side():
    state, results = attempt(three(), move("red-1", 5, 10, 6), move("red-1", 6, 10, 7),
                             move("red-1", 7, 10, 8), move("blue-1", 25, 10, 24),
                             move("red-2", 5, 14, 6))
    assert codes(results[2]) == ["too_many_actions"]
    assert "never more than 2" in message(results[2])
    # red-1 could still use an ability (red has a [double]); blue's move ends its activation
    assert results[3]["legal"] and codes(results[4]) == ["activating"]
    assert "blue-1 is activating (1 of its 2 actions taken)" in message(results[4])


def test_an_ability_after_the_last_action_ends_the_activation():
    state, results = attempt(three(), move("red-1", 5, 10, 6), move("red-1", 6, 10, 7))
    assert state.clock["activating"] == "red-1" and "pass" in state.available()
    state, results = attempt(three(), move("red-1", 5, 10, 6), move("red-1", 6, 10, 7),
                             {"type": "onslaught", "unit": "red-1"})
    assert results[2]["legal"] and of_type(results[2], "activation-ends")
    assert state.clock["active"] == "blue" and state.clock["activating"] is None


def test_attack_is_once_per_activation_and_already_activated():
    text = scene(fighter("red-1", "red", 10, 10), fighter("blue-1", "blue", 10 + 2 * R + 0.5, 10),
                 fighter("red-2", "red", 2, 2), fighter("blue-2", "blue", 28, 2))
    attack = {"type": "attack", "unit": "red-1", "target": "blue-1", "weapon": "Blade"}
    _, results = attempt(text, attack, attack, {"type": "wait", "unit": "red-1"},
                         move("blue-2", 28, 2, 27), move("blue-2", 27, 2, 26), attack,
                         dice=[1] * 12)
    assert codes(results[1]) == ["too_many_actions"]
    assert "attack 1 time" in message(results[1])
    assert results[2]["legal"] and results[3]["legal"] and results[4]["legal"]
    assert codes(results[5]) == ["already_activated"]


def test_no_action_more_than_twice_even_with_a_bonus():
    own = [{"id": "surge", "cost": "double", "effects": {"bonus_action": "move"}}]
    state, results = attempt(three(abilities=own), {"type": "surge", "unit": "red-1"},
                             move("red-1", 5, 10, 6), move("red-1", 6, 10, 7),
                             move("red-1", 7, 10, 8))
    assert [r["legal"] for r in results[:3]] == [True, True, True]
    assert codes(results[3]) == ["too_many_actions"] and "never more than 2" in message(
        results[3])


def test_rampage_gives_a_bonus_attack():
    text = scene(fighter("red-1", "red", 10, 10), fighter("blue-1", "blue", 10 + 2 * R + 0.5, 10,
                                                          wounds=30),
                 state={"initiative": {"red": [5, 5, 5, 5, 1, 2], "blue": [1, 2, 3, 4, 6, 6]}})
    attack = {"type": "attack", "unit": "red-1", "target": "blue-1", "weapon": "Blade"}
    state, results = attempt(text, {"type": "first", "side": "red"},
                             {"type": "rampage", "unit": "red-1"}, attack, attack,
                             {"type": "disengage", "unit": "red-1", "path": [[10, 10], [7, 10]]},
                             dice=[1] * 12)
    assert [r["legal"] for r in results] == [True] * 5
    assert state.units[0].counters == {"defense": -1}            # until the round ends


def test_wait_activates_again_with_one_action_and_one_more_ability():
    state, results = attempt(
        three(), {"type": "rush", "unit": "red-1"}, {"type": "wait", "unit": "red-1"},
        move("blue-1", 25, 10, 24), move("blue-1", 24, 10, 23),
        {"type": "onslaught", "unit": "red-1", "value": 6}, move("red-1", 5, 10, 9))
    assert codes(results[4]) == ["no_ability_dice"]          # the double is spent; not the rule
    waited = of_type(results[1], "wait")[0]
    assert waited["activates_again"] is True
    assert results[5]["legal"] and of_type(results[5], "activation")[0]["second"] is True
    assert of_type(results[5], "activation-ends")              # one action in the second
    assert state.units[0].flags == {"activated", "done"}


def test_a_side_with_nobody_left_passes():
    text = scene(fighter("red-1", "red", 5, 10), fighter("blue-1", "blue", 25, 10),
                 fighter("blue-2", "blue", 25, 14))
    state, results = attempt(text, move("red-1", 5, 10, 6), move("red-1", 6, 10, 7),
                             move("blue-1", 25, 10, 24), move("blue-1", 24, 10, 23),
                             {"type": "pass"}, {"type": "pass"}, {"type": "pass"})
    # the first pass ends blue-1's activation (blue could still use its [quad]); red has
    # nobody left and passes; blue has blue-2 left and may not
    assert [codes(r) for r in results[4:]] == [[], [], ["must_activate"]]
    assert "has 1 fighter left" in message(results[6])


# --- falling, command, Respite, the scene's initiative ----------------------------------------
@pytest.mark.parametrize("move_, to, fall", [
    (4, 7.0, True),      # 3" across and a 4" drop: climbing down would cost 7" of 4": it jumps
    (6, 5.6, False),     # 1.6" across and 4" down: 5.6" of 6", climbed down
])
def test_a_drop_of_3_inches_or_more(move_, to, fall):
    text = scene(fighter("red-1", "red", 15, 4, move=move_), fighter("blue-1", "blue", 25, 15),
                 terrain=(piece("tower", 10, 0, 20, 5, 4),))
    state, (r,) = attempt(text, {"type": "move", "unit": "red-1", "path": [[15, 4], [15, to]]},
                          dice=[2, 3])
    assert r["legal"]
    falls = of_type(r, "fall")
    assert bool(falls) is fall
    if fall:                               # 2 fails (1-2): D3 = 3 damage
        assert falls[0]["roll"] == 2 and of_type(r, "damage")[0]["amount"] == 3
    else:
        assert of_type(r, "moved")[0]["distance"] == pytest.approx(5.6)


def commanding() -> str:
    return scene(fighter("red-1", "red", 5, 10), fighter("red-2", "red", 5, 14),
                 fighter("red-3", "red", 5, 20), fighter("blue-1", "blue", 25, 10),
                 state={"initiative": {"red": [2, 2, 2, 1, 3, 4], "blue": [1, 2, 3, 4, 5, 5]}})


def test_command_activates_the_picked_fighter_next():
    state, results = attempt(
        commanding(), {"type": "command", "unit": "red-1", "target": "red-3"},
        {"type": "command", "unit": "red-1", "target": "red-2"},
        move("red-1", 5, 10, 6), move("red-1", 6, 10, 7), move("blue-1", 25, 10, 24),
        move("red-3", 5, 20, 6), move("red-2", 5, 14, 6))
    assert codes(results[0]) == ["out_of_range"]       # 10 - 2R = 9.02" away, beyond 6"
    assert results[1]["legal"] and of_type(results[1], "ability")[0]["paid"] == "[triple] 2"
    assert of_type(results[3], "commanded")
    assert codes(results[4]) == ["not_your_turn"] and codes(results[5]) == ["commanded"]
    assert results[6]["legal"] and state.clock["active"] == "red"


def test_respite_heals_its_value_and_not_when_engaged():
    text = scene(fighter("red-1", "red", 5, 10), fighter("blue-1", "blue", 5 + 2 * R + 0.84, 10),
                 state={"initiative": {"red": [4, 4, 4, 1, 2, 3], "blue": [1, 2, 3, 4, 5, 5]}})
    _, results = attempt(text, {"type": "respite", "unit": "red-1"})
    assert codes(results[0]) == ["engaged"] and "0.84\" from blue-1" in message(results[0])
    far = scene(fighter("red-1", "red", 5, 10), fighter("blue-1", "blue", 15, 10, BOW),
                state={"initiative": {"red": [4, 4, 4, 1, 2, 3], "blue": [1, 2, 3, 4, 5, 5]}})
    state, results = attempt(far, {"type": "first", "side": "blue"},
                             {"type": "attack", "unit": "blue-1", "target": "red-1"},
                             {"type": "wait", "unit": "blue-1"},
                             {"type": "respite", "unit": "red-1"}, dice=[6, 6])
    assert of_type(results[1], "damage")[0]["total"] == 4          # two criticals of 2
    assert of_type(results[3], "ability")[0]["healed"] == 4        # value 4
    assert int(state.units[0].damage[0]) == 0


@pytest.mark.parametrize("given, where", [
    ({"red": [1, 2, 3]}, "state.initiative"),
    ({"red": [1, 2, 3, 4, 5, 6], "blue": [1, 2, 3, 4, 5, 7]}, "state.initiative.blue"),
])
def test_a_bad_initiative_roll_in_the_scene_is_one_error_at_its_key(given, where):
    from battlefield.errors import InputError
    from battlefield.rules.registry import get
    from battlefield.rules.state import Game

    text = scene(fighter("red-1", "red", 5, 10), fighter("blue-1", "blue", 25, 10),
                 state={"initiative": given})
    with pytest.raises(InputError) as err:
        Game(get("warband"), load_scene_text(text, "s.yaml")).new_state()
    assert where in str(err.value) and "s.yaml:" in str(err.value)


def test_a_fighter_does_not_end_half_on_a_piece():
    text = scene(fighter("red-1", "red", 5, 10), fighter("blue-1", "blue", 25, 10),
                 terrain=(piece("wall", 7, 0, 7.5, 22, 1, "obstacle"),))
    _, (r,) = attempt(text, {"type": "move", "unit": "red-1", "path": [[5, 10], [7.1, 10]]})
    assert codes(r) == ["straddles_terrain"] and "half on wall (1\" tall)" in message(r)
