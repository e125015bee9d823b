"""`battlefield play` says when a first launch will compile the kernels (the window's first
frame waits for them): kernels_cached reads numba's cache where and as numba keeps it, or the
stamp `battlefield check` leaves once it compiled them (view.warm)."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import battlefield.geometry
from battlefield.cli import play
from battlefield.cli.play import WINDOW_KERNELS, kernels_cached, numba_index_dirs
from battlefield.geometry import jit
from battlefield.view import warm

GEOMETRY = Path(battlefield.geometry.__file__).parent


def _no_stamp(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setenv("BATTLEFIELD_CACHE", str(tmp_path / "battlefield"))


def _index(folder: str, module: str, function: str) -> Path:
    """An index file where numba's user-provided-directory locator puts it, named as numba
    names it (the folder's name and the SHA-1 of its path; module.function-line.pyXY.nbi)."""
    import hashlib

    src = os.path.abspath(GEOMETRY / folder)
    where = (Path(os.environ["NUMBA_CACHE_DIR"])
             / f"{os.path.basename(src)}_{hashlib.sha1(src.encode()).hexdigest()}")
    where.mkdir(parents=True, exist_ok=True)
    path = where / f"{module}.{function}-12.py{sys.version_info[0]}{sys.version_info[1]}.nbi"
    path.write_bytes(b"")
    return path


def test_an_empty_cache_is_a_first_launch(tmp_path, monkeypatch):
    _no_stamp(monkeypatch, tmp_path)
    assert not kernels_cached()
    for kernel in WINDOW_KERNELS[:-1]:
        _index(*kernel)
    assert not kernels_cached()                    # one of them still to compile
    _index(*WINDOW_KERNELS[-1])
    assert kernels_cached()


def test_a_kernel_the_window_does_not_compile_is_not_asked_for(tmp_path, monkeypatch):
    """The reported case: the test looked for lines_blocked's index, which neither `check` nor
    `play` makes, so every launch said "first launch"."""
    _no_stamp(monkeypatch, tmp_path)
    _index("sight", "kernel", "lines_blocked")
    assert not kernels_cached()


def test_checks_stamp_is_a_warm_cache(tmp_path, monkeypatch):
    _no_stamp(monkeypatch, tmp_path)
    path = warm.stamp_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(__import__("json").dumps(warm._key()), encoding="utf-8")
    assert kernels_cached()


def test_the_window_kernels_are_cached_numba_functions():
    """Each name in WINDOW_KERNELS is a function numba caches (a rename fails here, not as a
    false "first launch" message)."""
    for folder, module, function in WINDOW_KERNELS:
        name = ".".join(p for p in ("battlefield.geometry", folder, module) if p)
        f = getattr(importlib.import_module(name), function)
        cached = (f.options.get("cache") if isinstance(f, jit.Kernel)     # deferred njit
                  else type(f._cache).__name__ == "FunctionCache")         # numba's njit
        assert cached, (name, function)
        assert f.py_func.__code__.co_filename == str(GEOMETRY / folder / f"{module}.py")


def test_the_index_dirs_follow_numba_cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    (d,) = numba_index_dirs(GEOMETRY)
    assert d.parent == tmp_path and d.name.startswith("geometry_")
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert numba_index_dirs(GEOMETRY)[0] == GEOMETRY / "__pycache__"
    assert play.numba_index_dirs is numba_index_dirs


def test_the_tests_own_cache_is_warm():
    """The test session compiled the kernels before it started (tests/warm.py), wherever
    numba keeps them."""
    assert kernels_cached()
