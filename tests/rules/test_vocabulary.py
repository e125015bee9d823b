"""Each action's fields and phases are declared once, in ruleset.yaml's vocabulary, and enforced
once, by the engine (rules/boundary.declared, asked by State.check before the ruleset): a key
the entry does not declare is `unknown_key`, an action out of its phases `wrong_phase`. Which
code plays a type is registered on the class (`@handles`), never looked up by name."""

from __future__ import annotations

import pytest

from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.handlers import handles
from battlefield.rules.ruleset import Ruleset
from battlefield.rules.state import Game
from battlefield.rulesets import load_ruleset
from battlefield.scene.load import load_scene, load_scene_text

PLAYABLE = [n for n in registry.playable() if registry.get(n).spec.demo]


def demo_state(name: str):
    ruleset = registry.get(name)
    return Game(ruleset, load_scene(ruleset.spec.demo_path), seed=1).new_state()


@pytest.mark.parametrize("name", PLAYABLE)
def test_an_undeclared_key_is_refused_by_the_engine_naming_the_valid_ones(name):
    state = demo_state(name)
    for doc in state.scene.ruleset.actions:
        action = Action.from_dict({**doc.example, "zzz": 1})
        got = [(v.code, v.message) for v in state.check(action)]
        valid = ", ".join(doc.keys)
        assert got == [("unknown_key", f"unknown key 'zzz' in a {doc.id} action "
                                       f"(valid: {valid})")], (doc.id, got)


@pytest.mark.parametrize("name", PLAYABLE)
def test_every_example_carries_only_declared_keys(name):
    state = demo_state(name)
    for doc in state.scene.ruleset.actions:
        codes = [v.code for v in state.check(Action.from_dict(doc.example))]
        assert "unknown_key" not in codes and "bad_field" not in codes, (doc.id, codes)


@pytest.mark.parametrize("name", PLAYABLE)
def test_an_action_out_of_its_phases_is_refused_by_the_engine(name):
    state = demo_state(name)
    rules = state.rules
    for doc in state.scene.ruleset.actions:
        when = rules.when(state, doc.id)
        if not when or any(w.rpartition(" ")[2] == state.phase for w in when):
            continue
        got = [v.code for v in state.check(Action.from_dict(doc.example))]
        assert got == ["wrong_phase"], (doc.id, got)


def test_aos4_reads_the_phases_of_its_abilities_from_the_seeds_file():
    state = demo_state("aos4")
    assert state.rules.when(state, "normal-move") == ("your movement",)
    assert state.rules.when(state, "redeploy") == ("enemy movement",)
    assert state.rules.when(state, "at-the-double") == ()      # a reaction: no action of its own
    assert state.rules.when(state, "emberskin") == ()          # a spell: magic says when


def test_a_targeted_action_must_be_dragged(tmp_path, monkeypatch):
    from battlefield import paths
    from battlefield.errors import InputError

    text = (load_ruleset("skirmish").folder / "ruleset.yaml").read_text(encoding="utf-8")
    folder = tmp_path / "nodrag"
    folder.mkdir()
    text = text.replace("\nid: skirmish", "\nid: nodrag").replace(
        "  example: {type: bombard,", "  targeted: true\n  example: {type: bombard,")
    (folder / "ruleset.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setitem(paths._extra_dirs, "nodrag", folder)
    with pytest.raises(InputError, match="bombard is targeted but not dragged"):
        load_ruleset("nodrag")


class Race(Ruleset):
    """Two handlers registered with @handles; the default check and resolve dispatch to them."""

    id = "race"
    actions = ("go", "stop")

    def setup(self, state):
        state.clock = {"active": state.scene.sides[0], "steps": 0}
        return []

    def available(self, state):
        return list(self.actions)

    def acting_side(self, state):
        return state.clock["active"]

    def over(self, state):
        return state.clock["steps"] >= 2

    def result(self, state):
        raise AssertionError("not asked")

    @handles("go")
    def check_go(self, state, action):
        return []

    @check_go.resolver
    def go(self, state, action):
        state.clock["steps"] += 1
        return [{"type": "went"}]

    @handles("stop", "halt")
    def check_stop(self, state, action):
        from battlefield.rules.moves import v
        return [v("no_stopping", "this race has no end but the line")]

    @check_stop.resolver
    def stop(self, state, action):
        raise AssertionError("never legal")


SCENE = """
ruleset: skirmish
board: {width: 10, depth: 10}
units:
  - {id: a, side: red, models: [{base: 25, at: [2, 2]}]}
  - {id: b, side: blue, models: [{base: 25, at: [8, 8]}]}
"""


def test_handlers_pair_a_check_with_its_resolve():
    assert sorted(Race.handlers) == ["go", "halt", "stop"]
    state = Game(Race(), load_scene_text(SCENE)).new_state()
    assert state.apply(Action("go")) == [{"type": "went"}]
    assert [v.code for v in state.check(Action("stop"))] == ["no_stopping"]
    assert [v.code for v in state.check(Action("fly"))] == ["unknown_action"]
    state.apply(Action("go"))
    assert state.over
