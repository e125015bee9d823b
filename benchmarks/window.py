"""The play window at rest: `window_idle_cpu`, the share of one core its process uses over
IDLE_S seconds with nothing happening (target <= 0.02), measured in a fresh process running the
real main loop (App.run) on SDL's dummy video driver with the demo battle open: the process's
CPU time over the wall time, from the first frame drawn to the end.

A newcomer's first game (bench_window_first_frame): battlefield freshly installed with every
cache empty, the README's first command (`battlefield check`) run, then the window launched as
`battlefield play --phase movement` does (the demo battle, view.launch, real App.run, dummy
video driver): `window_first_frame_s` is the time from launching it to its first frame drawn -
the board, before numba is imported (target <= 2 s) - and `window_ready_s` to the first drag
the engine accepted, made through the window's own mouse events the moment the game takes the
board's place (target <= 5 s); `..._warm_s` the same launch again (target <= 1 s to the first
frame). Quick mode measures only the warm ones, with the kernel cache the tests use.

`python benchmarks/window.py` prints every figure as JSON (the fresh install's launches, then
idle); `python -m benchmarks.window SECONDS` the idle figures only, `python
benchmarks/window.py first [SCENE PHASE]` one launch's first frame and first accepted drag
(run.py starts it so); --help says so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
IDLE_S = 5.0
QUICK_IDLE_S = 1.0


def bench_window_idle(quick: bool = False) -> dict:
    seconds = QUICK_IDLE_S if quick else IDLE_S
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    out = subprocess.run([sys.executable, "-m", "benchmarks.window", str(seconds)],
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"benchmarks.window failed: {out.stderr.strip()[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def fresh_install(dest: Path) -> Path:
    """battlefield laid out in `dest` as `pip install .` lays it out in site-packages - the
    package with its data folders inside it (pyproject's package-dir), the byte code compiled
    - and with no numba cache beside it, as a new install has none; the folder to put on
    PYTHONPATH."""
    import compileall
    import shutil

    site = dest / "site"
    package = site / "battlefield"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc")
    shutil.copytree(ROOT / "battlefield", package, ignore=skip)
    for data in ("maps", "rulesets", "assets"):
        shutil.copytree(ROOT / data, package / data, ignore=skip)
    compileall.compile_dir(str(package), quiet=1)
    return site


def bench_window_first_frame(quick: bool = False) -> dict:
    """A newcomer's first game, timed: battlefield freshly installed (fresh_install) with every
    cache empty (numba's kernels, battlefield's sight maps), the README's first command
    (`battlefield check`) run as they would run it, then the window launched as `battlefield
    play --phase movement` on the demo battle: `window_first_frame_s` (launch to the board
    drawn) and `window_ready_s` (launch to the first drag the engine accepted, the drag made
    the moment the game takes the board's place); then the same launch again
    (`..._warm_s`). `readme_check_s`: how long that first `battlefield check` took. Quick mode:
    one launch of this checkout with the tests' kernel cache (warm figures only)."""
    import tempfile

    def launch(env: dict, cwd: Path) -> tuple[float, float]:
        start = time.time()
        out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "window.py"), "first"],
                             capture_output=True, text=True, cwd=cwd, env=env, timeout=1200)
        if out.returncode != 0:
            raise RuntimeError(f"benchmarks/window.py first failed: {out.stderr.strip()[-2000:]}")
        first, ready = (float(v) for v in out.stdout.strip().splitlines()[-1].split())
        return first - start, ready - start

    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    # As an installed package is launched: its byte code compiled once and kept (pip does
    # that on install), not compiled from source on every launch.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if quick:
        first, ready = launch(env, ROOT)
        return {"window_first_frame_s": None, "window_first_frame_warm_s": round(first, 2),
                "window_ready_s": None, "window_ready_warm_s": round(ready, 2),
                "readme_check_s": None}
    with tempfile.TemporaryDirectory(prefix="battlefield-fresh-") as tmp:
        home = Path(tmp)
        site = fresh_install(home)
        env["PYTHONPATH"] = str(site)
        env.pop("NUMBA_CACHE_DIR", None)           # numba's cache: beside the new install
        env["BATTLEFIELD_CACHE"] = str(home / "cache")
        env["XDG_CACHE_HOME"] = str(home / "xdg")   # numba's fallback, were site read-only
        start = time.time()
        check = subprocess.run([sys.executable, "-m", "battlefield", "check"],
                               capture_output=True, text=True, cwd=home, env=env, timeout=1800)
        if check.returncode != 0:
            raise RuntimeError(f"battlefield check failed: {check.stderr.strip()[-2000:]}")
        readme = time.time() - start
        cold = launch(env, home)
        warm = launch(env, home)
    return {"window_first_frame_s": round(cold[0], 2), "window_first_frame_warm_s":
            round(warm[0], 2), "window_ready_s": round(cold[1], 2),
            "window_ready_warm_s": round(warm[1], 2), "readme_check_s": round(readme, 1)}


DRAG_OFFSETS = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (2.0, 0.0), (0.0, 2.0))


