"""One picture, three renderers: the browser's renderer of a depiction (page/static/depict.js)
writes the same SVG elements, with the same attributes and texts, as the pages' Python renderer
(page/depict.py) for the same shapes - every layer of a game's versions (objectives, combat
links, coherency rings, blocks' orders and routes, every label with its leader lines), a drag's
overlay (the unit where it would stand, the ruler, faults, objectives after the drop) and what
stays put (the reachable area), a board's measurement and what blocks it. Compared in a real
headless chromium; numbers to a thousandth of an inch."""

from __future__ import annotations

import asyncio
import json
import xml.etree.ElementTree as ET

import pytest

from battlefield.depiction.palette import full_palette
from battlefield.depiction.table import side_colours
from battlefield.page.browser import url_of
from battlefield.page.depict import Svg
from battlefield.page.devtools import Chromium
from battlefield.page.replay import game_versions, replay_html
from battlefield.paths import find_map
from battlefield.rules.log import read
from battlefield.scene.load import load_scene_text
from battlefield.server.boards import board_rulings, moves_of
from battlefield.server.games import LiveGame
from battlefield.server.messages import Preview
from battlefield.server.preview import Previews

from .conftest import run_cli

NS = "{http://www.w3.org/2000/svg}"


def shapes_of_a_blocks_game(tmp_path) -> tuple[str, float, dict, list]:
    log = tmp_path / "blocks.jsonl"
    assert run_cli("simulate", "--ruleset", "blocks", "--seed", "2", "--log", str(log)) == 0
    saved = read(log)
    scene, versions = game_versions(saved)
    page = tmp_path / "blocks.html"
    page.write_text(replay_html(saved))
    shapes = [s for v in versions[::9] for layer in v.get("overlay", {}).values() for s in layer]
    return url_of(page), scene.depth, full_palette(side_colours(scene)), shapes


def shapes_of_a_drag_and_a_board() -> list:
    text = find_map("demo-skirmish").read_text()
    game = LiveGame("g", "skirmish", text, "demo", 1, {"red": "r", "blue": "b"})
    previews = Previews()
    out = []
    for n, to in enumerate(([9.2, 9], [12, 20], [20, 26.5])):
        answer = previews._preview(game, "red", Preview(n, {
            "type": "move", "unit": "red-spears", "path": [[9.2, 5], to]}), set())
        out += answer["still"] + answer["overlay"]["layers"]["drag"] + \
            answer["overlay"]["layers"]["labels"]
    scene = load_scene_text(text, "demo")
    ruled = board_rulings(scene, moves_of({"red-spears/1": [18, 30]}, scene),
                          ("red-spears/1", "blue-longbows"))
    out += [s for layer in ruled["overlay"].values() for s in layer]
    return out


def same(a: ET.Element, b: ET.Element, where: str = "") -> None:
    assert a.tag.replace(NS, "") == b.tag.replace(NS, ""), where
    assert set(a.attrib) == set(b.attrib), (where, a.tag, a.attrib, b.attrib)
    for k, va in a.attrib.items():
        vb = b.attrib[k]
        try:
            na = [float(x) for x in va.replace(",", " ").split()]
            nb = [float(x) for x in vb.replace(",", " ").split()]
        except ValueError:
            assert va == vb, (where, k)
            continue
        assert na == pytest.approx(nb, abs=1e-3), (where, k, va, vb)
    assert (a.text or "").strip() == (b.text or "").strip(), where
    assert len(a) == len(b), where
    for k, (ca, cb) in enumerate(zip(a, b, strict=True)):
        same(ca, cb, f"{where}/{k}")


def test_the_browser_draws_the_shapes_python_writes(browser, tmp_path):
    url, depth, palette, shapes = shapes_of_a_blocks_game(tmp_path)
    drag = shapes_of_a_drag_and_a_board()
    demo = load_scene_text(find_map("demo").read_text(), "demo")   # blades and drake in combat
    ruled = board_rulings(demo, {}, ("red-archers", "blue-drake"))
    combat = [s for layer in ruled["overlay"].values() for s in layer]
    kinds = set()

    def kinds_of(items: list) -> None:
        for s in items:
            kinds.add(s["k"])
            kinds_of(s.get("g", []) if s["k"] == "group" else [])

    kinds_of(shapes + drag + combat)
    assert {"line", "circle", "base", "dot", "glyph", "text", "group", "area"} <= kinds
    # each case with the palette of its own scene's sides
    skirmish = load_scene_text(find_map("demo-skirmish").read_text(), "demo")
    cases = [(depth, palette, shapes), (skirmish.depth, full_palette(side_colours(skirmish)),
                                        drag), (demo.depth, ruled["palette"], combat)]

    async def run() -> list[list[str]]:
        async with Chromium((1200, 800)) as chromium:
            page = await chromium.open(url)
            await page.until("!!window.BattlefieldDepict")
            out = []
            for d, pal, items in cases:
                out.append(await page.eval(
                    f"(() => {{ const d = new BattlefieldDepict({d}, {json.dumps(pal)}); "
                    f"const x = new XMLSerializer(); return {json.dumps(items)}.map(s => "
                    f"x.serializeToString(d.shape(s))); }})()"))
            return out

    drawn = asyncio.run(run())
    for (d, pal, items), js in zip(cases, drawn, strict=True):
        svg = Svg(d, pal)
        assert len(js) == len(items)
        for k, (shape, text) in enumerate(zip(items, js, strict=True)):
            py = ET.fromstring(f'<g xmlns="http://www.w3.org/2000/svg">{svg.shape(shape)}</g>')
            same(ET.fromstring(text), py[0], f"{shape['k']} {k}")
