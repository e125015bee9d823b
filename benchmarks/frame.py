"""The window's frame time while a unit is dragged: a 1600x1000 view of the benchmark board
(510 models, 30 terrain pieces) with red's 20-model unit dragged along 100 places - each frame
the live rulings (depiction.live.rule: path cost, Referee + live_check, objective control, sight to
the enemy under the cursor as yes / no) with the engine's State.check of the drop, as the drag
tool asks them while they take less than a frame, plus drawing the frame. Timed apart: the
frame's rulings with the engine's check (frame_engine_check_ms_median), the rulings a resting
cursor adds (frame_rest_ms_median: the sight to the target as full / partial / none with its
blockers) and picking the unit up (frame_pickup_ms: the reach field)."""

from __future__ import annotations

import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from benchmarks.scene import drag_positions, load_benchmark_scene  # noqa: E402

SIZE = (1600, 1000)


def bench_frame(quick: bool = False) -> dict:
    from battlefield.depiction import live
    from battlefield.rules.actions import Action
    from battlefield.rules.log import rules_for
    from battlefield.rules.state import Game
    from battlefield.view.app import Opened, PlayScene

    pygame.display.init()
    pygame.font.init()
    scene = load_benchmark_scene()
    state = Game(rules_for("aos4"), scene, 1).new_state()
    state.apply(Action("go-first", side=state.pending[0].side))   # who takes the first turn
    while state.clock["phase"] != "movement":
        state.apply(Action("end-phase"))
    play = PlayScene(Opened(state, "", "benchmark"), SIZE)
    surf = pygame.Surface(SIZE)
    positions = drag_positions(scene, 2 if quick else 100)
    drag = play.drag
    live.pick_up(state, 0, wanted="normal-move")           # warm up the compiled kernels
    start = time.perf_counter()
    p = live.pick_up(state, 0, wanted="normal-move")
    pickup_ms = (time.perf_counter() - start) * 1000.0
    lead = p.ref - scene.model_offsets()[0]
    drag.pickup, drag.target = p, None
    enemy = next(u for u, s in enumerate(scene.units) if s.side != scene.units[0].side)
    drag.to = tuple(positions[0][lead])
    drag.update_ruling(engine=True, detail=False)
    play.draw(surf)                           # warm up: cached layers, kernels, fonts
    times = []
    for k, xy in enumerate(positions):
        start = time.perf_counter()
        drag.to = (float(xy[lead][0]), float(xy[lead][1]))
        drag.target = enemy if k % 2 else None     # every other frame: an enemy under cursor
        drag.update_ruling(engine=True, detail=False)
        play.draw(surf)
        times.append(time.perf_counter() - start)
    ms = np.array(times) * 1000.0
    checks, rests = [], []
    drag.target = enemy
    for xy in positions[: 2 if quick else 30]:
        drag.to = (float(xy[lead][0]), float(xy[lead][1]))
        start = time.perf_counter()
        drag.update_ruling(engine=True, detail=False)
        checks.append(time.perf_counter() - start)
        start = time.perf_counter()
        drag.update_ruling(engine=True, detail=True)
        rests.append(time.perf_counter() - start)
    check_ms = np.array(checks) * 1000.0
    return {"frame_ms_p95": round(float(np.percentile(ms, 95)), 3),
            "frame_ms_median": round(float(np.median(ms)), 3),
            "frame_positions": len(positions), "frame_models": int(len(state.table)),
            "frame_pickup_ms": round(pickup_ms, 3),
            "frame_engine_check_ms_median": round(float(np.median(check_ms)), 3),
            "frame_rest_ms_median": round(float(np.median(rests)) * 1000.0, 3)}


if __name__ == "__main__":
    print(bench_frame())
