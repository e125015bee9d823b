"""Seed 000's moves that start in, or pass by, enemy combat ranges (i32b): retreat, redeploy and
Power Through, each on a small scene with fixed dice and the answer worked out by hand. Every
model of the unit counts at the end - moved or not - and a path is checked exactly, not at
sampled points. 32 mm bases: edge gap = centre gap - 2R, R = 0.629921"."""

from __future__ import annotations

import pytest

from ._moves import GAP, at, codes, play, scene, unit

END_OF_TURN = """state:
  round: 1
  phase: end
  active: red
  acting: red
  clock: {round: 1, turn: 1, active: red, first: red, phase: end, acting: red, over: false,
          underdog: null}
  sides:
    red: {cp: 4, vp: 0, commands: [], spells: [], prayers: []}
    blue: {cp: 4, vp: 0, commands: [], spells: [], prayers: []}
  objectives: {}
  units:
    red: {flags: [charged], used: []}
"""


# --- retreat: "Inflict D3 mortal damage on that unit. ... can move through the combat ranges of
# any enemy units but cannot end that move within an enemy unit's combat range." ---------------
# red (Health 5) at (10, 10) is 3 - 2R = 1.74" from blue (13, 10): in combat. Retreating to x
# leaves an edge gap of 13 - x - 2R: 3.000 refused, 3.001 legal (D3 = 1: one damage).
@pytest.mark.parametrize(("gap", "legal"), [(3.0, False), (3.001, True)])
def test_retreat_may_not_end_within_combat_range(gap: float, legal: bool) -> None:
    text = scene(unit("red", "red", (10, 10), health=5) + unit("blue", "blue", (13, 10)))
    state, (r,) = play(text, {"type": "retreat", "unit": "red",
                              "path": [[13 - GAP - gap, 10]]}, dice=[1])
    assert r["legal"] is legal, r
    if legal:
        assert [e["type"] for e in r["events"]] == ["mortal-damage", "moved"]
        assert state.units[0].damage[0] == 1
    else:
        assert codes(r) == ["ends_in_combat_range"]


def test_retreat_may_pass_through_combat_ranges() -> None:
    # Round blue, (10, 10) -> (10, 13) -> (16.5, 13): at (13, 13) it is 3 - 2R = 1.74" from
    # blue; it ends hypot(3.5, 3) - 2R = 3.35" away: 3 + 6.5 = 9.5" <= Move 10 -> legal.
    text = scene(unit("red", "red", (10, 10), move=10, health=5) + unit("blue", "blue", (13, 10)))
    _, (r,) = play(text, {"type": "retreat", "unit": "red", "path": [[10, 13], [16.5, 13]]},
                   dice=[1])
    assert r["legal"], r


# At different heights: blue stands on a 2"-tall block (x 18-20.3) at z 2; red on the ground
# at (16.5, 10), 19.63 - 16.5 - 2R = 1.87" away, sees it over the block's edge (in combat).
# Combat range is horizontal: ending 3.000" away horizontally, 2" below, is still within it.
@pytest.mark.parametrize(("gap", "legal"), [(3.0, False), (3.001, True)])
def test_retreat_from_a_unit_standing_higher(gap: float, legal: bool) -> None:
    text = scene(unit("red", "red", (16.5, 10), health=5) + unit("blue", "blue", (19.63, 10)),
                 "  - {id: block, outline: [[18, 8], [20.3, 8], [20.3, 12], [18, 12]], "
                 "height: 2, kind: solid}\n")
    state, (r,) = play(text, {"type": "retreat", "unit": "red",
                              "path": [[19.63 - GAP - gap, 10]]}, dice=[1])
    assert state.table.z[1] == pytest.approx(2.0)
    assert r["legal"] is legal, r


# Every model at the end, not only those given paths: pair (Health 3) has model 1 at (10, 25)
# and model 2 at (10, 26.7); blue2 at (13, 25.5). Only model 2 moves, to (8.6, 26.0), ending
# hypot(4.4, 0.5) - 2R = 3.17" from blue2 - but model 1 stays hypot(3, 0.5) - 2R = 1.78" from
# it: the unit ends within combat range -> refused, naming pair/1.
def test_retreat_checks_the_models_that_stay() -> None:
    text = scene(unit("pair", "red", (10, 25), (10, 26.7), health=3)
                 + unit("blue2", "blue", (13, 25.5)))
    _, (r,) = play(text, {"type": "retreat", "unit": "pair", "paths": {"2": [[8.6, 26.0]]}},
                   dice=[1])
    assert codes(r) == ["ends_in_combat_range"]
    assert r["violations"][0]["models"][0] == "pair/1"


