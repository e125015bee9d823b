"""The conformance suite every playable ruleset runs: load its demo battle, play a seeded battle
to the end, replay the log identically, undo every action back to the start; the same seed
gives a byte-identical log."""

from __future__ import annotations

import pytest

from battlefield.cli.commands import battle_scene
from battlefield.rules import log
from battlefield.rules.battle import play
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text

PLAYABLE = ["aos4", "skirmish"]
SEED = 11


@pytest.fixture(scope="module", params=PLAYABLE)
def battle(request, tmp_path_factory):
    ruleset = request.param
    text, name = battle_scene(ruleset, None)
    if ruleset == "aos4":     # from round 3: a whole battle to its end, in half the time
        text = text.replace("\nunits:", "\nstate: {round: 3}\nunits:", 1)
    game = Game(log.rules_for(ruleset), load_scene_text(text, name), SEED)
    state = play(game, keep_undo=True)
    path = tmp_path_factory.mktemp(ruleset) / "game.jsonl"
    log.write(path, state, text)
    return ruleset, text, name, game, state, path


def test_plays_to_the_end_with_a_result(battle):
    _, _, _, _, state, _ = battle
    assert state.over
    result = state.result()
    assert set(result) >= {"winner", "victory_points"}
    assert any(a.type != "end-phase" for a in state.actions)


def test_replays_identically(battle):
    _, _, _, _, state, path = battle
    saved = log.read(path)
    replayed, diff = log.replay(saved)
    assert diff is None
    assert replayed.fingerprint() == state.fingerprint()


def test_same_seed_same_log(battle, tmp_path):
    """Also without an undo history (how computer battles play): the same battle."""
    ruleset, text, name, _, _, path = battle
    again = play(Game(log.rules_for(ruleset), load_scene_text(text, name), SEED))
    other = tmp_path / "again.jsonl"
    log.write(other, again, text)
    assert other.read_bytes() == path.read_bytes()


def test_undo_everything_back_to_the_start(battle):
    _, _, _, game, state, _ = battle
    start = game.new_state().fingerprint()
    steps = 0
    while state.undo():
        steps += 1
    assert steps == len(state.actions) or state.fingerprint() == start
    assert state.fingerprint() == start
    assert state.redo()
