"""A client's connection to the server (aiohttp's WebSocket client): it connects, yields the
server's messages, and when the connection drops connects again with back-off (for `patience`
seconds at least), saying so with a `{"type": "status"}` message of its own. A first connection
that cannot be made (refused, no such host, no answer in CONNECT_S) is given up at once with
the reason: nothing was ever there to come back. What to do after a new hello (resume,
resend) is the caller's: the link knows nothing of the game.

ThreadedLink runs a Link on its own thread for the window, whose pygame loop polls it."""

from __future__ import annotations

import asyncio
import os
import queue
import random
import threading
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from battlefield.errors import UsageError
from battlefield.server import messages

FIRST_DELAY = 0.25
MAX_DELAY = 5.0
PATIENCE = 120.0             # seconds of failed attempts before giving up (at least 60)
CONNECT_S = 10.0             # seconds a first connection may take to be answered


def check_url(url: str) -> str:
    """A play URL (ws://HOST:PORT/games/ID/play?seat=TOKEN, or wss://, http(s):// taken as
    ws(s)://), or UsageError with one line."""
    parts = urlsplit(url)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    if scheme not in ("ws", "wss") or not parts.netloc or "/games/" not in parts.path:
        raise UsageError(f"{url}: not a game's address (expected "
                         f"ws://HOST:PORT/games/ID/play?seat=TOKEN)")
    path = parts.path if parts.path.endswith("/play") else parts.path.rstrip("/") + "/play"
    return f"{scheme}://{parts.netloc}{path}" + (f"?{parts.query}" if parts.query else "")


class GaveUp(Exception):
    """The server could not be reached for `patience` seconds, or refused the seat."""


class Link:
    """Messages from one game's WebSocket, across reconnections."""

    def __init__(self, url: str, patience: float = PATIENCE, seed: int = 0) -> None:
        self.url = check_url(url)
        self.patience = max(patience, 0.0)
        self.rng = random.Random(seed)       # the back-off's jitter
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.pending: list[str] = []         # to send, in order, once a hello is in
        self.wake: asyncio.Event | None = None
        self.status = "connecting"
        self._restart = False
        self._closed = False

    def send(self, msg: dict[str, Any]) -> None:
        """Send in order: now, or (while disconnected) after the next connection's hello."""
        self.pending.append(messages.dumps(msg))
        if self.wake is not None:
            self.wake.set()

    async def _writer(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        assert self.wake is not None
        while not ws.closed:
            while self.pending:
                text = self.pending[0]
                try:
                    await ws.send_str(text)
                except (ConnectionError, RuntimeError):
                    return                     # kept: sent again after the next hello
                self.pending.pop(0)
            self.wake.clear()
            await self.wake.wait()

    def restart(self) -> None:
        """Drop the connection and join again (a fresh hello)."""
        self._restart = True
        if self.ws is not None:
            asyncio.get_running_loop().create_task(self.ws.close())

    def close(self) -> None:
        self._closed = True
        if self.wake is not None:
            self.wake.set()
        if self.ws is not None:
            asyncio.get_running_loop().create_task(self.ws.close())

    async def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        loop = asyncio.get_running_loop()
        self.wake = asyncio.Event()
        timeout = aiohttp.ClientTimeout(total=None, sock_connect=CONNECT_S)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            failing_since: float | None = None
            delay = FIRST_DELAY
            connected = False            # ever: a first failure is final, a later one is not
            while not self._closed:
                try:
                    ws = await session.ws_connect(self.url, max_msg_size=0, heartbeat=30.0)
                except aiohttp.WSServerHandshakeError as exc:
                    if exc.status in (403, 404):
                        what = "no such seat" if exc.status == 403 else "no such game"
                        raise GaveUp(f"{self.url}: the server says {exc.status} ({what})"
                                     ) from None
                    if not connected:
                        raise GaveUp(f"{self.url}: the server says {exc.status} "
                                     f"({exc.message})") from None
                    ws = None
                except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as exc:
                    if not connected:
                        raise GaveUp(f"{self.url}: cannot connect ({_why(exc)})") from None
                    ws = None
                if ws is None:
                    now = loop.time()
                    failing_since = failing_since if failing_since is not None else now
                    if now - failing_since > self.patience:
                        raise GaveUp(f"{self.url}: no answer for {self.patience:.0f} s")
                    await asyncio.sleep(delay * (0.75 + 0.5 * self.rng.random()))
                    delay = min(delay * 2, MAX_DELAY)
                    continue
                failing_since, delay, connected = None, FIRST_DELAY, True
                self.ws = ws
                self.status = "connected"
                yield {"type": "status", "status": "connected"}
                writer: asyncio.Task[None] | None = None
                try:
                    async for msg in ws:
                        if msg.type != aiohttp.WSMsgType.TEXT:
                            break
                        try:
                            data = messages.read_server(msg.data)
                        except messages.FrameError:
                            continue
                        yield data
                        if writer is None and data.get("type") == "hello":
                            writer = loop.create_task(self._writer(ws))
                finally:
                    if writer is not None:
                        writer.cancel()
                    await ws.close()
                self.ws = None
                if self._closed:
                    break
                self.status = "reconnecting"
                if not self._restart:
                    yield {"type": "status", "status": "reconnecting"}
                self._restart = False


def _why(exc: BaseException) -> str:
    """Why a connection could not be made, in a few words ('connection refused')."""
    if isinstance(exc, asyncio.TimeoutError):
        return f"no answer in {CONNECT_S:.0f} s"
    cause = getattr(exc, "os_error", None) or exc
    code = getattr(cause, "errno", None)
    text = (os.strerror(code) if isinstance(code, int) and code > 0 else None) \
        or getattr(cause, "strerror", None) or str(cause) or type(cause).__name__
    return text[:1].lower() + text[1:]


class ThreadedLink:
    """A Link on its own thread and event loop: `poll()` gives the messages received so far,
    `send()` may be called from any thread (the window's)."""

    def __init__(self, url: str, patience: float = PATIENCE) -> None:
        self.url = check_url(url)
        self.patience = patience
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.loop = asyncio.new_event_loop()
        self.link: Link | None = None
        self.thread = threading.Thread(target=self._run, name="battlefield-link", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._main())

    async def _main(self) -> None:
        self.link = Link(self.url, self.patience)
        try:
            async for msg in self.link:
                self.inbox.put(msg)
        except GaveUp as exc:
            self.inbox.put({"type": "status", "status": "failed", "message": str(exc)})

    def poll(self) -> list[dict[str, Any]]:
        out = []
        while True:
            try:
                out.append(self.inbox.get_nowait())
            except queue.Empty:
                return out

    def send(self, msg: dict[str, Any]) -> None:
        if self.link is not None:
            self.loop.call_soon_threadsafe(self.link.send, msg)

    def restart(self) -> None:
        if self.link is not None:
            self.loop.call_soon_threadsafe(self.link.restart)

    def close(self) -> None:
        if self.link is not None:
            self.loop.call_soon_threadsafe(self.link.close)
        self.thread.join(timeout=2.0)
