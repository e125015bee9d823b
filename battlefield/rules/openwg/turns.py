"""The openwg battle round (seed: Turn structure; RULES-NOTES openwg): Movement, Ranged, Melee,
Leadership. In a phase the sides alternate - the side to act acts with one unit or says `stop`;
a stop is final for the phase and the other side goes on alone; when both have stopped the
next phase begins with the side that stopped first. The Leadership phase alternates only while
a WIZARD could cast; then wounds are resolved, morale tested and objectives scored.

A scene may start later with its `state:` key: {round: 3, phase: melee, active: blue}.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from battlefield.errors import UsageError
from battlefield.rules.chance import play
from battlefield.rules.damage import fill
from battlefield.rules.openwg import odds
from battlefield.rules.openwg.data import EPS, PHASES, game
from battlefield.rules.openwg.profiles import profiles
from battlefield.rules.openwg.reach import unit_gap
from battlefield.rules.rounds import other
from battlefield.rules.state import State, scene_start, start_error, start_round

Event = dict[str, Any]
START_KEYS = ("round", "active", "phase")
ROUND_FLAGS = ("moved", "ran", "charged", "retreated", "held", "shot", "cast")
KEEP = ("axes",)            # once-per-battle marks


def begin(state: State) -> list[Event]:
    sides = state.scene.sides
    where = state.scene.file
    if len(sides) != 2:
        raise UsageError(f"{where}: an openwg battle needs two sides; the scene has "
                         f"{len(sides)}: {', '.join(sides)}")
    profiles(state)                        # every profile checked before play
    start, active = scene_start(state, START_KEYS)
    g = game(state)
    rnd = start_round(state, start, g.rounds)
    phase = start.get("phase", PHASES[0])
    if phase not in PHASES:
        raise start_error(state, ("phase",), f"{phase!r} is not a phase", ", ".join(PHASES))
    state.sides = {s: {"vp": 0} for s in sides}
    state.clock = {"round": rnd, "phase": phase, "active": active, "stopped": [],
                   "over": False}
    state.objectives = control(state)
    return [{"type": "battle-round", "round": rnd, "first": active},
            {"type": "phase", "phase": phase, "round": rnd, "active": active}]


def stop(state: State) -> list[Event]:
    """The acting side stops for this phase; the next phase when both have."""
    c = state.clock
    side = c["active"]
    c["stopped"].append(side)
    events: list[Event] = [{"type": "stop", "side": side, "phase": c["phase"]}]
    if len(c["stopped"]) < len(state.sides):
        c["active"] = other(state, side)
        return events
    return events + next_phase(state, c["stopped"][0])


def acted(state: State) -> None:
    """After a unit's action the other side acts, unless it has stopped."""
    c = state.clock
    foe = other(state, c["active"])
    if foe not in c["stopped"]:
        c["active"] = foe


def next_phase(state: State, first: str) -> list[Event]:
    c = state.clock
    c["stopped"] = []
    c["active"] = first
    k = PHASES.index(c["phase"])
    if k + 1 < len(PHASES):
        c["phase"] = PHASES[k + 1]
        events: list[Event] = [{"type": "phase", "phase": c["phase"], "round": c["round"],
                                "active": first}]
        if c["phase"] == "leadership":
            events.extend(start_leadership(state))
        return events
    return end_round(state, first)


def start_leadership(state: State) -> list[Event]:
    """Spells granted before this round's Leadership phase end now; with no WIZARD able to
    cast, the phase goes straight to wounds, morale and scoring."""
    rnd = state.clock["round"]
    for us in state.units:
        for f in [f for f in us.flags if f.startswith("granted:")]:
            if int(f.rsplit(":", 1)[1]) < rnd:
                us.flags.discard(f)
    if any(can_cast(state, u) for u in range(len(state.units))):
        return []
    return end_round(state, state.clock["active"])


def can_cast(state: State, u: int) -> bool:
    """Unit u is a WIZARD now (enough models) and has not cast this round."""
    if "cast" in state.units[u].flags:
        return False
    n = len(state.models_of(u))
    return any(n >= int(e.get("min_models", 1)) for e in profiles(state)[u].effects("wizard"))


# --- the end of the round: wounds, morale, objectives -------------------------------------------
def removal_order(state: State, u: int) -> list[int]:
    """Which of unit u's models (table indices) take damage first: a damaged one, then from
    the last model of the unit back to the first, the leader last (decided: the owner's choice
    is made for them so that the unit keeps its leader longest)."""
    first = state.scene.model_offsets()[u]
    leader = first + state.scene.units[u].leader
    models = sorted((int(m) for m in state.models_of(u)), reverse=True)
    dmg = state.units[u].damage
    return sorted(models, key=lambda m: (dmg[m - first] == 0, m == leader))


