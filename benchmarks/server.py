"""The game server under load, for benchmarks/run.py.

- server_action_ms_p95 / _median: from an `act` sent until its `event` comes back to the sender,
  with server_games games (50) played at once against one `battlefield serve` on loopback (a
  subprocess, its database in a temporary folder). The load is one asyncio process replaying
  the actions of recorded battles (the demo battles of skirmish and openwg over a few seeds,
  played once beforehand by the computer players), both seats connected, so the server, not a
  computer player, is what is measured. Each game sends its next action server_pace_s (1 s, a
  quick player) after the last one's event came back, the games' first actions spread over
  that second. Target p95 <= 50 ms on this 2-core machine.
- server_lost_actions: actions sent but not in the game afterwards (its version in GET /games
  short of the actions sent, or an act never answered by its event). Must be 0.
- server_actions: the actions timed; server_cpu_ms_per_action: the server process's CPU time
  (Linux /proc) over the actions it took, nearly all of it the engine's check and apply: one
  process serves about 1000 / that many actions a second, whatever the number of games.

Quick mode: 2 games of skirmish's last round, 0.05 s between actions.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

GAMES = 50
PACE_S = 1.0
HANG_S = 900.0     # an act unanswered this long is a hang (counted lost), not a slow machine
BATTLES = (("skirmish", 1), ("skirmish", 2), ("skirmish", 3), ("openwg", 1), ("openwg", 2))


def record(ruleset: str, seed: int, quick: bool) -> tuple[str, int, list[tuple[str, dict]]]:
    """(scene text, seed, [(the acting side, the action)]) of one computer battle."""
    from battlefield.rules import registry
    from battlefield.rules.deploy import battle_scene
    from battlefield.rules.state import Game
    from battlefield.scene.load import load_scene_text

    text, name = battle_scene(ruleset, None)
    if quick:
        text = text.replace("\nunits:", "\nstate: {round: 6}\nunits:", 1)
    rules = registry.get(ruleset)
    state = Game(rules, load_scene_text(text, name), seed).new_state(keep_undo=False)
    players = {side: rules.player() for side in state.sides}
    acts = []
    while not state.over:
        side = state.acting_side
        action = players[side].choose(state)
        state.apply(action, checked=True)
        acts.append((side, action.to_dict()))
    return text, seed, acts


def _request(base: str, method: str, path: str, body: Any = None) -> Any:
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def source(group: int, k: int) -> str:
    """The loopback address client k of a group speaks from (127.0.0.0/8 is all this machine):
    every honest game and every attacker is its own client address to the server's limits."""
    return f"127.{group}.{1 + k // 250}.{1 + k % 250}"


def _session(address: str):
    import aiohttp

    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0),
                                                                limit=0))


async def _post_game(session, base: str, body: dict) -> dict:
    """POST /games, waiting out a 429's Retry-After."""
    while True:
        async with session.post(base + "/games", json=body) as r:
            if r.status == 429:
                await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
                continue
            answer = await r.json()
            if r.status != 201:
                raise AssertionError(f"POST /games: {r.status} {answer}")
            return answer


async def _join(session, base: str, ws_base: str, battle) -> tuple[dict, dict]:
    """A new game of a recorded battle, both seats connected: (the game, side -> socket)."""
    text, seed, _ = battle
    game = await _post_game(session, base, {"scene": text, "seed": seed})
    socks = {}
    for side, token in game["seats"].items():
        socks[side] = await session.ws_connect(f"{ws_base}/games/{game['game']}/play"
                                               f"?seat={token}")
        hello = await socks[side].receive_json()
        assert hello["type"] == "hello"
    return game, socks


