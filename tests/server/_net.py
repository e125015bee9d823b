"""Helpers for the attack tests: the server in this process on a real loopback socket (its
objects at hand), clients from chosen loopback addresses (127.0.0.0/8 is all this machine, so
each test is a different client address to the server's per-address limits), raw sockets that
speak half a request or a WebSocket that never reads, and the server process's memory."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from battlefield.server.app import Server
from battlefield.server.connections import CountedSite
from battlefield.server.limits import Limits

from ._serve import HANG


class Running:
    """`async with Running(db, limits) as r:` a Server on 127.0.0.1:r.port, r.server its
    object."""

    def __init__(self, db: Path, limits: Limits) -> None:
        self.db, self.limits = db, limits

    async def __aenter__(self) -> Running:
        self.server = Server(self.db, self.limits)
        self.runner = web.AppRunner(self.server.app(), handle_signals=False, access_log=None,
                                    keepalive_timeout=self.limits.idle_s)
        await self.runner.setup()
        site = CountedSite(self.runner, "127.0.0.1", 0, self.limits, self.server.penalties)
        await site.start()
        self.port = self.runner.addresses[0][1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.runner.cleanup()
        self.server.store.close()

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, game: str, token: str | None = None) -> str:
        return (f"ws://127.0.0.1:{self.port}/games/{game}/play"
                + (f"?seat={token}" if token else ""))


def session(source: str) -> aiohttp.ClientSession:
    """An HTTP and WebSocket client connecting from loopback address `source`."""
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0),
                                                                force_close=True))


async def post_game(s: aiohttp.ClientSession, base: str, scene: str,
                    seed: int | None = None) -> tuple[int, dict[str, Any], Any]:
    """POST /games: (status, headers, the JSON answer)."""
    body = {"scene": scene, **({"seed": seed} if seed is not None else {})}
    async with s.post(base + "/games", json=body) as r:
        return r.status, dict(r.headers), await r.json()


async def until(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    """The next message of type `kind` (others skipped)."""
    while True:
        msg = await ws.receive_json(timeout=HANG)
        if msg["type"] == kind:
            return msg


def raw(port: int, source: str, rcvbuf: int | None = None) -> socket.socket:
    """A plain TCP connection to the server from `source`."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def closed_by_server(sock: socket.socket, wait: float = HANG) -> bool:
    """Whether the server closes `sock` (an end of file or a reset; what it sent before is
    read and dropped) within `wait` seconds, a bound for a hung test, not a measure."""
    sock.settimeout(wait)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except OSError:
        return True            # reset
    return True


def open_now(socks: list[socket.socket]) -> list[bool]:
    """Whether each socket is still open (nothing read: the server neither closed nor reset
    it), asked without waiting."""
    out = []
    for sock in socks:
        sock.setblocking(False)
        try:
            out.append(sock.recv(1) != b"")
        except BlockingIOError:
            out.append(True)
        except OSError:
            out.append(False)
        sock.setblocking(True)
    return out


def websocket(port: int, source: str, path: str, rcvbuf: int = 4096) -> socket.socket:
    """A WebSocket opened by hand (the upgrade's answer read, nothing after it): a client
    that will never read again, with a small receive buffer."""
    sock = raw(port, source, rcvbuf)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  f"Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def frame(payload: dict[str, Any]) -> bytes:
    """A client's (masked) WebSocket text frame."""
    data = json.dumps(payload).encode()
    mask = os.urandom(4)
    n = len(data)
    head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else
                            bytes([0x80 | 126]) + struct.pack("!H", n))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def rss_mb(pid: int) -> float:
    """The resident memory of process `pid` (Linux /proc), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")
