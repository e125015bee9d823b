"""The aos4 battle sequence: battle rounds, turns and the seven phases, command points, objective
control and scoring (seed: startOfBattleRound, startOfTurn, endOfTurn, endOfBattleRound; the
default battleplan of RULES-NOTES).

In every phase the active player acts first and passes (`end-phase`), then the opponent acts
and passes, and the next phase begins. In the combat phase the players alternate fights.

Who takes the first turn of a battle round is a decision (rules/decisions.py, kind
"first-turn": {"type": "go-first", "side"} or {"type": "go-second", "side"}) of the side the
rules name: in round 1 the player who finished setting up their army first; later, the winner
of the priority roll (D6 each), on a tie the side that took the first turn of the round before.
A scene deployed before the battle was set up by alternating units, the scene's first side
beginning: the side with fewer units finished first, on equal numbers the first side. A
scene's `state: {active: SIDE}` starts the battle with that side's turn, nothing asked.

Command points at the start of each battle round: the battleplan's, 1 more for the underdog
(the side with fewest victory points) and 1 more for the side with the fewest auxiliary units
(`auxiliary: true`, units taken outside the army's regiments); on a tie, neither bonus.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from battlefield.rules.actions import Action
from battlefield.rules.aos4 import passives
from battlefield.rules.aos4.activated import TURN_END, lasting
from battlefield.rules.aos4.allocation import stat
from battlefield.rules.aos4.data import book
from battlefield.rules.decisions import Decision, ask
from battlefield.rules.position import is_position
from battlefield.rules.rounds import other
from battlefield.rules.standing import referee
from battlefield.rules.state import State, scene_start, start_per_side, start_round
from battlefield.rulings import Referee

PHASES = ("start", "hero", "movement", "shooting", "charge", "combat", "end")
Event = dict[str, Any]


START_KEYS = ("round", "active", "command_points", "victory_points")
AUXILIARY_KEY = "auxiliary"              # the unit key army import writes on auxiliary units
PRIORITY = "first-turn"                  # the decision's kind
FIRST_TURN = ("go-first", "go-second")   # its answers


def begin(state: State, first_round: bool = True) -> list[Event]:
    """A new battle, or - with the scene's `state:` key - a battle at the start of a given
    round and turn: {round: 2, active: blue, command_points: {red: 2}, victory_points: ...}.
    Without `active`, the side the rules name decides who takes the first turn.
    `first_round` False: the clock is set and the round waits (for the deployment phase)."""
    sides = state.scene.sides
    start, active = scene_start(state, START_KEYS)
    rnd = start_round(state, start, book(state).battleplan.rounds)
    vps = start_per_side(state, start, "victory_points", "victory points")
    cps = start_per_side(state, start, "command_points", "command points")
    state.sides = {s: {"cp": 0, "vp": 0, "commands": []} for s in sides}
    state.clock = {"round": rnd - 1, "turn": 0, "active": None,
                   "first": None, "phase": None, "acting": None, "over": False,
                   "underdog": None}
    state.objectives = {o.id: o.controlled_by for o in state.scene.objectives}
    for s, vp in vps.items():
        state.sides[s]["vp"] = vp
    if not first_round:                   # the deployment phase comes first (deployment.py),
        state.clock["first"] = active     # begun by the scene's first side (or its `active`)
        return []
    if "active" in start or is_position(start):      # a whole position restores its own
        return new_round(state, first=active, given_cp=cps)
    return new_round(state, decides=set_up_first(state) if rnd == 1 else None, given_cp=cps)


def set_up_first(state: State) -> str:
    """The side that finished setting up its army first (seed: deployment, the players
    alternate DEPLOY abilities, the first side beginning): the side with fewer units, on
    equal numbers the scene's first side."""
    sides = state.scene.sides
    count = {s: sum(1 for u in state.scene.units if u.side == s) for s in sides}
    return min(sides, key=lambda s: (count[s], sides.index(s)))


