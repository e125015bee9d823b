"""The hero phase of aos4 (seed: hero): spells, unbinding, prayers and ritual points.

A WIZARD casts as many spells a phase as its power level (stat `power`, default 1): a casting
roll of 2D6 equal to or over the spell's casting value casts it, unless two or more dice show an
unmodified 1 (a miscast: the spell fails, D3 mortal damage to the wizard, no more spells this
phase). A spell cast is then the other side's decision to unbind (seed: Unbind, a reaction of
the opponent): it picks one of its WIZARDs within 30" of the caster with unbinds left this phase
(as many as its power level; a HERO that activated a place of power this turn counts as WIZARD
(1)) - {"type": "unbind", "side", "unit"} - or declines ({"type": "decline", "side"}); the
unbinding roll of 2D6 unbinds the spell when it exceeds the casting roll. Nothing is asked when
no WIZARD can unbind.
A PRIEST chants as many prayers a phase as its power level: D6; an unmodified 1 fails and
removes D3 ritual points; otherwise the roll plus the priest's ritual points answers the prayer
when it reaches the chanting value (the points are spent), else the roll is banked as ritual
points ("bank": true banks it anyway). Every priest knows Sacred Rites: bank the roll, safely.
Each spell and prayer once per turn per army unless `unlimited`, and once per phase per unit
even then (the Rules of One). Magical Intervention (1 CP, the unit's command for the phase):
cast or chant in the enemy hero phase at -1.
Effects are data: {mortal: D3} on an enemy unit, {heal: D3} and {buff: {save: 1}} on a
friendly one (a buff lasts until its side's next turn; the same spell's buff does not stack).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from battlefield.rules.actions import Action, Violation
from battlefield.rules.aos4 import activated, allocation, commands, passives, spellbook
from battlefield.rules.aos4.data import book
from battlefield.rules.aos4.heroics import WIZARD_THIS_TURN
from battlefield.rules.aos4.movement import v
from battlefield.rules.decisions import DECLINE, Decision, ask
from battlefield.rules.standing import referee
from battlefield.rules.state import State

SACRED_RITES = "sacred-rites"
UNBIND = "unbind"                 # the decision's kind and its answer's type
INTERVENTION = "magical-intervention"
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


def intervention_choices(state: State) -> list[tuple[str, Action]]:
    """In the enemy hero phase, for the side acting then: every spell or prayer one of its
    units may cast or chant with Magical Intervention now (at each target it may pick), as the
    whole action with "command": "magical-intervention" - what the window's and the play page's
    magical-intervention button offers. Empty in any other phase, or when the side cannot pay
    or has used it this phase (the check of each says so)."""
    c = state.clock
    if state.pending or c["phase"] != "hero" or c["acting"] == c["active"]:
        return []
    side = c["acting"]
    out: list[tuple[str, Action]] = []
    names = [spec.id for spec in state.scene.units]
    for u, spec in enumerate(state.scene.units):
        if spec.side != side or not len(state.models_of(u)):
            continue
        for sid in cast_by(state, side):
            if lookup(state, u, sid) is None:
                continue
            base = Action(sid, spec.id, options=(("command", INTERVENTION),))
            bad = state.check(base)
            if not bad:
                out.append((f"{spec.id}: {sid}", base))
            elif all(x.choose == "target" for x in bad):
                for w, tid in enumerate(names):
                    aimed = replace(base, target=tid)
                    if len(state.models_of(w)) and not state.check(aimed):
                        out.append((f"{spec.id}: {sid} -> {tid}", aimed))
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
    if mine and intervention:
        return [v("wrong_phase", "magical-intervention is used in the enemy hero phase (its "
                                 "timing: Enemy Hero Phase); in your own, cast without it")]
    us = state.units[u]
    key = "spells" if kind == "spell" else "prayers"
    if kind == "spell" and not spec.has("WIZARD"):
        return [v("not_a_wizard", f"{spec.id} is not a WIZARD")]
    if kind == "prayer" and not spec.has("PRIEST"):
        return [v("not_a_priest", f"{spec.id} is not a PRIEST")]
    if kind == "spell" and "miscast" in us.phase_used:
        return [v("miscast", f"{spec.id} miscast this phase and cannot cast again")]
    if data["id"] in us.phase_used:
        return [v("once_per_phase", f"{spec.id} has used {data['id']} this phase (a unit uses "
                                    f"an ability once a phase, UNLIMITED or not)")]
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
    if enemy and not referee(state).sight.unit_sees(u, w):
        return [v("not_visible", f"{action.targets[0]} is not visible to {action.unit}")]
    return []


def resolve(state: State, u: int, action: Action, intervention: bool) -> list[Event]:
    kind, data = lookup(state, u, action.type)
    us = state.units[u]
    key = "spells" if kind == "spell" else "prayers"
    us.counters[f"{key}_this_phase"] = us.counters.get(f"{key}_this_phase", 0) + 1
    us.phase_used.add(data["id"])
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
    by, names = passives.bonus_now(state, u, "casting")
    total = roll.total + bonus + by
    ev: Event = {"type": "cast", "unit": spec.id, "spell": data["id"], "roll": total,
                 "casting_value": data["casting_value"],
                 **({"abilities": names} if by else {})}
    if sum(1 for x in roll.values if x == 1) >= m.miscast_ones:
        state.units[u].phase_used.add("miscast")
        return [{**ev, "result": "miscast", "failed": "cast miscast"},
                *allocation.mortal(state, u, m.miscast_mortal, f"miscast {spec.id}")]
    if total < data["casting_value"]:
        return [{**ev, "result": "failed", "failed": "cast failed"}]
    events = [{**ev, "result": "cast"}]
    able = unbinders(state, u)
    if not able:
        return events + effect(state, u, action, data)
    side = state.side_of(able[0])
    ids = [state.scene.units[w].id for w in able]
    choices = tuple(Action(UNBIND, unit=i, side=side) for i in ids) + (Action(DECLINE, side=side),)
    d = Decision(side, UNBIND, choices, about=(("caster", spec.id), ("spell", data["id"]),
                                               ("casting roll", str(total))))
    return events + ask(state, [d], {"step": UNBIND, "action": action.to_dict(),
                                     "roll": total})


def can_unbind(state: State, w: int) -> int:
    """How many unbinds unit w may use a phase: its power level when it is a WIZARD, 1 when
    it activated a place of power this turn (as if WIZARD (1)), N when a passive ability of it
    lets it unbind as if it had WIZARD (N), else none."""
    if state.scene.units[w].has("WIZARD"):
        return power(state, w)
    return max(1 if WIZARD_THIS_TURN in state.units[w].flags else 0,
               passives.unbinds_as_wizard(state.scene, w))


def unbinders(state: State, u: int) -> list[int]:
    """The enemy units that can unbind a spell cast by unit u: WIZARDs (or heroes as if they
    were) within 30" of it, with an unbind left this phase; nearest first."""
    reach = book(state).core.magic.unbind_range + 1e-6
    side = state.scene.units[u].side
    out = []
    for w, spec in enumerate(state.scene.units):
        if spec.side == side or not len(state.models_of(w)):
            continue
        if state.units[w].counters.get("unbinds_this_phase", 0) >= can_unbind(state, w):
            continue
        d = state.table.unit_distance(u, w)
        if d <= reach:
            out.append((d, w))
    return [w for _, w in sorted(out)]


