"""Play in a browser, joined by a link, in a real headless chromium over its DevTools protocol:
two play pages (two seats) of a skirmish game on a real `battlefield serve`. A mouse drag
(Input.dispatchMouseEvent) shows #preview legal, the drop moves the unit on both pages and the
server's version grows; an illegal drag shows data-legal="false" with its code and its drop
changes nothing; a touch drag (Input.dispatchTouchEvent) at phone size moves a unit; a decision
is answered by its button; a game against the computer is played to its end from one page.
Every wait is for a condition (the page's attributes, the server's version), never a time.
Skipped, saying why, only where no browser is installed."""

from __future__ import annotations

import asyncio
import json
import urllib.request

import pytest

from battlefield.page.browser import INSTALL, find_chromium

from ._devtools import Chromium, Page
from ._serve import PLAYABLE, short_battle

pytestmark = pytest.mark.skipif(find_chromium() is None,
                                reason=f"no headless browser on this machine: {INSTALL}")

HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
TO_SCREEN = """((x, y) => { const s = document.querySelector('svg.battlefield');
  const p = s.createSVGPoint(); p.x = x; p.y = Number(s.dataset.depth) - y;
  const q = p.matrixTransform(s.getScreenCTM()); return [q.x, q.y]; })"""
OFFERS = "(document.getElementById('actions') || {}).dataset"
# The message is a version's news as the game log words it: its action, then its outcome.
WORDED = """battlefield.viewer.versions.some(x => x.action &&
  document.getElementById('message').textContent === x.action + ': ' + (
    x.outcome && x.outcome.length ? x.outcome[0] : 'done'))"""


async def screen(page: Page, x: float, y: float) -> tuple[float, float]:
    return tuple(await page.eval(f"{TO_SCREEN}({x}, {y})"))


async def where(page: Page, model: str) -> tuple[float, float]:
    return tuple(await page.eval(
        f"[document.querySelector('[data-model=\"{model}\"]').dataset.x, "
        f"document.querySelector('[data-model=\"{model}\"]').dataset.y].map(Number)"))


async def ready(page: Page, seat: str) -> None:
    """The page has joined and the server's offers for `seat`'s turn are shown."""
    await page.until("document.getElementById('live') && "
                     "document.getElementById('live').dataset.state === 'live'")
    await page.until(f"battlefield.play.offers() && battlefield.play.offers().acting === "
                     f"'{seat}' && document.querySelectorAll('#actions button').length > 0")


async def drag(page: Page, start: tuple[float, float], end: tuple[float, float],
               touch: bool = False, steps: int = 6) -> dict:
    """Press at table point `start`, move to `end`, wait for the preview of `end`, release;
    returns #preview's data as it was just before the release."""
    press = page.touch if touch else page.mouse
    x0, y0 = await screen(page, *start)
    x1, y1 = await screen(page, *end)
    await press("down", x0, y0)
    for k in range(1, steps + 1):
        await press("move", x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps)
    at = f"{end[0]:.2f},{end[1]:.2f}"
    await page.until(f"document.getElementById('preview').dataset.at === '{at}'")
    said = await page.eval("Object.assign({text: document.getElementById('preview')"
                           ".textContent}, document.getElementById('preview').dataset)")
    await press("up", x1, y1)
    return said


def version(server, gid: str) -> int:
    return server.request("GET", f"/games/{gid}")[1]["version"]


def test_a_new_game_answers_each_seat_s_join_link_which_a_browser_opens_as_its_page(server):
    game = server.new_game("demo-skirmish", 3)
    gid = game["game"]
    assert set(game["join"]) == {"red", "blue"}
    for side, url in game["join"].items():
        assert url == f"{server.http}/games/{gid}/play?seat={game['seats'][side]}"
        req = urllib.request.Request(url, headers={"Accept": HTML})
        with urllib.request.urlopen(req, timeout=30) as r:
            text = r.read().decode()
        assert r.status == 200 and r.headers.get_content_type() == "text/html"
        assert 'id="preview"' in text and '"seat":"' + side + '"' in text
    req = urllib.request.Request(f"{server.http}/games/{gid}/play?seat=nope",
                                 headers={"Accept": HTML})
    with pytest.raises(urllib.error.HTTPError) as bad:
        urllib.request.urlopen(req, timeout=30)
    assert bad.value.code == 403
    computer = server.request("POST", "/games", {"scene": "demo-skirmish", "computer": "blue"})
    assert computer[0] == 201 and set(computer[1]["join"]) == {"red"}
    assert computer[1]["computer"] == "blue"
    wrong = server.request("POST", "/games", {"scene": "demo-skirmish", "computer": "green"})
    assert wrong[0] == 400 and "red, blue" in wrong[1]["error"]


