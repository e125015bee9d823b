"""Skirmishes (seed: Line of Sight, Range Measurement, Skirmishing, Committing Morale): range
leader base to leader base (3-D across elevation, melee horizontal under 2" of height), sight
leader to leader (partial: +1 cover save; none: no skirmish; the 1"-from-terrain rules), secret
simultaneous commitments, initiative order, charges, overextended skirmishes."""

from __future__ import annotations

import math

import pytest

from ._scene import ARCHERS, INFANTRY, R, attempt, codes, of_type, piece, scene, unit


def skirmish(attacker="a", target="b", **more):
    return {"type": "skirmish", "unit": attacker, "target": target, **more}


# --- range ---------------------------------------------------------------------------------------
def test_range_is_measured_from_the_leader():
    # a/1 at x 5, a/2 at x 6.2; b 12.1" from a/1's base, 10.9" from a/2's
    bx = 5 + 2 * R + 12.1
    far = scene(unit("a", "red", (5, 5), (6.2, 5), kind=ARCHERS), unit("b", "blue", (bx, 5)))
    _, (r,) = attempt(far, skirmish())
    assert codes(r) == ["out_of_range"]
    assert r["violations"][0]["distance"] == pytest.approx(12.1)
    assert r["violations"][0]["range"] == 12
    near = scene(unit("a", "red", (5, 5), (6.2, 5), kind=ARCHERS, leader=2),
                 unit("b", "blue", (bx, 5)))
    _, (r,) = attempt(near, skirmish(), dice=[1] * 20)
    assert r["legal"]


@pytest.mark.parametrize(("gap", "ok"), [(11.5, True), (11.7, False)])
def test_range_is_diagonal_across_elevation(gap, ok):
    hill = piece("hill", 0, 0, 8, 36, 3)
    text = scene(unit("a", "red", (4, 10), kind=ARCHERS), unit("b", "blue", (4 + 2 * R + gap, 10)),
                 terrain=[hill])
    _, (r,) = attempt(text, skirmish(), dice=[1] * 20)
    assert r["legal"] is ok
    if not ok:
        assert r["violations"][0]["distance"] == pytest.approx(math.hypot(gap, 3))


@pytest.mark.parametrize(("height", "ok"), [(1.5, True), (2.5, False)])
def test_melee_range_is_horizontal_under_2in_of_height(height, ok):
    block = piece("block", 11, 0, 20, 36, height)
    text = scene(unit("a", "red", (10, 10)), unit("b", "blue", (11.6, 10)), terrain=[block])
    _, (r,) = attempt(text, skirmish(), dice=[1] * 20)
    assert r["legal"] is ok
    if not ok:
        assert r["violations"][0]["distance"] == pytest.approx(math.hypot(1.6 - 2 * R, 2.5))


# --- sight ---------------------------------------------------------------------------------------
def test_no_skirmish_without_sight_of_the_enemy_leader():
    wall = piece("wall", 9.9, 0, 10.1, 36, 5)
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS), unit("b", "blue", (15, 10)),
                 terrain=[wall])
    _, (r,) = attempt(text, skirmish())
    assert codes(r) == ["no_line_of_sight"]


def test_a_partly_visible_leader_gets_plus_1_cover_save():
    wall = piece("wall", 9.9, 0, 10.1, 36, 1)
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS), unit("b", "blue", (15, 10), cover=1),
                 terrain=[wall])
    _, (r,) = attempt(text, skirmish(), dice=[6, 1])
    (sk,) = of_type(r, "skirmish")
    assert sk["sight"]["a"] == "partial"
    (att,) = of_type(r, "attack")
    assert att["cover_bonus"] == 2            # cover 1 + 1 for partial sight


