"""Dice: one seeded generator per game, every roll an event saying what it was for.

The generator is our own (splitmix64 with rejection sampling), so a saved game replays bit for
bit on any Python or numpy version. Tests and `battlefield try --dice` inject fixed values,
which are used before the generator is asked.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from battlefield.errors import UsageError

_MASK = (1 << 64) - 1
_DICE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")


class DiceError(UsageError, ValueError):
    """A dice expression that cannot be read, or a fixed die that cannot come up (try --dice 6
    for a D3): one line for the person who gave it."""


@dataclass(frozen=True)
class Roll:
    """One roll: the expression, each die's value, what it was for."""

    dice: str
    values: tuple[int, ...]
    purpose: str
    fixed: bool = False
    summed: bool = True        # False: each die counts on its own (hits, sets), not the sum

    @property
    def total(self) -> int:
        n, sides, bonus = parse(self.dice)
        return sum(self.values) + bonus

    @property
    def shown(self) -> str:
        """The roll as a player reads it: '2D6 [3, 4] = 7', or '6D6 [4, 6, 1, 5, 4, 1]' when
        each die counts on its own (a sum would mean nothing)."""
        values = f"{self.dice} {list(self.values)}"
        return f"{values} = {self.total}" if self.summed else values

    def to_dict(self) -> dict:
        return {"type": "roll", "dice": self.dice, "values": list(self.values),
                "total": self.total, "summed": self.summed, "for": self.purpose,
                **({"fixed": True} if self.fixed else {})}


def parse(expr: str | int) -> tuple[int, int, int]:
    """'2D6' -> (2, 6, 0); 'D3+1' -> (1, 3, 1); 4 -> (0, 1, 4) (a fixed number)."""
    if isinstance(expr, int):
        return 0, 1, expr
    text = str(expr)
    if text.strip().isdigit():
        return 0, 1, int(text)
    m = _DICE.match(text)
    if not m:
        raise DiceError(f"'{expr}' is not a dice expression (expected e.g. D6, 2D6, D3+1)")
    n = int(m.group(1) or 1)
    bonus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    return n, int(m.group(2)), bonus


@dataclass
class Dice:
    """The game's dice. `state` is the generator's whole state (an int), so snapshots and
    replays carry it; `fixed` holds injected values; `log` collects the rolls made."""

    state: int
    fixed: deque[int] = field(default_factory=deque)
    log: list[Roll] = field(default_factory=list)

    @classmethod
    def seeded(cls, seed: int, fixed: Iterable[int] = ()) -> Dice:
        return cls(seed & _MASK, deque(fixed))

    def _next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def die(self, sides: int) -> tuple[int, bool]:
        """One die: (value, was it fixed)."""
        if self.fixed:
            v = self.fixed.popleft()
            if not 1 <= v <= sides:
                raise DiceError(f"fixed die {v} cannot come up on a D{sides}")
            return v, True
        limit = _MASK - (_MASK + 1) % sides
        while True:
            x = self._next64()
            if x <= limit:
                return x % sides + 1, False

    def roll(self, expr: str | int, purpose: str, summed: bool = True) -> Roll:
        """Roll `expr` for `purpose` and log it: a Roll (each die's value in `values`, their sum
        and bonus in `total`; `total()` gives the number alone); summed=False: each die counts
        on its own."""
        n, sides, _ = parse(expr)
        values, fixed = [], False
        for _ in range(n):
            v, f = self.die(sides)
            values.append(v)
            fixed = fixed or f
        r = Roll(str(expr).upper(), tuple(values), purpose, fixed, summed)
        self.log.append(r)
        return r

    def total(self, expr: str | int, purpose: str) -> int:
        """Roll `expr` for `purpose`, logged as `roll` logs it, and give its total: the number
        most rules want (a charge roll, a damage roll)."""
        return self.roll(expr, purpose).total

    def copy(self) -> Dice:
        return Dice(self.state, deque(self.fixed), list(self.log))
