"""A client of a game, whatever its transport and whoever chooses its actions (the bot's
computer player, the window's person): it keeps the Mirror in step from the server's messages,
says `resume` after a new hello, resends its unanswered act (same id: the server applies it at
most once), and remembers what the window shows (connected or not, the last refusal, the game's
end). It sends through a callable, so the bot (asyncio) and the window (a pygame loop polling a
thread) share it."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from battlefield.client.mirror import Mirror, OutOfStep
from battlefield.rules.actions import Action


class Seat:
    """One client's side of the protocol (a seat, or a spectator when the hello has none)."""

    def __init__(self, send: Callable[[dict[str, Any]], None]) -> None:
        self.send = send
        self.mirror: Mirror | None = None
        self.unanswered: dict[str, Any] | None = None   # the act sent, not answered yet
        self.status = "connecting"                      # connected, reconnecting, failed
        self.over: dict[str, Any] | None = None
        self.refused: dict[str, Any] | None = None       # the last refusal of our act
        self.errors: list[str] = []                      # the server's error lines
        self.applied: list[dict[str, Any]] = []          # events applied since last taken
        self.out_of_step: str | None = None              # why the copy was dropped
        self.fresh = False                               # a new Mirror since last taken
        self.count = 0

    @property
    def state(self) -> Any:
        return None if self.mirror is None else self.mirror.state

    @property
    def seat(self) -> str | None:
        return None if self.mirror is None else self.mirror.seat

    def receive(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "status":
            self.status = str(msg.get("status"))
        elif kind == "hello":
            self._hello(msg)
        elif kind == "event" and self.mirror is not None:
            if self.unanswered is not None and msg.get("id") == self.unanswered["id"]:
                self.unanswered = None
            try:
                self.applied.extend(self.mirror.receive(msg))
            except OutOfStep as exc:
                self.out_of_step = str(exc)      # the caller joins again: a fresh hello
                self.mirror = None
        elif kind == "refused":
            if self.unanswered is not None and msg.get("id") == self.unanswered["id"]:
                self.unanswered = None
                self.refused = msg
        elif kind == "over":
            ok = self.mirror is not None and hashlib.sha256(
                str(msg.get("seed")).encode()).hexdigest() == self.mirror.seed_sha256
            self.over = {**msg, "seed_verified": ok}
            if self.mirror is not None:
                self.mirror.over = msg
        elif kind == "error":
            self.errors.append(str(msg.get("message")))

    def _hello(self, msg: dict[str, Any]) -> None:
        self.status = "connected"
        if self.mirror is None or self.mirror.game_id != msg["game"]:
            self.mirror = Mirror(msg)
            self.fresh = True
            self.out_of_step = None
        else:
            self.mirror.heard(int(msg["version"]))
            if self.mirror.version < int(msg["version"]):
                self.send({"type": "resume", "since": self.mirror.version})
        if self.unanswered is not None:
            self.send(self.unanswered)

    def ready(self) -> bool:
        """Our seat's decision, every event applied, nothing of ours unanswered."""
        return (self.mirror is not None and self.unanswered is None and self.over is None
                and self.mirror.my_turn())

    def act(self, action: Action) -> str:
        """Send `action` (the server checks it again and answers with its event)."""
        assert self.mirror is not None
        self.count += 1
        cid = f"{self.mirror.seat}-{self.mirror.version}-{self.count}"
        self.unanswered = {"type": "act", "id": cid, "action": action.to_dict()}
        self.refused = None
        self.send(self.unanswered)
        return cid

    def take_applied(self) -> list[dict[str, Any]]:
        out, self.applied = self.applied, []
        return out
