"""What the shared layers do differently for a ruleset is its ruleset.yaml's data, never its
name: geometry.rect_bases (a [frontage, depth] base is a rectangle) and geometry.sight (how a
unit sees another)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import battlefield.rulesets as rulesets
import battlefield.scene.load as load
from battlefield.errors import InputError
from battlefield.geometry.bases import OVAL, RECT
from battlefield.paths import ruleset_dir
from battlefield.rulesets import load_ruleset

SCENE = """ruleset: toy
board: {width: 24, depth: 24}
units:
- id: red-1
  side: red
  models:
  - {base: [60, 35], at: [4, 4]}
"""


def toy(folder: Path, monkeypatch, geometry: str) -> None:
    """A copy of aos4's ruleset.yaml, named toy, with `geometry` lines added."""
    folder.mkdir()
    text = (ruleset_dir("aos4") / "ruleset.yaml").read_text(encoding="utf-8")
    text = text.replace("id: aos4", "id: toy").replace("geometry:\n", "geometry:\n" + geometry)
    text = "\n".join(line for line in text.splitlines() if not line.startswith("demo:"))
    (folder / "ruleset.yaml").write_text(text, encoding="utf-8")
    real_dir, real_names = rulesets.ruleset_dir, load.ruleset_names
    monkeypatch.setattr(rulesets, "ruleset_dir",
                        lambda name: folder if name == "toy" else real_dir(name))
    monkeypatch.setattr(load, "ruleset_names", lambda: [*real_names(), "toy"])
    rulesets.load_ruleset.cache_clear()


@pytest.fixture(autouse=True)
def fresh():
    rulesets.load_ruleset.cache_clear()
    yield
    rulesets.load_ruleset.cache_clear()


@pytest.mark.parametrize("flag, shape", [("  rect_bases: true\n", RECT), ("", OVAL)])
def test_a_base_pair_is_a_rectangle_only_where_the_data_says(tmp_path, monkeypatch, flag, shape):
    toy(tmp_path / "toy", monkeypatch, flag)
    scene = load.load_scene_text(SCENE, "s.yaml")
    assert scene.units[0].models[0].base.shape == shape
    shutil.rmtree(tmp_path / "toy")


def test_an_unknown_sight_mode_names_the_key_and_the_modes(tmp_path, monkeypatch):
    toy(tmp_path / "toy", monkeypatch, "  sight: eagle-eyed\n")
    with pytest.raises(InputError) as err:
        load_ruleset("toy")
    assert "geometry.sight" in str(err.value)
    assert "models" in str(err.value) and "leaders-past-near-terrain" in str(err.value)


def test_the_bundled_rulesets_name_their_modes() -> None:
    assert load_ruleset("skirmish").sight == "leaders-past-near-terrain"
    assert load_ruleset("aos4").sight == "models" and not load_ruleset("aos4").rect_bases
    assert load_ruleset("blocks").rect_bases
