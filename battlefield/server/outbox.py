"""One WebSocket client of the server: its seat (None: a spectator) and its outgoing queue,
written by its own task so a slow client never holds up a game. The queue is bounded in bytes
(limits.Limits.outbox_bytes): a client that does not read is disconnected once it is that far
behind (it may join again and resume). A resume's events are made into text only as they are
written, so asking for a long game's whole history costs no memory up front."""

from __future__ import annotations

import asyncio
from collections import deque
from typing import TYPE_CHECKING, Any

from aiohttp import web

from battlefield.server import messages

if TYPE_CHECKING:
    from battlefield.server.games import LiveGame

BACKLOG = 1024       # bytes a queued resume counts for until its events are written


class Client:
    """One WebSocket: its seat (None: a spectator) and its outgoing queue - texts, and the
    events of a resume, made into texts only as they are written, so a client that does not
    read holds at most `limit` bytes of the server's memory before it is disconnected."""

    def __init__(self, ws: web.WebSocketResponse, seat: str | None,
                 transport: asyncio.BaseTransport | None = None, limit: int = 1 << 20) -> None:
        self.ws, self.seat, self.transport, self.limit = ws, seat, transport, limit
        self.items: deque[str | tuple[LiveGame, int, int] | None] = deque()
        self.size = 0
        self.wake = asyncio.Event()
        self.dropped = False
        self.ignored = 0                   # frames in a row not read for the rate
        self.task = asyncio.get_running_loop().create_task(self._write())

    def send(self, msg: dict[str, Any] | str) -> None:
        text = msg if isinstance(msg, str) else messages.dumps(msg)
        if self.dropped:
            return
        if self.size + len(text) > self.limit:
            self.drop()                    # too far behind: disconnected, it may resume
            return
        self.size += len(text)
        self.items.append(text)
        self.wake.set()

    def backlog(self, game: LiveGame, since: int, upto: int) -> None:
        """The events of versions since+1 .. upto, each as this client may see it (counted
        as BACKLOG bytes until written: a client sending resume after resume without reading
        is disconnected like any other too far behind)."""
        if since >= upto or self.dropped:
            return
        if self.size + BACKLOG > self.limit:
            self.drop()
            return
        self.size += BACKLOG
        self.items.append((game, since, upto))
        self.wake.set()

    def drop(self) -> None:
        """Disconnect at once (the socket aborted: nothing more is queued or written)."""
        self.dropped = True
        self.items.clear()
        self.items.append(None)
        self.wake.set()
        if self.transport is not None:
            self.transport.abort()

    async def _write(self) -> None:
        try:
            while True:
                while not self.items:
                    self.wake.clear()
                    await self.wake.wait()
                item = self.items.popleft()
                if item is None or self.ws.closed:
                    break
                if isinstance(item, str):
                    self.size -= len(item)
                    await self.ws.send_str(item)
                    continue
                game, since, upto = item
                self.size -= BACKLOG
                for v in range(since, upto):
                    if self.dropped:
                        break
                    await self.ws.send_str(messages.dumps(game.records[v].message(self.seat)))
        except (ConnectionError, RuntimeError):
            pass
        if not self.ws.closed and not self.dropped:
            await self.ws.close()

    async def finish(self) -> None:
        self.items.append(None)
        self.wake.set()
        await asyncio.gather(self.task, return_exceptions=True)