# The crash (AttributeError: 'Violation' object has no attribute 'paths'): pair1 (Health 1)
# retreats with a path for each model; its D3 = 1 slays model 2 (damage fills the models that
# are not the leader first). Model 2's path goes with it; model 1 still moves to (8.6, 35.0),
# hypot(4.4, 0.5) - 2R = 3.17" from blue3 -> legal, one model slain, the other moved.
def test_a_retreat_whose_damage_slays_a_model_with_a_path() -> None:
    text = scene(unit("pair1", "red", (10, 35), (10, 36.7)) + unit("blue3", "blue", (13, 35.5)))
    state, (r,) = play(text, {"type": "retreat", "unit": "pair1",
                              "paths": {"1": [[8.6, 35.0]], "2": [[8.6, 36.7]]}}, dice=[1])
    assert r["legal"], r
    assert [e["type"] for e in r["events"]] == ["mortal-damage", "slain", "moved"]
    assert not state.table.on_table[1]
    assert at(state, "pair1/1") == pytest.approx((8.6, 35.0))


# --- redeploy: "Each model in that unit can move up to D6". That move cannot pass through or
# end within the combat range of an enemy unit." (enemy movement phase, 1 CP, MOVE and RUN) ---
# red at (10, 10) walks to (16, 10) past blue at (13, 10 + 2R + d): its closest approach, at
# x = 13, is exactly d. D6 = 6. d = 3.000 passes through the range (refused), 3.001 does not.
@pytest.mark.parametrize(("d", "legal"), [(2.94, False), (3.0, False), (3.001, True)])
def test_redeploy_may_not_pass_through_combat_range(d: float, legal: bool) -> None:
    text = scene(unit("red", "red", (10, 10)) + unit("blue", "blue", (13, 10 + GAP + d)))
    state, (r,) = play(text, {"type": "redeploy", "unit": "red", "path": [[16, 10]]}, dice=[6])
    assert r["legal"] is legal, r
    assert at(state, "red/1")[0] == pytest.approx(16 if legal else 10)


@pytest.mark.parametrize(("gap", "legal"), [(3.0, False), (3.001, True)])
def test_redeploy_may_not_end_within_combat_range(gap: float, legal: bool) -> None:
    # red (10, 10) towards blue (20, 10): x = 20 - 2R - gap, 5.74" <= the D6 of 6.
    text = scene(unit("red", "red", (10, 10)) + unit("blue", "blue", (20, 10)))
    _, (r,) = play(text, {"type": "redeploy", "unit": "red", "path": [[20 - GAP - gap, 10]]},
                   dice=[6])
    assert r["legal"] is legal, r


def test_redeploy_checks_the_models_that_stay() -> None:
    # red/1 stands 2.74" from blue behind a 5" wall (not in combat: unseen), red/2 moves away
    # alone: the unit still ends with red/1 within blue's combat range -> refused.
    wall = ("  - {id: wall, outline: [[11.5, 6], [12.5, 6], [12.5, 11.2], [11.5, 11.2]], "
            "height: 5, kind: obstacle}\n")
    text = scene(unit("red", "red", (10, 10), (10, 8.25)) + unit("blue", "blue", (14, 10)), wall)
    _, (r,) = play(text, {"type": "redeploy", "unit": "red", "paths": {"2": [[9.1, 8.9]]}},
                   dice=[6])
    assert codes(r) == ["ends_in_combat_range"]
    assert r["violations"][0]["models"][0] == "red/1"


# Redeploy is a RUN ability: Covering Fire ("Pick a friendly unit that is not in combat and did
# not use a RUN ability this turn") and Counter-charge (a CHARGE ability: "has not used a RUN or
# RETREAT ability this turn") are refused after it. red at (10, 10), blue at (13, 14.2): 3.90"
# apart; red redeploys to (13, 9.93) (D6 = 4), 4.27 - 2R = 3.01" from blue.
REDEPLOYED = scene(unit("red", "red", (10, 10), health=5) + unit("blue", "blue", (13, 14.2),
                                                                  health=5))
