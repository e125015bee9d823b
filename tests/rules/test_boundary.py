"""rules/boundary.py: outside data becomes an Action in one place. A field not of the type its
action declares (engine fields here, each ruleset's in ruleset.yaml action_fields:) is a
bad_field violation naming the field's path; try reports it ILLEGAL; nothing raises."""

from __future__ import annotations

import json
import math

import pytest

from battlefield.cli.main import main
from battlefield.inputs import FieldTypeError, dumps, loads, parse_type
from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.boundary import CODE, Refused, read
from battlefield.rules.state import Game
from battlefield.rulesets import field_names, load_ruleset
from battlefield.scene.load import load_scene


def try_json(capsys, *actions: str, scene: str = "demo") -> list[dict]:
    argv = ["try", scene, "--json"]
    for a in actions:
        argv += ["--action", a]
    assert main(argv) == 0
    out = capsys.readouterr().out
    json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} in --json output"))
    return json.loads(out)["results"]


@pytest.mark.parametrize("action, field", [
    ('{"type": "normal-move", "unit": "red-lancers", "path": [[NaN, 1], [2, 3]]}', "path[0][0]"),
    ('{"type": "normal-move", "unit": "red-lancers", "path": [[1, 2], [Infinity, 3]]}',
     "path[1][0]"),
    ('{"type": "normal-move", "unit": "red-lancers", "path": [[1, 1e999]]}', "path[0][1]"),
    ('{"type": "normal-move", "unit": "red-lancers", "facing": ' + "9" * 5000 + "}", "facing"),
    ('{"type": "shoot", "unit": "red-archers", "target": {"a": 1}}', "target"),
    ('{"type": "shoot", "unit": "red-archers", "target": ["blue-drake", 7]}', "target[1]"),
    ('{"type": "run", "unit": "red-lancers", "command": 1, "path": [[12.5, 8], [12.5, 9]]}',
     "command"),
    ('{"type": "shoot", "unit": 5, "target": "blue-drake"}', "unit"),
    ('{"type": "shoot", "unit": "nobody", "target": "blue-drake"}', "unit"),
    ('{"type": "decline", "side": "green"}', "side"),
    ('{"type": "normal-move", "unit": "red-lancers", "paths": {"99": [[1, 2]]}}', "paths.99"),
    ('{"type": "normal-move", "unit": "red-lancers", "paths": {"1": [[1, 2, 3]]}}',
     "paths.1[0]"),
    # an empty list names nothing (emberskin's target [] was an IndexError in aos4/magic.py)
    ('{"type": "emberskin", "unit": "red-pyromancer", "target": []}', "target"),
    ('{"type": "shoot", "unit": "red-archers", "target": []}', "target"),
    ('{"type": "run", "unit": "red-lancers", "command": [], "path": [[12.5, 8], [12.5, 9]]}',
     "command"),
])
def test_a_bad_field_is_illegal_naming_its_path(capsys, action, field):
    (r,) = try_json(capsys, action)
    assert not r["legal"]
    assert [v["code"] for v in r["violations"]] == [CODE]
    assert r["violations"][0]["field"] == field
    assert r["violations"][0]["message"].startswith(f"{field}: ")


def test_an_empty_list_says_so(capsys):
    (r,) = try_json(capsys, '{"type": "skirmish", "unit": "red-scouts", "target": '
                            '"blue-scouts", "retreat": []}', scene="demo-skirmish")
    assert r["violations"][0]["message"] == (
        "retreat: [] is an empty list (expected list of unit: at least one, or leave the "
        "field out)")


def test_try_prints_a_bad_field_as_illegal(capsys):
    assert main(["try", "demo", "--action", '{"type": "normal-move", "unit": "red-lancers", '
                 '"path": [[NaN, 1], [2, 3]]}']) == 0
    out = capsys.readouterr().out
    assert "1. normal-move red-lancers: ILLEGAL" in out
    assert "bad_field: path[0][0]: nan is not a finite number" in out


