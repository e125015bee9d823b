"""The computer as a seat of a game on a server (`POST /games` with `"computer": SIDE`): the
ruleset's computer player plays that side from what that seat may see - a Seat (client/seat.py,
as `battlefield bot` keeps one) fed the very messages its WebSocket would get, so it never sees
the other side's secret answers - and its choices go through the server's own act, checked and
stored like any seat's.

A client living in the server's process: `battlefield serve` hands this class to the server
(server/computer.py keeps the games' computer seats and never imports the client's side). Its
host (the server) gives the hello in the game's turn, works out on its engine threads what costs
(the mirror following the game, the player's choice) and takes its actions."""

from __future__ import annotations

import sys
from typing import Any

from battlefield.client.seat import Seat
from battlefield.rules import registry
from battlefield.rules.actions import Action

MAX_REFUSED = 20          # refusals in a row before a computer seat gives up (its player is wrong)


class ComputerSeat:
    """One game's computer seat: its copy of the game and its player."""

    def __init__(self, game: Any, side: str, host: Any) -> None:
        self.game, self.side, self.host = game, side, host
        self.seat = Seat(self._sent)
        self.player = registry.get(game.ruleset).player()
        self.busy = False
        self.joined = False
        self.inbox: list[dict[str, Any]] = []   # what it heard, not yet followed
        self.refused = 0
        self.count = 0

    def _sent(self, msg: dict[str, Any]) -> None:
        """The seat's own messages (a resume, a resent act) need no network here."""

    def heard(self, record: Any) -> None:
        """An accepted action, as this seat hears of it (followed by play, off the loop).
        Before it joined, the hello it asks for has it."""
        if self.joined:
            self.inbox.append(record.message(self.side))

    def _follow(self, messages: list[dict[str, Any]]) -> None:
        for msg in messages:
            self.seat.receive(msg)
            self.seat.take_applied()

    def _choose(self) -> Action | None:
        m = self.seat.mirror
        if m is None or not m.in_step or m.acting != self.side:
            return None
        return self.player.choose(m.state.snapshot())

    async def play(self) -> None:
        """While the decision is this seat's: follow the game, choose and act."""
        if self.busy:
            return
        self.busy = True
        try:
            if not self.joined:
                hello, after = await self.host.hello(self.game, self.side)
                self.joined = True                  # what is broadcast from now on is heard
                self.inbox[:0] = [hello, *(r.message(self.side) for r in after)]
            while not self.game.over:
                if self.inbox:
                    todo, self.inbox = self.inbox, []
                    await self.host.think(self._follow, todo)
                    continue
                action = await self.host.think(self._choose)
                if self.inbox:
                    continue                        # the game moved on meanwhile
                if action is None:
                    return                          # not its decision
                self.count += 1
                version = self.seat.mirror.version if self.seat.mirror is not None else 0
                key = f'"computer-{self.side}-{version}-{self.count}"'
                if await self.host.accept(self.game, self.side, action, key):
                    self.refused = 0
                    continue
                self.refused += 1
                if self.refused >= MAX_REFUSED:
                    print(f"game {self.game.id}: the computer ({self.side}) was refused "
                          f"{MAX_REFUSED} times in a row and stops", file=sys.stderr,
                          flush=True)
                    return
        finally:
            self.busy = False


__all__ = ["ComputerSeat", "MAX_REFUSED"]
