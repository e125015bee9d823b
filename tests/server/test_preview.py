"""The live checks a seat asks for over its WebSocket, on a real `battlefield serve`: a preview
is answered to that seat alone with the engine's verdict, notes and the drag's depiction, and
changes nothing; a spectator's, another side's, a malformed one are refused in the answer;
past its rate a seat is told when to try again; offers list what the seat may do now and give a
spectator nothing to press; a computer seat plays its side, and goes on after a restart."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp

from ._serve import Served

MOVE = {"type": "move", "unit": "red-spears", "path": [[9.2, 5], [9.2, 9]]}


class Socket:
    """One client of a game: its messages by type, kept as they come."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.got: list[dict[str, Any]] = []

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(msg))

    async def wait(self, match, timeout: float = 60) -> dict[str, Any]:
        """The first message (so far or to come) that `match` accepts."""
        async def look() -> dict[str, Any]:
            while True:
                for m in self.got:
                    if match(m):
                        self.got.remove(m)
                        return m
                msg = await self.ws.receive()
                assert msg.type == aiohttp.WSMsgType.TEXT, msg
                self.got.append(json.loads(msg.data))
        return await asyncio.wait_for(look(), timeout)

    async def drain(self, seconds: float = 0.3) -> list[dict[str, Any]]:
        """What else arrives in a short while (nothing, for a message meant for another)."""
        try:
            while True:
                msg = await asyncio.wait_for(self.ws.receive(), seconds)
                self.got.append(json.loads(msg.data))
        except asyncio.TimeoutError:
            return self.got


async def clients(server: Served, game: dict, *seats: str | None):
    session = aiohttp.ClientSession()
    out = []
    for side in seats:
        ws = await session.ws_connect(server.ws(game["game"], game["seats"][side] if side
                                                else None))
        sock = Socket(ws)
        await sock.wait(lambda m: m["type"] == "hello")
        out.append(sock)
    return session, out


def test_a_preview_is_answered_to_its_seat_alone_and_changes_nothing(server):
    game = server.new_game("demo-skirmish", 4)

    async def run() -> dict:
        session, (red, blue, watcher) = await clients(server, game, "red", "blue", None)
        try:
            await red.send({"type": "preview", "id": "p1", "action": MOVE})
            legal = await red.wait(lambda m: m.get("id") == "p1")
            far = dict(MOVE, path=[[9.2, 5], [9.2, 20]])
            await red.send({"type": "preview", "id": 2, "action": far})
            illegal = await red.wait(lambda m: m.get("id") == 2)
            others = (await blue.drain(), await watcher.drain())
            await watcher.send({"type": "preview", "id": "w", "action": MOVE})
            spectator = await watcher.wait(lambda m: m.get("id") == "w")
            await blue.send({"type": "preview", "id": "b", "action": MOVE})
            not_blue = await blue.wait(lambda m: m.get("id") == "b")
            bad = dict(MOVE, path=[[9.2, 5], [9.2, "x"]])
            await red.send({"type": "preview", "id": "bad", "action": bad})
            malformed = await red.wait(lambda m: m.get("id") == "bad")
            version = server.request("GET", f"/games/{game['game']}")[1]["version"]
            await red.send({"type": "act", "id": "a1", "action": legal["action"]})
            event = await red.wait(lambda m: m["type"] == "event")
            return {"legal": legal, "illegal": illegal, "others": others,
                    "spectator": spectator, "not_blue": not_blue, "malformed": malformed,
                    "version": version, "event": event}
        finally:
            await session.close()

    out = asyncio.run(run())
    legal, illegal = out["legal"], out["illegal"]
    assert legal["type"] == "preview" and legal["legal"] is True and legal["violations"] == []
    assert isinstance(legal["notes"], list) and legal["action"]["unit"] == "red-spears"
    drawn = legal["overlay"]["layers"]
    assert any(s.get("a", {}).get("data-drag") == "unit" for s in drawn["drag"])
    assert legal["still"] and legal["used"] == 4
    assert illegal["legal"] is False
    assert [v["code"] for v in illegal["violations"]] == ["move_too_far"]
    assert "still" not in illegal                   # sent once for this pick-up
    assert out["others"] == ([], [])                # nobody else heard of either
    assert out["spectator"]["legal"] is False
    assert out["spectator"]["violations"][0]["code"] == "not_your_seat"
    assert out["not_blue"]["violations"][0]["code"] == "not_your_seat"
    assert out["malformed"]["violations"][0]["code"] == "bad_field"
    assert out["version"] == 0                      # previews changed nothing
    assert out["event"]["version"] == 1 and out["event"]["action"] == legal["action"]


def test_past_its_rate_a_seat_is_told_when_to_try_again(tmp_path):
    # A seat may ask 2 previews a second here (serve --previews-per-second): the server
    # answers each before it reads the next, so 12 asked at once outrun that rate.
    server = Served(tmp_path / "games.sqlite", "--previews-per-second", "2")
    game = server.new_game("demo-skirmish", 5)

    async def run() -> list[dict]:
        session, (red,) = await clients(server, game, "red")
        try:
            n = 12
            for k in range(n):
                await red.send({"type": "preview", "id": k, "action": MOVE})
            return [await red.wait(lambda m, k=k: m.get("id") == k) for k in range(n)]
        finally:
            await session.close()

    try:
        answers = asyncio.run(run())
    finally:
        server.stop()
    limited = [a for a in answers if a["type"] == "error"]
    assert limited and all(a["retry_after"] >= 1 for a in limited)
    assert "a second from this seat" in limited[0]["message"]
    assert sum(a["type"] == "preview" for a in answers) >= 2


