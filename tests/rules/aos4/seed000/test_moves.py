"""Seed 000's movement abilities as the seed writes them, each on a small scene with fixed dice
and the answer worked out by hand (i32b): normal-move, run, at-the-double and the movement
rules (the board's edge on the way, mid-climb ends, models at different heights). Retreat,
redeploy and Power Through are in test_moves_combat_ranges.py.

Every base here is 32 mm: radius R = 0.629921", so two bases' edge gap is their centre gap
minus 2R = 1.259843". "Within" is <= with battlefield's slack of 0.000001"."""

from __future__ import annotations

import pytest

from ._moves import GAP, R, at, codes, play, scene, unit

# --- normal-move: "That unit cannot move into combat during any part of that move" ------------
# red (Move 5) at (10.8, 10) walks straight at blue (20, 10) on an open table: the units see
# each other, so coming within 3" is coming into combat. Ending at x leaves an edge gap of
# 20 - x - 2R: 3.000 at x = 20 - 2R - 3 (within: refused), 3.001 at 0.001 less (legal).
OPEN = scene(unit("red", "red", (10.8, 10)) + unit("blue", "blue", (20, 10)))


@pytest.mark.parametrize(("gap", "legal"), [(3.0, False), (3.001, True)])
def test_normal_move_may_not_come_into_combat(gap: float, legal: bool) -> None:
    x = 20 - GAP - gap
    _, (r,) = play(OPEN, {"type": "normal-move", "unit": "red", "path": [[x, 10]]})
    assert r["legal"] is legal, r
    if not legal:
        assert codes(r) == ["moves_into_combat"]


@pytest.mark.parametrize(("far", "legal"), [(5.0, True), (5.001, False)])
def test_normal_move_up_to_its_move(far: float, legal: bool) -> None:
    # "That unit can move a distance up to its Move characteristic": 5.000 yes, 5.001 no.
    text = scene(unit("red", "red", (5, 30)) + unit("blue", "blue", (50, 40)))
    state, (r,) = play(text, {"type": "normal-move", "unit": "red", "path": [[5 + far, 30]]})
    assert r["legal"] is legal
    assert codes(r) == ([] if legal else ["move_too_far"])


# At different heights: blue stands wholly on a 2"-tall solid block (x 18-20.3), its base from
# x 19.000 to 20.260 at z 2. Combat range is horizontal ("any distance vertically"): red on the
# ground ending at a horizontal edge gap of 3.000 is within it, 2" below. Sight: red's top
# front (16.0, 1.25) to blue's top front (19.0, 3.25) crosses the block's face x = 18 at
# 1.25 + 2 * 2/3 = 2.58" > 2": visible, so in combat -> refused; at 3.001 -> legal.
HIGH = scene(unit("red", "red", (10.8, 10)) + unit("blue", "blue", (19.63, 10)),
             "  - {id: block, outline: [[18, 8], [20.3, 8], [20.3, 12], [18, 12]], height: 2, "
             "kind: solid}\n")


@pytest.mark.parametrize(("gap", "legal"), [(3.0, False), (3.001, True)])
def test_combat_range_is_horizontal_whatever_the_height(gap: float, legal: bool) -> None:
    state, (r,) = play(HIGH, {"type": "normal-move", "unit": "red",
                              "path": [[19.63 - GAP - gap, 10]]})
    assert state.table.z[1] == pytest.approx(2.0)           # blue stands on the block
    assert r["legal"] is legal, r


# N11: the path, not sampled points of it. red-g walks (10, 20) -> (15, 20) past blue-g at
# (12.625, 20 + 2R + d): its closest approach, at x = 12.625, is exactly d. The old check
# looked every 0.25" (x = 12.5 and 12.75, where the gap is d + 0.0008) and let d = 2.999 pass.
# "during any part of that move": d <= 3 refused, d = 3.001 legal.
@pytest.mark.parametrize(("d", "legal"), [(2.999, False), (3.0, False), (3.001, True)])
def test_a_path_that_grazes_combat_range_between_samples(d: float, legal: bool) -> None:
    text = scene(unit("red-g", "red", (10, 20)) + unit("blue-g", "blue", (12.625, 20 + GAP + d)))
    _, (r,) = play(text, {"type": "normal-move", "unit": "red-g", "path": [[15, 20]]})
    assert r["legal"] is legal, r
    if not legal:
        (why,) = r["violations"]
        assert why["code"] == "moves_into_combat"
        assert why["x"] <= 12.625 + 1e-6               # where it first comes within 3"


