"""The hero phase of aos4 (seed: hero): spells, unbinding, prayers and ritual points.

A WIZARD casts as many spells a phase as its power level (stat `power`, default 1): a casting
roll of 2D6 equal to or over the spell's casting value casts it, unless two or more dice show an
unmodified 1 (a miscast: the spell fails, D3 mortal damage to the wizard, no more spells this
phase). The closest enemy WIZARD within 30" with unbinds left then tries to unbind it (2D6 over
the casting roll) - the defender always tries unless the action says "unbind": false.
A PRIEST chants as many prayers a phase as its power level: D6; an unmodified 1 fails and
removes D3 ritual points; otherwise the roll plus the priest's ritual points answers the prayer
when it reaches the chanting value (the points are spent), else the roll is banked as ritual
points ("bank": true banks it anyway). Every priest knows Sacred Rites: bank the roll, safely.
Each spell and prayer once per turn per army unless `unlimited`. Magical Intervention (1 CP):
cast or chant in the enemy hero phase at -1.
Effects are data: {mortal: D3} on an enemy unit, {heal: D3} and {buff: {save: 1}} on a
friendly one (a buff lasts until its side's next turn).
"""

from __future__ import annotations

from typing import Any

from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import allocation, commands, spellbook
from battlefield.rules.aos4.data import book
from battlefield.rules.aos4.movement import v
from battlefield.rules.state import State
from battlefield.rulings import Referee

SACRED_RITES = "sacred-rites"
Event = dict[str, Any]


def lookup(state: State, u: int, kind_id: str) -> tuple[str, dict[str, Any]] | None:
    """('spell' | 'prayer', its data) for an action type the unit knows."""
    spec = state.scene.units[u]
    if kind_id == SACRED_RITES and spec.has("PRIEST"):
        return "prayer", {"id": SACRED_RITES, "chanting_value": 1, "range": 0,
                          "target": "self", "unlimited": True, "effect": {}}
    for s in spellbook.of(spec, "spells"):
        if s["id"] == kind_id:
            return "spell", s
    for p in spellbook.of(spec, "prayers"):
        if p["id"] == kind_id:
            return "prayer", p
    return None


def cast_by(state: State, side: str) -> list[str]:
    """The spells and prayers the side's units on the table know, in the units' order (a
    WIZARD's spells, a PRIEST's prayers and sacred-rites): what its hero phase offers besides
    the abilities."""
    out: list[str] = []
    for u, spec in enumerate(state.scene.units):
        if spec.side != side or not len(state.models_of(u)):
            continue
        ids = [s["id"] for s in spellbook.of(spec, "spells")] if spec.has("WIZARD") else []
        if spec.has("PRIEST"):
            ids += [p["id"] for p in spellbook.of(spec, "prayers")] + [SACRED_RITES]
        out += [i for i in ids if i not in out]
    return out


def known(state: State) -> set[str]:
    ids = {SACRED_RITES}
    for spec in state.scene.units:
        ids.update(s["id"] for s in spellbook.of(spec, "spells"))
        ids.update(p["id"] for p in spellbook.of(spec, "prayers"))
    return ids


def power(state: State, u: int) -> int:
    return int(allocation.stat(state, u, "power", 1) or 1)


def check(state: State, u: int, action: Action, intervention: bool) -> list[Violation]:
    kind, data = lookup(state, u, action.type)
    spec = state.scene.units[u]
    c = state.clock
    if c["phase"] != "hero":
        return [v("wrong_phase", f"{action.type} is used in the hero phase")]
    mine = c["acting"] == c["active"]
    if not mine and not intervention:
        return [v("wrong_phase", "in the enemy hero phase only with magical-intervention")]
    us = state.units[u]
    key = "spells" if kind == "spell" else "prayers"
    if kind == "spell" and not spec.has("WIZARD"):
        return [v("not_a_wizard", f"{spec.id} is not a WIZARD")]
    if kind == "prayer" and not spec.has("PRIEST"):
        return [v("not_a_priest", f"{spec.id} is not a PRIEST")]
    if kind == "spell" and "miscast" in us.phase_used:
        return [v("miscast", f"{spec.id} miscast this phase and cannot cast again")]
    used = int(us.counters.get(f"{key}_this_phase", 0))
    if used >= power(state, u):
        return [v("power_level", f"{spec.id} has used its {power(state, u)} {key} this phase")]
    side = spec.side
    if not data.get("unlimited") and data["id"] in state.sides[side].get(key, []):
        return [v("once_per_turn", f"{data['id']} has been used by {side} this turn")]
    return _check_target(state, u, action, data)


