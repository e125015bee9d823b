"""aos4 movement-phase abilities: normal move, run (At the Double), retreat, redeploy - each a
check and a resolve `(state, ability, unit, action)`, registered on the ruleset (rules.py).
A Move that is dice (`move: 2D6`, as army import keeps a random Move) is checked against the
most it can roll and rolled (a logged `move roll`) when the unit moves; a roll that falls
short leaves the unit where it stood. A Move that is a number plays as it always has: no roll.

Where a move may go is the engine's one move check (movement.check) with the ability's enemy
ranges (`keep`), for every model of the unit, moved or not: a normal move or run never comes
into combat, on the way or at the end (a flying unit may fly over, but not end in combat); a
retreat does not end within combat range; a redeploy neither passes through nor ends in one.
The path is given with the action and any roll comes after it (decided: rulesets/aos4/README).
A RUN or RETREAT ability marks its unit "ran" or "retreated" from its keywords (`used`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from battlefield.geometry.paths import Terrain
from battlefield.rules import adjust
from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import allocation, commands, movement, onto_terrain, passives, rolls
from battlefield.rules.aos4.charge import BY_HAND, longest_charge
from battlefield.rules.aos4.data import Ability, book
from battlefield.rules.aos4.movement import Keep, Moves, in_combat, v
from battlefield.rules.chance import Throw, play, roll
from battlefield.rules.decisions import DECLINE, Decision, ask
from battlefield.rules.state import State

Event = dict[str, Any]


def moved(state: State, u: int, action: Action) -> list[Event]:
    """Put unit u's models where the action's paths end (already checked); the event says
    how far the unit went: its longest model path as the move measures it (climbing counted,
    FLY: not), for the log's 'red-lancers normal-move, 4.95"'."""
    moves = movement.planned(state, u, action)
    fly, rules = state.scene.units[u].has("FLY"), book(state)
    gone = max((movement.used(rules, state.table, m, path, fly)[0]
                for m, path in zip(moves.models, moves.paths, strict=True)), default=0.0)
    state.table = moves.placed(state.table)
    names = state.scene.model_names
    return [{"type": "moved", "unit": state.scene.units[u].id,
             "models": [names[m] for m in moves.models], "distance": round(float(gone), 6)}]


def no_combat(state: State, u: int) -> Keep:
    """A normal move or a run: "That unit cannot move into combat during any part of that
    move" - not on the way (exactly: moves.check_move's Keep) nor at its end, the whole unit
    counted (a model that does not move, and the units' sight of each other); a flying unit
    "ignores combat ranges when moving" but does not end in combat."""
    rng = movement.combat_range(state)
    if state.scene.units[u].has("FLY"):
        return Keep(rng, combat=True, code="ends_in_combat", what="combat")
    return Keep(rng, passing=True, combat=True, code="moves_into_combat", what="combat")


def out_of_combat_range(state: State, u: int, passing: bool = False,
                        foes: Callable[[State, int], Sequence[int]] | None = None) -> Keep:
    """A retreat (ending), a redeploy or Power Through (passing too): no model of the unit -
    moved or not - ends within an enemy unit's combat range (`foes`: of these units only),
    nor, `passing`, comes within it on the way (a flying unit may fly over)."""
    fly = state.scene.units[u].has("FLY")
    return Keep(movement.combat_range(state), passing=passing and not fly, foes=foes)


RUN_MOVE = "run-move"         # the decision a run roll asks: the move, or decline
USED = {"RUN": "ran", "RETREAT": "retreated"}    # keyword -> the unit's flag for the turn


def used(a: Ability) -> set[str]:
    """What using ability `a` marks on its unit for the turn, from its keywords: a RUN ability
    (run, Redeploy) "ran", a RETREAT one "retreated" - what "has not used a RUN or RETREAT
    ability this turn" asks (shoot, charge, Covering Fire, Counter-charge)."""
    return {flag for word, flag in USED.items() if word in a.keywords}


# --- the unit's Move ------------------------------------------------------------------------------
def move_stat(state: State, u: int) -> float:
    """The unit's Move with what abilities add to it (never below 0); a dice Move counts the
    most it can roll (what a check allows)."""
    move = state.scene.units[u].stats.get("move")
    if rolls.is_dice(move):
        return max(0.0, float(rolls.most(str(move))) + passives.bonus_now(state, u, "move")[0])
    return max(0.0, float(allocation.stat(state, u, "move", 0) or 0)
               + passives.bonus_now(state, u, "move")[0])


