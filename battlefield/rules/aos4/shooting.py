"""aos4 shooting: shoot and covering fire - each a check and a resolve `(state, ability, unit,
action)`, registered on the ruleset (rules.py) - the targets an action names, and the attack
every shoot, covering fire and fight declares: the defender's All-out Defence decision
(defence.py), then volleys with cover and commands."""

from __future__ import annotations

from typing import Any

from battlefield.rules import decisions
from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import allocation, commands, defence
from battlefield.rules.aos4.attacks import Modifiers
from battlefield.rules.aos4.cover import pieces_covering
from battlefield.rules.aos4.data import Ability
from battlefield.rules.aos4.movement import in_combat, v
from battlefield.rules.aos4.weapons import Weapon, against, weapons_of
from battlefield.rules.state import State
from battlefield.rulings import Referee

Event = dict[str, Any]


def targets(state: State, action: Action) -> tuple[list[int], list[Violation]]:
    """The enemy units the action names, and why a name is none of them."""
    out, bad = [], []
    for t in action.targets:
        try:
            w = state.unit_index(t)
        except KeyError:
            bad.append(v("unknown_target", f"no unit '{t}'"))
            continue
        if state.side_of(w) == state.clock["acting"]:
            bad.append(v("friendly_target", f"{t} is not an enemy unit"))
        elif not len(state.models_of(w)):
            bad.append(v("destroyed", f"{t} has been destroyed"))
        else:
            out.append(w)
    if not action.targets:
        bad.append(v("no_target", f"{action.type} needs a \"target\"", choose="target"))
    return out, bad


def able(state: State, ref: Referee, u: int, w: int, weapon: Weapon) -> int:
    """How many of u's models can attack w with the weapon (in range, able to see)."""
    # here, not at the top: start-up time of the CLI
    from battlefield.rules.aos4.odds import _able

    n, _ = _able(ref, u, w, weapon)
    return n


def can_target(state: State, u: int, targets: list[int], weapons: list[Weapon]
               ) -> list[Violation]:
    """Why unit u cannot aim `weapons` at each of `targets`: obscured, out of range or sight."""
    ref = Referee(state.scene, state.table)
    out = []
    for w in targets:
        spec = state.scene.units[w]
        if not spec.has("FLY"):
            hiding = pieces_covering(state.table, state.models_of(u), state.models_of(w),
                                     "obscuring", ref.rules.combat_range)
            if hiding:
                ids = ", ".join(state.table.layout.pieces[k].id for k in hiding)
                out.append(v("obscured", f"{spec.id} is behind or on obscuring terrain "
                                         f"({ids})"))
                continue
        if not any(able(state, ref, u, w, wp) for wp in weapons):
            out.append(v("out_of_range_or_sight", f"no model of {state.scene.units[u].id} "
                                                  f"has {spec.id} in range and in sight"))
    return out


# --- the attack -----------------------------------------------------------------------------------
def attack(state: State, u: int, targets: list[int], hit_mod: int, action: Action,
           cause: str, melee: bool, weapon: str | None = None) -> list[Event]:
    """Declare an attack on `targets` (one after another while they stand); the defending
    side decides on All-out Defence first when it can use it, then the dice are rolled."""
    declared = {"kind": "attack", "unit": u, "targets": [int(w) for w in targets],
                "hit_mod": hit_mod, "action": action.to_dict(), "cause": cause,
                "melee": melee, "weapon": weapon}
    ask = defence.decision(state, u, list(targets), action.type) \
        if action.type in ("shoot", "fight") else None
    if ask is None:
        return roll_attack(state, declared, None)
    return decisions.ask(state, [ask], declared)


