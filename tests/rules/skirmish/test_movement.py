"""Moves (seed: Movement): up to Speed along any path, curves included; through units but not
ending on one; pieces under 2" crossed freely, climbing onto 2" or more paid, drops of 4" or more
dangerous unless climbed down; overextended moves at half Speed."""

from __future__ import annotations

import math

import pytest

from ._scene import ARCHERS, attempt, codes, of_type, piece, scene, unit, where


def lone(*extra, terrain=(), at=(5, 5), **stats):
    return scene(unit("a", "red", at, **stats), unit("far", "blue", (30, 30)), *extra,
                 terrain=terrain)


def move(path, unit_id="a", **more):
    return {"type": "move", "unit": unit_id, "path": [list(p) for p in path], **more}


def test_a_move_goes_up_to_speed():
    _, (ok,) = attempt(lone(), move([(5, 5), (5, 11)]))
    assert ok["legal"]
    assert ok["events"][0]["distance"] == pytest.approx(6)
    _, (far,) = attempt(lone(), move([(5, 5), (5, 11.5)]))
    assert codes(far) == ["move_too_far"]
    assert far["violations"][0]["moved"] == pytest.approx(6.5)
    assert far["violations"][0]["allowed"] == 6


def test_a_curved_path_counts_its_whole_length():
    # Round a corner: 3" + 3" = 6" (the ends are only 4.24" apart); 3.5" + 3" is too far.
    _, (ok,) = attempt(lone(), move([(5, 5), (8, 5), (8, 8)]))
    assert ok["legal"]
    st, (bad,) = attempt(lone(), move([(5, 5), (8.5, 5), (8.5, 8)]))
    assert codes(bad) == ["move_too_far"]
    # an arc of many points: a quarter circle of radius 3.8" is 5.97"
    arc = [(5 + 3.8 - 3.8 * math.cos(a), 5 + 3.8 * math.sin(a))
           for a in [i * math.pi / 2 / 40 for i in range(41)]]
    st, (ok,) = attempt(lone(), move(arc))
    assert ok["legal"]
    assert where(st, "a")[:2] == pytest.approx((8.8, 8.8))


def test_units_move_through_units_but_do_not_end_on_them():
    text = scene(unit("a", "red", (5, 5)), unit("friend", "red", (5, 8), (6, 8)),
                 unit("far", "blue", (30, 30)))
    _, (ok,) = attempt(text, move([(5, 5), (5, 10)]))
    assert ok["legal"]
    _, (bad,) = attempt(text, move([(5, 5), (5, 8.4)]))
    assert codes(bad) == ["on_another_model"]


def test_terrain_under_2in_is_crossed_freely():
    wall = piece("wall", 0, 7, 36, 7.5, 1.9, "obstacle")
    _, (ok,) = attempt(lone(terrain=[wall]), move([(5, 5), (5, 11)]))
    assert ok["legal"]
    assert ok["events"][0]["distance"] == pytest.approx(6)


def test_climbing_onto_2in_or_more_is_paid():
    block = piece("block", 0, 8, 36, 20, 2.0)          # exactly 2": "2 or more" pays
    _, (ok,) = attempt(lone(terrain=[block]), move([(5, 5), (5, 9)]))   # 4" + 2" up
    assert ok["legal"]
    assert ok["events"][0]["distance"] == pytest.approx(6)
    _, (bad,) = attempt(lone(terrain=[block]), move([(5, 5), (5, 9.5)]))
    assert codes(bad) == ["move_too_far"]
    assert "climbing 2.00" in bad["violations"][0]["message"]
    st, _ = attempt(lone(terrain=[block]), move([(5, 5), (5, 9)]))
    assert where(st, "a")[2] == pytest.approx(2.0)


def test_moving_down_is_free_below_4in():
    block = piece("block", 0, 0, 36, 6, 3)
    st, (ok,) = attempt(lone(terrain=[block]), move([(5, 5), (5, 11)]))
    assert ok["legal"] and not of_type(ok, "dangerous-terrain")
    assert where(st, "a")[2] == 0


