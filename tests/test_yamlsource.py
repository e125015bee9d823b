"""Reading YAML: a big file (one 100,000-point outline) is read, with the lines of its items;
the fast reader (libyaml's events) and PyYAML's own give the same data and lines; the size
limits name their real cause (items, or aliases when aliases caused it); no nesting crashes."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from battlefield import yamlsource
from battlefield.errors import InputError
from battlefield.paths import find_map
from battlefield.scene.load import load_scene
from battlefield.yamlsource import load_yaml

HERE = Path(__file__).resolve().parent / "scene"            # the scene tests' files
POINTS = 100_000


def big_outline(tmp_path: Path, n: int = POINTS) -> Path:
    """A scene with one terrain piece whose outline is a circle of n points, one a line."""
    rows = ["ruleset: aos4", "board: {width: 60, depth: 44}", "terrain:", "  - id: blob",
            "    height: 3", "    outline:"]
    for k in range(n):
        t = 2 * math.pi * k / n
        rows.append(f"      - [{30 + 20 * math.cos(t):.5f}, {22 + 15 * math.sin(t):.5f}]")
    path = tmp_path / "big.yaml"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_a_100000_point_outline_is_read_with_its_lines(tmp_path: Path) -> None:
    path = big_outline(tmp_path)
    data, lines = load_yaml(path)
    outline = data["terrain"][0]["outline"]
    assert len(outline) == POINTS and outline[0] == [50.0, 22.0]
    assert lines[("terrain", 0, "outline", 0)] == 7
    assert lines[("terrain", 0, "outline", POINTS - 1, 1)] == 6 + POINTS
    scene = load_scene(path)
    assert len(scene.terrain[0].outline) == POINTS


@pytest.mark.skipif(yamlsource._CLoader is None, reason="PyYAML without libyaml")
@pytest.mark.parametrize("name", ["demo", "aos4", "skirmish", "demo-skirmish", "good"])
def test_the_fast_reader_gives_pyyaml_s_data_and_lines(name: str, monkeypatch) -> None:
    path = HERE / "good.yaml" if name == "good" else find_map(name)
    fast = load_yaml(path)
    monkeypatch.setattr(yamlsource, "_CLoader", None)
    assert load_yaml(path) == fast


ANCHORS = """\
ruleset: aos4
board: &b {width: 60, depth: 44}
base: &m {base: 32, at: [1, 1]}
copy: {<<: *m, at: [2, 2]}
again: *b
"""


@pytest.mark.skipif(yamlsource._CLoader is None, reason="PyYAML without libyaml")
def test_anchors_merges_and_aliases_read_alike(monkeypatch) -> None:
    fast = load_yaml("a.yaml", ANCHORS)
    assert fast[0]["copy"] == {"base": 32, "at": [2, 2]} and fast[0]["again"]["width"] == 60
    monkeypatch.setattr(yamlsource, "_CLoader", None)
    assert load_yaml("a.yaml", ANCHORS) == fast


def test_too_many_items_names_the_items_not_aliases(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(yamlsource, "MAX_ITEMS", 1000)
    with pytest.raises(InputError) as err:
        load_scene(big_outline(tmp_path, 2000))
    message = str(err.value)
    assert "more than 1000 items" in message and "alias" not in message
    assert "fewer or simpler terrain outlines" in message
    assert err.value.line is not None


def test_too_many_aliased_items_names_the_aliases() -> None:
    with pytest.raises(InputError) as err:
        load_scene(HERE.parent / "bad_inputs" / "63-alias-bomb.yaml")
    assert "items once aliases (*NAME) are expanded" in str(err.value)


@pytest.mark.parametrize("depth", [65, 200_000])
def test_deep_nesting_is_refused_without_a_crash(depth: int) -> None:
    text = "ruleset: aos4\nstate: " + "[" * depth + "]" * depth + "\n"
    with pytest.raises(InputError, match="nested more than 64 levels deep") as err:
        load_yaml("deep.yaml", text)
    assert err.value.line == 2
