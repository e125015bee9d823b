"""A ruleset owns its data: a game takes parameters (Game(ruleset, scene, seed, params)), a
subclass changes a number, and two variants of one ruleset play side by side in one process
without either seeing the other's numbers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battlefield.errors import UsageError
from battlefield.rules import log, registry
from battlefield.rules.state import Game, State
from battlefield.scene.load import load_scene, load_scene_text


def demo(name: str):
    return load_scene(registry.get(name).spec.demo_path)


@pytest.mark.parametrize("name", registry.playable())
def test_every_ruleset_reads_its_data_when_first_asked_and_keeps_it(name):
    rules = registry.get(name)
    assert rules.book is rules.book                  # read once for this instance
    for p in rules.parameters:                       # every parameter names a number it holds
        value = rules.book
        for part in p.path.split("."):
            value = getattr(value, part)
        assert isinstance(value, (int, float)), p


def test_a_game_with_parameters_plays_a_variant_and_leaves_the_ruleset_as_it_was():
    aos4 = registry.get("aos4")
    game = Game(aos4, demo("aos4"), 3, {"rounds": 2})
    assert game.rules is not aos4 and game.rules.book.battleplan.rounds == 2
    assert game.params == {"rounds": 2} and game.rules.params == {"rounds": 2}
    assert aos4.book.battleplan.rounds == 4 and aos4.params == {}
    assert game.rules.book.core is aos4.book.core      # the rest of the book is the same


def test_two_variants_play_side_by_side_in_one_process():
    skirmish = registry.get("skirmish")
    scene = demo("skirmish")
    games = [Game(skirmish, scene, 5, {"rounds": 1}), Game(skirmish, scene, 5),
             Game(skirmish, scene, 5, {"rounds": 2, "morale_tokens": 3})]
    states = [g.new_state(keep_undo=False) for g in games]
    players = [{s: g.rules.player() for s in st.sides} for g, st in zip(games, states,
                                                                        strict=True)]
    while not all(s.over for s in states):            # one action of each in turn
        for state, chosen in zip(states, players, strict=True):
            if not state.over:
                state.apply(chosen[state.acting_side].choose(state))
    assert states[0].result().round == 1
    assert states[1].result().round > 1
    assert states[2].result().round <= 2
    assert all(s.sides[side]["morale"] <= 3 for s in states[2:] for side in s.sides)


def test_a_subclass_changes_a_number():
    base = type(registry.get("warband"))

    class ShortWarband(base):
        def load(self):
            return replace(super().load(), rounds=1)

    state = Game(ShortWarband(), demo("warband"), 2).new_state(keep_undo=False)
    player = state.rules.player()
    while not state.over:
        state.apply(player.choose(state))
    assert state.result().round == 1


def test_a_log_keeps_the_games_parameters_and_replays_them(tmp_path):
    from battlefield.rules.battle import play

    text = registry.get("blocks").spec.demo_path.read_text(encoding="utf-8")
    state: State = play(Game(registry.get("blocks"), load_scene_text(text, "demo"), 4,
                             {"rounds": 1}))
    path = tmp_path / "game.jsonl"
    log.write(path, state, text)
    saved = log.read(path)
    assert saved.params == {"rounds": 1}
    again, differs = log.replay(saved)
    assert differs is None and again.fingerprint() == state.fingerprint()


@pytest.mark.parametrize("params, said", [
    ({"round": 3}, "aos4 has no parameter 'round' (it takes: rounds, command_points)"),
    ({"rounds": 2.5}, "2.5 is not int"),
    ({"rounds": 0}, "0 is less than 1"),
    ({"rounds": True}, "True is not int"),
])
def test_a_parameter_that_is_not_one_is_said(params, said):
    with pytest.raises(UsageError, match=said.replace("(", r"\(").replace(")", r"\)")):
        Game(registry.get("aos4"), demo("aos4"), 1, params)
