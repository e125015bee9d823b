"""The conformance suite every playable ruleset runs, found through the registry (no list here):
a seeded battle to its end with a result, replayed identically, the same seed giving the same
log, every action undone back to the start (and counted), a position written part way and read
back playing on to the same state, check() never changing the state, every action's dict form
round-tripping, and the computer player never proposing an illegal action."""

from __future__ import annotations

import pytest
import yaml

from battlefield.rules import log, registry
from battlefield.rules.actions import Action
from battlefield.rules.battle import play
from battlefield.rules.deploy import battle_scene
from battlefield.rules.state import Game
from battlefield.rules.trial import scene_after
from battlefield.scene.load import load_scene_text

SEED = 11
PLAYABLE = [n for n in registry.playable() if registry.get(n).spec.demo]


def _short(text: str) -> str:
    """Demo battles from their last rounds when the ruleset has long ones (a whole battle to its
    end in a fraction of the time): the scene's `state: {round: N}` shorthand."""
    if "\nstate:" in text or "\nunits:" not in text:
        return text
    return text.replace("\nunits:", "\nstate: {round: 3}\nunits:", 1) \
        if "\nruleset: aos4" in text else text


@pytest.fixture(scope="module", params=PLAYABLE)
def battle(request, tmp_path_factory):
    ruleset = request.param
    package = registry.get(ruleset)
    text, name = battle_scene(ruleset, None)
    text = _short(text)
    game = Game(package, load_scene_text(text, name), SEED)
    state = game.new_state()
    players = {side: package.player() for side in state.sides}
    proposed = []
    for _ in range(5000):
        if state.over:
            break
        action = players[state.acting_side].choose(state)
        proposed.append((action, state.check(action)))
        state.apply(action)
    path = tmp_path_factory.mktemp(ruleset) / "game.jsonl"
    log.write(path, state, text)
    return ruleset, text, name, game, state, path, proposed


def test_plays_to_the_end_with_a_result(battle):
    state = battle[4]
    assert state.over
    result = state.result()
    assert result.winner in (*state.sides, None) and result.by
    assert set(result.points) == set(state.sides) and result.round >= 1
    assert set(result) >= {"winner", "by", "score", "scores", result.score, "round"}
    assert any(a.type not in ("end-phase", "end-turn") for a in state.actions)


def test_the_computer_player_never_proposes_an_illegal_action(battle):
    proposed = battle[6]
    illegal = [(a, v) for a, v in proposed if v]
    assert proposed and not illegal


def test_replays_identically(battle):
    state, path = battle[4], battle[5]
    saved = log.read(path)
    replayed, diff = log.replay(saved)
    assert diff is None
    assert replayed.fingerprint() == state.fingerprint()


def test_same_seed_same_log(battle, tmp_path):
    """Also without an undo history (how computer battles play): the same battle."""
    ruleset, text, name, _, _, path, _ = battle
    again = play(Game(log.rules_for(ruleset), load_scene_text(text, name), SEED))
    other = tmp_path / "again.jsonl"
    log.write(other, again, text)
    assert other.read_bytes() == path.read_bytes()


def test_every_action_round_trips_through_its_dict_form(battle):
    state = battle[4]
    for a in state.actions:
        assert Action.from_dict(a.to_dict()) == a
        assert eval(repr(a), {"Action": Action}) == a


def test_check_never_changes_the_state(battle):
    _, _, _, game, state, _, _ = battle
    replay = game.new_state()
    for k, a in enumerate(state.actions):
        if k % 7 == 0:
            before = replay.fingerprint()
            bad = [Action("no-such-action")]
            if a.unit:                               # the same action by a unit not there
                bad.append(Action(a.type, "no-such-unit", a.side))
            if a.path:                               # the same move off the board
                bad.append(Action(a.type, a.unit, a.side, (*a.path, (999.0, 999.0)), None,
                                  a.target, a.weapon, a.options))
            assert not replay.check(a)               # legal: it was played here
            assert all(replay.check(b) for b in bad)     # illegal
            assert replay.fingerprint() == before
        replay.apply(a)
    assert replay.fingerprint() == state.fingerprint()


def test_undo_everything_back_to_the_start(battle):
    _, _, _, game, state, _, _ = battle
    start = game.new_state().fingerprint()
    end = state.fingerprint()
    played = len(state.actions)
    steps = 0
    while state.undo():
        steps += 1
    assert steps == played
    assert state.fingerprint() == start and not state.actions
    while state.redo():
        pass
    assert state.fingerprint() == end and len(state.actions) == played


@pytest.mark.parametrize("part", [0.3, 0.7])
def test_a_position_written_part_way_plays_on_to_the_same_state(battle, part):
    ruleset, text, name, game, state, _, _ = battle
    actions = state.actions
    cut = int(len(actions) * part)
    first = game.new_state()
    for a in actions[:cut]:
        first.apply(a)
    written = yaml.safe_dump(scene_after(first), sort_keys=False)
    again = Game(registry.get(ruleset), load_scene_text(written, "position.yaml"),
                 seed=999).new_state()          # the position carries the dice, not the seed
    assert again.fingerprint() == first.fingerprint()
    for a in actions[cut:]:
        again.apply(a)
    assert again.fingerprint() == state.fingerprint()
    assert again.result() == state.result()
