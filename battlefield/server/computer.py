"""The games' computer seats (`POST /games` with `"computer": SIDE`). The seat itself is a client
in the server's process (client/computer.py: the ruleset's computer player fed what that seat's
WebSocket would get, acting through the server's own checks), handed to the Server by
`battlefield serve`: the server package does not import the client's side. Which games have a
computer seat is kept in the games' database (its own table), so a server started again
carries on playing them."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from collections.abc import Callable
from typing import Any, Protocol

from battlefield.rules.actions import Action

SCHEMA = """
CREATE TABLE IF NOT EXISTS computer_seats (
    game TEXT PRIMARY KEY,
    side TEXT NOT NULL
);
"""
Accept = Callable[[Any, str, Action, str], Any]     # (game, side, action, act id): accepted?


class SeatPlayer(Protocol):
    """What the server asks of a computer seat (client/computer.ComputerSeat is one)."""

    busy: bool

    def heard(self, record: Any) -> None: ...

    async def play(self) -> None: ...


SeatFactory = Callable[[Any, str, Accept], SeatPlayer]


class Computers:
    """The computer seats of a server's games."""

    def __init__(self, db: sqlite3.Connection, seat: SeatFactory | None = None) -> None:
        self.db = db
        self.seat = seat           # None: this server plays no seat (POST /games refuses it)
        self.db.executescript(SCHEMA)
        self.seats: dict[str, SeatPlayer] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def add(self, game_id: str, side: str) -> None:
        self.db.execute("INSERT INTO computer_seats (game, side) VALUES (?, ?)", (game_id, side))

    def side(self, game_id: str) -> str | None:
        row = self.db.execute("SELECT side FROM computer_seats WHERE game = ?",
                              (game_id,)).fetchone()
        return row[0] if row else None

    def attach(self, game: Any, accept: Accept) -> None:
        """A game now in memory: its computer seat joins it and plays if it is its turn."""
        side = self.side(game.id)
        if side is None or game.id in self.seats or game.over or self.seat is None:
            return
        self.seats[game.id] = self.seat(game, side, accept)
        self.poke(game)

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


__all__ = ["Accept", "Computers", "SeatFactory", "SeatPlayer"]
