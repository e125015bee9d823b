"""Scenes written back to YAML: every bundled map and scene reads back the same, a saved map
passes `battlefield validate`, numbers are written short and exact."""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from battlefield.cli.main import main
from battlefield.geometry.bases import Base
from battlefield.rules.deploy import battle_scene
from battlefield.scene.load import load_scene, load_scene_text
from battlefield.scene.mapfile import (
    flow,
    map_yaml,
    model_yaml,
    number,
    save_map,
    scene_yaml,
    text,
)
from battlefield.scene.model import ModelSpec, Scene

ROOT = Path(__file__).resolve().parents[2]
FILES = [*sorted((ROOT / "maps").glob("*.yaml")), ROOT / "tests/scene/good.yaml",
         ROOT / "tests/view/scene.yaml"]


def bundled() -> list[tuple[str, Scene]]:
    out = [(p.name, load_scene(p)) for p in FILES]
    for ruleset in ("aos4", "skirmish"):
        scene_text, name = battle_scene(ruleset, None)
        out.append((f"demo battle {ruleset}", load_scene_text(scene_text, name)))
    return out


SCENES = bundled()


def map_part(s: Scene) -> tuple:
    return (s.ruleset.id, s.width, s.depth, s.terrain, [replace(o, controlled_by=None)
                                                        for o in s.objectives], s.deployment)


def whole(s: Scene) -> tuple:
    """Everything the round trip keeps (the line a unit was written on is not kept)."""
    units = [replace(u, line=None) for u in s.units]
    return (*map_part(s), s.objectives, s.name, s.description, s.extra, units)


@pytest.mark.parametrize(("name", "scene"), SCENES, ids=[n for n, _ in SCENES])
def test_scene_yaml_reads_back_the_same_scene(name: str, scene: Scene) -> None:
    again = load_scene_text(scene_yaml(scene), name)
    assert whole(again) == whole(scene)
    for u, v in zip(scene.units, again.units, strict=True):
        for m, n in zip(u.models, v.models, strict=True):
            assert (n.base, n.x, n.y, n.facing, n.z, n.height) == (m.base, m.x, m.y, m.facing,
                                                                   m.z, m.height)


@pytest.mark.parametrize(("name", "scene"), SCENES, ids=[n for n, _ in SCENES])
def test_saved_map_loads_and_validates(name: str, scene: Scene, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = save_map(scene, tmp_path / "new" / "dir" / "map.yaml")
    assert path.is_file()
    again = load_scene(path, require_units=False)
    assert map_part(again) == map_part(scene)
    assert again.units == [] and again.name == scene.name
    assert main(["validate", str(path)]) == 0
    assert ": ok (" in capsys.readouterr().out


def test_map_yaml_looks_like_the_bundled_maps() -> None:
    scene = load_scene(ROOT / "maps/aos4.yaml")
    out = map_yaml(scene)
    lines = out.splitlines()
    assert lines[0].startswith("# Written by the battlefield map editor")
    assert "ruleset: aos4" in lines and "board: {width: 60, depth: 44}" in lines
    assert "  - {id: wall-e, kind: obstacle, height: 1.2, outline: [[33, 17], [39, 17], " \
           "[39, 17.5], [33, 17.5]]}" in lines
    assert "  - {id: centre, at: [30, 22]}" in lines
    assert "  red: [[0, 0], [60, 0], [60, 12], [0, 12]]" in lines
    assert "units" not in out
    assert sum(line.startswith("  - {id: ") for line in lines) == 12 + 5   # a line each


def test_number_formatting() -> None:
    assert number(2.0) == "2" and number(10) == "10" and number(1.25) == "1.25"
    assert number(1.23456) == "1.235" and number(0.1 + 0.2) == "0.3"
    assert number(-0.0001) == "0" and number(-2.5) == "-2.5"
    assert number(11.15001, 4) == "11.15" and number(3.14159, 4) == "3.1416"
    with pytest.raises(ValueError):
        number(float("nan"))


@pytest.mark.parametrize("value", ["D3", "3+", "yes", "null", "Ashen Pyromancer", "a: b",
                                   "x, y", "it's \"quoted\"", "#hash", "tab\there", "", "ü"])
def test_text_reads_back_as_the_same_string(value: str) -> None:
    assert yaml.safe_load(f"k: {text(value)}") == {"k": value}
    assert yaml.safe_load(flow({"k": [value, {value: 1}]})) == {"k": [value, {value: 1}]}


def test_every_model_and_unit_key_survives(tmp_path: Path) -> None:
    body = textwrap.dedent("""\
        ruleset: aos4
        name: 'Odd: names, "quotes"'
        board: {width: 30.5, depth: 22.25}
        terrain:
          - {id: hill, outline: [[2, 2], [8, 2], [8, 8], [2, 8]], height: 1.5}
        objectives:
          - {id: mid, at: [15.125, 11], controlled_by: blue}
        state: {active: blue, round: 2}
        units:
          - id: block
            side: red
            name: Shield wall
            profile: militia
            leader: 2
            stats: {move: 4.5, save: "4+"}
            weapons:
              - {name: Spear, attacks: 2, damage: D3, abilities: [Shield Wall, "x: y"]}
            keywords: [infantry, Militia]
            prayers:
              - {id: mend, chanting_value: 3, effect: {heal: 2}, unlimited: true}
            spells:
              - {id: ward, casting_value: 6, target: friendly, effect: {buff: {save: 1, hit: -1}}}
            models:
              - {base: {rect: [100, 40]}, at: [5, 5], facing: 33.3333}
              - {base: 32, at: [5, 10.1235], z: 0.5, height: 2}
              - {base: [60, 35], at: [20, 5], facing: 270}
        """)
    scene = load_scene_text(body, "odd.yaml")
    out = scene_yaml(scene)
    again = load_scene_text(out, "again.yaml")
    assert whole(again) == whole(scene)
    u = again.units[0]
    assert u.leader == 1 and u.profile == "militia"
    assert u.extra["prayers"] == [{"id": "mend", "chanting_value": 3, "effect": {"heal": 2},
                                   "unlimited": True}]        # aos4's own key, as written
    rect, small, _ = u.models
    assert rect.base.mm == (100.0, 40.0) and rect.facing == pytest.approx(33.3333)
    assert small.z_given and small.z == 0.5 and small.height_given and small.height == 2
    assert small.y == 10.1235
    assert not rect.z_given and rect.z == 1.5           # derived from the hill, not written
    assert "{base: {rect: [100, 40]}, at: [5, 5], facing: 33.3333}" in out
    assert "controlled_by: blue" in out and "controlled_by" not in map_yaml(scene)


def test_model_positions_keep_four_decimals() -> None:
    m = ModelSpec(Base.round(32), 5.123456, 7.0, facing=359.99999)
    assert model_yaml(m) == "{base: 32, at: [5.1235, 7]}"
    m = ModelSpec(Base.oval(60, 35), 5, 7.0, facing=90.00004, z=1, z_given=True)
    assert model_yaml(m) == "{base: [60, 35], at: [5, 7], facing: 90, z: 1}"


def test_blocks_rect_bases_read_back(tmp_path: Path) -> None:
    body = ("ruleset: blocks\nboard: {width: 48, depth: 48}\nunits:\n  - id: a\n    side: red\n"
            "    models:\n      - {base: [100, 40], at: [10, 10], facing: 90}\n")
    scene = load_scene_text(body, "blocks.yaml")
    again = load_scene_text(scene_yaml(scene), "again.yaml")
    assert again.units[0].models[0].base == scene.units[0].models[0].base
