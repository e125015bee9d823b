"""Fair by play, not only by sight: battles of the ruleset's demo armies on a generated table on
the simulate machinery (local processes, or a Dask cluster). By default mirror matches: the
same army on both sides, every other battle with the deployment zones swapped, each army in
turn, so that the win rate of each zone is the table's verdict, beside the colours', the
first player's and the navigation check (analysis/match.py). `mirror=False`: each side its own
army, half of the battles with the zones swapped (each army fights from both ends)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

from battlefield.analysis.battles import Variant, progress_bar, run_battles, summarise
from battlefield.errors import UsageError
from battlefield.rules import registry
from battlefield.rules.deploy import demo_battle, mirror_battles
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


def variants(map_path: str | Path, ruleset: str, mirror: bool = True) -> list[Variant]:
    """The ways the battles are set up on the table, played in turn."""
    path = Path(map_path)
    text = path.read_text(encoding="utf-8")
    zones = yaml.safe_load(text).get("deployment") or {}
    if len(zones) != 2:
        raise UsageError("battles on a generated table need exactly two deployment zones")
    if mirror:
        return [Variant(t, n, tuple(z.items()))
                for t, n, z in mirror_battles(path, ruleset, path.stem)]
    a, b = list(zones)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, body in enumerate([text, swapped(text)]):
            table = Path(tmp) / f"table-{k}.yaml"
            table.write_text(body, encoding="utf-8")
            stand = ((a, b), (b, a)) if k else ((a, a), (b, b))
            out.append(Variant(demo_battle(table, ruleset),
                               f"{path.stem}{' (zones swapped)' if k else ''}: demo armies",
                               stand))
    return out


def play_on_table(map_path: str | Path, ruleset: str, games: int, seed: int,
                  workers: int | None = None, cluster: str | None = None,
                  mirror: bool = True) -> dict[str, Any]:
    """`games` battles on the table, the set-ups (`variants`) in turn: the summary of all,
    and of each set-up under "deployments"."""
    registry.get(ruleset)                 # a clear line for a ruleset that cannot be played
    ways = variants(map_path, ruleset, mirror)
    sides = load_scene_text(ways[0].scene_text, ways[0].scene_name).sides
    bar = progress_bar() if sys.stderr.isatty() else None
    results = run_battles(ruleset, ways[0].scene_text, ways[0].scene_name, games, seed,
                          workers, cluster, bar, variants=ways)
    out = summarise(results, sides)
    out["mirror"] = mirror
    per = []
    for k, way in enumerate(ways):
        got = [r for r in results if r["index"] % len(ways) == k]
        if got:
            per.append({"deployment": "swapped" if dict(way.zones).get(sides[0]) != sides[0]
                        else "as written", "name": way.scene_name, **summarise(got, sides)})
    out["deployments"] = per
    return out
