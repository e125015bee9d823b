"""What every aos4 ability asks before its own rule, and pays when it is used: the acting unit,
the Rules of One (one CORE ability a phase, each ability once a phase) and the command rules
(each unit 1 command a phase - an action that is a command and carries a reaction command is
two -, each command once per army a phase, a command given twice refused),
the reaction commands given on it ("command": "at-the-double") and the command points they
cost. Plain functions over the State (rules.py's check and resolve ask them)."""

from __future__ import annotations

from typing import Any

from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import defence
from battlefield.rules.aos4.data import Ability, book
from battlefield.rules.moves import find_unit, v
from battlefield.rules.state import State

Event = dict[str, Any]
PAID_LATER = ("all-out-defence", "forward-to-victory")   # paid when (and by whom) used


def given(action: Action) -> list[str]:
    """The reaction commands written on the action ("command": NAME or [NAME, ...])."""
    names = action.option("command")
    return [names] if isinstance(names, str) else list(names or [])


def acting_unit(state: State, action: Action) -> tuple[int, Violation | None]:
    """The action's unit, and why it cannot act: none, destroyed, not the acting side's."""
    u, problem = find_unit(state, action)
    if problem:
        return u, problem
    if state.side_of(u) != state.clock["acting"]:
        return u, v("not_yours", f"{action.unit} is {state.side_of(u)}'s; "
                                 f"{state.clock['acting']} is acting")
    return u, None


def costing(state: State, action: Action, a: Ability) -> list[Ability]:
    """The commands this use of ability `a` is: `a` itself when it is one, and the reaction
    commands given on it."""
    abilities = book(state).abilities
    return ([a] if a.command else []) + [abilities[n] for n in given(action) if n in abilities]


def rules_of_one(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    """The Rules of One and the commands' costs, for unit u using ability `a`."""
    us = state.units[u]
    rules = book(state)
    reactions = rules.reactions
    out = []
    if "CORE" in a.keywords and rules.used_core(us.phase_used):
        out.append(v("rules_of_one", f"{action.unit} has used a CORE ability this phase"))
    elif a.id in us.phase_used:
        out.append(v("once_per_phase", f"{action.unit} has used {a.id} this phase"))
    for n in given(action):
        if n == defence.ID:
            out.append(v("defenders_decision", "all-out-defence is the defending side's "
                                               "decision, asked when the attack is declared"))
        elif n not in rules.abilities or n not in reactions:
            own = [r for r in reactions if r != defence.ID]
            out.append(v("unknown_command", f"'{n}' is not a reaction command (valid: "
                                            f"{', '.join(own)})"))
        elif a.id not in reactions[n].split("|"):
            out.append(v("wrong_reaction", f"{n} reacts to {reactions[n]}, not {a.id}"))
    side = state.clock["acting"]
    cost = 0
    names = [c.id for c in costing(state, action, a)]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        out.append(v("command_twice", f"{', '.join(twice)} given twice: a command is used once "
                                      f"(and paid once)"))
    elif len(names) > 1:
        out.append(v("unit_command_used", f"{action.unit} would use {len(names)} commands in "
                                          f"one phase ({', '.join(names)}): each unit can only "
                                          f"use 1 command in each phase"))
    if names and defence.NO_COMMANDS in us.flags:
        out.append(v("no_commands", f"{action.unit} cannot use commands this turn (an "
                                    f"ability's effect)"))
    for c in costing(state, action, a):
        if c.id == defence.ID:
            continue                      # the defender's decision (refused above)
        cost += c.cost
        if c.id in state.sides[side]["commands"] and not twice:
            out.append(v("command_used", f"{side} has used {c.id} this phase"))
    if cost and "command" in us.phase_used:
        out.append(v("unit_command_used", f"{action.unit} has used a command this phase"))
    if cost > state.sides[side]["cp"]:
        out.append(v("command_points", f"{cost} command points needed, {side} has "
                                       f"{state.sides[side]['cp']}",
                     needed=cost, have=state.sides[side]["cp"]))
    return out


def pay(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    """Unit u uses ability `a`: it counts for the phase, and the commands it is (but those
    paid when used) are paid by the acting side."""
    us = state.units[u]
    us.phase_used.add(a.id)
    side = state.clock["acting"]
    events: list[Event] = []
    for c in costing(state, action, a):
        if c.id in PAID_LATER:
            continue
        state.sides[side]["cp"] -= c.cost
        state.sides[side]["commands"].append(c.id)
        us.phase_used.add("command")
        events.append({"type": "command", "side": side, "command": c.id, "cost": c.cost})
    return events


def reroll(state: State, side: str, action: Action, command: str) -> bool:
    """Whether `command` (given on the action) can still be paid by `side` when it is used."""
    cost = book(state).abilities[command].cost
    return (command in given(action) and state.sides[side]["cp"] >= cost
            and command not in state.sides[side]["commands"])


def spend(state: State, side: str, command: str) -> Event:
    """`side` pays `command` as it is used (Forward to Victory's re-roll)."""
    cost = book(state).abilities[command].cost
    state.sides[side]["cp"] -= cost
    state.sides[side]["commands"].append(command)
    return {"type": "command", "side": side, "command": command, "cost": cost}
