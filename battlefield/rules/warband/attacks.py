"""The attack action (RULES-NOTES): Attacks dice against the target's Defense - Strength above
Defense hits on 3+, equal on 4+, below on 5+ - and every 6 a critical hit; each hit deals the
weapon's `damage`, each critical its `crit`. A melee weapon needs the target within its range
(3-D), a ranged one within range and visible. Defense modifiers in play: Rampage (-1 until the
round ends), Dodge (+1 for that action), a fighter's own `defense` abilities.

One procedure (`roll`) is rolled in play and enumerated exactly for `odds`."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from battlefield.rules import chance
from battlefield.rules.actions import Violation
from battlefield.rules.moves import v
from battlefield.rules.state import State
from battlefield.rules.warband.data import EPS, Weapon, fighter, game
from battlefield.rulings import Referee


@dataclass(frozen=True)
class Score:
    """What one attack die deals: `crit` on a critical, `damage` on a hit, else 0 (hashable, so
    the exact distribution of a pool is worked out once)."""

    hit_on: int
    critical_on: int
    damage: int
    crit: int

    def __call__(self, value: int) -> int:
        if value >= self.critical_on:
            return self.crit
        return self.damage if value >= self.hit_on else 0


def hit_on(state: State, strength: int, defense: int) -> int:
    h = game(state).hit_on
    if strength > defense:
        return h["stronger"]
    return h["equal"] if strength == defense else h["weaker"]


def distance(state: State, u: int, w: int) -> float:
    """3-D distance between the two fighters' bases (closest points at their elevations)."""
    t = state.table
    return float(t.distances_3d(t.unit_models[u], t.unit_models[w]).min())


def visible(state: State, u: int, w: int) -> str:
    return Referee(state.scene, state.table).sight.unit_visibility(u, w).visible


def defense(state: State, w: int, dodge: bool = False) -> int:
    """The target's Defense now: its characteristic, its modifiers until the round ends
    (Rampage, ...), +1 when it dodges."""
    d = fighter(state, w).defense + int(state.units[w].counters.get("defense", 0))
    return max(1, d + (game(state).dodge if dodge else 0))


def attacks(state: State, u: int, weapon: Weapon, counter: bool = False) -> int:
    """The weapon's Attacks with the activation's bonus (Onslaught: melee only); a counter
    attack has 1 fewer, at least 1."""
    n = weapon.attacks
    if weapon.melee:
        n += int(state.units[u].counters.get("melee_attacks", 0))
    if counter:
        n = max(game(state).counter_least, n + game(state).counter_attacks)
    return max(0, n)


def reach(state: State, u: int, w: int, weapon: Weapon) -> Violation | None:
    """Why `weapon` of fighter u cannot reach fighter w (None: it can)."""
    names = state.scene.units
    d = distance(state, u, w)
    if d > weapon.range + EPS:
        return v("out_of_range", f"{names[w].id} is {d:.2f}\" from {names[u].id}, beyond "
                                 f"{weapon.name}'s range of {weapon.range:g}\"",
                 distance=d, range=weapon.range, units=(names[w].id, names[u].id))
    if not weapon.melee and visible(state, u, w) == "none":
        return v("not_visible", f"{names[u].id} cannot see {names[w].id}: a ranged attack "
                                f"needs sight", units=(names[u].id, names[w].id))
    return None


def choose_weapon(state: State, u: int, w: int, name: str | None
                  ) -> tuple[Weapon | None, Violation | None]:
    """The named weapon, or without a name the first of the fighter's that reaches."""
    f = fighter(state, u)
    if name is not None:
        weapon = f.weapon(name)
        if weapon is None:
            return None, v("unknown_weapon", f"{state.scene.units[u].id} has no weapon "
                                             f"{name!r} ({', '.join(x.name for x in f.weapons)})")
        return weapon, reach(state, u, w, weapon)
    problems = []
    for weapon in f.weapons:
        why = reach(state, u, w, weapon)
        if why is None:
            return weapon, None
        problems.append(why)
    return None, problems[0]


def score(state: State, u: int, w: int, weapon: Weapon, dodge: bool = False) -> Score:
    return Score(hit_on(state, weapon.strength, defense(state, w, dodge)), game(state).critical_on,
                 weapon.damage, weapon.crit)


def procedure(count: int, s: Score, purpose: str) -> chance.Procedure[int]:
    """The attack roll: `count` dice, the damage they deal."""
    return (yield chance.Pool(count, s, purpose))


def distribution(count: int, s: Score) -> dict[int, Fraction]:
    return chance.outcomes(lambda: procedure(count, s, "attack"))


def roll(state: State, u: int, w: int, weapon: Weapon, dodge: bool, counter: bool
         ) -> tuple[dict[str, Any], int]:
    """Roll an attack of fighter u on fighter w: (its event, the damage it deals)."""
    names = state.scene.units
    s = score(state, u, w, weapon, dodge)
    n = attacks(state, u, weapon, counter)
    what = "counter" if counter else "attack"
    start = len(state.dice.log)
    dealt = chance.play(procedure(n, s, f"{what}: {names[u].id} {weapon.name} on "
                                        f"{names[w].id}"), state.dice)
    values = [x for r in state.dice.log[start:] for x in r.values]
    crits = sum(1 for x in values if x >= s.critical_on)
    hits = sum(1 for x in values if s.hit_on <= x < s.critical_on)
    return ({"type": what, "unit": names[u].id, "target": names[w].id, "weapon": weapon.name,
             "attacks": n, "hit_on": s.hit_on, "defense": defense(state, w, dodge),
             "hits": hits, "criticals": crits, "damage": dealt}, dealt)


def wound(state: State, w: int, amount: int, why: str) -> list[dict[str, Any]]:
    """Damage points on fighter w; it is slain when they reach its Wounds."""
    if amount <= 0 or not len(state.models_of(w)):
        return []
    us = state.units[w]
    wounds = fighter(state, w).wounds
    us.damage[0] = min(wounds, int(us.damage[0]) + int(amount))
    uid = state.scene.units[w].id
    events: list[dict[str, Any]] = [{"type": "damage", "unit": uid, "amount": int(amount),
                                     "total": int(us.damage[0]), "wounds": wounds,
                                     "for": why}]
    if us.damage[0] >= wounds:
        state.slay(w, state.models_of(w))
        events.append({"type": "slain", "unit": uid})
    return events


def engaged_with(state: State, u: int) -> list[tuple[int, float]]:
    """The enemy fighters within 1" of fighter u (3-D), closest first: (unit, distance)."""
    near = state.enemies_within(u, game(state).engaged + EPS, three_d=True)
    return sorted(near, key=lambda p: p[1])


def engaged_violation(state: State, u: int) -> Violation | None:
    """`engaged: 0.84" from blue-2: ...` when fighter u is within 1" of an enemy."""
    near = engaged_with(state, u)
    if not near:
        return None
    w, d = near[0]
    return v("engaged", f"{d:.2f}\" from {state.scene.units[w].id}: an engaged fighter "
                        f"(within {game(state).engaged:g}\") can only disengage",
             distance=d, within=game(state).engaged,
             units=(state.scene.units[u].id, state.scene.units[w].id))
