"""benchmarks/run.py in its --quick (smoke) mode: every figure is produced and the fast code's
answers are the references' answers. Speed is never asserted here (benchmarks/run.py measures
it)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from battlefield.scene.load import load_scene_text

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import run as bench  # noqa: E402
from benchmarks.scene import (  # noqa: E402
    drag_positions,
    load_benchmark_scene,
    make_terrain,
    random_lines,
    scene_yaml,
)


@pytest.fixture(scope="module")
def scene():
    return load_benchmark_scene()


def test_the_quick_run_prints_every_figure_as_json():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--json",
                          "--quick"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    figures = json.loads(out.stdout)
    for key in ("los_lines_per_s", "los_vs_shapely", "los_reference_shapely_lines_per_s",
                "live_check_ms_p95", "live_check_ms_median",
                "live_check_reference_visibility_ms_median", "machine", "python", "numba",
                "heatmap_120x88_s", "heatmap_120x88_peak_mb", "simulate_games_per_s",
                "simulate_skirmish_games_per_s",
                "openwg_game_s", "blocks_game_s", "svg_render_ms", "page_version_step_ms",
                "server_action_ms_p95", "server_games", "server_lost_actions",
                "layout_eval_ms", "layout_generate_s", "window_idle_cpu",
                "window_first_frame_s", "window_first_frame_warm_s",
                "browser_preview_ms_p95", "browser_previews", "play_page_first_paint_ms"):
        assert key in figures, key
    assert figures["machine"]["cores"] >= 1 and figures["machine"]["cpu"]
    assert figures["los_answers_identical"] and figures["live_check_answers_identical"]
    assert figures["quick"] is True
    assert figures["live_check_models"] == 510
    assert figures["heatmap_120x88_pieces"] == 120 and figures["heatmap_120x88_grid"] == 4.0
    assert figures["heatmap_120x88_peak_mb"] > 0 and figures["simulate_games"] == 2
    assert figures["svg_render_models"] == 510 and figures["svg_render_ms"] > 0
    if figures["page_browser"] == "chromium":          # else null, saying why
        assert figures["page_version_steps"] == 10 and figures["page_game_actions"] == 20
        assert figures["page_version_step_ms"] > 0
    assert figures["server_games"] == 2 and figures["server_lost_actions"] == 0
    assert figures["server_actions"] > 0 and figures["server_action_ms_p95"] > 0
    assert figures["browser_preview_players"] == 2 and figures["browser_previews"] > 0
    assert figures["server_lost_actions_under_attack"] == 0
    assert figures["server_actions_under_attack"] > 0
    assert figures["server_action_ms_p95_under_attack"] > 0
    assert figures["server_peak_mb_under_attack"] > 0
    attack = figures["server_attack"]
    assert attack["heavy_acts"] > 0 and attack["games_refused"] > 0
    assert figures["layout_eval_ms"] > 0 and figures["layout_generate_sweeps"] <= 2
    assert 0 <= figures["window_idle_cpu"] <= 1 and figures["window_idle_frames"] >= 1
    assert figures["window_first_frame_warm_s"] > 0 and figures["window_first_frame_s"] is None


def test_the_scene_is_seeded_and_valid(scene):
    assert make_terrain(np.random.default_rng(3)) == make_terrain(np.random.default_rng(3))
    assert scene_yaml(scene) == scene_yaml(load_scene_text(scene_yaml(scene)))
    assert len(scene.terrain) == 30
    assert len(scene.units) == 50 and sum(len(u.models) for u in scene.units) == 510
    assert [len(u.models) for u in scene.units].count(20) == 1
    heights = [p.height for p in scene.terrain]
    assert 0.5 <= min(heights) and max(heights) <= 6
    # The dragged block never overlaps terrain or another model where it is put.
    t = scene.table()
    others = np.setdiff1d(np.arange(len(t)), t.unit_models[0])
    for xy in drag_positions(scene, 5):
        moved = t.moved(t.unit_models[0], xy[:, 0], xy[:, 1])
        assert (moved.distances(moved.unit_models[0], others) > 0).all()
        assert (moved.z[moved.unit_models[0]] == 0).all()
        for m in moved.unit_models[0]:
            assert not moved.layout.pieces_touching(moved.footprint(int(m), 64))


def test_kernel_and_shapely_agree_on_every_line(scene):
    p, q = random_lines(3000, seed=5)
    fast = bench.kernel_blocked(scene.layout, p, q)
    ref = bench.shapely_blocked(scene.layout, p, q)
    assert ((fast >= 0) == ref).all()
    assert 0.2 < ref.mean() < 0.9          # both kinds of answer are exercised


def test_a_difference_from_the_reference_fails_the_run(scene, monkeypatch):
    real = bench.shapely_blocked

    def wrong(layout, p, q):
        out = real(layout, p, q)
        out[0] = not out[0]
        return out

    monkeypatch.setattr(bench, "shapely_blocked", wrong)
    with pytest.raises(AssertionError, match="disagree"):
        bench.bench_los(scene, quick=True)
