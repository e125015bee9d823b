"""`battlefield serve` over real loopback sockets: a subprocess on a free port, WebSocket clients
from this process (aiohttp) and `battlefield bot` subprocesses. Two bots play a battle of every
playable ruleset and the served log replays with `battlefield replay`; a server SIGKILLed part
way and started again on the same database finishes the same game; a seat acting for the other
side is refused; a resent act is applied once; a spectator joining mid-game gets the players'
version; secret commitments do not reach the other seat or a spectator before the reveal; 200
malformed frames leave the server serving; an act resent after a restart is answered, not
applied again."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import aiohttp
import pytest
import yaml

from battlefield.cli.main import main
from battlefield.client.bot import run_bot
from battlefield.client.mirror import Mirror
from battlefield.errors import InputError
from battlefield.rules import log, registry
from battlefield.rules.battle import play
from battlefield.rules.state import Game
from battlefield.scene.load import load_scene_text
from battlefield.server.app import new_game
from battlefield.server.messages import MAX_FRAME, seed_sha256

from ._serve import PLAYABLE, Served, short_battle

SEED = 5


def _bots(served: Served, game: dict) -> list[dict]:
    """Both seats played by bots in this process; the `over` each saw. Neither ever found its
    copy of the game out of step with the server's, nor was refused anything."""
    said: list[str] = []

    async def both():
        return await asyncio.gather(*(
            run_bot(served.ws(game["game"], token), seed=i, patience=60, say=said.append)
            for i, token in enumerate(game["seats"].values())))
    overs = asyncio.run(both())
    assert not said, said
    return overs


def _simulated(ruleset: str, text: str, seed: int, tmp_path) -> str:
    state = play(Game(registry.get(ruleset), load_scene_text(text, "t"), seed))
    path = tmp_path / f"simulated-{ruleset}.jsonl"
    log.write(path, state, text)
    return path.read_text()


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_two_bots_play_a_battle_and_the_log_replays(server, ruleset, tmp_path, capsys):
    text = short_battle(ruleset)
    game = server.new_game(text, SEED)
    assert game["ruleset"] == ruleset and set(game["seats"]) == set(
        load_scene_text(text, "t").sides)
    assert game["watch"] == f"/games/{game['game']}"
    status, body = server.request("GET", f"/games/{game['game']}/log")
    assert status == 409 and "error" in body
    overs = _bots(server, game)
    assert overs[0] == overs[1] and overs[0]["seed"] == SEED and overs[0]["seed_verified"]
    status, text_log = server.request("GET", f"/games/{game['game']}/log")
    assert status == 200
    path = tmp_path / "served.jsonl"
    path.write_text(text_log)
    assert main(["replay", str(path)]) == 0
    assert "every state identical" in capsys.readouterr().out
    # Two seeded bots through the server play the game `simulate` plays.
    assert text_log == _simulated(ruleset, text, SEED, tmp_path)
    status, listing = server.request("GET", "/games")
    mine = next(g for g in listing["games"] if g["id"] == game["game"])
    assert mine == {"id": game["game"], "ruleset": ruleset, "version": overs[0]["version"],
                    "over": True}