def move_rolled(state: State, u: int) -> tuple[float, Event] | None:
    """A dice Move rolled with the game's dice (the roll logged), and its event; None for a
    Move that is a number."""
    move = state.scene.units[u].stats.get("move")
    if not rolls.is_dice(move):
        return None
    unit = state.scene.units[u].id
    got = play(rolls.move_roll(unit, str(move)), state.dice)
    by, names = passives.bonus_now(state, u, "move")
    event: Event = {"type": "move-roll", "unit": unit, "move": str(move), "roll": got}
    if by:
        event.update(modifier=by, abilities=names)
    return max(0.0, float(got + by)), event


def dice_move(state: State, u: int, action: Action | Moves, rolled: tuple[float, Event],
              kind: str, keep: Sequence[Keep] = ()) -> list[Event]:
    """The move of a unit whose Move was rolled: made when the roll reaches every model's
    path (and the move still keeps out of `keep`), else the unit stays where it stood."""
    allowed, event = rolled
    unit = state.scene.units[u]
    checked = movement.check(state, u, action, allowed, keep=keep)
    if checked.problems:
        why = checked.problems[0].message
        return [event, {"type": "move-short", "unit": unit.id, "ability": kind, "reason": why,
                        "failed": f"move short: {why}"}]
    state.table = checked.after
    return [event, {"type": "moved", "unit": unit.id}]


def standing(state: State, moves: Moves) -> Moves:
    """The planned moves of the models still on the table (a retreat's or Power Through's
    mortal damage may have slain some of the unit's own before it moves)."""
    on = state.table.on_table[moves.models]
    facings = moves.facings[on] if moves.facings is not None else None
    return Moves(moves.models[on], [p for p, k in zip(moves.paths, on, strict=True) if k],
                 moves.rigid, facings)


def run_bonus(state: State, u: int, rolled: bool) -> tuple[int, list[str]]:
    """What abilities add to unit u's run roll and their names, with a modifier an adjustment
    left on its next run roll ("by hand"; `rolled`: the roll is made, it is used up)."""
    by, names = passives.bonus_now(state, u, "run")
    hand = adjust.next_modifier(state, u, "run", use=rolled)
    return by + hand, [*names, *([BY_HAND] if hand else [])]


# --- the ruleset's move hooks (Aos4.move_allowance, move_cost, move_ground) ----------------------
def allowance(state: State, u: int, ability: str) -> float | None:
    """The longest move `ability` can give unit u, as its check counts: before the roll the
    most it can give; while the unit's charge-move or run-move decision waits, what was
    rolled (the modifiers in: the move that answers it is checked against that)."""
    rules = book(state)
    rolled = rolled_allowance(state, u, ability)
    if rolled is not None:
        return rolled
    if ability in ("normal-move", "retreat"):
        return move_stat(state, u)
    if ability == "run":
        return move_stat(state, u) + max(0, rules.run_most + run_bonus(state, u, False)[0])
    if ability == "charge":
        return longest_charge(state, u)
    return {"redeploy": rules.redeploy_most, "fight": rules.core.combat.pile_in}.get(ability)


def rolled_allowance(state: State, u: int, ability: str) -> float | None:
    """What unit u's charge or run roll gave, while the move that answers it is awaited."""
    sus = state.suspended or {}
    step = {"charge": "charge-move", "counter-charge": "charge-move", "run": RUN_MOVE}
    if not state.pending or sus.get("step") != step.get(ability) or \
            state.pending[0].kind != sus.get("step"):
        return None
    if Action.from_dict(sus["action"]).unit != state.scene.units[u].id:
        return None
    return float(sus["roll"] if ability != "run" else sus["allowed"])


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
    """A run given its path (the roll must reach it), or declared without one (the seed's
    order: the roll first, then the move answers it - check_run_move)."""
    if in_combat(state, u):
        return [v("in_combat", f"{action.unit} is in combat: it can only retreat")]
    if not (action.path or action.paths):
        return []
    return movement.check(state, u, action, allowance(state, u, "run"),
                          keep=(no_combat(state, u),)).problems