@pytest.mark.parametrize("text, words", [
    ("[" * 5000, "nested more than"),
    ('{"type": "x", "a": "' + "y" * 200_000 + '"}', "characters"),
    ("{not json", "not JSON"),
    ('{"type": "end-phase", "type": "normal-move", "unit": "red-lancers", "path": [[1, 2]]}',
     "key 'type' is given twice"),              # was the last one, taken silently
])
def test_text_that_cannot_be_an_action_is_one_line(capsys, text, words):
    assert main(["try", "demo", "--action", text]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and words in err and len(err) < 400


def test_an_action_of_the_vocabulary_still_plays():
    (r,) = [read({"type": "shoot", "unit": "red-archers", "target": "blue-drake"},
                 load_scene("maps/demo.yaml"))]
    assert r == Action("shoot", "red-archers", target="blue-drake")


@pytest.mark.parametrize("action", [
    Action("shoot", unit=["red-archers"]),                   # type: ignore[arg-type]
    Action("shoot", "red-archers", target=({"x": 1},)),      # type: ignore[arg-type]
    Action("run", "red-lancers", options=(("command", math.nan),)),
    Action("run", "red-lancers", options="junk"),            # type: ignore[arg-type]
    Action(7),                                               # type: ignore[arg-type]
    Action("normal-move", "red-lancers", path=((math.inf, 1.0),)),
    Action("normal-move", "red-lancers", facing=math.nan),
    "not an action",
])
def test_state_check_refuses_any_malformed_action_object_without_raising(action):
    state = Game(registry.get("aos4"), load_scene("maps/demo.yaml"), 1).new_state()
    before = state.fingerprint()
    bad = state.check(action)           # type: ignore[arg-type]
    assert bad and bad[0].code == CODE
    assert state.fingerprint() == before


def test_refused_data_is_shown_as_strict_json():
    r = read({"type": "run", "unit": "red-lancers", "path": [[math.nan, 1]]},
             load_scene("maps/demo.yaml"))
    assert isinstance(r, Refused)
    dumps(r.to_dict())                   # no NaN left in what is shown


def test_every_field_a_vocabulary_names_has_a_type():
    from battlefield.rules.boundary import ENGINE_FIELDS

    for name in registry.playable():
        rs = load_ruleset(name)
        declared = set(ENGINE_FIELDS) | {k for k, _ in rs.action_fields}
        for doc in [*rs.actions, *([rs.unlisted_actions] if rs.unlisted_actions else [])]:
            for one in field_names(doc.fields):
                assert one in declared, f"{name}: {doc.id}'s field {one!r} has no type"
            assert set(doc.shorthand) <= declared, f"{name}: {doc.id}'s shorthand"


@pytest.mark.parametrize("text", ["whole 1..", "list", "side ->", "frob", "whole 3..1",
                                  "(text | unit"])
def test_a_field_type_written_wrongly_is_refused(text):
    with pytest.raises(FieldTypeError):
        parse_type(text)


def test_json_numbers_are_read_without_conversion_past_the_limits():
    data = loads('{"a": ' + "1" * 5000 + ', "b": 1e999, "c": NaN}', "--action 1")
    assert repr(data["a"]) == "<a number of 5000 digits>"
    assert math.isinf(data["b"]) and math.isnan(data["c"])
    with pytest.raises(ValueError):
        dumps({"x": math.nan})


def test_an_error_quoting_a_huge_argument_is_cut_short(capsys):
    assert main(["measure", "demo", "x" * 200_000, "red-archers"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and len(err) < 1200 and "characters" in err


@pytest.mark.parametrize("model", ["9" * 5000, "\u0661", "0", "", "1.0"])
def test_a_model_number_is_plain_digits(capsys, model):
    """UNIT/N with 5,000 digits was a ValueError from int(); another script's digit 1 (U+0661)
    was read as model 1."""
    assert main(["measure", "demo", f"red-archers/{model}", "blue-drake"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and len(err) < 1200
    assert "unit red-archers has models 1..8" in err


@pytest.mark.parametrize("argv", [["try", "demo", "--action", "{}", "--seed", "9" * 200_000],
                                  ["odds", "demo-openwg", "--morale", "red-vulkites", "--slain",
                                   "9" * 200_000]])
def test_an_option_argparse_refuses_is_quoted_cut_short(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    *usage, line = capsys.readouterr().err.strip().splitlines()
    assert "invalid int value" in line and "characters" in line and len(line) < 1200


@pytest.mark.parametrize("ruleset", [n for n in registry.playable()
                                     if registry.get(n).spec.demo])
def test_every_action_the_engines_players_send_passes_the_boundary(ruleset):
    """What a log, the bot and the joined window send is Action.to_dict as JSON (a mapping
    field such as blocks' `order: {charge: ...}` written as [key, value] pairs): read back, it
    is the same action, never a bad_field."""
    from battlefield.rules.deploy import battle_scene
    from battlefield.scene.load import load_scene_text

    package = registry.get(ruleset)
    text, name = battle_scene(ruleset, None)
    scene = load_scene_text(text, name)
    state = Game(package, scene, 5).new_state(keep_undo=False)
    players = {side: package.player() for side in state.sides}
    for _ in range(120):
        if state.over:
            break
        action = players[state.acting_side].choose(state)
        assert read(loads(dumps(action.to_dict()), "sent"), scene) == action
        state.apply(action)
