"""One game on the server: the engine's State (the authority), the accepted actions as the
clients hear of them, who holds which seat, and what each client may see. No rules live here:
an act is checked with State.check and carried out with State.apply; the server compares the
seat it came from with the side the engine says may send it (State.sender: `not_your_seat`),
and keeps which answers stay secret until their batch is revealed (the engine's
rules.decisions.hidden / shown)."""

from __future__ import annotations

import json
import secrets
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from battlefield.errors import BattlefieldError
from battlefield.rules import decisions, log, registry
from battlefield.rules.actions import Action, Violation
from battlefield.rules.position import plain
from battlefield.rules.state import Game, State
from battlefield.rules.trial import scene_after
from battlefield.scene.load import load_scene_text
from battlefield.server.messages import dumps, seed_sha256


@dataclass
class Record:
    """One accepted action, as the clients hear of it."""

    version: int
    by: str                                  # the seat (side) that sent it
    action: dict[str, Any]                   # the action in full
    shown: dict[str, Any] | None             # what the other clients see while it is secret
    events: list[dict[str, Any]]
    dice: list[dict[str, Any]]               # the rolls it made, in order
    client_key: str                          # the act's id as JSON
    reveal: list[dict[str, Any]] | None = None   # the secret answers this action revealed

    def message(self, viewer: str | None) -> dict[str, Any]:
        """The event as `viewer` (a side; None: a spectator) hears of it."""
        own = viewer == self.by
        msg: dict[str, Any] = {"type": "event", "version": self.version, "by": self.by,
                               "action": self.action if own or self.shown is None
                               else self.shown,
                               "events": self.events, "dice": self.dice}
        if own:
            msg["id"] = json.loads(self.client_key)
        if self.reveal is not None:
            msg["reveal"] = self.reveal
        return msg


class Refused(Exception):
    """An act the game will not take: the violations the sender gets."""

    def __init__(self, violations: list[dict[str, Any]]) -> None:
        super().__init__("; ".join(v["code"] for v in violations))
        self.violations = violations


Persist = Callable[[int, str, str, dict[str, Any], bool], None]


