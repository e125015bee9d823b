"""Exact odds of one skirmish attack from where the units stand: each die of the attack (models
x Strike + support) independently becomes a hit that stands with p = P(hit) x P(cover fails),
so standing hits are binomial; the damage and the models slain follow from the hits by the
allocation rule (damaged models first, the leader last), which does not depend on the dice."""

from __future__ import annotations

from math import comb
from typing import Any

from battlefield.rules.damage import fill, fill_each
from battlefield.rules.skirmish import attacks
from battlefield.rules.skirmish.data import game, istat
from battlefield.rules.state import State
from battlefield.rulings import Referee


def hit_chance(hit_on: int) -> float:
    """A D6 scoring `hit_on` or more (natural: no die above 6 nor below 1)."""
    return min(6, max(0, 7 - hit_on)) / 6


def standing_chance(state: State, a: attacks.Attack) -> tuple[float, int]:
    """(the chance one die of attack `a` is a hit that stands, the score it needs to hit)."""
    g = game(state)
    hit_on = g.pot_shot_hit_on if a.pot_shots else istat(state, a.attacker, "hit") - a.hit_mod
    p_save = hit_chance(g.cover_save_on - a.cover_bonus) if a.cover_bonus > 0 else 0.0
    return hit_chance(hit_on) * (1 - p_save), hit_on


def dealt_by_hits(state: State, w: int, hits: int, damage: int) -> tuple[int, int]:
    """(damage dealt, models slain) when `hits` hits of `damage` each land on unit w, by the
    allocation the game uses (attacks.allocate), on a copy of the unit's damage."""
    filled = fill(state.units[w].damage.copy(), max(1, istat(state, w, "toughness")),
                  attacks.allocation_order(state, w, None), [damage] * hits, spill=False)
    return filled.dealt, len(filled.slain)


def dealt_by_each(state: State, w: int, hits: int, damage: int) -> list[tuple[int, int]]:
    """dealt_by_hits for 0, 1, ... `hits` hits, from one pass of the allocation."""
    out = [(0, 0)]
    for filled in fill_each(state.units[w].damage.copy(), max(1, istat(state, w, "toughness")),
                            attacks.allocation_order(state, w, None), [damage] * hits,
                            spill=False):
        out.append((filled.dealt, len(filled.slain)))
    out.extend([out[-1]] * (hits + 1 - len(out)))   # every model slain: more hits do nothing
    return out


def outcomes(state: State, a: attacks.Attack
             ) -> tuple[dict[int, float], dict[int, float], int]:
    """Every outcome of attack `a` (as attacks.prepare counts it): the chance of each damage
    total and of each number of models slain, and the score each die needs to hit."""
    p, hit_on = standing_chance(state, a)
    damage: dict[int, float] = {}
    slain: dict[int, float] = {}
    by_hits = dealt_by_each(state, a.defender, a.dice, istat(state, a.attacker, "damage"))
    for k in range(a.dice + 1):
        pk = comb(a.dice, k) * p ** k * (1 - p) ** (a.dice - k)
        d, s = by_hits[k]
        damage[d] = damage.get(d, 0.0) + pk
        slain[s] = slain.get(s, 0.0) + pk
    return damage, slain, hit_on


def expected_slain(state: State, u: int, w: int, hit_mod: int = 0, cover_bonus: int = 0
                   ) -> float:
    """Expected models of w slain by one attack of u with these modifiers (support counted):
    from the same outcomes as the odds."""
    _, slain, _ = outcomes(state, attacks.prepare(state, u, w, hit_mod, cover_bonus))
    return float(sum(s * q for s, q in slain.items()))


def attack_odds(state: State, u: int, w: int) -> dict[str, Any]:
    """The exact distribution of damage unit u's attack deals unit w now (support and partial
    sight counted), with the models slain; zero when u cannot attack w."""
    ref = Referee(state.scene, state.table)
    spec, target = state.scene.units[u], state.scene.units[w]
    reason = None
    if not attacks.in_range(state, u, w):
        reason = f"{target.id} is out of {spec.id}'s range"
    else:
        seen = attacks.sight(state, u, w, ref)
        if seen == "none":
            reason = f"{spec.id} cannot see {target.id}"
    if reason is not None:
        return {"expected_damage": 0.0, "distribution": {"0": 1.0}, "models_slain": {"0": 1.0},
                "dice": 0, "hit_on": None, "reason": reason}
    cover = game(state).partial_sight_cover if seen == "partial" else 0
    a = attacks.prepare(state, u, w, cover_bonus=cover)
    damage, slain, hit_on = outcomes(state, a)
    return {"expected_damage": round(sum(d * q for d, q in damage.items()), 9),
            "distribution": {str(d): round(q, 9) for d, q in sorted(damage.items())},
            "models_slain": {str(s): round(q, 9) for s, q in sorted(slain.items())},
            "dice": a.dice, "hit_on": hit_on, "cover_bonus": a.cover_bonus,
            "support": a.support.to_dict(), "sight": seen}
