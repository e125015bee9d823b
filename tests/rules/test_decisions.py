"""The engine's pending decisions (rules/decisions.py) on a ruleset of a few lines: a `duel`
asks both sides for a secret card, then the higher card's side whether to press on - two
batches, one resume each. Pins who decides, what is legal meanwhile, what the events show and
that undo, redo and the fingerprint carry it all."""

from __future__ import annotations

import json
from typing import Any

import pytest

from battlefield.rules import decisions
from battlefield.rules.actions import Action, IllegalAction, Violation
from battlefield.rules.decisions import DECLINE, Decision
from battlefield.rules.ruleset import Ruleset
from battlefield.rules.state import Game, State
from battlefield.scene.load import load_scene_text

SCENE = """
ruleset: skirmish
board: {width: 36, depth: 36}
units:
  - {id: a, side: red, models: [{base: 25, at: [5, 5]}]}
  - {id: b, side: blue, models: [{base: 25, at: [30, 30]}]}
"""


def card(side: str, n: int) -> Action:
    return Action("card", side=side, options=(("n", n),))


class Duel(Ruleset):
    """A ruleset that only duels: both sides play a card 1..3 in secret; the higher may press."""

    id = "duel"

    def __init__(self) -> None:
        self.resumed: list[tuple[str, list[dict[str, Any]]]] = []

    def setup(self, state: State) -> list[dict]:
        state.sides = {"red": {"score": 0}, "blue": {"score": 0}}
        return []

    def check(self, state: State, action: Action) -> list[Violation]:
        if state.pending:
            n = action.option("n")
            return [Violation("no_such_card", f"cards are 1..3, not {n}")] if n else []
        return [] if action.type == "duel" else [Violation("unknown_action", action.type)]

    def resolve(self, state: State, action: Action) -> list[dict]:
        asked = [Decision(s, "card", tuple(card(s, n) for n in (1, 2, 3)), secret=True,
                          about=(("duel", "a-b"),)) for s in ("red", "blue")]
        return decisions.ask(state, asked, {"step": "cards"})

    def resume(self, state: State, suspended: dict, answers) -> list[dict]:
        self.resumed.append((suspended["step"], [a.to_dict() for _, a in answers]))
        if suspended["step"] == "cards":
            played = {d.side: a.option("n") for d, a in answers}
            top = max(played, key=lambda s: played[s])
            press = Decision(top, "press", (Action("press", side=top),
                                            Action(DECLINE, side=top)))
            return [{"type": "cards", **played}, *decisions.ask(state, [press],
                                                                {"step": "press", "by": top})]
        if answers[0][1].type == "press":
            state.sides[suspended["by"]]["score"] += 1
        return [{"type": "done"}]

    def available(self, state: State) -> list[str]:
        return ["duel"]

    def acting_side(self, state: State) -> str:
        return "red"

    def over(self, state: State) -> bool:
        return False

    def result(self, state: State) -> dict:
        return {}


@pytest.fixture()
def state() -> State:
    s = Game(Duel(), load_scene_text(SCENE), 1).new_state()
    s.apply(Action("duel"))
    return s


def test_the_decisions_asked_make_the_deciding_side_act(state: State) -> None:
    assert [(d.side, d.kind, d.secret) for d in state.pending] == [
        ("red", "card", True), ("blue", "card", True)]
    assert state.acting_side == "red" and state.available() == ["card"]
    assert state.suspended == {"step": "cards"}
    assert [(e["type"], e["side"]) for e in state.events[-2:]] == [("decision", "red"),
                                                                   ("decision", "blue")]


def test_only_answers_are_legal_and_the_refusal_lists_the_choices(state: State) -> None:
    (bad,) = state.check(Action("duel"))
    assert bad.code == "awaiting_decision"
    assert bad.message.startswith("red must first decide card (duel a-b) (answers: card 1, "
                                  "card 2, card 3)")
    assert [v.code for v in state.check(card("red", 7))] == ["no_such_card"]   # the ruleset's
    with pytest.raises(IllegalAction):
        state.apply(Action("press", side="red"))
    assert not state.check(Action.from_dict({"type": "card", "n": 2}))   # side from the order


def test_a_secret_answer_is_in_the_state_not_the_events_until_the_batch_is_complete(
        state: State) -> None:
    rules = state.rules
    mark = len(state.events)
    assert state.apply(card("blue", 3)) == [{"type": "decided", "side": "blue", "kind": "card",
                                             "secret": True}]
    assert '"n"' not in json.dumps(state.events[mark:]) and not rules.resumed
    assert state.acting_side == "red" and state.answers[0][1] == card("blue", 3)
    events = state.apply(card("red", 1))
    assert [e["type"] for e in events] == ["decided", "revealed", "cards", "decision"]
    assert events[1]["answers"][0] == {"side": "blue", "kind": "card",
                                       "answer": {"type": "card", "side": "blue", "n": 3}}
    assert rules.resumed == [("cards", [{"type": "card", "side": "blue", "n": 3},
                                        {"type": "card", "side": "red", "n": 1}])]
    (press,) = state.pending                       # the next batch: blue's, not secret
    assert (press.side, press.answers) == ("blue", ["press", "decline"])
    events = state.apply(Action("press", side="blue"))
    assert events == [{"type": "decided", "side": "blue", "kind": "press",
                       "answer": {"type": "press", "side": "blue"}}, {"type": "done"}]
    assert state.sides["blue"]["score"] == 1 and not state.pending
    assert state.suspended is None and state.acting_side == "red"


def test_undo_redo_and_the_fingerprint_carry_the_hidden_answers(state: State) -> None:
    state.apply(card("red", 2))
    two = state.fingerprint()
    assert state.undo()
    assert len(state.pending) == 2 and not state.answers
    state.apply(card("red", 3))
    assert state.fingerprint() != two
    assert state.undo() and state.redo() and state.answers[0][1] == card("red", 3)
    copy = state.snapshot()
    assert copy.pending == state.pending and copy.answers == state.answers
    assert copy.fingerprint() == state.fingerprint()


def test_settle_answers_from_the_shorthand_unless_the_next_action_does(state: State) -> None:
    assert decisions.settle(state, {}, [card("red", 1)]) == ([], [])   # red answers itself
    state.rules.shorthand_answer = lambda st, d, given: d.choices[
        given.get(d.side, 0) if d.kind == "card" else 0]
    answered, events = decisions.settle(state, {"red": 2, "blue": 1}, [])
    assert answered == [{"type": "card", "side": "red", "n": 3},
                        {"type": "card", "side": "blue", "n": 2},
                        {"type": "press", "side": "red"}]
    assert events[-1] == {"type": "done"} and state.sides["red"]["score"] == 1
