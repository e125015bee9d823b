"""The aos4 attack sequence, written once as chance procedures (battlefield/rules/chance.py):
allocation.py plays them with the game's dice, the odds enumerate them.

Hit roll (D6 >= Hit; unmodified 1 fails; unmodified 6 is a critical hit, and hits), wound roll
(D6 >= Wound; unmodified 1 fails), save roll (D6 - Rend >= Save succeeds; unmodified 1 fails),
damage (Damage, a number or dice), then ward (each damage point negated on D6 >= Ward).
Critical hits: crit-2-hits (2 hits), crit-auto-wound (no wound roll), crit-mortal (the damage is
mortal: no wound or save roll). Damage fills one model before the next (RULES-NOTES).

`strike` is one attack. A volley is each model's Attacks, then that many strikes played side by
side (`together`): all hit rolls of a weapon are one logged roll, then all wound rolls, all
saves, each damage roll, all ward rolls - the order the table rolls them. The exact odds of a
volley combine the exact odds of one strike (the strikes are independent); distributions are
numpy arrays indexed by damage.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from battlefield.rules.aos4.weapons import Weapon
from battlefield.rules.chance import Pool, Procedure, Throw, outcomes, together

# The steps of a strike, in the order a volley rolls them.
HIT, WOUND, SAVE, DAMAGE, WARD = range(5)
MISS, HITS, CRITICAL = 0, 1, 2          # what a hit roll comes to


@dataclass(frozen=True)
class Modifiers:
    hit: int = 0          # e.g. -1 cover, +1 All-out Attack
    wound: int = 0
    save: int = 0         # +1 All-out Defence
    ward: int | None = None


# --- what one die means ------------------------------------------------------------------------
@dataclass(frozen=True)
class HitRoll:
    """An unmodified 6 is a critical hit (a plain hit for a weapon without a critical ability),
    an unmodified 1 misses, otherwise the modified roll hits on Hit or more."""

    need: int
    modifier: int
    crits: bool

    def __call__(self, r: int) -> int:
        if r == 6:
            return CRITICAL if self.crits else HITS
        return HITS if r != 1 and r + self.modifier >= self.need else MISS


@dataclass(frozen=True)
class WoundRoll:
    """1 when the die wounds: an unmodified 1 fails, otherwise the modified roll >= Wound."""

    need: int
    modifier: int

    def __call__(self, r: int) -> int:
        return 1 if r != 1 and r + self.modifier >= self.need else 0


@dataclass(frozen=True)
class SaveRoll:
    """1 when the save fails: an unmodified 1, or the roll - Rend + modifier under Save."""

    save: int
    rend: int
    modifier: int

    def __call__(self, r: int) -> int:
        return 1 if r == 1 or r - self.rend + self.modifier < self.save else 0


@dataclass(frozen=True)
class WardRoll:
    """1 when the damage point stays: the unmodified roll is under the Ward."""

    ward: int

    def __call__(self, r: int) -> int:
        return 1 if r < self.ward else 0


# --- procedures ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Strike:
    """What attacks came to: hits (critical ones included), critical hits (of a weapon with a
    critical ability), wounds (mortal ones included), unsaved wounds, damage after the ward."""

    hits: int = 0
    critical: int = 0
    wounds: int = 0
    unsaved: int = 0
    damage: int = 0

    def __add__(self, o: Strike) -> Strike:
        return Strike(self.hits + o.hits, self.critical + o.critical, self.wounds + o.wounds,
                      self.unsaved + o.unsaved, self.damage + o.damage)


def strike(w: Weapon, save: int | None, mods: Modifiers, tag: str = "", target: str = ""
           ) -> Procedure[Strike]:
    """One attack with weapon w at a unit with Save `save` (None: no save)."""
    hit = yield Pool(1, HitRoll(w.hit, mods.hit, w.crit is not None), f"hit rolls ({tag})",
                     step=HIT)
    if hit == MISS:
        return Strike()
    critical = hit == CRITICAL
    to_wound = 2 if critical and w.crit == "crit-2-hits" else (
        0 if critical and w.crit in ("crit-auto-wound", "crit-mortal") else 1)
    auto = 1 if critical and w.crit == "crit-auto-wound" else 0
    mortal = 1 if critical and w.crit == "crit-mortal" else 0
    wounds = auto
    if to_wound:
        wounds += yield Pool(to_wound, WoundRoll(w.wound, mods.wound), f"wound rolls ({tag})",
                             step=WOUND)
    unsaved = wounds
    if save is not None and wounds:
        unsaved = yield Pool(wounds, SaveRoll(save, w.rend, mods.save),
                             f"save rolls ({target})", step=SAVE)
    damage = 0
    for _ in range(unsaved + mortal):
        damage += yield Throw(w.damage, f"damage ({tag})", step=DAMAGE)
    if mods.ward is not None and damage > 0:
        damage = yield Pool(damage, WardRoll(mods.ward), f"ward rolls ({target})", step=WARD)
    return Strike(1, int(critical), wounds + mortal, unsaved, damage)


def volley(w: Weapon, models: int, save: int | None, mods: Modifiers, tag: str = "",
           target: str = "", extra: int = 0) -> Procedure[tuple[int, Strike]]:
    """`models` models attack with weapon w, and `extra` attacks more (a model's attacks split
    between targets, split.py): (attacks made, what they came to)."""
    attacks = extra
    for _ in range(models):
        attacks += yield Throw(w.attacks, f"attacks ({tag})")
    strikes = yield from together([strike(w, save, mods, tag, target)
                                   for _ in range(attacks)])
    total = Strike()
    for s in strikes:
        total = total + s
    return attacks, total


def warded(expr: str | int, ward: int | None, purpose: str, target: str = ""
           ) -> Procedure[int]:
    """Mortal damage: `expr` points, each negated on a D6 >= Ward (no save)."""
    damage = yield Throw(str(expr), purpose)
    if ward is not None and damage > 0:
        damage = yield Pool(damage, WardRoll(ward), f"ward rolls ({target})")
    return damage


# --- exact odds ----------------------------------------------------------------------------------
def _array(dist: dict[int, Fraction]) -> np.ndarray:
    out = np.zeros(max(max(dist), 0) + 1)
    for v, p in dist.items():
        out[max(v, 0)] += float(p)
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


@cache
def strike_outcomes(w: Weapon, save: int | None, mods: Modifiers) -> dict[int, Fraction]:
    """Exact {damage: probability} of one strike (the `strike` procedure enumerated)."""
    return outcomes(lambda: strike(w, save, mods), key=lambda s: s.damage)


def attack_dist(w: Weapon, save: int | None, mods: Modifiers = Modifiers()) -> np.ndarray:
    """Damage (before the target's health runs out) of one attack with weapon w."""
    return _array(strike_outcomes(w, save, mods))


def attacks_outcomes(w: Weapon) -> dict[int, Fraction]:
    """Exact {attacks: probability} of one model's Attacks."""
    return Throw(w.attacks, "attacks").outcomes()


def volley_dist(w: Weapon, models: int, save: int | None, mods: Modifiers) -> np.ndarray:
    """Total damage of `models` models each making the weapon's Attacks (the `volley` procedure:
    independent strikes, so the exact odds of one strike convolved)."""
    one = attack_dist(w, save, mods)
    attacks = {n: float(p) for n, p in attacks_outcomes(w).items()}
    per_model = _mix([(p, _power(one, n)) for n, p in attacks.items() if n > 0]
                     + [(sum(p for n, p in attacks.items() if n <= 0), np.array([1.0]))])
    return _power(per_model, models)


def strikes_dist(w: Weapon, attacks: int, save: int | None, mods: Modifiers) -> np.ndarray:
    """Total damage of `attacks` attacks with the weapon (a model's Attacks split between
    targets: some of them at one)."""
    return _power(attack_dist(w, save, mods), attacks)


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
