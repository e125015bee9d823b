"""How strong the computer players are, measured: `python benchmarks/strength.py [--json]
[--games N] [--strong-games M] [--rulesets aos4,skirmish] [--workers K] [--markdown] [--no-easy]
[--out FILE] [--merge FILE ...]`.

For every ruleset, on its table (TABLES: the ruleset's map, or its demo battle's when that has
deployment zones) in mirror matches - the same demo army on both sides, every other battle with
the zones swapped, each army in turn, so that neither the armies nor the table favour a
side - from both sides (the level under test as red, then as blue):

- normal against random: the normal level's wins against the uniform legal player (rules/
  players.py); target >= 97% wins from each side (`normal_vs_random_min`).
- easy against random: the same for the easy level, for comparison.
- strong against normal: the strong level's match score (a win 1, a draw 1/2) against the
  normal level; target >= 65% (`strong_vs_normal_score`), from both sides together.
- the abilities each level uses per battle: the action types of its side per battle (the
  passes and the answers to decisions left out), summed over the battles it played.

Every figure has its 95% Wilson interval and its number of battles. The battles of a match are
played a few at a time from each side in turn, and --out rewrites the file after each few: a run
stopped part way (the machine shared, a strong level costly) keeps what it measured, from both
sides, with its numbers of battles - the first battles of a whole run, seed for seed. Battles
are seeded (seed 1, battle i's seed derived from it), so a run gives the same figures on any
machine; only the time it takes depends on the machine. The figures go to README's strength
table (--markdown prints it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from battlefield.analysis.battles import Variant, make_jobs, run_jobs
from battlefield.analysis.match import interval
from battlefield.paths import find_map
from battlefield.rules import registry
from battlefield.rules.deploy import mirror_battles

GAMES = 100                 # battles per side for the matches against random
STRONG_GAMES = 20           # battles per side for strong against normal
SEED = 1
CHUNK = 2                   # battles per worker and side between two writes of the figures
TARGETS = {"normal_vs_random_min": 0.97, "strong_vs_normal_score": 0.65}
NOT_ABILITIES = {"decline", "commit", "no-reaction", "first", "initiative"}
# The table each ruleset's strength is measured on (a bundled map with two deployment zones).
TABLES = {"aos4": "aos4", "skirmish": "skirmish", "openwg": "openwg", "warband": "warband",
          "blocks": "demo-blocks"}


def table_of(ruleset: str) -> list[Variant]:
    """The mirror matches of the ruleset's table (its demo battle's map when TABLES names
    none)."""
    name = TABLES.get(ruleset) or str(registry.get(ruleset).spec.demo)
    path = find_map(name)
    if path is None:
        raise SystemExit(f"strength: no bundled map {name!r} for {ruleset}")
    return [Variant(t, n, tuple(z.items())) for t, n, z in mirror_battles(path, ruleset, name)]


def match(ruleset: str, level: str, against: str, games: int, workers: int | None,
          keep: Any = None) -> dict[str, Any]:
    """`level` against `against`, `games` battles with `level` as each side in turn, played a
    few at a time from each side (CHUNK battles per worker), the figures so far handed to
    `keep` after each few: a run stopped part way keeps the battles it played, from both
    sides, with their numbers - the same battles, seed for seed, as a whole run's first ones."""
    ways = table_of(ruleset)
    sides = ["red", "blue"]
    jobs = {}
    for side in sides:
        other = [s for s in sides if s != side][0]
        jobs[side] = make_jobs(ruleset, ways, games, SEED + sides.index(side),
                               {side: level, other: against})
    results: dict[str, list[dict[str, Any]]] = {s: [] for s in sides}
    step = CHUNK * max(1, workers or os.cpu_count() or 1)
    out: dict[str, Any] = {}
    for lo in range(0, games, step):
        for side in sides:
            results[side] += run_jobs(jobs[side][lo:lo + step], workers)
        out = summary(ruleset, level, results)
        if keep is not None:
            keep(out)
    return out