def test_a_unit_within_1in_of_the_terrain_sees_past_it_but_keeps_its_cover():
    wall = piece("wall", 9.9, 0, 10.1, 36, 1)
    # a stands within 1" of the wall: it sees b fully (b gets no bonus); b, far from the wall,
    # sees a only partly, so a's cover saves get +1 when b strikes back.
    text = scene(unit("a", "red", (9.2, 10), kind=ARCHERS, cover=1),
                 unit("b", "blue", (15, 10), kind=ARCHERS, cover=1), terrain=[wall])
    _, (r,) = attempt(text, skirmish(), dice=[1] * 2)
    (sk,) = of_type(r, "skirmish")
    assert sk["sight"] == {"a": "full", "b": "partial"}
    bonus = {e["attacker"]: e["cover_bonus"] for e in of_type(r, "attack")}
    assert bonus == {"a": 1, "b": 2}


def test_both_within_1in_of_the_same_piece_see_fully():
    wall = piece("wall", 9.9, 0, 10.1, 36, 1)
    text = scene(unit("a", "red", (9.2, 10), kind=ARCHERS), unit("b", "blue", (10.8, 10),
                                                                  kind=ARCHERS), terrain=[wall])
    _, (r,) = attempt(text, skirmish(), dice=[1] * 2)
    assert of_type(r, "skirmish")[0]["sight"] == {"a": "full", "b": "full"}


# --- morale --------------------------------------------------------------------------------------
def duel(**a_stats):
    return scene(unit("a", "red", (5, 10), kind=ARCHERS, **a_stats),
                 unit("b", "blue", (5, 15), kind=ARCHERS, cover=1))


def test_both_sides_lose_what_they_commit_and_the_higher_cuts_them_down():
    state, (r,) = attempt(duel(), skirmish(commit={"red": 2, "blue": 1}), dice=[1] * 4)
    (m,) = of_type(r, "morale")
    assert m["commit"] == {"red": 2, "blue": 1} and m["advantage"] == "red"
    assert m["choice"] == "cut-them-down"
    assert state.sides["red"]["morale"] == 10 and state.sides["blue"]["morale"] == 11
    hit_on = {e["attacker"]: e["hit_on"] for e in of_type(r, "attack")}
    assert hit_on == {"a": 2, "b": 4}              # Hit 4, +2 to hit for a


def test_hold_the_line_and_a_tie():
    _, (r,) = attempt(duel(), skirmish(commit={"red": 0, "blue": 3}), dice=[6, 1, 6, 1])
    (m,) = of_type(r, "morale")
    assert m["advantage"] == "blue" and m["choice"] == "hold-the-line"
    a_att = next(e for e in of_type(r, "attack") if e["attacker"] == "a")
    assert a_att["cover_bonus"] == 4               # cover 1 + 3 holding the line
    _, (r,) = attempt(duel(), skirmish(commit={"red": 1, "blue": 1}, advantage="hold-the-line"),
                      dice=[1] * 4)
    assert of_type(r, "morale")[0]["advantage"] is None
    _, (r,) = attempt(duel(), skirmish(commit={"red": 1}, advantage={"red": "hold-the-line"}),
                      dice=[1] * 4)
    assert of_type(r, "morale")[0]["choice"] == "hold-the-line"


def test_a_side_may_not_commit_all_its_tokens_nor_a_card_it_has_not():
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS), unit("b", "blue", (5, 15)),
                 state={"morale": {"red": 3}})
    _, (r,) = attempt(text, skirmish(commit={"red": 3}))
    assert codes(r) == ["commit_too_many"]
    _, (r,) = attempt(text, skirmish(commit={"red": 2}), dice=[1] * 4)
    assert r["legal"]
    _, (r,) = attempt(duel(), skirmish(commit={"blue": 6}))
    assert codes(r) == ["no_such_card"]


# --- initiative ----------------------------------------------------------------------------------
def test_the_higher_initiative_attacks_first_and_a_destroyed_defender_does_not_strike_back():
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS, initiative=3),
                 unit("b", "blue", (5, 15), kind=ARCHERS))
    _, (r,) = attempt(text, skirmish(target="b"), dice=[6])
    assert [e["attacker"] for e in of_type(r, "attack")] == ["a"]
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS),
                 unit("b", "blue", (5, 15), kind=ARCHERS, initiative=3))
    _, (r,) = attempt(text, skirmish(target="b"), dice=[1, 1])
    assert [e["attacker"] for e in of_type(r, "attack")] == ["b", "a"]