def test_two_seats_drag_check_drop_and_answer_a_decision_by_its_button(server):
    game = server.new_game("demo-skirmish", 5)
    gid = game["game"]
    seen: dict = {}

    async def run() -> None:
        async with Chromium((1600, 1000)) as chromium:
            red = await chromium.open(game["join"]["red"])
            blue = await chromium.open(game["join"]["blue"])
            await ready(red, "red")
            await blue.until("battlefield.play.offers() && battlefield.play.offers().acting "
                             "=== 'red'")
            assert await blue.eval("document.querySelectorAll('#actions button').length") == 0
            # A legal drag: red-spears' leader 4" up the table.
            lead = "red-spears/2"
            x, y = await where(red, lead)
            seen["legal"] = await drag(red, (x, y), (x, y + 4))
            await red.until(f"Math.abs(Number(document.querySelector('[data-model=\"{lead}\"]')"
                            f".dataset.y) - {y + 4}) < 0.01")
            await blue.until(f"Math.abs(Number(document.querySelector('[data-model=\"{lead}\"]')"
                             f".dataset.y) - {y + 4}) < 0.01")
            seen["version_after_drop"] = version(server, gid)
            # An illegal drag: red-bows' leader 15" away, dropped: nothing changes.
            await ready(red, "red")
            bx, by = await where(red, "red-bows/3")
            before = version(server, gid)
            seen["illegal"] = await drag(red, (bx, by), (bx + 1, by + 15))
            await red.until("document.getElementById('message').textContent"
                            ".startsWith('snapped back')")
            seen["unchanged"] = (version(server, gid) == before,
                                 await where(red, "red-bows/3") == (bx, by))
            # A skirmish (a button) puts a decision to blue, answered by its button.
            await ready(red, "red")
            buttons = await red.eval("Array.from(document.querySelectorAll("
                                     "'#actions button[data-action]'))"
                                     ".map(b => JSON.parse(b.dataset.action))")
            seen["actions"] = buttons
            pick = next(k for k, a in enumerate(buttons) if a["type"] == "skirmish")
            await red.until("document.querySelector('#actions button').dataset.ready")
            await red.eval(f"document.querySelectorAll('#actions button[data-action]')[{pick}]"
                           f".click(); 0")
            # the skirmish's commitments: each side answers on its own page, by a button
            deciding = "document.querySelectorAll('#actions button.decision').length > 0"
            while not (await red.eval(deciding) or await blue.eval(deciding)):
                await asyncio.sleep(0.1)
            page = red if await red.eval(deciding) else blue
            other = blue if page is red else red
            # the turn line says who must answer what, on both pages
            await other.until("document.getElementById('turn').dataset.deciding")
            seen["turns"] = [await p.eval("document.getElementById('turn').textContent")
                             for p in (page, other)]
            v = version(server, gid)
            answer = await page.eval("document.querySelector('#actions button.decision')"
                                     ".dataset.action")
            await page.until("document.querySelector('#actions button.decision').dataset.ready")
            await page.eval("document.querySelector('#actions button.decision').click(); 0")
            deadline = asyncio.get_running_loop().time() + 60
            while version(server, gid) == v:
                assert asyncio.get_running_loop().time() < deadline, "the decision was not sent"
                await asyncio.sleep(0.1)
            seen["decision"] = json.loads(answer)

    asyncio.run(run())
    assert seen["legal"]["legal"] == "true" and seen["legal"]["codes"] == ""
    assert seen["version_after_drop"] == 1
    assert seen["illegal"]["legal"] == "false"
    assert "move_too_far" in seen["illegal"]["codes"].split()
    assert seen["unchanged"] == (True, True)
    assert all(isinstance(a, dict) and "type" in a for a in seen["actions"])
    assert seen["decision"]["type"] == "commit" and seen["decision"]["side"] in ("red", "blue")
    mine, theirs = seen["turns"]
    side = seen["decision"]["side"]
    assert mine.startswith("you decide commit") and "commit 0" in mine, mine
    assert theirs.startswith(f"waiting: {side} decides commit"), theirs


