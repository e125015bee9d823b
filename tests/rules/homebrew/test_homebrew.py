"""The sixth ruleset: tests/rules/homebrew ("flag race"), written from battlefield/rules/README.md
alone, lives outside battlefield/ and is installed as its own distribution (tests/conftest.py
writes the metadata pip would write: an entry point in the group `battlefield.rulesets`). Every
suite that runs over registry.playable() plays it; these tests check it is found that way and
plays through the commands."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from battlefield.paths import entry_point_rulesets
from battlefield.rules import registry

HERE = Path(__file__).parent
RACE = HERE / "homebrew_ruleset" / "data" / "race.yaml"     # its demo battle
SOURCE = HERE / "homebrew_ruleset" / "__init__.py"


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "battlefield", *args],
                          env=env or dict(os.environ), capture_output=True, text=True,
                          timeout=120)


# What a ruleset written from rules/README.md may import of battlefield: the class and the
# engine's core the README lists, and the geometry under them.
CORE = ("battlefield.rules.ruleset", "battlefield.rules.state", "battlefield.rules.actions",
        "battlefield.rules.moves", "battlefield.rules.result", "battlefield.rules.damage",
        "battlefield.rules.chance", "battlefield.rules.decisions", "battlefield.rules.dice",
        "battlefield.rules.datafile", "battlefield.rules.handlers", "battlefield.rules.questions",
        "battlefield.rules.steps", "battlefield.rules.rounds", "battlefield.rules.window",
        "battlefield.rules",
        "battlefield.geometry")


def test_it_imports_only_the_ruleset_class_and_the_core():
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    found = {n.module for n in ast.walk(tree)
             if isinstance(n, ast.ImportFrom) and n.module and n.module.startswith("battlefield")}
    assert "battlefield.rules.ruleset" in found
    assert {m for m in found if not any(m == c or m.startswith(c + ".") for c in CORE)} == set()
    # it uses the shared mechanisms, not copies of them
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    assert {"check_move", "Keep", "handles", "read", "deal", "OddsQuestion", "places",
            "first_legal"} <= names


def test_it_is_found_by_its_entry_point_and_is_playable():
    assert "homebrew" in entry_point_rulesets()
    assert "homebrew" in registry.playable()
    rules = registry.get("homebrew")
    assert rules.spec.demo_path == RACE and rules.book.rounds == 3


def test_a_homebrew_battle_through_the_cli():
    out = cli("simulate", "--ruleset", "homebrew", "--seed", "3", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    # Both sides step 3" a move at the flag and stop 1" short of each other; the fight phases
    # shove (the seed's dice slay one of blue's models), and red holds the flag with more.
    assert result["winner"] == "red" and result["round"] == 3
    assert result["victory_points"] == {"red": 2, "blue": 1}


def test_a_shorter_race_is_a_parameter():
    from battlefield.rules.battle import play
    from battlefield.rules.state import Game
    from battlefield.scene.load import load_scene

    state = play(Game(registry.get("homebrew"), load_scene(RACE), 3, {"rounds": 1}))
    assert state.result().round == 1


def test_try_rules_on_a_homebrew_action_with_its_numbers():
    step = {"type": "step", "unit": "blue-1", "path": [[18, 18], [15, 15]]}
    out = cli("try", str(RACE), "--action", json.dumps(step), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    v = data["results"][0]["violations"][0]
    assert v["code"] == "move_too_far" and v["allowed"] == 3.0
    assert v["moved"] == pytest.approx(4.242641, abs=1e-6)
    assert data["state"]["acting"] == "blue"


def test_the_engine_checks_its_vocabulary_and_its_phases():
    out = cli("try", str(RACE), "--action", json.dumps(
        {"type": "shove", "unit": "red-1", "target": "blue-1", "weapon": "x"}), "--json")
    v = json.loads(out.stdout)["results"][0]["violations"][0]
    assert v["code"] == "unknown_key" and "valid: type, side, unit, target" in v["message"]
    out = cli("try", str(RACE), "--action", json.dumps(
        {"type": "shove", "unit": "red-1", "target": "blue-1"}), "--json")
    v = json.loads(out.stdout)["results"][0]["violations"][0]
    assert v["code"] == "wrong_phase" and "fight phase action" in v["message"]


def test_its_odds_question_and_its_option():
    out = cli("odds", str(RACE), "--shove", "red-1", "blue-1", "--extra-dice", "1", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["dice"] == 3 and d["expected_damage"] == pytest.approx(1.5)
    assert "--extra-dice" in cli("odds", "--help").stdout


def test_the_homebrew_ruleset_is_listed_and_its_rulings_work():
    out = cli("check", str(RACE), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["ruleset"] == "homebrew"
    out = cli("simulate", "--ruleset", "nosuch")
    assert out.returncode == 2 and "homebrew" in out.stderr


def test_without_the_distribution_the_ruleset_is_unknown():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in env.get("PYTHONPATH", "").split(os.pathsep)
        if p and not Path(p, "homebrew_ruleset-0.1.dist-info").exists()
        and Path(p) != HERE)
    out = cli("check", str(RACE), env=env)
    assert out.returncode == 2 and "homebrew" in out.stderr and "Traceback" not in out.stderr


def test_register_makes_a_ruleset_playable_in_process():
    import homebrew_ruleset

    from battlefield.rules.battle import play
    from battlefield.rules.state import Game
    from battlefield.scene.load import load_scene

    again = homebrew_ruleset.FlagRace()             # one registered wins over the installed
    registry.register(again)
    try:
        assert registry.get("homebrew") is again and "homebrew" in registry.playable()
        state = play(Game(registry.get("homebrew"), load_scene(RACE), 3))
        assert state.over and state.result()["winner"] == "red"
    finally:
        registry.unregister("homebrew")
    assert registry.get("homebrew") is not again
