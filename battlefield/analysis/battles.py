"""Monte Carlo battles: N computer-vs-computer battles on one map, their win rates with 95%
intervals and mean scores.

Battle i is played with its own seed derived from (seed, i), so the results are the same
whatever the number of workers and whichever machine plays which battle. Battles run on local
processes by default, or on an existing Dask cluster (`--cluster tcp://host:8786`): Dask
because it is pure Python, installs from PyPI as `distributed`, connects to a scheduler by its
address and maps plain functions - what these independent battles need, without Ray's object
store, dashboard and native runtime.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, TextIO

from battlefield.analysis.progress import ProgressBar
from battlefield.errors import UsageError
from battlefield.rules import log
from battlefield.rules.battle import play
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text

_MASK = (1 << 64) - 1


def battle_seed(seed: int, i: int) -> int:
    """A well-mixed seed for battle i (splitmix64 of seed and i)."""
    z = (seed * 0x9E3779B97F4A7C15 + (i + 1) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return (z ^ (z >> 31)) & 0x7FFFFFFF


@dataclass(frozen=True)
class Job:
    ruleset: str
    scene_text: str
    scene_name: str
    seed: int
    index: int


def play_one(job: Job) -> dict[str, Any]:
    """One battle (in whatever process runs it): its index, seed and result."""
    scene = load_scene_text(job.scene_text, job.scene_name)
    state = play(Game(log.rules_for(job.ruleset), scene, job.seed))
    return {"index": job.index, "seed": job.seed, "actions": len(state.actions),
            **state.result()}


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for k successes in n trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarise(results: list[dict[str, Any]], sides: list[str]) -> dict[str, Any]:
    results = sorted(results, key=lambda r: r["index"])
    n = len(results)
    wins = {s: sum(1 for r in results if r["winner"] == s) for s in sides}
    draws = sum(1 for r in results if r["winner"] is None)
    name = results[0]["score"] if results else "victory_points"   # the deciding score
    score = {s: (sum(r[name].get(s, 0) for r in results) / n if n else 0.0) for s in sides}
    return {
        "score": name, "games": n, "wins": wins, "draws": draws,
        "win_rate": {s: wins[s] / n if n else 0.0 for s in sides},
        "win_rate_95": {s: [round(x, 4) for x in wilson(wins[s], n)] for s in sides},
        "draw_rate": draws / n if n else 0.0,
        "mean_score": {s: round(v, 3) for s, v in score.items()},
        "seeds": [r["seed"] for r in results],
    }


def run_battles(ruleset: str, scene_text: str, scene_name: str, games: int, seed: int,
                workers: int | None = None, cluster: str | None = None,
                progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    jobs = [Job(ruleset, scene_text, scene_name, battle_seed(seed, i), i) for i in range(games)]
    if progress:
        progress(0, games)
    if cluster:
        return _on_dask(jobs, cluster, progress)
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        out = []
        for j in jobs:
            out.append(play_one(j))
            if progress:
                progress(len(out), games)
        return out
    out = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play_one, j) for j in jobs]
        for f in as_completed(futures):
            out.append(f.result())
            if progress:
                progress(len(out), games)
    return out


def _on_dask(jobs: list[Job], address: str, progress) -> list[dict[str, Any]]:
    try:                     # here, not at the top: distributed is optional (the cluster extra)
        # here, not at the top: an optional dependency (the cluster extra)
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:
        raise UsageError("--cluster needs Dask's distributed package: "
                         "pip install \"battlefield[cluster]\"") from None
    try:
        client = Client(address, timeout="10s")
    except OSError as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {address} ({exc})") from None
    with client:
        futures = client.map(play_one, jobs, pure=False)
        out = []
        for f in dask_completed(futures):
            out.append(f.result())
            if progress:
                progress(len(out), len(jobs))
    return out


def progress_bar(stream: TextIO | None = None) -> ProgressBar:
    """The bar `simulate --games` shows on stderr: battles done, games per second, time left."""
    return ProgressBar("battles", "games", stream)