class LiveGame:
    """A game being played: the state and everything said about it so far."""

    def __init__(self, game_id: str, ruleset: str, scene_text: str, scene_name: str,
                 seed: int | str, seats: dict[str, str], seeded: bool = True) -> None:
        self.id, self.ruleset, self.seed = game_id, ruleset, seed
        self.seeded = seeded                 # the creator chose the seed: its dice foreseeable
        self.scene_text, self.scene_name = scene_text, scene_name
        self.seats = dict(seats)                           # side -> token
        self.tokens = {t: s for s, t in seats.items()}     # token -> side
        # files=False: a `map:` in a client's scene is a bundled map, never a file of ours
        scene = load_scene_text(scene_text, scene_name, files=False)
        self.state: State = Game(registry.get(ruleset), scene, seed).new_state(
            keep_undo=False)
        self.finished = self.state.over      # kept here: the loop reads it while a worker acts
        self.records: list[Record] = []
        self.by_id: dict[tuple[str, str], int] = {}        # (side, act id) -> version
        self.secret: list[int] = []          # versions of secret answers not yet revealed
        self.clear: tuple[int, State] | None = None    # the last moment with no secret answer
        self.log_text: str | None = None
        self.clients: set[Any] = set()       # the server's connections (server/app.py)
        self.touched = time.monotonic()      # when a client last acted or joined
        self._position: tuple[int, str] | None = None    # the hello's position, as JSON
        self._over: dict[str, Any] | None = None

    @staticmethod
    def fresh_seed() -> str:
        """A secret seed: 256 bits from the operating system's random source, as 64 hex
        digits (never all digits: a seed of digits is a number, rules/dice.py)."""
        while True:
            seed = secrets.token_hex(32)
            if not seed.isdigit():
                return seed

    @staticmethod
    def new_seats(sides: list[str]) -> dict[str, str]:
        """Unguessable seat tokens (the operating system's cryptographic random source)."""
        return {side: secrets.token_urlsafe(24) for side in sides}

    @property
    def version(self) -> int:
        return len(self.records)

    @property
    def over(self) -> bool:
        return self.finished

    @property
    def seed_sha256(self) -> str:
        return seed_sha256(self.seed)

    # --- acting ------------------------------------------------------------------------------
    def seat_refusal(self, side: str, action: Action) -> list[dict[str, Any]]:
        """`not_your_seat` when the engine says another side may send `action` now
        (State.sender: the acting side, or the side of the decision it answers); the server
        never reads the sender from the action's own fields."""
        sender = self.state.sender(action)
        if sender == side:
            return []
        return [Violation("not_your_seat", f"this seat plays {side}; {action.type} is "
                                           f"{sender}'s to send now").to_dict()]

    def answered(self, side: str, client_key: str) -> Record | None:
        """The event of an act this seat already sent with this id (a resend)."""
        v = self.by_id.get((side, client_key))
        return None if v is None else self.records[v - 1]

    def act(self, side: str, action: Action, client_key: str,
            persist: Persist | None = None) -> Record:
        """Check and carry out `action` sent by seat `side`; Refused when it may not be
        taken. `persist(version, side, client_key, action, over)` stores it before anyone
        hears of it; if it (or the engine) raises, the game is as before."""
        state = self.state
        if state.over:
            raise Refused([{"code": "game_over", "message": "the battle is over"}])
        if bad := self.seat_refusal(side, action):
            raise Refused(bad)
        violations = state.check(action)
        if violations:
            raise Refused([v.to_dict() for v in violations])
        hidden = bool(state.pending) and decisions.hidden(state, action)
        # A snapshot only where it is needed: the last moment before a secret answer (the
        # hello's position while it is outstanding). An action that fails part-way, or whose
        # record cannot be stored, leaves the state to be rebuilt from the actions before it.
        before = state.snapshot() if hidden and not self.secret else None
        shown = decisions.shown(state, action) if hidden else None
        start = len(state.dice.log)
        try:
            events = state.apply(action, checked=True)
        except Exception:
            self._rebuild()
            raise
        version = self.version + 1
        full = action.to_dict()
        record = Record(version, side, full, shown, _plain(events),
                        [r.to_dict() for r in state.dice.log[start:]], client_key)
        if persist is not None:
            try:
                persist(version, side, client_key, full, state.over)
            except Exception:
                self._rebuild()
                raise
        if hidden:
            if before is not None:
                self.clear = (version - 1, before)
            self.secret.append(version)
        elif self.secret and not state.answers:        # the batch is complete: revealed
            record.reveal = [{"version": v, "action": self.records[v - 1].action}
                             for v in self.secret]
            self.secret, self.clear = [], None
        self.records.append(record)
        self.by_id[(side, client_key)] = version
        self.finished = state.over
        return record

    # --- taking back ---------------------------------------------------------------------------
    def retract_problem(self, side: str, to: int) -> list[dict[str, Any]]:
        """Why seat `side` may not take the game back to version `to` (nothing: it may).
        Only its own actions since the other side last acted, and none whose dice were rolled
        or that revealed a secret batch (both seats have seen those), in a game not over."""
        if self.over:
            return [Violation("game_over", "the battle is over: its actions stand").to_dict()]
        if not 0 <= to < self.version:
            return [Violation("nothing_to_retract", f"version {to}: expected one before the "
                                                    f"game's {self.version}").to_dict()]
        for record in self.records[to:]:
            n = record.version
            if record.by != side:
                return [Violation("answered", f"action {n} is {record.by}'s: a seat takes back "
                                              f"only its own actions since the other side "
                                              f"last acted").to_dict()]
            if record.dice:
                return [Violation("dice_rolled", f"action {n} rolled dice both seats have "
                                                 f"seen: it stands").to_dict()]
            if record.reveal is not None:
                return [Violation("revealed", f"action {n} revealed a secret batch: it "
                                              f"stands").to_dict()]
        return []

    def retractable(self, side: str) -> int | None:
        """The version before seat `side`'s last action when it may take that action back."""
        if not self.records or self.records[-1].by != side:
            return None
        to = self.version - 1
        return None if self.retract_problem(side, to) else to

    def retract(self, side: str, to: int, cut: Callable[[int], None] | None = None) -> int:
        """Take seat `side`'s actions after version `to` back (Refused: why not): the state
        is the engine's again from the scene and the actions kept, `cut(to)` drops the others
        from the database first. Returns how many were taken back."""
        if bad := self.retract_problem(side, to):
            raise Refused(bad)
        kept = self.records[:to]
        state = Game(self.state.rules, self.state.scene, self.seed).new_state(keep_undo=False)
        at_start = len(state.dice.log)        # rolled as the battle began (a priority roll)
        for record in kept:
            state.apply(Action.from_dict(record.action))
        if len(state.dice.log) - at_start != sum(len(r.dice) for r in kept):
            raise RuntimeError(f"game {self.id}: replaying {to} actions rolled other dice")
        if cut is not None:
            cut(to)
        n = self.version - to
        self.state, self.records = state, kept
        self.by_id = {k: v for k, v in self.by_id.items() if v <= to}
        self.secret = [v for v in self.secret if v <= to]
        if not self.secret:
            self.clear = None
        self.finished = state.over
        self._position = self._over = None
        self.touched = time.monotonic()
        return n

    def _rebuild(self) -> None:
        """The state again from the scene and the accepted actions (after a failure)."""
        state = Game(self.state.rules, self.state.scene, self.seed).new_state(keep_undo=False)
        for record in self.records:
            state.apply(Action.from_dict(record.action))
        self.state = state
        self.finished = state.over
        if self.secret:
            again = Game(self.state.rules, self.state.scene, self.seed).new_state(
                keep_undo=False)
            for record in self.records[:self.secret[0] - 1]:
                again.apply(Action.from_dict(record.action))
            self.clear = (self.secret[0] - 1, again)

    # --- what a client sees ------------------------------------------------------------------
    def hello(self, seat: str | None) -> tuple[dict[str, Any], list[Record]]:
        """The hello for a client holding `seat`, and the events to send after it: the
        position is the last one without secret answers (the events after it follow, each as
        this client may see it)."""
        version, state = self.clear if self.clear is not None else (self.version, self.state)
        scene = scene_after(state)
        scene["state"].pop("dice", None)        # the dice generator's position: never told
        msg = {"type": "hello", "game": self.id, "seat": seat, "version": self.version,
               "seed_sha256": self.seed_sha256, "seeded": self.seeded, "ruleset": self.ruleset,
               "sides": list(self.state.sides), "position_version": version,
               "position": scene}
        return msg, self.records[version:]

    def hello_text(self, seat: str | None) -> tuple[str, int, int]:
        """The hello as JSON text, the version its position is at and the game's version (the
        events between follow it). The position's text is made once per position: a thousand
        clients joining cost one."""
        version = self.clear[0] if self.clear is not None else self.version
        if self._position is None or self._position[0] != version:
            msg, _ = self.hello(seat)
            self._position = (version, dumps(msg["position"]))
        head = {"type": "hello", "game": self.id, "seat": seat, "version": self.version,
                "seed_sha256": self.seed_sha256, "seeded": self.seeded,
                "ruleset": self.ruleset, "sides": list(self.state.sides),
                "position_version": version}
        return dumps(head)[:-1] + ',"position":' + self._position[1] + "}", version, \
            self.version

    def over_message(self) -> dict[str, Any]:
        """The `over` message: the result and the seed, whose text hashes to seed_sha256."""
        if self._over is None or self._over["version"] != self.version:
            self._over = {"type": "over", "version": self.version,
                          "result": _plain(self.state.result().to_dict()), "seed": self.seed}
        return self._over

    def log(self) -> str:
        """The game's log exactly as `simulate --log` writes it (the game is over)."""
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "game.jsonl"
            log.write(path, self.state, self.scene_text)
            return path.read_text(encoding="utf-8")


def replayed(game_id: str, ruleset: str, scene_text: str, scene_name: str, seed: int | str,
             seats: dict[str, str], actions: list[tuple[str, str, dict[str, Any]]],
             seeded: bool = True) -> LiveGame:
    """A stored game rebuilt by replaying its accepted actions (each one again, as it was)."""
    game = LiveGame(game_id, ruleset, scene_text, scene_name, seed, seats, seeded)
    for side, key, data in actions:
        try:
            game.act(side, Action.from_dict(data), key)
        except Refused as exc:
            raise BattlefieldError(f"game {game_id}: stored action {game.version + 1} no "
                                   f"longer applies ({exc})") from None
    return game


def _plain(value: Any) -> Any:
    return plain(value)
