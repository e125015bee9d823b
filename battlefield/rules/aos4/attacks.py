"""The aos4 attack sequence and its exact odds.

Hit roll (D6 >= Hit; unmodified 1 fails; unmodified 6 is a critical hit, and hits), wound roll
(D6 >= Wound; unmodified 1 fails), save roll (D6 - Rend >= Save succeeds; unmodified 1 fails),
damage (Damage, a number or dice), then ward (each damage point negated on D6 >= Ward).
Critical hits: crit-2-hits (2 hits), crit-auto-wound (no wound roll), crit-mortal (the damage is
mortal: no wound or save roll). Damage fills one model before the next (RULES-NOTES).

Distributions are numpy arrays indexed by damage; they are exact up to float rounding.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from battlefield.rules.aos4.weapons import Weapon
from battlefield.rules.odds import distribution


def _array(expr: str) -> np.ndarray:
    d = distribution(expr)
    out = np.zeros(max(d) + 1)
    for v, p in d.items():
        out[max(v, 0)] += p
    return out


def _conv(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.convolve(a, b)


def _power(a: np.ndarray, n: int) -> np.ndarray:
    out = np.array([1.0])
    base = a
    while n:
        if n & 1:
            out = _conv(out, base)
        n >>= 1
        if n:
            base = _conv(base, base)
    return out


def _mix(parts: list[tuple[float, np.ndarray]]) -> np.ndarray:
    size = max(len(a) for _, a in parts)
    out = np.zeros(size)
    for p, a in parts:
        out[:len(a)] += p * a
    return out


def roll_at_least(target: int, modifier: int = 0) -> float:
    """P(D6 + modifier >= target) with an unmodified 1 always failing."""
    return sum(1 for r in range(2, 7) if r + modifier >= target) / 6


@dataclass(frozen=True)
class Modifiers:
    hit: int = 0          # e.g. -1 cover, +1 All-out Attack
    wound: int = 0
    save: int = 0         # +1 All-out Defence
    ward: int | None = None


def attack_dist(w: Weapon, save: int | None, mods: Modifiers = Modifiers()) -> np.ndarray:
    """Damage (before the target's health runs out) of one attack with weapon w."""
    p_six = 1 / 6
    p_hit = sum(1 for r in range(2, 6) if r + mods.hit >= w.hit) / 6   # 2..5 modified
    crit = w.crit
    if crit is None:
        p_hit += p_six                     # a 6 is a hit like any other
        p_crit = 0.0
    else:
        p_crit = p_six
    p_wound = roll_at_least(w.wound, mods.wound)
    p_saved = 0.0 if save is None else roll_at_least(save + w.rend, mods.save)
    dmg = _ward(_array(w.damage), mods.ward)
    chain = _mix([(p_wound * (1 - p_saved), dmg), (1 - p_wound * (1 - p_saved), np.array([1.0]))])
    parts = [(1 - p_hit - p_crit, np.array([1.0])), (p_hit, chain)]
    if crit == "crit-2-hits":
        parts.append((p_crit, _conv(chain, chain)))
    elif crit == "crit-auto-wound":
        parts.append((p_crit, _mix([(1 - p_saved, dmg), (p_saved, np.array([1.0]))])))
    elif crit == "crit-mortal":
        parts.append((p_crit, dmg))
    return _mix(parts)


def _ward(dmg: np.ndarray, ward: int | None) -> np.ndarray:
    """Each damage point is negated on a D6 >= ward (an unmodified roll)."""
    if ward is None:
        return dmg
    keep = 1 - sum(1 for r in range(1, 7) if r >= ward) / 6
    out = np.zeros(len(dmg))
    from math import comb

    for d, p in enumerate(dmg):
        for k in range(d + 1):
            out[k] += p * comb(d, k) * keep ** k * (1 - keep) ** (d - k)
    return out


def volley_dist(w: Weapon, models: int, save: int | None, mods: Modifiers) -> np.ndarray:
    """Total damage of `models` models each making the weapon's Attacks."""
    one = attack_dist(w, save, mods)
    attacks = distribution(w.attacks)
    per_model = _mix([(p, _power(one, n)) for n, p in attacks.items() if n > 0]
                     + [(sum(p for n, p in attacks.items() if n <= 0), np.array([1.0]))])
    return _power(per_model, models)


def capped(dist: np.ndarray, pool: int) -> np.ndarray:
    """Damage actually inflicted on a unit with `pool` health left."""
    if len(dist) <= pool + 1:
        return dist
    out = dist[:pool + 1].copy()
    out[pool] += dist[pool + 1:].sum()
    return out


def slain(dist: np.ndarray, health: int, models: int) -> np.ndarray:
    """Models slain when damage fills one model (of `health`) before the next."""
    out = np.zeros(models + 1)
    for d, p in enumerate(dist):
        out[min(models, d // health)] += p
    return out


def as_dict(dist: np.ndarray, eps: float = 1e-15) -> dict[str, float]:
    return {str(i): float(p) for i, p in enumerate(dist) if p > eps}


def mean(dist: np.ndarray) -> float:
    return float(np.dot(np.arange(len(dist)), dist))
