"""What one client may ask of the server, so that no client stalls the others or exhausts the
server's memory or files: the bounds of a game and an action (README "Play over the network":
limits), rate limits per client address (token buckets: a refusal says when to try again), and
how many connections an address may hold. Every number is a field of `Limits`, settable from
`battlefield serve`'s options, so tests can use small ones."""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from battlefield.scene.model import Scene


@dataclass(frozen=True)
class Limits:
    """The server's bounds (the defaults are the README's)."""

    idle_s: float = 30.0              # a connection with nothing (or half a request) sent
    ping_s: float = 20.0              # WebSocket pings; no answer within half of it: closed
    outbox_bytes: int = 1 << 20       # a client's unsent messages before it is disconnected
    creates_per_minute: float = 10.0  # new games per client address
    creates_burst: int = 10
    frames_per_second: float = 30.0   # WebSocket frames per client address
    frames_burst: int = 120
    engine_share: float = 0.1         # seconds of engine work per second, per client address
    previews_per_second: float = 25.0  # a seat's previews (server/preview.py), at most 25 at once
    engine_burst_s: float = 2.0
    connections_per_address: int = 64
    connections: int = 4000           # open connections in all
    path_points: int = 64             # points of one path of an action
    action_points: int = 2048         # points of all an action's paths
    scene_bytes: int = 256 * 1024     # a posted scene's text
    scene_models: int = 500           # models in a posted scene
    terrain_points: int = 2000        # corners of all a posted scene's terrain outlines
    idle_game_s: float = 300.0        # an unfinished game nobody is connected to: out of memory
    books: int = 16                   # games whose page versions are kept (the most recent)
    page_size: int = 50               # games listed per page (GET / and GET /games)
    proxies: tuple[str, ...] = ()     # reverse proxies in front: X-Forwarded-For names the client
    penalty_s: float = 10.0           # an address dropped for flooding: its connections refused

    def data_problem(self, data: Any) -> str | None:
        """Why a posted scene, as read from its YAML, has more models or terrain corners
        than one game may (counted before the scene is built and checked, which costs)."""
        if not isinstance(data, dict):
            return None                        # the scene's reader says what it is instead
        units = data.get("units")
        models = sum(len(u["models"]) for u in units if isinstance(u, dict)
                     and isinstance(u.get("models"), list)) if isinstance(units, list) else 0
        if models > self.scene_models:
            return (f"the scene has {models:,} models, more than the server's "
                    f"{self.scene_models:,} for one game")
        terrain = data.get("terrain")
        corners = sum(len(p["outline"]) for p in terrain if isinstance(p, dict)
                      and isinstance(p.get("outline"), list)) if isinstance(terrain, list) else 0
        if corners > self.terrain_points:
            return (f"the scene's terrain has {corners:,} corners, more than the server's "
                    f"{self.terrain_points:,}")
        return None

    def scene_problem(self, scene: Scene, size: int) -> str | None:
        """Why a posted scene is more than one game may cost (None: it is within bounds)."""
        if size > self.scene_bytes:
            return f"the scene is {size:,} bytes, more than the server's {self.scene_bytes:,}"
        models = sum(len(u.models) for u in scene.units)
        if models > self.scene_models:
            return (f"the scene has {models:,} models, more than the server's "
                    f"{self.scene_models:,} for one game")
        corners = sum(len(p.outline) for p in scene.terrain)
        if corners > self.terrain_points:
            return (f"the scene's terrain has {corners:,} corners, more than the server's "
                    f"{self.terrain_points:,}")
        return None

    def action_problem(self, raw: Any) -> str | None:
        """Why an act's action costs more than the server checks (None: within bounds): the
        points of its `path` and `paths` (a field the engine refuses is the engine's to say)."""
        if not isinstance(raw, dict):
            return None
        paths = []
        if isinstance(raw.get("path"), list):
            paths.append(("path", raw["path"]))
        if isinstance(raw.get("paths"), dict):
            paths.extend((f"paths.{k}", p) for k, p in raw["paths"].items()
                         if isinstance(p, list))
        total = 0
        for where, p in paths:
            if len(p) > self.path_points:
                return (f"{where} has {len(p):,} points, more than the server's "
                        f"{self.path_points} for one path")
            total += len(p)
        if total > self.action_points:
            return (f"the paths have {total:,} points in all, more than the server's "
                    f"{self.action_points:,} for one action")
        return None


def client_address(peer: str | None, forwarded: str | None, proxies: tuple[str, ...]) -> str:
    """The client's address: the connection's peer, or - when the peer is one of our reverse
    `proxies` - the last address its X-Forwarded-For header adds (the one it saw)."""
    if peer in proxies and forwarded:
        last = forwarded.split(",")[-1].strip()
        if last and len(last) <= 64:
            return last
    return peer or "?"


class Buckets:
    """A token bucket per key (a client address): `rate` tokens a second up to `burst`. Only
    the most recently used keys are kept (a key forgotten is a full bucket again, which costs
    an attacker nothing it did not have)."""

    def __init__(self, rate: float, burst: float, keep: int = 10000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.keep, self.clock = rate, float(burst), keep, clock
        self.levels: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def _level(self, key: str) -> float:
        now = self.clock()
        level, then = self.levels.pop(key, (self.burst, now))
        level = min(self.burst, level + (now - then) * self.rate)
        self.levels[key] = (level, now)
        while len(self.levels) > self.keep:
            self.levels.popitem(last=False)
        return level

    def take(self, key: str, cost: float = 1.0) -> float:
        """Spend `cost` tokens of `key`'s bucket; 0.0 when there were enough, else the seconds
        until there will be (nothing is spent then)."""
        level = self._level(key)
        if level >= cost:
            self.levels[key] = (level - cost, self.levels[key][1])
            return 0.0
        return (cost - level) / self.rate if self.rate > 0 else math.inf

    def charge(self, key: str, cost: float) -> None:
        """Spend `cost` whatever the level (work already done: the level may go below 0)."""
        level = self._level(key)
        self.levels[key] = (level - cost, self.levels[key][1])

    def wait(self, key: str) -> float:
        """Seconds until `key`'s bucket is above 0 again (0.0: it is)."""
        level = self._level(key)
        return 0.0 if level > 0 else (-level + 1e-3) / self.rate if self.rate > 0 else math.inf

    def used(self, key: str) -> float:
        """How far below full `key`'s bucket is (what it spent lately)."""
        return self.burst - self._level(key)


class Penalties:
    """Client addresses that kept on past their rate: their new connections are closed as they
    come, before a byte is read, for `seconds` (reading and refusing them would cost the
    server what the flood is meant to cost it)."""

    def __init__(self, seconds: float, keep: int = 10000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds, self.keep, self.clock = seconds, keep, clock
        self.until: OrderedDict[str, float] = OrderedDict()

    def punish(self, address: str) -> None:
        self.until.pop(address, None)
        self.until[address] = self.clock() + self.seconds
        while len(self.until) > self.keep:
            self.until.popitem(last=False)

    def refused(self, address: str) -> bool:
        until = self.until.get(address)
        if until is None:
            return False
        if self.clock() >= until:
            del self.until[address]
            return False
        return True


def retry_after(seconds: float) -> int:
    """A Retry-After header's whole seconds (at least 1)."""
    return max(1, math.ceil(seconds)) if math.isfinite(seconds) else 3600
