"""The listening socket: each connection counted against its client address (limits.Limits
connections_per_address, connections) before aiohttp sees it, so one address cannot take every
file the server may open; a connection past the bound, or from an address lately dropped for
flooding (limits.Penalties), is closed at once. Idle connections are
aiohttp's to close (its keep-alive timeout runs from the connection's start: nothing sent, or
half a request, for `idle_s`); a joined WebSocket is kept by its pings."""

from __future__ import annotations

import asyncio
import logging
import resource
from collections import Counter
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from battlefield.server.limits import Limits, Penalties


class _NoClientErrors(logging.Filter):
    """aiohttp logs a request it cannot parse (a client's garbage, answered 400) with a
    traceback: a client could fill the server's log with them. Those are dropped; anything
    else it logs is kept."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, HttpProcessingError)


def quiet_client_errors() -> None:
    """Keep clients' malformed requests out of the server's log (once per process)."""
    logger = logging.getLogger("aiohttp.server")
    if not any(isinstance(f, _NoClientErrors) for f in logger.filters):
        logger.addFilter(_NoClientErrors())


def more_files() -> int:
    """Raise this process's open-file limit to the most the system allows it (a server holds
    a socket per client); returns the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        want = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return soft


class Connections:
    """Open connections per client address."""

    def __init__(self, limits: Limits, penalties: Penalties | None = None) -> None:
        self.limits = limits
        self.penalties = penalties
        self.open: Counter[str] = Counter()
        self.total = 0

    def admit(self, address: str) -> bool:
        """Whether a new connection from `address` may be served: not past the bounds, nor
        from an address lately dropped for flooding (a reverse proxy's connections are only
        counted in all: its clients are counted by their own addresses past it)."""
        per_address = self.limits.connections_per_address
        if (self.total >= self.limits.connections
                or address not in self.limits.proxies and (
                    self.open[address] >= per_address
                    or self.penalties is not None and self.penalties.refused(address))):
            return False
        self.open[address] += 1
        self.total += 1
        return True

    def release(self, address: str) -> None:
        self.total -= 1
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


class _Counted(asyncio.Protocol):
    """aiohttp's protocol for one connection, behind the count of its address."""

    def __init__(self, inner: Any, counts: Connections) -> None:
        self.inner, self.counts = inner, counts
        self.address: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if not self.counts.admit(address):
            transport.abort()                  # past its bound: closed before a byte is read
            return
        self.address = address
        self.inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.address is None:
            return
        self.counts.release(self.address)
        self.address = None
        self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.address is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.address is not None else None

    def pause_writing(self) -> None:
        if self.address is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.address is not None:
            self.inner.resume_writing()


class CountedSite(web.BaseSite):
    """A TCP site whose connections are counted per address first (Connections)."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int, limits: Limits,
                 penalties: Penalties | None = None) -> None:
        super().__init__(runner, backlog=128)   # accepted at most 128 a loop turn
        self.host, self.port = host, port
        self.counts = Connections(limits, penalties)

    @property
    def name(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        assert server is not None
        self._server = await asyncio.get_running_loop().create_server(
            lambda: _Counted(server(), self.counts), self.host, self.port,
            backlog=self._backlog, reuse_address=True)
