"""An adjustment through `battlefield serve` over real loopback sockets: the proposing seat
sends it (whatever unit it changes), the other seat is asked and answers; a refused one leaves
the game as it was, an accepted one is carried out; the other seat cannot propose in its
opponent's stead, nor answer its own proposal."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp

from .test_serve import _join, _until

SCENE = (Path(__file__).parents[1] / "rules" / "aos4" / "stampede.yaml").read_text(
    encoding="utf-8")

MORTAL = {"type": "adjust", "side": "red", "unit": "blue", "kind": "mortal", "amount": 2,
          "reason": "Unstoppable Stampede rolled 2", "ability": "Unstoppable Stampede",
          "source": "red"}


def test_an_adjustment_waits_for_the_other_seats_consent(server):
    game = server.new_game(SCENE, 3)
    gid, seats = game["game"], game["seats"]

    async def run():
        async with aiohttp.ClientSession() as s:
            r, _ = await _join(s, server.ws(gid, seats["red"]))
            b, _ = await _join(s, server.ws(gid, seats["blue"]))
            # Blue cannot propose for red, nor in red's turn.
            await b.send_json({"type": "act", "id": 1, "action": MORTAL})
            assert (await _until(b, "refused"))["violations"][0]["code"] == "not_your_seat"
            await r.send_json({"type": "act", "id": "r1", "action": MORTAL})
            proposed = await _until(b, "event")
            assert proposed["by"] == "red"
            kinds = [e["type"] for e in proposed["events"]]
            assert kinds == ["adjust-proposed", "decision"]
            assert proposed["events"][1] == {"type": "decision", "side": "blue",
                                             "kind": "adjust", "secret": False,
                                             "about": {"by": "red", "kind": "mortal",
                                                       "unit": "blue"},
                                             "answers": ["accept", "refuse"]}
            # Red cannot answer for blue.
            await r.send_json({"type": "act", "id": "r2",
                               "action": {"type": "accept", "side": "blue"}})
            assert (await _until(r, "refused"))["violations"][0]["code"] == "not_your_seat"
            await b.send_json({"type": "act", "id": "b1", "action": {"type": "refuse"}})
            refused = await _until(r, "event")
            assert [e["type"] for e in refused["events"]] == ["decided", "adjust-refused"]
            assert refused["dice"] == []
            await r.send_json({"type": "act", "id": "r3", "action": {**MORTAL, "amount": "D3"}})
            await _until(b, "event")
            assert (await _until(r, "event"))["version"] == 3        # red's own proposal
            await b.send_json({"type": "act", "id": "b2",
                               "action": {"type": "accept", "side": "blue"}})
            done = await _until(r, "event")
            kinds = [e["type"] for e in done["events"]]
            assert kinds[:3] == ["decided", "adjusted", "mortal-damage"]
            assert done["dice"][0]["for"] == "adjust blue: Unstoppable Stampede rolled 2"
            for ws in (r, b):
                await ws.close()

    asyncio.run(run())
    status, listing = server.request("GET", "/games")
    assert next(g for g in listing["games"] if g["id"] == gid)["version"] == 4


def test_the_seat_not_acting_proposes_for_its_own_side(server):
    """In red's turn blue's seat proposes an adjustment naming its own side (a reaction of
    blue's, applied by hand): red's seat is asked and accepts; red's seat cannot propose in
    blue's name."""
    game = server.new_game(SCENE, 3)
    gid, seats = game["game"], game["seats"]
    theirs = {"type": "adjust", "side": "blue", "unit": "red", "kind": "mortal", "amount": 1,
              "reason": "a reaction of blue's"}

    async def run():
        async with aiohttp.ClientSession() as s:
            r, _ = await _join(s, server.ws(gid, seats["red"]))
            b, _ = await _join(s, server.ws(gid, seats["blue"]))
            await r.send_json({"type": "act", "id": "r1", "action": theirs})
            assert (await _until(r, "refused"))["violations"][0]["code"] == "not_your_seat"
            await b.send_json({"type": "act", "id": "b1", "action": theirs})
            proposed = await _until(r, "event")
            await _until(b, "event")                    # blue sees its own proposal too
            assert proposed["by"] == "blue"
            assert proposed["events"][1]["side"] == "red"
            assert proposed["events"][1]["about"]["by"] == "blue"
            await r.send_json({"type": "act", "id": "r2",
                               "action": {"type": "accept", "side": "red"}})
            done = await _until(b, "event")
            assert [e["type"] for e in done["events"]][:3] == ["decided", "adjusted",
                                                               "mortal-damage"]
            for ws in (r, b):
                await ws.close()

    asyncio.run(run())
