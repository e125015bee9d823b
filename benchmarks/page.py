"""Page figures for benchmarks/run.py.

- svg_render_ms: median time to write the SVG of the 510-model benchmark scene
  (benchmarks/scene.py) with its rulings (battlefield.page.svg.scene_svg; the rulings of
  `battlefield check` worked out beforehand: on this board they take seconds, the drawing
  not; quick mode leaves them out). Target <= 200 ms.
- page_version_step_ms: one step of the time slider on a 200-action game (the aos4 demo battle,
  two computer players, its first 200 actions, written as `battlefield replay --html` writes
  it), measured in headless Chromium by the page itself: its bench mode (#bench=K) steps the
  slider K times, one version on each time (after a few untimed steps: the script compiled),
  and times each step with performance.now(), including the layout the step causes (not the
  paint); the median of the steps (p95 and max are reported too).
  Target <= 50 ms. Quick mode: a 20-action game, 10 steps. Without a browser the figure is
  null and page_browser says why.
"""

from __future__ import annotations

import json
import re
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks.scene import load_benchmark_scene

REPEATS = 7
STEPS = 200


def bench_svg(quick: bool = False) -> dict:
    from battlefield.page.svg import scene_svg
    from battlefield.rules.registry import with_ruleset_check
    from battlefield.rulings import Referee

    scene = load_benchmark_scene()
    # The check (every pair's sight) takes seconds here: quick mode draws without rulings.
    report = None if quick else with_ruleset_check(scene, Referee(scene).check_report())
    scene_svg(scene, report)                                  # warm up
    times = []
    for _ in range(2 if quick else REPEATS):
        t0 = time.perf_counter()
        svg = scene_svg(scene, report)
        times.append((time.perf_counter() - t0) * 1000)
    models = svg.count("data-model=")
    assert models == 510, f"the benchmark SVG has {models} models, not 510"
    return {"svg_render_ms": round(statistics.median(times), 2),
            "svg_render_kb": round(len(svg.encode()) / 1024, 1), "svg_render_models": models}


def game_log(path: Path, actions: int, seed: int = 1) -> int:
    """The aos4 demo battle's first `actions` actions (two computer players), saved."""
    from battlefield.rules import log
    from battlefield.rules.battle import player_for
    from battlefield.rules.deploy import battle_scene
    from battlefield.rules.state import Game
    from battlefield.scene.load import load_scene_text

    text, name = battle_scene("aos4", None)
    game = Game(log.rules_for("aos4"), load_scene_text(text, name), seed)
    state = game.new_state(keep_undo=False)
    players = {side: player_for("aos4") for side in state.sides}
    while len(state.actions) < actions and not state.over:
        state.apply(players[state.acting_side].choose(state), checked=True)
    log.write(path, state, text)
    return len(state.actions)


def bench_page_step(quick: bool = False) -> dict:
    from battlefield.page.browser import BrowserError, dump_dom, find_chromium, url_of
    from battlefield.page.replay import write_replay
    from battlefield.rules import log

    actions, steps = (20, 10) if quick else (STEPS, STEPS)
    if find_chromium() is None:
        return {"page_version_step_ms": None, "page_browser": "no chromium installed"}
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / "game.jsonl"
        played = game_log(game, actions)
        page = Path(tmp) / "game.html"
        write_replay(log.read(game), page)
        try:
            dom = dump_dom(url_of(page, f"v=0&bench={steps}"))
        except BrowserError as exc:
            return {"page_version_step_ms": None, "page_browser": str(exc)}
    found = re.search(r'<pre id="bench-result">(.*?)</pre>', dom, re.S)
    assert found, "the page wrote no bench result"
    ms = np.array(json.loads(found.group(1))["ms"], dtype=float)
    assert len(ms) == steps
    return {"page_version_step_ms": round(float(np.median(ms)), 2),
            "page_version_step_ms_p95": round(float(np.percentile(ms, 95)), 2),
            "page_version_step_ms_max": round(float(ms.max()), 2),
            "page_version_steps": steps, "page_game_actions": played,
            "page_browser": "chromium"}
