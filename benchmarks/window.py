"""The play window at rest: `window_idle_cpu`, the share of one core its process uses over
IDLE_S seconds with nothing happening (target <= 0.02), measured in a fresh process running the
real main loop (App.run) on SDL's dummy video driver with the demo battle open: the process's
CPU time over the wall time, from the first frame drawn to the end.

`window_first_frame_s` / `window_first_frame_warm_s`: the time from launching a process that
opens the window as `battlefield play` does (the demo battle, view.launch, real App.run, dummy
video driver) to its first frame drawn - the board, before numba is imported - with numba's
kernel cache empty (NUMBA_CACHE_DIR a new folder: a first launch after installing) and then
again with that cache warm; targets <= 2 s and <= 1 s. `window_ready_s` / `window_ready_warm_s`:
the same launches to the first frame of the game ready to play (kernels compiled or loaded
behind the board). Quick mode measures only the warm ones, with the kernel cache the tests use.

`python benchmarks/window.py` prints every figure as JSON (cold launch, warm launch, idle);
`python -m benchmarks.window SECONDS` the idle figures only, `python -m benchmarks.window
first` the launch time of the first frame (run.py starts them so); --help says so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

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


def bench_window_first_frame(quick: bool = False) -> dict:
    """Launch to first frame (the board drawn) and to the game ready (kernels compiled or
    loaded, the table playable), cold (full runs only) and warm."""
    import tempfile

    def launch(cache: str | None) -> tuple[float, float]:
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
        # As an installed package is launched: its byte code compiled once and kept (pip
        # does that on install), not compiled from source on every launch.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if cache is not None:
            env["NUMBA_CACHE_DIR"] = cache
        start = time.time()
        out = subprocess.run([sys.executable, "-m", "benchmarks.window", "first"],
                             capture_output=True, text=True, cwd=ROOT, env=env, timeout=1200)
        if out.returncode != 0:
            raise RuntimeError(f"benchmarks.window first failed: {out.stderr.strip()[-2000:]}")
        first, ready = (float(v) for v in out.stdout.strip().splitlines()[-1].split())
        return first - start, ready - start

    if quick:
        first, ready = launch(None)
        return {"window_first_frame_s": None, "window_first_frame_warm_s": round(first, 2),
                "window_ready_s": None, "window_ready_warm_s": round(ready, 2)}
    with tempfile.TemporaryDirectory(prefix="battlefield-numba-") as cache:
        cold = launch(cache)
        warm = launch(cache)
    return {"window_first_frame_s": round(cold[0], 2), "window_first_frame_warm_s":
            round(warm[0], 2), "window_ready_s": round(cold[1], 2),
            "window_ready_warm_s": round(warm[1], 2)}


def first_frame() -> tuple[float, float]:
    """Open the window as `battlefield play` does (view.launch) and quit once the game is
    ready; the time.time() of its first frame and of the first frame of the game ready."""
    import pygame

    from battlefield.view.frames import Frames
    from battlefield.view.launch import Launch, window
    from battlefield.view.opening import Setup
    from battlefield.view.stack import SIZE

    class First(Frames):
        at: float | None = None
        ready: float | None = None

        def events(self) -> list:
            if self.drawn and self.at is None:
                self.at = time.time()
            if self.drawn and self.ready is None and not isinstance(self.app.stack[-1], Launch) \
                    and self.last is not None and self.app.stack[-1] is self.shown:
                self.ready = time.time()
                return [pygame.event.Event(pygame.QUIT)]
            return super().events()

        def due(self, events: list, busy_now: bool, key) -> bool:
            draw = super().due(events, busy_now, key)
            if draw:
                self.shown = self.app.stack[-1]
            return draw

    frames = First()
    frames.shown = None
    window(None, None, 1, SIZE, Setup(), frames)
    assert frames.at is not None and frames.ready is not None
    return frames.at, frames.ready


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
                    "window_first_frame_warm_s <= 1, window_idle_cpu <= 0.02).")
    p.add_argument("what", nargs="?", default="all",
                   help="all (default): launch to first frame and to ready, cold (an empty "
                        "kernel cache) and warm, then the idle share over 5 s, as JSON; "
                        "SECONDS: the idle share over that many seconds only; first: one "
                        "launch in this process, the time.time() of its first frame and of "
                        "the game ready")
    args = p.parse_args(argv)
    if args.what == "first":
        print(*(repr(t) for t in first_frame()))
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
        sys.path.insert(0, str(ROOT))
    sys.exit(main())