def _check_target(state, u, action, data) -> list[Violation]:
    want = data.get("target", "enemy")
    if want == "self":
        return []
    if action.target is None:
        return [v("no_target", f"{data['id']} needs a \"target\" ({want} unit)",
                  choose="target")]
    try:
        w = state.unit_index(action.targets[0])
    except KeyError:
        return [v("unknown_target", f"no unit '{action.targets[0]}'")]
    enemy = state.side_of(w) != state.side_of(u)
    if enemy != (want == "enemy"):
        return [v("wrong_target", f"{data['id']} targets a{'n' if want == 'enemy' else ''} "
                                  f"{want} unit")]
    if not len(state.models_of(w)):
        return [v("destroyed", f"{action.targets[0]} has been destroyed")]
    d = state.table.unit_distance(u, w)
    reach = float(data.get("range", book(state).core.magic.range))
    if d > reach + 1e-6:
        return [v("out_of_range", f"{action.targets[0]} is {d:.2f}\" away, the range is "
                                  f"{reach:g}\"", distance=d, range=reach)]
    if enemy and not Referee(state.scene, state.table).sight.unit_sees(u, w):
        return [v("not_visible", f"{action.targets[0]} is not visible to {action.unit}")]
    return []


def resolve(state: State, u: int, action: Action, intervention: bool) -> list[Event]:
    kind, data = lookup(state, u, action.type)
    us = state.units[u]
    key = "spells" if kind == "spell" else "prayers"
    us.counters[f"{key}_this_phase"] = us.counters.get(f"{key}_this_phase", 0) + 1
    state.sides[state.scene.units[u].side].setdefault(key, []).append(data["id"])
    m, h = book(state).core.magic, book(state).core.hero
    bonus = ((h.place_of_power_bonus if "empowered" in us.flags else 0)
             - (m.intervention_penalty if intervention else 0))
    if kind == "spell":
        return _cast(state, u, action, data, bonus)
    return _chant(state, u, action, data, bonus)


def _cast(state, u, action, data, bonus) -> list[Event]:
    spec = state.scene.units[u]
    m = book(state).core.magic
    roll = state.dice.roll(m.casting_roll, f"casting roll {spec.id} ({data['id']})")
    total = roll.total + bonus
    ev: Event = {"type": "cast", "unit": spec.id, "spell": data["id"], "roll": total,
                 "casting_value": data["casting_value"]}
    if sum(1 for x in roll.values if x == 1) >= m.miscast_ones:
        state.units[u].phase_used.add("miscast")
        return [{**ev, "result": "miscast", "failed": "cast miscast"},
                *allocation.mortal(state, u, m.miscast_mortal, f"miscast {spec.id}")]
    if total < data["casting_value"]:
        return [{**ev, "result": "failed", "failed": "cast failed"}]
    events = [{**ev, "result": "cast"}]
    if action.option("unbind", True):
        unbinder = _unbinder(state, u)
        if unbinder is not None:
            w = state.scene.units[unbinder]
            state.units[unbinder].counters["unbinds_this_phase"] = \
                state.units[unbinder].counters.get("unbinds_this_phase", 0) + 1
            un = state.dice.roll(m.unbinding_roll, f"unbinding roll {w.id}").total
            unbound = un > total
            events.append({"type": "unbind", "unit": w.id, "roll": un, "unbound": unbound,
                           **({"failed": f"unbound by {w.id}"} if unbound else {})})
            if unbound:
                return events
    return events + effect(state, u, action, data)


