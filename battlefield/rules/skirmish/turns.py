"""The skirmish battle sequence (seed: On Your Turn; RULES-NOTES gaps): rounds in which each side
takes one turn, the first side of the scene first; each side starts with 12 morale tokens; the
battle ends after round 6, or as soon as a side has no morale tokens or no units left.

A turn: fortify (only with more objectives controlled) or command up to two actions, then
`end-turn`. At the start of every turn each unit's damage and flags for the turn (actions taken,
pot shots made, retreated) are cleared: damage does not carry over.

A scene may start later in the battle with its `state:` key: {round: 6, active: blue, morale:
{red: 5, blue: 7}}.
"""

from __future__ import annotations

from typing import Any

from battlefield.errors import UsageError
from battlefield.rules import rounds
from battlefield.rules.skirmish.data import game
from battlefield.rules.state import State, scene_start, start_per_side, start_round
from battlefield.rulings import Referee

Event = dict[str, Any]
START_KEYS = ("round", "active", "morale")


def begin(state: State) -> list[Event]:
    g = game(state)
    sides = state.scene.sides
    where = state.scene.file
    if len(sides) != 2:
        raise UsageError(f"{where}: a skirmish battle needs two sides; the scene has "
                         f"{len(sides)}: {', '.join(sides)}")
    start, active = scene_start(state, START_KEYS)
    rnd = start_round(state, start, g.rounds)
    state.sides = {s: {"morale": g.morale_tokens, "bombardment": {}} for s in sides}
    morale = start_per_side(state, start, "morale", "morale tokens")
    for s, n in morale.items():
        state.sides[s]["morale"] = n
    state.clock = {"round": rnd, "turn": 1, "first": active, "active": active,
                   "commands": 0, "fortified": False, "over": False}
    state.objectives = control(state)
    return [{"type": "battle-round", "round": rnd, "first": active,
             "morale": morale_of(state)}, *start_turn(state, active)]


def morale_of(state: State) -> dict[str, int]:
    return {s: d["morale"] for s, d in state.sides.items()}


def start_turn(state: State, side: str) -> list[Event]:
    c = state.clock
    c["active"] = side
    c["commands"] = 0
    c["fortified"] = False
    for us in state.units:
        us.flags.clear()
        us.phase_used.clear()
        us.counters.clear()
        us.damage[:] = 0
    return [{"type": "turn", "round": c["round"], "active": side}]


def end_turn(state: State) -> list[Event]:
    """The turn ends (rules/rounds.py): each round and the battle's end say the morale."""
    return rounds.end_turn(state, game(state).rounds, start_turn,
                           lambda s: {"morale": morale_of(s)}, end_event=True)


def control(state: State) -> dict[str, str | None]:
    """Who controls each objective now (not sticky): the seed's model counts, home objectives
    held by their side on a tie, 0-0 included."""
    scene = state.scene

    def work_out() -> tuple:
        ref = Referee(scene, state.table)
        return scene, {o.id: ref.objective(k, held_by=None).controlled_by
                       for k, o in enumerate(scene.objectives)}

    _, held = state.table.memo(("skirmish-control", id(scene)), work_out)   # once per table
    return dict(held)


def controlled(state: State) -> dict[str, int]:
    """How many objectives each side controls now."""
    held = control(state)
    return {s: sum(1 for v in held.values() if v == s) for s in state.sides}
