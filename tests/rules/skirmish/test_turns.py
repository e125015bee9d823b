"""The turn (seed: On Your Turn, Fortifying, Commanding, Overextended) and the battle (RULES-NOTES
gaps): two commands or fortify; objectives by combined model counts with home objectives; morale
tokens; winning and losing."""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path

import pytest

from battlefield.cli.main import main
from battlefield.rules import decisions
from battlefield.rules.actions import Action
from battlefield.rules.log import rules_for
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text

from ._scene import ARCHERS, ARTILLERY, attempt, codes, of_type, scene, unit

MOVE_A = {"type": "move", "unit": "a", "path": [[5, 5], [5, 6]]}
MOVE_B = {"type": "move", "unit": "b", "path": [[8, 5], [8, 6]]}


def army(**state):
    return scene(unit("a", "red", (5, 5)), unit("b", "red", (8, 5)),
                 unit("x", "blue", (5, 30)), unit("y", "blue", (8, 30)),
                 objectives=[{"id": "west", "at": [5, 18]}, {"id": "east", "at": [30, 18]},
                             {"id": "home-red", "at": [18, 4], "home": "red"},
                             {"id": "home-blue", "at": [18, 32], "home": "blue"}],
                 state=state or None)


def test_two_commands_a_turn():
    _, (one, two, three) = attempt(army(), MOVE_A, MOVE_B,
                                   {"type": "move", "unit": "a", "path": [[5, 6], [5, 7]]})
    assert one["legal"] and two["legal"]
    assert codes(three) == ["no_commands_left"]


def test_the_same_unit_may_take_both_commands_overextended_the_second_time():
    _, (one, two) = attempt(army(), MOVE_A, {"type": "move", "unit": "a",
                                             "path": [[5, 6], [5, 7]]})
    assert one["events"][0]["overextended"] is False
    assert two["events"][0]["overextended"] is True
    # different units, or different actions: not overextended
    _, (_, other) = attempt(army(), MOVE_A, MOVE_B)
    assert other["events"][0]["overextended"] is False


def test_end_turn_passes_to_the_other_side_and_units_are_refreshed():
    text = army()
    game = Game(rules_for("skirmish"), load_scene_text(text), 1)
    state = game.new_state()
    state.apply(Action.from_dict(MOVE_A))
    assert state.check(Action.from_dict({"type": "move", "unit": "x",
                                         "path": [[5, 30], [5, 29]]}))[0].code == "not_yours"
    state.apply(Action("end-turn"))
    assert state.clock["active"] == "blue" and state.clock["commands"] == 0
    assert not state.units[0].flags


def test_objectives_combine_the_model_counts_of_every_unit_on_them():
    # red: a 3-model unit with one model within 2" of the centre (all 3 count); blue: two units
    # of 2 on it: 3 - 4, blue controls; then a tie 3 - 3 controls nothing.
    objective = [{"id": "mid", "at": [18, 18]}]
    red = unit("r", "red", (18, 16.6), (18, 14), (18, 12.8))
    text = scene(red, unit("b1", "blue", (18, 19.4), (19.2, 19.4)),
                 unit("b2", "blue", (16.5, 19.5), (15.5, 20.4)), objectives=objective)
    assert _control(text)["mid"]["controlled_by"] == "blue"
    assert _control(text)["mid"]["totals"] == {"red": 3, "blue": 4}
    text = scene(red, unit("b1", "blue", (18, 19.4), (19.2, 19.4), (20.4, 19.4)),
                 objectives=objective)
    assert _control(text)["mid"]["controlled_by"] is None


def test_a_home_objective_tied_0_0_belongs_to_its_home_side():
    text = army()
    c = _control(text)
    assert c["home-red"]["controlled_by"] == "red" and c["home-blue"]["controlled_by"] == "blue"
    assert c["west"]["controlled_by"] is None
    # a tie with models on it too: still the home side's
    text = scene(unit("a", "red", (18, 5)), unit("x", "blue", (18, 3)),
                 objectives=[{"id": "home-red", "at": [18, 4], "home": "red"}])
    assert _control(text)["home-red"]["controlled_by"] == "red"