def summary(ruleset: str, level: str, results: dict[str, list[dict[str, Any]]]
            ) -> dict[str, Any]:
    """The match's figures from the battles played so far, {side of `level`: results}."""
    out: dict[str, Any] = {"games": 0, "wins": 0, "draws": 0, "losses": 0, "per_side": {},
                           "uses": {}}
    passes = {a.id for a in registry.get(ruleset).spec.actions if a.passes}
    for side, played in results.items():
        games = len(played)
        won = sum(1 for r in played if r["winner"] == side)
        drawn = sum(1 for r in played if r["winner"] is None)
        out["per_side"][side] = {"games": games, "wins": won, "draws": drawn,
                                 "win_rate": round(won / games, 4) if games else 0.0,
                                 "win_rate_95": interval(won, games)}
        out["games"] += games
        out["wins"] += won
        out["draws"] += drawn
        out["losses"] += games - won - drawn
        for r in played:
            for kind, n in r["uses"].get(side, {}).items():
                if kind not in passes and kind not in NOT_ABILITIES:
                    out["uses"][kind] = out["uses"].get(kind, 0) + n
    n = max(1, out["games"])
    out["win_rate"] = round(out["wins"] / n, 4)
    out["win_rate_95"] = interval(out["wins"], out["games"])
    out["score"] = round((out["wins"] + out["draws"] / 2) / n, 4)
    out["score_95"] = interval(out["wins"] + out["draws"] / 2, out["games"])
    out["min_side_win_rate"] = min(s["win_rate"] for s in out["per_side"].values())
    out["uses"] = {k: round(v / n, 2) for k, v in sorted(out["uses"].items(),
                                                         key=lambda kv: -kv[1])}
    return out


def run(rulesets: list[str], games: int, strong_games: int, workers: int | None,
        easy: bool = True, out_path: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"games_per_side": games, "strong_games_per_side": strong_games,
                           "seed": SEED, "tables": {r: TABLES.get(r) for r in rulesets},
                           "rulesets": {}}
    for ruleset in rulesets:
        t0 = time.perf_counter()
        row: dict[str, Any] = {}
        out["rulesets"][ruleset] = row
        if games:
            row["normal_vs_random"] = match(ruleset, "normal", "random", games, workers,
                                            _keeper(out, out_path, row, "normal_vs_random"))
            if easy:
                row["easy_vs_random"] = match(ruleset, "easy", "random", games, workers,
                                              _keeper(out, out_path, row, "easy_vs_random"))
        if strong_games:
            row["strong_vs_normal"] = match(ruleset, "strong", "normal", strong_games,
                                            workers,
                                            _keeper(out, out_path, row, "strong_vs_normal"))
        row["seconds"] = round(time.perf_counter() - t0, 1)
        print(f"{ruleset}: done in {row['seconds']} s", file=sys.stderr, flush=True)
        _keep(out, out_path)
    out["targets"] = TARGETS
    out["targets_met"] = targets_met(out["rulesets"])
    if out_path:
        Path(out_path).write_text(json.dumps(out, indent=2))
    return out


def targets_met(rulesets: dict[str, Any]) -> dict[str, bool]:
    """Each target of each ruleset's measured matches: met or not."""
    met = {}
    for ruleset, row in rulesets.items():
        if "normal_vs_random" in row:
            met[f"{ruleset}.normal_vs_random_min"] = (
                row["normal_vs_random"]["min_side_win_rate"] >= TARGETS["normal_vs_random_min"])
        if "strong_vs_normal" in row:
            met[f"{ruleset}.strong_vs_normal_score"] = (
                row["strong_vs_normal"]["score"] >= TARGETS["strong_vs_normal_score"])
    return met


def _keeper(out: dict[str, Any], out_path: str | None, row: dict[str, Any], key: str) -> Any:
    """What writes a match's figures so far into its row (and the file)."""

    def keep(figures: dict[str, Any]) -> None:
        row[key] = figures
        _keep(out, out_path)

    return keep


