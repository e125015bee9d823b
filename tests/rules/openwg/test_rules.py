"""Scenario table for openwg's rulings through `try`: each violation names the rule and its
numbers; the phases alternate with Stop; pooled wounds, Shrug and morale in the Leadership
phase with fixed dice; the unit builder's points and its errors."""

from __future__ import annotations

import json

import pytest

from battlefield.cli.main import main

from ._scene import GAP_MELEE, MELEE, R, attempt, row, scene, unit

RANGED = {"name": "Bow", "type": "ranged", "range": 8, "damage": 1, "precision": 3, "pierce": 0}


def two(gap: float = 10.0, **red) -> str:
    """red-1 (3 models in a row at y=10) and blue-1 (3 models) `gap` inches further up."""
    return scene(unit("red-1", "red", row(10, 10), **red),
                 unit("blue-1", "blue", row(10, 10 + 2 * R + gap)))


def codes(results: list[dict]) -> list[list[str]]:
    return [[v["code"] for v in r["violations"]] for r in results]


STOP = {"type": "stop"}
CASES = [
    ("move too far", two(), [{"type": "move", "unit": "red-1", "path": [[10, 10], [10, 15.42]]}],
     "move_too_far", 'red-1/1 moves 5.42", more than 5"'),
    ("run twice the move", two(), [{"type": "run", "unit": "red-1",
                                    "path": [[10, 10], [10, 4], [14, 0.8]]}],
     "move_too_far", "moves 11.12\", more than 10\""),
    ("move into combat", two(gap=5), [{"type": "move", "unit": "red-1",
                                       "path": [[10, 10], [10, 14.5]]}],
     "ends_in_combat", "within 1\""),
    ("charge short", two(gap=6), [{"type": "charge", "unit": "red-1", "target": "blue-1",
                                   "path": [[10, 10], [10, 14]]}],
     "not_in_combat_after_charge", "red-1 ends 2.00\" from blue-1, not within 1\""),
    ("charge bent", two(gap=6), [{"type": "charge", "unit": "red-1", "target": "blue-1",
                                  "path": [[10, 10], [11, 12], [10, 15.5]]}],
     "not_straight", "straight line"),
    ("charge through", two(gap=3), [{"type": "charge", "unit": "red-1", "target": "blue-1",
                                     "path": [[10, 10], [10, 16]]}],
     "moves_through", "through the enemy model"),
    ("retreat out of combat", two(), [{"type": "retreat", "unit": "red-1",
                                       "path": [[10, 10], [10, 8]]}],
     "not_in_combat", "only a unit in combat retreats"),
    ("retreat stays", two(gap=0.5), [{"type": "retreat", "unit": "red-1",
                                      "path": [[10, 10], [10, 9.8]]}],
     "still_in_combat", "within 1\""),
    ("hold without standfast", two(), [{"type": "hold", "unit": "red-1"}],
     "not_standfast", "Standfast"),
    ("not your turn", two(), [{"type": "stop"}, {"type": "stop", "side": "red"}],
     "not_your_turn", "blue's action"),
    ("wrong phase", two(), [{"type": "move", "unit": "red-1", "path": [[10, 10], [10, 11]]},
                            {"type": "fight", "unit": "blue-1", "target": "red-1"}],
     "wrong_phase", "melee phase action; it is the movement phase"),
    ("ran then shoot", two(weapons=[RANGED]),
     [{"type": "run", "unit": "red-1", "path": [[10, 10], [10, 12]]}, STOP, STOP, STOP,
      {"type": "shoot", "unit": "red-1", "target": "blue-1", "weapon": "Bow"}],
     "ran_this_round", "red-1 ran this round: it may not shoot"),
    ("out of range", two(gap=9, weapons=[RANGED]),
     [{"type": "shoot", "unit": "red-1", "target": "blue-1", "weapon": "Bow"}],
     "no_target_in_range", "(8\"; the closest is 9.00\")"),
    ("shoot with a melee weapon", two(gap=3, weapons=[RANGED, MELEE]),
     [{"type": "shoot", "unit": "red-1", "target": "blue-1", "weapon": "Blade"}],
     "not_a_ranged_weapon", "Blade is a melee weapon"),
    ("fight out of combat", two(gap=3), [{"type": "fight", "unit": "red-1",
                                          "target": "blue-1"}],
     "not_in_combat", "3.00\" apart"),
    ("adjust out of combat", two(gap=0.5),
     [{"type": "fight", "unit": "red-1", "target": "blue-1",
       "adjust": {"1": [[10, 8]], "2": [[11.2, 8]], "3": [[12.4, 8]]}}],
     "adjust_leaves_combat",
     "red-1 ends 2.50\" from blue-1, not within 1\" of a model"),
]


