"""The attack procedure (seed: Attack Procedure, Support), rolled with the game's dice.

Dice = models x Strike + support; a die scores a hit when it plus the hit modifiers reaches the
attacker's Hit (pot shots: only 6s). For each hit the defender rolls a cover save, d6 + its cover
bonus, and 7 or more discards the hit (no bonus: no rolls). Each remaining hit deals Damage to
one model at a time until that model's damage reaches its Toughness (the rest of that hit is
lost), then the next model; a model already hurt this turn first, then the furthest from the
attacker's leader, the leader always last. Damage clears at the start of every turn.

Support: flanking fire (+2 for every other friendly unit that has the defender in range, +4 when
its Strike is 2 or more), high ground (+2 when the attacker's leader stands 1" or more above the
defender's), bombardment (+2/+4 within 6" of a friendly token).

The defender's retreat after an attack: exactly 5" directly away from the attacker (see
movement.retreat_plan), healing one point of damage on the last model hit (returning it when it
had been removed and is now below its Toughness).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from battlefield.rules.damage import fill
from battlefield.rules.skirmish import bombardment, movement
from battlefield.rules.skirmish.data import (
    EPS,
    game,
    is_melee,
    istat,
    leader,
    stat,
)
from battlefield.rules.state import State
from battlefield.rulings import Referee

Event = dict[str, Any]


# --- range and sight -----------------------------------------------------------------------------
def distance(state: State, u: int, w: int, table=None) -> float:
    """u's range measure to w: leader base to leader base, 3-D across elevation, horizontal for
    a melee unit while the leaders are less than 2" apart in height."""
    t = table if table is not None else state.table
    return movement.leader_gap(state, t, leader(state, u), leader(state, w), is_melee(state, u))


def in_range(state: State, u: int, w: int, table=None) -> bool:
    return distance(state, u, w, table) <= stat(state, u, "range") + EPS


def sight(state: State, u: int, w: int, referee: Referee | None = None) -> str:
    """full / partial / none: u's leader looking at w's leader (the 1"-from-terrain rules)."""
    ref = referee or Referee(state.scene, state.table)
    _, seen = ref.table.memo(("skirmish-sight", id(ref.scene), u, w),
                             lambda: (ref.scene, ref.leader_sight(u, w).visible))
    return seen


# --- support -------------------------------------------------------------------------------------
@dataclass
class Support:
    flanking: int = 0
    flanking_from: list[str] = field(default_factory=list)
    high_ground: int = 0
    bombardment: int = 0
    bombardment_from: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.flanking + self.high_ground + self.bombardment

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.flanking:
            out["flanking"] = self.flanking
            out["flanking_from"] = list(self.flanking_from)
        if self.high_ground:
            out["high_ground"] = self.high_ground
        if self.bombardment:
            out["bombardment"] = self.bombardment
            out["bombardment_from"] = list(self.bombardment_from)
        return out


def support(state: State, u: int, w: int) -> Support:
    g = game(state)
    s = Support()
    for f in state.friends(u):
        if in_range(state, f, w):
            s.flanking += g.flanking_strong if istat(state, f, "strike") >= g.strong_strike \
                else g.flanking
            s.flanking_from.append(state.scene.units[f].id)
    t = state.table
    if t.z[leader(state, u)] - t.z[leader(state, w)] >= g.high_ground_rise - EPS:
        s.high_ground = g.high_ground
    s.bombardment, s.bombardment_from = bombardment.support(state, u, w)
    return s


# --- one attack ----------------------------------------------------------------------------------
@dataclass
class Attack:
    """One attack ready to roll: who, how many dice, what it needs, the defender's cover."""

    attacker: int
    defender: int
    dice: int
    support: Support
    hit_mod: int = 0
    cover_bonus: int = 0
    pot_shots: bool = False
    models: int = 0
    notes: dict[str, Any] = field(default_factory=dict)


