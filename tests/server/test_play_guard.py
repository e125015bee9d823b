"""Clicks by mistake on the play page, in real headless Chromium with a real mouse: a choice that
spends something (warband's rush: an ability die) asks "yes" first and sends nothing until then;
once chosen it has a "take back" button, which retracts it on the server (the version goes back
and both pages show the game as it was); a button that appears under the pointer takes no click
until the pointer has moved on it - a second click where the first was does nothing."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest

from battlefield.page.browser import INSTALL, find_chromium
from battlefield.rules import registry
from battlefield.rules.deploy import battle_scene
from battlefield.scene.load import load_scene_text
from battlefield.server.games import LiveGame

from ._devtools import Chromium, Page
from .test_play_page import ready, version

pytestmark = pytest.mark.skipif(find_chromium() is None,
                                reason=f"no headless browser on this machine: {INSTALL}")

SEED = 2


def opening(upto: int) -> list[tuple[str, dict]]:
    """The first actions of warband's demo battle (seed SEED) as its computer player plays
    both sides: (seat, action) - sent over the sockets to reach red's first rush."""
    text, _ = battle_scene("warband", None)
    scene = load_scene_text(text, "demo", files=False)
    game = LiveGame("g", "warband", text, "demo", SEED, LiveGame.new_seats(list(scene.sides)))
    player = registry.get("warband").player()
    out = []
    while game.version < upto:
        action = player.choose(game.state.snapshot())
        side = game.state.sender(action)
        game.act(side, action, f'"{game.version}"')
        out.append((side, action.to_dict()))
    return out


async def centre(page: Page, selector: str) -> tuple[float, float]:
    box = await page.eval(f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
                          f".getBoundingClientRect(); return [r.x + r.width / 2, "
                          f"r.y + r.height / 2]; }})()")
    return box[0], box[1]


async def click(page: Page, x: float, y: float) -> None:
    await page.mouse("down", x, y)
    await page.mouse("up", x, y)


def test_a_spending_choice_asks_first_can_be_taken_back_and_no_click_lands_twice(server):
    text, _ = battle_scene("warband", None)
    status, game = server.request("POST", "/games", {"scene": text, "seed": SEED})
    assert status == 201
    gid = game["game"]

    async def run() -> dict:
        out: dict = {}
        async with aiohttp.ClientSession() as session:
            for n, (side, action) in enumerate(opening(2)):
                ws = await session.ws_connect(server.ws(gid, game["seats"][side]))
                await ws.receive()                                   # its hello
                await ws.send_str(json.dumps({"type": "act", "id": f"o{n}",
                                              "action": action}))
                while True:
                    msg = json.loads((await ws.receive()).data)
                    if msg.get("id") == f"o{n}":
                        assert msg["type"] == "event", msg
                        break
                await ws.close()
        async with Chromium((1600, 1000)) as chromium:
            page = await chromium.open(game["join"]["red"])
            await ready(page, "red")
            rush = "#actions button[data-spends][data-ready]"
            await page.until(f"!!document.querySelector('{rush}')")
            out["label"] = await page.eval(f"document.querySelector('{rush}').textContent")
            before = version(server, gid)
            x, y = await centre(page, rush)
            await page.mouse("move", x, y)
            await click(page, x, y)
            await page.until("!!document.querySelector('#confirm .confirm-yes')")
            # the same offers arriving again (the page asks on joining and on each event, and
            # two answers may cross) leave the "yes" bar as it was: it was once closed under
            # the player's pointer, and the click on "yes" then did nothing
            await page.eval("(() => { window.__yes = document.querySelector('#confirm "
                            ".confirm-yes'); window.__answers = 0; battlefield.live.listen("
                            "m => { if (m.type === 'offers') window.__answers += 1; }); "
                            "battlefield.live.send({type: 'offers'}); })()")
            await page.until("window.__answers >= 1")
            out["same_bar"] = await page.eval(
                "document.querySelector('#confirm .confirm-yes') === window.__yes")
            await asyncio.sleep(0.5)
            out["sent_before_yes"] = version(server, gid) != before
            # the bar's buttons take clicks once the guard's moment has passed (data-ready:
            # waited for, not slept - a loaded machine runs the page's timers late)
            await page.until("document.querySelector('#confirm .confirm-yes')"
                             ".dataset.ready === 'true'")
            yes = await centre(page, "#confirm .confirm-yes")
            await page.mouse("move", *yes)
            await asyncio.sleep(0.7)
            await click(page, *yes)
            await page.until(f"battlefield.play.offers() && battlefield.play.offers().version"
                             f" > {before}")
            out["after_yes"] = version(server, gid)
            await page.until("!!document.querySelector('#actions button.take-back')")
            out["take_back"] = await page.eval(
                "document.querySelector('#actions button.take-back').textContent")
            await page.until("document.querySelector('#actions button.take-back')"
                             ".dataset.ready === 'true'")
            tx, ty = await centre(page, "#actions button.take-back")
            await page.mouse("move", tx, ty + 3)
            await asyncio.sleep(0.7)
            await page.mouse("move", tx, ty)
            await click(page, tx, ty)
            await page.until("document.getElementById('message').textContent"
                             ".startsWith('took back')")
            await page.until(f"battlefield.play.offers() && battlefield.play.offers().version"
                             f" === {before} && !!document.querySelector('#actions button')")
            out["after_take_back"] = version(server, gid)
            out["slider"] = await page.eval("document.querySelector('.panel input[type=range]')"
                                            ".max")
            # a plain button clicked; the buttons drawn after it put one under the pointer, and
            # a second click there without moving does nothing (a double click acts once)
            plain = "#actions button[data-ready]:not([data-spends]):not(.take-back)"
            await page.until(f"!!document.querySelector('{plain}')")
            px, py = await centre(page, plain)
            await page.mouse("move", px, py)
            await asyncio.sleep(0.7)
            await click(page, px, py)
            await page.until(f"battlefield.play.offers() && battlefield.play.offers().version"
                             f" === {before + 1} && !!document.elementFromPoint({px}, {py})"
                             f".closest('button')")
            out["under_pointer"] = await page.eval(
                f"document.elementFromPoint({px}, {py}).closest('button').textContent")
            await click(page, px, py)
            await asyncio.sleep(1.0)
            out["after_second_click"] = version(server, gid)
            out["confirm_open"] = await page.eval(
                "!!document.querySelector('#confirm .confirm-yes')")
            out["png"] = await page.screenshot()
        return out

    out = asyncio.run(run())
    assert out["label"].startswith("rush ")
    assert out["same_bar"] is True
    assert out["sent_before_yes"] is False
    assert out["after_yes"] == 3
    assert out["take_back"] == "take back " + out["label"]
    assert out["after_take_back"] == 2 and out["slider"] == "2"
    assert out["under_pointer"]
    assert out["after_second_click"] == 3 and out["confirm_open"] is False