def test_a_4in_drop_is_climbed_down_when_the_move_allows_else_dangerous():
    tower = piece("tower", 0, 0, 36, 6, 4)
    # 2" across and down: 2 + 4 = 6 <= 6, so the unit climbs down - no danger
    _, (ok,) = attempt(lone(terrain=[tower]), move([(5, 5), (5, 7)]))
    assert ok["legal"] and not of_type(ok, "dangerous-terrain")
    assert ok["events"][0]["distance"] == pytest.approx(6)
    # 5" across: not enough left to climb down, so it jumps: a D6, a 1 is a point of damage
    st, (jumped,) = attempt(lone(terrain=[tower]), move([(5, 5), (5, 10)]), dice=[1])
    (d,) = of_type(jumped, "dangerous-terrain")
    assert d["rolls"] == [1] and d["damage"] == 1 and d["slain"] == ["a/1"]
    # "jump": true takes the danger even when climbing down would fit
    _, (chose,) = attempt(lone(terrain=[tower]), move([(5, 5), (5, 7)], jump=True), dice=[4])
    assert of_type(chose, "dangerous-terrain")[0]["damage"] == 0


def test_an_overextended_move_uses_half_speed():
    _, (first, second) = attempt(lone(), move([(5, 5), (5, 11)]), move([(5, 11), (5, 14.5)]))
    assert first["legal"]
    assert codes(second) == ["move_too_far"]
    assert second["violations"][0]["allowed"] == 3
    _, (_, ok) = attempt(lone(), move([(5, 5), (5, 11)]), move([(5, 11), (5, 14)]))
    assert ok["legal"] and ok["events"][0]["overextended"] is True


def test_impassable_terrain_and_the_board_edge_stop_a_move():
    rock = piece("rock", 0, 7, 36, 8, 1, "impassable")
    _, (bad,) = attempt(lone(terrain=[rock]), move([(5, 5), (5, 10)]))
    assert "moves_through" in codes(bad)
    _, (edge,) = attempt(lone(), move([(5, 5), (0.2, 5)]))
    assert codes(edge) == ["off_board"]


def test_a_model_may_not_end_half_on_a_tall_piece():
    block = piece("block", 0, 8, 36, 20, 3)
    _, (bad,) = attempt(lone(terrain=[block]), move([(5, 5), (5, 8)]))
    assert codes(bad) == ["straddles_terrain"]


def test_per_model_paths_keep_the_unit_coherent():
    text = scene(unit("a", "red", (5, 5), (6.2, 5), kind=ARCHERS), unit("far", "blue", (30, 30)))
    _, (ok,) = attempt(text, {"type": "move", "unit": "a", "paths": {"2": [[6.2, 5], [6.2, 6]]}})
    assert ok["legal"]
    _, (bad,) = attempt(text, {"type": "move", "unit": "a", "paths": {"2": [[6.2, 5], [9, 5]]}})
    assert codes(bad) == ["coherency"]


@pytest.mark.parametrize(("height", "beside", "legal", "text"), [
    (2.0, 0.48, False, "moves 8.00\" (climbing 2.00\")"),   # 0.012" of the base over it
    (2.0, 0.5, True, ""),                                   # clear of it by 0.008"
    (1.9, 0.48, True, ""),                                  # under 2": crossed freely
])
def test_a_base_climbs_a_piece_any_part_of_it_goes_over(height, beside, legal, text):
    # Whole bases (issue 21): the leader's centre passes `beside` inches from the piece's
    # edge on a 6" path; a 25 mm base (R = 0.492") with part of it over a 2" piece climbs
    # it: 6 + 2 up (the 2" step down is free) = 8" of a Speed of 6.
    tower = piece("tower", 7, 5 + beside, 9, 10, height)
    _, (r,) = attempt(lone(terrain=[tower]), move([(5, 5), (11, 5)]))
    assert r["legal"] == legal
    if legal:
        assert r["events"][0]["distance"] == pytest.approx(6)
    else:
        assert codes(r) == ["move_too_far"] and text in r["violations"][0]["message"]