@pytest.mark.parametrize("name,text,actions,code,words", CASES, ids=[c[0] for c in CASES])
def test_violations_name_the_rule_and_numbers(name, text, actions, code, words):
    _, results = attempt(text, *actions)
    last = results[-1]
    assert all(r["legal"] for r in results[:-1]), codes(results)
    assert not last["legal"] and last["violations"][0]["code"] == code, codes(results)
    assert words in last["violations"][0]["message"]


def test_the_sides_alternate_and_the_first_to_stop_acts_first_next_phase():
    text = scene(unit("red-1", "red", row(10, 10)), unit("red-2", "red", row(20, 10)),
                 unit("blue-1", "blue", row(10, 30)))
    state, results = attempt(
        text,
        {"type": "move", "unit": "red-1", "path": [[10, 10], [10, 12]]},
        {"type": "stop"},                        # blue stops first ...
        {"type": "move", "unit": "red-2", "path": [[20, 10], [20, 12]]},   # red goes on
        {"type": "stop"})                        # red stops: the ranged phase, blue first
    assert all(r["legal"] for r in results), codes(results)
    assert state.phase == "ranged" and state.acting_side == "blue"
    state, results = attempt(text, {"type": "stop", "side": "red"}, {"type": "stop"},
                             {"type": "stop", "side": "red"},    # ranged: red first
                             {"type": "stop", "side": "blue"})
    assert all(r["legal"] for r in results), codes(results)
    assert state.phase == "melee" and state.acting_side == "red"      # red stopped first


def test_pooled_wounds_shrug_and_morale_in_the_leadership_phase():
    """3 hits that always wound pool 3 WOUNDS on blue (Shrug 1, Bravery 5, 5 models); in the
    Leadership phase the shrug dice 1, 4, 5 ignore one: 2 slain; morale 4 + 2 over 5: 1 flees."""
    sure = {"name": "Blade", "type": "melee", "range": 1, "damage": 1, "precision": 6,
            "pierce": 0}
    text = scene(unit("red-1", "red", row(10, 10), weapons=[sure]),
                 unit("blue-1", "blue", row(9.4, 10 + GAP_MELEE, 5),
                      stats={"armor": 0, "bravery": 5, "shrug": 1}),
                 state={"phase": "melee"})
    state, results = attempt(text, {"type": "fight", "unit": "red-1", "target": "blue-1"},
                             STOP, STOP, dice=[6, 6, 6, 6, 6, 6, 1, 4, 5, 4])
    assert all(r["legal"] for r in results), codes(results)
    events = [e for r in results for e in r["events"]]
    wounds = next(e for e in events if e["type"] == "wounds")
    assert (wounds["wounds"], wounds["ignored"], len(wounds["slain"])) == (3, 1, 2)
    morale = next(e for e in events if e["type"] == "morale")
    assert morale["fled"] == ["blue-1/3"]
    assert state.units[1].models_alive == 2
    assert (state.round, state.phase, state.acting_side) == (2, "movement", "blue")


def test_try_json_shows_the_state_after_several_phases(capsys, tmp_path):
    text = two()
    assert main(["try", _file(text, tmp_path), "--json",
                 "--action", json.dumps({"type": "move", "unit": "red-1",
                                         "path": [[10, 10], [10, 12]]}),
                 "--action", '{"type": "stop"}', "--action", '{"type": "stop"}']) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["legal"] for r in out["results"]] == [True, True, True]
    assert out["state"]["phase"] == "ranged" and out["state"]["acting"] == "blue"


def _file(text: str, folder) -> str:
    path = folder / "scene.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


SPEARHEAD = {"template": "troops", "upgrades": {"movement": 1, "bravery": 3, "armor": 1,
                                                 "precision": 1, "melee_range": 1,
                                                 "standfast": 1, "melee_pierce": 1},
             "models": 10, "health": 1}


