"""The attack procedure (seed: Attack Procedure, Support): dice = models x Strike + support, hits
on Hit or more, cover saves (d6 + bonus >= 7), damage one model at a time up to Toughness with the
leader last, the defender's retreat exactly 5" directly away (healing the last model hit), and
damage that does not carry over turns."""

from __future__ import annotations

import math

import pytest

from ._scene import ARCHERS, ARTILLERY, attempt, codes, of_type, piece, scene, unit, where


def skirmish(attacker="a", target="b", **more):
    return {"type": "skirmish", "unit": attacker, "target": target, **more}


def shooters(*extra, a=None, b=None, terrain=()):
    """Archers a (3 models, Strike 2) 5" from b (3 models), b unable to strike back."""
    a_at = [(5, 10), (6.2, 10), (7.4, 10)]
    b_at = [(5, 15), (6.2, 15), (7.4, 15)]
    return scene(unit("a", "red", *a_at, kind=ARCHERS, strike=2, **(a or {})),
                 unit("b", "blue", *b_at, kind=ARCHERS, range=0.5, **(b or {})), *extra,
                 terrain=terrain)


def attack_of(result, attacker="a"):
    return next(e for e in of_type(result, "attack") if e["attacker"] == attacker)


def test_dice_are_models_times_strike_and_hits_reach_the_hit_value():
    _, (r,) = attempt(shooters(), skirmish(), dice=[4, 3, 6, 1, 5, 2])
    e = attack_of(r)
    assert (e["dice"], e["support"], e["models"], e["strike"]) == (6, 0, 3, 2)
    assert e["hits"] == 3 and e["hit_on"] == 4


def test_cover_saves_discard_hits_on_7_or_more():
    _, (r,) = attempt(shooters(b={"cover": 2}), skirmish(), dice=[6, 6, 6, 1, 1, 1, 5, 4, 6])
    e = attack_of(r)
    assert e["hits"] == 3 and e["cover_bonus"] == 2 and e["saved"] == 2   # 5+2, 4+2, 6+2
    assert e["damage"] == 1
    # no cover bonus: no save rolls at all
    _, (r,) = attempt(shooters(), skirmish(), dice=[6, 6, 6, 1, 1, 1])
    assert [x["for"] for x in r["rolls"]] == ["attack (a at b)"]


def test_damage_fills_one_model_at_a_time_up_to_toughness_and_the_leader_goes_last():
    # Damage 1 against Toughness 2: two hits per model; 3 hits slay one model and wound another.
    state, (r,) = attempt(shooters(b={"toughness": 2}), skirmish(), dice=[6, 6, 6, 1, 1, 1])
    e = attack_of(r)
    assert e["damage"] == 3 and len(e["slain"]) == 1 and "b/1" not in e["slain"]
    assert sorted(state.units[1].damage.tolist()) == [0, 1, 2]
    # Damage 3 against Toughness 1: the extra damage of each hit is lost, one model per hit
    state, (r,) = attempt(shooters(a={"damage": 3}), skirmish(), dice=[6, 6, 1, 1, 1, 1])
    e = attack_of(r)
    assert e["damage"] == 2 and len(e["slain"]) == 2 and "b/1" not in e["slain"]
    # enough hits for everybody: the leader (b/1) falls last
    _, (r,) = attempt(shooters(), skirmish(), dice=[6] * 6)
    assert attack_of(r)["slain"][-1] == "b/1"


def test_support_from_two_friendly_units():
    # f1 (Strike 1) and f2 (Strike 2) have b in range: +2 and +4; f3 is out of its range.
    friends = [unit("f1", "red", (12, 10), kind=ARCHERS),
               unit("f2", "red", (15, 10), kind=ARCHERS, strike=2),
               unit("f3", "red", (30, 10), kind=ARCHERS, range=4)]
    _, (r,) = attempt(shooters(*friends), skirmish(), dice=[1] * 12)
    e = attack_of(r)
    assert e["support"] == 6 and e["flanking"] == 6
    assert e["flanking_from"] == ["f1", "f2"]
    assert e["dice"] == 3 * 2 + 6


@pytest.mark.parametrize(("height", "bonus"), [(1.0, 2), (0.9, 0)])
def test_high_ground_is_plus_2_from_1in_higher(height, bonus):
    stage = piece("stage", 0, 0, 36, 12, height)
    _, (r,) = attempt(shooters(terrain=[stage]), skirmish(), dice=[1] * 8)
    assert attack_of(r).get("high_ground", 0) == bonus
    assert attack_of(r)["support"] == bonus


def test_bombardment_supports_attacks_near_the_token():
    gun = unit("gun", "red", (30, 1), kind=ARTILLERY, keywords=("ARTILLERY",), range=2)
    text = shooters(gun)
    _, (placed, r) = attempt(text, {"type": "bombard", "unit": "gun", "at": [6, 20]},
                             skirmish(), dice=[1] * 12)
    assert placed["legal"]
    e = attack_of(r)
    assert e["bombardment"] == 4 and e["bombardment_from"] == ["gun"]    # gun has Strike 3
    _, (_, r) = attempt(text, {"type": "bombard", "unit": "gun", "at": [6, 22]},
                        skirmish(), dice=[1] * 12)
    assert attack_of(r)["support"] == 0             # b's nearest base is 6.5" from the token


