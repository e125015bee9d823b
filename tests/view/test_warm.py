"""The play window's kernels compiled ahead (view/warm.py): the README's first command leaves
a stamp beside numba's cache once every demo's first asks are compiled; a stale stamp (another
numba, an edited geometry source) or none means it is done again."""

from __future__ import annotations

import json

import pytest

from battlefield.cli.main import main
from battlefield.view import live, warm


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setenv("BATTLEFIELD_CACHE", str(tmp_path / "battlefield"))
    return tmp_path / "numba"


def test_no_stamp_is_not_ready_and_warming_leaves_one(cache, monkeypatch) -> None:
    assert not warm.play_kernels_ready()
    assert warm.stamp_path().parent == cache
    monkeypatch.setattr(warm, "demo_states", lambda: [])      # the stamp, not the work
    said: list[str] = []
    assert warm.warm_play(said.append) is True
    assert len(said) == 1 and "once" in said[0]
    assert warm.play_kernels_ready()
    assert warm.warm_play(said.append) is False and len(said) == 1     # done: not again


def test_a_stamp_of_other_sources_or_numba_is_stale(cache, monkeypatch) -> None:
    monkeypatch.setattr(warm, "demo_states", lambda: [])
    warm.warm_play()
    key = json.loads(warm.stamp_path().read_text())
    for field in ("numba", "sources"):
        warm.stamp_path().write_text(json.dumps({**key, field: "other"}))
        assert not warm.play_kernels_ready()
    warm.stamp_path().write_text("{not json")
    assert not warm.play_kernels_ready()


def test_the_first_check_warms_the_play_window(cache, monkeypatch, capsys) -> None:
    asked: list[int] = []
    monkeypatch.setattr(warm, "demo_states", lambda: asked.append(1) or [])
    assert main(["check", "demo", "--json"]) == 0
    first = capsys.readouterr()
    assert json.loads(first.out)["units"] and "play window" in first.err
    assert main(["check", "demo"]) == 0
    assert capsys.readouterr().err == "" and asked == [1]      # the second check skips it


def test_every_playable_demo_reaches_a_unit_to_drag() -> None:
    """warm_play compiles a drag of each demo: aos4's movement phase, warband's first
    activation, blocks after `direct` - played on by the computer players to get there."""
    for state in warm.demo_states():
        moving = warm.to_a_drag(state)
        assert moving is not None, state.rules.id
        assert any(live.pick_up(moving, u) is not None for u in range(len(moving.scene.units)))
        assert len(state.actions) == 0          # played on a copy


def test_a_read_only_numba_folder_keeps_the_stamp_in_battlefields_cache(cache, monkeypatch,
                                                                        tmp_path) -> None:
    monkeypatch.setattr(warm, "demo_states", lambda: [])
    cache.write_text("a file where the folder would be")        # cannot be written into
    assert warm.warm_play() is True
    assert warm.fallback_stamp().is_file() and warm.play_kernels_ready()
    assert warm.warm_play() is False                            # not again on every check