AFTER = [({"type": "covering-fire", "unit": "red", "target": "blue"}, [4, 4, 4, 4]),
         ({"type": "counter-charge", "unit": "red", "target": "blue", "path": [[13, 12.45]]},
          [4, 4])]


@pytest.mark.parametrize(("then", "dice"), AFTER, ids=["covering-fire", "counter-charge"])
def test_after_a_redeploy_no_run_refused_ability(then: dict, dice: list[int]) -> None:
    redeploy = {"type": "redeploy", "unit": "red", "path": [[13, 9.93]]}
    _, (r, after) = play(REDEPLOYED, redeploy, then, dice=[4, *dice])
    assert r["legal"], r
    assert not after["legal"], after
    # The same command without the redeploy is legal: it is the RUN that refuses it.
    _, (alone,) = play(REDEPLOYED, then, dice=dice)
    assert alone["legal"], alone


# --- power-through: "It can pass through and end that move within the combat ranges of enemy
# units that were in combat with it at the start of the move, but not those of other enemy
# units." (End of Any Turn, 1 CP; red charged this turn, Health 5 against blue's 2) ------------
# red at (10, 10) is 1.74" from blue (13, 10): in combat. blue-x at (10, 15 + 2R + d) was not
# in combat with red (4.97 + d apart). red moves to (10, 15), ending d from blue-x.
def power_scene(units: str) -> str:
    return scene(unit("red", "red", (10, 10), health=5) + unit("blue", "blue", (13, 10),
                                                                health=2) + units) + END_OF_TURN


@pytest.mark.parametrize(("d", "legal"), [(3.0, False), (3.001, True)])
def test_power_through_may_not_end_in_an_unengaged_range(d: float, legal: bool) -> None:
    text = power_scene(unit("blue-x", "blue", (10, 15 + GAP + d), health=2))
    state, (r,) = play(text, {"type": "power-through", "unit": "red", "target": "blue",
                              "path": [[10, 15]]}, dice=[1])
    assert r["legal"] is legal, r
    if legal:
        assert [e["type"] for e in r["events"]] == ["command", "mortal-damage", "moved"]
        assert at(state, "red/1") == pytest.approx((10, 15))


def test_power_through_may_not_pass_an_unengaged_range() -> None:
    # blue-y at (13.5, 12.5) starts hypot(3.5, 2.5) - 2R = 3.04" from red: not in combat. red's
    # path (10, 10) -> (10, 15) passes 3.5 - 2R = 2.24" from it at y = 12.5 -> refused.
    text = power_scene(unit("blue-y", "blue", (13.5, 12.5), health=2))
    _, (r,) = play(text, {"type": "power-through", "unit": "red", "target": "blue",
                          "path": [[10, 15]]}, dice=[1])
    assert codes(r) == ["ends_in_combat_range"]


def test_power_through_may_end_in_the_engaged_units_range() -> None:
    # To (13, 11.6): hypot(0, 1.6) - 2R = 0.34" from blue, which was in combat with it: legal.
    _, (r,) = play(power_scene(""), {"type": "power-through", "unit": "red", "target": "blue",
                                     "path": [[13, 11.6]]}, dice=[1])
    assert r["legal"], r


@pytest.mark.parametrize(("move", "moved"), [([1, 2], True), ([1, 1], False)])
def test_power_through_rolls_a_dice_move(move: list[int], moved: bool) -> None:
    # N15: red's Move is 2D6; "can move a distance up to its Move characteristic" - rolled, as
    # a normal move rolls it. D3 = 1 on blue, then the move roll: 3 reaches the 3" path to
    # (7, 10), 2 does not (the unit stays).
    text = power_scene("").replace("move: 5, health: 5", "move: 2D6, health: 5", 1)
    state, (r,) = play(text, {"type": "power-through", "unit": "red", "target": "blue",
                              "path": [[7, 10]]}, dice=[1, *move])
    assert r["legal"], r
    assert [x["for"] for x in r["rolls"]] == ["power through red", "move roll red"]
    assert r["events"][-1]["type"] == ("moved" if moved else "move-short")
    assert at(state, "red/1")[0] == pytest.approx(7 if moved else 10)
