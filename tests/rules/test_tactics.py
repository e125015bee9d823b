"""The normal level's frame (rules/tactics.py): the best-scored legal candidate is played, the
pass against its score, decisions by their kind's entry, and what is remembered is forgotten
when the phase changes."""

from __future__ import annotations

from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.deploy import battle_scene
from battlefield.rules.state import Game
from battlefield.rules.tactics import Tactician, mine, theirs
from battlefield.scene.load import load_scene_text


def _state():
    text, name = battle_scene("skirmish", None)
    return Game(registry.get("skirmish"), load_scene_text(text, name), 1).new_state()


class Toy(Tactician):
    def __init__(self, moves, pass_worth=0.0):
        super().__init__()
        self.moves, self.worth = moves, pass_worth

    def entries(self):
        return {"move": lambda state: self.moves}

    def pass_score(self, state):
        return self.worth


def _move(state, u, dy):
    lead = state.models_of(u)[0]
    x, y = float(state.table.x[lead]), float(state.table.y[lead])
    return Action("move", unit=state.scene.units[u].id, path=((x, y), (x, y + dy)))


def test_the_best_legal_candidate_is_played():
    state = _state()
    u = mine(state)[0]
    far, near = _move(state, u, 40.0), _move(state, u, 2.0)       # 40": refused
    assert state.check(far) and not state.check(near)
    assert Toy([(5.0, far), (3.0, near)]).choose(state) == near
    both = Toy([(5.0, far), (3.0, near)]).candidates(state, 3)
    assert both[0] == near and Action("end-turn") in both


def test_the_pass_is_weighed_like_any_candidate():
    state = _state()
    near = _move(state, mine(state)[0], 2.0)
    assert Toy([(1.0, near)], pass_worth=2.0).choose(state) == Action("end-turn")
    assert Toy([(-1.0, near)]).choose(state) == Action("end-turn")


def test_remembered_until_the_moment_changes():
    state = _state()
    t = Toy([])
    made = []
    assert t.remember(state, "k", lambda: made.append(1) or 1) == 1
    assert t.remember(state, "k", lambda: made.append(2) or 2) == 1
    state.apply(Action("end-turn"))
    assert t.remember(state, "k", lambda: made.append(3) or 3) == 3 and made == [1, 3]


def test_sides():
    state = _state()
    assert {state.side_of(u) for u in mine(state)} == {"red"}
    assert {state.side_of(u) for u in theirs(state)} == {"blue"}
