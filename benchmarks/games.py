"""Battle figures of the rulesets other than aos4 (aos4's: benchmarks/rules.py), for
benchmarks/run.py.

- NAME_game_s: median wall time of one simulated NAME battle (the ruleset's bundled demo,
  maps/demo-NAME.yaml, two computer players) over several seeds; NAME_games, the seeds;
  NAME_game_actions_median; NAME_game_quick_rounds: the rounds played (quick mode plays one seed
  from the last round). Each battle must end with a result and replay to the same fingerprints.

Each seed's battle is played REPEATS times, each time from a freshly read scene (nothing kept
from the play before), and its fastest time kept: the same battle each time (their actions must
be identical), so the spread between them is this shared machine's, not the code's.
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from battlefield.rules import log
from battlefield.rules.battle import play
from battlefield.rules.deploy import battle_scene
from battlefield.rules.state import Game, State
from battlefield.scene.load import load_scene_text

# ruleset -> (its demo battle's rounds, seeds measured)
GAMES = {"skirmish": (6, 5), "openwg": (5, 3), "warband": (4, 5), "blocks": (6, 5)}
REPEATS = 3


def timed_battle(ruleset: str, text: str, name: str, seed: int, repeats: int
                 ) -> tuple[float, Game, State]:
    """The fastest of `repeats` plays of one battle, each from a freshly read scene; the
    plays must take the same actions."""
    best, first = math.inf, None
    for _ in range(repeats):
        game = Game(log.rules_for(ruleset), load_scene_text(text, name), seed)
        t0 = time.perf_counter()
        state = play(game)
        best = min(best, time.perf_counter() - t0)
        if first is None:
            first = (game, state)
        elif state.actions != first[1].actions:
            raise AssertionError(f"{ruleset} seed {seed} played two different battles")
    assert first is not None
    return best, *first


def bench_ruleset_game(ruleset: str, quick: bool = False) -> dict:
    rounds, n = GAMES[ruleset]
    text, name = battle_scene(ruleset, None)
    if quick:
        text = text.replace("\nunits:", f"\nstate: {{round: {rounds}}}\nunits:", 1)
    seeds = [1] if quick else list(range(1, n + 1))
    times, actions = [], []
    for seed in seeds:
        took, game, state = timed_battle(ruleset, text, name, seed, 1 if quick else REPEATS)
        times.append(took)
        actions.append(len(state.actions))
        assert state.over and "winner" in state.result()
        again = log.replay_states(game.rules, seed, text, state.actions)
        assert again[-1] == state.fingerprint(), f"{ruleset} seed {seed} does not replay"
    return {f"{ruleset}_game_s": round(statistics.median(times), 3),
            f"{ruleset}_games": len(seeds),
            f"{ruleset}_game_actions_median": int(statistics.median(actions)),
            f"{ruleset}_game_repeats": 1 if quick else REPEATS,
            f"{ruleset}_game_quick_rounds": 1 if quick else rounds}


if __name__ == "__main__":
    import json

    names = [a for a in sys.argv[1:] if not a.startswith("-")] or list(GAMES)
    print(json.dumps({k: v for r in names for k, v in
                      bench_ruleset_game(r, "--quick" in sys.argv).items()}, indent=2))
