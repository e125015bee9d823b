"""warband through the command line: check says what in_combat means, odds and try answer in
the issue's JSON, and the README's round-2 log still replays (its screenshot comes from it)."""

from __future__ import annotations

import json
from pathlib import Path

from battlefield.cli.main import main
from battlefield.rules import log

from ._scene import BLADE, R, fighter, scene

ROOT = Path(__file__).resolve().parents[3]


def _scene_file(tmp_path: Path) -> str:
    text = scene(fighter("red-1", "red", 10, 10, BLADE),
                 fighter("blue-1", "blue", 10 + 2 * R + 0.84, 10))
    path = tmp_path / "duel.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_check_says_engaged_is_within_1_inch_in_3d(tmp_path, capsys):
    path = _scene_file(tmp_path)
    assert main(["check", path]) == 0
    assert "combat = within 1\" in 3-D" in capsys.readouterr().out
    assert main(["check", path, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["combat"]["distance"] == "3d"
    assert [p["in_combat"] for p in data["pairs"]] == [True, True]


def test_odds_and_try_answer_in_the_issues_json(tmp_path, capsys):
    path = _scene_file(tmp_path)
    assert main(["odds", path, "--attack", "red-1", "blue-1", "--weapon", "Blade",
                 "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert {"expected_damage", "distribution", "hit_on", "attackers"} <= set(d)
    assert d["attackers"] == {"Blade": ["red-1/1"]} and d["hit_on"] == 4
    assert main(["try", path, "--json", "--action",
                 '{"type": "move", "unit": "red-1", "path": [[10, 10], [9, 10]]}']) == 0
    out = json.loads(capsys.readouterr().out)
    (r,) = out["results"]
    assert r["violations"][0]["code"] == "engaged"
    assert r["violations"][0]["message"].startswith("0.84\" from blue-1")
    red = out["state"]["sides"]["red"]
    assert red["initiative"] is True and red["singles"] == 4
    assert red["ability_dice"] == ["[double] 6"] and red["activated"] == []
    assert red["waiting"] == []


def test_the_readme_round_2_log_replays():
    saved = log.read(ROOT / "assets" / "warband-round2.jsonl")
    state, diff = log.replay(saved)
    assert diff is None and state.round == 2 and not state.over


def test_a_reaction_written_on_the_attack_that_breaks_a_rule_is_refused_by_name(tmp_path,
                                                                                 capsys):
    """blue-2 is not the target: its dodge written on the attack is refused (not_targeted) and
    blue answers no reaction, said in the answers (it was quietly taken as no reaction)."""
    text = scene(fighter("red-1", "red", 10, 10, BLADE),
                 fighter("blue-1", "blue", 10 + 2 * R + 0.5, 10),
                 fighter("blue-2", "blue", 20, 10))
    path = tmp_path / "three.yaml"
    path.write_text(text, encoding="utf-8")
    attack = {"type": "attack", "unit": "red-1", "target": "blue-1", "weapon": "Blade",
              "reaction": {"unit": "blue-2", "type": "dodge"}}
    assert main(["try", str(path), "--action", json.dumps(attack), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)["results"][0]
    assert result["legal"]
    first, then = result["answered"][:2]
    assert first["unit"] == "blue-2" and first["refused"][0]["code"] == "not_targeted"
    assert then == {"type": "no-reaction", "side": "blue"}
    assert main(["try", str(path), "--action", json.dumps(attack)]) == 0
    assert "answer react blue-2 refused: not_targeted" in capsys.readouterr().out


def test_odds_say_the_chance_the_target_is_slain(tmp_path, capsys):
    """3 attacks, Strength 5 against Defense 4 (3+), 2 a hit, 5 a critical, on a fighter with
    5 wounds: slain unless the damage is 0, 2 or 4 - 1 - (1/27 + 1/6 + 1/4) = 59/108."""
    text = scene(fighter("red-1", "red", 10, 10, {**BLADE, "attacks": 3, "strength": 5,
                                                   "damage": 2, "crit": 5}),
                 fighter("blue-1", "blue", 10 + 2 * R + 0.5, 10, wounds=5))
    path = tmp_path / "cap.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["odds", str(path), "--attack", "red-1", "blue-1", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["wounds_left"] == 5 and abs(d["slain"] - 59 / 108) < 1e-6