async def _game(game: dict, socks: dict, battle, latencies: list[float], pace: float,
                start: float) -> tuple[str, int, int]:
    """Play one recorded battle through the server; (game id, actions sent, answered)."""
    import aiohttp

    acts = battle[2]
    waiting: dict[str, asyncio.Future[dict]] = {}

    async def read(ws: aiohttp.ClientWebSocketResponse) -> None:
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(msg.data)
            cid = data.get("id")
            if cid in waiting and (data["type"] in ("event", "refused")
                                   or data["type"] == "error" and data.get("retry_after")):
                waiting.pop(cid).set_result(data)

    readers = [asyncio.ensure_future(read(ws)) for ws in socks.values()]
    answered = 0
    await asyncio.sleep(start)
    for k, (side, action) in enumerate(acts):
        if k:
            await asyncio.sleep(pace)
        cid = f"a{k}"
        t0 = time.perf_counter()
        try:
            while True:
                done = asyncio.get_running_loop().create_future()
                waiting[cid] = done
                await socks[side].send_str(json.dumps({"type": "act", "id": cid,
                                                       "action": action}))
                # no deadline but a hang's: a slow machine's answers come late, not never
                answer = await asyncio.wait_for(done, HANG_S)
                if answer["type"] != "error":
                    break
                # the server's rate (slow_down): the act was not taken; sent again after
                # the wait it names, as the play page and bot do
                await asyncio.sleep(answer["retry_after"])
        except asyncio.TimeoutError:
            continue
        except (aiohttp.ClientError, ConnectionError):    # dropped: the rest count as lost
            print(f"game {game['game']}: the connection dropped at action {k + 1}",
                  file=sys.stderr, flush=True)
            break
        latencies.append((time.perf_counter() - t0) * 1000)
        if answer["type"] == "event" and answer["version"] == k + 1:
            answered += 1
    for ws in socks.values():
        await ws.close()
    for r in readers:
        r.cancel()
    return game["game"], len(acts), answered


async def _listing(base: str, ids: set[str]) -> dict[str, dict]:
    """GET /games, every page, for the games `ids`."""
    out: dict[str, dict] = {}
    path: str | None = "/games"
    while path is not None and not ids <= set(out):
        page = await asyncio.to_thread(_request, base, "GET", path)
        out.update({g["id"]: g for g in page["games"]})
        path = page.get("next")
    return out


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of process `pid` (Linux), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _load(base: str, battles: list, games: int, pace: float, pid: int) -> dict:
    ws_base = "ws" + base[4:]
    latencies: list[float] = []
    sessions = [_session(source(1, i)) for i in range(games)]     # a player's address each
    try:
        chosen = [battles[i % len(battles)] for i in range(games)]
        joined = []
        for session, battle in zip(sessions, chosen, strict=True):
            joined.append(await _join(session, base, ws_base, battle))   # before any is timed
        t0 = time.perf_counter()
        cpu0 = _cpu_seconds(pid)
        played = await asyncio.gather(*(_game(game, socks, battle, latencies, pace,
                                              pace * i / games)
                                        for i, ((game, socks), battle)
                                        in enumerate(zip(joined, chosen, strict=True))))
        seconds = time.perf_counter() - t0
        cpu1 = _cpu_seconds(pid)
    finally:
        for session in sessions:
            await session.close()
    listing = await _listing(base, {gid for gid, _, _ in played})
    lost = sum(max(sent - listing[gid]["version"], sent - answered)
               for gid, sent, answered in played)
    over = sum(listing[gid]["over"] for gid, _, _ in played)
    q = statistics.quantiles(latencies, n=20) if len(latencies) > 1 else latencies * 19
    return {"server_action_ms_p95": round(q[18], 2),
            "server_action_ms_median": round(statistics.median(latencies), 2),
            "server_games": games, "server_actions": len(latencies),
            "server_lost_actions": lost, "server_games_over": over,
            "server_pace_s": pace, "server_load_s": round(seconds, 1),
            "server_cpu_share": (round((cpu1 - cpu0) / seconds, 2)
                                 if cpu0 is not None and cpu1 is not None else None),
            "server_cpu_ms_per_action": (round((cpu1 - cpu0) * 1000 / len(latencies), 2)
                                         if cpu0 is not None and cpu1 is not None
                                         and latencies else None)}