# N3: into combat through a model that does not move. red/1 stands 4 - 2R = 2.740" from blue
# (14, 10) but a 5"-tall wall (x 11.5-12.5, y 6-11.2) hides blue from every red model: not in
# combat. red/2 alone ("paths") goes (10, 8.25) -> (8.5, 10) -> (10, 11.75): 4.61" <= 5, ending
# 0.49" from red/1 (coherent), 3.106" from blue (out of its own range) - but from there it sees
# blue over the wall's end. The units then see each other and red/1 is within 3": in combat
# (RULES-NOTES: a model within 3" and the units visible to each other) -> refused. The same
# model stepping to (9.1, 8.9), 0.16" from red/1, stays hidden -> legal.
WALL = "  - {id: wall, outline: [[11.5, 6], [12.5, 6], [12.5, 11.2], [11.5, 11.2]], height: 5, " \
       "kind: obstacle}\n"
HIDDEN = scene(unit("red", "red", (10, 10), (10, 8.25)) + unit("blue", "blue", (14, 10)), WALL)


def test_the_unit_comes_into_combat_through_a_model_that_stays() -> None:
    _, (r,) = play(HIDDEN, {"type": "normal-move", "unit": "red",
                            "paths": {"2": [[8.5, 10], [10, 11.75]]}})
    assert codes(r) == ["moves_into_combat"], r
    state, (ok,) = play(HIDDEN, {"type": "normal-move", "unit": "red",
                                 "paths": {"2": [[9.1, 8.9]]}})
    assert ok["legal"], ok
    assert at(state, "red/2") == pytest.approx((9.1, 8.9))


# --- the movement rules -----------------------------------------------------------------------
# N9: "Models cannot move beyond the edge of the battlefield". red-e (Move 5) goes (1.5, 40) ->
# (x, 40.5) -> (1.5, 41): 2 * hypot(1.5 - x, 0.5) <= 5 for these x. With its centre at x = R the
# base touches the edge (legal); at x = R - 0.001 part of it is past x = 0 (refused), though
# the path ends on the board.
@pytest.mark.parametrize(("x", "legal"), [(R, True), (R - 0.001, False), (-0.5, False)])
def test_a_path_may_not_leave_the_board_on_the_way(x: float, legal: bool) -> None:
    text = scene(unit("red-e", "red", (1.5, 40)) + unit("blue", "blue", (50, 10)))
    _, (r,) = play(text, {"type": "normal-move", "unit": "red-e",
                          "path": [[x, 40.5], [1.5, 41]]})
    assert r["legal"] is legal, r
    assert codes(r) == ([] if legal else ["off_board"])


# N10: "Models cannot end a move mid-climb or mid-jump". A wall 2" tall (> 1": climbed) at
# x 12-12.5. red at (10.2, 10), Move 5:
# - to (12.9, 10): 2.7" + 2" up = 4.7 <= 5, but the base (12.27 - 13.53) is half on the wall's
#   top and half over the ground -> refused;
# - to (13.135, 10): 2.935 + 2 up = 4.935; the drop is a jump that ends the move, the base
#   (12.505 - 13.765) wholly off the wall -> legal;
# - a 1" wall is moved over "as if it were not there": ending half on it is legal.
CLIMB = scene(unit("red", "red", (10.2, 10)) + unit("low", "red", (10, 30))
              + unit("blue", "blue", (50, 40)),
              "  - {id: wall, outline: [[12, 0], [12.5, 0], [12.5, 20], [12, 20]], height: 2, "
              "kind: obstacle}\n"
              "  - {id: low, outline: [[12, 24], [12.5, 24], [12.5, 44], [12, 44]], height: 1, "
              "kind: obstacle}\n")


@pytest.mark.parametrize(("x", "legal"), [(12.9, False), (13.135, True)])
def test_a_move_may_not_end_mid_climb(x: float, legal: bool) -> None:
    _, (r,) = play(CLIMB, {"type": "normal-move", "unit": "red", "path": [[x, 10]]})
    assert r["legal"] is legal, r
    assert codes(r) == ([] if legal else ["straddles_terrain"])


@pytest.mark.parametrize("x", [12.9, 13.135, 11.0, 12.3])
def test_the_players_straddle_precheck_refuses_what_the_check_refuses(x: float) -> None:
    """movement.straddles (a computer player's pre-check, without the whole check) says
    exactly when the check refuses an end half on the wall."""
    from battlefield.rules.actions import Action
    from battlefield.rules.aos4 import movement
    state, _ = play(CLIMB, {"type": "normal-move", "unit": "low", "path": [[10, 30.5]]})
    action = Action("normal-move", "red", path=((10.2, 10.0), (x, 10.0)))
    refused = "straddles_terrain" in [p.code for p in state.check(action)]
    assert movement.straddles(state, movement.planned(state, 0, action)) is refused
    assert refused is (x in (12.9, 12.3))