def shrug_value(state: State, u: int) -> int:
    """Shrug N: the characteristic, or a `shrug` special's value by models or a hero near."""
    prof = profiles(state)[u]
    value = int(prof.stat("shrug"))
    n = len(state.models_of(u))
    for e in prof.effects("shrug"):
        best = int(e.get("value", 0))
        for at_least, more in sorted(e.get("models") or []):     # [[models, value], ...]
            if n >= int(at_least):
                best = max(best, int(more))
        near = e.get("near")
        if isinstance(near, dict) and _hero_near(state, u, near):
            best = max(best, int(near.get("value", 0)))
        value = max(value, best)
    return value


def _hero_near(state: State, u: int, near: dict[str, Any]) -> bool:
    keys = [str(k).upper() for k in near.get("keywords", [])]
    for w, spec in enumerate(state.scene.units):
        if w == u or spec.side != state.side_of(u) or not len(state.models_of(w)):
            continue
        if all(spec.has(k) for k in keys) and \
                unit_gap(state.table, u, w) <= float(near.get("within", 0)) + EPS:
            return True
    return False


def take(state: State, u: int, wounds: int) -> list[int]:
    """Damage unit u's models one at a time until each is slain (the wounds spill over, each
    model filled up to its own health: rules/damage); the models slain (table indices)."""
    prof = profiles(state)[u]
    first = state.scene.model_offsets()[u]
    us = state.units[u]
    health = [int(prof.stat("health", k)) for k in range(len(us.damage))]
    order = [m - first for m in removal_order(state, u)]
    slain = [first + k for k in fill(us.damage, health, order, [max(0, wounds)], spill=True).slain]
    if slain:
        state.slay(u, slain)
    return slain


def flee(state: State, u: int, n: int) -> list[int]:
    gone = removal_order(state, u)[:n]
    if gone:
        state.slay(u, gone)
    return gone


def end_round(state: State, first: str) -> list[Event]:
    c = state.clock
    names = state.scene.model_names
    events: list[Event] = []
    slain_now = {}
    for u, spec in enumerate(state.scene.units):
        us = state.units[u]
        wounds = int(us.counters.pop("wounds", 0))
        if not wounds or not len(state.models_of(u)):
            continue
        value = shrug_value(state, u)
        ignored = play(odds.shrug(value, wounds), state.dice) if value > 0 else 0
        slain = take(state, u, wounds - ignored)
        slain_now[u] = len(slain)
        events.append({"type": "wounds", "unit": spec.id, "wounds": wounds, "shrug": value,
                       "ignored": ignored, "slain": [names[m] for m in slain]})
    for u, n in slain_now.items():
        left = len(state.models_of(u))
        if not n or not left:
            continue
        bravery = int(profiles(state)[u].stat("bravery"))
        fled = play(odds.morale(bravery, n, left), state.dice)
        gone = flee(state, u, fled)
        events.append({"type": "morale", "unit": state.scene.units[u].id, "slain": n,
                       "bravery": bravery, "fled": [names[m] for m in gone]})
    state.objectives = control(state)
    for side in state.sides:
        gained = sum(1 for held in state.objectives.values() if held == side)
        state.sides[side]["vp"] += gained
    events.append({"type": "score", "round": c["round"], "objectives": dict(state.objectives),
                   "vp": {s: d["vp"] for s, d in state.sides.items()}})
    for us in state.units:
        us.counters.pop("fights", None)
        us.flags.difference_update(ROUND_FLAGS)
    standing = [s for s in state.sides if any(len(state.models_of(u))
                                              for u, sp in enumerate(state.scene.units)
                                              if sp.side == s)]
    if c["round"] >= game(state).rounds or len(standing) < len(state.sides):
        c["over"] = True
        return events
    c["round"] += 1
    c["phase"] = PHASES[0]
    c["active"] = first
    c["stopped"] = []
    return events + [{"type": "battle-round", "round": c["round"], "first": first},
                     {"type": "phase", "phase": PHASES[0], "round": c["round"], "active": first}]


def control(state: State) -> dict[str, str | None]:
    """Who holds each objective now: more models within 3" of its centre (not sticky)."""
    t = state.table
    out: dict[str, str | None] = {}
    on = np.nonzero(t.on_table)[0]
    reach = game(state).objective_range
    for o in state.scene.objectives:
        d = np.hypot(t.x[on] - o.x, t.y[on] - o.y) - t.reach[on]
        count: dict[str, int] = {}
        for m in on[d <= reach + EPS]:
            s = state.side_of(int(t.unit[m]))
            count[s] = count.get(s, 0) + 1
        best = max(count.values(), default=0)
        top = [s for s, n in count.items() if n == best]
        out[o.id] = top[0] if best and len(top) == 1 else None
    return out
