"""aos4 hero-phase commands and the end of turn: rally, power through, places of power - each a
check and a resolve `(state, ability, unit, action)`, registered on the ruleset (rules.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from battlefield.geometry.separation import signed_distance_matrix
from battlefield.geometry.table import Table
from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import allocation, movement
from battlefield.rules.aos4.data import Ability, book
from battlefield.rules.aos4.movement import in_combat, v
from battlefield.rules.aos4.movement_phase import move_stat, moved
from battlefield.rules.aos4.shooting import targets
from battlefield.rules.state import State
from battlefield.rulings import Referee

Event = dict[str, Any]


# --- rally ----------------------------------------------------------------------------------------
def check_rally(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    if in_combat(state, u):
        return [v("in_combat", f"{action.unit} is in combat and cannot rally")]
    return []


def futile(state: State, action: Action) -> bool:
    """A rally of a unit with no damage and no model slain: its rally points heal nothing and
    bring nobody back (Ruleset.futile)."""
    if action.type != "rally" or action.unit is None:
        return False
    us = state.units[state.scene.unit_index(action.unit)]
    return not us.damage.any() and bool(us.alive.all())


def rally(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    h = book(state).core.hero
    rolls = state.dice.roll(f"{h.rally_rolls}D6", f"rally rolls {action.unit}").values
    points = sum(1 for r in rolls if r >= h.rally_point_on)
    us = state.units[u]
    healed = 0
    for k in np.argsort(-us.damage):
        while points and us.alive[k] and us.damage[k] > 0:
            us.damage[k] -= 1
            points -= 1
            healed += 1
    health = allocation.stat(state, u, "health", 1) or 1
    returned = []
    first = state.scene.model_offsets()[u]
    for k in np.nonzero(~us.alive)[0]:
        if points < health:
            break
        m = first + int(k)
        back = state.table.restored(np.array([m]), np.array([u]))
        ref = Referee(state.scene, back)
        if ref.coherency(u).coherent and _free_spot(back, m):
            state.table = back
            us.alive[k] = True
            us.damage[k] = 0
            points -= health
            returned.append(state.scene.model_names[m])
    return [{"type": "rally", "unit": action.unit, "rolls": list(rolls),
             "healed": healed, "returned": returned}]


def _free_spot(t: Table, m: int) -> bool:
    on = np.nonzero(t.on_table)[0].astype(np.int64)
    on = on[on != m]
    if not len(on):
        return True
    d = signed_distance_matrix(t.x, t.y, t.shape, t.a, t.b, t.cos, t.sin,
                               np.array([m], dtype=np.int64), on)
    return bool((d >= -movement.OVERLAP).all())


# --- power through --------------------------------------------------------------------------------
def check_power_through(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    if "charged" not in state.units[u].flags:
        return [v("not_charged", f"{action.unit} did not charge this turn")]
    aimed, bad = targets(state, action)
    if bad:
        return bad
    ref = Referee(state.scene, state.table)
    w = aimed[0]
    if w not in ref.combat[u]:
        return [v("not_in_combat", f"{action.target} is not in combat with {action.unit}")]
    mine = allocation.stat(state, u, "health", 1) or 1
    theirs = allocation.stat(state, w, "health", 1) or 1
    if theirs >= mine:
        return [v("not_lower_health", f"{action.target}'s Health {theirs} is not lower than "
                                      f"{mine}")]
    if action.path is not None or action.paths is not None:
        return movement.check(state, u, action, move_stat(state, u)).problems
    return []


def power_through(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    w = state.unit_index(action.targets[0])
    events = allocation.mortal(state, w, book(state).core.combat.power_through_mortal,
                               f"power through {action.unit}", state.models_of(u))
    if action.path is not None or action.paths is not None:
        events.extend(moved(state, u, action))
    return events


# --- places of power ------------------------------------------------------------------------------
def check_place_of_power(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    spec = state.scene.units[u]
    if not spec.has("HERO"):
        return [v("not_a_hero", f"{action.unit} is not a HERO")]
    pieces = state.table.layout.pieces_with("place-of-power")
    feet = shapely.union_all([state.table.footprint(int(m), 32)
                              for m in state.models_of(u)])
    reach = book(state).core.hero.place_of_power_range
    if not any(feet.distance(state.table.layout.polygons[k]) <= reach + movement.EPS
               for k in pieces):
        return [v("no_place_of_power", f"{action.unit} is not within {reach:g}\" of a "
                                       f"place of power")]
    return []


def place_of_power(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    h = book(state).core.hero
    roll = state.dice.roll(h.place_of_power_roll, f"place of power {action.unit}").total
    if roll == h.place_of_power_fails_on:
        return [{"type": "place-of-power", "unit": action.unit, "roll": roll},
                *allocation.mortal(state, u, h.place_of_power_mortal,
                                   f"place of power {action.unit}")]
    state.units[u].flags.add("empowered")
    return [{"type": "place-of-power", "unit": action.unit, "roll": roll,
             "effect": f"+{h.place_of_power_bonus} to casting and chanting rolls this turn"}]
