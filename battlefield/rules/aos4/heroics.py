"""aos4 hero-phase commands and the end of turn: rally, power through, places of power - each a
check and a resolve `(state, ability, unit, action)`, registered on the ruleset (rules.py)."""

from __future__ import annotations

from typing import Any

import numpy as np

from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import allocation, movement
from battlefield.rules.aos4.data import Ability, book
from battlefield.rules.aos4.movement import Keep, in_combat, v
from battlefield.rules.aos4.movement_phase import (
    dice_move,
    move_rolled,
    move_stat,
    out_of_combat_range,
)
from battlefield.rules.aos4.shooting import targets
from battlefield.rules.standing import referee
from battlefield.rules.state import State

Event = dict[str, Any]


# --- rally ----------------------------------------------------------------------------------------
SPEND = ("heal", "return")          # the keys of a rally's "spend"


def check_rally(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    if in_combat(state, u):
        return [v("in_combat", f"{action.unit} is in combat and cannot rally")]
    spend = _spend(action)
    if spend is not None:
        bad = [k for k in spend if k not in SPEND]
        if bad:
            return [v("bad_spend", f"\"spend\" takes {' and '.join(SPEND)} (the most rally "
                                   f"points healing, the most models returned), not "
                                   f"{', '.join(map(str, bad))}")]
        for k, n in spend.items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                return [v("bad_spend", f"\"spend\": {k} is a whole number, 0 or more, not "
                                       f"{n!r}")]
    return []


def _spend(action: Action) -> dict[str, object] | None:
    """The rally's "spend" as a dict (an action keeps a mapping as sorted pairs)."""
    given = action.option("spend")
    return None if given is None else dict(given)


def futile(state: State, action: Action) -> bool:
    """A rally of a unit with no damage and no model slain: its rally points heal nothing and
    bring nobody back (Ruleset.futile)."""
    if action.type != "rally" or action.unit is None:
        return False
    us = state.units[state.scene.unit_index(action.unit)]
    return not us.damage.any() and bool(us.alive.all())


def rally(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    """Six rally rolls, each 4+ a point; points equal to the unit's Health return a slain
    model, each point heals 1 (seed: "in any combination"). `"spend": {"return": N, "heal":
    N}` caps each (returns are paid first); without it every model the points pay for
    returns, then the rest heals. A model returns where it was slain when that place is
    free, else at the nearest place beside a standing model of the unit: on the board, off
    impassable terrain and other bases, the unit coherent, out of enemy combat range."""
    h = book(state).core.hero
    rolls = state.dice.roll(f"{h.rally_rolls}D6", f"rally rolls {action.unit}").values
    points = sum(1 for r in rolls if r >= h.rally_point_on)
    spend = _spend(action) or {}
    us = state.units[u]
    health = allocation.stat(state, u, "health", 1) or 1
    want = spend.get("return", len(us.alive))
    returned = allocation.return_slain(state, u, min(want, points // health))
    points -= health * len(returned)
    healed = 0
    cap = spend.get("heal", points)
    for k in np.argsort(-us.damage):
        while points and healed < cap and us.alive[k] and us.damage[k] > 0:
            us.damage[k] -= 1
            points -= 1
            healed += 1
    return [{"type": "rally", "unit": action.unit, "rolls": list(rolls),
             "healed": healed, "returned": returned, **({"unspent": points} if points else {})}]


# --- power through --------------------------------------------------------------------------------
def check_power_through(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    if "charged" not in state.units[u].flags:
        return [v("not_charged", f"{action.unit} did not charge this turn")]
    aimed, bad = targets(state, action)
    if bad:
        return bad
    ref = referee(state)
    w = aimed[0]
    if w not in ref.combat[u]:
        return [v("not_in_combat", f"{action.target} is not in combat with {action.unit}")]
    mine = allocation.stat(state, u, "health", 1) or 1
    theirs = allocation.stat(state, w, "health", 1) or 1
    if theirs >= mine:
        return [v("not_lower_health", f"{action.target}'s Health {theirs} is not lower than "
                                      f"{mine}")]
    if action.path is not None or action.paths is not None:
        return movement.check(state, u, action, move_stat(state, u),
                              keep=(through_keep(state, u, w),)).problems
    return []


def through_keep(state: State, u: int, w: int) -> Keep:
    """Power Through's move: "It can pass through and end that move within the combat ranges
    of enemy units that were in combat with it at the start of the move, but not those of
    other enemy units" - in combat where it stands (the target counted while it has models
    left: the D3 comes first)."""
    engaged = set(referee(state).combat[u]) | {w}
    return out_of_combat_range(state, u, passing=True, foes=lambda s, _u: [
        f for f in s.enemies(u) if f not in engaged])


def power_through(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    """D3 mortal damage on the target, then the move (a dice Move rolled), still kept out of
    the combat ranges of units that were not in combat with it; a move that no longer holds
    leaves the unit where it stood."""
    w = state.unit_index(action.targets[0])
    events = allocation.mortal(state, w, book(state).core.combat.power_through_mortal,
                               f"power through {action.unit}", state.models_of(u))
    if action.path is None and action.paths is None:
        return events
    keep = (through_keep(state, u, w),)
    rolled = move_rolled(state, u)
    if rolled is not None:
        return [*events, *dice_move(state, u, action, rolled, "power-through", keep)]
    checked = movement.check(state, u, action, move_stat(state, u), keep=keep)
    if checked.problems:
        why = checked.problems[0].message
        return [*events, {"type": "move-short", "unit": action.unit, "ability": "power-through",
                          "reason": why, "failed": f"move short: {why}"}]
    state.table = checked.after
    return [*events, {"type": "moved", "unit": action.unit}]


# --- places of power ------------------------------------------------------------------------------
def check_place_of_power(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    """A HERO with a model's base within 3" of a place of power, measured exactly
    (Table.piece_distance), horizontally as every distance in aos4."""
    spec = state.scene.units[u]
    if not spec.has("HERO"):
        return [v("not_a_hero", f"{action.unit} is not a HERO")]
    reach = book(state).core.hero.place_of_power_range
    near = min((state.table.piece_distance(int(m), k) for k in
                state.table.layout.pieces_with("place-of-power") for m in state.models_of(u)),
               default=None)
    if near is None or near > reach + movement.EPS:
        # two decimals, as every distance the players read; more when two would read as in
        # reach (3.004" is not within 3")
        digits = 2
        while near is not None and round(near, digits) <= reach and digits < 4:
            digits += 1
        far = "" if near is None else f": the nearest is {near:.{digits}f}\" away"
        return [v("no_place_of_power", f"{action.unit} is not within {reach:g}\" of a "
                                       f"place of power{far}", **({} if near is None
                                                                  else {"distance": near}))]
    return []


WIZARD_THIS_TURN = "wizard-1"      # a flag: Unbind and Banish this turn as if WIZARD (1)


def place_of_power(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    """On a 1, D3 mortal damage; else a WIZARD or PRIEST adds 1 to its casting and chanting
    rolls this turn, and any other HERO can unbind (and banish) this turn as if it had
    WIZARD (1). Unit flags last until the start of the next turn."""
    h = book(state).core.hero
    roll = state.dice.roll(h.place_of_power_roll, f"place of power {action.unit}").total
    if roll == h.place_of_power_fails_on:
        return [{"type": "place-of-power", "unit": action.unit, "roll": roll},
                *allocation.mortal(state, u, h.place_of_power_mortal,
                                   f"place of power {action.unit}")]
    spec = state.scene.units[u]
    if spec.has("WIZARD") or spec.has("PRIEST"):
        state.units[u].flags.add("empowered")
        effect = f"+{h.place_of_power_bonus} to casting and chanting rolls this turn"
    else:
        state.units[u].flags.add(WIZARD_THIS_TURN)
        effect = "can unbind this turn as if it had WIZARD (1)"
    return [{"type": "place-of-power", "unit": action.unit, "roll": roll, "effect": effect}]