def run(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    """"Make a run roll of D6. That unit can move a distance up to its Move characteristic
    added to the run roll": the roll (a dice Move rolled too), then the move - given with the
    action (try's shorthand: a roll short of it leaves the unit where it stood), or, declared
    without a path, the running side's decision RUN_MOVE: the move (checked against what was
    rolled) or decline (it stays)."""
    unit = state.scene.units[u]
    double = "at-the-double" in commands.given(action)
    rolled = move_rolled(state, u)
    got = play(rolls.run_roll(book(state).core.movement, unit.id, double), state.dice)
    by, names = run_bonus(state, u, True) if not double else (0, [])
    allowed = (rolled[0] if rolled else move_stat(state, u)) + max(0, got + by)
    # At the Double: "Do not make a run roll ... Instead, add 6\"" - said so, not as a roll
    run_event: Event = ({"type": "run", "unit": unit.id, "added": got,
                         "instead_of_roll": "at-the-double", "allowed": allowed} if double else
                        {"type": "run", "unit": unit.id, "roll": got, "allowed": allowed})
    if by:
        run_event.update(modifier=by, abilities=names)
    events: list[Event] = [*([rolled[1]] if rolled else []), run_event]
    state.units[u].flags.add("moved")
    if not (action.path or action.paths):
        d = Decision(unit.side, RUN_MOVE, (Action(DECLINE, side=unit.side),),
                     about=(("allowed", f"{allowed:g}"), ("unit", unit.id)), open=("run",))
        return events + ask(state, [d], {"step": RUN_MOVE, "action": action.to_dict(),
                                         "allowed": allowed})
    checked = movement.check(state, u, action, allowed)
    if checked.problems:
        why = checked.problems[0].message
        events.append({"type": "run-short", "unit": unit.id, "reason": why,
                       "failed": f"run short: {why}"})
        return events
    state.table = checked.after
    return [*events, {"type": "moved", "unit": unit.id}]


def check_run_move(state: State, action: Action) -> list[Violation]:
    """The move that answers a run roll: the running unit's, up to its Move plus the roll,
    never into combat (the same check as a run given its path)."""
    sus = state.suspended or {}
    declared = Action.from_dict(sus["action"])
    got = movement.roll_answer(
        state, action, "run", "not_the_running_unit",
        f"run {declared.unit} may move {sus['allowed']:g}\": give its \"path\" (or "
        f"\"paths\"), or decline")
    if isinstance(got, list):
        return got
    u, move = got
    return movement.check(state, u, move, float(sus["allowed"]),
                          keep=(no_combat(state, u),)).problems


def resume_run(state: State, suspended: dict[str, Any], answer: Action) -> list[Event]:
    """The running side's answer to its roll: the move, or decline (the unit stays; it has
    still used a RUN ability this turn)."""
    declared = Action.from_dict(suspended["action"])
    if answer.type == DECLINE:
        return [{"type": "run-declined", "unit": declared.unit}]
    return moved(state, state.unit_index(declared.unit), replace(answer, unit=declared.unit))


# --- retreat --------------------------------------------------------------------------------------
def check_retreat(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    if not in_combat(state, u):
        return [v("not_in_combat", f"{action.unit} is not in combat: it cannot retreat")]
    checked = movement.check(state, u, action, move_stat(state, u),
                             keep=(out_of_combat_range(state, u),))
    return checked.problems or onto_terrain.ends_through(state, u, checked)


def retreat(state: State, a: Ability, u: int, action: Action, mortal: bool = True
            ) -> list[Event]:
    """D3 mortal damage (none when an ability says so: `mortal` False), then the move as
    planned for the models it leaves standing (a slain model's path goes with it); a move that
    no longer holds (a Move rolled short, the models left no longer coherent) leaves the unit
    where it stood."""
    plan = movement.planned(state, u, action)
    events = allocation.mortal(state, u, book(state).core.movement.retreat_mortal,
                               f"retreat {action.unit}") if mortal else []
    state.units[u].flags.add("moved")
    if not len(state.models_of(u)) or isinstance(plan, Violation):
        return events
    moves = standing(state, plan)
    keep = (out_of_combat_range(state, u),)
    rolled = move_rolled(state, u)
    if rolled is not None:
        return [*events, *dice_move(state, u, moves, rolled, "retreat", keep)]
    checked = movement.check(state, u, moves, None, keep=keep)
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
                          keep=(out_of_combat_range(state, u, passing=True),)).problems


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
