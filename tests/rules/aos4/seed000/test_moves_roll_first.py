"""N21: a charge (or a run) declared without its path, in the seed's order - "Then, make a charge
roll of 2D6" (declare), then "That unit can move a distance up to the value of the charge roll"
(the move answers the roll, the charging side's decision), or it declines: stays, the charge
failed.

Scene: red (one 32 mm model, R = 0.629921") at (10, 22), blue at (16, 22): 6" between centres;
the shortest charge ends 1/2" from blue: 6 - 2R - 1/2 = 4.240157".
"""

from __future__ import annotations

import pytest

from ._moves import R, codes, play

SCENE = """ruleset: aos4
board: {width: 60, depth: 44}
units:
  - {id: red, side: red, stats: {move: 5, health: 1, save: 4}, models: [{base: 32, at: [10, 22]}]}
  - {id: blue, side: blue, stats: {move: 5, health: 1, save: 4},
     models: [{base: 32, at: [16, 22]}]}
state:
  round: 1
  phase: charge
  active: red
  acting: red
  clock: {round: 1, turn: 1, active: red, first: red, phase: charge, acting: red,
          over: false, underdog: null}
  sides:
    red: {cp: CP, vp: 0, commands: [], spells: [], prayers: []}
    blue: {cp: 0, vp: 0, commands: [], spells: [], prayers: []}
  objectives: {}
  units: {}
  dice: 1
"""
DECLARE = {"type": "charge", "unit": "red", "target": "blue"}
SHORTEST = 6 - 2 * R - 0.5


def scene(cp: int = 0) -> str:
    return SCENE.replace("CP", str(cp))


def types(r: dict) -> list[str]:
    return [e["type"] for e in r["events"]]


# A roll of 4 (1 + 3) is short of 4.24": no legal charge - it fails at once and says why; the
# unit does not move. A roll of 5 (2 + 3) reaches: red decides the move.
def test_the_roll_comes_first_and_a_roll_with_no_legal_charge_fails_there():
    state, (r,) = play(scene(), DECLARE, dice=[1, 3])
    assert types(r) == ["charge-roll", "charge-failed"]
    assert r["events"][1]["failed"] == 'charge failed: no legal charge of 4": the shortest ' \
                                       'needs 4.24"'
    assert not state.pending and state.table.x[0] == 10
    state, (r,) = play(scene(), DECLARE, dice=[2, 3])
    assert types(r) == ["charge-roll", "decision"]
    d = state.pending[0]
    assert (d.side, d.kind, d.get("roll"), d.open) == ("red", "charge-move", "5", ("charge",))


# Roll 5. The move answers it: to 1/2" from blue (4.240") -> charged; 0.01" shorter, ending
# 0.51" from blue -> not within 1/2"; to (14.9, 23.27), 0.42" from blue but hypot(4.9, 1.27) =
# 5.06" long -> too far for the roll. Either refusal leaves the decision open.
@pytest.mark.parametrize("end, problem", [
    ((10 + SHORTEST, 22), None),
    ((10 + SHORTEST - 0.01, 22), "charge_not_reached"),
    ((14.9, 23.27), "move_too_far"),
])
def test_the_move_answers_the_roll_and_is_checked_against_it(end, problem):
    answer = {"type": "charge", "unit": "red", "path": [list(end)]}
    state, (_, r) = play(scene(), DECLARE, answer, dice=[2, 3])
    if problem is None:
        assert r["legal"], r["violations"]
        assert types(r)[-1] == "charged" and "charged" in state.units[0].flags
    else:
        assert problem in codes(r), r["violations"]
        assert state.pending                     # still red's to decide


def test_decline_leaves_the_unit_where_it_stood_and_the_charge_failed():
    state, (_, r) = play(scene(), DECLARE, {"type": "decline", "side": "red"}, dice=[2, 3])
    assert types(r) == ["decided", "charge-failed"]
    assert state.table.x[0] == 10 and "charged" not in state.units[0].flags


# Forward to Victory written on the declaration (1 CP): the first roll, 3 (1 + 2), gives no
# legal charge -> re-rolled (1 CP spent): 6 (3 + 3) -> red decides the move.
def test_forward_to_victory_rerolls_a_roll_with_no_legal_charge():
    declare = {**DECLARE, "command": "forward-to-victory"}
    state, (r,) = play(scene(cp=1), declare, dice=[1, 2, 3, 3])
    assert types(r) == ["charge-roll", "command", "charge-roll", "decision"]
    assert state.pending[0].get("roll") == "6" and state.sides["red"]["cp"] == 0


# Run: "Make a run roll of D6. That unit can move a distance up to its Move characteristic added
# to the run roll." runner (Move 5) at (10, 10), declared without a path: roll 2 -> up to 7":
# to (17, 10) -> moved; to (17.01, 10) -> too far (the decision stays open); decline -> it
# stays, and it has used a RUN ability ("ran": no shooting or charging this turn).
RUN = SCENE.replace("phase: charge", "phase: movement").replace("CP", "0").replace(
    "at: [10, 22]", "at: [10, 10]").replace("at: [16, 22]", "at: [50, 40]")


@pytest.mark.parametrize("answer, x, problem", [
    ({"type": "run", "unit": "red", "path": [[17, 10]]}, 17.0, None),
    ({"type": "run", "unit": "red", "path": [[17.01, 10]]}, 10.0, "move_too_far"),
    ({"type": "decline", "side": "red"}, 10.0, None),
])
def test_a_run_rolls_first_and_its_move_answers_the_roll(answer, x, problem):
    state, (r1, r2) = play(RUN, {"type": "run", "unit": "red"}, answer, dice=[2])
    assert types(r1) == ["run", "decision"] and r1["events"][0]["allowed"] == 7
    assert state.table.x[0] == pytest.approx(x)
    assert "ran" in state.units[0].flags
    if problem:
        assert codes(r2) == [problem] and state.pending
    else:
        assert r2["legal"] and not state.pending
