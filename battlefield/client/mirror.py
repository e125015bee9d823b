"""A client's own copy of a game, kept in step with the server without knowing the seed.

The client starts from the position in `hello` (the scene with its `state:`, without the dice
generator's position) and applies every event's action itself with the event's dice injected
as fixed dice (rules/dice.py), so its State is the server's, roll for roll; a roll that does
not match, or an action its engine refuses, means it is out of step (OutOfStep: the caller
joins again and starts from a fresh hello).

A secret answer of another side arrives without its value (`"action": {"type": "commit",
"side": "red", "secret": true}`). The mirror keeps a snapshot, answers that decision with a
stand-in (its first choice: no answer of a batch but the last rolls dice or changes anything
but the answers given), so whose decision it is stays right; the event that completes the batch
carries `reveal` (the secret answers by version), and the mirror goes back to the snapshot and
applies the actions since with their real values."""

from __future__ import annotations

from collections import deque
from typing import Any

import yaml

from battlefield.rules import registry
from battlefield.rules.actions import Action
from battlefield.rules.state import Game, State
from battlefield.scene.load import load_scene_text


class OutOfStep(Exception):
    """The copy no longer matches the server's game (it should never happen)."""


def _masked(action: dict[str, Any]) -> bool:
    return action.get("secret") is True and set(action) <= {"type", "side", "secret"}


class Mirror:
    """The game as one client (a seat or a spectator) sees it, from its hello on."""

    def __init__(self, hello: dict[str, Any]) -> None:
        self.game_id: str = hello["game"]
        self.seat: str | None = hello["seat"]
        self.ruleset: str = hello["ruleset"]
        self.seed_sha256: str = hello["seed_sha256"]
        text = yaml.safe_dump(hello["position"], sort_keys=False)
        scene = load_scene_text(text, f"game {self.game_id}")
        # The seed is the server's secret: every roll comes from the events as fixed dice.
        self.state: State = Game(registry.get(self.ruleset), scene, 0).new_state(
            keep_undo=False)
        self.version: int = int(hello["position_version"])
        self.known: int = int(hello["version"])      # the latest version the server told of
        self.buffer: dict[int, dict[str, Any]] = {}
        self.before: State | None = None             # before the first stand-in answer
        self.held: list[tuple[int, Action | None, list[dict[str, Any]]]] = []
        self.over: dict[str, Any] | None = None
        self.last: dict[str, Any] | None = None      # the last event applied

    @property
    def in_step(self) -> bool:
        """Every event the server told of is applied."""
        return self.version >= self.known and not self.buffer

    def heard(self, version: int) -> None:
        self.known = max(self.known, version)

    def receive(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        """Take an event message; returns the events applied now, in version order (none for
        one already applied; a later one waits for those before it)."""
        v = int(msg["version"])
        self.heard(v)
        if v <= self.version:
            return []
        self.buffer[v] = msg
        applied = []
        while self.version + 1 in self.buffer:
            m = self.buffer.pop(self.version + 1)
            self._apply(m)
            self.version += 1
            self.last = m
            applied.append(m)
        return applied

    def _apply(self, m: dict[str, Any]) -> None:
        if _masked(m["action"]):
            self._stand_in(m)
            return
        action = Action.from_dict(m["action"])
        if m.get("reveal") and self.before is not None:
            revealed = {int(r["version"]): Action.from_dict(r["action"]) for r in m["reveal"]}
            self.state.restore(self.before)
            for v, act, dice in self.held:
                if act is None and v not in revealed:
                    raise OutOfStep(f"version {m['version']} reveals no answer for {v}")
                self._step(act if act is not None else revealed[v], dice, v)
            self.before, self.held = None, []
        self._step(action, m["dice"], m["version"])
        if self.before is not None:
            self.held.append((int(m["version"]), action, m["dice"]))

    def _stand_in(self, m: dict[str, Any]) -> None:
        side = m["action"].get("side") or m["by"]
        kind = m["action"]["type"]
        d = next((d for d in self.state.pending if d.side == side and kind in d.answers), None)
        if d is None:
            raise OutOfStep(f"version {m['version']}: {side} answered no decision awaited")
        if self.before is None:
            self.before = self.state.snapshot()
        self._step(next(c for c in d.choices if c.type == kind), m["dice"], m["version"])
        self.held.append((int(m["version"]), None, m["dice"]))

    def _step(self, action: Action, dice: list[dict[str, Any]], version: Any) -> None:
        """Apply `action` with the server's dice; OutOfStep if the rolls differ."""
        state = self.state
        state.dice.fixed = deque(int(v) for r in dice for v in r["values"])
        start = len(state.dice.log)
        try:
            state.apply(action)
        except Exception as exc:
            raise OutOfStep(f"version {version}: {action!r} does not apply here "
                            f"({type(exc).__name__}: {exc})") from None
        rolled = [(r.dice, list(r.values)) for r in state.dice.log[start:]]
        told = [(str(r["dice"]), [int(v) for v in r["values"]]) for r in dice]
        if rolled != told or state.dice.fixed:
            raise OutOfStep(f"version {version}: rolled {rolled}, the server rolled {told}")

    # --- for players ---------------------------------------------------------------------------
    @property
    def acting(self) -> str | None:
        """The side whose decision it is (None once the game is over)."""
        if self.over is not None or self.state.over:
            return None
        return self.state.acting_side

    def my_turn(self) -> bool:
        return self.seat is not None and self.in_step and self.acting == self.seat
