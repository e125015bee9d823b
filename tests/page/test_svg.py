"""The SVG of a scene read as XML (no browser): inches as the viewBox units, every model an
element with its scene centre, bases at their true sizes, shapes and facing, the y axis flipped
(the far edge at the top), objectives with their controllers, the measurement's distance, and
`render -o FILE.svg` writing it."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from battlefield.cli.common import open_scene
from battlefield.geometry import MM_PER_INCH
from battlefield.geometry.bases import OVAL, RECT, ROUND
from battlefield.page.svg import scene_svg
from battlefield.rules.registry import with_ruleset_check
from battlefield.rulings import Referee

from .conftest import run_cli

NS = {"s": "http://www.w3.org/2000/svg"}


def rulings(name: str, measure: tuple[str, str] | None = None):
    scene = open_scene(name)
    referee = Referee(scene)
    report = with_ruleset_check(scene, referee.check_report())
    return scene, report, referee.measure_report(*measure) if measure else None


@pytest.fixture(scope="module")
def demo():
    scene, report, measure = rulings("demo", ("red-archers", "blue-drake"))
    root = ET.fromstring(scene_svg(scene, report, measure))
    return scene, report, measure, root


def translate(el: ET.Element) -> tuple[float, float, float]:
    """(x, y, rotation) of a model's transform."""
    t = el.get("transform", "")
    x, y = map(float, re.search(r"translate\(([-\d.e]+) ([-\d.e]+)\)", t).groups())
    r = re.search(r"rotate\(([-\d.e]+)\)", t)
    return x, y, float(r.group(1)) if r else 0.0


def test_the_viewbox_is_the_board_in_inches(demo):
    scene, _, _, root = demo
    assert root.get("viewBox") == f"0 0 {scene.width:g} {scene.depth:g}"


def test_every_model_is_an_element_at_its_scene_centre_with_y_flipped(demo):
    scene, _, _, root = demo
    found = {g.get("data-model"): g for g in root.iterfind(".//s:g[@data-model]", NS)}
    names = [f"{u.id}/{k + 1}" for u in scene.units for k in range(len(u.models))]
    assert sorted(found) == sorted(names)
    for u in scene.units:
        for k, m in enumerate(u.models):
            g = found[f"{u.id}/{k + 1}"]
            assert (g.get("data-unit"), g.get("data-side")) == (u.id, u.side)
            assert float(g.get("data-x")) == pytest.approx(m.x, abs=1e-4)
            assert float(g.get("data-y")) == pytest.approx(m.y, abs=1e-4)
            x, y, rot = translate(g)
            assert (x, y) == (pytest.approx(m.x, abs=1e-4), pytest.approx(scene.depth - m.y,
                                                                           abs=1e-4))
            assert rot == pytest.approx(-m.facing)
    # blue deploys along the far edge: drawn nearer the top than red
    blue = [translate(g)[1] for g in found.values() if g.get("data-side") == "blue"]
    red = [translate(g)[1] for g in found.values() if g.get("data-side") == "red"]
    assert sum(blue) / len(blue) < sum(red) / len(red)


def test_a_32mm_base_is_1_26_inches_across(demo):
    scene, _, _, root = demo
    g = root.find(".//s:g[@data-model='red-archers/1']", NS)
    circle = g.find("s:circle[@class='base']", NS)
    outer = 2 * (float(circle.get("r")) + float(circle.get("stroke-width")) / 2)
    assert outer == pytest.approx(32 / MM_PER_INCH, abs=1e-3)


@pytest.mark.parametrize("name", ["demo", "demo-blocks", "demo-openwg", "demo-warband"])
def test_bases_keep_their_shapes_sizes_and_facing(name):
    scene, report, _ = rulings(name)
    root = ET.fromstring(scene_svg(scene, report))
    for u in scene.units:
        for k, m in enumerate(u.models):
            g = root.find(f".//s:g[@data-model='{u.id}/{k + 1}']", NS)
            base = g.find("*[@class='base']")
            w = float(base.get("stroke-width"))
            if m.base.shape == ROUND:
                assert base.tag.endswith("circle")
                assert float(base.get("r")) + w / 2 == pytest.approx(m.base.a, abs=1e-3)
            elif m.base.shape == OVAL:
                assert base.tag.endswith("ellipse")
                assert float(base.get("rx")) + w / 2 == pytest.approx(m.base.a, abs=1e-3)
                assert float(base.get("ry")) + w / 2 == pytest.approx(m.base.b, abs=1e-3)
            else:
                assert m.base.shape == RECT and base.tag.endswith("rect")
                assert float(base.get("width")) + w == pytest.approx(2 * m.base.a, abs=1e-3)
                assert float(base.get("height")) + w == pytest.approx(2 * m.base.b, abs=1e-3)
            assert translate(g)[2] == pytest.approx(-m.facing)
            assert float(g.get("data-facing")) == pytest.approx(m.facing)


def test_a_turned_model_points_its_front_where_the_scene_says():
    """Facing 90 (counter-clockwise from +x on the table) points up the table: in SVG, whose
    y runs down, the model's +x axis turns to -y."""
    scene, report, _ = rulings("demo-blocks")
    root = ET.fromstring(scene_svg(scene, report))
    for g in root.iterfind(".//s:g[@data-model]", NS):
        facing = math.radians(float(g.get("data-facing")))
        rot = math.radians(translate(g)[2])
        # the SVG direction of local +x, flipped back to the table
        assert (math.cos(rot), -math.sin(rot)) == (pytest.approx(math.cos(facing), abs=1e-6),
                                                   pytest.approx(math.sin(facing), abs=1e-6))


def test_objectives_carry_their_controllers_and_the_measurement_its_distance(demo):
    scene, report, measure, root = demo
    held = {g.get("data-objective"): g.get("data-controlled-by")
            for g in root.iterfind(".//s:g[@data-objective]", NS)}
    assert held == {oid: o["controlled_by"] or "" for oid, o in report["objectives"].items()}
    assert held["south-east"] == "red"
    m = root.find(".//s:g[@id='measurement']", NS)
    assert float(m.get("data-distance")) == pytest.approx(measure["distance"])
    texts = ["".join(t.itertext()) for t in root.iterfind(".//s:text", NS)]
    assert '10.30" (3-D 10.60")' in texts
    assert any(t.startswith("red-archers") for t in texts)
    assert root.find(".//s:g[@data-ruling='combat']", NS) is not None


def test_coherency_breaks_and_blockers_are_drawn():
    scene, report, measure = rulings("demo", ("red-lightkeeper", "blue-seer"))
    assert measure["blocked_by"]
    root = ET.fromstring(scene_svg(scene, report, measure))
    blockers = {g.get("data-blocker") for g in root.iterfind(".//s:g[@data-blocker]", NS)}
    blockers |= {g.get("data-for") for g in root.iterfind(".//s:g[@data-ruling='blocker']", NS)}
    assert set(measure["blocked_by"]) <= blockers


def test_render_writes_an_svg_file_by_its_extension(tmp_path, capsys):
    out = tmp_path / "ruling.svg"
    assert run_cli("render", "demo", "-o", str(out), "--measure", "red-blades", "blue-drake") == 0
    root = ET.parse(out).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert len(root.findall(".//s:g[@data-model]", NS)) == sum(
        len(u.models) for u in open_scene("demo").units)
    assert "wrote" in capsys.readouterr().out


def test_render_into_a_missing_folder_is_one_line(tmp_path, capsys):
    assert run_cli("render", "demo", "-o", str(tmp_path / "nope" / "x.html")) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "does not exist" in err
