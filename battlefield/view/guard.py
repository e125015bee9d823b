"""Clicks that would decide by accident: a button that appears under the pointer (a decision's
answers where `end-phase` was a moment ago) takes no click for GUARD_S seconds, nor until the
pointer has moved on it (leaving it and coming back is meant); and a choice that spends something
(command points, morale tokens, an ability die: its vocabulary's `explain:` says "spends")
can be taken back with one click until the player's next action.

No drawing here: the panel asks `ButtonGuard` whether a click counts, the play scene keeps the
`TakeBack` and draws its button through the panel."""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from battlefield.rules.actions import Action
from battlefield.rules.state import State

GUARD_S = 0.6            # seconds a button that appeared under the pointer takes no click
MOVED_PX = 4             # pixels the pointer must move for it to count as moved


class ButtonGuard:
    """Which buttons appeared under the pointer and may not be clicked yet."""

    def __init__(self) -> None:
        self.pointer: tuple[int, int] | None = None
        self.shown: dict[str, tuple[int, int, int, int]] = {}
        # name -> [when it appeared, where the pointer was, whether it has moved since]
        self.fresh: dict[str, list[Any]] = {}

    def pointer_at(self, pos: tuple[int, int]) -> None:
        """The pointer is at `pos` (every motion and click): off a fresh button, that button
        is no longer fresh (coming back to it is meant); on it, a move counts once it is more
        than MOVED_PX."""
        self.pointer = p = (int(pos[0]), int(pos[1]))
        for name in list(self.fresh):
            x, y, w, h = self.shown.get(name, (0, 0, 0, 0))
            f = self.fresh[name]
            if not (x <= p[0] < x + w and y <= p[1] < y + h):
                del self.fresh[name]
            elif not f[2] and math.dist(f[1], p) > MOVED_PX:
                f[2] = True

    def drawn(self, buttons: Iterable[tuple[Any, str]], now: float | None = None) -> None:
        """The buttons as just drawn ((rect, name) pairs): one that is new here (or moved)
        under the pointer is fresh."""
        now = time.monotonic() if now is None else now
        shown = {name: (int(r.x), int(r.y), int(r.w), int(r.h)) for r, name in buttons}
        for name, rect in shown.items():
            if self.shown.get(name) == rect:
                continue
            x, y, w, h = rect
            p = self.pointer
            if p is not None and x <= p[0] < x + w and y <= p[1] < y + h:
                self.fresh[name] = [now, p, False]
            else:
                self.fresh.pop(name, None)
        self.fresh = {n: f for n, f in self.fresh.items() if n in shown}
        self.shown = shown

    def blocks(self, name: str, now: float | None = None) -> bool:
        """Whether a click on `name` is refused: it appeared under the pointer less than
        GUARD_S ago, or the pointer has not moved since."""
        f = self.fresh.get(name)
        if f is None:
            return False
        now = time.monotonic() if now is None else now
        if now - f[0] < GUARD_S or not f[2]:
            return True
        del self.fresh[name]
        return False


def spends(state: State, action: Action) -> bool:
    """Whether choosing `action` spends something of the side's (its vocabulary's `explain:`
    says it "spends": a command point, morale tokens, an ability die), unless it names 0 of
    it ("commit 0 costs nothing")."""
    doc = next((a for a in state.scene.ruleset.actions if a.id == action.type), None)
    if doc is None or "spend" not in doc.explain.lower():
        return False
    numbers = [v for _, v in action.options if isinstance(v, (int, float))
               and not isinstance(v, bool)]
    return not any(v == 0 for v in numbers)


@dataclass
class TakeBack:
    """A spending choice the player may take back: the game goes back to `before` actions."""

    before: int
    what: str

    @property
    def label(self) -> str:
        return f"take back {self.what}"


def choice_words(action: Action) -> str:
    """'commit 4', 'all-out-defence red-blades': the choice as its button said it."""
    bits = [action.type] + ([action.unit] if action.unit else [])
    bits += [str(v) for _, v in action.options]
    return " ".join(bits)


__all__ = ["ButtonGuard", "TakeBack", "spends", "choice_words", "GUARD_S", "MOVED_PX"]
