"""The server's pages in a real headless chromium (Debian's, as tests/page use): the live page
of a game two bots play, watched from before the first action to the result over the game's
WebSocket (the DevTools protocol asks the running page what it shows), a link to one version,
the list of games, and what a spectator's page may not show (a secret answer before its reveal,
the seed before the end). Skipped, saying why, only where no browser is installed."""

from __future__ import annotations

import asyncio
import io
import json
import re
import urllib.request

import numpy as np
import pygame
import pytest
from page.conftest import Dom  # tests/page: the DOM reader the page tests use

from battlefield.client.bot import run_bot
from battlefield.page.browser import INSTALL, dump_dom, find_chromium
from battlefield.page.replay import game_versions
from battlefield.rules import log, registry
from battlefield.rules.actions import Action
from battlefield.server.games import LiveGame
from battlefield.server.pages import Book, public

from ._devtools import Chromium
from ._serve import HANG, Served

SCENE, SEED = "demo-skirmish", 12
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

needs_browser = pytest.mark.skipif(find_chromium() is None,
                                   reason=f"no headless browser on this machine: {INSTALL}")


def _get(served: Served, path: str, accept: str | None) -> tuple[int, str, str]:
    req = urllib.request.Request(served.http + path, headers={"Accept": accept} if accept
                                 else {})
    with urllib.request.urlopen(req, timeout=HANG) as r:
        if path.count("/") == 2:               # /games/ID: one address, two answers
            assert r.headers.get("Vary") == "Accept"
        return r.status, r.headers.get_content_type(), r.read().decode()


def _page_data(html: str) -> dict:
    start = html.index('<script type="application/json" id="battlefield-data">')
    body = html[html.index(">", start) + 1:html.index("</script>", start)]
    return json.loads(body)


MODELS = """Array.from(document.querySelectorAll('[data-model]')).map(e => [
  e.getAttribute('data-model'), e.getAttribute('data-x'), e.getAttribute('data-y'),
  e.getAttribute('data-slain')])"""


def _places(rows: list) -> dict[str, tuple[float, float] | None]:
    return {name: None if slain else (float(x), float(y)) for name, x, y, slain in rows}


def _expected(version_list: list[dict], n: int) -> dict[str, tuple[float, float] | None]:
    """Where every model stands at version n, from the viewer's versions (what changed)."""
    out: dict[str, tuple[float, float] | None] = {}
    for v in version_list[:n + 1]:
        for name, p in v["models"].items():
            out[name] = None if p is None else (p[0], p[1])
    return out


@pytest.fixture(scope="module")
def watched(server, tmp_path_factory):
    """A game two bots play while its live page, opened before the first action, watches.
    What the page showed at the start, at the first move (stepped back to) and at the end."""
    if find_chromium() is None:
        pytest.skip(f"no headless browser on this machine: {INSTALL}")
    game = server.new_game(SCENE, SEED)
    gid = game["game"]
    seen: dict = {"game": game}

    async def watch():
        async with Chromium() as chromium:
            page = await chromium.open(f"{server.http}/games/{gid}")
            await page.until("document.getElementById('live') && "
                             "document.getElementById('live').dataset.state === 'live'")
            seen["start_count"] = await page.eval("battlefield.viewer.count")
            seen["start"] = _places(await page.eval(MODELS))
            said: list[str] = []
            bots = asyncio.gather(*(
                run_bot(server.ws(gid, token), seed=i, patience=60, say=said.append)
                for i, token in enumerate(game["seats"].values())))
            counts = []
            while not bots.done():
                counts.append(await page.eval("battlefield.viewer.count"))
                await asyncio.sleep(0.2)
            seen["overs"] = await bots
            assert not said, said
            final = seen["overs"][0]["version"]
            await page.until(f"battlefield.viewer.count === {final + 1} && "
                             "document.getElementById('live').dataset.state === 'over'")
            counts.append(await page.eval("battlefield.viewer.count"))
            seen["counts"] = counts
            seen["end"] = _places(await page.eval(MODELS))
            seen["end_text"] = await page.eval(
                "[document.getElementById('version').textContent, "
                "document.getElementById('result').textContent, "
                "document.getElementById('live').textContent, battlefield.viewer.current]")
            seen["shot"] = await page.screenshot()
            # the first move, stepped back to with the page's own buttons
            versions = await page.eval("battlefield.viewer.versions.map(v => v.action || '')")
            k = next(i for i, a in enumerate(versions) if re.match(r"\S+ move, ", a))
            seen["move"] = (k, versions[k])
            await page.eval(f"battlefield.panel.go({k - 1}); "
                            "document.querySelector('[data-step=\"+1\"]').click(); 0")
            seen["at_move"] = _places(await page.eval(MODELS))
            seen["shown"] = await page.eval("battlefield.viewer.current")
    asyncio.run(watch())
    status, saved_text = server.request("GET", f"/games/{gid}/log")
    assert status == 200
    path = tmp_path_factory.mktemp("live") / "game.jsonl"
    path.write_text(saved_text)
    seen["saved"] = log.read(path)
    return seen


