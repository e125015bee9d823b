"""The aos4 battle sequence: battle rounds, turns and the seven phases, command points, objective
control and scoring (seed: startOfBattleRound, startOfTurn, endOfTurn, endOfBattleRound; the
default battleplan of RULES-NOTES).

In every phase the active player acts first and passes (`end-phase`), then the opponent acts
and passes, and the next phase begins. In the combat phase the players alternate fights.
"""

from __future__ import annotations

from typing import Any

from battlefield.rules.aos4.data import book
from battlefield.rules.rounds import other
from battlefield.rules.state import State, scene_start, start_per_side, start_round
from battlefield.rulings import Referee

PHASES = ("start", "hero", "movement", "shooting", "charge", "combat", "end")
Event = dict[str, Any]


START_KEYS = ("round", "active", "command_points", "victory_points")


def begin(state: State) -> list[Event]:
    """A new battle, or - with the scene's `state:` key - a battle at the start of a given
    round and turn: {round: 2, active: blue, command_points: {red: 2}, victory_points: ...}."""
    sides = state.scene.sides
    start, active = scene_start(state, START_KEYS)
    rnd = start_round(state, start, book(state).battleplan.rounds)
    vps = start_per_side(state, start, "victory_points", "victory points")
    cps = start_per_side(state, start, "command_points", "command points")
    state.sides = {s: {"cp": 0, "vp": 0, "commands": []} for s in sides}
    state.clock = {"round": rnd - 1, "turn": 0, "active": None,
                   "first": active, "phase": None, "acting": None, "over": False,
                   "underdog": None}
    state.objectives = {o.id: o.controlled_by for o in state.scene.objectives}
    for s, vp in vps.items():
        state.sides[s]["vp"] = vp
    events = new_round(state, first=active)
    for s, cp in cps.items():
        state.sides[s]["cp"] = cp
    return events


def new_round(state: State, first: str | None = None) -> list[Event]:
    c = state.clock
    plan = book(state).battleplan
    if c["round"] >= plan.rounds:
        c["over"] = True
        return [{"type": "battle-over", "round": c["round"]}]
    c["round"] += 1
    sides = list(state.sides)
    events: list[Event] = []
    if first is not None:
        pass                          # round 1 (or a scene's given start): no priority roll
    else:
        dice = book(state).core.battle.priority_roll
        rolls = {s: state.dice.roll(dice, f"priority roll {s}").total for s in sides}
        best = max(rolls.values())
        winners = [s for s, v in rolls.items() if v == best]
        # A tie: the player who went first last round decides, and goes first again.
        first = winners[0] if len(winners) == 1 else c["first"]
        events.append({"type": "priority", "rolls": rolls, "first": first})
    vps = {s: state.sides[s]["vp"] for s in sides}
    low = min(vps.values())
    under = [s for s, v in vps.items() if v == low]
    c["underdog"] = under[0] if len(under) == 1 else None
    for s in sides:
        state.sides[s]["cp"] = plan.command_points + (plan.underdog_bonus
                                                      if s == c["underdog"] else 0)
    c["first"] = first
    c["turn"] = 0
    events.append({"type": "battle-round", "round": c["round"], "first": first,
                   "underdog": c["underdog"],
                   "command_points": {s: state.sides[s]["cp"] for s in sides}})
    if c["round"] == 1:
        events.extend(control_objectives(state))
    events.extend(start_turn(state, first))
    return events


def start_turn(state: State, side: str) -> list[Event]:
    c = state.clock
    c["turn"] += 1
    c["active"] = side
    c["phase"] = PHASES[0]
    c["acting"] = side
    for u, us in enumerate(state.units):
        us.flags.clear()
        us.phase_used.clear()
        _phase_counters(us)
        if state.scene.units[u].side == side:      # buffs last until their side's next turn
            for k in [k for k in us.counters if k.startswith("buff_")]:
                del us.counters[k]
    for s in state.sides.values():
        s["commands"] = []
        s["spells"] = []
        s["prayers"] = []
    return [{"type": "turn", "round": c["round"], "active": side}]


def _phase_counters(us) -> None:
    for k in [k for k in us.counters if k.endswith("_this_phase")]:
        del us.counters[k]


def next_phase(state: State) -> list[Event]:
    c = state.clock
    for us in state.units:
        us.phase_used.clear()
        _phase_counters(us)
    for s in state.sides.values():
        s["commands"] = []
    i = PHASES.index(c["phase"])
    if c["phase"] == "end":
        return end_turn(state)
    c["phase"] = PHASES[i + 1]
    c["acting"] = c["active"]
    return [{"type": "phase", "phase": c["phase"], "active": c["active"]}]


def end_turn(state: State) -> list[Event]:
    c = state.clock
    events = control_objectives(state)
    events.extend(score(state, c["active"]))
    if c["turn"] == 1:
        events.extend(start_turn(state, other(state, c["active"])))
        return events
    for s in state.sides.values():
        s["cp"] = 0
    events.append({"type": "end-of-battle-round", "round": c["round"]})
    events.extend(new_round(state))
    return events


def control_objectives(state: State) -> list[Event]:
    """Check who controls each objective (sticky: kept until the other side gains it)."""
    referee = Referee(state.scene, state.table)
    out = {}
    for k, o in enumerate(state.scene.objectives):
        c = referee.objective(k, held_by=state.objectives.get(o.id))
        state.objectives[o.id] = c.controlled_by
        out[o.id] = c.controlled_by
    return [{"type": "objective-control", "controlled_by": out}]


def score(state: State, side: str) -> list[Event]:
    plan = book(state).battleplan
    mine = sum(1 for v in state.objectives.values() if v == side)
    theirs = sum(1 for v in state.objectives.values() if v not in (None, side))
    vp = ((plan.hold_one if mine >= 1 else 0) + (plan.hold_two if mine >= 2 else 0)
          + (plan.hold_more if mine > theirs else 0))
    state.sides[side]["vp"] += vp
    return [{"type": "score", "side": side, "objectives": mine, "vp": vp,
             "total": state.sides[side]["vp"]}]
