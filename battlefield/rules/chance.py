"""Chance nodes: a dice procedure written once, rolled in play and enumerated for its odds.

A procedure is a generator that yields chance nodes and returns what the dice came to
(OpenSpiel's chance nodes). Each node says which dice it rolls, what for, and what its values
mean (`read`); it lists its own outcomes with exact probabilities. The same procedure is then

- played: `play(proc, dice)` rolls every node with the game's dice (each a logged roll, so
  fixed dice in tests and replays work as everywhere else);
- enumerated: `outcomes(factory)` follows every branch and gives {result: Fraction};
  `leaves(factory)` gives every way the dice can fall, in the order they are rolled (tests).

`together(procs)` plays several procedures side by side, the way a table rolls a batch: at each
step the nodes of the lowest `step` are rolled, and all `Pool` nodes of that step are one roll.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar

from battlefield.rules.dice import Dice, parse

T = TypeVar("T")
K = TypeVar("K")
Values = tuple[int, ...]
Procedure = Generator["Node", Any, T]


@dataclass(frozen=True)
class Throw:
    """One logged roll of a dice expression ('D6', '2D6', 'D3+1'; a plain number rolls
    nothing), read by `read` (default: the total)."""

    expr: str
    purpose: str
    read_values: Callable[[Values], Any] | None = None
    step: int = 0

    @property
    def count(self) -> int:
        return parse(self.expr)[0]

    @property
    def sides(self) -> int:
        return parse(self.expr)[1]

    @property
    def dice(self) -> str:
        return str(self.expr).upper()

    def read(self, values: Values) -> Any:
        if self.read_values is not None:
            return self.read_values(values)
        return sum(values) + parse(self.expr)[2]

    def faces(self) -> Iterator[tuple[Values, Fraction]]:
        """Every way the dice can fall, with its probability."""
        n, sides, _ = parse(self.expr)
        p = Fraction(1, sides ** n)
        for values in itertools.product(range(1, sides + 1), repeat=n):
            yield values, p

    def outcomes(self) -> dict[Any, Fraction]:
        out: dict[Any, Fraction] = {}
        for values, p in self.faces():
            k = self.read(values)
            out[k] = out.get(k, Fraction(0)) + p
        return out


@dataclass(frozen=True)
class Pool:
    """`count` dice rolled as one logged roll, each die scored by `score`; the outcome is the
    sum of the scores (e.g. 1 for each die that wounds). Pools of one step roll together."""

    count: int
    score: Callable[[int], int]
    purpose: str
    sides: int = 6
    step: int = 0

    @property
    def dice(self) -> str:
        return f"{self.count}D{self.sides}"

    def read(self, values: Values) -> int:
        return sum(self.score(v) for v in values)

    def faces(self) -> Iterator[tuple[Values, Fraction]]:
        p = Fraction(1, self.sides ** self.count)
        for values in itertools.product(range(1, self.sides + 1), repeat=self.count):
            yield values, p

    def outcomes(self) -> dict[int, Fraction]:
        return dict(_pool(self.score, self.sides, self.count))


@cache
def _pool(score: Callable[[int], int], sides: int, count: int) -> tuple[tuple[int, Fraction], ...]:
    one: dict[int, Fraction] = {}
    for v in range(1, sides + 1):
        s = score(v)
        one[s] = one.get(s, Fraction(0)) + Fraction(1, sides)
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(count):
        nxt: dict[int, Fraction] = {}
        for x, p in dist.items():
            for y, q in one.items():
                nxt[x + y] = nxt.get(x + y, Fraction(0)) + p * q
        dist = nxt
    return tuple(sorted(dist.items()))


Node = Throw | Pool


# --- playing -------------------------------------------------------------------------------
def roll(node: Node, dice: Dice) -> Any:
    """Roll one node with the game's dice (no roll is logged for no dice)."""
    n = node.count
    summed = isinstance(node, Throw) and node.read_values is None    # read as the total
    values = dice.roll(node.dice, node.purpose, summed).values if n else ()
    return node.read(values)


def play(proc: Procedure[T], dice: Dice) -> T:
    """Play a procedure with the game's dice: every node a logged roll, in order."""
    try:
        node = next(proc)
        while True:
            node = proc.send(roll(node, dice))
    except StopIteration as stop:
        return stop.value