def bench_server(quick: bool = False, games: int | None = None) -> dict:
    games = games or (2 if quick else GAMES)
    battles = [record(r, s, quick) for r, s in (BATTLES[:1] if quick else BATTLES)]
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([sys.executable, "-m", "battlefield", "serve", "--port", "0",
                                 "--db", str(Path(tmp) / "bench.sqlite")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            if not line.startswith("serving on "):
                raise AssertionError(f"the server did not start: {line}{proc.stderr.read()}")
            out = asyncio.run(_load(line.split()[-1], battles, games,
                                    0.05 if quick else PACE_S, proc.pid))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    if out["server_lost_actions"] or out["server_games_over"] != games:
        raise AssertionError(f"the server lost actions: {out}")
    return out


# --- under attack ---------------------------------------------------------------------------------
def heavy_scene(models: int = 500, per_unit: int = 50) -> str:
    """The costliest game the server takes (its limits: 500 models, 256 KiB): skirmish units of
    `per_unit` models in ranks, 20 terrain pieces across the middle of a 72" x 48" board."""
    import yaml

    w, d = 72.0, 48.0
    doc: dict = {"ruleset": "skirmish", "name": "heavy", "board": {"width": w, "depth": d},
                 "terrain": [], "units": []}
    for i in range(20):
        x = 4 + i * 3.4
        doc["terrain"].append({"id": f"t{i}", "outline": [[x, 20], [x + 2, 20], [x + 2, 28],
                                                          [x, 28]],
                               "height": 2 + i % 3, "kind": "obstacle" if i % 2 else "area"})
    stats = {"speed": 6, "range": 18, "strike": 1, "hit": 4, "damage": 1, "toughness": 1,
             "cover": 1, "initiative": 3, "melee": 0}
    for u in range(models // per_unit):
        side, k = ("red", u // 2) if u % 2 == 0 else ("blue", u // 2)
        x0 = 2 + (k % 3) * 23
        y0 = 2 + (k // 3) * 8 if side == "red" else d - 2 - (k // 3) * 8
        ms = []
        for j in range(per_unit):
            r, c = divmod(j, 20)
            ms.append({"base": 25, "at": [round(x0 + c * 1.05, 3),
                                          round(y0 + (r if side == "red" else -r) * 1.05, 3)]})
        doc["units"].append({"id": f"{side}-{u}", "side": side, "stats": stats, "models": ms})
    return yaml.safe_dump(doc, sort_keys=False)


def _zigzag(x: float, y: float, n: int, forward: float) -> list[list[float]]:
    """A path of n points that wanders a hundredth of an inch side to side, `forward` along y:
    legal, and every point of it checked."""
    return [[round(x + (i % 2) * 0.01, 4), round(y + forward * i / (n - 1), 4)]
            for i in range(n)]


async def _heavy_player(base: str, address: str, stop: asyncio.Event, count: list[int]) -> None:
    """An attacker playing both seats of the heaviest game with the costliest legal acts (64
    point paths of 50-model units), each sent as soon as the last is answered."""
    ws_base = "ws" + base[4:]
    async with _session(address) as session:
        game = await _post_game(session, base, {"scene": heavy_scene(), "seed": 1})
        socks = {side: await session.ws_connect(f"{ws_base}/games/{game['game']}/play"
                                                f"?seat={token}")
                 for side, token in game["seats"].items()}
        hello = await socks["red"].receive_json()
        await socks["blue"].receive_json()
        at = {u["id"]: u["models"][0]["at"] for u in hello["position"]["units"]}
        units = {side: [u["id"] for u in hello["position"]["units"] if u["side"] == side]
                 for side in socks}
        side, k, n = "red", 0, 0
        while not stop.is_set():
            if k < 2:
                uid = units[side][(n // 2) % len(units[side])]
                x, y = at[uid]
                step = 0.02 if side == "red" else -0.02
                action = {"type": "move", "unit": uid, "path": _zigzag(x, y, 64, step)}
            else:
                action = {"type": "end-turn"}
            n += 1
            await socks[side].send_json({"type": "act", "id": n, "action": action})
            while True:
                msg = await socks[side].receive_json()
                if msg.get("id") == n or msg["type"] == "error":
                    break
            if msg["type"] == "error" and msg.get("retry_after"):
                await asyncio.sleep(float(msg["retry_after"]))
                continue
            count[0] += 1
            if msg["type"] == "event":
                for e in msg["events"]:
                    if e["type"] == "moved":
                        at[e["unit"]] = [at[e["unit"]][0], e["to"][1]]
                k = 0 if action["type"] == "end-turn" else k + 1
                if action["type"] == "end-turn":
                    side = "blue" if side == "red" else "red"
            else:
                k = 2                          # refused: the turn is ended
        for ws in socks.values():
            await ws.close()


async def _upgrade(port: int, address: str, path: str):
    """A WebSocket opened by hand, never to be read again: (reader, writer)."""
    import base64

    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  f"Sec-WebSocket-Version: 13\r\n\r\n").encode())
    await reader.readuntil(b"\r\n\r\n")
    return reader, writer


def _frame(payload: dict) -> bytes:
    """A client's (masked) WebSocket text frame."""
    import struct

    data = json.dumps(payload).encode()
    mask = os.urandom(4)
    n = len(data)
    head = bytes([0x81, 0x80 | n]) if n < 126 else bytes([0x81, 0xFE]) + struct.pack("!H", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


async def _resume_flood(port: int, path: str, k: int, stop: asyncio.Event) -> None:
    """A socket that asks for a finished game's whole history again and again and never reads
    (joined again whenever the server drops it)."""
    resume = _frame({"type": "resume", "since": 0}) * 50
    while not stop.is_set():
        try:
            _, writer = await _upgrade(port, source(4, k // 15), path)
            while not stop.is_set() and not writer.is_closing():
                writer.write(resume)
                await asyncio.wait_for(writer.drain(), 2)
                await asyncio.sleep(2)
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError):
            pass
        await asyncio.sleep(1)


async def _idle(port: int, k: int, stop: asyncio.Event) -> None:
    """A connection that says nothing (opened again whenever the server closes it)."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(source(5, k // 50), 0))
            read = asyncio.ensure_future(reader.read())
            done = asyncio.ensure_future(stop.wait())
            await asyncio.wait([read, done], return_when=asyncio.FIRST_COMPLETED)
            read.cancel()
            done.cancel()
            writer.close()
        except OSError:
            await asyncio.sleep(1)


async def _creation_flood(base: str, stop: asyncio.Event, count: list[int]) -> None:
    """New games as fast as one client can ask for them (most are refused 429). It asks at
    least a burst and a few more before it heeds `stop`, so that a refusal is there to count
    however slowly this machine ran the rest (the limit is per minute, not per second)."""
    from battlefield.server.limits import Limits

    least = Limits().creates_burst + 3
    async with _session(source(6, 0)) as session:
        while not stop.is_set() or sum(count) < least:
            async with session.post(base + "/games", json={"scene": "demo-skirmish"}) as r:
                count[r.status == 201] += 1
            await asyncio.sleep(0.02)


def _peak_mb(pid: int) -> float | None:
    """The peak resident memory of process `pid` (Linux VmHWM), in MB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


async def _attack(base: str, path: str, attackers: dict[str, int]) -> dict:
    """Every attacker at once until SIGTERM (a process of its own, so that its work is not the
    honest players' process's): what they did."""
    import signal

    port = int(base.rsplit(":", 1)[1])
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    heavy, made = [0], [0, 0]
    tasks = [asyncio.ensure_future(_heavy_player(base, source(3, k), stop, heavy))
             for k in range(attackers["heavy"])]
    tasks += [asyncio.ensure_future(_resume_flood(port, path, k, stop))
              for k in range(attackers["resume"])]
    tasks += [asyncio.ensure_future(_idle(port, k, stop)) for k in range(attackers["idle"])]
    tasks.append(asyncio.ensure_future(_creation_flood(base, stop, made)))
    await stop.wait()
    await asyncio.wait(tasks, timeout=20)
    for t in tasks:
        t.cancel()
    return {**attackers, "heavy_acts": heavy[0], "games_made": made[1],
            "games_refused": made[0]}


async def _attacked(base: str, battles: list, games: int, pace: float, pid: int,
                    attackers: dict[str, int]) -> dict:
    async with _session(source(7, 0)) as session:       # a finished game for the floods
        game, socks = await _join(session, base, "ws" + base[4:], battles[0])
        await _game(game, socks, battles[0], [], 0.0, 0.0)
    path = f"/games/{game['game']}/play"
    attack = await asyncio.create_subprocess_exec(
        sys.executable, str(Path(__file__).resolve()), "--attackers", base, path,
        json.dumps(attackers), stdout=asyncio.subprocess.PIPE)
    await asyncio.sleep(5)                   # the attack under way before the players start
    cpu0, t0 = _cpu_seconds(attack.pid), time.perf_counter()
    mine0 = time.process_time()
    try:
        out = await _load(base, battles, games, pace, pid)
    finally:
        cpu1, t1 = _cpu_seconds(attack.pid), time.perf_counter()
        mine1 = time.process_time()
        attack.terminate()
        said, _ = await attack.communicate()
    shares = {"attackers": (cpu1 - cpu0) / (t1 - t0) if cpu0 is not None and cpu1 is not None
              else None, "players": (mine1 - mine0) / (t1 - t0),
              "load_average": os.getloadavg()[0]}
    return {"server_action_ms_p95_under_attack": out["server_action_ms_p95"],
            "server_action_ms_median_under_attack": out["server_action_ms_median"],
            "server_lost_actions_under_attack": out["server_lost_actions"],
            "server_actions_under_attack": out["server_actions"],
            "server_peak_mb_under_attack": _peak_mb(pid),
            "server_cpu_share_under_attack": out["server_cpu_share"],
            "server_attack_cpu": {k: round(v, 2) if v is not None else None
                                  for k, v in shares.items()},
            "server_attack": json.loads(said or b"{}")}


ATTACKERS = {"heavy": 4, "resume": 150, "idle": 2000}


def bench_server_attack(quick: bool = False, games: int | None = None) -> dict:
    """50 honest games (one action a second each, every one from its own address) while
    attackers play the heaviest acts allowed, flood resumes from sockets that never read, hold
    2,000 idle connections and flood game creation: the honest acts' p95 and the server's
    peak memory."""
    games = games or (2 if quick else GAMES)
    attackers = {"heavy": 1, "resume": 10, "idle": 50} if quick else ATTACKERS
    if os.environ.get("BATTLEFIELD_ATTACKERS"):      # other numbers, for an experiment
        attackers = {**attackers, **json.loads(os.environ["BATTLEFIELD_ATTACKERS"])}
    battles = [record(r, s, quick) for r, s in (BATTLES[:1] if quick else BATTLES)]
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "serve.log"
        with open(log, "w", encoding="utf-8") as err:
            proc = subprocess.Popen([sys.executable, "-m", "battlefield", "serve", "--port",
                                     "0", "--db", str(Path(tmp) / "bench.sqlite")],
                                    stdout=subprocess.PIPE, stderr=err, text=True,
                                    env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            if not line.startswith("serving on "):
                raise AssertionError(f"the server did not start: {line}{log.read_text()}")
            out = asyncio.run(_attacked(line.split()[-1], battles, games,
                                        0.05 if quick else PACE_S, proc.pid, attackers))
        finally:
            proc.terminate()
            proc.wait(timeout=60)
        out["server_log_lines_under_attack"] = len(log.read_text().splitlines())
    if out["server_lost_actions_under_attack"]:
        raise AssertionError(f"the server lost actions under attack: {out}")
    return out


if __name__ == "__main__":
    if sys.argv[1:2] == ["--attackers"]:          # the attackers' own process (above)
        print(json.dumps(asyncio.run(_attack(sys.argv[2], sys.argv[3],
                                             json.loads(sys.argv[4])))))
    elif "--attack" in sys.argv:
        print(json.dumps(bench_server_attack("--quick" in sys.argv), indent=2))
    else:
        print(json.dumps(bench_server("--quick" in sys.argv), indent=2))
