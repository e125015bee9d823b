"""An adjustment through `battlefield serve` over real loopback sockets: the proposing seat
sends it (whatever unit it changes), the other seat is asked and answers; a refused one leaves
the game as it was, an accepted one is carried out; the other seat cannot propose in its
opponent's stead, nor answer its own proposal."""

from __future__ import annotations

import asyncio

import aiohttp

from .test_serve import _join, _until

# A Doombull's Alpha Charge on red (tests/rules/aos4/test_adjust.py's scene).
SCENE = """ruleset: aos4
board: {width: 60, depth: 44}
units:
  - id: red
    side: red
    stats: {move: 5, health: 2, save: 3, control: 1}
    weapons:
      - {name: Axe, range: 0, attacks: 2, hit: 3, wound: 4, rend: 1, damage: 1}
    abilities:
      - name: Alpha Charge
        kind: activated
        timing: Any Charge Phase
        declare: If this unit charged this phase, pick an enemy unit within 1" of it to be the
          target.
        effect: Roll a D3. On a 2+, inflict an amount of mortal damage on the target equal to
          the roll.
      - {name: Stubborn, kind: passive, effect: Add 1 to save rolls for this unit.}
    models:
      - {base: 32, at: [10, 10]}
      - {base: 32, at: [12, 10]}
  - id: blue
    side: blue
    stats: {move: 5, health: 2, save: 4, control: 1}
    weapons:
      - {name: Choppa, range: 0, attacks: 2, hit: 4, wound: 4, rend: 0, damage: 1}
    models:
      - {base: 32, at: [10, 30]}
      - {base: 32, at: [11.5, 30]}
      - {base: 32, at: [10.75, 31.3]}
"""

MORTAL = {"type": "adjust", "side": "red", "unit": "blue", "kind": "mortal", "amount": 2,
          "reason": "Alpha Charge rolled 2", "ability": "Alpha Charge", "source": "red"}


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
            assert done["dice"][0]["for"] == "adjust blue: Alpha Charge rolled 2"
            for ws in (r, b):
                await ws.close()

    asyncio.run(run())
    status, listing = server.request("GET", "/games")
    assert next(g for g in listing["games"] if g["id"] == gid)["version"] == 4
