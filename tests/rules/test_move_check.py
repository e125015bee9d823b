"""The one move check (rules/moves.check_move) every ruleset's moves go through: each part a
parameter, worked out by hand on small scenes. What a move may pass through and end in are
parameters (Keep), so the rulings of Age of Sigmar's retreat (through combat ranges, not
ending in one, every model), redeploy (neither), Power Through (only the ranges of enemies that
were not in combat with it) and pile-in (no further from the target) are one line each."""

from __future__ import annotations

import pytest

from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.moves import Arrive, Keep, Step, check_move
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text

# 32 mm bases: 1.26" across, reach 0.63". red-1's two models at x 10 and 12 (y 10); blue-1 at
# (16, 20) and blue-2 at (30, 10), each one model.
SCENE = """\
ruleset: skirmish
board: {width: 40, depth: 30}
terrain:
- {id: rock, outline: [[20, 0], [22, 0], [22, 2], [20, 2]], height: 3}
units:
- id: red-1
  side: red
  stats: {speed: 6}
  models: [{base: 32, at: [10, 10]}, {base: 32, at: [12, 10]}]
- id: blue-1
  side: blue
  models: [{base: 32, at: [16, 20]}]
- id: blue-2
  side: blue
  models: [{base: 32, at: [30, 10]}]
"""
GAP = 32 / 25.4    # centre to centre, less this: edge to edge of two 32 mm bases


def state():
    return Game(registry.get("skirmish"), load_scene_text(SCENE, "m.yaml"), 1).new_state()


def codes(checked) -> list[str]:
    return [v.code for v in checked.problems]


def test_a_legal_move_places_the_models_and_says_what_each_spends():
    st = state()
    checked = check_move(st, 0, Action("move", "red-1", path=((10, 10), (10, 13))), 6)
    assert checked.problems == [] and checked.longest == pytest.approx(3)
    assert checked.after.y[0] == pytest.approx(13) and checked.after.y[1] == pytest.approx(13)


def test_the_model_furthest_past_its_allowance_speaks_for_the_unit():
    st = state()
    # each model its own allowance: model 0 may go 2", model 1 6"; both go 3"
    checked = check_move(st, 0, Action("move", "red-1", path=((10, 10), (10, 13))),
                         lambda m: 2.0 if m == 0 else 6.0)
    assert codes(checked) == ["move_too_far"]
    assert checked.problems[0].models == ("red-1/1",)
    assert dict(checked.problems[0].numbers) == {"moved": 3.0, "allowed": 2.0}


def test_a_cost_of_its_own_and_its_risk():
    st = state()
    checked = check_move(st, 0, Action("move", "red-1", path=((10, 10), (10, 11))), 6,
                         cost=lambda m, path: Step(4.0, 1.5, risky=m == 1))
    assert checked.problems == [] and checked.risky == [1]
    too = check_move(st, 0, Action("move", "red-1", path=((10, 10), (10, 11))), 3,
                     cost=lambda m, path: Step(4.0, 1.5))
    assert too.problems[0].message == 'red-1/1 moves 4.00" (climbing 1.50"), more than 3"'


# Passing through and ending in enemy ranges: red-1 goes up to x 16 (y 16.5): 3.5" from blue-1's
# centre line, so its models' bases come within 3" of blue-1 (3.5 - 1.26 = 2.24"), then back
# down to y 12, where they end 8" - 1.26" = 6.74" from it.
THROUGH = ((10, 10), (14, 16.5), (10, 12))


@pytest.mark.parametrize("keep, refused", [
    (Keep(3, passing=True, ending=False), ["ends_in_combat_range"]),     # redeploy: neither
    (Keep(3, passing=False, ending=True), []),                           # retreat: may pass
    (Keep(2, passing=True, ending=False), []),                           # never within 2"
])
def test_a_move_may_or_may_not_pass_through_a_range(keep, refused):
    st = state()
    checked = check_move(st, 0, Action("move", "red-1", path=THROUGH), None, keep=(keep,))
    assert codes(checked) == refused
    if refused:
        (x, y) = dict(checked.problems[0].numbers)["x"], dict(checked.problems[0].numbers)["y"]
        assert "would move into combat range with blue-1" in checked.problems[0].message
        assert 11 < x < 15 and 12 < y < 17.5


def test_every_model_or_only_the_moved_ones_may_not_end_in_range():
    st = state()
    # model 2 goes to (14, 17): 3.61 - 1.26 = 2.35" from blue-1; model 1 stays 10.77" away
    action = Action("move", "red-1", paths=((2, ((12, 10), (14, 17))),))
    assert codes(check_move(st, 0, action, None, keep=(Keep(3),))) == ["ends_in_combat_range"]
    # blue-1 moved beside model 1, which does not move: refused only for every model
    st.table = st.table.moved([2], [10], [12.5])
    away = Action("move", "red-1", paths=((2, ((12, 10), (12, 6))),))
    assert codes(check_move(st, 0, away, None, keep=(Keep(3, every=False),))) == []
    checked = check_move(st, 0, away, None, keep=(Keep(3, every=True),))
    assert codes(checked) == ["ends_in_combat_range"]
    assert checked.problems[0].models == ("red-1/1", "blue-1/1")
    assert dict(checked.problems[0].numbers)["distance"] == pytest.approx(2.5 - GAP)


def test_only_the_foes_a_keep_names_count():
    st = state()
    st.table = st.table.moved([2, 3], [14, 11], [14, 14])    # both enemies near (12, 12)
    action = Action("move", "red-1", path=((10, 10), (10, 12)))
    only_2 = Keep(3, foes=lambda s, u: [2])
    checked = check_move(st, 0, action, None, keep=(only_2,))
    assert checked.problems[0].units == ("red-1", "blue-2")


def test_a_move_must_arrive_where_it_says():
    st = state()
    near = Action("move", "red-1", path=((10, 10), (15, 17.5)))   # 2.5 - 1.26" from blue-1
    assert codes(check_move(st, 0, near, None, arrive=Arrive((1,), 1.5))) == []
    assert codes(check_move(st, 0, near, None, arrive=Arrive((1,), 1.0))) == ["not_reached"]
    assert codes(check_move(st, 0, near, None, arrive=Arrive((2,), 1.5))) == ["not_reached"]


def test_a_pile_in_goes_no_further_from_the_target():
    st = state()
    # model 2 from (12, 10) to (13, 9): from blue-1 10.77" -> 11.40" (centres), from blue-2
    # 18" -> 17.03": further from the one, nearer the other
    step = Action("move", "red-1", paths=((2, ((12, 10), (13, 9))),))
    checked = check_move(st, 0, step, None, closer=(1,))
    assert codes(checked) == ["pile_in_further"] and checked.problems[0].models == ("red-1/2",)
    assert codes(check_move(st, 0, step, None, closer=(2,))) == []


def test_a_move_just_past_its_allowance_says_by_how_much():
    """5.004" against 5": not 'moves 5.00", more than 5"' (a newcomer's drop at the allowance
    read as if 5 were more than 5), but as many decimals as show it past."""
    st = state()
    too = check_move(st, 0, Action("move", "red-1", path=((10, 10), (10, 11))), 5,
                     cost=lambda m, path: Step(5.004, 0.0))
    assert too.problems[0].message == 'red-1/1 moves 5.004", more than 5"'
    far = check_move(st, 0, Action("move", "red-1", path=((10, 10), (10, 11))), 12,
                     cost=lambda m, path: Step(20.8, 0.0))
    assert far.problems[0].message == 'red-1/1 moves 20.80", more than 12"'