def prepare(state: State, u: int, w: int, hit_mod: int = 0, cover_bonus: int = 0,
            with_support: bool = True, pot_shots: bool = False) -> Attack:
    """Count the dice now (simultaneous attacks count before either side's casualties)."""
    s = support(state, u, w) if with_support else Support()
    models = len(state.models_of(u))
    dice = models * istat(state, u, "strike") + s.total
    cover = istat(state, w, "cover") + cover_bonus
    return Attack(u, w, dice, s, hit_mod, cover, pot_shots, models)


def roll(state: State, a: Attack) -> tuple[int, Event]:
    """Roll the hits and the cover saves; (hits that stand, the attack's event so far)."""
    g = game(state)
    spec, dspec = state.scene.units[a.attacker], state.scene.units[a.defender]
    tag = f"{spec.id} at {dspec.id}"
    hit = istat(state, a.attacker, "hit")
    values = list(state.dice.roll(f"{a.dice}D6", f"{'pot shots' if a.pot_shots else 'attack'} "
                                                 f"({tag})").values) if a.dice else []
    if a.pot_shots:
        hits = sum(1 for r in values if r >= g.pot_shot_hit_on)
        needed = g.pot_shot_hit_on
    else:
        hits = sum(1 for r in values if r + a.hit_mod >= hit)
        needed = hit - a.hit_mod
    saved = 0
    if hits and a.cover_bonus > 0:
        saves = state.dice.roll(f"{hits}D6", f"cover saves ({dspec.id})").values
        saved = sum(1 for r in saves if r + a.cover_bonus >= g.cover_save_on)
    event: Event = {"type": "pot-shots" if a.pot_shots else "attack"}
    if a.pot_shots:
        event.update({"by": spec.id, "target": dspec.id})
    else:
        event.update({"attacker": spec.id, "defender": dspec.id})
    event.update({"dice": a.dice, "support": a.support.total, **a.support.to_dict(),
                  "models": a.models,
                  "strike": istat(state, a.attacker, "strike"), "hit_on": needed,
                  "hits": hits, "cover_bonus": a.cover_bonus, "saved": saved, **a.notes})
    return hits - saved, event


def allocate(state: State, w: int, hits: int, damage: int, source: int | None) -> dict[str, Any]:
    """Deal `damage` per hit to unit w's models one at a time (leader last); returns the
    damage dealt, the models slain and the last model hit."""
    us = state.units[w]
    first = state.scene.model_offsets()[w]
    filled = fill(us.damage, max(1, istat(state, w, "toughness")),
                  allocation_order(state, w, source), [damage] * hits, spill=False)
    slain = [first + k for k in filled.slain]
    if slain:
        kill(state, w, slain)
    if filled.last is not None:
        us.counters["last_hit"] = float(filled.last)
    names = state.scene.model_names
    return {"damage": filled.dealt, "slain": [names[m] for m in slain], "last": filled.last}


def allocation_order(state: State, w: int, source: int | None) -> list[int]:
    """Unit w's models (unit-local) in the order hits go to them: damaged ones first, then the
    furthest from the attacker's leader, the leader last."""
    us = state.units[w]
    t = state.table
    first = state.scene.model_offsets()[w]
    lead = leader(state, w)
    alive = [int(m) for m in state.models_of(w)]
    if not alive:
        return []
    if source is not None:
        far = t.distances(np.array(alive), np.array([source]))[:, 0]
    else:
        far = np.zeros(len(alive))
    order = sorted(range(len(alive)), key=lambda i: (alive[i] == lead,
                                                     us.damage[alive[i] - first] == 0,
                                                     -round(float(far[i]), 9), alive[i]))
    return [alive[i] - first for i in order]


def kill(state: State, unit: int, models: list[int]) -> None:
    """Take slain models off the table (State.slay)."""
    state.slay(unit, models)


