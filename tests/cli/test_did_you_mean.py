"""Every mistyped name on the command line gets `did you mean NAME?` with the closest valid
name right after those words: units, models, scenes, maps, rulesets, commands and
subcommands, phases, sides, actions."""

from __future__ import annotations

import json

import pytest

from battlefield.cli.main import main

SHOOT = {"type": "shoot", "unit": "red-archers", "target": "blue-drake"}


@pytest.mark.parametrize(("argv", "offered"), [
    (["checks"], "check"),                                         # a command
    (["simulat", "--ruleset", "aos4"], "simulate"),
    (["army", "catalogue"], "catalogues"),                         # a subcommand
    (["schema", "scen"], "scene"),                                 # a positional's choices
    (["check", "demoo"], "demo"),                                  # a scene
    (["render", "demo-warbnd", "-o", "x.png"], "demo-warband"),
    (["analyze", "opn"], "open"),                                  # a map
    (["simulate", "--ruleset", "aos"], "aos4"),                    # a ruleset
    (["rulesets", "skirmsh"], "skirmish"),
    (["schema", "--ruleset", "warbnd"], "warband"),
    (["measure", "demo", "red-blade", "blue-drake"], "red-blades"),           # a unit
    (["odds", "demo", "--attack", "red-archers", "blue-drak"], "blue-drake"),
    (["measure", "demo", "red-archers/30", "blue-drake"], "red-archers/3"),   # a model
    (["measure", "demo", "red-archer/3", "blue-drake"], "red-archers/3"),
    (["play", "--ruleset", "aos", "--screenshot", "x.png"], "aos4"),
    (["play", "demoo", "--screenshot", "x.png"], "demo"),
    (["play", "--computer", "blu", "--screenshot", "x.png"], "blue"),         # a side
    (["play", "--phase", "moovement", "--screenshot", "x.png"], "movement"),  # a phase
    (["play", "--drag", "red-lancer", "--screenshot", "x.png"], "red-lancers"),
])
def test_a_mistyped_name_gets_the_closest_valid_one(argv: list[str], offered: str, capsys,
                                                     tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert _run(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert f"did you mean {offered}?" in err, err
    assert "Traceback" not in err


def _run(argv: list[str]) -> int:
    """main's exit status, argparse's own errors (SystemExit) included."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


@pytest.mark.parametrize(("action", "offered"), [
    ({**SHOOT, "type": "shot"}, "shoot"),                          # an action
    ({**SHOOT, "unit": "red-archer"}, "red-archers"),              # its unit
    ({**SHOOT, "target": "blue-drak"}, "blue-drake"),              # its target
])
def test_a_mistyped_action_or_unit_in_try(action: dict, offered: str, capsys) -> None:
    assert main(["try", "demo", "--action", json.dumps(action), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)["results"][0]
    assert not result["legal"]
    assert any(f"did you mean {offered}?" in v["message"] for v in result["violations"])


def test_a_name_nothing_is_like_gets_no_guess(capsys) -> None:
    assert main(["measure", "demo", "zzzzzzzz", "blue-drake"]) == 2
    err = capsys.readouterr().err
    assert "no unit 'zzzzzzzz'" in err and "did you mean" not in err
