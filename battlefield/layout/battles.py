"""Fair by play, not only by sight: battles of the ruleset's demo armies on a generated table,
half of them with the deployment zones swapped (each army fights from both ends), on the
simulate machinery (local processes, or a Dask cluster), and each side's win rate with its
95% interval."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

from battlefield.analysis.battles import progress_bar, run_battles, summarise
from battlefield.errors import UsageError
from battlefield.rules import registry
from battlefield.rules.deploy import demo_battle
from battlefield.scene.load import load_scene_text


def swapped(text: str) -> str:
    """A map text with its two deployment zones exchanged."""
    data = yaml.safe_load(text)
    zones = data.get("deployment") or {}
    if len(zones) != 2:
        raise UsageError("battles on a generated table need exactly two deployment zones")
    a, b = list(zones)
    data["deployment"] = {a: zones[b], b: zones[a]}
    return yaml.safe_dump(data, sort_keys=False, width=100)


def play_both_ways(map_path: str | Path, ruleset: str, games: int, seed: int,
                   workers: int | None = None, cluster: str | None = None) -> dict[str, Any]:
    """`games` battles: the first half as the map deploys, the rest with the zones swapped."""
    registry.get(ruleset)                 # a clear line for a ruleset that cannot be played
    text = Path(map_path).read_text(encoding="utf-8")
    halves = [(games + 1) // 2, games // 2]
    results: list[dict[str, Any]] = []
    per: list[dict[str, Any]] = []
    sides: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, (n, body) in enumerate(zip(halves, [text, swapped(text)], strict=True)):
            if n == 0:
                continue
            path = Path(tmp) / f"table-{k}.yaml"
            path.write_text(body, encoding="utf-8")
            scene_text = demo_battle(path, ruleset)
            name = f"{Path(map_path).stem}{' (zones swapped)' if k else ''}: demo armies"
            sides = load_scene_text(scene_text, name).sides
            bar = progress_bar() if sys.stderr.isatty() else None
            got = run_battles(ruleset, scene_text, name, n, seed + k, workers, cluster, bar)
            per.append({"deployment": "swapped" if k else "as written",
                        **summarise(got, sides)})
            base = len(results)
            results += [{**r, "index": base + r["index"]} for r in got]
    out = summarise(results, sides)
    out["deployments"] = per
    return out
