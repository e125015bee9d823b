"""A move an ability gives (aos4): "This unit can immediately use the 'Retreat' ability as if it
were your movement phase [without any mortal damage being inflicted on it]" and the same with
'Normal Move'. The ability's action carries the move's `path` (or `paths`), checked as the
movement phase checks a retreat or a normal move (movement_phase.check_retreat,
check_normal_move: in combat to retreat and out of every enemy's combat range at its end; not
in combat for a normal move, never into one); it is made when the effect happens (after its
roll), with the retreat's D3 mortal damage unless the text says none, and marks the unit as
the move would ("moved", a RETREAT ability "retreated").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import movement_phase
from battlefield.rules.aos4.data import book
from battlefield.rules.refusals import v
from battlefield.rules.state import State

Event = dict[str, Any]
USES = ("retreat", "normal-move")       # the core abilities an ability may let a unit use


def _move(action: Action, use: str) -> Action:
    return Action(use, action.unit, path=action.path, paths=action.paths,
                  facing=action.facing)


def check(state: State, u: int, e: Mapping[str, Any], action: Action) -> list[Violation]:
    """Why the action's path is not one the 'Retreat' or 'Normal Move' allows now."""
    if not (action.path or action.paths):
        return [v("no_path", f"it uses the '{e['use'].replace('-', ' ').title()}' ability: "
                             f"give its \"path\" (or \"paths\", one a model)", choose="path")]
    a = book(state).abilities[e["use"]]
    checking = movement_phase.check_retreat if e["use"] == "retreat" else \
        movement_phase.check_normal_move
    return checking(state, a, u, _move(action, e["use"]))


def play(state: State, u: int, e: Mapping[str, Any], action: Action) -> list[Event]:
    """The move made (a retreat with its mortal damage unless `no_mortal`)."""
    a = book(state).abilities[e["use"]]
    move = _move(action, e["use"])
    if e["use"] == "retreat":
        events = movement_phase.retreat(state, a, u, move, mortal=not e.get("no_mortal"))
    else:
        events = movement_phase.normal_move(state, a, u, move)
    state.units[u].flags.update(movement_phase.used(a))
    return events