def test_points_of_the_seeds_spearhead(capsys):
    assert main(["points", "demo-openwg", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["units"]["blue-spearhead"]["points"] == 20 and d["sides"] == {"blue": 20}
    st = d["units"]["blue-spearhead"]["stats"]
    assert (st["move"], st["bravery"], st["armor"]) == (5, 8, 2)
    assert st["weapons"][0] | {} == {"name": "Melee", "type": "melee", "range": 2, "damage": 2,
                                     "precision": 3, "pierce": 1}


@pytest.mark.parametrize("build,points", [
    # Troops 5 + one health rank (2) = 7; 6 models with 2 health: 2 off -> 5.
    ({"template": "troops", "upgrades": {"health": 1}, "models": 6, "health": 2}, 5),
    # Rocks list +2 Movement at cost 1, 2 and 3: bought twice = 10 + 1 + 2.
    ({"template": "rocks", "upgrades": {"movement": 2}, "models": 12, "health": 1}, 13),
    # Breakers 12 + two "+3 Movement" (2 each) + Frenzy 3; rank 3: 3 models with 4 health -6.
    ({"template": "breakers", "upgrades": {"movement_3": 2, "frenzy": 1}, "models": 3,
      "health": 4}, 13),
])
def test_points_by_hand(build, points, capsys, tmp_path):
    text = scene(unit("red-1", "red", row(5, 5, build["models"]), build=build),
                 unit("blue-1", "blue", row(5, 40, 10), build=SPEARHEAD))
    assert main(["points", _file(text, tmp_path), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["units"]["red-1"]["points"] == points and d["sides"]["blue"] == 20


@pytest.mark.parametrize("upgrades,models,health,said", [
    ({"armor": 2}, 10, 1, "units[0].build.upgrades.armor: armor bought 2 times takes armor to "
                          "3, past the troops template's maximum 2"),
    ({"flying": 1}, 10, 1, "units[0].build.upgrades.flying: the troops template sells no "
                           "upgrade 'flying'"),
    ({}, 7, 1, "7 models with 1 health is not a choice of health rank 2 (expected 10 models "
               "with 1 health OR 5 models with 2 health)"),
    ({"standfast": 2}, 10, 1, "sells it at most 1 time"),
])
def test_a_bad_build_is_one_clear_error(upgrades, models, health, said, capsys, tmp_path):
    build = {"template": "troops", "upgrades": upgrades, "models": models, "health": health}
    text = scene(unit("red-1", "red", row(5, 5, models), build=build),
                 unit("blue-1", "blue", row(5, 40)))
    path = _file(text, tmp_path)
    for command in (["points"], ["validate"], ["simulate", "--ruleset", "openwg", "--map"]):
        assert main([*command, path]) == 2, command
        err = capsys.readouterr().err
        assert said in err and path in err and len(err.strip().splitlines()) == 1, err


def test_a_model_may_not_have_its_own_armor(tmp_path, capsys):
    """Armor, Bravery and Shrug are the unit's: a model's own `armor` is refused at its key
    (it was read and never used)."""
    from battlefield.cli.main import main
    from battlefield.scene.load import resolve_scene_path

    text = resolve_scene_path("demo-openwg").read_text(encoding="utf-8")
    start = text.index("at: [", text.index("models:"))
    text = text[:start] + "stats: {armor: 5}, " + text[start:]
    path = tmp_path / "armor.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "stats.armor: 'armor' is the unit's" in err and "Traceback" not in err


def test_a_leading_stop_without_a_side_is_the_first_sides_not_the_later_units(capsys,
                                                                              tmp_path):
    # `stop` then a blue move: red (the side that acts first) stops and blue moves; before,
    # the stop took blue from the move and blue's own move was refused as red's turn.
    text = two()
    move = {"type": "move", "unit": "blue-1", "path": [[10, 10 + 2 * R + 10], [10, 23 + 2 * R]]}
    for first, legal in (({"type": "stop"}, True), ({"type": "stop", "side": "blue"}, False)):
        assert main(["try", _file(text, tmp_path), "--json", "--action", json.dumps(first),
                     "--action", json.dumps(move)]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["results"][0]["legal"]
        stopped = next(e for e in out["results"][0]["events"] if e["type"] == "stop")
        assert stopped["side"] == ("red" if legal else "blue")
        assert out["results"][1]["legal"] is legal
