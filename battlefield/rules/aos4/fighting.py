"""aos4 charges and combat: charge, counter-charge and fight with pile-in - each a check and a
resolve `(state, ability, unit, action)`, registered on the ruleset (rules.py) - and the strike
order: who may fight now (STRIKE-FIRST before the others, STRIKE-LAST after them), and who
picks the next fighter."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import commands, movement, onto_terrain, passives, rolls, split
from battlefield.rules.aos4.activated import FIGHTS_NEXT, PASSED_FIGHT
from battlefield.rules.aos4.charge import (
    by_hand_used,
    charge_roll_of,
    longest_charge,
    shortest_charge,
    shortest_onto,
)
from battlefield.rules.aos4.data import Ability, book
from battlefield.rules.aos4.movement import Arrive, in_combat, v
from battlefield.rules.aos4.movement_phase import moved
from battlefield.rules.aos4.shooting import attack, targets
from battlefield.rules.chance import Throw, play, roll
from battlefield.rules.decisions import DECLINE, Decision, ask
from battlefield.rules.rounds import other
from battlefield.rules.standing import referee
from battlefield.rules.state import State
from battlefield.rulings import Referee

Event = dict[str, Any]
PASSED = PASSED_FIGHT            # phase_used: a unit its side passed over in the combat phase
PILE_IN_TARGET = "pile_in_target"
MOVE = "charge-move"          # the decision a charge roll asks: the move, or decline


# --- charge ---------------------------------------------------------------------------------------
def check_charge(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    us = state.units[u]
    if us.flags & {"ran", "retreated"}:
        return [v("ran_or_retreated", f"{action.unit} ran or retreated this turn")]
    if in_combat(state, u):
        return [v("in_combat", f"{action.unit} is already in combat")]
    aimed, bad = targets(state, action)
    if bad:
        return bad
    if not (action.path or action.paths):
        # no path: the charge is declared ("Then, make a charge roll of 2D6"), unless no roll
        # can reach (the window asks this to know a charge phase with every enemy out of
        # reach has nothing to decide); the move answers the roll (charge_move)
        far = out_of_reach(state, u, aimed, action)
        return [far] if far else []
    rules = book(state)
    # "must end that move within 1/2\" of a visible enemy unit": any of them, not only the
    # target named (the target says which unit the charge means to reach: odds, the window);
    # or within 1/2" of a terrain piece an enemy unit no charge can reach stands wholly on
    return onto_terrain.allowed(state, u, movement.check(
        state, u, action, longest_charge(state, u), arrive=Arrive(
            tuple(state.enemies(u)), rules.core.charge.reach, sight=True,
            code="charge_not_reached")))


def out_of_reach(state: State, u: int, aimed: list[int], action: Action) -> Violation | None:
    """Asked of a charge given no path yet: whether no charge roll can reach any target.
    First the gap (every target further than the most the roll gives, the reach at its end
    and a base's turning as slack), then for the targets nearer than that the shortest legal
    charge path that odds --charge measures (charge.shortest_charge, exact up to the most the
    roll gives): none of them within it means no path can end within reach."""
    t = state.table
    rules = book(state)
    longest, reach = longest_charge(state, u), rules.core.charge.reach
    mine = t.unit_models[u]
    most = longest + reach + float(t.reach[mine].max()) + movement.EPS
    gaps = [t.unit_distance(u, w) for w in aimed]
    names = ", ".join(action.targets)
    ref = referee(state, t)
    # a target wholly on a piece no charge reaches for want of space: the charge may end
    # within 1/2" of the piece instead (onto_terrain)
    onto = [k for k, on in onto_terrain.blocked(state, u, ref).items()
            if any(w in on for w in aimed)]
    needed = [got.needed for k in onto
              if (got := shortest_onto(rules, ref, u, k, within=longest)) is not None]
    if needed:
        return None
    if min(gaps) > most and not onto:
        return v("out_of_charge_range", f"{names} is {min(gaps):.2f}\" from {action.unit}: "
                                        f"no charge roll reaches it (at most "
                                        f"{longest:g}\")", distance=min(gaps), most=longest)
    for w, gap in zip(aimed, gaps, strict=True):
        if gap > most:
            continue
        best = shortest_charge(rules, ref, u, w, within=longest)
        if best is not None and best.needed <= longest + movement.EPS:
            return None
        if best is not None:
            needed.append(best.needed)
    half = Fraction(reach).limit_denominator(16)
    shortest = (f"the shortest legal path needs {min(needed):.2f}\"" if needed else
                f"no legal path of {longest:g}\" or less ends within {half}\" of a "
                f"visible model")
    return v("out_of_charge_range", f"no charge roll brings {action.unit} within reach of "
                                    f"{names}: {shortest} (at most {longest:g}\")", most=longest)


def charge_length(state: State, u: int, action: Action) -> float:
    """The longest of the charging models' paths, as the roll must reach it."""
    moves = movement.planned(state, u, action)
    fly = state.scene.units[u].has("FLY")
    rules = book(state)
    worst = 0.0
    for m, path in zip(moves.models, moves.paths, strict=True):
        c = movement.terrain_for(rules, state.table, m).path_cost(path, fly)
        worst = max(worst, min(c.total, c.total_if_jumping))
    return worst


def charge(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    """A charge given its path with it: the roll must reach that path (else it fails where it
    stands); given none, the seed's order (declare_charge)."""
    if not (action.path or action.paths):
        return declare_charge(state, u, action)
    unit = state.scene.units[u]
    needed = charge_length(state, u, action)
    side = unit.side
    reroll = commands.reroll(state, side, action, "forward-to-victory")
    dice, bonus, names = charge_roll_of(state, u)
    by_hand_used(state, u, "charge")
    result = play(rolls.charge_roll(dice, unit.id, needed - bonus, reroll), state.dice)
    mods: Event = {"modifier": bonus, "abilities": names} if bonus else {}
    if dice != book(state).core.charge.roll:
        mods["dice"] = dice
    events: list[Event] = [{"type": "charge-roll", "unit": unit.id,
                            "roll": result.rolls[0], "needed": round(needed, 6), **mods}]
    if len(result.rolls) > 1:
        events += [commands.spend(state, side, "forward-to-victory"),
                   {"type": "charge-roll", "unit": unit.id, "roll": result.rolls[-1],
                    "needed": round(needed, 6), "reroll": True, **mods}]
    if not result.reached:
        events.append({"type": "charge-failed", "unit": unit.id, "failed": "charge failed"})
        return events
    return events + charged(state, u, action, action)


def charged(state: State, u: int, move: Action, declared: Action) -> list[Event]:
    """Unit u's charge move made (checked): the unit has charged, and a move that ended
    onto terrain (onto_terrain) is in combat through the piece."""
    piece = onto_terrain.charge_end(state, u, move)
    events = moved(state, u, move)
    state.units[u].flags.add("charged")
    events.append({"type": "charged", "unit": state.scene.units[u].id,
                   "target": list(declared.targets)})
    return events + onto_terrain.record(state, u, piece)


def declare_charge(state: State, u: int, action: Action) -> list[Event]:
    """A charge declared without its path, as the seed orders it: "make a charge roll of 2D6",
    then "that unit can move a distance up to the value of the charge roll". The roll is made
    and logged; Forward to Victory written on the declaration re-rolls it when it gives no
    legal charge. A roll with no legal charge (no path of that length ends within 1/2" of a
    visible enemy: charge.shortest_charge) fails at once, said so; else the charging side
    decides MOVE: the move, answered by a charge (or counter-charge) action with its path,
    checked against the roll (check_charge_move), or decline - the unit stays, the charge
    failed."""
    unit = state.scene.units[u]
    side = unit.side
    # the roll as abilities make it (charge_roll_of: the dice, what they add): the move may
    # be as long as the dice plus the modifier, never below 0
    dice, bonus, names = charge_roll_of(state, u)
    by_hand_used(state, u, "charge")
    mods: Event = {"modifier": bonus, "abilities": names} if bonus else {}
    if dice != book(state).core.charge.roll:
        mods["dice"] = dice
    rolled = roll(Throw(dice, f"charge roll {unit.id}"), state.dice)
    got = max(0, rolled + bonus)
    events: list[Event] = [{"type": "charge-roll", "unit": unit.id, "roll": rolled, **mods}]
    shortest = shortest_move(state, u)
    if (shortest is None or shortest > got + movement.EPS) and commands.reroll(
            state, side, action, "forward-to-victory"):
        events.append(commands.spend(state, side, "forward-to-victory"))
        rolled = roll(Throw(dice, f"charge re-roll {unit.id}"), state.dice)
        got = max(0, rolled + bonus)
        events.append({"type": "charge-roll", "unit": unit.id, "roll": rolled, "reroll": True,
                       **mods})
    if shortest is None or shortest > got + movement.EPS:
        needs = f": the shortest needs {shortest:.2f}\"" if shortest is not None else ""
        events.append({"type": "charge-failed", "unit": unit.id, "roll": got,
                       "failed": f"charge failed: no legal charge of {got}\"{needs}"})
        return events
    d = Decision(side, MOVE, (Action(DECLINE, side=side),),
                 about=(("roll", str(got)), ("target", ", ".join(action.targets)),
                        ("unit", unit.id)), open=(action.type,))
    return events + ask(state, [d], {"step": MOVE, "action": action.to_dict(), "roll": got})


def shortest_move(state: State, u: int) -> float | None:
    """The shortest legal charge of unit u to within 1/2" of any visible enemy unit (the most
    a charge roll gives as the search's bound), or None."""
    rules = book(state)
    ref, longest = referee(state), longest_charge(state, u)
    best = None
    for w in state.enemies(u):
        if state.table.unit_distance(u, w) - rules.core.charge.reach > longest + movement.EPS:
            continue
        got = shortest_charge(rules, ref, u, w, within=longest)
        if got is not None and (best is None or got.needed < best):
            best = got.needed
    onto = onto_terrain.shortest(state, u, longest, ref)
    return onto if best is None or (onto is not None and onto < best) else best


def check_charge_move(state: State, action: Action) -> list[Violation]:
    """The move that answers a charge roll: the declared unit's, no longer than the roll, ending
    within 1/2" of a visible enemy unit (the same move check as a charge given its path)."""
    sus = state.suspended or {}
    declared = Action.from_dict(sus["action"])
    got = movement.roll_answer(
        state, action, "charge", "not_the_charging_unit",
        f"{declared.type} {declared.unit} rolled {sus['roll']}: give its \"path\" (or "
        f"\"paths\") up to that far, or decline")
    if isinstance(got, list):
        return got
    u, move = got
    rules = book(state)
    return onto_terrain.allowed(state, u, movement.check(
        state, u, move, float(sus["roll"]), arrive=Arrive(
            tuple(state.enemies(u)), rules.core.charge.reach, sight=True,
            code="charge_not_reached")))


def resume_charge(state: State, suspended: dict[str, Any], answer: Action) -> list[Event]:
    """The charging side's answer to its roll: the move (the unit has charged) or decline."""
    declared = Action.from_dict(suspended["action"])
    u = state.unit_index(declared.unit)
    if answer.type == DECLINE:
        return [{"type": "charge-failed", "unit": declared.unit, "roll": suspended["roll"],
                 "failed": "charge failed: declined, the unit stays where it stood"}]
    return charged(state, u, replace(answer, unit=declared.unit), declared)


# --- who fights -----------------------------------------------------------------------------------
def fighters(state: State, side: str) -> list[int]:
    """The side's units that may be picked to fight now: STRIKE-FIRST units (of either
    side) fight before all others, STRIKE-LAST units after all others; a unit a reaction
    picked to fight immediately after the fight it reacted to (FIGHTS_NEXT) before anyone."""
    pending = all_fighters(state)
    w = fights_next(state, pending)
    if w is not None:
        return [w] if state.scene.units[w].side == side else []
    mine = [u for u in pending if state.scene.units[u].side == side]
    for order in ("first", ""):
        if any(strike(state, u) == order for u in pending):
            return [u for u in mine if strike(state, u) == order]
    return mine


def all_fighters(state: State) -> list[int]:
    """Units that may fight now: in combat, or charged this turn (a charged unit no longer in
    combat may pile in, and need not), and not fought nor passed this phase."""
    ref = referee(state)
    return [u for u in range(len(state.scene.units))
            if len(state.models_of(u)) and not state.units[u].phase_used & {"fight", PASSED}
            and (ref.combat[u] or "charged" in state.units[u].flags)]


def must_fight(state: State, side: str) -> list[int]:
    """The side's units that must fight before it passes: "All units in combat must use a
    FIGHT ability if able" - in combat, not only charged."""
    ref = referee(state)
    return [u for u in fighters(state, side) if ref.combat[u]]


def passed(state: State, side: str) -> bool:
    """The side passes in the combat phase: its units that may still fight (charged, not in
    combat) do not; a unit picked to fight immediately after (charged, not in combat) does
    not, and the side's others may still fight (True)."""
    immediate = fights_next(state) is not None
    for u in fighters(state, side):
        state.units[u].phase_used.add(PASSED)
    state.extra.pop(FIGHTS_NEXT, None)
    return immediate


def strike(state: State, u: int) -> str:
    """STRIKE-FIRST or STRIKE-LAST: the unit's keyword, or given for the rest of the turn by an
    ability (its flag) or by a passive one (passives.keywords)."""
    s = state.scene.units[u]
    given = {k.upper() for k in state.units[u].flags} | passives.keywords_now(state, u)
    first = s.has("STRIKE-FIRST") or "STRIKE-FIRST" in given
    last = s.has("STRIKE-LAST") or "STRIKE-LAST" in given
    return "first" if first and not last else ("last" if last and not first else "")


def fights_next(state: State, pending: list[int] | None = None) -> int | None:
    """The unit picked to fight immediately after the last fight, while it still may."""
    w = state.extra.get(FIGHTS_NEXT)
    if not isinstance(w, int) or isinstance(w, bool) or not 0 <= w < len(state.scene.units):
        return None
    return w if w in (all_fighters(state) if pending is None else pending) else None


def first_fighter(state: State) -> None:
    """The combat phase begins: the active side picks first, unless it has none to fight."""
    c = state.clock
    if not fighters(state, c["active"]) and fighters(state, other(state, c["active"])):
        c["acting"] = other(state, c["active"])


def next_fighter(state: State) -> None:
    """After a fight: the other side picks next, if it has a unit to fight; the side that
    fought keeps the pick while a unit of its own is to fight immediately after."""
    c = state.clock
    w = fights_next(state)
    if w is not None and state.scene.units[w].side == c["acting"]:
        return
    state.extra.pop(FIGHTS_NEXT, None)
    foe = other(state, c["acting"])
    if fighters(state, foe):
        c["acting"] = foe


# --- fight ----------------------------------------------------------------------------------------
def check_fight(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    """A unit in combat or that charged; the pile-in (check_pile_in); then, "if that unit is in
    combat, you must pick one or more enemy units as the target(s)": enemy units, each named
    once, in combat with it where the pile-in ends ("made with melee weapons against units
    within combat range and visible"); with no target, the one unit it is in combat with (with
    several, the player picks); the split playable (split.py)."""
    if u not in fighters(state, state.clock["acting"]):
        ref = referee(state)
        if not (ref.combat[u] or "charged" in state.units[u].flags):
            return [v("not_in_combat", f"{action.unit} is not in combat and did not charge")]
        return [v("strike_order", f"{action.unit} cannot fight yet (strike-first units "
                                  f"fight first, strike-last units last)")]
    aimed, bad = targets(state, action)
    bad = [x for x in bad if x.code != "no_target"]
    if bad:
        return bad
    after, piled = referee(state), ""
    if action.path is not None or action.paths is not None:
        target, problem = pile_in_target(state, u, action, aimed)
        if problem:
            return [problem]
        checked = check_pile_in(state, u, action, target)
        if checked[0]:
            return checked[0]
        after, piled = checked[1] or after, " after its pile-in"
    engaged = after.combat[u]
    far = [state.scene.units[w].id for w in aimed if w not in engaged]
    if far:
        return [v("not_in_combat_with", f"{', '.join(far)} {'is' if len(far) == 1 else 'are'} "
                                        f"not in combat with {action.unit}"
                                        f"{piled}"
                                        f": combat attacks are made against units within "
                                        f"combat range and visible",
                  units=tuple(far))]
    if not aimed and len(engaged) > 1:
        ids = ", ".join(state.scene.units[w].id for w in engaged)
        return [v("no_target", f"{action.unit} is in combat with {ids}: pick the target(s)",
                  choose="target")]
    aimed = aimed or list(engaged)
    weapons = split.armed(state, u, melee=True, engaged=True)
    return split.orders(state, after, u, aimed, weapons, action)[1]


def pile_in_target(state: State, u: int, action: Action, aimed: list[int]
                   ) -> tuple[int | None, Violation | None]:
    """The unit the pile-in must end no further from: `pile_in_target`, else the (first)
    target, else the one unit in combat with it; None for a unit not in combat (its models
    move 3\" in any direction)."""
    was = referee(state).combat[u]
    named = action.option(PILE_IN_TARGET)
    if not was:
        if named is not None:
            return None, v("pile_in_target", f"{action.unit} is not in combat: its models pile "
                                             f"in 3\" in any direction (leave "
                                             f"{PILE_IN_TARGET} out)")
        return None, None
    if named is not None:
        try:
            w = state.unit_index(str(named))
        except KeyError:
            return None, v("unknown_target", f"no unit '{named}'")
        if w not in was:
            return None, v("pile_in_target", f"the pile-in target {named} is not an enemy "
                                             f"unit in combat with {action.unit}")
        return w, None
    if aimed:
        if aimed[0] not in was:
            return None, v("pile_in_target", f"{state.scene.units[aimed[0]].id} is not in "
                                             f"combat with {action.unit}: pile in towards a "
                                             f"unit it is in combat with "
                                             f"(\"{PILE_IN_TARGET}\")")
        return aimed[0], None
    if len(was) == 1:
        return next(iter(was)), None
    ids = ", ".join(state.scene.units[w].id for w in was)
    return None, v("no_target", f"{action.unit} is in combat with {ids}: pick the target "
                                f"(its pile-in ends no further from it)", choose="target")


def check_pile_in(state: State, u: int, action: Action, target: int | None
                  ) -> tuple[list[Violation], Referee | None]:
    """A pile-in: up to 3", each model ending no further from `target` ("must end no further
    from the target unit"; none for a unit not in combat), and still in combat with each unit
    it was; the problems, and the position it ends in."""
    was = referee(state).combat[u]
    checked = movement.check(state, u, action, book(state).core.combat.pile_in,
                             closer=[target] if target is not None else [])
    out = list(checked.problems)
    if checked.moves is None or out:
        return out, None
    now = referee(state, checked.after)
    lost = [state.scene.units[w].id for w in was if w not in now.combat[u]]
    if lost:
        out.append(v("leaves_combat", f"the unit would no longer be in combat with "
                                      f"{', '.join(lost)}"))
    return out, now


def fight(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    if state.extra.get(FIGHTS_NEXT) == u:
        state.extra.pop(FIGHTS_NEXT)
    events: list[Event] = []
    if action.path is not None or action.paths is not None:
        events.extend(moved(state, u, action))
    aimed, _ = targets(state, action)
    if not aimed:
        aimed = list(referee(state).combat[u])
    if aimed:
        events.extend(attack(state, u, aimed, 0, action, f"fought by {action.unit}",
                             melee=True))
    return events