def test_the_bot_command_plays_a_seat_and_prints_the_result(server):
    game = server.new_game("demo-skirmish", 2)
    red, blue = game["seats"].items()
    cmd = [sys.executable, "-m", "battlefield", "bot"]
    proc = subprocess.Popen([*cmd, server.ws(game["game"], red[1]), "--seed", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    over = asyncio.run(run_bot(server.ws(game["game"], blue[1]), say=lambda line: None))
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert out.startswith(f"game over after {over['version']} actions: ")
    assert "matches the seed_sha256" in out


def test_a_server_killed_part_way_loses_nothing(tmp_path):
    served = Served(tmp_path / "games.sqlite")
    try:
        ruleset = "skirmish"             # secret commitments across the restarts too
        text = short_battle(ruleset)
        game = served.new_game(text, SEED)

        async def run():
            bots = asyncio.gather(*(
                run_bot(served.ws(game["game"], token), seed=i, patience=60,
                        say=lambda line: None)
                for i, token in enumerate(game["seats"].values())))
            for at in (12, 30):
                # Part way (twice): killed, then started again on the same port and database.
                while True:
                    await asyncio.sleep(0.02)
                    _, listing = await asyncio.to_thread(served.request, "GET", "/games")
                    version = listing["games"][0]["version"]
                    if version >= at:
                        break
                served.kill()
                await asyncio.to_thread(served.start)
                _, listing = await asyncio.to_thread(served.request, "GET", "/games")
                assert listing["games"][0]["version"] >= version       # nothing lost
            return await bots

        overs = asyncio.run(run())
        assert overs[0]["version"] == overs[1]["version"]
        status, text_log = served.request("GET", f"/games/{game['game']}/log")
        assert status == 200
        assert text_log == _simulated(ruleset, text, SEED, tmp_path)   # the unbroken game
    finally:
        served.stop()


async def _join(session: aiohttp.ClientSession, url: str):
    ws = await session.ws_connect(url)
    hello = await ws.receive_json(timeout=30)
    assert hello["type"] == "hello"
    return ws, hello


async def _until(ws, kind: str, timeout: float = 30) -> dict:
    while True:
        msg = await ws.receive_json(timeout=timeout)
        if msg["type"] == kind:
            return msg


def test_seats_resends_and_spectators(server):
    game = server.new_game("demo-skirmish", 9)
    red, blue = game["seats"]
    gid = game["game"]

    async def run():
        async with aiohttp.ClientSession() as s:
            r, hello_r = await _join(s, server.ws(gid, game["seats"][red]))
            b, hello_b = await _join(s, server.ws(gid, game["seats"][blue]))
            assert hello_r["seat"] == red and hello_b["seat"] == blue
            assert hello_r["version"] == 0 and hello_r["game"] == gid
            assert hello_r["seed_sha256"] == seed_sha256(9)
            assert "seed" not in hello_r and "dice" not in hello_r["position"]["state"]
            mirror = Mirror(hello_r)
            player = registry.get("skirmish").player()
            action = player.choose(mirror.state).to_dict()
            # Blue sending red's action: refused, to blue alone.
            await b.send_json({"type": "act", "id": 1, "action": action})
            refused = await _until(b, "refused")
            assert refused["id"] == 1 and refused["violations"][0]["code"] == "not_your_seat"
            # Red sends it twice with one id: one event, answered twice, applied once.
            for _ in range(2):
                await r.send_json({"type": "act", "id": "r1", "action": action})
            first = await _until(r, "event")
            again = await _until(r, "event")
            assert first == again and first["version"] == 1 and first["id"] == "r1"
            assert first["by"] == red and first["action"] == action
            theirs = await _until(b, "event")
            assert theirs["version"] == 1 and "id" not in theirs
            assert {k: v for k, v in first.items() if k != "id"} == theirs
            _, listing = server.request("GET", "/games")
            assert next(g for g in listing["games"] if g["id"] == gid)["version"] == 1
            # An engine refusal: the engine's own violations.
            await r.send_json({"type": "act", "id": "r2", "action": {"type": "no-such"}})
            refused = await _until(r, "refused")
            assert refused["id"] == "r2" and refused["violations"][0]["code"]
            # A spectator joining now has the players' version, and acting is not for it.
            w, hello_w = await _join(s, server.ws(gid))
            assert hello_w["seat"] is None and hello_w["version"] == 1
            await w.send_json({"type": "act", "id": 5, "action": action})
            assert (await _until(w, "refused"))["violations"][0]["code"] == "not_your_seat"
            # resume since 0: every event again.
            await w.send_json({"type": "resume", "since": 0})
            assert (await _until(w, "event")) == theirs
            for ws in (r, b, w):
                await ws.close()

    asyncio.run(run())


def test_a_spectator_joining_mid_game_follows_the_players(server):
    game = server.new_game(short_battle("openwg"), 4)
    gid = game["game"]
    seen: list[dict] = []

    async def run():
        bots = asyncio.ensure_future(asyncio.gather(*(
            run_bot(server.ws(gid, token), seed=0, say=lambda line: None,
                    listen=seen.append if side == "red" else None)
            for side, token in game["seats"].items())))
        while not [m for m in seen if m["type"] == "event" and m["version"] >= 10]:
            await asyncio.sleep(0.02)
        async with aiohttp.ClientSession() as s:
            # The players' version: at least what red had heard of before the spectator came
            # (the bots play on meanwhile); the spectator then follows every event to the end.
            before = max(m["version"] for m in seen if m["type"] == "event")
            w, hello = await _join(s, server.ws(gid))
            assert 10 <= before <= hello["version"]
            mirror = Mirror(hello)
            while True:
                msg = await w.receive_json(timeout=60)
                if msg["type"] == "event":
                    mirror.receive(msg)
                elif msg["type"] == "over":
                    break
            await w.close()
        overs = await bots
        assert mirror.version == overs[0]["version"] and mirror.state.over
        return mirror

    mirror = asyncio.run(run())
    status, text_log = server.request("GET", f"/games/{gid}/log")
    assert status == 200
    assert json.loads(text_log.splitlines()[-1])["result"] == mirror.state.result().to_dict()


def test_secret_commitments_reach_no_one_else_before_the_reveal(server):
    game = server.new_game("demo-skirmish", 6)
    gid = game["game"]
    heard: dict[str, list[dict]] = {side: [] for side in game["seats"]}
    watched: list[dict] = []

    async def run():
        async with aiohttp.ClientSession() as s:
            w, _ = await _join(s, server.ws(gid))

            async def watch():
                while True:
                    msg = await w.receive_json(timeout=60)
                    watched.append(msg)
                    if msg["type"] == "over":
                        return

            watching = asyncio.ensure_future(watch())
            await asyncio.gather(*(
                run_bot(server.ws(gid, token), seed=0, say=lambda line: None,
                        listen=heard[side].append)
                for side, token in game["seats"].items()))
            await watching
            await w.close()

    asyncio.run(run())
    _, text_log = server.request("GET", f"/games/{gid}/log")
    actions = [json.loads(line)["action"] for line in text_log.splitlines()[1:]
               if "action" in json.loads(line)]
    events = [m for m in watched if m["type"] == "event"]
    assert [m["version"] for m in events] == list(range(1, len(actions) + 1))
    revealed_at = {x["version"]: m["version"] for m in events for x in m.get("reveal", [])}
    secret = [m for m in events if m["action"].get("secret")]
    assert secret
    for m in secret:
        k, side = m["version"], m["by"]
        assert m["action"] == {"type": "commit", "side": side, "secret": True}
        assert actions[k - 1]["type"] == "commit" and "tokens" in actions[k - 1]
        window = range(k, revealed_at[k])
        other = next(s for s in game["seats"] if s != side)
        for msgs in (watched, heard[other]):
            for x in msgs:
                if x["type"] != "event" or x["version"] not in window:
                    continue
                if x["version"] == k:
                    assert x["action"] == m["action"]
                assert not any(e["type"] == "revealed" for e in x["events"])
        mine = next(x for x in heard[side] if x["type"] == "event" and x["version"] == k)
        assert mine["action"] == actions[k - 1]
        reveal = next(x for x in events if x["version"] == revealed_at[k])
        assert {"version": k, "action": actions[k - 1]} in reveal["reveal"]


def test_malformed_frames_leave_the_server_serving(server):
    """A frame that is not a message (not JSON, too big, too deep, no type, no id) is an
    `error`; a well-formed act whose action has a bad field is `refused` with `bad_field`
    naming it, as `try --action` prints it ILLEGAL; the connection goes on playing."""
    game = server.new_game("demo-skirmish", 1)
    gid = game["game"]
    red = game["seats"]["red"]
    errors: list = [
        "not json", "{", "[]", "42", "null", '"text"', "{}", '{"type": 7}',
        '{"type": "dance"}', '{"type": "act"}', '{"type": "act", "id": 1}',
        '{"type": "act", "action": {"type": "end-turn"}}',
        '{"type": "act", "id": true, "action": {"type": "end-turn"}}',
        '{"type": "act", "id": [1], "action": {"type": "end-turn"}}',
        '{"type": "act", "id": 1.5, "action": {"type": "end-turn"}}',
        '{"type": "act", "id": 1' + "0" * 40 + ', "action": {"type": "end-turn"}}',
        '{"type": "resume"}', '{"type": "resume", "since": -1}',
        '{"type": "resume", "since": "0"}', '{"type": "resume", "since": NaN}',
        '{"type": "resume", "since": 5}',         # the game is at version 0: not "in step"
        "[" * 5000 + "]" * 5000,
        json.dumps({"type": "act", "id": 1, "action": {"type": "x", "pad": "x" * MAX_FRAME}}),
        b"\x00\x01binary",
    ]
    refusals: list[tuple[str, str]] = [     # (frame, the field its bad_field names)
        ('{"type": "act", "id": 1, "action": "end-turn"}', ""),
        ('{"type": "act", "id": 1, "action": {"unit": "red-spears"}}', "type"),
        ('{"type": "act", "id": 1, "action": {"type": "move", "path": [[1, NaN]]}}',
         "path[0][1]"),
        ('{"type": "act", "id": 1, "action": {"type": "move", "path": [[1, 1e999]]}}',
         "path[0][1]"),
        ('{"type": "act", "id": 1, "action": {"type": "move", "path": [[1, 1e12]]}}',
         "path[0][1]"),
        ('{"type": "act", "id": 1, "action": {"type": "move", "path": [[1, 1' + "0" * 50
         + ']]}}', "path[0][1]"),
        ('{"type": "act", "id": 1, "action": {"type": "move", "path": "here"}}', "path"),
        ('{"type": "act", "id": 1, "action": {"type": "move", "paths": {"x": [[1, 2]]}}}',
         "paths.x"),
        ('{"type": "act", "id": 1, "action": {"type": "move", "facing": "north"}}', "facing"),
        ('{"type": "act", "id": 1, "action": {"type": "end-turn", "note": Infinity}}', "note"),
    ]

    async def run():
        async with aiohttp.ClientSession() as s:
            ws, hello = await _join(s, server.ws(gid, red))
            for i in range(200):
                frame = errors[i % len(errors)]
                if isinstance(frame, bytes):
                    await ws.send_bytes(frame)
                else:
                    await ws.send_str(frame)
                msg = await ws.receive_json(timeout=30)
                assert msg["type"] == "error" and msg["message"] and "\n" not in msg["message"]
            for frame, field in refusals:
                await ws.send_str(frame)
                msg = await ws.receive_json(timeout=30)
                assert msg["type"] == "refused" and msg["id"] == 1, (frame, msg)
                (v,) = msg["violations"]
                assert v["code"] == "bad_field" and v["field"] == field, (frame, v)
                assert v["message"] and "\n" not in v["message"]
            # A resume's other keys are nobody's business: it is answered (nothing missed).
            await ws.send_str('{"type": "resume", "since": 0, "action": 1000000000001.0}')
            # The same connection still plays, and the server serves others.
            mirror = Mirror(hello)
            action = registry.get("skirmish").player().choose(mirror.state)
            await ws.send_json({"type": "act", "id": "ok", "action": action.to_dict()})
            assert (await ws.receive_json(timeout=30))["version"] == 1
            await ws.close()

    asyncio.run(run())
    status, listing = server.request("GET", "/games")
    assert status == 200 and any(g["id"] == gid and g["version"] == 1
                                 for g in listing["games"])
    assert server.proc.poll() is None


def test_http_answers(server):
    status, body = server.request("POST", "/games", {"scene": "no-such-scene"})
    assert status == 400
    cli = subprocess.run([sys.executable, "-m", "battlefield", "check", "no-such-scene"],
                         capture_output=True, text=True)
    assert cli.returncode == 2
    assert cli.stderr.strip() == f"battlefield check: {body['error']}"
    bad_yaml = "ruleset: skirmish\nboard: {width: 40}\nunits: []\n"
    status, body = server.request("POST", "/games", {"scene": bad_yaml})
    assert status == 400 and "\n" not in body["error"] and "board" in body["error"]
    status, body = server.request("POST", "/games", {
        "scene": "ruleset: skirmish\nmap: /etc/passwd\nunits: []\n"})
    assert status == 400 and "reads no files" in body["error"]
    for wrong in ({"seed": 1}, {"scene": 3}, {"scene": "demo", "seed": -1},
                  {"scene": "demo", "seed": "x"}, {"scene": "demo", "seed": 2 ** 64},
                  {"scene": "demo", "seed": 1.5}, {"scene": "demo", "seed": 10 ** 40}):
        status, body = server.request("POST", "/games", wrong)
        assert status == 400 and body["error"]
    status, body = server.request("POST", "/games", {"scene": "demo-skirmish",
                                                     "seed": 2 ** 64 - 1})
    assert status == 201 and body["game"]
    status, body = server.request("GET", "/games/nope/log")
    assert status == 404 and body["error"]
    game = server.new_game("demo-skirmish")
    status, body = server.request("GET", f"/games/{game['game']}")
    assert status == 200 and body["version"] == 0 and not body["over"]

    async def wrong_seat():
        async with aiohttp.ClientSession() as s:
            with pytest.raises(aiohttp.WSServerHandshakeError) as exc:
                await s.ws_connect(server.ws(game["game"], "not-a-token"))
            return exc.value.status

    assert asyncio.run(wrong_seat()) == 403


def test_a_game_is_not_made_of_a_scene_validate_refuses():
    """A unit without the stats its ruleset needs is refused as validate refuses it, not
    played with a Speed of 0 nobody stated."""
    data = yaml.safe_load(open("maps/demo-skirmish.yaml"))
    del data["units"][0]["stats"]
    with pytest.raises(InputError, match="red-spears has no speed"):
        new_game(yaml.safe_dump(data), 1)


def test_sigterm_stops_the_server_cleanly(tmp_path):
    served = Served(tmp_path / "g.sqlite")
    assert served.stop() == 0
    assert "Traceback" not in served.proc.stderr.read()


def test_sigint_stops_the_server_cleanly_too(tmp_path):
    import signal

    served = Served(tmp_path / "g.sqlite")
    assert served.proc is not None
    served.proc.send_signal(signal.SIGINT)
    assert served.proc.wait(timeout=60) == 0
    assert "Traceback" not in served.proc.stderr.read()


def test_serve_says_what_is_wrong_in_one_line(tmp_path, capsys):
    import socket

    assert main(["serve", "--port", "0", "--db", str(tmp_path / "no" / "such" / "g.db")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("battlefield serve: --db ") and "\n" not in err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", str(tmp_path / "g.db")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"battlefield serve: cannot listen on 127.0.0.1:{port}")
    assert main(["bot", "http://nowhere"]) == 2
    assert "not a game's address" in capsys.readouterr().err
    for patience in ("nan", "inf", "30"):      # nan was never giving up, silently
        assert main(["bot", "ws://127.0.0.1:1/games/g/play?seat=s", "--patience", patience]) == 2
        assert "60 seconds or more" in capsys.readouterr().err


def test_an_act_resent_after_a_restart_is_answered_not_applied_again(tmp_path):
    served = Served(tmp_path / "games.sqlite")
    try:
        game = served.new_game("demo-skirmish", 3)
        token = game["seats"]["red"]

        async def send(action: dict | None) -> tuple[dict, dict]:
            async with aiohttp.ClientSession() as s:
                ws, hello = await _join(s, served.ws(game["game"], token))
                if action is None:
                    action = registry.get("skirmish").player().choose(Mirror(hello).state
                                                                      ).to_dict()
                await ws.send_json({"type": "act", "id": "r1", "action": action})
                event = await _until(ws, "event")
                await ws.close()
                return hello, event

        _, first = asyncio.run(send(None))
        served.kill()
        served.start()
        hello, again = asyncio.run(send(first["action"]))
        assert hello["version"] == 1 and again == first
        _, listing = served.request("GET", "/games")
        assert listing["games"][0]["version"] == 1
    finally:
        served.stop()
