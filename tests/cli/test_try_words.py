"""`try` says what happened in the play window's words (rules/outcome.py): the outcome first,
credited to the action that caused it, every event in words, never key=value; --json keeps
the raw fields."""

from __future__ import annotations

import json
import re

from battlefield.cli.main import main

SHOOT = '{"type": "shoot", "unit": "red-archers", "target": "blue-drake"}'
SKIRMISH = ['{"type": "skirmish", "unit": "red-scouts", "target": "blue-scouts"}',
            '{"type": "commit", "side": "red", "tokens": 2}',
            '{"type": "commit", "side": "blue", "tokens": 1}']
RAW = re.compile(r"\w=|\{'|'\}|\bTrue\b|\bFalse\b|about=|cover=")


def _try(capsys, *actions: str, extra: tuple[str, ...] = ()) -> str:
    argv = ["try", "demo" if len(actions) == 1 else "demo-skirmish"]
    for a in actions:
        argv += ["--action", a]
    assert main(argv + list(extra)) == 0
    return capsys.readouterr().out


def test_the_outcome_comes_first_in_words(capsys) -> None:
    out = _try(capsys, SHOOT)
    first = out.splitlines()[0]
    assert first.startswith("1. shoot red-archers: blue-drake: ") and "damage" in first
    assert "wounds left" in first
    assert "blue decides all-out-defence (choices: all-out-defence, decline)" in out
    assert "blue answers all-out-defence: decline" in out
    assert not RAW.search(out), out


def test_the_last_morale_card_is_credited_to_the_skirmish(capsys) -> None:
    out = _try(capsys, *SKIRMISH)
    third = next(line for line in out.splitlines() if line.startswith("3. "))
    assert third.startswith("3. red-scouts skirmish -> blue-scouts (blue commit 1): ")
    assert "revealed: red commit 2; blue commit 1" in out
    assert not RAW.search(out), out


def test_json_keeps_the_raw_fields(capsys) -> None:
    out = _try(capsys, SHOOT, extra=("--json",))
    events = json.loads(out)["results"][0]["events"]
    decision = next(e for e in events if e["type"] == "decision")
    assert decision["about"] == {"attacker": "red-archers", "ability": "shoot",
                                 "target": "blue-drake"}
    attack = next(e for e in events if e["type"] == "attack")
    assert "cover" in attack and "unsaved" in attack


def test_an_answer_written_without_a_side_is_the_asked_sides(capsys) -> None:
    """`{"type": "decline"}` after red shoots is blue's answer: the damage is red's shot's,
    not credited to a decline (the window's words)."""
    assert main(["try", "demo", "--action", SHOOT, "--action", '{"type": "decline"}']) == 0
    second = next(line for line in capsys.readouterr().out.splitlines()
                  if line.startswith("2. "))
    assert second.startswith("2. red-archers shoot -> blue-drake (blue answered "
                             "all-out-defence: decline): blue-drake: "), second