# --- retreats ------------------------------------------------------------------------------------
def test_a_retreat_goes_exactly_5in_directly_away_from_the_attacker():
    text = scene(unit("a", "red", (10, 10)), unit("b", "blue", (13, 14), (14.2, 14)))
    state, (r,) = attempt(text, {"type": "retreat", "unit": "b", "from": "a"})
    assert r["legal"]
    (e,) = of_type(r, "retreat")
    assert e["turned"] == 0 and e["distance"] == 5
    # directly away: along a's leader -> b's leader, (3, 4)/5
    assert where(state, "b", 1)[:2] == pytest.approx((16, 18))
    assert where(state, "b", 2)[:2] == pytest.approx((17.2, 18))


def test_a_retreat_goes_round_terrain_as_close_to_the_line_as_it_allows():
    rock = piece("rock", 9, 16, 11, 22, 1, "impassable")
    text = scene(unit("a", "red", (10, 10)), unit("b", "blue", (10, 13)), terrain=[rock])
    state, (r,) = attempt(text, {"type": "retreat", "unit": "b", "from": "a"})
    (e,) = of_type(r, "retreat")
    assert e["turned"] != 0
    x, y, _ = where(state, "b")
    assert math.hypot(x - 10, y - 13) == pytest.approx(5)


def test_a_retreat_blocked_by_terrain():
    # b in a pocket at the board edge: impassable walls left and right, a in front.
    walls = [piece("left", 8, 0, 9.4, 4, 2, "impassable"),
             piece("right", 10.6, 0, 12, 4, 2, "impassable")]
    text = scene(unit("a", "red", (10, 6)), unit("b", "blue", (10, 1)), terrain=walls)
    _, (r,) = attempt(text, {"type": "retreat", "unit": "b", "from": "a"})
    assert codes(r) == ["retreat_blocked"]
    # in a skirmish the blocked retreat just does not happen; b strikes back as usual
    text = scene(unit("a", "red", (10, 6), kind=ARCHERS, initiative=2),
                 unit("b", "blue", (10, 1), kind=ARCHERS), terrain=walls)
    _, (r,) = attempt(text, skirmish(retreat="b"), dice=[1, 1])
    assert of_type(r, "retreat-blocked")
    assert [e["attacker"] for e in of_type(r, "attack")] == ["a", "b"]


def test_a_retreat_does_not_climb_tall_terrain():
    wall = piece("wall", 0, 16, 36, 17, 3)
    text = scene(unit("a", "red", (10, 10)), unit("b", "blue", (10, 13)), terrain=[wall])
    state, (r,) = attempt(text, {"type": "retreat", "unit": "b", "from": "a"})
    assert of_type(r, "retreat")[0]["turned"] != 0
    assert where(state, "b")[2] == 0


def test_retreating_off_4in_terrain_is_always_dangerous():
    tower = piece("tower", 0, 12, 36, 14, 4)
    text = scene(unit("a", "red", (10, 10)), unit("b", "blue", (10, 13)), terrain=[tower])
    state, (r,) = attempt(text, {"type": "retreat", "unit": "b", "from": "a"}, dice=[1])
    (d,) = of_type(r, "dangerous-terrain")
    assert d["rolls"] == [1] and d["damage"] == 1


def test_a_retreat_heals_the_last_model_hit_and_may_return_it():
    # a slays one of b's two models; b retreats and the model comes back.
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS, initiative=2),
                 unit("b", "blue", (5, 15), (6.2, 15), kind=ARCHERS))
    state, (r,) = attempt(text, skirmish(retreat=True), dice=[6])
    assert attack_of(r)["slain"] == ["b/2"]
    (e,) = of_type(r, "retreat")
    assert e["healed"] == "b/2" and e["returned"] == "b/2"
    assert state.units[1].alive.all() and state.units[1].damage.tolist() == [0, 0]
    assert where(state, "b", 2)[:2] == pytest.approx((6.2, 20))
    # Toughness 3, Damage 2: the model hit keeps 1 damage after the heal
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS, initiative=2, damage=2),
                 unit("b", "blue", (5, 15), (6.2, 15), kind=ARCHERS, toughness=3))
    state, (r,) = attempt(text, skirmish(retreat=True), dice=[6])
    assert of_type(r, "retreat")[0]["healed"] == "b/2" and "returned" not in of_type(
        r, "retreat")[0]
    assert state.units[1].damage.tolist() == [0, 1]


def test_damage_does_not_carry_over_turns():
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS, initiative=2),
                 unit("b", "blue", (5, 15), kind=ARCHERS, toughness=2))
    state, (r, end) = attempt(text, skirmish(), {"type": "end-turn"}, dice=[6, 1])
    assert attack_of(r)["damage"] == 1 and end["legal"]
    assert state.units[1].damage.tolist() == [0]
    assert state.units[1].alive.all()


def test_a_retreated_unit_may_not_attack_this_turn():
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS),
                 unit("b", "blue", (5, 15), (6.2, 15), kind=ARCHERS, initiative=2))
    _, (r, again) = attempt(text, {"type": "retreat", "unit": "a", "from": "b"},
                            skirmish(), dice=[1] * 4)
    assert r["legal"]
    assert codes(again) == ["retreated"]


def test_the_log_records_every_roll_with_its_purpose():
    _, (r,) = attempt(shooters(b={"cover": 1}), skirmish(), dice=[6, 1, 1, 1, 1, 1, 2])
    assert [x["for"] for x in r["rolls"]] == ["attack (a at b)", "cover saves (b)"]
    assert math.isclose(r["rolls"][0]["total"], 11)
