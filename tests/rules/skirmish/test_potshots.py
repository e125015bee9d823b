"""Pot shots (seed: Pot Shots, Overextended, Bombardment): a move passing within 1" of an enemy
unit at any point of its path; an overextended move within an enemy's range or within 6" of an
enemy bombardment token; once per unit per turn; only 6s hit; no support; retreats never
trigger them."""

from __future__ import annotations

import pytest

from ._scene import ARCHERS, ARTILLERY, R, attempt, of_type, piece, scene, unit

ENEMY = (18, 10)


def passing(gap: float, *extra, **stats) -> str:
    """A runner at x 5 whose straight path to x 31 passes `gap` inches (base to base) from an
    enemy model standing at ENEMY; the path's corners are far from it."""
    y = ENEMY[1] + 2 * R + gap
    return scene(unit("runner", "red", (5, y), speed=30, **stats),
                 unit("enemy", "blue", ENEMY, kind=ARCHERS, range=0.5), *extra)


def run_past(gap: float, *extra, dice=(), **stats):
    y = ENEMY[1] + 2 * R + gap
    return attempt(passing(gap, *extra, **stats),
                   {"type": "move", "unit": "runner", "path": [[5, y], [31, y]]}, dice=dice)


def test_a_path_that_grazes_0_9in_from_an_enemy_triggers_pot_shots():
    _, (r,) = run_past(0.9)
    (shots,) = of_type(r, "pot-shots")
    assert shots["by"] == "enemy" and shots["target"] == "runner"
    assert r["events"][0]["triggered"][0]["closest"] == pytest.approx(0.9)


def test_a_path_that_passes_1_1in_away_triggers_nothing():
    _, (r,) = run_past(1.1)
    assert r["legal"] and not of_type(r, "pot-shots")


def test_a_curved_path_is_checked_all_along():
    # Round the enemy: the corners are 6" or more from it, the middle leg 0.9" (or 1.1").
    text = passing(3)
    for gap, shot in ((0.9, True), (1.1, False)):
        y = ENEMY[1] + 2 * R + gap
        path = [[5, y + 3], [12, y], [24, y], [31, y + 3]]
        _, (r,) = attempt(text, {"type": "move", "unit": "runner", "path": path})
        assert bool(of_type(r, "pot-shots")) is shot, gap


def test_only_sixes_hit_whatever_the_hit_value():
    _, (r,) = run_past(0.5, dice=[5, 5, 5])
    (shots,) = of_type(r, "pot-shots")
    assert shots["hits"] == 0 and shots["hit_on"] == 6
    _, (r,) = run_past(0.5, dice=[6])
    (shots,) = of_type(r, "pot-shots")
    assert shots["hits"] == 1 and shots["slain"] == ["runner/1"]


def test_pot_shots_have_no_support():
    friends = [unit(f"f{k}", "blue", (18 + 3 * k, 20), kind=ARCHERS) for k in (1, 2)]
    _, (r,) = run_past(0.5, *friends)
    (shots,) = of_type(r, "pot-shots")
    assert shots["support"] == 0 and shots["dice"] == 1


def test_a_unit_takes_pot_shots_once_per_turn_and_several_units_may_shoot():
    y = ENEMY[1] + 2 * R + 0.5
    text = scene(unit("runner", "red", (5, y), speed=30),
                 unit("second", "red", (5, y + 3), speed=30),
                 unit("enemy", "blue", ENEMY, kind=ARCHERS, range=0.5),
                 unit("other", "blue", (25, y + 2 * R + 0.5), kind=ARCHERS, range=0.5))
    _, (a, b) = attempt(text, {"type": "move", "unit": "runner", "path": [[5, y], [31, y]]},
                        {"type": "move", "unit": "second", "path": [[5, y + 3], [5, y], [31, y]]},
                        dice=[1] * 10)
    assert [e["by"] for e in of_type(a, "pot-shots")] == ["enemy", "other"]
    assert of_type(b, "pot-shots") == []


