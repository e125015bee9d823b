"""aos4 movement-phase abilities: normal move, run (At the Double), retreat, redeploy - each a
check and a resolve `(state, ability, unit, action)`, registered on the ruleset (rules.py).
A Move that is dice (`move: 2D6`, as army import keeps a random Move) is checked against the
most it can roll and rolled (a logged `move roll`) when the unit moves; a roll that falls
short leaves the unit where it stood. A Move that is a number plays as it always has: no roll.

Where a move may go is the engine's one move check (movement.check) with the ability's enemy
ranges (`keep`): a normal move or run never comes into combat on the way (a flying unit may fly
over, but not end in combat); a retreat or a redeploy does not end within combat range."""

from __future__ import annotations

from typing import Any

import numpy as np

from battlefield.geometry.paths import Terrain
from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import allocation, commands, movement, rolls
from battlefield.rules.aos4.data import Ability, book
from battlefield.rules.aos4.movement import Keep, in_combat, v
from battlefield.rules.chance import Throw, play, roll
from battlefield.rules.state import State

Event = dict[str, Any]


def moved(state: State, u: int, action: Action) -> list[Event]:
    """Put unit u's models where the action's paths end (already checked)."""
    moves = movement.planned(state, u, action)
    state.table = moves.placed(state.table)
    names = state.scene.model_names
    return [{"type": "moved", "unit": state.scene.units[u].id,
             "models": [names[m] for m in moves.models]}]


def no_combat(state: State, u: int) -> Keep:
    """A normal move or a run: never into combat on the way; flying, not ending in combat."""
    rng = movement.combat_range(state)
    if state.scene.units[u].has("FLY"):
        return Keep(rng, combat=True, code="ends_in_combat", what="combat")
    return Keep(rng, passing=True, ending=False, combat=True, code="moves_into_combat",
                what="combat")


def out_of_combat_range(state: State, u: int) -> Keep:
    """A retreat or a redeploy: the moved models do not end within combat range."""
    return Keep(movement.combat_range(state), every=False)


# --- the unit's Move ------------------------------------------------------------------------------
def move_stat(state: State, u: int) -> float:
    """The unit's Move; a dice Move counts the most it can roll (what a check allows)."""
    move = state.scene.units[u].stats.get("move")
    if rolls.is_dice(move):
        return float(rolls.most(str(move)))
    return float(allocation.stat(state, u, "move", 0) or 0)


def move_rolled(state: State, u: int) -> tuple[float, Event] | None:
    """A dice Move rolled with the game's dice (the roll logged), and its event; None for a
    Move that is a number."""
    move = state.scene.units[u].stats.get("move")
    if not rolls.is_dice(move):
        return None
    unit = state.scene.units[u].id
    got = play(rolls.move_roll(unit, str(move)), state.dice)
    return float(got), {"type": "move-roll", "unit": unit, "move": str(move), "roll": got}


def dice_move(state: State, u: int, action: Action, rolled: tuple[float, Event], kind: str
              ) -> list[Event]:
    """The move of a unit whose Move was rolled: made when the roll reaches every model's
    path, else the unit stays where it stood."""
    allowed, event = rolled
    unit = state.scene.units[u]
    checked = movement.check(state, u, action, allowed)
    if checked.problems:
        why = checked.problems[0].message
        return [event, {"type": "move-short", "unit": unit.id, "ability": kind, "reason": why,
                        "failed": f"move short: {why}"}]
    state.table = checked.after
    return [event, {"type": "moved", "unit": unit.id}]


# --- the ruleset's move hooks (Aos4.move_allowance, move_cost, move_ground) ----------------------
def allowance(state: State, u: int, ability: str) -> float | None:
    """The longest move `ability` can give unit u (before any roll), as its check counts."""
    move = move_stat(state, u)
    rules = book(state)
    return {"normal-move": move, "retreat": move, "run": move + rules.run_most,
            "redeploy": rules.redeploy_most, "charge": float(rules.max_charge),
            "fight": rules.core.combat.pile_in}.get(ability)


