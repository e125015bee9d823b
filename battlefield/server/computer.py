"""The games' computer seats (`POST /games` with `"computer": SIDE`). The seat itself is a client
in the server's process (client/computer.py: the ruleset's computer player fed what that seat's
WebSocket would get, acting through the server's own checks), handed to the Server by
`battlefield serve`: the server package does not import the client's side. Which games have a
computer seat is kept in the games' database (its own table), so a server started again
carries on playing them."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any, Protocol

from battlefield.rules.actions import Action
from battlefield.server.store import Store

SCHEMA = """
CREATE TABLE IF NOT EXISTS computer_seats (
    game TEXT PRIMARY KEY,
    side TEXT NOT NULL
);
"""


class Host(Protocol):
    """What a computer seat asks of the server that plays it (server/app.Server is one)."""

    async def hello(self, game: Any, side: str) -> tuple[dict[str, Any], list[Any]]:
        """The seat's hello and the records after its position, taken in the game's turn."""

    async def think(self, fn: Callable[..., Any], *args: Any) -> Any:
        """fn(*args) worked out on the server's engine threads."""

    async def accept(self, game: Any, side: str, action: Action, key: str) -> bool:
        """The seat's action checked, stored and told as any seat's act: accepted?"""


class SeatPlayer(Protocol):
    """What the server asks of a computer seat (client/computer.ComputerSeat is one)."""

    busy: bool

    def heard(self, record: Any) -> None: ...

    async def play(self) -> None: ...


SeatFactory = Callable[[Any, str, Host], SeatPlayer]


class Computers:
    """The computer seats of a server's games."""

    def __init__(self, store: Store, seat: SeatFactory | None, host: Host) -> None:
        self.store = store
        self.seat = seat           # None: this server plays no seat (POST /games refuses it)
        self.host = host
        with store.lock:
            store.db.executescript(SCHEMA)
        self.seats: dict[str, SeatPlayer] = {}
        self.known: dict[str, str | None] = {}     # game -> its computer's side, as read
        self.tasks: set[asyncio.Task[None]] = set()

    def add(self, game_id: str, side: str) -> None:
        with self.store.lock:
            self.store.db.execute("INSERT INTO computer_seats (game, side) VALUES (?, ?)",
                                  (game_id, side))
        self.known[game_id] = side

    def side(self, game_id: str) -> str | None:
        """The side the server plays in this game (None: none), kept in the database."""
        if game_id in self.known:
            return self.known[game_id]
        with self.store.lock:
            row = self.store.db.execute("SELECT side FROM computer_seats WHERE game = ?",
                                        (game_id,)).fetchone()
        side = self.known[game_id] = row[0] if row else None
        if len(self.known) > 10000:
            self.known.clear()
        return side

    def attach(self, game: Any) -> None:
        """A game now in memory: its computer seat joins it and plays if it is its turn."""
        if self.seat is None or game.id in self.seats or game.over:
            return
        side = self.side(game.id)
        if side is None:
            return
        self.seats[game.id] = self.seat(game, side, self.host)
        self.poke(game)

    def forget(self, game_id: str) -> None:
        """The game left memory: its seat too (attached again when it is rebuilt)."""
        self.seats.pop(game_id, None)

    def heard(self, game: Any, record: Any) -> None:
        """An action was accepted in `game`: its computer seat hears of it, and plays when
        the decision is now its."""
        seat = self.seats.get(game.id)
        if seat is None:
            return
        seat.heard(record)
        if game.over:
            self.seats.pop(game.id, None)
            return
        self.poke(game)

    def poke(self, game: Any) -> None:
        seat = self.seats.get(game.id)
        if seat is None or seat.busy:
            return
        task = asyncio.get_running_loop().create_task(seat.play())
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            print(f"a computer seat failed: {type(exc).__name__}: {exc}", file=sys.stderr,
                  flush=True)

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


__all__ = ["Computers", "Host", "SeatFactory", "SeatPlayer"]
