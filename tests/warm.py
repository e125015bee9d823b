"""Compile the numba kernels the tests use before the test workers start (tests/conftest.py).

A fresh environment has no compiled kernels: the sight and path kernels take minutes to
compile, and two test workers reaching the same kernel at once compile it twice. This script
does the compiling up front in two halves run side by side - `grid` (the all-pairs sight map of
map analysis) and `lines` (sight between models and units, distances, paths, a short battle) -
through the same calls the program makes, so the kernels are compiled for the argument types
it uses and cached for every later process."""

from __future__ import annotations

import os
import sys
import tempfile

import numpy as np

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def grid() -> None:
    os.environ["BATTLEFIELD_CACHE"] = "off"     # computed, not read from a cached sight map
    from battlefield.cli.main import main
    from battlefield.geometry.sight.grid import all_pairs
    from battlefield.scene.load import load_scene, resolve_scene_path

    with tempfile.TemporaryDirectory() as out:
        main(["analyze", "open", "--grid", "4", "--out", out, "--json"])
    layout = load_scene(resolve_scene_path("open")).layout
    points = np.array([[x, y, 1.0] for x in (5.0, 30.0, 55.0) for y in (5.0, 22.0, 39.0)])
    all_pairs(layout, points, cache=False).rows(np.array([0, 4], dtype=np.int64))


def lines() -> None:
    from battlefield.cli.main import main
    from battlefield.rulings import Referee, live_check
    from battlefield.scene.load import load_scene, resolve_scene_path

    scene = load_scene(resolve_scene_path("demo"))
    referee = Referee(scene)
    live_check(referee, 0)
    main(["check", "demo", "--json"])
    main(["simulate", "--ruleset", "aos4", "--seed", "1"])


if __name__ == "__main__":
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        {"grid": grid, "lines": lines}[sys.argv[1]]()
