"""`battlefield play` says when a first launch will compile the kernels (the window's first
frame waits for them): kernels_cached reads numba's cache where numba keeps it."""

from __future__ import annotations

from battlefield.cli.play import kernels_cached


def test_an_empty_cache_is_a_first_launch(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not kernels_cached()
    index = (tmp_path / "battlefield" / "geometry" / "sight"
             / "kernel.lines_blocked-396.py311.nbi")
    index.parent.mkdir(parents=True)
    index.write_bytes(b"")
    assert kernels_cached()


def test_the_tests_own_cache_is_warm():
    """The test session compiled the kernels before it started (tests/warm.py), wherever
    numba keeps them."""
    assert kernels_cached()