@needs_browser
def test_the_live_page_follows_a_game_two_bots_play(watched):
    saved = watched["saved"]
    _, versions = game_versions(saved)
    n = len(saved.actions)
    # Opened before the first action: the start, then every version as it was played.
    assert watched["start_count"] == 1
    assert watched["start"] == _expected(versions, 0)
    assert watched["counts"][0] < watched["counts"][-1] == n + 1
    assert len(set(watched["counts"])) > 3            # it grew while the bots played
    # The end as the engine replays the log: every model where it stands, the result shown.
    assert watched["end"] == _expected(versions, n)
    label, result, live, current = watched["end_text"]
    assert label == f"{n} / {n}" and current == n
    assert result.startswith("Battle over: ") and result == versions[-1]["result"]
    assert live == f"game over · {n} actions · seed {SEED}"


@needs_browser
def test_a_unit_moved_live_stands_at_its_new_place(watched):
    _, versions = game_versions(watched["saved"])
    k, action = watched["move"]
    unit = action.split()[0]               # 'blue-pikes move, 4.5"': the window's words
    assert watched["shown"] == k
    before, after = _expected(versions, k - 1), watched["at_move"]
    assert after == _expected(versions, k)
    moved = [m for m in after if m.startswith(unit + "/") and after[m] is not None]
    assert moved and all(after[m] != before[m] for m in moved), (unit, moved)


