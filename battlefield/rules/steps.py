"""A computer player's step towards a goal, written once: from where a unit's leader stands,
the places it may try to go, best first - the furthest step straight at the goal, then turning
off it a little more each time, then shorter steps - for the player to check each in turn and
take the first the rules allow (`first_legal`)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

from battlefield.rules.actions import Action
from battlefield.rules.state import State

Point = tuple[float, float]


def heading(start: Point, goal: Point) -> float:
    """The direction (radians, counter-clockwise from +x) from `start` to `goal`."""
    return math.atan2(goal[1] - start[1], goal[0] - start[0])


def places(start: Point, toward: float, lengths: Iterable[float], turns: Iterable[float],
           turns_first: bool = False) -> Iterator[Point]:
    """Where a step of each length in `lengths` (in order: the longest first) ends, off the
    heading `toward` by each of `turns` (degrees, in order: straight first); every turn of
    the first length before the next, or - `turns_first` - every length of the first turn."""
    lengths, turns = list(lengths), list(turns)
    pairs = ([(d, t) for t in turns for d in lengths] if turns_first
             else [(d, t) for d in lengths for t in turns])
    for d, turn in pairs:
        a = toward + math.radians(turn)
        yield (start[0] + d * math.cos(a), start[1] + d * math.sin(a))


def first_legal(state: State, actions: Iterable[Action]) -> Action | None:
    """The first of `actions` the state allows now, or None."""
    return next((a for a in actions if not state.check(a)), None)


__all__ = ["first_legal", "heading", "places"]
