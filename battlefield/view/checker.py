"""The drag's slow rulings off the window's main thread. A unit picked up gets a Checker: a
worker thread with its own copy of the game (State.snapshot, made at the pick-up; the game does
not change while a unit is in the hand, and an answer made at another version is dropped) that
works out the engine's check (State.check), the costly rulings of a resting cursor (sight with
its blockers, the ruleset's costly notes) and a targeted drop's snap to the nearest legal place
(depiction.live: rule, snap). The latest request wins: one asked while another is worked on
replaces any still waiting, and the drag tool takes an answer only for the place the unit is
held at now - the frames go on meanwhile, and a place the pointer has left is never shown as
judged."""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass

from battlefield.depiction import live
from battlefield.rules.state import State

Key = tuple[tuple[float, float], int | None, float | None]     # (to, target, facing)
HANG_S = 600.0    # how long `wait` waits at most: a bound for a hung worker, not a measure


@dataclass(frozen=True)
class Request:
    key: Key
    detail: bool          # the costly rulings and the snap too (the cursor rests)


@dataclass
class Answer:
    request: Request
    ruling: live.Ruling
    snapped: tuple[float, float] | None     # where a targeted illegal drop snaps (detail)
    cost: float                             # seconds the engine's check took


class Checker:
    """One pick-up's worker: `ask` for a place, `answer` takes what is done (or None)."""

    def __init__(self, state: State, unit: int, model: int | None, ability: str,
                 version: int) -> None:
        self.version = version
        self.state = state.snapshot()
        self.unit, self.model, self.ability = unit, model, ability
        self._cond = threading.Condition()
        self._want: Request | None = None
        self._done: Answer | None = None
        self._busy: Request | None = None
        self._closed = False
        self.failed: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="battlefield-drag-check",
                                        daemon=True)
        self._thread.start()

    # --- the main thread's side -------------------------------------------------------------
    def ask(self, request: Request) -> None:
        """Work this out next (replacing any request not started yet); asked again for what
        is being worked out or waits already, nothing changes."""
        with self._cond:
            if request in (self._want, self._busy):
                return
            self._want = request
            self._cond.notify_all()

    def asked(self, request: Request) -> bool:
        """Whether the request waits or is being worked out."""
        with self._cond:
            return request in (self._want, self._busy)

    def answer(self) -> Answer | None:
        """The newest answer not taken yet."""
        with self._cond:
            done, self._done = self._done, None
        if self.failed is not None:
            raise self.failed
        return done

    def wait(self, timeout: float = HANG_S) -> Answer | None:
        """Until nothing waits or is worked out (the tests, a drop), then `answer`."""
        end = time.monotonic() + timeout
        with self._cond:
            while (self._want is not None or self._busy is not None) and not self._closed:
                left = end - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)
        return self.answer()

    def close(self) -> None:
        """The unit is dropped or put back: the worker ends after what it is doing."""
        with self._cond:
            self._closed = True
            self._want = None
            self._cond.notify_all()

    # --- the worker ---------------------------------------------------------------------------
    def _run(self) -> None:
        pickup: live.Pickup | None = None
        while True:
            with self._cond:
                while self._want is None and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                request, self._want = self._want, None
                self._busy = request
            try:
                if pickup is None:
                    pickup = live.pick_up(self.state, self.unit, self.model, self.ability)
                done = None if pickup is None else self._work(pickup, request)
            except BaseException as exc:       # raised again on the main thread (answer)
                self.failed = exc
                done = None
            with self._cond:
                self._busy = None
                if done is not None:
                    self._done = done
                self._cond.notify_all()
                if self.failed is not None:
                    return

    def _work(self, p: live.Pickup, request: Request) -> Answer:
        to, target, facing = request.key
        start = time.perf_counter()
        r = live.rule(self.state, p, to, target, engine=True, detail=request.detail,
                      facing=facing)
        cost = time.perf_counter() - start
        snapped = None
        if request.detail and r.legal is False and target is not None:
            snapped = live.snap(self.state, p, to, target, facing)
            if snapped is not None:
                r = snapped_ruling(self.state, p, r, to, snapped, target, facing)
        return Answer(request, r, snapped, cost)


def snapped_ruling(state: State, p: live.Pickup, r: live.Ruling, to: tuple[float, float],
                   snapped: tuple[float, float], target: int | None, facing: float | None
                   ) -> live.Ruling:
    """The ruling at the place an illegal targeted drop snaps to, saying so and why the place
    dropped on was not legal (`r`: its ruling)."""
    out = live.rule(state, p, snapped, target, engine=True, detail=True, facing=facing)
    why = "; ".join(live.reasons(r.violations))
    out.notes.lines.insert(0, f'snapped {math.dist(snapped, to):.2f}" to the nearest legal '
                              f'place (where dropped: {why})')
    return out


__all__ = ["Checker", "Request", "Answer", "Key", "HANG_S", "snapped_ruling"]
