"""One game on the server: the engine's State (the authority), the accepted actions as the
clients hear of them, who holds which seat, and what each client may see. No rules live here:
an act is checked with State.check and carried out with State.apply; the server adds only whose
seat may send it (`not_your_seat`) and which answers stay secret until their batch is revealed
(the engine's rules.decisions.hidden / shown)."""

from __future__ import annotations

import json
import secrets
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from battlefield.errors import BattlefieldError, UnknownUnit
from battlefield.rules import adjust, decisions, log, registry
from battlefield.rules.actions import Action, Violation
from battlefield.rules.position import plain
from battlefield.rules.state import Game, State
from battlefield.rules.trial import scene_after
from battlefield.scene.load import load_scene_text
from battlefield.server.messages import seed_sha256


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
                 seed: int, seats: dict[str, str]) -> None:
        self.id, self.ruleset, self.seed = game_id, ruleset, seed
        self.scene_text, self.scene_name = scene_text, scene_name
        self.seats = dict(seats)                           # side -> token
        self.tokens = {t: s for s, t in seats.items()}     # token -> side
        scene = load_scene_text(scene_text, scene_name)
        self.state: State = Game(registry.get(ruleset), scene, seed).new_state(
            keep_undo=False)
        self.records: list[Record] = []
        self.by_id: dict[tuple[str, str], int] = {}        # (side, act id) -> version
        self.secret: list[int] = []          # versions of secret answers not yet revealed
        self.clear: tuple[int, State] | None = None    # the last moment with no secret answer
        self.log_text: str | None = None
        self.clients: set[Any] = set()       # the server's connections (server/app.py)

    @staticmethod
    def new_seats(sides: list[str]) -> dict[str, str]:
        """Unguessable seat tokens (the operating system's cryptographic random source)."""
        return {side: secrets.token_urlsafe(24) for side in sides}

    @property
    def version(self) -> int:
        return len(self.records)

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def seed_sha256(self) -> str:
        return seed_sha256(self.seed)

    # --- acting ------------------------------------------------------------------------------
    def sides_of(self, action: Action) -> set[str]:
        """The sides `action` is for: the side it names, its unit's side, else the side of the
        decision it answers or the side whose turn it is; an adjustment is its proposer's."""
        state = self.state
        if action.type == adjust.ADJUST:       # the proposer's, whatever unit it changes
            return {action.side or state.acting_side}
        out = set()
        if action.side is not None:
            out.add(action.side)
        if action.unit is not None:
            try:
                out.add(state.side_of(state.unit_index(action.unit)))
            except (KeyError, UnknownUnit):
                pass                         # the engine's check names the unit
        if not out:
            d = decisions.addressed(state, action) if state.pending else None
            out.add(d.side if d is not None else state.acting_side)
        return out

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
        others = sorted(s for s in self.sides_of(action) if s != side)
        if others:
            raise Refused([Violation("not_your_seat",
                                     f"this seat plays {side}; {action.type} is for "
                                     f"{', '.join(others)}").to_dict()])
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
        return record

    def _rebuild(self) -> None:
        """The state again from the scene and the accepted actions (after a failure)."""
        state = Game(self.state.rules, self.state.scene, self.seed).new_state(keep_undo=False)
        for record in self.records:
            state.apply(Action.from_dict(record.action))
        self.state = state
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
               "seed_sha256": self.seed_sha256, "ruleset": self.ruleset,
               "sides": list(self.state.sides), "position_version": version,
               "position": scene}
        return msg, self.records[version:]

    def over_message(self) -> dict[str, Any]:
        return {"type": "over", "version": self.version,
                "result": _plain(self.state.result().to_dict()), "seed": self.seed}

    def log(self) -> str:
        """The game's log exactly as `simulate --log` writes it (the game is over)."""
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "game.jsonl"
            log.write(path, self.state, self.scene_text)
            return path.read_text(encoding="utf-8")


def replayed(game_id: str, ruleset: str, scene_text: str, scene_name: str, seed: int,
             seats: dict[str, str], actions: list[tuple[str, str, dict[str, Any]]]
             ) -> LiveGame:
    """A stored game rebuilt by replaying its accepted actions (each one again, as it was)."""
    game = LiveGame(game_id, ruleset, scene_text, scene_name, seed, seats)
    for side, key, data in actions:
        try:
            game.act(side, Action.from_dict(data), key)
        except Refused as exc:
            raise BattlefieldError(f"game {game_id}: stored action {game.version + 1} no "
                                   f"longer applies ({exc})") from None
    return game


def _plain(value: Any) -> Any:
    return plain(value)
