"""The board: a table anyone arranges and shares by a link. Over HTTP: POST /boards with a
bundled scene's name or a scene's text (with a `state:` or without) answers 201 {"board",
"url"}; GET /board/ID is the page with every model at its stored place, .svg the picture, .yaml
the scene; moves read back; what is wrong is one line. In a real headless chromium: a unit is
dragged, the rulings follow, the position is shared, and its link opened in a fresh browser
shows the same position and the same rulings."""

from __future__ import annotations

import asyncio
import xml.etree.ElementTree as ET

import pytest
import yaml

from battlefield.page.browser import INSTALL, find_chromium
from battlefield.paths import find_map
from battlefield.rulings import Referee
from battlefield.scene.load import load_scene_text

from ._devtools import Chromium
from .test_play_page import screen, where

NS = {"s": "http://www.w3.org/2000/svg"}
needs_browser = pytest.mark.skipif(find_chromium() is None,
                                   reason=f"no headless browser on this machine: {INSTALL}")
MODELS = """Object.fromEntries(Array.from(document.querySelectorAll('svg.battlefield [data-model]'))
  .map(e => [e.dataset.model, [Number(e.dataset.x), Number(e.dataset.y)]]))"""
RULINGS = "Array.from(document.querySelectorAll('#board-rulings p')).map(p => p.textContent)"


def _get(server, path: str) -> tuple[int, str, str]:
    import urllib.request

    with urllib.request.urlopen(server.http + path, timeout=30) as r:
        return r.status, r.headers.get_content_type(), r.read().decode()


def test_a_board_is_made_of_a_name_or_a_scene_and_kept_as_it_was_given(server):
    status, made = server.request("POST", "/boards", {"scene": "demo-skirmish"})
    assert status == 201 and made["url"] == f"/board/{made['board']}"
    text = find_map("demo-skirmish").read_text()
    status, again = server.request("POST", "/boards", {"scene": text})
    assert status == 201 and again["board"] != made["board"]
    for board in (made, again):
        status, kind, page = _get(server, board["url"])
        assert status == 200 and kind == "text/html"
        status, kind, svg = _get(server, board["url"] + ".svg")
        assert status == 200 and kind == "image/svg+xml"
        root = ET.fromstring(svg)
        places = {g.get("data-model"): (float(g.get("data-x")), float(g.get("data-y")))
                  for g in root.iterfind(".//s:g[@data-model]", NS)}
        assert places["red-spears/1"] == (8.0, 5.0)
        status, kind, scene = _get(server, board["url"] + ".yaml")
        assert status == 200 and load_scene_text(scene, "board").units[0].id == "red-spears"


def test_moves_are_stored_in_a_new_board_and_read_back(server):
    status, made = server.request("POST", "/boards", {
        "scene": "demo-skirmish", "moves": {"red-spears/1": [12.5, 20.25]}})
    assert status == 201
    scene = load_scene_text(_get(server, made["url"] + ".yaml")[2], "board")
    assert (scene.units[0].models[0].x, scene.units[0].models[0].y) == (12.5, 20.25)
    status, other = server.request("POST", "/boards", {
        "board": made["board"], "moves": {"red-spears/2": [14, 20]}})
    assert status == 201 and other["board"] != made["board"]
    scene = load_scene_text(_get(server, other["url"] + ".yaml")[2], "board")
    assert (scene.units[0].models[0].x, scene.units[0].models[1].x) == (12.5, 14.0)
    unchanged = load_scene_text(_get(server, made["url"] + ".yaml")[2], "board")
    assert unchanged.units[0].models[1].x == 9.2            # a shared board never changes


def test_a_position_with_its_state_makes_a_board_too(server, tmp_path):
    from battlefield.rules import registry
    from battlefield.rules.state import Game
    from battlefield.rules.trial import scene_after

    text = find_map("demo-skirmish").read_text()
    state = Game(registry.get("skirmish"), load_scene_text(text, "demo"), 3).new_state()
    player = registry.get("skirmish").player()
    for _ in range(6):
        state.apply(player.choose(state))
    position = yaml.safe_dump(scene_after(state), sort_keys=False)
    status, made = server.request("POST", "/boards", {"scene": position})
    assert status == 201
    scene = load_scene_text(_get(server, made["url"] + ".yaml")[2], "board")
    assert "state" in scene.extra


