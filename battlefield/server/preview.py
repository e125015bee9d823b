"""Live checks for a seat: `{"type": "preview", "id": X, "action": ACTION}` is answered to that
seat alone with what the engine makes of the action where the game stands - `{"type":
"preview", "id": X, "legal": BOOL, "violations": [...], "notes": [...], "overlay": ...}` - and
changes nothing. A drag (an action of a `drag:` type with a path) is ruled as the play window
rules it (depiction.live.rule: the route round what is in the way, State.check, the rulings
where the unit would stand, the ruleset's DragNotes, a targeted drop snapped to the nearest
legal place), and its overlay is the drag's depiction (depiction.drag) as JSON; the answer also
carries `action` (what the drop would send: routed, snapped), `caption` (every line the window
says) and, the first time a unit is picked up at a version, `still` (what stays put while it is
dragged: its reachable area, where it stood, the enemies' combat ranges). An optional `"rest":
false` asks for a unit on the move, as the window rules it between frames: the rulings that
cost more than a frame (sight with its blockers, the ruleset's costly notes such as skirmish's
pot shots) are left for the preview at rest (the default, and the one before a drop).

`{"type": "offers"}` is answered `{"type": "offers", ...}` (server/offers.py): what the seat
may do now, for the play page's buttons.

Nothing secret: while an answer of a secret batch is outstanding, a preview says only whether
the action is legal and why not (no notes, no overlay) and offers list only the seat's own
choices. Off the event loop: previews and offers are the engine's work (server/worker.py),
charged to the asking client's address like its acts. They run on a copy of the game made once
a version (State.snapshot) in the game's turn (after the acts asked before it), one preview at a
time per copy. Per seat at most Limits.previews_per_second previews a second (as many at once,
RATE by default), besides the address's
frame rate and engine share: past any of them the seat gets an `error` with the preview's `id`
and `retry_after` whole seconds (messages.slow_down), as the server's other limits say when to
try again."""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from battlefield.depiction import drag as drag_depiction
from battlefield.depiction import live
from battlefield.depiction.labels import Box, Placed
from battlefield.depiction.table import side_colours
from battlefield.page.replay import rulings as table_rulings
from battlefield.page.replay import table_depiction
from battlefield.rules import boundary
from battlefield.rules.actions import Action, Violation
from battlefield.rules.state import State
from battlefield.server import messages
from battlefield.server.limits import retry_after
from battlefield.server.offers import offers
from battlefield.server.worker import Engine

RATE = 25.0                  # previews a second a seat may ask for, sustained
BURST = 25.0                 # and at once


@dataclass
class Bucket:
    """A token bucket: `take()` is True while the seat is within its rate."""

    rate: float = RATE
    burst: float = BURST
    tokens: float = BURST
    at: float = field(default_factory=time.monotonic)

    def take(self) -> float:
        """0 when a preview may run now, else the seconds until one may."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate


@dataclass
class Copy:
    """A game's state at one version, for previews: the copy, its lock, what it keeps."""

    version: int
    state: State
    secret: bool                                   # an answer of a secret batch outstanding
    lock: threading.Lock = field(default_factory=threading.Lock)
    pickups: dict[tuple, live.Pickup] = field(default_factory=dict)
    standing: dict[tuple, list[tuple[Box, str | None]]] = field(default_factory=dict)
    labels: list[Placed] | None = None         # the table's labels at this version, placed
    colours: dict[str, Any] = field(default_factory=dict)


