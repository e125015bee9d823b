"""The one class a ruleset subclasses: every playable ruleset is an instance of it, the hooks
nobody writes keep defaults that add nothing, and no hook is read around the class."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.ruleset import CheckAdditions, Ruleset
from battlefield.rules.state import Game
from battlefield.rules.window import DragNotes, Window
from battlefield.scene.load import load_scene, load_scene_text

ROOT = Path(__file__).parents[2] / "battlefield"
GAME = ("setup", "check", "resolve", "available", "acting_side", "over", "result")


class Bare(Ruleset):
    """The game hooks and nothing else."""

    id = "bare"

    def setup(self, state):
        return []

    def check(self, state, action):
        return []

    def resolve(self, state, action):
        return []

    def available(self, state):
        return []

    def acting_side(self, state):
        return state.scene.sides[0]

    def over(self, state):
        return True

    def result(self, state):
        raise AssertionError("not asked")


SCENE = """
ruleset: skirmish
board: {width: 10, depth: 10}
units:
  - {id: a, side: red, models: [{base: 25, at: [2, 2]}]}
  - {id: b, side: blue, models: [{base: 25, at: [8, 8]}]}
"""


@pytest.mark.parametrize("name", registry.playable())
def test_every_playable_ruleset_is_one_ruleset_instance(name: str) -> None:
    ruleset = registry.get(name)
    assert isinstance(ruleset, Ruleset) and ruleset.id == name
    assert ruleset.provides("player")       # every bundled ruleset plays computer battles


def test_a_ruleset_missing_a_game_hook_cannot_be_made() -> None:
    for hook in GAME:
        lacking = type("Lacking", (Bare,), {hook: None})
        lacking.__abstractmethods__ = frozenset({hook})
        with pytest.raises(TypeError, match=hook):
            lacking()


def test_the_hooks_left_out_answer_nothing() -> None:
    from battlefield.errors import UsageError
    from battlefield.rules.actions import Action
    from battlefield.rules.state import Game

    rules = Bare()
    scene = load_scene_text(SCENE)
    state = Game(rules, scene).new_state()
    assert not any(rules.provides(h) for h in ("player", "points"))
    assert type(rules.window) is Window
    assert rules.try_start(scene, [Action("x", unit="b")]) == {"active": "blue"}
    assert rules.try_advance(state, Action("x")) == []
    assert rules.shorthand(state, Action("x")) == (Action("x"), {}, [])
    assert rules.shorthand_answer(state, None, {}) is None
    assert rules.points(scene) is None and rules.window.unit_notes(state) == {}
    assert rules.check_additions(scene) == CheckAdditions() and rules.window.marks(state) == []
    assert rules.window.drag_abilities(state, 0, ["move", "run"]) == ["move", "run"]
    assert rules.window.drag_notes(None) == DragNotes()
    assert rules.move_allowance(state, 0, "move") is None
    assert rules.move_cost(state, 0, 0, [[0, 0], [3, 4], [3, 5]]) == (6.0, 0.0)
    assert rules.move_ground(state, 0, 0, (0, 0, 1, 1)) == ([], None)
    assert rules.window.drop_in_place(state, 0, "fight", 1) == "put back"
    with pytest.raises(UsageError, match="bare ruleset has no computer player"):
        rules.player()


def test_no_shared_layer_names_a_ruleset() -> None:
    """Outside battlefield/rules/NAME/ a ruleset is named only where its data is chosen: the
    army importer, which writes aos4 scenes (battlefield/army/writer.py says why)."""
    names = re.compile(r'"(aos4|skirmish|openwg|warband|blocks)"')
    found = {str(p.relative_to(ROOT)) for p in ROOT.rglob("*.py")
             if p.parent.parent.name != "rules" or p.parent.name not in registry.playable()
             if names.search(p.read_text(encoding="utf-8"))}
    assert found == {"army/writer.py"}


def test_no_hook_is_read_around_the_class() -> None:
    """Every hook is declared on Ruleset: none is looked up with getattr on a ruleset."""
    hooks = re.compile(r"getattr\((state\.rules|self\.rules|rules|ruleset|pkg|package)\b")
    found = [f"{p.relative_to(ROOT)}:{n}" for p in ROOT.rglob("*.py")
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if hooks.search(line)]
    assert found == []


@pytest.mark.parametrize(("name", "said"), [
    ("skirmish", "it is red's turn, not blue's"),
    ("openwg", "it is red's action, not blue's"),
    ("warband", "it is red's turn, not blue's"),
    ("blocks", "it is red's to act, not blue's"),
])
def test_not_your_turn_is_one_refusal_in_each_rulesets_words(name: str, said: str) -> None:
    """Ruleset.not_your_turn: the acting side (acting_side) against the action's `side`, in
    the words players have always read (turn_word); aos4 says not_your_decision instead."""
    ruleset = registry.get(name)
    state = Game(ruleset, load_scene(ruleset.spec.demo_path), seed=1).new_state()
    assert ruleset.acting_side(state) == "red"
    for kind in state.available():
        if kind == "initiative" or name != "warband":      # warband's other types carry no side
            got = state.check(Action(kind, side="blue"))
            assert [(v.code, v.message) for v in got] == [("not_your_turn", said)], kind
            assert ruleset.not_your_turn(state, Action(kind, side="red")) == []


def test_unknown_action_lists_the_types_in_each_rulesets_words() -> None:
    blocks = registry.get("blocks")
    assert [v.message for v in blocks.unknown_action("fly", ["move", "attack"])] == [
        "no action 'fly' (valid: move, attack)"]
    assert [v.message for v in blocks.unknown_action("fly", ["move"], "ability", ", or x")] == [
        "no ability 'fly' (valid: move, or x)"]
    s = Game(registry.get("skirmish"), load_scene_text(SCENE), seed=1).new_state()
    assert [(v.code, v.message) for v in s.check(Action("fly"))] == [
        ("unknown_action", "no action 'fly' (valid: move, skirmish, commit, bombard, fortify, "
                           "retreat, decline, end-turn)")]
