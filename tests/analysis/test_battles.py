"""Monte Carlo battles: per-battle seeds independent of the workers, the summary's figures, and
the Dask path (`simulate --cluster`) on a real in-process Dask cluster (distributed is in the
test extra)."""

from __future__ import annotations

import json

import pytest

from battlefield.analysis.battles import battle_seed, run_battles, summarise, wilson

# A small battle in its last round, so that each takes a moment.
NAME = "small battle"
SHORT = """
ruleset: aos4
board: {width: 30, depth: 20}
objectives: [{id: centre, at: [15, 10]}]
state: {round: 4}
units:
  - id: red-foot
    side: red
    stats: {move: 5, health: 1, save: 4, control: 1}
    weapons: [{name: spear, attacks: 2, hit: 4, wound: 4, damage: 1}]
    models: [{base: 32, at: [9, 10]}, {base: 32, at: [9, 11.5]}]
  - id: blue-foot
    side: blue
    stats: {move: 5, health: 1, save: 4, control: 1}
    weapons: [{name: bow, range: 12, attacks: 1, hit: 4, wound: 4, damage: 1}]
    models: [{base: 32, at: [21, 10]}, {base: 32, at: [21, 11.5]}]
"""


def test_battle_seeds_are_fixed_and_distinct():
    seeds = [battle_seed(7, i) for i in range(100)]
    assert len(set(seeds)) == 100
    assert seeds == [battle_seed(7, i) for i in range(100)]
    assert battle_seed(8, 0) != battle_seed(7, 0)


def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-3) and hi == pytest.approx(0.7634, abs=1e-3)
    assert wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert wilson(10, 10)[1] == pytest.approx(1.0, abs=1e-12)


def test_summary_counts():
    results = [{"index": 0, "seed": 1, "winner": "red", "score": "victory_points",
                "victory_points": {"red": 5, "blue": 1}},
               {"index": 1, "seed": 2, "winner": None, "score": "victory_points",
                "victory_points": {"red": 3, "blue": 3}},
               {"index": 2, "seed": 3, "winner": "blue", "score": "victory_points",
                "victory_points": {"red": 0, "blue": 4}}]
    s = summarise(results, ["red", "blue"])
    assert s["games"] == 3 and s["wins"] == {"red": 1, "blue": 1} and s["draws"] == 1
    assert s["mean_score"] == {"red": pytest.approx(8 / 3, abs=1e-3), "blue": pytest.approx(8 / 3,
                                                                                        abs=1e-3)}


def test_same_results_whatever_the_workers():
    one = run_battles("aos4", SHORT, NAME, 2, seed=3, workers=1)
    two = run_battles("aos4", SHORT, NAME, 2, seed=3, workers=2)
    key = lambda r: (r["index"], r["seed"], r["winner"], r["actions"],  # noqa: E731
                     tuple(sorted(r["victory_points"].items())))
    assert sorted(map(key, one)) == sorted(map(key, two))


def test_on_a_dask_cluster(tmp_path, capsys):
    """`simulate --games 4 --cluster ADDRESS` on a real (in-process) Dask cluster of two workers
    gives the battles local processes give for the same seed: per-battle seeds, not workers,
    decide the dice."""
    import distributed

    from battlefield.cli.main import main

    scene = tmp_path / "short.yaml"
    scene.write_text(SHORT, encoding="utf-8")
    argv = ["simulate", "--ruleset", "aos4", "--map", str(scene), "--games", "4", "--seed", "5",
            "--json"]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        assert len(cluster.workers) == 2
        assert main([*argv, "--cluster", cluster.scheduler_address]) == 0
    on_dask = json.loads(capsys.readouterr().out)
    assert main([*argv, "--workers", "2"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert on_dask == local
    assert on_dask["games"] == 4 and len(set(on_dask["seeds"])) == 4
