"""The decisions a skirmish asks of each side (rules/decisions.py): both sides' morale cards in
secret, revealed together; the defender's retreat after each attack. Each scenario pins who
decides, from which choices, and that the answers resolve exactly as try's shorthand does."""

from __future__ import annotations

import json

import pytest

from battlefield.rules.actions import Action, IllegalAction
from battlefield.rules.log import rules_for
from battlefield.rules.state import Game, State
from battlefield.scene.load import load_scene_text

from ._scene import ARCHERS, attempt, codes, of_type, scene, unit


def duel(**state_key) -> str:
    return scene(unit("a", "red", (5, 10), kind=ARCHERS, initiative=2),
                 unit("b", "blue", (5, 15), (6.2, 15), kind=ARCHERS, cover=1), **state_key)


def started(text: str, dice=(1,) * 20) -> State:
    return Game(rules_for("skirmish"), load_scene_text(text), 1).new_state(fixed_dice=dice)


def answer(state: State, **a) -> list[dict]:
    return state.apply(Action.from_dict(a))


SKIRMISH = {"type": "skirmish", "unit": "a", "target": "b"}


def test_a_skirmish_asks_both_sides_for_a_secret_morale_card():
    state = started(duel())
    events = state.apply(Action.from_dict(SKIRMISH))
    assert [(d.side, d.kind, d.secret) for d in state.pending] == [
        ("red", "commit", True), ("blue", "commit", True)]
    assert [c.to_dict() for c in state.pending[1].choices] == [
        {"type": "commit", "side": "blue", "tokens": n} for n in range(6)]
    assert dict(state.pending[0].about) == {"unit": "a", "target": "b"}
    assert state.acting_side == "red" and state.available() == ["commit"]
    assert [e["type"] for e in events] == ["decision", "decision"]
    assert not of_type({"events": events}, "attack")          # nothing rolled before the cards


def test_the_first_card_stays_hidden_until_the_second_is_in():
    state = started(duel())
    state.apply(Action.from_dict(SKIRMISH))
    mark = len(state.events)
    first = answer(state, type="commit", side="red", tokens=2)
    assert first == [{"type": "decided", "side": "red", "kind": "commit", "secret": True}]
    assert '"tokens"' not in json.dumps(state.events[mark:])
    assert state.events[mark]["action"] == {"type": "commit", "side": "red", "secret": True}
    assert state.acting_side == "blue" and state.sides["red"]["morale"] == 12
    second = answer(state, type="commit", side="blue", tokens=1)
    (shown,) = of_type({"events": second}, "revealed")
    assert shown["answers"] == [
        {"side": "red", "kind": "commit", "answer": {"type": "commit", "side": "red", "tokens": 2}},
        {"side": "blue", "kind": "commit",
         "answer": {"type": "commit", "side": "blue", "tokens": 1}}]
    (m,) = of_type({"events": second}, "morale")
    assert m["commit"] == {"red": 2, "blue": 1} and m["advantage"] == "red"


def test_try_shows_a_secret_card_only_once_both_are_in():
    _, (sk, red, blue) = attempt(duel(), SKIRMISH,
                                 {"type": "commit", "side": "red", "tokens": 2},
                                 {"type": "commit", "side": "blue", "tokens": 0}, dice=[1] * 20)
    assert sk["legal"] and sk["events"][-1]["type"] == "decision" and "answered" not in sk
    assert red["action"] == {"type": "commit", "side": "red", "secret": True}
    assert "tokens" not in json.dumps(red)
    assert of_type(blue, "morale")[0]["commit"] == {"red": 2, "blue": 0}