def test_equal_initiative_attacks_are_simultaneous():
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS), unit("b", "blue", (5, 15), kind=ARCHERS))
    _, (r,) = attempt(text, skirmish(), dice=[6, 6])
    att = of_type(r, "attack")
    assert [e["attacker"] for e in att] == ["a", "b"]
    assert att[1]["dice"] == 1 and att[1]["slain"] == ["a/1"]   # b was slain, yet strikes


def test_a_defender_that_retreats_does_not_strike_back():
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS, initiative=2),
                 unit("b", "blue", (5, 15), (6.2, 15), kind=ARCHERS))
    _, (r,) = attempt(text, skirmish(retreat=True), dice=[1, 1])
    assert [e["attacker"] for e in of_type(r, "attack")] == ["a"]
    assert of_type(r, "retreat")[0]["unit"] == "b"


# --- charges -------------------------------------------------------------------------------------
def test_a_melee_unit_out_of_range_charges_after_the_attack():
    # b (melee, range 1, Speed 6) stands 5" from a's archers: out of range, then charges.
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS, initiative=2),
                 unit("b", "blue", (5, 10 + 2 * R + 5), kind=INFANTRY))
    state, (r,) = attempt(text, skirmish(), dice=[1, 6])
    (sk,) = of_type(r, "skirmish")
    assert sk["in_range"] == {"a": True, "b": False}
    (ch,) = of_type(r, "charge")
    assert ch["unit"] == "b" and ch["distance"] <= 6
    assert [e["attacker"] for e in of_type(r, "attack")] == ["a", "b"]
    assert of_type(r, "attack")[1]["slain"] == ["a/1"]


def test_no_charge_when_a_full_move_cannot_reach():
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS),
                 unit("b", "blue", (5, 10 + 2 * R + 8), kind=INFANTRY))
    _, (r,) = attempt(text, skirmish(), dice=[1])
    assert of_type(r, "no-charge") and not of_type(r, "charge")


def test_a_ranged_unit_out_of_range_neither_attacks_nor_charges():
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS),
                 unit("b", "blue", (5, 10 + 2 * R + 5), kind=ARCHERS, range=3))
    _, (r,) = attempt(text, skirmish(), dice=[1])
    assert [e["attacker"] for e in of_type(r, "attack")] == ["a"]
    assert not of_type(r, "charge") and not of_type(r, "no-charge")


def test_a_defender_that_retreated_does_not_charge():
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS),
                 unit("b", "blue", (5, 10 + 2 * R + 5), (6.2, 10 + 2 * R + 5), kind=INFANTRY))
    _, (r,) = attempt(text, skirmish(retreat=True), dice=[1])
    assert of_type(r, "retreat") and not of_type(r, "charge")


# --- overextended --------------------------------------------------------------------------------
def test_an_overextended_skirmish_is_minus_1_to_hit_and_to_cover_saves():
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS, cover=2),
                 unit("b", "blue", (5, 15), (6.2, 15), (7.4, 15), kind=ARCHERS))
    _, (first, second) = attempt(text, skirmish(), skirmish(), dice=[1] * 30)
    a1 = next(e for e in of_type(first, "attack") if e["attacker"] == "a")
    a2 = next(e for e in of_type(second, "attack") if e["attacker"] == "a")
    assert (a1["hit_on"], a2["hit_on"]) == (4, 5)
    assert of_type(second, "skirmish")[0]["overextended"] is True
    b1 = next(e for e in of_type(first, "attack") if e["attacker"] == "b")
    b2 = next(e for e in of_type(second, "attack") if e["attacker"] == "b")
    assert (b1["cover_bonus"], b2["cover_bonus"]) == (2, 1)


def test_a_unit_without_a_melee_stat_is_melee_at_range_1in():
    spears = {k: v for k, v in INFANTRY.items() if k != "melee"}
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS, initiative=2),
                 unit("b", "blue", (5, 10 + 2 * R + 5), kind=spears))
    _, (r,) = attempt(text, skirmish(), dice=[1, 1])
    assert of_type(r, "charge")
