"""Battle rounds of two turns, written once: the side that goes first takes its turn, then the
other; after the last round the battle is over (skirmish, blocks). Each ruleset says how its
own turn starts and what it adds to the round's events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from battlefield.rules.state import State

Event = dict[str, Any]


def other(state: State, side: str) -> str:
    """The other side of a two-sided battle."""
    return next(s for s in state.sides if s != side)


def end_turn(state: State, rounds: int, start_turn: Callable[[State, str], list[Event]],
             said: Callable[[State], dict[str, Any]] | None = None,
             end_event: bool = False) -> list[Event]:
    """The active side's turn ends (clock: round, turn 1 or 2, first, over): the other side's
    turn of this round begins (`start_turn`), or the next round with the first side again, or
    - after `rounds` rounds - the battle is over (with a battle-over event when `end_event`).
    `said(state)`: what the ruleset adds to the battle-round and battle-over events."""
    c = state.clock
    events: list[Event] = [{"type": "end-turn", "side": c["active"], "round": c["round"]}]
    if c["turn"] == 1:
        c["turn"] = 2
        return events + start_turn(state, other(state, c["first"]))
    extra = said(state) if said is not None else {}
    if c["round"] >= rounds:
        c["over"] = True
        return events + ([{"type": "battle-over", "round": c["round"], **extra}]
                         if end_event else [])
    c["round"] += 1
    c["turn"] = 1
    events.append({"type": "battle-round", "round": c["round"], "first": c["first"], **extra})
    return events + start_turn(state, c["first"])


__all__ = ["end_turn", "other"]
