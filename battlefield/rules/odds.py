"""Exact probabilities from the same dice definitions the game rolls: distributions as
{value: probability} dicts, sums and thresholds."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from battlefield.rules.dice import parse

Dist = dict[int, float]


@cache
def _die(sides: int) -> tuple[tuple[int, Fraction], ...]:
    return tuple((v, Fraction(1, sides)) for v in range(1, sides + 1))


def add(a: dict, b: dict) -> dict:
    out: dict = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0) + p * q
    return out


@cache
def _exact(expr: str) -> tuple[tuple[int, Fraction], ...]:
    n, sides, bonus = parse(expr)
    dist: dict[int, Fraction] = {bonus: Fraction(1)}
    for _ in range(n):
        dist = add(dist, dict(_die(sides)))
    return tuple(sorted(dist.items()))


def distribution(expr: str | int) -> Dist:
    """The distribution of a dice expression's total."""
    return {v: float(p) for v, p in _exact(str(expr))}


def at_least(expr: str | int, target: float) -> float:
    """P(total >= target)."""
    return float(sum(p for v, p in _exact(str(expr)) if v >= target))


def with_reroll(p: float) -> float:
    """Chance of success when a failed roll may be rolled again once."""
    return 1 - (1 - p) ** 2


def mean(dist: dict) -> float:
    return float(sum(v * p for v, p in dist.items()))