def test_a_touch_drag_at_phone_size_moves_a_unit(server):
    game = server.new_game("demo-skirmish", 6)
    gid = game["game"]

    async def run() -> tuple:
        async with Chromium((390, 844), mobile=True) as chromium:
            page = await chromium.open(game["join"]["red"])
            await ready(page, "red")
            x, y = await where(page, "red-spears/2")
            said = await drag(page, (x, y), (x + 1, y + 3), touch=True)
            await page.until(f"Math.abs(Number(document.querySelector('[data-model="
                             f"\"red-spears/2\"]').dataset.y) - {y + 3}) < 0.01")
            return said, await page.eval("innerWidth")

    said, width = asyncio.run(run())
    assert width == 390 and said["legal"] == "true"
    assert version(server, gid) == 1


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_a_game_against_the_computer_is_played_to_its_end_from_one_page(server, ruleset):
    """Every ruleset's demo battle (from a late round, tests/server/_serve.short_battle) against
    the computer, played from red's page alone: each time it is red's turn, a decision's
    answer, else a button the engine takes (a pass, aos4's fight where it stands)."""
    status, game = server.request("POST", "/games", {"scene": short_battle(ruleset),
                                                     "seed": 2, "computer": "blue"})
    assert status == 201
    gid = game["game"]

    async def run() -> dict:
        async with Chromium((1600, 1000)) as chromium:
            page = await chromium.open(game["join"]["red"])
            await page.until("document.getElementById('live') && "
                             "document.getElementById('live').dataset.state === 'live'")
            # a drag that picks nothing up selects no ruler numbers
            assert await page.eval("getComputedStyle(document.querySelector("
                                   "'svg.battlefield')).userSelect") == "none"
            clicks = 0
            while True:
                state = await page.until(
                    "(document.getElementById('live').dataset.state === 'over' && 'over') || "
                    "(battlefield.play.offers() && battlefield.play.offers().acting === 'red' "
                    "&& document.querySelector('#actions button[data-ready]') && 'mine')",
                    timeout=180)
                if state == "over":
                    break
                button = ("document.querySelector('#actions button.decision[data-ready]') || "
                          "document.querySelector('#actions button.pass[data-ready]') || "
                          "document.querySelector('#actions button[data-ready]')")
                v = await page.eval("battlefield.play.offers().version")
                spends = await page.eval(f"({button}).getAttribute('data-spends') === 'true'")
                await page.eval(f"({button}).click(); 0")
                if spends:           # a choice that spends something asks first: yes
                    yes = "#confirm .confirm-yes[data-ready]"     # it takes clicks after 0.6 s
                    await page.until(f"!!document.querySelector('{yes}')")
                    await page.eval(f"document.querySelector('{yes}').click(); 0")
                clicks += 1
                await page.until(f"battlefield.play.offers() === null || "
                                 f"battlefield.play.offers().version > {v} || "
                                 f"document.getElementById('live').dataset.state === 'over' "
                                 f"|| document.getElementById('message').classList.contains("
                                 f"'bad')", timeout=180)
                assert not await page.eval(
                    "document.getElementById('message').classList.contains('bad')"), \
                    await page.eval("document.getElementById('message').textContent")
                # the news of the click worded as the game log words it (rules/outcome):
                # the action, then what came of it - not "red: attack red-stalker-2 done"
                await page.until(WORDED + " || document.getElementById('live').dataset.state "
                                 "=== 'over'", timeout=180)
            return {"clicks": clicks, "result": await page.eval(
                "document.getElementById('message').textContent"),
                "preview_hidden": await page.eval("document.getElementById('preview').hidden")}

    out = asyncio.run(run())
    _, info = server.request("GET", f"/games/{gid}")
    assert info["over"] and out["clicks"] > 0
    assert out["result"].startswith("the battle is over")
    assert out["preview_hidden"] is True          # no drag's verdict stays up past the end