def test_a_move_that_starts_within_1in_triggers_pot_shots():
    text = scene(unit("a", "red", (5, 5)), unit("enemy", "blue", (5, 5 + 2 * R + 0.5)))
    _, (r,) = attempt(text, {"type": "move", "unit": "a", "path": [[5, 5], [5, 1]]})
    assert [e["by"] for e in of_type(r, "pot-shots")] == ["enemy"]


def test_an_overextended_move_within_range_triggers_pot_shots():
    # Archers (range 12) at (18, 30); the runner moves at y 16: 14" leader to leader minus radii
    # is beyond 12; at y 19 it is within. Only the overextended (second) move triggers.
    text = scene(unit("runner", "red", (10, 15)),
                 unit("bows", "blue", (18, 30), kind=ARCHERS))
    _, (first, second) = attempt(
        text, {"type": "move", "unit": "runner", "path": [[10, 15], [10, 19]]},
        {"type": "move", "unit": "runner", "path": [[10, 19], [13, 19]]}, dice=[1] * 10)
    assert not of_type(first, "pot-shots")
    (shots,) = of_type(second, "pot-shots")
    assert shots["by"] == "bows" and shots["reason"] == "overextended, in range"


def test_an_overextended_move_near_an_enemy_bombardment_token_triggers_its_artillery():
    text = scene(unit("runner", "red", (5, 5)),
                 unit("gun", "blue", (30, 30), kind=ARTILLERY, range=2, keywords=("ARTILLERY",)))
    # blue places its token first (its own turn), then red's two moves come near it
    from battlefield.rules.actions import Action
    from battlefield.rules.trial import run
    from battlefield.scene.load import load_scene_text

    state, _ = run(load_scene_text(text), [Action.from_dict(
        {"type": "bombard", "unit": "gun", "at": [5, 18]})])
    assert state.sides["blue"]["bombardment"] == {"gun": [5.0, 18.0]}
    state.apply(Action("end-turn"))
    state.apply(Action.from_dict({"type": "move", "unit": "runner", "path": [[5, 5], [5, 11]]}))
    events = state.apply(Action.from_dict({"type": "move", "unit": "runner",
                                           "path": [[5, 11], [5, 13]]}))
    (shots,) = [e for e in events if e["type"] == "pot-shots"]
    assert shots["by"] == "gun" and shots["reason"] == "overextended, near bombardment token"


def test_retreats_never_trigger_pot_shots():
    text = scene(unit("a", "red", (10, 10)), unit("b", "blue", (10, 12)),
                 unit("c", "blue", (10 - 2 * R - 0.5, 7)))
    _, (r,) = attempt(text, {"type": "retreat", "unit": "a", "from": "b"})
    assert r["legal"] and of_type(r, "retreat") and not of_type(r, "pot-shots")


def test_a_unit_that_retreated_makes_no_pot_shots():
    # b retreats from the archers' attack, then the runner passes 0.5" from where it stands.
    text = scene(unit("bows", "red", (10, 4), kind=ARCHERS),
                 unit("runner", "red", (2, 2), speed=30),
                 unit("b", "blue", (10, 10), initiative=0, range=0.5))
    state, (sk,) = attempt(text, {"type": "skirmish", "unit": "bows", "target": "b",
                                  "retreat": True}, dice=[1])
    (ret,) = of_type(sk, "retreat")
    x, y = ret["to"][0]
    assert (x, y) == pytest.approx((10, 15))
    lane = y - 2 * R - 0.5
    _, (_, mv) = attempt(text, {"type": "skirmish", "unit": "bows", "target": "b",
                                "retreat": True},
                         {"type": "move", "unit": "runner", "path": [[2, 2], [2, lane],
                                                                       [20, lane]]}, dice=[1])
    assert mv["legal"] and not of_type(mv, "pot-shots")


def test_climbing_terrain_does_not_change_the_1in_rule():
    block = piece("block", 12, 0, 24, 36, 1.5, "obstacle")
    text = scene(unit("runner", "red", (5, 12 + 2 * R + 0.9), speed=30),
                 unit("enemy", "blue", (18, 12), kind=ARCHERS, range=0.5), terrain=[block])
    y = 12 + 2 * R + 0.9
    _, (r,) = attempt(text, {"type": "move", "unit": "runner", "path": [[5, y], [31, y]]})
    assert of_type(r, "pot-shots")