def roll_attack(state: State, declared: dict[str, Any], answer: Action | None) -> list[Event]:
    """The declared attack's dice, after the defender's answer (None: it was not asked)."""
    u, action = declared["unit"], Action.from_dict(declared["action"])
    weapons = (weapons_of(state.scene, u, name=declared["weapon"]) if declared["weapon"]
               else weapons_of(state.scene, u, melee=declared["melee"]))
    events: list[Event] = []
    if answer is not None and answer.type == defence.ID:
        events.extend(defence.use(state, state.unit_index(answer.unit)))
    ref = Referee(state.scene, state.table)
    aoa = "all-out-attack" in commands.given(action)
    for w in declared["targets"]:
        if not len(state.models_of(w)) or not len(state.models_of(u)):
            continue
        spec = state.scene.units[w]
        cover = [] if ("charged" in state.units[w].flags or spec.has("FLY")) else \
            pieces_covering(state.table, state.models_of(u), state.models_of(w), "cover",
                            ref.rules.combat_range)
        mine, theirs = state.units[u].counters, state.units[w].counters
        mods = Modifiers(hit=declared["hit_mod"] + (-1 if cover else 0) + (1 if aoa else 0)
                         + int(mine.get("buff_hit", 0)),
                         wound=int(mine.get("buff_wound", 0)),
                         save=defence.save_bonus(state, w) + int(theirs.get("buff_save", 0)),
                         ward=allocation.stat(state, w, "ward", None))
        total = 0
        for wp in weapons:
            n = able(state, ref, u, w, wp)
            if not n:
                continue
            wp, anti = against(wp, spec, "charged" in state.units[w].flags)
            dmg, ev = allocation.volley(state, u, w, wp, n, mods)
            ev["cover"] = [state.table.layout.pieces[k].id for k in cover]
            if anti:
                ev["anti"] = anti
            events.append(ev)
            total += dmg
        events.extend(allocation.allocate(state, w, total, state.models_of(u),
                                          declared["cause"]))
        ref = Referee(state.scene, state.table)
    return events


# --- shoot ----------------------------------------------------------------------------------------
def check_shoot(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    us = state.units[u]
    if us.flags & {"ran", "retreated"}:
        return [v("ran_or_retreated", f"{action.unit} ran or retreated this turn")]
    aimed, bad = targets(state, action)
    if bad:
        return bad
    if in_combat(state, u):
        return [v("in_combat", f"{action.unit} is in combat and cannot shoot")]
    ranged = weapons_of(state.scene, u, melee=False,
                        name=action.weapon) if action.weapon else \
        weapons_of(state.scene, u, melee=False)
    if not ranged or any(w.melee for w in ranged):
        return [v("no_ranged_weapons", f"{action.unit} has no ranged weapon to shoot")]
    return can_target(state, u, aimed, ranged)


def shoot(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    aimed, _ = targets(state, action)
    state.units[u].flags.add("shot")
    # one target at a time: the weapons have no other target
    return attack(state, u, aimed[:1], 0, action, f"shot by {action.unit}", melee=False,
                  weapon=action.weapon)


# --- covering fire --------------------------------------------------------------------------------
def closest_target(state: State, u: int, weapons: list[Weapon]) -> int | None:
    """The closest enemy unit u can aim its weapons at, or None."""
    best, where = None, float("inf")
    for w in state.enemies(u):
        if can_target(state, u, [w], weapons):
            continue
        d = state.table.unit_distance(u, w)
        if d < where:
            best, where = w, d
    return best


def check_covering_fire(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    us = state.units[u]
    if "ran" in us.flags or in_combat(state, u):
        return [v("cannot_cover", f"{action.unit} ran this turn or is in combat")]
    ranged = weapons_of(state.scene, u, melee=False)
    if not ranged:
        return [v("no_ranged_weapons", f"{action.unit} has no ranged weapons")]
    closest = closest_target(state, u, ranged)
    if closest is None:
        return [v("no_target", "no enemy unit can be targeted")]      # none to choose
    if action.target is not None and action.target != state.scene.units[closest].id:
        return [v("not_closest", f"covering fire targets the closest enemy unit that can "
                                 f"be targeted: {state.scene.units[closest].id}")]
    return []


def covering_fire(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    w = closest_target(state, u, weapons_of(state.scene, u, melee=False))
    return attack(state, u, [w], -1, action, f"covering fire {action.unit}", melee=False)
