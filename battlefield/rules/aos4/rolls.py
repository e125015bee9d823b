"""The aos4 rolls outside the attack sequence, written once as chance procedures
(battlefield/rules/chance.py): played with the game's dice, enumerated for the odds. The dice
are rulesets/aos4/rules.yaml's (the ruleset's book), given by the caller."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Protocol

from battlefield.rules.chance import Procedure, Throw, outcomes

EPS = 1e-6          # a roll reaches a distance it falls short of by less than this


def most(expr: str) -> int:
    """The most a dice expression can roll."""
    return max(Throw(expr, "").outcomes())


@dataclass(frozen=True)
class ChargeRoll:
    """The charge roll, and the re-roll when one was made; reached: the last one is enough."""

    rolls: tuple[int, ...]
    needed: float

    @property
    def reached(self) -> bool:
        return self.rolls[-1] >= self.needed - EPS


def charge_roll(dice: str, unit: str, needed: float, reroll: bool) -> Procedure[ChargeRoll]:
    """The charge roll (`dice`: 2D6) against the distance needed; a roll that falls short is
    rolled again when `reroll` (Forward to Victory)."""
    first = yield Throw(dice, f"charge roll {unit}")
    if reroll and first < needed - EPS:
        second = yield Throw(dice, f"charge re-roll {unit}")
        return ChargeRoll((first, second), needed)
    return ChargeRoll((first,), needed)


def charge_chance(dice: str, needed: float, reroll: bool) -> Fraction:
    """The exact chance that a charge rolling `dice` and needing `needed` inches gets there.
    Rolls are whole numbers, so a roll reaches `needed` exactly when it reaches the whole
    number ceil(needed - EPS): the odds are worked out once for each whole number."""
    return _charge_chance(dice, math.ceil(needed - EPS), reroll)


@lru_cache(maxsize=256)
def _charge_chance(dice: str, needed: int, reroll: bool) -> Fraction:
    return outcomes(lambda: charge_roll(dice, "", needed, reroll),
                    key=lambda r: r.reached).get(True, Fraction(0))


class RunRules(Protocol):
    """What a run roll needs of rules.yaml's movement section (data.MovementRules)."""

    run_roll: str
    at_the_double: int


def run_roll(rules: RunRules, unit: str, at_the_double: bool) -> Procedure[int]:
    """The run roll: D6, or 6 with At the Double (no dice)."""
    if at_the_double:
        return rules.at_the_double
    return (yield Throw(rules.run_roll, f"run roll {unit}"))


def run_chance(rules: RunRules, extra: float, at_the_double: bool = False) -> Fraction:
    """The exact chance that a run roll adds at least `extra` inches to the Move."""
    return sum((p for roll, p in outcomes(lambda: run_roll(rules, "", at_the_double)).items()
                if roll >= extra - EPS), Fraction(0))


def is_dice(move: object) -> bool:
    """Whether a Move characteristic is dice ("2D6", "D6+8"), rolled when the unit moves."""
    return isinstance(move, str) and "D" in move.upper()


def move_roll(unit: str, move: str) -> Procedure[int]:
    """A Move that is dice, rolled when the unit moves: the inches it may move this time."""
    return (yield Throw(move, f"move roll {unit}"))


def move_distribution(move: str) -> dict[int, Fraction]:
    """The exact chance of each inches a dice Move rolls."""
    return outcomes(lambda: move_roll("", move))


def move_chance(move: str, needed: float) -> Fraction:
    """The exact chance that a dice Move rolls at least `needed` inches."""
    return sum((p for roll, p in move_distribution(move).items() if roll >= needed - EPS),
               Fraction(0))


def likely_move(move: str, chance: Fraction = Fraction(2, 3)) -> int:
    """The longest distance a dice Move reaches at least `chance` of the time (what the
    computer player plans a move for)."""
    dist = move_distribution(move)
    return max((d for d in dist if move_chance(move, d) >= chance), default=min(dist))
