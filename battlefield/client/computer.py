"""The computer as a seat of a game on a server (`POST /games` with `"computer": SIDE`): the
ruleset's computer player plays that side from what that seat may see - a Seat (client/seat.py,
as `battlefield bot` keeps one) fed the very messages its WebSocket would get, so it never sees
the other side's secret answers - and its choices go through the server's own act (`accept`),
checked and stored like any seat's. It chooses on a worker thread (a choice may take a moment)
and only when the decision is its seat's.

A client living in the server's process: `battlefield serve` hands this class to the server
(server/computer.py keeps the games' computer seats and never imports the client's side)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any

from battlefield.client.seat import Seat
from battlefield.rules import registry
from battlefield.rules.actions import Action

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


__all__ = ["ComputerSeat", "MAX_REFUSED"]
