"""Attacks rolled with the game's dice, and damage allocated to models (aos4).

The attack sequence is allocation.py's procedures, played here with the game's dice (so play and
`battlefield odds` share one definition): all the hit rolls of one weapon are one logged roll,
then the wound rolls, the saves, each damage roll, the ward rolls.
Damage fills one model before the next: the models furthest from the attacker first, the leader
last (RULES-NOTES); after casualties, models are removed until the unit is coherent.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from battlefield.geometry.table import Table
from battlefield.rules.aos4 import attacks as sequence
from battlefield.rules.aos4.attacks import Modifiers
from battlefield.rules.aos4.weapons import Weapon
from battlefield.rules.chance import Throw, play, roll
from battlefield.rules.damage import fill
from battlefield.rules.moves import Moves, end_problems
from battlefield.rules.standing import referee
from battlefield.rules.state import State

Event = dict[str, Any]
RETURN_GAP = 0.25                   # a returned model stands this far from the model beside it
RETURN_ANGLES = 24                  # the places tried round each standing model


def stat(state: State, u: int, key: str, default: int | None) -> int | None:
    v = state.scene.units[u].stats.get(key)
    if v is None or v == "-":
        return default
    return int(float(str(v).rstrip("+")))


def _amount(state: State, expr: str, purpose: str) -> int:
    """A number, or the total of a dice expression rolled for `purpose`."""
    return roll(Throw(str(expr), purpose), state.dice)


def volley(state: State, u: int, v: int, w: Weapon, attackers: int, mods: Modifiers,
           extra: int = 0) -> tuple[int, Event]:
    """Roll one weapon's attacks by `attackers` models of unit u at unit v, and `extra`
    attacks more (the `volley` procedure of attacks.py with the game's dice); (damage,
    event)."""
    a, b = state.scene.units[u].id, state.scene.units[v].id
    tag = f"{a} {w.name} at {b}"
    save = stat(state, v, "save", None)
    attacks, s = play(sequence.volley(w, attackers, save, mods, tag, b, extra), state.dice)
    return s.damage, {"type": "attack", "attacker": a, "target": b, "weapon": w.name,
                      "models": attackers, "attacks": attacks, "hits": s.hits,
                      "critical": s.critical, "wounds": s.wounds, "unsaved": s.unsaved,
                      "damage": s.damage}


def allocate(state: State, v: int, damage: int, source: np.ndarray | None,
             cause: str) -> list[Event]:
    """Fill the unit's models with damage one at a time (furthest from `source` models first,
    leader last), slay the filled ones, then remove models until the unit is coherent."""
    if damage <= 0:
        return []
    t = state.table
    us = state.units[v]
    health = stat(state, v, "health", 1) or 1
    alive = state.models_of(v)
    leader = state.scene.model_offsets()[v] + state.scene.units[v].leader
    if source is not None and len(source):
        far = -t.distances(alive, source).min(axis=1)
    else:
        far = np.zeros(len(alive))
    order = sorted(range(len(alive)), key=lambda i: (alive[i] == leader, far[i], alive[i]))
    first = state.scene.model_offsets()[v]
    filled = fill(us.damage, int(health), [int(alive[i]) - first for i in order], [damage],
                  spill=True)
    slain = [first + k for k in filled.slain]
    events: list[Event] = []
    if slain:
        kill(state, v, slain)
        events.append({"type": "slain", "unit": state.scene.units[v].id, "cause": cause,
                       "models": [state.scene.model_names[m] for m in slain]})
    events.extend(restore_coherency(state, v))
    return events


def kill(state: State, unit: int, models: list[int]) -> None:
    """Take slain models off the table (State.slay)."""
    state.slay(unit, models)


def restore_coherency(state: State, v: int) -> list[Event]:
    """Remove models (not the leader while others can go) until the unit is coherent."""
    removed: list[int] = []
    leader = state.scene.model_offsets()[v] + state.scene.units[v].leader
    for _ in range(len(state.scene.units[v].models)):
        ref = referee(state)
        coh = ref.coherency(v)
        if coh.coherent:
            break
        breaks = [m for m in coh.breaks if m != leader] or coh.breaks
        m = int(breaks[-1])
        kill(state, v, [m])
        removed.append(m)
    if not removed:
        return []
    return [{"type": "removed", "unit": state.scene.units[v].id, "reason": "coherency",
             "models": [state.scene.model_names[m] for m in removed]}]


def mortal(state: State, v: int, expr: str | int, purpose: str, source=None) -> list[Event]:
    """Inflict mortal damage (no save; ward applies)."""
    target = state.scene.units[v].id
    dmg = play(sequence.warded(expr, stat(state, v, "ward", None), purpose, target),
               state.dice)
    events: list[Event] = [{"type": "mortal-damage", "unit": state.scene.units[v].id,
                            "damage": dmg, "for": purpose}]
    events.extend(allocate(state, v, dmg, source, purpose))
    return events


# --- slain models returned (Rally, abilities) ---
def return_slain(state: State, u: int, most: int) -> list[str]:
    """Up to `most` of unit u's slain models set up again, in the unit's order, each where
    place_returned puts it (a model with no room stays slain and costs nothing): the names of
    those returned. Rally and the abilities that return slain models both return them so."""
    us = state.units[u]
    first = state.scene.model_offsets()[u]
    back: list[str] = []
    for k in np.nonzero(~us.alive)[0]:
        if len(back) >= most:
            break
        m = first + int(k)
        after = place_returned(state, u, m)
        if after is None:
            continue
        state.table = after
        us.alive[k] = True
        us.damage[k] = 0
        back.append(state.scene.model_names[m])
    return back


def place_returned(state: State, u: int, m: int) -> Table | None:
    """The table with slain model m back in unit u: where it fell if it may stand there, else
    the nearest such place to where it fell beside a standing model (None: no room)."""
    t = state.table.restored(np.array([m]), np.array([u]))
    x0, y0 = float(t.x[m]), float(t.y[m])
    places = [(x0, y0)]
    for o in state.models_of(u):
        o = int(o)
        gap = float(t.a[o] + t.a[m]) + RETURN_GAP      # round bases: centre to centre
        for k in range(RETURN_ANGLES):
            ang = 2 * np.pi * k / RETURN_ANGLES
            places.append((float(t.x[o]) + gap * np.cos(ang), float(t.y[o]) + gap * np.sin(ang)))
    places.sort(key=lambda p: (p[0] - x0) ** 2 + (p[1] - y0) ** 2)
    reach = state.scene.ruleset.combat_range
    for x, y in places:
        after = t.moved(np.array([m]), np.array([x]), np.array([y]))
        moves = Moves(np.array([m], dtype=np.int64), [np.array([[x, y]])])
        if end_problems(state, moves, after):
            continue
        if state.enemies_within(u, reach, table=after, models=np.array([m])):
            continue
        if referee(state, after).coherency(u).coherent:
            return after
    return None
