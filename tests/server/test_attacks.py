"""The attacks of issue 30, each over real loopback sockets against the server with its real
limits (`battlefield serve` with short timeouts, or the server in this process where the test
needs its objects): a seat acting for another, dice foreseen, one message stalling every game,
memory and files taken by clients that do not read, idle and half-open connections, floods of
new games, a listing of every game at once, scene texts that gave a 500, a server file read by a
posted scene, a world-readable database, engine errors shown to players, pages without a
Content-Security-Policy. Each test speaks from its own loopback address (127.0.0.0/8), as its
own client to the per-address limits. No test asserts how long anything took: waits are bounds
for a hung test."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import socket
import stat
import struct
import subprocess
import sys
import threading
from pathlib import Path

import aiohttp
import pytest
import yaml

from battlefield.client.bot import run_bot
from battlefield.client.mirror import Mirror
from battlefield.page.browser import find_chromium
from battlefield.paths import find_map
from battlefield.rules import registry
from battlefield.rules.deploy import battle_scene
from battlefield.scene.load import load_scene
from battlefield.server import seats
from battlefield.server.games import LiveGame
from battlefield.server.limits import Limits

from ._devtools import Chromium
from ._net import (
    Running,
    closed_by_server,
    frame,
    open_now,
    post_game,
    raw,
    rss_mb,
    session,
    until,
    websocket,
)
from ._serve import Served, short_battle

# Short timeouts for the tests, not so short that a loaded machine's late pong (within a third
# of the idle timeout) would close a joined client.
TIGHT = ("--idle-timeout", "4", "--games-per-minute", "6", "--frames-per-second", "20",
         "--connections-per-address", "16", "--engine-share", "0.5")


@pytest.fixture(scope="module")
def tight(tmp_path_factory):
    """`battlefield serve` with the real limits, its timeouts short (4 s idle)."""
    served = Served(tmp_path_factory.mktemp("attacks") / "games.sqlite", options=TIGHT)
    yield served
    served.stop()


def _bots(url_of, game: dict, source_of=None) -> list[dict]:
    async def both():
        return await asyncio.gather(*(
            run_bot(url_of(game["game"], token), seed=i, patience=60, say=lambda line: None)
            for i, token in enumerate(game["seats"].values())))
    return asyncio.run(both())


# --- the wrong seat ------------------------------------------------------------------------------
def test_no_seat_acts_for_another_over_the_network(tight):
    async def run():
        async with session("127.0.0.11") as s:
            status, _, game = await post_game(s, tight.http, "demo-skirmish", 1)
            assert status == 201
            red, blue = game["seats"]
            r = await s.ws_connect(tight.ws(game["game"], game["seats"][red]))
            b = await s.ws_connect(tight.ws(game["game"], game["seats"][blue]))
            hello = await until(b, "hello")
            units = hello["position"]["units"]
            mine = next(u["id"] for u in units if u["side"] == blue)
            theirs = next(u["id"] for u in units if u["side"] == red)
            retreat = {"type": "retreat", "unit": mine, "from": theirs}
            for k in range(3):           # blue's retreat in red's turn, again and again
                await b.send_json({"type": "act", "id": k, "action": retreat})
                refused = await until(b, "refused")
                assert [v["code"] for v in refused["violations"]] == ["not_your_seat"]
            await r.send_json({"type": "act", "id": "r", "action": retreat})
            refused = await until(r, "refused")          # red's moment, but no attack came
            assert [v["code"] for v in refused["violations"]] == ["no_decision"]
            async with s.get(f"{tight.http}/games/{game['game']}") as g:
                assert (await g.json())["version"] == 0

            status, _, game = await post_game(s, tight.http, "demo-warband", 3)
            sockets = {side: await s.ws_connect(tight.ws(game["game"], token))
                       for side, token in game["seats"].items()}
            hello = await until(sockets[red], "hello")
            await until(sockets[blue], "hello")
            mirror = Mirror(hello)
            roller = mirror.state.acting_side
            await sockets[roller].send_json({"type": "act", "id": "i",
                                             "action": {"type": "initiative"}})
            event = await until(sockets[roller], "event")
            mirror.receive(event)
            holder = mirror.state.clock["initiative"]
            other = red if holder == blue else blue
            await until(sockets[other], "event")
            for named in (other, holder):   # not the holder's choice: refused, whatever side
                await sockets[other].send_json({"type": "act", "id": f"f-{named}", "action": {
                    "type": "first", "side": named}})
                refused = await until(sockets[other], "refused")
                assert [v["code"] for v in refused["violations"]] == ["not_your_seat"]
            await sockets[holder].send_json({"type": "act", "id": "f", "action": {
                "type": "first", "side": other}})
            event = await until(sockets[holder], "event")
            first = next(e for e in event["events"] if e["type"] == "first")
            assert first == {"type": "first", "side": other, "chosen_by": holder}
            for ws in (r, b, *sockets.values()):
                await ws.close()

    asyncio.run(run())


# --- the dice ------------------------------------------------------------------------------------
def test_nobody_can_foresee_the_dice_of_an_unseeded_game(tight, tmp_path):
    async def made(seed: int | None) -> tuple[dict, dict, dict]:
        async with session("127.0.0.12") as s:
            status, _, game = await post_game(s, tight.http, short_battle("skirmish"), seed)
            assert status == 201 and game["seeded"] is (seed is not None)
            async with s.get(f"{tight.http}/games/{game['game']}") as r:
                info = await r.json()
            ws = await s.ws_connect(tight.ws(game["game"]))
            hello = await until(ws, "hello")
            await ws.close()
            return game, info, hello

    game, info, hello = asyncio.run(made(None))
    assert info["seeded"] is False and hello["seeded"] is False
    secret = info["seed_sha256"]
    assert hello["seed_sha256"] == secret
    # not the hash of any small number (the README's 12 fell in microseconds)
    assert all(hashlib.sha256(str(n).encode()).hexdigest() != secret for n in range(200_000))
    _, info2, _ = asyncio.run(made(None))
    assert info2["seed_sha256"] != secret
    page = _page(tight, game["game"])
    assert "dice from a secret seed, SHA-256 " + secret[:16] in page
    assert '"seeded":false' in page and secret in page and '"seed":' not in page
    overs = _bots(tight.ws, game)
    seed = overs[0]["seed"]
    assert isinstance(seed, str) and re.fullmatch(r"[0-9a-f]{64}", seed)      # 256 bits
    assert hashlib.sha256(seed.encode()).hexdigest() == secret
    assert overs[0]["seed_verified"] and overs[1]["seed_verified"]
    status, text = tight.request("GET", f"/games/{game['game']}/log")
    assert status == 200 and json.loads(text.splitlines()[0])["seed"] == seed
    path = tmp_path / "served.jsonl"
    path.write_text(text)
    out = subprocess.run([sys.executable, "-m", "battlefield", "replay", str(path)],
                         capture_output=True, text=True)
    assert out.returncode == 0 and "every state identical" in out.stdout
    assert f'"seed":"{seed}"' in _page(tight, game["game"])        # shown at the end
    # a game made with a chosen seed says so: its dice can be foreseen
    chosen, info, hello = asyncio.run(made(12))
    assert info["seeded"] is True and hello["seeded"] is True
    assert info["seed_sha256"] == hashlib.sha256(b"12").hexdigest()
    assert "seeded by its creator" in _page(tight, chosen["game"])


def _page(served: Served, game: str) -> str:
    import urllib.request

    req = urllib.request.Request(f"{served.http}/games/{game}", headers={"Accept": "text/html"})
    with urllib.request.urlopen(req) as r:
        return r.read().decode()


# --- one message, every game ---------------------------------------------------------------------
def test_an_act_or_scene_past_the_servers_bounds_is_refused_in_one_line(tight):
    text, _ = battle_scene("skirmish", None)
    scene = yaml.safe_load(text)
    scene["board"] = {"width": 72, "depth": 72}
    unit = scene["units"][0]
    unit["models"] = [{"base": 25, "at": [1 + (k % 60) * 1.1, 1 + (k // 60) * 1.1]}
                      for k in range(501)]
    big = yaml.safe_dump(scene)

    async def run():
        async with session("127.0.0.13") as s:
            status, _, body = await post_game(s, tight.http, big)
            assert status == 400 and "more than the server's 500" in body["error"]
            assert "\n" not in body["error"]
            status, _, body = await post_game(s, tight.http, text + "#" * 300_000 + "\n")
            assert status == 400 and "bytes" in body["error"]
            status, _, game = await post_game(s, tight.http, "demo-skirmish", 1)
            red = next(iter(game["seats"]))
            ws = await s.ws_connect(tight.ws(game["game"], game["seats"][red]))
            hello = await until(ws, "hello")
            uid = next(u["id"] for u in hello["position"]["units"] if u["side"] == red)
            path = [[10 + (k % 2) * 0.01, 10 + k * 0.001] for k in range(65)]
            await ws.send_json({"type": "act", "id": 1, "action": {
                "type": "move", "unit": uid, "path": path}})
            refused = await until(ws, "refused")
            (v,) = refused["violations"]
            assert v["code"] == "over_limit" and "65 points" in v["message"]
            await ws.close()

    asyncio.run(run())


def test_one_game_in_the_engine_holds_up_no_other_game_nor_the_listing(tmp_path,
                                                                       monkeypatch):
    """A game whose act the engine takes forever to check (held here on an event) leaves
    another game playing and GET /games answering; the act then goes through."""
    release = threading.Event()
    slow: set[str] = set()
    real = LiveGame.act

    def act(self, side, action, key, persist=None):
        if self.id in slow:
            release.wait(120)
        return real(self, side, action, key, persist)

    monkeypatch.setattr(LiveGame, "act", act)

    async def run():
        async with Running(tmp_path / "g.sqlite", Limits()) as r, session("127.0.0.14") as s:
            _, _, held = await post_game(s, r.http, "demo-skirmish", 1)
            _, _, free = await post_game(s, r.http, "demo-skirmish", 2)
            slow.add(held["game"])
            sockets = {}
            for g in (held, free):
                side, token = next(iter(g["seats"].items()))
                sockets[g["game"]] = ws = await s.ws_connect(r.ws(g["game"], token))
                hello = await until(ws, "hello")
                action = registry.get("skirmish").player().choose(Mirror(hello).state)
                await ws.send_json({"type": "act", "id": 1, "action": action.to_dict()})
            event = await until(sockets[free["game"]], "event")     # the other game goes on
            assert event["version"] == 1
            async with s.get(r.http + "/games") as listing:
                games = {g["id"]: g for g in (await listing.json())["games"]}
            assert games[held["game"]]["version"] == 0 and games[free["game"]]["version"] == 1
            release.set()
            assert (await until(sockets[held["game"]], "event"))["version"] == 1
            for ws in sockets.values():
                await ws.close()

    asyncio.run(run())


# --- memory and files ----------------------------------------------------------------------------
def test_clients_that_never_read_are_disconnected_and_memory_stays_bounded(tight):
    game = tight.new_game(short_battle("skirmish"), 3)
    _bots(tight.ws, game)                     # a finished game: every resume has its history
    before = rss_mb(tight.proc.pid)
    path = f"/games/{game['game']}/play"
    floods = []
    for k in range(60):                       # 60 sockets, none of them reading
        sock = websocket(tight.port, f"127.0.1.{k + 1}", path)
        sock.sendall(frame({"type": "resume", "since": 0}) * 100)
        floods.append(sock)
    # a player of another game goes on meanwhile
    other = tight.new_game("demo-skirmish", 5)
    overs = _bots(tight.ws, other)
    assert overs[0]["version"] > 0
    assert all(closed_by_server(sock) for sock in floods)
    assert rss_mb(tight.proc.pid) - before < 200
    for k in range(60):      # upgrades whose clients reset at once: gone, not a server fault
        sock = raw(tight.port, f"127.0.2.{k + 1}")
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: "
                     f"Upgrade\r\nSec-WebSocket-Key: {'A' * 22}==\r\nSec-WebSocket-Version: "
                     f"13\r\n\r\n".encode())
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
    assert tight.new_game("demo-skirmish", 6)["game"]   # the server goes on
    assert "Traceback" not in tight.log()           # nor is its log filled
    for sock in floods:
        sock.close()


def test_idle_and_half_open_connections_are_closed_but_a_joined_client_stays(tight):
    silent = raw(tight.port, "127.0.0.15")
    half = raw(tight.port, "127.0.0.15")
    half.sendall(b"GET /games HTTP/1.1\r\nHost: x\r\n")          # and nothing more
    body = raw(tight.port, "127.0.0.15")
    body.sendall(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"sc")
    game = tight.new_game("demo-skirmish", 1)

    async def joined() -> list[dict]:
        async with session("127.0.0.16") as s:
            ws = await s.ws_connect(tight.ws(game["game"]))
            heard: list[dict] = []

            async def read() -> None:     # reading, the client answers the server's pings
                async for msg in ws:
                    heard.append(json.loads(msg.data))

            reading = asyncio.ensure_future(read())
            await asyncio.sleep(12)                                # three idle timeouts
            await ws.send_json({"type": "resume", "since": 99})
            for _ in range(600):                                   # a bound, not a measure
                if len(heard) > 1:
                    break
                await asyncio.sleep(0.1)
            await ws.close()
            await reading
            return heard

    heard = asyncio.run(joined())
    assert heard[0]["type"] == "hello" and "past this game's version" in heard[1]["message"]
    for sock in (silent, half, body):
        assert closed_by_server(sock)
        sock.close()


def test_one_address_cannot_take_every_connection(tight):
    socks = [raw(tight.port, "127.0.0.17") for _ in range(30)]
    status, _ = tight.request("GET", "/games")     # the server has seen every one by now
    assert open_now(socks) == [True] * 16 + [False] * 14
    status, _ = tight.request("GET", "/games")                      # another address: served
    assert status == 200
    for s in socks:
        s.close()
    assert tight.log().count("\n") < 20                             # no flood of errors


def test_new_games_and_frames_are_rate_limited_per_address(tight):
    async def run():
        async with session("127.0.0.18") as s:
            # 6 at once, then one every 10 s: a slow machine's posts may earn one more before
            # the first refusal (the bounds count the time the posts took; none is asserted)
            loop = asyncio.get_running_loop()
            start, answers = loop.time(), []
            while len(answers) < 40 and (not answers or answers[-1][0] == 201):
                answers.append(await post_game(s, tight.http, "demo-skirmish", 1))
            took = loop.time() - start
            made = [a[0] for a in answers].index(429)
            assert 6 <= made <= 6 + int(took / 10) + 1, (made, took)
            status, headers, body = answers[made]
            assert status == 429 and int(headers["Retry-After"]) >= 1
            assert body["retry_after"] == int(headers["Retry-After"]) and "\n" not in body["error"]
            ws = await s.ws_connect(tight.ws(answers[0][2]["game"]))
            await until(ws, "hello")
            start = loop.time()
            for _ in range(200):      # each read is answered: a version not reached yet
                try:
                    await ws.send_json({"type": "resume", "since": 5})
                except ConnectionResetError:     # dropped while we still flood: as expected
                    break
            flood = loop.time() - start
            answers = []
            async for msg in ws:      # to the end: past the rate for a whole burst more
                answers.append(json.loads(msg.data))
            # The burst read (the answers still queued when it was dropped are not sent), the
            # first frame past the rate answered with the wait, the rest not read at all.
            read = [m for m in answers if "past this game's version" in m["message"]]
            slowed = [m for m in answers if m.get("retry_after")]
            # 80 at once, then 20 a second: a slow sender's frames earn more while it sends
            assert read and len(read) <= 80 + int(20 * flood) + 1, (len(read), flood)
            assert len(answers) <= len(read) + 1
            assert len(slowed) <= 1 and all("too many frames" in m["message"]
                                            and m["retry_after"] >= 1 for m in slowed)
            assert ws.closed
            again = raw(tight.port, "127.0.0.18")   # for a while, not even read
            await asyncio.to_thread(tight.request, "GET", "/games")   # seen by now
            assert open_now([again]) == [False]
            again.close()
        async with session("127.0.0.19") as s:                      # another address: welcome
            status, _, game = await post_game(s, tight.http, "demo-skirmish", 1)
            assert status == 201
            side, token = next(iter(game["seats"].items()))
            ws = await s.ws_connect(tight.ws(game["game"], token))
            hello = await until(ws, "hello")
            action = registry.get("skirmish").player().choose(Mirror(hello).state).to_dict()
            for _ in range(80):       # the burst spent (nothing to answer: nothing missed)
                await ws.send_json({"type": "resume", "since": 0})
            await ws.send_json({"type": "act", "id": "a1", "action": action})
            slowed = await until(ws, "error")
            while slowed.get("id") != "a1":       # (a resume past the rate said so first)
                slowed = await until(ws, "error")
            assert slowed["retry_after"] >= 1      # the act not taken: said so, with its id
            await asyncio.sleep(slowed["retry_after"])
            await ws.send_json({"type": "act", "id": "a1", "action": action})
            event = await until(ws, "event")       # sent again after the wait: taken
            assert event["id"] == "a1" and event["version"] == 1
            await ws.close()

    asyncio.run(run())


def test_behind_a_proxy_each_client_is_limited_by_its_own_address(tmp_path):
    served = Served(tmp_path / "g.sqlite", options=(*TIGHT, "--proxy", "127.0.0.1"))
    try:
        async def run():
            async with session("127.0.0.1") as s:      # the proxy: every client through it
                async def made(client: str) -> int:
                    async with s.post(served.http + "/games", json={"scene": "demo-skirmish"},
                                      headers={"X-Forwarded-For": client}) as r:
                        return r.status
                first = [await made("198.51.100.7") for _ in range(7)]
                assert first == [201] * 6 + [429]
                assert await made("198.51.100.8") == 201            # another client: welcome
                socks = [raw(served.port, "127.0.0.1") for _ in range(30)]
                async with s.get(served.http + "/games") as r:   # all of them seen by now
                    assert r.status == 200
                assert all(open_now(socks))      # the proxy's own: counted only in all
                for x in socks:
                    x.close()
        asyncio.run(run())
    finally:
        served.stop()


def test_the_lists_of_games_come_a_page_at_a_time(tight):
    async def run():
        for k in range(9):
            async with session(f"127.0.2.{k + 1}") as s:
                for _ in range(6):
                    assert (await post_game(s, tight.http, "demo-skirmish", 1))[0] == 201

    asyncio.run(run())
    status, first = tight.request("GET", "/games")
    assert status == 200 and len(first["games"]) == 50 and first["page"] == 1
    assert first["pages"] >= 2 and first["next"] == "/games?page=2"
    assert first["total"] >= 54
    status, last = tight.request("GET", f"/games?page={first['pages']}")
    assert last["next"] is None and 0 < len(last["games"]) <= 50
    assert not {g["id"] for g in first["games"]} & {g["id"] for g in last["games"]}
    status, page = tight.request("GET", "/?page=2")
    assert status == 200 and 'rel="prev" href="/?page=1"' in page
    for bad in ("0", "x", "-1"):
        status, body = tight.request("GET", f"/games?page={bad}")
        assert status == 400 and "page" in body["error"]


def test_finished_and_idle_games_leave_memory_and_come_back_when_asked(tmp_path):
    limits = Limits(idle_game_s=0.5)

    async def run():
        async with Running(tmp_path / "g.sqlite", limits) as r, session("127.0.0.20") as s:
            _, _, done = await post_game(s, r.http, short_battle("skirmish"), 3)
            _, _, idle = await post_game(s, r.http, "demo-skirmish", 4)
            overs = await asyncio.gather(*(
                run_bot(r.ws(done["game"], token), seed=i, say=lambda line: None)
                for i, token in enumerate(done["seats"].values())))
            ws = await s.ws_connect(r.ws(idle["game"]))
            await until(ws, "hello")
            await ws.close()
            for _ in range(200):                 # the sweep every 0.25 s (a bound, not a measure)
                if not {done["game"], idle["game"]} & set(r.server.games):
                    break
                await asyncio.sleep(0.1)
            assert not {done["game"], idle["game"]} & set(r.server.games)
            async with s.get(f"{r.http}/games/{done['game']}") as got:
                assert (await got.json())["version"] == overs[0]["version"]
            async with s.get(f"{r.http}/games/{idle['game']}") as got:
                assert (await got.json())["over"] is False   # the database says so
            assert idle["game"] not in r.server.games
            ws = await s.ws_connect(r.ws(idle["game"]))    # a client joins: rebuilt
            assert (await until(ws, "hello"))["version"] == 0
            assert idle["game"] in r.server.games
            await ws.close()

    asyncio.run(run())


# --- bad input -----------------------------------------------------------------------------------
BAD_SCENES = {
    "a date that is none": "ruleset: skirmish\nx: 2020-13-45\nunits: []\n",
    "a 5,000-digit number": "ruleset: skirmish\nboard: {width: " + "9" * 5000 + "}\n",
    "3,000 nested brackets": "ruleset: skirmish\nx: " + "[" * 3000 + "]" * 3000 + "\n",
    "a 300-character name": "a" * 300,
}


def test_scene_texts_that_gave_a_500_are_a_400_line(tight):
    async def run():
        async with session("127.0.0.21") as s:
            for what, text in BAD_SCENES.items():
                status, _, body = await post_game(s, tight.http, text)
                assert status == 400 and body["error"] and "\n" not in body["error"], what
                await asyncio.sleep(0)
    asyncio.run(run())
    assert "Traceback" not in tight.log()
    out = subprocess.run([sys.executable, "-m", "battlefield", "check", "a" * 300],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "File name too long" in out.stderr


def test_a_posted_scene_reads_no_file_of_the_servers_folder(tmp_path):
    folder = tmp_path / "cwd"
    folder.mkdir()
    (folder / "aos4.yaml").write_text("board: {width: 11, depth: 13}\nterrain: []\n")
    served = Served(tmp_path / "g.sqlite", cwd=folder)
    try:
        text, _ = battle_scene("aos4", None)
        assert "\nmap: aos4\n" in text
        game = served.new_game(text, 1)

        async def hello() -> dict:
            async with aiohttp.ClientSession() as s:
                ws = await s.ws_connect(served.ws(game["game"]))
                msg = await until(ws, "hello")
                await ws.close()
                return msg

        board = asyncio.run(hello())["position"]["board"]
        bundled = load_scene(find_map("aos4"))
        assert (board["width"], board["depth"]) == (bundled.width, bundled.depth) != (11, 13)
    finally:
        served.stop()


def test_the_database_is_readable_by_its_owner_only(tight):
    tight.new_game("demo-skirmish", 1)
    for name in ("", "-wal", "-shm"):
        path = Path(str(tight.db) + name)
        assert path.exists() and stat.S_IMODE(path.stat().st_mode) == 0o600, name


def test_an_engine_error_reaches_the_player_as_a_generic_line(tmp_path, monkeypatch, capsys):
    def broken(self, side, action, key, persist=None):
        raise RuntimeError("internal detail 1234")

    async def run():
        async with Running(tmp_path / "g.sqlite", Limits()) as r, session("127.0.0.22") as s:
            _, _, game = await post_game(s, r.http, "demo-skirmish", 1)
            side, token = next(iter(game["seats"].items()))
            ws = await s.ws_connect(r.ws(game["game"], token))
            hello = await until(ws, "hello")
            action = registry.get("skirmish").player().choose(Mirror(hello).state)
            monkeypatch.setattr(LiveGame, "act", broken)
            await ws.send_json({"type": "act", "id": 1, "action": action.to_dict()})
            refused = await until(ws, "refused")
            await ws.close()
            return refused

    refused = asyncio.run(run())
    (v,) = refused["violations"]
    assert v["code"] == "engine_error" and v["message"] == seats.ENGINE_ERROR
    assert "1234" not in json.dumps(refused)
    err = capsys.readouterr().err
    assert "Traceback" in err and "RuntimeError: internal detail 1234" in err


def test_a_long_side_name_does_not_stop_a_bot(tight):
    text, _ = battle_scene("skirmish", None)
    scene = yaml.safe_load(short_battle("skirmish"))
    long = "r" * 150
    for u in scene["units"]:
        if u["side"] == "red":
            u["side"] = long
    for name in list(scene.get("deployment") or {}):
        if name == "red":
            scene["deployment"][long] = scene["deployment"].pop("red")
    game = tight.new_game(yaml.safe_dump(scene, sort_keys=False), 2)
    assert long in game["seats"]
    overs = _bots(tight.ws, game)
    assert overs[0]["version"] == overs[1]["version"] > 0


# --- the pages -----------------------------------------------------------------------------------
def test_every_page_has_a_content_security_policy_and_nosniff(tight):
    game = tight.new_game("demo-skirmish", 1)
    for path in ("/", f"/games/{game['game']}"):
        import urllib.request

        req = urllib.request.Request(tight.http + path, headers={"Accept": "text/html"})
        with urllib.request.urlopen(req, timeout=60) as r:
            csp = r.headers["Content-Security-Policy"]
            text = r.read().decode()
            assert r.headers["X-Content-Type-Options"] == "nosniff"
        nonce = re.search(r"script-src 'nonce-([^']+)'", csp) or re.search(
            r"style-src 'nonce-([^']+)'", csp)
        assert nonce and "unsafe-inline" not in csp and "default-src 'none'" in csp
        tags = re.findall(r"<(script|style)([^>]*)>", text)
        runs = [attrs for kind, attrs in tags if 'type="application/json"' not in attrs]
        assert runs and all(f'nonce="{nonce.group(1)}"' in attrs for attrs in runs), path
    with urllib.request.urlopen(tight.http + "/games", timeout=60) as r:
        assert r.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.skipif(find_chromium() is None, reason="no headless browser on this machine")
def test_the_live_page_works_under_its_policy_and_the_policy_blocks_other_script(tight):
    game = tight.new_game("demo-skirmish", 1)
    watch = ("window.__csp = []; document.addEventListener('securitypolicyviolation', "
             "e => window.__csp.push(e.violatedDirective));")

    async def run():
        async with Chromium() as chromium:
            page = await chromium.open(f"{tight.http}/games/{game['game']}", before=watch)
            await page.until("document.getElementById('live') && "
                             "document.getElementById('live').dataset.state === 'live'")
            assert await page.eval("battlefield.viewer.count") == 1
            assert await page.eval("window.__csp") == []
            # a script slipped into the page is not run
            await page.eval("var s = document.createElement('script'); "
                            "s.textContent = 'window.__ran = 1'; document.body.appendChild(s); 0")
            await page.until("window.__csp.length > 0")
            assert await page.eval("window.__ran === undefined")
            front = await chromium.open(f"{tight.http}/", before=watch)
            await front.until("!!document.querySelector('tr[data-game]')")
            assert await front.eval("window.__csp") == []
            assert await front.eval(
                "getComputedStyle(document.querySelector('table.games')).borderCollapse"
            ) == "collapse"                                # its own style applies

    asyncio.run(run())


def test_a_seat_cannot_be_taken_by_a_guessed_token(tight):
    game = tight.new_game("demo-skirmish", 1)

    async def run():
        async with session("127.0.0.23") as s:
            with pytest.raises(aiohttp.WSServerHandshakeError) as err:
                await s.ws_connect(tight.ws(game["game"], "x" * 32))
            assert err.value.status == 403
    asyncio.run(run())