def together(procs: Sequence[Procedure[T]]) -> Procedure[list[T]]:
    """Play procedures side by side and return their results in order: at each step the nodes
    with the lowest `step` are rolled, all Pools among them (same dice, same purpose) as one
    roll whose values are dealt out in order; Throws are rolled one at a time."""
    results: list[Any] = [None] * len(procs)
    pending: dict[int, Node] = {}

    def advance(i: int, value: Any, first: bool = False) -> None:
        try:
            pending[i] = next(procs[i]) if first else procs[i].send(value)
        except StopIteration as stop:
            pending.pop(i, None)
            results[i] = stop.value

    for i in range(len(procs)):
        advance(i, None, first=True)
    while pending:
        low = min(n.step for n in pending.values())
        now = [i for i, n in pending.items() if n.step == low]
        pools = [i for i in now if isinstance(pending[i], Pool)]
        if pools:
            nodes = [pending[i] for i in pools]
            first = nodes[0]
            if any(n.sides != first.sides or n.purpose != first.purpose for n in nodes):
                raise ValueError(f"pools of step {low} differ: "
                                 f"{sorted({(n.dice, n.purpose) for n in nodes})}")
            total = sum(n.count for n in nodes)
            values: Values = ()
            if total:
                values = yield Throw(f"{total}D{first.sides}", first.purpose,
                                     lambda vs: tuple(vs), low)
            at = 0
            for i, n in zip(pools, nodes, strict=True):
                part = values[at:at + n.count]
                at += n.count
                advance(i, n.read(part))
            continue
        for i in now:
            advance(i, (yield pending[i]))
    return results


# --- enumerating ---------------------------------------------------------------------------
def _replay(factory: Callable[[], Procedure[T]], path: Sequence[Any]
            ) -> tuple[Node | None, T | None]:
    """Run a fresh procedure along given node outcomes: (the next node, None) or (None,
    the result)."""
    proc = factory()
    try:
        node = next(proc)
        for o in path:
            node = proc.send(o)
    except StopIteration as stop:
        return None, stop.value
    return node, None


def outcomes(factory: Callable[[], Procedure[T]],
             key: Callable[[T], K] | None = None) -> dict[K, Fraction]:
    """Every result of the procedure (or `key` of it) with its exact probability: each node
    branches on its own outcomes."""
    out: dict[Any, Fraction] = {}
    stack: list[tuple[tuple[Any, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        path, p = stack.pop()
        node, result = _replay(factory, path)
        if node is None:
            k = key(result) if key is not None else result
            out[k] = out.get(k, Fraction(0)) + p
            continue
        for o, q in node.outcomes().items():
            stack.append(((*path, o), p * q))
    return out


def leaves(factory: Callable[[], Procedure[T]]) -> Iterator[tuple[Values, Fraction, T]]:
    """Every way all the dice of the procedure can fall, in the order they are rolled: (the
    values, their probability, the result). Exponential: for small procedures in tests."""
    stack: list[tuple[tuple[Values, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        rolled, p = stack.pop()
        node, result = _along(factory, rolled)
        if node is None:
            yield tuple(v for vs in rolled for v in vs), p, result
            continue
        if not node.count:
            stack.append(((*rolled, ()), p))
            continue
        for values, q in node.faces():
            stack.append(((*rolled, values), p * q))


def _along(factory: Callable[[], Procedure[T]], rolled: Sequence[Values]
           ) -> tuple[Node | None, T | None]:
    """Run a fresh procedure with the dice of each node given: (the next node, None) or (None,
    the result)."""
    proc = factory()
    try:
        node = next(proc)
        for values in rolled:
            node = proc.send(node.read(values))
    except StopIteration as stop:
        return None, stop.value
    return node, None


def follow(factory: Callable[[], Procedure[T]], values: Sequence[int]) -> tuple[T, int]:
    """The leaf the enumeration reaches when the dice come up `values` in order: (the result,
    how many values it used)."""
    rolled: list[Values] = []
    at = 0
    while True:
        node, result = _along(factory, rolled)
        if node is None:
            return result, at  # type: ignore[return-value]
        n = node.count
        if at + n > len(values):
            raise ValueError(f"the procedure needs more than the {len(values)} values given")
        rolled.append(tuple(values[at:at + n]))
        at += n


def mean(dist: dict[Any, Fraction]) -> Fraction:
    return sum((Fraction(k) * p for k, p in dist.items()), Fraction(0))