@pytest.mark.parametrize("body, words", [
    ({}, '{"scene": NAME_OR_YAML}'),
    ({"scene": "no-such-scene"}, "no such scene"),
    ({"scene": "demo-skirmsh"}, "did you mean demo-skirmish?"),
    ({"scene": "demo-skirmish", "moves": {"red-nobody/1": [1, 1]}}, "no model 'red-nobody/1'"),
    ({"scene": "demo-skirmish", "moves": {"red-spears/1": [1, 99]}}, "off the"),
    ({"scene": "demo-skirmish", "moves": {"red-spears/1": ["a", 1]}}, "expected [x, y]"),
])
def test_a_board_that_cannot_be_made_is_one_line(server, body, words):
    status, out = server.request("POST", "/boards", body)
    assert status == 400 and words in out["error"] and "\n" not in out["error"]


def test_the_rulings_of_a_position_are_the_referees(server):
    moves = {"red-spears/1": [18.0, 30.0]}
    status, out = server.request("POST", "/board/rulings", {
        "scene": "demo-skirmish", "moves": moves, "measure": ["red-spears/1", "blue-longbows"]})
    assert status == 200
    scene = load_scene_text(find_map("demo-skirmish").read_text(), "demo")
    from battlefield.server.boards import moved, moves_of

    referee = Referee(moved(scene, moves_of(moves, scene)))
    report = referee.check_report()
    broken = report["units"]["red-spears"]["coherency_breaks"]
    assert broken and any(broken[0] in line for line in out["lines"])
    assert out["measure"]["distance"] == referee.measure_report(
        "red-spears/1", "blue-longbows")["distance"]
    rings = [g for g in out["overlay"]["rulings"] if g.get("a", {}).get("data-ruling") ==
             "coherency"]
    assert {g["a"]["data-for"] for g in rings} == set(broken)


@needs_browser
def test_drag_share_and_open_the_link_in_a_fresh_browser(server):
    seen: dict = {}

    async def arrange() -> None:
        async with Chromium((1600, 1000)) as chromium:
            page = await chromium.open(f"{server.http}/board?scene=demo-skirmish")
            await page.until("document.getElementById('board-state') && "
                             "document.getElementById('board-state').textContent === "
                             "'as set up'")
            x, y = await where(page, "red-spears/2")
            (x0, y0), (x1, y1) = await screen(page, x, y), await screen(page, x + 7, y + 21)
            await page.mouse("down", x0, y0)
            for k in range(1, 9):
                await page.mouse("move", x0 + (x1 - x0) * k / 8, y0 + (y1 - y0) * k / 8)
            await page.mouse("up", x1, y1)
            await page.until("(() => { const s = document.getElementById('board-state');"
                             " return s.dataset.asked === s.dataset.answered && "
                             "s.textContent.endsWith('models moved'); })()")
            seen["moved"] = await where(page, "red-spears/2")
            seen["models"] = await page.eval(MODELS)
            seen["rulings"] = await page.eval(RULINGS)
            await page.eval("document.getElementById('share').click(); 0")
            seen["link"] = await page.until("document.querySelector('#share-link a') && "
                                            "document.querySelector('#share-link a').href")

    async def reopen() -> None:
        async with Chromium((1600, 1000)) as chromium:          # a fresh browser
            page = await chromium.open(seen["link"])
            await page.until("document.querySelectorAll('[data-model]').length > 0")
            seen["models_again"] = await page.eval(MODELS)
            seen["rulings_again"] = await page.eval(RULINGS)

    asyncio.run(arrange())
    asyncio.run(reopen())
    assert seen["moved"][1] > 20
    assert seen["models_again"].keys() == seen["models"].keys()
    for name, (x, y) in seen["models"].items():
        assert seen["models_again"][name] == pytest.approx([x, y], abs=1e-4), name
    assert seen["rulings_again"] == seen["rulings"] and seen["rulings"]