def _keep(out: dict[str, Any], out_path: str | None) -> None:
    """What is measured so far, written (a run stopped part way keeps it)."""
    if out_path:
        Path(out_path).write_text(json.dumps(out, indent=2))


def merged(paths: list[str]) -> dict[str, Any]:
    """Runs made apart (a ruleset or a few each, in parallel, or one match each) as one: their
    rulesets' rows side by side, a ruleset's matches from every run that played one (a later
    run's replacing an earlier's), with each run's numbers of battles."""
    out: dict[str, Any] = {"rulesets": {}, "runs": [], "targets": TARGETS, "targets_met": {}}
    for p in paths:
        one = json.loads(Path(p).read_text())
        for ruleset, row in one["rulesets"].items():      # a later run's matches win
            out["rulesets"].setdefault(ruleset, {}).update(row)
        out["runs"].append({k: one.get(k) for k in ("games_per_side", "strong_games_per_side",
                                                    "seed", "tables")})
    out["targets_met"] = targets_met(out["rulesets"])
    return out


def markdown(out: dict[str, Any]) -> str:
    """README's strength table, and the abilities each level uses per battle."""

    def pct(x: float) -> str:
        return f"{x:.0%}" if x in (0, 1) else f"{x:.1%}"

    def ci(v: list[float]) -> str:
        return f"{pct(v[0])}–{pct(v[1])}"

    lines = ["| ruleset | normal vs random, as red | as blue | easy vs random (both sides) "
             "| strong vs normal, score (both sides) |", "| --- | --- | --- | --- | --- |"]
    for ruleset, row in out["rulesets"].items():
        cells = [ruleset]
        nr = row.get("normal_vs_random")
        for side in ("red", "blue"):
            if nr:
                s = nr["per_side"][side]
                cells.append(f"{pct(s['win_rate'])} ({ci(s['win_rate_95'])}, {s['games']})")
            else:
                cells.append("-")
        er = row.get("easy_vs_random")
        cells.append(f"{pct(er['win_rate'])} ({ci(er['win_rate_95'])}, {er['games']})"
                     if er else "-")
        sn = row.get("strong_vs_normal")
        cells.append(f"{pct(sn['score'])} ({ci(sn['score_95'])}, {sn['games']})" if sn else "-")
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "| ruleset | level | abilities used per battle (its side) |",
              "| --- | --- | --- |"]
    for ruleset, row in out["rulesets"].items():
        for key, level in (("easy_vs_random", "easy"), ("normal_vs_random", "normal"),
                           ("strong_vs_normal", "strong")):
            if key in row:
                used = ", ".join(f"{k} {v:g}" for k, v in row[key]["uses"].items())
                lines.append(f"| {ruleset} | {level} | {used or '-'} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=GAMES,
                    help=f"battles per side against random (default {GAMES}; 0: none)")
    ap.add_argument("--strong-games", type=int, default=STRONG_GAMES,
                    help=f"battles per side of strong against normal (default {STRONG_GAMES})")
    ap.add_argument("--rulesets", default=None, help="comma-separated (default: every one)")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: cores)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--markdown", action="store_true", help="print README's tables")
    ap.add_argument("--no-easy", action="store_true", help="leave out easy against random")
    ap.add_argument("--out", default=None,
                    help="also write the JSON to this file, after each match")
    ap.add_argument("--merge", nargs="+", default=None, metavar="JSON",
                    help="print the tables of runs written with --out (nothing played)")
    args = ap.parse_args(argv)
    if args.merge:
        out = merged(args.merge)
        print(json.dumps(out, indent=2) if args.json else markdown(out))
        return 0
    rulesets = (args.rulesets.split(",") if args.rulesets
                else [n for n in registry.playable() if registry.get(n).spec.demo])
    out = run(rulesets, args.games, args.strong_games, args.workers, easy=not args.no_easy,
              out_path=args.out)
    if args.json:
        print(json.dumps(out, indent=2))
    if args.markdown or not args.json:
        print(markdown(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
