"""openwg's dice procedures, written once (battlefield.rules.chance): played with the game's
logged dice, and enumerated for the exact odds from the same pools.

Attack (seed: Attacks and damage): a die per attacking model, <= Precision is a HIT; each HIT
rolls Damage dice, each die > (Armor - Pierce) is a WOUND. No automatic hits or misses. A
re-roll takes the dice showing the faces it names and rolls them once more. Morale: D6 + slain
over Bravery flee. Shrug N: a die per pooled wound, <= N ignores it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from battlefield.rules.chance import Pool, Procedure, Throw

MARK = 1000          # a die to re-roll scores MARK: a pool's sum is MARK * re-rolls + successes
Dist = dict[int, Fraction]


@cache
def at_most(n: int) -> Callable[[int], int]:
    """1 for a die showing n or less (a HIT, a shrugged wound, a storm's WOUND)."""
    return lambda v: int(v <= n)


@cache
def above(n: int) -> Callable[[int], int]:
    """1 for a die showing more than n (a WOUND against Armor - Pierce = n)."""
    return lambda v: int(v > n)


@cache
def marked(score: Callable[[int], int], faces: frozenset[int]) -> Callable[[int], int]:
    """`score`, but MARK for a die showing one of `faces` (it is rolled again)."""
    return lambda v: MARK if v in faces else score(v)


@dataclass(frozen=True)
class Group:
    """Models attacking with one profile: how many, Precision, Damage, the wound threshold
    (target Armor - Pierce), the faces re-rolled on the hit and the armor dice, and a
    Flamestrike-like die per hit (<= flame wounds; 0: none)."""

    label: str
    models: int
    precision: int
    damage: int
    threshold: int
    hit_faces: frozenset[int] = frozenset()
    wound_faces: frozenset[int] = frozenset()
    flame: int = 0

    def hit_pool(self) -> Pool:
        return Pool(self.models, marked(at_most(self.precision), self.hit_faces),
                    f"{self.label}: hits (precision {self.precision})")

    def hit_reroll(self, n: int) -> Pool:
        return Pool(n, at_most(self.precision), f"{self.label}: hits re-rolled")

    def wound_pool(self, hits: int) -> Pool:
        return Pool(hits * self.damage, marked(above(self.threshold), self.wound_faces),
                    f"{self.label}: wounds (over {self.threshold})")

    def wound_reroll(self, n: int) -> Pool:
        return Pool(n, above(self.threshold), f"{self.label}: armor re-rolled")

    def flame_pool(self, hits: int) -> Pool:
        return Pool(hits, at_most(self.flame), f"{self.label}: a wound per hit on "
                                               f"{self.flame} or less")


@dataclass(frozen=True)
class Burst:
    """Dice that each deal a WOUND on `on` or less (shields on the charge, a storm)."""

    label: str
    dice: int
    on: int

    def pool(self) -> Pool:
        return Pool(self.dice, at_most(self.on), self.label)


def group_attack(g: Group) -> Procedure[int]:
    """The WOUNDS one group deals, rolled."""
    s = yield g.hit_pool()
    hits, again = s % MARK, s // MARK
    if again:
        hits += yield g.hit_reroll(again)
    if not hits:
        return 0
    s = yield g.wound_pool(hits)
    wounds, again = s % MARK, s // MARK
    if again:
        wounds += yield g.wound_reroll(again)
    if g.flame:
        wounds += yield g.flame_pool(hits)
    return wounds


def burst(b: Burst) -> Procedure[int]:
    return (yield b.pool())


def morale(bravery: int, slain: int, left: int) -> Procedure[int]:
    """Models that flee: D6 + slain over Bravery, at most the models left."""
    d = yield Throw("D6", f"morale (bravery {bravery}, {slain} slain)")
    return max(0, min(left, d + slain - bravery))


def shrug(value: int, wounds: int) -> Procedure[int]:
    """Wounds ignored: a die per wound, each <= value."""
    return (yield Pool(wounds, at_most(value), f"shrug {value}"))


# --- exact distributions from the same pools ---------------------------------------------------
def _add(out: Dist, k: int, p: Fraction) -> None:
    out[k] = out.get(k, Fraction(0)) + p


def group_distribution(g: Group) -> Dist:
    """{wounds: probability}, exactly as group_attack rolls them."""
    hits: Dist = {}
    for s, p in g.hit_pool().outcomes().items():
        base, again = s % MARK, s // MARK
        for r, q in (g.hit_reroll(again).outcomes().items() if again else ((0, Fraction(1)),)):
            _add(hits, base + r, p * q)
    out: Dist = {}
    for h, p in hits.items():
        if not h:
            _add(out, 0, p)
            continue
        wounds: Dist = {}
        for s, q in g.wound_pool(h).outcomes().items():
            base, again = s % MARK, s // MARK
            for r, q2 in (g.wound_reroll(again).outcomes().items() if again
                          else ((0, Fraction(1)),)):
                _add(wounds, base + r, q * q2)
        if g.flame:
            wounds = convolve(wounds, dict(g.flame_pool(h).outcomes()))
        for w, q in wounds.items():
            _add(out, w, p * q)
    return out


def convolve(a: Dist, b: Dist) -> Dist:
    out: Dist = {}
    for x, p in a.items():
        for y, q in b.items():
            _add(out, x + y, p * q)
    return out


def morale_distribution(bravery: int, slain: int, left: int) -> Dist:
    out: Dist = {}
    for d in range(1, 7):
        _add(out, max(0, min(left, d + slain - bravery)), Fraction(1, 6))
    return out
