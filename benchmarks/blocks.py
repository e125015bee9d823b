"""Blocks figures for benchmarks/run.py.

- blocks_game_s: median wall time of one simulated blocks battle (the bundled demo,
  maps/demo-blocks.yaml, two computer players, 6 rounds) over several seeds. Quick mode plays
  only the last round. Each battle must end with a result and replay to the same fingerprints.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from battlefield.cli.commands import battle_scene
from battlefield.rules import log
from battlefield.rules.battle import play
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text


def bench_blocks_game(quick: bool = False) -> dict:
    text, name = battle_scene("blocks", None)
    if quick:
        text = text.replace("\nunits:", "\nstate: {round: 6}\nunits:", 1)
    seeds = [1] if quick else [1, 2, 3, 4, 5]
    times, actions = [], []
    for seed in seeds:
        game = Game(log.rules_for("blocks"), load_scene_text(text, name), seed)
        t0 = time.perf_counter()
        state = play(game)
        times.append(time.perf_counter() - t0)
        actions.append(len(state.actions))
        assert state.over and "winner" in state.result()
        again = log.replay_states(game.rules, seed, text, state.actions)
        assert again[-1] == state.fingerprint(), f"blocks seed {seed} does not replay"
    return {"blocks_game_s": round(statistics.median(times), 3), "blocks_games": len(seeds),
            "blocks_game_actions_median": int(statistics.median(actions)),
            "blocks_game_quick_rounds": 1 if quick else 6}


if __name__ == "__main__":
    import json

    print(json.dumps(bench_blocks_game("--quick" in sys.argv), indent=2))
