"""The strong level's search (rules/search.py): its sampled worlds never hold the real dice or
another side's secret answers, its choices are legal and a function of position and seed, and
its values stay within 0..1."""

from __future__ import annotations

import copy

import pytest

from battlefield.rules import registry
from battlefield.rules.deploy import battle_scene
from battlefield.rules.players import make
from battlefield.rules.search import SearchPlayer, sampled, value
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text


def _state(ruleset: str = "skirmish", seed: int = 1):
    text, name = battle_scene(ruleset, None)
    return Game(registry.get(ruleset), load_scene_text(text, name), seed).new_state()


def _secret_commit(state):
    """Played on until one side has committed its morale tokens in secret and the other is
    to commit now."""
    players = {s: state.rules.player() for s in state.sides}
    for _ in range(500):
        if state.answers and any(d.secret for d, _ in state.answers) and state.pending:
            return state
        state.apply(players[state.acting_side].choose(state))
    raise AssertionError("no secret answer in the battle")


def test_a_sampled_world_has_its_own_dice_and_no_secret_of_the_other_side():
    state = _secret_commit(_state())
    told = state.answers[0][0].side
    other = state.acting_side
    assert state.answers[0][0].secret and other != told
    w = sampled(state, other, 12345)
    assert w.dice.state != state.dice.state and not w.dice.fixed and not w.dice.log
    assert not [a for d, a in w.answers if d.side == told]
    assert [d.side for d in w.pending].count(told) == 1
    own = sampled(state, told, 12345)           # its own secret it knows
    assert own.answers == state.answers
    assert state.answers and state.dice.state != w.dice.state     # the real state untouched


def test_strong_choices_are_legal_and_repeatable():
    state = _state()
    normal = lambda seed: state.rules.player()      # noqa: E731
    one = SearchPlayer(state.rules, normal, 7, rollouts=2, depth=8).choose(state)
    two = SearchPlayer(state.rules, normal, 7, rollouts=2, depth=8).choose(state)
    assert one == two and not state.check(one)


def test_values_are_between_lost_and_won():
    state = _state("aos4")
    for side in state.sides:
        assert 0.0 <= value(state, side) <= 1.0
    assert abs(value(state, "red") - 0.5) < 1e-9           # even at the start


@pytest.mark.parametrize("ruleset", ["aos4", "skirmish", "openwg", "warband", "blocks"])
def test_the_normal_players_candidates_are_legal_and_start_with_its_choice(ruleset):
    state = _state(ruleset, 3)
    player = make(state.rules, "normal")
    several = 0
    for _ in range(60):
        if state.over:
            break
        twin = copy.deepcopy(player)             # the same memory as the player choosing
        named = twin.candidates(state, 4)
        choice = player.choose(state)
        assert named[0] == choice
        assert len(named) == len(set(named)) <= 4
        assert all(not state.check(a) for a in named)
        several += len(named) > 1
        state.apply(choice)
    assert several >= 5                          # alternatives to weigh, often


@pytest.mark.parametrize("ruleset", ["skirmish", "openwg"])
def test_a_rollout_is_valued_at_the_end_of_a_battle_round(ruleset):
    state = _state(ruleset, 2)
    normal = lambda seed: make(state.rules, "normal")      # noqa: E731
    search = SearchPlayer(state.rules, normal, 3, depth=200, least=5)
    side = state.acting_side
    start = len(state.actions)
    w = search.played(state, side, search.options(state)[0], 99)
    played = len(w.actions) - start
    assert played > 6 and len(state.actions) == start          # the real state untouched
    # the same world cut at `least` actions, and one action short of where the rollout ended
    # (the same dice and players: a prefix of it): the round changed only at its last action
    at_least = SearchPlayer(state.rules, normal, 3, depth=5, least=5).played(state, side,
                                                                        w.actions[start], 99)
    short = SearchPlayer(state.rules, normal, 3, depth=played - 2, least=5).played(
        state, side, w.actions[start], 99)
    assert at_least.actions == w.actions[:start + 6]
    assert short.round == at_least.round
    assert not w.over and w.round > at_least.round