def check_unbind(state: State, action: Action) -> str | None:
    """Why `action` (an unbind answer) is no choice now, in the seed's words (None: it may be
    one, the engine compares it with the choices)."""
    d = next((d for d in state.pending if d.kind == UNBIND), None)
    if d is None:
        return None
    try:
        w = state.unit_index(action.unit or "")
    except KeyError:
        return f"no unit '{action.unit}'"
    spec = state.scene.units[w]
    caster = state.unit_index(d.get("caster") or "")
    if spec.side != d.side:
        return f"{spec.id} is not {d.side}'s"
    if not can_unbind(state, w):
        return f"{spec.id} is not a WIZARD (nor a HERO that activated a place of power)"
    if state.units[w].counters.get("unbinds_this_phase", 0) >= can_unbind(state, w):
        return f"{spec.id} has used its unbinds this phase"
    dist = state.table.unit_distance(caster, w)
    reach = book(state).core.magic.unbind_range
    if dist > reach + 1e-6:
        return f"{spec.id} is {dist:.3f}\" from {d.get('caster')}, more than {reach:g}\""
    return None


def resume_unbind(state: State, suspended: dict[str, Any], answer: Action | None
                  ) -> list[Event]:
    """The defender has answered: its unbinding roll (when it chose a WIZARD), then the spell's
    effect unless the roll beat the casting roll."""
    action = Action.from_dict(suspended["action"])
    u = state.unit_index(action.unit)
    _, data = lookup(state, u, action.type)
    events: list[Event] = []
    if answer is not None and answer.type == UNBIND:
        w = state.unit_index(answer.unit)
        name = state.scene.units[w].id
        us = state.units[w]
        us.counters["unbinds_this_phase"] = us.counters.get("unbinds_this_phase", 0) + 1
        roll = state.dice.roll(book(state).core.magic.unbinding_roll,
                               f"unbinding roll {name}").total
        by, names = passives.bonus_now(state, w, "unbinding")   # abilities' modifiers
        roll += by
        unbound = roll > suspended["roll"]
        events.append({"type": "unbind", "unit": name, "roll": roll, "unbound": unbound,
                       **({"modifier": by, "abilities": names} if by else {}),
                       **({"failed": f"unbound by {name}"} if unbound else {})})
        if unbound:
            return events
    return events + effect(state, u, action, data)


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
    by, names = passives.bonus_now(state, u, "chanting")
    if by:
        ev["abilities"] = names
    total = roll.total + bonus + by
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
    if kind == "ability":               # the unit's ability of that name, as activated plays it
        got = spellbook.reading(state.scene.units[u], data)
        if got is None:
            return []
        played = activated.play(state, u, got[0], got[1], action)
        return played[1:]               # the cast (or the answered prayer) said it is used
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
        # The same spell twice does not stack (the Rules of One): its own share is replaced.
        own = f"buff_{stat}@{data['id']}"
        us.counters[f"buff_{stat}"] = us.counters.get(f"buff_{stat}", 0) \
            - us.counters.get(own, 0) + x
        us.counters[own] = x
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
    intervention = INTERVENTION in commands.given(action)
    others = [n for n in commands.given(action) if n != INTERVENTION]
    if others:
        return [v("unknown_command", f"a spell or prayer takes only \"command\": "
                                     f"\"{INTERVENTION}\", not {', '.join(others)}")]
    if len(commands.given(action)) > 1:
        return [v("command_twice", f"{INTERVENTION} is given twice: a command is used once")]
    out = check(state, u, action, intervention)
    side = state.clock["acting"]
    cost = book(state).abilities[INTERVENTION].cost
    if intervention and not out and "command" in state.units[u].phase_used:
        out.append(v("unit_command_used", f"{action.unit} has used a command this phase "
                                          f"(each unit uses 1 command a phase)"))
    elif intervention and not out:
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
    intervention = INTERVENTION in commands.given(action)
    events: list[Event] = []
    if intervention:
        events.append(commands.spend(state, state.clock["acting"], INTERVENTION))
        state.units[u].phase_used.add("command")    # the unit's command for the phase
    return events + resolve(state, u, action, intervention)
