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


async def _join(session, base: str, ws_base: str, battle) -> tuple[dict, dict]:
    """A new game of a recorded battle, both seats connected: (the game, side -> socket)."""
    text, seed, _ = battle
    game = await asyncio.to_thread(_request, base, "POST", "/games", {"scene": text,
                                                                      "seed": seed})
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
            if cid in waiting and data["type"] in ("event", "refused"):
                waiting.pop(cid).set_result(data)

    readers = [asyncio.ensure_future(read(ws)) for ws in socks.values()]
    answered = 0
    await asyncio.sleep(start)
    for k, (side, action) in enumerate(acts):
        if k:
            await asyncio.sleep(pace)
        cid = f"a{k}"
        done = asyncio.get_running_loop().create_future()
        waiting[cid] = done
        t0 = time.perf_counter()
        await socks[side].send_str(json.dumps({"type": "act", "id": cid, "action": action}))
        try:
            answer = await asyncio.wait_for(done, 60)
        except asyncio.TimeoutError:
            continue
        latencies.append((time.perf_counter() - t0) * 1000)
        if answer["type"] == "event" and answer["version"] == k + 1:
            answered += 1
    for ws in socks.values():
        await ws.close()
    for r in readers:
        r.cancel()
    return game["game"], len(acts), answered


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of process `pid` (Linux), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _load(base: str, battles: list, games: int, pace: float, pid: int) -> dict:
    import aiohttp

    ws_base = "ws" + base[4:]
    latencies: list[float] = []
    async with aiohttp.ClientSession() as session:
        chosen = [battles[i % len(battles)] for i in range(games)]
        joined = []
        for battle in chosen:              # made one by one before any game is timed
            joined.append(await _join(session, base, ws_base, battle))
        t0 = time.perf_counter()
        cpu0 = _cpu_seconds(pid)
        played = await asyncio.gather(*(_game(game, socks, battle, latencies, pace,
                                              pace * i / games)
                                        for i, ((game, socks), battle)
                                        in enumerate(zip(joined, chosen, strict=True))))
        seconds = time.perf_counter() - t0
        cpu1 = _cpu_seconds(pid)
    listing = {g["id"]: g for g in (await asyncio.to_thread(_request, base, "GET",
                                                              "/games"))["games"]}
    lost = sum(max(sent - listing[gid]["version"], sent - answered)
               for gid, sent, answered in played)
    over = sum(listing[gid]["over"] for gid, _, _ in played)
    q = statistics.quantiles(latencies, n=20) if len(latencies) > 1 else latencies * 19
    return {"server_action_ms_p95": round(q[18], 2),
            "server_action_ms_median": round(statistics.median(latencies), 2),
            "server_games": games, "server_actions": len(latencies),
            "server_lost_actions": lost, "server_games_over": over,
            "server_pace_s": pace, "server_load_s": round(seconds, 1),
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


if __name__ == "__main__":
    print(json.dumps(bench_server("--quick" in sys.argv), indent=2))
