"""The players by level and the yardsticks (rules/players.py, rules/sampling.py): the random
legal player and the pass player play every ruleset's demo battle to its end proposing only
legal actions, the same seed gives the same battle, and --players is read strictly."""

from __future__ import annotations

import random

import pytest

from battlefield.errors import UsageError
from battlefield.rules import players, registry, sampling
from battlefield.rules.battle import play
from battlefield.rules.deploy import battle_scene
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text

PLAYABLE = [n for n in registry.playable() if registry.get(n).spec.demo]


def _game(ruleset: str, seed: int) -> Game:
    text, name = battle_scene(ruleset, None)
    if "\nruleset: aos4" in text and "\nstate:" not in text:      # its last round only
        text = text.replace("\nunits:", "\nstate: {round: 4}\nunits:", 1)
    return Game(registry.get(ruleset), load_scene_text(text, name), seed)


@pytest.mark.parametrize("ruleset", PLAYABLE)
@pytest.mark.parametrize("kind", ["random", "pass"])
def test_the_yardsticks_play_to_the_end_with_legal_actions_only(ruleset, kind):
    game = _game(ruleset, 3)
    refused = []

    def looked(state, action) -> None:
        if state.check(action):
            refused.append(action)

    state = play(game, kinds={s: kind for s in game.scene.sides}, on_choice=looked)
    assert state.over and not refused
    if kind == "random":
        assert {a.type for a in state.actions} - sampling_passes(state)


def sampling_passes(state) -> set[str]:
    return {a.id for a in state.scene.ruleset.actions if a.passes}


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_the_same_seed_gives_the_same_random_battle(ruleset):
    kinds = {"red": "random", "blue": "normal"}
    one = play(_game(ruleset, 5), kinds=kinds).actions
    two = play(_game(ruleset, 5), kinds=kinds).actions
    assert one == two


def test_the_random_player_draws_from_its_own_generator_not_the_dice():
    game = _game("skirmish", 1)
    state = game.new_state()
    dice = state.dice.state
    a = players.RandomPlayer(1).choose(state)
    assert state.dice.state == dice and not state.check(a)
    assert [players.RandomPlayer(1).choose(state) for _ in range(3)] == [a] * 3


def test_a_draw_of_a_type_names_a_unit_that_may_take_it():
    state = _game("skirmish", 1).new_state()
    rng = random.Random(4)
    move = sampling.draw(state, rng, "move")
    assert move is not None and move.type == "move" and move.path is not None
    assert state.scene.units[state.unit_index(move.unit)].side == state.acting_side


def test_the_pass_player_passes_when_it_may():
    state = _game("blocks", 1).new_state()
    action = players.PassPlayer(0).choose(state)
    assert action.type == "end-phase" or state.check(type(action)("end-phase"))


@pytest.mark.parametrize(("text", "message"), [
    ("red=normal", "no player for blue"),
    ("red=normal,blue=clever", "no player 'clever' (valid: easy, normal, strong, random, pass)"),
    ("red=normal,green=easy", "no side 'green' (sides: red, blue)"),
    ("red=normal,red=easy,blue=easy", "red is given twice"),
    ("red", "write SIDE=LEVEL for each side"),
])
def test_players_are_read_strictly(text, message):
    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)")):
        players.parse_players(text, ["red", "blue"])


def test_a_side_left_out_may_be_allowed():
    assert players.parse_players("blue=random", ["red", "blue"], partial=True) == {
        "blue": "random"}


def test_an_unknown_level_is_a_usage_error():
    with pytest.raises(UsageError, match="--level: no player 'hard'"):
        players.make(registry.get("skirmish"), "hard")
    with pytest.raises(UsageError, match="--level: no player 'random'"):
        players.check_kind("random")
    with pytest.raises(UsageError, match="no player 'normall' .*; did you mean normal\\?"):
        players.check_kind("normall")
    with pytest.raises(UsageError, match="no player 'randon' .*; did you mean random\\?"):
        players.parse_players("red=normal,blue=randon", ["red", "blue"])


def test_side_seeds_differ_by_side_and_battle():
    seeds = {players.side_seed(s, ["red", "blue"], side) for s in range(50)
             for side in ("red", "blue")}
    assert len(seeds) == 100