@needs_browser
def test_a_screenshot_of_the_live_page_is_not_blank(watched):
    shot = pygame.image.load(io.BytesIO(watched["shot"]), "live.png")
    assert shot.get_size() == (1400, 1000)
    px = pygame.surfarray.array3d(shot).reshape(-1, 3)
    assert len(np.unique(px // 8, axis=0)) > 60
    red = np.all(np.abs(px.astype(int) - (0xD5, 0x5E, 0x00)) < 12, axis=1).sum()
    blue = np.all(np.abs(px.astype(int) - (0x00, 0x72, 0xB2)) < 12, axis=1).sum()
    assert red > 200 and blue > 200, (red, blue)


@needs_browser
def test_a_link_to_version_0_opens_at_the_start(server, watched):
    gid = watched["game"]["game"]
    n = len(watched["saved"].actions)
    dom = Dom(dump_dom(f"{server.http}/games/{gid}#v=0", budget_ms=3000))
    assert dom.text("version") == f"0 / {n}"
    shown = {name: (float(a["data-x"]), float(a["data-y"]))
             for name, a in dom.with_attr("data-model").items()}
    assert shown == watched["start"]
    assert shown != {k: v for k, v in watched["end"].items() if v is not None}


@needs_browser
def test_the_front_page_lists_the_games_with_links(server, watched):
    gid = watched["game"]["game"]
    other = server.new_game(SCENE)["game"]
    dom = Dom(dump_dom(server.http + "/", budget_ms=1000))
    links = {a.get("href") for tag, a in dom.elements if tag == "a"}
    assert {f"/games/{gid}", f"/games/{other}"} <= links
    rows = dom.with_attr("data-game")
    assert set(rows) >= {gid, other}


def test_a_browser_gets_the_page_and_a_json_client_the_json(server):
    gid = server.new_game(SCENE, 3)["game"]
    for accept in (None, "application/json", "*/*", "application/json, text/html;q=0.5"):
        status, kind, text = _get(server, f"/games/{gid}", accept)
        assert (status, kind) == (200, "application/json"), accept
        assert json.loads(text)["game"] == gid
    status, kind, text = _get(server, f"/games/{gid}", BROWSER_ACCEPT)
    assert (status, kind) == (200, "text/html")
    data = _page_data(text)
    assert data["live"] == {"play": f"/games/{gid}/play", "versions": f"/games/{gid}/versions",
                            "over": False}
    assert len(data["versions"]) == 1 and data["versions"][0]["v"] == 0
    # never the seed before the end: not in the page, not in its versions
    assert "seed" not in data and '"seed"' not in text
    status, kind, text = _get(server, f"/games/{gid}/versions?since=0", None)
    body = json.loads(text)
    assert body["version"] == 0 and body["shown"] == 0 and len(body["versions"]) == 1
    assert '"seed"' not in text
    for since in ("-1", "%D9%A1", "1_0", "+1", "9" * 5000):   # %D9%A1: an Arabic-Indic 1
        assert server.request("GET", f"/games/{gid}/versions?since={since}")[0] == 400
    assert server.request("GET", "/games/nope/versions")[0] == 404


def _secret_outstanding() -> LiveGame:
    """A skirmish played by the ruleset's computer players, stopped just after a secret answer
    that is not yet revealed (the other side has not answered)."""
    from battlefield.paths import find_map

    text = find_map(SCENE).read_text(encoding="utf-8")
    game = LiveGame("g", "skirmish", text, SCENE, SEED, LiveGame.new_seats(["red", "blue"]))
    player = registry.get("skirmish").player()
    for n in range(400):
        action: Action = player.choose(game.state)
        side = game.state.sender(action)
        game.act(side, action, json.dumps(n))
        if game.clear is not None:
            return game
    raise AssertionError("no secret answer in 400 actions")


def test_versions_wait_for_a_secret_answer_to_be_revealed():
    game = _secret_outstanding()
    secret = game.records[-1]
    assert public(game) == game.version - 1
    book = Book(game)
    book.advance(game.records, public(game))
    assert len(book.versions) == game.version            # not the one with the answer
    assert secret.shown is not None and secret.shown != secret.action     # it is secret
    assert all(v["v"] < secret.version for v in book.versions)
    assert "seed" not in json.dumps(book.versions)
    # once the batch is complete, the held-back versions are given, equal to the log's
    player = registry.get("skirmish").player()
    while game.clear is not None:
        action = player.choose(game.state)
        game.act(game.state.sender(action), action, json.dumps(game.version))
    assert public(game) == game.version
    book.advance(game.records, public(game))
    assert [v["v"] for v in book.versions] == list(range(game.version + 1))


@needs_browser
def test_the_page_joins_again_after_a_restart_and_a_link_waits_for_its_version(tmp_path):
    """A page opened at #v=5 of a game with no action yet: the server is killed and started
    again on its database; the page says so, joins again, and when the bots have played it
    shows version 5 (not the newest) with every version in."""
    served = Served(tmp_path / "games.sqlite")
    try:
        game = served.new_game(SCENE, SEED)
        gid = game["game"]

        async def watch():
            async with Chromium() as chromium:
                page = await chromium.open(f"{served.http}/games/{gid}#v=5")
                state = "document.getElementById('live').dataset.state"
                await page.until(f"document.getElementById('live') && {state} === 'live'")
                served.kill()
                await page.until(f"{state} === 'reconnecting'")
                lost = await page.eval("document.getElementById('live').textContent")
                await asyncio.to_thread(served.start)
                await page.until(f"{state} === 'live'")
                overs = await asyncio.gather(*(
                    run_bot(served.ws(gid, token), seed=i, patience=60, say=lambda line: None)
                    for i, token in enumerate(game["seats"].values())))
                n = overs[0]["version"]
                await page.until(f"battlefield.viewer.count === {n + 1} && {state} === 'over'")
                return lost, n, await page.eval(
                    "[battlefield.viewer.current, document.getElementById('version')"
                    ".textContent, window.location.hash]")
        lost, n, (current, label, where) = asyncio.run(watch())
    finally:
        served.stop()
    assert lost == "connection lost: joining again"
    assert current == 5 and label == f"5 / {n}" and where == "#v=5"