def drag_plan(scene: Any) -> tuple[str, list]:
    """The mouse events of a newcomer's first drag in the play scene: a unit of the acting side
    picked up at its leader, moved an inch or two in a few steps to a place the engine rules
    legal, and dropped; (the unit's id, the events). The place is found as the drag's own
    ruling finds it (live.rule), so its cost counts."""
    import pygame

    from battlefield.view import live

    st = scene.state
    t = st.table
    view = scene.table.view
    for u, spec in enumerate(st.scene.units):
        if spec.side != st.acting_side:
            continue
        p = live.pick_up(st, u)
        if p is None:
            continue
        x, y = float(t.x[p.ref]), float(t.y[p.ref])
        for dx, dy in DRAG_OFFSETS:
            if live.rule(st, p, (x + dx, y + dy), engine=True).legal:
                break
        else:
            continue
        start = view.px(x, y)
        steps = [view.px(x + dx * k / 4, y + dy * k / 4) for k in range(1, 5)]
        pos = [(round(a), round(b)) for a, b in [start, *steps]]
        events = [pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos[0])]
        events += [pygame.event.Event(pygame.MOUSEMOTION, pos=q, rel=(0, 0), buttons=(1, 0, 0))
                   for q in pos[1:]]
        events.append(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos[-1]))
        return spec.id, events
    raise RuntimeError(f"no unit of {st.acting_side} can be dragged an inch or two legally")


def first_drag(scene_arg: str | None = None, phase: str | None = "movement"
               ) -> tuple[float, float]:
    """Open the window as `battlefield play [SCENE]` does (view.launch, real App.run), passed
    to `phase` as --phase does, and drag a unit the moment the game takes the board's place
    (as fast as a newcomer's hand could); the time.time() of the first frame and of the drop
    the engine accepted (the action applied)."""
    import pygame

    from battlefield.view.app import PlayScene
    from battlefield.view.frames import Frames
    from battlefield.view.launch import window
    from battlefield.view.opening import Setup
    from battlefield.view.stack import SIZE

    class Drag(Frames):
        at: float | None = None
        accepted: float | None = None
        plan: list | None = None
        unit = ""
        actions = 0

        def events(self) -> list:
            got = super().events()
            if self.drawn and self.at is None:
                self.at = time.time()
            top = self.app.stack[-1]
            if not isinstance(top, PlayScene) or not self.drawn:
                return got
            st = top.state
            if self.plan is None:
                self.actions = len(st.actions)
                self.unit, self.plan = drag_plan(top)
            if len(st.actions) > self.actions and st.actions[-1].unit == self.unit:
                self.accepted = time.time()
                return [pygame.event.Event(pygame.QUIT)]
            if self.plan:
                return got + [self.plan.pop(0)]
            if top.drag.pickup is None:
                raise RuntimeError(f"the drag of {self.unit} was not accepted: "
                                   f"{top.panel.message}")
            return got

    frames = Drag()
    window(scene_arg, None, 1, SIZE, Setup(phase=phase), frames)
    assert frames.at is not None and frames.accepted is not None
    return frames.at, frames.accepted


def measure(seconds: float) -> dict:
    """Run the window's main loop; from its first frame, `seconds` of rest; then quit."""
    import pygame

    from battlefield.view.app import SIZE, App, PlayScene, open_game
    from battlefield.view.frames import Frames

    class Probe(Frames):
        """The real frame scheduler, noting the first frame and quitting after the rest."""

        start: tuple[float, float] | None = None
        end: tuple[float, float] | None = None

        def events(self) -> list:
            if self.start is None and self.drawn and not self.busy:
                self.start = (time.perf_counter(), time.process_time())   # drawn, at rest
            if self.start is not None and time.perf_counter() - self.start[0] >= seconds:
                self.end = (time.perf_counter(), time.process_time())
                return [pygame.event.Event(pygame.QUIT)]
            return super().events()

    pygame.display.init()
    pygame.font.init()
    frames = Probe()
    App(PlayScene(open_game(None), SIZE), SIZE).run(frames)
    assert frames.start is not None and frames.end is not None
    wall = frames.end[0] - frames.start[0]
    cpu = frames.end[1] - frames.start[1]
    return {"window_idle_cpu": round(cpu / wall, 4), "window_idle_s": round(wall, 2),
            "window_idle_frames": frames.drawn}


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(
        prog="python benchmarks/window.py",
        description="The play window's figures (targets: window_first_frame_s <= 2, "
                    "window_first_frame_warm_s <= 1, window_ready_s <= 5, "
                    "window_idle_cpu <= 0.02).")
    p.add_argument("what", nargs="?", default="all",
                   help="all (default): on a fresh install after its first `battlefield "
                        "check`, launch to first frame and to the first accepted drag, then "
                        "again (warm), then the idle share over 5 s, as JSON; SECONDS: the "
                        "idle share over that many seconds only; first: one launch in this "
                        "process, the time.time() of its first frame and of its first drag "
                        "accepted")
    p.add_argument("more", nargs="*", metavar="SCENE PHASE",
                   help="first: the scene (default: the demo battle) and the phase to drag in "
                        "(default movement; - for a ruleset without phases)")
    args = p.parse_args(argv)
    if args.what == "first":
        scene, phase = (args.more + [None, "movement"][len(args.more):])[:2]
        print(*(repr(t) for t in first_drag(scene, None if phase == "-" else phase)))
    elif args.what == "all":
        print(json.dumps({**bench_window_first_frame(), **bench_window_idle()}))
    else:
        try:
            seconds = float(args.what)
        except ValueError:
            p.error(f"{args.what!r}: all, first or a number of seconds")
        print(json.dumps(measure(seconds)))
    return 0


if __name__ == "__main__":
    if str(ROOT) not in sys.path:
        # last: `battlefield` is the one on PYTHONPATH (a fresh install), else this checkout's
        sys.path.append(str(ROOT))
    sys.exit(main())