def new_round(state: State, first: str | None = None, decides: str | None = None,
              given_cp: dict[str, int] | None = None) -> list[Event]:
    """The start of the next battle round: who takes the first turn (`first` when it is
    given; else the decision of `decides`, or of the priority roll's winner), then the
    underdog, command points and the first turn."""
    c = state.clock
    plan = book(state).battleplan
    if c["round"] >= plan.rounds:
        c["over"] = True
        return [{"type": "battle-over", "round": c["round"]}]
    c["round"] += 1
    events: list[Event] = []
    if first is None:
        if decides is None:
            dice = book(state).core.battle.priority_roll
            rolls = {s: state.dice.roll(dice, f"priority roll {s}").total for s in state.sides}
            best = max(rolls.values())
            winners = [s for s, v in rolls.items() if v == best]
            # A tie: the player who took the first turn last round decides.
            decides = (winners[0] if len(winners) == 1
                       else c["first"] or set_up_first(state))
            events.append({"type": "priority", "rolls": rolls, "decides": decides})
        choices = tuple(Action(t, side=decides) for t in FIRST_TURN)
        d = Decision(decides, PRIORITY, choices, about=(("round", str(c["round"])),))
        return events + ask(state, [d], {"step": PRIORITY, "decides": decides,
                                         "cp": dict(given_cp or {})})
    return events + _round_begins(state, first, given_cp or {})


def resume_first_turn(state: State, suspended: dict[str, Any], answer: Action) -> list[Event]:
    """The deciding side has chosen: it, or the other side, takes the first turn."""
    side = suspended["decides"]
    first = side if answer.type == FIRST_TURN[0] else other(state, side)
    return _round_begins(state, first, suspended.get("cp") or {})


def _round_begins(state: State, first: str, given_cp: dict[str, int]) -> list[Event]:
    c = state.clock
    plan = book(state).battleplan
    sides = list(state.sides)
    vps = {s: state.sides[s]["vp"] for s in sides}
    low = min(vps.values())
    under = [s for s, v in vps.items() if v == low]
    c["underdog"] = under[0] if len(under) == 1 else None
    fewest = fewest_auxiliary(state)
    for s in sides:
        state.sides[s]["cp"] = (plan.command_points
                                + (plan.underdog_bonus if s == c["underdog"] else 0)
                                + (plan.auxiliary_bonus if s == fewest else 0))
    for s, cp in given_cp.items():
        state.sides[s]["cp"] = cp
    c["first"] = first
    c["turn"] = 0
    events: list[Event] = [{"type": "battle-round", "round": c["round"], "first": first,
                            "underdog": c["underdog"], "fewest_auxiliary": fewest,
                            "command_points": {s: state.sides[s]["cp"] for s in sides}}]
    if c["round"] == 1:
        events.extend(control_objectives(state))
    events.extend(start_turn(state, first))
    return events


def auxiliary_units(state: State) -> dict[str, int]:
    """Each side's auxiliary units on its roster: the scene's units marked `auxiliary: true`
    (army import marks the units a list takes outside its regiments), slain or in reserve
    alike."""
    count = {s: 0 for s in state.scene.sides}
    for u in state.scene.units:
        if u.extra.get(AUXILIARY_KEY) is True and u.side in count:
            count[u.side] += 1
    return count


def fewest_auxiliary(state: State) -> str | None:
    """The side that gains the battleplan's auxiliary bonus at the start of each battle round
    (seed 000, army composition: "The player with the fewest auxiliary units on their roster
    gains 1 extra command point at the start of each battle round"): the one side with fewer
    than every other; on a tie nobody does."""
    count = auxiliary_units(state)
    low = min(count.values(), default=0)
    fewest = [s for s, n in count.items() if n == low]
    return fewest[0] if len(fewest) == 1 else None


def start_turn(state: State, side: str) -> list[Event]:
    c = state.clock
    c["turn"] += 1
    c["active"] = side
    c["phase"] = PHASES[0]
    c["acting"] = side
    state.extra.pop(passives.TURN_AURAS, None)     # what activated abilities gave the turn
    for u, us in enumerate(state.units):
        us.flags.clear()
        us.phase_used.clear()
        _phase_counters(us)
        _turn_ended(us)
        keep = lasting(us, side)       # the other side's "until the start of your next turn"
        if state.scene.units[u].side == side:      # buffs last until their side's next turn
            for k in [k for k in us.counters if k.startswith("buff_")]:
                if k in keep:
                    us.counters[k] = keep[k]
                else:
                    del us.counters[k]
    for s in state.sides.values():
        s["commands"] = []
        s["spells"] = []
        s["prayers"] = []
    return [{"type": "turn", "round": c["round"], "active": side}]


