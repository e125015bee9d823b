"""The front page's new-game form in a real headless chromium: a bundled scene against the
computer ends with the player's link, which opens the play page of that seat; two army lists
uploaded (a .ros and New Recruit's .json, each told by its content in the page, made a scene
by POST /imports with the BSData catalogues) make a game for two friends (POST /imports
itself: test_imports.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from battlefield.page.browser import INSTALL, find_chromium

from ._devtools import Chromium, Page
from ._lists import as_json
from ._serve import Served

ROSTERS = Path(__file__).parents[1] / "army" / "data"
needs_browser = pytest.mark.skipif(find_chromium() is None,
                                   reason=f"no headless browser on this machine: {INSTALL}")
LINKS = ("Object.fromEntries(Array.from(document.querySelectorAll('#new-game-result "
         "[data-join]')).map(a => [a.dataset.join, a.href]))")


async def upload(page: Page, selector: str, path: Path) -> None:
    """A file chosen in a file input, as a person picks one."""
    doc = await page.call("DOM.getDocument")
    node = await page.call("DOM.querySelector", {"nodeId": doc["root"]["nodeId"],
                                                 "selector": selector})
    await page.call("DOM.setFileInputFiles", {"nodeId": node["nodeId"], "files": [str(path)]})


@needs_browser
def test_a_game_against_the_computer_made_on_the_front_page(server):
    async def run() -> tuple[dict, str]:
        async with Chromium((1400, 1000)) as chromium:
            page = await chromium.open(server.http + "/")
            await page.until("!!document.getElementById('new-game-form')")
            await page.eval("document.getElementById('scene-name').value = 'demo-skirmish';"
                            "document.querySelector('input[name=opponent][value=computer]')"
                            ".checked = true;"
                            "document.getElementById('computer-side').value = 'blue';"
                            "document.getElementById('make-game').click(); 0")
            await page.until("!!document.querySelector('#new-game-result [data-join]')")
            links = await page.eval(LINKS)
            game = await page.eval("document.getElementById('new-game-result').dataset.game")
            play = await chromium.open(links["red"])
            await play.until("battlefield.play && battlefield.play.offers() && "
                             "battlefield.play.offers().seat === 'red'")
            return links, game

    links, game = asyncio.run(run())
    assert set(links) == {"red"} and f"/games/{game}/play?seat=" in links["red"]
    status, info = server.request("GET", f"/games/{game}")
    assert status == 200 and info["ruleset"] == "skirmish"


@needs_browser
def test_two_army_lists_uploaded_make_a_game_for_two_friends(tmp_path, bsdata):
    second = tmp_path / "fyreslayers-19.json"
    second.write_bytes(as_json((ROSTERS / "fyreslayers-19.ros").read_bytes()))
    served = Served(tmp_path / "games.sqlite", "--catalogues", str(bsdata))
    try:
        async def run() -> dict:
            async with Chromium((1400, 1000)) as chromium:
                page = await chromium.open(served.http + "/")
                await page.until("!!document.getElementById('new-game-form')")
                await page.eval("document.querySelector('input[name=source][value=file]')"
                                ".checked = true; 0")
                await upload(page, "#scene-file", ROSTERS / "stormcast.ros")
                await upload(page, "#second-file", second)     # New Recruit's .json
                await page.eval("document.getElementById('make-game').click(); 0")
                await page.until("!!(document.querySelector('#new-game-result [data-join]') || "
                                 "document.querySelector('#new-game-result.bad'))", timeout=180)
                assert not await page.eval("document.querySelector('#new-game-result.bad')"), \
                    await page.eval("document.getElementById('new-game-result').textContent")
                return await page.eval(LINKS)

        links = asyncio.run(run())
        assert set(links) == {"red", "blue"}
        game = links["red"].split("/games/")[1].split("/")[0]
        status, info = served.request("GET", f"/games/{game}")
        assert status == 200 and info["ruleset"] == "aos4"
    finally:
        served.stop()