def _unbinder(state, u) -> int | None:
    best, where = None, book(state).core.magic.unbind_range + 1e-6
    side = state.scene.units[u].side
    for w, spec in enumerate(state.scene.units):
        if spec.side == side or not spec.has("WIZARD") or not len(state.models_of(w)):
            continue
        if state.units[w].counters.get("unbinds_this_phase", 0) >= power(state, w):
            continue
        d = state.table.unit_distance(u, w)
        if d <= where:
            best, where = w, d
    return best


def _chant(state, u, action, data, bonus) -> list[Event]:
    spec = state.scene.units[u]
    us = state.units[u]
    m = book(state).core.magic
    roll = state.dice.roll(m.chanting_roll, f"chanting roll {spec.id} ({data['id']})")
    points = int(us.counters.get("ritual", 0))
    ev: Event = {"type": "chant", "unit": spec.id, "prayer": data["id"], "roll": roll.total}
    if data["id"] == SACRED_RITES:
        us.counters["ritual"] = points + roll.total
        return [{**ev, "result": "ritual points", "ritual": us.counters["ritual"]}]
    if roll.values[0] == m.chant_fails_on:
        lost = state.dice.roll(m.ritual_lost, f"ritual points lost {spec.id}").total
        us.counters["ritual"] = max(0, points - lost)
        return [{**ev, "result": "failed", "ritual": us.counters["ritual"],
                 "failed": "chant failed"}]
    total = roll.total + bonus
    if not action.option("bank", False) and total + points >= data["chanting_value"]:
        us.counters["ritual"] = 0
        return [{**ev, "result": "answered", "ritual_spent": points}] + \
            effect(state, u, action, data)
    us.counters["ritual"] = points + roll.total
    return [{**ev, "result": "ritual points", "ritual": us.counters["ritual"]}]


def effect(state, u, action, data) -> list[Event]:
    target = u if data.get("target") == "self" else state.unit_index(action.targets[0])
    name = state.scene.units[target].id
    (kind, amount), = data["effect"].items()
    if kind == "mortal":
        return allocation.mortal(state, target, amount, f"{data['id']} at {name}",
                                state.models_of(u))
    if kind == "heal":
        n = allocation._amount(state, amount, f"heal {name}")
        us = state.units[target]
        healed = 0
        for k in range(len(us.damage)):
            while n and us.alive[k] and us.damage[k] > 0:
                us.damage[k] -= 1
                n -= 1
                healed += 1
        return [{"type": "healed", "unit": name, "points": healed}]
    us = state.units[target]
    for stat, x in amount.items():
        us.counters[f"buff_{stat}"] = us.counters.get(f"buff_{stat}", 0) + x
    return [{"type": "buff", "unit": name, **{k: x for k, x in amount.items()}}]


# --- a spell or prayer as an action (Aos4.check and resolve ask these) ---------------------------
def check_spell(state: State, action: Action) -> list[Violation]:
    """A spell or prayer named by its id: the caster, what it knows, its own rule, and
    Magical Intervention (given as its command) paid."""
    u, problem = commands.acting_unit(state, action)
    if problem:
        return [problem]
    if lookup(state, u, action.type) is None:
        return [v("unknown_spell", f"{action.unit} does not know {action.type}")]
    intervention = "magical-intervention" in commands.given(action)
    out = check(state, u, action, intervention)
    side = state.clock["acting"]
    cost = book(state).abilities["magical-intervention"].cost
    if intervention and not out:
        if state.sides[side]["cp"] < cost:
            out.append(v("command_points", f"magical-intervention needs {cost} command "
                                           f"point{'s' * (cost != 1)}, {side} has "
                                           f"{state.sides[side]['cp']}",
                         needed=cost, have=state.sides[side]["cp"]))
        elif "magical-intervention" in state.sides[side]["commands"]:
            out.append(v("command_used", f"{side} has used magical-intervention this phase"))
    return out


def use_spell(state: State, action: Action) -> list[Event]:
    """Cast or chant it, Magical Intervention paid first when it is given."""
    u = state.unit_index(action.unit)
    intervention = "magical-intervention" in commands.given(action)
    events: list[Event] = []
    if intervention:
        events.append(commands.spend(state, state.clock["acting"], "magical-intervention"))
    return events + resolve(state, u, action, intervention)
