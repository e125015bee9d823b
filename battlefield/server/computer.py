"""The computer as a seat of a game on the server (`POST /games` with `"computer": SIDE`): the
ruleset's computer player plays that side from what that seat may see - a Mirror fed the very
messages its WebSocket would get (server/seat.py, as `battlefield bot` keeps one), so it never
sees the other side's secret answers - and its choices go through the server's own act, checked
and stored like any seat's. It chooses on a worker thread (a choice may take a moment) and only
when the decision is its seat's. Which games have a computer seat is kept in the games' database
(its own table), so a server started again carries on playing them."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from collections.abc import Callable
from typing import Any

from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.server.seat import Seat

SCHEMA = """
CREATE TABLE IF NOT EXISTS computer_seats (
    game TEXT PRIMARY KEY,
    side TEXT NOT NULL
);
"""
MAX_REFUSED = 20          # refusals in a row before a computer seat gives up (its player is wrong)


class ComputerSeat:
    """One game's computer seat: its copy of the game and its player."""

    def __init__(self, game: Any, side: str, accept: Callable[[Any, str, Action, str], Any]
                 ) -> None:
        self.game, self.side, self.accept = game, side, accept
        self.seat = Seat(self._sent)
        self.player = registry.get(game.ruleset).player()
        self.busy = False
        self.refused = 0
        self.count = 0
        hello, after = game.hello(side)
        self.seat.receive(hello)
        for record in after:
            self.seat.receive(record.message(side))

    def _sent(self, msg: dict[str, Any]) -> None:
        """The seat's own messages (a resume, a resent act) need no network here."""

    def heard(self, record: Any) -> None:
        """An accepted action, as this seat hears of it."""
        self.seat.receive(record.message(self.side))
        self.seat.take_applied()

    async def play(self) -> None:
        """While the decision is this seat's: choose (off the event loop) and act."""
        if self.busy:
            return
        self.busy = True
        try:
            while (self.seat.mirror is not None and not self.game.over
                   and self.seat.mirror.in_step and self.seat.mirror.acting == self.side):
                state = self.seat.mirror.state.snapshot()
                action = await asyncio.to_thread(self.player.choose, state)
                self.count += 1
                key = f'"computer-{self.side}-{self.seat.mirror.version}-{self.count}"'
                if not self.accept(self.game, self.side, action, key):
                    self.refused += 1
                    if self.refused >= MAX_REFUSED:
                        print(f"game {self.game.id}: the computer ({self.side}) was refused "
                              f"{MAX_REFUSED} times in a row and stops", file=sys.stderr,
                              flush=True)
                        return
                else:
                    self.refused = 0
        finally:
            self.busy = False


class Computers:
    """The computer seats of a server's games."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.db.executescript(SCHEMA)
        self.seats: dict[str, ComputerSeat] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def add(self, game_id: str, side: str) -> None:
        self.db.execute("INSERT INTO computer_seats (game, side) VALUES (?, ?)", (game_id, side))

    def side(self, game_id: str) -> str | None:
        row = self.db.execute("SELECT side FROM computer_seats WHERE game = ?",
                              (game_id,)).fetchone()
        return row[0] if row else None

    def attach(self, game: Any, accept: Callable[[Any, str, Action, str], Any]) -> None:
        """A game now in memory: its computer seat joins it and plays if it is its turn."""
        side = self.side(game.id)
        if side is None or game.id in self.seats or game.over:
            return
        self.seats[game.id] = ComputerSeat(game, side, accept)
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


__all__ = ["Computers", "ComputerSeat"]
