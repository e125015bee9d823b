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
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from battlefield.rules.choices import choice_words, spends

GUARD_S = 0.6            # seconds a button that appeared under the pointer takes no click
MOVED_PX = 4             # pixels the pointer must move for it to count as moved


class ButtonGuard:
    """Which buttons appeared under the pointer and may not be clicked yet."""

    def __init__(self) -> None:
        self.pointer: tuple[int, int] | None = None
        self.shown: dict[str, tuple[int, int, int, int]] = {}
        self.version: Hashable = None     # the game (game_version) the buttons were drawn for
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

    def drawn(self, buttons: Iterable[tuple[Any, str]], now: float | None = None,
              version: Hashable = None) -> None:
        """The buttons as just drawn ((rect, name) pairs) for the game at `version`
        (game_version): one that is new here (or moved) under the pointer is fresh, and so is
        every button under the pointer once the game changed under it (the next phase's
        `end-phase`, the same name in the same place, is another button)."""
        now = time.monotonic() if now is None else now
        shown = {name: (int(r.x), int(r.y), int(r.w), int(r.h)) for r, name in buttons}
        changed = version != self.version
        self.version = version
        for name, rect in shown.items():
            if self.shown.get(name) == rect and not changed:
                continue
            x, y, w, h = rect
            p = self.pointer
            if p is not None and x <= p[0] < x + w and y <= p[1] < y + h:
                self.fresh[name] = [now, p, False]
            else:
                self.fresh.pop(name, None)
        self.fresh = {n: f for n, f in self.fresh.items() if n in shown}
        self.shown = shown

    def unmoved(self, name: str) -> bool:
        """Whether `name` appeared under the pointer and the pointer has not moved on it since:
        its tooltip waits too (it would cover the message saying what the click before did)."""
        f = self.fresh.get(name)
        return f is not None and not f[2]

    def stale(self, version: Hashable) -> bool:
        """Whether the game changed since the buttons were drawn (two clicks before the next
        frame): what the pointer is on is not what the player saw."""
        return version != self.version

    def blocks(self, name: str, now: float | None = None, version: Hashable = None) -> bool:
        """Whether a click on `name` is refused: the game changed since it was drawn, or it
        appeared under the pointer less than GUARD_S ago, or the pointer has not moved since."""
        if self.stale(version):
            return True
        f = self.fresh.get(name)
        if f is None:
            return False
        now = time.monotonic() if now is None else now
        if now - f[0] < GUARD_S or not f[2]:
            return True
        del self.fresh[name]
        return False


def game_version(state: Any) -> Hashable:
    """Which game, and how far on: changes with every action, answer, undo and phase."""
    return (id(state), len(state.actions), len(state.pending), state.round, state.active,
            state.phase, state.acting_side)


@dataclass
class TakeBack:
    """A spending choice the player may take back: the game goes back to `before` actions."""

    before: int
    what: str

    @property
    def label(self) -> str:
        return f"take back {self.what}"


__all__ = ["ButtonGuard", "TakeBack", "game_version", "spends", "choice_words", "GUARD_S",
           "MOVED_PX"]