def cost(state: State, u: int, m: int, path: np.ndarray) -> tuple[float, float]:
    """(inches model m of unit u spends along path, of which climbing), as its check counts
    (FLY: no climbing)."""
    return movement.used(book(state), state.table, m, path, state.scene.units[u].has("FLY"))


def ground(state: State, u: int, m: int, box: tuple[float, float, float, float]
           ) -> tuple[list, Terrain | None]:
    """What model m of unit u moves round near `box` (other units' models, impassable
    terrain; grown by its clearance) and what it climbs; FLY: nothing and nothing."""
    if state.scene.units[u].has("FLY"):
        return [], None
    return (movement.obstacles(state, u, m, box)[0],
            movement.terrain_for(book(state), state.table, m))


# --- normal move ----------------------------------------------------------------------------------
def check_normal_move(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    if in_combat(state, u):
        return [v("in_combat", f"{action.unit} is in combat: it can only retreat")]
    return movement.check(state, u, action, move_stat(state, u),
                          keep=(no_combat(state, u),)).problems


def normal_move(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    state.units[u].flags.add("moved")
    rolled = move_rolled(state, u)
    if rolled is None:
        return moved(state, u, action)
    return dice_move(state, u, action, rolled, "normal-move")


# --- run ------------------------------------------------------------------------------------------
def check_run(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    if in_combat(state, u):
        return [v("in_combat", f"{action.unit} is in combat: it can only retreat")]
    return movement.check(state, u, action, allowance(state, u, "run"),
                          keep=(no_combat(state, u),)).problems


def run(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    unit = state.scene.units[u]
    double = "at-the-double" in commands.given(action)
    rolled = move_rolled(state, u)
    got = play(rolls.run_roll(book(state).core.movement, unit.id, double), state.dice)
    allowed = (rolled[0] if rolled else move_stat(state, u)) + got
    events: list[Event] = [*([rolled[1]] if rolled else []),
                           {"type": "run", "unit": unit.id, "roll": got, "allowed": allowed}]
    state.units[u].flags.update({"moved", "ran"})
    checked = movement.check(state, u, action, allowed)
    if checked.problems:
        why = checked.problems[0].message
        events.append({"type": "run-short", "unit": unit.id, "reason": why,
                       "failed": f"run short: {why}"})
        return events
    state.table = checked.after
    return [*events, {"type": "moved", "unit": unit.id}]


# --- retreat --------------------------------------------------------------------------------------
def check_retreat(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    if not in_combat(state, u):
        return [v("not_in_combat", f"{action.unit} is not in combat: it cannot retreat")]
    return movement.check(state, u, action, move_stat(state, u),
                          keep=(out_of_combat_range(state, u),)).problems


def retreat(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    events = allocation.mortal(state, u, book(state).core.movement.retreat_mortal,
                               f"retreat {action.unit}")
    state.units[u].flags.update({"moved", "retreated"})
    if not len(state.models_of(u)):
        return events
    rolled = move_rolled(state, u)
    if rolled is not None:
        return [*events, *dice_move(state, u, action, rolled, "retreat")]
    checked = movement.check(state, u, action, None)
    if checked.problems:      # casualties broke the planned formation: the unit stays put
        why = checked.problems[0].message
        return [*events, {"type": "retreat-blocked", "reason": why,
                          "failed": f"retreat blocked: {why}"}]
    state.table = checked.after
    return [*events, {"type": "moved", "unit": action.unit}]


# --- redeploy -------------------------------------------------------------------------------------
def check_redeploy(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    if in_combat(state, u):
        return [v("in_combat", f"{action.unit} is in combat")]
    return movement.check(state, u, action, book(state).redeploy_most,
                          keep=(out_of_combat_range(state, u),)).problems


def redeploy(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    far = roll(Throw(book(state).core.movement.redeploy_roll, f"redeploy {action.unit}"),
               state.dice)
    checked = movement.check(state, u, action, far)
    if checked.problems:
        why = checked.problems[0].message
        return [{"type": "redeploy-short", "unit": action.unit, "roll": far, "reason": why,
                 "failed": f"redeploy short: {why}"}]
    state.table = checked.after
    return [{"type": "moved", "unit": action.unit, "roll": far}]
