"""Rules-engine figures for benchmarks/run.py.

- aos4_game_s: median wall time of one simulated aos4 battle (the bundled demo, two computer
  players, 4 battle rounds), over several seeds, each seed's the fastest of REPEATS plays
  (benchmarks/games.timed_battle). Quick mode plays only the last battle round, once.
- attack_odds_ms: median time of one exact attack distribution (battlefield odds --attack) for
  the demo's shooting and combat pairs. Reference: sampling the same attacks with the game's own
  dice (attacking.volley) SAMPLES times; the two must agree within 3 standard errors.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from battlefield.rules.aos4.allocation import volley
from battlefield.rules.aos4.attacks import Modifiers
from battlefield.rules.aos4.odds import _able, attack_odds
from battlefield.rules.aos4.weapons import weapons_of
from battlefield.rules.deploy import battle_scene
from battlefield.rules.state import Game
from battlefield.rulings import Referee
from battlefield.scene.load import load_scene_text
from benchmarks.games import REPEATS, timed_battle

PAIRS = [("red-archers", "blue-drake"), ("red-blades", "blue-drake"),
         ("blue-drake", "red-blades"), ("red-pyromancer", "blue-drake")]
SAMPLES = 4000


def bench_game(quick: bool = False) -> dict:
    text, name = battle_scene("aos4", None)
    if quick:
        text = text.replace("\nunits:", "\nstate: {round: 4}\nunits:", 1)
    seeds = [1] if quick else [1, 2, 3]
    times, actions = [], []
    for seed in seeds:
        took, _, state = timed_battle("aos4", text, name, seed, 1 if quick else REPEATS)
        times.append(took)
        actions.append(len(state.actions))
        assert state.over
    return {"aos4_game_s": round(statistics.median(times), 3), "aos4_games": len(seeds),
            "aos4_game_actions_median": int(statistics.median(actions)),
            "aos4_game_repeats": 1 if quick else REPEATS,
            "aos4_game_quick_rounds": 1 if quick else 4}


def bench_attack_odds(quick: bool = False) -> dict:
    text, name = battle_scene("aos4", None)
    scene = load_scene_text(text, name)
    ref = Referee(scene)
    attack_odds(ref, ref.unit(PAIRS[0][0]), ref.unit(PAIRS[0][1]))       # warm up
    fast, slow, worst = [], [], 0.0
    samples = 300 if quick else SAMPLES
    for a, b in PAIRS:
        u, v = ref.unit(a), ref.unit(b)
        t0 = time.perf_counter()
        odds = attack_odds(ref, u, v)
        fast.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        sampled = _sample(scene, ref, u, v, odds, samples)
        slow.append((time.perf_counter() - t0) * 1000)
        exact = odds.expected_damage
        sd = np.std(sampled) / np.sqrt(len(sampled)) if len(sampled) > 1 else 0.0
        worst = max(worst, abs(np.mean(sampled) - exact) / max(sd, 1e-9))
        if abs(np.mean(sampled) - exact) > 3 * sd + 1e-9 and not quick:
            raise AssertionError(f"attack odds {a}->{b}: exact mean {exact:.4f}, sampled "
                                 f"{np.mean(sampled):.4f} (sd {sd:.4f})")
    return {"attack_odds_ms": round(statistics.median(fast), 3),
            "attack_odds_reference_sampled_ms": round(statistics.median(slow), 1),
            "attack_odds_vs_sampling": round(statistics.median(slow) / statistics.median(fast),
                                             1),
            "attack_odds_reference_samples": samples,
            "attack_odds_worst_z": round(float(worst), 2)}


def _sample(scene, ref, u, v, odds, n: int) -> list[int]:
    """Roll the same attack n times with the game's dice (no allocation): damage dealt."""
    from battlefield.rules.aos4.rules import RULESET

    state = Game(RULESET, scene, 12345).new_state()
    melee = odds.kind == "combat"
    weapons = weapons_of(scene, u, melee=melee)
    health = int(float(scene.units[v].stats.get("health", 1)))
    pool = health * len(ref.table.unit_models[v])
    mods = Modifiers(hit=odds.modifiers.get("hit", 0), save=odds.modifiers.get("save", 0),
                     ward=odds.modifiers.get("ward"))
    able = {w.name: _able(ref, u, v, w)[0] for w in weapons}
    out = []
    for _ in range(n):
        total = 0
        for w in weapons:
            if able[w.name]:
                dmg, _ = volley(state, u, v, w, able[w.name], mods)
                total += dmg
        state.dice.log.clear()
        out.append(min(total, pool))
    return out
