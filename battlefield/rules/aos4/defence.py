"""All-out Defence (seed: Reaction: Opponent declared an ATTACK ability): the defending side's
decision, asked when an ATTACK ability its data reacts to (shoot, fight, covering fire) targets
one of its units and it can use the command (1 command point, not used by its army this phase,
the unit has used no command this phase).
Answers: {"type": "all-out-defence", "side": SIDE, "unit": ID} or {"type": "decline", "side":
SIDE}. The unit adds 1 to its save rolls for the rest of the phase.
"""

from __future__ import annotations

from typing import Any

from battlefield.rules.actions import Action
from battlefield.rules.aos4.data import book
from battlefield.rules.decisions import DECLINE, Decision
from battlefield.rules.state import State

ID = "all-out-defence"
NO_COMMANDS = "no-commands"      # a unit's flag: it cannot use commands for the rest of the turn
COUNTER = "all_out_defence_this_phase"        # cleared with the phase's other counters
Event = dict[str, Any]


def can_use(state: State, w: int) -> bool:
    """Unit w's side can give it All-out Defence now."""
    side = state.side_of(w)
    res = state.sides[side]
    return (NO_COMMANDS not in state.units[w].flags
            and res["cp"] >= book(state).abilities[ID].cost and ID not in res["commands"]
            and "command" not in state.units[w].phase_used and bool(len(state.models_of(w))))


def decision(state: State, attacker: int, targets: list[int], ability: str
             ) -> Decision | None:
    """The defending side's All-out Defence decision about an attack on `targets` (None when
    it cannot use the command on any of them)."""
    able = [w for w in targets if can_use(state, w)]
    if not able:
        return None
    side = state.side_of(able[0])
    ids = [state.scene.units[w].id for w in able]
    choices = tuple(Action(ID, unit=i, side=side) for i in ids) + (Action(DECLINE, side=side),)
    return Decision(side, ID, choices, about=(("attacker", state.scene.units[attacker].id),
                                              ("ability", ability), ("target", ", ".join(ids))))


def use(state: State, w: int) -> list[Event]:
    """Pay for All-out Defence on unit w: +1 to its saves for the rest of the phase."""
    side = state.side_of(w)
    cost = book(state).abilities[ID].cost
    state.sides[side]["cp"] -= cost
    state.sides[side]["commands"].append(ID)
    state.units[w].phase_used.add("command")
    state.units[w].counters[COUNTER] = 1.0
    return [{"type": "command", "side": side, "command": ID, "cost": cost,
             "unit": state.scene.units[w].id}]


def save_bonus(state: State, w: int) -> int:
    return int(state.units[w].counters.get(COUNTER, 0))
