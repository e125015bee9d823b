"""aos4 shooting: shoot and covering fire - each a check and a resolve `(state, ability, unit,
action)`, registered on the ruleset (rules.py) - the targets an action names, and the attack
every shoot, covering fire and fight declares: the defender's All-out Defence decision
(defence.py), then volleys with cover and commands."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from battlefield.rules import decisions
from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import allocation, commands, defence, passives, split
from battlefield.rules.aos4.abilities_play import by_hand
from battlefield.rules.aos4.attacks import Modifiers
from battlefield.rules.aos4.cover import pieces_covering
from battlefield.rules.aos4.data import Ability, book
from battlefield.rules.aos4.movement import in_combat, v
from battlefield.rules.aos4.weapons import Weapon, against, weapons_of, wielded
from battlefield.rules.standing import referee
from battlefield.rules.state import State
from battlefield.rulings import Referee

Event = dict[str, Any]


def targets(state: State, action: Action) -> tuple[list[int], list[Violation]]:
    """The enemy units the action names, and why a name is none of them (or named twice)."""
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
        elif w in out:
            bad.append(v("duplicate_target", f"{t} is named twice: a target is picked once "
                                             f"(split its attacks with \"split\")"))
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
    ref = referee(state)
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
           cause: str, melee: bool) -> list[Event]:
    """Declare an attack on `targets` (one after another while they stand); the defending
    side decides on All-out Defence first when it can use it (the reaction's data says which
    abilities it answers), then the dice are rolled."""
    declared = {"kind": "attack", "unit": u, "targets": [int(w) for w in targets],
                "hit_mod": hit_mod, "action": action.to_dict(), "cause": cause,
                "melee": melee, "weapon": None}     # every weapon; the key as saved games have it
    answers = book(state).abilities[defence.ID].reacts_to
    ask = defence.decision(state, u, list(targets), action.type) \
        if action.type in answers else None
    if ask is None:
        return roll_attack(state, declared, None)
    return decisions.ask(state, [ask], declared)


def roll_attack(state: State, declared: dict[str, Any], answer: Action | None) -> list[Event]:
    """The declared attack's dice, after the defender's answer (None: it was not asked):
    each weapon's attacks at each target as the split gives them (split.py)."""
    u, action = declared["unit"], Action.from_dict(declared["action"])
    events: list[Event] = []
    if answer is not None and answer.type == defence.ID:
        events.extend(defence.use(state, state.unit_index(answer.unit)))
    ref = referee(state)
    aimed = [w for w in declared["targets"] if len(state.models_of(w))]
    weapons = split.armed(state, u, declared["melee"], bool(ref.combat[u]))
    plan, _ = split.orders(state, ref, u, aimed, weapons, action)
    given = split.shares(state, u, aimed, plan, weapons)
    aoa = "all-out-attack" in commands.given(action)
    charged = "charged" in state.units[u].flags
    mine = state.units[u].counters
    live = passives.in_play(state, ref)
    for w in aimed:
        if not len(state.models_of(w)) or not len(state.models_of(u)):
            continue
        spec = state.scene.units[w]
        cover = [] if ("charged" in state.units[w].flags or spec.has("FLY")) else \
            pieces_covering(state.table, state.models_of(u), state.models_of(w), "cover",
                            ref.rules.combat_range)
        theirs = state.units[w].counters
        base = Modifiers(hit=declared["hit_mod"] + (-1 if cover else 0) + (1 if aoa else 0),
                         wound=0,
                         save=defence.save_bonus(state, w) + int(theirs.get("buff_save", 0)),
                         ward=allocation.stat(state, w, "ward", None))
        base = by_hand(state, u, w, base)      # adjustments' modifiers to the next rolls
        total = 0
        for share in (s for s in given if s.target == w):
            # Companion: the attacking unit's own buffs leave the weapon alone
            own = not share.weapon.companion
            mods = replace(base, hit=base.hit + (int(mine.get("buff_hit", 0)) if own else 0),
                           wound=base.wound + (int(mine.get("buff_wound", 0)) if own else 0))
            wp, anti = against(wielded(share.weapon, charged), spec,
                               "charged" in state.units[w].flags)
            wp, mods, used = passives.in_attack(live, u, w, wp, mods, companion=not own)
            dmg, ev = allocation.volley(state, u, w, wp, len(share.models), mods, share.attacks)
            ev["models"] = len(share.by)
            if used:
                ev["abilities"] = used                 # the passive abilities it played
            ev["cover"] = [state.table.layout.pieces[k].id for k in cover]
            if anti:
                ev["anti"] = anti
            if wp.damage != share.weapon.damage:
                ev["charge_damage"] = wp.damage
            events.append(ev)
            total += dmg
        events.extend(allocation.allocate(state, w, total, state.models_of(u),
                                          declared["cause"]))
    return events


# --- shoot ----------------------------------------------------------------------------------------
def check_shoot(state: State, a: Ability, u: int, action: Action) -> list[Violation]:
    """Not after a RUN or RETREAT; enemy targets, each named once, that some model can aim
    at; every ranged weapon shoots ("Models attack with all ranged weapons they are armed
    with"); in combat only Shoot in Combat weapons ("unless otherwise specified"); the
    split, when given, playable (split.py)."""
    us = state.units[u]
    if us.flags & {"ran", "retreated"}:
        return [v("ran_or_retreated", f"{action.unit} ran or retreated this turn")]
    aimed, bad = targets(state, action)
    if bad:
        return bad
    if not weapons_of(state.scene, u, melee=False):
        return [v("no_ranged_weapons", f"{action.unit} has no ranged weapon to shoot")]
    engaged = in_combat(state, u)
    ranged = split.armed(state, u, melee=False, engaged=engaged)
    if not ranged:
        return [v("in_combat", f"{action.unit} is in combat and cannot shoot: none of its "
                               f"ranged weapons has Shoot in Combat")]
    out = can_target(state, u, aimed, ranged)
    if out:
        return out
    _, bad = split.orders(state, referee(state), u, aimed, ranged, action)
    return bad


def shoot(state: State, a: Ability, u: int, action: Action) -> list[Event]:
    aimed, _ = targets(state, action)
    state.units[u].flags.add("shot")
    return attack(state, u, aimed, 0, action, f"shot by {action.unit}", melee=False)


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