def resolve(state: State, a: Attack) -> list[Event]:
    """Roll an attack, deal its damage; the events (attack or pot shots, token removal)."""
    standing, event = roll(state, a)
    state.units[a.defender].counters.pop("last_hit", None)     # the last model hit by this attack
    source = leader(state, a.attacker) if len(state.models_of(a.attacker)) else None
    result = allocate(state, a.defender, standing, istat(state, a.attacker, "damage"), source)
    event.update({"damage": result["damage"], "slain": result["slain"]})
    events: list[Event] = [event]
    if not len(state.models_of(a.defender)):
        events.append({"type": "destroyed", "unit": state.scene.units[a.defender].id})
        events.extend(bombardment.remove(state, a.defender, "destroyed"))
    return events


# --- dangerous terrain ---------------------------------------------------------------------------
def dangerous(state: State, u: int, models: list[int]) -> list[Event]:
    """A D6 for each model that dropped 4" or more; each 1 is a point of damage to the unit."""
    if not models or not len(state.models_of(u)):
        return []
    g = game(state)
    spec = state.scene.units[u]
    rolls = state.dice.roll(f"{len(models)}D6", f"dangerous terrain ({spec.id})").values
    fails = sum(1 for r in rolls if r <= g.dangerous_fails_on)
    names = state.scene.model_names
    event: Event = {"type": "dangerous-terrain", "unit": spec.id,
                    "models": [names[m] for m in models], "rolls": list(rolls),
                    "damage": fails}
    result = allocate(state, u, fails, 1, None)
    event["slain"] = result["slain"]
    events = [event]
    if not len(state.models_of(u)):
        events.append({"type": "destroyed", "unit": spec.id})
        events.extend(bombardment.remove(state, u, "destroyed"))
    return events


# --- retreat -------------------------------------------------------------------------------------
def retreat(state: State, w: int, attacker: int, heal: bool = True) -> list[Event]:
    """The defender's retreat away from `attacker`: heal one damage point on the last model hit
    (returning it when removed and now below Toughness), then move exactly 5" directly away, or
    as close to that line as terrain allows. Nothing changes when no line is clear."""
    spec = state.scene.units[w]
    if not len(state.models_of(w)):
        return []
    us = state.units[w]
    keep = (state.table, us.alive.copy(), us.damage.copy())
    healed, returned = None, False
    last = us.counters.get("last_hit")
    if heal and last is not None and us.damage[int(last)] > 0:
        k = int(last)
        us.damage[k] -= 1
        healed = state.scene.model_names[state.scene.model_offsets()[w] + k]
        if not us.alive[k] and us.damage[k] < max(1, istat(state, w, "toughness")):
            m = state.scene.model_offsets()[w] + k
            state.table = state.table.restored(np.array([m]), np.array([w]))
            us.alive[k] = True
            returned = True
    plan = movement.retreat_plan(state, w, attacker)
    if plan is None:
        state.table, us.alive, us.damage = keep
        why = "no clear line within 90 degrees of directly away"
        return [{"type": "retreat-blocked", "unit": spec.id,
                 "from": state.scene.units[attacker].id, "reason": why,
                 "failed": f"retreat blocked: {why}"}]
    moves, checked, turned = plan
    state.table = checked.after
    us.flags.add("retreated")
    us.counters.pop("last_hit", None)
    event: Event = {"type": "retreat", "unit": spec.id, "from": state.scene.units[attacker].id,
                    "distance": game(state).retreat_distance, "turned": turned,
                    "to": [[round(float(x), 6), round(float(y), 6)] for x, y in moves.ends()]}
    if healed:
        event["healed"] = healed
    if returned:
        event["returned"] = healed
    events: list[Event] = [event]
    events.extend(bombardment.remove(state, w, "moved"))
    events.extend(dangerous(state, w, checked.risky))
    return events


def may_attack(state: State, u: int) -> bool:
    """On the table, and has not retreated this turn."""
    return bool(len(state.models_of(u))) and "retreated" not in state.units[u].flags


__all__ = ["Attack", "Support", "prepare", "resolve", "retreat", "support", "in_range",
           "sight", "distance", "dangerous", "may_attack"]
