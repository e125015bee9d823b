"""Monte Carlo battles: N computer-vs-computer battles on one map (or on its set-ups in turn:
mirror matches, zones swapped), each side's player at its level, and what each battle shows
beyond its result: the side that moved first, the zone each side stood in, the navigation
counts and the action types each side used (summed up by analysis/match.py).

Battle i is played with its own seed derived from (seed, i), so the results are the same
whatever the number of workers and whichever machine plays which battle. Battles run on local
processes by default, or on an existing Dask cluster (`--cluster tcp://host:8786`): Dask
because it is pure Python, installs from PyPI as `distributed`, connects to a scheduler by its
address and maps plain functions - what these independent battles need, without Ray's object
store, dashboard and native runtime.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TextIO

from battlefield.analysis.match import summarise, wilson
from battlefield.analysis.navigation import Tracker
from battlefield.analysis.progress import ProgressBar
from battlefield.errors import UsageError
from battlefield.rules import log
from battlefield.rules.battle import play
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text
from battlefield.scene.model import Scene

_MASK = (1 << 64) - 1


def battle_seed(seed: int, i: int) -> int:
    """A well-mixed seed for battle i (splitmix64 of seed and i)."""
    z = (seed * 0x9E3779B97F4A7C15 + (i + 1) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return (z ^ (z >> 31)) & 0x7FFFFFFF


@dataclass(frozen=True)
class Variant:
    """One way of setting the battle up: the scene (YAML text), its name, and the deployment
    zone each side stands in, as the map names them (empty: not known)."""

    scene_text: str
    scene_name: str
    zones: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Job:
    ruleset: str
    scene_text: str
    scene_name: str
    seed: int
    index: int
    kinds: tuple[tuple[str, str], ...] = ()       # (side, player level): normal when left out
    zones: tuple[tuple[str, str], ...] = ()       # (side, the deployment zone it stands in)


@lru_cache(maxsize=8)
def _scene(text: str, name: str) -> Scene:
    """The scene of a battle, read once per process: a worker plays many battles of the same
    few scenes, and what a scene works out once (its layout, its rulesets' per-unit tables)
    stays with it. Games never change their scene."""
    return load_scene_text(text, name)


def play_one(job: Job) -> dict[str, Any]:
    """One battle (in whatever process runs it): its index, seed and result, the side that
    acted first with a unit, each side's zone, the navigation counts per zone and the action
    types each side used (and the commands given with them: aos4's all-out-attack ...)."""
    scene = _scene(job.scene_text, job.scene_name)
    game = Game(log.rules_for(job.ruleset), scene, job.seed)
    zones = dict(job.zones) or {s: s for s in scene.sides if s in scene.deployment}
    seen: dict[str, Any] = {"first": None, "tracker": None}
    uses: dict[str, Counter[str]] = {s: Counter() for s in scene.sides}

    def choice(state, action) -> None:
        side = state.acting_side
        uses[side][action.type] += 1
        named = action.option("command")       # a command given with it (aos4's) counts too
        for name in [named] if isinstance(named, str) else list(named or ()):
            uses[side][str(name)] += 1
        if seen["first"] is None:
            seen["first"] = side
        if seen["tracker"] is None and zones:
            seen["tracker"] = Tracker(state, zones)

    def after(state, action) -> None:
        if seen["tracker"] is not None:
            seen["tracker"].see(state)

    state = play(game, kinds=dict(job.kinds), on_choice=choice, on_action=after)
    out = {"index": job.index, "seed": job.seed, "actions": len(state.actions),
           **state.result(), "first": first_turn(state) or seen["first"],
           "uses": {s: dict(c) for s, c in uses.items()}}
    if job.kinds:
        out["players"] = dict(job.kinds)
    if zones:
        out["zones"] = zones
    if seen["tracker"] is not None:
        out["navigation"] = seen["tracker"].report()
    return out


def first_turn(state) -> str | None:
    """The side whose turn came first: the first `turn` event's active side (warband's after
    its initiative roll), else None (a ruleset without turns: the side acting first)."""
    return next((e["active"] for e in state.events if e.get("type") == "turn"
                 and e.get("active")), None)


def make_jobs(ruleset: str, variants: list[Variant], games: int, seed: int,
              kinds: dict[str, str] | None = None) -> list[Job]:
    """Battle i of `games`: variant i modulo their number, its own seed from (seed, i)."""
    k = tuple(sorted((kinds or {}).items()))
    return [Job(ruleset, v.scene_text, v.scene_name, battle_seed(seed, i), i, k, v.zones)
            for i in range(games) for v in [variants[i % len(variants)]]]


def run_battles(ruleset: str, scene_text: str, scene_name: str, games: int, seed: int,
                workers: int | None = None, cluster: str | None = None,
                progress: Callable[[int, int], None] | None = None,
                kinds: dict[str, str] | None = None,
                variants: list[Variant] | None = None) -> list[dict[str, Any]]:
    """`games` battles of the scene (or, given `variants`, of each in turn), each side's
    player at its level in `kinds`, on local processes or a Dask cluster."""
    variants = variants or [Variant(scene_text, scene_name)]
    return run_jobs(make_jobs(ruleset, variants, games, seed, kinds), workers, cluster,
                    progress)


def run_jobs(jobs: list[Job], workers: int | None = None, cluster: str | None = None,
             progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    games = len(jobs)
    if progress:
        progress(0, games)
    if cluster:
        return _on_dask(jobs, cluster, progress)
    workers = workers or os.cpu_count() or 1
    if workers == 1 or games == 1:
        out = []
        for j in jobs:
            out.append(play_one(j))
            if progress:
                progress(len(out), games)
        return out
    # The first battle is played here, before the workers start: they are forked from this
    # process and so begin with what it loaded and compiled (the scene, numba's kernels)
    # instead of each loading them again. Each battle's result depends on its job alone.
    out = [play_one(jobs[0])]
    if progress:
        progress(1, games)
    with ProcessPoolExecutor(max_workers=min(workers, games - 1),
                             mp_context=_forking()) as pool:
        futures = [pool.submit(play_one, j) for j in jobs[1:]]
        for f in as_completed(futures):
            out.append(f.result())
            if progress:
                progress(len(out), games)
    return out


def _forking() -> Any:
    """The fork start method where the platform has it (workers begin with this process's
    memory), else the default."""
    try:
        return multiprocessing.get_context("fork")
    except ValueError:
        return None


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


__all__ = ["Job", "Variant", "battle_seed", "make_jobs", "play_one", "progress_bar", "run_battles",
           "run_jobs", "summarise", "wilson"]