def _turn_ended(us) -> None:
    """What activated abilities gave "for the rest of the turn" (activated.TURN_END: the share
    of each buff_ counter) is taken back as the turn ends, whoever's unit it is."""
    for k in [k for k in us.counters if k.startswith(TURN_END)]:
        key = k[len(TURN_END):]
        if key == "buff_ward":
            us.counters.pop(key, None)
        elif key in us.counters:
            us.counters[key] -= us.counters[k]
            if not us.counters[key]:
                del us.counters[key]
        del us.counters[k]


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
    """Check who controls each objective (sticky: kept until the other side gains it), then
    each terrain feature (control_terrain)."""
    ref = referee(state)
    bonus = control_bonus(state, ref)
    out = {}
    for k, o in enumerate(state.scene.objectives):
        c = ref.objective(k, held_by=state.objectives.get(o.id), bonus=bonus)
        state.objectives[o.id] = c.controlled_by
        out[o.id] = c.controlled_by
    return [{"type": "objective-control", "controlled_by": out}, *control_terrain(state)]


def control_bonus(state: State, referee: Referee) -> list[float] | None:
    """What abilities add to each unit's control score now (passives.roll_bonus), None when
    no unit has abilities or a modifier for the turn."""
    if not any(passives.concerns(state, u, "modify", "control")
               for u in range(len(state.units))):
        return None
    t = passives.in_play(state, referee)
    return [float(passives.roll_bonus(t, u, "control")[0])
            for u in range(len(state.scene.units))]


TERRAIN = "terrain_control"        # state.extra's key: {piece id: side or None}


def control_terrain(state: State) -> list[Event]:
    """Who controls each terrain feature (seed: endOfTurn, "controlled in the same way as
    objective markers but do not remain in your control if no friendly models are contesting
    them"): a model contests a piece within its combat range of the piece's outline (measured
    exactly, horizontally); the side with the higher sum of Control gains it; on a tie the
    side that held it keeps it only while its models still contest it. Kept in
    state.extra[TERRAIN]; the event lists the pieces someone controls."""
    pieces = state.table.layout.pieces
    if not pieces:
        return []
    reach = state.scene.ruleset.combat_range + 1e-6
    held = dict(state.extra.get(TERRAIN) or {})
    bonus = control_bonus(state, referee(state))
    t = state.table
    for k, piece in enumerate(pieces):
        totals: dict[str, float] = {}
        x0, y0, x1, y1 = t.layout.polygons[k].bounds
        # a cheap pre-check: a base farther from the piece's bounding box than its own
        # bounding radius and the reach cannot be within reach of the outline
        box = np.hypot(np.maximum(np.maximum(x0 - t.x, t.x - x1), 0.0),
                       np.maximum(np.maximum(y0 - t.y, t.y - y1), 0.0)) - t.reach
        for u, spec in enumerate(state.scene.units):
            ms = state.models_of(u)
            n = sum(1 for m in ms[box[ms] <= reach]
                    if t.piece_distance(int(m), k) <= reach)
            if n:
                score = n * float(stat(state, u, "control", 1) or 1)
                if bonus is not None:
                    score = max(0.0, score + bonus[u])
                totals[spec.side] = totals.get(spec.side, 0) + score
        best = max(totals.values(), default=0)
        top = [s for s, x in totals.items() if x == best and x > 0]
        before = held.get(piece.id)
        held[piece.id] = (top[0] if len(top) == 1
                          else before if before in top else None)
    state.extra[TERRAIN] = held
    return [{"type": "terrain-control",
             "controlled_by": {p: s for p, s in held.items() if s is not None}}]


def score(state: State, side: str) -> list[Event]:
    plan = book(state).battleplan
    mine = sum(1 for v in state.objectives.values() if v == side)
    theirs = sum(1 for v in state.objectives.values() if v not in (None, side))
    vp = ((plan.hold_one if mine >= 1 else 0) + (plan.hold_two if mine >= 2 else 0)
          + (plan.hold_more if mine > theirs else 0))
    state.sides[side]["vp"] += vp
    return [{"type": "score", "side": side, "objectives": mine, "vp": vp,
             "total": state.sides[side]["vp"]}]