class Previews:
    """The previews and offers of a server's games."""

    def __init__(self, engine: Engine | None = None, rate: float = RATE) -> None:
        self.engine = engine       # None: worked out in the caller's thread (the tests)
        self.rate = rate           # previews a second per seat (as many at once)
        self.copies: dict[str, Copy] = {}
        self.buckets: dict[tuple[str, str], Bucket] = {}
        self.stills: dict[tuple[str, str], set[tuple]] = {}   # what each seat was sent

    def copy(self, game: Any) -> Copy:
        """The game's copy at its version (made once a version; in the game's turn when on
        the engine: `current`)."""
        kept = self.copies.get(game.id)
        if kept is not None and kept.version == game.version:
            return kept
        state = game.state.snapshot()
        kept = self.copies[game.id] = Copy(game.version, state, bool(game.secret))
        kept.colours = side_colours(state.scene)
        return kept

    async def current(self, game: Any, address: str) -> Copy:
        """The copy at the game's version, made in the game's turn on the engine when the
        game moved on since the last one (no act changes the game while it is copied)."""
        kept = self.copies.get(game.id)
        if kept is not None and kept.version == game.version:
            return kept
        if self.engine is None:
            return self.copy(game)
        return await self.engine.run(game.id, address, self.copy, game)

    def forget(self, game_id: str) -> None:
        self.copies.pop(game_id, None)

    # --- the messages -----------------------------------------------------------------------
    async def preview(self, game: Any, seat: str | None, msg: messages.Preview,
                      address: str = "?") -> dict:
        """The answer to a preview (an `error` past the seat's rate)."""
        if seat is None:
            return _answer(msg.id, [Violation("not_your_seat", "a spectator holds no seat: "
                                              "join with ?seat=TOKEN to play")])
        bucket = self.buckets.setdefault((game.id, seat),
                                         Bucket(self.rate, self.rate, self.rate))
        wait = bucket.take()
        if wait:
            return messages.slow_down(f"preview: more than {self.rate:g} a second from this seat",
                                      retry_after(wait), msg.id)
        sent = self.stills.setdefault((game.id, seat), set())
        c = await self.current(game, address)
        return await self._run(address, self._rule_copy, c, seat, msg, sent)

    async def offers(self, game: Any, seat: str | None, address: str = "?") -> dict:
        c = await self.current(game, address)
        return await self._run(address, self._offers, c, seat)

    async def _run(self, address: str, fn: Any, *args: Any) -> Any:
        if self.engine is None:
            return fn(*args)
        return await self.engine.run(None, address, fn, *args)

    # --- on a worker thread ------------------------------------------------------------------
    @staticmethod
    def _offers(c: Copy, seat: str | None) -> dict:
        with c.lock:
            return offers(c.state, seat, c.version)

    def _preview(self, game: Any, seat: str, msg: messages.Preview, sent: set[tuple]) -> dict:
        """A preview worked out here and now on the game's copy (the tests)."""
        return self._rule_copy(self.copy(game), seat, msg, sent)

    def _rule_copy(self, c: Copy, seat: str, msg: messages.Preview, sent: set[tuple]) -> dict:
        with c.lock:
            return self._rule(c, seat, msg, sent)

    def _rule(self, c: Copy, seat: str, msg: messages.Preview, sent: set[tuple]) -> dict:
        state = c.state
        action = boundary.read(msg.raw, state.scene)
        if isinstance(action, boundary.Refused):
            return _answer(msg.id, action.violations)
        sender = state.sender(action)              # as the server's act asks it
        if sender != seat:
            return _answer(msg.id, [Violation(
                "not_your_seat", f"this seat plays {seat}; {action.type} is {sender}'s to "
                                 f"send now")])
        drag = (action.type in live.drag_abilities(state) and action.unit is not None
                and (action.path or action.paths) and not c.secret)
        if not drag:
            return _answer(msg.id, state.check(action), action=action)
        u = state.scene.unit_index(action.unit)
        model = None
        if action.paths:
            n, pts = action.paths[0]
            ms = state.models_of(u)
            first = state.scene.model_offsets()[u]
            model = first + int(n) - 1 if first + int(n) - 1 in set(int(m) for m in ms) else None
            to = pts[-1]
            if model is None:
                return _answer(msg.id, state.check(action), action=action)
        else:
            to = action.path[-1]
        key = (u, action.type, model)
        p = c.pickups.get(key)
        if p is None:
            p = live.pick_up(state, u, model, action.type)
            if p is None:
                return _answer(msg.id, state.check(action), action=action)
            c.pickups[key] = p
        target = (state.scene.unit_index(action.targets[0]) if action.targets else
                  live.nearest_enemy(state, p, to) if live.targeted(state, action.type)
                  else None)
        detail = msg.rest
        r = live.rule(state, p, to, target, engine=True, detail=detail, facing=action.facing)
        if r.legal is False and target is not None:
            q = live.snap(state, p, to, target, action.facing)
            if q is not None:
                why = "; ".join(live.reasons(r.violations))
                r = live.rule(state, p, q, target, engine=True, detail=detail,
                              facing=action.facing)
                moved = math.dist(q, to)
                r.notes.lines.insert(0, f'snapped {moved:.2f}" to the nearest legal place '
                                        f'(where dropped: {why})')
        said = drag_depiction.words(state, r)
        if key not in c.standing:
            c.standing[key] = drag_depiction.standing(state, p)
        dep = drag_depiction.overlay(state, p, r, colours=c.colours, facing=action.facing,
                                     still_there=c.standing[key],
                                     table_labels=self._table_labels(
                                         c, state.scene.units[u].id))
        notes = list(r.notes.lines) + [line for line in said.text
                                       if line.startswith(("sight:", "after the drop"))]
        out = _answer(msg.id, r.violations, notes, action=r.action)
        out["overlay"] = {"layers": dep.layers, "ruler": said.ruler}
        out["caption"] = said.text
        out["used"] = round(r.used, 4)
        out["rest"] = detail
        if r.allowed:
            out["allowed"] = r.allowed
        skey = (c.version, key)
        if skey not in sent:
            sent.add(skey)
            if len(sent) > 64:
                sent.clear()
                sent.add(skey)
            out["still"] = drag_depiction.still(state, p)
        return out

    def _table_labels(self, c: Copy, moving: str) -> list[Placed]:
        """The table's labels at this version where its page shows them, but the moving
        unit's (the page hides its own labels while a unit is in the hand): the drag's overlay
        keeps them where they are unless the drop covers them, and then moves them aside
        (depiction.drag.with_table, as the window does)."""
        if c.labels is None:
            state = c.state
            held = {o.id: state.objectives.get(o.id, o.controlled_by)
                    for o in state.scene.objectives}
            c.labels = table_depiction(state, table_rulings(state), held, c.colours).placed
        return [q for q in c.labels
                if not isinstance(q.item, dict)
                or (q.item.get("a") or {}).get("data-label-for") != moving]


def _answer(pid: Any, violations: list, notes: list[str] | None = None,
            action: Action | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "preview", "id": pid, "legal": not violations,
        "violations": [v.to_dict() if isinstance(v, Violation) else v for v in violations],
        "notes": notes or [], "overlay": None}
    if action is not None:
        out["action"] = action.to_dict()
    return out


__all__ = ["Previews", "RATE", "BURST"]
