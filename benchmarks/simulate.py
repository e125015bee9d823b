"""Monte Carlo battle throughput for benchmarks/run.py.

- simulate_games_per_s: battles per second of `battlefield simulate --ruleset aos4 --games N
  --workers 2` (the bundled demo battle, 4 rounds a battle, both sides at the default normal
  level), timed from the outside as a person runs it: the whole command in a fresh process,
  start-up and worker processes included. N is 40 by default (`benchmarks/run.py --games N`
  changes it); quick mode plays 2 battles of the demo's last round only. Target >= 10 (issue
  36); simulate_games says how many battles the figure is from.
- simulate_skirmish_games_per_s: the same for `--ruleset skirmish`, over SKIRMISH_PER_AOS4
  times as many battles (400 by default: a skirmish battle is short, and start-up should not
  be what is measured); quick mode 2. Target >= 40 (issue 36).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMES = 40
WORKERS = 2
SKIRMISH_PER_AOS4 = 10          # skirmish battles per aos4 battle of the run
_COMMAND = "import sys; from battlefield.cli.main import main; sys.exit(main(sys.argv[1:]))"


def bench_simulate(quick: bool = False, games: int | None = None) -> dict:
    games = games or (2 if quick else GAMES)
    out = _timed("aos4", games, quick)
    few = 2 if quick else games * SKIRMISH_PER_AOS4
    skirmish = _timed("skirmish", few, False)
    out.update({"simulate_skirmish_games_per_s": skirmish["simulate_games_per_s"],
                "simulate_skirmish_games": few,
                "simulate_skirmish_s": skirmish["simulate_s"]})
    return out


def _timed(ruleset: str, games: int, quick: bool) -> dict:
    from battlefield.rules.deploy import battle_scene

    argv = ["simulate", "--ruleset", ruleset, "--games", str(games), "--workers", str(WORKERS),
            "--seed", "1", "--json"]
    with tempfile.TemporaryDirectory() as tmp:
        if quick and ruleset == "aos4":
            text, _ = battle_scene("aos4", None)
            path = Path(tmp) / "last-round.yaml"
            path.write_text(text.replace("\nunits:", "\nstate: {round: 4}\nunits:", 1),
                            encoding="utf-8")
            argv += ["--map", str(path)]
        t0 = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", _COMMAND, *argv], capture_output=True,
                             text=True, check=False)
        seconds = time.perf_counter() - t0
    if out.returncode != 0:
        raise AssertionError(f"simulate failed:\n{out.stderr}")
    result = json.loads(out.stdout)
    if result["games"] != games:
        raise AssertionError(f"simulate played {result['games']} battles, not {games}")
    return {"simulate_games_per_s": round(games / seconds, 3),
            "simulate_games": games,
            "simulate_workers": WORKERS,
            "simulate_s": round(seconds, 2),
            "simulate_quick_rounds": 1 if quick else 4}