def _control(text: str) -> dict:
    """`battlefield check SCENE --json`'s objectives."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "scene.yaml"
        path.write_text(text)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["check", str(path), "--json"]) == 0
    return json.loads(out.getvalue())["objectives"]


def test_fortify_only_with_more_objectives_and_the_opponent_loses_the_difference():
    _, (r,) = attempt(army(), {"type": "fortify", "side": "red"})
    assert codes(r) == ["not_ahead"]
    assert (r["violations"][0]["mine"], r["violations"][0]["theirs"]) == (1, 1)
    text = scene(unit("a", "red", (5, 18)), unit("b", "red", (30, 18)),
                 unit("x", "blue", (5, 30)),
                 objectives=[{"id": "west", "at": [5, 18]}, {"id": "east", "at": [30, 18]},
                             {"id": "home-red", "at": [18, 4], "home": "red"},
                             {"id": "home-blue", "at": [18, 32], "home": "blue"}])
    state, (ok, then) = attempt(text, {"type": "fortify", "side": "red"}, MOVE_A)
    (e,) = of_type(ok, "fortify")
    assert e["objectives"] == {"red": 3, "blue": 1} and e["lost"] == {"blue": 2}
    assert state.sides["blue"]["morale"] == 10 and state.sides["red"]["morale"] == 12
    assert codes(then) == ["turn_over"]
    _, (_, late) = attempt(text, {"type": "move", "unit": "a", "path": [[5, 18], [5, 18.5]]},
                           {"type": "fortify", "side": "red"})
    assert codes(late) == ["commanding"]


def test_a_side_out_of_morale_tokens_loses():
    text = scene(unit("a", "red", (5, 18)), unit("b", "red", (30, 18)),
                 unit("x", "blue", (5, 30)),
                 objectives=[{"id": "west", "at": [5, 18]}, {"id": "east", "at": [30, 18]}],
                 state={"morale": {"blue": 2}})
    state, (r,) = attempt(text, {"type": "fortify", "side": "red"})
    assert state.over
    assert state.result()["winner"] == "red"
    assert "morale" in state.result()["by"]


@pytest.mark.parametrize(("morale", "winner"), [({"red": 4, "blue": 5}, "blue"),
                                                ({"red": 5, "blue": 5}, None)])
def test_after_round_6_more_tokens_wins(morale, winner):
    game = Game(rules_for("skirmish"), load_scene_text(army(round=6, morale=morale)), 1)
    state = game.new_state()
    state.apply(Action("end-turn"))
    assert not state.over
    state.apply(Action("end-turn"))
    assert state.over and state.result()["winner"] == winner
    assert state.result()["morale"] == morale and state.result().score == "morale"
    assert "victory_points" not in state.result()


def test_a_destroyed_army_loses():
    text = scene(unit("a", "red", (5, 10), kind=ARCHERS, initiative=2),
                 unit("b", "blue", (5, 15), kind=ARCHERS))
    state, _ = attempt(text, {"type": "skirmish", "unit": "a", "target": "b"}, dice=[6])
    assert state.over and state.result()["winner"] == "red"


def test_unknown_actions_and_keys_are_refused_with_the_valid_ones():
    _, (r, s) = attempt(army(), {"type": "charge", "unit": "a"},
                        {"type": "move", "unit": "a", "path": [[5, 5], [5, 6]], "run": True})
    assert codes(r) == ["unknown_action"] and "skirmish" in r["violations"][0]["message"]
    assert codes(s) == ["unknown_key"] and "jump" in s["violations"][0]["message"]


def test_a_scene_may_start_later_in_the_battle():
    game = Game(rules_for("skirmish"), load_scene_text(army(round=6, active="blue",
                                                            morale={"red": 3})), 1)
    state = game.new_state()
    assert state.clock["round"] == 6 and state.clock["active"] == "blue"
    assert state.sides["red"]["morale"] == 3
    from battlefield.errors import InputError

    with pytest.raises(InputError, match=r":\d+: state\.turn: unknown key"):
        Game(rules_for("skirmish"), load_scene_text(army(turn=2)), 1).new_state()


# --- bombardment ---------------------------------------------------------------------------------
def battery(strike=1, **gun):
    return scene(unit("gun", "red", (5, 5), (6.2, 5), kind=ARTILLERY, keywords=("ARTILLERY",),
                      **gun),
                 unit("bows", "red", (20, 5), kind=ARCHERS),
                 unit("x", "blue", (5, 12), kind=ARCHERS, range=20, strike=strike),
                 unit("y", "blue", (30, 30), kind=ARCHERS, range=2))


def bombard(at, uid="gun"):
    return {"type": "bombard", "unit": uid, "at": list(at)}


def test_a_token_goes_more_than_10in_from_the_artillery():
    _, (near, far, other) = attempt(battery(), bombard((5, 5 + 10 + 0.3)), bombard((5, 17)),
                                    bombard((30, 20), "bows"))
    assert codes(near) == ["too_close"]
    assert near["violations"][0]["distance"] == pytest.approx(10.3 - 25 / 25.4 / 2)
    assert far["legal"]
    assert codes(other) == ["no_bombardment"]


def test_a_later_bombardment_moves_the_token():
    state, (one, two) = attempt(battery(), bombard((5, 20)), bombard((20, 25)))
    assert two["legal"] and of_type(two, "bombardment-token")[0].get("moved")
    assert state.sides["red"]["bombardment"] == {"gun": [20.0, 25.0]}


def test_the_token_is_removed_when_the_artillery_moves():
    state, (_, mv) = attempt(battery(), bombard((5, 20)),
                             {"type": "move", "unit": "gun", "path": [[5, 5], [5, 4]]})
    assert of_type(mv, "bombardment-token-removed")[0]["because"] == "moved"
    assert state.sides["red"]["bombardment"] == {}


def test_the_token_is_removed_when_the_artillery_attacks_in_a_skirmish():
    state, (_, sk) = attempt(battery(), bombard((30, 28)),
                             {"type": "skirmish", "unit": "gun", "target": "x"}, dice=[1] * 20)
    assert of_type(sk, "bombardment-token-removed")[0]["because"] == "attacked in a skirmish"
    assert state.sides["red"]["bombardment"] == {}


def test_the_token_stays_when_the_artillery_is_attacked_without_retaliating():
    # x attacks the gun on blue's turn: the gun (range 30) strikes back and loses its token;
    # with range 2 it cannot strike back, and keeps it.
    for rng, kept in ((30, False), (2, True)):
        game = Game(rules_for("skirmish"), load_scene_text(battery(range=rng)), 1)
        state = game.new_state(fixed_dice=[1] * 20)
        state.apply(Action.from_dict(bombard((5, 20))))
        state.apply(Action("end-turn"))
        state.apply(Action.from_dict({"type": "skirmish", "unit": "x", "target": "gun"}))
        decisions.settle(state, {}, ())          # both commit 0, nobody retreats
        assert ("gun" in state.sides["red"]["bombardment"]) is kept


def test_the_token_is_removed_when_the_artillery_is_destroyed():
    game = Game(rules_for("skirmish"), load_scene_text(battery(strike=2, range=2)), 1)
    state = game.new_state(fixed_dice=[6] * 20)
    state.apply(Action.from_dict(bombard((5, 20))))
    state.apply(Action("end-turn"))
    events = state.apply(Action.from_dict({"type": "skirmish", "unit": "x", "target": "gun"}))
    events += decisions.settle(state, {}, ())[1]
    assert any(e["type"] == "destroyed" and e["unit"] == "gun" for e in events)
    assert state.sides["red"]["bombardment"] == {}