def test_the_answers_resolve_exactly_as_the_shorthand():
    short, (r,) = attempt(duel(), {**SKIRMISH, "commit": {"red": 2, "blue": 1},
                                   "retreat": True}, dice=[1] * 20)
    assert [a["type"] for a in r["answered"]] == ["commit", "commit", "retreat"]
    asked, (_, _, last, ret) = attempt(
        duel(), SKIRMISH, {"type": "commit", "side": "red", "tokens": 2},
        {"type": "commit", "side": "blue", "tokens": 1},
        {"type": "retreat", "side": "blue", "unit": "b", "from": "a"}, dice=[1] * 20)
    assert asked.fingerprint() == short.fingerprint()
    asking = ("decision", "decided")
    plays = [e for e in last["events"] + ret["events"] if e["type"] not in asking]
    assert plays == [e for e in r["events"] if e["type"] not in asking]
    assert [e["attacker"] for e in of_type(r, "attack")] == ["a"]      # b retreated


def test_after_the_attack_the_defender_decides_whether_it_retreats():
    state = started(duel())
    state.apply(Action.from_dict(SKIRMISH))
    answer(state, type="commit", side="red", tokens=0)
    events = answer(state, type="commit", side="blue", tokens=0)
    assert [e["attacker"] for e in of_type({"events": events}, "attack")] == ["a"]
    (d,) = state.pending
    assert (d.side, d.kind, d.secret, dict(d.about)) == ("blue", "retreat", False,
                                                         {"unit": "b", "from": "a"})
    assert [c.to_dict() for c in d.choices] == [
        {"type": "retreat", "side": "blue", "unit": "b", "from": "a"},
        {"type": "decline", "side": "blue"}]
    events = answer(state, type="decline", side="blue")
    assert [e["attacker"] for e in of_type({"events": events}, "attack")] == ["b"]
    (d,) = state.pending                      # b struck back: now red decides for a
    assert (d.side, dict(d.about)) == ("red", {"unit": "a", "from": "b"})
    answer(state, type="decline")             # the side may be left out
    assert not state.pending and state.acting_side == "red"


def test_only_answers_are_legal_while_a_decision_is_pending():
    state = started(duel(state={"morale": {"red": 3}}))
    state.apply(Action.from_dict(SKIRMISH))
    assert [c.option("tokens") for c in state.pending[0].choices] == [0, 1, 2]
    bad = state.check(Action("end-turn"))
    assert [v.code for v in bad] == ["awaiting_decision"]
    assert "red must first decide commit" in bad[0].message
    assert [v.code for v in state.check(Action.from_dict(
        {"type": "commit", "side": "red", "tokens": 3}))] == ["commit_too_many"]
    assert [v.code for v in state.check(Action.from_dict(
        {"type": "commit", "side": "blue", "tokens": 7}))] == ["no_such_card"]
    with pytest.raises(IllegalAction):
        answer(state, type="end-turn")


def test_a_side_with_only_the_0_card_is_not_asked():
    state = started(duel(state={"morale": {"blue": 1}}))
    state.apply(Action.from_dict(SKIRMISH))
    assert [(d.side, d.secret) for d in state.pending] == [("red", True)]
    events = answer(state, type="commit", side="red", tokens=1)
    assert of_type({"events": events}, "morale")[0]["commit"] == {"red": 1, "blue": 0}


def test_undo_and_the_fingerprint_keep_the_hidden_card():
    state = started(duel())
    state.apply(Action.from_dict(SKIRMISH))
    answer(state, type="commit", side="red", tokens=2)
    two = state.fingerprint()
    assert state.undo() and len(state.pending) == 2 and not state.answers
    answer(state, type="commit", side="red", tokens=1)
    assert state.fingerprint() != two                  # the hidden answer is in the state
    assert state.undo() and state.redo()
    assert state.answers[0][1].option("tokens") == 1


def test_the_shorthand_on_a_plain_apply_is_refused_with_the_way_to_answer():
    state = started(duel())
    bad = state.check(Action.from_dict({**SKIRMISH, "commit": {"red": 1}}))
    assert [v.code for v in bad] == ["sides_decision"]
    assert [v.code for v in state.check(Action.from_dict(
        {"type": "commit", "side": "red", "tokens": 1}))] == ["no_decision"]


def test_a_shorthand_card_that_is_not_in_the_hand_is_refused_on_the_skirmish():
    _, (r,) = attempt(duel(state={"morale": {"red": 3}}), {**SKIRMISH, "commit": {"red": 3}})
    assert codes(r) == ["commit_too_many"]