def test_offers_list_what_the_seat_may_do_and_a_spectator_gets_none(server):
    game = server.new_game("demo-skirmish", 6)

    async def run() -> tuple[dict, dict, dict]:
        session, (red, blue, watcher) = await clients(server, game, "red", "blue", None)
        try:
            answers = []
            for sock in (red, blue, watcher):
                await sock.send({"type": "offers"})
                answers.append(await sock.wait(lambda m: m["type"] == "offers"))
            return tuple(answers)
        finally:
            await session.close()

    red, blue, watcher = asyncio.run(run())
    assert red["acting"] == "red" and red["seat"] == "red"
    assert "red-spears" in red["drag"] and red["drag"]["red-spears"]["ref"] == "red-spears/2"
    kinds = {b["action"]["type"] for b in red["buttons"]}
    assert "end-turn" in kinds and all(isinstance(b["action"], dict) for b in red["buttons"])
    assert blue["buttons"] == [] and blue["drag"] == {}
    assert watcher["seat"] is None and watcher["buttons"] == [] and watcher["drag"] == {}


def test_a_computer_seat_plays_its_side_and_goes_on_after_a_restart(tmp_path):
    served = Served(tmp_path / "games.sqlite")
    try:
        status, game = served.request("POST", "/games", {"scene": "demo-skirmish", "seed": 1,
                                                         "computer": "red"})
        assert status == 201 and set(game["join"]) == {"blue"}
        gid = game["game"]

        def version() -> int:
            return served.request("GET", f"/games/{gid}")[1]["version"]

        async def until(ok) -> None:
            for _ in range(600):
                if ok():
                    return
                await asyncio.sleep(0.1)
            raise AssertionError("the computer never acted")

        asyncio.run(until(lambda: version() >= 1))      # red moves first: the computer
        served.kill()
        served.start()

        async def blue_plays() -> int:
            session, (blue,) = await clients(served, game, "blue")
            try:
                start = version()
                await blue.send({"type": "offers"})
                offers = await blue.wait(lambda m: m["type"] == "offers")
                while offers["acting"] != "blue":
                    await blue.wait(lambda m: m["type"] == "event")
                    await blue.send({"type": "offers"})
                    offers = await blue.wait(lambda m: m["type"] == "offers")
                button = next(b for b in offers["buttons"] if b["kind"] in ("pass", "decision"))
                await blue.send({"type": "act", "id": "b1", "action": button["action"]})
                await blue.wait(lambda m: m["type"] == "event" and m.get("id") == "b1")
                await until(lambda: version() > start + 1)     # and red answered again
                return version()
            finally:
                await session.close()

        assert asyncio.run(blue_plays()) >= 3
    finally:
        served.stop()


def test_a_preview_during_a_secret_batch_says_only_legal_or_not(server):
    """Skirmish: red's skirmish asks both sides to commit morale in secret. While the first
    answer is outstanding, the other seat's preview of its own answer says legal or not and
    why - no notes, no overlay - and nothing of the answer it cannot see."""
    game = server.new_game("demo-skirmish", 8)

    async def run() -> tuple[dict, dict, str]:
        session, (red, blue) = await clients(server, game, "red", "blue")
        try:
            await red.send({"type": "offers"})
            offers = await red.wait(lambda m: m["type"] == "offers")
            attack = next(b["action"] for b in offers["buttons"]
                          if b["action"]["type"] == "skirmish")
            await red.send({"type": "act", "id": "s", "action": attack})
            await red.wait(lambda m: m["type"] == "event" and m.get("id") == "s")
            socks = {"red": red, "blue": blue}
            for sock in socks.values():
                await sock.send({"type": "offers"})
            first = {side: await sock.wait(lambda m: m["type"] == "offers")
                     for side, sock in socks.items()}
            deciding = next(side for side, o in first.items() if o["buttons"])
            other = "blue" if deciding == "red" else "red"
            answer = next(b["action"] for b in first[deciding]["buttons"]
                          if b["action"].get("tokens") == 2)
            await socks[deciding].send({"type": "act", "id": "c", "action": answer})
            await socks[deciding].wait(lambda m: m["type"] == "event" and m.get("id") == "c")
            await socks[other].send({"type": "preview", "id": "p", "action": {
                "type": "commit", "side": other, "tokens": 0}})
            said = await socks[other].wait(lambda m: m.get("id") == "p")
            await socks[other].send({"type": "offers"})
            offered = await socks[other].wait(lambda m: m["type"] == "offers")
            return said, offered, deciding
        finally:
            await session.close()

    said, offered, deciding = asyncio.run(run())
    assert said["legal"] is True and said["notes"] == [] and said["overlay"] is None
    assert "still" not in said and "caption" not in said
    assert all(b["action"]["side"] != deciding for b in offered["buttons"])
    text = json.dumps([said, offered])
    assert f'"side": "{deciding}", "tokens": 2' not in text.replace('","', '", "')