def test_terrain_of_one_inch_is_moved_over_and_may_be_stood_across() -> None:
    state, (r,) = play(CLIMB, {"type": "normal-move", "unit": "low", "path": [[12.25, 30]]})
    assert r["legal"], r
    assert state.table.z[1] == pytest.approx(0.0)


# --- run and at-the-double --------------------------------------------------------------------
# "Make a run roll of D6. That unit can move a distance up to its Move characteristic added to
# the run roll." Move 5, run roll 3: 8.000" moves; 8.001" is short: the unit stays (the path is
# given with the action, before the roll: N21, decided). At the Double: "add 6" to that unit's
# Move", no roll: 11.000 legal, 11.001 refused (1 CP).
RUN = scene(unit("red", "red", (5, 10)) + unit("blue", "blue", (50, 40)))


@pytest.mark.parametrize(("far", "moved"), [(8.0, True), (8.001, False)])
def test_run_moves_up_to_move_plus_the_run_roll(far: float, moved: bool) -> None:
    state, (r,) = play(RUN, {"type": "run", "unit": "red", "path": [[5 + far, 10]]}, dice=[3])
    assert r["legal"], r
    assert [e["type"] for e in r["events"]][-1] == ("moved" if moved else "run-short")
    assert at(state, "red/1")[0] == pytest.approx(5 + far if moved else 5)


@pytest.mark.parametrize(("far", "legal"), [(11.0, True), (11.001, False)])
def test_at_the_double_adds_six_with_no_roll(far: float, legal: bool) -> None:
    state, (r,) = play(RUN, {"type": "run", "unit": "red", "path": [[5 + far, 10]],
                             "command": "at-the-double"})
    assert r["legal"] is legal, r
    if legal:
        assert not r["rolls"]
        assert at(state, "red/1")[0] == pytest.approx(16)
        assert state.sides["red"]["cp"] == 3


@pytest.mark.parametrize(("gap", "legal"), [(3.0, False), (3.001, True)])
def test_run_may_not_come_into_combat(gap: float, legal: bool) -> None:
    # Move 5 + 6 allows 7" here; the same 3" threshold as a normal move.
    text = scene(unit("red", "red", (10, 10)) + unit("blue", "blue", (20, 10)))
    _, (r,) = play(text, {"type": "run", "unit": "red", "path": [[20 - GAP - gap, 10]]},
                   dice=[6])
    assert r["legal"] is legal, r


def test_after_a_run_the_unit_cannot_shoot() -> None:
    # Shoot: "Pick a friendly unit that has not used a RUN or RETREAT ability this turn".
    text = scene(unit("red", "red", (5, 10)) + unit("blue", "blue", (30, 10)))
    _, (_, shoot) = play(text, {"type": "run", "unit": "red", "path": [[8, 10]]},
                         {"type": "shoot", "unit": "red", "target": "blue"}, dice=[3])
    assert codes(shoot) == ["ran_or_retreated"]


# N3 on the way, a unit moving as a block: red/1 (8, 10) and red/2 (8, 11.5) walk together to
# (10, 10) and back to (8.5, 10). At (10, 10) red/1 is 4 - 2R = 2.74" from blue (14, 10) behind
# the 5" wall (x 11.5-12.5, y 6 to `end`), red/2 at (10, 11.5) is hypot(4, 1.5) - 2R = 3.01"
# away - out of range - but with the wall ending at y 11.2 it sees blue past the wall's end:
# the units see each other while red/1 is within 3", so the unit is in combat during that part
# of the move -> refused, though it ends 4.24" away. A wall to y 14 hides blue from both ->
# legal.
@pytest.mark.parametrize(("end", "legal"), [(11.2, False), (14, True)])
def test_a_block_comes_into_combat_through_another_models_sight(end: float, legal: bool
                                                                  ) -> None:
    wall = (f"  - {{id: wall, outline: [[11.5, 6], [12.5, 6], [12.5, {end}], [11.5, {end}]], "
            f"height: 5, kind: obstacle}}\n")
    text = scene(unit("red", "red", (8, 10), (8, 11.5)) + unit("blue", "blue", (14, 10)), wall)
    _, (r,) = play(text, {"type": "normal-move", "unit": "red", "path": [[10, 10], [8.5, 10]]})
    assert r["legal"] is legal, r
    assert codes(r) == ([] if legal else ["moves_into_combat"])
