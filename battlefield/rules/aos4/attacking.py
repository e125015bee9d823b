"""Attacks rolled with the game's dice, and damage allocated to models (aos4).

The same sequence as attacks.py computes exactly: hit, wound, save, damage, ward. Dice are
rolled in batches (all the hit rolls of one weapon, ...) and each batch is one logged roll.
Damage fills one model before the next: the models furthest from the attacker first, the leader
last (RULES-NOTES); after casualties, models are removed until the unit is coherent.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from battlefield.rules.aos4.attacks import Modifiers
from battlefield.rules.aos4.weapons import Weapon
from battlefield.rules.dice import parse
from battlefield.rules.state import State
from battlefield.rulings import Referee

Event = dict[str, Any]


def stat(state: State, u: int, key: str, default: int | None) -> int | None:
    v = state.scene.units[u].stats.get(key)
    if v is None or v == "-":
        return default
    return int(float(str(v).rstrip("+")))


def _amount(state: State, expr: str, purpose: str) -> int:
    n, _, bonus = parse(expr)
    if n == 0:
        return bonus
    return state.dice.roll(expr, purpose).total


def _dice(state: State, n: int, purpose: str) -> list[int]:
    return list(state.dice.roll(f"{n}D6", purpose).values) if n else []


def volley(state: State, u: int, v: int, w: Weapon, attackers: int, mods: Modifiers
           ) -> tuple[int, Event]:
    """Roll one weapon's attacks by `attackers` models of unit u at unit v; (damage, event)."""
    a, b = state.scene.units[u].id, state.scene.units[v].id
    tag = f"{a} {w.name} at {b}"
    attacks = sum(_amount(state, w.attacks, f"attacks ({tag})") for _ in range(attackers))
    save = stat(state, v, "save", None)
    hits = crits = 0
    for r in _dice(state, attacks, f"hit rolls ({tag})"):
        if r == 6:
            crits += 1
        elif r != 1 and r + mods.hit >= w.hit:
            hits += 1
    if w.crit is None:
        hits, crits = hits + crits, 0
    to_wound = hits + (2 * crits if w.crit == "crit-2-hits" else 0)
    auto = crits if w.crit == "crit-auto-wound" else 0
    mortal_hits = crits if w.crit == "crit-mortal" else 0
    wounds = auto + sum(1 for r in _dice(state, to_wound, f"wound rolls ({tag})")
                        if r != 1 and r + mods.wound >= w.wound)
    unsaved = wounds
    if save is not None and wounds:
        unsaved = sum(1 for r in _dice(state, wounds, f"save rolls ({b})")
                      if r == 1 or r - w.rend + mods.save < save)
    damage = sum(_amount(state, w.damage, f"damage ({tag})")
                 for _ in range(unsaved + mortal_hits))
    damage = ward(state, v, damage, mods.ward)
    return damage, {"type": "attack", "attacker": a, "target": b, "weapon": w.name,
                    "models": attackers, "attacks": attacks, "hits": hits + crits,
                    "critical": crits, "wounds": wounds + mortal_hits, "unsaved": unsaved,
                    "damage": damage}


def ward(state: State, v: int, damage: int, ward_value: int | None) -> int:
    if ward_value is None or damage <= 0:
        return damage
    rolls = _dice(state, damage, f"ward rolls ({state.scene.units[v].id})")
    return sum(1 for r in rolls if r < ward_value)


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
    slain: list[int] = []
    offsets = state.scene.model_offsets()[v]
    for i in order:
        if damage <= 0:
            break
        m = int(alive[i])
        k = m - offsets
        room = health - int(us.damage[k])
        take = min(room, damage)
        us.damage[k] += take
        damage -= take
        if us.damage[k] >= health:
            slain.append(m)
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
        ref = Referee(state.scene, state.table)
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
    dmg = _amount(state, str(expr), purpose)
    dmg = ward(state, v, dmg, stat(state, v, "ward", None))
    events: list[Event] = [{"type": "mortal-damage", "unit": state.scene.units[v].id,
                            "damage": dmg, "for": purpose}]
    events.extend(allocate(state, v, dmg, source, purpose))
    return events
