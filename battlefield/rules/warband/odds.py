"""`battlefield odds SCENE --attack A B [--weapon NAME]`: the exact distribution of the damage
fighter B takes from one attack action of fighter A, from where they stand, with the Defense
modifiers in play (Rampage in the scene's position; Dodge also given as `if_dodged`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from battlefield.errors import UsageError
from battlefield.rules.chance import mean
from battlefield.rules.state import State
from battlefield.rules.warband import attacks
from battlefield.rules.warband.data import Weapon, fighter


def _dist(d: dict[int, Fraction]) -> dict[str, float]:
    return {str(k): float(p) for k, p in sorted(d.items())}


def attack_odds(state: State, u: int, w: int, weapon_name: str | None) -> dict[str, Any]:
    names = state.scene.units
    f = fighter(state, u)
    model = state.scene.model_names[state.scene.model_offsets()[u]]
    candidates: list[Weapon] = ([x for x in f.weapons if x.name == weapon_name]
                                if weapon_name else list(f.weapons))
    if weapon_name and not candidates:
        raise UsageError(f"{names[u].id} has no weapon {weapon_name!r} (weapons: "
                         f"{', '.join(x.name for x in f.weapons)})")
    best: tuple[Fraction, Weapon, dict[int, Fraction]] | None = None
    reasons = []
    for weapon in candidates:
        why = attacks.reach(state, u, w, weapon)
        if why is not None:
            reasons.append(f"{weapon.name}: {why.message}")
            continue
        dist = attacks.distribution(attacks.attacks(state, u, weapon),
                                    attacks.score(state, u, w, weapon))
        if best is None or mean(dist) > best[0]:
            best = (mean(dist), weapon, dist)
    d3 = round(attacks.distance(state, u, w), 6)
    if best is None:
        return {"expected_damage": 0.0, "distribution": {"0": 1.0}, "hit_on": None,
                "attackers": {}, "distance_3d": d3, "reason": "; ".join(reasons)}
    exp, weapon, dist = best
    left = fighter(state, w).wounds - int(state.units[w].damage[0])
    dodged = attacks.distribution(attacks.attacks(state, u, weapon),
                                  attacks.score(state, u, w, weapon, dodge=True))
    return {"expected_damage": round(float(exp), 6), "distribution": _dist(dist),
            "hit_on": attacks.hit_on(state, weapon.strength, attacks.defense(state, w)),
            "attackers": {weapon.name: [model]},
            "weapon": weapon.name, "attacks": attacks.attacks(state, u, weapon),
            "strength": weapon.strength, "defense": attacks.defense(state, w),
            "damage": weapon.damage, "crit": weapon.crit, "distance_3d": d3,
            # The distribution is of the damage the dice deal (not capped at the wounds
            # left); "slain": the chance it reaches them.
            "wounds_left": left,
            "slain": round(float(sum(p for k, p in dist.items() if k >= left)), 6),
            "if_dodged": {"expected_damage": round(float(mean(dodged)), 6),
                          "distribution": _dist(dodged),
                          "hit_on": attacks.hit_on(state, weapon.strength,
                                                   attacks.defense(state, w, True))}}
