"""A ruleset from the test suite plays through the CLI without touching battlefield/: it is
installed as its own distribution (an entry point in the group `battlefield.rulesets`, written
here as the metadata pip would write) and found by name."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
RACE = HERE / "homebrew_ruleset" / "data" / "race.yaml"     # its demo battle


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, str]:
    site = tmp_path_factory.mktemp("site")
    info = site / "homebrew_ruleset-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: homebrew-ruleset\n"
                                   "Version: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[battlefield.rulesets]\n"
                                           "homebrew = homebrew_ruleset:RULESET\n",
                                           encoding="utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(HERE), env.get("PYTHONPATH", "")])
    return env


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "battlefield", *args], env=env,
                          capture_output=True, text=True)


# What a ruleset written against the Ruleset class may import of battlefield: the class and the
# engine's core it lists (rules/ruleset.py's top), and the geometry under them.
CORE = ("battlefield.rules.ruleset", "battlefield.rules.state", "battlefield.rules.actions",
        "battlefield.rules.moves", "battlefield.rules.result", "battlefield.rules.damage",
        "battlefield.rules.chance", "battlefield.rules.decisions", "battlefield.rules.dice",
        "battlefield.geometry")


def test_it_imports_only_the_ruleset_class_and_the_core():
    source = (HERE / "homebrew_ruleset" / "__init__.py").read_text(encoding="utf-8")
    found = {n.module for n in ast.walk(ast.parse(source))
             if isinstance(n, ast.ImportFrom) and n.module and n.module.startswith("battlefield")}
    assert "battlefield.rules.ruleset" in found
    assert {m for m in found if not any(m == c or m.startswith(c + ".") for c in CORE)} == set()


def test_a_homebrew_ruleset_simulates_a_battle_through_the_cli(installed):
    out = cli(installed, "simulate", "--ruleset", "homebrew", "--map", str(RACE), "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    # Red steps 2.7" a round straight at the flag (3 rounds: both models end within 3");
    # blue's 2" move never allows its player's 2.7" step, so blue stays put.
    assert result["winner"] == "red"
    assert result["victory_points"] == {"red": 2, "blue": 0}


def test_its_demo_battle_ships_with_its_data(installed):
    # `demo: race` in its ruleset.yaml names race.yaml in its own data folder: simulate plays
    # it without --map (and the conformance suite would find it, as a bundled ruleset's).
    out = cli(installed, "simulate", "--ruleset", "homebrew", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["winner"] == "red"


def test_the_conformance_suite_plays_it(installed):
    # Installed, the homebrew ruleset is one more playable ruleset with a demo: the suite every
    # bundled ruleset runs (seeded battle, replay, undo, positions, hostile positions and
    # actions) runs on it too, in a process that has the distribution.
    suites = [str(HERE.parent / f) for f in ("test_conformance.py", "test_properties.py",
                                             "test_boundary.py")]
    out = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider",
                          "-k", "homebrew", *suites], env=installed, capture_output=True,
                         text=True, cwd=HERE.parent.parent.parent)
    # 0: tests were chosen and passed (pytest says 5 when -k chooses none)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]


def test_try_rules_on_a_homebrew_action_with_its_numbers(installed):
    step = {"type": "step", "unit": "blue-1", "path": [[20, 20], [17, 17]]}
    out = cli(installed, "try", str(RACE), "--action", json.dumps(step), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    v = data["results"][0]["violations"][0]
    assert v["code"] == "step_too_far" and v["allowed"] == 2.0
    assert v["used"] == pytest.approx(4.242641, abs=1e-6)
    assert data["state"]["acting"] == "blue" and data["state"]["sides"]["blue"] == {"steps": 0}


def test_the_homebrew_ruleset_is_listed_and_its_rulings_work(installed):
    out = cli(installed, "check", str(RACE), "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["ruleset"] == "homebrew"
    out = cli(installed, "simulate", "--ruleset", "nosuch")
    assert out.returncode == 2 and "homebrew" in out.stderr


def test_without_the_distribution_the_ruleset_is_unknown():
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-m", "battlefield", "check", str(RACE)], env=env,
                         capture_output=True, text=True)
    assert out.returncode == 2 and "homebrew" in out.stderr and "Traceback" not in out.stderr


def test_register_makes_a_ruleset_playable_in_process():
    sys.path.insert(0, str(HERE))
    try:
        import homebrew_ruleset

        from battlefield.rules import registry
        from battlefield.rules.battle import play
        from battlefield.rules.state import Game
        from battlefield.scene.load import load_scene

        registry.register(homebrew_ruleset.RULESET)
        assert "homebrew" in registry.playable()
        state = play(Game(registry.get("homebrew"), load_scene(RACE), 1))
        assert state.over and state.result()["winner"] == "red"
    finally:
        registry.unregister("homebrew")
        sys.path.remove(str(HERE))
